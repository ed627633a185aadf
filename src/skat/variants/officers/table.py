"""Officers' Skat at a server table: its table part (:class:`OfficersTable`, ``TABLE``), which the server loads by
the name its variant gives (``Variant.table``) and asks for everything an Officers' Skat table does differently.

An Officers' Skat table seats two (``"variant": "officers"``, docs/protocol.md "Officers' Skat tables"): one of
the five games (``officers_variant``, :data:`skat.variants.officers.options.VARIANTS`) with its options, its own
series (:class:`OfficersTableSeries`: forehand alternates), its computer opponent (:class:`OfficersBotSeat`, its
choices drawn from the table's stored seed and the point of the game) and its own view
(:mod:`skat.variants.officers.wire`); no hints, no ISS records, no analysis.
"""

from __future__ import annotations

import csv
import io
import logging
import random
from collections import deque
from collections.abc import Mapping
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

from skat.players.officers import OfficersBot
from skat.rules.actions import Action
from skat.schema import json_value
from skat.server.bots import ComputerSeat
from skat.server.core import TableError
from skat.server.creation import BOT_SEED_BITS, draw_bits
from skat.server.games import INFO_KEYS, GamePlan, StateParts, TableGame, TableRequest
from skat.server.series import UNLIMITED_GAMES, DealStart, ServerSeries
from skat.table.officers import OfficersSeries, SheetRow
from skat.table.scoresheet import csv_cell
from skat.table.series import deal_seed
from skat.variants.officers.game import OfficersGame
from skat.variants.officers.options import SCHEMA as OFFICERS_SCHEMA
from skat.variants.officers.options import VARIANTS as OFFICERS_VARIANTS
from skat.variants.officers.options import normalize_variant
from skat.variants.officers.wire import public_view, view_to_json

__all__ = ["OfficersTable", "TABLE", "OfficersTableSeries", "OfficersRow", "OfficersBotSeat", "OFFICERS_LEVEL"]

log = logging.getLogger("skat.server.bots")


@dataclass(frozen=True)
class OfficersRow:
    """One line of an Officers' Skat table's sheet: :class:`skat.table.officers.SheetRow` by table position."""

    row: SheetRow

    def to_json(self) -> dict[str, Any]:
        r = self.row
        return {"deal_no": r.number, "forehand": r.forehand, "dealer": 1 - r.forehand, "game": r.game,
                "chooser": r.chooser, "points": list(r.points), "scores": list(r.scores), "totals": list(r.totals),
                "explanation": r.explanation}


class OfficersTableSeries:
    """The series of an Officers' Skat server table (two positions), in the shape of :class:`skat.server.series.TableSeries`.

    Game ``n`` is dealt from the table's seed (:func:`skat.table.series.deal_seed`, as a Skat table's deals
    are); position 0 is forehand in the odd games and position 1 in the even ones, so forehand alternates.
    The sheet is :class:`skat.table.officers.OfficersSeries` (its player 0 is table position 0). Every game
    has a result (Admiral's Skat passed in scores 0:0), so no deal is dealt again.
    """

    n_players = 2

    def __init__(self, variant: str, options: dict[str, Any], seed: int, games: int | None = None,
                 stored_starts: list[dict[str, Any]] | None = None) -> None:
        self.book = OfficersSeries(variant, seed=None, names=("position 0", "position 1"), **options)
        self.variant = self.book.variant
        self.options = dict(options)
        self.seed = seed
        self.games = games or UNLIMITED_GAMES
        self.stored_starts = deque(stored_starts or ())
        """Stored starts (``OfficersGame.to_record()`` without actions) of the games to rebuild, oldest first."""
        self.next: DealStart | None = None
        self.current: DealStart | None = None
        self._deal()

    def _deal(self) -> None:
        number = len(self.book.rows) + 1
        if number > self.games:
            self.next = None
            return
        stored = self.stored_starts.popleft() if self.stored_starts else None
        if stored is not None:
            game = OfficersGame.from_record({**stored, "actions": [], "result": None})
        else:
            game = OfficersGame(self.variant, seed=deal_seed(self.seed, number), **self.options)
        forehand = self.book.forehand_player(number - 1)
        self.next = DealStart(game=game, number=number, dealer=1 - forehand, positions=(forehand, 1 - forehand),
                              round="normal")

    def start_deal(self) -> DealStart:
        """The game to play now (dealt already); raises when the series is over."""
        if self.next is None:
            raise ValueError("the series is over: every game of it has been played")
        self.current, self.next = self.next, None
        return self.current

    def close_deal(self) -> OfficersRow:
        """The current game ended: write it on the sheet and deal the next one."""
        if self.current is None or not self.current.game.is_over:
            raise ValueError("no finished game to write on the sheet")
        row = self.book.record(self.current.game)
        del self.book.records[:-1]  # the table keeps the records (and the database); a long series keeps no more
        self._deal()
        return OfficersRow(row)

    @property
    def is_over(self) -> bool:
        return self.next is None and (self.current is None or self.current.game.is_over)

    @property
    def rows(self) -> list[OfficersRow]:
        return [OfficersRow(r) for r in self.book.rows]

    def totals(self) -> dict[str, list[int]]:
        return {"scores": list(self.book.totals)}

    def upcoming(self) -> dict[str, Any]:
        return {"round": None if self.next is None else self.next.round, "queued": [], "next_pirate_threshold": None}

    def sheet(self) -> dict[str, Any]:
        """The score sheet as JSON: a row per game (by table position), the totals."""
        return {
            "n_players": 2, "variant": "officers", "officers_variant": self.variant, "options": self.options,
            "rows": [r.to_json() for r in self.rows], "totals": list(self.book.totals),
            "won": [sum(1 for r in self.book.rows if r.scores[p] > r.scores[1 - p]) for p in (0, 1)],
            "upcoming": self.upcoming(),
        }


OFFICERS_LEVEL = "officers"
"""The seat kind of the computer opponent at an Officers' Skat table (:class:`OfficersBotSeat`)."""


class OfficersBotSeat:
    """The computer opponent at an Officers' Skat server table: :class:`skat.players.officers.OfficersBot`,
    with the interface of a computer seat (:class:`skat.server.bots.ComputerSeat`).

    Each decision is drawn from the seat's ``seed`` (drawn once per table and stored in its settings), the
    deal number and the number of actions so far (:meth:`at`), so the computer plays alike after a restart
    and in whichever server process holds the table. A bot that raises or answers illegally is replaced by
    a random legal choice (seeded the same way), logged as a :class:`skat.server.bots.BotSeat` fallback is. It thinks in the
    thread pool (its search is short)."""

    requested = OFFICERS_LEVEL

    def __init__(self, seed: int, key: str = "") -> None:
        self.seed = seed
        self.key = key
        self.name = OFFICERS_LEVEL
        self.player = OfficersBot(seed=seed)
        self.failures: list[str] = []
        self.moment: tuple[int, int] = (0, 0)

    def at(self, deal_no: int, actions: int) -> None:
        """The point of the table the next decision is for (deal number, actions of the deal so far)."""
        self.moment = (deal_no, actions)

    def choose(self, view: Any) -> Action:
        legal = view.legal_actions
        deal_no, actions = self.moment
        if self.name == OFFICERS_LEVEL:
            self.player.rng.seed(f"{self.seed}:{deal_no}:{actions}")
            try:
                action = self.player.choose(view)
            except Exception as exc:  # a bot failure must not stop the table
                log.exception("the Officers' Skat computer player raised")
                self._fallback(f"raised {type(exc).__name__}: {exc}")
            else:
                if action in legal:
                    return action
                self._fallback(f"chose the illegal action {action!r}")
        return random.Random(f"{self.seed}:{deal_no}:{actions}:random").choice(legal)

    def _fallback(self, why: str) -> None:
        self.failures.append(f"{self.name}: {why}")
        log.warning("computer player %r failed (%s); replaced by random legal choices", self.name, why)
        self.name = "random"

    async def think(self, loop: Any, threads: Executor | None, view: Any,
                    processes: ProcessPoolExecutor | None = None) -> Action:
        """Choose off the event loop, in ``threads``."""
        return await loop.run_in_executor(threads, self.choose, view)


class OfficersTable(TableGame):
    """Officers' Skat at two positions: ``officers_variant`` and its options, a person or the computer opponent
    (``"officers"``) in each seat."""

    name = "officers"
    title = "Officers' Skat"
    seat_counts = (2,)
    request_fields = ("officers_variant",)
    no_hints = "Officers' Skat tables give no hints"
    no_iss_record = "the ISS format has no notation for Officers' Skat; download the game's JSON record instead"
    no_analysis = "the double-dummy analysis is for Skat deals; Officers' Skat games are not analysed"
    history_apart = "officers"  # a player's Officers' Skat games are counted apart from the Skat figures
    rated = False  # no Seeger-Fabian points to rate by

    def default_seats(self) -> list[str]:
        return ["human", OFFICERS_LEVEL]

    def history_seats(self, settings: Mapping[str, Any], sheet_row: dict[str, Any], positions: list[int],
                      n_positions: int, previous: dict[str, Any] | None) -> list[dict[str, Any]]:
        """The chooser of the game is its declarer, the forehand seat 0; won: the larger score of the two. No
        Seeger-Fabian points: Officers' Skat has none."""
        scores = [int(x) for x in sheet_row.get("scores") or [0] * n_positions]
        game = str(sheet_row.get("game") or "passed")
        return [{"ruleset": settings.get("officers_variant") or "classic", "game": game,
                 "contract": sheet_row.get("game") or "", "role": "declarer" if sheet_row.get("chooser") == p
                 else "defender", "seat": 0 if sheet_row.get("forehand") == p else 1, "bid": 0,
                 "won": None if scores[p] == scores[1 - p] else scores[p] > scores[1 - p], "score": scores[p],
                 "sf": 0, "kontra": 0, "overbid": False} for p in range(n_positions)]

    def plan(self, request: TableRequest) -> GamePlan:
        """No rule set: the game (``officers_variant``, default ``classic``) and its options; two seats."""
        if request.ruleset is not None:
            raise TableError("bad_ruleset", "an Officers' Skat table has no Skat rule set: choose its game with "
                             f"officers_variant ({', '.join(OFFICERS_VARIANTS)}) and its options")
        variant, options = _check_officers(request.fields.get("officers_variant"), request.options)
        seats = list(request.seats) if request.seats is not None else self.default_seats()
        if len(seats) != 2:
            raise TableError("bad_seats", f"an Officers' Skat table seats 2 players, not {len(seats)}: "
                             "[\"human\", \"officers\"] (or two people)")
        for pos, kind in enumerate(seats):
            if kind not in ("human", OFFICERS_LEVEL):
                raise TableError("bad_seats", f"seat {pos}: an Officers' Skat seat is 'human' (a person) or "
                                 f"'{OFFICERS_LEVEL}' (the computer opponent), not {str(kind)[:40]!r}")
        return GamePlan({"officers_variant": variant, "options": options}, seats)

    def seed_settings(self, seed: int, seeded: bool) -> dict[str, Any]:
        # steers the computer's choices: from the seed at a seeded table (duplicate play)
        return {"bot_seed": seed if seeded else draw_bits(BOT_SEED_BITS - 2)}

    def computer_row(self, position: int, kind: str) -> dict[str, Any]:
        return {"name": "Computer", "bot": OFFICERS_LEVEL}

    def computer(self, settings: Mapping[str, Any], position: int, bot: str | None, key: str) -> ComputerSeat:
        return OfficersBotSeat(int(settings["bot_seed"]) + position, key=key)

    def series(self, settings: Mapping[str, Any], seed: int, n_players: int,
               stored_starts: list[dict[str, Any]] | None = None) -> ServerSeries:
        # position 0 is forehand in the first game; forehand alternates
        return OfficersTableSeries(settings["officers_variant"], settings.get("options") or {}, seed,
                                   games=settings.get("deals"), stored_starts=stored_starts)

    def info(self, settings: Mapping[str, Any]) -> dict[str, Any]:
        return {**dict.fromkeys(INFO_KEYS), "officers_variant": settings.get("officers_variant")}

    def state(self, game: Any, seat: int | None, *, series: ServerSeries, hints: bool,
              memo: dict[str, Any]) -> StateParts:
        """The seat's own view or the spectator's public one; no hints: the page shows the piles as they lie."""
        return StateParts(view_to_json(game.view(seat) if seat is not None else public_view(game)), {}, None)

    def sheet_csv(self, sheet: dict[str, Any], names: list[str]) -> str:
        """The sheet's CSV: a row per game with forehand, game, chooser, card points, scores and totals."""
        out = io.StringIO()
        w = csv.writer(out, lineterminator="\r\n")
        names = [csv_cell(n) for n in names]
        w.writerow(["No.", "Forehand", "Game", "Chooser", *(f"{n} card points" for n in names),
                    *(f"{n} score" for n in names), *names])
        for r in sheet["rows"]:
            w.writerow([r["deal_no"], names[r["forehand"]], r["game"] or "",
                        "" if r["chooser"] is None else names[r["chooser"]], *r["points"], *r["scores"], *r["totals"]])
        return out.getvalue()

    def meta(self) -> dict[str, Any]:
        """The five games of Officers' Skat (a table's ``officers_variant``)."""
        return {"officers_variants": list(OFFICERS_VARIANTS)}


def _check_officers(variant: Any, options: Any) -> tuple[str, dict[str, Any]]:
    """The Officers' Skat game of a table (``officers_variant``, default ``classic``; the aliases of
    :func:`skat.variants.officers.options.normalize_variant` are read) and its ``options``, each checked by
    :data:`skat.variants.officers.options.SCHEMA` (strict JSON types, ranges, choices) and then together with
    the variant by the engine (an option the variant does not have is refused)."""
    if variant is None:
        variant = "classic"
    if not isinstance(variant, str):
        raise TableError("bad_variant", f"officers_variant is one of: {', '.join(OFFICERS_VARIANTS)}")
    try:
        variant = normalize_variant(variant[:40])
    except ValueError as exc:
        raise TableError("bad_variant", str(exc)) from None
    if options is None:
        return variant, {}
    if not isinstance(options, dict) or len(options) > 40:
        raise TableError("bad_options", "options is an object of Officers' Skat options, e.g. {\"kontra\": false}")
    try:
        clean = OFFICERS_SCHEMA.check_changes(options)
        OfficersGame(variant, seed=0, **clean)  # the engine accepts the combination
    except (TypeError, ValueError) as exc:
        raise TableError("bad_options", str(exc)) from None
    return variant, {k: json_value(v) for k, v in clean.items()}


TABLE = OfficersTable()
"""Officers' Skat's table game (``skat.variants.officers.variant.VARIANT.table`` names this module)."""
