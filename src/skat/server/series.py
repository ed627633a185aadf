"""The series of a server table: :class:`skat.Table` plus the sheet rows the browser shows.

The rules live in the library: seats, dealer rotation, rounds and redeals come from
:class:`skat.Table`, the totals from :class:`skat.table.scoresheet.ScoreSheet` (docs/rules.md 5: classic
list and Seeger-Fabian).  This module adds what the server needs: deals that are dealt when the
previous one ends but started only when the people are ready, a rebuild from stored deals after a
restart, and rows with running totals for the browser's sheet and chart.

Every series a server table plays has the same small interface (:class:`ServerSeries`): :class:`TableSeries`
for Skat at three, four or five; a game with a series of its own defines it in its table part
(:meth:`skat.server.games.TableGame.series`).
"""

from __future__ import annotations

import csv
import io
from collections import deque
from dataclasses import dataclass
from typing import Any, Protocol

from skat.rules.rulesets import RuleSet
from skat.table.scoresheet import SheetEntry, csv_cell
from skat.table.series import Table

__all__ = ["ServerSeries", "TableSeries", "ListRow", "DealStart",
           "UNLIMITED_GAMES", "SHEET_FLAGS", "sheet_csv"]


@dataclass(frozen=True)
class ListRow:
    """One line of a house-rule score sheet: one deal as :class:`skat.Table` wrote it."""

    deal_no: int
    """Number of the game in the series (a redealt game keeps its number)."""
    dealer: int
    declarer: int | None
    game: str
    """The sheet's game column: ``clubs`` ... ``null``, ``ramsch``, ``passed`` or a Tournee game name."""
    contract: str
    """The contract in words (``grand hand``), ``ramsch`` or ``passed in``."""
    won: bool | None
    score: int
    """The declarer's entry (0 when there is no declarer)."""
    scores: tuple[int, ...]
    """What every table position got from this deal (Ramsch losers, Bock doubling included)."""
    round: str
    kontra: int
    events: tuple[str, ...]
    """Bock triggers this deal fired."""
    classic: tuple[int, ...]
    seeger: tuple[int, ...]
    bid: int = 0
    """The bid the auction reached (0 when all passed, and in a Ramsch)."""
    value: int | None = None
    """The game value (``outcome.game_value``: a lost overbid game's value raised to the bid); None
    without a declarer."""
    matadors: int | None = None
    matadors_with: bool | None = None
    """"With" or "without" that many (suit games and grands; None for Null, Ramsch and passed in)."""
    flags: dict[str, bool] | None = None
    """``hand``, ``ouvert`` and ``schneider_announced``, ``schwarz_announced`` (the contract: Schwarz
    announced takes Schneider announced with it), ``schneider``, ``schwarz`` (the levels the result
    counts), ``overbid``; None without a declarer."""

    def to_json(self) -> dict[str, Any]:
        return {
            "deal_no": self.deal_no, "dealer": self.dealer, "declarer": self.declarer, "game": self.game,
            "contract": self.contract, "won": self.won, "score": self.score, "scores": list(self.scores),
            "round": self.round, "bock": self.round in ("bock", "pirate_bock"), "kontra": self.kontra,
            "events": list(self.events), "classic": list(self.classic), "seeger": list(self.seeger),
            "bid": self.bid, "value": self.value, "matadors": self.matadors, "matadors_with": self.matadors_with,
            **(self.flags or dict.fromkeys(SHEET_FLAGS, False)),
        }


SHEET_FLAGS = ("hand", "schneider", "schneider_announced", "schwarz", "schwarz_announced", "ouvert", "overbid")
"""The sheet row's marks of a declarer game (false in the other rows)."""


@dataclass
class DealStart:
    """A deal the series has dealt: its game, number, dealer, seats and round."""

    game: Any
    number: int
    dealer: int
    positions: tuple[int, ...]
    """The table position holding each game seat (Skat: forehand, middlehand, rearhand; Officers' Skat:
    forehand, dealer)."""
    round: str


class ServerSeries(Protocol):
    """What a :class:`~skat.server.tables.ServerTable` asks of its series, whatever the game.

    A deal is dealt when the previous one ends (:attr:`next`) and started when the people are ready
    (:meth:`start_deal`); a finished deal goes on the sheet (:meth:`close_deal`, which deals the next one).
    ``stored_starts`` (a restart) are the stored deals, oldest first, dealt again from their stored cards."""

    n_players: int
    next: DealStart | None
    current: DealStart | None

    def start_deal(self) -> DealStart: ...

    def close_deal(self) -> Any:
        """The new sheet row (with ``to_json()``), or None when the deal is dealt again."""

    @property
    def is_over(self) -> bool: ...

    def upcoming(self) -> dict[str, Any]: ...

    def sheet(self) -> dict[str, Any]: ...

    def totals(self) -> dict[str, list[int]]:
        """The running totals per table position, by name (``TableInfo.totals``)."""


class TableSeries:
    """The series of a server table, driven by :class:`skat.Table` under the table's rule set.

    Bock rounds, Ramsch and Schieber rounds, the pirate sequence, redeals and Tournee games
    come from the library exactly as in ``skat series``. A finished deal is written on the
    sheet when it ends (:meth:`close_deal`); the next deal is dealt then too, and held back
    until every person at the table is ready.
    """

    def __init__(self, n_players: int, ruleset: RuleSet, seed: int, first_dealer: int = 0,
                 games: int | None = None, stored_starts: list[dict[str, Any]] | None = None) -> None:
        if n_players not in (3, 4, 5):
            raise ValueError(f"a server table seats 3, 4 or 5 players, not {n_players}")
        self.n_players = n_players
        self.table = Table([f"position {p}" for p in range(n_players)], ruleset=ruleset, seed=seed,
                           games=games or UNLIMITED_GAMES, first_dealer=first_dealer)
        self.stored_starts = deque(stored_starts or ())
        """Stored starts of the deals to rebuild (a restart), oldest first: see :meth:`skat.Table.next_game`."""
        self.rows: list[ListRow] = []
        self.next: DealStart | None = None
        self.current: DealStart | None = None
        self._deal()

    def _deal(self) -> None:
        game = self.table.next_game(self.stored_starts.popleft() if self.stored_starts else None)
        while True:
            entries = self.table.sheet.entries
            if len(entries) <= len(self.rows):
                break
            self.rows.append(self._row(entries[len(self.rows)]))
        del self.table.records[:-1]  # only the last one is read (_row); a long series keeps no more
        if game is None:
            self.next = None
            return
        t = self.table
        self.next = DealStart(game=game, number=t.number, dealer=t.dealer, positions=t.seats, round=t.round)

    def start_deal(self) -> DealStart:
        """The deal to play now (dealt already); raises when the series is over."""
        if self.next is None:
            raise ValueError("the series is over: every game of it has been played")
        self.current, self.next = self.next, None
        return self.current

    def close_deal(self) -> ListRow | None:
        """The current deal ended: write it on the sheet and deal the next one.

        Returns the new sheet row, or None when the deal is dealt again (all passed under
        ``all_pass="redeal"``).
        """
        if self.current is None or not self.current.game.is_over:
            raise ValueError("no finished deal to write on the sheet")
        before = len(self.rows)
        self._deal()
        return self.rows[-1] if len(self.rows) > before else None

    @property
    def is_over(self) -> bool:
        return self.next is None and (self.current is None or self.current.game.is_over)

    def _row(self, e: SheetEntry) -> ListRow:
        prev_c = self.rows[-1].classic if self.rows else (0,) * self.n_players
        prev_s = self.rows[-1].seeger if self.rows else (0,) * self.n_players
        sf = self.table.sheet.seeger_fabian_entries(e)
        record = self.table.records[-1] if self.table.records else {}
        result = record.get("result") or {}
        contract = result.get("contract")
        if e.game == "passed":
            words = "passed in"
        elif e.declarer is None:
            words = "ramsch"
        elif contract:
            words = _contract_words(contract, e.game)
        else:
            words = e.game
        score = 0 if e.declarer is None else e.scores[e.declarer]
        outcome = (result.get("outcome") or {}) if e.declarer is not None else {}
        flags = None
        if e.declarer is not None:
            announced = contract or {}
            flags = {"hand": bool(announced.get("hand")), "ouvert": bool(announced.get("ouvert")),
                     "schneider_announced": bool(announced.get("schneider")),
                     "schwarz_announced": bool(announced.get("schwarz")),
                     "schneider": bool(outcome.get("schneider")), "schwarz": bool(outcome.get("schwarz")),
                     "overbid": bool(outcome.get("overbid"))}
        return ListRow(deal_no=e.number, dealer=e.dealer, declarer=e.declarer, game=e.game, contract=words,
                       won=e.won, score=score, scores=tuple(e.scores), round=e.round, kontra=e.kontra,
                       events=tuple(e.details.get("events", ())),
                       classic=tuple(c + s for c, s in zip(prev_c, e.scores)),
                       seeger=tuple(c + s for c, s in zip(prev_s, sf)),
                       bid=e.bid, value=e.value, matadors=outcome.get("matadors"),
                       matadors_with=outcome.get("matadors_with"), flags=flags)

    @property
    def classic_totals(self) -> tuple[int, ...]:
        return self.rows[-1].classic if self.rows else (0,) * self.n_players

    @property
    def seeger_totals(self) -> tuple[int, ...]:
        return self.rows[-1].seeger if self.rows else (0,) * self.n_players

    def totals(self) -> dict[str, list[int]]:
        return {"classic": list(self.classic_totals), "seeger_fabian": list(self.seeger_totals)}

    def upcoming(self) -> dict[str, Any]:
        """The round of the next deal and the special rounds queued after it (for the table header)."""
        t = self.table
        nxt = self.next
        return {"round": None if nxt is None else nxt.round, "queued": t.queued_rounds,
                "next_pirate_threshold": t.next_pirate_threshold}

    def sheet(self) -> dict[str, Any]:
        """The score sheet as JSON: rows with running totals, games won and lost, settlement."""
        sheet = self.table.sheet
        return {
            "n_players": self.n_players,
            "ruleset": self.table.ruleset.name,
            "rows": [r.to_json() for r in self.rows],
            "classic": list(self.classic_totals),
            "seeger_fabian": list(self.seeger_totals),
            "won": sheet.games_won(),
            "lost": sheet.games_lost(),
            "settlement": [round(float(s), 2) for s in sheet.settlement],
            "upcoming": self.upcoming(),
        }


UNLIMITED_GAMES = 1_000_000
"""Length of a series that the table plays until the people stop."""


def _contract_words(contract: dict[str, Any], game: str) -> str:
    words = [game]
    for flag in ("hand", "schneider", "schwarz", "ouvert"):
        if contract.get(flag):
            words.append(flag)
    return " ".join(words)


def _made(row: dict[str, Any], level: str) -> str:
    """Schneider or Schwarz in a CSV cell: ``announced``, ``made``, both or nothing."""
    words = [w for w, on in (("announced", row.get(level + "_announced")), ("made", row.get(level))) if on]
    return " ".join(words)


def _matadors(row: dict[str, Any]) -> str:
    if row.get("matadors") is None:
        return ""
    return ("with " if row.get("matadors_with") else "without ") + str(row["matadors"])


def sheet_csv(sheet: dict[str, Any], names: list[str]) -> str:
    """A Skat table's score sheet (:meth:`TableSeries.sheet`) as CSV text: a header row (the per-player columns
    headed by ``names``, one per table position) and a row per game, the columns of the browser's sheet
    (docs/protocol.md, ``GET /api/tables/{id}/sheet.csv``)."""
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\r\n")
    names = [csv_cell(n) for n in names]
    w.writerow(["No.", "Dealer", "Declarer", "Game", "Matadors", "Hand", "Schneider", "Schwarz", "Ouvert",
                "Bid", "Kontra", "Value", "Result", "Entry", "Round", *names, *(f"{n} Seeger-Fabian" for n in names)])
    for r in sheet["rows"]:
        declared = r["declarer"] is not None
        w.writerow([
            r["deal_no"], names[r["dealer"]], names[r["declarer"]] if declared else "",
            "passed in" if r["game"] == "passed" else r["game"],
            _matadors(r), "yes" if r.get("hand") else "", _made(r, "schneider"), _made(r, "schwarz"),
            "yes" if r.get("ouvert") else "", r.get("bid") or "", ("", "Kontra", "Re")[r["kontra"]],
            "" if r.get("value") is None else r["value"],
            "" if r["won"] is None else ("won" if r["won"] else "lost") + (", overbid" if r.get("overbid") else ""),
            r["score"] if declared else "", r["round"], *r["classic"], *r["seeger"]])
    return out.getvalue()
