"""Accounts, the leaderboard and the ratings at the table (issue 29) in a real headless Chromium (Debian's, through
Playwright), as a person uses them: register on /account, see the signed-in state and the name in the lobby's top
bar, sign out, a wrong password refused with the page's message (and too many refused with the seconds to wait),
sign in again, change the password; a second browser sees nothing of the first; a signed-in person plays a short
series and finds their own row marked on the leaderboard and their rating beside their name at the table; the
leaderboard shows the computer players once an all-computer table finished its series. Every screen axe-clean, at a
desktop's 1366x768 and a phone's 390x844, in English and Korean or Polish, no English left in those. Screenshots go
to test-output/screenshots/account-*.png."""

from __future__ import annotations

import json
import time

import httpx
import pytest

from test_server_support import ROOT, ServerProcess, axe_problems, shot

DESKTOP = {"viewport": {"width": 1366, "height": 768}}
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
CATALOGS = ROOT / "src" / "skat" / "web" / "static" / "i18n"
PASSWORD = "Grand-ouvert-42"
NEW_PASSWORD = "Null-hand-schwarz-7"


def words(lang: str) -> dict:
    return json.loads((CATALOGS / f"{lang}.json").read_text(encoding="utf-8"))["account"]


def text(lang: str, key: str, **params) -> str:
    """A text of the account section as the page fills it (its plural form "other" unless n is 1)."""
    found = words(lang)[key]
    if isinstance(found, dict):
        found = found.get("one") if params.get("n") == 1 and "one" in found else found["other"]
    for name, value in params.items():
        found = found.replace("{" + name + "}", str(value))
    return found


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    srv = ServerProcess(f"sqlite:///{tmp_path_factory.mktemp('account') / 'skat.sqlite'}").start()
    # an all-computer table of a two-game series: rated as its series ends, while the first tests run
    created = httpx.post(f"{srv.url}/api/tables", json={"seats": ["random", "heuristic", "random"], "deals": 2,
                                                         "claim": None}, headers={"Origin": srv.url})
    assert created.status_code == 201, created.text
    srv.computer_table = created.json()
    yield srv
    srv.stop()


def new_page(browser, lang: str = "en", size: dict = DESKTOP):
    context = browser.new_context(**size)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    # a refusal (401, 409, 429...) is the browser's "Failed to load resource" line: wanted here, no error of the page
    page.on("console", lambda m: errors.append(m.text)
            if m.type == "error" and not m.text.startswith("Failed to load resource") else None)
    page.add_init_script(f"localStorage.setItem('skat.lang', '{lang}');")
    return context, page, errors


def open_account(page, server) -> None:
    page.goto(f"{server.url}/account")
    page.wait_for_function("() => window.accountPage && accountPage().loaded")


def submit(page, form: str, **fields) -> None:
    for name, value in fields.items():
        page.fill(f"{form} input[name={name}]", value)
    page.click(f"{form} button[type=submit]")
    page.wait_for_function(f"() => !document.querySelector('{form}').hasAttribute('aria-busy')")


def english_leaks(page, lang: str) -> list[str]:
    """English texts of the account section shown on a page in another language."""
    if lang == "en":
        return []
    en, own = words("en"), words(lang)
    shown = page.inner_text("body")
    return [f"{lang}: {t!r}" for key, t in en.items()
            if isinstance(t, str) and "{" not in t and len(t) > 4 and own.get(key) != t and t in shown]


def check(page, lang: str, name: str, errors: list[str]) -> list[str]:
    """A screenshot, axe, English left in another language, sideways scrolling, errors of the page."""
    page.wait_for_timeout(50)
    shot(page, f"account-{name}")
    problems = axe_problems(page, name) + english_leaks(page, lang)
    width = page.evaluate("() => [document.documentElement.scrollWidth, innerWidth]")
    if width[0] > width[1]:
        problems.append(f"{name} scrolls sideways: {width}")
    problems += [f"{name}: {e}" for e in errors]
    errors.clear()
    return problems


TAKE_SEAT = """() => fetch('/api/tables', {method: 'POST', headers: {'Content-Type': 'application/json'},
    body: JSON.stringify({seats: ['human', 'random', 'random'], deals: 1, claim: 0, public: false})}).then(r => r.json())"""
"""A private table of one deal, its first seat taken by this browser (a guest, or the signed-in person)."""


def play_through(page, timeout: float = 60) -> None:
    """At the table: pass and play the first legal card until the series is over."""
    deadline = time.time() + timeout
    while not page.evaluate("() => S.state && S.state.table.status === 'finished'"):
        assert time.time() < deadline, page.evaluate("() => S.state && S.state.view")
        mine = page.evaluate("""() => { const v = S.state && S.state.view; return !!v && v.phase !== 'finished'
            && v.to_move === S.state.you.seat && v.legal_actions.length > 0; }""")
        if mine:
            page.evaluate("""() => { const v = S.state.view, seq = S.state.seq;
                S.ws.send({type: 'action', action: v.legal_actions.includes('pass') ? 'pass' : v.legal_actions[0], seq}); }""")
            page.wait_for_timeout(60)
        else:
            page.wait_for_timeout(50)


def close_result(page) -> None:
    """Close the result dialog the table opens after the last deal, to see the table under it."""
    page.wait_for_function("() => S.dialog === 'result'", timeout=5000)
    page.keyboard.press("Escape")
    page.wait_for_function("() => S.dialog === null")


def test_register_sign_out_sign_in_and_a_second_browser_sees_nothing(browser, server):
    problems: list[str] = []
    name = "Ada Lovelace"
    ctx, page, errors = new_page(browser)
    other, page2, errors2 = new_page(browser, "pl", PHONE)
    try:
        open_account(page, server)
        assert page.locator("#a-in-name").get_attribute("autocomplete") == "username"
        assert page.locator("#a-in-pass").get_attribute("autocomplete") == "current-password"
        assert page.locator("#a-reg-pass").get_attribute("autocomplete") == "new-password"
        problems += check(page, "en", "signed-out-en-desktop", errors)

        # a weak password, then the account
        submit(page, "#a-reg-form", username=name, password="short")
        assert page.locator("#a-reg-error").inner_text() == text("en", "err_weak_password")
        submit(page, "#a-reg-form", username=name, password=PASSWORD)
        page.wait_for_function("() => accountPage().account !== null")
        assert page.locator("#a-who").inner_text() == text("en", "signedInAs", name=name)
        assert page.locator("#a-note").inner_text() == text("en", "welcome", name=name)
        assert page.locator("#a-in a[href='/me']").is_visible()
        assert page.locator("#a-in a[href='/leaderboard']").is_visible()
        problems += check(page, "en", "signed-in-en-desktop", errors)

        # the lobby's top bar names the person, with a link to their games
        page.goto(server.url)
        page.wait_for_function(f"() => document.querySelector('#lnk-account').textContent === {json.dumps(name)}")
        assert page.locator("#lnk-account").get_attribute("href") == "/me"
        assert page.locator("#lnk-leaderboard").inner_text() == "Leaderboard"
        problems += check(page, "en", "lobby-signed-in-en-desktop", errors)

        # a second browser: a guest who sees nothing of the first, and may not take the name (case folded)
        page2.goto(server.url)
        page2.wait_for_function("() => document.querySelector('#lnk-account').textContent.length > 0")
        page2.wait_for_timeout(300)  # GET /api/me answered
        assert page2.locator("#lnk-account").inner_text() == text("pl", "signIn")
        assert page2.locator("#lnk-account").get_attribute("href") == "/account"
        assert name not in page2.inner_text("body")
        assert page2.evaluate("() => fetch('/api/me').then(r => r.json())")["signed_in"] is False
        problems += check(page2, "pl", "lobby-guest-pl-phone", errors2)
        open_account(page2, server)
        assert page2.evaluate("() => accountPage().account") is None
        assert name not in page2.inner_text("body")
        submit(page2, "#a-reg-form", username=name.upper(), password=PASSWORD)
        assert page2.locator("#a-reg-error").inner_text() == text("pl", "err_name_taken")
        problems += check(page2, "pl", "name-taken-pl-phone", errors2)

        # sign out; a wrong password is refused with the page's words; the right one signs in
        open_account(page, server)
        page.click("#a-out-button")
        page.wait_for_function("() => accountPage().account === null")
        assert page.locator("#a-note").inner_text() == text("en", "signedOut")
        assert page.evaluate("() => fetch('/api/me').then(r => r.json())")["signed_in"] is False
        submit(page, "#a-in-form", username=name, password="not-the-password")
        assert page.locator("#a-in-error").inner_text() == text("en", "err_bad_login")
        problems += check(page, "en", "wrong-password-en-desktop", errors)
        submit(page, "#a-in-form", username=name, password=PASSWORD)
        page.wait_for_function("() => accountPage().account !== null")
        assert page.locator("#a-note").inner_text() == text("en", "welcomeBack", name=name)

        # a new password: the present one must be right; then it signs in, the old one does not
        submit(page, "#a-pw-form", old="wrong-present-one", new=NEW_PASSWORD)
        assert page.locator("#a-pw-error").inner_text() == text("en", "err_bad_password")
        submit(page, "#a-pw-form", old=PASSWORD, new=NEW_PASSWORD)
        assert page.locator("#a-note").inner_text() == text("en", "passwordChanged")
        assert page.locator("#a-pw-error").inner_text() == ""
        page.click("#a-out-button")
        page.wait_for_function("() => accountPage().account === null")
        submit(page, "#a-in-form", username=name, password=PASSWORD)
        assert page.locator("#a-in-error").inner_text() == text("en", "err_bad_login")
        submit(page, "#a-in-form", username=name, password=NEW_PASSWORD)
        page.wait_for_function("() => accountPage().account !== null")

        # too many wrong passwords for one name: the page says how long to wait (Retry-After), in Korean too
        for _ in range(5):
            refused = httpx.post(f"{server.url}/api/account/login", json={"name": "Nobody", "password": "wrong-wrong"},
                                 headers={"Origin": server.url})
            assert refused.status_code == 401, refused.text
        ko, page3, errors3 = new_page(browser, "ko", PHONE)
        try:
            open_account(page3, server)
            submit(page3, "#a-in-form", username="Nobody", password="wrong-wrong")
            said = page3.locator("#a-in-error").inner_text()
            wait = httpx.post(f"{server.url}/api/account/login", json={"name": "Nobody", "password": "x" * 8},
                              headers={"Origin": server.url})
            assert wait.status_code == 429
            seconds = int(wait.headers["Retry-After"])
            assert said in {text("ko", "err_throttled", n=s) for s in (seconds, seconds + 1)}, said
            problems += check(page3, "ko", "throttled-ko-phone", errors3)
        finally:
            ko.close()
    finally:
        ctx.close()
        other.close()
    assert not problems, "\n".join(problems)


def test_a_person_plays_a_series_and_finds_their_row_and_rating(browser, server):
    problems: list[str] = []
    name = "Łukasz Żółć"
    ctx, page, errors = new_page(browser, "pl")
    try:
        # a guest takes a seat, then registers: the page says the guest's table is the account's now
        open_account(page, server)
        page.evaluate(TAKE_SEAT)
        submit(page, "#a-reg-form", username=name, password=PASSWORD)
        page.wait_for_function("() => accountPage().account !== null")
        assert page.locator("#a-note").inner_text() == text("pl", "welcomeClaimed", name=name, n=1)
        problems += check(page, "pl", "signed-in-pl-desktop", errors)
        # a table of one deal against two computer players, taken while signed in
        created = page.evaluate(TAKE_SEAT)
        page.goto(f"{server.url}/t/{created['table_id']}#token={created['token']}")
        page.wait_for_function("() => S.state && S.state.view")
        # the account link is filled by its own request, which may answer after the table's first view
        page.wait_for_function("n => document.querySelector('#lnk-account').innerText === n", arg=name, timeout=15000)
        assert page.locator("#lnk-account").inner_text() == name
        play_through(page)
        # rated as the series ends: the ratings stand beside the names
        close_result(page)
        page.wait_for_function("() => document.querySelectorAll('.seat-rating').length === 3", timeout=10_000)
        badge = page.locator("#my-label .seat-rating")
        assert badge.inner_text().startswith("Ranking ")
        assert "μ" in badge.get_attribute("title")
        problems += check(page, "pl", "table-ratings-pl-desktop", errors)
        page.set_viewport_size(PHONE["viewport"])
        page.wait_for_timeout(150)
        problems += check(page, "pl", "table-ratings-pl-phone", errors)
        page.click("#bb-menu")  # on a phone the links are in the menu
        menu = page.locator("#dialog .menu-links a")
        assert menu.all_inner_texts() == [text("pl", "leaderboard"), name]
        problems += check(page, "pl", "table-menu-pl-phone", errors)
        page.keyboard.press("Escape")
        # the person's own row, marked
        page.set_viewport_size(DESKTOP["viewport"])
        page.goto(f"{server.url}/leaderboard")
        page.wait_for_function("() => leaderboard().board && leaderboard().me")
        mine = page.locator("#lb-rows tr.mine")
        assert mine.count() == 1 and name in mine.inner_text()
        assert mine.locator(".you").inner_text() == text("pl", "you")
        assert mine.get_attribute("aria-current") == "true"
        assert page.locator("#lb-account").inner_text() == name
        problems += check(page, "pl", "leaderboard-people-pl-desktop", errors)
        # the lobby's top bar: the person's name and rating
        page.goto(server.url)
        page.wait_for_function("() => document.querySelector('#lnk-account').textContent.includes('Ranking')")
        assert page.locator("#lnk-account").inner_text().startswith(name + " · Ranking ")
    finally:
        ctx.close()
    assert not problems, "\n".join(problems)


def test_the_leaderboard_shows_the_computer_players(browser, server):
    problems: list[str] = []
    deadline = time.time() + 30
    while not httpx.get(f"{server.url}/api/leaderboard", params={"kind": "computer"}).json()["rows"]:
        assert time.time() < deadline, "the all-computer table's series was not rated"
        time.sleep(0.2)
    en = json.loads((CATALOGS / "en.json").read_text(encoding="utf-8"))["table"]
    for lang, size_name, size in (("en", "desktop", DESKTOP), ("ko", "phone", PHONE), ("en", "phone", PHONE),
                                  ("ko", "desktop", DESKTOP)):
        ctx, page, errors = new_page(browser, lang, size)
        try:
            page.goto(f"{server.url}/leaderboard")
            page.wait_for_function("() => leaderboard().board")
            page.click("label[for=lb-computer]")
            page.wait_for_function("() => leaderboard().board && leaderboard().board.kind === 'computer'")
            assert "kind=computer" in page.url
            rows = page.locator("#lb-rows tr")
            assert rows.count() == 2
            names = page.locator("#lb-rows td.player a").all_inner_texts()
            table_words = json.loads((CATALOGS / f"{lang}.json").read_text(encoding="utf-8"))["table"]
            assert set(names) == {table_words["level_heuristic"], table_words["level_random"]}, names
            assert page.locator("#lb-rows td.player a").first.get_attribute("href").startswith("/players/b-")
            assert "±" in page.locator("#lb-rows td.skill").first.inner_text()
            assert page.locator("#lb-rows tr.mine").count() == 0
            assert en["level_random"] not in page.inner_text("body") or lang == "en"
            problems += check(page, lang, f"leaderboard-computers-{lang}-{size_name}", errors)
            page.click("label[for=lb-30d]")
            page.wait_for_function("() => leaderboard().board && leaderboard().board.period === '30d'")
            assert page.locator("#lb-empty").inner_text() == text(lang, "empty30")
            assert not page.locator("#lb-table").is_visible()
            problems += check(page, lang, f"leaderboard-30d-{lang}-{size_name}", errors)
        finally:
            ctx.close()
    # the all-computer table shows each seat's rating to a spectator (its invite)
    table = server.computer_table
    ctx, page, errors = new_page(browser, "en")
    try:
        page.goto(f"{server.url}/t/{table['table_id']}#invite={table['invite']}")
        close_result(page)
        page.wait_for_function("() => document.querySelectorAll('.seat-rating').length === 3")
        problems += check(page, "en", "computer-table-en-desktop", errors)
    finally:
        ctx.close()
    assert not problems, "\n".join(problems)
