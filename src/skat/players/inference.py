"""Inference from what the other players did: how likely a sampled world makes their bids, passes, declaration
and card plays.

:func:`~skat.players.worlds.sample_worlds` deals the hidden cards so that every hard fact holds and only
rejects worlds that plainly contradict a bid. :class:`AuctionLikelihood` weighs the worlds instead: with the
learned chances of :mod:`skat.players.learned` each opponent's hand in a world has an expected Seeger-Fabian
score ``E`` for its best contract worth at least a value, and a player bids or holds that value with
probability ``sigmoid(E / temperature)`` and passes it with the rest. The declarer's announced game counts
the same way (after a pickup with the ten cards he kept and the discard). :func:`select_worlds` draws the
worlds a player searches from a larger pool in proportion to these weights (Gumbel top-k: a sample without
replacement), so the solver spends its time on the worlds the auction makes likely.

:class:`PlayLikelihood` reads the card plays the same way, with a small model of how players use their
cards: the last player of a trick who cannot take it gives the fewest points he may, and one whose partner
has it gives the most (he "smears"). A defender who threw a seven on his partner's trick probably had no ace
or ten to give; a declarer who gave a ten to a trick he could not win had nothing smaller to follow with.
:class:`Inference` multiplies both.
"""

from __future__ import annotations

import functools
import math
import random
from dataclasses import dataclass

from skat.cards import CARD_POINTS, iter_mask
from skat.deal.game import SeatView
from skat.players.bidding import candidate_contracts
from skat.players.heuristic import expected_score, game_value
from skat.players.learned import WinModel, family, shipped_model, skat_family
from skat.players.worlds import Knowledge, World
from skat.rules.bidding import next_bid
from skat.rules.contract import Contract
from skat.rules.ranking import FOLLOW_MASK, GameType, winner_index

__all__ = ["AuctionFacts", "auction_facts", "AuctionLikelihood", "PlayEvent", "play_events", "PlayLikelihood",
           "Inference", "select_worlds"]

_NO_CONTRACT = -200.0
"""The expected score of a hand with no candidate contract worth the value (it would not bid it)."""


@dataclass(frozen=True)
class AuctionFacts:
    """What each seat showed in the auction."""

    held: tuple[int, int, int]
    """The highest value each seat bid or held (0: none)."""
    refused: tuple[int, int, int]
    """The value each seat declined by passing (0: it did not pass)."""


def auction_facts(auction: list[tuple[int, str]]) -> AuctionFacts:
    """Read :class:`AuctionFacts` from a seat view's auction: a pass right after another seat's bid declines
    that bid (the listener's pass), any other pass declines the next value above the bid standing."""
    held, refused = [0, 0, 0], [0, 0, 0]
    current, last_bidder = 0, None
    for seat, said in auction:
        if said.isdigit():
            current, last_bidder = int(said), seat
            held[seat] = max(held[seat], current)
        elif said == "hold":
            held[seat] = max(held[seat], current)
            last_bidder = None
        elif said == "pass":
            answering = last_bidder is not None and last_bidder != seat
            refused[seat] = current if answering else (next_bid(current) or current)
            last_bidder = None
    return AuctionFacts((held[0], held[1], held[2]), (refused[0], refused[1], refused[2]))


class AuctionLikelihood:
    """The log-likelihood of the auction and the declaration in a world (see the module docstring)."""

    def __init__(self, model: WinModel | None = None, *, temperature: float = 15.0) -> None:
        if not temperature > 0:
            raise ValueError(f"the temperature must be positive, not {temperature}")
        self.model = model or shipped_model()
        self.temperature = float(temperature)
        """Seeger-Fabian points of expected score that make a bid e (2.7) times likelier."""
        self._scores = functools.lru_cache(maxsize=4096)(self._contract_scores)

    def prepare(self, view: SeatView, know: Knowledge) -> tuple[Knowledge, AuctionFacts]:
        """What :meth:`log_weight` needs of a decision, once for all its worlds."""
        return know, auction_facts(view.auction)

    def log_weight(self, prepared: tuple[Knowledge, AuctionFacts], world: World) -> float:
        """:meth:`auction_log_weight` of a decision made ready by :meth:`prepare`."""
        return self.auction_log_weight(*prepared, world)

    def auction_log_weight(self, know: Knowledge, facts: AuctionFacts, world: World) -> float:
        """The log-likelihood, in ``world``, of what the seat's opponents showed: their bids, holds and
        passes, and the declarer's game."""
        total = 0.0
        for s in range(3):
            if s == know.seat:
                continue
            if s == know.declarer:
                total += self._declared(know, world, s)
                continue
            hand = world.hands[s] | know.played[s]
            if hand.bit_count() != 10:
                continue
            if facts.held[s]:
                total += _log_sigmoid(self.best_score(hand, s, facts.held[s]) / self.temperature)
            if facts.refused[s]:
                total += _log_sigmoid(-self.best_score(hand, s, facts.refused[s]) / self.temperature)
        return total

    def best_score(self, hand: int, seat: int, value: int) -> float:
        """The best expected score of the ten cards' candidate contracts worth at least ``value``."""
        return max((score for worth, score in self._scores(hand, seat) if worth >= value), default=_NO_CONTRACT)

    def _contract_scores(self, hand: int, seat: int) -> tuple[tuple[int, float], ...]:
        out = []
        for gt, hand_game in candidate_contracts(hand):
            if family(gt, hand_game) not in self.model.weights:
                continue
            value = game_value(Contract(GameType(gt), hand=hand_game), hand)
            out.append((value, expected_score(self.model.win_probability(hand, gt, hand_game, seat), value)))
        return tuple(out)

    def _declared(self, know: Knowledge, world: World, s: int) -> float:
        gt = know.game_type
        if gt is None or gt > 5:
            return 0.0
        kept = world.hands[s] | know.played[s]
        if kept.bit_count() != 10:
            return 0.0
        if know.hand_game:
            if family(gt, True) not in self.model.weights:
                return 0.0
            p = self.model.win_probability(kept, gt, True, s)
            value = game_value(Contract(GameType(gt), hand=True), kept | world.skat)
        else:
            if skat_family(gt) not in self.model.weights:
                return 0.0
            p = self.model.win_probability_after_pickup(kept, world.skat, gt, s)
            value = game_value(Contract(GameType(gt)), kept | world.skat)
        return _log_sigmoid(expected_score(p, max(value, know.bid)) / self.temperature)


@dataclass(frozen=True)
class PlayEvent:
    """A card played last to a trick by another seat: what it tells of the hand it came from."""

    seat: int
    card: int
    before: tuple[int, int]
    """The trick's first two cards."""
    later: int
    """The cards the seat played from this card on (with it): its hand then was these and its hand now."""
    partner_has_it: bool
    """Whether the seat's partner had the trick when the card was played."""


def play_events(view: SeatView, know: Knowledge) -> list[PlayEvent]:
    """The cards the other seats played last to a trick, for :class:`PlayLikelihood` (none in a Ramsch)."""
    gt, declarer = know.game_type, know.declarer
    if gt is None or declarer is None or gt > 5:
        return []
    later = [0, 0, 0]
    for s, c in view.trick:  # the trick in progress came after every finished one
        later[s] |= 1 << int(c)
    events = []
    for leader, cards, _winner in reversed(view.tricks):
        for i in (2, 1, 0):
            s = (leader + i) % 3
            later[s] |= 1 << int(cards[i])
            if i != 2 or s == view.seat:
                continue
            first, second = int(cards[0]), int(cards[1])
            ahead = (leader + winner_index(gt, (first, second))) % 3
            partner = s != declarer and ahead != declarer
            events.append(PlayEvent(s, int(cards[2]), (first, second), later[s], partner))
    return events


class PlayLikelihood:
    """The log-likelihood of the other seats' last cards to a trick in a world (see the module docstring):
    a card is played with probability in proportion to ``exp(points * sharpness / 10)`` among the legal cards
    when the partner has the trick, ``exp(-points * sharpness / 10)`` when the seat cannot take it; a trick it
    could have taken says nothing."""

    def __init__(self, *, sharpness: float = 1.5) -> None:
        if not sharpness >= 0:
            raise ValueError(f"the sharpness must be zero or more, not {sharpness}")
        self.sharpness = float(sharpness)
        """How strongly players are taken to smear and to save points (0: every legal card alike)."""

    def prepare(self, view: SeatView, know: Knowledge) -> tuple[int, list[PlayEvent]]:
        """What :meth:`log_weight` needs of a decision: the game type and the :func:`play_events`."""
        return (know.game_type if know.game_type is not None else -1), play_events(view, know)

    def log_weight(self, prepared: tuple[int, list[PlayEvent]], world: World) -> float:
        """The log-likelihood of the plays in ``world``."""
        gt, events = prepared
        total = 0.0
        k = self.sharpness / 10.0
        for event in events:
            hand = world.hands[event.seat] | event.later
            follow = FOLLOW_MASK[gt][event.before[0]]
            legal = hand & follow or hand
            if not legal >> event.card & 1 or legal & (legal - 1) == 0:
                continue  # no choice (or a world that breaks a hard fact: not weighed here)
            if event.partner_has_it:
                sign = 1.0
            else:
                first, second = event.before
                if any(winner_index(gt, (first, second, c)) == 2 for c in iter_mask(legal)):
                    continue
                sign = -1.0
            logits = [sign * k * CARD_POINTS[c] for c in iter_mask(legal)]
            top = max(logits)
            total += sign * k * CARD_POINTS[event.card] - top - math.log(sum(math.exp(x - top) for x in logits))
        return total


class Inference:
    """The auction's and the card plays' likelihoods together (either may be left out)."""

    def __init__(self, auction: AuctionLikelihood | None = None, plays: PlayLikelihood | None = None) -> None:
        self.parts = [part for part in (auction, plays) if part is not None]

    def prepare(self, view: SeatView, know: Knowledge) -> list:
        """Each part's preparation of a decision."""
        return [part.prepare(view, know) for part in self.parts]

    def log_weight(self, prepared: list, world: World) -> float:
        """The sum of the parts' log-likelihoods."""
        return sum(part.log_weight(p, world) for part, p in zip(self.parts, prepared))


def _log_sigmoid(x: float) -> float:
    return -math.log1p(math.exp(-x)) if x > -30 else x


def select_worlds(worlds: list[World], log_weights: list[float], n: int, rng: random.Random) -> list[World]:
    """``n`` of the ``worlds`` drawn without replacement with chances in proportion to ``exp(log_weights)``
    (Gumbel top-k), most likely first."""
    keys = [lw - math.log(-math.log(rng.random() or 1e-300)) for lw in log_weights]
    order = sorted(range(len(worlds)), key=keys.__getitem__, reverse=True)
    return [worlds[i] for i in order[:n]]

