"""A club tournament: the draw of each series and the ranking over all series (docs/keeper.md, "Tournament").

* :func:`draw` seats the players at tables of 4 and 3: ``T = ceil(N / 4)`` tables, ``N - 3T`` of them
  4-tables (listed first), the rest 3-tables; 5 players (and fewer than 3) cannot be seated so. The draw is
  by lot (:class:`random.Random` with the seed, reproducible) or by ranking (the best players at table 1,
  and so on, as the ISPA seats a later series).
* :class:`Tournament` holds its settings (the rule set, the games a table's list holds: 48 at a 4-table and
  36 at a 3-table unless set otherwise), the registered players (some withdrawn: they are drawn no more but
  keep their points) and the series, each with its draw and one :class:`skat.table.keeper.ScoreKeeper` list
  per table (:meth:`Tournament.table_keeper` makes a table's empty list). :meth:`Tournament.ranking` sums
  each player's Seeger-Fabian points as his table's list computes them (:attr:`ScoreKeeper.seeger_fabian`,
  that is :class:`skat.table.scoresheet.ScoreSheet`: the rule lives there), with his won and lost games; a
  list still in progress counts as it stands. A table scored elsewhere (an online tournament's server table,
  whose sheet computes the same points) is handed in as a :class:`TableResult` (:meth:`Tournament.record_result`)
  and counts alike.

Tie-breaks (docs/rules.md 5.2, STURA: more games won, then fewer games lost; then this module's own):
more points, then more games won, then fewer games lost, then the better single series; players equal in all
four share the rank (1, 2, 2, 4).
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from skat.errors import SkatError
from skat.rules.rulesets import RuleSet, RuleSetError, get_ruleset
from skat.table.keeper import MAX_ENTRIES, KeeperError, ScoreKeeper

__all__ = ["TournamentError", "table_sizes", "draw", "Series", "Standing", "TableResult", "Tournament",
           "DEFAULT_GAMES"]

DEFAULT_GAMES: dict[int, int] = {4: 48, 3: 36}
"""The games a table's list holds in one series, by table size (ISPA/DSkV Preisskat: 48 at a 4-table, 36 at a
3-table)."""


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


def check_sizes(n: int, sizes: Sequence[int]) -> list[int]:
    """``sizes`` as the tables of ``n`` players: each 3 or 4, together seating all ``n``."""
    out = []
    for size in sizes:
        if isinstance(size, bool) or not isinstance(size, int) or size not in (3, 4):
            raise TournamentError(f"a tournament table has 3 or 4 players, not {size!r}")
        out.append(size)
    if sum(out) != n:
        raise TournamentError(f"tables of {'+'.join(map(str, out)) or 'nobody'} seat {sum(out)} players, "
                              f"not the {n} who play")
    return out


def draw(players: Sequence[str], seed: int | None = None, by_ranking: Sequence[str] | None = None, *,
         sizes: Sequence[int] | None = None) -> list[list[str]]:
    """Seat the players at tables of 4 and 3 (:func:`table_sizes`, or the table ``sizes`` given).

    Without ``by_ranking`` the order is drawn by lot with ``random.Random(seed)``. With it the players are
    seated in its order (best first: table 1 gets the best four or three); names in it who do not play are
    skipped, and players missing from it follow, in an order drawn with the seed.
    """
    names = [str(p) for p in players]
    if len(set(names)) != len(names):
        raise TournamentError(f"player names must differ: {names}")
    sizes = table_sizes(len(names)) if sizes is None else check_sizes(len(names), sizes)
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


@dataclass(frozen=True)
class TableResult:
    """A table's results scored elsewhere (a server table's score sheet): each player's Seeger-Fabian points, games
    won and games lost, by name, and whether the table's games are all played (else it counts as it stands)."""

    points: Mapping[str, int]
    won: Mapping[str, int]
    lost: Mapping[str, int]
    complete: bool = True

    def to_json(self) -> dict[str, Any]:
        return {"points": dict(self.points), "won": dict(self.won), "lost": dict(self.lost), "complete": self.complete}

    @classmethod
    def from_json(cls, data: Any) -> TableResult:
        if not isinstance(data, Mapping) or not all(isinstance(data.get(k), Mapping) for k in ("points", "won", "lost")):
            raise TournamentError("a table's result has 'points', 'won' and 'lost', each by player")
        out = {}
        for k in ("points", "won", "lost"):
            values = data[k]
            if not all(isinstance(v, int) and not isinstance(v, bool) for v in values.values()):
                raise TournamentError(f"a table's result: '{k}' are whole numbers")
            out[k] = {str(n): int(v) for n, v in values.items()}
        return cls(out["points"], out["won"], out["lost"], bool(data.get("complete", True)))


@dataclass
class Series:
    """One series: its draw (tables of names) and each table's list (None until it is handed in), or its result
    scored elsewhere (:class:`TableResult`, in ``results``)."""

    draw: list[list[str]]
    tables: list[ScoreKeeper | None] = field(default_factory=list)
    results: list[TableResult | None] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.tables:
            self.tables = [None] * len(self.draw)
        if not self.results:
            self.results = [None] * len(self.draw)
        if len(self.tables) != len(self.draw) or len(self.results) != len(self.draw):
            raise TournamentError(f"a series of {len(self.draw)} tables has {len(self.tables)} lists")

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"draw": [list(t) for t in self.draw],
                               "tables": [None if k is None else k.to_json() for k in self.tables]}
        if any(r is not None for r in self.results):  # only where a table was scored elsewhere
            out["results"] = [None if r is None else r.to_json() for r in self.results]
        return out


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
    withdrawn: bool = False
    """The player withdrew: he is drawn no more and keeps his points."""

    @property
    def best_series(self) -> int:
        played = [s for s in self.series if s is not None]
        return max(played) if played else 0

    def to_json(self) -> dict[str, Any]:
        return {"rank": self.rank, "player": self.player, "points": self.points, "won": self.won,
                "lost": self.lost, "series": list(self.series), "withdrawn": self.withdrawn}


class Tournament:
    """Settings, registered players, the series with their draws and lists, and the ranking over all series.

    ``ruleset`` names the rule set every list is kept under (a standard one: ``isko``, ``pub``, ...), and
    ``games`` the games a table's list holds by table size (default :data:`DEFAULT_GAMES`, 48 and 36).
    """

    def __init__(self, players: Sequence[str] = (), *, name: str = "", ruleset: str = "isko",
                 games: Mapping[int | str, int] | None = None) -> None:
        self.name = str(name)
        self.rules = _ruleset(ruleset)
        self.games = _games(games)
        self.players: list[str] = []
        self.withdrawn: list[str] = []
        self.series: list[Series] = []
        for p in players:
            self.register(p)

    @property
    def ruleset(self) -> str:
        """The name of the rule set the lists are kept under."""
        return self.rules.name

    @property
    def active(self) -> list[str]:
        """The players drawn in the next series: registered and not withdrawn, in the order they registered."""
        gone = set(self.withdrawn)
        return [p for p in self.players if p not in gone]

    # ------------------------------------------------------------------ players
    def register(self, name: str) -> str:
        """Register a new player (he is drawn from the next series on); returns his name as kept."""
        if not isinstance(name, str):
            raise TournamentError(f"a player's name is text, not {name!r}")
        name = name.strip()
        if not name:
            raise TournamentError("every player needs a name")
        if name in ("passed", "ramsch"):
            raise TournamentError(f"a player cannot be called {name!r} (a list uses the word)")
        if name in self.players:
            raise TournamentError(f"{name} is registered already: give the new player another name")
        self.players.append(name)
        return name

    def withdraw(self, name: str) -> None:
        """Withdraw a registered player: he is drawn no more, keeps his points and stays in the ranking."""
        if name not in self.players:
            raise TournamentError(f"{name!r} is not registered: the players are {', '.join(self.players)}")
        if name in self.withdrawn:
            raise TournamentError(f"{name} has withdrawn already")
        self.withdrawn.append(name)

    # ------------------------------------------------------------------ series
    def draw_series(self, seed: int | None = None, *, by_ranking: bool = False,
                    sizes: Sequence[int] | None = None) -> Series:
        """Draw the next series of the active players (by lot with the seed, or by the ranking so far) and
        append it; ``sizes`` chooses the tables (each 3 or 4) instead of as few as possible."""
        ranking = [s.player for s in self.ranking()] if by_ranking else None
        series = Series(draw(self.active, seed, ranking, sizes=sizes))
        self.series.append(series)
        return series

    def add_series(self, tables: Sequence[Sequence[str]]) -> Series:
        """Append a series whose draw was made elsewhere; it must seat every active player once at tables of
        3 or 4."""
        series = self._series_of(tables, self.active, "active")
        self.series.append(series)
        return series

    def _series_of(self, tables: Sequence[Sequence[str]], players: Sequence[str], who: str) -> Series:
        if not isinstance(tables, Sequence) or isinstance(tables, str) or not all(
                isinstance(t, Sequence) and not isinstance(t, str) for t in tables):
            raise TournamentError("a draw is a list of tables, each a list of names")
        seated = [str(p) for t in tables for p in t]
        twice = sorted({p for p in seated if seated.count(p) > 1})
        if twice or sorted(seated) != sorted(players):
            missing = sorted(set(players) - set(seated))
            extra = sorted(set(seated) - set(players))
            why = "; ".join(w for w in (missing and f"not seated: {', '.join(missing)}",
                                         extra and f"not {who}: {', '.join(extra)}",
                                         twice and f"seated twice: {', '.join(twice)}") if w)
            raise TournamentError(f"a series seats every {who} player once ({why})")
        bad = [len(t) for t in tables if len(t) not in (3, 4)]
        if bad:
            raise TournamentError(f"a tournament table has 3 or 4 players, not {bad[0]}")
        return Series([[str(p) for p in t] for t in tables])

    def _table(self, series: int, table: int) -> tuple[Series, list[str]]:
        if isinstance(series, bool) or not isinstance(series, int) or not 1 <= series <= len(self.series):
            raise TournamentError(f"there is no series {series} (the tournament has {len(self.series)})")
        s = self.series[series - 1]
        if isinstance(table, bool) or not isinstance(table, int) or not 1 <= table <= len(s.draw):
            raise TournamentError(f"series {series} has no table {table} (it has {len(s.draw)})")
        return s, s.draw[table - 1]

    def table_keeper(self, series: int, table: int) -> ScoreKeeper:
        """A new, empty list for a table of a series (numbered from 1): its players in the draw's seat order
        (the first deals first), the tournament's rule set, and the games a table of its size holds."""
        _, players = self._table(series, table)
        return ScoreKeeper(players, self.rules, limit=self.games[len(players)])

    def record(self, series: int, table: int, keeper: ScoreKeeper) -> None:
        """Hand in the list of a table (series and table numbered from 1), finished or still in progress (it
        counts as it stands); its players are the table's, its rule set the tournament's, and it holds no
        more games than a table of its size plays (a list without a :attr:`~ScoreKeeper.limit` gets that one)."""
        s, players = self._table(series, table)
        if sorted(keeper.players) != sorted(players):
            raise TournamentError(f"series {series} table {table} seats {', '.join(players)}; "
                                  f"the list is of {', '.join(keeper.players)}")
        if keeper.rules != self.rules:
            raise TournamentError(f"the tournament plays {self.ruleset}; the list of series {series} table {table} "
                                  f"is kept under {keeper.rules.name}"
                                  + (" with options changed" if keeper.rules.name == self.ruleset else ""))
        most = self.games[len(players)]
        if keeper.played > most:
            raise TournamentError(f"a table of {len(players)} plays {most} games a series; the list of series "
                                  f"{series} table {table} has {keeper.played}")
        if keeper.limit not in (None, most):
            raise TournamentError(f"a table of {len(players)} plays {most} games a series; the list of series "
                                  f"{series} table {table} holds {keeper.limit}")
        keeper.limit = most
        s.tables[table - 1] = keeper
        s.results[table - 1] = None

    def record_result(self, series: int, table: int, result: TableResult) -> None:
        """Hand in a table's result scored elsewhere (series and table numbered from 1): each of the table's
        players' Seeger-Fabian points, games won and lost, as a server table's score sheet computes them (the same
        :class:`skat.table.scoresheet.ScoreSheet` rule); a table still playing counts as it stands
        (``complete`` false). It replaces the table's list or earlier result."""
        s, players = self._table(series, table)
        for part in (result.points, result.won, result.lost):
            if sorted(part) != sorted(players):
                raise TournamentError(f"series {series} table {table} seats {', '.join(players)}; "
                                      f"the result is of {', '.join(part) or 'nobody'}")
        most = self.games[len(players)]
        if any(w + lo > most for w, lo in zip(result.won.values(), result.lost.values(), strict=True)) or any(
                v < 0 for v in (*result.won.values(), *result.lost.values())):
            raise TournamentError(f"a table of {len(players)} plays {most} games a series; the result of series "
                                  f"{series} table {table} counts more, or fewer than none")
        s.results[table - 1] = result
        s.tables[table - 1] = None

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
            for result in s.results:
                if result is None:
                    continue
                for name, sf in result.points.items():
                    points[name] += sf
                    won[name] += result.won[name]
                    lost[name] += result.lost[name]
                    per_series[name][number] = sf
        gone = set(self.withdrawn)
        lines = [Standing(0, p, points[p], won[p], lost[p], tuple(per_series[p]), p in gone) for p in self.players]

        def key(s: Standing) -> tuple[int, int, int, int]:
            return (-s.points, -s.won, s.lost, -s.best_series)

        lines.sort(key=key)
        out: list[Standing] = []
        for i, standing in enumerate(lines):
            rank = out[-1].rank if out and key(lines[i - 1]) == key(standing) else i + 1
            out.append(replace(standing, rank=rank))
        return out

    # ------------------------------------------------------------------ JSON
    def to_json(self) -> dict[str, Any]:
        """``name``, ``ruleset``, ``games`` (by table size, ``{"4": 48, "3": 36}``), ``players``, ``withdrawn``
        and ``series`` (each its ``draw`` and the ``tables``' keeper lists)."""
        return {"name": self.name, "ruleset": self.ruleset,
                "games": {str(size): self.games[size] for size in sorted(self.games, reverse=True)},
                "players": list(self.players), "withdrawn": list(self.withdrawn),
                "series": [s.to_json() for s in self.series]}

    @classmethod
    def from_json(cls, data: Any) -> Tournament:
        if not isinstance(data, Mapping) or not isinstance(data.get("players"), list):
            raise TournamentError("a tournament is an object with players and series")
        ruleset = data.get("ruleset", "isko")
        if not isinstance(ruleset, str):
            raise TournamentError(f"'ruleset' is a rule set's name, not {ruleset!r}")
        games = data.get("games")
        if games is not None and not isinstance(games, Mapping):
            raise TournamentError('\'games\' gives the games a list holds by table size: {"4": 48, "3": 36}')
        t = cls(data["players"], name=str(data.get("name", "")), ruleset=ruleset, games=games)
        withdrawn = data.get("withdrawn") or []
        if not isinstance(withdrawn, list):
            raise TournamentError("'withdrawn' lists the names of the players who withdrew")
        series = data.get("series", [])
        if not isinstance(series, list):
            raise TournamentError("'series' must be a list of series")
        for number, raw in enumerate(series, 1):
            if not isinstance(raw, Mapping) or not isinstance(raw.get("draw"), list):
                raise TournamentError(f"series {number}: a series has a 'draw' and its 'tables'")
            # an earlier series seats the players of its day: a later one may lack a player who withdrew
            # since, or who registered after it
            seated = [str(p) for tab in raw["draw"] if isinstance(tab, list) for p in tab]
            try:
                t.series.append(t._series_of(raw["draw"], seated, "registered"))
            except TournamentError as exc:
                raise TournamentError(f"series {number}: {exc}") from None
            unknown = sorted(set(seated) - set(t.players))
            if unknown:
                raise TournamentError(f"series {number} seats {', '.join(unknown)}, who is not registered")
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
            results = raw.get("results") or []
            if not isinstance(results, list) or len(results) > len(raw["draw"]):
                raise TournamentError(f"series {number}: 'results' lists one table's result per table")
            for table, result in enumerate(results, 1):
                if result is not None:
                    t.record_result(number, table, TableResult.from_json(result))
        for name in withdrawn:
            t.withdraw(name)
        return t

    def to_json_text(self) -> str:
        return json.dumps(self.to_json(), indent=1, ensure_ascii=False)

    @classmethod
    def from_json_text(cls, text: str) -> Tournament:
        try:
            return cls.from_json(json.loads(text))
        except json.JSONDecodeError as exc:
            raise TournamentError(f"not valid JSON ({exc})") from None


def _ruleset(name: str | RuleSet) -> RuleSet:
    if isinstance(name, RuleSet):
        rules = name
    else:
        if not isinstance(name, str):
            raise TournamentError(f"'ruleset' is a rule set's name, not {name!r}")
        try:
            rules = get_ruleset(name)
        except RuleSetError as exc:
            raise TournamentError(str(exc)) from None
    if rules.variant != "standard":
        raise TournamentError(f"the {rules.name} rules have games of their own; a tournament's lists are kept "
                              "under standard Skat (isko, pub, ...)")
    return rules


def _games(games: Mapping[int | str, int] | None) -> dict[int, int]:
    """The games per table size: ``DEFAULT_GAMES`` with the sizes given (3 and 4, as numbers or as JSON's
    strings) replaced."""
    out = dict(DEFAULT_GAMES)
    if games is None:
        return out
    if not isinstance(games, Mapping):
        raise TournamentError(f"'games' maps a table size (3 or 4) to the games its list holds, not {games!r}")
    for key, value in games.items():
        size = int(key) if isinstance(key, str) and key.strip() in ("3", "4") else key
        if isinstance(size, bool) or size not in (3, 4):
            raise TournamentError(f"'games' is given for tables of 3 and 4 players, not for {key!r}")
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_ENTRIES:
            raise TournamentError(f"a table of {size} plays a positive whole number of games, at most {MAX_ENTRIES} "
                                  f"(what a list holds), not {value!r}")
        out[size] = value
    return out
