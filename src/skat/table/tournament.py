"""A club tournament: the draw of each series and the ranking over all series (docs/keeper.md, "Tournament").

* :func:`draw` seats the players at tables of 4 and 3: ``T = ceil(N / 4)`` tables, ``N - 3T`` of them
  4-tables (listed first), the rest 3-tables; 5 players (and fewer than 3) cannot be seated so. The draw is
  by lot (:class:`random.Random` with the seed, reproducible) or by ranking (the best players at table 1,
  and so on, as the ISPA seats a later series).
* :class:`Tournament` holds the registered players and the series, each with its draw and one
  :class:`skat.table.keeper.ScoreKeeper` list per table. :meth:`Tournament.ranking` sums each player's
  Seeger-Fabian points as his table's list computes them (:attr:`ScoreKeeper.seeger_fabian`, that is
  :class:`skat.table.scoresheet.ScoreSheet`: the rule lives there), with his won and lost games.

Tie-breaks (docs/rules.md 5.2, STURA: more games won, then fewer games lost; then this module's own):
more points, then more games won, then fewer games lost, then the better single series; players equal in all
four share the rank (1, 2, 2, 4).
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from skat.errors import SkatError
from skat.table.keeper import KeeperError, ScoreKeeper

__all__ = ["TournamentError", "table_sizes", "draw", "Series", "Standing", "Tournament"]


class TournamentError(SkatError, ValueError):
    """A draw or a tournament that cannot be: the message says why."""


def table_sizes(n: int) -> list[int]:
    """The sizes of the tables for ``n`` players: as few tables as possible, each of 4 or 3, the 4s first."""
    if n < 3:
        raise TournamentError(f"{n} players cannot make a Skat table: a table has 3 or 4 players")
    tables = -(-n // 4)
    fours = n - 3 * tables
    if fours < 0:
        raise TournamentError(f"{n} players cannot be seated at tables of 3 and 4 "
                              f"(one table holds at most 4, two need at least 6)")
    return [4] * fours + [3] * (tables - fours)


def draw(players: Sequence[str], seed: int | None = None, by_ranking: Sequence[str] | None = None) -> list[list[str]]:
    """Seat the players at tables of 4 and 3 (:func:`table_sizes`).

    Without ``by_ranking`` the order is drawn by lot with ``random.Random(seed)``. With it the players are
    seated in its order (best first: table 1 gets the best four or three); names in it who do not play are
    skipped, and players missing from it follow, in an order drawn with the seed.
    """
    names = [str(p) for p in players]
    if len(set(names)) != len(names):
        raise TournamentError(f"player names must differ: {names}")
    sizes = table_sizes(len(names))
    rng = random.Random(seed)
    if by_ranking is None:
        order = list(names)
        rng.shuffle(order)
    else:
        playing = set(names)
        order = list(dict.fromkeys(p for p in by_ranking if p in playing))
        rest = [p for p in names if p not in set(order)]
        rng.shuffle(rest)
        order += rest
    tables, start = [], 0
    for size in sizes:
        tables.append(order[start:start + size])
        start += size
    return tables


@dataclass
class Series:
    """One series: its draw (tables of names) and each table's list (None until it is handed in)."""

    draw: list[list[str]]
    tables: list[ScoreKeeper | None] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.tables:
            self.tables = [None] * len(self.draw)
        if len(self.tables) != len(self.draw):
            raise TournamentError(f"a series of {len(self.draw)} tables has {len(self.tables)} lists")

    def to_json(self) -> dict[str, Any]:
        return {"draw": [list(t) for t in self.draw],
                "tables": [None if k is None else k.to_json() for k in self.tables]}


@dataclass(frozen=True)
class Standing:
    """One line of the ranking."""

    rank: int
    player: str
    points: int
    """Seeger-Fabian points summed over the series."""
    won: int
    lost: int
    series: tuple[int | None, ...]
    """The points of each series (None where the player had no list in it)."""

    @property
    def best_series(self) -> int:
        played = [s for s in self.series if s is not None]
        return max(played) if played else 0

    def to_json(self) -> dict[str, Any]:
        return {"rank": self.rank, "player": self.player, "points": self.points, "won": self.won,
                "lost": self.lost, "series": list(self.series)}


class Tournament:
    """Registered players, the series with their draws and lists, and the ranking over all series."""

    def __init__(self, players: Sequence[str], *, name: str = "") -> None:
        names = [str(p) for p in players]
        if len(set(names)) != len(names):
            raise TournamentError(f"player names must differ: {names}")
        if any(not n.strip() for n in names):
            raise TournamentError("every player needs a name")
        table_sizes(len(names))
        self.name = name
        self.players = names
        self.series: list[Series] = []

    def draw_series(self, seed: int | None = None, *, by_ranking: bool = False) -> Series:
        """Draw the next series (by lot with the seed, or by the ranking so far) and append it."""
        ranking = [s.player for s in self.ranking()] if by_ranking else None
        series = Series(draw(self.players, seed, ranking))
        self.series.append(series)
        return series

    def add_series(self, tables: Sequence[Sequence[str]]) -> Series:
        """Append a series whose draw was made elsewhere; it must seat every player once at tables of 3 or 4."""
        seated = [str(p) for t in tables for p in t]
        if sorted(seated) != sorted(self.players):
            missing = sorted(set(self.players) - set(seated))
            extra = sorted(set(seated) - set(self.players))
            twice = sorted({p for p in seated if seated.count(p) > 1})
            why = "; ".join(w for w in (missing and f"not seated: {', '.join(missing)}",
                                         extra and f"not registered: {', '.join(extra)}",
                                         twice and f"seated twice: {', '.join(twice)}") if w)
            raise TournamentError(f"a series seats every registered player once ({why})")
        bad = [len(t) for t in tables if len(t) not in (3, 4)]
        if bad:
            raise TournamentError(f"a tournament table has 3 or 4 players, not {bad[0]}")
        series = Series([[str(p) for p in t] for t in tables])
        self.series.append(series)
        return series

    def record(self, series: int, table: int, keeper: ScoreKeeper) -> None:
        """Hand in the list of a table (series and table numbered from 1); its players are the table's."""
        if not 1 <= series <= len(self.series):
            raise TournamentError(f"there is no series {series} (the tournament has {len(self.series)})")
        s = self.series[series - 1]
        if not 1 <= table <= len(s.draw):
            raise TournamentError(f"series {series} has no table {table} (it has {len(s.draw)})")
        if sorted(keeper.players) != sorted(s.draw[table - 1]):
            raise TournamentError(f"series {series} table {table} seats {', '.join(s.draw[table - 1])}; "
                                  f"the list is of {', '.join(keeper.players)}")
        s.tables[table - 1] = keeper

    def ranking(self) -> list[Standing]:
        """Every registered player, best first (tie-breaks in the module's docstring)."""
        points = {p: 0 for p in self.players}
        won = dict.fromkeys(self.players, 0)
        lost = dict.fromkeys(self.players, 0)
        per_series: dict[str, list[int | None]] = {p: [None] * len(self.series) for p in self.players}
        for number, s in enumerate(self.series):
            for keeper in s.tables:
                if keeper is None:
                    continue
                sheet = keeper.sheet
                for name, sf, w, lo in zip(keeper.players, keeper.seeger_fabian, sheet.games_won(),
                                           sheet.games_lost(), strict=True):
                    points[name] += sf
                    won[name] += w
                    lost[name] += lo
                    per_series[name][number] = sf
        lines = [Standing(0, p, points[p], won[p], lost[p], tuple(per_series[p])) for p in self.players]

        def key(s: Standing) -> tuple[int, int, int, int]:
            return (-s.points, -s.won, s.lost, -s.best_series)

        lines.sort(key=key)
        out: list[Standing] = []
        for i, s in enumerate(lines):
            rank = out[-1].rank if out and key(lines[i - 1]) == key(s) else i + 1
            out.append(Standing(rank, s.player, s.points, s.won, s.lost, s.series))
        return out

    # ------------------------------------------------------------------ JSON
    def to_json(self) -> dict[str, Any]:
        """``name``, ``players`` and ``series`` (each its ``draw`` and the ``tables``' keeper lists)."""
        return {"name": self.name, "players": list(self.players), "series": [s.to_json() for s in self.series]}

    @classmethod
    def from_json(cls, data: Any) -> Tournament:
        if not isinstance(data, Mapping) or not isinstance(data.get("players"), list):
            raise TournamentError("a tournament is an object with players and series")
        t = cls(data["players"], name=str(data.get("name", "")))
        series = data.get("series", [])
        if not isinstance(series, list):
            raise TournamentError("'series' must be a list of series")
        for number, raw in enumerate(series, 1):
            if not isinstance(raw, Mapping) or not isinstance(raw.get("draw"), list):
                raise TournamentError(f"series {number}: a series has a 'draw' and its 'tables'")
            t.add_series(raw["draw"])
            tables = raw.get("tables") or []
            if not isinstance(tables, list) or len(tables) > len(raw["draw"]):
                raise TournamentError(f"series {number}: 'tables' lists one keeper's list per table")
            for table, keeper in enumerate(tables, 1):
                if keeper is None:
                    continue
                try:
                    t.record(number, table, ScoreKeeper.from_json(keeper))
                except KeeperError as exc:
                    raise TournamentError(f"series {number} table {table}: {exc}") from None
        return t

    def to_json_text(self) -> str:
        return json.dumps(self.to_json(), indent=1, ensure_ascii=False)

    @classmethod
    def from_json_text(cls, text: str) -> Tournament:
        try:
            return cls.from_json(json.loads(text))
        except json.JSONDecodeError as exc:
            raise TournamentError(f"not valid JSON ({exc})") from None
