"""Persistence of tables, seats, deals and every action (SQLAlchemy; SQLite or PostgreSQL).

Each action is written and committed before the server acknowledges it, so a table can be
rebuilt after a crash by replaying the stored actions of its current deal.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import (
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
    insert,
    select,
    update,
)
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import DBAPIError

__all__ = ["Store", "StoredTable", "StoredDeal", "default_db_url", "normalize_db_url"]

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
        self._conn: Connection | None = None
        self._insert_action = insert(actions_t)

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None
        self.engine.dispose()

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
