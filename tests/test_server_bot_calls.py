"""Computer players at the web table may say Kontra and Re (their optional ``side_action``)."""

from __future__ import annotations

from skat import Game
from skat.players import RandomPlayer
from skat.rules.actions import PASS, Bid
from skat.rules.rulesets import PUB
from skat.server.bots import BotSeat


class AlwaysKontra(RandomPlayer):
    """Says Kontra or Re whenever it may; otherwise random."""

    def side_action(self, view):
        for action in view.side_actions:
            if str(action) in ("kontra", "re"):
                return action
        return None


class Broken(RandomPlayer):
    def side_action(self, view):
        raise RuntimeError("no opinion")


def first_trick_game() -> Game:
    game = Game(seed=11, ruleset=PUB)
    game.apply(Bid(18))
    game.apply(PASS)
    game.apply(PASS)  # middlehand declares
    game.apply(game.legal_actions()[1])  # the first hand game offered
    return game


def test_a_bot_defender_says_kontra_when_its_player_wants_to():
    game = first_trick_game()
    seat = BotSeat("random", 1)
    seat.player = AlwaysKontra(1)
    view = game.view(0)  # forehand, a defender, before his first card
    call = seat.call(view)
    assert call is not None and str(call) == "kontra"
    game.apply(call, seat=0)
    assert game.kontra_level == 1
    declarer_view = game.view(1)
    assert str(seat.call(declarer_view)) == "re"


def test_no_call_without_an_opinion_or_when_the_player_fails():
    game = first_trick_game()
    seat = BotSeat("random", 1)
    assert seat.call(game.view(0)) is None  # a random player has no side_action
    seat.player = Broken(1)
    assert seat.call(game.view(0)) is None  # a failing decision is simply not made
