"""The learned bidder: the shipped model loads, ranks hands sensibly, and bids, holds and declares legally."""

from __future__ import annotations

import random
import time

from skat.cards import Card
from skat.deal.game import Game
from skat.players.learned import FAMILIES, LearnedBidder, shipped_model, strong_learned
from skat.players.pimc import PIMCPlayer
from skat.rules.ranking import GameType


def mask(text: str) -> int:
    return sum(1 << int(Card.parse(name)) for name in text.split())


STRONG = "CJ SJ HJ CA CT CK CQ HA HT SA"
HOPELESS = "D7 D8 H9 HQ S7 S8 SK C7 C9 DQ"


def test_the_shipped_model_loads_quickly_with_every_family():
    shipped_model.cache_clear()
    started = time.perf_counter()
    model = shipped_model()
    assert time.perf_counter() - started < 1.0  # a small file (the goal: well under a second)
    assert set(model.weights) == set(FAMILIES)
    strong = model.win_probability(mask(STRONG), int(GameType.CLUBS), False, 0)
    weaker = model.win_probability(mask("CJ C7 C8 CK HA H7 S8 S9 D7 D8"), int(GameType.CLUBS), False, 0)
    assert 0 < weaker < strong < 1
    middling = mask("CJ C7 C8 CK HA H7 S8 S9 D7 D8")
    assert model.win_probability(middling, int(GameType.CLUBS), True, 0) < weaker  # the skat helps


def test_the_learned_bidder_bids_a_strong_hand_and_passes_a_hopeless_one():
    bidder = LearnedBidder(random.Random(0))
    game = Game(hands=[STRONG, "DJ C9 C8 C7 HK HQ H9 SK SQ S9", "DA DT DK DQ D9 D8 D7 H8 H7 ST"], skat="S8 S7")
    assert bidder.bid_limit(game.view(0)) >= 18
    best = max(bidder.estimates(game.view(0)), key=lambda e: e.score)
    assert best.contract.game_type in (GameType.CLUBS, GameType.GRAND) and best.score > 0
    game = Game(hands=[HOPELESS, "CJ SJ HJ DJ CA CT CK HA SA ST", "CQ C8 HT HK H7 H8 S9 SQ DA DT"], skat="DK D9")
    assert bidder.bid_limit(game.view(0)) == 0


def test_a_player_with_the_learned_bidder_makes_only_legal_decisions():
    for seed in (3, 8):
        players = []
        for s in range(3):
            p = PIMCPlayer(seed * 3 + s, worlds=4, min_worlds=1, time_budget=0.05, bid_worlds=4, bid_time=0.1,
                           search_from_trick=2)
            p.bidder = LearnedBidder(p.rng, worlds=4, time_budget=0.1)
            players.append(p)
        game = Game(seed=seed)
        while not game.is_over:
            view = game.view(game.to_move)
            action = players[game.to_move].choose(view)
            assert action in view.legal_actions
            game.apply(action, game.to_move)
    assert strong_learned(1).name == "strong-learned" and isinstance(strong_learned(1).bidder, LearnedBidder)
