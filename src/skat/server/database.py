"""The server's database schema (SQLAlchemy Core tables), its Alembic migrations, the database URLs, and the lock
that keeps a SQLite database to one server process. :mod:`skat.server.store` reads and writes through it."""

from __future__ import annotations

import logging
import os
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    Float,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    false,
    inspect,
    text,
)
from sqlalchemy.engine import Connection, Engine

__all__ = ["StoredTable", "StoredDeal", "StoredOfficersTable", "metadata", "migrate", "default_db_url", "normalize_db_url", "SecondProcessError", "HEAD_REVISION",
           "tables_t", "seats_t", "deals_t", "actions_t", "ready_t", "keeper_lists_t", "keeper_changes_t",
           "tournaments_t", "officers_tables_t", "officers_games_t", "officers_actions_t", "accounts_t",
           "account_sessions_t", "login_failures_t", "player_deals_t", "player_stats_t", "player_days_t", "ratings_t",
           "rating_history_t", "seasons_t", "chat_messages_t", "online_tournaments_t", "dialect_insert"]

log = logging.getLogger("skat.server.database")

HEAD_REVISION = "0010"
"""The newest migration: a database a store opened is at this revision."""
_MIGRATION_LOCK = 7_273_001
"""The PostgreSQL advisory lock key held while one process migrates (the others wait for it)."""

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
    Column("account_id", String(32), nullable=True, index=True),  # the account of the person seated (0004)
    Column("guest_hash", String(64), nullable=True, index=True),  # sha256 of the browser's guest id (0004)
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
    Column("stand_in", Boolean, nullable=False, server_default=false()),  # a computer decided for a person (0007)
)
ready_t = Table(
    "skat_ready", metadata,
    Column("table_id", String(32), primary_key=True),
    Column("deal_no", Integer, primary_key=True),  # the deal that ended; the next starts when all are ready
    Column("position", Integer, primary_key=True),
)

keeper_lists_t = Table(
    "keeper_lists", metadata,  # the score keeper's list of a real table (skat.server.keeper)
    Column("id", String(32), primary_key=True),
    Column("name", String(200), nullable=False),
    Column("created", Float, nullable=False),
    Column("updated", Float, nullable=False),
    Column("key_hash", String(64), nullable=False),
    Column("data", Text, nullable=False),  # ScoreKeeper.to_json(), every game's history included
    Column("seq", Integer, nullable=False),  # accepted changes so far
    Column("tournament_id", String(32), nullable=True, index=True),  # a tournament table's list
    Column("series", Integer, nullable=True),
    Column("table_no", Integer, nullable=True),
)
keeper_changes_t = Table(
    "keeper_changes", metadata,  # each accepted change's id with its answer: a change sent again changes nothing
    Column("list_id", String(32), primary_key=True),
    Column("change_id", String(64), primary_key=True),
    Column("seq", Integer, nullable=False),
    Column("answer", Text, nullable=False),
)
tournaments_t = Table(
    "tournaments", metadata,  # a club tournament: players, settings and draws (its tables' lists are keeper_lists)
    Column("id", String(32), primary_key=True),
    Column("name", String(200), nullable=False),
    Column("created", Float, nullable=False),
    Column("updated", Float, nullable=False),
    Column("key_hash", String(64), nullable=False),
    Column("data", Text, nullable=False),
    Column("seq", Integer, nullable=False),
)
seasons_t = Table(
    "seasons", metadata,  # a club's season: rule, members, links, evenings (skat.table.season, docs/season.md)
    Column("id", String(32), primary_key=True),
    Column("name", String(200), nullable=False),
    Column("created", Float, nullable=False),
    Column("updated", Float, nullable=False),
    Column("key_hash", String(64), nullable=False),
    Column("data", Text, nullable=False),
    Column("seq", Integer, nullable=False),
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

accounts_t = Table(
    "accounts", metadata,  # people's accounts (skat.server.accounts, docs/accounts.md)
    Column("id", String(32), primary_key=True),
    Column("name", String(200), nullable=False),  # as typed (trimmed)
    Column("name_key", String(200), nullable=False, unique=True, index=True),  # NFKC, case folded: unique
    Column("password_hash", String(200), nullable=False),  # Argon2id
    Column("created", Float, nullable=False),
    Column("disabled", Boolean, nullable=False, default=False, server_default=false()),
)
account_sessions_t = Table(
    "account_sessions", metadata,  # signed-in browsers: the token's sha256, never the token
    Column("token_hash", String(64), primary_key=True),
    Column("account_id", String(32), nullable=False, index=True),
    Column("created", Float, nullable=False),
    Column("last_seen", Float, nullable=False),
    Column("expires", Float, nullable=False),
)
login_failures_t = Table(
    "login_failures", metadata,  # wrong passwords by account (a:ID) and client address (ip:ADDR), for throttling
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("key", String(200), nullable=False, index=True),
    Column("at", Float, nullable=False),
)

# a player's history, statistics and rating (skat.server.history, docs/history.md); a player is ``a:ACCOUNT``,
# ``g:GUEST_HASH`` or ``b:LEVEL`` (a computer player)
follows_t = Table(
    "follows", metadata,  # a person follows another (skat.server.friends, docs/friends.md; 0010)
    Column("follower", String(32), primary_key=True),
    Column("followed", String(32), primary_key=True),
    Column("at", Float, nullable=False),
    Index("ix_follows_followed", "followed"),
)
blocks_t = Table(
    "blocks", metadata,  # a person blocks another: no joining the blocker's tables, no messages or invitations
    Column("blocker", String(32), primary_key=True),
    Column("blocked", String(32), primary_key=True),
    Column("at", Float, nullable=False),
    Index("ix_blocks_blocked", "blocked"),
)
presence_t = Table(
    "presence", metadata,  # when a person was last seen, and at which table (null: not at a table)
    Column("account_id", String(32), primary_key=True),
    Column("table_id", String(32), nullable=True),
    Column("at", Float, nullable=False),
)
invitations_t = Table(
    "invitations", metadata,  # a person invites another to a table (kept an hour)
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("from_account", String(32), nullable=False),
    Column("to_account", String(32), nullable=False),
    Column("table_id", String(32), nullable=False),
    Column("invite", String(64), nullable=True),  # a private table's invite secret, for the invited person only
    Column("at", Float, nullable=False),
    Index("ix_invitations_to_account", "to_account", "at"),
)
player_deals_t = Table(
    "player_deals", metadata,  # one row per finished deal and table position
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("player", String(80), nullable=False),
    Column("table_id", String(32), nullable=False),
    Column("deal_no", Integer, nullable=False),
    Column("position", Integer, nullable=False),
    Column("game_no", Integer, nullable=False),
    Column("at", Float, nullable=False),
    Column("variant", String(20), nullable=False),
    Column("ruleset", String(40), nullable=False),
    Column("game", String(20), nullable=False),  # the sheet's game column: clubs ... null, ramsch, passed, ...
    Column("contract", String(80), nullable=False),  # in words: "grand hand", "passed in"
    Column("role", String(10), nullable=False),  # declarer | defender | ramsch | passed | out
    Column("seat", Integer, nullable=True),  # 0 forehand, 1 middlehand, 2 rearhand; null when sitting out
    Column("bid", Integer, nullable=False),
    Column("won", Boolean, nullable=True),  # the player's side won; null: passed in, sitting out
    Column("score", Integer, nullable=False),  # the list score this deal gave the player
    Column("sf", Integer, nullable=False),  # the Seeger-Fabian points this deal gave the player
    Column("kontra", Integer, nullable=False),
    Column("overbid", Boolean, nullable=False),
    Column("stand_in", Integer, nullable=False, server_default="0"),  # decisions a computer made for the player (0007)
    Index("ix_player_deals_player_at", "player", "at"),
    Index("ix_player_deals_deal", "table_id", "deal_no", "position", unique=True),
)
player_stats_t = Table(
    "player_stats", metadata,  # counters kept up to date as deals finish (skat.server.history.count_deal)
    Column("player", String(80), primary_key=True),
    Column("scope", String(80), primary_key=True),  # "": the player's own; a person's key: at that person's tables
    Column("games", Integer, nullable=False),
    Column("data", Text, nullable=False),  # the counters (JSON)
    Column("updated", Float, nullable=False),
    Index("ix_player_stats_scope", "scope"),  # the computers' counters at a person's tables
)
player_days_t = Table(
    "player_days", metadata,  # per player and day (UTC): the last 30 days' leaderboard
    Column("player", String(80), primary_key=True),
    Column("day", Integer, primary_key=True),  # days since 1970-01-01
    Column("games", Integer, nullable=False),
    Column("sf", Integer, nullable=False),
    Column("score", Integer, nullable=False),
    Index("ix_player_days_day", "day"),
)
ratings_t = Table(
    "ratings", metadata,  # Plackett-Luce over each list's order by SF points (docs/ratings.md)
    Column("player", String(80), primary_key=True),
    Column("kind", String(10), nullable=False),  # person | guest | computer
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("conservative", Float, nullable=False),  # mu - 3 sigma: the leaderboard's order
    Column("lists", Integer, nullable=False),
    Column("games", Integer, nullable=False),
    Column("updated", Float, nullable=False),
    Index("ix_ratings_kind_conservative", "kind", "conservative"),
)
rating_history_t = Table(
    "rating_history", metadata,  # a player's rating after each rated list
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("player", String(80), nullable=False),
    Column("at", Float, nullable=False),
    Column("table_id", String(32), nullable=False),
    Column("first_game", Integer, nullable=False),
    Column("last_game", Integer, nullable=False),
    Column("sf", Integer, nullable=False),  # the player's SF points in the list
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Index("ix_rating_history_player_at", "player", "at"),
)

chat_messages_t = Table(
    "chat_messages", metadata,  # chat at a table and in the lobby (skat.server.chat, docs/chat.md; 0008)
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("room", String(40), nullable=False),  # a table's id, or "lobby"
    Column("channel", String(16), nullable=False),  # players | spectators | lobby
    Column("author", String(80), nullable=False),  # a:ACCOUNT, g:GUEST_HASH or s:TABLE:POSITION; never a token
    Column("name", String(100), nullable=False),
    Column("position", Integer, nullable=True),  # the author's table position; null: a spectator, the lobby
    Column("text", Text, nullable=True),  # what was written (plain text), or null for a preset phrase
    Column("phrase", String(40), nullable=True),  # a preset phrase's key (skat.server.chat.PHRASES)
    Column("at", Float, nullable=False),
    Column("deleted", Boolean, nullable=False, server_default=false()),  # deleted by the operator
    Index("ix_chat_messages_room_id", "room", "id"),
    Index("ix_chat_messages_at", "at"),
)

online_tournaments_t = Table(
    "online_tournaments", metadata,  # an online tournament at server tables (skat.server.online; 0009)
    Column("id", String(32), primary_key=True),
    Column("name", String(200), nullable=False),
    Column("created", Float, nullable=False),
    Column("updated", Float, nullable=False),
    Column("starts_at", Float, nullable=False),
    Column("status", String(16), nullable=False),  # registering | running | finished | cancelled
    Column("key_hash", String(64), nullable=False),  # the director key's sha256, never the key
    Column("data", Text, nullable=False),  # settings, players, rounds with their tables, the Tournament's JSON
    Column("seq", Integer, nullable=False),  # every change adds one: a change is written only over the seq it read
    Index("ix_online_tournaments_status_starts", "status", "starts_at"),
)


def dialect_insert(conn: Connection, table: Any) -> Any:
    """An ``INSERT`` of ``table`` in the connection's dialect (PostgreSQL or SQLite), for ``ON CONFLICT`` clauses."""
    if conn.dialect.name == "postgresql":
        from sqlalchemy.dialects.postgresql import insert as pg_insert
        return pg_insert(table)
    from sqlalchemy.dialects.sqlite import insert as sqlite_insert
    return sqlite_insert(table)


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


# ------------------------------------------------------------------ migrations
def migrate(engine: Engine) -> None:
    """Bring the database to :data:`HEAD_REVISION` with the Alembic migrations (one process at a time).

    A database made by a server before migrations existed (its tables are there, Alembic's version table
    is not) is stamped with the baseline
    revision 0001 first (:func:`_complete_baseline`); then every newer revision runs."""
    from alembic import command
    from alembic.config import Config
    from alembic.migration import MigrationContext

    config = Config()
    config.set_main_option("script_location", "skat.server:migrations")
    with engine.begin() as conn:
        if conn.dialect.name == "postgresql":
            conn.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": _MIGRATION_LOCK})
        config.attributes["connection"] = conn
        names = set(inspect(conn).get_table_names())
        if "alembic_version" not in names and names & set(_BASELINE_TABLES):
            _complete_baseline(conn, names)
            command.stamp(config, "0001")
        before = MigrationContext.configure(conn).get_current_revision()
        command.upgrade(config, "head")
        after = MigrationContext.configure(conn).get_current_revision()
    if before != after:
        where = engine.url.render_as_string(hide_password=True)
        if before is None:
            log.info("made the database's tables (schema revision %s) in %s", after, where)
        else:
            log.info("upgraded the database from schema revision %s to %s in %s", before, after, where)


_BASELINE_TABLES = ("skat_tables", "skat_seats", "skat_deals", "skat_actions", "officers_tables", "officers_games",
                    "officers_actions")
"""The tables of revision 0001, the schema of the servers before migrations."""


def _complete_baseline(conn: Connection, names: set[str]) -> None:
    """A database made before migrations may lack tables of the baseline (one made before Officers' Skat
    tables existed) or ``officers_tables.closed`` (made before they could be closed): add them, every
    table staying open, so that it is the baseline revision."""
    for name in _BASELINE_TABLES:
        if name not in names:
            metadata.tables[name].create(conn)
    if any(c["name"] == "closed" for c in inspect(conn).get_columns("officers_tables")):
        return
    default = "0" if conn.dialect.name == "sqlite" else "false"
    conn.execute(text(f"ALTER TABLE officers_tables ADD COLUMN closed BOOLEAN NOT NULL DEFAULT {default}"))


# ------------------------------------------------------- one process on SQLite
class SecondProcessError(RuntimeError):
    """A second server process was started on a SQLite database another process serves."""


_SERVED: dict[str, tuple[int, int]] = {}
"""SQLite files this process serves: path -> (lock file descriptor, number of stores)."""
_SERVED_LOCK = threading.Lock()


def _serve_sqlite(path: str) -> None:
    """Hold an exclusive lock beside the SQLite file for as long as this process serves it."""
    import fcntl

    with _SERVED_LOCK:
        held = _SERVED.get(path)
        if held is not None:
            _SERVED[path] = (held[0], held[1] + 1)
            return
        fd = os.open(path + ".serving", os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            raise SecondProcessError(
                f"another server process serves the SQLite database {path} already; SQLite is for one process. "
                "Stop the other process, or serve several processes from PostgreSQL "
                "(--db postgresql://..., docs/deployment.md)") from None
        _SERVED[path] = (fd, 1)


def _release_sqlite(path: str) -> None:
    with _SERVED_LOCK:
        held = _SERVED.get(path)
        if held is None:
            return
        if held[1] > 1:
            _SERVED[path] = (held[0], held[1] - 1)
            return
        del _SERVED[path]
        os.close(held[0])  # releases the lock


# --------------------------------------------------------------------- records
@dataclass
class StoredDeal:
    deal_no: int
    dealer: int
    positions: tuple[int, ...]
    start: dict[str, Any]
    finished: bool
    result: dict[str, Any] | None
    sheet_row: dict[str, Any] | None
    actions: list[tuple[int, str]]
    stand_ins: frozenset[int] = frozenset()
    """The numbers (``seq``) of the actions a computer stand-in made for a person (docs/clock.md)."""


@dataclass
class StoredTable:
    id: str
    name: str
    created: float
    settings: dict[str, Any]
    seats: list[dict[str, Any]]
    deals: list[StoredDeal]
    ready: list[int] | None = None
    """Positions ready for the next deal after the last deal (None: the last deal is not over)."""
    closed: bool = False


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

