"""The learned bidder's chances measured on the games a level really plays, and refitted to them.

The bidding model (:mod:`skat.players.learned`) was fitted on contracts that ``medium`` played out in all three
seats. When the declarer and both defenders play as ``strong`` the chances may no longer hold. An arena checkpoint
(:mod:`skat.players.arena`) of a match between two players that bid alike keeps, for every deal, its seed and up
to six games played from it; :func:`replay_declared` replays each deal's auction with the level's bidders, seeded as
the arena seeds them (the learned bidder is deterministic, so the replay is the auction the match played; it is
checked against each recorded game's declarer and contract), and pairs the chance the bidder judged its contract by
with the share of the recorded games the declarer won. :func:`fit_platt` fits a logistic correction of a family's
logit to those games (Platt scaling: ``a * z + b``), :func:`recalibrated` folds it into the model's weights.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from skat.deal.game import Phase
from skat.players.arena import derive_seed, new_game
from skat.players.learned import LearnedBidder, WinModel, _linear, contract_features, family
from skat.players.levels import make_level
from skat.rules.rulesets import get_ruleset

__all__ = ["Declared", "replay_declared", "fit_platt", "recalibrated", "log_loss"]


@dataclass(frozen=True)
class Declared:
    """One deal's game as the bidder planned it when it won the auction, and as the match played it."""

    match: str
    deal: int
    seat: int
    hand: int
    """The declarer's ten cards before the skat."""
    heard: int
    """The highest bid the declarer had heard from an opponent (a feature of the model)."""
    hand_game: bool
    game_type: int
    """The game declared."""
    planned_type: int
    """The game the bidder meant to play when it won the auction (a pickup's may differ from the one declared)."""
    planned_p: float
    """The model's chance of winning the planned game, as the bidder judged it."""
    value: int
    """The planned game's value with the ten cards."""
    won: int
    """Of the recorded games with this declarer and contract, how many the declarer won."""
    games: int

    @property
    def family(self) -> str:
        """The model's family of the planned game (:func:`skat.players.learned.family`)."""
        return family(self.planned_type, self.hand_game)


def replay_declared(path: str | Path, level: str = "strong") -> tuple[list[Declared], int]:
    """The declared games of one arena checkpoint, the auctions replayed with ``level``'s bidders; and the number of
    deals left out (the replayed declarer or contract not among the recorded games, or no estimate of it)."""
    path = Path(path)
    lines = path.read_text().splitlines()
    header = json.loads(lines[0])
    rules = get_ruleset(header.get("ruleset", "isko2018"))
    found: list[Declared] = []
    left_out = 0
    for line in lines[1:]:
        record = json.loads(line)
        deal = record["deal"]
        game = new_game(record["seed"], rules, header.get("start", "auction"))
        players = [make_level(level, derive_seed("player", header["seed"], deal, seat)) for seat in range(3)]
        first = [game.view(seat).hand.mask for seat in range(3)]
        at_skat: list[Any] = []  # the declarer's estimates when it decided on the skat
        heard = 0
        while not game.is_over and game.phase is not Phase.PLAY:
            seat = game.to_move
            assert seat is not None
            view = game.view(seat)
            bidder = getattr(players[seat], "bidder", None)
            if game.phase is Phase.SKAT and isinstance(bidder, LearnedBidder):
                at_skat, heard = bidder.estimates(view), bidder.heard(view)
            game.apply(players[seat].choose(view), seat)
        declarer = game.declarer
        if declarer is None or game.is_over:
            continue
        view = game.view(declarer)
        contract = view.contract
        assert contract is not None
        hand_game = view.discard is None
        if hand_game:
            planned = [e for e in at_skat if e.contract.hand and e.contract.game_type == contract.game_type]
        else:  # the pickup contract it meant to play: the best expectation among those reaching the bid
            pickups = [e for e in at_skat if not e.contract.hand and e.value >= view.bid]
            planned = [max(pickups, key=lambda e: e.score)] if pickups else []
        games = [g for g in record["games"] if g["declarer"] == declarer and g["contract"] == str(contract)]
        if not games or not planned:
            left_out += 1
            continue
        est = planned[0]
        found.append(Declared(path.stem, deal, declarer, first[declarer], heard, hand_game, int(contract.game_type),
                              int(est.contract.game_type), float(est.p), int(est.value),
                              sum(bool(g["won"]) for g in games), len(games)))
    return found, left_out


def _logits(model: WinModel, rows: list[Declared]) -> np.ndarray:
    return np.array([_linear(model.weights[r.family], contract_features(r.hand, r.planned_type, r.seat, r.heard))
                     for r in rows])


def log_loss(model: WinModel, rows: Iterable[Declared], platt: tuple[float, float] = (1.0, 0.0)) -> float:
    """The log loss per recorded game of ``model``'s chances (corrected by ``platt``) on ``rows``."""
    rows = list(rows)
    if not rows:
        return math.nan
    a, b = platt
    p = 1.0 / (1.0 + np.exp(-(a * _logits(model, rows) + b)))
    p = np.clip(p, 1e-6, 1 - 1e-6)
    won = np.array([r.won for r in rows], dtype=float)
    games = np.array([r.games for r in rows], dtype=float)
    return float(-(won * np.log(p) + (games - won) * np.log(1 - p)).sum() / games.sum())


def fit_platt(model: WinModel, rows: Iterable[Declared], iterations: int = 50) -> tuple[float, float]:
    """The Platt correction ``(a, b)`` of the model's logit that fits the rows' recorded games best (maximum
    likelihood by Newton's method; each recorded game a case, so a deal played six times weighs six)."""
    rows = list(rows)
    z = _logits(model, rows)
    won = np.array([r.won for r in rows], dtype=float)
    games = np.array([r.games for r in rows], dtype=float)
    x = np.column_stack([z, np.ones_like(z)])
    theta = np.array([1.0, 0.0])
    for _ in range(iterations):
        p = 1.0 / (1.0 + np.exp(-(x @ theta)))
        gradient = x.T @ (won - games * p)
        hessian = (x * (games * p * (1 - p))[:, None]).T @ x
        step = np.linalg.solve(hessian + 1e-9 * np.eye(2), gradient)
        theta = theta + step
        if np.abs(step).max() < 1e-10:
            break
    return float(theta[0]), float(theta[1])


def recalibrated(model: WinModel, platt: dict[str, tuple[float, float]]) -> WinModel:
    """``model`` with the Platt corrections of ``platt`` (family -> (a, b)) folded into its weights: the logit
    ``a * z + b`` of a family is again one linear model of the same features."""
    weights = dict(model.weights)
    for name, (a, b) in platt.items():
        mean, scale, coef, intercept = weights[name]
        weights[name] = (mean, scale, a * coef, a * intercept + b)
    return WinModel(weights, dict(model.scores))
