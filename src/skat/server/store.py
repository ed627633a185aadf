"""Persistence of tables, seats, deals and every action (SQLAlchemy; SQLite or PostgreSQL).

Each action is committed before the server acknowledges it, so a table can be rebuilt after a crash by
replaying its stored actions. The event loop never waits for the database: every write is handed to
the store's writer thread (:meth:`Store.submit`), which commits what is queued together in one
transaction (grouped commits: one commit for many tables' actions) and then resolves each write's
future; reads run in the store's reader threads (:meth:`Store.read`).

An action is stored once: the key (table, deal, seq) is unique and an insert that meets a stored row
changes nothing and answers False (``INSERT ... ON CONFLICT DO NOTHING``). That is how two server
processes that accept an action for the same table at once are serialized: one wins, the other hears
False and answers its client ``stale``.

On PostgreSQL, several server processes share the database (docs/deployment.md): each write may carry a
*notice* (a small JSON object about a table), sent with ``pg_notify`` in the same transaction, so the
other processes hear of it exactly when it is committed (:mod:`skat.server.fanout` listens). SQLite is for
one server process: :class:`Store` with ``serve=True`` refuses a second process on the same file.

The schema is kept by Alembic migrations (``skat/server/migrations``), run when a store opens a
database (:func:`migrate`); a database made before migrations existed is recognised and stamped with the
baseline revision first. Every server table (:mod:`skat.server.tables`: Skat, and Officers' Skat with
``"variant": "officers"``) lives in ``skat_tables``, ``skat_seats``, ``skat_deals`` and ``skat_actions``.
The score keeper's lists of real tables and club tournaments (:mod:`skat.server.keeper`, docs/keeper-server.md)
live in ``keeper_lists``, ``keeper_changes`` and ``tournaments``.
The retired REST-polling Officers' Skat API kept its tables in three tables of its own, kept and never dropped,
now only read (:func:`skat.server.officers.stored_state`, ``GET /api/officers/tables/{id}``):
``officers_tables`` (token hash, variant, options, seed, the person's seat, game number, seq, the
series' sheet), ``officers_games`` (each game as an :meth:`skat.variants.officers.OfficersGame.to_record`
record) and ``officers_actions`` (every action of every game, in order).
"""

from __future__ import annotations

import asyncio
import json
import logging
import queue
import secrets
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import orjson
from sqlalchemy import (
    Table,
    bindparam,
    create_engine,
    event,
    exists,
    func,
    insert,
    select,
    text,
    update,
)
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import DBAPIError

from skat.server.database import (  # noqa: F401 - the schema's names, imported from here by many modules
    _BASELINE_TABLES,
    HEAD_REVISION,
    SecondProcessError,
    StoredDeal,
    StoredOfficersTable,
    StoredTable,
    _release_sqlite,
    _serve_sqlite,
    actions_t,
    deals_t,
    default_db_url,
    keeper_changes_t,
    keeper_lists_t,
    metadata,
    migrate,
    normalize_db_url,
    officers_actions_t,
    officers_games_t,
    officers_tables_t,
    ready_t,
    seats_t,
    tables_t,
    tournaments_t,
)
from skat.server.history import record_finished_deal

__all__ = ["Store", "StoredTable", "StoredDeal", "StoredOfficersTable", "default_db_url",
           "normalize_db_url", "migrate", "SecondProcessError", "NOTICE_CHANNEL", "HEAD_REVISION"]

log = logging.getLogger("skat.server.store")

T = TypeVar("T")

NOTICE_CHANNEL = "skat_tables"
"""The PostgreSQL channel of the notices (``LISTEN skat_tables``)."""
MAX_BATCH = 256
SLOW_COMMIT_SECONDS = 0.25
"""A commit that takes longer is logged: every write waiting behind it (and its table's answer) waited too."""
MAX_NOTICE_BYTES = 7000
"""Notices of one commit are sent together in payloads of about this many bytes (PostgreSQL's limit is 8000)."""
"""At most this many queued writes are committed together."""



Op = Callable[[Connection], Any]
"""One write: runs inside the writer's transaction and returns its answer."""


class Written:
    """The answer of a queued write (:meth:`Store.submit`). Awaited on the event loop that queued it (the
    writer answers all of a commit's writes there in one callback, not one wake-up each), or waited for from
    any thread with :meth:`result`. Cancelling the awaiting task before the writer takes the write leaves it
    unwritten."""

    __slots__ = ("_store", "_aio", "_done", "_answer", "_error")

    def __init__(self, store: Store, loop: asyncio.AbstractEventLoop | None) -> None:
        self._store = store
        self._aio: asyncio.Future | None = None if loop is None else loop.create_future()
        self._done = False
        self._answer: Any = None
        self._error: BaseException | None = None

    def cancelled(self) -> bool:
        """Whether the task awaiting it gave up on it."""
        return self._aio is not None and self._aio.cancelled()

    def done(self) -> bool:
        """Whether the write is answered (committed, failed or not written)."""
        return self._done

    def result(self, timeout: float | None = None) -> Any:
        """Wait for the answer from any thread (``TimeoutError`` after ``timeout`` seconds); raises the write's
        error, or ``CancelledError`` when it was not written."""
        answered = self._store._answered
        with answered:
            if not answered.wait_for(lambda: self._done, timeout):
                raise TimeoutError("the database write is not answered yet")
        if self._error is not None:
            raise self._error
        return self._answer

    def __await__(self) -> Any:
        if self._aio is None:  # queued outside an event loop: wait in a thread
            return asyncio.get_running_loop().run_in_executor(None, self.result).__await__()
        return self._aio.__await__()


def _answer_on_loop(answers: list[tuple[asyncio.Future, Any, BaseException | None]]) -> None:
    """The writer's answers to one loop's writes of a commit (run on that loop)."""
    for aio, answer, error in answers:
        if not aio.done():
            if error is None:
                aio.set_result(answer)
            else:
                aio.set_exception(error)


_ACTION_COLUMNS = ("table_id", "deal_no", "seq", "seat", "token", "at", "stand_in")
"""The columns of a stored action, in the order :meth:`Store._insert_actions` inserts them."""


@dataclass
class _Write:
    op: Op
    future: Written
    notice: dict[str, Any] | None
    action: dict[str, Any] | None = None
    """The row of an action (:meth:`Store.add_action`): consecutive ones are inserted in one statement."""
    table: str | None = None
    """The table whose rows the write touches (``None``: unknown, or none)."""


def lock_order(batch: list[_Write]) -> list[_Write]:
    """The writes of a batch in the order the writer commits them: by table id, each table's writes in the
    order they came, and a write of no known table where it came (nothing moves across it).

    Two server processes write rows of the same tables (both start the next deal, both store its result):
    the second write of a row waits for the first one's transaction. Were their batches in different orders,
    each could wait for the other: PostgreSQL breaks such a deadlock after ``deadlock_timeout`` (1 s), and
    every table of both batches waited that long. Taken in one order, one batch only waits for the other."""
    out: list[_Write] = []
    run: list[_Write] = []
    for item in batch:
        if item.table is None:
            out.extend(sorted(run, key=lambda w: w.table))  # type: ignore[arg-type, return-value]
            out.append(item)
            run = []
        else:
            run.append(item)
    out.extend(sorted(run, key=lambda w: w.table))  # type: ignore[arg-type, return-value]
    return out


class Store:
    """The database behind a server: one engine, a writer thread with grouped commits, reader threads.

    ``serve=True`` (a server process): on SQLite the file is locked for this process
    (:class:`SecondProcessError` for a second one)."""

    def __init__(self, url: str, *, serve: bool = False) -> None:
        self.url = normalize_db_url(url)
        kwargs: dict[str, Any] = {"future": True}
        self.sqlite = self.url.startswith("sqlite")
        if self.sqlite:
            kwargs["connect_args"] = {"check_same_thread": False, "timeout": 30}
        else:
            kwargs["pool_pre_ping"] = True
        self.engine: Engine = create_engine(self.url, **kwargs)
        if self.sqlite:
            @event.listens_for(self.engine, "connect")
            def _sqlite_pragmas(dbapi_conn, _record):  # pragma: no cover - trivial
                cur = dbapi_conn.cursor()
                cur.execute("PRAGMA journal_mode=WAL")
                cur.execute("PRAGMA synchronous=NORMAL")
                cur.close()
        self._served: str | None = None
        database = self.engine.url.database
        if serve and self.sqlite and database and database != ":memory:":
            _serve_sqlite(str(Path(database).resolve()))
            self._served = str(Path(database).resolve())
        try:
            migrate(self.engine)
        except BaseException:
            self._release()
            raise
        self.process_id = secrets.token_hex(6)
        """This process's name in the notices it sends (it ignores its own)."""
        self._queue: queue.SimpleQueue[_Write | None] = queue.SimpleQueue()
        self._writer: threading.Thread | None = None
        self._writer_lock = threading.Lock()
        self._answered = threading.Condition()
        """Notified when the writer answered writes (threads waiting in :meth:`Written.result`)."""
        self._conn: Connection | None = None
        self._readers = ThreadPoolExecutor(max_workers=2, thread_name_prefix="skat-db-read")
        self._inserts: dict[str, Any] = {}
        self.commits = 0
        """Transactions the writer committed (each holds one or more writes)."""
        self.writes = 0
        """Writes the writer committed."""
        self.slow_commits = 0
        """Commits that took longer than :data:`SLOW_COMMIT_SECONDS` (each one logged)."""

    @property
    def shared(self) -> bool:
        """Whether several server processes may serve this database (PostgreSQL)."""
        return self.engine.dialect.name == "postgresql"

    @property
    def libpq_url(self) -> str:
        """The database URL for psycopg itself (the fan-out's listening connection)."""
        return self.engine.url.set(drivername="postgresql").render_as_string(hide_password=False)

    def close(self) -> None:
        """Commit what is queued, stop the threads, close the connections."""
        writer = self._writer
        if writer is not None and writer.is_alive():
            self._queue.put(None)
            writer.join(timeout=30)
        self._writer = None
        self._readers.shutdown(wait=True)
        if self._conn is not None:
            self._conn.close()
            self._conn = None
        self.engine.dispose()
        self._release()

    def _release(self) -> None:
        if self._served is not None:
            _release_sqlite(self._served)
            self._served = None

    # ------------------------------------------------------------ the writer
    def submit(self, op: Op, notice: dict[str, Any] | None = None, *, action: dict[str, Any] | None = None,
               table: str | None = None) -> Written:
        """Queue one write; its :class:`Written` gets the answer once it is committed (or its error, nothing
        stored).

        ``notice`` is sent to the other server processes (PostgreSQL) in the same transaction. ``action`` (an
        action's row; ``op`` inserts it alone) lets the writer insert a run of actions in one statement.
        ``table``: the table whose rows ``op`` writes, when its notice does not name it (:func:`lock_order`)."""
        try:
            loop: asyncio.AbstractEventLoop | None = asyncio.get_running_loop()
        except RuntimeError:
            loop = None
        future = Written(self, loop)
        writer = self._writer
        if writer is None or not writer.is_alive():
            with self._writer_lock:
                if self._writer is None or not self._writer.is_alive():
                    self._writer = threading.Thread(target=self._write_loop, name="skat-db-writer", daemon=True)
                    self._writer.start()
        if table is None and notice is not None and isinstance(notice.get("t"), str):
            table = notice["t"]
        self._queue.put(_Write(op, future, notice, action, table))
        return future

    async def write(self, op: Op, notice: dict[str, Any] | None = None) -> Any:
        """:meth:`submit` for the event loop: await the committed answer."""
        return await self.submit(op, notice)

    async def read(self, fn: Callable[..., T], *args: Any) -> T:
        """Run a read (a method of this store) in a reader thread."""
        return await asyncio.get_running_loop().run_in_executor(self._readers, fn, *args)

    def _write_loop(self) -> None:
        stop = False
        while not stop:
            first = self._queue.get()
            if first is None:
                return
            batch = [first]
            while len(batch) < MAX_BATCH:
                try:
                    item = self._queue.get_nowait()
                except queue.Empty:
                    break
                if item is None:
                    stop = True
                    break
                batch.append(item)
            taken: list[_Write] = []
            dropped: list[tuple[_Write, Any, BaseException | None]] = []
            for item in batch:
                if item.future.cancelled():
                    dropped.append((item, None, asyncio.CancelledError()))
                else:
                    taken.append(item)
            if dropped:
                self._answer(dropped)
            batch = taken
            if batch:  # a write cancelled before it started (its table is closing) is not written
                self._commit(lock_order(batch))

    def _connection(self) -> Connection:
        if self._conn is None or self._conn.closed or self._conn.invalidated:
            self._conn = self.engine.connect()
        return self._conn

    def _commit(self, batch: list[_Write]) -> None:
        """Commit a batch in one transaction; when it fails, each write is tried alone, so that one bad
        write fails only itself. A dropped connection is opened again once."""
        started = time.perf_counter()
        try:
            answers = self._transaction(batch)
        except Exception as exc:
            if len(batch) > 1:
                for item in batch:
                    self._commit([item])
                return
            item = batch[0]
            if isinstance(exc, DBAPIError) and exc.connection_invalidated:
                try:
                    answers = self._transaction(batch)
                except Exception as again:
                    self._fail(item, again)
                    return
            else:
                self._fail(item, exc)
                return
        self.commits += 1
        self.writes += len(batch)
        took = time.perf_counter() - started
        if took > SLOW_COMMIT_SECONDS:
            self.slow_commits += 1
            log.warning("a database commit of %d write(s) took %.2f s (the tables waiting on it waited as long); "
                        "%d slow commit(s) of %d so far", len(batch), took, self.slow_commits, self.commits)
        self._answer([(item, answer, None) for item, answer in zip(batch, answers)])

    def _answer(self, answers: list[tuple[_Write, Any, BaseException | None]]) -> None:
        """Answer writes: for waiting threads at once, for each event loop in one callback."""
        loops: dict[asyncio.AbstractEventLoop, list[tuple[asyncio.Future, Any, BaseException | None]]] = {}
        with self._answered:
            for item, answer, error in answers:
                written = item.future
                written._answer, written._error, written._done = answer, error, True
                if written._aio is not None:
                    loops.setdefault(written._aio.get_loop(), []).append((written._aio, answer, error))
            self._answered.notify_all()
        for loop, theirs in loops.items():
            try:
                loop.call_soon_threadsafe(_answer_on_loop, theirs)
            except RuntimeError:  # that loop is closed: nobody awaits these answers any more
                pass

    def _fail(self, item: _Write, exc: BaseException) -> None:
        log.warning("a database write failed (%s: %s); nothing of it was stored", type(exc).__name__,
                    str(exc).splitlines()[0][:300] if str(exc) else "")
        self._answer([(item, None, exc)])

    def _transaction(self, batch: list[_Write]) -> list[Any]:
        conn = self._connection()
        with conn.begin():
            answers: list[Any] = []
            i = 0
            while i < len(batch):
                j = i
                while j < len(batch) and batch[j].action is not None:
                    j += 1
                if j - i > 1:  # a run of actions: one statement
                    answers.extend(self._insert_actions(conn, [item.action for item in batch[i:j]]))  # type: ignore[misc]
                    i = j
                else:
                    answers.append(batch[i].op(conn))
                    i += 1
            if self.shared:
                for payload in self._notice_payloads([item.notice for item in batch if item.notice is not None]):
                    conn.execute(text("SELECT pg_notify(:c, :p)"), {"c": NOTICE_CHANNEL, "p": payload})
        return answers

    def _notice_payloads(self, notices: list[dict[str, Any]]) -> list[str]:
        """The notices of a batch as few payloads as PostgreSQL takes (under 8,000 bytes each): ``{"p": this
        process, "n": [notice, ...]}``, so that a grouped commit sends one or two, not one per write."""
        payloads: list[str] = []
        chunk: list[str] = []
        size = 0
        for notice in notices:
            data = orjson.dumps(notice)  # UTF-8: its length is its size in bytes
            if chunk and size + len(data) > MAX_NOTICE_BYTES:
                payloads.append(f'{{"p":"{self.process_id}","n":[{",".join(chunk)}]}}')
                chunk, size = [], 0
            chunk.append(data.decode())
            size += len(data) + 1
        if chunk:
            payloads.append(f'{{"p":"{self.process_id}","n":[{",".join(chunk)}]}}')
        return payloads

    def _insert_actions(self, conn: Connection, rows: list[dict[str, Any]]) -> list[bool]:
        """Insert several actions (of open tables, each unless its ``seq`` is stored already) in one
        statement, as :meth:`add_action` inserts one; answers for each whether it was inserted. Of two rows
        for the same point (never sent by one process) only the first can be inserted."""
        n = len(rows)
        sql = self._inserts.get(f"actions:{n}")
        if sql is None:  # the driver's own SQL (no SQLAlchemy objects to keep per batch size)
            mark = "?" if self.engine.dialect.paramstyle == "qmark" else "%s"
            names = _ACTION_COLUMNS
            casts = ("VARCHAR(32)", "INTEGER", "INTEGER", "INTEGER", "VARCHAR(80)", "FLOAT", "BOOLEAN")
            one = "(" + ", ".join(f"CAST({mark} AS {c})" for c in casts) + ")"
            sql = self._inserts[f"actions:{n}"] = (
                f"WITH v({', '.join(names)}) AS (VALUES {', '.join([one] * n)}) "
                f"INSERT INTO {actions_t.name} ({', '.join(names)}) SELECT {', '.join('v.' + k for k in names)} "
                f"FROM v WHERE NOT EXISTS (SELECT 1 FROM {tables_t.name} t WHERE t.id = v.table_id AND t.closed) "
                "ON CONFLICT DO NOTHING RETURNING table_id, deal_no, seq")
        params = tuple(row[k] for row in rows for k in _ACTION_COLUMNS)
        inserted = {tuple(r) for r in conn.exec_driver_sql(sql, params)}
        answers = []
        for row in rows:
            k = (row["table_id"], row["deal_no"], row["seq"])
            answers.append(k in inserted)
            inserted.discard(k)  # a second row for the same point was not inserted
        return answers

    def _insert_if_open(self, table: Table, keys: tuple[str, ...]) -> Any:
        """:meth:`_insert_new` for a row of an open table only: ``INSERT ... SELECT (the values) WHERE NOT EXISTS
        (its table, closed) ON CONFLICT DO NOTHING RETURNING``, so a table closed by another process (whose
        notice this one has not taken yet) gets no more actions or deals; one statement, no second query."""
        name = f"{table.name}:open:{','.join(keys)}"
        stmt = self._inserts.get(name)
        if stmt is None:
            values = select(*[bindparam(k, type_=table.c[k].type) for k in keys]).where(~exists().where(
                tables_t.c.id == bindparam("table_id", type_=tables_t.c.id.type), tables_t.c.closed.is_(True)))
            stmt = (pg_insert(table) if self.shared else sqlite_insert(table)).from_select(list(keys), values)
            stmt = self._inserts[name] = stmt.on_conflict_do_nothing().returning(*table.primary_key.columns)
        return stmt

    def _insert_new(self, table: Table) -> Any:
        """``INSERT ... ON CONFLICT DO NOTHING RETURNING`` (a row back when it was inserted) for this database
        (psycopg reports no row count for it); built once per table (building it costs more than running it)."""
        stmt = self._inserts.get(table.name)
        if stmt is None:
            stmt = (pg_insert(table) if self.shared else sqlite_insert(table)).on_conflict_do_nothing()
            stmt = self._inserts[table.name] = stmt.returning(*table.primary_key.columns)
        return stmt

    # ------------------------------------------------------------- writes
    def create_table(self, table_id: str, name: str, settings: dict[str, Any], seats: list[dict[str, Any]]) -> Written:
        """A new table with its seats (the future answers None once committed)."""
        def op(conn: Connection) -> None:
            conn.execute(insert(tables_t).values(
                id=table_id, name=name, created=time.time(), settings=json.dumps(settings), closed=False))
            for s in seats:
                conn.execute(insert(seats_t).values(table_id=table_id, **s))
        return self.submit(op, {"t": table_id, "k": "new", "bots": any(s.get("kind") == "bot" for s in seats)})

    def take_seat(self, table_id: str, position: int, token_hash: str, name: str) -> Written:
        """A person takes a free seat; answers False (nothing changed) when it was taken already."""
        def op(conn: Connection) -> bool:
            done = conn.execute(update(seats_t).where(
                seats_t.c.table_id == table_id, seats_t.c.position == position, seats_t.c.kind == "human",
                seats_t.c.token_hash.is_(None)).values(token_hash=token_hash, name=name))
            return done.rowcount == 1
        return self.submit(op, {"t": table_id, "k": "seat", "pos": position, "token_hash": token_hash, "name": name})

    def update_seat(self, table_id: str, position: int, **values: Any) -> Written:
        """Change a seat (a person took it); the other processes hear of it."""
        def op(conn: Connection) -> None:
            conn.execute(update(seats_t).where(seats_t.c.table_id == table_id, seats_t.c.position == position)
                         .values(**values))
        return self.submit(op, {"t": table_id, "k": "seat", "pos": position, **values})

    def start_deal(self, table_id: str, deal_no: int, dealer: int, positions: tuple[int, ...],
                   start: dict[str, Any]) -> Written:
        """Store a deal's start; answers False (nothing changed) when that deal is stored already or the table
        was closed."""
        row = {"table_id": table_id, "deal_no": deal_no, "dealer": dealer, "positions": json.dumps(list(positions)),
               "start": json.dumps(start), "finished": False}
        stmt = self._insert_if_open(deals_t, tuple(row))

        def op(conn: Connection) -> bool:
            return conn.execute(stmt, row).first() is not None
        return self.submit(op, {"t": table_id, "k": "deal", "d": deal_no})

    def add_action(self, table_id: str, deal_no: int, seq: int, seat: int, token: str,
                   stand_in: bool = False) -> Written:
        """Store action ``seq`` of a deal (``stand_in``: a computer player decided for the person in that seat,
        docs/clock.md); answers False (nothing changed) when that ``seq`` is stored already (another server
        process stored its own action first) or the table was closed."""
        row = {"table_id": table_id, "deal_no": deal_no, "seq": seq, "seat": seat, "token": token, "at": time.time(),
               "stand_in": stand_in}
        stmt = self._insert_if_open(actions_t, tuple(row))
        notice: dict[str, Any] = {"t": table_id, "k": "act", "d": deal_no, "s": seq, "seat": seat, "a": token}
        if stand_in:
            notice["si"] = 1

        def op(conn: Connection) -> bool:
            return conn.execute(stmt, row).first() is not None
        return self.submit(op, notice, action=row)

    def finish_deal(self, table_id: str, deal_no: int, result: dict[str, Any], sheet_row: dict[str, Any],
                    game_no: int | None = None, list_over: bool = False) -> Written:
        """Write a finished deal's result and sheet row, and with its ``game_no`` (the sheet's number; a redealt
        game keeps it) its players' histories, counters and, when it ends a list (``list_over``: the table's series
        ended), ratings (:func:`skat.server.history.record_finished_deal`); writing it twice changes nothing. A
        failure of the histories is logged and leaves the deal stored (``skat user rebuild-history`` writes them)."""
        def op(conn: Connection) -> None:
            conn.execute(update(deals_t).where(deals_t.c.table_id == table_id, deals_t.c.deal_no == deal_no)
                         .values(finished=True, result=json.dumps(result), sheet_row=json.dumps(sheet_row)))
            if game_no is None:
                return
            try:
                with conn.begin_nested():
                    record_finished_deal(conn, table_id, deal_no, sheet_row, game_no, list_over)
            except Exception:
                log.exception("table %s, deal %d: the players' history, statistics and ratings could not be "
                              "written; the deal itself is stored (run `skat user rebuild-history` to write them)",
                              table_id, deal_no)
        return self.submit(op, table=table_id)

    def add_ready(self, table_id: str, deal_no: int, position: int) -> Written:
        """A person is ready for the deal after ``deal_no`` (a second time changes nothing)."""
        stmt = self._insert_new(ready_t)

        def op(conn: Connection) -> None:
            conn.execute(stmt, {"table_id": table_id, "deal_no": deal_no, "position": position})
        return self.submit(op, {"t": table_id, "k": "ready", "d": deal_no, "pos": position})

    def close_table(self, table_id: str) -> Written:
        """Close a table for good (its records stay); the other processes drop it."""
        def op(conn: Connection) -> None:
            conn.execute(update(tables_t).where(tables_t.c.id == table_id).values(closed=True))
        return self.submit(op, {"t": table_id, "k": "closed"})

    # -------------------------------------------------------------- reads
    def load_open_tables(self) -> list[StoredTable]:
        """Every table that is not closed, with its seats, deals and actions."""
        with self.engine.connect() as conn:
            ids = [r.id for r in conn.execute(select(tables_t.c.id).where(tables_t.c.closed.is_(False))
                                              .order_by(tables_t.c.created))]
            return [t for t in (self._load(conn, table_id) for table_id in ids) if t is not None]

    def open_table_ids(self, with_bots: bool = False) -> list[str]:
        """The ids of the open tables, oldest first (``with_bots``: only those with a computer player's seat)."""
        query = select(tables_t.c.id).where(tables_t.c.closed.is_(False)).order_by(tables_t.c.created)
        if with_bots:
            query = query.where(exists().where(seats_t.c.table_id == tables_t.c.id, seats_t.c.kind == "bot"))
        with self.engine.connect() as conn:
            return [r.id for r in conn.execute(query)]

    def idle_open_tables(self, before: float) -> list[str]:
        """The open tables with no stored action since ``before`` (wall-clock seconds; a table without
        actions: since it was made), oldest first."""
        last = (select(actions_t.c.table_id, func.max(actions_t.c.at).label("at"))
                .group_by(actions_t.c.table_id).subquery())
        query = (select(tables_t.c.id).select_from(tables_t.outerjoin(last, last.c.table_id == tables_t.c.id))
                 .where(tables_t.c.closed.is_(False), func.coalesce(last.c.at, tables_t.c.created) < before)
                 .order_by(tables_t.c.created))
        with self.engine.connect() as conn:
            return [r.id for r in conn.execute(query)]

    def lobby_rows(self) -> list[dict[str, Any]]:
        """The open tables as the lobby needs them, oldest first: id, name, settings, seats (position, kind,
        name, bot, taken) and the number of the last deal (0 before the first)."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(tables_t.c.id, tables_t.c.name, tables_t.c.settings)
                                .where(tables_t.c.closed.is_(False)).order_by(tables_t.c.created)).all()
            seats: dict[str, list[dict[str, Any]]] = {}
            for r in conn.execute(select(seats_t.c.table_id, seats_t.c.position, seats_t.c.kind, seats_t.c.name,
                                         seats_t.c.bot, seats_t.c.token_hash).order_by(seats_t.c.position)):
                seats.setdefault(r.table_id, []).append({
                    "position": r.position, "kind": r.kind, "name": r.name, "bot": r.bot,
                    "taken": r.kind == "bot" or r.token_hash is not None})
            deals: dict[str, int] = dict(conn.execute(select(deals_t.c.table_id, func.max(deals_t.c.deal_no))
                                      .group_by(deals_t.c.table_id)).all())
        return [{"id": r.id, "name": r.name, "settings": json.loads(r.settings), "seats": seats.get(r.id, []),
                 "deal_no": deals.get(r.id) or 0} for r in rows]

    def load_table(self, table_id: str, since_deal: int = 1) -> StoredTable | None:
        """One table (closed or not: see ``closed``) with its seats and the deals from ``since_deal`` on,
        or None when there is no such table."""
        with self.engine.connect() as conn:
            return self._load(conn, table_id, since_deal)

    def load_deal(self, table_id: str, deal_no: int) -> StoredDeal | None:
        """One stored deal with its actions, or None."""
        with self.engine.connect() as conn:
            d = conn.execute(select(deals_t).where(deals_t.c.table_id == table_id, deals_t.c.deal_no == deal_no)).first()
            if d is None:
                return None
            rows = conn.execute(
                select(actions_t.c.seat, actions_t.c.token, actions_t.c.stand_in)
                .where(actions_t.c.table_id == table_id, actions_t.c.deal_no == deal_no)
                .order_by(actions_t.c.seq)).all()
            actions = [(a.seat, a.token) for a in rows]
            stand_ins = frozenset(i for i, a in enumerate(rows) if a.stand_in)
        pos = json.loads(d.positions)
        return StoredDeal(deal_no=d.deal_no, dealer=d.dealer, positions=tuple(pos),
                          start=json.loads(d.start), finished=bool(d.finished),
                          result=json.loads(d.result) if d.result else None,
                          sheet_row=json.loads(d.sheet_row) if d.sheet_row else None, actions=actions,
                          stand_ins=stand_ins)

    @staticmethod
    def _load(conn: Connection, table_id: str, since_deal: int = 1) -> StoredTable | None:
        row = conn.execute(select(tables_t).where(tables_t.c.id == table_id)).first()
        if row is None:
            return None
        seats = [dict(r._mapping) for r in conn.execute(
            select(seats_t).where(seats_t.c.table_id == table_id).order_by(seats_t.c.position))]
        for s in seats:
            s.pop("table_id", None)
        actions: dict[int, list[tuple[int, str]]] = {}
        stand_ins: dict[int, set[int]] = {}
        for a in conn.execute(select(actions_t.c.deal_no, actions_t.c.seq, actions_t.c.seat, actions_t.c.token,
                                     actions_t.c.stand_in)
                              .where(actions_t.c.table_id == table_id, actions_t.c.deal_no >= since_deal)
                              .order_by(actions_t.c.deal_no, actions_t.c.seq)):
            actions.setdefault(a.deal_no, []).append((a.seat, a.token))
            if a.stand_in:
                stand_ins.setdefault(a.deal_no, set()).add(a.seq)
        deals = []
        for d in conn.execute(select(deals_t).where(deals_t.c.table_id == table_id, deals_t.c.deal_no >= since_deal)
                              .order_by(deals_t.c.deal_no)):
            pos = json.loads(d.positions)
            deals.append(StoredDeal(
                deal_no=d.deal_no, dealer=d.dealer, positions=tuple(pos),
                start=json.loads(d.start), finished=bool(d.finished),
                result=json.loads(d.result) if d.result else None,
                sheet_row=json.loads(d.sheet_row) if d.sheet_row else None, actions=actions.get(d.deal_no, []),
                stand_ins=frozenset(stand_ins.get(d.deal_no, ()))))
        last = conn.execute(select(deals_t.c.deal_no).where(deals_t.c.table_id == table_id)
                            .order_by(deals_t.c.deal_no.desc()).limit(1)).scalar()
        ready = None
        if last is not None:
            ready = [r.position for r in conn.execute(
                select(ready_t.c.position).where(ready_t.c.table_id == table_id, ready_t.c.deal_no == last))]
        return StoredTable(id=row.id, name=row.name, created=row.created, settings=json.loads(row.settings),
                           seats=seats, deals=deals, ready=ready, closed=bool(row.closed))

    # ------------------------------------------------------ Officers' Skat
    def load_officers_table(self, table_id: str) -> StoredOfficersTable | None:
        """One Officers' Skat table with its current game (closed or not: see ``closed``), or None when
        there is none of that id."""
        with self.engine.connect() as conn:
            row = conn.execute(select(officers_tables_t).where(officers_tables_t.c.id == table_id)).first()
            return None if row is None else self._officers_table(conn, row)

    @staticmethod
    def _officers_table(conn: Connection, row: Any) -> StoredOfficersTable:
        game = conn.execute(select(officers_games_t).where(
            officers_games_t.c.table_id == row.id, officers_games_t.c.game_no == row.game_no)).first()
        if game is None:
            raise ValueError(f"Officers' Skat table {row.id}: game {row.game_no} is missing in the database")
        record = json.loads(game.record)
        record["actions"] = [[a.seat, a.token] for a in conn.execute(
            select(officers_actions_t).where(officers_actions_t.c.table_id == row.id,
                                             officers_actions_t.c.game_no == row.game_no)
            .order_by(officers_actions_t.c.n))]
        return StoredOfficersTable(
            id=row.id, token_hash=row.token_hash, created=row.created, variant=row.variant,
            options=json.loads(row.options), seed=row.seed, bot_seed=row.bot_seed, person=row.person,
            game_no=row.game_no, seq=row.seq, sheet=json.loads(row.sheet), record=record, closed=bool(row.closed))
