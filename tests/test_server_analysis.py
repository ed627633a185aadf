"""The double-dummy analysis of finished deals at a server table (docs/protocol.md, docs/analysis.md):
``GET /api/tables/{id}/games/{n}/analysis`` over real played deals, its errors, its cache, and the
analysis panel of the browser table (a headless Chromium)."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from contextlib import ExitStack

import httpx
import pytest
from fastapi.testclient import TestClient
from tests.test_server import hello, new_table, play_deal
from tests.test_server_house import three_people

import skat.server.routes.analysis as server_analysis
from skat.analysis import analyse_game
from skat.deal.game import Game
from skat.records.iss import parse_iss
from skat.server import create_app
from skat.server.app import ANALYSIS_TIME_LIMIT, AnalysisCache, analyse_record
from skat.server.core import TableError
from test_server_support import SHOTS, ServerProcess, axe_problems, chromium_launch_kwargs, shot


@pytest.fixture()
def counted(monkeypatch) -> list[str]:
    """Counts the analyses handed to a worker (the labels), in any AnalysisCache."""
    calls: list[str] = []
    start = AnalysisCache._start

    def counting(self, record, label):
        calls.append(label)
        return start(self, record, label)

    monkeypatch.setattr(AnalysisCache, "_start", counting)
    return calls


def analysis_url(table_id: str, deal_no: int) -> str:
    return f"/api/tables/{table_id}/games/{deal_no}/analysis"


SEED = 4
"""Deal 1 of this seed: the person passes, a computer player declares diamonds and the card play turns."""


def play_passing(ws, state: dict) -> dict:
    """Play one deal for this seat: pass in the auction, then the first legal card; the final state."""
    return play_deal(ws, state, lambda v: "pass" if "pass" in v["legal_actions"] else v["legal_actions"][0])


def played_deal(client: TestClient, seed: int = SEED) -> tuple[str, dict]:
    """A person (position 0) plays deal 1 against two computer players; the table id and final state.
    Before the deal ends its analysis is refused as running."""
    t = new_table(client, seats=("human", "heuristic", "heuristic"), seed=seed)
    with client.websocket_connect(f"/ws/{t['table_id']}") as ws:
        _, _, state = hello(ws, t["token"])
        running = client.get(analysis_url(t["table_id"], 1))
        assert running.status_code == 409 and running.json()["error"] == "deal_running"
        assert "still being played" in running.json()["message"]
        final = play_passing(ws, state)
    assert final["view"]["result"]["declarer"] is not None, "the seed's deal was passed in"
    return t["table_id"], final


def without_names(analysis: dict) -> dict:
    return {k: v for k, v in analysis.items() if k not in ("label", "players", "deal_no", "positions")}


# ---------------------------------------------------------------------- REST
def test_analysis_of_a_played_deal_agrees_with_analyse_game_on_its_record(client, counted):
    table_id, final = played_deal(client)
    client.app.state.analyses.time_limit = None  # solved exactly: the same values on any machine, however busy
    got = client.get(analysis_url(table_id, 1))
    assert got.status_code == 200, got.text
    a = got.json()
    record = client.get(f"/api/tables/{table_id}/games/1.json").json()
    expected = analyse_game(record).to_json()
    assert without_names(a) == json.loads(json.dumps(without_names(expected)))
    assert a["players"] == record["table"]["players"] and a["deal_no"] == 1
    assert a["positions"] == record["table"]["positions"] == final["table"]["positions"]
    assert a["skipped"] is None and not a["not_analysed"]
    # the analysis is of the game that was played: its contract, declarer and every card in order
    game = Game.from_record(record)
    result = final["view"]["result"]
    assert a["declarer"] == result["declarer"] == game.declarer and a["contract"] == str(game.contract)
    played = [str(act) for _, act in game.history if type(act).__name__ == "Play"]
    assert [row["card"] for row in a["cards"]] == played
    assert a["actual"]["won"] == result["won"] and a["actual"]["ended_by"] == result["kind"]
    assert a["start"]["declarer_wins"] in (True, False)
    # value at the first card - what the declarer gave away + what the defenders gave away = the real card points
    assert a["actual"]["ended_by"] == "played"
    decl = a["declarer"]
    given = sum(a["points_lost"][s] for s in range(3) if s != decl) - a["points_lost"][decl]
    assert a["start"]["declarer_points"] + given == a["actual"]["declarer_points"]
    assert a["turning_points"] == [row["number"] for row in a["cards"] if row["turning_point"]]
    assert len(counted) == 1


def test_unknown_table_or_deal_is_404_and_the_record_stays_the_access_rule(client):
    table_id, _ = played_deal(client)
    for deal in (0, 2, 99):
        r = client.get(analysis_url(table_id, deal))
        assert r.status_code == 404 and r.json()["error"] == "no_deal", deal
        assert f"no finished deal {deal}" in r.json()["message"]
    r = client.get(analysis_url("nosuchtable", 1))
    assert r.status_code == 404 and r.json()["error"] == "no_table"
    assert client.get(f"/api/tables/{table_id}/games/x/analysis").status_code == 422  # not a deal number


def test_repeated_requests_are_answered_from_the_cache(client, counted):
    table_id, _ = played_deal(client)
    first = client.get(analysis_url(table_id, 1)).json()
    assert first["time_limit"] == ANALYSIS_TIME_LIMIT  # the server bounds every position
    entry = client.app.state.analyses.entries[(table_id, 1)]
    for _ in range(3):
        assert client.get(analysis_url(table_id, 1)).json() == first
    assert len(counted) == 1  # solved once
    assert client.app.state.analyses.entries[(table_id, 1)] is entry  # the same cached result object


def test_a_passed_in_deal_and_a_ramsch_have_nothing_to_analyse(db_url, counted):
    with TestClient(create_app(db_url)) as client, ExitStack() as stack:
        trio = three_people(client, stack)  # ISkO: all three pass, the deal is passed in
        while trio.view(0)["phase"] == "bidding":
            trio.act(trio.mover(), "pass")
        assert trio.view(0)["result"]["kind"] == "passed_in"
        a = client.get(analysis_url(trio.table_id, 1)).json()
        assert a["skipped"].startswith("passed in") and a["cards"] == [] and a["declarer"] is None
        assert a["actual"]["ended_by"] == "passed_in" and a["players"] == ["Ada", "Bea", "Cem"]
    with TestClient(create_app(db_url)) as client, ExitStack() as stack:
        # pub rules with Schieberamsch: all pass, the skat is pushed on unseen, Ramsch is played
        trio = three_people(client, stack, ruleset="pub", options={"ramsch_grand_hand": False, "schieberamsch": True})
        while trio.view(0)["phase"] == "bidding":
            trio.act(trio.mover(), "pass")
        final = trio.play_out(lambda v: "push" if "push" in v["legal_actions"] else v["legal_actions"][0])
        assert final["result"]["kind"] == "ramsch"
        a = client.get(analysis_url(trio.table_id, 1)).json()
        assert a["skipped"].startswith("Ramsch") and a["cards"] == [] and a["turning_points"] == []
        assert a["actual"]["ended_by"] == "ramsch"
        # the ISS format has no notation for a pushed skat: a clear refusal, not a server error
        iss = client.get(f"/api/tables/{trio.table_id}/games/1.iss")
        assert iss.status_code == 422 and iss.json()["error"] == "no_iss_record"
        assert "push" in iss.json()["message"] and "JSON record" in iss.json()["message"]
    assert len(counted) == 2


def test_the_iss_record_of_a_played_deal_needs_no_optional_part(client):
    table_id, _ = played_deal(client)
    assert client.get("/api/meta").json()["iss_records"] is True
    r = client.get(f"/api/tables/{table_id}/games/1.iss")
    assert r.status_code == 200 and r.text.startswith("(;GM[Skat]") and "attachment" in r.headers["content-disposition"]
    # the header names the table's players by game seat (forehand first) and the deal number
    block = client.get(f"/api/tables/{table_id}/games/1.json").json()["table"]
    for seat, name in enumerate(block["players"]):
        assert f"P{seat}[{name}]" in r.text
    assert "ID[1]" in r.text
    assert parse_iss(r.text, 1).players == tuple(block["players"])


# ---------------------------------------------------------------------- the cache itself
def finished_records(n: int) -> list[dict]:
    """Records of ``n`` finished deals: forehand plays grand hand, everybody plays the first legal card."""
    records = []
    for seed in range(n):
        game = Game(seed=seed)
        while not game.is_over:
            legal = game.legal_actions()
            declare = [a for a in legal if str(a) == "declare grand hand"]
            game.apply(declare[0] if declare else next((a for a in legal if str(a) == "18"), legal[0]))
        record = game.to_record()
        record["table"] = {"players": ["A", "B", "C"], "deal_no": seed + 1}
        records.append(record)
    return records


def test_the_cache_is_bounded_and_shares_one_solve_between_concurrent_requests(counted):
    records = finished_records(3)
    cache = AnalysisCache(size=2, processes=False)

    async def scenario() -> None:
        a, b = await asyncio.gather(cache.get("t", 1, records[0], "T"), cache.get("t", 1, records[0], "T"))
        assert a is b and len(counted) == 1  # two clicks at once: one solve, one result
        assert a["label"] == "T, deal 1" and a["players"] == ["A", "B", "C"]
        await cache.get("t", 2, records[1], "T")
        await cache.get("t", 1, records[0], "T")  # used again: now the most recent
        await cache.get("t", 3, records[2], "T")  # deal 2 is the oldest and goes
        assert list(cache.entries) == [("t", 1), ("t", 3)] and len(counted) == 3
        assert await cache.get("t", 1, records[0], "T") is a and len(counted) == 3
        await cache.get("t", 2, records[1], "T")
        assert len(counted) == 4

    try:
        asyncio.run(scenario())
    finally:
        cache.shutdown()


def test_the_solver_runs_off_the_event_loop(monkeypatch):
    """While a deal is analysed the loop keeps serving: on the worker thread of a thread cache, and in a
    worker process in the server's cache, which gives the same analysis as in process."""
    record = finished_records(1)[0]
    started, release = threading.Event(), threading.Event()
    threads: list[str] = []

    def slow(record, **kw):
        threads.append(threading.current_thread().name)
        started.set()
        release.wait(10)
        return analyse_game(record, **kw)

    monkeypatch.setattr(server_analysis, "analyse_game", slow)
    on_thread = AnalysisCache(processes=False)

    async def scenario() -> None:
        task = asyncio.ensure_future(on_thread.get("t", 1, record, "T"))
        while not started.is_set():
            await asyncio.sleep(0.01)
        ticks = 0
        for _ in range(5):  # the loop still runs other work while the solver is busy
            await asyncio.sleep(0.01)
            ticks += 1
        assert ticks == 5 and not task.done()
        release.set()
        assert (await task)["skipped"] is None

    try:
        asyncio.run(scenario())
    finally:
        on_thread.shutdown()
    assert threads and threads[0].startswith("skat-analysis")
    monkeypatch.undo()

    in_process = AnalysisCache(time_limit=None)
    try:
        got = asyncio.run(in_process.get("t", 1, record, "T"))
        assert isinstance(in_process._pool, ProcessPoolExecutor)
    finally:
        in_process.shutdown()
    assert got == analyse_record(record, "T, deal 1", None)


def test_a_record_that_does_not_replay_is_a_clear_server_error(counted):
    record = finished_records(1)[0]
    record["actions"] = record["actions"][:5]  # the deal stops in the auction: not a finished game
    cache = AnalysisCache()  # the error comes back from the worker process
    try:
        with pytest.raises(TableError) as err:
            asyncio.run(cache.get("t", 1, record, "T"))
    finally:
        cache.shutdown()
    assert err.value.code == "analysis_failed" and err.value.status == 500
    assert "could not be analysed" in str(err.value) and not cache.entries  # a failure is not cached


def test_analyse_record_keeps_the_players_of_the_record():
    record = finished_records(1)[0]
    a = analyse_record(record, "Friday, deal 1")
    assert a["players"] == ["A", "B", "C"] and a["label"] == "Friday, deal 1" and a["deal_no"] == 1


# ---------------------------------------------------------------------- the browser table
def test_the_analysis_panel_in_a_headless_browser(tmp_path):
    """A person plays a deal in Chromium; the result dialog's Analyse button opens the panel ("analysing…"
    first), which shows the contract, the value at the first card, the turning points in words, the card
    points given away by name and a row per card; the score sheet opens it too, in German and on a phone."""
    from playwright.sync_api import sync_playwright

    server = ServerProcess(f"sqlite:///{tmp_path / 'web.sqlite'}").start()
    errors: list[str] = []
    try:
        created = httpx.post(f"{server.url}/api/tables", json={
            "seats": ["human", "heuristic", "heuristic"], "player_name": "Ada", "seed": SEED, "public": True}).json()
        tid = created["table_id"]
        with sync_playwright() as p:
            browser = p.chromium.launch(**chromium_launch_kwargs())
            page = browser.new_context(viewport={"width": 1000, "height": 1700}).new_page()
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto(f"{server.url}/t/{tid}#token={created['token']}")
            page.wait_for_selector("#hand .card")
            deadline = time.time() + 40
            while not page.locator("#dialog.dlg-result").is_visible():  # pass, then play the first playable card
                assert time.time() < deadline, "the deal did not end"
                st = page.evaluate("""() => S.state && S.state.view && {phase: S.state.view.phase, seq: S.state.seq,
                    mine: S.state.view.to_move === S.state.you.seat && S.state.view.legal_actions.length > 0}""")
                if st and st["mine"] and st["phase"] in ("bidding", "play"):
                    if st["phase"] == "bidding":
                        page.click('#panel [data-action="pass"]')
                    else:
                        page.locator("#hand .card.playable").first.click()
                    page.wait_for_function(f"() => S.state.seq > {st['seq']} || S.state.view.phase === 'finished'")
                else:
                    time.sleep(0.05)
            # the first analysis of a fresh server process waits for its worker processes to start (seconds on a
            # busy machine): it is waited for, not timed
            expected = httpx.get(f"{server.url}/api/tables/{tid}/games/1/analysis", timeout=300).json()
            assert expected["cards"] and expected["declarer"] != 0  # a computer player declared, the person defended

            # the answer is held back: the panel says it is analysing, then shows the analysis
            held: list = []
            page.route("**/games/1/analysis", lambda route: held.append(route))
            page.click("#dialog button.analyse")
            page.wait_for_selector("#dialog.dlg-analysis .ana-wait")
            assert "Analysing" in page.inner_text("#dialog")
            page.wait_for_function("() => true")  # let the request reach the route
            deadline = time.time() + 30
            while not held:
                assert time.time() < deadline
                page.wait_for_timeout(20)
            held[0].continue_()
            page.wait_for_selector("#dialog table.ana-cards")
            page.unroute("**/games/1/analysis")
            text = page.inner_text("#dialog")
            names = expected["players"]
            assert "Analysis of deal 1" in text and "Declarer: " + names[expected["declarer"]] in text
            assert "Best play with all hands open, from the first card" in text and "Actual result" in text
            assert page.locator("#dialog table.ana-cards tr.card-row").count() == len(expected["cards"])
            turns = page.locator("#dialog ol.turns li")
            assert turns.count() == len(expected["turning_points"]) > 0
            assert "Trick" in turns.first.inner_text() and page.locator("#dialog tr.turn .turn-mark").count() == turns.count()
            seats = page.locator("#dialog table.ana-seats tr")
            assert seats.count() == 4 and "You" in seats.nth(1).inner_text()  # the person sat at forehand
            for s in range(3):
                assert str(expected["points_lost"][s]) in seats.nth(s + 1).inner_text()
            first = page.locator("#dialog table.ana-cards tr.card-row").first
            assert first.locator(".cardchip").first.get_attribute("data-card") == expected["cards"][0]["card"]
            shot(page, "analysis")
            page.locator("#dialog").screenshot(path=str(SHOTS / "analysis-dialog.png"))
            problems = axe_problems(page, "analysis")

            # an error is shown in words
            page.route("**/games/1/analysis", lambda route: route.fulfill(
                status=500, content_type="application/json",
                body=json.dumps({"error": "analysis_failed", "message": "deal 1 could not be analysed: test"})))
            page.evaluate("() => openAnalysis(1, 'result')")
            page.wait_for_selector("#dialog .ana-error")
            assert "not available: deal 1 could not be analysed" in page.inner_text("#dialog .ana-error")
            page.unroute("**/games/1/analysis")

            # from the score sheet, in German, on a phone
            page.select_option("#sel-lang", "de")
            page.set_viewport_size({"width": 390, "height": 844})
            page.keyboard.press("Escape")
            page.click("#bb-sheet")  # on a phone the score sheet is in the bottom bar
            page.click("#dialog.dlg-sheet button.analyse")
            page.wait_for_selector("#dialog.dlg-analysis table.ana-cards")
            text = page.inner_text("#dialog")
            assert "Analyse von Spiel 1" in text and "Wendepunkte" in text and "Verschenkte Augen" in text
            width = page.evaluate("() => document.querySelector('#dialog').getBoundingClientRect().width")
            assert width <= 390
            shot(page, "analysis-phone")
            page.evaluate("() => document.querySelector('#dialog table.ana-cards').scrollIntoView({block: 'start'})")
            shot(page, "analysis-phone-cards")
            problems += axe_problems(page, "analysis-phone-de")
            page.click("#dialog button:has-text('Spielliste')")
            page.wait_for_selector("#dialog.dlg-sheet")
            browser.close()
            assert not problems, "\n".join(problems)
    finally:
        server.stop()
    assert not errors
