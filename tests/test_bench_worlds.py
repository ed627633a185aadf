"""bench/worlds.py: the time to deal a pool of worlds, compiled against the plain Python source."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_the_bench_deals_the_same_worlds_both_ways_and_prints_the_ratio():
    out = subprocess.run([sys.executable, str(ROOT / "bench" / "worlds.py"), "--deals", "2", "--pool", "20"],
                         capture_output=True, text=True, check=True, timeout=300).stdout
    assert "the same worlds both ways" in out and "anchor: its plain Python source" in out
    figures = json.loads(out.splitlines()[-1])
    assert figures["pool"] == 20 and figures["decisions"] >= 6
    assert figures["ms_median"] > 0 and figures["anchor_ms_median"] > 0
    assert figures["ratio"] == figures["anchor_ms_median"] / figures["ms_median"]
