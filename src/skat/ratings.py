"""Ratings for a three-player game: one list (or one game) of three seats at a time.

A *result* is the three seats of one list: each seat's player and the Seeger-Fabian points the seat
scored over the list's games (``[("ann", 310), ("bob", -40), ("cid", 0)]``). The same player may hold
more than one seat: the arena seats a player alone against two copies of the other, and a seat is a
competitor of its own; a player's seats share the player's rating before the result, and their
changes add up. Four methods share :class:`RatingMethod`:

* :class:`PlackettLuceRating`: OpenSkill's Plackett-Luce model (Weng-Lin) over the order of the seats
  by their SF points, equal points an equal rank (the two defenders of a game always tie);
* :class:`PairedGlicko`: Glicko-1 over each pair of seats of different players, the pair's SF
  difference turned into a score between 0 and 1 (a logistic of the difference, scaled by the list's
  length);
* :class:`BradleyTerry`: a batch maximum-likelihood fit over the pairs' wins, losses and ties (the
  reference: it does not depend on the order of the results);
* :class:`MeanSF`: SF points per game played (the simplest rating: blind to the opponents' strength).

Every rating is an :class:`Estimate`: a mean and its uncertainty, and the conservative value
``mu - 3 * sigma`` that a leaderboard shows (docs/ratings.md). Pure and deterministic: no clock, no
randomness, no I/O.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from openskill.models import PlackettLuce

Seat = tuple[str, float]
"""One seat of a result: the player and the seat's Seeger-Fabian points."""


@dataclass(frozen=True)
class Estimate:
    """A player's rating: mean and standard deviation, on the method's own scale."""

    mu: float
    sigma: float

    @property
    def conservative(self) -> float:
        """``mu - 3 * sigma``: the value a leaderboard shows (high only once it is also certain)."""
        return self.mu - 3.0 * self.sigma


class RatingMethod(Protocol):
    """A rating that learns from results of three seats, one at a time."""

    name: str

    def update(self, seats: Sequence[Seat], games: int = 1) -> None:
        """Learn from one result: its seats and the number of games it covers."""

    def ratings(self) -> dict[str, Estimate]:
        """Every player seen so far and their rating."""


def _check(seats: Sequence[Seat], games: int) -> None:
    if len(seats) < 2:
        raise ValueError("a result needs at least two seats")
    if games < 1:
        raise ValueError("a result covers at least one game")


def ranks_of(points: Sequence[float]) -> list[int]:
    """Competition ranks of the seats, best first, equal points an equal rank (``[90, 0, 0] -> [1, 2, 2]``)."""
    return [1 + sum(q > p for q in points) for p in points]


class PlackettLuceRating:
    """OpenSkill's Plackett-Luce model over the seats' order by SF points.

    Each seat is a team of one; ``tau`` widens sigma before each result (OpenSkill's default; 0: skill
    taken as fixed, sigma shrinks for ever). A player who holds several seats is rated from the same prior in each,
    and the changes add: the mean moves by the sum of the seats' moves, the variance shrinks by the
    product of their ratios.
    """

    name = "plackett-luce"

    def __init__(self, mu: float = 25.0, sigma: float = 25.0 / 3.0, tau: float = 25.0 / 300.0) -> None:
        self.model = PlackettLuce(mu=mu, sigma=sigma, tau=tau)
        self._mu = mu
        self._sigma = sigma
        self._players: dict[str, tuple[float, float]] = {}

    def update(self, seats: Sequence[Seat], games: int = 1) -> None:
        _check(seats, games)
        if len({p for p, _ in seats}) < 2:
            return
        before = {p: self._players.get(p, (self._mu, self._sigma)) for p, _ in seats}
        self._players.update(plackett_luce_step(self.model, before, seats))

    def ratings(self) -> dict[str, Estimate]:
        return {p: Estimate(mu, sigma) for p, (mu, sigma) in self._players.items()}


def plackett_luce_step(model: PlackettLuce, before: dict[str, tuple[float, float]],
                       seats: Sequence[Seat]) -> dict[str, tuple[float, float]]:
    """The ratings ``(mu, sigma)`` after one result under OpenSkill's Plackett-Luce ``model``, from the ratings
    ``before`` (one per player of ``seats``). Each seat is a team of one, ranked by its SF points (equal points an
    equal rank); a player who holds several seats is rated from the same prior in each, and the changes add: the
    mean moves by the sum of the seats' moves, the variance shrinks by the product of their ratios."""
    teams = [[model.rating(mu=before[p][0], sigma=before[p][1])] for p, _ in seats]
    after = model.rate(teams, ranks=[float(r) for r in ranks_of([sf for _, sf in seats])])
    moved: dict[str, list[float]] = {p: [before[p][0], before[p][1] ** 2] for p, _ in seats}
    for (player, _), [new] in zip(seats, after, strict=True):
        mu0, sigma0 = before[player]
        moved[player][0] += new.mu - mu0
        moved[player][1] *= (new.sigma / sigma0) ** 2
    return {player: (mu, math.sqrt(var)) for player, (mu, var) in moved.items()}


_Q = math.log(10.0) / 400.0


def _g(rd: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * _Q * _Q * rd * rd / (math.pi * math.pi))


class PairedGlicko:
    """Glicko-1 over the pairs of seats, each pair's SF difference a score between 0 and 1.

    A pair of seats of different players scores ``1 / (1 + exp(-d / (scale * sqrt(games))))`` for the
    first seat, ``d`` its SF difference: a list of more games has a wider spread, so the scale grows with
    the square root of its length. One result is one rating period: every player is updated against all
    the other players' seats at once, from the ratings before the result; ``drift`` widens the
    uncertainty before each result (skill changes; never below it settles).
    """

    name = "paired-glicko"

    def __init__(self, mu: float = 1500.0, rd: float = 350.0, scale: float = 60.0, drift: float = 5.0) -> None:
        self.mu0, self.rd0, self.scale, self.drift = mu, rd, scale, drift
        self._players: dict[str, tuple[float, float]] = {}

    def update(self, seats: Sequence[Seat], games: int = 1) -> None:
        _check(seats, games)
        before = {}
        for p, _ in seats:
            mu, rd = self._players.get(p, (self.mu0, self.rd0))
            before[p] = (mu, min(math.hypot(rd, self.drift), self.rd0))
        width = self.scale * math.sqrt(games)
        pairs: dict[str, list[tuple[float, float, float]]] = defaultdict(list)  # opponent's mu, rd, score
        for i, (pi, si) in enumerate(seats):
            for pj, sj in seats[i + 1:]:
                if pi == pj:
                    continue
                score = 1.0 / (1.0 + math.exp(max(-50.0, min(50.0, -(si - sj) / width))))
                pairs[pi].append((*before[pj], score))
                pairs[pj].append((*before[pi], 1.0 - score))
        for player, faced in pairs.items():
            mu, rd = before[player]
            info = gain = 0.0
            for mu_j, rd_j, score in faced:
                g = _g(rd_j)
                expected = 1.0 / (1.0 + 10.0 ** (-g * (mu - mu_j) / 400.0))
                info += g * g * expected * (1.0 - expected)
                gain += g * (score - expected)
            precision = 1.0 / (rd * rd) + _Q * _Q * info
            self._players[player] = (mu + _Q / precision * gain, math.sqrt(1.0 / precision))
        for p in before:
            self._players.setdefault(p, before[p])

    def ratings(self) -> dict[str, Estimate]:
        return {p: Estimate(mu, rd) for p, (mu, rd) in self._players.items()}


class BradleyTerry:
    """Bradley-Terry strengths fitted to all pairs of seats seen (the reference: order does not matter).

    Each pair of seats of different players is a win, a loss or a tie (half a win each) by SF points;
    the fit is Hunter's MM algorithm with a small prior (one tie of each player against a virtual
    player of strength 1), which keeps a player who never lost finite. Ratings are natural logarithms
    of strength; sigma from the fit's Fisher information (each player alone, the others fixed).
    """

    name = "bradley-terry"

    def __init__(self, iterations: int = 500, tolerance: float = 1e-10) -> None:
        self.iterations, self.tolerance = iterations, tolerance
        self._wins: dict[str, float] = defaultdict(float)
        self._met: dict[tuple[str, str], float] = defaultdict(float)  # (a, b), a < b: pairs played

    def update(self, seats: Sequence[Seat], games: int = 1) -> None:
        _check(seats, games)
        for i, (pi, si) in enumerate(seats):
            self._wins.setdefault(pi, 0.0)
            for pj, sj in seats[i + 1:]:
                if pi == pj:
                    continue
                self._met[min(pi, pj), max(pi, pj)] += 1.0
                self._wins[pi] += 1.0 if si > sj else 0.5 if si == sj else 0.0
                self._wins[pj] += 1.0 if sj > si else 0.5 if si == sj else 0.0

    def ratings(self) -> dict[str, Estimate]:
        players = sorted(self._wins)
        strength = dict.fromkeys(players, 1.0)
        for _ in range(self.iterations):
            new = {}
            for p in players:
                denominator = 1.0 / (strength[p] + 1.0)  # the prior's one game against strength 1
                for (a, b), n in self._met.items():
                    if p in (a, b):
                        denominator += n / (strength[a] + strength[b])
                new[p] = (self._wins[p] + 0.5) / denominator
            norm = math.exp(sum(math.log(v) for v in new.values()) / len(new)) if new else 1.0
            new = {p: v / norm for p, v in new.items()}
            done = all(abs(math.log(new[p] / strength[p])) < self.tolerance for p in players)
            strength = new
            if done:
                break
        out = {}
        for p in players:
            info = strength[p] / (strength[p] + 1.0) ** 2
            for (a, b), n in self._met.items():
                if p in (a, b):
                    info += n * strength[a] * strength[b] / (strength[a] + strength[b]) ** 2
            out[p] = Estimate(math.log(strength[p]), 1.0 / math.sqrt(info))
        return out


class MeanSF:
    """SF points per game played, with the standard error of that mean (the anchor: the simplest rating)."""

    name = "mean-sf"

    def __init__(self) -> None:
        self._sum: dict[str, list[float]] = {}  # player: games, results, sum of SF, sum of SF squared / games

    def update(self, seats: Sequence[Seat], games: int = 1) -> None:
        _check(seats, games)
        for player, sf in seats:
            acc = self._sum.setdefault(player, [0.0, 0.0, 0.0, 0.0])
            acc[0] += games
            acc[1] += 1
            acc[2] += sf
            acc[3] += sf * sf / games

    def ratings(self) -> dict[str, Estimate]:
        out = {}
        for player, (n, results, total, squares) in self._sum.items():
            mean = total / n
            per_game_var = max(squares - mean * mean * n, 0.0) / results  # each list's sum has N times it
            out[player] = Estimate(mean, math.sqrt(per_game_var / n))
        return out


METHODS: dict[str, type[PlackettLuceRating] | type[PairedGlicko] | type[BradleyTerry] | type[MeanSF]] = {
    cls.name: cls for cls in (PlackettLuceRating, PairedGlicko, BradleyTerry, MeanSF)
}
"""The methods by name, each made with its defaults by calling it."""


def standings(method: RatingMethod) -> list[tuple[str, Estimate]]:
    """The players best first by the conservative value, then by mean, then by name."""
    return sorted(method.ratings().items(), key=lambda kv: (-kv[1].conservative, -kv[1].mu, kv[0]))
