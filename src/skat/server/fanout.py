"""Several server processes on one PostgreSQL database: the notices between them and who plays the
computer players of a table.

Each write a process commits may carry a notice (:meth:`skat.server.store.Store.submit`), sent with
``pg_notify`` on the channel :data:`~skat.server.store.NOTICE_CHANNEL` in the same transaction, so it
arrives exactly when the write is visible (the notices of one grouped commit travel together:
``{"p": process, "n": [notice, ...]}``). :class:`Fanout` listens on its own connection and hands every
other process's notice to the :class:`~skat.server.tables.TableManager`, which passes it to the table
(the table applies the action it carries, or catches up with the database when it missed one).

PostgreSQL's LISTEN/NOTIFY was chosen over Redis pub/sub: the database is there already (no second
service to run and watch), a notice is sent in the transaction of its write (never one without the
other, never before the data is visible), and in ``bench/load.py`` the fan-out is not the bottleneck
(docs/deployment.md gives the figures).

The computer players of a table move in one process only: the one that holds the table's *lease*, a
PostgreSQL session advisory lock on the fan-out's second connection. When that process dies its
connection closes and the lock is free; every second the other processes try to take the leases of
the tables they hold (one query for all of them), and the first to get one plays on. On SQLite (one
process) there is no fan-out and every table's lease is this process's.
"""

from __future__ import annotations

import asyncio
import logging
import zlib
from collections.abc import Callable, Iterable
from typing import Any

import orjson

from skat.server.store import NOTICE_CHANNEL, Store

__all__ = ["Fanout", "LEASE_CLASS", "lease_key", "LEASE_SWEEP_SECONDS"]

log = logging.getLogger("skat.server.fanout")

LEASE_CLASS = 7273
"""The first key of every table lease (``pg_try_advisory_lock(7273, key)``)."""
LEASE_SWEEP_SECONDS = 1.0
"""How often a process tries to take the leases of tables whose process went away."""
RECONNECT_DELAYS = (0.2, 0.5, 1.0, 2.0, 5.0)


def lease_key(table_id: str) -> int:
    """The second key of a table's lease: a signed 32-bit hash of its id."""
    key = zlib.crc32(table_id.encode())
    return key - (1 << 32) if key >= 1 << 31 else key


class Fanout:
    """Listens for the other processes' notices and holds this process's table leases (PostgreSQL)."""

    def __init__(self, store: Store, on_notice: Callable[[dict[str, Any]], None],
                 on_missed: Callable[[], None], on_leases_lost: Callable[[], None]) -> None:
        self.store = store
        self.on_notice = on_notice
        """Called on the event loop with each notice of another process."""
        self.on_missed = on_missed
        """Called after the listening connection was lost and opened again: notices may have been missed."""
        self.on_leases_lost = on_leases_lost
        """Called when the lease connection was lost: this process holds no lease any more."""
        self.leases: set[str] = set()
        self._listen_conn: Any = None
        self._lease_conn: Any = None
        self._task: asyncio.Task | None = None
        self._lease_lock = asyncio.Lock()
        self.received = 0
        self._own = f'{{"p":"{store.process_id}",'
        """How this process's own payloads begin (:meth:`skat.server.store.Store._notice_payloads`)."""

    @property
    def active(self) -> bool:
        return self.store.shared

    async def start(self) -> None:
        """Open the listening connection (LISTEN) and start hearing notices."""
        if not self.active:
            return
        await self._listen_connect()
        self._task = asyncio.get_running_loop().create_task(self._listen())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            try:
                await self._task
            except BaseException:  # noqa: BLE001 - cancelled, or it had failed (logged)
                pass
            self._task = None
        for conn in (self._listen_conn, self._lease_conn):
            if conn is not None:
                try:
                    await conn.close()
                except Exception:  # noqa: BLE001 - closing a broken connection
                    pass
        self._listen_conn = self._lease_conn = None
        self.leases.clear()

    async def _listen_connect(self) -> None:
        import psycopg

        self._listen_conn = await psycopg.AsyncConnection.connect(self.store.libpq_url, autocommit=True)
        await self._listen_conn.execute(f"LISTEN {NOTICE_CHANNEL}")

    async def _listen(self) -> None:
        failures = 0
        while True:
            try:
                if self._listen_conn is None or self._listen_conn.closed:
                    await self._listen_connect()
                    failures = 0
                    log.warning("the fan-out's connection to the database is open again; catching up")
                    self.on_missed()
                async for notify in self._listen_conn.notifies():
                    self._deliver(notify.payload)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # the database went away: listen again, then catch up
                delay = RECONNECT_DELAYS[min(failures, len(RECONNECT_DELAYS) - 1)]
                failures += 1
                log.warning("the fan-out lost its database connection (%s: %s); trying again in %.1f s",
                            type(exc).__name__, str(exc).splitlines()[0][:200] if str(exc) else "", delay)
                if self._listen_conn is not None:
                    try:
                        await self._listen_conn.close()
                    except Exception:  # noqa: BLE001 - closing a broken connection
                        pass
                    self._listen_conn = None
                await asyncio.sleep(delay)

    def _deliver(self, payload: str) -> None:
        if payload.startswith(self._own):  # this process's own commit (LISTEN hears it too): not even parsed
            return
        try:
            notice = orjson.loads(payload)
        except ValueError:
            log.error("a notice that is not JSON was ignored: %r", payload[:200])
            return
        if not isinstance(notice, dict) or notice.get("p") == self.store.process_id:
            return
        for one in notice.get("n") or ():  # the notices of one commit, in order
            if not isinstance(one, dict):
                continue
            self.received += 1
            try:
                self.on_notice(one)
            except Exception:
                log.exception("a notice could not be handled: %r", one)

    # -------------------------------------------------------------- leases
    async def try_leases(self, table_ids: Iterable[str]) -> set[str]:
        """Take the leases of these tables that no other process holds; returns the ones this process holds
        now (all of them without PostgreSQL)."""
        wanted = [t for t in table_ids if t not in self.leases]
        if not self.active:
            self.leases.update(wanted)
            return set(self.leases)
        if wanted or self.leases:  # with nothing wanted the query checks that the held leases are still held
            async with self._lease_lock:
                try:
                    if self._lease_conn is None or self._lease_conn.closed:
                        import psycopg

                        if self.leases:  # the old connection died with its locks
                            self.leases.clear()
                            self.on_leases_lost()
                        self._lease_conn = await psycopg.AsyncConnection.connect(self.store.libpq_url,
                                                                                 autocommit=True)
                    cur = await self._lease_conn.execute(
                        "SELECT k, pg_try_advisory_lock(%s, k) FROM unnest(%s::int[]) AS k",
                        (LEASE_CLASS, [lease_key(t) for t in wanted]))
                    got = {k for k, ok in await cur.fetchall() if ok}
                except Exception as exc:
                    log.warning("taking table leases failed (%s: %s); trying again later", type(exc).__name__,
                                str(exc).splitlines()[0][:200] if str(exc) else "")
                    if self._lease_conn is not None and self._lease_conn.closed:
                        self._lease_conn = None
                        if self.leases:
                            self.leases.clear()
                            self.on_leases_lost()
                    return set(self.leases)
            self.leases.update(t for t in wanted if lease_key(t) in got)
        return set(self.leases)

    async def release(self, table_id: str) -> None:
        """Give a table's lease back (the table was closed or unloaded here)."""
        if table_id not in self.leases:
            return
        self.leases.discard(table_id)
        if not self.active or self._lease_conn is None or self._lease_conn.closed:
            return
        async with self._lease_lock:
            try:
                await self._lease_conn.execute("SELECT pg_advisory_unlock(%s, %s)", (LEASE_CLASS, lease_key(table_id)))
            except Exception:  # noqa: BLE001 - a lost connection released it anyway
                log.debug("releasing the lease of %s failed", table_id, exc_info=True)
