"""All tables of a server process: creating, loading and archiving them, the lobby, and the notices and table
leases shared with the other server processes (PostgreSQL, :class:`~skat.server.fanout.Fanout`)."""

from __future__ import annotations

import asyncio
import logging
import re
import secrets
import time
from collections.abc import Coroutine
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any

from sqlalchemy.exc import SQLAlchemyError

from skat.server.bots import bot_process_pool, start_workers
from skat.server.core import TableError, hash_token, new_secret
from skat.server.creation import build_seats, build_series, clean_name, game_of, plan_table
from skat.server.fanout import LEASE_SWEEP_SECONDS, Fanout
from skat.server.games import TableGame
from skat.server.limits import Limits, eviction_candidate, idle_reason
from skat.server.store import Store, StoredTable
from skat.server.tables import ServerTable

__all__ = ["TableManager", "LOBBY_READ_SECONDS"]

log = logging.getLogger("skat.server")

_TABLE_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")
LOBBY_READ_SECONDS = 2.0
"""With several server processes: how old the lobby's entries of tables held elsewhere may be (seconds)."""


class TableManager:
    """All tables of a server, backed by a :class:`Store`."""

    def __init__(self, store: Store, *, bot_delay: float = 0.0, trick_pause: float = 0.0,
                 executor: Executor | None = None, bot_workers: int = 4, bot_processes: bool = True,
                 limits: Limits | None = None, clock_scale: float = 1.0) -> None:
        self.store = store
        self.clock_scale = clock_scale
        """Real seconds per second of the tables' move clocks (1; tests make them run faster)."""
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
        deals: int | None = None,
        player_name: str = "",
        claim: int | None = 0,
        seed: int | None = None,
        options: dict[str, Any] | None = None,
        public: bool = False,
        hints: bool = True,
        clock: Any = None,
        **fields: Any,
    ) -> tuple[ServerTable, dict[str, Any]]:
        """A new table. ``seats``: per position ``"human"`` (a person joins) or a computer level.

        ``variant`` is the game (:func:`skat.server.games.table_variants`), which checks ``ruleset``, ``options``,
        ``seats`` and the ``fields`` only it reads (:meth:`skat.server.games.TableGame.plan`): ``standard`` (the
        default) is Skat at 3, 4 or 5 under ``ruleset`` (default ``isko2018``); ``officers`` is Officers' Skat at 2:
        ``officers_variant`` (one of :data:`skat.variants.officers.options.VARIANTS`, default ``classic``),
        ``options`` checked by :data:`skat.variants.officers.options.SCHEMA`, and ``seats`` ``"human"`` or
        ``"officers"`` (the computer opponent), default ``["human", "officers"]``.

        With ``claim`` the creator takes that (human) position and receives its token. A ``public`` table is
        listed in the lobby; a private one (the default) gets an invite secret, handed to the creator only
        (``invite`` in the answer; the settings keep its hash): see :meth:`ServerTable.check_invite`.
        ``hints`` (default true) lets the people at a Skat table ask for a card hint and see the bid estimate
        (:attr:`ServerTable.hints_on`). ``clock`` is the move clock (:func:`skat.server.clock.plan_clock`: left out,
        on at a table of two or more people; docs/clock.md).
        """
        table_id = secrets.token_hex(6)
        plan = plan_table(table_id, name=name, seats=seats, ruleset=ruleset, variant=variant, deals=deals,
                          player_name=player_name, claim=claim, seed=seed, options=options, public=public,
                          hints=hints, clock=clock, **fields)
        await self._make_room()
        await self.store.create_table(table_id, plan.name, plan.settings, plan.rows)
        table = self._build(table_id, plan.name, plan.settings, plan.rows)
        self._register(table)
        await self._take_leases([table])
        async with table.lock:
            await table.maybe_start()
        return table, {"table_id": table_id, "position": claim, "token": plan.token, "invite": plan.invite}

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
        table.cancel_tasks()
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
        seats = build_seats(table_id, settings, rows)
        return ServerTable(id=table_id, name=name, settings=settings, seats=seats,
                           series=build_series(settings, len(seats), stored_starts),
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
        async with table.lock:  # a catch-up with the database (a lease taken, a notice) never runs in between
            table.check_running()
            free = [s.position for s in table.seats if s.kind == "human" and s.token_hash is None]
            if position is None:
                if not free:
                    raise TableError("table_full", "every seat at this table is taken; you can watch as a spectator",
                                     409)
                position = free[0]
            elif position not in free:
                raise TableError("seat_taken", f"seat {position} is not free; free seats: {free or 'none'}", 409)
            token = new_secret()
            seat = table.seats[position]
            token_hash, seat_name = hash_token(token), clean_name(name) or f"Player {position + 1}"
            seat.token_hash, seat.name = token_hash, seat_name  # held at once: a second join here finds it taken
            try:
                taken = await self.store.take_seat(table_id, position, token_hash, seat_name)
            except BaseException:
                seat.token_hash, seat.name = None, ""
                raise
            if not taken:
                await table.catch_up()
                raise TableError("seat_taken", f"seat {position} was taken a moment ago; free seats: "
                                 f"{[s.position for s in table.seats if s.kind == 'human' and s.token_hash is None] or 'none'}",
                                 409)
        return {"table_id": table_id, "position": position, "token": token}

    def position_for_token(self, table: ServerTable, token: str | None) -> int | None:
        """The position whose secret token this is; raises for an unknown token
        (:meth:`~skat.server.core.TableCore.position_for_token`)."""
        return table.position_for_token(token)

    def admit(self, table: ServerTable, invite: Any = None, token: Any = None) -> None:
        """Let a reader in (:meth:`~skat.server.core.TableCore.admit`)."""
        table.admit(invite, token)

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
        table.cancel_tasks()
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
        if self.tables:  # nothing to say after a start with no open table
            log.info("restored %d open table(s) in %.1f s", len(self.tables),
                     asyncio.get_running_loop().time() - started)

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
        # a table of people with a move clock needs its lease too: the holder runs the computer stand-in
        with_bots = [t for t in tables if any(s.kind == "bot" for s in t.seats) or t.clock.on]
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
                table.cancel_tasks()
        log.warning("the table leases were lost with their database connection; they are taken again")

    def drop_later(self, table: ServerTable, message: str) -> None:
        """Drop a table closed at another process (:meth:`_drop`) in the background."""
        self._background(self._drop(table, message), f"closing table {table.id}")

    def _background(self, coro: Coroutine[Any, Any, Any], what: str) -> None:
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
            table.cancel_tasks()
        if isinstance(self.executor, ThreadPoolExecutor):
            self.executor.shutdown(wait=False, cancel_futures=True)
        if self._processes is not None:
            self._processes.shutdown(wait=False, cancel_futures=True)



def _lobby_entry(row: dict[str, Any]) -> dict[str, Any]:
    """The lobby's entry of a table held by another server process (:meth:`TableManager.lobby_tables`), from
    its stored row: the keys of :meth:`ServerTable.public_info` that the database knows."""
    settings = row["settings"]
    seats = [dict(s, connected=None, game_seat=None) for s in row["seats"]]
    try:
        game = game_of(settings)
    except LookupError:  # a game no server table of this process plays: its settings' keys as they are
        game = TableGame()
    return {"id": row["id"], "name": row["name"], "variant": settings.get("variant", "standard"),
            **game.info(settings), "options": settings.get("options") or {},
            "seeded": bool(settings.get("seeded")), "public": bool(settings.get("public", True)),
            "n_players": len(seats), "status": "waiting" if not all(s["taken"] for s in seats) else "playing",
            "deal_no": row["deal_no"], "seats": seats, "held_elsewhere": True}

