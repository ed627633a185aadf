"""Levels for people: ``easy``, ``medium``, ``strong`` (the default at the web table) and ``expert``.

* ``easy``: the heuristic player that plays a random legal card one time in four
  and bids a little too boldly: beatable by a casual player.
* ``medium``: the heuristic's bidding and contract choice, card play by
  perfect-information Monte Carlo on a small budget (12 worlds, 0.15 s a card).
* ``strong``: Monte Carlo over 60 worlds drawn from 240 by how likely they make the others' bids, passes and
  declaration and, by the learned card-play model's policy, their card plays (:mod:`skat.players.inference`); in a
  suit or grand game each legal card is valued in each world by a playout (:mod:`skat.players.playout`): every seat
  plays on as the policy plays from that seat's own view until five tricks are left, then the solver finishes
  exactly; Null, Schwarz and the last five tricks by the solver in each world (perfect-information Monte Carlo).
  Bidding, hand game or pickup, discard and declaration by the learned chances of its contracts
  (:class:`skat.players.learned.LearnedBidder`, fitted on games played out with hidden cards, bidding only above an
  expected +5). Since 6 December 2026: against ``strong`` as it was the day before
  (:func:`skat.players.ablation.strong_solver`, every world solved, the policy's three best cards searched early)
  +2.10 [+0.08, +4.12] over 1,000 deals (seed 2077); one core: 37 ms median a card, p95 0.26 s, max 0.51 s.
  That ``strong`` measured +2.06 [+0.11, +4.01] over 1,000 deals (seed 2051) against ``strong`` before the learned
  card play (:func:`skat.players.ablation.strong_2026_12`, 40 worlds, hand-written likelihood of the card plays);
  today's against that one +1.13 [-0.81, +3.07] over 1,000 deals (seed 2078; the two steps do not add up).
  Since the evening of 6 December 2026 the playouts, the pruning and the inference ask the level model
  (:func:`skat.players.cardmodel.level_card_model`: the policy trained on the values of ``strong``'s own playouts,
  two rounds), which measured +0.96 [-1.05, +2.98] over 1,000 deals (seed 2085) against ``strong`` with the
  shipped model (:func:`skat.players.ablation.strong_2026_12_06`); against
  :func:`skat.players.ablation.strong_2026_12` +1.59 [-0.47, +3.65] over 1,000 deals (seed 2086); one core: 35 ms
  median a card, p95 118 ms, max 0.52 s. Since 7 December 2026 the declarer's card decisions search 160 worlds
  drawn from 320 (the defenders' 60 from 240 as before): against ``strong`` the day before
  (:func:`skat.players.ablation.strong_2026_12_07`) +0.56 [-0.95, +2.08] over 1,000 deals (seed 2093; declaring
  +1.5 a case), the declarer's play alone +6.25 [+2.17, +10.33] a case over 987 deals (role screen, seed 3002);
  against :func:`skat.players.ablation.strong_2026_12` **+3.81 [+1.62, +5.99]** over 1,000 deals (seed 2094;
  declaring +10.3 a case, defence +0.6); one core: 45 ms median a card, p95 0.32 s, max 0.56 s.
* ``expert``: meant to be stronger than ``strong``, and slower: ``strong``'s search with up to 160 worlds drawn
  from 640 and 2 s a card (hard limit 4 s); the learned bidder with 40 worlds (2 s a decision); one core: 94 ms
  median a card, p95 0.48 s, max 2.0 s. Against ``strong`` +1.74 [+0.07, +3.41] over 1,000 deals (seed 2079,
  6,000 games; declaring +5.7 a case, defence -0.2); :func:`skat.players.ablation.expert_solver` is ``expert``
  before the playouts.

``medium``, ``strong`` and ``expert`` play a Ramsch by the search as well (:func:`skat.players.pimc.ramsch_card_values`:
each card's points left to the other two when they play together against it, over the worlds): against the
heuristic's rules of thumb +5.33 [+0.70, +9.95] SF points a game over 200 deals of Ramsch under the pub rules
(seed 2048, ``medium`` both ways: ``bench/data/arena/2026-12-05/ramsch-search-2048.*``).

Measured strength (``skat arena``, duplicate deals, standard rules, 2-core machine;
Seeger-Fabian points per game, 95 % CI; the README's table of players; the ``strong`` of these figures is
:func:`skat.players.ablation.strong_2026_12`, today's ``strong`` measured +1.13 over it):

* ``strong`` vs ``medium``: +13.51 [+11.25, +15.77] over 1,000 deals (6,000 games,
  seed 2031, 0 illegal actions), declaring 33.3 % of its solo seats and winning
  87.0 % of them (``medium`` 31.2 % and 74.1 %); vs ``heuristic`` +28.46 [+25.84,
  +31.08] over 1,000 deals (seed 2032), declaring 33.5 % and winning 91.6 %
  (``bench/data/arena/``). One core, CPU seconds (``bench/players.py``, 20 deals in
  each seat against ``heuristic``): 35 ms median a card, p95 0.51 s, max 1.00 s;
  bidding and skat decisions p95 1 ms. What each part adds alone: docs/players.md.
* ``strong`` before the inference (2 December 2026, the model fitted on 1,300 deals)
  vs ``medium``: +10.79 [+7.31, +14.28] over 500 deals; vs ``heuristic`` +28.54
  [+24.72, +32.35] over 500 deals (``bench/data/arena/2026-12-02/``).
* Until December 2026 ``strong`` bid by simulation (now
  :func:`skat.players.ablation.strong_simulated_bidding`): vs ``heuristic`` +16.4 [+14.5, +18.2]
  over 2,000 deals (12,000 games, seed 2026; ``bench/data/arena/2026-11/``), one core 14 ms median per
  card (p95 0.50 s), bidding/skat decisions p95 1.04 s, max 1.8 s.
* ``heuristic`` vs ``random``: +260.7 [+259.6, +261.8] over 16,667 deals (100,002
  games, no illegal action).
* ``easy`` vs ``heuristic``: -12.6 [-17.6, -7.5] over 300 deals (seed 5).
* ``medium`` vs ``easy``: +29.42 [+26.54, +32.30] over 1,000 deals (seed 2033, 0 illegal
  actions); vs ``heuristic`` +18.8 [+15.0, +22.6] over 300 deals (seed 2027), 19 ms per
  decision on average.
* that earlier ``strong`` vs ``medium``: +1.1 [-4.5, +6.7] over 160 deals (seed 2028): no
  measurable difference; it declared 20 % of its solo seats against 37 % (cautious).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from skat.deal.game import Phase, SeatView
from skat.players.base import Player
from skat.players.cardmodel import CardModel, level_card_model
from skat.players.heuristic import HeuristicPlayer
from skat.players.inference import AuctionLikelihood, Inference, PolicyLikelihood
from skat.players.learned import LearnedBidder
from skat.players.pimc import PIMCPlayer
from skat.rules.actions import Action, Play

__all__ = ["EasyPlayer", "LEVELS", "make_level", "card_model_settings"]


class EasyPlayer:
    """The heuristic with mistakes: a random legal card now and then, bolder bids."""

    name = "easy"

    def __init__(self, seed: int | None = None, *, mistake_rate: float = 0.25) -> None:
        self.rng = random.Random(seed)
        self.mistake_rate = mistake_rate
        self.inner = HeuristicPlayer(seed, boldness=0.8)

    def side_action(self, view: SeatView) -> Action | None:
        """Kontra and Re (house rules), as the heuristic says."""
        return self.inner.side_action(view)

    def choose(self, view: SeatView) -> Action:
        legal = view.legal_actions
        if view.phase is Phase.PLAY and len(legal) > 1 and self.rng.random() < self.mistake_rate:
            plays = [a for a in legal if isinstance(a, Play)]
            if plays:
                return self.rng.choice(plays)
        return self.inner.choose(view)


def _medium(seed: int | None) -> PIMCPlayer:
    player = PIMCPlayer(seed, worlds=12, min_worlds=4, time_budget=0.15, bidding=False, ramsch_search=True)
    player.name = "medium"
    return player


def card_model_settings(model: CardModel) -> dict[str, object]:
    """The attributes of a searching level that make it play with the card-play model ``model``: the model its
    search asks (playouts, pruning) and the inference that weighs the others' card plays by its policy (after the
    auction's likelihood)."""
    return {"card_model": model,
            "inference": Inference(AuctionLikelihood(temperature=10.0), PolicyLikelihood(model))}


def _with_level_model(player: PIMCPlayer) -> PIMCPlayer:
    """``player`` playing with the level model (:func:`skat.players.cardmodel.level_card_model`)."""
    for attribute, value in card_model_settings(level_card_model()).items():
        setattr(player, attribute, value)
    return player


def _strong(seed: int | None) -> PIMCPlayer:
    player = _with_level_model(PIMCPlayer(seed, worlds=60, min_worlds=4, time_budget=0.5, bidding=False, pool=4,
                                          ramsch_search=True, playouts="all", declarer_worlds=160, declarer_pool=2))
    player.bidder = LearnedBidder(player.rng, margin=5.0, worlds=20, time_budget=1.0)
    player.name = "strong"
    return player


def _expert(seed: int | None) -> PIMCPlayer:
    player = _with_level_model(PIMCPlayer(seed, worlds=160, min_worlds=8, time_budget=2.0, bidding=False, pool=4,
                                          ramsch_search=True, playouts="all"))
    player.bidder = LearnedBidder(player.rng, margin=5.0, worlds=40, time_budget=2.0)
    player.name = "expert"
    return player


LEVELS: dict[str, Callable[[int | None], Player]] = {"easy": EasyPlayer, "medium": _medium, "strong": _strong,
                                                     "expert": _expert}
"""The level names and their factories (seed -> player), weakest first."""


def make_level(name: str, seed: int | None = None) -> Player:
    """A player for a level name (``easy``, ``medium``, ``strong``, ``expert``)."""
    try:
        return LEVELS[name](seed)
    except KeyError:
        raise ValueError(f"unknown level {name!r}; choose easy, medium, strong or expert") from None
