"""Online tournaments in a real headless Chromium (docs/online-tournaments.md): the director schedules one in the
form at /online (the key kept in the browser), a signed-in person registers on the tournament's page (two more over
REST), the director starts it now, the person's "Go to your table" opens the table with a fresh seat token, and the
page follows the tournament to its finished ranking (the stand-in plays for those who never come) with the PDF
link; on a phone and in German too; axe-core on the list, the form and the tournament; nothing wider than a phone.
Screenshots (97-online-*) go to test-output/screenshots."""

from __future__ import annotations

import httpx
import pytest

from test_online_tournament import SCALE, bench
from test_server_support import axe_problems, shot
from test_web_e2e import new_page

DESKTOP = {"viewport": {"width": 1366, "height": 768}}
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
CLOCK = {"decision": 100, "reserve": 0, "grace": 100, "ready": 10, "stand_in": "heuristic"}
"""4 s a decision and a lost connection's grace at the tests' clock: the round runs long enough to be seen running."""


def no_sideways_scroll(page, where: str) -> None:
    wide = page.evaluate("() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]")
    assert wide[0] <= wide[1], f"{where}: the page is {wide[0]} px wide in a {wide[1]} px window"


@pytest.fixture()
def server(tmp_path):
    srv, base = bench.serve_app(f"sqlite:///{tmp_path / 'online.sqlite'}", SCALE, 0.05)
    srv.url = base  # type: ignore[attr-defined]
    yield srv
    bench.stop_app(srv)


def test_an_online_tournament_from_the_directors_form_to_the_ranking(browser, server):
    base = server.url
    errors: list = []
    problems: list[str] = []
    # the lobby links the page
    d = new_page(browser, errors, **DESKTOP)
    d.goto(base + "/")
    d.click("a[href='/online']")
    d.wait_for_selector("#ot-list:not(.hidden)")
    assert d.inner_text("#ot-none") == "No tournament is scheduled."
    d.fill("#f-name", "Sunday online")
    d.fill("#f-rounds", "1")
    d.fill("#f-games", "1")
    shot(d, "97-online-list-desktop")
    problems += axe_problems(d, "list-desktop")
    d.set_viewport_size(PHONE["viewport"])
    shot(d, "97-online-list-phone")
    no_sideways_scroll(d, "list-phone")
    d.set_viewport_size(DESKTOP["viewport"])
    d.click("#f-create")
    d.wait_for_url("**/online/*")
    tid = d.url.rsplit("/", 1)[1]
    key = d.evaluate(f"() => localStorage.getItem('skat.online.{tid}')")
    assert len(tid) == 32 and key
    d.wait_for_selector("#ot-desk:not(.hidden)")
    assert "Sunday online" in d.inner_text("#ot-name") and "Registration is open" in d.inner_text("#ot-status")
    # the tournament's fast clock (the form offers people's times): set over REST for this test only
    made = httpx.post(base + "/api/online-tournaments", json={"name": "Sunday online", "rounds": 1, "games": 1,
                                                             "starts_at": d.evaluate("Date.now() / 1000") + 3600,
                                                             "clock": CLOCK}).json()
    tid, key = made["id"], made["key"]
    # a person signs in in the browser and registers on the page; two more register over REST
    p = new_page(browser, errors, **PHONE)
    p.goto(f"{base}/online/{tid}")
    p.wait_for_selector("#ot-view:not(.hidden)")
    assert p.inner_text("#ot-you") == "Sign in to register"
    p.evaluate("""() => fetch('/api/account/register', {method: 'POST', headers: {'Content-Type': 'application/json'},
        body: JSON.stringify({name: 'Anna', password: 'a good long password'})})""")
    p.reload()
    p.wait_for_selector("#ot-register")
    p.click("#ot-register")
    p.wait_for_function("() => OT.state && OT.state.you && OT.state.you.registered")
    assert "You are registered." in p.inner_text("#ot-you")
    for name in ("Bernd", "Carla"):
        with httpx.Client(base_url=base, headers={"Origin": base}) as c:
            assert c.post("/api/account/register", json={"name": name, "password": bench.PASSWORD}).status_code == 201
            assert c.post(f"/api/online-tournaments/{tid}/register").status_code == 200
    p.wait_for_function("() => OT.state.players.length === 3", timeout=10_000)
    shot(p, "97-online-registered-phone")
    no_sideways_scroll(p, "registered-phone")
    problems += axe_problems(p, "registered-phone")
    # the director starts it now from the desk
    d.goto(f"{base}/online/{tid}#key={key}")
    d.wait_for_selector("#ot-desk:not(.hidden)")
    shot(d, "97-online-desk-desktop")
    problems += axe_problems(d, "desk-desktop")
    d.click("#ot-start")
    d.wait_for_function("() => OT.state && OT.state.status !== 'registering'")
    # the person goes to the table with a fresh seat token
    p.wait_for_selector("#ot-table", timeout=10_000)
    p.click("#ot-table")
    p.wait_for_url("**/t/*")
    assert p.evaluate("() => location.pathname").startswith("/t/")
    p.go_back()
    p.wait_for_selector("#ot-view:not(.hidden)")
    # the stand-in plays for those not at the table: the tournament finishes, the ranking is shown live
    d.wait_for_function("() => OT.state && OT.state.status === 'finished'", timeout=30_000)
    d.wait_for_function("() => document.querySelectorAll('#ot-rank tbody tr').length === 3")
    state = httpx.get(f"{base}/api/online-tournaments/{tid}").json()
    shown = d.evaluate("() => [...document.querySelectorAll('#ot-rank tbody tr')].map(r => r.children[1].textContent)")
    assert shown == [r["player"] for r in state["ranking"]]
    assert d.get_attribute("#ot-pdf", "href") == f"/api/online-tournaments/{tid}/ranking.pdf?lang=en"
    shot(d, "97-online-finished-desktop")
    problems += axe_problems(d, "finished-desktop")
    p.wait_for_function("() => OT.state && OT.state.status === 'finished'", timeout=30_000)
    shot(p, "97-online-finished-phone")
    no_sideways_scroll(p, "finished-phone")
    # in German
    p.select_option("#ot-lang", "de")
    assert "Rangliste" in p.inner_text("#ot-ranking-h") and "Beendet" in p.inner_text("#ot-status")
    shot(p, "97-online-finished-phone-de")
    no_sideways_scroll(p, "finished-phone-de")
    d.goto(base + "/online")
    d.wait_for_selector("#ot-tournaments li")
    shot(d, "97-online-list-after-desktop")
    assert not problems, "\n".join(problems)
    assert not errors, errors
