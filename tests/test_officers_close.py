"""Closing an Officers' Skat table (``POST /api/officers/tables/{id}/close``): only its seat closes it, the
close is stored and survives a restart (a new app on the same database does not rebuild the table),
every later request is refused with 410 and changes nothing, a database made before tables could be
closed still opens, and the page's "Close table" control closes the table and shows the start form."""

from __future__ import annotations

import asyncio
import hashlib
import json
import time

import pytest
from fastapi import HTTPException
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, inspect, text

from skat.server import create_app
from skat.server import officers as officers_server
from skat.server.officers import OfficersTables, create_officers_app
from skat.server.store import OfficersTableClosedError, Store, normalize_db_url
from skat.variants.officers import OfficersGame, parse_officers_action
from test_server_support import (
    chromium_launch_kwargs,
    free_port,
    postgres,  # noqa: F401 - the fixture
    serve,
    stop,
)

BODY = {"variant": "classic", "seed": 17, "seat": 0}

# The Officers' Skat tables as the schema made them before tables could be closed (no ``closed`` column).
OLD_SCHEMA = [
    """CREATE TABLE officers_tables (
        id VARCHAR(32) NOT NULL, token_hash VARCHAR(64) NOT NULL, created FLOAT NOT NULL, updated FLOAT NOT NULL,
        variant VARCHAR(20) NOT NULL, options TEXT NOT NULL, seed BIGINT, bot_seed BIGINT NOT NULL,
        person INTEGER NOT NULL, game_no INTEGER NOT NULL, seq INTEGER NOT NULL, moves INTEGER NOT NULL,
        sheet TEXT NOT NULL, PRIMARY KEY (id))""",
    """CREATE TABLE officers_games (
        table_id VARCHAR(32) NOT NULL, game_no INTEGER NOT NULL, person INTEGER NOT NULL, record TEXT NOT NULL,
        finished BOOLEAN NOT NULL, PRIMARY KEY (table_id, game_no))""",
    """CREATE TABLE officers_actions (
        table_id VARCHAR(32) NOT NULL, game_no INTEGER NOT NULL, n INTEGER NOT NULL, seat INTEGER NOT NULL,
        token VARCHAR(80) NOT NULL, at FLOAT NOT NULL, PRIMARY KEY (table_id, game_no, n))""",
]


def create(client: TestClient, body: dict = BODY) -> tuple[dict, dict]:
    r = client.post("/api/officers/tables", json=body)
    assert r.status_code == 200, r.text
    st = r.json()
    return st, {"X-Seat-Token": st.pop("token")}


def get(client: TestClient, table_id: str, headers: dict):
    return client.get(f"/api/officers/tables/{table_id}", headers=headers)


def act(client: TestClient, st: dict, headers: dict, action: str | None = None):
    return client.post(f"/api/officers/tables/{st['table']}/actions",
                       json={"action": action or st["legal"][0], "seq": st["seq"]}, headers=headers)


def close(client: TestClient, table_id: str, headers: dict):
    return client.post(f"/api/officers/tables/{table_id}/close", headers=headers)


def assert_closed(r, table_id: str) -> None:
    assert r.status_code == 410, r.text
    assert r.json()["detail"] == (f"the Officers' Skat table {table_id!r} was closed by its player, so nothing "
                                  "more can be done at it; start a new table")


def rows(url: str, table_id: str) -> dict:
    """Everything stored for a table: its row, its games, its actions."""
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            return {name: [tuple(r) for r in conn.execute(text(f"SELECT * FROM {name} WHERE {key} = :t ORDER BY 1, 2"),
                                                           {"t": table_id})]
                    for name, key in (("officers_tables", "id"), ("officers_games", "table_id"),
                                      ("officers_actions", "table_id"))}
    finally:
        engine.dispose()


def test_close_is_stored_and_a_restarted_server_does_not_load_the_table(tmp_path):
    url = f"sqlite:///{tmp_path / 'skat.sqlite'}"
    with TestClient(create_app(url)) as client:  # the club server
        st, headers = create(client)
        other, other_headers = create(client, {"variant": "harlequin", "seed": 2})
        st = act(client, st, headers).json()  # mid-game
        r = close(client, st["table"], headers)
        assert r.status_code == 200 and r.json() == {"table": st["table"], "closed": True}
        officers = client.app.state.officers
        assert st["table"] not in officers.tables and other["table"] in officers.tables
        assert_closed(get(client, st["table"], headers), st["table"])
        assert get(client, other["table"], other_headers).json() == other
        stored = officers.store.load_officers_table(st["table"])
        assert stored.closed and stored.seq == st["seq"]  # its games and actions stay stored
        assert [t.id for t in officers.store.load_officers_tables()] == [other["table"]]
    with TestClient(create_app(url)) as client:  # a new server on the same database
        assert list(client.app.state.officers.tables) == [other["table"]]
        assert_closed(get(client, st["table"], headers), st["table"])
        assert st["table"] not in client.app.state.officers.tables  # asking for it does not load it either
        assert get(client, other["table"], other_headers).json() == other


@pytest.mark.parametrize("stored", [False, True], ids=["memory", "sqlite"])
def test_only_the_seat_closes_its_table(tmp_path, stored):
    with TestClient(create_officers_app(f"sqlite:///{tmp_path / 'o.sqlite'}" if stored else None)) as client:
        st, headers = create(client)
        other, other_headers = create(client)
        for wrong in ({"X-Seat-Token": "not-the-token"}, {}, other_headers):
            r = close(client, st["table"], wrong)
            assert r.status_code == 403 and r.json()["detail"] == "wrong or missing seat token (header X-Seat-Token)"
        assert get(client, st["table"], headers).json() == st  # still open, unchanged
        r = close(client, "no-such-table", headers)
        assert r.status_code == 404 and "there is no Officers' Skat table 'no-such-table'" in r.json()["detail"]
        assert close(client, st["table"], headers).status_code == 200
        # a closed table is told only to its seat; to anyone else it answers as before
        assert close(client, st["table"], other_headers).status_code == 403
        assert get(client, st["table"], {}).status_code == 403
        assert get(client, other["table"], other_headers).json() == other


@pytest.mark.parametrize("stored", [False, True], ids=["memory", "sqlite"])
def test_a_closed_table_refuses_everything_and_nothing_changes(tmp_path, stored):
    url = f"sqlite:///{tmp_path / 'o.sqlite'}"
    with TestClient(create_officers_app(url if stored else None)) as client:
        st, headers = create(client, {"variant": "passing", "seed": 5, "seat": 1})
        st = act(client, st, headers).json()
        assert close(client, st["table"], headers).status_code == 200
        before = rows(url, st["table"]) if stored else None
        assert_closed(act(client, st, headers), st["table"])
        assert_closed(client.post(f"/api/officers/tables/{st['table']}/next", headers=headers), st["table"])
        assert_closed(get(client, st["table"], headers), st["table"])
        assert_closed(close(client, st["table"], headers), st["table"])  # closing twice: a clear 410, no 500
        assert st["table"] not in client.app.state.officers.tables
        if stored:
            after = rows(url, st["table"])
            assert after == before and after["officers_actions"]  # the games and actions stay stored


def test_a_request_that_waited_for_the_close_is_refused():
    """A request that found the table before it was closed (and then waited for its lock) is refused when
    it gets the lock, before anything changes."""
    with TestClient(create_officers_app()) as client:
        tables = client.app.state.officers
        st, headers = create(client)
        table = tables.get(st["table"], headers["X-Seat-Token"])
        assert close(client, st["table"], headers).status_code == 200
        assert table.closed and st["table"] not in tables.tables
        with pytest.raises(HTTPException) as refused:
            asyncio.run(officers_server._catch_up(tables, table))  # what every route does first under the lock
        assert refused.value.status_code == 410 and "was closed by its player" in refused.value.detail
        assert table.state() == st
        assert_closed(act(client, st, headers), st["table"])


def test_a_table_closed_by_another_server_process(tmp_path):
    url = f"sqlite:///{tmp_path / 'o.sqlite'}"
    with TestClient(create_officers_app(url)) as one, TestClient(create_officers_app(url)) as two:
        st, headers = create(one)
        assert get(two, st["table"], headers).json() == st  # loaded in the second process
        stale = two.app.state.officers.tables[st["table"]]
        assert close(one, st["table"], headers).status_code == 200
        before = rows(url, st["table"])
        # the database refuses the other process's write, all of it (the action and the table's row)
        with pytest.raises(OfficersTableClosedError, match="is closed"):
            stale.person_acts(parse_officers_action(st["legal"][0]))
        assert stale.state() == st
        assert rows(url, st["table"]) == before
        # its next request learns the table is closed (and drops it); so does its close
        assert_closed(act(two, st, headers), st["table"])
        assert st["table"] not in two.app.state.officers.tables
        assert_closed(close(two, st["table"], headers), st["table"])
        assert rows(url, st["table"]) == before


def test_start_up_loads_the_most_recent_open_tables_only(tmp_path):
    url = f"sqlite:///{tmp_path / 'o.sqlite'}"
    with TestClient(create_officers_app(url)) as client:
        made = [create(client, {"variant": "admiral", "seed": s}) for s in range(4)]
        for st, headers in made[2:]:  # the two most recently made are closed
            assert close(client, st["table"], headers).status_code == 200
    tables = OfficersTables(Store(url), max_tables=2)
    try:
        assert tables.restore() == 2 and list(tables.tables) == [made[0][0]["table"], made[1][0]["table"]]
    finally:
        tables.store.close()


def old_database(url: str, record: dict, token: str) -> None:
    """A database made by the schema before tables could be closed, holding one table mid-game."""
    engine = create_engine(url)
    try:
        with engine.begin() as conn:
            for ddl in OLD_SCHEMA:
                conn.execute(text(ddl))
            now = time.time()
            conn.execute(text(
                "INSERT INTO officers_tables (id, token_hash, created, updated, variant, options, seed, bot_seed, "
                "person, game_no, seq, moves, sheet) VALUES ('old-table', :h, :now, :now, 'classic', '{}', 23, 23, "
                "0, 1, 0, 0, '[]')"), {"h": hashlib.sha256(token.encode()).hexdigest(), "now": now})
            conn.execute(text("INSERT INTO officers_games (table_id, game_no, person, record, finished) "
                              "VALUES ('old-table', 1, 0, :record, false)"), {"record": json.dumps(record)})
    finally:
        engine.dispose()


@pytest.mark.parametrize("db", ["sqlite", "postgresql"])
def test_a_database_of_the_old_schema_opens(tmp_path, request, db):
    url = (f"sqlite:///{tmp_path / 'old.sqlite'}" if db == "sqlite"
           else request.getfixturevalue("postgres").new_database())
    token = "the-old-seat-token"
    old_database(normalize_db_url(url), OfficersGame("classic", seed=23).to_record(), token)
    headers = {"X-Seat-Token": token}
    with TestClient(create_officers_app(url)) as client:
        store = client.app.state.officers.store
        column = next(c for c in inspect(store.engine).get_columns("officers_tables") if c["name"] == "closed")
        assert not column["nullable"]
        assert list(client.app.state.officers.tables) == ["old-table"]  # rebuilt at start-up: it is open
        st = get(client, "old-table", headers).json()
        assert st["view"]["phase"] == "choose" and st["seq"] == 0
        st = act(client, st, headers).json()
        assert st["seq"] == 1
        new, new_headers = create(client)
    Store(url).close()  # opening the migrated database again changes nothing
    with TestClient(create_officers_app(url)) as client:
        assert get(client, "old-table", headers).json() == st
        assert close(client, "old-table", headers).status_code == 200
    with TestClient(create_officers_app(url)) as client:
        assert list(client.app.state.officers.tables) == [new["table"]]
        assert_closed(get(client, "old-table", headers), "old-table")


def test_browser_close_table_returns_to_the_start_form(tmp_path):
    """The page's "Close table" (after the person confirms) closes the table on the server and shows the
    start form; a reload does not resume the closed table."""
    from playwright.sync_api import sync_playwright

    url, port = f"sqlite:///{tmp_path / 'officers.sqlite'}", free_port()
    app = create_officers_app(url)
    srv = serve(app, port)
    errors: list[str] = []
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(**chromium_launch_kwargs())
            page = browser.new_context(viewport={"width": 1280, "height": 860}, locale="de-DE").new_page()
            page.on("pageerror", lambda e: errors.append(str(e)))
            dialogs: list[str] = []

            def answer(dialog) -> None:
                dialogs.append(dialog.message)
                (dialog.accept if len(dialogs) > 1 else dialog.dismiss)()

            page.on("dialog", answer)
            page.goto(f"http://127.0.0.1:{port}/officers?variant=classic&seed=4&start=1")
            page.wait_for_selector("#o-board:not(.hidden)")
            assert page.is_hidden("#o-start")
            leave = page.locator("#o-leave")
            assert leave.is_visible() and leave.inner_text() == "Tisch schließen"  # the page's language
            table_id, token = page.evaluate("() => [O.table, O.token]")
            leave.click()  # the first time the person changes their mind: nothing happens
            assert page.is_visible("#o-board") and page.evaluate("() => O.table") == table_id
            leave.click()
            page.wait_for_selector("#o-start:not(.hidden)")
            assert len(dialogs) == 2 and "endgültig" in dialogs[0]
            assert page.is_hidden("#o-board") and page.is_hidden("#o-leave")
            assert page.evaluate("() => sessionStorage.getItem('officers.table')") is None
            store = Store(url)
            try:
                assert store.load_officers_table(table_id).closed
            finally:
                store.close()
            r = page.evaluate(f"""async () => {{ const r = await fetch('/api/officers/tables/{table_id}',
                {{headers: {{'X-Seat-Token': '{token}'}}}}); return [r.status, (await r.json()).detail]; }}""")
            assert r[0] == 410 and "was closed by its player" in r[1]
            page.goto(f"http://127.0.0.1:{port}/officers")
            page.wait_for_load_state("networkidle")
            assert page.is_visible("#o-start") and page.is_hidden("#o-board")
            browser.close()
    finally:
        stop(srv)
    assert not errors, errors
