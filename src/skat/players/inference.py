"""Inference from what the other players did: how likely a sampled world makes their bids, passes, declaration
and card plays.

:func:`~skat.players.worlds.sample_worlds` deals the hidden cards so that every hard fact holds and only
rejects worlds that plainly contradict a bid. :class:`AuctionLikelihood` weighs the worlds instead: with the
learned chances of :mod:`skat.players.learned` each opponent's hand in a world has an expected Seeger-Fabian
score ``E`` for its best contract worth at least a value, and a player bids or holds that value with
probability ``sigmoid(E / temperature)`` and passes it with the rest. The declarer's announced game counts
the same way (after a pickup with the ten cards he kept and the discard). :func:`select_worlds` draws the
worlds a player searches from a larger pool in proportion to these weights (Gumbel top-k: a sample without
replacement), so the solver spends its time on the worlds the auction makes likely. :func:`draw_worlds` draws
them with replacement in proportion to the weights to a power (:data:`DRAW_POWER`), so that a world is searched as
often as it is likely: a sample of the posterior itself, where the top-k spreads the search over unlikely worlds
when a few carry the weight.

:class:`PlayLikelihood` reads the card plays the same way, with a small model of how players use their
cards: the last player of a trick who cannot take it gives the fewest points he may, and one whose partner
has it gives the most (he "smears"). A defender who threw a seven on his partner's trick probably had no ace
or ten to give; a declarer who gave a ten to a trick he could not win had nothing smaller to follow with.
:class:`PolicyLikelihood` reads every card play of the others with the learned card-play model instead
(:mod:`skat.players.cardmodel`): in a world, each such card had the chance the model's policy gives it from that
seat's view at the time (its hand then is its hand in the world and the cards it played since). One batched
forward pass weighs every world of the pool. :class:`Inference` multiplies the parts it is given.
"""

from __future__ import annotations

import functools
import math
import random
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

import numpy as np

from skat.cards import CARD_POINTS, CardSet, iter_mask
from skat.deal.game import SeatView
from skat.players.bidding import NEAR_HOPELESS, NULL_RISK, candidate_contracts
from skat.players.handbatch import contract_features_of, popcount
from skat.players.heuristic import contract_value, expected_score, game_value
from skat.players.learned import NULL_FEATURES, TRUMP_FEATURES, WinModel, family, shipped_model, skat_family
from skat.players.worlds import Knowledge, World
from skat.rules.bidding import next_bid
from skat.rules.contract import Contract
from skat.rules.ranking import FOLLOW_MASK, GameType, winner_index
from skat.rules.value import matador_count

if TYPE_CHECKING:
    from skat.players.cardmodel import CardModel

__all__ = ["AuctionFacts", "auction_facts", "AuctionLikelihood", "PlayEvent", "play_events", "PlayLikelihood",
           "PolicyLikelihood", "PolicyEvents", "policy_events", "Inference", "select_worlds", "draw_worlds",
           "DRAW_POWER"]

_NO_CONTRACT = -200.0
_NULL_TYPE = int(GameType.NULL)
_STRENGTH_COLUMN = TRUMP_FEATURES.index("strength")
_MATADORS_COLUMN = TRUMP_FEATURES.index("matadors")
_NULL_RISK_COLUMN = NULL_FEATURES.index("risk")
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

    def log_weights(self, prepared: tuple[Knowledge, AuctionFacts], worlds: list[World]) -> list[float]:
        """:meth:`auction_log_weight` of each world, the hands of all worlds judged at once
        (:mod:`skat.players.handbatch`; for a pool, one world is faster by :meth:`log_weight`): the same sums to
        1e-9, where they are rounded, so that worlds the auction cannot tell apart weigh exactly the same whatever
        their place in the batch."""
        know, facts = prepared
        if not worlds:
            return []
        hands = np.array([w.hands for w in worlds], dtype=np.int64)
        total = np.zeros(len(worlds))
        for s in range(3):
            if s == know.seat:
                continue
            held = hands[:, s] | know.played[s]
            if s == know.declarer:
                total = total + self._declared_all(know, held, np.array([w.skat for w in worlds], dtype=np.int64), s)
                continue
            if not (facts.held[s] or facts.refused[s]):
                continue
            ten = popcount(held) == 10
            scored = self.contract_scores(held, s)  # once for both bids of the seat
            if facts.held[s]:
                best = self.best_of(scored, facts.held[s], len(held))
                total = total + np.where(ten, _log_sigmoids(best / self.temperature), 0.0)
            if facts.refused[s]:
                best = self.best_of(scored, facts.refused[s], len(held))
                total = total + np.where(ten, _log_sigmoids(-best / self.temperature), 0.0)
        return np.round(total, 9).tolist()

    def best_scores(self, hands: np.ndarray, seat: int, value: int) -> np.ndarray:
        """:meth:`best_score` of each ten cards of ``hands`` (an array of masks): the features of each game type
        once, judged as a hand game and with the skat."""
        return self.best_of(self.contract_scores(hands, seat), value, len(hands))

    @staticmethod
    def best_of(scored: list[tuple[np.ndarray, np.ndarray, np.ndarray]], value: int, n: int) -> np.ndarray:
        """The best expected score of each hand among the contracts of :meth:`contract_scores` that it may play and
        that are worth at least ``value`` (:data:`_NO_CONTRACT` where none is)."""
        best = np.full(n, -np.inf)
        for playable, worth, score in scored:
            best = np.where(playable & (worth >= value), np.maximum(best, score), best)
        return np.where(np.isneginf(best), _NO_CONTRACT, best)  # none worth the value (a best may lie below it)

    def contract_scores(self, hands: np.ndarray, seat: int) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
        """For each candidate contract of the model, (whether each hand may play it, its worth, its expected score)
        of each ten cards of ``hands``: what :meth:`best_of` chooses from for any bid."""
        scored = []
        for gt in range(6):
            features = contract_features_of(hands, gt, seat)
            if gt == _NULL_TYPE:
                playable = features[:, _NULL_RISK_COLUMN] <= NULL_RISK
            else:
                playable = features[:, _STRENGTH_COLUMN] >= NEAR_HOPELESS
            if not playable.any():
                continue
            for hand_game in (False, True):
                name = family(gt, hand_game)
                if name not in self.model.weights:
                    continue
                contract = Contract(GameType(gt), hand=hand_game)
                if contract.is_null:
                    worth = np.full(len(hands), contract_value(contract, 0))
                else:
                    by_matadors = [contract_value(contract, m) for m in range(12)]
                    worth = np.take(by_matadors, np.abs(features[:, _MATADORS_COLUMN]).astype(np.int64))
                scored.append((playable, worth, _expected_scores(self.model.probabilities(name, features), worth)))
        return scored

    def _declared_all(self, know: Knowledge, kept: np.ndarray, skats: np.ndarray, s: int) -> np.ndarray:
        """:meth:`_declared` of each world's declarer's ten cards ``kept`` and skat."""
        gt = know.game_type
        if gt is None or gt > 5:
            return np.zeros(len(kept))
        if know.hand_game:
            if family(gt, True) not in self.model.weights:
                return np.zeros(len(kept))
            p = self.model.win_probabilities(kept, gt, True, s)
        else:
            if skat_family(gt) not in self.model.weights:
                return np.zeros(len(kept))
            p = self.model.win_probabilities_after_pickup(kept, skats, gt, s)
        value = np.maximum(_game_values(gt, know.hand_game, kept | skats), know.bid)
        return np.where(popcount(kept) == 10, _log_sigmoids(_expected_scores(p, value) / self.temperature), 0.0)

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


@dataclass(frozen=True)
class PolicyEvents:
    """The other seats' card plays of a deal so far, as :class:`PolicyLikelihood` weighs them: per play the seat,
    the card, the cards the seat played from then on (with it), the cards that followed the suit led (0: the seat
    led), whether the seat is a declarer who put two cards away, and the model's input for the seat's view then
    without its own cards (filled in per world)."""

    seats: np.ndarray
    cards: np.ndarray
    later: list[int]
    follow: list[int]
    discarded: np.ndarray
    base: np.ndarray


def policy_events(view: SeatView, know: Knowledge, max_events: int | None = None) -> PolicyEvents | None:
    """The other seats' card plays in ``view`` (the latest ``max_events``; None: all), each with the public part of
    that seat's view at the time (:func:`skat.players.encoding.encode_view` of the view with no own cards); None in
    a Ramsch or when the others have played nothing."""
    from skat.players.cardmodel import INPUT_SIZE
    from skat.players.encoding import encode_view

    gt, declarer = know.game_type, know.declarer
    if gt is None or declarer is None or gt > 5 or view.seat is None:
        return None
    plays: list[tuple[int, int, int, int]] = []  # (trick number, position in it, seat, card)
    for t, (leader, cards, _winner) in enumerate(view.tricks):
        plays += [(t, i, (leader + i) % 3, int(c)) for i, c in enumerate(cards)]
    plays += [(len(view.tricks), i, s, int(c)) for i, (s, c) in enumerate(view.trick)]
    later = [0, 0, 0]
    chosen: list[tuple[int, int, int, int, int]] = []
    for t, i, s, c in reversed(plays):
        later[s] |= 1 << c
        if s != view.seat and (max_events is None or len(chosen) < max_events):
            chosen.append((t, i, s, c, later[s]))
    if not chosen:
        return None
    chosen.reverse()
    empty = CardSet.from_mask(0)
    points = [0, 0, 0]
    done = 0
    bases, seats, played_cards, laters, follows, discarded = [], [], [], [], [], []
    for t, i, s, c, held_later in chosen:
        while done < t:  # the trick points of the tricks finished before this play
            _leader, trick_cards, winner = view.tricks[done]
            points[winner] += sum(CARD_POINTS[int(x)] for x in trick_cards)
            done += 1
        if t < len(view.tricks):
            leader, trick_cards, _winner = view.tricks[t]
            so_far = [((leader + k) % 3, trick_cards[k]) for k in range(i)]
        else:
            so_far = list(view.trick[:i])
        then = replace(view, seat=s, hand=empty, skat=None, discard=None, tricks=list(view.tricks[:t]), trick=so_far,
                       trick_points=(points[0], points[1], points[2]), legal_actions=[], side_actions=[])
        base = np.zeros(INPUT_SIZE, dtype=np.float32)
        base[:-32] = encode_view(then)
        bases.append(base)
        seats.append(s)
        played_cards.append(c)
        laters.append(held_later)
        follows.append(FOLLOW_MASK[gt][int(so_far[0][1])] if so_far else 0)
        discarded.append(s == declarer and know.picked_up)
    return PolicyEvents(np.array(seats), np.array(played_cards), laters, follows, np.array(discarded),
                        np.stack(bases))


class PolicyLikelihood:
    """The log-likelihood of the other seats' card plays in a world by the learned card-play model (see the module
    docstring), times ``weight`` (below 1: the model is trusted less than it believes itself). A world in which a
    play broke a hard fact (a card that did not follow suit with the suit in hand) gets :data:`IMPOSSIBLE`."""

    IMPOSSIBLE = -1000.0

    def __init__(self, model: CardModel | None = None, *, weight: float = 1.0, max_events: int | None = 12) -> None:
        if not weight >= 0:
            raise ValueError(f"the weight must be zero or more, not {weight}")
        if model is None:
            from skat.players.cardmodel import shipped_card_model

            model = shipped_card_model()
        self.model = model
        self.weight = float(weight)
        self.max_events = max_events
        """The latest plays weighed (the cost grows with them; None: all)."""

    def prepare(self, view: SeatView, know: Knowledge) -> PolicyEvents | None:
        """What :meth:`log_weights` needs of a decision (:func:`policy_events`)."""
        return policy_events(view, know, self.max_events)

    def log_weight(self, prepared: PolicyEvents | None, world: World) -> float:
        """The log-likelihood of the plays in one world."""
        return self.log_weights(prepared, [world])[0]

    def log_weights(self, prepared: PolicyEvents | None, worlds: list[World]) -> list[float]:
        """The log-likelihood of the plays in each world, in one forward pass of the model."""
        if prepared is None or not worlds:
            return [0.0] * len(worlds)
        from skat.players.encoding import OFFSET, mask_bits

        ev = prepared
        hands_now = np.array([w.hands for w in worlds], dtype=np.int64)  # W x 3
        hands = hands_now[:, ev.seats] | np.array(ev.later, dtype=np.int64)  # W x E: each hand at its play
        follow = np.array(ev.follow, dtype=np.int64)
        following = hands & follow
        legal = np.where((follow != 0) & (following != 0), following, hands)
        # The first layer is linear in the input: the part every world shares (the public view at each play) is
        # multiplied once, the world's own cards (the hand, the legal cards, a declarer's discard) by their rows.
        w1, b1 = self.model.first_layer()
        hand_at, discard_at = OFFSET["hand"], OFFSET["discard"]
        shared = ev.base.copy()
        shared[:, hand_at:hand_at + 32] = 0.0
        shared[:, -32:] = 0.0
        shared[ev.discarded, discard_at:discard_at + 32] = 0.0
        legal_bits = mask_bits(legal).reshape(-1, 32)
        n, e = len(worlds), len(ev.seats)
        with self.model.one_blas_thread():
            first = (mask_bits(hands).reshape(-1, 32) @ w1[hand_at:hand_at + 32] + legal_bits @ w1[-32:]).reshape(n, e, -1)
            first += shared @ w1 + b1
            if ev.discarded.any():
                skats = np.array([world.skat for world in worlds], dtype=np.int64)
                first[:, ev.discarded, :] += (mask_bits(skats) @ w1[discard_at:discard_at + 32])[:, None, :]
        logits = self.model.policy_logits_after_first(first.reshape(n * e, -1), legal_bits > 0.5).reshape(n, e, 32)
        top = logits.max(axis=2, keepdims=True)
        top = np.where(np.isfinite(top), top, 0.0)
        log_total = np.log(np.exp(logits - top).sum(axis=2)) + top[:, :, 0]
        chosen = np.take_along_axis(logits, ev.cards[None, :, None], axis=2)[:, :, 0]
        log_p = np.where(np.isfinite(chosen), chosen - log_total, self.IMPOSSIBLE)
        return (self.weight * log_p.sum(axis=1)).tolist()


class Inference:
    """The auction's and the card plays' likelihoods together (either may be left out)."""

    def __init__(self, auction: AuctionLikelihood | None = None,
                 plays: PlayLikelihood | PolicyLikelihood | None = None) -> None:
        self.parts: list[Any] = [part for part in (auction, plays) if part is not None]

    def prepare(self, view: SeatView, know: Knowledge) -> list:
        """Each part's preparation of a decision."""
        return [part.prepare(view, know) for part in self.parts]

    def log_weight(self, prepared: list, world: World) -> float:
        """The sum of the parts' log-likelihoods."""
        return sum(part.log_weight(p, world) for part, p in zip(self.parts, prepared))

    def log_weights(self, prepared: list, worlds: list[World]) -> list[float]:
        """:meth:`log_weight` of each world (a part that weighs a batch at once, :class:`PolicyLikelihood`, does)."""
        total = [0.0] * len(worlds)
        for part, p in zip(self.parts, prepared):
            batch = getattr(part, "log_weights", None)
            weights = batch(p, worlds) if batch is not None else [part.log_weight(p, w) for w in worlds]
            total = [a + b for a, b in zip(total, weights)]
        return total


def _log_sigmoid(x: float) -> float:
    return -math.log1p(math.exp(-x)) if x > -30 else x


def _expected_scores(p: Any, value: Any) -> np.ndarray:
    """:func:`skat.players.heuristic.expected_score` of arrays of chances and values (the same formula)."""
    return np.asarray(expected_score(p, value))


def _log_sigmoids(x: np.ndarray) -> np.ndarray:
    """:func:`_log_sigmoid` of each value."""
    return np.where(x > -30, -np.log1p(np.exp(-np.maximum(x, -30.0))), x)


def _game_values(gt: int, hand_game: bool, cards: np.ndarray) -> np.ndarray:
    """:func:`skat.players.heuristic.game_value` of the contract ``gt`` (hand or not) with each mask's matadors."""
    contract = Contract(GameType(gt), hand=hand_game)
    if contract.is_null:
        return np.full(len(cards), contract_value(contract, 0), dtype=np.int64)
    by_matadors = [contract_value(contract, m) for m in range(12)]
    return np.array([by_matadors[matador_count(gt, int(c))[1]] for c in cards], dtype=np.int64)


DRAW_POWER = 0.75
"""The power of the likelihood :func:`draw_worlds` draws by: on held-out corpus deals (483 decisions of tricks 2 to
7, ``bench/inference.py --calibration``) the true deal then lies where the drawn worlds put it, the mean share of
drawn worlds less likely than the true one 0.506 for the declarer and 0.485 for a defender (0.5: calibrated); at the
full likelihood (power 1) 0.435 and 0.417 (too sure), with the 60 most likely of 240 once each 0.587 and 0.662 (too
unsure: the true world beats most of the worlds searched). ``bench/data/cardplay/calibration-draws.txt``."""


def draw_worlds(worlds: list[World], log_weights: list[float], n: int, rng: random.Random,
                power: float = DRAW_POWER) -> list[World]:
    """``n`` draws from ``worlds`` with replacement, each with a chance in proportion to ``exp(power * log_weight)``:
    a likely world comes up several times (the same object; a search counts it once for each draw, see
    :func:`skat.players.pimc.card_values`), in the order drawn."""
    if not worlds or n <= 0:
        return []
    if not power >= 0:
        raise ValueError(f"the power of the likelihood must be zero or more, not {power}")
    top = max(log_weights)
    weights = [math.exp(power * (lw - top)) for lw in log_weights]
    return rng.choices(worlds, weights=weights, k=n)


def select_worlds(worlds: list[World], log_weights: list[float], n: int, rng: random.Random) -> list[World]:
    """``n`` of the ``worlds`` drawn without replacement with chances in proportion to ``exp(log_weights)``
    (Gumbel top-k), most likely first."""
    keys = [lw - math.log(-math.log(rng.random() or 1e-300)) for lw in log_weights]
    order = sorted(range(len(worlds)), key=keys.__getitem__, reverse=True)
    return [worlds[i] for i in order[:n]]

