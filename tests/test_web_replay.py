"""The replay of a finished deal (/replay/{table}/{deal}, docs/history.md) in a real headless Chromium: a person plays
a deal against two computer players (the browser creates the table, so its guest cookie owns the seat; the person's
moves go over the table's WebSocket with the seat token), then steps through it: the deal with all hands, Forward,
Back, the keys, a click in the step list and the slider, the trick in the middle and the cards leaving the hands,
Last with the result; the analysis of a card; the ISS record; the link to share. A second browser is told that the
deal is not its own to see while the table is open, and sees it once the table is closed. The table page's result
dialog links to the replay. axe-clean; screenshots (test-output/screenshots/replay-*.png) at desktop and phone size,
in English, German and Korean; a phone never scrolls sideways and shows each hand in one row on the screen."""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import expect
from websockets.sync.client import connect

from test_server_support import ServerProcess, axe_problems, shot

DESKTOP = {"viewport": {"width": 1366, "height": 768}}
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
CARD = re.compile(r"[CSHD][789TJQKA]")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    srv = ServerProcess(f"sqlite:///{tmp_path_factory.mktemp('replay') / 'skat.sqlite'}").start()
    yield srv
    srv.stop()


def new_page(browser, lang: str, size: dict, errors: list, **kw):
    context = browser.new_context(**size, **kw)
    page = context.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error"
            and not re.search(r"status of (403|404|503)", m.text) else None)  # refusals the test asks for
    page.add_init_script(f"localStorage.setItem('skat.lang', '{lang}')")
    return context, page


def play_deal(url: str, table_id: str, token: str) -> None:
    """The person's moves over the WebSocket: pass in the auction, then the first legal card, to the deal's end."""
    with connect(url.replace("http", "ws") + f"/ws/{table_id}", origin=url) as ws:
        ws.send(json.dumps({"type": "hello", "protocol": 1, "token": token}))
        while True:
            msg = json.loads(ws.recv(timeout=30))
            view = msg.get("view") if msg["type"] == "state" else None
            if not view:
                continue
            if view["phase"] == "finished":
                return
            legal = view["legal_actions"]
            if view["to_move"] == msg["you"]["seat"] and legal:
                ws.send(json.dumps({"type": "action", "action": "pass" if "pass" in legal else legal[0], "seq": msg["seq"]}))


def opened(page, url: str) -> None:
    same = page.url.split("#")[0] == url.split("#")[0]
    page.goto(url)
    if same:  # only the hash changed: no new page without a reload
        page.reload()
    page.wait_for_selector("#r-felt:not(.hidden), #r-message:not(.hidden)")
    page.wait_for_function("() => [...document.images].every(i => i.complete)")


def counter(page) -> str:
    return page.locator("#r-counter").inner_text()


def middle(page) -> list[str]:
    return page.locator("#r-middle .r-trick-cards .card").evaluate_all("els => els.map(e => e.dataset.card)")


def hand(page, seat: int) -> list[str]:
    return page.locator(f".r-seat[data-seat='{seat}'] .r-hand .card").evaluate_all("els => els.map(e => e.dataset.card)")


def no_sideways_scroll(page, name: str) -> None:
    width = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert width[0] <= width[1], f"{name} scrolls sideways: {width}"


def hands_readable_on_a_phone(page) -> None:
    """Each hand in one row inside the screen, every card at least 30 px wide (its corner index readable)."""
    for seat in range(3):
        boxes = [c.bounding_box() for c in page.locator(f".r-seat[data-seat='{seat}'] .r-hand .card").all()]
        assert all(boxes)
        assert len({round(b["y"]) for b in boxes}) <= 1, boxes
        assert all(b["x"] >= 0 and b["x"] + b["width"] <= 390 and b["width"] >= 30 for b in boxes), boxes


def test_a_finished_deal_step_by_step(browser, server):
    errors: list[str] = []
    problems: list[str] = []
    ctx, page = new_page(browser, "en", DESKTOP, errors, permissions=["clipboard-read", "clipboard-write"])
    other_ctx = None
    try:
        # a person (this browser) and two computer players; seeded, so the same deal every run
        page.goto(server.url + "/")
        created = page.request.post(server.url + "/api/tables", headers={"Origin": server.url}, data={
            "seats": ["human", "heuristic", "heuristic"], "deals": 1, "seed": 5, "player_name": "Ada",
            "name": "Dienstagsrunde"})
        assert created.status == 201, created.text()
        table = created.json()
        table_id, token = table["table"]["id"], table["token"]
        play_deal(server.url, table_id, token)
        replay_url = f"{server.url}/replay/{table_id}/1"
        answer = page.request.get(f"{server.url}/api/replays/{table_id}/1").json()
        steps = answer["steps"]
        last = len(steps) - 1
        cards = [i for i, s in enumerate(steps) if s["action"] and CARD.fullmatch(s["action"])]
        assert len(cards) == 30, "a deal played to its end: thirty cards"

        # the table page's result dialog links to the replay
        page.evaluate("([id, tok]) => localStorage.setItem('skat.token.' + id, tok)", [table_id, token])
        page.goto(server.url + table["url"])
        page.wait_for_selector("#dialog.dlg-result a.replay-link")
        page.click("#dialog.dlg-result a.replay-link")
        page.wait_for_url(replay_url)
        page.wait_for_selector("#r-felt:not(.hidden)")
        page.wait_for_function("() => [...document.images].every(i => i.complete)")

        # the first step: the deal as dealt, every hand face up, the skat on the table
        assert counter(page) == f"0 / {last}"
        for seat in range(3):
            assert sorted(hand(page, seat)) == sorted(steps[0]["hands"][seat])
        assert page.locator("#r-middle .r-skat .card").count() == 2
        assert page.locator("#r-now").inner_text() == "The deal"
        assert page.locator("#r-first").is_disabled() and page.locator("#r-back").is_disabled()
        assert "Dienstagsrunde · Deal 1" in page.locator("#r-name").inner_text()
        header = page.locator("#r-contract").inner_text()
        assert "plays" in header and "bid" in header
        shot(page, "replay-desktop-en-dealt")
        problems += axe_problems(page, "replay dealt")

        # Forward, the keys, Back
        page.click("#r-forward")
        assert counter(page) == f"1 / {last}"
        page.keyboard.press("ArrowRight")
        page.keyboard.press("ArrowRight")
        assert counter(page) == f"3 / {last}"
        page.keyboard.press("ArrowLeft")
        assert counter(page) == f"2 / {last}"
        page.click("#r-back")
        assert counter(page) == f"1 / {last}"

        # a click in the step list: the first card; the trick grows, the card leaves its hand
        first = cards[0]
        page.click(f"#r-list .r-step[data-step='{first}']")
        assert counter(page) == f"{first} / {last}"
        leader, card = steps[first]["seat"], steps[first]["action"]
        assert middle(page) == [card]
        assert card not in hand(page, leader) and len(hand(page, leader)) == 9
        assert page.locator(f"#r-list .r-step[data-step='{first}']").get_attribute("aria-current") == "step"
        page.keyboard.press("ArrowRight")
        page.keyboard.press("ArrowRight")  # the third card: the trick taken, its winner named
        trick = steps[first + 2]["last_trick"]
        assert middle(page) == trick["cards"]
        names = answer["record"]["table"]["players"]
        assert page.locator("#r-middle .r-caption").inner_text() == f"{names[trick['winner']]} takes the trick"
        page.keyboard.press("ArrowRight")  # the next trick's lead; the last trick in its box
        assert middle(page) == [steps[first + 3]["action"]]
        assert page.locator("#r-middle .r-last-trick .cardchip").evaluate_all(
            "els => els.map(e => e.dataset.card)") == trick["cards"]
        page.keyboard.press("ArrowLeft")
        assert middle(page) == trick["cards"]

        # the slider, then the analysis of a card in the middle of the play
        at = cards[13]
        page.locator("#r-slider").fill(str(at))
        assert counter(page) == f"{at} / {last}"
        assert page.evaluate("location.hash") == f"#{at}"
        # a busy server (503 with Retry-After) is said so, and the button asks again
        busy = f"**/api/replays/{table_id}/1/analysis"
        page.route(busy, lambda route: route.fulfill(status=503, headers={"Retry-After": "7"},
                                                     content_type="application/json", body='{"error": "busy"}'))
        page.click("#r-analyse")
        expect(page.locator("#r-ana .ana-error")).to_have_text("The analysis is busy with other deals: try again in 7 s.")
        expect(page.locator("#r-analyse")).to_have_text("Try again")
        page.unroute(busy)
        page.click("#r-analyse")
        page.wait_for_selector("#r-ana .r-ana-verdict", timeout=60000)
        said = page.locator("#r-ana .r-ana-card").inner_text()
        assert said.startswith("Card 14, trick 5:"), said
        analysis = page.request.get(f"{server.url}/api/replays/{table_id}/1/analysis").json()
        row = analysis["cards"][13]
        assert row["card"] == steps[at]["action"]
        if len(row["legal"]) > 1:
            shown = page.locator("#r-ana table.r-moves td .cardchip").evaluate_all("els => els.map(e => e.dataset.card)")
            assert sorted(shown) == sorted(row["legal"])
            assert page.locator("#r-ana tr.played .cardchip").get_attribute("data-card") == row["card"]
        page.wait_for_function("() => [...document.images].every(i => i.complete)")
        shot(page, "replay-desktop-en-analysis")
        problems += axe_problems(page, "replay analysis")
        page.keyboard.press("ArrowRight")  # the analysis, fetched once, follows the steps
        assert page.locator("#r-ana .r-ana-card").inner_text().startswith("Card 15,")
        assert page.evaluate("replayState().analysis.loading") is False

        # Last: the result
        page.click("#r-last")
        assert counter(page) == f"{last} / {last}"
        assert page.locator("#r-forward").is_disabled()
        final = page.locator("#r-middle .r-final").inner_text()
        assert "won" in final or "lost" in final
        assert "Score:" in final
        assert page.locator("#r-result-sentence").inner_text()
        page.keyboard.press("Home")
        assert counter(page) == f"0 / {last}"
        page.keyboard.press("End")
        assert counter(page) == f"{last} / {last}"

        # the ISS record, and the link to share
        iss = page.locator("#r-iss")
        assert iss.is_visible()
        record = page.request.get(server.url + iss.get_attribute("href"))
        assert record.ok and record.text().startswith("(;GM[Skat]"), record.text()[:200]
        page.click("#r-copy")
        expect(page.locator("#r-copied")).to_have_text("Link copied")
        assert page.evaluate("() => navigator.clipboard.readText()") == page.url

        # on a phone, in English
        page.set_viewport_size(PHONE["viewport"])
        page.locator("#r-slider").fill(str(cards[9]))
        page.evaluate("window.scrollTo(0, 0)")
        shot(page, "replay-phone-en-play")
        no_sideways_scroll(page, "the replay on a phone")
        hands_readable_on_a_phone(page)

        # another browser: not its deal while the table is open; once it is closed, everybody's
        other_ctx, other = new_page(browser, "de", PHONE, errors)
        opened(other, replay_url)
        assert other.locator("#r-message").is_visible()
        assert other.locator("#r-message-title").inner_text() == "Noch nicht für dich zu sehen"
        assert "sobald sein Tisch geschlossen ist" in other.locator("#r-message-text").inner_text()
        shot(other, "replay-phone-de-not-yours")
        problems += axe_problems(other, "replay not yours")
        closed = page.request.post(f"{server.url}/api/tables/{table_id}/close", headers={"Origin": server.url},
                                   data={"token": token})
        assert closed.ok, closed.text()
        opened(other, f"{replay_url}#{cards[4]}")
        assert other.locator("#r-felt").is_visible()
        assert other.locator("#r-counter").inner_text() == f"{cards[4]} / {last}"
        assert other.locator("html").get_attribute("lang") == "de"
        assert "Stich" in other.locator("#r-list").inner_text() or other.locator(".r-trick").count() == 10
        assert other.locator(".r-you").count() == 0  # nobody is "you" to a reader who did not play
        shot(other, "replay-phone-de-play")
        no_sideways_scroll(other, "the replay on a phone in German")
        hands_readable_on_a_phone(other)
        problems += axe_problems(other, "replay phone de")

        # a deal that does not exist, in Korean on a desktop; and the replay itself in Korean
        other_ctx.close()
        other_ctx, other = new_page(browser, "ko", DESKTOP, errors)
        opened(other, f"{server.url}/replay/{table_id}/7")
        assert other.locator("#r-message-title").inner_text() == "끝난 딜이 없습니다"
        opened(other, f"{replay_url}#{cards[20]}")
        assert other.locator("#r-forward").inner_text() == "다음"
        shot(other, "replay-desktop-ko-play")
        no_sideways_scroll(other, "the replay in Korean")
        problems += axe_problems(other, "replay desktop ko")
        assert not errors, errors
    finally:
        ctx.close()
        if other_ctx is not None:
            other_ctx.close()
    assert not problems, "\n".join(problems)
