"""The club tournament's page in a real headless Chromium (docs/keeper-server.md, "Tournaments"): the director
starts a tournament of 7 in the form at /tournament, draws series 1 by lot at the desk and hands each table its
keeper's link; games entered at both tables (through the API, with the table's key from the link) show at once
on the public ranking on a phone, in the order and with the points the server's library computes; a late
player is registered, one withdraws, series 2 is drawn by ranking; a lost connection is shown and mended; the
texts in German and Russian; axe-core on the form, the desk and the ranking; nothing wider than a phone.
Screenshots (80-tournament-*) go to test-output/screenshots."""

from __future__ import annotations

import httpx

from test_server_support import ServerProcess, axe_problems, shot
from test_server_tournament import games_for
from test_web_e2e import new_page

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
SMALL_PHONE = {"viewport": {"width": 360, "height": 740}, "is_mobile": True, "has_touch": True}
DESKTOP = {"viewport": {"width": 1280, "height": 900}}
PLAYERS = ["Anna", "Bernd", "Carla", "Dieter", "Emil", "Frieda"]

SHOWN_RANKING = """() => [...document.querySelectorAll('#tn-rank-table tbody tr')].map(r =>
    [r.querySelector('td.rank').textContent, r.querySelector('.who .tn-pname').textContent,
     r.querySelector('td.pts').textContent].join(' ')).join(' | ')"""


def ranking_text(state: dict) -> str:
    return " | ".join(f"{s['rank']} {s['player']} {s['points']}" for s in state["ranking"])


def no_sideways_scroll(page, where: str) -> None:
    """Neither the page nor the ranking scrolls sideways (the ranking of two series fits a phone)."""
    wide = page.evaluate("""() => [document.documentElement.scrollWidth, document.documentElement.clientWidth,
        document.querySelector('.tn-scroll').scrollWidth, document.querySelector('.tn-scroll').clientWidth]""")
    assert wide[0] <= wide[1], f"{where}: the page is {wide[0]} px wide in a {wide[1]} px window"
    assert wide[2] <= wide[3], f"{where}: the ranking is {wide[2]} px wide in {wide[3]} px"


def enter(server, url: str, key: str, table: dict, count: int, start: int = 0) -> None:
    games = games_for(table["players"])[start:start + count]
    r = httpx.post(f"{server.url}/api/keeper/{table['list']}/changes", headers={"X-Keeper-Key": key}, json={
        "changes": [{"id": f"g{start + i}", "op": "add", "entry": g} for i, g in enumerate(games)]})
    assert r.status_code == 200 and all(x["ok"] for x in r.json()["results"]), r.text


def test_a_club_evening_from_the_form_to_the_second_series(browser, tmp_path):
    db = f"sqlite:///{tmp_path / 'tournament.sqlite'}"
    server = ServerProcess(db).start()
    errors: list = []
    problems: list[str] = []
    try:
        # the director starts the tournament in the form: six names typed, the seventh added alone
        d = new_page(browser, errors, **DESKTOP, permissions=["clipboard-read", "clipboard-write"])
        d.goto(server.url + "/tournament")
        d.wait_for_selector("#f-ruleset option[value=isko2018]", state="attached")
        assert d.input_value("#f-games4") == "48" and d.input_value("#f-games3") == "36"
        assert d.input_value("#f-ruleset") == "isko2018"
        d.fill("#f-name", "Preisskat im Adler")
        d.fill("#f-players", "\n".join(PLAYERS))
        d.fill("#f-one", "Günther")
        d.press("#f-one", "Enter")
        assert d.inner_text("#f-count") == "7 players: 1 table of 4, 1 table of 3"
        shot(d, "80-tournament-new-desktop")
        problems += axe_problems(d, "form-desktop")
        d.set_viewport_size(PHONE["viewport"])
        shot(d, "80-tournament-new-phone")
        no_sideways_scroll(d, "form-phone")
        d.set_viewport_size(DESKTOP["viewport"])
        d.click("#f-create")
        d.wait_for_url("**/tn/*")
        tid = d.url.rsplit("/", 1)[1]
        key = d.evaluate(f"() => localStorage.getItem('skat.tournament.{tid}')")
        assert len(tid) == 32 and key
        d.wait_for_selector("#tn-draw-lot:has-text('Draw series 1 by lot')")
        assert d.is_hidden("#tn-draw-ranking") and d.locator("#tn-player-list li").count() == 7
        # series 1 by lot: both tables with their players and their keepers' links
        d.fill("#tn-seed", "11")
        d.click("#tn-draw-lot")
        d.wait_for_function("() => document.querySelectorAll('.tn-table .tn-keeper-url').length === 2")
        state = httpx.get(f"{server.url}/api/tournaments/{tid}").json()
        tables = state["series"][0]["tables"]
        assert [len(t["players"]) for t in tables] == [4, 3]
        links = [d.get_attribute(f"#tn-k-1-{n}", "data-url") for n in (1, 2)]
        keys = httpx.get(f"{server.url}/api/tournaments/{tid}/keys", headers={"X-Tournament-Key": key}).json()
        assert links == [server.url + x["keeper_url"] for x in keys["series"][0]["tables"]]
        for n, t in enumerate(tables, 1):
            card = d.locator(".tn-table").nth(n - 1)
            assert card.locator(".tn-seats li .tn-pname").all_inner_texts() == t["players"]
            assert card.locator("a:has-text('Follow the list')").get_attribute("href") == f"/k/{t['list']}"
            assert "0 / " + str(t["limit"]) in card.inner_text()
        d.click(".tn-table >> nth=0 >> button.copy")
        d.wait_for_selector(".tn-table >> nth=0 >> button.copy:has-text('Copied')")
        assert d.evaluate("() => navigator.clipboard.readText()") == links[0]
        d.evaluate("() => document.querySelector('#tn-draw').scrollIntoView()")
        shot(d, "81-tournament-desk-desktop")
        problems += axe_problems(d, "desk-desktop")

        # everybody else follows the ranking on a phone
        p = new_page(browser, errors, **PHONE)
        p.goto(f"{server.url}/tn/{tid}")
        p.wait_for_function("() => TN.connected && document.querySelectorAll('#tn-rank-table tbody tr').length === 7")
        assert p.is_hidden("#tn-desk") and p.locator(".tn-keeper").count() == 0
        # games at both tables, entered with the key from each table's link
        for t, link in zip(tables, links, strict=True):
            enter(server, link, link.split("#key=")[1], t, 2)
        state = httpx.get(f"{server.url}/api/tournaments/{tid}").json()
        p.wait_for_function(f"() => ({SHOWN_RANKING})() === {ranking_text(state)!r}")
        assert state["ranking"][0]["points"] > 0
        p.wait_for_function("() => document.querySelector('.tn-table').innerText.includes('2 / 48')")
        d.wait_for_function("() => document.querySelector('.tn-table').innerText.includes('2 / 48')")
        shot(p, "82-tournament-ranking-phone")
        problems += axe_problems(p, "ranking-phone")
        no_sideways_scroll(p, "ranking-phone")

        # the server goes away for a moment: the phone says so, and is back by itself
        server.stop()
        p.wait_for_selector("#tn-banner:not(.hidden)")
        assert "Connection lost" in p.inner_text("#tn-banner")
        server = ServerProcess(db, port=server.port).start()
        p.wait_for_function("() => TN.connected", timeout=15000)
        p.wait_for_selector("#tn-banner", state="hidden")
        enter(server, links[1], links[1].split("#key=")[1], tables[1], 1, start=2)
        state = httpx.get(f"{server.url}/api/tournaments/{tid}").json()
        p.wait_for_function(f"() => ({SHOWN_RANKING})() === {ranking_text(state)!r}")
        d.wait_for_function("() => TN.connected", timeout=15000)

        # a late player and a withdrawal at the desk, then series 2 by the ranking
        d.fill("#tn-late", "Otto")
        d.click("#tn-register-btn")
        d.wait_for_function("() => document.querySelectorAll('#tn-player-list li').length === 8")
        gone = state["ranking"][-1]["player"]
        d.once("dialog", lambda dialog: dialog.accept())
        d.get_by_role("button", name=f"Withdraw {gone}").click()
        d.wait_for_selector(f"#tn-player-list li.withdrawn:has-text('{gone}')")
        d.wait_for_selector("#tn-draw-ranking:has-text('Draw series 2 by ranking')")
        d.once("dialog", lambda dialog: dialog.accept())  # series 1 is not finished: drawn all the same
        d.click("#tn-draw-ranking")
        d.wait_for_function("() => document.querySelectorAll('.tn-one-series').length === 2"
                            " && document.querySelectorAll('.tn-keeper-url').length === 4")
        state = httpx.get(f"{server.url}/api/tournaments/{tid}").json()
        second = state["series"][1]["tables"]
        assert second[0]["players"] == [s["player"] for s in state["ranking"] if not s["withdrawn"]][:4]
        assert "Otto" in second[1]["players"] and gone not in second[0]["players"] + second[1]["players"]
        first_card = d.locator(".tn-one-series").first
        assert first_card.locator("h3").inner_text() == "Series 2"
        assert first_card.locator(".tn-table").first.locator(".tn-pname").all_inner_texts() == second[0]["players"]
        pdf = first_card.locator("a:has-text('Blank lists (PDF)')").get_attribute("href")
        assert httpx.get(server.url + pdf, timeout=60).content.startswith(b"%PDF")
        csv = httpx.get(server.url + d.get_attribute("#tn-rank-csv", "href")).text
        assert "Otto" in csv
        d.evaluate("() => window.scrollTo(0, 0)")
        shot(d, "83-tournament-desk-series-2-desktop")
        # the phone sees the new series and the withdrawn player at once
        p.wait_for_function("() => document.querySelectorAll('.tn-one-series').length === 2")
        p.wait_for_selector(f"#tn-rank-table tr.withdrawn:has-text('{gone}')")
        assert p.locator(".tn-one-series").first.locator("h3").inner_text() == "Series 2"
        no_sideways_scroll(p, "ranking-phone-series-2")

        # in German and in Russian
        p.select_option("#tn-lang", "de")
        assert p.inner_text("#tn-ranking-h") == "Rangliste"
        text = p.inner_text("body")
        assert "Serie 2" in text and "Tisch 1" in text and "abgemeldet" in text and "Liste verfolgen" in text
        shot(p, "84-tournament-ranking-phone-de")
        no_sideways_scroll(p, "ranking-phone-de")
        d.select_option("#tn-lang", "de")
        desk = d.inner_text("body")
        assert "Spielleitung" in desk and "Serie 3 auslosen" in desk and "Nachmelden" in desk and "Leere Listen (PDF)" in desk
        shot(d, "85-tournament-desk-de")
        p.select_option("#tn-lang", "ru")
        assert p.inner_text("#tn-ranking-h") == "Рейтинг"
        text = p.inner_text("body")
        assert "Серия 2" in text and "Стол 1" in text and "выбыл" in text
        p.set_viewport_size(SMALL_PHONE["viewport"])
        shot(p, "86-tournament-ranking-small-phone-ru")
        no_sideways_scroll(p, "ranking-small-phone-ru")
        problems += axe_problems(p, "ranking-small-phone-ru")
        # the director's desk on a phone, and the public ranking on the projector
        dp = new_page(browser, errors, **SMALL_PHONE)
        dp.goto(f"{server.url}/tn/{tid}#key={key}")
        dp.wait_for_selector(".tn-keeper-url")
        assert "#key" not in dp.url and not dp.is_hidden("#tn-desk")
        shot(dp, "87-tournament-desk-phone")
        dp.evaluate("() => window.scrollTo(0, document.querySelector('.tn-one-series').offsetTop)")
        shot(dp, "88-tournament-desk-phone-tables")
        no_sideways_scroll(dp, "desk-phone")
        problems += axe_problems(dp, "desk-phone")
        p.set_viewport_size({"width": 1920, "height": 1080})  # the big screen
        p.select_option("#tn-lang", "en")
        shot(p, "89-tournament-ranking-projector")
        # a cut-short link, and a key that is not the director's
        p.goto(f"{server.url}/tn/{'f' * 32}")
        p.wait_for_selector("#tn-banner:has-text('There is no tournament at this address')")
        dp.goto("about:blank")
        dp.goto(f"{server.url}/tn/{tid}#key=wrong")
        dp.wait_for_selector("#tn-banner:has-text('not the director')")
        assert dp.is_hidden("#tn-desk") and dp.locator(".tn-keeper").count() == 0
        assert dp.evaluate(f"() => localStorage.getItem('skat.tournament.{tid}')") is None
    finally:
        server.stop()
    assert not problems, "\n".join(problems)
    assert not errors
