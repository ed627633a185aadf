"""Tables on the server: seats, the current deal, the series, connected clients and computer players.

The server is authoritative: every action goes through the engine (:meth:`skat.Game.apply`),
is stored before anybody hears of it, and each client receives only its own seat's view
(:meth:`skat.Game.view`) or, as a spectator, the public part of the table.

One kind of table serves every game: Skat at three or four (:class:`~skat.server.series.TableSeries`)
and Officers' Skat at two (``variant`` ``officers``, :class:`~skat.server.series.OfficersTableSeries`,
the computer opponent :class:`~skat.server.bots.OfficersBotSeat`). The table asks only the series
interface (:class:`~skat.server.series.ServerSeries`) and the deal's variant.
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import logging
import re
import secrets
import time
import zlib
from collections import deque
from collections.abc import Awaitable, Callable
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Any

import orjson
from sqlalchemy.exc import SQLAlchemyError

from skat.deal.game import Game, Phase
from skat.errors import IllegalActionError, SkatError
from skat.players.registry import check_player_name
from skat.records.wire import officers_view_to_json, public_view, seat_view_to_json
from skat.rules.actions import CONCEDE, Action
from skat.rules.ranking import display_order
from skat.rules.rulesets import PRESETS, RuleSet, RuleSetError, get_ruleset
from skat.rules.rulesets import SCHEMA as RULE_SCHEMA
from skat.schema import json_value
from skat.server.bots import (
    OFFICERS_LEVEL,
    SEARCH_LEVELS,
    BotSeat,
    OfficersBotSeat,
    bot_process_pool,
    claim_is_sound,
    default_level,
    start_workers,
)
from skat.server.fanout import LEASE_SWEEP_SECONDS, Fanout
from skat.server.hints import auction_turn, bid_estimate, card_hint, contract_values, hint_in_worker
from skat.server.limits import Limits, eviction_candidate, idle_reason
from skat.server.series import DealStart, OfficersTableSeries, ServerSeries, TableSeries
from skat.server.store import Store, StoredTable
from skat.table.series import TABLE_SEED_BITS
from skat.variants.officers.game import OfficersGame
from skat.variants.officers.options import SCHEMA as OFFICERS_SCHEMA
from skat.variants.officers.options import VARIANTS as OFFICERS_VARIANTS
from skat.variants.officers.options import normalize_variant
from skat.variants.registry import from_record, variant_of_game

__all__ = ["TableManager", "ServerTable", "TableError", "PROTOCOL_VERSION", "public_view", "table_rulesets"]

log = logging.getLogger("skat.server")

PROTOCOL_VERSION = 1
_TABLE_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")
SEAT_LABELS = ("forehand", "middlehand", "rearhand")
TABLE_VARIANTS = ("standard", "officers")
"""The games a server table plays: ``standard`` Skat (its rule set picks Tournee Skat too) at 3 or 4 and
Officers' Skat at 2 (one of :data:`skat.variants.officers.options.VARIANTS` as ``officers_variant``)."""
RECENT_RECORDS = 8
LOBBY_READ_SECONDS = 2.0
"""With several server processes: how old the lobby's entries of tables held elsewhere may be (seconds)."""
"""Finished deals whose records a table keeps in memory (the others come from the database)."""
BOT_SEED_BITS = 64
"""Bits of a computer player's seed (drawn from the operating system when its table is built)."""
BOT_RETRY_DELAYS = (0.5, 1.0, 2.0, 4.0)
"""Seconds the computer players' supervisor waits before each new try after a failure (an engine error,
a database outage); when the last try fails too, the table is stopped (:meth:`ServerTable.stop`)."""


class TableError(SkatError):
    """A request about a table that cannot be served: the message says why. ``code`` is for clients."""

    def __init__(self, code: str, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.code = code
        self.status = status


class Overtaken(Exception):
    """Another server process stored an action at this point of the deal first; nothing was stored and the
    table caught up with the database."""

    def __init__(self, seq: int) -> None:
        super().__init__(f"another action was taken at this table first (action {seq})")
        self.seq = seq


def table_rulesets() -> list[str]:
    """Presets a server table plays: every preset of :mod:`skat.rules.rulesets` (``isko`` is ``isko2018``).

    The series runs through :class:`skat.Table`, so Bock, Ramsch and Schieber rounds and Tournee
    games happen exactly as in ``skat series``."""
    return sorted(name for name in PRESETS if name != "isko")


def table_ruleset(settings: dict[str, Any]) -> RuleSet:
    """The rule set of a table: its preset with the table's ``options`` changed on top."""
    rules = get_ruleset(settings.get("ruleset", "isko2018"))
    options = settings.get("options") or {}
    return rules.replace(**options) if options else rules


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


Sender = Callable[[dict[str, Any] | str], Awaitable[None]]
"""Sends one message to a client: a dict, or a JSON text already encoded."""


@dataclass(eq=False)
class Client:
    """One connected browser or program: a seat holder (``position``) or a spectator (None)."""

    send: Sender
    position: int | None
    name: str = ""


@dataclass
class Seat:
    position: int
    kind: str  # "human" or "bot"
    name: str
    bot: str | None = None
    token_hash: str | None = None
    bot_seat: BotSeat | OfficersBotSeat | None = None

    @property
    def taken(self) -> bool:
        return self.kind == "bot" or self.token_hash is not None

    def public(self) -> dict[str, Any]:
        return {"position": self.position, "kind": self.kind, "name": self.name,
                "bot": None if self.bot_seat is None else self.bot_seat.name, "taken": self.taken}


@dataclass
class ServerTable:
    """One table: its seats, the running series and the current deal."""

    id: str
    name: str
    settings: dict[str, Any]
    seats: list[Seat]
    series: ServerSeries
    store: Store
    manager: TableManager
    game: Game | None = None
    deal_no: int = 0
    positions: tuple[int, ...] = (0, 1, 2)
    """The table position of each game seat in the current deal (Officers' Skat: forehand, dealer)."""
    dealer: int = 0
    current: DealStart | None = None
    ready: set[int] = field(default_factory=set)
    clients: list[Client] = field(default_factory=list)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    bot_task: asyncio.Task | None = None
    records: dict[int, bytes] = field(default_factory=dict)
    """The records of the last :data:`RECENT_RECORDS` finished deals as JSON (older ones are rebuilt from the
    database when asked for: :meth:`finished_record`), so that a long series does not grow the server's memory.
    Kept packed (:func:`pack`): one object each instead of a tree of them that every full garbage collection
    would scan, and a third of the JSON's size."""
    results: dict[int, bytes] = field(default_factory=dict)
    """Each finished deal's result and sheet row (packed, as :attr:`records`): :meth:`game_results`."""
    sheet_changed: bool = False
    claim_checked: set[tuple[int, int, int]] = field(default_factory=set)
    """(deal, action count, seat) at which a computer defender has judged the declarer's claim."""
    stopped: str | None = None
    """Why the table stopped (its computer players failed after every retry), or None while it runs."""
    closed: bool = False
    """Set when the table is closed or archived (here or at another process): a request that waited for its
    lock meanwhile is refused, and its computer players stop."""
    pending_action: tuple[int, int, int, Action] | None = None
    """(deal, action count, seat, action) stored but not yet applied (the engine failed after the write):
    the next try applies exactly this action and does not store it again."""
    pending_finish: tuple[int, dict[str, Any], dict[str, Any]] | None = None
    """(deal, result, sheet row) of a finished deal whose write failed: written before anything else."""
    pending_start: DealStart | None = None
    """A deal the series has dealt whose write failed: the next try stores and starts this one."""
    bot_failure: dict[str, Any] = field(default_factory=dict)
    """What the computer players are doing (deal, seat, action), for the supervisor's log."""
    owner: bool = False
    """Whether this process plays the table's computer players (it holds the table's lease; always on SQLite)."""
    inbox: deque = field(default_factory=deque)
    """Notices of other server processes not taken yet, in the order they came."""
    inbox_task: asyncio.Task | None = None
    last_active: float = field(default_factory=time.monotonic)
    """When (``time.monotonic()``) a person last acted, joined, connected or left: the idle expiry counts
    from it (:func:`skat.server.limits.idle_reason`)."""
    unwatched_deals: int = 0
    """Deals an all-computer table started while nobody was connected, since somebody last was."""
    hint_job: tuple[tuple[int, int, int], asyncio.Future] | None = None
    """The card hint being computed or computed last: ((deal, action count, seat), its future); asking again at
    the same point gets the same answer without a second search."""

    def touch(self, now: float | None = None) -> None:
        """Note a person's activity (an action, a join, a connection, a disconnection)."""
        self.last_active = time.monotonic() if now is None else now

    @property
    def all_computer(self) -> bool:
        return all(s.kind == "bot" for s in self.seats)

    @property
    def paused(self) -> bool:
        """An all-computer table between deals that dealt :attr:`Limits.robot_deals` deals while nobody watched:
        it deals no more until somebody connects (then it goes on; nothing is wrong, unlike :attr:`stopped`)."""
        return (self.stopped is None and self.all_computer and not self.clients and self.game is not None
                and self.game.is_over and self.series.next is not None
                and self.unwatched_deals >= self.manager.limits.robot_deals)

    # ------------------------------------------------------------ helpers
    @property
    def n_players(self) -> int:
        return len(self.seats)

    @property
    def officers(self) -> bool:
        """Whether the table plays Officers' Skat (two positions) rather than Skat."""
        return self.settings.get("variant") == "officers"

    @property
    def hints_on(self) -> bool:
        """Whether the table gives advice: the card hint on request and the bid estimate (``hints`` in its
        settings; a table stored before the setting existed gives them). Officers' Skat tables give none."""
        return not self.officers and bool(self.settings.get("hints", True))

    @property
    def ruleset(self) -> RuleSet:
        """The rule set of a Skat table: its preset with its options (as the series plays it)."""
        series = self.series
        assert isinstance(series, TableSeries), "an Officers' Skat table has no Skat rule set"
        return series.table.ruleset

    def seat_of(self, position: int) -> int | None:
        """The game seat (0 forehand, 1 middlehand, 2 rearhand; Officers' Skat: 0 forehand, 1 dealer) of a
        table position in this deal."""
        try:
            return self.positions.index(position)
        except ValueError:
            return None  # the dealer sitting out at a 4-table

    @property
    def public(self) -> bool:
        """Whether the table is listed in the lobby and open to anybody. A private table (``public`` false in its
        settings) admits only its seat holders and whoever brings its invite secret (:meth:`check_invite`); a
        table stored before tables could be private has no ``public`` setting and stays public."""
        return bool(self.settings.get("public", True))

    def check_invite(self, invite: Any) -> None:
        """Let a person without a seat token in (to join or watch): anybody at a public table, at a private one
        only with its invite secret, compared by hash with :func:`secrets.compare_digest`."""
        if self.public:
            return
        if invite is None or invite == "":
            raise TableError("invite_required", f"table {self.id} is private: open the invite link its creator "
                             "shares (/t/ID#invite=...), or send the invite secret (\"invite\" in join and hello, "
                             "the X-Invite header on GET requests); seat holders use their seat token", 403)
        expected = self.settings.get("invite_hash")
        if (not isinstance(invite, str) or not invite.isascii() or len(invite) > 200
                or not isinstance(expected, str) or not secrets.compare_digest(hash_token(invite), expected)):
            raise TableError("bad_invite", f"this invite is not valid for table {self.id} (mistyped, cut short or "
                             "from another table): ask the person who created the table for its invite link again",
                             403)

    @property
    def status(self) -> str:
        if self.stopped is not None:
            return "stopped"
        if self.paused:
            return "paused"
        if not all(s.taken for s in self.seats):
            return "waiting"
        if self.game is None:
            return "starting"
        if self.game.is_over:
            return "between_deals" if self.series.next is not None else "finished"
        return "playing"

    def public_info(self) -> dict[str, Any]:
        """What anybody may know about the table (lobby entry and header of every state message)."""
        connected = {c.position for c in self.clients if c.position is not None}
        seats = []
        for s in self.seats:
            d = s.public()
            d["connected"] = s.kind == "bot" or s.position in connected
            d["game_seat"] = self.seat_of(s.position) if self.game is not None else None
            seats.append(d)
        return {
            "id": self.id,
            "name": self.name,
            "variant": self.settings.get("variant", "standard"),
            "ruleset": None if self.officers else self.settings.get("ruleset", "isko2018"),
            "officers_variant": self.settings.get("officers_variant"),
            "options": self.settings.get("options") or {},
            "seeded": bool(self.settings.get("seeded")),
            "public": self.public,
            "hints": self.hints_on,
            "n_players": self.n_players,
            "status": self.status,
            "stopped": self.stopped,
            "deal_no": self.deal_no,
            "game_no": None if self.current is None else self.current.number,
            "round": None if self.current is None else self.current.round,
            "upcoming": self.series.upcoming(),
            "dealer": self.dealer,
            "positions": list(self.positions),
            "seats": seats,
            "ready": sorted(self.ready),
            "spectators": sum(1 for c in self.clients if c.position is None),
            "totals": self.series.totals(),
        }

    def state_for(self, position: int | None, table_info: dict[str, Any] | None = None,
                  shared: dict[str, Any] | None = None) -> dict[str, Any]:
        """The state message for a seat holder (own view and hints) or a spectator (public view).
        ``table_info`` and ``shared`` let a broadcast compute once what every state carries alike: the table
        info, and (``shared``, filled by the first state built) the auction's question and the cards as dealt."""
        seat = None if position is None else self.seat_of(position)
        view_json = None
        hints: dict[str, Any] = {}
        shared = {} if shared is None else shared
        dealt = None
        game = self.game
        if isinstance(game, OfficersGame):  # no hints: the page shows the piles as they lie
            view_json = officers_view_to_json(game.view(seat) if seat is not None else public_view(game))
        elif game is not None:
            if seat is not None:
                view = game.view(seat)
                view_json = seat_view_to_json(view)
                hints["sorted"] = _sorted_cards(view)
                if self.ruleset.variant == "standard":  # the estimates know the standard game values only
                    if view.phase is Phase.BIDDING and view.to_move == seat and self.hints_on:
                        hints["bid_estimate"] = bid_estimate(view.hand)
                    values = contract_values(view)
                    if values:
                        hints["contracts"] = values
                if view.phase is Phase.BIDDING:
                    hints["auction_turn"] = _shared(shared, "auction_turn", lambda: auction_turn(game, view.bid))
            else:
                view = public_view(game)  # built from the public facts only
                view_json = seat_view_to_json(view)
                hints["sorted"] = _sorted_cards(view, own=False)
                if view.phase is Phase.BIDDING:
                    hints["auction_turn"] = _shared(shared, "auction_turn", lambda: auction_turn(game, view.bid))
            if game.is_over:  # every card may be shown once the deal is over, to every seat and spectator
                dealt = _shared(shared, "dealt", lambda: _dealt(game))
        return {
            "type": "state",
            "protocol": PROTOCOL_VERSION,
            "table": self.public_info() if table_info is None else table_info,
            "you": {"position": position, "seat": seat, "role": "spectator" if position is None else "player"},
            "seq": 0 if game is None else len(game.history),
            "stopped": self.stopped,
            "view": view_json,
            "hints": hints,
            "dealt": dealt,
        }

    async def broadcast(self) -> None:
        """Send every connected client its own state (built and encoded once per position)."""
        if not self.clients:
            return  # a table held here whose people are connected to another server process
        info, shared = self.public_info(), {}
        encoded: dict[int | None, str] = {}
        for client in list(self.clients):
            text = encoded.get(client.position)
            if text is None:
                text = encoded[client.position] = encode_message(self.state_for(client.position, info, shared))
            await self._send(client, text)

    async def broadcast_message(self, message: dict[str, Any]) -> None:
        for client in list(self.clients):
            await self._send(client, message)

    async def _send(self, client: Client, message: dict[str, Any] | str) -> None:
        try:
            await client.send(message)
        except Exception:  # a dropped socket: the client reconnects and gets a fresh state
            if client in self.clients:
                self.clients.remove(client)

    # ------------------------------------------------------------- deals
    async def _new_deal(self) -> None:
        """Start the deal the series has dealt (stored before anybody sees it). When the write fails the
        dealt deal is kept (:attr:`pending_start`): the next try stores that one, the series deals no other.
        When another server process stored this deal first, this process starts the same deal (the series
        deals it alike from the table's seed)."""
        start = self.pending_start or self.series.start_deal()
        self.pending_start = start
        deal_no = self.deal_no + 1
        record = start.game.to_record()
        record.pop("actions", None)
        record.pop("result", None)
        await self.store.start_deal(self.id, deal_no, start.dealer, start.positions, record)
        self.pending_start = None
        self._enter(start, deal_no)

    def _enter(self, start: DealStart, deal_no: int) -> None:
        self.current, self.game, self.deal_no = start, start.game, deal_no
        self.positions, self.dealer = start.positions, start.dealer
        self.ready.clear()

    def _finish_deal(self, store: bool = True) -> None:
        """Write the finished deal on the sheet (the series deals the next one) and keep its record; with
        ``store`` its result is written (:attr:`pending_finish`) by the next :meth:`settle`."""
        game = self.game
        assert game is not None and game.result is not None and self.current is not None
        row = self.series.close_deal()
        result_json = game.result.to_json()
        if store:
            self.pending_finish = (self.deal_no, result_json, {"redeal": True} if row is None else row.to_json())
        self.sheet_changed = True
        self.records[self.deal_no] = pack(self._record(game))
        while len(self.records) > RECENT_RECORDS:
            del self.records[min(self.records)]
        self.results[self.deal_no] = pack({
            "deal_no": self.deal_no, "game_no": self.current.number, "round": self.current.round,
            "dealer": self.dealer, "positions": list(self.positions), "result": result_json,
            "sheet_row": None if row is None else row.to_json()})

    def game_results(self) -> list[dict[str, Any]]:
        """The finished deals' results and sheet rows, in order."""
        return [unpack(self.results[k]) for k in sorted(self.results)]

    def deal_result(self, deal_no: int) -> dict[str, Any]:
        """One finished deal's result and sheet row (``KeyError`` for a deal not finished)."""
        return unpack(self.results[deal_no])

    def kept_record(self, deal_no: int) -> dict[str, Any] | None:
        """The record of a recent finished deal kept in memory, or None (see :meth:`finished_record`)."""
        record = self.records.get(deal_no)
        return None if record is None else unpack(record)

    async def settle(self) -> None:
        """Finish what a failed try left (each step raises again while it still fails): write the finished
        deal whose write failed, and apply the action that was stored but not applied. Nothing is stored twice."""
        if self.pending_finish is not None:
            deal_no, result_json, row_json = self.pending_finish
            await self.store.finish_deal(self.id, deal_no, result_json, row_json)
            self.pending_finish = None
        pending = self.pending_action
        if pending is not None:
            game = self.game
            if game is None or pending[0] != self.deal_no or pending[1] != len(game.history):
                self.pending_action = None
                return
            game.apply(pending[3], pending[2])
            self.pending_action = None
            await self._after_apply()

    def check_open(self) -> None:
        """Refuse anything at a table closed (or archived) meanwhile: ``404 no_table``."""
        if self.closed:
            raise TableError("no_table", f"table {self.id} was closed; there is no open table {self.id!r}", 404)

    def check_running(self) -> None:
        """Refuse anything more at a closed or stopped table."""
        self.check_open()
        if self.stopped is not None:
            raise TableError("table_stopped", f"this table stopped: {self.stopped}", 409)

    def stop(self, reason: str) -> None:
        """Stop the table for good in this server process (the others hear of it): no more actions."""
        self.stopped = reason
        log.error("table %s stopped at deal %d: %s", self.id, self.deal_no, reason)

    @property
    def seed_public(self) -> bool:
        """Whether the deals' seeds may be shown: only at a seeded table (duplicate play, the seed was given on
        purpose). A secret table's seed and deal seeds never leave the server while it is open: from them the
        later deals could be computed (the store keeps them, to rebuild the table)."""
        return bool(self.settings.get("seeded"))

    def _record(self, game: Game, deal_no: int | None = None, dealer: int | None = None,
                positions: tuple[int, ...] | None = None) -> dict[str, Any]:
        """The finished deal's record as clients get it: hands, skat, actions, result and the table block; the
        ``seed`` is null unless :attr:`seed_public` (the record replays from its cards all the same). Of the
        current deal unless ``deal_no``, ``dealer`` and ``positions`` say which."""
        record = game.to_record()
        if not self.seed_public:
            record["seed"] = None
        deal_no = self.deal_no if deal_no is None else deal_no
        dealer = self.dealer if dealer is None else dealer
        positions = self.positions if positions is None else positions
        record["table"] = {"id": self.id, "name": self.name, "deal_no": deal_no, "dealer": dealer,
                           "positions": list(positions), "players": [self.seats[p].name for p in positions]}
        return record

    async def finished_record(self, deal_no: int) -> dict[str, Any]:
        """The record of a finished deal: one of the recent ones in memory, an older one rebuilt from the
        database (its stored cards and actions replayed)."""
        record = self.records.get(deal_no)
        if record is not None:
            return unpack(record)
        if deal_no == self.deal_no and self.game is not None and not self.game.is_over:
            raise TableError("deal_running", f"deal {deal_no} is still being played; its record comes when it ends",
                             409)
        stored = None
        if 1 <= deal_no < self.deal_no + (1 if self.game is not None and self.game.is_over else 0):
            stored = await self.store.read(self.store.load_deal, self.id, deal_no)
        if stored is None or not stored.finished:
            raise TableError("no_deal", f"table {self.id} has no finished deal {deal_no}", 404)
        game = from_record(dict(stored.start, actions=[[seat, token] for seat, token in stored.actions]))
        return self._record(game, deal_no, stored.dealer, stored.positions)

    async def maybe_start(self) -> bool:
        """Start the first or the next deal when every seat is taken and every person is ready."""
        if self.stopped is not None:
            return False
        await self.settle()
        if self.pending_start is not None:
            await self._new_deal()
            return True
        if not all(s.taken for s in self.seats):
            return False
        if self.game is not None and not self.game.is_over:
            return False
        if self.series.next is None:
            return False  # the series is over
        if self.game is not None:
            humans = {s.position for s in self.seats if s.kind == "human"}
            if not humans <= self.ready:
                return False
        if self.paused:
            return False  # an all-computer table nobody watches rests until somebody connects
        await self._new_deal()
        self.unwatched_deals = 0 if self.clients else self.unwatched_deals + 1
        return True

    # ----------------------------------------------------------- actions
    def _check_action(self, position: int | None, token: Any) -> tuple[int, Action]:
        if position is None:
            raise TableError("not_a_player", "spectators cannot act; join a free seat to play")
        game = self.game
        if game is None:
            raise TableError("no_deal", "no deal is running at this table yet: wait until every seat is taken")
        if game.is_over:
            raise TableError("deal_over", "this deal is over; send next_deal to start the next one")
        seat = self.seat_of(position)
        if seat is None:
            raise TableError("sitting_out", "the dealer sits out this deal at a table of four")
        try:  # the variant's parser refuses a token that is no string, empty or too long, saying why
            action = variant_of_game(game).parse_action(token)
        except IllegalActionError as exc:
            raise TableError("bad_action", str(exc)) from None
        if action in game.legal_actions(seat) or action in game.side_actions(seat):
            return seat, action
        trial = game.copy()  # not legal: let the engine say why, on a copy
        try:
            trial.apply(action, seat)
        except IllegalActionError as exc:
            raise TableError("illegal_action", str(exc)) from None
        return seat, action

    async def act(self, position: int | None, token: Any, expect_seq: Any = None) -> None:
        """Check, store and apply one action of a table position, then tell everybody."""
        async with self.lock:
            self.check_running()
            await self.settle()
            game = self.game
            if expect_seq is not None and game is not None and expect_seq != len(game.history):
                raise TableError("stale", f"the table has moved on (action {len(game.history)}, you sent "
                                 f"{expect_seq}); here is the current state")
            seat, action = self._check_action(position, token)
            try:
                await self._apply(seat, action)
            except Overtaken:
                overtaken = True
            else:
                overtaken = False
        await self.after_change()  # after a stale action too: the table caught up, everybody hears of it
        if overtaken:
            raise TableError("stale", "another action was taken at this table first; here is the current state")

    def start_hint(self, position: int | None) -> tuple[int, asyncio.Future]:
        """Start (or join) the card hint for a seat holder whose turn it is in the card play: the ``strong``
        computer player's card from that seat's own view (:func:`skat.server.hints.card_hint`), thought in the
        process pool like a search player's move (threads when there is none). Returns the action count it is
        for and its future; refuses at once, saying why, when there is no hint to give."""
        if position is None:
            raise TableError("not_a_player", "spectators get no hints; hints are for the seat whose turn it is")
        if not self.hints_on:
            raise TableError("hints_off", "Officers' Skat tables give no hints" if self.officers else
                             "hints are switched off at this table (its creator chose so)")
        self.check_running()
        game = self.game
        if game is None:
            raise TableError("no_deal", "no deal is running at this table yet: wait until every seat is taken")
        if game.is_over:
            raise TableError("deal_over", "this deal is over; hints are for the card play")
        seat = self.seat_of(position)
        if seat is None:
            raise TableError("sitting_out", "the dealer sits out this deal at a table of four")
        if game.phase is not Phase.PLAY:
            raise TableError("not_in_play", f"hints are for the card play; the deal is in its {game.phase.value} "
                             "phase")
        if game.to_move != seat:
            raise TableError("not_your_turn", "a hint is for your own turn in the card play; it is "
                             f"{SEAT_LABELS[game.to_move] if game.to_move is not None else 'nobody'}'s turn")
        key = (self.deal_no, len(game.history), seat)
        if self.hint_job is not None and self.hint_job[0] == key:
            job = self.hint_job[1]
            if not job.done() or (not job.cancelled() and job.exception() is None):
                return key[1], job  # a failed one is tried again
        view = game.view(seat)  # the seat's own view: the input a computer player in this seat gets
        future = asyncio.ensure_future(self._think_hint(view))
        self.hint_job = (key, future)
        return key[1], future

    async def _think_hint(self, view: Any) -> dict[str, Any]:
        loop = asyncio.get_running_loop()
        processes = await self.manager.worker_pool()
        if processes is not None:
            try:
                return await loop.run_in_executor(processes, hint_in_worker, view)
            except BrokenProcessPool:
                log.exception("the process pool broke while computing a hint; thinking in a thread instead")
        return await loop.run_in_executor(self.manager.executor, card_hint, view)

    async def _apply(self, seat: int, action: Action) -> None:
        """Store one action, then apply it. When the engine fails after the write, the stored action is
        kept (:attr:`pending_action`) and :meth:`settle` applies it on the next try. When another server
        process stored an action at this point first, nothing is stored: the table catches up with the
        database and the action is answered ``stale``."""
        game = self.game
        assert game is not None
        self.check_running()
        await self.settle()
        seq = len(game.history)
        write = self.store.add_action(self.id, self.deal_no, seq, seat, str(action))
        try:
            stored = await write
        except asyncio.CancelledError:
            # the table is closing or the server stopping while the write is under way: when it is
            # committed, apply it still, so that this process's table is what the database holds
            try:
                stored = write.result(timeout=2)
            except Exception:  # noqa: BLE001 - not stored (or not known): nothing to apply
                raise asyncio.CancelledError from None
            if stored:
                game.apply(action, seat)
            raise
        if not stored:
            await self.catch_up()
            self.check_running()  # closed at another process: no_table
            raise Overtaken(seq)
        self.pending_action = (self.deal_no, seq, seat, action)
        game.apply(action, seat)
        self.pending_action = None
        await self._after_apply()

    async def _after_apply(self) -> None:
        game = self.game
        assert game is not None
        if game.is_over:
            self._finish_deal()
            if not any(s.kind == "human" for s in self.seats):
                self.ready = {s.position for s in self.seats}
            await self.settle()

    async def next_deal(self, position: int | None) -> None:
        """A person is ready for the next deal (it starts when all are)."""
        if position is None:
            raise TableError("not_a_player", "spectators cannot start deals")
        async with self.lock:
            self.check_running()
            if self.game is not None and not self.game.is_over:
                raise TableError("deal_running", "the current deal is still being played")
            if position not in self.ready and self.deal_no:
                await self.store.add_ready(self.id, self.deal_no, position)
            self.ready.add(position)
        await self.after_change()

    async def after_change(self, *, tell: bool = True) -> None:
        """Start deals that can start, tell everybody, and let computer players move (``tell=False``: the
        clients get a state only when a deal started)."""
        await self.after_change_no_bots(tell=tell)
        self.schedule_bots()

    # ------------------------------------------------- other server processes
    def inbox_notice(self, notice: dict[str, Any]) -> None:
        """Queue a notice of another process (or ``{"k": "sync"}``: catch up with the database)."""
        self.inbox.append(notice)
        if self.inbox_task is None or self.inbox_task.done():
            self.inbox_task = asyncio.get_running_loop().create_task(self._take_inbox())

    async def _take_inbox(self) -> None:
        """Take the queued notices in order, then tell the clients once and let computer players move."""
        changed = synced = False
        while self.inbox:
            notice = self.inbox.popleft()
            try:
                async with self.lock:
                    if notice.get("k") == "sync":
                        changed = await self.catch_up() or changed
                        synced = True
                    else:
                        changed = await self.take_notice(notice) or changed
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("table %s: the notice %r of another server process could not be taken; "
                              "catching up with the database", self.id, notice)
                try:
                    async with self.lock:
                        await self.catch_up()
                    changed = True
                except Exception:
                    log.exception("table %s could not catch up with the database; it tries again on the next "
                                  "notice", self.id)
        if changed or synced:  # a catch-up that found nothing new lets the computers go on, tells nobody
            await self.after_change(tell=changed)

    async def take_notice(self, notice: dict[str, Any]) -> bool:
        """Take what another server process stored at this table (its notice, docs/deployment.md): an action,
        a deal's start, a seat taken, a person ready. Returns whether the table changed. A notice that does
        not follow on what this process holds (one was missed) makes the table catch up with the database."""
        kind = notice.get("k")
        game = self.game
        if kind == "act":
            deal_no, seq = notice.get("d"), notice.get("s")
            if game is None or not isinstance(deal_no, int) or not isinstance(seq, int):
                await self.catch_up()
                return True
            if (deal_no, seq) < (self.deal_no, len(game.history)):
                return False  # taken already
            if deal_no != self.deal_no or seq != len(game.history) or game.is_over:
                await self.catch_up()
                return True
            seat = int(notice["seat"])
            game.apply(variant_of_game(game).parse_action(notice["a"]), seat)
            if self.seats[self.positions[seat]].kind == "human":
                self.touch()  # a person acted at another process: the table is not idle
            await self._after_notice_action()
            return True
        if kind == "deal":
            deal_no = notice.get("d")
            if not isinstance(deal_no, int) or deal_no <= self.deal_no:
                return False
            if deal_no == self.deal_no + 1 and (game is None or game.is_over) and self.series.next is not None:
                self._enter(self.pending_start or self.series.start_deal(), deal_no)
                self.pending_start = None
                return True
            await self.catch_up()
            return True
        if kind == "seat":
            position = notice.get("pos")
            if isinstance(position, int) and 0 <= position < len(self.seats):
                seat = self.seats[position]
                seat.token_hash = notice.get("token_hash", seat.token_hash)
                seat.name = notice.get("name", seat.name)
                return True
            return False
        if kind == "ready":
            if notice.get("d") == self.deal_no and isinstance(notice.get("pos"), int):
                self.ready.add(notice["pos"])
                return True
            return False
        if kind == "stopped":  # its computer players failed at the process that runs them
            if self.stopped is None:
                self.stop(str(notice.get("reason") or "stopped at another server process")[:400])
                await self.broadcast_message({"type": "stopped", "table_id": self.id, "reason": self.stopped})
                return True
            return False
        return False

    async def _after_notice_action(self) -> None:
        """After an action another process stored: the deal's result is that process's to write."""
        game = self.game
        assert game is not None
        if game.is_over:
            self._finish_deal(store=False)
            if not any(s.kind == "human" for s in self.seats):
                self.ready = {s.position for s in self.seats}

    async def catch_up(self) -> bool:
        """Read what the database holds beyond this process's copy of the table and take it; a table that was
        closed meanwhile (its notice was missed) is dropped. Returns whether anything a client sees changed."""
        stored = await self.store.read(self.store.load_table, self.id, max(1, self.deal_no))
        if stored is None:
            return False
        if stored.closed:
            self.closed = True
            self.manager._background(self.manager._drop(self, "this table was closed by a player"),
                                     f"closing table {self.id}")
            return True
        before = self._seen()
        self.replay(stored)
        return self._seen() != before

    def _seen(self) -> tuple[Any, ...]:
        """What the clients' states show of the stored table: deals, actions, seats and who is ready."""
        return (*self._progress(), tuple((s.name, s.token_hash) for s in self.seats), frozenset(self.ready))

    def replay(self, stored: StoredTable) -> None:
        """Take the stored seats, deals and actions this table does not have yet (all of them for a table
        just built): the series deals each deal again, so the same rounds and cards come."""
        for row in stored.seats:
            seat = self.seats[row["position"]]
            seat.token_hash, seat.name = row.get("token_hash"), row.get("name", seat.name)
        for deal in stored.deals:
            if deal.deal_no < self.deal_no:
                continue
            if deal.deal_no > self.deal_no:
                if self.game is not None and not self.game.is_over:
                    raise TableError("bad_store", f"table {self.id}: deal {deal.deal_no} is stored while deal "
                                     f"{self.deal_no} is not over")
                start = self.pending_start or self.series.start_deal()
                self.pending_start = None
                if tuple(start.positions) != tuple(deal.positions):
                    raise TableError("bad_store", f"table {self.id}: deal {deal.deal_no} was stored with positions "
                                     f"{deal.positions}, the series deals it to {start.positions}")
                self._enter(start, deal.deal_no)
            game = self.game
            assert game is not None
            if game.is_over:
                continue
            for seat_no, token in deal.actions[len(game.history):]:
                game.apply(variant_of_game(game).parse_action(token), seat_no)
            if game.is_over:
                self._finish_deal(store=not deal.finished)
        if self.game is not None and self.game.is_over:
            if not any(s.kind == "human" for s in self.seats):
                self.ready = {s.position for s in self.seats}
            elif stored.ready:
                self.ready |= set(stored.ready)

    # ------------------------------------------------------------- bots
    def bot_to_move(self) -> tuple[int, int] | None:
        game = self.game
        if game is None or game.is_over:
            return None
        seat = game.to_move
        if seat is None:
            return None
        position = self.positions[seat]
        if self.seats[position].kind == "bot":
            return position, seat
        return None

    def claim_answers_due(self) -> list[tuple[int, int]]:
        """Computer defenders who have not yet answered the declarer's open claim: (position, seat)."""
        game = self.game
        if game is None or game.is_over or not game.claimed or game.declarer is None:
            return []
        due = []
        for seat in range(len(self.positions)):
            position = self.positions[seat]
            key = (self.deal_no, len(game.history), seat)
            if (seat != game.declarer and self.seats[position].kind == "bot" and key not in self.claim_checked
                    and CONCEDE in game.side_actions(seat)):
                due.append((position, seat))
        return due

    async def _answer_claims(self, loop: asyncio.AbstractEventLoop) -> bool:
        """Computer defenders concede a sound claim (checked double-dummy off the event loop); True if
        one conceded."""
        conceded = False
        for _position, seat in self.claim_answers_due():
            game = self.game
            assert game is not None
            deal_no, history_len = self.deal_no, len(game.history)
            self.claim_checked.add((deal_no, history_len, seat))
            view = game.view(seat)
            try:
                sound = await loop.run_in_executor(self.manager.executor, claim_is_sound, view)
            except Exception:
                log.exception("judging a claim at table %s failed; the computer player plays on", self.id)
                sound = False
            if not sound:
                continue
            async with self.lock:
                if self.game is not game or self.deal_no != deal_no or len(game.history) != history_len:
                    return conceded
                try:
                    await self._apply(seat, CONCEDE)
                except Overtaken:
                    return conceded
                conceded = True
            await self.after_change_no_bots()
        return conceded

    def schedule_bots(self) -> None:
        if self.bot_task is not None and not self.bot_task.done():
            return
        if self.stopped is not None or self.closed or not self.owner:
            return
        if (self.bot_to_move() is None and not self.claim_answers_due() and self.pending_action is None
                and self.pending_finish is None and self.pending_start is None):
            return
        self.bot_task = asyncio.get_running_loop().create_task(self._supervise_bots())

    def _progress(self) -> tuple[int, int]:
        return self.deal_no, 0 if self.game is None else len(self.game.history)

    async def _supervise_bots(self) -> None:
        """Run the computer players; a failure is logged and tried again after :data:`BOT_RETRY_DELAYS`
        (the tries count again once the table moved on). When the last try fails the table is stopped and
        every client gets ``{"type": "stopped", "reason": ...}`` (docs/protocol.md)."""
        failures = 0
        failed_at: tuple[int, int] | None = None
        while True:
            try:
                await self._run_bots()
                return
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                if self._progress() != failed_at:
                    failures, failed_at = 0, self._progress()
                failures += 1
                info = self.bot_failure
                log.exception("computer players at table %s failed (deal %s, seat %s, action %s; try %d of %d)",
                              self.id, info.get("deal_no", self.deal_no), info.get("seat"), info.get("action"),
                              failures, len(BOT_RETRY_DELAYS) + 1)
                if failures > len(BOT_RETRY_DELAYS):
                    self.stop(f"the computer players failed {failures} times at deal {self.deal_no} "
                              f"({type(exc).__name__}: {str(exc)[:200]})")
                    await self._tell_stopped()
                    await self._announce_stopped()
                    return
                await asyncio.sleep(BOT_RETRY_DELAYS[failures - 1])

    async def _tell_stopped(self) -> None:
        await self.broadcast_message({"type": "stopped", "table_id": self.id, "reason": self.stopped})
        await self.broadcast()

    async def _announce_stopped(self) -> None:
        """Tell the other server processes that this table stopped (their clients are told too): a notice
        with nothing to write. The stop is not stored: a restarted process gives the computer players
        another try."""
        try:
            await self.store.write(lambda conn: None, {"t": self.id, "k": "stopped", "reason": self.stopped})
        except Exception:
            log.exception("table %s: the other server processes could not be told that it stopped", self.id)

    async def _run_bots(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            if self.stopped is not None:
                return
            self.bot_failure = {"deal_no": self.deal_no}
            if self.pending_action is not None or self.pending_finish is not None or self.pending_start is not None:
                await self.after_change_no_bots()  # settles what a failed try left (raises while it fails)
            if self.claim_answers_due():
                await self._answer_claims(loop)
            mover = self.bot_to_move()
            if mover is None:
                return
            position, seat = mover
            game = self.game
            assert game is not None
            delay = self.manager.bot_delay
            if game.phase is Phase.PLAY and not game.trick and game.tricks:
                delay += self.manager.trick_pause
            # the pause people get to follow is the least a computer takes, not added to its thinking: it
            # thinks meanwhile and acts when both are over (a person waits the longer of the two)
            ready_at = loop.time() + delay
            deal_no, history_len = self.deal_no, len(game.history)
            self.bot_failure = {"deal_no": deal_no, "seat": seat}
            bot = self.seats[position].bot_seat
            assert bot is not None
            at = getattr(bot, "at", None)
            if at is not None:  # a computer whose decisions are drawn from the point of the deal
                at(deal_no, history_len)
            view = game.view(seat)
            if game.phase is Phase.PLAY and hasattr(bot, "call"):
                call = await loop.run_in_executor(self.manager.executor, bot.call, view)
                if call is not None:
                    self.bot_failure["action"] = str(call)
                    await _sleep_until(loop, ready_at)
                    async with self.lock:
                        if self.game is game and self.deal_no == deal_no and len(game.history) == history_len:
                            try:
                                await self._apply(seat, call)
                            except Overtaken:
                                pass  # another process stored an action first: think again
                            except IllegalActionError:
                                log.exception("computer player's call %s refused at table %s", call, self.id)
                    await self.after_change_no_bots()
                    continue
            try:
                searches = getattr(bot, "name", None) in SEARCH_LEVELS  # thinks in the worker processes
                action = await bot.think(loop, self.manager.executor, view,
                                         await self.manager.worker_pool() if searches else None)
            except Exception:
                log.exception("computer player at table %s position %d failed outside its fallbacks", self.id, position)
                action = view.legal_actions[0]
            self.bot_failure["action"] = str(action)
            await _sleep_until(loop, ready_at)
            async with self.lock:
                if self.game is not game or self.deal_no != deal_no or len(game.history) != history_len:
                    continue  # the table moved on (an early end by a person); think again
                try:
                    await self._apply(seat, action)
                except Overtaken:
                    pass  # another process stored an action first (it caught up): think again
                except IllegalActionError:
                    log.exception("computer player action %s refused at table %s", action, self.id)
                    continue
            await self.after_change_no_bots()

    async def after_change_no_bots(self, *, tell: bool = True) -> None:
        """Start a deal that can start, send the score sheet when a deal ended, and every state (with
        ``tell=False`` only when a deal started or ended)."""
        async with self.lock:
            started = await self.maybe_start()
            sheet_changed, self.sheet_changed = self.sheet_changed, False
        if sheet_changed and self.clients:
            await self.broadcast_message({"type": "sheet", "sheet": self.series.sheet()})
        if tell or started or sheet_changed:
            await self.broadcast()


async def _sleep_until(loop: asyncio.AbstractEventLoop, when: float) -> None:
    """Wait until the event loop's clock reads ``when`` (at once when it is past)."""
    left = when - loop.time()
    if left > 0:
        await asyncio.sleep(left)


class TableManager:
    """All tables of a server, backed by a :class:`Store`."""

    def __init__(self, store: Store, *, bot_delay: float = 0.0, trick_pause: float = 0.0,
                 executor: Executor | None = None, bot_workers: int = 4, bot_processes: bool = True,
                 limits: Limits | None = None) -> None:
        self.store = store
        self.limits = limits or Limits()
        """The server's limits (skat.server.limits): the table cap, idle expiry, all-computer tables' rest."""
        self.tables: dict[str, ServerTable] = {}
        self.broken: dict[str, str] = {}
        """Tables of the store that could not be rebuilt at start-up, with the error: not served (410
        ``table_broken``); they stay in the store as they are, for the operator."""
        self.bot_delay = bot_delay
        self.trick_pause = trick_pause
        self.executor = executor or ThreadPoolExecutor(max_workers=bot_workers, thread_name_prefix="skat-bot")
        self._processes: ProcessPoolExecutor | None = None
        self._workers_started: asyncio.Future | None = None
        self._use_processes = bot_processes
        self.fanout: Fanout | None = None
        """The notices of the other server processes and the table leases (PostgreSQL; None on SQLite)."""
        self.listeners: list[Any] = []
        """Others that hear the notices not about a table (the score keeper's lists): objects with
        ``on_notice(notice)`` and ``on_missed()``, called on the event loop."""
        self._sweeper: asyncio.Task | None = None
        self._restoring: asyncio.Task | None = None
        self._loading: dict[str, asyncio.Future] = {}
        self._tasks: set[asyncio.Task] = set()
        self._lobby_rows: list[dict[str, Any]] | None = None
        self._lobby_read = 0.0

    @property
    def processes(self) -> ProcessPoolExecutor | None:
        """The process pool for search players, made when the first one thinks (:meth:`worker_pool`)."""
        if self._processes is None and self._use_processes:
            self._processes = bot_process_pool()
        return self._processes

    async def worker_pool(self) -> ProcessPoolExecutor | None:
        """:attr:`processes`, its worker processes started in a thread the first time
        (:func:`skat.server.bots.start_workers`: started from the event loop they would hold every table
        for about a second)."""
        pool = self.processes
        if pool is None:
            return None
        if self._workers_started is None:
            self._workers_started = asyncio.ensure_future(
                asyncio.get_running_loop().run_in_executor(None, start_workers, pool))
        await asyncio.shield(self._workers_started)
        return pool

    # ------------------------------------------------------------ create
    async def create_table(
        self,
        *,
        name: str = "",
        seats: list[str] | None = None,
        ruleset: str | None = None,
        variant: str = "standard",
        officers_variant: str | None = None,
        deals: int | None = None,
        player_name: str = "",
        claim: int | None = 0,
        seed: int | None = None,
        options: dict[str, Any] | None = None,
        public: bool = False,
        hints: bool = True,
    ) -> tuple[ServerTable, dict[str, Any]]:
        """A new table. ``seats``: per position ``"human"`` (a person joins) or a computer level.

        ``variant`` ``standard`` (the default) is Skat at 3 or 4 under ``ruleset`` (default ``isko2018``);
        ``officers`` is Officers' Skat at 2: ``officers_variant`` (one of
        :data:`skat.variants.officers.options.VARIANTS`, default ``classic``), ``options`` checked by
        :data:`skat.variants.officers.options.SCHEMA`, and ``seats`` ``"human"`` or ``"officers"`` (the
        computer opponent), default ``["human", "officers"]``.

        With ``claim`` the creator takes that (human) position and receives its token. A ``public`` table is
        listed in the lobby; a private one (the default) gets an invite secret, handed to the creator only
        (``invite`` in the answer; the settings keep its hash): see :meth:`ServerTable.check_invite`.
        ``hints`` (default true) lets the people at a Skat table ask for a card hint and see the bid estimate
        (:attr:`ServerTable.hints_on`).
        """
        if variant not in TABLE_VARIANTS:
            raise TableError("bad_variant", f"variant {str(variant)[:40]!r} is not played at server tables; "
                             f"choose one of: {', '.join(TABLE_VARIANTS)}")
        officers = variant == "officers"
        if officers:
            if ruleset is not None:
                raise TableError("bad_ruleset", "an Officers' Skat table has no Skat rule set: choose its game with "
                                 f"officers_variant ({', '.join(OFFICERS_VARIANTS)}) and its options")
            officers_variant, options = _check_officers(officers_variant, options)
        else:
            if officers_variant is not None:
                raise TableError("bad_variant", "officers_variant is for a table of variant 'officers'")
            ruleset = "isko2018" if ruleset is None else ruleset
            if not isinstance(ruleset, str) or ruleset.lower() not in PRESETS:
                raise TableError("bad_ruleset",
                                 f"unknown rule set {ruleset!r}; choose one of: {', '.join(table_rulesets())}")
        if deals is not None and (type(deals) is not int or not 1 <= deals <= 10_000):
            raise TableError("bad_deals", f"deals is the length of the series, 1 to 10000 games, not {deals!r}")
        seeded = seed is not None  # deals anyone who knows the seed can compute (duplicate play)
        if seed is None:
            seed = secrets.randbits(TABLE_SEED_BITS)  # from the operating system; never shown while the table is open
        if officers:
            seats = list(seats) if seats is not None else ["human", OFFICERS_LEVEL]
            if len(seats) != 2:
                raise TableError("bad_seats", f"an Officers' Skat table seats 2 players, not {len(seats)}: "
                                 "[\"human\", \"officers\"] (or two people)")
            for pos, kind in enumerate(seats):
                if kind not in ("human", OFFICERS_LEVEL):
                    raise TableError("bad_seats", f"seat {pos}: an Officers' Skat seat is 'human' (a person) or "
                                     f"'{OFFICERS_LEVEL}' (the computer opponent), not {str(kind)[:40]!r}")
        else:
            assert isinstance(ruleset, str)
            options = _check_options(ruleset, options)
            seats = list(seats) if seats is not None else ["human", default_level(), default_level()]
            if len(seats) not in (3, 4):
                raise TableError("bad_seats", f"a table seats 3 or 4 players, not {len(seats)}")
        if not isinstance(name, str) or len(name) > 100:
            raise TableError("bad_name", "the table name must be text of at most 100 characters")
        if type(public) is not bool:
            raise TableError("bad_public", "public is true (the table is listed in the lobby) or false (only people "
                             "with its invite link may join or watch)")
        if type(hints) is not bool:
            raise TableError("bad_hints", "hints is true (a player may ask for a card hint and sees the bid estimate) "
                             "or false (no advice at this table)")
        if claim is not None and (not 0 <= claim < len(seats) or seats[claim] != "human"):
            raise TableError("bad_claim", f"position {claim} is not a seat for a person at this table")
        table_id = secrets.token_hex(6)
        rows = []
        for pos, kind in enumerate(seats):
            if not isinstance(kind, str):
                raise TableError("bad_seats", "each seat is 'human' or a computer level such as 'strong'")
            if kind == "human":
                rows.append({"position": pos, "kind": "human", "name": "", "bot": None, "token_hash": None})
            elif officers:
                rows.append({"position": pos, "kind": "bot", "name": "Computer", "bot": OFFICERS_LEVEL,
                             "token_hash": None})
            else:
                try:
                    check_player_name(kind)
                except ValueError as exc:
                    raise TableError("bad_seats", f"seat {pos}: {exc} (or 'human' for a person)") from None
                rows.append({"position": pos, "kind": "bot", "name": _bot_label(kind, pos), "bot": kind,
                             "token_hash": None})
        token = None
        if claim is not None:
            token = secrets.token_urlsafe(18)
            rows[claim]["token_hash"] = hash_token(token)
            rows[claim]["name"] = _clean_name(player_name) or "Player"
        settings: dict[str, Any]
        if officers:
            settings = {"variant": variant, "officers_variant": officers_variant, "deals": deals, "seed": seed,
                        "seeded": seeded, "options": options, "public": public,
                        # steers the computer's choices: from the seed at a seeded table (duplicate play)
                        "bot_seed": seed if seeded else secrets.randbits(BOT_SEED_BITS - 2)}
        else:
            assert isinstance(ruleset, str)
            settings = {"ruleset": get_ruleset(ruleset).name, "variant": variant, "deals": deals,
                        "first_dealer": len(seats) - 1, "seed": seed, "seeded": seeded, "options": options,
                        "public": public, "hints": hints}
        invite = None
        if not public:
            invite = secrets.token_urlsafe(18)
            settings["invite_hash"] = hash_token(invite)  # the secret itself is never stored
        name = _clean_name(name) or f"Table {table_id[:4]}"
        await self._make_room()
        await self.store.create_table(table_id, name, settings, rows)
        table = self._build(table_id, name, settings, rows)
        self._register(table)
        await self._take_leases([table])
        async with table.lock:
            await table.maybe_start()
        return table, {"table_id": table_id, "position": claim, "token": token, "invite": invite}

    async def _make_room(self) -> None:
        """At the table cap, archive the longest-idle table nobody is connected to; ``503 full`` when none is."""
        if len(self.tables) < self.limits.max_tables:
            return
        table = eviction_candidate(self.tables.values(), time.monotonic(), self.limits)
        if table is None:
            raise TableError("full", f"this server holds at most {self.limits.max_tables} tables and each is in "
                             "use; try again later", 503)
        await self._archive(table, "the server needed room for a new table")
        await table.broadcast_message({"type": "closed", "table_id": table.id, "reason": "idle",
                                       "message": "this table was archived: the server needed room for a new "
                                                  "table; its records stay"})

    async def _archive(self, table: ServerTable, reason: str) -> None:
        """Take a table out of memory and the lobby for good (as :meth:`close` does; the other server processes
        drop it too); its records stay."""
        await self.store.close_table(table.id)
        table.closed = True
        self.tables.pop(table.id, None)
        if table.bot_task is not None:
            table.bot_task.cancel()
        if self.fanout is not None:
            await self.fanout.release(table.id)
        log.info("table %s archived: %s", table.id, reason)

    async def archive_idle(self, now: float | None = None) -> int:
        """Archive every table :func:`skat.server.limits.idle_reason` gives up at ``now`` (default: the
        monotonic clock now); clients still connected by chance get ``closed``. Returns how many."""
        now = time.monotonic() if now is None else now
        archived = 0
        for table in list(self.tables.values()):
            reason = idle_reason(table, now, self.limits)
            if reason is None or self.tables.get(table.id) is not table:
                continue
            try:
                async with table.lock:  # never in the middle of an action
                    reason = idle_reason(table, now, self.limits)
                    if reason is None or self.tables.get(table.id) is not table:
                        continue
                    await self._archive(table, reason)
            except Exception:  # a database outage: the table stays, the next sweep tries again
                log.exception("table %s could not be archived", table.id)
                continue
            archived += 1
            await table.broadcast_message({"type": "closed", "table_id": table.id, "reason": "idle",
                                           "message": f"this table was archived: {reason}; its records stay"})
        if self.store.shared:  # tables no process holds (nobody asked for them since a restart)
            archived += await self._archive_unheld()
        return archived

    async def _archive_unheld(self) -> int:
        """With several server processes: archive the open tables this process does not hold that have had
        no stored action for :attr:`Limits.idle_seconds` (a process holding one archives it by its own clock
        too: archiving twice changes nothing)."""
        try:
            idle = await self.store.read(self.store.idle_open_tables, time.time() - self.limits.idle_seconds)
        except Exception:  # a database outage: the next sweep tries again
            log.exception("the idle tables held by no process could not be read")
            return 0
        archived = 0
        for table_id in idle:
            if table_id in self.tables or table_id in self._loading:
                continue
            try:
                await self.store.close_table(table_id)
            except Exception:
                log.exception("table %s could not be archived", table_id)
                continue
            self._lobby_rows = None
            archived += 1
            log.info("table %s archived: no action was stored for %.0f hours and this process did not hold it",
                     table_id, self.limits.idle_seconds / 3600)
        return archived

    def _build(self, table_id: str, name: str, settings: dict[str, Any], rows: list[dict[str, Any]],
               stored_starts: list[dict[str, Any]] | None = None) -> ServerTable:
        officers = settings.get("variant") == "officers"
        seats = []
        for r in rows:
            seat = Seat(position=r["position"], kind=r["kind"], name=r["name"], bot=r.get("bot"),
                        token_hash=r.get("token_hash"))
            key = f"{table_id}:{seat.position}"
            if seat.kind == "bot" and officers:  # its choices follow from the stored seed (a restart plays alike)
                seat.bot_seat = OfficersBotSeat(int(settings["bot_seed"]) + seat.position, key=key)
            elif seat.kind == "bot":
                seat.bot_seat = BotSeat(seat.bot or "random", seed=secrets.randbits(BOT_SEED_BITS), key=key)
            seats.append(seat)
        seed = settings.get("seed")
        seed = secrets.randbits(TABLE_SEED_BITS) if seed is None else int(seed)
        series: ServerSeries
        if officers:  # position 0 is forehand in the first game; forehand alternates
            series = OfficersTableSeries(settings["officers_variant"], settings.get("options") or {}, seed,
                                         games=settings.get("deals"), stored_starts=stored_starts)
        else:  # the first deal's forehand is position 0: the first dealer sits at the last position
            series = TableSeries(len(seats), table_ruleset(settings), seed=seed,
                                 first_dealer=int(settings.get("first_dealer", len(seats) - 1)),
                                 games=settings.get("deals"), stored_starts=stored_starts)
        return ServerTable(id=table_id, name=name, settings=settings, seats=seats, series=series,
                           store=self.store, manager=self, positions=tuple(range(min(3, len(seats)))))

    def _register(self, table: ServerTable) -> None:
        self.tables[table.id] = table

    def get(self, table_id: str) -> ServerTable:
        """A table this process holds (see :meth:`table` for one that may still be in the database only)."""
        table = self.tables.get(table_id)
        if table is None and table_id in self.broken:
            raise TableError("table_broken", f"table {table_id} could not be rebuilt from the database "
                             f"({self.broken[table_id]}); it is not served", 410)
        if table is None:
            raise TableError("no_table", f"there is no open table {table_id!r}", 404)
        return table

    async def table(self, table_id: str) -> ServerTable:
        """A table: held by this process, or loaded from the database (created by another server process,
        or not loaded yet after a restart)."""
        table = self.tables.get(table_id)
        if table is not None or table_id in self.broken or not _TABLE_ID.fullmatch(table_id):
            return self.get(table_id)
        loading = self._loading.get(table_id)
        if loading is None:
            loading = self._loading[table_id] = asyncio.ensure_future(self._load(table_id))
            loading.add_done_callback(lambda _f: self._loading.pop(table_id, None))
        await asyncio.shield(loading)
        return self.get(table_id)

    async def _load(self, table_id: str) -> None:
        """Load one open table from the database, take its lease if free, and catch up."""
        try:
            stored = await self.store.read(self.store.load_table, table_id)
        except SQLAlchemyError as exc:
            raise TableError("db_unavailable", f"the database cannot be read now ({type(exc).__name__}); "
                             "try again in a moment", 503) from None
        if stored is None or stored.closed or table_id in self.tables:
            return
        try:
            table = await self.store.read(self._rebuild, stored)
        except Exception as exc:
            self._mark_broken(table_id, exc)
            return
        if table_id in self.tables:
            return
        self._register(table)
        await self._take_leases([table])
        async with table.lock:
            await table.catch_up()  # what was stored while it loaded (those notices found no table here)
        await table.after_change()

    def _rebuild(self, stored: StoredTable) -> ServerTable:
        """A table built again from what the database holds (every deal replayed), not yet registered."""
        table = self._build(stored.id, stored.name, stored.settings, stored.seats,
                            stored_starts=[d.start for d in stored.deals])
        table.replay(stored)
        table.sheet_changed = False
        return table

    def _mark_broken(self, table_id: str, exc: Exception) -> None:
        self.tables.pop(table_id, None)  # never served half-built
        self.broken[table_id] = f"{type(exc).__name__}: {str(exc)[:300]}"
        log.error("table %s could not be restored (%s); it is answered with 410 table_broken", table_id,
                  self.broken[table_id], exc_info=exc)

    async def join(self, table_id: str, name: str = "", position: int | None = None,
                   invite: Any = None) -> dict[str, Any]:
        """Take a free seat for a person (at a private table with its ``invite``); returns its position and
        secret token. Of two people who take the same seat at once (on two server processes), the second is
        told the seat is taken."""
        table = await self.table(table_id)
        table.check_invite(invite)
        table.check_running()
        free = [s.position for s in table.seats if s.kind == "human" and s.token_hash is None]
        if position is None:
            if not free:
                raise TableError("table_full", "every seat at this table is taken; you can watch as a spectator", 409)
            position = free[0]
        elif position not in free:
            raise TableError("seat_taken", f"seat {position} is not free; free seats: {free or 'none'}", 409)
        token = secrets.token_urlsafe(18)
        seat = table.seats[position]
        token_hash, seat_name = hash_token(token), _clean_name(name) or f"Player {position + 1}"
        seat.token_hash, seat.name = token_hash, seat_name  # held at once: a second join here finds it taken
        try:
            taken = await self.store.take_seat(table_id, position, token_hash, seat_name)
        except BaseException:
            seat.token_hash, seat.name = None, ""
            raise
        if not taken:
            async with table.lock:
                await table.catch_up()
            raise TableError("seat_taken", f"seat {position} was taken a moment ago; free seats: "
                             f"{[s.position for s in table.seats if s.kind == 'human' and s.token_hash is None] or 'none'}",
                             409)
        return {"table_id": table_id, "position": position, "token": token}

    def position_for_token(self, table: ServerTable, token: str | None) -> int | None:
        """The position whose secret token this is; raises for an unknown token."""
        if not token:
            return None
        if not isinstance(token, str) or not token.isascii() or len(token) > 200:  # tokens are URL-safe base64
            raise TableError("bad_token", "this is not a seat token (they are short ASCII text, as the join "
                             "answer gave it); join a free seat or watch as a spectator", 403)
        h = hash_token(token)
        for s in table.seats:
            if s.token_hash is not None and secrets.compare_digest(s.token_hash, h):
                return s.position
        raise TableError("bad_token", "this seat token is not valid at this table (stale or mistyped); "
                         "join a free seat or watch as a spectator", 403)

    def admit(self, table: ServerTable, invite: Any = None, token: Any = None) -> None:
        """Let a reader in (``GET /api/tables/{id}`` and its sheet, games, records, analysis): anybody at a
        public table; at a private one a seat holder (``token``) or whoever has the ``invite``."""
        if table.public:
            return
        if isinstance(token, str) and token:
            try:
                self.position_for_token(table, token)
                return
            except TableError:
                if not invite:
                    raise  # bad_token: a stale or mistyped seat token, and no invite besides
        table.check_invite(invite)

    def lobby(self) -> list[dict[str, Any]]:
        """The public tables this process holds (private ones are reached by their invite link only); see
        :meth:`lobby_tables` for every process's."""
        return [t.public_info() for t in self.tables.values() if t.public]

    async def lobby_tables(self) -> list[dict[str, Any]]:
        """The lobby: the public tables of every server process. With several processes a table is held only
        where it is asked for (or where its computer players move): the ones this process does not hold come
        from the database (read at most every :data:`LOBBY_READ_SECONDS`), with what the database knows of
        them (names, taken seats, the deal's number; ``status`` "waiting" while a seat is free, else "playing")."""
        held = self.lobby()
        if not self.store.shared:
            return held
        now = time.monotonic()
        if self._lobby_rows is None or now - self._lobby_read >= LOBBY_READ_SECONDS:
            self._lobby_rows = await self.store.read(self.store.lobby_rows)
            self._lobby_read = now
        others = [_lobby_entry(r) for r in self._lobby_rows
                  if r["id"] not in self.tables and bool(r["settings"].get("public", True))]
        return held + others

    async def close(self, table_id: str, token: Any) -> None:
        """Close a table for good (a person seated at it asks): it leaves the lobby; its records stay."""
        table = await self.table(table_id)  # loaded first where this process does not hold it yet
        if not isinstance(token, str) or self.position_for_token(table, token) is None:
            raise TableError("bad_token", "only a person seated at this table can close it: send your seat token", 403)
        async with table.lock:
            table.check_open()  # closed meanwhile (another request, another process)
            await self.store.close_table(table_id)
            table.closed = True  # a request waiting for the lock is refused
        await self._drop(table, "this table was closed by a player")

    async def _drop(self, table: ServerTable, message: str) -> None:
        """The table is closed (here or by another process): forget it and tell its clients."""
        table.closed = True
        if self.tables.get(table.id) is table:
            del self.tables[table.id]
        if table.bot_task is not None:
            table.bot_task.cancel()
        if self.fanout is not None:
            await self.fanout.release(table.id)
        await table.broadcast_message({"type": "closed", "table_id": table.id, "message": message})

    # ------------------------------------------------------------ restore
    def restore(self) -> int:
        """Rebuild every open table from the store (after a restart); returns how many."""
        count = 0
        for stored in self.store.load_open_tables():
            try:
                self._register(self._rebuild(stored))
                count += 1
            except Exception as exc:
                self._mark_broken(stored.id, exc)
        return count

    # ------------------------------------------------------ several processes
    async def start(self, restore: bool = False) -> None:
        """Start hearing the other server processes (PostgreSQL), take the free leases, let computer players
        continue where they stopped. With ``restore`` the open tables are loaded from the database now, one
        after the other in the background (:meth:`restored` waits for them)."""
        if self.store.shared and self.fanout is None:
            self.fanout = Fanout(self.store, self.on_notice, self._missed_notices, self._leases_lost)
            await self.fanout.start()
            self._sweeper = asyncio.get_running_loop().create_task(self._sweep_leases())
        await self._take_leases(list(self.tables.values()))
        for table in list(self.tables.values()):
            await table.after_change()
        if restore:
            self._restoring = asyncio.get_running_loop().create_task(self._restore_all())

    async def _restore_all(self) -> None:
        started = asyncio.get_running_loop().time()
        # one process: every open table; several: those with computer players (the others where asked for)
        ids = await self.store.read(self.store.open_table_ids, self.store.shared)
        for table_id in ids:
            try:
                await self.table(table_id)
            except TableError:
                pass  # broken (logged, answered 410) or closed meanwhile
            except Exception:
                log.exception("table %s could not be loaded at start-up; it is loaded when it is asked for", table_id)
        log.info("restored %d open table(s) in %.1f s", len(self.tables), asyncio.get_running_loop().time() - started)

    async def restored(self) -> None:
        """Wait until the start-up's loading of the open tables is done (at once when there is none)."""
        if self._restoring is not None and not self._restoring.done():
            await asyncio.shield(self._restoring)

    async def stop(self) -> None:
        """Stop the computer players (waiting for their last write) and stop hearing other processes."""
        if self._restoring is not None:
            self._restoring.cancel()
        tasks = [t.bot_task for t in self.tables.values() if t.bot_task is not None and not t.bot_task.done()]
        for task in tasks:
            task.cancel()
        if tasks:
            await asyncio.wait(tasks, timeout=5)
        if self._sweeper is not None:
            self._sweeper.cancel()
            self._sweeper = None
        if self.fanout is not None:
            await self.fanout.stop()
            self.fanout = None

    async def _take_leases(self, tables: list[ServerTable]) -> None:
        """Computer players move in the one process that holds the table's lease (fan-out)."""
        with_bots = [t for t in tables if any(s.kind == "bot" for s in t.seats)]
        if self.fanout is None:
            for t in with_bots:
                t.owner = True
            return
        held = await self.fanout.try_leases([t.id for t in with_bots if not t.owner])
        for t in with_bots:
            if not t.owner and t.id in held:
                t.owner = True
                t.inbox_notice({"k": "sync"})  # catch up, then let the computer players go on

    async def _sweep_leases(self) -> None:
        """Every :data:`LEASE_SWEEP_SECONDS`: take the leases another process gave up (it stopped or died)."""
        while True:
            await asyncio.sleep(LEASE_SWEEP_SECONDS)
            try:
                await self._take_leases([t for t in self.tables.values() if not t.owner])
            except Exception:
                log.exception("the lease sweep failed; it runs again in %.0f s", LEASE_SWEEP_SECONDS)

    def on_notice(self, notice: dict[str, Any]) -> None:
        """A notice of another server process (on the event loop)."""
        table_id = notice.get("t")
        if not isinstance(table_id, str):
            for listener in self.listeners:
                listener.on_notice(notice)
            return
        table = self.tables.get(table_id)
        if notice.get("k") == "new":  # held here once somebody asks for it; a table with computer players at
            # once, so that a process is there to move them when the one that made it stops
            self._lobby_rows = None
            if table is None and table_id not in self._loading and notice.get("bots", True):
                self._background(self.table(table_id), f"loading table {table_id}")
            return
        if table is None:
            return  # not held here (a table that is loading catches up when it is loaded)
        if notice.get("k") == "closed":
            self._background(self._drop(table, "this table was closed by a player"), f"closing table {table_id}")
            return
        table.inbox_notice(notice)

    def _missed_notices(self) -> None:
        for listener in self.listeners:
            listener.on_missed()
        for table in list(self.tables.values()):
            table.inbox_notice({"k": "sync"})

    def _leases_lost(self) -> None:
        for table in self.tables.values():
            if table.owner:
                table.owner = False
                if table.bot_task is not None:
                    table.bot_task.cancel()
        log.warning("the table leases were lost with their database connection; they are taken again")

    def _background(self, coro: Any, what: str) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)

        def done(t: asyncio.Task) -> None:
            self._tasks.discard(t)
            if not t.cancelled() and t.exception() is not None:
                log.error("%s failed", what, exc_info=t.exception())
        task.add_done_callback(done)

    async def resume_bots(self) -> None:
        """After a restart: let computer players continue where they stopped."""
        await self.start()

    def shutdown(self) -> None:
        for table in self.tables.values():
            if table.bot_task is not None:
                table.bot_task.cancel()
        if isinstance(self.executor, ThreadPoolExecutor):
            self.executor.shutdown(wait=False, cancel_futures=True)
        if self._processes is not None:
            self._processes.shutdown(wait=False, cancel_futures=True)


def pack(data: Any) -> bytes:
    """JSON data kept for long in little memory: compressed (an ``orjson.dumps`` result itself would keep its
    whole working buffer, some 16 KB, however short the JSON)."""
    return zlib.compress(orjson.dumps(data), 1)


def unpack(packed: bytes) -> Any:
    """The data of :func:`pack`."""
    return orjson.loads(zlib.decompress(packed))


def encode_message(message: dict[str, Any]) -> str:
    """A message as the compact JSON text of a WebSocket frame (orjson: the server's hottest encoder)."""
    return orjson.dumps(message).decode()


def _lobby_entry(row: dict[str, Any]) -> dict[str, Any]:
    """The lobby's entry of a table held by another server process (:meth:`TableManager.lobby_tables`), from
    its stored row: the keys of :meth:`ServerTable.public_info` that the database knows."""
    settings = row["settings"]
    seats = [dict(s, connected=None, game_seat=None) for s in row["seats"]]
    return {"id": row["id"], "name": row["name"], "variant": settings.get("variant", "standard"),
            "ruleset": None if settings.get("variant") == "officers" else settings.get("ruleset", "isko2018"),
            "officers_variant": settings.get("officers_variant"), "options": settings.get("options") or {},
            "seeded": bool(settings.get("seeded")), "public": bool(settings.get("public", True)),
            "n_players": len(seats), "status": "waiting" if not all(s["taken"] for s in seats) else "playing",
            "deal_no": row["deal_no"], "seats": seats, "held_elsewhere": True}


def _sorted_cards(view: Any, own: bool = True) -> dict[str, Any]:
    """The cards of a view in display order for the game (trumps first): the own hand and open hands."""
    gt = None if view.contract is None else view.contract.game_type
    return {
        "hand": _display(view.hand.mask, gt) if own else [],
        "open": {str(s): _display(h.mask, gt) for s, h in view.open_hands.items()},
    }


def _shared(memo: dict[str, Any], key: str, compute: Any) -> Any:
    """``memo[key]``, computed the first time it is asked for (a part every state of a broadcast carries alike)."""
    if key not in memo:
        memo[key] = compute()
    return memo[key]


def _dealt(game: Any) -> dict[str, Any]:
    """A finished deal's cards as dealt, by game seat, each hand and the skat in display order for the game
    played (a Ramsch or a deal passed in: as for a grand, jacks first). Only for a finished deal."""
    assert game.is_over
    gt = None if game.contract is None else game.contract.game_type
    return {"hands": [_display(h, gt) for h in game.initial_hands], "skat": _display(game.initial_skat, gt)}


@functools.lru_cache(maxsize=8192)  # about the hands in play at 2,000 tables; bounded memory
def _display(mask: int, game_type: Any) -> tuple[str, ...]:
    """Card names in display order (a tuple of strings: shared by the cache, and not scanned by the garbage
    collector)."""
    return tuple(c.name for c in display_order(mask, game_type))


def _check_options(ruleset: str, options: Any) -> dict[str, Any]:
    """Rule options a table changes on top of its preset (``{"schieberamsch": true}``), each checked by
    :data:`skat.rules.rulesets.SCHEMA` (strict JSON types, ranges, choices) and then together by the engine."""
    if options is None:
        return {}
    if not isinstance(options, dict) or len(options) > 40:
        raise TableError("bad_options", "options is an object of rule options, e.g. {\"kontra\": true}")
    try:
        clean = RULE_SCHEMA.check_changes(options)
        rules = get_ruleset(ruleset).replace(**clean)
        Game(seed=0, ruleset=rules)  # the engine accepts the combination
    except (RuleSetError, TypeError, ValueError) as exc:
        raise TableError("bad_options", str(exc)) from None
    return {k: json_value(v) for k, v in clean.items()}


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


def _clean_name(name: Any) -> str:
    if not isinstance(name, str):
        return ""
    return " ".join(name.split())[:40]


_BOT_NAMES = ("Anna", "Bernd", "Clara", "Dieter")


def _bot_label(level: str, position: int) -> str:
    return f"{_BOT_NAMES[position % 4]} ({level})"
