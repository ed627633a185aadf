"""bench/load.py runs: a few tables of three people over real WebSockets against a real `skat serve`
(a smoke test of the load generator; its figures are measured by running it, not here)."""

from __future__ import annotations

import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_load_generator_plays_tables_without_errors() -> None:
    out = subprocess.run(
        [sys.executable, os.path.join(ROOT, "bench", "load.py"), "--tables", "4", "--seconds", "4",
         "--repeats", "1", "--pace", "0.02", "--no-cost", "--pings", "20", "--warmup", "1"],
        capture_output=True, text=True, timeout=180, cwd=ROOT)
    assert out.returncode == 0, out.stderr[-3000:]
    run = re.search(r"run 1: 4 tables on 1 process\(es\), (\d+) actions .* (\d+) errors", out.stdout)
    assert run is not None, out.stdout
    actions, errors = int(run.group(1)), int(run.group(2))
    # four tables played fast for four seconds: a seat waits 10-30 ms before it acts, so that it stays under
    # the server's limit of messages a connection may send a second (a faster machine would be closed for flood)
    assert actions > 20
    assert errors == 0, out.stdout  # the run line says which error codes came back
    assert "action round trip p50" in out.stdout and "anchor: idle ping round trip" in out.stdout
