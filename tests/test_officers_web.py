"""Officers' Skat in the browser: the HTTP API of skat.server.officers against the computer opponent
(every variant played to the end, errors change nothing, no hidden card ever leaks to a seat), one
headless-Chromium game through the page (screenshots in test-output/screenshots/officers-*.png) and a
page that resumes its table after the server restarts on the same database (more on the database in
test_officers_store.py). On the club server the same page plays at a server table over the table
WebSocket (test_browser_plays_a_club_server_table_over_the_websocket; the protocol in
test_server_officers_ws.py)."""

from __future__ import annotations

import json
import random
import re

import pytest
from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles
from fastapi.testclient import TestClient

from skat.cards import Card
from skat.server import officers as officers_server
from skat.server.officers import PAGE, TABLES, create_officers_app, page_url, router
from skat.variants.officers import OfficersGame
from skat.variants.officers.game import DOWN, OUT, OWN, UP
from skat.variants.officers.options import VARIANTS
from test_server_support import ROOT, chromium_launch_kwargs, free_port, serve, stop

SHOTS = ROOT / "test-output" / "screenshots"
CARD_RE = re.compile(r"\b[CSHD][789TJQKA]\b")


def make_app() -> FastAPI:
    app = FastAPI()
    app.include_router(router)
    app.mount("/static", StaticFiles(directory=PAGE.parent), name="static")
    return app


@pytest.fixture(scope="module")
def client():
    with TestClient(make_app()) as c:
        yield c


def hidden_cards(game: OfficersGame, seat: int) -> set[str]:
    """The cards ``seat`` may not see now, judged from the table itself: not yet dealt, face down,
    facing only the other player; played cards are open. Empty once the game is over."""
    if game.phase == "finished":
        return set()
    played = {c for _, cs, _ in game.tricks for c in cs} | set(game.trick)
    out = set()
    for c in range(32):
        if c in played:
            continue
        face, owner = game.face[c], game.owner[c]
        dealt = bool(game.dealt >> c & 1)
        seen = dealt and (face == UP or (face == OWN and owner == seat) or (face == OUT and owner != seat))
        if face == DOWN or not seen:
            out.add(Card(c).name)
    return out


def check_no_leak(state: dict, table_id: str) -> set[str]:
    game = TABLES[table_id].game
    seat = state["seat"]
    shown = set(CARD_RE.findall(json.dumps(state["view"]) + " " + " ".join(state["legal"])))
    hidden = hidden_cards(game, seat)
    leaked = shown & hidden
    assert not leaked, f"seat {seat} was sent cards it may not see: {sorted(leaked)} (phase {game.phase})"
    assert set(state) == {"table", "seat", "seq", "game_no", "variant", "view", "legal", "sheet", "token"} - (
        set() if "token" in state else {"token"})
    return hidden


def create(client, **body) -> tuple[dict, dict]:
    r = client.post("/api/officers/tables", json=body)
    assert r.status_code == 200, r.text
    st = r.json()
    return st, {"X-Seat-Token": st["token"]}


def act(client, st: dict, headers: dict, action: str):
    return client.post(f"/api/officers/tables/{st['table']}/actions", json={"action": action, "seq": st["seq"]},
                       headers=headers)


@pytest.mark.parametrize("variant", VARIANTS)
def test_full_game_against_the_bot_every_variant(client, variant):
    rng = random.Random(variant)
    options = {"allow_null": True, "allow_ramsch": True} if variant in ("classic", "passing") else {}
    st, headers = create(client, variant=variant, seed=11, options=options, seat=1)
    tid = st["table"]
    saw_hidden = False
    steps = 0
    while st["view"]["phase"] != "finished":
        assert st["view"]["to_move"] == st["seat"] and st["legal"], st["view"]
        assert st["legal"] == st["view"]["legal_actions"]
        saw_hidden |= bool(check_no_leak(st, tid))
        r = act(client, st, headers, rng.choice(st["legal"]))
        assert r.status_code == 200, r.text
        assert r.json()["seq"] == st["seq"] + 1
        st = r.json()
        steps += 1
        assert steps < 100
    assert saw_hidden, "the test never met a hidden card: it checks nothing"
    check_no_leak(st, tid)
    result = st["view"]["result"]
    assert result["variant"] == variant and result["explanation"]
    game = TABLES[tid].game
    assert result == game.result.to_json()
    tricks = st["view"]["tricks"]
    if result["kind"] == "played" and not (result["game"] == "null" and result["scores"] != [0, 0]
                                           and len(tricks) < game.total_tricks):
        assert len(tricks) == game.total_tricks
    # The next game swaps the seats and deals again.
    r = client.post(f"/api/officers/tables/{tid}/next", headers=headers)
    assert r.status_code == 200, r.text
    nxt = r.json()
    assert nxt["game_no"] == 2 and nxt["seat"] == 0 and nxt["view"]["phase"] != "finished"
    check_no_leak(nxt, tid)
    # the series' score sheet keeps each player's score whatever seat he had
    person, computer = result["scores"][1], result["scores"][0]
    assert st["sheet"] == {"games": [[person, computer]], "you": person, "computer": computer}
    assert nxt["sheet"] == st["sheet"]


def test_errors_are_clear_and_change_nothing(client):
    st, headers = create(client, variant="classic", seed=3, seat=0)
    tid = st["table"]
    url = f"/api/officers/tables/{tid}"

    def unchanged():
        now = client.get(url, headers=headers).json()
        assert now == {k: v for k, v in st.items() if k != "token"}

    assert st["view"]["phase"] == "choose"
    r = act(client, st, headers, "CJ")  # a card while the game is being chosen
    assert r.status_code == 422 and "not allowed now" in r.json()["detail"]
    unchanged()
    r = act(client, st, headers, "frobnicate")
    assert r.status_code == 422 and "cannot read the action" in r.json()["detail"]
    unchanged()
    r = act(client, st, headers, "declare null")  # Null only by agreement
    assert r.status_code == 422 and "allow_null" in r.json()["detail"]
    unchanged()
    r = client.post(f"{url}/actions", json={"action": st["legal"][0], "seq": st["seq"] + 5}, headers=headers)
    assert r.status_code == 409 and "stale" in r.json()["detail"]
    unchanged()
    r = act(client, st, {"X-Seat-Token": "not-the-token"}, st["legal"][0])
    assert r.status_code == 403
    unchanged()
    assert client.get(url).status_code == 403
    assert client.get("/api/officers/tables/nope", headers=headers).status_code == 404
    r = client.post(f"{url}/next", headers=headers)
    assert r.status_code == 409 and "still running" in r.json()["detail"]
    unchanged()
    # A legal action moves on; replaying it with the old seq is stale and refused.
    r = act(client, st, headers, "declare clubs")
    assert r.status_code == 200
    after = r.json()
    r = act(client, st, headers, "declare clubs")
    assert r.status_code == 409
    assert client.get(url, headers=headers).json()["seq"] == after["seq"]
    # In play, a covered or a non-following card is refused with the reason.
    while after["view"]["phase"] != "play":
        after = act(client, after, headers, after["legal"][-1]).json()
    game = TABLES[tid].game
    covered = next(Card(p[1]).name for p in game.piles[after["seat"]] if len(p) > 1)
    r = act(client, after, headers, covered)
    assert r.status_code == 422 and "covered" in r.json()["detail"]
    assert client.get(url, headers=headers).json()["seq"] == after["seq"]


def test_after_the_game_actions_are_refused(client):
    st, headers = create(client, variant="harlequin", seed=8)
    while st["view"]["phase"] != "finished":
        st = act(client, st, headers, st["legal"][0]).json()
    r = act(client, st, headers, "pass")
    assert r.status_code == 409 and "game is over" in r.json()["detail"]


@pytest.mark.parametrize("body, words", [
    ({"variant": "poker"}, "unknown Officers' Skat variant"),
    ({"variant": "admiral", "options": {"allow_null": True}}, "do not apply"),
    ({"variant": "classic", "options": {"scoring": "nonsense"}}, "scoring"),
    ({"variant": "classic", "options": {"colour": 1}}, "unknown option"),
    ({"variant": "classic", "seat": 2}, "seat must be 0"),
])
def test_bad_table_requests(client, body, words):
    r = client.post("/api/officers/tables", json=body)
    assert r.status_code == 422 and words in r.json()["detail"]


def test_page_is_served(client):
    r = client.get("/officers")
    assert r.status_code == 200 and "/static/officers.js" in r.text
    for name in ("officers.js", "officers.css", "cards.js", "style.css"):
        assert client.get(f"/static/{name}").status_code == 200


def test_stand_alone_app_and_start_address():
    with TestClient(create_officers_app()) as c:
        assert c.get("/api/health").json() == {"status": "ok"}
        assert c.get("/officers").status_code == 200
        assert c.get("/static/officers.css").status_code == 200
    assert page_url("http://127.0.0.1:8000/", "admiral", 4) == \
        "http://127.0.0.1:8000/officers?variant=admiral&start=1&seed=4"


# ------------------------------------------------------------------ browser
@pytest.fixture(scope="module")
def server():
    port = free_port()
    srv = serve(make_app(), port)
    yield f"http://127.0.0.1:{port}"
    stop(srv)


def test_browser_plays_tricks_against_the_bot(server):
    from playwright.sync_api import sync_playwright

    SHOTS.mkdir(parents=True, exist_ok=True)
    errors: list[str] = []
    with sync_playwright() as p:
        browser = p.chromium.launch(**chromium_launch_kwargs())
        page = browser.new_context(viewport={"width": 1280, "height": 860}, locale="en-US").new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(server + "/officers")
        page.select_option("#o-variant", "classic")
        page.fill("#o-seed", "5")
        page.click("#o-start-btn")
        page.wait_for_selector("#o-board:not(.hidden)")
        assert page.locator("#o-my-piles .o-pile").count() == 8
        assert page.locator("#o-opp-piles .o-pile").count() == 8
        shot_choose = False
        for _ in range(60):
            st = page.evaluate("() => O.state && {phase: O.state.view.phase, legal: O.state.legal,"
                               " tricks: O.state.view.tricks.length}")
            if st["phase"] == "finished" or st["tricks"] >= 4:
                break
            seq = page.evaluate("() => O.state.seq")
            if st["phase"] == "play":
                page.locator("#o-me .card.playable").first.click()
            else:
                if not shot_choose:
                    page.screenshot(path=str(SHOTS / "officers-choose.png"))
                    shot_choose = True
                page.locator("#o-panel [data-action]").first.click()
            page.wait_for_function(f"() => O.state.seq > {seq}")
        assert st["tricks"] >= 4
        # The page shows the table's state: the last trick, the points, the cards left in the piles.
        assert "Last trick" in page.inner_text("#o-trick")
        assert "Card points" in page.inner_text("#o-score")
        page.screenshot(path=str(SHOTS / "officers-play.png"))
        page.select_option("#o-lang", "de")
        assert "Augen" in page.inner_text("#o-score")
        assert page.inner_text("#o-title") == "Offiziersskat"
        page.screenshot(path=str(SHOTS / "officers-play-de.png"))
        browser.close()
    assert not errors, errors
    assert officers_server.TABLES


def test_the_club_server_serves_officers_skat_and_links_it_from_the_lobby(tmp_path):
    from fastapi.testclient import TestClient

    from skat.server import create_app

    with TestClient(create_app(f"sqlite:///{tmp_path / 'skat.sqlite'}")) as client:
        assert client.get("/officers").status_code == 200
        assert 'href="/officers"' in client.get("/").text
        made = client.post("/api/officers/tables", json={"variant": "admiral", "seed": 5})
        assert made.status_code == 200 and made.json()["variant"] == "admiral"



def test_browser_resumes_the_table_after_the_server_restarts(tmp_path):
    """The page is open mid-game; the server stops and a new one starts on the same database: a reload
    shows the same table, and the person plays on."""
    from playwright.sync_api import sync_playwright

    url, port = f"sqlite:///{tmp_path / 'officers.sqlite'}", free_port()
    srv = serve(create_officers_app(url), port)
    with sync_playwright() as p:
        browser = p.chromium.launch(**chromium_launch_kwargs())
        page = browser.new_context(viewport={"width": 1280, "height": 860}, locale="en-US").new_page()
        blocked: list[str] = []  # the app sends its Content-Security-Policy: nothing on the page may break it
        page.on("console", lambda m: m.type == "error" and ("Content Security Policy" in m.text
                                                            or "Refused to" in m.text) and blocked.append(m.text))
        page.on("pageerror", lambda e: blocked.append(str(e)))
        page.goto(f"http://127.0.0.1:{port}/officers?variant=passing&seed=12&start=1")
        assert "script-src 'self'" in page.evaluate(
            "async () => (await fetch('/officers')).headers.get('content-security-policy')")
        page.wait_for_selector("#o-board:not(.hidden)")
        for _ in range(4):
            seq = page.evaluate("() => O.state.seq")
            if page.evaluate("() => O.state.view.phase") == "play":
                page.locator("#o-me .card.playable").first.click()
            else:
                page.locator("#o-panel [data-action]").first.click()
            page.wait_for_function(f"() => O.state.seq > {seq}")
        before = page.evaluate("() => O.state")
        stop(srv)
        srv = serve(create_officers_app(url), port)  # a new server process would do the same
        try:
            page.reload()
            page.wait_for_function(f"() => O.state && O.state.seq === {before['seq']}")
            assert page.evaluate("() => O.state") == before
            seq = before["seq"]
            page.locator("#o-me .card.playable, #o-panel [data-action]").first.click()
            page.wait_for_function(f"() => O.state.seq > {seq}")
            assert not blocked, blocked
        finally:
            browser.close()
            stop(srv)


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


def test_browser_plays_a_club_server_table_over_the_websocket(tmp_path):
    """On the club server the page plays at a server table (``POST /api/tables``, the table WebSocket): at
    desktop and phone size (screenshots officers-ws-*.png), resumed after the server restarts, and a public
    Officers' table in the lobby links to this page."""
    from playwright.sync_api import sync_playwright

    from skat.server import create_app

    SHOTS.mkdir(parents=True, exist_ok=True)
    url, port = f"sqlite:///{tmp_path / 'club.sqlite'}", free_port()
    srv = serve(create_app(url), port)
    base = f"http://127.0.0.1:{port}"
    errors: list[str] = []
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(**chromium_launch_kwargs())
            page = browser.new_context(viewport={"width": 1280, "height": 860}, locale="en-US").new_page()
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.on("console", lambda m: m.type == "error" and ("Content Security Policy" in m.text
                                                                or "Refused to" in m.text) and errors.append(m.text))
            page.goto(base + "/officers?variant=classic&seed=5&start=1")
            page.wait_for_selector("#o-board:not(.hidden)")
            page.wait_for_function("() => O.state !== null")
            assert page.evaluate("() => O.mode") == "ws"
            assert page.locator("#o-my-piles .o-pile").count() == 8
            assert page.locator("#o-opp-piles .o-pile").count() == 8
            _play_steps(page, 10)
            assert page.evaluate("() => O.state.view.tricks.length") >= 1
            assert "Last trick" in page.inner_text("#o-trick")
            page.screenshot(path=str(SHOTS / "officers-ws-desktop.png"))
            import httpx

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
            # a public Officers' Skat table in the lobby links to this page; joining its free seat opens it here
            made = page.evaluate("""async () => (await fetch('/api/tables', {method: 'POST',
                headers: {'Content-Type': 'application/json'},
                body: JSON.stringify({variant: 'officers', public: true, seats: ['human', 'human']})})).json()""")
            page.goto(base + "/")
            page.wait_for_selector(f'a[href="/officers?table={made["table_id"]}"]')
            page.locator("#lobby-list button").first.click()
            page.wait_for_url(f"**/officers?table={made['table_id']}")
            page.wait_for_function("() => O.state !== null && O.state.position === 1")
            assert page.evaluate("() => O.state.seat") == 1 and page.evaluate("() => O.state.legal.length") == 0
            # a table of the older REST API open in a tab is played on there; a new table is a server table
            old = page.evaluate("""async () => (await fetch('/api/officers/tables', {method: 'POST',
                headers: {'Content-Type': 'application/json'}, body: JSON.stringify({variant: 'classic', seed: 2})})).json()""")
            page.goto(base + "/officers")
            page.evaluate("""(o) => { sessionStorage.removeItem('officers.ws');
                sessionStorage.setItem('officers.table', JSON.stringify({table: o.table, token: o.token})); }""", old)
            page.reload()
            page.wait_for_function(f"() => O.state && O.state.table === '{old['table']}'")
            assert page.evaluate("() => O.mode") == "rest"
            _play_steps(page, 1)
            page.click("#o-new")
            page.click("#o-start-btn")
            page.wait_for_function(f"() => O.state && O.state.table !== '{old['table']}'")
            assert page.evaluate("() => O.mode") == "ws"
            # at phone size
            phone = browser.new_context(viewport={"width": 390, "height": 844}, locale="de-DE",
                                        is_mobile=True, has_touch=True).new_page()
            phone.on("pageerror", lambda e: errors.append(str(e)))
            phone.goto(base + "/officers?variant=harlequin&seed=3&start=1")
            phone.wait_for_selector("#o-board:not(.hidden)")
            phone.wait_for_function("() => O.state !== null")
            _play_steps(phone, 3)
            phone.screenshot(path=str(SHOTS / "officers-ws-phone.png"), full_page=True)
            browser.close()
    finally:
        stop(srv)
    assert not errors, errors

