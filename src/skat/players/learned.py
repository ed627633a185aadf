"""Learned win probabilities of contracts, fitted on the self-play corpus (:mod:`skat.players.corpus`).

:func:`contract_features` describes a contract of ten cards before the skat is seen: the jacks, the
matadors, the trumps, the side suits' aces, tens and voids, the card points, the seat and the heuristic's
own strength for it (Null: its risk, low and high cards, voids). A :class:`WinModel` is a logistic model
per family of contract (suit, grand, Null; hand game or with the skat picked up): the chance of winning is
``sigmoid(w . (x - mean) / scale + b)``, numpy only, loaded from a small ``.npz`` file in well under a
second. ``tools/train_bidding.py`` fits it and writes its report.
"""

from __future__ import annotations

import functools
import random
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from skat.cards import CardSet, mask_points
from skat.deal.game import SeatView
from skat.players.bidding import (
    ContractEstimate,
    SimulationBidder,
    best_discards,
    candidate_contracts,
)
from skat.players.budget import Budget, SoftDeadline
from skat.players.handbatch import card_points, contract_features_of
from skat.players.heuristic import expected_score, game_value, hand_strength, null_risk
from skat.players.worlds import sample_worlds
from skat.rules.actions import Action, Declare, Discard
from skat.rules.contract import Contract
from skat.rules.ranking import GameType
from skat.rules.value import BASE_VALUES, matador_count

__all__ = ["FAMILIES", "SKAT_FAMILIES", "family", "skat_family", "skat_features", "bids_heard", "contract_features", "WinModel", "FEATURES", "LearnedBidder", "shipped_model"]

_NULL = 5
_GRAND = 4
_JACK, _TEN, _ACE = 4, 3, 7
FAMILIES = ("suit", "suit hand", "grand", "grand hand", "null", "null hand")
"""The families of contract judged before the skat is seen; a model has one set of weights for each."""
SKAT_FAMILIES = ("suit skat", "grand skat", "null skat")
"""The families judged after the pickup, on the ten cards kept and the discard (:func:`skat_features`)."""

TRUMP_FEATURES = ("jack_clubs", "jack_spades", "jack_hearts", "jack_diamonds", "matadors", "trumps",
                  "trump_ace", "trump_ten", "side_aces", "side_tens", "bare_tens", "voids", "singletons",
                  "longest_side", "points", "forehand", "middlehand", "strength", "opponent_bid", "opponent_bidding")
NULL_FEATURES = ("risk", "sevens", "eights", "highs", "voids", "singletons", "longest", "lone_high",
                 "points", "forehand", "middlehand", "opponent_bid", "opponent_bidding")
FEATURES = {"trump": TRUMP_FEATURES, "null": NULL_FEATURES}
"""The names of :func:`contract_features`' values, by kind of contract."""


def family(gt: int, hand_game: bool) -> str:
    """The family of a contract (one of :data:`FAMILIES`)."""
    name = "null" if gt == _NULL else "grand" if gt == _GRAND else "suit"
    return f"{name} hand" if hand_game else name


def skat_family(gt: int) -> str:
    """The family of a contract judged after the pickup (one of :data:`SKAT_FAMILIES`)."""
    return ("null" if gt == _NULL else "grand" if gt == _GRAND else "suit") + " skat"


def _suit(hand: int, suit: int) -> int:
    """The cards of a suit without its jack (a bit per rank, 0..7)."""
    return (hand >> (suit * 8)) & 0xFF & ~(1 << _JACK)


def bids_heard(view: SeatView) -> int:
    """The highest bid an opponent of the seat has made or held so far (0: none)."""
    heard = current = 0
    for seat, said in view.auction:
        if said.isdigit():
            current = int(said)
        elif said != "hold":
            continue
        if seat != view.seat:
            heard = max(heard, current)
    return heard


def contract_features(hand: int, gt: int, seat: int, heard: int = 0) -> np.ndarray:
    """The features of playing ``gt`` with the ten cards ``hand`` from ``seat`` (0 forehand, 1 middlehand,
    2 rearhand) after hearing an opponent bid up to ``heard`` (0: no opponent bid), before the skat is seen
    (:data:`FEATURES`)."""
    points = mask_points(hand) / 10.0
    position = (float(seat == 0), float(seat == 1))
    bidding = (heard / 24.0, float(heard > 0))
    if gt == _NULL:
        lengths, sevens, eights, highs, lone_high = [], 0, 0, 0, 0
        for suit in range(4):
            cards = (hand >> (suit * 8)) & 0xFF
            n = cards.bit_count()
            lengths.append(n)
            sevens += cards & 1
            eights += cards >> 1 & 1
            high = (cards >> 5).bit_count() + (cards >> _JACK & 1)  # J Q K A: beaten by little
            highs += high
            lone_high += n == 1 and not cards & 0b111
        return np.array([null_risk(hand), sevens, eights, highs, lengths.count(0), lengths.count(1), max(lengths),
                         lone_high, points, *position, *bidding], dtype=np.float64)
    jacks = [hand >> (s * 8 + _JACK) & 1 for s in (3, 2, 1, 0)]
    with_, matadors = matador_count(gt, hand)
    trump_cards = _suit(hand, gt) if gt < 4 else 0
    trumps = sum(jacks) + trump_cards.bit_count()
    sides = [s for s in range(4) if s != gt]
    side_aces = side_tens = bare_tens = voids = singletons = longest = 0
    for s in sides:
        cards = _suit(hand, s)
        n = cards.bit_count()
        ace, ten = cards >> _ACE & 1, cards >> _TEN & 1
        side_aces += ace
        side_tens += ten
        bare_tens += ten and not ace and n <= 2
        voids += n == 0
        singletons += n == 1
        longest = max(longest, n)
    return np.array([*jacks, matadors if with_ else -matadors, trumps, trump_cards >> _ACE & 1,
                     trump_cards >> _TEN & 1, side_aces, side_tens, bare_tens, voids, singletons, longest, points,
                     *position, hand_strength(hand, gt), *bidding], dtype=np.float64)


def skat_features(ten: int, discard: int, gt: int, seat: int, heard: int = 0) -> np.ndarray:
    """The features of playing ``gt`` after the pickup with the ten cards ``ten`` kept and ``discard`` laid
    away: :func:`contract_features` of the ten cards, and the discard's card points (tens)."""
    return np.append(contract_features(ten, gt, seat, heard), mask_points(discard) / 10.0)


Linear = tuple[np.ndarray, np.ndarray, np.ndarray, float]
"""(mean, scale, coefficients, intercept) of a model on standardized features."""


@dataclass
class WinModel:
    """Logistic win probabilities per family, and optionally a linear expected Seeger-Fabian score (see the
    module)."""

    weights: dict[str, Linear]
    """family -> the logistic model of winning."""
    scores: dict[str, Linear] = field(default_factory=dict)
    """family -> the linear model of the declarer's Seeger-Fabian score (at a bid the game's value covers)."""

    def win_probability(self, hand: int, gt: int, hand_game: bool, seat: int, heard: int = 0) -> float:
        """The chance that the declarer wins ``gt`` with these ten cards (hand game or after the pickup),
        an opponent having bid up to ``heard``."""
        z = _linear(self.weights[family(gt, hand_game)], contract_features(hand, gt, seat, heard))
        return 1.0 / (1.0 + np.exp(-z))

    def expected_sf(self, hand: int, gt: int, hand_game: bool, seat: int, heard: int = 0) -> float | None:
        """The declarer's expected Seeger-Fabian score, or None without a score model for the family."""
        model = self.scores.get(family(gt, hand_game))
        return None if model is None else _linear(model, contract_features(hand, gt, seat, heard))

    def win_probability_after_pickup(self, ten: int, discard: int, gt: int, seat: int, heard: int = 0) -> float:
        """The chance that the declarer wins ``gt`` keeping ``ten`` and laying away ``discard`` (needs the
        family in :attr:`weights`)."""
        z = _linear(self.weights[skat_family(gt)], skat_features(ten, discard, gt, seat, heard))
        return 1.0 / (1.0 + np.exp(-z))

    def win_probabilities(self, hands: np.ndarray, gt: int, hand_game: bool, seat: int, heard: int = 0) -> np.ndarray:
        """:meth:`win_probability` of each ten cards of ``hands`` (an array of masks), in one pass."""
        return self.probabilities(family(gt, hand_game), contract_features_of(hands, gt, seat, heard))

    def probabilities(self, name: str, features: np.ndarray) -> np.ndarray:
        """The win probability of the family ``name`` for each row of features (:func:`contract_features`, or
        :func:`skat_features` for a family after the pickup)."""
        return 1.0 / (1.0 + np.exp(-_linear_rows(self.weights[name], features)))

    def win_probabilities_after_pickup(self, tens: np.ndarray, discards: np.ndarray, gt: int, seat: int,
                                       heard: int = 0) -> np.ndarray:
        """:meth:`win_probability_after_pickup` of each pair of ten cards kept and discard, in one pass."""
        x = np.column_stack([contract_features_of(tens, gt, seat, heard), card_points(discards) / 10.0])
        return self.probabilities(skat_family(gt), x)

    def save(self, path: str | Path) -> None:
        """Write the weights as one ``.npz`` file."""
        arrays: dict[str, Any] = {}  # Any, not np.ndarray: savez_compressed() takes allow_pickle: bool by keyword too
        for prefix, models in (("", self.weights), ("score.", self.scores)):
            for name, (mean, scale, coef, intercept) in models.items():
                key = prefix + name.replace(" ", "_")
                arrays[f"{key}.mean"], arrays[f"{key}.scale"] = mean, scale
                arrays[f"{key}.coef"], arrays[f"{key}.intercept"] = coef, np.array([intercept])
        np.savez_compressed(path, **arrays)

    @classmethod
    def load(cls, path: str | Path) -> WinModel:
        """Read weights written by :meth:`save`."""
        found: dict[str, dict[str, Linear]] = {"": {}, "score.": {}}
        with np.load(path) as data:
            for prefix, models in found.items():
                for name in FAMILIES + SKAT_FAMILIES:
                    key = prefix + name.replace(" ", "_")
                    if f"{key}.coef" in data:
                        models[name] = (data[f"{key}.mean"], data[f"{key}.scale"], data[f"{key}.coef"],
                                        float(data[f"{key}.intercept"][0]))
        return cls(found[""], found["score."])


def _linear(model: Linear, x: np.ndarray) -> float:
    mean, scale, coef, intercept = model
    x = x[: len(coef)]  # a model fitted on fewer features (the leading ones) ignores the later ones
    return float(((x - mean) / scale) @ coef + intercept)


def _linear_rows(model: Linear, x: np.ndarray) -> np.ndarray:
    """:func:`_linear` of each row of ``x``."""
    mean, scale, coef, intercept = model
    return ((x[:, : len(coef)] - mean) / scale) @ coef + intercept


MODEL_FILE = "win_model.npz"
"""The shipped model's file in ``skat/data`` (``tools/train_bidding.py --model``)."""


@functools.cache
def shipped_model() -> WinModel:
    """The model that ships with the package."""
    with resources.as_file(resources.files("skat") / "data" / MODEL_FILE) as path:
        return WinModel.load(path)


class LearnedBidder(SimulationBidder):
    """Bidding, the choice of hand game or pickup, the discard and the declaration by the learned chances:
    before the skat is seen, of each candidate contract (the contracts
    :func:`skat.players.bidding.candidate_contracts` plays out; a contract's value is counted with the
    matadors of the ten cards), after the pickup of each game type with its best discards
    (:meth:`skat_choice`). The bids heard so far are features of both. Without after-pickup weights in the
    model, the discard is the simulation's (:class:`skat.players.bidding.SimulationBidder`)."""

    def __init__(self, rng: random.Random, model: WinModel | None = None, *, use_scores: bool = False,
                 margin: float = 0.0, discards: int = 3, use_heard: bool = True, after_pickup: bool = True,
                 discard_worlds: int = 0, discard_pairs: int = 6, discard_time: float = 0.5,
                 **options: Any) -> None:
        super().__init__(rng, **options)
        self.model = model or shipped_model()
        self.use_scores = use_scores
        """Take the score model's expected score (else ``p (value + 50) - (1 - p) (2 value + 50)``)."""
        self.margin = margin
        """A contract backs a bid only when its expected score is above this (Seeger-Fabian points)."""
        self.discards = int(discards)
        """Discard pairs judged per game type after the pickup."""
        self.use_heard = use_heard
        """Take the bids heard into account (else every estimate is made as if no opponent had bid)."""
        self.after_pickup = after_pickup and all(f in self.model.weights for f in SKAT_FAMILIES)
        """Discard and declare by the after-pickup model (else by the simulation)."""
        if discard_worlds < 0 or discard_pairs < 1 or not discard_time > 0:
            raise ValueError(f"the searched discard wants worlds >= 0, pairs >= 1 and a positive time, not "
                             f"{discard_worlds}, {discard_pairs}, {discard_time}")
        self.discard_worlds = int(discard_worlds)
        """With more than 0, the pair laid away in the suit or grand game the model chooses is searched
        (:meth:`searched_discard`) over this many worlds; 0: the model's pair."""
        self.discard_pairs = int(discard_pairs)
        """The pairs :meth:`searched_discard` compares: the heuristic's best for the game type, the model's among them."""
        self.discard_time = float(discard_time)
        """The searched discard's budget (CPU seconds; its hard limit 1.2 times this)."""

    def heard(self, view: SeatView) -> int:
        """The bids heard as the estimates take them (:func:`bids_heard`, or 0 without :attr:`use_heard`)."""
        return bids_heard(view) if self.use_heard else 0

    def bid_limit(self, view: SeatView) -> int:
        """The highest value among the contracts whose expected score is above :attr:`margin` (0: pass)."""
        return max((est.value for est in self.estimates(view) if est.score > self.margin), default=0)

    def planned_contract(self, view: SeatView) -> tuple[int, bool] | None:
        """(game type, hand game) the declarer means to play, from its view before the skat is taken: the
        skat decision's hand game, or the pickup contract with the best expected score that reaches the bid
        (None: no candidate contract with the pickup)."""
        action = self.skat_decision(view)
        if isinstance(action, Declare):
            return int(action.contract.game_type), True
        pickups = [est for est in self.estimates(view) if not est.contract.hand]
        if not pickups:
            return None
        reaching = [est for est in pickups if est.value >= view.bid] or pickups
        best = max(reaching, key=lambda est: est.score)
        return int(best.contract.game_type), False

    def skat_choice(self, twelve: int, seat: int, bid: int, heard: int = 0) -> tuple[float, int, Contract] | None:
        """The best (expected score, discard, contract) after the pickup by the after-pickup model: each
        game type with its :attr:`discards` best pairs (:func:`skat.players.bidding.best_discards`); a
        contract worth less than the bid counts as lost overbid. None when the model has no after-pickup
        weights."""
        best: tuple[float, int, Contract] | None = None
        for gt in range(6):
            if skat_family(gt) not in self.model.weights:
                continue
            contract = Contract(GameType(gt))
            value = game_value(contract, twelve)
            lost = value if gt == _NULL else BASE_VALUES[gt] * -(-bid // BASE_VALUES[gt])
            for d in best_discards(twelve, gt, self.discards):
                if value >= bid:
                    p = self.model.win_probability_after_pickup(twelve & ~d, d, gt, seat, heard)
                    score = expected_score(p, value)
                else:  # lost overbid, by the next multiple of the base value at or above the bid
                    score = expected_score(0.0, lost)
                score += 0.01 * mask_points(d)  # of equal contracts, the discard with more points
                if best is None or score > best[0]:
                    best = (score, d, contract)
        return best

    def discard(self, view: SeatView) -> Action:
        """Lay away the pair of :meth:`skat_choice` and plan its contract (the simulation's discard when the
        model has no after-pickup weights)."""
        assert view.seat is not None, "a seat's view, not a spectator's"
        choice = self.skat_choice(view.hand.mask, view.seat, view.bid, self.heard(view)) if self.after_pickup else None
        if choice is None:
            return super().discard(view)
        _score, pair, contract = choice
        if self.discard_worlds > 0 and contract.game_type is not GameType.NULL and game_value(
                contract, view.hand.mask) >= view.bid:
            pair = self.searched_discard(view, int(contract.game_type), pair)
        self._planned = contract
        return Discard(CardSet.from_mask(pair))

    def searched_discard(self, view: SeatView, gt: int, chosen: int) -> int:
        """The pair to lay away for suit or grand game ``gt`` by double-dummy search: the heuristic's
        :attr:`discard_pairs` best pairs (and ``chosen``, the model's) are each played out by the solver in the
        same :attr:`discard_worlds` worlds of the opponents' cards (drawn by their bids), and the pair with the
        best mean Seeger-Fabian score there (won, won Schneider, lost) is laid away; ``chosen`` where the search
        finds no better or its time runs out before one world is done."""
        from skat.solver.search import SearchLimitExceeded, declarer_reaches

        twelve, seat = view.hand.mask, view.seat
        assert seat is not None, "a seat's view, not a spectator's"
        pairs = best_discards(twelve, gt, self.discard_pairs)
        if chosen not in pairs:
            pairs.append(chosen)
        value = game_value(Contract(GameType(gt)), twelve)
        outcomes = (-(2 * value + 50), value + 50, value + BASE_VALUES[gt] + 50)  # lost, won, won Schneider
        totals = dict.fromkeys(pairs, 0.0)
        budget = Budget(self.discard_time, 1.2 * self.discard_time)
        try:
            for world in sample_worlds(view, self.discard_worlds, self.rng):
                row = {}
                for pair in pairs:
                    budget.check_soft()
                    hands = list(world.hands)
                    hands[seat] = twelve & ~pair
                    points = mask_points(pair)
                    won = declarer_reaches(gt, hands, [], 0, seat, 61, declarer_points=points,
                                           time_limit=budget.time_limit())
                    schneider = won and declarer_reaches(gt, hands, [], 0, seat, 90, declarer_points=points,
                                                         time_limit=budget.time_limit())
                    row[pair] = outcomes[won + schneider]
                for pair, score in row.items():  # whole worlds only: every pair judged in the same ones
                    totals[pair] += score
        except (SoftDeadline, SearchLimitExceeded):
            pass
        best = max(pairs, key=lambda pair: totals[pair])
        return best if totals[best] > totals[chosen] else chosen

    def estimates(self, view: SeatView) -> list[ContractEstimate]:
        """The learned estimates of the candidate contracts, for the bids heard so far (cached)."""
        key = (view.seat, view.hand.mask, self.heard(view))
        cached = self._cache.get(key)
        if cached is None:
            cached = self._cache[key] = self._simulate_hand(view)
        return cached

    def _simulate_hand(self, view: SeatView) -> list[ContractEstimate]:
        hand, seat, heard = view.hand.mask, view.seat, self.heard(view)
        assert seat is not None, "a seat's view, not a spectator's"
        out: list[ContractEstimate] = []
        for gt, hand_game in candidate_contracts(hand):
            if family(gt, hand_game) not in self.model.weights:
                continue
            p = self.model.win_probability(hand, gt, hand_game, seat, heard)
            contract = Contract(GameType(gt), hand=hand_game)
            value = game_value(contract, hand)
            score = self.model.expected_sf(hand, gt, hand_game, seat, heard) if self.use_scores else None
            out.append(ContractEstimate(contract, p, value, expected_score(p, value) if score is None else score))
        return out
