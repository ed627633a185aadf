"""`skat value`: the game-value calculator, and its messages for bad input."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from skat.commands.value import InputError, compute

GOOD = {"game": "clubs", "declarer_cards": ["CJ", "SJ", "CA", "CT", "CK", "C9", "C8", "SA", "HA", "HK", "D7", "D8"],
        "hand": False, "schneider_announced": False, "schwarz_announced": False, "ouvert": False,
        "declarer_card_points": 72, "declarer_tricks": 6, "bid": 36}


def run(payload: str):
    return subprocess.run([sys.executable, "-m", "skat", "value"], input=payload, capture_output=True, text=True)


def test_prints_the_expected_fields():
    proc = run(json.dumps(GOOD))
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["game_value"] == 36 and out["score"] == 36 and out["matadors"] == {"with": True, "count": 2}


def test_kontra_doubles_the_score_not_the_value():
    """PAGAT: bid 20, diamonds with 1, 85 points, Kontra: overbid at 18, loses 2 x 27 x 2 = 108."""
    data = dict(GOOD, game="diamonds", bid=20, declarer_card_points=85, kontra_level=1,
                declarer_cards=["CJ", "DA", "DT", "DK", "DQ", "D9", "SA", "HA", "CA", "C7", "S7", "H7"])
    out = compute(data)
    assert out["game_value"] == 18 and out["overbid"] and out["score"] == -108


@pytest.mark.parametrize("payload, message", [
    ("not json", "not valid JSON"),
    ("[]", "expected a JSON object"),
    (json.dumps(dict(GOOD, game="chess")), "unknown game type"),
    (json.dumps(dict(GOOD, declarer_cards=["CJ"])), "exactly 12 cards"),
    (json.dumps(dict(GOOD, declarer_cards=["CJ", "CX"] + GOOD["declarer_cards"][2:])), "unknown card"),
    (json.dumps(dict(GOOD, declarer_card_points=130)), "0 to 120"),
    (json.dumps(dict(GOOD, schneider_announced=True)), "hand game"),
    (json.dumps({k: v for k, v in GOOD.items() if k != "bid"}), "missing field"),
    (json.dumps(dict(GOOD, hand="yes")), "true or false"),
])
def test_bad_input_gets_a_clear_message(payload, message):
    proc = run(payload)
    assert proc.returncode == 2
    assert message in proc.stderr and proc.stdout == ""


def test_compute_raises_input_error():
    with pytest.raises(InputError):
        compute({"game": "null"})
