"""``learned``: a fast player for bot authors, its card play the learned model's policy alone (no search).

Card play in suit, grand and Null games: the legal card the card-play model (:mod:`skat.players.cardmodel`; the
policy iteration's third round, :func:`skat.players.cardmodel.learned_card_model`, unless given another; in a Null
game the shipped one)
gives the most weight, its policy averaged over the suit permutations the game allows (one batched pass of a small
network: well under a millisecond). Bidding, hand game or pickup, discard and declaration: the learned chances of
:class:`skat.players.learned.LearnedBidder` (as ``strong``); a Ramsch's card play, Kontra and Re and every decision
the model does not cover: the heuristic player.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import numpy as np

from skat.cards import Card
from skat.deal.game import Phase, SeatView
from skat.players.base import Player, forced_action
from skat.players.cardmodel import CardModel, learned_card_model, shipped_card_model
from skat.players.heuristic import HeuristicPlayer
from skat.players.learned import LearnedBidder
from skat.rules.actions import Action, Play

__all__ = ["PolicyPlayer", "FACTORIES"]


class PolicyPlayer:
    """Card play by the model's policy (the most likely legal card; ``sample`` draws one by its chances instead)."""

    name = "learned"

    def __init__(self, seed: int | None = None, *, model: CardModel | None = None,
                 null_model: CardModel | None = None, sample: bool = False, symmetric: bool = True) -> None:
        self.rng = random.Random(seed)
        self.model = model or learned_card_model()
        """The model of the suit and grand games."""
        self.null_model = null_model or shipped_card_model()
        """The model of the Null games: the shipped one (the playouts, whose values taught the later models, play
        no part in a Null game, and there the level model measured worse: docs/players.md)."""
        self.sample = sample
        self.symmetric = symmetric
        """Average the policy over the suit permutations the game allows (:meth:`CardModel.symmetric_policy`)."""
        self.heuristic = HeuristicPlayer(None if seed is None else seed ^ 0x5EED)
        self.bidder = LearnedBidder(self.rng, margin=5.0, worlds=20, time_budget=1.0)

    def side_action(self, view: SeatView) -> Action | None:
        """Kontra and Re (house rules), by the heuristic's judgement."""
        return self.heuristic.side_action(view)

    def choose(self, view: SeatView) -> Action:
        forced = forced_action(view)
        if forced is not None:
            return forced
        legal = view.legal_actions
        if view.phase is Phase.PLAY and all(isinstance(a, Play) for a in legal):
            if view.declarer is None:  # a Ramsch: the model learned games with a declarer
                return self.heuristic.choose(view)
            return self.play(view)
        action = self.bidder.decide(view, self.heuristic)
        return action if action is not None and action in legal else self.heuristic.choose(view)

    def play(self, view: SeatView) -> Action:
        """The card of the policy (:attr:`null_model`'s in a Null game, else :attr:`model`'s)."""
        model = self.null_model if view.contract is not None and view.contract.is_null else self.model
        p = model.symmetric_policy(view) if self.symmetric else model.policy(view)
        if self.sample:
            card = int(self.rng.choices(range(32), weights=p.tolist())[0])
        else:
            card = int(np.argmax(p))
        action = Play(Card(card))
        return action if action in view.legal_actions else self.heuristic.choose(view)


FACTORIES: dict[str, Callable[[int | None], Player]] = {"learned": PolicyPlayer}
"""The players of this module by name (:mod:`skat.players.registry`)."""
