"""docs/rules.md Q5 (and section 8.3): a defender's revoke in a game that is overbid anyway. The revoke decides
the card points (the declarer is credited 61, without schneider: ``Game._revoke_points``), and the overbid still
loses (section 4.4: ``skat.rules.value.evaluate`` judges the game on those points).

The deal: middlehand announces Hearts hand after a bid of 40, counting "without 2, game 3, hand 4" = 4 x 10 = 40
from his ten cards; the skat holds the CJ, so his twelve cards are "with 1": game 2, hand 3 = 30, below the bid.
In the first trick rearhand, who holds the C7, throws the DA on forehand's CA: a revoke by a defender."""

from __future__ import annotations

import pytest

from skat.deal.game import Game
from skat.errors import IllegalActionError
from skat.rules.rulesets import ISKO

REAL = ISKO.replace(real_table=True)
HANDS = ["SJ CA CT CK CQ C9 C8 SK SQ S9",  # forehand, a defender
         "HJ DJ HA HT HK HQ H9 H8 SA ST",  # middlehand, the declarer: neither CJ nor SJ
         "C7 DA DT DK DQ D9 D8 S8 S7 H7"]  # rearhand, a defender: the C7 is his only club
SKAT = "CJ D7"
DECLARER, REVOKER = 1, 2


def _revoked(bid: int) -> Game:
    game = Game(hands=HANDS, skat=SKAT, ruleset=REAL)
    for token in (str(bid), "pass", "pass", "declare hearts hand"):
        game.apply(token)
    assert game.declarer == DECLARER and game.bid == bid
    game.apply("CA")  # forehand leads
    game.apply("SA")  # the declarer has no club: any card
    game.apply("DA")  # rearhand holds the C7: a revoke
    assert game.is_over
    return game


def test_a_defenders_revoke_in_an_overbid_game_still_loses_it_overbid():
    r = _revoked(40).result
    assert r.kind == "revoke" and r.revoke_by == REVOKER and r.declarer == DECLARER
    # the revoke decides the card points: 61 credited to the declarer (he had only the skat's 2), no schneider
    assert r.declarer_points == 61 and r.defender_points == 59
    o = r.outcome
    assert (o.matadors_with, o.matadors, o.multiplier, o.base_value, o.game_value) == (True, 1, 3, 10, 30)
    assert not o.schneider and not o.schwarz  # with 1, game 2, hand 3
    # ... and the game is still lost overbid: twice the smallest multiple of the base value that reaches the bid
    assert o.overbid and not r.won and not o.won
    assert r.scores[DECLARER] == r.score == -2 * 40
    assert r.scores[0] == r.scores[2] == 0
    assert "overbid" in r.explanation and "revoke" in r.explanation
    again = Game.from_record(_revoked(40).to_record()).result  # the record keeps it so
    assert (again.kind, again.won, again.score, again.revoke_by) == ("revoke", False, -80, REVOKER)


@pytest.mark.parametrize("bid", [18, 30])
def test_the_same_revoke_wins_a_game_that_reaches_the_bid(bid):
    """The other side of Q5: the loss above comes from the overbid, not from the revoke."""
    r = _revoked(bid).result
    assert r.kind == "revoke" and r.revoke_by == REVOKER
    assert r.declarer_points == 61 and r.won and not r.outcome.overbid
    assert r.score == 30  # with 1, game 2, hand 3 x 10, as reached: no schneider from the revoke


def test_the_revoke_not_the_play_decides_the_points():
    """Not a real table: the revoke is refused. Played out (each seat its first legal card) the declarer makes
    schneider, which cures the overbid (hand 4 x 10 = 40); after the revoke he is credited 61 only, so Q5's
    game is judged with 61 points and lost overbid."""
    game = Game(hands=HANDS, skat=SKAT, ruleset=ISKO)
    for token in ("40", "pass", "pass", "declare hearts hand"):
        game.apply(token)
    game.apply("CA")
    game.apply("SA")
    with pytest.raises(IllegalActionError, match="follow"):
        game.apply("DA")  # refused: not a real table
    while not game.is_over:
        game.apply(game.legal_actions()[0])
    r = game.result
    assert r.kind == "played" and r.revoke_by is None
    assert r.declarer_points > 90 and r.outcome.schneider and r.outcome.game_value == 40
    assert r.won and not r.outcome.overbid and r.score == 40
