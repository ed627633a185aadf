"""Officers' Skat in the browser, on the club server: the page and its start address (``skat play --variant
officers`` opens it), one headless-Chromium game through the page against the computer (screenshots in
test-output/screenshots/officers-*.png), the page at a server table over the table WebSocket at desktop and
phone size, resumed after a restart, at a table of two people (each page names the other, a spectator both;
the protocol itself in test_server_officers_ws.py). The retired REST API
answers 410 to every change and still reads the tables it stored, read-only, without a hidden card."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import httpx
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, inspect, text

from skat.records.wire import officers_view_to_json
from skat.server import create_app
from skat.server.officers import RETIRED, page_url
from skat.server.store import Store, normalize_db_url
from skat.server.tables import hash_token
from skat.variants.officers import OfficersGame
from test_server_officers_ws import hidden_cards
from test_server_support import (
    ROOT,
    chromium_launch_kwargs,
    postgres,  # noqa: F401 - the fixture
    serve,
    stop,
)

SHOTS = ROOT / "test-output" / "screenshots"
CARD_RE = re.compile(r"\b[CSHD][789TJQKA]\b")


@pytest.fixture()
def club(tmp_path):
    url = f"sqlite:///{tmp_path / 'club.sqlite'}"
    with TestClient(create_app(url)) as c:
        yield c, url


def test_page_is_served_and_linked_from_the_lobby(club):
    client, _ = club
    r = client.get("/officers")
    assert r.status_code == 200 and "/static/officers.js" in r.text
    for name in ("officers.js", "officers.css", "cards.js", "style.css"):
        assert client.get(f"/static/{name}").status_code == 200
    assert 'href="/officers"' in client.get("/").text
    assert "officers" in client.get("/api/meta").json()["variants"]
    assert client.get("/api/officers/variants").json()["variants"][0] == "classic"
    assert page_url("http://127.0.0.1:8000/", "admiral", 4) == \
        "http://127.0.0.1:8000/officers?variant=admiral&start=1&seed=4"


def test_skat_play_officers_opens_the_page_on_the_club_server(tmp_path):
    """``skat play --variant officers`` serves the club server (an Officers' table is a server table there)
    and prints the page's start address."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "skat", "play", "--variant", "officers", "--officers-variant", "admiral", "--seed", "4",
         "--no-browser", "--port", "0", "--db", f"sqlite:///{tmp_path / 'play.sqlite'}"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        line = proc.stdout.readline()  # printed once the server is up, with the port the system chose
        match = re.match(r"Your table: http://127\.0\.0\.1:(\d+)/officers\?variant=admiral&start=1&seed=4$", line.strip())
        assert match, line + proc.stderr.read() if proc.poll() is not None else line
        base = f"http://127.0.0.1:{match[1]}"
        assert httpx.get(f"{base}/officers").status_code == 200
        made = httpx.post(f"{base}/api/tables", json={"variant": "officers", "officers_variant": "admiral", "seed": 4})
        assert made.status_code == 201 and made.json()["token"]
        assert httpx.post(f"{base}/api/officers/tables", json={"variant": "admiral"}).status_code == 410
    finally:
        proc.terminate()
        proc.wait(10)


@pytest.mark.parametrize("method, path", [
    ("POST", "/api/officers/tables"), ("POST", "/api/officers/tables/abc/actions"),
    ("POST", "/api/officers/tables/abc/next"), ("POST", "/api/officers/tables/abc/close"),
    ("DELETE", "/api/officers/tables/abc")])
def test_the_retired_rest_api_refuses_every_change_and_says_where_to_go(club, method, path):
    client, _ = club
    r = client.request(method, path, json={"variant": "classic", "seed": 2})
    assert r.status_code == 410 and r.json() == {"error": "retired", "message": RETIRED}
    assert "POST /api/tables" in RETIRED and '"variant": "officers"' in RETIRED
    assert client.get("/api/tables").json()["tables"] == []  # nothing was made


def store_old_table(url: str, table_id: str, token: str, *, steps: int, closed: bool = False) -> OfficersGame:
    """A table as the retired REST API stored it (its three tables), ``steps`` actions into its first game."""
    game = OfficersGame("classic", seed=7)
    record = game.to_record()
    rows = []
    for n in range(steps):
        seat, action = game.to_move, game.legal_actions()[0]
        game.apply(action, seat)
        rows.append({"t": table_id, "n": n, "seat": seat, "token": str(action)})
    engine = create_engine(url)
    try:
        with engine.begin() as conn:
            conn.execute(text(
                "INSERT INTO officers_tables (id, token_hash, created, updated, variant, options, seed, bot_seed, "
                "person, game_no, seq, moves, sheet, closed) VALUES (:id, :h, 1.0, 2.0, 'classic', '{}', 7, 7, 0, 1, "
                ":seq, :seq, '[]', :closed)"), {"id": table_id, "h": hash_token(token), "seq": steps, "closed": closed})
            conn.execute(text("INSERT INTO officers_games (table_id, game_no, person, record, finished) "
                              "VALUES (:t, 1, 0, :r, false)"), {"t": table_id, "r": json.dumps(record)})
            for row in rows:
                conn.execute(text("INSERT INTO officers_actions (table_id, game_no, n, seat, token, at) "
                                  "VALUES (:t, 1, :n, :seat, :token, 3.0)"), row)
    finally:
        engine.dispose()
    return game


def test_a_table_of_the_retired_api_stays_readable_read_only(club):
    client, url = club
    game = store_old_table(url, "old1", "secret-token", steps=3)
    store_old_table(url, "old2", "other-token", steps=1, closed=True)
    r = client.get("/api/officers/tables/old1", headers={"X-Seat-Token": "secret-token"})
    assert r.status_code == 200, r.text
    st = r.json()
    assert st["read_only"] is True and st["legal"] == [] and st["seq"] == 3 and st["seat"] == 0
    assert st["view"] == officers_view_to_json(game.view(0))  # the stored game, replayed
    shown = set(CARD_RE.findall(json.dumps(st["view"])))
    hidden = hidden_cards(game, 0)
    assert hidden and not shown & hidden, sorted(shown & hidden)  # face-down cards stay hidden
    assert client.get("/api/officers/tables/old1", headers={"X-Seat-Token": "wrong"}).json()["error"] == "bad_token"
    assert client.get("/api/officers/tables/old1").status_code == 403
    assert client.get("/api/officers/tables/nope", headers={"X-Seat-Token": "x"}).status_code == 404
    closed = client.get("/api/officers/tables/old2", headers={"X-Seat-Token": "other-token"})
    assert closed.status_code == 410 and closed.json()["error"] == "closed"
    assert client.post("/api/officers/tables/old1/actions", json={"action": "pass", "seq": 3},
                       headers={"X-Seat-Token": "secret-token"}).status_code == 410
    assert client.get("/api/officers/tables/old1", headers={"X-Seat-Token": "secret-token"}).json() == st


# The retired API's tables as its schema made them before tables could be closed (no ``closed`` column).
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


@pytest.mark.parametrize("db", ["sqlite", "postgresql"])
def test_a_database_of_the_old_schema_opens_and_its_table_stays_readable(tmp_path, request, db):
    url = (f"sqlite:///{tmp_path / 'old.sqlite'}" if db == "sqlite"
           else request.getfixturevalue("postgres").new_database())
    engine = create_engine(normalize_db_url(url))
    try:
        with engine.begin() as conn:
            for ddl in OLD_SCHEMA:
                conn.execute(text(ddl))
            conn.execute(text(
                "INSERT INTO officers_tables (id, token_hash, created, updated, variant, options, seed, bot_seed, "
                "person, game_no, seq, moves, sheet) VALUES ('old-table', :h, 1.0, 1.0, 'classic', '{}', 23, 23, "
                "0, 1, 0, 0, '[]')"), {"h": hash_token("the-old-seat-token")})
            conn.execute(text("INSERT INTO officers_games (table_id, game_no, person, record, finished) "
                              "VALUES ('old-table', 1, 0, :record, false)"),
                         {"record": json.dumps(OfficersGame("classic", seed=23).to_record())})
    finally:
        engine.dispose()
    headers = {"X-Seat-Token": "the-old-seat-token"}
    with TestClient(create_app(url)) as client:
        store = client.app.state.manager.store
        column = next(c for c in inspect(store.engine).get_columns("officers_tables") if c["name"] == "closed")
        assert not column["nullable"]  # the migration completed the old schema
        st = client.get("/api/officers/tables/old-table", headers=headers).json()
        assert st["view"]["phase"] == "choose" and st["seq"] == 0 and st["read_only"] and st["legal"] == []
        made = client.post("/api/tables", json={"variant": "officers", "seed": 2})
        assert made.status_code == 201  # the same database serves the new tables
    Store(url).close()  # opening the migrated database again changes nothing
    with TestClient(create_app(url)) as client:
        assert client.get("/api/officers/tables/old-table", headers=headers).json() == st
        assert client.get(f"/api/tables/{made.json()['table_id']}",
                          headers={"X-Seat-Token": made.json()["token"]}).json()["variant"] == "officers"


# ------------------------------------------------------------------ browser
def new_page(browser, errors: list[str], locale: str = "en-US", **context):
    """A page at desktop size (or ``context``'s) that records script errors and blocked content (the app sends
    its Content-Security-Policy: nothing on the page may break it) in ``errors``."""
    page = browser.new_context(viewport=context.pop("viewport", {"width": 1280, "height": 860}), locale=locale,
                               **context).new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: m.type == "error" and ("Content Security Policy" in m.text
                                                        or "Refused to" in m.text) and errors.append(m.text))
    return page


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    srv = serve(create_app(f"sqlite:///{tmp_path_factory.mktemp('officers') / 'club.sqlite'}"))
    yield f"http://127.0.0.1:{srv.port}"
    stop(srv)


def test_browser_plays_tricks_against_the_bot(server):
    from playwright.sync_api import sync_playwright

    SHOTS.mkdir(parents=True, exist_ok=True)
    errors: list[str] = []
    with sync_playwright() as p:
        browser = p.chromium.launch(**chromium_launch_kwargs())
        page = new_page(browser, errors)
        page.goto(server + "/officers")
        page.select_option("#o-variant", "classic")
        page.fill("#o-seed", "5")
        page.click("#o-start-btn")
        page.wait_for_selector("#o-board:not(.hidden)")
        assert page.locator("#o-my-piles .o-pile").count() == 8
        assert page.locator("#o-opp-piles .o-pile").count() == 8
        page.wait_for_function("() => O.state !== null && O.state.view.to_move === O.state.seat")
        assert page.evaluate("() => O.state.view.phase") == "choose"  # forehand (the person) chooses the game
        # against the computer the page says so: the opponent's caption, the header stays without names
        assert page.inner_text("#o-opp-name") == "Computer" and page.inner_text("#o-my-name") == "You"
        assert page.get_attribute("#o-opp-hand", "aria-label") == "The computer's hand"
        page.screenshot(path=str(SHOTS / "officers-choose.png"))
        for _ in range(60):
            st = page.evaluate("() => ({phase: O.state.view.phase, tricks: O.state.view.tricks.length})")
            if st["phase"] == "finished" or st["tricks"] >= 4:
                break
            _play_steps(page, 1)
        assert st["tricks"] >= 4
        # The page shows the table's state: the last trick, the points, the cards left in the piles.
        assert re.search(r"Last trick → (You|Computer)", page.inner_text("#o-trick"))
        assert re.match(r"Card points: you \d+, computer \d+", page.inner_text("#o-score"))
        page.screenshot(path=str(SHOTS / "officers-play.png"))
        page.select_option("#o-lang", "de")
        assert re.match(r"Augen: du \d+, Computer \d+", page.inner_text("#o-score"))
        assert page.inner_text("#o-title") == "Offiziersskat" and page.inner_text("#o-opp-name") == "Computer"
        page.screenshot(path=str(SHOTS / "officers-play-de.png"))
        page.select_option("#o-lang", "ru")
        assert re.match(r"Очки: вы \d+, компьютер \d+", page.inner_text("#o-score"))
        assert page.inner_text("#o-title") == "Офицерский скат" and page.inner_text("#o-opp-name") == "Компьютер"
        assert page.inner_text("#o-my-name") == "Вы" and "Последняя взятка" in page.inner_text("#o-trick")
        page.select_option("#o-lang", "en")
        browser.close()
    assert not errors, errors


def _play_steps(page, steps: int) -> None:
    """Click ``steps`` times: a playable card in the play, else the first action button."""
    for _ in range(steps):
        if page.evaluate("() => O.state.view.phase") == "finished":
            return
        page.wait_for_function("() => O.state.view.to_move === O.state.seat && O.state.legal.length > 0")
        seq = page.evaluate("() => O.state.seq")
        if page.evaluate("() => O.state.view.phase") == "play":
            page.locator("#o-me .card.playable").first.click()
        else:
            page.locator("#o-panel [data-action]").first.click()
        page.wait_for_function(f"() => O.state.seq > {seq}")


def _play_both(pages, steps: int, until) -> list[str]:
    """Two people's pages at one table: up to ``steps`` actions, each by whoever is to move, until ``until()``;
    returns every text the pages showed in their panel and on the board meanwhile (both in step after each)."""
    seen: list[str] = []
    for _ in range(steps):
        seq = max(p.evaluate("() => O.state.seq") for p in pages)
        for p in pages:
            p.wait_for_function(f"() => O.state.seq >= {seq}")
            seen += [p.inner_text("#o-prompt"), p.inner_text("#o-board"), p.inner_text("#topbar")]
        if until() or pages[0].evaluate("() => O.state.view.phase") == "finished":
            break
        _play_steps(next(p for p in pages if p.evaluate("() => O.state.view.to_move === O.state.seat")), 1)
    return seen


def test_browser_plays_a_club_server_table_over_the_websocket(tmp_path):
    """On the club server the page plays at a server table (``POST /api/tables``, the table WebSocket): at
    desktop and phone size (screenshots officers-ws-*.png), resumed after the server restarts, and a public
    Officers' table in the lobby links to this page. At a table of two people each page names the other where
    it says "Computer" against the computer (officers-ws-two.png), a spectator names both
    (officers-ws-spectator-de.png)."""
    from playwright.sync_api import sync_playwright

    SHOTS.mkdir(parents=True, exist_ok=True)
    url = f"sqlite:///{tmp_path / 'club.sqlite'}"
    srv = serve(create_app(url))
    port = srv.port
    base = f"http://127.0.0.1:{port}"
    errors: list[str] = []
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(**chromium_launch_kwargs())
            page = new_page(browser, errors)
            page.goto(base + "/officers?variant=classic&seed=5&start=1")
            assert "script-src 'self'" in page.evaluate(
                "async () => (await fetch('/officers')).headers.get('content-security-policy')")
            page.wait_for_selector("#o-board:not(.hidden)")
            page.wait_for_function("() => O.state !== null")
            assert page.locator("#o-my-piles .o-pile").count() == 8
            assert page.locator("#o-opp-piles .o-pile").count() == 8
            _play_steps(page, 10)
            assert page.evaluate("() => O.state.view.tricks.length") >= 1
            assert "Last trick" in page.inner_text("#o-trick")
            page.screenshot(path=str(SHOTS / "officers-ws-desktop.png"))
            table_id = page.evaluate("() => O.table")
            token = page.evaluate(f"() => localStorage.getItem('skat.token.{table_id}')")
            assert httpx.get(f"{base}/api/tables/{table_id}").status_code == 403  # private: for whom he invites
            info = httpx.get(f"{base}/api/tables/{table_id}", headers={"X-Seat-Token": token}).json()
            assert info["variant"] == "officers" and info["officers_variant"] == "classic"
            page.wait_for_function("() => O.state.view.to_move === O.state.seat")
            before = page.evaluate("() => O.state")
            stop(srv)
            srv = serve(create_app(url), port)  # a restarted server restores the table
            page.reload()
            page.wait_for_function(f"() => O.state && O.state.seq === {before['seq']}")
            assert page.evaluate("() => O.state") == before
            _play_steps(page, 1)
            # a public Officers' Skat table of two people in the lobby links to this page; joining its free seat
            # opens it here: Ada (this page) plays Bea, who made the table, and the page names her, never "Computer"
            made = page.evaluate("""async () => (await fetch('/api/tables', {method: 'POST',
                headers: {'Content-Type': 'application/json'}, body: JSON.stringify({variant: 'officers',
                public: true, seats: ['human', 'human'], player_name: 'Bea', seed: 5})})).json()""")
            tid = made["table_id"]
            page.evaluate("() => localStorage.setItem('skat.name', 'Ada')")  # the name the lobby joins with
            page.goto(base + "/")
            page.wait_for_selector(f'a[href="/officers?table={tid}"]')
            page.locator("#lobby-list button").first.click()
            page.wait_for_url(f"**/officers?table={tid}")
            page.wait_for_function("() => O.state !== null && O.state.position === 1")
            assert page.evaluate("() => O.state.seat") == 1 and page.evaluate("() => O.state.legal.length") == 0
            assert page.inner_text("#o-opp-name") == "Bea" and page.inner_text("#o-my-name") == "You"
            assert page.inner_text("#o-prompt") == "Bea is to move"  # forehand chooses the game
            # Bea plays from her own page (with her seat token, kept as the page keeps it)
            bea = new_page(browser, errors)
            bea.goto(base + "/officers")
            bea.evaluate(f"() => localStorage.setItem('skat.token.{tid}', '{made['token']}')")
            bea.goto(base + f"/officers?table={tid}")
            bea.wait_for_function("() => O.state !== null && O.state.position === 0")
            assert bea.inner_text("#o-opp-name") == "Ada"
            seen = _play_both([page, bea], 12, until=lambda: page.evaluate("() => O.state.view.tricks.length") >= 1)
            assert any(re.match(r"Bea chose \w+\. Say Kontra", t) for t in seen), seen  # Bea chose, Ada answers
            assert re.search(r"Last trick → (You|Bea)", page.inner_text("#o-trick"))
            assert re.match(r"Card points: you \d+, Bea \d+", page.inner_text("#o-score"))
            assert all("computer" not in t.lower() for t in seen), seen
            page.screenshot(path=str(SHOTS / "officers-ws-two.png"))
            # a spectator (in German here) sees both by name, from forehand's side
            watcher = new_page(browser, errors, locale="de-DE")
            watcher.goto(base + f"/officers?table={tid}")
            watcher.wait_for_function("() => O.state !== null && O.state.view.tricks.length >= 1")
            assert watcher.evaluate("() => O.state.position") is None
            assert watcher.inner_text("#o-my-name") == "Bea" and watcher.inner_text("#o-opp-name") == "Ada"
            assert re.match(r"(Ada|Bea) ist dran$", watcher.inner_text("#o-prompt"))
            assert re.match(r"Augen: Bea \d+, Ada \d+", watcher.inner_text("#o-score"))
            text = watcher.inner_text("body")
            assert "Computer" not in text and "Du" not in text.split(), text
            watcher.screenshot(path=str(SHOTS / "officers-ws-spectator-de.png"))
            watcher.context.close()
            bea.context.close()
            # a tab that still remembers a table of the retired REST API shows the start form; a new table is a
            # server table
            page.goto(base + "/officers")
            page.evaluate("""() => { sessionStorage.removeItem('officers.ws');
                sessionStorage.setItem('officers.table', JSON.stringify({table: 'old1', token: 'x'})); }""")
            page.reload()
            page.wait_for_selector("#o-start:not(.hidden)")
            assert page.evaluate("() => sessionStorage.getItem('officers.table')") is None
            page.click("#o-start-btn")
            page.wait_for_function("() => O.state !== null && O.ws !== null")
            new_id = page.evaluate("() => O.table")
            assert httpx.get(f"{base}/api/tables/{new_id}", headers={"X-Seat-Token": page.evaluate(
                f"() => localStorage.getItem('skat.token.{new_id}')")}).json()["variant"] == "officers"
            # at phone size
            phone = new_page(browser, errors, locale="de-DE", viewport={"width": 390, "height": 844}, is_mobile=True,
                             has_touch=True)
            phone.goto(base + "/officers?variant=harlequin&seed=3&start=1")
            phone.wait_for_selector("#o-board:not(.hidden)")
            phone.wait_for_function("() => O.state !== null")
            _play_steps(phone, 3)
            phone.screenshot(path=str(SHOTS / "officers-ws-phone.png"), full_page=True)
            browser.close()
    finally:
        stop(srv)
    assert not errors, errors


def test_browser_close_table_returns_to_the_start_form(tmp_path):
    """The page's "Close table" (after the person confirms) closes the server table and shows the start form;
    a reload does not resume the closed table."""
    from playwright.sync_api import sync_playwright

    url = f"sqlite:///{tmp_path / 'club.sqlite'}"
    srv = serve(create_app(url))
    port = srv.port
    base = f"http://127.0.0.1:{port}"
    errors: list[str] = []
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(**chromium_launch_kwargs())
            page = new_page(browser, errors, locale="de-DE")
            dialogs: list[str] = []

            def answer(dialog) -> None:
                dialogs.append(dialog.message)
                (dialog.accept if len(dialogs) > 1 else dialog.dismiss)()

            page.on("dialog", answer)
            page.goto(f"{base}/officers?variant=classic&seed=4&start=1")
            page.wait_for_selector("#o-board:not(.hidden)")
            page.wait_for_function("() => O.state !== null")
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
            assert page.evaluate("() => sessionStorage.getItem('officers.ws')") is None
            store = Store(url)
            try:
                assert store.load_table(table_id).closed
            finally:
                store.close()
            r = httpx.get(f"{base}/api/tables/{table_id}", headers={"X-Seat-Token": token})
            assert r.status_code in (404, 410) and r.json()["error"] in ("no_table", "closed"), r.text
            page.goto(f"{base}/officers")
            page.wait_for_load_state("networkidle")
            assert page.is_visible("#o-start") and page.is_hidden("#o-board")
            browser.close()
    finally:
        stop(srv)
    assert not errors, errors
