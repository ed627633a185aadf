"""The score sheet of a series: classic list, Seeger-Fabian, and settlement against the average.

* **Classic** (docs/rules.md 5.1): only the declarer is written, with +value or the lost game's
  (already doubled) minus; Ramsch entries are written for every player who scored.
* **Seeger-Fabian** (docs/rules.md 5.2): the classic points plus 50 for each won game and minus 50
  for each lost one; when a declarer loses, every other player at the table (the sitting-out
  dealer included) gets 40 at a 3-table or 30 at a 4-table. Passed-in games and Ramsch games
  carry no game bonus.
* **Settlement** (docs/rules.md 10.4): each player pays or receives the difference between his
  classic total and the average of all totals.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

__all__ = ["SheetEntry", "ScoreSheet", "settlement", "seeger_fabian_score", "csv_cell"]


@dataclass(frozen=True)
class SheetEntry:
    """One game of the list."""

    number: int
    """1-based game number in the series."""
    dealer: int
    """Index of the dealer among the table's players."""
    seats: tuple[int, int, int]
    """Players (indices) in the seats forehand, middlehand, rearhand."""
    declarer: int | None
    """Index of the declarer, or None (passed in, Ramsch)."""
    game: str
    """``clubs`` ... ``null``, ``ramsch``, ``passed``, or a Tournee game name."""
    won: bool | None
    scores: tuple[int, ...]
    """Points each player of the table gets from this game (already Kontra- and Bock-doubled)."""
    value: int | None = None
    """The game value (declarer games)."""
    bid: int = 0
    kontra: int = 0
    """0, 1 (Kontra) or 2 (Re)."""
    bock: bool = False
    """Played in a Bock round (scores doubled)."""
    round: str = "normal"
    """``normal``, ``bock``, ``ramsch`` or ``schieber``: the kind of round the game belonged to."""
    details: dict[str, Any] = field(default_factory=dict)
    """The game's contract and result details as JSON, for the record."""

    @property
    def counts_as_game(self) -> bool:
        """A declarer game that was won or lost (it carries Seeger-Fabian bonuses)."""
        return self.declarer is not None and self.won is not None


def seeger_fabian_score(points: int, won: int, lost: int, others_lost: int, table_size: int,
                        won_bonus: int = 50, lost_malus: int = 50,
                        fabian_bonus: Sequence[int] = (40, 30, 30)) -> int:
    """Seeger-Fabian from the aggregates of one player (docs/rules.md 5.2, STURA's formula)."""
    if table_size not in (3, 4, 5):
        raise ValueError(f"a Skat table has 3, 4 or 5 players, not {table_size}")
    return points + (won * won_bonus - lost * lost_malus) + others_lost * fabian_bonus[table_size - 3]


def settlement(totals: Sequence[int]) -> list[Fraction]:
    """What each player receives (+) or pays (-): his total minus the average of all totals."""
    if not totals:
        return []
    avg = Fraction(sum(totals), len(totals))
    return [t - avg for t in totals]


def _number(x: Fraction) -> int | float:
    return int(x) if x.denominator == 1 else round(float(x), 2)


class ScoreSheet:
    """The list of a series: entries in order, and the totals that follow from them."""

    def __init__(self, players: Sequence[str], *, won_bonus: int = 50, lost_malus: int = 50,
                 fabian_bonus: Sequence[int] = (40, 30, 30), ruleset: str = "isko2018") -> None:
        names = [str(p) for p in players]
        if not 3 <= len(names) <= 5:
            raise ValueError(f"a Skat table has 3, 4 or 5 players, got {len(names)}")
        if len(set(names)) != len(names):
            raise ValueError(f"player names must differ: {names}")
        self.players = names
        self.won_bonus = won_bonus
        self.lost_malus = lost_malus
        self.fabian_bonus = tuple(fabian_bonus)
        self.ruleset = ruleset
        self.entries: list[SheetEntry] = []
        self._totals = [0] * len(names)
        self._counted = 0
        """Entries summed into ``_totals`` (the running totals are kept as games are added)."""

    @property
    def size(self) -> int:
        return len(self.players)

    def add(self, entry: SheetEntry) -> None:
        """Append a game; its scores must name every player of the table."""
        if len(entry.scores) != self.size:
            raise ValueError(f"game {entry.number} has {len(entry.scores)} scores for {self.size} players")
        if entry.declarer is not None and not 0 <= entry.declarer < self.size:
            raise ValueError(f"game {entry.number}: no player {entry.declarer}")
        self.entries.append(entry)
        if self._counted == len(self.entries) - 1:
            for i, s in enumerate(entry.scores):
                self._totals[i] += s
            self._counted += 1

    def copy(self) -> ScoreSheet:
        """A sheet with the same entries, to add to without changing this one."""
        other = ScoreSheet(self.players, won_bonus=self.won_bonus, lost_malus=self.lost_malus,
                           fabian_bonus=self.fabian_bonus, ruleset=self.ruleset)
        other.entries = list(self.entries)
        other._totals, other._counted = list(self._totals), self._counted
        return other

    # ----------------------------------------------------------------- totals
    @property
    def totals(self) -> list[int]:
        """Classic totals: the sum of every player's entries (kept as they are added; reading them changes
        nothing, so several threads may read one sheet)."""
        if self._counted == len(self.entries):
            return list(self._totals)
        out = [0] * self.size  # entries changed behind the sheet's back: count them all
        for e in self.entries:
            for i, s in enumerate(e.scores):
                out[i] += s
        return out

    def games_won(self) -> list[int]:
        """Declarer games won per player."""
        return [sum(1 for e in self.entries if e.counts_as_game and e.declarer == i and e.won)
                for i in range(self.size)]

    def games_lost(self) -> list[int]:
        """Declarer games lost per player."""
        return [sum(1 for e in self.entries if e.counts_as_game and e.declarer == i and not e.won)
                for i in range(self.size)]

    def seeger_fabian_entries(self, entry: SheetEntry) -> list[int]:
        """What one game adds to each player's Seeger-Fabian total."""
        out = list(entry.scores)
        if entry.counts_as_game:
            assert entry.declarer is not None
            if entry.won:
                out[entry.declarer] += self.won_bonus
            else:
                out[entry.declarer] -= self.lost_malus
                bonus = self.fabian_bonus[self.size - 3]
                for i in range(self.size):
                    if i != entry.declarer:
                        out[i] += bonus
        return out

    @property
    def seeger_fabian(self) -> list[int]:
        """Seeger-Fabian totals (points +-50 per own game, +40/+30 per game another player lost)."""
        out = [0] * self.size
        for e in self.entries:
            for i, s in enumerate(self.seeger_fabian_entries(e)):
                out[i] += s
        return out

    @property
    def settlement(self) -> list[Fraction]:
        """Classic total minus the average of the totals, per player (exact fractions)."""
        return settlement(self.totals)

    def pairwise_balance(self) -> list[int]:
        """What each player wins or loses when everybody settles with everybody (n x settlement)."""
        n = self.size
        return [int(n * s) for s in self.settlement]

    # ----------------------------------------------------------------- output
    def to_json(self) -> dict[str, Any]:
        """The sheet as JSON: ``players``, ``games``, ``totals``, ``seeger_fabian``, ``settlement``."""
        names = self.players
        games = []
        for e in self.entries:
            games.append({
                "number": e.number,
                "dealer": names[e.dealer],
                "seats": [names[p] for p in e.seats],
                "declarer": None if e.declarer is None else names[e.declarer],
                "game": e.game,
                "won": e.won,
                "value": e.value,
                "bid": e.bid,
                "kontra": e.kontra,
                "bock": e.bock,
                "round": e.round,
                "scores": list(e.scores),
                "details": e.details,
            })
        return {
            "ruleset": self.ruleset,
            "players": list(names),
            "games": games,
            "totals": self.totals,
            "games_won": self.games_won(),
            "games_lost": self.games_lost(),
            "seeger_fabian": self.seeger_fabian,
            "settlement": [_number(s) for s in self.settlement],
        }

    def to_json_text(self) -> str:
        return json.dumps(self.to_json(), indent=1)

    def format_table(self) -> str:
        """The list as a printable table: one row per game, running totals, then the summaries."""
        names = self.players
        width = max(8, *(len(n) for n in names))
        head = f"{'#':>3} {'dealer':<{width}} {'declarer':<{width}} {'game':<14} {'won':<4} " + " ".join(
            f"{n:>{width}}" for n in names)
        lines = [head, "-" * len(head)]
        running = [0] * self.size
        for e in self.entries:
            for i, s in enumerate(e.scores):
                running[i] += s
            game = e.game + (" K" if e.kontra == 1 else " KR" if e.kontra >= 2 else "") + (" B" if e.bock else "")
            won = "" if e.won is None else ("yes" if e.won else "no")
            decl = "" if e.declarer is None else names[e.declarer]
            cells = []
            for i, s in enumerate(e.scores):
                cells.append(f"{running[i]:>{width}}" if s else f"{'.':>{width}}")
            lines.append(f"{e.number:>3} {names[e.dealer]:<{width}} {decl:<{width}} {game:<14} {won:<4} "
                         + " ".join(cells))
        lines.append("-" * len(head))
        pad = 3 + 1 + width + 1 + width + 1 + 14 + 1 + 4
        for label, row in (("total", self.totals), ("won/lost", [f"{w}/{lo}" for w, lo in zip(
                self.games_won(), self.games_lost())]), ("Seeger-Fabian", self.seeger_fabian),
                ("settlement", [_number(s) for s in self.settlement])):
            lines.append(f"{label:<{pad}} " + " ".join(f"{v!s:>{width}}" for v in row))
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.format_table()


def csv_cell(text: str) -> str:
    """A name as a CSV cell: one a spreadsheet would read as a formula (``=``, ``+``, ``-``, ``@``) is quoted
    with a leading apostrophe."""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text
