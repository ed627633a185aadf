"""A table on the server: the table core (:mod:`skat.server.core`) with its lock, its storage and its clients.

The server is authoritative: every action goes through the engine (:meth:`skat.Game.apply`), is stored before
anybody hears of it, and each client receives only its own seat's view (:meth:`skat.Game.view`) or, as a
spectator, the public part of the table.

One kind of table serves every game: Skat at three, four or five and Officers' Skat at two, each asked through the
table's game (:attr:`~skat.server.core.TableCore.game_kind`, a :class:`~skat.server.games.TableGame` that its
variant's table part defines: its series, its computer players, its states). :class:`ServerTable` adds to the
core what needs I/O: the lock that orders a table's requests, the writes before each change
(:class:`~skat.server.store.Store`), the clients (:class:`~skat.server.connections.Connections`), the
computer players' runner (:class:`~skat.server.runner.BotRunner`) and the notices of other server processes.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Any, Protocol

from skat.rules.actions import Action
from skat.server.clock_runner import ClockRunner
from skat.server.connections import Client, Connections, encode_message
from skat.server.core import PROTOCOL_VERSION, Overtaken, Seat, TableCore, TableError, hash_token, pack, unpack
from skat.server.hints import card_hint, declarer_hint, hint_in_worker
from skat.server.limits import Limits
from skat.server.runner import BotRunner
from skat.server.store import Store, StoredTable
from skat.variants.registry import from_record

__all__ = ["ServerTable", "Overtaken", "TableError", "PROTOCOL_VERSION", "Client", "Seat", "encode_message",
           "hash_token", "pack", "unpack", "SPECTATOR_NOTICE_DELAY"]

log = logging.getLogger("skat.server")

SPECTATOR_NOTICE_DELAY = 0.5
"""Seconds the others wait for the ``spectators`` notice after somebody starts or stops watching: the
arrivals and departures of that time are told in one notice."""


class TableHost(Protocol):
    """What a table asks of the server process holding it (:class:`skat.server.manager.TableManager`)."""

    limits: Limits
    executor: Executor
    bot_delay: float
    trick_pause: float
    clock_scale: float

    async def worker_pool(self) -> ProcessPoolExecutor | None: ...

    def drop_later(self, table: ServerTable, message: str) -> None: ...


@dataclass(kw_only=True, eq=False)
class ServerTable(TableCore):
    """One table as the server holds it: the core, and its lock, storage, clients and computer players."""

    store: Store
    manager: TableHost
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    owner: bool = False
    """Whether this process plays the table's computer players (it holds the table's lease; always on SQLite)."""
    inbox: deque[dict[str, Any]] = field(default_factory=deque)
    """Notices of other server processes not taken yet, in the order they came."""
    inbox_task: asyncio.Task[None] | None = None
    hint_job: tuple[tuple[int, int, int], asyncio.Future[dict[str, Any]]] | None = None
    """The card hint being computed or computed last: ((deal, action count, seat), its future); asking again at
    the same point gets the same answer without a second search."""
    clients: Connections = field(init=False)
    bots: BotRunner = field(init=False)
    timer: ClockRunner = field(init=False)
    """The move clock's timers (docs/clock.md)."""
    _spectator_notice: asyncio.Task[None] | None = field(default=None, init=False)

    def __post_init__(self) -> None:
        super().__post_init__()
        self.clients = Connections(self)
        self.bots = BotRunner(self)
        self.timer = ClockRunner(self)
        self.clock.scale = self.manager.clock_scale
        self.robot_deals = self.manager.limits.robot_deals
        self.last_active = time.monotonic()

    def touch(self, now: float | None = None) -> None:
        """Note a person's activity (an action, a join, a connection, a disconnection), now by default."""
        super().touch(time.monotonic() if now is None else now)

    # ------------------------------------------------------------ clients
    async def connect(self, client: Client) -> None:
        """A client said ``hello`` (it had its ``welcome`` and the sheet): it gets its state. A seat holder's
        arrival is shown to everybody (their states say who is connected); a spectator's only to the newcomer,
        the others hear the number of spectators in a short ``spectators`` notice. A paused all-computer table
        goes on."""
        paused = self.paused
        self.clients.add(client)
        self.touch()
        if client.position is not None and client.position in self.clock.away:
            await self.timer.back(client.position, "connected again")  # tells everybody below
        if paused:  # somebody watches: a paused all-computer table goes on
            await self.after_change()
        elif client.position is None:
            await self.clients.send(client, self.state_for(None))
            self._tell_spectators()
        else:
            await self.broadcast()

    async def disconnect(self, client: Client) -> None:
        """A client's connection ended: a seat holder's leaving is shown to everybody, a spectator's by the
        ``spectators`` notice."""
        if not self.clients.discard(client):
            return
        self.touch()
        if client.position is None:
            self._tell_spectators()
        else:
            self.timer.gone(client.position)
            await self.broadcast()

    def _tell_spectators(self) -> None:
        if self._spectator_notice is None or self._spectator_notice.done():
            self._spectator_notice = asyncio.get_running_loop().create_task(self._spectators_notice())

    async def _spectators_notice(self) -> None:
        await asyncio.sleep(SPECTATOR_NOTICE_DELAY)
        try:
            await self.broadcast_message({"type": "spectators", "table_id": self.id,
                                          "spectators": self.present.get(None, 0)})
        except Exception:  # the table goes on; the next state says it too
            log.exception("table %s: the spectators notice could not be sent", self.id)

    async def broadcast(self) -> None:
        """Send every connected client its own state."""
        await self.clients.states()

    async def broadcast_message(self, message: dict[str, Any]) -> None:
        """Send every connected client the same message."""
        await self.clients.everyone(message)

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
        self.enter(start, deal_no)

    async def settle(self) -> None:
        """Finish what a failed try left (each step raises again while it still fails): write the finished
        deal whose write failed, and apply the action that was stored but not applied. Nothing is stored twice."""
        if self.pending_finish is not None:
            deal_no, result_json, row_json, game_no, list_over = self.pending_finish
            await self.store.finish_deal(self.id, deal_no, result_json, row_json, game_no, list_over)
            self.pending_finish = None
        pending = self.pending_action
        if pending is not None:
            game = self.game
            if game is None or pending[0] != self.deal_no or pending[1] != len(game.history):
                self.pending_action = None
                return
            self.play(pending[2], pending[3])
            self.pending_action = None
            await self.settle()

    async def finished_record(self, deal_no: int) -> dict[str, Any]:
        """The record of a finished deal: one of the recent ones in memory, an older one rebuilt from the
        database (its stored cards and actions replayed)."""
        record = self.kept_record(deal_no)
        if record is not None:
            return record
        if deal_no == self.deal_no and self.game is not None and not self.game.is_over:
            raise TableError("deal_running", f"deal {deal_no} is still being played; its record comes when it ends",
                             409)
        stored = None
        if 1 <= deal_no < self.deal_no + (1 if self.game is not None and self.game.is_over else 0):
            stored = await self.store.read(self.store.load_deal, self.id, deal_no)
        if stored is None or not stored.finished:
            raise TableError("no_deal", f"table {self.id} has no finished deal {deal_no}", 404)
        game = from_record(dict(stored.start, actions=[[seat, token] for seat, token in stored.actions]))
        return self.record(game, deal_no, stored.dealer, stored.positions, stored.stand_ins)

    async def maybe_start(self) -> bool:
        """Start the first or the next deal when every seat is taken and every person is ready."""
        if self.stopped is not None:
            return False
        await self.settle()
        if not self.deal_due():
            return False
        unsettled = self.pending_start is not None
        await self._new_deal()
        if not unsettled:
            self.count_unwatched()
        return True

    # ----------------------------------------------------------- actions
    async def act(self, position: int | None, token: Any, expect_seq: Any = None) -> None:
        """Check, store and apply one action of a table position, then tell everybody."""
        async with self.lock:
            self.check_running()
            await self.settle()
            game = self.game
            if expect_seq is not None and game is not None and expect_seq != len(game.history):
                raise TableError("stale", f"the table has moved on (action {len(game.history)}, you sent "
                                 f"{expect_seq}); here is the current state")
            seat, action = self.check_action(position, token)
            try:
                await self.apply(seat, action)
            except Overtaken:
                overtaken = True
            else:
                overtaken = False
        if not overtaken and position in self.clock.away:
            await self.timer.back(position, "acted")
        await self.after_change()  # after a stale action too: the table caught up, everybody hears of it
        if overtaken:
            raise TableError("stale", "another action was taken at this table first; here is the current state")

    def start_hint(self, position: int | None) -> tuple[int, asyncio.Future[dict[str, Any]]]:
        """Start (or join) the hint for a seat holder whose turn it is in the card play (or whose choice it is as the
        declarer: the skat, the discard, the game): the ``strong`` computer player's card or choice from that seat's
        own view (:func:`skat.server.hints.table_hint`), thought in the
        process pool like a search player's move (threads when there is none). Returns the action count it is
        for and its future; refuses at once, saying why, when there is no hint to give."""
        key, view = self.hint_point(position)
        if self.hint_job is not None and self.hint_job[0] == key:
            job = self.hint_job[1]
            if not job.done() or (not job.cancelled() and job.exception() is None):
                return key[1], job  # a failed one is tried again
        future = asyncio.ensure_future(self._think_hint(view))
        self.hint_job = (key, future)
        return key[1], future

    async def _think_hint(self, view: Any) -> dict[str, Any]:
        loop = asyncio.get_running_loop()
        processes = await self.manager.worker_pool()
        if processes is not None:
            try:
                hint: dict[str, Any] = await loop.run_in_executor(processes, hint_in_worker, view)
                return hint
            except BrokenProcessPool:
                log.exception("the process pool broke while computing a hint; thinking in a thread instead")
        hint = await loop.run_in_executor(self.manager.executor, _hint_in_thread, view)
        return hint

    async def apply(self, seat: int, action: Action, *, stand_in: bool = False) -> None:
        """Store one action, then apply it (the caller holds the lock; ``stand_in``: a computer player decided for
        the person in that seat, and the record says so). When the engine fails after the write, the stored action
        is kept (:attr:`pending_action`) and :meth:`settle` applies it on the next try. When another server process
        stored an action at this point first, nothing is stored: the table catches up with the database and the
        action is answered ``stale`` (:class:`Overtaken`)."""
        game = self.game
        assert game is not None
        self.check_running()
        await self.settle()
        seq = len(game.history)
        write = self.store.add_action(self.id, self.deal_no, seq, seat, str(action), stand_in)
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
        if stand_in:
            self.stand_ins.add(seq)
        self.play(seat, action)
        self.pending_action = None
        await self.settle()

    async def next_deal(self, position: int | None) -> None:
        """A person is ready for the next deal (it starts when all are)."""
        self.check_ready(position)
        assert position is not None
        async with self.lock:
            self.check_ready(position)
            if position not in self.ready and self.deal_no:
                await self.store.add_ready(self.id, self.deal_no, position)
            self.ready.add(position)
        await self.after_change()

    async def after_change(self, *, tell: bool = True) -> None:
        """Start deals that can start, tell everybody, and let computer players move (``tell=False``: the
        clients get a state only when a deal started)."""
        await self.after_change_no_bots(tell=tell)
        self.schedule_bots()

    async def after_change_no_bots(self, *, tell: bool = True) -> None:
        """Start a deal that can start, send the score sheet when a deal ended, and every state (with
        ``tell=False`` only when a deal started or ended)."""
        async with self.lock:
            started = await self.maybe_start()
            sheet_changed, self.sheet_changed = self.sheet_changed, False
            clock_changed = self.timer.follow()
        if sheet_changed and self.clients:
            await self.broadcast_message({"type": "sheet", "sheet": self.series.sheet()})
        if tell or started or sheet_changed or clock_changed:
            await self.broadcast()

    # ------------------------------------------------------ computer players
    @property
    def bot_task(self) -> asyncio.Task[None] | None:
        """The computer players' task (:class:`~skat.server.runner.BotRunner`), None when none ran yet."""
        return self.bots.task

    def schedule_bots(self) -> None:
        """Let the computer players move when one is to move or a claim is to be answered, and arm the move
        clock's timer (this process holds the table's lease)."""
        self.bots.schedule()
        self.timer.arm()

    def cancel_tasks(self) -> None:
        """Stop the computer players and the move clock's timers (the table closes, the server stops or the
        lease is lost)."""
        self.bots.cancel()
        self.timer.cancel()

    async def come_back(self, position: int | None) -> None:
        """A person away says they are back (``back``): their decisions are theirs again."""
        if position is None:
            raise TableError("not_a_player", "spectators have no seat to come back to")
        self.check_running()
        async with self.lock:
            await self.timer.back(position, "said so")
        await self.after_change()

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
        """Take what another server process stored at this table (:meth:`TableCore.apply_notice`); a notice that
        does not follow on what this process holds makes the table catch up with the database. Returns whether
        the table changed."""
        outcome = self.apply_notice(notice)
        if outcome == "catch_up":
            await self.catch_up()
            return True
        if outcome == "person":
            self.touch()  # a person acted at another process: the table is not idle
        elif outcome == "stopped":
            await self.broadcast_message({"type": "stopped", "table_id": self.id, "reason": self.stopped})
        return bool(outcome)

    async def catch_up(self) -> bool:
        """Read what the database holds beyond this process's copy of the table and take it; a table that was
        closed meanwhile (its notice was missed) is dropped. Returns whether anything a client sees changed."""
        stored: StoredTable | None = await self.store.read(self.store.load_table, self.id, max(1, self.deal_no))
        if stored is None:
            return False
        if stored.closed:
            self.closed = True
            self.manager.drop_later(self, "this table was closed by a player")
            return True
        before = self.seen()
        self.replay(stored)
        return self.seen() != before


def _hint_in_thread(view: Any) -> dict[str, Any]:
    """The hint in a thread of this process (no process pool): the card to play (:func:`card_hint`) or the
    declarer's choice (:func:`declarer_hint`), as :func:`skat.server.hints.table_hint` gives them."""
    if view.phase.value == "play":
        hint = card_hint(view)
        return {**hint, "action": hint["card"]}
    return declarer_hint(view)
