"""A player's page (/me, /players/{id}) in a real headless Chromium: a person registers, plays a table's series of
two games against computer players, and finds the deals in the history with their roles, seats and SF points, each
linked to its replay; the filters narrow the history and "show more" pages through it; the statistics count two
games and the rating is there once the series has ended (with its chart); a computer player's profile shows its
statistics; a second browser sees nothing private (its /me is the empty state, the person's profile shows no
history) and a player that is none is a 404 state. Names are text, never HTML. axe-clean, no sideways scrolling on
a phone; screenshots (desktop and phone, English and Korean) go to test-output/screenshots/players-*.png."""

from __future__ import annotations

import json
import re
import time

import pytest

from test_server_support import SHOTS, ServerProcess, axe_problems

DESKTOP = {"viewport": {"width": 1366, "height": 768}}
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
NAME = "Ada <b>&amp;</b> Co"
"""A name with HTML in it: the page must show it as these very characters."""
TABLE = "Friday <i>club</i>"
SEATS = ["human", "heuristic", "random"]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    srv = ServerProcess(f"sqlite:///{tmp_path_factory.mktemp('players') / 'skat.sqlite'}").start()
    yield srv
    srv.stop()


def choose(view: dict, deal_index: int) -> str:
    """The person's action: in the first deal hold whatever is bid and bid on whatever is held, so as to declare
    (the computer players give up first); in the others pass, so as to defend (or see the deal passed in); else
    the first legal action."""
    legal = view["legal_actions"]
    if view["phase"] == "bidding":
        if deal_index == 0:
            return "hold" if "hold" in legal else min((a for a in legal if a.isdigit()), key=int, default="pass")
        return "pass" if "pass" in legal else legal[0]
    return legal[0]


def play_series(server, table_id: str, token: str) -> list[dict]:
    """Play the table's whole series for the seat over the WebSocket protocol (docs/protocol.md), as fast as the
    computer players move; returns each deal's final state, in order."""
    from websockets.sync.client import connect

    finals: dict[int, dict] = {}
    state: dict | None = None
    acted: object = None
    deadline = time.time() + 40
    with connect(server.url.replace("http://", "ws://") + f"/ws/{table_id}") as ws:
        ws.send(json.dumps({"type": "hello", "protocol": 1, "token": token}))
        while True:
            assert time.time() < deadline, "the series did not end"
            message = json.loads(ws.recv(timeout=30))
            if message["type"] == "error":
                acted = None  # refused (a state came meanwhile): act again on the newest state
            elif message["type"] == "state":
                state = message
            if state is None:
                continue
            view, table = state["view"], state["table"]
            if view["phase"] == "finished":
                finals.setdefault(table["deal_no"], state)
                if table["status"] == "finished":
                    return [finals[n] for n in sorted(finals)]
                if acted != ("next", table["deal_no"]):
                    ws.send(json.dumps({"type": "next_deal"}))
                    acted = ("next", table["deal_no"])
            elif view["to_move"] == view["seat"] and view["legal_actions"] and acted != state["seq"]:
                ws.send(json.dumps({"type": "action", "action": choose(view, len(finals)), "seq": state["seq"]}))
                acted = state["seq"]


@pytest.fixture(scope="module")
def person(browser, server):
    """A browser of a person who registered and played a table's two games: its storage (cookies), the account's
    player id and the history as GET /api/me/history answers it."""
    context = browser.new_context(**DESKTOP)
    page = context.new_page()
    origin = {"Origin": server.url}
    r = page.request.post(server.url + "/api/account/register", data={"name": NAME, "password": "correct horse 42"},
                          headers=origin)
    assert r.status == 201, r.text()
    r = page.request.post(server.url + "/api/tables", data={"seats": SEATS, "deals": 2, "name": TABLE}, headers=origin)
    assert r.status == 201, r.text()
    table = r.json()
    finals = play_series(server, table["table_id"], table["token"])
    history = page.request.get(server.url + "/api/me/history").json()
    me = page.request.get(server.url + "/api/me").json()
    storage = context.storage_state()
    context.close()
    assert me["signed_in"] and me["player"]["name"] == NAME
    return {"storage": storage, "id": me["player"]["id"], "history": history, "finals": finals, "table": table}


def open_page(browser, path: str, server, size: dict, lang: str = "en", storage=None):
    context = browser.new_context(**size, storage_state=storage)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" and "404" not in m.text else None)
    page.add_init_script(f"localStorage.setItem('skat.lang', {lang!r})")
    page.goto(server.url + path)
    page.wait_for_function("() => window.playersPage && playersPage().status !== 'loading' && "
                           "(!playersPage().own || playersPage().status !== 'profile' || "
                           "(playersPage().historyLoaded && !playersPage().loading))")
    return context, page, errors


def look(page, name: str, problems: list[str]) -> None:
    """The whole page as a picture (test-output/screenshots/players-NAME.png), axe-core's findings, and no
    sideways scrolling."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"players-{name}.png"), full_page=True)
    problems += axe_problems(page, name)
    width = page.evaluate("document.documentElement.scrollWidth")  # a phone's layout widens to fit: not innerWidth
    assert width <= page.viewport_size["width"], f"{name} scrolls sideways: {width}"


def rows(page) -> list[dict]:
    return page.evaluate("""() => [...document.querySelectorAll('#p-deals tbody tr')].map(tr => ({
        table: tr.dataset.table, deal: Number(tr.dataset.deal), role: tr.dataset.role,
        href: tr.querySelector('a.p-replay').getAttribute('href'),
        cells: Object.fromEntries([...tr.cells].map(td => [td.className.split(' ')[0].slice(2), td.innerText.trim()]))}))""")


def choose_filter(page, select: str, value: str) -> None:
    page.select_option(select, value)
    page.wait_for_function("() => !playersPage().loading")


def expected_role(final: dict, position: int) -> str:
    result = final["view"]["result"] or {}
    if final["view"]["declarer"] is None:
        return "ramsch" if result.get("ramsch") or result.get("game") == "ramsch" else "passed"
    return "declarer" if final["view"]["declarer"] == position else "defender"


def test_own_profile_history_filters_and_statistics(browser, server, person):
    problems: list[str] = []
    deals = person["history"]["deals"]
    finals = person["finals"]
    assert len(finals) >= 2 and len(deals) == len(finals)
    context, page, errors = open_page(browser, "/me", server, DESKTOP, storage=person["storage"])
    try:
        assert page.evaluate("playersPage().own")
        # the name as text: the characters of the name, no element made of it
        assert page.inner_text("#p-name") == NAME
        assert page.locator("#p-name b").count() == 0 and page.locator("#p-deals i").count() == 0
        assert page.title() == f"{NAME} — Skat"
        # the rating after the series's end: mu ± sigma, the leaderboard's value, its chart with a title
        rating = page.inner_text('[data-figure="rating"] .p-value')
        assert re.fullmatch(r"\d+\.\d ± \d+\.\d", rating), rating
        assert page.locator("#p-rating-chart svg[role=img] title").text_content() == "Rating after each rated list"
        assert "after 1 rated list" in page.locator("#p-rating-chart svg desc").text_content()
        # the statistics: two games, the form of two games, the computer players beside the person
        assert page.inner_text('[data-figure="games"] .p-value') == "2"
        assert page.locator("#p-form-chart rect.game").count() == 2
        assert page.locator("#p-games-chart svg text.label").count() == 6
        heads = page.locator("#p-compare-table thead th").all_text_contents()
        assert heads == ["Figure", "You", "heuristic", "random"], heads  # the levels, strongest first
        assert page.inner_text("#p-compare-title") == "Computer players at your tables"
        assert page.locator("#p-compare-table tbody tr").first.locator("td").all_inner_texts()[0] == "2"
        # the history: every deal, newest first, with the role it had, each linked to its replay
        shown = rows(page)
        assert [(r["table"], r["deal"]) for r in shown] == [(d["table_id"], d["deal_no"]) for d in deals]
        for r, d in zip(shown, deals, strict=True):
            final = next(f for f in finals if f["table"]["deal_no"] == d["deal_no"])
            assert d["role"] == expected_role(final, 0) == r["role"], (d, r)
            assert r["href"] == f"/replay/{d['table_id']}/{d['deal_no']}"
            assert r["cells"]["table"].startswith(TABLE)
            assert r["cells"]["role"] == {"declarer": "declarer", "defender": "defender", "passed": "passed in",
                                          "ramsch": "Ramsch"}[d["role"]]
            sf = r["cells"]["sf"].replace("\u2212", "-").replace("+", "")
            assert int(sf) == d["sf"]
            assert r["cells"]["result"] == {True: "won", False: "lost", None: "–"}[d["won"]]
        assert page.inner_text("#p-count") == f"{len(deals)} deals"
        assert page.locator("#p-more").is_hidden()
        look(page, "own-en-desktop", problems)

        # the filters narrow the history (and a period of 7 days has them all: they are minutes old)
        assert deals[-1]["role"] == "declarer" and {d["role"] for d in deals[:-1]} <= {"defender", "passed"}
        choose_filter(page, "#f-role", "declarer")
        assert [(r["role"], r["deal"]) for r in rows(page)] == [("declarer", deals[-1]["deal_no"])]
        assert page.inner_text("#p-count") == "1 deal matches"
        assert "?role=declarer" in page.url
        choose_filter(page, "#f-role", "defender")
        assert {r["role"] for r in rows(page)} <= {"defender"} and len(rows(page)) == sum(
            d["role"] == "defender" for d in deals)
        choose_filter(page, "#f-role", "")
        result = "won" if deals[0]["won"] else "lost"
        choose_filter(page, "#f-result", result)
        assert len(rows(page)) == sum(d["won"] is (result == "won") for d in deals)
        choose_filter(page, "#f-result", "")
        choose_filter(page, "#f-period", "7d")
        assert len(rows(page)) == len(deals)
        choose_filter(page, "#f-game", "ramsch" if all(d["game"] != "ramsch" for d in deals) else "null")
        if not rows(page):
            assert page.locator("#p-history-empty").inner_text() == "No deal matches these filters."
            assert page.locator("#p-deals").is_hidden()
        # another language at once, the filters kept
        page.select_option("#p-lang", "de")
        assert page.inner_text("#p-stats-title") == "Statistik" and page.inner_text("#p-history-title") == "Deine Spiele"
        assert page.input_value("#f-period") == "7d"
        assert page.locator("#f-period option:checked").inner_text() == "letzte 7 Tage"
        assert not errors, errors
    finally:
        context.close()

    # a page of one deal: "show more" brings the next, until there is none
    context, page, errors = open_page(browser, "/me?per=1", server, DESKTOP, storage=person["storage"])
    try:
        assert len(rows(page)) == 1 and page.locator("#p-more").is_visible()
        for n in range(2, len(deals) + 1):
            page.click("#p-more")
            page.wait_for_function(f"() => playersPage().deals === {n} && !playersPage().loading")
        assert [r["deal"] for r in rows(page)] == [d["deal_no"] for d in deals]
        assert page.locator("#p-more").is_hidden()
        assert page.inner_text("#p-count") == f"{len(deals)} deals"
    finally:
        context.close()
    # /players/{own id} is the same page: the history is there too
    context, page, errors = open_page(browser, f"/players/{person['id']}", server, DESKTOP, storage=person["storage"])
    try:
        assert page.evaluate("playersPage().own") and len(rows(page)) == len(deals)
        assert page.get_attribute("#p-nav-me", "aria-current") == "page"
    finally:
        context.close()
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("lang, size_name", [("en", "phone"), ("ko", "desktop"), ("ko", "phone")])
def test_own_profile_in_other_languages_and_on_a_phone(browser, server, person, lang, size_name):
    problems: list[str] = []
    context, page, errors = open_page(browser, "/me", server, PHONE if size_name == "phone" else DESKTOP, lang,
                                      person["storage"])
    try:
        assert page.evaluate("document.documentElement.lang") == lang
        assert len(rows(page)) == len(person["history"]["deals"])
        if lang == "ko":
            assert page.inner_text("#p-stats-title") == "통계"
            assert page.inner_text('[data-figure="games"] dt') == "게임"
            assert page.locator("#p-rating-chart svg title").text_content() == "평가된 점수표마다의 레이팅"
        if size_name == "phone":  # each deal a card: no header row, every cell named by its column
            assert page.evaluate("getComputedStyle(document.querySelector('#p-deals tbody tr')).display") == "grid"
            box = page.locator("#p-deals tbody tr").first.bounding_box()
            assert box and box["x"] >= 0 and box["x"] + box["width"] <= 390
        look(page, f"own-{lang}-{size_name}", problems)
        assert not errors, errors
    finally:
        context.close()
    assert not problems, "\n".join(problems)


def test_a_computer_players_profile(browser, server, person):
    problems: list[str] = []
    context, page, errors = open_page(browser, "/players/b-random", server, DESKTOP, "de")
    try:
        assert page.evaluate("playersPage().status") == "profile" and not page.evaluate("playersPage().own")
        assert page.inner_text("#p-name") == "Computer (zufällig)"
        games = int(page.inner_text('[data-figure="games"] .p-value'))
        assert games >= 2  # its seat at the person's table, each of the series's games
        assert page.locator("#p-history").is_hidden() and page.locator("#p-compare").is_hidden()
        assert page.locator("#p-rating-chart svg").count() == 1
        look(page, "computer-de-desktop", problems)
        assert not errors, errors
    finally:
        context.close()
    assert not problems, "\n".join(problems)


def test_a_second_browser_sees_nothing_private(browser, server, person):
    problems: list[str] = []
    context, page, errors = open_page(browser, "/me", server, PHONE)
    try:
        assert page.evaluate("playersPage().status") == "missing"
        assert page.inner_text("#p-missing-title") == "No games yet"
        assert "not signed in" in page.inner_text("#p-missing-text")
        assert page.locator("#p-missing-links a[href='/']").count() == 1
        assert page.locator("#p-history").is_hidden() and page.locator("#p-profile").is_hidden()
        assert page.request.get(server.url + "/api/me/history").status == 404
        look(page, "nobody-en-phone", problems)
        # the person's profile is public; the history is not
        page.goto(f"{server.url}/players/{person['id']}")
        page.wait_for_function("() => playersPage().status === 'profile'")
        assert page.inner_text("#p-name") == NAME and not page.evaluate("playersPage().own")
        assert page.locator("#p-history").is_hidden() and page.locator("#p-deals tbody tr").count() == 0
        assert page.inner_text('[data-figure="games"] .p-value') == "2"
        assert page.locator("#p-compare").is_visible()
        assert page.inner_text("#p-compare-table thead th:nth-child(2)") == NAME
        assert page.inner_text("#p-compare-title") == "Computer players at this player's tables"
        look(page, "other-en-phone", problems)
        # a player that is none
        page.goto(f"{server.url}/players/a-0000000000000000")
        page.wait_for_function("() => playersPage().status === 'missing'")
        assert page.inner_text("#p-missing-title") == "No such player"
        assert "a-0000000000000000" in page.inner_text("#p-missing-text")
        # a guest who plays a deal has a history of it in this browser
        r = page.request.post(server.url + "/api/tables", data={"seats": SEATS, "deals": 1},
                              headers={"Origin": server.url})
        assert r.status == 201, r.text()
        finals = play_series(server, r.json()["table_id"], r.json()["token"])
        page.goto(f"{server.url}/me")
        page.wait_for_function("() => playersPage().status === 'profile' && playersPage().historyLoaded && "
                               "!playersPage().loading")
        assert page.inner_text("#p-name") == "You (guest)"
        assert "register or sign in" in page.inner_text("#p-kind")
        assert [r["deal"] for r in rows(page)] == [f["table"]["deal_no"] for f in finals][::-1]
        look(page, "guest-en-phone", problems)
        assert errors == [], errors
    finally:
        context.close()
    assert not problems, "\n".join(problems)


def test_signed_in_without_a_game(browser, server):
    problems: list[str] = []
    context = browser.new_context(**DESKTOP)
    page = context.new_page()
    r = page.request.post(server.url + "/api/account/register", data={"name": "Bea", "password": "correct horse 43"},
                          headers={"Origin": server.url})
    assert r.status == 201, r.text()
    storage = context.storage_state()
    context.close()
    context, page, errors = open_page(browser, "/me", server, DESKTOP, storage=storage)
    try:
        assert page.evaluate("playersPage().status") == "profile" and page.inner_text("#p-name") == "Bea"
        assert page.inner_text('[data-figure="rating"] .p-value') == "not rated yet"
        assert page.inner_text("#p-no-games") == "No games yet — play at the lobby."
        assert page.locator("#p-no-games a[href='/']").count() == 1
        assert page.locator("#p-history").is_hidden() and page.locator("#p-compare").is_hidden()
        assert page.locator("#p-stats-body").is_hidden() and page.locator("#p-rating-chart").is_hidden()
        look(page, "empty-en-desktop", problems)
        assert not errors, errors
    finally:
        context.close()
    assert not problems, "\n".join(problems)
