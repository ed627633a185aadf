"""Real-table mode (docs/rules.md section 8): a revoke is recorded and decides the game."""

from __future__ import annotations

import pytest

from skat.deal.game import Game
from skat.errors import IllegalActionError
from skat.rules.rulesets import ISKO

REAL = ISKO.replace(real_table=True)
HANDS = ["CA CT CK CQ C9 H8 D7 SA ST SK", "CJ SJ HJ DJ HA HT HK HQ H9 C8", "DA DT DK DQ D9 D8 C7 SQ S9 S8"]
SKAT = "S7 H7"


def _grand_hand(rules):
    game = Game(hands=HANDS, skat=SKAT, ruleset=rules)
    for token in ("18", "pass", "pass", "declare grand hand"):
        game.apply(token)
    return game


def test_a_revoke_is_refused_normally():
    game = _grand_hand(ISKO)
    game.apply("CA")
    with pytest.raises(IllegalActionError, match="follow"):
        game.apply("HA")  # the declarer holds C8


def test_defender_revoke_gives_the_declarer_his_game_without_schneider():
    game = _grand_hand(REAL)
    game.apply("CA")
    game.apply("C8")
    game.apply("DA")  # rearhand holds C7: a revoke
    r = game.result
    assert game.is_over and r.kind == "revoke" and r.won
    assert r.score == 6 * 24  # with 4, game, hand: no schneider level
    assert "revoke" in r.explanation
    assert Game.from_record(game.to_record()).result.score == r.score


def test_declarer_revoke_loses_einfach():
    game = _grand_hand(REAL)
    game.apply("CA")
    game.apply("HA")  # the declarer holds C8
    r = game.result
    assert r.kind == "revoke" and not r.won and r.score == -2 * 6 * 24


def test_a_game_already_won_is_not_lost_by_a_later_revoke():
    hands = ["CJ SJ HJ CA CT SA ST HA H7 D7", "CK CQ C9 C8 C7 SK SQ S9 S8 S7", "HT HK HQ H9 H8 DA DT DK DQ D9"]
    game = Game(hands=hands, skat="DJ D8", ruleset=REAL)
    for token in ("pass", "pass", "18", "declare grand hand"):
        game.apply(token)
    for token in ("CA C7 D9 CT C8 DQ SA S7 DK ST S8 DT HA SK H8 D7 S9 DA HK").split():
        game.apply(token)
    assert game.trick_points[0] + 2 >= 61  # forehand has won already
    game.apply("CJ")  # ... and revokes: he holds H7
    r = game.result
    assert r.kind == "revoke" and r.revoke_by == 0 and r.won and r.score > 0


def test_real_table_does_not_excuse_cards_not_held():
    game = _grand_hand(REAL)
    with pytest.raises(IllegalActionError, match="not in"):
        game.apply("DA")  # forehand does not hold it
