"""Kontra / Re (docs/rules.md 5.3, D12): who may call, until when, the doubling, and the record."""

from __future__ import annotations

import pytest

from skat.deal.game import Game
from skat.errors import IllegalActionError
from skat.rules.rulesets import ISKO, PUB

HANDS = ["CA CT CK CQ C9 H8 D7 SA ST SK", "CJ SJ HJ DJ HA HT HK HQ H9 C8", "DA DT DK DQ D9 D8 C7 SQ S9 S8"]
SKAT = "S7 H7"
PLAYS = ["CA", "C8", "C7", "CT", "HA", "DA"]  # two tricks


def _declared(rules, auction=("18", "pass", "pass")):
    game = Game(hands=HANDS, skat=SKAT, ruleset=rules)
    for token in auction:
        game.apply(token)
    game.apply("declare hearts hand")  # middlehand (seat 1) plays hearts hand
    return game


def _finish(game):
    for token in PLAYS:
        game.apply(token)
    while not game.is_over:
        game.apply(game.legal_actions()[0])
    return game.result


def _tokens(actions):
    return [str(a) for a in actions]


def test_no_kontra_under_isko():
    game = _declared(ISKO)
    assert "kontra" not in _tokens(game.side_actions(0))
    with pytest.raises(IllegalActionError):
        game.apply("kontra", 0)


def test_kontra_and_re_double_the_score_not_the_value():
    plain = _finish(_declared(PUB))
    game = _declared(PUB)
    assert "kontra" in _tokens(game.side_actions(0)) and "kontra" in _tokens(game.side_actions(2))
    game.apply("kontra", 2)  # rearhand calls, out of turn
    assert game.kontra_level == 1 and "kontra" not in _tokens(game.side_actions(0))
    assert "re" in _tokens(game.side_actions(1))
    kontra = _finish(game)
    assert kontra.score == 2 * plain.score and kontra.outcome.game_value == plain.outcome.game_value
    game = _declared(PUB)
    game.apply("kontra", 0)
    game.apply("re", 1)
    assert game.kontra_level == 2
    re = _finish(game)
    assert re.score == 4 * plain.score
    again = Game.from_record(game.to_record())  # recorded and replayed
    assert again.kontra_level == 2 and again.result.score == re.score
    assert [0, "kontra"] in game.to_record()["actions"] and [1, "re"] in game.to_record()["actions"]


def test_kontra_until_own_first_card_or_first_lead():
    game = _declared(PUB)
    game.apply("CA")  # forehand leads
    assert "kontra" not in _tokens(game.side_actions(0))  # he has played
    assert "kontra" in _tokens(game.side_actions(2))  # rearhand has not
    strict = _declared(PUB.replace(kontra_until="first_lead"))
    assert "kontra" in _tokens(strict.side_actions(2))
    strict.apply("CA")
    assert "kontra" not in _tokens(strict.side_actions(2))


def test_only_bidders_may_say_kontra():
    rules = PUB.replace(kontra_who="bidders")
    game = _declared(rules)  # forehand and rearhand passed without bidding
    assert "kontra" not in _tokens(game.side_actions(0)) and "kontra" not in _tokens(game.side_actions(2))
    game = _declared(rules, auction=("18", "hold", "20", "pass", "pass"))  # forehand held 18, then passed
    assert "kontra" in _tokens(game.side_actions(0)) and "kontra" not in _tokens(game.side_actions(2))


def test_re_can_be_switched_off():
    game = _declared(PUB.replace(kontra_re=False))
    game.apply("kontra", 0)
    assert "re" not in _tokens(game.side_actions(1))
    with pytest.raises(IllegalActionError):
        game.apply("re", 1)


def test_the_declarer_cannot_say_kontra_nor_a_defender_re():
    game = _declared(PUB)
    assert "kontra" not in _tokens(game.side_actions(1))
    with pytest.raises(IllegalActionError):
        game.apply("kontra", 1)
    game.apply("kontra", 0)
    with pytest.raises(IllegalActionError):
        game.apply("re", 2)
