"""The double-dummy analysis of finished deals at a server table (docs/protocol.md, docs/analysis.md):
``GET /api/tables/{id}/games/{n}/analysis`` over real played deals, its errors, its cache, and the
analysis panel of the browser table (a headless Chromium)."""

from __future__ import annotations

import asyncio
import json
import threading
from contextlib import ExitStack
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from tests.test_server import hello, new_table, recv_state, until_my_turn
from tests.test_server_house import three_people

import skat.server.app as server_app
from skat.analysis import analyse_game
from skat.game import Game
from skat.server import create_app
from skat.server.app import ANALYSIS_TIME_LIMIT, AnalysisCache, analyse_record
from skat.server.tables import TableError

SCREENSHOT = Path("/tmp/analysis.png")


@pytest.fixture()
def db_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'skat.sqlite'}"


@pytest.fixture()
def client(db_url: str):
    with TestClient(create_app(db_url)) as c:
        yield c


@pytest.fixture()
def counted(monkeypatch) -> list[int]:
    """Counts the solver runs of the server's analyses (analyse_game calls)."""
    calls: list[int] = []

    def counting(record, **kw):
        calls.append(1)
        return analyse_game(record, **kw)

    monkeypatch.setattr(server_app, "analyse_game", counting)
    return calls


def analysis_url(table_id: str, deal_no: int) -> str:
    return f"/api/tables/{table_id}/games/{deal_no}/analysis"


SEED = 4
"""Deal 1 of this seed: the person passes, a computer player declares diamonds and the card play turns."""


def play_passing(ws, state: dict) -> dict:
    """Play one deal for this seat: pass in the auction, then the first legal card; the final state."""
    while True:
        state = until_my_turn(ws, state)
        v = state["view"]
        if v["phase"] == "finished":
            return state
        legal = v["legal_actions"]
        ws.send_text(json.dumps({"type": "action", "action": "pass" if "pass" in legal else legal[0],
                                 "seq": state["seq"]}))
        state = recv_state(ws)


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
    return {k: v for k, v in analysis.items() if k not in ("label", "players", "deal_no")}


# ---------------------------------------------------------------------- REST
def test_analysis_of_a_played_deal_agrees_with_analyse_game_on_its_record(client, counted):
    table_id, final = played_deal(client)
    got = client.get(analysis_url(table_id, 1))
    assert got.status_code == 200, got.text
    a = got.json()
    record = client.get(f"/api/tables/{table_id}/games/1.json").json()
    expected = analyse_game(record, time_limit=ANALYSIS_TIME_LIMIT).to_json()
    assert without_names(a) == json.loads(json.dumps(without_names(expected)))
    assert a["players"] == record["table"]["players"] and a["deal_no"] == 1
    assert a["time_limit"] == ANALYSIS_TIME_LIMIT and a["skipped"] is None
    # the analysis is of the game that was played: its contract, declarer and every card in order
    game = Game.from_record(record)
    result = final["view"]["result"]
    assert a["declarer"] == result["declarer"] == game.declarer and a["contract"] == str(game.contract)
    played = [str(act) for _, act in game.history if type(act).__name__ == "Play"]
    assert [row["card"] for row in a["cards"]] == played
    assert a["actual"]["won"] == result["won"] and a["actual"]["ended_by"] == result["kind"]
    assert a["start"]["declarer_wins"] in (True, False)
    # value at the first card - what the declarer gave away + what the defenders gave away = the real card points
    if a["actual"]["ended_by"] == "played" and a["start"]["declarer_points"] is not None and not a["not_analysed"]:
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
    cache = AnalysisCache(size=2)

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
    """While a deal is analysed the loop keeps serving: the analysis runs on the cache's worker thread."""
    record = finished_records(1)[0]
    started, release = threading.Event(), threading.Event()
    threads: list[str] = []

    def slow(record, **kw):
        threads.append(threading.current_thread().name)
        started.set()
        release.wait(10)
        return analyse_game(record, **kw)

    monkeypatch.setattr(server_app, "analyse_game", slow)
    cache = AnalysisCache()

    async def scenario() -> None:
        task = asyncio.ensure_future(cache.get("t", 1, record, "T"))
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
        cache.shutdown()
    assert threads and threads[0].startswith("skat-analysis")


def test_a_record_that_does_not_replay_is_a_clear_server_error(counted):
    record = finished_records(1)[0]
    record["actions"] = record["actions"][:5]  # the deal stops in the auction: not a finished game
    cache = AnalysisCache()
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
