"""Playouts (:mod:`skat.players.playout`): each row's input is the encoding of the mover's real view, the rows
follow the rules, and a row's value is the solver's from where the policy stopped."""

from __future__ import annotations

import copy

import numpy as np
import pytest

from skat.cards import Card, mask_points
from skat.deal.game import Game, Phase
from skat.players.cardmodel import shipped_card_model
from skat.players.encoding import OFFSET, encode_view, legal_cards
from skat.players.heuristic import HeuristicPlayer
from skat.players.pimc import PIMCPlayer
from skat.players.playout import SOLVE_FROM, Playouts, applies, playout_values
from skat.players.worlds import Knowledge, World
from skat.rules.actions import Play
from skat.solver.search import solve_points


def _decision(seed: int, tricks: int) -> Game | None:
    """A heuristic deal of a suit or grand game at a card decision after ``tricks`` tricks, if it gets there."""
    game = Game(seed=seed)
    players = [HeuristicPlayer(seed * 3 + s) for s in range(3)]
    while not game.is_over:
        s = game.to_move
        view = game.view(s)
        if game.phase is Phase.PLAY and len(view.tricks) == tricks and applies(view):
            return game if len(view.legal_actions) > 1 else None
        game.apply(players[s].choose(view), s)
    return None


def _true_world(game: Game) -> World:
    skat = game.discard if game.skat_taken else game.initial_skat
    return World(tuple(game.view(s).hand.mask for s in range(3)), int(skat))


def _positions(count: int) -> list[Game]:
    found = []
    for seed in range(200):
        game = _decision(seed, seed % 4)
        if game is not None:
            found.append(game)
        if len(found) == count:
            return found
    raise AssertionError("too few positions")


# A suit defender and declarer (with and without a pickup), a grand declarer after a pickup and by hand, a grand defender.
SEEDS = (0, 1, 3, 7, 25, 32, 34, 39)


@pytest.mark.parametrize("seed", SEEDS)
def test_each_row_reads_the_movers_real_view_and_ends_where_the_game_does(seed: int) -> None:
    game = _decision(seed, seed % 4)
    assert game is not None
    model = shipped_card_model()
    me = game.to_move
    view = game.view(me)
    know = Knowledge.from_view(view)
    world = _true_world(game)
    cards = [int(a.card) for a in view.legal_actions]
    runs = Playouts(view, know, model, np.array([world.hands]), np.array([world.skat]), cards)
    games = [copy.deepcopy(game) for _ in cards]
    runs.play(runs.card_of)
    for row, card in enumerate(cards):
        games[row].apply(Play(Card(card)), me)
    plies = 0
    while runs.tricks_left > SOLVE_FROM or runs.trick_len:
        movers = runs.movers()
        legal = runs.legal(movers)
        x = runs.inputs(movers, legal)
        for row, g in enumerate(games):
            assert g.to_move == movers[row]
            real = g.view(g.to_move)
            expected = encode_view(real)
            if real.seat == real.declarer and real.seat != me:  # the cards he picked up: nobody else knows them
                expected[OFFSET["skat"]:OFFSET["skat"] + 32] = 0.0
            np.testing.assert_array_equal(x[row, :len(expected)], expected)
            np.testing.assert_array_equal(x[row, len(expected):] > 0.5, legal_cards(real))
        chosen = np.argmax(model.policy_logits(x), axis=1)
        runs.play(chosen.astype(np.int64))
        for row, g in enumerate(games):
            g.apply(Play(Card(int(chosen[row]))), g.to_move)
        plies += 1
    assert plies >= 3
    for row, g in enumerate(games):
        assert [g.view(s).hand.mask for s in range(3)] == runs.hands[row].tolist()
        assert list(g.view(0).trick_points) == runs.points[row].tolist()
        assert not g.view(0).trick and runs.leader[row] == g.to_move


def test_a_cards_value_is_the_solvers_from_where_the_policy_stopped() -> None:
    model = shipped_card_model()
    for game in _positions(3):
        me = game.to_move
        view = game.view(me)
        know = Knowledge.from_view(view)
        world = _true_world(game)
        totals, counted = playout_values(view, [world, world], know, model)
        assert counted == 2 and set(totals) == {int(a.card) for a in view.legal_actions}
        runs = Playouts(view, know, model, np.array([world.hands]), np.array([world.skat]), list(totals))
        runs.run()
        contract = view.contract
        target = 90 if contract.schneider else 61
        declarer = view.declarer
        for row, card in enumerate(totals):
            v = solve_points(int(contract.game_type), runs.hands[row].tolist(), [], int(runs.leader[row]), declarer,
                             int(runs.points[row, declarer]) + mask_points(world.skat))
            value = (v >= target) + 0.25 * ((v >= 90) - (v <= 30)) + 0.002 * v
            assert totals[card] == pytest.approx(2 * value)


def test_playouts_only_where_they_apply() -> None:
    game = _positions(1)[0]
    view = game.view(game.to_move)
    assert not applies(view, solve_from=10)
    with pytest.raises(ValueError, match="playouts"):
        playout_values(view, [], Knowledge.from_view(view), shipped_card_model(), solve_from=10)


def test_a_player_with_playouts_plays_legal_cards_to_the_end(monkeypatch) -> None:
    """Whole deals with playouts for the defenders (seat 0) and for every role (seats 1, 2); every playout
    returns (the player would hide an exception behind the heuristic's card)."""
    from skat.players import playout

    calls = {"asked": 0, "answered": 0, "declarer": 0}
    original = playout.playout_values

    def counted(view, *args, **kwargs):
        calls["asked"] += 1
        calls["declarer"] += view.seat == view.declarer
        out = original(view, *args, **kwargs)
        calls["answered"] += 1
        return out

    monkeypatch.setattr(playout, "playout_values", counted)
    with pytest.raises(ValueError, match="playouts are for"):
        PIMCPlayer(1, playouts="declarer")
    for seed in range(4):
        game = Game(seed=3100 + seed)
        players = [PIMCPlayer(seed * 3 + s, worlds=6, min_worlds=1, time_budget=0.05, bidding=False,
                              playouts="all" if s else "defenders") for s in range(3)]
        while not game.is_over:
            s = game.to_move
            view = game.view(s)
            action = players[s].choose(view)
            assert action in view.legal_actions
            game.apply(action, s)
        assert game.result is not None
    assert calls["asked"] > 10 and calls["answered"] == calls["asked"] and calls["declarer"] > 0


def test_the_playout_ablations_are_strong_with_playouts() -> None:
    from skat.players import ablation

    strong = ablation.strong_solver(3)  # strong as it was when they were measured
    defence, every, wide = (ablation.strong_playout_defence(3), ablation.strong_playouts(3),
                            ablation.strong_playouts_wide(3))
    assert isinstance(strong, PIMCPlayer) and strong.playouts is None
    assert (defence.playouts, every.playouts, wide.playouts) == ("defenders", "all", "all")
    assert (defence.policy_prune, every.policy_prune, wide.policy_prune) == (3, 3, 0)
    for player in (defence, every, wide):
        assert (player.worlds, player.pool, player.time_budget, player.playout_solve_from) == (60, 4, 0.5, SOLVE_FROM)
        assert type(player.bidder) is type(strong.bidder) and player.bidder.margin == strong.bidder.margin
