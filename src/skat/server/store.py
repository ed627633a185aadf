"""Persistence of tables, seats, deals and every action (SQLAlchemy; SQLite or PostgreSQL).

Each action is written and committed before the server acknowledges it, so a table can be
rebuilt after a crash by replaying the stored actions of its current deal.

Officers' Skat tables (:mod:`skat.server.officers`) have their own three tables: ``officers_tables``
(token hash, variant, options, seed, the person's seat, game number, seq, the series' sheet),
``officers_games`` (each game as an :meth:`skat.variants.officers.OfficersGame.to_record` record: the deal
when it starts, the whole record with the result when it ends) and ``officers_actions`` (every action
of every game, in order). They are created beside the Skat tables by ``create_all``. A database made
before Officers' Skat tables could be closed gets their ``closed`` column when a :class:`Store` opens it
(every table it holds stays open); there is no other migration.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    Float,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    create_engine,
    event,
    false,
    insert,
    inspect,
    select,
    text,
    update,
)
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import DBAPIError, OperationalError, ProgrammingError

__all__ = ["Store", "StoredTable", "StoredDeal", "StoredOfficersTable", "OfficersTableClosedError", "default_db_url",
           "normalize_db_url"]

metadata = MetaData()

tables_t = Table(
    "skat_tables", metadata,
    Column("id", String(32), primary_key=True),
    Column("name", String(200), nullable=False),
    Column("created", Float, nullable=False),
    Column("settings", Text, nullable=False),
    Column("closed", Boolean, nullable=False, default=False),
)
seats_t = Table(
    "skat_seats", metadata,
    Column("table_id", String(32), primary_key=True),
    Column("position", Integer, primary_key=True),
    Column("kind", String(16), nullable=False),  # human | bot
    Column("name", String(100), nullable=False),
    Column("bot", String(40), nullable=True),
    Column("token_hash", String(64), nullable=True),
)
deals_t = Table(
    "skat_deals", metadata,
    Column("table_id", String(32), primary_key=True),
    Column("deal_no", Integer, primary_key=True),
    Column("dealer", Integer, nullable=False),
    Column("positions", String(40), nullable=False),
    Column("start", Text, nullable=False),  # the deal: ruleset, seed, hands, skat (JSON)
    Column("finished", Boolean, nullable=False, default=False),
    Column("result", Text, nullable=True),
    Column("sheet_row", Text, nullable=True),
)
actions_t = Table(
    "skat_actions", metadata,
    Column("table_id", String(32), primary_key=True),
    Column("deal_no", Integer, primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("seat", Integer, nullable=False),
    Column("token", String(80), nullable=False),
    Column("at", Float, nullable=False),
)

officers_tables_t = Table(
    "officers_tables", metadata,
    Column("id", String(32), primary_key=True),
    Column("token_hash", String(64), nullable=False),
    Column("created", Float, nullable=False),
    Column("updated", Float, nullable=False),
    Column("variant", String(20), nullable=False),
    Column("options", Text, nullable=False),  # the table's options as asked for (JSON)
    Column("seed", BigInteger, nullable=True),  # game n is dealt from seed + n - 1; null: secret deals
    Column("bot_seed", BigInteger, nullable=False),  # the computer's decisions are drawn from it
    Column("person", Integer, nullable=False),  # the person's seat in the current game (0 forehand, 1 dealer)
    Column("game_no", Integer, nullable=False),
    Column("seq", Integer, nullable=False),
    Column("moves", Integer, nullable=False),  # actions stored in the current game
    Column("sheet", Text, nullable=False),  # the series' sheet: [[person, computer], ...] (JSON)
    # closed for good by its player: not rebuilt at start-up, no more actions; its games and actions stay
    Column("closed", Boolean, nullable=False, default=False, server_default=false()),
)
officers_games_t = Table(
    "officers_games", metadata,
    Column("table_id", String(32), primary_key=True),
    Column("game_no", Integer, primary_key=True),
    Column("person", Integer, nullable=False),
    Column("record", Text, nullable=False),  # OfficersGame.to_record(): the deal at the start, all at the end
    Column("finished", Boolean, nullable=False, default=False),
)
officers_actions_t = Table(
    "officers_actions", metadata,
    Column("table_id", String(32), primary_key=True),
    Column("game_no", Integer, primary_key=True),
    Column("n", Integer, primary_key=True),  # 0, 1, 2, ... in the order the actions were applied
    Column("seat", Integer, nullable=False),
    Column("token", String(80), nullable=False),
    Column("at", Float, nullable=False),
)


def default_db_url() -> str:
    """A SQLite file in the user's data directory."""
    from platformdirs import user_data_dir

    path = Path(user_data_dir("skat", appauthor=False))
    path.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{path / 'skat.sqlite'}"


def normalize_db_url(url: str) -> str:
    """Accept ``postgresql://`` and ``postgres://`` (use psycopg 3) and plain file paths (SQLite)."""
    if url.startswith("postgres://"):
        url = "postgresql://" + url[len("postgres://"):]
    if url.startswith("postgresql://"):
        return "postgresql+psycopg://" + url[len("postgresql://"):]
    if "://" not in url:
        return f"sqlite:///{Path(url).expanduser().resolve()}"
    return url


@dataclass
class StoredDeal:
    deal_no: int
    dealer: int
    positions: tuple[int, int, int]
    start: dict[str, Any]
    finished: bool
    result: dict[str, Any] | None
    sheet_row: dict[str, Any] | None
    actions: list[tuple[int, str]]


@dataclass
class StoredTable:
    id: str
    name: str
    created: float
    settings: dict[str, Any]
    seats: list[dict[str, Any]]
    deals: list[StoredDeal]


@dataclass
class StoredOfficersTable:
    """An Officers' Skat table as stored: its settings, the sheet, and its current game's record."""

    id: str
    token_hash: str
    created: float
    variant: str
    options: dict[str, Any]
    seed: int | None
    bot_seed: int
    person: int
    game_no: int
    seq: int
    sheet: list[list[int]]
    record: dict[str, Any]
    """The current game's record with every stored action (``OfficersGame.from_record`` rebuilds it)."""
    closed: bool = False
    """Whether its player closed the table (then nothing more may be stored for it)."""


class OfficersTableClosedError(Exception):
    """A write for an Officers' Skat table that was closed (by this or another server process), or that
    is not in the database; the transaction was rolled back, so nothing changed."""

    def __init__(self, table_id: str) -> None:
        super().__init__(f"the Officers' Skat table {table_id!r} is closed (or not in the database): nothing was stored")
        self.table_id = table_id


class Store:
    """The database behind a server: one engine, short transactions, committed writes."""

    def __init__(self, url: str) -> None:
        self.url = normalize_db_url(url)
        kwargs: dict[str, Any] = {"future": True}
        if self.url.startswith("sqlite"):
            kwargs["connect_args"] = {"check_same_thread": False}
        else:
            kwargs["pool_pre_ping"] = True
        self.engine: Engine = create_engine(self.url, **kwargs)
        if self.url.startswith("sqlite"):
            @event.listens_for(self.engine, "connect")
            def _sqlite_pragmas(dbapi_conn, _record):  # pragma: no cover - trivial
                cur = dbapi_conn.cursor()
                cur.execute("PRAGMA journal_mode=WAL")
                cur.execute("PRAGMA synchronous=NORMAL")
                cur.close()
        metadata.create_all(self.engine)
        self._add_officers_closed_column()
        self._conn: Connection | None = None
        self._insert_action = insert(actions_t)

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None
        self.engine.dispose()

    def _add_officers_closed_column(self) -> None:
        """A database made before Officers' Skat tables could be closed lacks ``officers_tables.closed``
        (``create_all`` creates missing tables, never missing columns): add it; every table stays open."""
        def has_column() -> bool:
            return any(c["name"] == "closed" for c in inspect(self.engine).get_columns("officers_tables"))

        if has_column():
            return
        default = "0" if self.engine.dialect.name == "sqlite" else "false"
        try:
            with self.engine.begin() as conn:
                conn.execute(text(f"ALTER TABLE officers_tables ADD COLUMN closed BOOLEAN NOT NULL DEFAULT {default}"))
        except (OperationalError, ProgrammingError):
            if not has_column():  # else another server process added it at the same moment
                raise

    def _writer(self) -> Connection:
        """One long-lived connection for the writes of the event loop (no pool check-out per action)."""
        if self._conn is None or self._conn.closed or self._conn.invalidated:
            self._conn = self.engine.connect()
        return self._conn

    # ------------------------------------------------------------- writes
    def create_table(self, table_id: str, name: str, settings: dict[str, Any], seats: list[dict[str, Any]]) -> None:
        with self.engine.begin() as conn:
            conn.execute(insert(tables_t).values(
                id=table_id, name=name, created=time.time(), settings=json.dumps(settings), closed=False))
            for s in seats:
                conn.execute(insert(seats_t).values(table_id=table_id, **s))

    def update_seat(self, table_id: str, position: int, **values: Any) -> None:
        with self.engine.begin() as conn:
            conn.execute(update(seats_t).where(seats_t.c.table_id == table_id, seats_t.c.position == position)
                         .values(**values))

    def start_deal(self, table_id: str, deal_no: int, dealer: int, positions: tuple[int, int, int],
                   start: dict[str, Any]) -> None:
        with self.engine.begin() as conn:
            conn.execute(insert(deals_t).values(
                table_id=table_id, deal_no=deal_no, dealer=dealer, positions=json.dumps(list(positions)),
                start=json.dumps(start), finished=False))

    def add_action(self, table_id: str, deal_no: int, seq: int, seat: int, token: str) -> None:
        """Store one action (committed when this returns)."""
        row = {"table_id": table_id, "deal_no": deal_no, "seq": seq, "seat": seat, "token": token, "at": time.time()}
        for attempt in (1, 2):
            conn = self._writer()
            try:
                with conn.begin():
                    conn.execute(self._insert_action, row)
                return
            except DBAPIError as exc:
                if attempt == 2 or not exc.connection_invalidated:
                    raise
                self._conn = None  # the database dropped the connection: reconnect once

    def finish_deal(self, table_id: str, deal_no: int, result: dict[str, Any], sheet_row: dict[str, Any]) -> None:
        with self.engine.begin() as conn:
            conn.execute(update(deals_t).where(deals_t.c.table_id == table_id, deals_t.c.deal_no == deal_no)
                         .values(finished=True, result=json.dumps(result), sheet_row=json.dumps(sheet_row)))

    def close_table(self, table_id: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(update(tables_t).where(tables_t.c.id == table_id).values(closed=True))

    # -------------------------------------------------------------- reads
    def load_open_tables(self) -> list[StoredTable]:
        """Every table that is not closed, with its seats, deals and actions."""
        out = []
        with self.engine.connect() as conn:
            rows = conn.execute(select(tables_t).where(tables_t.c.closed.is_(False))
                                .order_by(tables_t.c.created)).all()
            for row in rows:
                seats = [dict(r._mapping) for r in conn.execute(
                    select(seats_t).where(seats_t.c.table_id == row.id).order_by(seats_t.c.position))]
                for s in seats:
                    s.pop("table_id", None)
                deals = []
                for d in conn.execute(select(deals_t).where(deals_t.c.table_id == row.id)
                                      .order_by(deals_t.c.deal_no)):
                    acts = [(a.seat, a.token) for a in conn.execute(
                        select(actions_t).where(actions_t.c.table_id == row.id, actions_t.c.deal_no == d.deal_no)
                        .order_by(actions_t.c.seq))]
                    pos = json.loads(d.positions)
                    deals.append(StoredDeal(
                        deal_no=d.deal_no, dealer=d.dealer, positions=(pos[0], pos[1], pos[2]),
                        start=json.loads(d.start), finished=bool(d.finished),
                        result=json.loads(d.result) if d.result else None,
                        sheet_row=json.loads(d.sheet_row) if d.sheet_row else None, actions=acts))
                out.append(StoredTable(id=row.id, name=row.name, created=row.created,
                                       settings=json.loads(row.settings), seats=seats, deals=deals))
        return out

    # ------------------------------------------------------ Officers' Skat
    def create_officers_table(self, table_id: str, *, token_hash: str, variant: str, options: dict[str, Any],
                              seed: int | None, bot_seed: int, person: int, record: dict[str, Any]) -> None:
        """A new Officers' Skat table and its first game (``record``: the deal, no actions yet)."""
        now = time.time()
        with self.engine.begin() as conn:
            conn.execute(insert(officers_tables_t).values(
                id=table_id, token_hash=token_hash, created=now, updated=now, variant=variant,
                options=json.dumps(options), seed=seed, bot_seed=bot_seed, person=person, game_no=1, seq=0,
                moves=0, sheet="[]", closed=False))
            conn.execute(insert(officers_games_t).values(
                table_id=table_id, game_no=1, person=person, record=json.dumps(record), finished=False))

    def add_officers_action(self, table_id: str, game_no: int, n: int, seat: int, token: str, *,
                            seq: int | None = None, finished: dict[str, Any] | None = None,
                            sheet: list[list[int]] | None = None) -> None:
        """Store action ``n`` of a game (committed when this returns), in the same transaction the table's
        new ``seq`` and, when the action ended the game, the game's whole ``finished`` record and the ``sheet``.

        Action ``n`` of a game is stored once: a second writer of the same ``n`` gets an IntegrityError.
        A closed table takes no action: :class:`OfficersTableClosedError`, nothing stored."""
        now = time.time()
        with self.engine.begin() as conn:
            conn.execute(insert(officers_actions_t).values(
                table_id=table_id, game_no=game_no, n=n, seat=seat, token=token, at=now))
            if finished is not None:
                conn.execute(update(officers_games_t)
                             .where(officers_games_t.c.table_id == table_id, officers_games_t.c.game_no == game_no)
                             .values(finished=True, record=json.dumps(finished)))
            values: dict[str, Any] = {"updated": now, "moves": n + 1}
            if seq is not None:
                values["seq"] = seq
            if sheet is not None:
                values["sheet"] = json.dumps(sheet)
            self._update_open_officers_table(conn, table_id, values)

    def next_officers_game(self, table_id: str, game_no: int, person: int, seq: int, record: dict[str, Any]) -> None:
        """The table's next game starts: its deal (``record``), the person's new seat, the table's ``seq``
        (a closed table gets none: :class:`OfficersTableClosedError`, nothing stored)."""
        with self.engine.begin() as conn:
            conn.execute(insert(officers_games_t).values(
                table_id=table_id, game_no=game_no, person=person, record=json.dumps(record), finished=False))
            self._update_open_officers_table(conn, table_id, {
                "game_no": game_no, "person": person, "seq": seq, "moves": 0, "updated": time.time()})

    @staticmethod
    def _update_open_officers_table(conn: Connection, table_id: str, values: dict[str, Any]) -> None:
        """Update the table's row unless it is closed; else raise, so that the whole transaction rolls back."""
        done = conn.execute(update(officers_tables_t).where(officers_tables_t.c.id == table_id,
                                                            officers_tables_t.c.closed.is_(False)).values(**values))
        if done.rowcount != 1:
            raise OfficersTableClosedError(table_id)

    def close_officers_table(self, table_id: str) -> bool:
        """Close an Officers' Skat table for good (one transaction); its games and actions stay stored.

        Returns False, changing nothing, when it was closed already (by another server process, say)
        or there is no such table."""
        with self.engine.begin() as conn:
            done = conn.execute(update(officers_tables_t).where(officers_tables_t.c.id == table_id,
                                                                officers_tables_t.c.closed.is_(False))
                                .values(closed=True, updated=time.time()))
            return done.rowcount == 1

    def officers_version(self, table_id: str) -> tuple[int, int, bool] | None:
        """(game number, actions stored in that game, closed) of an Officers' Skat table: another server
        process changed (or closed) the table when this differs from what a process holds in memory."""
        with self.engine.connect() as conn:
            row = conn.execute(select(officers_tables_t.c.game_no, officers_tables_t.c.moves,
                                      officers_tables_t.c.closed)
                               .where(officers_tables_t.c.id == table_id)).first()
        return None if row is None else (row.game_no, row.moves, bool(row.closed))

    def load_officers_table(self, table_id: str) -> StoredOfficersTable | None:
        """One Officers' Skat table with its current game (closed or not: see ``closed``), or None when
        there is none of that id."""
        with self.engine.connect() as conn:
            row = conn.execute(select(officers_tables_t).where(officers_tables_t.c.id == table_id)).first()
            return None if row is None else self._officers_table(conn, row)

    def load_officers_tables(self, limit: int | None = None) -> list[StoredOfficersTable]:
        """The open (not closed) Officers' Skat tables, oldest first; with ``limit`` only the ``limit`` most
        recently used."""
        with self.engine.connect() as conn:
            query = (select(officers_tables_t).where(officers_tables_t.c.closed.is_(False))
                     .order_by(officers_tables_t.c.updated.desc()))
            if limit is not None:
                query = query.limit(limit)
            rows = conn.execute(query).all()
            return [self._officers_table(conn, row) for row in reversed(rows)]

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
