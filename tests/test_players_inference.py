"""Inference from the auction: the facts read from the bids, the likelihood of a world, the worlds drawn."""

from __future__ import annotations

import math
import random
import statistics

import pytest

from skat.cards import mask_of
from skat.deal.game import Game, Phase
from skat.players.heuristic import HeuristicPlayer
from skat.players.inference import AuctionFacts, AuctionLikelihood, auction_facts, draw_worlds, select_worlds
from skat.players.pimc import PIMCPlayer
from skat.players.worlds import Knowledge, World, sample_worlds
from skat.rules.ranking import winner_index


def test_auction_facts_tell_the_bidders_and_listeners_passes_apart():
    # middlehand bids 18 and 20, forehand holds both and passes 22; rearhand passes without a bid
    auction = [(1, "18"), (0, "hold"), (1, "20"), (0, "hold"), (1, "22"), (0, "pass"), (2, "pass")]
    facts = auction_facts(auction)
    assert facts.held == (20, 22, 0)
    assert facts.refused == (22, 0, 23)  # rearhand, the bidder now, declines the next value above 22
    assert auction_facts([(1, "pass"), (2, "pass"), (0, "pass")]) == AuctionFacts((0, 0, 0), (18, 18, 18))


def test_the_temperature_is_validated():
    with pytest.raises(ValueError, match="temperature must be positive"):
        AuctionLikelihood(temperature=0)


def test_a_strong_hand_backs_a_high_bid_and_a_weak_one_does_not():
    likelihood = AuctionLikelihood()
    strong = mask_of("CJ SJ HJ DJ CA CT CK HA HT SA".split())
    weak = mask_of("C9 CK SA S9 H7 HT HK D8 DQ DA".split())  # no jack, no long suit, no Null
    assert likelihood.best_score(strong, 1, 48) > 0 > likelihood.best_score(weak, 1, 18)
    assert likelihood.best_score(strong, 1, 264) < likelihood.best_score(strong, 1, 48)  # nothing worth 264


def _to_play(seed: int) -> Game | None:
    game = Game(seed=seed)
    players = [HeuristicPlayer(seed * 3 + s) for s in range(3)]
    while game.phase not in (Phase.PLAY, Phase.FINISHED):
        s = game.to_move
        game.apply(players[s].choose(game.view(s)), s)
    return game if game.phase is Phase.PLAY and game.declarer is not None else None


def _shared(worlds: list[World], truth: list[int], seat: int) -> float:
    """The mean number of cards the other seats' hands in the worlds share with their real hands."""
    return statistics.mean(sum((w.hands[s] & truth[s]).bit_count() for s in range(3) if s != seat) for w in worlds)


def test_the_worlds_drawn_by_the_auction_are_closer_to_the_truth():
    """Over many deals the opponents' hands in the drawn worlds share more cards with the real ones than
    the uniformly sampled worlds do (heuristic bidders; the first card of the play)."""
    likelihood = AuctionLikelihood(temperature=10.0)
    rng = random.Random(7)
    uniform, drawn = [], []
    for seed in range(120):
        game = _to_play(seed)
        if game is None:
            continue
        view = game.view(game.to_move)
        know = Knowledge.from_view(view)
        truth = game._hands
        pool = sample_worlds(know, 160, rng)
        prepared = likelihood.prepare(view, know)
        chosen = select_worlds(pool, [likelihood.log_weight(prepared, w) for w in pool], 40, rng)

        uniform.append(_shared(pool[:40], truth, view.seat))
        drawn.append(_shared(chosen, truth, view.seat))
    assert len(drawn) > 60
    assert statistics.mean(drawn) > statistics.mean(uniform) + 0.3


def test_select_worlds_draws_without_replacement_in_proportion_to_the_weights():
    worlds = [World(hands=(i, 0, 0), skat=0) for i in range(4)]
    rng = random.Random(1)
    first = [select_worlds(worlds, [0.0, 0.0, 0.0, 3.0], 2, rng) for _ in range(2000)]
    assert all(len({w.hands[0] for w in pick}) == 2 for pick in first)
    heavy = sum(pick[0].hands[0] == 3 for pick in first) / len(first)
    assert abs(heavy - 20.09 / 23.09) < 0.03  # e^3 / (e^3 + 3)


def test_draw_worlds_draws_with_replacement_by_the_likelihood_to_a_power():
    worlds = [World(hands=(i, 0, 0), skat=0) for i in range(4)]
    rng = random.Random(2)
    log_weights = [0.0, 0.0, 0.0, math.log(3.0)]
    for power, share in ((1.0, 3 / 6), (0.5, 3 ** 0.5 / (3 + 3 ** 0.5)), (0.0, 1 / 4)):
        draws = draw_worlds(worlds, log_weights, 4000, rng, power)
        assert len(draws) == 4000 and all(any(d is w for w in worlds) for d in draws[:50])  # the pool's own objects
        assert abs(sum(d is worlds[3] for d in draws) / 4000 - share) < 0.03
    assert draw_worlds(worlds, [-1000.0] * 4, 3, rng) and draw_worlds([], [], 3, rng) == []
    with pytest.raises(ValueError, match="power"):
        draw_worlds(worlds, log_weights, 3, rng, -0.5)
    with pytest.raises(ValueError, match="power"):
        PIMCPlayer(1, draw_power=-1.0)


def test_a_world_drawn_twice_counts_twice_and_is_searched_once(monkeypatch):
    import skat.solver.search as search
    from skat.players.pimc import card_values

    game = next(g for g in (_to_play(seed) for seed in range(40)) if g is not None and not g.contract.is_null
                and not g.contract.schwarz)
    view = game.view(game.to_move)
    know = Knowledge.from_view(view)
    a, b = sample_worlds(know, 2, random.Random(4))
    alone_a, _ = card_values(view, [a], know)
    alone_b, _ = card_values(view, [b], know)
    calls = []
    real = search.declarer_reaches
    monkeypatch.setattr(search, "declarer_reaches", lambda *args, **kw: calls.append(1) or real(*args, **kw))
    trace: list = []
    totals, solved = card_values(view, [a, b, a, a], know, trace=trace)
    assert solved == 4 and len(trace) == 4 and trace[0] == trace[2] == trace[3]
    assert totals == {c: 3 * alone_a[c] + alone_b[c] for c in totals}
    assert len(calls) <= 2 * len(totals)  # two worlds searched, one search a card at most


@pytest.mark.parametrize("draw_power, searched", [(None, 6), (1.0, 30)])
def test_pimc_with_inference_searches_consistent_worlds_and_plays_legally(draw_power, searched):
    """The most likely worlds once each (top-k), or drawn with replacement: then a likely world comes again."""
    player = PIMCPlayer(3, worlds=searched, min_worlds=1, time_budget=5.0, bidding=False,
                        inference=AuctionLikelihood(), pool=4, draw_power=draw_power)
    repeated = 0
    for seed in range(12):
        game = _to_play(seed)
        if game is None:
            continue
        view = game.view(game.to_move)
        know = Knowledge.from_view(view)
        worlds = player.sample(view, know)
        assert len(worlds) == searched and all(know.consistent(w) for w in worlds)
        repeated += len(worlds) - len({id(w) for w in worlds})
        action, _totals, solved = player.rank_cards(view)
        assert action in view.legal_actions and solved >= 1
    assert (repeated > 0) == (draw_power is not None)


def test_a_seven_thrown_on_the_partners_trick_makes_a_hand_without_full_cards_likelier():
    from skat.cards import CARD_POINTS
    from skat.players.inference import PlayEvent, PlayLikelihood

    # Grand: forehand (a defender) leads the ace of hearts, the declarer follows, rearhand throws the 7 of diamonds
    d7, ha, h8 = (mask_of([c]).bit_length() - 1 for c in ("D7", "HA", "H8"))
    assert CARD_POINTS[d7] == 0
    event = PlayEvent(seat=2, card=d7, before=(ha, h8), later=1 << d7, partner_has_it=True)
    likelihood = PlayLikelihood()
    full = World(hands=(0, 0, mask_of("SA CT D8".split())), skat=0)
    empty = World(hands=(0, 0, mask_of("S7 C8 D8".split())), skat=0)
    assert likelihood.log_weight((4, [event]), full) < likelihood.log_weight((4, [event]), empty) <= 0
    # with the opponent on the trick the seven is what a player gives: no full card is held against him
    saving = PlayEvent(seat=2, card=d7, before=(ha, h8), later=1 << d7, partner_has_it=False)
    assert likelihood.log_weight((4, [saving]), full) > likelihood.log_weight((4, [event]), full)
    assert PlayLikelihood(sharpness=0).log_weight((4, [event]), full) == pytest.approx(-math.log(4))
    with pytest.raises(ValueError, match="sharpness"):
        PlayLikelihood(sharpness=-1)


def test_play_events_are_the_other_seats_last_cards_with_their_hands_then():
    from skat.players.inference import play_events

    checked = 0
    for seed in range(20):
        game = Game(seed=seed)
        players = [HeuristicPlayer(seed + s) for s in range(3)]
        history: list[list[int]] = [[], [], []]  # each seat's cards in the order played
        while not game.is_over:
            s = game.to_move
            view = game.view(s)
            if game.phase is Phase.PLAY and len(view.tricks) == 5 and len(view.trick) == 1 and view.declarer is not None:
                know = Knowledge.from_view(view)
                events = play_events(view, know)
                assert len(events) == sum((ld + 2) % 3 != s for ld, _c, _w in view.tricks)
                for event in events:
                    assert event.seat != s and event.later >> event.card & 1
                    played = history[event.seat]
                    assert event.later == sum(1 << c for c in played[played.index(event.card):])
                    leader, cards, _winner = next(t for t in view.tricks if int(t[1][2]) == event.card)
                    assert event.before == (int(cards[0]), int(cards[1]))
                    gt = int(view.contract.game_type)
                    first_two_winner = (leader + winner_index(gt, event.before)) % 3
                    defenders = {0, 1, 2} - {view.declarer}
                    assert event.partner_has_it == ({event.seat, first_two_winner} <= defenders)
                checked += 1
            action = players[s].choose(view)
            if game.phase is Phase.PLAY:
                history[s].append(int(action.card))
            game.apply(action, s)
    assert checked > 10


def test_the_auction_weighs_a_pool_at_once_as_it_weighs_each_world():
    """AuctionLikelihood.log_weights (the hands of all worlds judged together) against auction_log_weight world by world:
    every decision of the play of heuristic deals, for each seat, hand games and Null among them."""
    likelihood = AuctionLikelihood(temperature=10.0)
    one_by_one = AuctionLikelihood(temperature=10.0)
    checked, contracts = 0, set()
    for seed in range(60):  # heuristic players, then random legal actions (every kind of contract, Null too)
        game = Game(seed=4000 + seed)
        players = [HeuristicPlayer(seed * 3 + s) for s in range(3)]
        chance = random.Random(seed) if seed >= 30 else None
        while not game.is_over:
            mover = game.to_move
            view = game.view(mover)
            if view.phase is Phase.PLAY and view.declarer is not None and len(view.tricks) in (0, 4):
                know = Knowledge.from_view(view)
                prepared = likelihood.prepare(view, know)
                pool = sample_worlds(know, 40, random.Random(seed))
                weights = likelihood.log_weights(prepared, pool)
                assert weights == pytest.approx([one_by_one.auction_log_weight(*prepared, w) for w in pool], abs=1e-9)
                assert likelihood.log_weights(prepared, pool[:1] * 5) == [weights[0]] * 5  # the same world alike
                checked += 1
                contracts.add((int(view.contract.game_type), view.contract.hand))
            game.apply(chance.choice(view.legal_actions) if chance else players[mover].choose(view), mover)
    assert checked > 150 and len(contracts) >= 8 and {5} <= {gt for gt, _hand in contracts}
    assert likelihood.log_weights(prepared, []) == []
