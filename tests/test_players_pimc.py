"""PIMC card play, bidding by simulation and the levels: legal, budgeted, and right when the world is known."""

from __future__ import annotations

import random

import pytest

from skat.cards import Card, mask_points
from skat.deal.game import Game, Phase
from skat.players import make_player
from skat.players import pimc as pimc_module
from skat.players.arena import new_game
from skat.players.bidding import SimulationBidder, best_discards
from skat.players.heuristic import HeuristicPlayer
from skat.players.pimc import PIMCPlayer, card_values
from skat.players.worlds import Knowledge, World
from skat.rules.actions import Play
from skat.rules.rulesets import PRESETS
from skat.solver import move_values_array

RULESETS = sorted({r.name: r for r in PRESETS.values()}.values(), key=lambda r: r.name)


def quick_pimc(seed: int, *, bidding: bool = False) -> PIMCPlayer:
    # Full-deal solves have a long tail (seconds); searching from the third trick keeps the test quick.
    return PIMCPlayer(seed, worlds=4, min_worlds=1, time_budget=0.05, bidding=bidding, bid_worlds=4,
                      bid_time=0.1, search_from_trick=2)


def play_out(game: Game, players: list) -> Game:
    while not game.is_over:
        seat = game.to_move
        view = game.view(seat)
        action = players[seat].choose(view)
        assert action in view.legal_actions, f"{action} is not legal in {view.phase}"
        game.apply(action, seat)
    return game


@pytest.mark.parametrize("seed", range(6))
def test_pimc_only_plays_legal_actions(seed: int) -> None:
    ruleset = RULESETS[seed % len(RULESETS)]
    players = [quick_pimc(seed * 3 + s) if s != seed % 3 else HeuristicPlayer(seed) for s in range(3)]
    assert play_out(new_game(2000 + seed, ruleset), players).result is not None


@pytest.mark.parametrize("seed", [3, 8])
def test_simulation_bidding_only_makes_legal_decisions(seed: int) -> None:
    players = [quick_pimc(seed * 3 + s, bidding=True) for s in range(3)]
    assert play_out(Game(seed=seed), players).result is not None


@pytest.mark.parametrize("name", ["easy", "medium"])
def test_levels_are_registered_players_that_play_legally(name: str) -> None:
    players = [make_player(name, s) for s in range(3)]
    assert play_out(Game(seed=77), players).result is not None


def test_strong_is_a_registered_level() -> None:
    player = make_player("strong", 1)
    assert isinstance(player, PIMCPlayer) and player.bidder is not None and player.name == "strong"


def test_expert_is_a_registered_level_stronger_and_slower_than_strong() -> None:
    from skat.players.inference import AuctionLikelihood, Inference, PolicyLikelihood
    from skat.players.learned import LearnedBidder

    player = make_player("expert", 1)
    assert isinstance(player, PIMCPlayer) and player.name == "expert"
    assert (player.worlds, player.min_worlds, player.time_budget, player.max_time, player.pool) == (160, 8, 2.0, 4.0, 4)
    assert isinstance(player.inference, Inference)
    assert [type(part) for part in player.inference.parts] == [AuctionLikelihood, PolicyLikelihood]
    bidder = player.bidder
    assert type(bidder) is LearnedBidder and bidder.margin == 5.0
    assert (bidder.worlds, bidder.time_budget) == (40, 2.0)
    strong = make_player("strong", 1)
    assert isinstance(strong, PIMCPlayer)
    assert player.worlds > strong.worlds and player.time_budget > strong.time_budget
    # the same search as strong's: every legal card valued by playouts of the policy
    assert (player.playouts, player.policy_prune) == (strong.playouts, strong.policy_prune) == ("all", 0)
    assert player.ramsch_search and strong.ramsch_search


def _declared_game(seed: int) -> Game:
    game = Game(seed=seed)
    h = HeuristicPlayer(seed)
    while game.phase is not Phase.PLAY:
        assert not game.is_over
        game.apply(h.choose(game.view(game.to_move)), game.to_move)
    return game


def _true_world(game: Game) -> World:
    skat = game.discard if game.skat_taken else game.initial_skat
    return World(hands=(game._hands[0], game._hands[1], game._hands[2]), skat=skat)


def test_card_values_in_the_true_world_are_the_solver_values() -> None:
    game = _declared_game(5)
    for _ in range(16):  # into the sixth trick, where the solver's move values are quick
        game.apply(HeuristicPlayer(0).choose(game.view(game.to_move)), game.to_move)
    assert not game.is_over
    view = game.view(game.to_move)
    world = _true_world(game)
    totals, solved = card_values(view, [world], Knowledge.from_view(view), points_from_tricks_left=0)
    assert solved == 1
    declarer = game.declarer
    trick = [int(c) for _s, c in view.trick]
    points = game.trick_points[declarer] + mask_points(world.skat)
    arr = move_values_array(int(game.contract.game_type), list(world.hands), trick, view.trick[0][0] if trick
                            else game.trick_leader, declarer, target=61, declarer_points=points)
    assert totals == {c: float(arr[c]) for c in totals}


def test_pimc_with_the_true_world_plays_a_double_dummy_best_card(monkeypatch) -> None:
    game = _declared_game(9)
    monkeypatch.setattr(pimc_module, "sample_worlds", lambda know, n, rng: [_true_world(game)])
    player = PIMCPlayer(0, worlds=1, min_worlds=1, bidding=False)
    while not game.is_over:
        seat = game.to_move
        view = game.view(seat)
        if len(view.legal_actions) > 1:
            know = Knowledge.from_view(view)
            totals, _ = card_values(view, [_true_world(game)], know)
            sign = 1 if seat == game.declarer else -1
            best = max(sign * v for v in totals.values())
            choice = player.choose(view)
            assert sign * totals[int(choice.card)] == pytest.approx(best)
        else:
            choice = view.legal_actions[0]
        game.apply(choice, seat)


def test_best_discards_never_put_away_jacks_for_a_trump_game() -> None:
    twelve = sum(1 << c for c in (28, 20, 12, 4, 31, 27, 30, 25, 11, 23, 0, 1))  # four jacks and eight cards
    for d in best_discards(twelve, 3, 5):
        assert d.bit_count() == 2 and d & twelve == d and not d & (1 << 28 | 1 << 20 | 1 << 12 | 1 << 4)


def test_simulation_bidder_passes_a_hopeless_hand_at_once() -> None:
    game = Game(hands=["D7 D8 H9 HQ S7 S8 SK C7 C9 DQ", "CJ SJ HJ DJ CA CT CK HA SA ST",
                       "CQ C8 HT HK H7 H8 S9 SQ DA DT"], skat="DK D9")
    bidder = SimulationBidder(random.Random(0), worlds=4, time_budget=0.2)
    assert bidder.bid_limit(game.view(0)) == 0


def test_a_close_call_is_a_difference_within_its_noise():
    from skat.players.pimc import close_call

    clear = [{1: 1.0, 2: 0.0}] * 20
    assert not close_call(clear)  # the same clear difference in every world: no noise at all
    assert not close_call([{1: 1.0, 2: 1.0}] * 20)  # equal cards in every world
    noisy = [{1: 1.0, 2: 0.0}, {1: 0.0, 2: 1.0}] * 5 + [{1: 1.0, 2: 0.0}]
    assert close_call(noisy)
    assert close_call(noisy, sign=-1.0)  # for a defender the other card is ahead, as narrowly
    steady = [{1: 1.0, 2: 0.0}] * 30 + [{1: 0.0, 2: 1.0}] * 2
    assert not close_call(steady)
    assert not close_call([{1: 1.0}] * 5)  # a single card is no choice


class _NodeClock:
    """The CPU clock of a decision's budget, advanced by the searches alone: ``RATE`` search nodes a second (a
    fifth of the solver's pace on one core, so that both deadlines are reached in these deals). A decision's
    time is then the same on a busy machine as on an idle one: the budget's deadlines are tested, not the
    machine (the decision times themselves are figures of bench/players.py)."""

    RATE = 2_000_000

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


class _Watched:
    """A sampled world that notes the clock when a search of it starts (:func:`card_values` reads the skat
    once per world, before its first search)."""

    def __init__(self, world: World, clock: _NodeClock, starts: list[float]) -> None:
        self.hands, self._skat, self._clock, self._starts = world.hands, world.skat, clock, starts

    @property
    def skat(self) -> int:
        self._starts.append(self._clock.now)
        return self._skat


def test_more_worlds_on_a_close_call_stay_within_the_budget(monkeypatch):
    """The worlds added on a close call start only before the soft deadline, and no search runs past the hard
    one, on a CPU clock that counts search nodes (so it is the mechanism that is tested, not the machine)."""
    import functools
    import types

    import skat.solver.search as search
    from skat.players.budget import Budget
    from skat.rules.rulesets import get_ruleset
    from skat.solver import last_node_count

    clock = _NodeClock()
    budgets: list[Budget] = []
    starts: list[float] = []

    def budget(*args, **kwargs) -> Budget:
        budgets.append(Budget(*args, clock=clock, **kwargs))
        return budgets[-1]

    def counted(solver):
        @functools.wraps(solver)
        def run(*args, time_limit=None, **kwargs):
            # the seconds left to the hard deadline, as search nodes: the limit cuts the search off there
            limit = None if time_limit is None else max(1, int(time_limit * clock.RATE))
            try:
                return solver(*args, node_limit=limit, **kwargs)
            finally:
                clock.now += last_node_count() / clock.RATE
        return run

    sample = pimc_module.sample_worlds
    monkeypatch.setattr(pimc_module, "Budget", budget)
    monkeypatch.setattr(pimc_module, "time", types.SimpleNamespace(process_time=clock))
    monkeypatch.setattr(pimc_module, "sample_worlds",
                        lambda know, n, rng: [_Watched(w, clock, starts) for w in sample(know, n, rng)])
    for name in ("solve_points", "declarer_reaches", "declarer_takes_all", "null_declarer_wins"):
        monkeypatch.setattr(search, name, counted(getattr(search, name)))

    player = PIMCPlayer(5, worlds=6, min_worlds=1, time_budget=0.3, bidding=False, close_worlds=12)
    rules = get_ruleset("isko2018")
    extended = soft_stops = hard_stops = 0
    for seed in range(4):
        game = new_game(seed, rules)
        others = [HeuristicPlayer(seed + s) for s in range(3)]
        while not game.is_over:
            s = game.to_move
            view = game.view(s)
            if game.phase is Phase.PLAY and view.declarer is not None and len(view.legal_actions) > 1:
                starts.clear()
                action, _totals, solved = player.rank_cards(view)
                b = budgets[-1]
                assert len(starts) >= solved
                late = [t - b.soft for t in starts if t > b.soft]
                assert not late, f"worlds started {late} s after the soft deadline"
                # a search stops on the next trick start past its limit: at most about a thousand nodes late
                assert clock.now <= b.hard + 2000 / clock.RATE, f"{clock.now - b.hard:.4f} s past the hard deadline"
                extended += solved > 6
                soft_stops += b.soft_passed()  # the soft deadline ended the worlds (or the last one ran past it)
                hard_stops += solved < len(starts)  # a world cut off by the hard deadline is left out
            else:
                action = others[s].choose(view)
            game.apply(action, s)
    assert extended > 0  # close calls got more worlds
    assert soft_stops > 0 and hard_stops > 0, (soft_stops, hard_stops)  # and both deadlines did cut work off


def test_a_ramsch_played_by_the_search_leaves_the_others_the_most_points_in_a_known_world():
    from skat.players.ablation import (
        medium_heuristic_ramsch,
        medium_ramsch_with_skat,
        medium_without_durchmarsch,
    )
    from skat.players.pimc import ramsch_card_values, skat_goes_with_last_trick

    rules = [r for r in RULESETS if r.name == "pub"][0]
    for seed in range(3):
        game = Game(seed, ruleset=rules, start="ramsch")
        players = [HeuristicPlayer(s) for s in range(3)]
        while not game.is_over and len(game.tricks) < 6:  # into the middle of the Ramsch
            seat = game.to_move
            game.apply(players[seat].choose(game.view(seat)), seat)
        if game.is_over:
            continue
        seat = game.to_move
        view = game.view(seat)
        assert view.contract is None and view.declarer is None
        hands = tuple(game.view(s).hand.mask for s in range(3))
        world = World(hands=hands, skat=game.initial_skat)
        skat = mask_points(game.initial_skat)
        totals, solved = ramsch_card_values(view, [world])
        assert solved == 1
        trick = [int(c) for _s, c in view.trick]
        leader = view.trick[0][0] if view.trick else view.tricks[-1][2]
        exact = move_values_array(6, hands, trick, leader, seat, question="ramsch", skat_points=skat)
        assert totals == {c: float(exact[c]) for c in totals}
        # the skat's points go with the last trick under the pub rules; without them the values are the tricks' alone
        without, _ = ramsch_card_values(view, [world], skat=False)
        exact = move_values_array(6, hands, trick, leader, seat, question="ramsch")
        assert without == {c: float(exact[c]) for c in totals}
        assert all(without[c] <= totals[c] <= without[c] + skat for c in totals)
        # the others can take at most the points still out
        out = sum(mask_points(h) for h in hands) + sum(mask_points(1 << c) for c in trick)
        assert all(0 <= v <= out + skat for v in totals.values())
    player = make_player("medium", 1)
    assert player.ramsch_search and make_player("strong", 1).ramsch_search and make_player("expert", 1).ramsch_search
    assert not medium_heuristic_ramsch(1).ramsch_search
    assert not player.ramsch_skat and medium_ramsch_with_skat(1).ramsch_skat
    assert player.ramsch_durchmarsch and not medium_without_durchmarsch(1).ramsch_durchmarsch
    # the pirate rules give the skat to the loser, not to the last trick (docs/rules.md, ramsch_skat)
    assert skat_goes_with_last_trick("pub") and skat_goes_with_last_trick("isko")
    assert not skat_goes_with_last_trick("pirate") and skat_goes_with_last_trick("a table's own")
    game = play_out(Game(4, ruleset=rules, start="ramsch"), [player, HeuristicPlayer(2), player])
    assert game.result is not None and game.result.kind in ("ramsch", "played")


def test_strong_values_every_card_by_playouts_with_the_policys_likelihood():
    from skat.players.ablation import strong_2026_12_07, strong_playouts_wide
    from skat.players.inference import AuctionLikelihood, Inference, PolicyLikelihood

    player = make_player("strong", 1)
    assert (player.worlds, player.time_budget, player.pool) == (60, 0.5, 4)
    assert (player.playouts, player.policy_prune, player.ramsch_search) == ("all", 0, True)
    assert isinstance(player.inference, Inference)
    assert [type(part) for part in player.inference.parts] == [AuctionLikelihood, PolicyLikelihood]
    # the ablation measured as the candidate was the level until 7 December 2026
    assert _search_settings(strong_playouts_wide(1)) == _search_settings(strong_2026_12_07(1))


def _search_settings(player: PIMCPlayer) -> dict[str, object]:
    """What decides a PIMC player's card play and bidding, but its name, seed and caches."""
    keep = ("worlds", "min_worlds", "time_budget", "max_time", "pool", "playouts", "policy_prune", "ramsch_search",
            "points_from_tricks_left", "policy_ties", "draw_power", "playout_solve_from", "declarer_worlds",
            "declarer_pool")
    settings: dict[str, object] = {name: getattr(player, name) for name in keep}
    settings["prunes"] = player.policy_prune and player.policy_prune_tricks
    settings["inference"] = [type(part) for part in player.inference.parts] if player.inference else None
    bidder = player.bidder
    settings["bidder"] = (type(bidder), getattr(bidder, "margin", None), getattr(bidder, "worlds", None),
                          getattr(bidder, "discard_worlds", None))
    return settings


def test_the_ablations_before_the_playouts_keep_strong_as_it_was_then():
    from skat.players import ablation

    old = ablation.strong_solver(1)
    assert old.name == "strong-solver"
    assert (old.playouts, old.policy_prune, old.policy_prune_tricks, old.worlds) == (None, 3, 7, 60)
    now = ablation.strong_2026_12_07(1)
    assert {k: v for k, v in _search_settings(old).items() if k not in ("playouts", "policy_prune", "prunes")} == {
        k: v for k, v in _search_settings(now).items() if k not in ("playouts", "policy_prune", "prunes")}
    # an ablation of those days changes one thing of that player, not of today's strong
    four = ablation.strong_prune_four(1)
    assert (four.playouts, four.policy_prune, four.policy_prune_tricks) == (None, 4, 7)
    ties = ablation.strong_exact_ties(1)
    assert (ties.playouts, ties.policy_prune, ties.points_from_tricks_left, ties.policy_ties) == (None, 3, 7, True)
    expert = ablation.expert_solver(1)
    assert (expert.playouts, expert.policy_prune, expert.worlds, expert.time_budget) == (None, 3, 160, 2.0)


def test_a_ramsch_seat_with_every_trick_so_far_plays_on_for_the_durchmarsch():
    from skat.players.pimc import DURCHMARSCH_CHANCE, durchmarsch_chances, durchmarsch_pays

    rules = [r for r in RULESETS if r.name == "pub"][0]
    assert durchmarsch_pays("pub") and durchmarsch_pays("isko") and not durchmarsch_pays("pirate")
    assert not durchmarsch_pays("tournee")  # Hoyle's Ramsch: a Durchmarsch costs 30
    # forehand: every jack, clubs A T K Q 7 and the ace of spades: every trick, if the club seven comes last
    hands = [["CJ", "SJ", "HJ", "DJ", "CA", "CT", "CK", "CQ", "C7", "SA"],
             ["C9", "S7", "S8", "S9", "ST", "H7", "H8", "H9", "HT", "D7"],
             ["C8", "SQ", "SK", "HQ", "HK", "HA", "D8", "D9", "DT", "DQ"]]
    skat = ["DK", "DA"]

    def deal_to_trick_two():
        game = Game(hands=[[Card.parse(c) for c in h] for h in hands], skat=[Card.parse(c) for c in skat],
                    ruleset=rules, start="ramsch")
        while game.phase is not Phase.PLAY:  # nobody announces Grand Hand instead
            seat = game.to_move
            game.apply(next(a for a in game.view(seat).legal_actions if str(a) == "pass"), seat)
        for seat, card in ((0, "CJ"), (1, "S7"), (2, "D8")):
            game.apply(Play(Card.parse(card)), seat)
        assert game.to_move == 0 and game.view(0).tricks[-1][2] == 0
        return game

    view = deal_to_trick_two().view(0)
    player = make_player("medium", 3)
    assert player.ramsch_durchmarsch
    worlds = player.sample(view, Knowledge.from_view(view), 8)
    chances, solved = durchmarsch_chances(view, worlds)
    assert solved == 8 and max(chances.values()) == 8 >= DURCHMARSCH_CHANCE * solved
    assert chances[int(Card.parse("C7"))] == 0  # the club seven now gives the others a trick in every world
    card = player.choose(view)
    assert chances[int(card.card)] == 8
    # played out against the heuristic it takes every trick: +120
    game = deal_to_trick_two()
    others = [None, HeuristicPlayer(1), HeuristicPlayer(2)]
    while not game.is_over:
        seat = game.to_move
        game.apply((player if seat == 0 else others[seat]).choose(game.view(seat)), seat)
    assert game.result is not None and game.result.scores[0] == 120


def test_exact_values_from_seven_tricks_left_when_told():
    from skat.players.ablation import strong_exact_early, strong_solver

    early, plain = strong_exact_early(2), strong_solver(2)
    assert (early.points_from_tricks_left, plain.points_from_tricks_left) == (7, 5)
    for seed in range(40):
        game = new_game(seed, PRESETS["isko"])
        bots = [HeuristicPlayer(s) for s in range(3)]
        while not game.is_over and not (game.phase is Phase.PLAY and len(game.tricks) == 3 and game.contract is not None
                                        and not game.contract.is_null and not game.contract.schwarz):
            seat = game.to_move
            game.apply(bots[seat].choose(game.view(seat)), seat)
        if game.is_over or len(game.legal_actions(game.to_move)) < 2:
            continue
        view = game.view(game.to_move)  # seven tricks left
        for player in (early, plain):
            player.worlds, player.min_worlds, player.time_budget, player.max_time = 4, 4, 30.0, 60.0
        _card, exact, solved = early.rank_cards(view)
        _card, binary, solved_too = plain.rank_cards(view)
        assert solved == solved_too == 4
        assert all(float(v).is_integer() for v in binary.values())  # won or lost in each world
        if not all(float(v).is_integer() for v in exact.values()):  # the card points' share shows
            return
    raise AssertionError("no position where the exact values differ from won or lost")


def _suit_or_grand_at_trick(seed: int, trick: int):
    """A deal played by the heuristic to the start of ``trick`` (0-based) of a suit or grand game, or None."""
    game = new_game(seed, PRESETS["isko"])
    bots = [HeuristicPlayer(s) for s in range(3)]
    while not game.is_over and not (game.phase is Phase.PLAY and len(game.tricks) == trick and game.contract is not None
                                    and not game.contract.is_null and not game.contract.schneider
                                    and not game.contract.schwarz):
        seat = game.to_move
        game.apply(bots[seat].choose(game.view(seat)), seat)
    if game.is_over or len(game.legal_actions(game.to_move)) < 2:
        return None
    return game


def test_schneider_steps_agree_with_the_exact_card_points():
    from skat.players.pimc import schneider_steps

    checked = 0
    for seed in range(30):
        game = _suit_or_grand_at_trick(seed, 3)
        if game is None:
            continue
        view = game.view(game.to_move)
        know = Knowledge.from_view(view)
        worlds = PIMCPlayer(seed, worlds=3).sample(view, know, 3)
        binary: list[dict[int, float]] = []
        exact: list[dict[int, float]] = []
        card_values(view, worlds, know, points_from_tricks_left=5, trace=binary)
        card_values(view, worlds, know, points_from_tricks_left=10, trace=exact)
        legal = sorted(binary[0])
        steps, asked = schneider_steps(view, worlds, binary, legal)
        assert asked == len(worlds) == 3
        for c in legal:
            expected = 0
            for yes_no, points_value in zip(binary, exact):
                won = points_value[c] >= 0.75  # (points >= 61) + a quarter for each Schneider + 0.002 a point
                assert yes_no[c] == float(won)
                expected += (points_value[c] >= 1.25) if won else -(points_value[c] < 0)
            assert steps[c] == expected
        checked += 1
        if checked == 6:
            break
    assert checked == 6


def test_schneider_ties_only_tell_apart_cards_tied_on_the_goal():
    found = 0
    for seed in range(60):
        game = _suit_or_grand_at_trick(seed, 2)
        if game is None:
            continue
        view = game.view(game.to_move)
        plain = PIMCPlayer(seed, worlds=6, min_worlds=6, time_budget=30.0, bidding=False)
        told = PIMCPlayer(seed, worlds=6, min_worlds=6, time_budget=30.0, bidding=False, schneider_ties=True)
        _card, before, solved = plain.rank_cards(view)
        card, after, solved_too = told.rank_cards(view)
        assert solved == solved_too == 6
        sign = 1.0 if view.seat == view.declarer else -1.0
        best = max(sign * v for v in before.values())
        assert sign * before[int(card.card)] == best  # never a card that reaches the goal in fewer worlds
        tied = {c for c, v in before.items() if sign * v >= best}
        assert all(after[c] == before[c] for c in before if c not in tied)  # the others keep their values
        assert min(sign * after[c] for c in tied) > max((sign * after[c] for c in before if c not in tied),
                                                        default=-1e9)
        if after != before:
            found += 1
            if found == 2:
                break
    assert found == 2, "no position where the Schneider steps told tied cards apart"


def test_the_declarer_searches_its_own_number_of_worlds_where_set(monkeypatch):
    from skat.players import ablation
    from skat.players.cardmodel import level_card_model

    with pytest.raises(ValueError, match="declarer's worlds"):
        PIMCPlayer(1, declarer_worlds=0)
    with pytest.raises(ValueError, match="declarer's pool"):
        PIMCPlayer(1, declarer_pool=0.5)
    player = ablation.strong_declarer_worlds(1)
    assert (player.worlds, player.pool) == (60, 4)
    assert (player.declarer_worlds, player.declarer_pool) == (ablation.DECLARER_WORLDS, ablation.DECLARER_POOL)
    assert player.card_model is level_card_model()
    assert _search_settings(player) == _search_settings(make_player("strong", 1))  # strong since 7 December 2026
    before = ablation.strong_2026_12_07(1)  # and strong before: the same but the declarer's worlds
    assert (before.declarer_worlds, before.declarer_pool, before.name) == (None, None, "strong-2026-12-07")
    assert before.card_model is level_card_model()
    assert {**_search_settings(before), "declarer_worlds": 160, "declarer_pool": 2} == _search_settings(player)
    for older in (ablation.strong_solver(1), ablation.strong_playout_model_3(1), ablation.strong_160_worlds(1)):
        assert (older.declarer_worlds, older.declarer_pool) == (None, None)  # they stay what they measured
    more = ablation.strong_declarer_320(1)  # today's strong, one thing changed
    assert {**_search_settings(more), "declarer_worlds": 160} == _search_settings(make_player("strong", 1))
    assert more.card_model is level_card_model() and more.declarer_worlds == 320
    searched = ablation.strong_searched_discard(1)  # today's strong, its discard searched
    assert searched.bidder.discard_worlds == 40 and make_player("strong", 1).bidder.discard_worlds == 0
    searched.bidder.discard_worlds = 0
    assert _search_settings(searched) == _search_settings(make_player("strong", 1))
    both = ablation.strong_declarer_320_searched_discard(1)  # the two together
    assert (both.declarer_worlds, both.bidder.discard_worlds) == (320, 40)
    assert {**_search_settings(both), "bidder": None} == {**_search_settings(more), "bidder": None}
    for tricks in (6, 7):  # today's strong, the solver from more tricks left
        solver = getattr(ablation, f"strong_solve_from_{tricks}")(1)
        assert (solver.playout_solve_from, solver.points_from_tricks_left) == (tricks, tricks)
        assert solver.name == f"strong-solve-from-{tricks}"
        assert {**_search_settings(solver), "playout_solve_from": 5, "points_from_tricks_left": 5} == _search_settings(
            make_player("strong", 1))
    cheaper = ablation.strong_declarer_320_defence_40(1)  # the same, the defence's 60 worlds cut to 40
    assert (cheaper.worlds, cheaper.pool, cheaper.declarer_worlds, cheaper.bidder.discard_worlds) == (40, 4, 320, 40)
    assert {**_search_settings(cheaper), "worlds": 60} == _search_settings(both)
    expert = ablation.expert_declarer_worlds(1)  # expert's declarer with twice expert's worlds
    assert (expert.declarer_worlds, expert.declarer_pool, expert.worlds, expert.pool) == (320, 2, 160, 4)
    assert {**_search_settings(expert), "declarer_worlds": None, "declarer_pool": None} == _search_settings(
        make_player("expert", 1))
    more = ablation.expert_declarer_640_searched_discard(1)  # and four times, with the discard searched
    assert (more.declarer_worlds, more.declarer_pool, more.worlds, more.time_budget) == (640, 2, 160, 2.0)
    assert (more.bidder.discard_worlds, more.bidder.discard_time) == (80, 1.0)
    assert {**_search_settings(more), "declarer_worlds": 320, "bidder": None} == {**_search_settings(expert),
                                                                                   "bidder": None}
    asked: list[tuple[int, int | None, int | None]] = []
    real_sample = PIMCPlayer.sample

    def counting(self, view, know, n=None, pool=None):
        asked.append((view.seat, n, pool))
        return real_sample(self, view, know, n, pool)

    monkeypatch.setattr(PIMCPlayer, "sample", counting)
    game = Game(seed=7)
    heuristic = HeuristicPlayer(3)
    while not game.is_over and len(asked) < 6:
        seat = game.to_move
        view = game.view(seat)
        searching = view.phase is Phase.PLAY and view.declarer is not None and len(view.legal_actions) > 1
        game.apply(player.choose(view) if searching else heuristic.choose(view), seat)
    declarer = game.view(0).declarer
    assert declarer is not None and len(asked) == 6, "the deal of seed 7 is played with six card decisions"
    expected = {True: (ablation.DECLARER_WORLDS, ablation.DECLARER_POOL), False: (60, 4)}
    assert all((n, pool) == expected[seat == declarer] for seat, n, pool in asked)
    assert {seat == declarer for seat, _n, _pool in asked} == {True, False}, "both roles decided"
