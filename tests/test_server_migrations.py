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
