"""A series of deals at one table: dealer rotation and the score sheet (classic and Seeger-Fabian).

This is the server's own small series keeper. It follows RULES.md 1 (seats: forehand is the
dealer's left; at four players the dealer sits out) and 5 (classic list, Seeger-Fabian with
+50/-50 for the declarer and 40 (3-table) or 30 (4-table) to every other player when the
declarer loses). It is written against a narrow interface (``seats_for_deal``, ``record_deal``,
``sheet``) so that it can hand over to ``skat.Table`` / ``skat.ScoreSheet`` once those exist.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

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
    won_games: list[int] = field(default_factory=list)
    lost_games: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        if self.n_players not in (3, 4):
            raise ValueError(f"a table seats 3 or 4 players, not {self.n_players}")
        if not self.won_games:
            self.won_games = [0] * self.n_players
        if not self.lost_games:
            self.lost_games = [0] * self.n_players

    @property
    def deal_no(self) -> int:
        """Number of the next deal (1-based)."""
        return len(self.rows) + 1

    def dealer_for(self, deal_no: int) -> int:
        """Table position of the dealer of deal ``deal_no``: the deal passes to the left."""
        return (self.first_dealer + deal_no - 1) % self.n_players

    def seats_for_deal(self, deal_no: int | None = None) -> tuple[int, int, int]:
        """Table positions of forehand, middlehand and rearhand for a deal.

        Forehand sits at the dealer's left; at three players rearhand is the dealer,
        at four the dealer sits out.
        """
        dealer = self.dealer_for(self.deal_no if deal_no is None else deal_no)
        n = self.n_players
        return ((dealer + 1) % n, (dealer + 2) % n, (dealer + 3) % n)

    @property
    def classic_totals(self) -> tuple[int, ...]:
        return self.rows[-1].classic if self.rows else (0,) * self.n_players

    @property
    def seeger_totals(self) -> tuple[int, ...]:
        return self.rows[-1].seeger if self.rows else (0,) * self.n_players

    def record_deal(self, declarer: int | None, game: str, won: bool | None, score: int) -> SheetRow:
        """Write a finished deal: ``declarer`` is a table position (None when passed in)."""
        classic = list(self.classic_totals)
        seeger = list(self.seeger_totals)
        if declarer is not None:
            if not 0 <= declarer < self.n_players:
                raise ValueError(f"declarer position {declarer} is not at this table of {self.n_players}")
            classic[declarer] += score
            seeger[declarer] += score + (50 if won else -50)
            if won:
                self.won_games[declarer] += 1
            else:
                self.lost_games[declarer] += 1
                bonus = 40 if self.n_players == 3 else 30
                for p in range(self.n_players):
                    if p != declarer:
                        seeger[p] += bonus
        row = SheetRow(
            deal_no=self.deal_no, dealer=self.dealer_for(self.deal_no), declarer=declarer, game=game,
            won=won, score=score, classic=tuple(classic), seeger=tuple(seeger),
        )
        self.rows.append(row)
        return row

    def sheet(self) -> dict[str, Any]:
        """The score sheet as JSON: rows with running totals, games won and lost."""
        return {
            "n_players": self.n_players,
            "rows": [r.to_json() for r in self.rows],
            "classic": list(self.classic_totals),
            "seeger_fabian": list(self.seeger_totals),
            "won": list(self.won_games),
            "lost": list(self.lost_games),
        }
