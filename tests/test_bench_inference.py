"""bench/inference.py: the calibration of the worlds a player searches against the true deal."""

from __future__ import annotations

import importlib.util
import random
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _bench():
    spec = importlib.util.spec_from_file_location("bench_inference", ROOT / "bench" / "inference.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_inference"] = module
    spec.loader.exec_module(module)
    return module


def test_calibration_prints_each_scheme_for_each_role_with_shares_between_0_and_1(capsys):
    bench = _bench()
    deals = bench.held_out(ROOT / "bench" / "data" / "corpus" / "play-2043.jsonl.gz")[:3]
    assert bench.calibration(deals, random.Random(1), pool_size=40, searched=10) == 0
    out = capsys.readouterr().out
    rows = [line for line in out.splitlines() if line.startswith("  ") and "effective size" not in line]
    assert sum("effective size" in line for line in out.splitlines()) == 2
    assert len(rows) == 2 * (1 + len(bench.POWERS))
    assert sum("the 10 most likely of 40" in row for row in rows) == 2
    for row in rows:
        share = float(re.search(r"\s(\d\.\d{3}) ±", row).group(1))
        assert 0.0 <= share <= 1.0
    anchors = [row for row in rows if "most likely" in row]
    assert all("(anchor +0.000;" in row for row in anchors)
