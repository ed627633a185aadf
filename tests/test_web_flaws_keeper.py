"""What a new player saw on the score keeper's and the tournament's pages (issue 32), checked as the page shows
it, on a desktop (1366×768) and a phone (390×844), in a real headless Chromium against ``skat serve``:

* games entered without a connection: the dealer moves on with each of them; once the server has them, the
  header and the form agree on the next game and its dealer, and "kept on this phone, sent when ..." is gone;
* the rule set's description in the page's language;
* an overbid game said as a Skat player says it (docs/rules.md 4.4: bid 36, game worth 24, lost; counted at the
  next multiple of the base value that reaches the bid, doubled);
* an empty tournament form says what to enter, not that "0 players cannot be seated";
* the same list again (a change's answer, then its broadcast; a reconnect) keeps the sheet's rows and the focus.

Screenshots: test-output/screenshots/95-*."""

from __future__ import annotations

import json
import re
import time

import httpx
import pytest

from test_server_support import ServerProcess, shot
from test_web_e2e import new_page

SIZES = {
    "desktop": {"viewport": {"width": 1366, "height": 768}},
    "phone": {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True},
}
LIVE_MS = 20_000


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    srv = ServerProcess(f"sqlite:///{tmp_path_factory.mktemp('flaws') / 'flaws.sqlite'}").start()
    yield srv
    srv.stop()


def open_page(browser, errors: list, size: str, lang: str, url: str):
    page = new_page(browser, errors, **SIZES[size])
    page.add_init_script(f"localStorage.setItem('skat.lang', '{lang}'); localStorage.setItem('skat.keeper.author', 'Anna')")
    page.goto(url)
    return page


def make_list(server, ruleset: str = "isko") -> dict:
    res = httpx.post(server.url + "/api/keeper", json={"players": ["Anna", "Bert", "Carla"], "ruleset": ruleset})
    assert res.status_code == 201, res.text
    return res.json()


def tap(page, f: str) -> None:
    page.click(f'#k-entry [data-f="{f}"]')


def declarer(page, name: str) -> None:
    page.click(f'#k-entry .k-decl:has(.k-name:text-is("{name}"))')


def shown(page) -> dict:
    """The next game as the header and the form show it: their words, and who may declare."""
    return {"next": " ".join(page.inner_text("#k-next").split()), "form": page.inner_text("#k-entry-title"),
            "declarers": page.eval_on_selector_all("#k-entry .k-decl .k-name", "els => els.map(e => e.textContent)"),
            "preview": page.inner_text("#k-preview"),
            "banner": page.inner_text("#k-banner") if page.is_visible("#k-banner") else ""}


# ------------------------------------------------------------------ 4: offline, then synced
@pytest.mark.parametrize("size", SIZES)
def test_games_entered_offline_move_the_dealer_on_and_agree_once_sent(browser, server, size):
    errors: list = []
    made = make_list(server)
    page = open_page(browser, errors, size, "de", server.url + made["keeper_url"])
    page.wait_for_selector("#k-entry .k-decl")
    assert shown(page)["next"] == "Spiel 1 Anna gibt" and shown(page)["form"] == "Spiel 1 eintragen"

    page.context.set_offline(True)
    page.wait_for_selector("#k-banner:not(.hidden)")
    # game 1 (Anna deals): Bert, Grand with 2, 78 card points
    declarer(page, "Bert")
    tap(page, "game-grand")
    tap(page, "mat-2")
    page.fill("#k-points", "78")
    page.wait_for_selector("#k-preview .k-note")
    page.click("#k-save")
    page.wait_for_selector("#k-sheet tr.k-waiting")
    now = shown(page)
    assert now["next"] == "Spiel 2 Bert gibt" and now["form"] == "Spiel 2 eintragen", now
    assert now["declarers"] == ["Carla", "Anna", "Bert"], now  # Bert deals: Carla forehand
    assert "es wird gesendet, sobald die Verbindung zurück ist" in now["preview"]
    # game 2 (Bert deals): Carla, Null, lost
    declarer(page, "Carla")
    tap(page, "game-null")
    tap(page, "lost")
    page.wait_for_selector("#k-preview .k-note")
    page.click("#k-save")
    page.wait_for_function("() => document.querySelectorAll('#k-sheet tr.k-waiting').length === 2")
    now = shown(page)
    assert now["next"] == "Spiel 3 Carla gibt" and now["form"] == "Spiel 3 eintragen", now
    assert now["declarers"] == ["Anna", "Bert", "Carla"], now
    assert "2 Spiele warten auf Senden" in now["banner"]
    page.evaluate("() => scrollTo(0, 0)")  # the header and the form, as the keeper looks at them
    shot(page, f"95-keeper-offline-two-games-{size}")
    assert httpx.get(server.url + "/api/keeper/" + made["id"]).json()["seq"] == 0

    # back online; the list's new state comes over the WebSocket before the answer to the sending (held back a
    # moment here, as a slow connection does): the games are counted once
    def slow_answer(route):
        response = route.fetch()
        time.sleep(1.0)
        route.fulfill(response=response)
    page.route("**/api/keeper/*/changes", slow_answer)
    page.evaluate("""() => { window.seenNext = []; const box = document.querySelector('#k-next');
        new MutationObserver(() => window.seenNext.push(box.textContent)).observe(box, {childList: true, subtree: true}); }""")
    page.context.set_offline(False)
    page.wait_for_function("() => !document.querySelector('#k-sheet tr.k-waiting')", timeout=LIVE_MS)
    page.wait_for_selector("#k-banner", state="hidden", timeout=LIVE_MS)
    page.wait_for_timeout(300)
    now = shown(page)
    assert now["next"] == "Spiel 3 Carla gibt" and now["form"] == "Spiel 3 eintragen", now
    assert now["declarers"] == ["Anna", "Bert", "Carla"], now
    assert "wird gesendet" not in now["preview"] and "Spiel 2 gespeichert." in now["preview"], now
    seen = page.evaluate("() => window.seenNext")
    assert seen and all(s.startswith("Spiel 3 Carla gibt") for s in seen), seen  # never a game counted twice
    state = httpx.get(server.url + "/api/keeper/" + made["id"]).json()
    assert len(state["sheet"]["games"]) == 2 and state["sheet"]["next_dealer"] == "Carla"
    assert [g["dealer"] for g in state["sheet"]["games"]] == ["Anna", "Bert"]
    page.evaluate("() => scrollTo(0, 0)")  # the header and the form, as the keeper looks at them
    shot(page, f"95-keeper-offline-synced-{size}")
    page.unroute("**/api/keeper/*/changes")

    # the next game entered online goes on from there
    declarer(page, "Anna")
    tap(page, "game-hearts")
    tap(page, "mat-1")
    page.fill("#k-points", "61")
    page.wait_for_selector("#k-preview .k-value")
    page.click("#k-save")
    page.wait_for_selector('#k-sheet tr[data-n="3"]')
    page.wait_for_selector("#k-preview .k-saved")
    now = shown(page)
    assert now["next"] == "Spiel 4 Anna gibt" and now["form"] == "Spiel 4 eintragen", now
    page.context.close()
    assert not errors


# ------------------------------------------------------------------ 5: the rule set in the page's language
@pytest.mark.parametrize("size", SIZES)
def test_the_rule_sets_are_described_in_the_pages_language(browser, server, size):
    errors: list = []
    page = open_page(browser, errors, size, "de", server.url + "/keeper")
    page.wait_for_function("() => document.querySelector('#k-ruleset').options.length >= 4")
    about = page.inner_text("#k-ruleset-about")
    assert about == "Internationale Skatordnung 2018 (Turnierregeln)", about
    page.select_option("#k-ruleset", "pub")
    about = page.inner_text("#k-ruleset-about")
    assert about.startswith("Kneipenregeln: Ramsch (Grand Hand erlaubt), wenn alle passen"), about
    assert "Pub rules" not in about and "when all pass" not in about
    page.select_option("#k-ruleset", "old_pre1999")
    assert page.inner_text("#k-ruleset-about") == "ISkO vor 1999: verlorene Handspiele zählen nicht doppelt"
    page.select_option("#k-ruleset", "pirate")
    about = page.inner_text("#k-ruleset-about")
    assert about.startswith("Piratenskat: bei 100 eine Bockrunde") and "Seed" not in about, about
    shot(page, f"95-keeper-new-de-{size}")
    page.select_option("#k-lang", "ru")
    assert page.inner_text("#k-ruleset-about").startswith("Пиратский скат: при 100 бок-круг")
    page.select_option("#k-lang", "en")
    assert page.inner_text("#k-ruleset-about").startswith("Pirate skat: a Bock round at 100")
    page.context.close()
    assert not errors


# ------------------------------------------------------------------ 6: an overbid game
@pytest.mark.parametrize("size", SIZES)
def test_an_overbid_game_reads_as_a_skat_player_says_it(browser, server, size):
    errors: list = []
    made = make_list(server, "pub")
    page = open_page(browser, errors, size, "de", server.url + made["keeper_url"])
    page.wait_for_selector("#k-entry .k-decl")
    # Bert plays clubs with 1: (1 + 1 game) x 12 = 24; bid 36: overbid, lost at 3 x 12 = 36, doubled, Kontra
    declarer(page, "Bert")
    tap(page, "game-clubs")
    tap(page, "mat-1")
    page.fill("#k-points", "70")
    page.select_option("#k-bid", "36")
    tap(page, "kontra")
    page.wait_for_selector("#k-preview .k-value")
    text = page.inner_text("#k-preview")
    assert "Bert · ♣\u00a0Kreuz mit\u00a01 · überreizt: gereizt 36, Wert 24 · −144" in text, text
    assert ("(1 + 1 Spiel) × 12 = 24; überreizt: gereizt 36, Spielwert 24 → verloren (70 Augen); "
            "gewertet wird 3 × 12 = 36: −2 × 36 × 2 (Kontra) = −144") in text, text
    assert "verloren mit 36" not in text and "mit\u00a01 · Wert 24" not in text
    shot(page, f"95-keeper-overbid-de-{size}")
    page.click("#k-save")
    page.wait_for_selector('#k-sheet tr[data-n="1"]')
    mark = page.locator('#k-sheet tr[data-n="1"] abbr.mark.overbid').first
    assert mark.text_content() == "Ü" and mark.get_attribute("title") == "überreizt: gereizt 36, Wert 24"
    page.locator('#k-sheet tr[data-n="1"]').scroll_into_view_if_needed()
    shot(page, f"95-keeper-overbid-sheet-de-{size}")
    assert "Spiel 1 gespeichert." in page.inner_text("#k-preview")
    page.select_option("#k-lang", "en")
    assert "Game 1 saved." in page.inner_text("#k-preview")  # the note speaks the page's language too
    page.click('#k-sheet tr[data-n="1"] button.k-open')
    page.wait_for_selector("#k-dialog .k-value")
    text = page.inner_text("#k-dialog .k-value")
    assert "overbid: bid 36, worth 24 · −144" in text, text
    assert ("(1 + 1 game) × 12 = 24; overbid: bid 36, game value 24 → lost (70 card points); "
            "counted as 3 × 12 = 36: −2 × 36 × 2 (Kontra) = −144") in text, text
    shot(page, f"95-keeper-overbid-dialog-en-{size}")
    page.context.close()
    assert not errors


# ------------------------------------------------------------------ 9: the empty tournament form
@pytest.mark.parametrize("size", SIZES)
def test_an_empty_tournament_form_says_what_to_enter(browser, server, size):
    errors: list = []
    page = open_page(browser, errors, size, "en", server.url + "/tournament")
    page.wait_for_selector("#f-ruleset option[value=isko2018]", state="attached")
    count = page.locator("#f-count")
    assert count.inner_text() == "Enter the players' names, one per line: at least 3."
    assert "cannot be seated" not in count.inner_text() and "bad" not in (count.get_attribute("class") or "")
    rgb = [int(x) for x in re.findall(r"\d+", count.evaluate("el => getComputedStyle(el).color"))[:3]]
    assert max(rgb) < 120, rgb  # dark on the light panel: readable, not a faded whisper
    shot(page, f"95-tournament-empty-{size}")
    page.fill("#f-players", "Anna\nBert")
    assert count.inner_text() == "2 players: at least 3 are needed" and "bad" in count.get_attribute("class")
    page.fill("#f-players", "Anna\nBert\nCarla\nDieter\nEmil")
    assert count.inner_text() == "5 players cannot be seated at tables of 3 and 4"
    page.fill("#f-players", "Anna\nBert\nCarla\nDieter\nEmil\nFrieda\nGünther")
    assert count.inner_text() == "7 players: 1 table of 4, 1 table of 3"
    page.fill("#f-players", "")
    page.select_option("#tn-lang", "de")
    assert count.inner_text() == "Tragt die Namen der Spieler ein, einen je Zeile: mindestens 3."
    shot(page, f"95-tournament-empty-de-{size}")
    page.context.close()
    assert not errors


# ------------------------------------------------------------------ the same list again keeps the sheet
def test_the_same_list_again_keeps_the_sheets_rows_and_focus(browser, server):
    """A state the page already shows (the broadcast after a change's own answer, the state a reconnect brings)
    leaves the sheet as it is: the row under the keeper's finger and the focused button stay."""
    errors: list = []
    made = make_list(server)
    page = new_page(browser, errors, **SIZES["desktop"])
    page.add_init_script("localStorage.setItem('skat.lang', 'en'); localStorage.setItem('skat.keeper.author', 'Anna')")
    lists: list[str] = []
    routed: dict = {}

    def route(ws) -> None:  # the real server behind it; its list states noted, so that one can come twice
        to_server = ws.connect_to_server()

        def from_server(message) -> None:
            if isinstance(message, str) and json.loads(message).get("type") == "list":
                lists.append(message)
            ws.send(message)

        to_server.on_message(from_server)
        routed["ws"] = ws

    page.route_web_socket(re.compile(r"/ws/keeper/"), route)
    page.goto(server.url + made["keeper_url"])
    page.wait_for_selector("#k-entry .k-decl")
    declarer(page, "Bert")
    tap(page, "game-grand")
    tap(page, "mat-2")
    page.fill("#k-points", "78")
    page.click("#k-save")
    page.wait_for_selector('#k-sheet tr[data-n="1"]')
    page.wait_for_function("() => document.querySelector('#k-preview').innerText.includes('Game 1 saved.')")
    deadline = time.monotonic() + 10
    while not any(json.loads(m)["seq"] >= 1 and json.loads(m)["sheet"]["games"] for m in lists):
        assert time.monotonic() < deadline, "the saved game's broadcast never came"
        page.wait_for_timeout(50)
    page.eval_on_selector('#k-sheet tr[data-n="1"]', "el => { el.dataset.drawn = 'first'; }")
    page.focus('#k-sheet tr[data-n="1"] button.k-open')
    same = lists[-1]
    renamed = json.loads(same)
    renamed["seq"] += 1
    renamed["name"] = "Thursday table"  # a newer state that changes only the name: the sign the two came through
    routed["ws"].send(same)
    routed["ws"].send(json.dumps(renamed))
    page.wait_for_function("() => document.querySelector('#k-list-name').textContent === 'Thursday table'")
    assert page.get_attribute('#k-sheet tr[data-n="1"]', "data-drawn") == "first"  # the same row, not a new one
    assert page.evaluate("() => document.activeElement?.closest('tr')?.dataset.n") == "1"
    assert page.locator("#k-sheet tr[data-n]").count() == 1
    # a state whose sheet changed is drawn anew
    changed = json.loads(same)
    changed["seq"] += 2
    changed["sheet"]["totals"] = [t + 1 for t in changed["sheet"]["totals"]]
    routed["ws"].send(json.dumps(changed))
    page.wait_for_function("() => !document.querySelector('#k-sheet tr[data-n=\"1\"]').dataset.drawn")
    page.context.close()
    assert not errors
