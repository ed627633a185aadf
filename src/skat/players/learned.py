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

from skat.cards import mask_points
from skat.deal.game import SeatView
from skat.players.bidding import ContractEstimate, SimulationBidder
from skat.players.corpus import candidate_contracts
from skat.players.heuristic import expected_score, game_value, hand_strength, null_risk
from skat.players.levels import make_level
from skat.players.pimc import PIMCPlayer
from skat.rules.contract import Contract
from skat.rules.ranking import GameType
from skat.rules.value import matador_count

__all__ = ["FAMILIES", "family", "contract_features", "WinModel", "FEATURES", "LearnedBidder", "shipped_model",
           "strong_learned"]

_NULL = 5
_GRAND = 4
_JACK, _TEN, _ACE = 4, 3, 7
FAMILIES = ("suit", "suit hand", "grand", "grand hand", "null", "null hand")
"""The families of contract a model has one set of weights for."""

TRUMP_FEATURES = ("jack_clubs", "jack_spades", "jack_hearts", "jack_diamonds", "matadors", "trumps",
                  "trump_ace", "trump_ten", "side_aces", "side_tens", "bare_tens", "voids", "singletons",
                  "longest_side", "points", "forehand", "middlehand", "strength")
NULL_FEATURES = ("risk", "sevens", "eights", "highs", "voids", "singletons", "longest", "lone_high",
                 "points", "forehand", "middlehand")
FEATURES = {"trump": TRUMP_FEATURES, "null": NULL_FEATURES}
"""The names of :func:`contract_features`' values, by kind of contract."""


def family(gt: int, hand_game: bool) -> str:
    """The family of a contract (one of :data:`FAMILIES`)."""
    name = "null" if gt == _NULL else "grand" if gt == _GRAND else "suit"
    return f"{name} hand" if hand_game else name


def _suit(hand: int, suit: int) -> int:
    """The cards of a suit without its jack (a bit per rank, 0..7)."""
    return (hand >> (suit * 8)) & 0xFF & ~(1 << _JACK)


def contract_features(hand: int, gt: int, seat: int) -> np.ndarray:
    """The features of playing ``gt`` with the ten cards ``hand`` from ``seat`` (0 forehand, 1 middlehand,
    2 rearhand), before the skat is seen (:data:`FEATURES`)."""
    points = mask_points(hand) / 10.0
    position = (float(seat == 0), float(seat == 1))
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
                         lone_high, points, *position], dtype=np.float64)
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
                     *position, hand_strength(hand, gt)], dtype=np.float64)


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

    def win_probability(self, hand: int, gt: int, hand_game: bool, seat: int) -> float:
        """The chance that the declarer wins ``gt`` with these ten cards (hand game or after the pickup)."""
        z = _linear(self.weights[family(gt, hand_game)], contract_features(hand, gt, seat))
        return 1.0 / (1.0 + np.exp(-z))

    def expected_sf(self, hand: int, gt: int, hand_game: bool, seat: int) -> float | None:
        """The declarer's expected Seeger-Fabian score, or None without a score model for the family."""
        model = self.scores.get(family(gt, hand_game))
        return None if model is None else _linear(model, contract_features(hand, gt, seat))

    def save(self, path: str | Path) -> None:
        """Write the weights as one ``.npz`` file."""
        arrays = {}
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
                for name in FAMILIES:
                    key = prefix + name.replace(" ", "_")
                    if f"{key}.coef" in data:
                        models[name] = (data[f"{key}.mean"], data[f"{key}.scale"], data[f"{key}.coef"],
                                        float(data[f"{key}.intercept"][0]))
        return cls(found[""], found["score."])


def _linear(model: Linear, x: np.ndarray) -> float:
    mean, scale, coef, intercept = model
    return float(((x - mean) / scale) @ coef + intercept)


MODEL_FILE = "win_model.npz"
"""The shipped model's file in ``skat/data`` (``tools/train_bidding.py --model``)."""


@functools.cache
def shipped_model() -> WinModel:
    """The model that ships with the package."""
    with resources.as_file(resources.files("skat") / "data" / MODEL_FILE) as path:
        return WinModel.load(path)


class LearnedBidder(SimulationBidder):
    """Bidding and the choice of hand game or pickup by the learned chances of each candidate contract
    (the contracts :func:`skat.players.corpus.candidate_contracts` plays out); the discard and the
    declaration after a pickup stay with the simulation (:class:`skat.players.bidding.SimulationBidder`).
    A contract's value is counted with the matadors of the ten cards."""

    def __init__(self, rng: random.Random, model: WinModel | None = None, *, use_scores: bool = False,
                 **options: Any) -> None:
        super().__init__(rng, **options)
        self.model = model or shipped_model()
        self.use_scores = use_scores
        """Take the score model's expected score (else ``p (value + 50) - (1 - p) (2 value + 50)``)."""

    def _simulate_hand(self, view: SeatView) -> list[ContractEstimate]:
        hand, seat = view.hand.mask, view.seat
        out: list[ContractEstimate] = []
        for gt, hand_game in candidate_contracts(hand):
            if family(gt, hand_game) not in self.model.weights:
                continue
            p = self.model.win_probability(hand, gt, hand_game, seat)
            contract = Contract(GameType(gt), hand=hand_game)
            value = game_value(contract, hand)
            score = self.model.expected_sf(hand, gt, hand_game, seat) if self.use_scores else None
            out.append(ContractEstimate(contract, p, value, expected_score(p, value) if score is None else score))
        return out


def strong_learned(seed: int | None = None) -> PIMCPlayer:
    """``strong``'s card play with :class:`LearnedBidder` (for the arena: ``skat.players.learned:strong_learned``)."""
    player = make_level("strong", seed)
    player.bidder = LearnedBidder(player.rng, worlds=player.bidder.worlds, time_budget=player.bidder.time_budget,
                                  max_time=player.bidder.max_time)
    player.name = "strong-learned"
    return player
