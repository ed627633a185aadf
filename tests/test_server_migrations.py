"""The database schema is kept by Alembic migrations: a new database, one made before migrations, and the
migrations agree with the tables the code uses."""

from __future__ import annotations

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import create_engine, inspect, text

from skat.server.store import _BASELINE_TABLES, HEAD_REVISION, SecondProcessError, Store, metadata, normalize_db_url
from test_server_support import postgres  # noqa: F401 - the fixture


def _revision(store: Store) -> str:
    with store.engine.connect() as conn:
        return conn.execute(text("SELECT version_num FROM alembic_version")).scalar_one()


@pytest.mark.parametrize("db", ["sqlite", "postgresql"])
def test_a_new_database_is_migrated_to_the_head_and_matches_the_code(tmp_path, request, db):
    url = f"sqlite:///{tmp_path / 'new.sqlite'}" if db == "sqlite" else request.getfixturevalue("postgres").new_database()
    store = Store(url)
    try:
        assert _revision(store) == HEAD_REVISION
        with store.engine.connect() as conn:
            diff = compare_metadata(MigrationContext.configure(conn), metadata)
        assert diff == [], f"the migrations and store.py's tables differ: {diff}"
    finally:
        store.close()
    again = Store(url)  # opening it again runs nothing
    assert _revision(again) == HEAD_REVISION
    again.close()


def test_a_database_made_before_migrations_is_stamped_and_upgraded(tmp_path):
    url = normalize_db_url(str(tmp_path / "old.sqlite"))
    engine = create_engine(url)
    old = [metadata.tables[name] for name in _BASELINE_TABLES]  # the schema before migrations
    metadata.create_all(engine, tables=old)
    with engine.begin() as conn:
        conn.execute(text("INSERT INTO skat_tables (id, name, created, settings, closed) "
                          "VALUES ('t1', 'Old', 1.0, '{}', 0)"))
    engine.dispose()
    store = Store(url)
    try:
        assert _revision(store) == HEAD_REVISION
        assert "skat_ready" in inspect(store.engine).get_table_names()
        with store.engine.connect() as conn:  # the old rows stay
            assert conn.execute(text("SELECT name FROM skat_tables")).scalars().all() == ["Old"]
    finally:
        store.close()


def test_a_second_server_process_on_one_sqlite_file_is_refused(tmp_path):
    import subprocess
    import sys

    url = f"sqlite:///{tmp_path / 'one.sqlite'}"
    serving = Store(url, serve=True)
    try:
        also_here = Store(url, serve=True)  # the same process may open it again (an app and the CLI)
        also_here.close()
        other = subprocess.run(
            [sys.executable, "-c", f"from skat.server.store import Store; Store({url!r}, serve=True)"],
            capture_output=True, text=True, timeout=60)
        assert other.returncode != 0
        assert SecondProcessError.__name__ in other.stderr and "SQLite is for one process" in other.stderr
        assert "PostgreSQL" in other.stderr
        readonly = subprocess.run(  # a store that does not serve (a script reading records) may open it
            [sys.executable, "-c", f"from skat.server.store import Store; Store({url!r}).close()"],
            capture_output=True, text=True, timeout=60)
        assert readonly.returncode == 0, readonly.stderr
    finally:
        serving.close()
    after = subprocess.run(
        [sys.executable, "-c", f"from skat.server.store import Store; Store({url!r}, serve=True).close()"],
        capture_output=True, text=True, timeout=60)
    assert after.returncode == 0, after.stderr


# ------------------------------------------------------------------ downgrade
BASELINE = set(_BASELINE_TABLES)
EXPECTED_TABLES = {  # what each revision's docstring says it adds
    None: set(),
    "0001": BASELINE,
    "0002": BASELINE | {"skat_ready"},
    "0003": BASELINE | {"skat_ready", "keeper_lists", "keeper_changes", "tournaments"},
    "0004": BASELINE | {"skat_ready", "keeper_lists", "keeper_changes", "tournaments", "accounts", "account_sessions",
                        "login_failures"},
    "0005": BASELINE | {"skat_ready", "keeper_lists", "keeper_changes", "tournaments", "accounts", "account_sessions",
                        "login_failures", "player_deals", "player_stats", "player_days", "ratings", "rating_history"},
    "0006": BASELINE | {"skat_ready", "keeper_lists", "keeper_changes", "tournaments", "accounts", "account_sessions",
                        "login_failures", "player_deals", "player_stats", "player_days", "ratings", "rating_history",
                        "seasons"},
    "0007": BASELINE | {"skat_ready", "keeper_lists", "keeper_changes", "tournaments", "accounts", "account_sessions",
                        "login_failures", "player_deals", "player_stats", "player_days", "ratings", "rating_history",
                        "seasons"},  # columns only: skat_actions.stand_in, player_deals.stand_in
    "0008": BASELINE | {"skat_ready", "keeper_lists", "keeper_changes", "tournaments", "accounts", "account_sessions",
                        "login_failures", "player_deals", "player_stats", "player_days", "ratings", "rating_history",
                        "seasons", "chat_messages"},
    "0009": BASELINE | {"skat_ready", "keeper_lists", "keeper_changes", "tournaments", "accounts", "account_sessions",
                        "login_failures", "player_deals", "player_stats", "player_days", "ratings", "rating_history",
                        "seasons", "chat_messages", "online_tournaments"},
    "0010": BASELINE | {"skat_ready", "keeper_lists", "keeper_changes", "tournaments", "accounts", "account_sessions",
                        "login_failures", "player_deals", "player_stats", "player_days", "ratings", "rating_history",
                        "seasons", "chat_messages", "online_tournaments", "follows", "blocks", "presence",
                        "invitations"},
}
EXPECTED_INDEXES = {  # the indexes of the head revision
    "keeper_lists": {"ix_keeper_lists_tournament_id"},
    "skat_seats": {"ix_skat_seats_account_id", "ix_skat_seats_guest_hash"},
    "accounts": {"ix_accounts_name_key"},
    "player_deals": {"ix_player_deals_player_at", "ix_player_deals_deal"},
    "player_days": {"ix_player_days_day"},
    "player_stats": {"ix_player_stats_scope"},
    "ratings": {"ix_ratings_kind_conservative"},
    "rating_history": {"ix_rating_history_player_at"},
    "chat_messages": {"ix_chat_messages_room_id", "ix_chat_messages_at"},
    "online_tournaments": {"ix_online_tournaments_status_starts"},
    "follows": {"ix_follows_followed"},
    "blocks": {"ix_blocks_blocked"},
    "invitations": {"ix_invitations_to_account"},
}


def _config():
    """Alembic's configuration as store.migrate makes it."""
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", "skat.server:migrations")
    return config


def _alembic(engine, step, *args) -> None:
    """Run an Alembic command (``command.upgrade``, ``command.downgrade``) on ``engine`` as store.migrate does."""
    config = _config()
    with engine.begin() as conn:
        config.attributes["connection"] = conn
        step(config, *args)


def _schema(engine) -> tuple[str | None, set[str]]:
    """The database's revision and its tables (Alembic's own left out)."""
    with engine.connect() as conn:
        revision = MigrationContext.configure(conn).get_current_revision()
        tables = set(inspect(conn).get_table_names()) - {"alembic_version"}
    return revision, tables


@pytest.mark.parametrize("db", ["sqlite", "postgresql"])
def test_every_migration_downgrades_to_the_schema_before_it_and_upgrades_again(tmp_path, request, db):
    from alembic import command
    from alembic.script import ScriptDirectory

    url = f"sqlite:///{tmp_path / 'down.sqlite'}" if db == "sqlite" else request.getfixturevalue("postgres").new_database()
    script = ScriptDirectory.from_config(_config())
    revisions = [r.revision for r in reversed(list(script.walk_revisions()))]  # oldest first
    assert revisions[-1] == HEAD_REVISION and set(revisions) == set(EXPECTED_TABLES) - {None}, \
        "a new migration: say here which tables it adds (EXPECTED_TABLES)"
    engine = create_engine(normalize_db_url(url))
    try:
        assert _schema(engine) == (None, set())
        # up one revision at a time: each adds what it says
        for revision in revisions:
            _alembic(engine, command.upgrade, revision)
            assert _schema(engine) == (revision, EXPECTED_TABLES[revision])
        assert EXPECTED_TABLES[HEAD_REVISION] == set(metadata.tables)  # the head is the schema the code uses
        for table, indexes in EXPECTED_INDEXES.items():
            assert {i["name"] for i in inspect(engine).get_indexes(table)} == indexes
        with engine.begin() as conn:  # a row of the baseline outlives the downgrades of the later revisions
            conn.execute(text("INSERT INTO skat_tables (id, name, created, settings, closed) "
                              "VALUES ('t1', 'Kept', 1.0, '{}', false)"))
        # down one step at a time, to the base: each downgrade() removes what its upgrade() added
        for below in [*reversed(revisions[:-1]), None]:
            _alembic(engine, command.downgrade, "-1")
            assert _schema(engine) == (below, EXPECTED_TABLES[below]), f"downgrading to {below}"
            if below is not None:
                with engine.connect() as conn:
                    assert conn.execute(text("SELECT name FROM skat_tables")).scalars().all() == ["Kept"]
        # and up again to the head, in one go: the same schema as a new database
        _alembic(engine, command.upgrade, "head")
        assert _schema(engine) == (HEAD_REVISION, EXPECTED_TABLES[HEAD_REVISION])
        with engine.connect() as conn:
            diff = compare_metadata(MigrationContext.configure(conn), metadata)
        assert diff == [], f"after downgrading and upgrading again the schema differs from store.py's: {diff}"
    finally:
        engine.dispose()
    store = Store(url)  # the server opens it as it is, running nothing
    try:
        assert _revision(store) == HEAD_REVISION
    finally:
        store.close()
