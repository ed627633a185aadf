"""A decision's budget: the soft deadline starts no new world, no search runs past the hard one, and what
was cut off is left out, never half counted (clocks made up here, so nothing depends on this machine's speed)."""

from __future__ import annotations

import random

import pytest

from skat.deal.game import Game, Phase
from skat.players.bidding import SimulationBidder
from skat.players.budget import Budget, OutOfTime, SoftDeadline
from skat.players.heuristic import HeuristicPlayer
from skat.players.pimc import PIMCPlayer, card_values
from skat.players.worlds import Knowledge, sample_worlds
from skat.rules.actions import Play
from skat.solver.search import SearchLimitExceeded


class Ticks:
    """A clock that moves ``step`` seconds each time it is read."""

    def __init__(self, step: float) -> None:
        self.now, self.step = 0.0, step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


def test_the_hard_deadline_is_twice_the_soft_one_by_default_and_never_before_it():
    b = Budget(0.5, clock=lambda: 10.0)
    assert (b.soft, b.hard) == (10.5, 11.0)
    assert Budget(0.5, 0.2, clock=lambda: 0.0).hard == 0.5
    assert Budget(0.5, 1.2, clock=lambda: 0.0).hard == 1.2


def test_time_limit_counts_down_and_stops_at_the_hard_deadline():
    clock = Ticks(0.3)
    b = Budget(0.5, 1.0, clock=clock)  # started at 0.3: soft 0.8, hard 1.3
    assert b.time_limit() == pytest.approx(0.7)  # read at 0.6
    assert b.soft_passed()  # read at 0.9
    assert b.time_limit() == pytest.approx(0.1)  # read at 1.2
    with pytest.raises(OutOfTime) as raised:
        b.time_limit()
    assert isinstance(raised.value, SearchLimitExceeded) and "hard deadline" in str(raised.value)


def test_check_soft_raises_only_once_the_soft_deadline_has_passed():
    clock = Ticks(0.3)
    b = Budget(0.5, 1.0, clock=clock)  # started at 0.3: soft 0.8
    b.check_soft()  # read at 0.6
    with pytest.raises(SoftDeadline):
        b.check_soft()  # read at 0.9
    assert not isinstance(SoftDeadline(), SearchLimitExceeded)  # the soft deadline is no search cut off


@pytest.mark.parametrize("soft,hard", [(0, None), (-1, 1), (0.5, 0), (float("nan"), None)])
def test_a_budget_is_positive(soft, hard):
    with pytest.raises(ValueError, match="positive"):
        Budget(soft, hard)


def _play_view(seed: int):
    game = Game(seed=seed)
    h = HeuristicPlayer(seed)
    while game.phase is not Phase.PLAY or len(game.tricks) < 4:
        game.apply(h.choose(game.view(game.to_move)), game.to_move)
    return game.view(game.to_move)


def test_a_world_cut_off_by_the_hard_deadline_is_left_out_whole():
    view = _play_view(11)
    know = Knowledge.from_view(view)
    worlds = sample_worlds(know, 6, random.Random(1))
    assert sum(1 for a in view.legal_actions if isinstance(a, Play)) > 1
    counting = Ticks(1.0)
    full, solved = card_values(view, worlds, know, budget=Budget(1e6, clock=counting))
    assert solved == 6
    reads = counting.now  # the budget's start and one read per search
    clock = Ticks(1.0)
    budget = Budget(reads / 2, reads / 2, clock=clock)  # the hard deadline falls half-way through the searches
    cut, solved = card_values(view, worlds, know, budget=budget)
    assert 0 < solved < 6
    first, _ = card_values(view, worlds[:solved], know)
    assert cut == first and cut != full


def test_pimc_with_no_time_for_any_search_still_plays_a_legal_card(monkeypatch):
    view = _play_view(12)
    player = PIMCPlayer(3, worlds=8, min_worlds=4, time_budget=0.05, bidding=False)
    monkeypatch.setattr("skat.players.pimc.Budget", lambda soft, hard: Budget(soft, hard, clock=Ticks(10.0)))
    action, totals, solved = player.rank_cards(view)
    assert solved == 0 and set(totals.values()) == {0.0}
    assert action in view.legal_actions  # the heuristic's choice among the (all tied) cards


def test_the_bidder_gives_every_search_the_time_left_and_stops_at_the_hard_deadline(monkeypatch):
    import skat.solver.search as search

    limits: list[float | None] = []

    def fake(*args, time_limit=None, **kwargs):  # a search that answers at once, recording its limit
        limits.append(time_limit)
        return True

    monkeypatch.setattr(search, "declarer_reaches", fake)
    monkeypatch.setattr(search, "null_declarer_wins", fake)
    game = Game(hands=["CJ SJ HJ CA CT CK CQ HA HT SA", "DJ C9 C8 C7 HK HQ H9 SK SQ S9",
                       "DA DT DK DQ D9 D8 D7 H8 H7 ST"], skat="S8 S7")  # clubs: well worth simulating
    view = game.view(0)
    bidder = SimulationBidder(random.Random(0), worlds=8, time_budget=50.0, max_time=60.0)
    unlimited = bidder._simulate_hand(view)
    searches = len(limits)
    assert searches > 8 and all(x is not None and 0 < x <= 60.0 for x in limits)
    limits.clear()
    # the clock passes 1 s a read: the hard deadline (3 s after the start) comes after the first search
    monkeypatch.setattr("skat.players.bidding.Budget", lambda soft, hard: Budget(3.0, 3.0, clock=Ticks(1.0)))
    cut = bidder._simulate_hand(view)
    assert 1 <= len(limits) < searches and all(0 < x <= 3.0 for x in limits)
    assert {e.contract for e in cut} <= {e.contract for e in unlimited}
