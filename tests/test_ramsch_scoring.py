"""Ramsch scoring options (docs/rules.md section 6, D8-D11): each option changes the result."""

from __future__ import annotations

import pytest

from skat.cards import JACKS, mask_of
from skat.deal.ramsch import push_discards, score_ramsch
from skat.rules.rulesets import ISKO, TOURNEE


def test_augen_most_points_lose_them():
    out = score_ramsch([50, 40, 20], [4, 3, 3], 10, last_trick=2)
    assert out.scores == (-50, 0, 0) and out.card_points == (50, 40, 30)


def test_jungfrau_doubles_once_per_jungfrau():
    out = score_ramsch([70, 50, 0], [6, 4, 0], 0, last_trick=0)
    assert out.scores == (-140, 0, 0) and out.jungfrauen == (2,)
    plain = score_ramsch([70, 50, 0], [6, 4, 0], 0, last_trick=0, rules=ISKO.replace(ramsch_jungfrau=False))
    assert plain.scores == (-70, 0, 0)


def test_pushes_double_and_jungfrau_again():
    """ra-07 in docs/rules.md: 70 points, 2 pushes and 1 Jungfrau give -560."""
    out = score_ramsch([70, 50, 0], [6, 4, 0], 0, last_trick=0, pushes=2)
    assert out.scores == (-560, 0, 0) and out.multiplier == 8


def test_durchmarsch_scores_plus_120_or_loses_it():
    out = score_ramsch([110, 0, 0], [10, 0, 0], 10, last_trick=0)
    assert out.scores == (120, 0, 0) and out.durchmarsch == 0
    off = score_ramsch([110, 0, 0], [10, 0, 0], 10, last_trick=0,
                       rules=ISKO.replace(ramsch_durchmarsch=False, ramsch_jungfrau=False))
    assert off.scores == (-120, 0, 0)


@pytest.mark.parametrize("tie, expected", [
    ("all_lose", (-50, -50, 0)), ("share", (-25, -25, 0)), ("last_trick", (0, -50, 0))])
def test_tie_for_most(tie, expected):
    out = score_ramsch([50, 50, 20], [4, 4, 2], 0, last_trick=1, rules=ISKO.replace(ramsch_tie=tie))
    assert out.scores == expected


def test_three_way_tie_scores_nothing():
    assert score_ramsch([40, 40, 40], [3, 3, 4], 0, last_trick=2).scores == (0, 0, 0)


def test_skat_to_loser_counts_for_each_tied_player():
    rules = ISKO.replace(ramsch_skat="loser")
    out = score_ramsch([45, 45, 20], [4, 4, 2], 10, last_trick=2, rules=rules)
    assert out.card_points == (55, 55, 20) and out.scores == (-55, -55, 0)


def test_fixed_stakes_and_their_option():
    rules = ISKO.replace(ramsch_scoring="fixed", ramsch_fixed_stakes=(5, 10, 20))
    assert score_ramsch([70, 50, 0], [6, 4, 0], 0, last_trick=0, rules=rules).scores == (-10, 0, 0)
    assert score_ramsch([70, 40, 10], [6, 3, 1], 0, last_trick=0, rules=rules).scores == (-5, 0, 0)


def test_hoyle_lowest_wins_and_all_tricks_lose_30():
    assert score_ramsch([30, 40, 50], [3, 3, 4], 0, last_trick=2, rules=TOURNEE).scores == (10, 0, 0)
    assert score_ramsch([120, 0, 0], [10, 0, 0], 0, last_trick=0, rules=TOURNEE).scores == (-30, 0, 0)
    # tie for lowest where the third player took the last trick: the elder hand scores
    assert score_ramsch([35, 35, 50], [3, 3, 4], 0, last_trick=2, rules=TOURNEE).scores == (10, 0, 0)


def test_bad_input_is_refused():
    with pytest.raises(ValueError, match="10 tricks"):
        score_ramsch([50, 40, 30], [3, 3, 3], 0, last_trick=0)
    with pytest.raises(ValueError, match="120"):
        score_ramsch([50, 40, 20], [4, 3, 3], 0, last_trick=0)
    with pytest.raises(ValueError, match="last trick"):
        score_ramsch([60, 60, 0], [5, 5, 0], 0, last_trick=2)


def test_push_discards_exclude_jacks_unless_allowed():
    hand = mask_of("CJ SJ CA CT")
    pairs = push_discards(hand, ISKO)
    assert pairs == [mask_of("CA CT")]
    with_jacks = push_discards(hand, ISKO.replace(schieberamsch_jacks=True))
    assert len(with_jacks) == 6 and any(p & JACKS for p in with_jacks)
