"""The auction (docs/rules.md section 2): who bids to whom, jumps, holding, passing, forehand's right."""

from __future__ import annotations

import pytest

from skat import BID_VALUES, Bid, Game, Phase
from skat.errors import IllegalActionError, OutOfTurnError
from skat.rules.actions import HOLD, PASS
from skat.rules.bidding import Auction, next_bid


def run(moves):
    a = Auction()
    for seat, move in moves:
        a.apply(seat, move)
    return a


def test_ladder_has_63_values_from_18_to_264():
    assert len(BID_VALUES) == 63 and BID_VALUES[0] == 18 and BID_VALUES[-1] == 264
    assert 19 not in BID_VALUES and 21 not in BID_VALUES and 25 not in BID_VALUES
    assert next_bid(0) == 18 and next_bid(18) == 20 and next_bid(264) is None


def test_middlehand_bids_to_forehand_then_rearhand_to_the_survivor():
    a = run([(1, 18), (0, "hold"), (1, 20), (0, "pass"), (2, 22), (1, "hold"), (2, "pass")])
    assert a.finished and a.declarer == 1 and a.value == 22


def test_jumps_are_allowed_and_rearhand_must_exceed_the_value_held():
    a = run([(1, 18), (0, "hold"), (1, "pass")])
    assert a.to_move == 2 and a.legal()[0] == 20  # 18 was held: rearhand must say more
    a.apply(2, 48)
    assert a.to_move == 0 and a.legal() == ["hold", "pass"]
    a.apply(0, "hold")
    with pytest.raises(IllegalActionError, match="higher than 48"):
        a.apply(2, 48)
    a.apply(2, "pass")
    assert a.declarer == 0 and a.value == 48


def test_middlehand_passing_without_a_bid_lets_rearhand_bid_to_forehand():
    a = run([(1, "pass"), (2, 18), (0, "pass")])
    assert a.declarer == 2 and a.value == 18


def test_forehand_may_play_at_18_when_the_others_pass():
    a = run([(1, "pass"), (2, "pass")])
    assert not a.finished and a.to_move == 0 and a.legal() == [18, "pass"]
    a.apply(0, 18)
    assert a.declarer == 0 and a.value == 18


def test_all_pass_has_no_declarer():
    a = run([(1, "pass"), (2, "pass"), (0, "pass")])
    assert a.finished and a.declarer is None


def test_passing_is_final():
    a = run([(1, 18), (0, "pass")])
    assert a.to_move == 2
    with pytest.raises(OutOfTurnError):
        a.apply(0, 20)


def test_a_value_off_the_ladder_is_refused():
    a = Auction()
    with pytest.raises(IllegalActionError, match="not a possible bid"):
        a.apply(1, 19)


def test_game_all_pass_is_passed_in_and_nobody_scores():
    g = Game(seed=5)
    for _ in range(3):
        g.apply(PASS)
    assert g.phase is Phase.FINISHED and g.result.kind == "passed_in" and g.result.scores == (0, 0, 0)


def test_game_offers_only_legal_bids():
    g = Game(seed=5)
    assert g.to_move == 1
    acts = g.legal_actions()
    assert acts[0] == Bid(18) and acts[-1] == PASS and len(acts) == 64
    g.apply(Bid(30))
    assert g.legal_actions() == [HOLD, PASS] and g.to_move == 0
    with pytest.raises(OutOfTurnError):
        g.apply(Bid(33), seat=2)
    g.apply(HOLD)
    assert g.legal_actions()[0] == Bid(33)
