"""Limits against abuse (docs/protocol.md, "Limits"; skat.server.limits): per-address rate limits on new tables,
joins, WebSocket actions and analyses, the analysis queue, idle tables archived, the table cap, all-computer
tables that pause while nobody watches, and the ``skat serve`` flags. Small limits and a fake clock: nothing
here waits long."""

from __future__ import annotations

import argparse
import asyncio
import json
import time

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from skat.server import create_app
from skat.server.app import AnalysisCache
from skat.server.core import TableError, pack
from skat.server.limits import ClientBuckets, ClientLimits, Limits, LimitsError, Rate, request_kind
from test_server import hello, new_table, recv, reply

HOUR = 3600.0


def addressed(app):
    """The app, with the client's address taken from an ``x-test-address`` header (as uvicorn's proxy headers
    would set it), so that one test client speaks for several addresses."""

    async def wrapper(scope, receive, send):
        if scope["type"] in ("http", "websocket"):
            for name, value in scope.get("headers", []):
                if name == b"x-test-address":
                    scope = dict(scope, client=(value.decode(), 1234))
        await app(scope, receive, send)

    wrapper.state = app.state
    return wrapper


def at(address: str) -> dict[str, str]:
    return {"x-test-address": address}


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture()
def make(db_url):
    """make(**limits) -> (test client, app, fake clock of the rate limits); the lifespan runs."""
    stack = []

    def build(**limits):
        app = create_app(db_url, limits=Limits(**limits))
        clock = Clock()
        app.state.limiter.clock = clock
        client = TestClient(addressed(app))
        client.__enter__()
        stack.append(client)
        return client, app, clock

    yield build
    for client in stack:
        client.__exit__(None, None, None)


def lobby_ids(client) -> set[str]:
    return {t["id"] for t in client.get("/api/tables").json()["tables"]}


def refused(r, what: str) -> dict:
    assert r.status_code == 429, r.text
    body = r.json()
    assert body["error"] == "rate_limited" and what in body["message"] and "try again in" in body["message"]
    assert int(r.headers["retry-after"]) >= 1
    return body


# ------------------------------------------------------------------ options
def test_limits_are_validated_naming_the_option():
    assert Limits().create == Rate(30, 60) and Limits().robot_deals == 20 and Limits().idle_seconds == 6 * HOUR
    for option, value in [("idle_seconds", 0), ("finished_seconds", -1.0), ("robot_deals", 0), ("robot_deals", 1.5),
                          ("analysis_queue", True), ("max_tables", 0), ("create", 5), ("sweep_seconds", float("nan")),
                          ("evict_seconds", float("inf")), ("max_clients", "9")]:
        with pytest.raises(LimitsError, match=option) as info:
            Limits(**{option: value})
        assert info.value.option == option
    for count, seconds in [(0, 60), (1.5, 60), (3, 0), (3, -1), (True, 1)]:
        with pytest.raises(ValueError):
            Rate(count, seconds)
    assert Rate.parse("30/60") == Rate(30, 60) and Rate.parse(" 5 / 0.5 ") == Rate(5, 0.5) and Rate.parse("7") == Rate(7, 1)
    for text in ["", "x", "0/60", "5/0", "-1/5", "5/-1", "1e3/5"]:
        with pytest.raises(ValueError, match="rate|count|seconds"):
            Rate.parse(text)


def test_the_limited_requests():
    assert request_kind("POST", "/api/tables") == "create"
    assert request_kind("POST", "/api/tables/ab12/join") == "join"
    assert request_kind("GET", "/api/tables/ab12/games/3/analysis") == "analysis"
    for method, path in [("GET", "/api/tables"), ("POST", "/api/tables/ab12/close"), ("GET", "/api/tables/ab12"),
                         ("GET", "/api/tables/ab12/games/3.json"), ("POST", "/api/officers/tables/x/actions")]:
        assert request_kind(method, path) is None


def test_buckets_refill_and_their_dict_stays_bounded():
    buckets = ClientBuckets(Rate(2, 10), max_clients=3)
    assert buckets.take("a", 0.0) == 0.0 and buckets.take("a", 0.0) == 0.0
    assert buckets.take("a", 1.0) == pytest.approx(4.0)  # one token per 5 s: 4 s to go
    assert buckets.take("a", 5.0) == 0.0  # refilled
    assert buckets.take("b", 5.0) == 0.0  # another client is not affected
    for n in range(1000):  # an attacker with many addresses
        buckets.take(f"10.0.{n // 256}.{n % 256}", 6.0)
    assert len(buckets.buckets) == 3
    buckets.take("c", 100.0)  # the others are full again by now: dropped
    assert list(buckets.buckets) == ["c"]


# ------------------------------------------------------------------ rate limits
def test_table_creation_is_limited_per_address(make):
    client, app, clock = make(create=Rate(2, 60))
    for _ in range(2):
        assert client.post("/api/tables", json={}, headers=at("10.0.0.1")).status_code == 201
    before = lobby_ids(client)
    refused(client.post("/api/tables", json={"name": "third"}, headers=at("10.0.0.1")), "too many new tables, lists or tournaments")
    body = refused(client.post("/api/tables", json={"variant": "officers"}, headers=at("10.0.0.1")), "new tables")
    assert body["detail"] == body["message"]  # the Officers' page shows either
    assert lobby_ids(client) == before and len(app.state.manager.tables) == 2  # nothing was created
    assert client.post("/api/tables", json={}, headers=at("10.0.0.2")).status_code == 201  # another address
    clock.now += 30  # one token every 30 s
    assert client.post("/api/tables", json={}, headers=at("10.0.0.1")).status_code == 201
    refused(client.post("/api/tables", json={}, headers=at("10.0.0.1")), "at most 2 per 60 seconds")
    # score keepers' lists and tournaments count as new tables: one bucket for all that fills the database
    refused(client.post("/api/keeper", json={"players": ["A", "B", "C"]}, headers=at("10.0.0.1")), "lists")
    refused(client.post("/api/tournaments", json={"players": []}, headers=at("10.0.0.1")), "tournaments")


def test_joins_are_limited_per_address(make):
    client, app, clock = make(join=Rate(1, 60))
    t = new_table(client, seats=("human", "human", "human"))
    assert client.post(f"/api/tables/{t['table_id']}/join", json={}, headers=at("10.0.0.1")).status_code == 200
    r = client.post(f"/api/tables/{t['table_id']}/join", json={}, headers=at("10.0.0.1"))
    refused(r, "too many joins")
    assert int(r.headers["retry-after"]) == 60
    seats = client.get(f"/api/tables/{t['table_id']}").json()["seats"]
    assert [s["taken"] for s in seats] == [True, True, False]  # the refused join took no seat
    assert client.post(f"/api/tables/{t['table_id']}/join", json={}, headers=at("10.0.0.2")).json()["position"] == 2


def test_actions_and_hints_are_limited_across_all_connections_of_an_address(make):
    client, app, clock = make(action=Rate(3, 60), hint=Rate(2, 60))
    t = new_table(client)
    other = new_table(client)
    table = app.state.manager.get(t["table_id"])
    with client.websocket_connect(f"/ws/{t['table_id']}", headers=at("10.0.0.1")) as ws:
        state = hello(ws, t["token"])[2]
        for _ in range(3):
            ws.send_text(json.dumps({"type": "action", "action": "nonsense"}))
            assert reply(ws, "error")["code"] == "bad_action"
        seq = len(table.game.history)
        legal = state["view"]["legal_actions"]
        ws.send_text(json.dumps({"type": "action", "action": legal[0] if legal else "pass"}))
        err = reply(ws, "error")
        assert err["type"] == "error" and err["code"] == "rate_limited" and "actions" in err["message"]
        assert len(table.game.history) == seq  # ignored
        ws.send_text(json.dumps({"type": "ping", "t": 1}))
        assert reply(ws, "pong") == {"type": "pong", "t": 1}  # the connection stays
        for _ in range(2):  # hints have a bucket of their own (each is a search)
            ws.send_text(json.dumps({"type": "hint"}))
            assert reply(ws, "error")["code"] == "not_in_play"
        ws.send_text(json.dumps({"type": "hint"}))
        err = reply(ws, "error")
        assert err["code"] == "rate_limited" and "too many hints" in err["message"] and "hint was ignored" in err["message"]
        with client.websocket_connect(f"/ws/{other['table_id']}", headers=at("10.0.0.1")) as ws2:
            hello(ws2, other["token"])
            ws2.send_text(json.dumps({"type": "action", "action": "nonsense"}))
            assert reply(ws2, "error")["code"] == "rate_limited"  # the same address on another connection
        with client.websocket_connect(f"/ws/{other['table_id']}", headers=at("10.0.0.2")) as ws3:
            hello(ws3, None)
            ws3.send_text(json.dumps({"type": "action", "action": "nonsense"}))
            assert reply(ws3, "error")["code"] == "not_a_player"  # another address is not limited
        clock.now += 20
        ws.send_text(json.dumps({"type": "action", "action": "nonsense"}))
        assert reply(ws, "error")["code"] == "bad_action"


def test_analysis_requests_are_limited_per_address(make):
    client, app, clock = make(analysis=Rate(1, 60))
    t = new_table(client)
    url = f"/api/tables/{t['table_id']}/games/1/analysis"
    assert client.get(url, headers=at("10.0.0.1")).json()["error"] == "deal_running"
    refused(client.get(url, headers=at("10.0.0.1")), "too many analysis requests")
    assert client.get(url, headers=at("10.0.0.2")).json()["error"] == "deal_running"


def test_a_full_analysis_queue_is_busy_with_retry_after(make, monkeypatch):
    client, app, clock = make(analysis_queue=1, analysis_retry_seconds=7)
    started = []
    monkeypatch.setattr(AnalysisCache, "_start", lambda self, record, label: started.append(label))
    t = new_table(client)
    app.state.manager.get(t["table_id"]).records[1] = pack({"table": {}})  # a finished deal, as far as the route knows

    async def waiting():
        return asyncio.get_running_loop().create_future()

    app.state.analyses.entries[("elsewhere", 1)] = client.portal.call(waiting)  # one analysis is running
    r = client.get(f"/api/tables/{t['table_id']}/games/1/analysis")
    assert r.status_code == 503 and r.json()["error"] == "busy" and r.headers["retry-after"] == "7"
    assert "7 s" in r.json()["message"] and started == []  # nothing was started


def test_the_analysis_cache_refuses_only_new_analyses_beyond_its_queue():
    async def main():
        cache = AnalysisCache(max_waiting=1, retry_seconds=3, processes=False)
        loop = asyncio.get_running_loop()
        futures = {}

        def start(record, label):
            futures[label] = loop.create_future()
            return futures[label]

        cache._start = start
        first = asyncio.ensure_future(cache.get("t", 1, {}, "T"))
        await asyncio.sleep(0)
        with pytest.raises(TableError) as info:
            await cache.get("t", 2, {}, "T")
        assert info.value.code == "busy" and info.value.status == 503 and info.value.retry_after == 3
        again = asyncio.ensure_future(cache.get("t", 1, {}, "T"))  # the same deal waits for the same answer
        await asyncio.sleep(0)
        futures["T, deal 1"].set_result({"deal_no": 1})
        assert await first == await again == {"deal_no": 1}
        futures.clear()
        second = asyncio.ensure_future(cache.get("t", 2, {}, "T"))  # the queue is free again
        await asyncio.sleep(0)
        futures["T, deal 2"].set_result({"deal_no": 2})
        assert (await second)["deal_no"] == 2

    asyncio.run(main())


# ------------------------------------------------------------------ idle tables
def test_an_idle_table_is_archived_and_its_records_stay(make):
    client, app, clock = make(idle_seconds=HOUR)
    manager = app.state.manager
    t = new_table(client)
    tid = t["table_id"]
    created = manager.get(tid).last_active
    assert client.portal.call(manager.archive_idle, created + HOUR - 1) == 0
    assert client.portal.call(manager.archive_idle, created + HOUR + 1) == 1
    r = client.get(f"/api/tables/{tid}")
    assert r.status_code == 404 and r.json()["error"] == "no_table"
    assert tid not in lobby_ids(client)
    assert tid not in {s.id for s in manager.store.load_open_tables()}  # closed in the database
    with manager.store.engine.connect() as conn:
        from skat.server.store import deals_t, tables_t
        assert conn.execute(tables_t.select().where(tables_t.c.id == tid)).first().closed
        assert conn.execute(deals_t.select().where(deals_t.c.table_id == tid)).first() is not None  # records stay
    with client.websocket_connect(f"/ws/{tid}") as ws:
        assert reply(ws, "error")["code"] == "no_table"


def test_a_connected_client_keeps_a_table_and_leaving_counts_as_activity(make):
    client, app, clock = make(idle_seconds=HOUR)
    manager = app.state.manager
    t = new_table(client)
    table = manager.get(t["table_id"])
    with client.websocket_connect(f"/ws/{t['table_id']}") as ws:
        hello(ws, None)  # a spectator
        assert client.portal.call(manager.archive_idle, time.monotonic() + 10 * HOUR) == 0
        left = time.monotonic()
    for _ in range(100):
        if not table.clients:
            break
        time.sleep(0.01)
    assert table.last_active >= left - 1
    assert client.portal.call(manager.archive_idle, table.last_active + HOUR - 1) == 0
    assert client.portal.call(manager.archive_idle, table.last_active + HOUR + 1) == 1


def test_a_socket_at_a_table_archived_meanwhile_is_told_and_closed(make):
    client, app, clock = make(idle_seconds=HOUR)
    manager = app.state.manager
    t = new_table(client)
    with client.websocket_connect(f"/ws/{t['table_id']}") as ws:  # connected, but no hello yet
        assert client.portal.call(manager.archive_idle, time.monotonic() + 2 * HOUR) == 1
        ws.send_text(json.dumps({"type": "hello", "protocol": 1, "token": t["token"]}))
        assert reply(ws, "error")["code"] == "no_table"
        with pytest.raises(WebSocketDisconnect) as info:
            ws.receive_text()
        assert info.value.code == 4404


def wait_for(client, table_id: str, test, tries: int = 1000) -> dict:
    for _ in range(tries):
        info = client.get(f"/api/tables/{table_id}").json()
        if test(info):
            return info
        time.sleep(0.01)
    raise AssertionError(f"the table never got there: {info}")


def test_a_finished_series_is_archived_sooner(make):
    client, app, clock = make(idle_seconds=10 * HOUR, finished_seconds=60)
    manager = app.state.manager
    t = client.post("/api/tables", json={"seats": ["random"] * 3, "claim": None, "deals": 1, "public": True}).json()
    wait_for(client, t["table_id"], lambda info: info["status"] == "finished")
    table = manager.get(t["table_id"])
    assert client.portal.call(manager.archive_idle, table.last_active + 59) == 0
    assert client.portal.call(manager.archive_idle, table.last_active + 61) == 1
    assert client.get(f"/api/tables/{t['table_id']}").status_code == 404


def test_the_sweeper_archives_idle_tables_on_its_own(make):
    client, app, clock = make(idle_seconds=0.2, sweep_seconds=0.05)
    t = new_table(client)
    for _ in range(300):
        if client.get(f"/api/tables/{t['table_id']}").status_code == 404:
            break
        time.sleep(0.01)
    assert client.get(f"/api/tables/{t['table_id']}").json()["error"] == "no_table"


def test_at_the_cap_the_longest_idle_table_without_clients_makes_room(make):
    client, app, clock = make(max_tables=2, evict_seconds=60)
    manager = app.state.manager
    a, b = new_table(client), new_table(client)
    r = client.post("/api/tables", json={})
    assert r.status_code == 503 and r.json()["error"] == "full"  # both are new: neither is given up
    assert lobby_ids(client) == {a["table_id"], b["table_id"]}
    manager.get(a["table_id"]).last_active -= 120
    manager.get(b["table_id"]).last_active -= 300  # idle the longest, but somebody watches it
    with client.websocket_connect(f"/ws/{b['table_id']}") as ws:
        hello(ws, None)
        c = new_table(client)
        assert lobby_ids(client) == {b["table_id"], c["table_id"]}
        assert client.get(f"/api/tables/{a['table_id']}").json()["error"] == "no_table"
        r = client.post("/api/tables", json={})
        assert r.status_code == 503 and r.json()["error"] == "full"


# ------------------------------------------------------------------ all-computer tables
def test_an_unwatched_computer_table_pauses_and_goes_on_when_watched(make):
    client, app, clock = make(robot_deals=2)
    t = client.post("/api/tables", json={"seats": ["random"] * 3, "claim": None, "public": True}).json()
    tid = t["table_id"]
    info = wait_for(client, tid, lambda i: i["status"] == "paused")
    assert info["deal_no"] == 2 and info["stopped"] is None
    time.sleep(0.1)
    assert client.get(f"/api/tables/{tid}").json()["deal_no"] == 2  # it deals no more
    assert {x["id"]: x["status"] for x in client.get("/api/tables").json()["tables"]}[tid] == "paused"
    with client.websocket_connect(f"/ws/{tid}") as ws:
        hello(ws, None)
        deal_no = 2
        while deal_no < 5:  # watched, it goes on past its unwatched deals
            m = recv(ws)
            if m["type"] == "state":
                deal_no = m["table"]["deal_no"]
                assert m["table"]["status"] != "paused"
    left = client.get(f"/api/tables/{tid}").json()["deal_no"]
    info = wait_for(client, tid, lambda i: i["status"] == "paused")
    assert info["deal_no"] == left + 2  # another two deals once nobody watches


def test_a_table_with_a_person_does_not_pause(make):
    client, app, clock = make(robot_deals=1)
    t = new_table(client)
    table = app.state.manager.get(t["table_id"])
    table.unwatched_deals = 99
    assert not table.paused and table.status == "playing"


# ------------------------------------------------------------------ skat serve
@pytest.mark.parametrize("argv, flag", [
    (["--rate-create", "0/60"], "--rate-create"), (["--rate-join", "x"], "--rate-join"),
    (["--rate-action", "5/0"], "--rate-action"), (["--rate-analysis=-1/5"], "--rate-analysis"),
    (["--idle-hours", "0"], "--idle-hours"), (["--idle-hours", "nan"], "--idle-hours"),
    (["--finished-minutes", "-5"], "--finished-minutes"), (["--robot-deals", "0"], "--robot-deals"),
    (["--analysis-queue", "0"], "--analysis-queue"), (["--max-tables", "-1"], "--max-tables"),
])
def test_serve_refuses_limits_out_of_range(argv, flag, capsys):
    from skat.cli import main

    assert main(["serve", *argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith("skat serve: ") and flag in err


def test_serve_flags_make_the_limits(capsys):
    from skat.cli import main
    from skat.commands.serve import add_arguments, limits_from_args

    parser = argparse.ArgumentParser()
    add_arguments(parser)
    assert limits_from_args(parser.parse_args([])) == Limits()
    limits = limits_from_args(parser.parse_args([
        "--rate-create", "1000/1", "--rate-join", "5/10", "--rate-action", "100/2", "--rate-analysis", "3/60",
        "--analysis-queue", "2", "--max-tables", "50", "--idle-hours", "0.5", "--finished-minutes", "10",
        "--robot-deals", "4", "--rate-hint", "4/60", "--rate-print", "2/60"]))
    assert limits == Limits(create=Rate(1000, 1), join=Rate(5, 10), action=Rate(100, 2), analysis=Rate(3, 60),
                            hint=Rate(4, 60), print=Rate(2, 60), analysis_queue=2, max_tables=50, idle_seconds=1800.0, finished_seconds=600.0,
                            robot_deals=4)
    with pytest.raises(SystemExit):
        main(["serve", "--help"])
    out = capsys.readouterr().out
    assert "--rate-create N/SECONDS" in out and "--idle-hours" in out and "--robot-deals" in out


def test_the_default_limits_let_a_client_get_its_answers(client):
    limiter = client.app.state.limiter
    assert isinstance(limiter, ClientLimits) and limiter.limits == Limits()
    for _ in range(10):
        new_table(client)


def test_every_table_status_is_translated_in_the_lobby():
    import json
    from pathlib import Path

    static = Path(__file__).resolve().parent.parent / "src/skat/web/static"
    for lang in ("en", "de", "ru"):  # the catalogs of the pages' languages
        table = json.loads((static / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))["table"]
        for status in ("waiting", "starting", "playing", "between_deals", "finished", "stopped", "paused"):
            assert table.get(f"status_{status}"), (lang, status)


def test_printed_lists_and_rankings_are_limited_per_address(make):
    client, app, clock = make(print=Rate(1, 60))
    for path in ("/api/keeper/ab12/list.pdf", "/api/tournaments/ab12/ranking.pdf",
                 "/api/tournaments/ab12/series/1/lists.pdf"):
        assert request_kind("GET", path) == "print"
    made = client.post("/api/keeper", json={"players": ["Ann", "Bob", "Cid"], "ruleset": "isko"}, headers=at("10.0.0.1"))
    assert made.status_code == 201, made.text
    url = f"/api/keeper/{made.json()['id']}/list.pdf"
    first = client.get(url, headers=at("10.0.0.1"))
    assert first.status_code == 200 and first.content.startswith(b"%PDF-")
    refused(client.get(url, headers=at("10.0.0.1")), "too many printed lists and rankings")
    assert client.get(url, headers=at("10.0.0.2")).status_code == 200  # another address
    clock.now += 61
    assert client.get(url, headers=at("10.0.0.1")).status_code == 200  # the bucket refilled
