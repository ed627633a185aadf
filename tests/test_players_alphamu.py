"""Alpha-mu: depth 1 is PIMC, more depth never credits the declarer with knowledge he lacks, one world is exact."""

from __future__ import annotations

import random

import pytest

from skat.cards import mask_points
from skat.deal.game import Game, Phase
from skat.players.alphamu import Position, best_card, pareto
from skat.players.heuristic import HeuristicPlayer
from skat.players.pimc import PIMCPlayer
from skat.players.worlds import Knowledge, sample_worlds
from skat.solver.search import declarer_reaches


def test_the_pareto_front_keeps_the_outcomes_nothing_contains():
    assert pareto([0b0011, 0b0001, 0b0110, 0b0011, 0b0100]) == [0b0011, 0b0110]
    assert pareto([0b1111, 0b0110]) == [0b1111]
    assert len(pareto(list(range(1 << 6)), limit=5)) == 1  # everything is inside 0b111111


def _late_declarer_positions(tricks_left: int, games: int = 40):
    """(view, positions of 12 sampled worlds) where the declarer of a suit or grand game is to play."""
    rng = random.Random(11)
    for seed in range(games):
        game = Game(seed=seed)
        players = [HeuristicPlayer(seed * 7 + s) for s in range(3)]
        while not game.is_over:
            s = game.to_move
            view = game.view(s)
            if (game.phase is Phase.PLAY and view.declarer == s and view.contract is not None
                    and int(view.contract.game_type) <= 4 and not view.contract.schwarz
                    and len(view.tricks) == 10 - tricks_left and len(view.legal_actions) > 1):
                know = Knowledge.from_view(view)
                trick = tuple(int(c) for _s, c in view.trick)
                leader = view.trick[0][0] if view.trick else view.tricks[-1][2]
                positions = [Position(w.hands, trick, leader, view.trick_points[s] + mask_points(w.skat))
                             for w in sample_worlds(know, 12, rng)]
                yield view, positions
                break
            game.apply(players[s].choose(view), s)


def test_depth_one_counts_the_worlds_each_card_wins_double_dummy():
    checked = 0
    for view, positions in _late_declarer_positions(4):
        gt, declarer = int(view.contract.game_type), view.declarer
        target = 90 if view.contract.schneider else 61
        _card, won, _n = best_card(gt, declarer, target, positions, depth=1)
        for card, count in won.items():
            wins = 0
            for pos in positions:
                after = pos.play(gt, declarer, card)
                wins += after.points >= target or bool(
                    (after.hands[0] | after.hands[1] | after.hands[2])
                    and declarer_reaches(gt, after.hands, after.trick, after.leader, declarer, target, after.points))
            assert count == wins
        checked += 1
    assert checked >= 10


@pytest.mark.parametrize("tricks_left", [3, 4])
def test_more_depth_never_wins_more_worlds_and_one_world_is_exact(tricks_left):
    checked = 0
    for view, positions in _late_declarer_positions(tricks_left):
        gt, declarer = int(view.contract.game_type), view.declarer
        target = 90 if view.contract.schneider else 61
        _c1, pimc, _n1 = best_card(gt, declarer, target, positions, depth=1)
        _c2, deeper, _n2 = best_card(gt, declarer, target, positions, depth=3)
        assert all(deeper[c] <= pimc[c] for c in pimc)
        one = positions[:1]
        assert best_card(gt, declarer, target, one, depth=1)[1] == best_card(gt, declarer, target, one, depth=3)[1]
        checked += 1
    assert checked >= 10


def test_the_declarer_to_move_is_required():
    pos = Position((0b1, 0b10, 0b100), (), 1, 0)
    with pytest.raises(ValueError, match="declarer must be to move"):
        best_card(4, 0, 61, [pos])


def test_pimc_with_alphamu_plays_legal_cards_to_the_end():
    player = PIMCPlayer(2, worlds=10, min_worlds=1, time_budget=0.3, bidding=False, alphamu_tricks=4)
    for seed in range(4):
        game = Game(seed=seed)
        others = [HeuristicPlayer(seed + s) for s in range(3)]
        while not game.is_over:
            s = game.to_move
            view = game.view(s)
            use = game.phase is Phase.PLAY and s == view.declarer
            action = player.choose(view) if use else others[s].choose(view)
            assert action in view.legal_actions
            game.apply(action, s)
