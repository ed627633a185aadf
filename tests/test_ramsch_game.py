"""Ramsch as a game (docs/rules.md section 6): all pass, Grand Hand instead, Schieberamsch pushes."""

from __future__ import annotations

import random

import pytest

from skat.cards import JACKS
from skat.deal.game import Game, Phase, ramsch_game
from skat.errors import IllegalActionError
from skat.rules.rulesets import ISKO, PIRATE, PUB

RAMSCH = ISKO.replace(all_pass="ramsch")


def _all_pass(game):
    for _ in range(3):
        game.apply("pass")


def _play_out(game, seed=0):
    rng = random.Random(seed)
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
    return game.result


def test_all_pass_turns_into_ramsch_with_the_same_cards():
    game = Game(seed=3, ruleset=RAMSCH)
    hands = [game.hand(s) for s in range(3)]
    _all_pass(game)
    assert game.phase is Phase.PLAY and game.declarer is None and game.to_move == 0
    assert [game.hand(s) for s in range(3)] == hands
    assert game.side_actions(0) == []
    result = _play_out(game)
    assert result.kind == "ramsch" and result.declarer is None and result.won is None
    r = result.ramsch
    assert sum(r.card_points) >= 120 and sum(r.tricks) == 10
    most = max(r.card_points)
    if r.durchmarsch is None and len(r.losers) < 3 and r.losers:
        assert all(result.scores[s] == -most * r.multiplier for s in r.losers)
    again = Game.from_record(game.to_record())
    assert again.result.scores == result.scores


def test_passed_in_without_the_option():
    game = Game(seed=3)
    _all_pass(game)
    assert game.is_over and game.result.kind == "passed_in"


def test_grand_hand_instead_of_ramsch():
    game = Game(seed=3, ruleset=PUB)
    _all_pass(game)
    assert game.phase is Phase.GRAND_HAND and game.to_move == 0
    assert [str(a) for a in game.legal_actions()][:2] == ["declare grand hand", "pass"] or \
        "declare grand hand" in [str(a) for a in game.legal_actions()]
    game.apply("pass")
    game.apply("declare grand hand")  # middlehand
    assert game.declarer == 1 and game.contract.game_type.label == "grand" and game.contract.hand
    assert game.ramsch_grand_hand and game.phase is Phase.PLAY
    result = _play_out(game)
    assert result.kind != "ramsch" and result.scores[1] == result.outcome.score
    nobody = Game(seed=3, ruleset=PUB)
    _all_pass(nobody)
    for _ in range(3):
        nobody.apply("pass")
    assert nobody.phase is Phase.PLAY and nobody.declarer is None and not nobody.ramsch_grand_hand


def test_schieberamsch_pushes_double_and_jacks_stay():
    rules = RAMSCH.replace(schieberamsch=True)
    game = Game(seed=5, ruleset=rules)
    _all_pass(game)
    assert game.phase is Phase.PUSH and [str(a) for a in game.legal_actions()] == ["pickup", "push"]
    game.apply("push")  # forehand pushes unseen
    game.apply("pickup")  # middlehand takes the skat
    assert len(game.hand(1)) == 12
    discards = game.legal_actions()
    assert discards and all(not (a.cards.mask & JACKS) for a in discards)
    game.apply(discards[0])
    assert len(game.hand(1)) == 10 and game.view(1).discard == discards[0].cards
    game.apply("push")  # rearhand pushes
    assert game.phase is Phase.PLAY and game.pushes == 2
    result = _play_out(game)
    assert result.ramsch.pushes == 2 and result.ramsch.multiplier % 4 == 0


def test_pirate_schieber_round_has_no_unseen_push():
    game = ramsch_game(9, ruleset=PIRATE, schieberamsch=True)
    assert game.phase is Phase.PUSH and [str(a) for a in game.legal_actions()] == ["pickup"]
    with pytest.raises(IllegalActionError):
        game.apply("push")
    result = _play_out(game)
    assert result.kind == "ramsch" and result.ramsch.pushes == 0


def test_ramsch_round_game_skips_the_auction():
    game = ramsch_game(2, ruleset=ISKO)
    assert game.phase is Phase.PLAY and game.declarer is None
    result = _play_out(game, 4)
    assert result.kind == "ramsch"
    assert Game.from_record(game.to_record()).result.scores == result.scores


@pytest.mark.parametrize("seed", range(20))
def test_random_ramsch_games_score_consistently(seed):
    rules = RAMSCH.replace(schieberamsch=seed % 2 == 0, ramsch_grand_hand=seed % 3 == 0)
    game = ramsch_game(seed, ruleset=rules)
    result = _play_out(game, seed)
    if result.kind == "ramsch":
        assert sum(result.ramsch.tricks) == 10
        assert sum(1 for s in result.scores if s) <= 3
    copy = Game.from_record(game.to_record())
    assert copy.result.scores == result.scores
