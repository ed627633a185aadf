"""The score keeper's page (/keeper, /k/{id}) in a real headless Chromium against ``skat serve``: a list made on a
phone and a whole evening entered by taps (each game valued by the server before it is saved, an impossible one
refused with its reason, an edit with its history, a strike), a pub list at four players with a Bock round and a
Ramsch, a follower who sees the list change live, a keeper who loses the connection (games queued in the
browser, sent once when it is back), the three languages and axe-core's accessibility check. Every total is
compared with what the library (skat.table.keeper.ScoreKeeper) computes for the same entries. Screenshots go to
test-output/screenshots (70-keeper-...)."""

from __future__ import annotations

import httpx
import pytest

from skat.table.keeper import ScoreKeeper
from test_server_support import ServerProcess, axe_problems, shot
from test_web_e2e import new_page

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
DESKTOP = {"viewport": {"width": 1280, "height": 900}}
LIVE_MS = 20_000
"""How long a page may take to show a change made elsewhere, or to send what it queued once it is online again:
generous, since a busy machine may be slow and a long wait costs time only when the page never gets there."""


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    srv = ServerProcess(f"sqlite:///{tmp_path_factory.mktemp('keeper') / 'keeper.sqlite'}").start()
    yield srv
    srv.stop()


# ------------------------------------------------------------------ helpers
def tap(page, f: str) -> None:
    """Tap a button of the entry form by its data-f name."""
    page.click(f'#k-entry [data-f="{f}"]')


def declarer(page, name: str) -> None:
    page.click(f'#k-entry .k-decl:has(.k-name:text-is("{name}"))')


def checked(page) -> str:
    """The server's valuation shown before saving (the value or the refusal)."""
    page.wait_for_selector("#k-preview .k-value, #k-preview .k-problem")
    return page.inner_text("#k-preview")


def save(page, number: int, name: str | None = None) -> None:
    """Save the game in the form; game ``number`` appears in the list. The keeper's name is asked once."""
    page.click("#k-save")
    if name is not None:
        page.wait_for_selector("#k-ask-name")
        page.fill("#k-ask-name", name)
        page.click("#k-dialog .k-ask button[type=submit]")
    page.wait_for_selector(f'#k-sheet tr[data-n="{number}"]')
    page.wait_for_selector("#k-preview .k-saved")


def foot(page) -> dict[str, list[str]]:
    """The list's bottom rows: label -> the players' cells."""
    return page.evaluate("""() => Object.fromEntries([...document.querySelectorAll('#k-sheet tfoot tr')].map((tr) =>
        [tr.querySelector('th').textContent, [...tr.querySelectorAll('td')].map((td) => td.textContent)]))""")


def row(page, n: int) -> dict:
    """Game n as the list shows it: its value and entry columns, each player's running total (None: unchanged)."""
    return page.evaluate("""(n) => { const tr = document.querySelector(`#k-sheet tr[data-n="${n}"]`);
        const tds = [...tr.children];
        return {value: tds[7].textContent, entry: tds[8].textContent, struck: tr.classList.contains('struck'),
                bock: tr.classList.contains('bock'), text: tr.textContent,
                totals: [...tr.querySelectorAll('td.player')].map((td) => { const t = td.querySelector('.total');
                    return t ? Number(t.textContent) : null; })}; }""", n)


def minus(x: int) -> str:
    return f"+{x}" if x > 0 else f"−{-x}" if x < 0 else "0"


def fits(page) -> bool:
    """Nothing of the page sticks out sideways (no horizontal scrolling of the whole page)."""
    return page.evaluate("() => document.documentElement.scrollWidth <= innerWidth + 1")


def assert_like_library(page, keeper: ScoreKeeper) -> None:
    sheet = keeper.sheet_json()
    for line in sheet["games"]:
        shown = row(page, line["number"])
        assert shown["struck"] == line["struck"], line
        if line["struck"]:
            continue
        if line["declarer"]:
            d = sheet["players"].index(line["declarer"])
            assert shown["value"] == str(line["value"]) and shown["entry"] == minus(line["scores"][d]), (shown, line)
        for p, s in enumerate(line["scores"]):
            if s:
                assert shown["totals"][p] == line["totals"][p], (shown, line)
    bottom = foot(page)
    assert bottom["Total"] == [str(x) for x in sheet["totals"]]
    assert bottom["Seeger-Fabian"] == [str(x) for x in sheet["seeger_fabian"]]
    assert bottom["won / lost"] == [f"{w}/{lo}" for w, lo in zip(sheet["games_won"], sheet["games_lost"])]


def make_list(server, body: dict) -> dict:
    res = httpx.post(server.url + "/api/keeper", json=body)
    assert res.status_code == 201, res.text
    return res.json()


# ------------------------------------------------------------------ a whole evening at three players, on a phone
def test_an_evening_entered_by_taps_on_a_phone(browser, server):
    errors: list = []
    page = new_page(browser, errors, **PHONE)
    page.goto(server.url + "/keeper")
    page.wait_for_selector("#k-p2")
    assert page.get_attribute('#k-count [data-count="3"]', "aria-pressed") == "true"
    page.click('#k-count [data-count="5"]')
    assert page.is_visible("#k-p4") and len(page.query_selector_all("#k-first option")) == 5
    page.click('#k-count [data-count="3"]')
    assert not page.query_selector("#k-p3")
    for i, name in enumerate(["Ann", "Bob", "Cid"]):
        page.fill(f"#k-p{i}", name)
    page.wait_for_function("() => document.querySelector('#k-ruleset').options.length >= 4")
    assert page.input_value("#k-ruleset") == "isko2018" and "Skat Order" in page.inner_text("#k-ruleset-about")
    page.fill("#k-price", "0,05")
    page.select_option("#k-settle", "pairwise")  # everybody settles with everybody (docs/rules.md 10.4)
    page.fill("#k-name", "Thursday")
    page.fill("#k-author", "Ann")
    problems = axe_problems(page, "new list")
    shot(page, "70-keeper-new-phone")
    assert fits(page)
    page.click("#k-create")
    page.wait_for_url("**/k/*")
    page.wait_for_selector("#k-entry .k-decl")
    list_id = page.url.rsplit("/", 1)[1]
    assert page.evaluate("(id) => Boolean(localStorage.getItem('skat.keeper.key.' + id))", list_id)
    assert "Game 1" in page.inner_text("#k-next") and "Ann deals" in page.inner_text("#k-next")
    # at three the dealer plays too: forehand Bob, middlehand Cid, rearhand Ann (dealer)
    assert page.eval_on_selector_all("#k-entry .k-decl .k-name", "els => els.map(e => e.textContent)") == ["Bob", "Cid", "Ann"]
    expect = ScoreKeeper(["Ann", "Bob", "Cid"], "isko", price="0.05", settle="pairwise")

    # game 1: Bob plays clubs with 2, 72 card points, bid 36: (2 + 1 game) x 12 = 36
    declarer(page, "Bob")
    tap(page, "game-clubs")
    tap(page, "mat-2")
    page.fill("#k-points", "72")
    page.select_option("#k-bid", "36")
    text = checked(page)
    assert "Bob · ♣\u00a0Clubs with\u00a02 · Worth 36 · +36" in text and "(2 + 1 game) × 12 = 36" in text
    problems += axe_problems(page, "entry form")
    shot(page, "71-keeper-entry-phone")
    save(page, 1)
    expect.add({"declarer": "Bob", "game": "clubs", "with": 2, "points": 72, "bid": 36})

    # game 2: Cid, Grand Hand with 1, 85 card points: (1 + 1 game + 1 hand) x 24 = 72
    assert "Bob deals" in page.inner_text("#k-next")
    declarer(page, "Cid")
    tap(page, "game-grand")
    tap(page, "hand")
    assert page.is_visible('#k-entry [data-f="sa"]')  # Schneider may be announced now
    tap(page, "mat-1")
    page.fill("#k-points", "85")
    page.select_option("#k-bid", "48")
    assert "Worth 72 · +72" in checked(page)
    save(page, 2)
    expect.add({"declarer": "Cid", "game": "grand", "hand": True, "with": 1, "points": 85, "bid": 48})

    # game 3: Ann, Null, won, bid 23: the fixed value 23
    declarer(page, "Ann")
    tap(page, "game-null")
    assert not page.is_visible("#k-points") and not page.query_selector('#k-entry [data-f="mat-1"]')  # no matadors
    tap(page, "won")
    page.select_option("#k-bid", "23")
    assert "Worth 23 · +23" in checked(page)
    save(page, 3)
    expect.add({"declarer": "Ann", "game": "null", "result": "won", "bid": 23})

    # game 4: Bob, hearts without 1, lost with 50: (1 + 1 game) x 10 = 20, lost twice that
    declarer(page, "Bob")
    tap(page, "game-hearts")
    tap(page, "mat-without")
    tap(page, "mat-1")
    page.fill("#k-points", "50")
    page.select_option("#k-bid", "20")
    assert "Worth 20 · −40" in checked(page)
    save(page, 4)
    expect.add({"declarer": "Bob", "game": "hearts", "without": 1, "points": 50, "bid": 20})

    # an impossible entry: 130 card points; refused with the reason, nothing stored, the form keeps it
    declarer(page, "Cid")
    tap(page, "game-spades")
    tap(page, "mat-1")
    page.fill("#k-points", "130")
    text = checked(page)
    assert "Not possible" in text and "130" in text and "0 to 120" in text, text
    assert page.is_disabled("#k-save")
    assert len(httpx.get(f"{server.url}/api/keeper/{list_id}").json()["sheet"]["games"]) == 4
    page.fill("#k-points", "40")  # corrected: lost with 40: (1 + 1) x 11 = 22, -44
    assert "Worth 22 · −44" in checked(page)
    assert page.input_value("#k-points") == "40" and page.get_attribute('#k-entry [data-f="game-spades"]', "aria-pressed") == "true"
    save(page, 5)
    expect.add({"declarer": "Cid", "game": "spades", "with": 1, "points": 40, "bid": 18})

    # the declarer's cards instead of with/without: the club and spade jacks make a grand "with 2",
    # (2 + 1 game) x 24 = 72 with 61 card points (checked, not saved)
    declarer(page, "Ann")
    tap(page, "game-grand")
    tap(page, "by-cards")
    for card in ["CJ", "SJ", "HA", "HT", "HK", "HQ", "H9", "H8", "H7", "DA", "DT", "SA", "S7"]:  # the 13th is refused
        tap(page, "card-" + card)
    assert page.get_attribute('#k-entry [data-f="card-S7"]', "aria-pressed") == "false"
    assert "12 of 12" in page.inner_text("#k-entry")
    page.fill("#k-points", "61")
    assert "Worth 72 · +72" in checked(page)
    page.locator("#k-g-mat").scroll_into_view_if_needed()
    shot(page, "71b-keeper-cards-phone")

    # an edit: game 1 had 95 card points, Schneider: (2 + 1 game + 1 schneider) x 12 = 48
    page.click('#k-sheet tr[data-n="1"] button.k-open')
    page.wait_for_selector("#k-dialog #k-edit")
    page.click("#k-edit")
    page.wait_for_selector("#k-entry-title:text('Edit game 1')")
    assert page.input_value("#k-points") == "72" and page.input_value("#k-bid") == "36"
    page.fill("#k-points", "95")
    assert "Worth 48 · +48" in checked(page)
    page.click("#k-save")
    page.wait_for_selector("#k-preview .k-saved:text('Game 1 changed.')")
    expect.edit(1, {"declarer": "Bob", "game": "clubs", "with": 2, "points": 95, "bid": 36})

    # a strike: game 3 was a misdeal; it keeps its number, struck through
    page.click('#k-sheet tr[data-n="3"] button.k-open')
    page.click("#k-strike")
    page.fill("#k-strike-reason", "misdeal")
    page.click("#k-strike-go")
    page.wait_for_selector("#k-dialog #k-restore")
    page.click("#k-close")
    expect.strike(3, reason="misdeal")
    assert row(page, 3)["struck"] and "misdeal" in row(page, 3)["text"]
    page.wait_for_function("() => K.state.seq === 7")

    # the list as the library computes it; by hand: Bob 48 - 40 = 8, Cid 72 - 44 = 28, Ann 0 (her Null struck);
    # Seeger-Fabian: Ann 40 + 40 for the others' lost games = 80, Bob 8 + 50 - 50 + 40 = 48, Cid 28 + 50 - 50 + 40 = 68
    assert_like_library(page, expect)
    assert expect.totals == [0, 8, 28] and expect.seeger_fabian == [80, 48, 68]
    assert foot(page)["Money at 0.05 a point"] == [f"{float(m):.2f}" for m in expect.money]
    assert [float(x.replace("−", "-")) for x in foot(page)["Pairwise (everybody with everybody)"]] == \
        [float(b) for b in expect.balance] and expect.balance == [3 * x for x in expect.settlement]
    problems += axe_problems(page, "list with entries")
    shot(page, "72-keeper-list-phone")
    assert fits(page)
    page.set_viewport_size({"width": 360, "height": 740})
    assert fits(page)
    shot(page, "73-keeper-list-360")

    # the edited game's history: both versions, with time and author
    page.click('#k-sheet tr[data-n="1"] button.k-open')
    page.wait_for_selector("#k-dialog .k-history li >> nth=1")
    items = page.eval_on_selector_all("#k-dialog .k-history li", "els => els.map(e => e.textContent)")
    assert len(items) == 2 and "entered" in items[0] and "72 card points" in items[0] and "by Ann" in items[0]
    assert "changed" in items[1] and "95 card points" in items[1]
    problems += axe_problems(page, "game dialog")
    shot(page, "74-keeper-history-phone")
    page.keyboard.press("Escape")
    assert page.is_hidden("#k-overlay")
    stored = httpx.get(f"{server.url}/api/keeper/{list_id}").json()
    assert stored["sheet"]["totals"] == expect.totals and stored["name"] == "Thursday"

    # the same list at the desktop: every column
    page.set_viewport_size(DESKTOP["viewport"])
    page.wait_for_timeout(100)
    shot(page, "75-keeper-list-desktop")
    assert page.is_visible("#k-sheet thead th:text('Value')") and page.is_visible("#k-sheet thead th:text('Declarer')")
    # "My lists" remembers it
    page.goto(server.url + "/keeper")
    page.wait_for_selector(f'#k-my-lists a[href="/k/{list_id}"]')
    assert "Thursday" in page.inner_text("#k-my-lists") and "you keep it" in page.inner_text("#k-my-lists")
    page.context.close()
    assert not problems, problems
    assert not errors


# ------------------------------------------------------------------ pub at four: Bock, Ramsch; a follower; languages
def test_pub_at_four_with_bock_and_ramsch_followed_live(browser, server):
    errors: list = []
    made = make_list(server, {"players": ["Ann", "Bob", "Cid", "Dan"], "ruleset": "pub", "first_dealer": "Ann"})
    page = new_page(browser, errors, **PHONE)
    page.goto(server.url + made["keeper_url"])
    page.wait_for_selector("#k-entry .k-decl")
    assert "#key" not in page.url and page.url.endswith(made["url"])  # the key is kept, not left in the address
    follower = new_page(browser, errors, **PHONE)
    follower.goto(page.input_value("#k-follow-link"))
    follower.wait_for_selector("#k-sheet table")
    assert follower.is_hidden("#k-entry") and not follower.query_selector("#k-save")
    assert not follower.query_selector("#k-keeper-link") and "follow" in follower.inner_text("#k-mode")

    # game 1, Ann deals and sits out: Dan spades without 3 lost 60:60 (-88): under pub a Bock round follows
    assert page.eval_on_selector_all("#k-entry .k-decl .k-name", "els => els.map(e => e.textContent)") == ["Bob", "Cid", "Dan"]
    assert "Ann sits out" in page.inner_text("#k-next")
    assert page.is_visible('#k-entry [data-f="ramsch"]') and not page.query_selector('#k-entry [data-f="passed"]')
    declarer(page, "Dan")
    tap(page, "game-spades")
    tap(page, "mat-without")
    tap(page, "mat-3")
    page.fill("#k-points", "60")
    page.select_option("#k-bid", "33")
    assert "Worth 44 · −88" in checked(page)
    assert page.is_visible('#k-entry [data-f="kontra"]')  # pub plays Kontra
    save(page, 1, name="Dan")
    follower.wait_for_selector('#k-sheet tr[data-n="1"]', timeout=LIVE_MS)  # live, without reloading
    assert "Bock round" in page.inner_text("#k-next") and "Bock round" in follower.inner_text("#k-next")
    page.evaluate("() => scrollTo(0, 0)")
    shot(page, "76-keeper-bock-coming-phone")

    # game 2 in the Bock round: Ann Grand with 1, 80 card points, Kontra: 48 x 2 (Kontra) x 2 (Bock) = 192
    declarer(page, "Ann")
    tap(page, "game-grand")
    tap(page, "mat-1")
    page.fill("#k-points", "80")
    tap(page, "kontra")
    page.select_option("#k-bid", "48")
    assert "+192" in checked(page)
    save(page, 2)
    assert row(page, 2)["bock"]

    # game 3, all passed: a Ramsch with each player's card points (the sum shown as it is typed)
    tap(page, "ramsch")
    names = page.eval_on_selector_all("#k-entry .k-ramsch-row label", "els => els.map(e => e.textContent)")
    assert names == ["Dan", "Ann", "Bob"]  # Cid deals and sits out
    page.fill("#k-rp-0", "30")
    page.fill("#k-rp-1", "50")
    assert "Sum 80 of 120" in page.inner_text("#k-ramsch-sum")
    page.fill("#k-rp-2", "40")
    assert "Sum 120" in page.inner_text("#k-ramsch-sum")
    assert "Ann" in checked(page)
    shot(page, "77-keeper-ramsch-phone")
    save(page, 3)
    follower.wait_for_selector('#k-sheet tr[data-n="3"]', timeout=LIVE_MS)

    expect = ScoreKeeper(["Ann", "Bob", "Cid", "Dan"], "pub")
    expect.add({"declarer": "Dan", "game": "spades", "without": 3, "points": 60, "bid": 33})
    expect.add({"declarer": "Ann", "game": "grand", "with": 1, "points": 80, "bid": 48, "kontra": True})
    expect.add({"declarer": "ramsch", "ramsch": {"Dan": 30, "Ann": 50, "Bob": 40}})
    sheet = expect.sheet_json()
    assert [g["bock"] for g in sheet["games"]] == [False, True, True]
    assert sheet["games"][1]["scores"][0] == 192 and sheet["games"][2]["scores"][0] == -100  # Ann took most: -50, doubled
    assert_like_library(page, expect)
    assert_like_library(follower, expect)
    assert "Bock round" in page.inner_text("#k-next")  # the round lasts four deals

    # the languages: the same switch as the table's page
    page.select_option("#k-lang", "de")
    assert "Bockrunde" in page.inner_text("#k-next") and "Spiel 4" in page.inner_text("#k-next")
    assert "Alleinspieler" in page.text_content("#k-entry h3") and "Spiel speichern" in page.inner_text("#k-save")
    assert "Seeger-Fabian" in page.inner_text("#k-sheet") and "Summe" in page.inner_text("#k-sheet")
    declarer(page, "Bob")
    tap(page, "game-clubs")
    assert "Kreuz" in page.inner_text("#k-entry") and "mit" in page.inner_text("#k-entry")
    tap(page, "mat-1")
    page.fill("#k-points", "130")  # the refusal in German, from its code
    assert "130 Augen sind unmöglich" in checked(page)
    page.fill("#k-points", "70")  # the explanation worded in German from the reckoning: (1 + 1 Spiel) x 12 = 24
    page.wait_for_selector("#k-preview .k-explain:has-text('gewonnen mit 70 Augen')")
    assert "(1 + 1 Spiel) × 12 = 24, gewonnen mit 70 Augen" in page.inner_text("#k-preview .k-explain")
    shot(page, "78-keeper-entry-de-phone")
    page.select_option("#k-lang", "ru")
    assert "Бок-круг" in page.inner_text("#k-next") and "Играющий" in page.text_content("#k-entry h3")
    assert "Трефы" in page.inner_text("#k-entry") and "Сохранить игру" in page.inner_text("#k-entry")
    problems = axe_problems(page, "entry form (ru)")
    shot(page, "79-keeper-entry-ru-phone")
    page.select_option("#k-lang", "en")
    assert page.evaluate("() => localStorage.getItem('skat.lang')") == "en"

    # game 4, all passed again: a Ramsch written down by its loser alone (Dan deals; Ann, Bob, Cid play)
    tap(page, "ramsch")
    page.fill("#k-rp-1", "62")
    assert "loser alone" in page.inner_text("#k-ramsch-sum")
    assert "−124" in checked(page)  # Bob took most, 62, doubled in the Bock round (by hand)
    save(page, 4)
    expect.add({"declarer": "ramsch", "ramsch": {"Bob": 62}})
    assert expect.sheet_json()["games"][3]["scores"] == [0, -124, 0, 0]
    assert_like_library(page, expect)
    page.set_viewport_size(DESKTOP["viewport"])
    shot(page, "80-keeper-pub-desktop")
    follower.set_viewport_size(DESKTOP["viewport"])
    shot(follower, "81-keeper-follower-desktop")
    problems += axe_problems(follower, "follower")
    page.context.close()
    follower.context.close()
    assert not problems, problems
    assert not errors


# ------------------------------------------------------------------ offline
def test_games_entered_offline_are_queued_and_sent_once(browser, server):
    errors: list = []
    made = make_list(server, {"players": ["Ann", "Bob", "Cid"], "ruleset": "isko"})
    page = new_page(browser, errors, **PHONE)
    page.goto(server.url + made["keeper_url"])
    page.wait_for_selector("#k-entry .k-decl")
    page.evaluate("() => localStorage.setItem('skat.keeper.author', 'Bob')")
    follower = new_page(browser, errors, **PHONE)
    follower.goto(server.url + made["url"])
    follower.wait_for_selector("#k-sheet table")

    # the connection is lost: a banner says so, the game is kept in the browser, "waiting to be sent"
    page.context.set_offline(True)
    page.wait_for_selector("#k-banner:not(.hidden)")
    assert "No connection" in page.inner_text("#k-banner")
    declarer(page, "Bob")
    tap(page, "game-grand")
    tap(page, "mat-2")
    page.fill("#k-points", "78")
    page.wait_for_selector("#k-preview .k-note")  # no valuation offline; saving is allowed
    page.click("#k-save")
    page.wait_for_selector("#k-sheet tr.k-waiting")
    assert "waiting to be sent" in page.inner_text("#k-sheet tr.k-waiting")
    assert "1 game waiting to be sent" in page.inner_text("#k-banner")
    queued = page.evaluate(f"() => JSON.parse(localStorage.getItem('skat.keeper.queue.{made['id']}'))")
    assert len(queued) == 1 and queued[0]["entry"]["game"] == "grand"
    shot(page, "82-keeper-offline-phone")
    assert httpx.get(server.url + "/api/keeper/" + made["id"]).json()["seq"] == 0

    # back online: sent with its id, valued, and the follower sees it
    page.context.set_offline(False)
    page.wait_for_selector('#k-sheet tr[data-n="1"]', timeout=LIVE_MS)
    page.wait_for_selector("#k-banner", state="hidden")
    assert not page.query_selector("#k-sheet tr.k-waiting") and row(page, 1)["value"] == "72"
    follower.wait_for_selector('#k-sheet tr[data-n="1"]', timeout=LIVE_MS)

    # a change that reached the server while its answer was lost is sent again after a reload: stored once
    def lose_answer(route):
        route.fetch()
        route.abort()
    page.route("**/api/keeper/*/changes", lose_answer)
    declarer(page, "Cid")
    tap(page, "game-null")
    tap(page, "lost")
    checked(page)
    page.click("#k-save")
    page.wait_for_selector("#k-sheet tr.k-waiting")
    assert httpx.get(server.url + "/api/keeper/" + made["id"]).json()["seq"] == 2
    page.unroute("**/api/keeper/*/changes")
    page.route("**/api/keeper/*/changes", lambda route: route.abort())
    page.reload()
    page.wait_for_selector("#k-sheet tr.k-waiting")  # the reload keeps the queue
    page.unroute("**/api/keeper/*/changes")
    page.evaluate("() => window.dispatchEvent(new Event('online'))")
    page.wait_for_function("() => !document.querySelector('#k-sheet tr.k-waiting')")
    state = httpx.get(server.url + "/api/keeper/" + made["id"]).json()
    assert state["seq"] == 2 and len(state["sheet"]["games"]) == 2
    assert state["sheet"]["games"][1]["entry"] == {"declarer": "Cid", "game": "null", "result": "lost", "bid": 18}
    assert state["list"]["games"][1]["history"][0]["author"] == "Bob"
    follower.wait_for_selector('#k-sheet tr[data-n="2"]', timeout=LIVE_MS)

    # a game refused when it is sent is kept with its reason, for correction
    page.context.set_offline(True)
    page.wait_for_selector("#k-banner:not(.hidden)")
    declarer(page, "Ann")
    tap(page, "game-diamonds")
    tap(page, "mat-1")
    page.fill("#k-points", "125")
    page.click("#k-save")
    page.wait_for_selector("#k-sheet tr.k-waiting")
    page.context.set_offline(False)
    page.wait_for_selector("#k-sheet tr.k-refused", timeout=LIVE_MS)
    assert "not accepted" in page.inner_text("#k-sheet tr.k-refused") and "125" in page.inner_text("#k-sheet tr.k-refused")
    page.click("#k-sheet tr.k-refused button:text('Correct')")
    assert page.input_value("#k-points") == "125"
    page.fill("#k-points", "65")
    checked(page)
    page.click("#k-save")
    page.wait_for_selector('#k-sheet tr[data-n="3"]')
    assert not page.query_selector("#k-sheet tr.k-waiting")
    assert len(httpx.get(server.url + "/api/keeper/" + made["id"]).json()["sheet"]["games"]) == 3
    page.context.close()
    follower.context.close()
    assert not errors
