"""A club's season in a real headless Chromium (docs/season.md): three tournament evenings played through the API
(one player under his account's name, one under a nickname), then the director starts the season in the form at
/season, adds the three evenings by their links, adds members (one linked to his account), links the nickname to
its member, adds the other players as members in one go, and switches the rule to the best 2 of 3 evenings; the
public ranking on a phone shows what the server computes (places, members, totals, the counted evenings marked)
and follows a game entered meanwhile; the texts in German and Korean; the PDF in the page's language; a wrong key
shows the public ranking; axe-core on the form, the desk and the ranking; nothing wider than a phone.
Screenshots (95-season-*) go to test-output/screenshots, with the Korean PDF's first page."""

from __future__ import annotations

import shutil
import subprocess

import httpx

from test_server_support import SHOTS, ServerProcess, axe_problems, shot
from test_server_tournament import games_for
from test_web_e2e import new_page

DESKTOP = {"viewport": {"width": 1366, "height": 768}}
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
EVENINGS = [
    ("Preisskat Januar", "2026-01-09", ["Anna", "Bernd", "Carla", "dieter_k", "Emil", "Frieda"]),
    ("Preisskat Februar", "2026-02-13", ["Anna", "Bernd", "Carla", "Hansi", "Emil", "Frieda"]),
    ("Preisskat März", "2026-03-13", ["Anna", "Bernd", "Carla", "dieter_k", "Hansi", "Günther"]),
]

SHOWN = """() => [...document.querySelectorAll('#sn-rank-table tbody tr')].map(r =>
    [r.querySelector('td.rank').textContent, r.querySelector('.who .sn-mname').textContent,
     r.querySelector('td.pts').textContent, ...[...r.querySelectorAll('td.ev')].map(c => c.firstChild.textContent)]
    .join(' ')).join(' | ')"""


def expected(state: dict) -> str:
    """The ranking as the page shows it: place, member, total, each evening's points ("–": not played, in
    brackets: not counted)."""
    def cell(p, c):
        return "–" if p is None else str(p) if c else f"({p})"
    return " | ".join(" ".join([str(r["rank"]), r["member"], str(r["total"]),
                                *(cell(p, c) for p, c in zip(r["points"], r["counted"], strict=True))])
                      for r in state["ranking"])


def post(server, path: str, body: dict, headers: dict | None = None) -> dict:
    r = httpx.post(server.url + path, json=body, headers=headers or {}, timeout=30)
    assert r.status_code in (200, 201), r.text
    return r.json()


def play_evening(server, name: str, players: list[str], seed: int) -> dict:
    """A tournament evening: its players, series 1 drawn, two games at each table."""
    made = post(server, "/api/tournaments", {"name": name, "players": players})
    drawn = post(server, f"/api/tournaments/{made['id']}/series", {"seed": seed}, {"X-Tournament-Key": made["key"]})
    for t, link in zip(drawn["series"][0]["tables"], drawn["keys"][0]["tables"], strict=True):
        changes = [{"id": f"g{i}", "op": "add", "entry": g} for i, g in enumerate(games_for(t["players"])[:2])]
        r = post(server, f"/api/keeper/{t['list']}/changes", {"changes": changes},
                 {"X-Keeper-Key": link["keeper_url"].split("#key=")[1]})
        assert all(x["ok"] for x in r["results"]), r
    return {"id": made["id"], "tables": drawn["series"][0]["tables"], "links": drawn["keys"][0]["tables"]}


def no_sideways_scroll(page, where: str) -> None:
    wide = page.evaluate("() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]")
    assert wide[0] <= wide[1], f"{where}: the page is {wide[0]} px wide in a {wide[1]} px window"


def test_a_club_season_over_three_evenings(browser, tmp_path):
    db = f"sqlite:///{tmp_path / 'season.sqlite'}"
    server = ServerProcess(db).start()
    errors: list = []
    problems: list[str] = []
    try:
        r = httpx.post(server.url + "/api/account/register", json={"name": "Dieter_K", "password": "geheim-123"},
                       headers={"Origin": server.url})
        assert r.status_code == 201, r.text
        evenings = [play_evening(server, name, players, seed) for seed, (name, _, players) in enumerate(EVENINGS, 1)]

        # the director starts the season in the form
        d = new_page(browser, errors, **DESKTOP, permissions=["clipboard-read", "clipboard-write"])
        d.goto(server.url + "/season")
        d.wait_for_selector("#sn-new:not(.hidden)")
        d.fill("#f-name", "Jahreswertung 2026")
        shot(d, "95-season-new-desktop")
        problems += axe_problems(d, "form-desktop")
        d.set_viewport_size(PHONE["viewport"])
        shot(d, "95-season-new-phone")
        no_sideways_scroll(d, "form-phone")
        d.set_viewport_size(DESKTOP["viewport"])
        d.click("#f-create")
        d.wait_for_url("**/season/*")
        sid = d.url.rsplit("/", 1)[1]
        key = d.evaluate(f"() => localStorage.getItem('skat.season.{sid}')")
        assert len(sid) == 32 and key
        d.wait_for_selector("#sn-desk:not(.hidden)")
        assert "No ranking yet" in d.inner_text("#sn-empty")
        # the evenings by their links (the director's own link too: only the id is kept), each with its date
        for n, (e, (_, date, _)) in enumerate(zip(evenings, EVENINGS, strict=True), 1):
            d.fill("#sn-tid", f"{server.url}/tn/{e['id']}")
            d.fill("#sn-date", date)
            d.click("#sn-add-evening-btn")
            d.wait_for_function(f"() => SN.state && SN.state.evenings.length === {n}")
        assert d.locator("#sn-evening-list a").all_inner_texts() == [name for name, _, _ in EVENINGS]
        assert d.input_value("#sn-tid") == ""
        # members: one linked to his account (named in another case), then the nickname linked to its member
        for name, account in (("Hans Meier", ""), ("Dieter", "DIETER_K")):
            d.fill("#sn-member-name", name)
            d.fill("#sn-member-account", account)
            d.click("#sn-add-member-btn")
            d.wait_for_selector(f"#sn-member-list li:has-text('{name}')")
        assert d.locator("#sn-member-list li:has-text('Dieter') .sn-acc").inner_text() == "@Dieter_K"
        unmatched = d.locator("#sn-unmatched-list li .sn-pname").all_inner_texts()
        assert unmatched == ["Anna", "Bernd", "Carla", "Emil", "Frieda", "Günther", "Hansi"]
        hansi = d.locator("#sn-unmatched-list li", has_text="Hansi")
        hansi.locator("select").select_option("Hans Meier")
        shot(d, "95-season-desk-link-desktop")
        hansi.get_by_role("button", name="Link").click()
        d.wait_for_selector("#sn-member-list li:has-text('Hans Meier') .sn-alias:has-text('Hansi')")
        d.click("#sn-add-all")
        d.wait_for_function("() => SN.state.unmatched.length === 0 && SN.state.members.length === 8")
        state = httpx.get(f"{server.url}/api/seasons/{sid}").json()
        assert d.evaluate(SHOWN) == expected(state)
        assert len(state["ranking"]) == 8
        d.evaluate("() => window.scrollTo(0, 0)")
        shot(d, "95-season-desk-desktop")
        problems += axe_problems(d, "desk-desktop")

        # the best 2 of 3 evenings: the evenings left out in brackets
        d.check("input[name=sn-rule][value=best]")
        d.fill("#sn-best", "2")
        d.click("#sn-rule-btn")
        d.wait_for_function("() => SN.state.rule === 'best' && SN.state.best === 2")
        state = httpx.get(f"{server.url}/api/seasons/{sid}").json()
        d.wait_for_function(f"() => ({SHOWN})() === {expected(state)!r}")
        left_out = sum(1 for r in state["ranking"] for p, c in zip(r["points"], r["counted"], strict=True)
                       if p is not None and not c)
        assert left_out > 0 and d.locator("#sn-rank-table td.ev.off").count() == left_out
        assert d.locator("#sn-rank-table td.ev.on").count() == sum(sum(r["counted"]) for r in state["ranking"])
        assert "best 2 evenings of 3" in d.inner_text("#sn-rule-text")
        d.evaluate("() => document.querySelector('#sn-ranking').scrollIntoView()")
        shot(d, "95-season-ranking-best-desktop")

        # everybody else follows the ranking on a phone
        p = new_page(browser, errors, **PHONE)
        p.goto(f"{server.url}/season/{sid}")
        p.wait_for_function(f"() => ({SHOWN})() === {expected(state)!r}")
        assert p.is_hidden("#sn-desk") and p.is_hidden("#sn-add-evening")
        dieter = p.locator("#sn-rank-table tbody tr", has_text="Dieter")
        assert dieter.locator(".sn-acc").get_attribute("href").startswith("/players/a-")
        shot(p, "95-season-ranking-phone")
        no_sideways_scroll(p, "ranking-phone")
        problems += axe_problems(p, "ranking-phone")
        # a game entered at an evening's table shows on the phone by itself
        third = evenings[2]
        table = third["tables"][0]
        post(server, f"/api/keeper/{table['list']}/changes", {"changes": [{"id": "late", "op": "add", "entry": {
            "declarer": table["players"][1], "game": "grand", "with": 4, "points": 120, "bid": 18}}]},
             {"X-Keeper-Key": third["links"][0]["keeper_url"].split("#key=")[1]})
        later = httpx.get(f"{server.url}/api/seasons/{sid}").json()
        assert expected(later) != expected(state)
        p.wait_for_function(f"() => ({SHOWN})() === {expected(later)!r}", timeout=15000)

        # in German, and the PDF in the page's language
        p.select_option("#sn-lang", "de")
        assert p.inner_text("#sn-ranking-h") == "Jahreswertung"
        assert "Abend 3" in p.inner_text("#sn-evenings") and "Punkte in Klammern zählen nicht" in p.inner_text("#sn-legend")
        pdf = p.get_attribute("#sn-pdf", "href")
        assert pdf == f"/api/seasons/{sid}/ranking.pdf?lang=de"
        assert httpx.get(server.url + pdf, timeout=60).content.startswith(b"%PDF")
        shot(p, "95-season-ranking-phone-de")
        no_sideways_scroll(p, "ranking-phone-de")
        d.select_option("#sn-lang", "de")
        desk = d.inner_text("body")
        assert "Spielleitung" in desk and "Mitglieder" in desk and "Spielabend eintragen" in desk
        d.evaluate("() => window.scrollTo(0, 0)")
        shot(d, "95-season-desk-desktop-de")
        d.set_viewport_size(PHONE["viewport"])
        shot(d, "95-season-desk-phone-de")
        no_sideways_scroll(d, "desk-phone-de")
        d.evaluate("() => document.querySelector('#sn-desk').scrollIntoView()")
        shot(d, "95-season-desk-phone-de-members")
        problems += axe_problems(d, "desk-phone-de")
        # Korean, and the Korean PDF in the Hangul font
        p.select_option("#sn-lang", "ko")
        assert p.inner_text("#sn-ranking-h") == "시즌 순위"
        shot(p, "95-season-ranking-phone-ko")
        no_sideways_scroll(p, "ranking-phone-ko")
        korean = httpx.get(server.url + p.get_attribute("#sn-pdf", "href"), timeout=60).content
        assert korean.startswith(b"%PDF")
        if shutil.which("pdftoppm"):
            SHOTS.mkdir(parents=True, exist_ok=True)
            subprocess.run(["pdftoppm", "-png", "-r", "70", "-singlefile", "-", str(SHOTS / "95-season-pdf-ko")],
                           input=korean, check=True, timeout=60)
        p.select_option("#sn-lang", "en")

        # a key that is not the director's: the public ranking, and the key forgotten
        w = new_page(browser, errors, **PHONE)
        w.goto(f"{server.url}/season/{sid}#key=wrong")
        w.wait_for_selector("#sn-banner:has-text('not the director')")
        assert w.is_hidden("#sn-desk") and "#key" not in w.url
        assert w.evaluate(f"() => localStorage.getItem('skat.season.{sid}')") is None
        w.goto(f"{server.url}/season/{'f' * 32}")
        w.wait_for_selector("#sn-banner:has-text('There is no season at this address')")
    finally:
        server.stop()
    assert not problems, "\n".join(problems)
    assert not errors
