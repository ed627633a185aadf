"""bench/bot_wait.py runs: a person at a real `skat serve` table against two computer players, each of
their decisions timed from the person's client."""

from __future__ import annotations

import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_bot_wait_times_every_computer_decision_of_a_deal():
    out = subprocess.run(
        [sys.executable, os.path.join(ROOT, "bench", "bot_wait.py"), "--level", "easy", "--deals", "2",
         "--bot-delay", "0.1"], capture_output=True, text=True, timeout=300, check=True)
    figures = json.loads(out.stdout.strip().splitlines()[-1])
    assert figures["deals"] == 2 and figures["decisions"] >= 4
    assert figures["wait_median_s"] >= 0.1 - 0.01  # the pause is kept
    assert figures["wait_median_s"] <= figures["wait_p95_s"] <= figures["wait_max_s"]
    assert "a person waits" in out.stdout


def test_bad_options_are_refused():
    out = subprocess.run([sys.executable, os.path.join(ROOT, "bench", "bot_wait.py"), "--deals", "0"],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 2 and "--deals and --tables must be at least 1" in out.stderr
