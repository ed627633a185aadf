"""The house-rule cases of shared/rules/vectors.json: ramsch, bock, settlement (and Seeger-Fabian)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from conftest import vectors
from skat.deal.ramsch import score_ramsch
from skat.rules.rulesets import ISKO, PIRATE, TOURNEE
from skat.table.scoresheet import seeger_fabian_score, settlement
from skat.table.series import pirate_rounds_due, round_score

SEAT = {"F": 0, "M": 1, "R": 2}
RAMSCH_RULES = {
    "ramsch_augen": ISKO,
    "ramsch_fixed": ISKO.replace(ramsch_scoring="fixed"),
    "historical_hoyle": TOURNEE,
    "pirate_schieber_round": PIRATE,
}


def _per_seat(d: dict) -> list[int]:
    return [d["F"], d["M"], d["R"]]


def _ramsch(inp: dict, rules) -> dict:
    """Score one ramsch input; card_points inputs already hold the skat (skat_points 0)."""
    if "card_points" in inp:
        points, skat_points = _per_seat(inp["card_points"]), 0
    else:
        points = _per_seat(inp["trick_points"])
        skat_points = inp.get("skat_points", inp.get("discarded_skat_points", 0))
    tricks = _per_seat(inp["tricks"]) if "tricks" in inp else [4, 3, 3]
    last = SEAT[inp["last_trick"]] if "last_trick" in inp else max(range(3), key=lambda s: tricks[s])
    out = score_ramsch(points, tricks, skat_points, last, rules)
    return dict(zip("FMR", out.scores))


@pytest.mark.parametrize("case", vectors("ramsch"), ids=lambda c: c["id"])
def test_ramsch_vector(case):
    rules = RAMSCH_RULES[case["ruleset"]]
    inp, exp = case["input"], case["expected"]
    if "cases" in inp:
        assert [_ramsch(sub, rules) for sub in inp["cases"]] == exp["scores"]
    elif "scores_by_variant" in exp:
        for variant, want in exp["scores_by_variant"].items():
            skat_rule = "loser" if "loser" in variant else "last_trick"
            assert _ramsch(inp, rules.replace(ramsch_skat=skat_rule)) == want, variant
        assert "(default)" in next(k for k in exp["scores_by_variant"] if "last_trick" in k)
        assert ISKO.ramsch_skat == "last_trick"
    else:
        assert _ramsch(inp, rules) == exp["scores"]


@pytest.mark.parametrize("case", vectors("bock"), ids=lambda c: c["id"])
def test_bock_vector(case):
    inp, exp = case["input"], case["expected"]
    assert case["ruleset"] == "pirate_skat_seed001"
    if inp.get("query") == "phase_after_threshold":
        assert pirate_rounds_due(_per_seat(inp["cumulative_scores"]), inp["threshold"]) == exp["next_rounds"]
        assert PIRATE.pirate_threshold == inp["threshold"]
        return
    value = inp["game_value"]
    hand = not inp["skat_taken"]
    factor = PIRATE.lost_hand_game_factor if hand else PIRATE.lost_game_factor
    declarer_score = value if inp["won"] else -factor * value
    got = round_score(declarer_score, won=inp["won"], hand=hand, round_kind="pirate_bock", rules=PIRATE)
    assert got == exp["score"]


@pytest.mark.parametrize("case", vectors("settlement"), ids=lambda c: c["id"])
def test_settlement_vector(case):
    inp, exp = case["input"], case["expected"]
    assert inp["method"] == "difference_from_average"
    n, shift = inp["players"], inp["shift_added"]
    assert Fraction(inp["shifted_total"], n) == exp["shifted_average"]
    original_total = inp["shifted_total"] - n * shift
    assert original_total == exp["original_total"]
    assert Fraction(original_total, n) == exp["original_average"]
    # any totals with that sum settle the same after the shift
    totals = [100, -75, 40, original_total - 65]
    assert sum(totals) == original_total
    same = settlement(totals) == settlement([t + shift for t in totals])
    assert same == exp["settlement_invariant_under_shift"]


def test_settlement_foster_example():
    """docs/rules.md 10.4 (set-01): totals 186, 42, 344, 116 settle +14, -130, +172, -56."""
    assert settlement([186, 42, 344, 116]) == [14, -130, 172, -56]


def test_settlement_pairwise_equals_n_times_difference():
    """docs/rules.md 10.4 (set-02): Foster's pairwise balance -7, +88, +19 -> -121, +164, -43."""
    assert [3 * s for s in settlement([-7, 88, 19])] == [-121, 164, -43]


def test_seeger_fabian_preisskat_example():
    """docs/rules.md 5.2 (sf-07): the 48-game 4-table example, plain and extended Seeger."""
    points = {"A": 492, "B": 628, "C": 660, "D": -32}
    record = {"A": (12, 0), "B": (12, 2), "C": (10, 1), "D": (6, 5)}
    total_lost = sum(lost for _, lost in record.values())
    plain = {p: seeger_fabian_score(points[p], *record[p], 0, 4) for p in points}
    assert plain == {"A": 1092, "B": 1128, "C": 1110, "D": 18}
    extended = {p: seeger_fabian_score(points[p], *record[p], total_lost - record[p][1], 4) for p in points}
    assert extended == {"A": 1332, "B": 1308, "C": 1320, "D": 108}
