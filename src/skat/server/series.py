"""A series of deals at a server table: dealer rotation and the score sheet.

The rules live in the library: seats per deal come from :func:`skat.table.seats_for` (RULES.md 1:
forehand at the dealer's left; at four players the dealer sits out) and the totals from
:class:`skat.scoresheet.ScoreSheet` (RULES.md 5: classic list and Seeger-Fabian, +50/-50 for the
declarer and 40 (3-table) or 30 (4-table) to every other player when the declarer loses).
This class adds what the server needs: deals that arrive one at a time (also when a table is
rebuilt after a restart) and rows with running totals for the browser's sheet and chart.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from skat.scoresheet import ScoreSheet, SheetEntry
from skat.table import seats_for

__all__ = ["SheetRow", "Series"]


@dataclass(frozen=True)
class SheetRow:
    """One line of the score sheet: one deal."""

    deal_no: int
    dealer: int
    """Table position of the dealer."""
    declarer: int | None
    """Table position of the declarer (None: passed in)."""
    game: str
    """The contract in words (``grand hand``), or ``passed in``."""
    won: bool | None
    score: int
    """The declarer's classic entry (+value or -2 x value)."""
    classic: tuple[int, ...]
    """Running classic totals per position after this deal."""
    seeger: tuple[int, ...]
    """Running Seeger-Fabian totals per position after this deal."""

    def to_json(self) -> dict[str, Any]:
        return {
            "deal_no": self.deal_no,
            "dealer": self.dealer,
            "declarer": self.declarer,
            "game": self.game,
            "won": self.won,
            "score": self.score,
            "classic": list(self.classic),
            "seeger": list(self.seeger),
        }


@dataclass
class Series:
    """Deals played at a table of ``n_players`` (3 or 4), with the running score sheet."""

    n_players: int = 3
    first_dealer: int = 0
    rows: list[SheetRow] = field(default_factory=list)
    scoresheet: ScoreSheet | None = None

    def __post_init__(self) -> None:
        if self.n_players not in (3, 4):
            raise ValueError(f"a table seats 3 or 4 players, not {self.n_players}")
        if self.scoresheet is None:
            self.scoresheet = ScoreSheet([f"position {p}" for p in range(self.n_players)])

    @property
    def deal_no(self) -> int:
        """Number of the next deal (1-based)."""
        return len(self.rows) + 1

    def dealer_for(self, deal_no: int) -> int:
        """Table position of the dealer of deal ``deal_no``: the deal passes to the left."""
        return (self.first_dealer + deal_no - 1) % self.n_players

    def seats_for_deal(self, deal_no: int | None = None) -> tuple[int, int, int]:
        """Table positions of forehand, middlehand and rearhand for a deal."""
        return seats_for(self.dealer_for(self.deal_no if deal_no is None else deal_no), self.n_players)

    @property
    def classic_totals(self) -> tuple[int, ...]:
        return self.rows[-1].classic if self.rows else (0,) * self.n_players

    @property
    def seeger_totals(self) -> tuple[int, ...]:
        return self.rows[-1].seeger if self.rows else (0,) * self.n_players

    @property
    def won_games(self) -> list[int]:
        assert self.scoresheet is not None
        return self.scoresheet.games_won()

    @property
    def lost_games(self) -> list[int]:
        assert self.scoresheet is not None
        return self.scoresheet.games_lost()

    def record_deal(self, declarer: int | None, game: str, won: bool | None, score: int) -> SheetRow:
        """Write a finished deal: ``declarer`` is a table position (None when passed in)."""
        sheet = self.scoresheet
        assert sheet is not None
        if declarer is not None and not 0 <= declarer < self.n_players:
            raise ValueError(f"declarer position {declarer} is not at this table of {self.n_players}")
        scores = [0] * self.n_players
        if declarer is not None:
            scores[declarer] = score
        deal_no = self.deal_no
        entry = SheetEntry(number=deal_no, dealer=self.dealer_for(deal_no), seats=self.seats_for_deal(deal_no),
                           declarer=declarer, game=game, won=won if declarer is not None else None,
                           scores=tuple(scores))
        sheet.add(entry)
        sf_step = sheet.seeger_fabian_entries(entry)
        classic = tuple(c + s for c, s in zip(self.classic_totals, scores))
        seeger = tuple(c + s for c, s in zip(self.seeger_totals, sf_step))
        row = SheetRow(deal_no=deal_no, dealer=entry.dealer, declarer=declarer, game=game, won=entry.won,
                       score=score if declarer is not None else 0, classic=classic, seeger=seeger)
        self.rows.append(row)
        return row

    def sheet(self) -> dict[str, Any]:
        """The score sheet as JSON: rows with running totals, games won and lost."""
        return {
            "n_players": self.n_players,
            "rows": [r.to_json() for r in self.rows],
            "classic": list(self.classic_totals),
            "seeger_fabian": list(self.seeger_totals),
            "won": self.won_games,
            "lost": self.lost_games,
        }
