"""The computer players are supervised (issue 14): a failure is logged and tried again, a table that still
fails is stopped and says so, and a table that cannot be rebuilt at start-up is not served half-built."""

from __future__ import annotations

import asyncio
import json
import logging

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import update
from sqlalchemy.exc import OperationalError

import skat.server.runner as runner_mod
from skat.deal.game import Game
from skat.server import create_app
from skat.server.connections import Client
from skat.server.core import TableError
from skat.server.manager import TableManager
from skat.server.store import Store, actions_t, tables_t


@pytest.fixture(autouse=True)
def quick_retries(monkeypatch):
    monkeypatch.setattr(runner_mod, "BOT_RETRY_DELAYS", (0.01, 0.02, 0.04))


def stored_actions(store: Store, table_id: str) -> list[tuple[int, int, int, str]]:
    out = []
    for t in store.load_open_tables():
        if t.id == table_id:
            for d in t.deals:
                out += [(d.deal_no, i, seat, token) for i, (seat, token) in enumerate(d.actions)]
    return out


def played(table) -> list[tuple[int, int, int, str]]:
    return [(table.deal_no, i, seat, str(a)) for i, (seat, a) in enumerate(table.game.history)]


async def run_bots(table, timeout: float = 60) -> None:
    table.schedule_bots()
    while table.bot_task is not None and not table.bot_task.done():
        await asyncio.wait_for(asyncio.shield(table.bot_task), timeout)
        table.schedule_bots()  # the loop may hand over to a new task after a deal


def bot_table(tmp_path, **kw):
    store = Store(f"sqlite:///{tmp_path / 'skat.sqlite'}")
    manager = TableManager(store, bot_processes=False)
    table, _ = asyncio.run(manager.create_table(seats=["random", "random", "random"], deals=1, claim=None, **kw, public=True))
    return store, manager, table


def failing_apply(monkeypatch, failures: int | None):
    """Game.apply raises ``failures`` times (None: always) on the 5th action of a deal, then works."""
    real = Game.apply
    calls = {"n": 0}

    def apply(self, action, seat=None):
        if len(self.history) == 4 and (failures is None or calls["n"] < failures):
            calls["n"] += 1
            raise OverflowError("injected engine failure")
        return real(self, action, seat)

    monkeypatch.setattr(Game, "apply", apply)
    return calls


def test_an_engine_failure_once_is_logged_and_the_table_goes_on(tmp_path, monkeypatch, caplog):
    store, manager, table = bot_table(tmp_path)
    calls = failing_apply(monkeypatch, 1)
    with caplog.at_level(logging.ERROR, "skat.server"):
        asyncio.run(run_bots(table))
    assert calls["n"] == 1
    assert table.stopped is None and table.game.is_over and table.status == "finished"
    # the action stored before the engine failed was applied on the retry, and stored once
    assert stored_actions(store, table.id) == played(table)
    failure = next(r for r in caplog.records if "computer players at table" in r.getMessage())
    assert table.id in failure.getMessage() and "deal 1" in failure.getMessage() and "seat" in failure.getMessage()
    assert failure.exc_info is not None and "injected engine failure" in caplog.text
    store.close()


def test_an_engine_failing_always_stops_the_table(tmp_path, monkeypatch, caplog):
    store, manager, table = bot_table(tmp_path)
    got: list[dict] = []

    async def send(message):
        got.append(json.loads(message) if isinstance(message, str) else message)

    table.clients.add(Client(send=send, position=None))
    failing_apply(monkeypatch, None)

    async def scenario():
        await run_bots(table)
        stored = stored_actions(store, table.id)
        with pytest.raises(TableError) as refused:
            await table.act(0, "pass")
        table.schedule_bots()
        assert table.bot_task is None or table.bot_task.done()
        return stored, refused.value

    with caplog.at_level(logging.ERROR, "skat.server"):
        stored, refused = asyncio.run(scenario())
    assert table.stopped and "OverflowError" in table.stopped and "injected engine failure" in table.stopped
    assert refused.code == "table_stopped" and table.stopped in str(refused)
    stopped = [m for m in got if m["type"] == "stopped"]
    assert stopped == [{"type": "stopped", "table_id": table.id, "reason": table.stopped}]
    last = [m for m in got if m["type"] == "state"][-1]
    assert last["stopped"] == table.stopped and last["table"]["status"] == "stopped"
    assert manager.lobby()[0]["stopped"] == table.stopped
    # the action that was stored before the engine failed stays (it is acknowledged); nothing after it
    assert len(stored) == 5 and stored_actions(store, table.id) == stored
    assert sum("computer players at table" in r.getMessage() for r in caplog.records) == 4
    with pytest.raises(TableError) as joined:
        asyncio.run(manager.join(table.id))
    assert joined.value.code == "table_stopped"
    store.close()


def test_a_database_outage_during_a_computer_move_loses_and_doubles_nothing(tmp_path, monkeypatch, caplog):
    store, manager, table = bot_table(tmp_path)
    real = store.add_action
    calls = {"failed": 0}

    def add_action(table_id, deal_no, seq, seat, token, *more):
        if seq == 3 and calls["failed"] < 2:
            calls["failed"] += 1
            raise OperationalError("INSERT", {}, Exception("the database is down"))
        return real(table_id, deal_no, seq, seat, token, *more)

    monkeypatch.setattr(store, "add_action", add_action)
    with caplog.at_level(logging.ERROR, "skat.server"):
        asyncio.run(run_bots(table))
    assert calls["failed"] == 2 and table.stopped is None and table.game.is_over
    assert stored_actions(store, table.id) == played(table)
    assert sum("computer players at table" in r.getMessage() for r in caplog.records) == 2
    store.close()


def test_a_failed_finish_write_is_written_once_on_the_retry(tmp_path, monkeypatch):
    store, manager, table = bot_table(tmp_path)
    real = store.finish_deal
    calls = {"failed": 0, "written": 0}

    def finish_deal(*args):
        if calls["failed"] < 2:
            calls["failed"] += 1
            raise OperationalError("UPDATE", {}, Exception("the database is down"))
        calls["written"] += 1
        return real(*args)

    monkeypatch.setattr(store, "finish_deal", finish_deal)
    asyncio.run(run_bots(table))
    assert calls == {"failed": 2, "written": 1} and table.stopped is None
    assert [d.finished for t in store.load_open_tables() for d in t.deals] == [True]
    assert stored_actions(store, table.id) == played(table)
    store.close()


def test_bid_values_the_engine_cannot_hold_are_refused_at_creation(client):
    for ladder in ([2**40], [18, 20, 2**40], [2**63]):
        r = client.post("/api/tables", json={"seats": ["human", "random", "random"], "options": {"bid_values": ladder}})
        assert r.status_code == 400, r.text
        assert r.json()["error"] == "bad_options" and "from 10 to 264" in r.json()["message"]
    assert client.get("/api/tables").json()["tables"] == []


@pytest.mark.parametrize("breakage", ["settings", "action"])
def test_a_table_that_cannot_be_rebuilt_is_reported_and_not_served(db_url, caplog, breakage):
    with TestClient(create_app(db_url)) as client:
        t = client.post("/api/tables", json={"seats": ["human", "random", "random"], "public": True}).json()
        good = client.post("/api/tables", json={"seats": ["human", "random", "random"], "public": True}).json()
    store = Store(db_url)
    with store.engine.begin() as conn:
        if breakage == "settings":
            row = conn.execute(tables_t.select().where(tables_t.c.id == t["table_id"])).first()
            settings = json.loads(row.settings)
            settings["options"] = {"bid_values": [2**40]}  # written before the options were checked
            conn.execute(update(tables_t).where(tables_t.c.id == t["table_id"]).values(settings=json.dumps(settings)))
        else:
            conn.execute(actions_t.insert().values(table_id=t["table_id"], deal_no=1, seq=99, seat=0, token="CJ",
                                                   at=0.0))
    store.close()
    with caplog.at_level(logging.ERROR, "skat.server"):
        app = create_app(db_url)
    failure = next(r for r in caplog.records if "could not be restored" in r.getMessage())
    assert t["table_id"] in failure.getMessage() and failure.exc_info is not None
    with TestClient(app) as client:
        r = client.get(f"/api/tables/{t['table_id']}")
        assert r.status_code == 410 and r.json()["error"] == "table_broken", r.text
        assert "could not be rebuilt" in r.json()["message"]
        assert client.post(f"/api/tables/{t['table_id']}/join", json={}).json()["error"] == "table_broken"
        assert [x["id"] for x in client.get("/api/tables").json()["tables"]] == [good["table_id"]]
        assert client.get(f"/api/tables/{good['table_id']}").status_code == 200
        with client.websocket_connect(f"/ws/{t['table_id']}") as ws:
            m = json.loads(ws.receive_text())
            assert m["type"] == "error" and m["code"] == "table_broken"


def test_a_stopped_table_answers_actions_over_the_socket(client, monkeypatch):
    t = client.post("/api/tables", json={"seats": ["human", "random", "random"], "player_name": "Ada", "public": True}).json()
    table = client.app.state.manager.get(t["table_id"])
    with client.websocket_connect(f"/ws/{t['table_id']}") as ws:
        ws.send_text(json.dumps({"type": "hello", "protocol": 1, "token": t["token"]}))
        while json.loads(ws.receive_text())["type"] != "state":
            pass
        table.stop("a test stopped it")
        ws.send_text(json.dumps({"type": "action", "action": "pass"}))
        while (m := json.loads(ws.receive_text()))["type"] == "state":  # a computer's move sent before the stop
            pass
        assert m["type"] == "error" and m["code"] == "table_stopped" and "a test stopped it" in m["message"]
    info = client.get(f"/api/tables/{t['table_id']}").json()
    assert info["status"] == "stopped" and info["stopped"] == "a test stopped it"


def test_a_table_stopped_at_one_process_is_stopped_at_the_others(tmp_path, monkeypatch):
    """The process that runs the computer players stops the table and tells the others with a notice; a
    process holding the table takes it: its clients are told, and it refuses actions alike."""
    store, manager, table = bot_table(tmp_path)
    notices: list[dict] = []
    real_submit = store.submit

    def submit(op, notice=None, **kw):
        if notice is not None:
            notices.append(notice)
        return real_submit(op, notice, **kw)

    monkeypatch.setattr(store, "submit", submit)
    other_store = Store(f"sqlite:///{tmp_path / 'skat.sqlite'}")
    other = TableManager(other_store, bot_processes=False)
    there = other._rebuild(other_store.load_table(table.id))  # the other process holds the table too
    failing_apply(monkeypatch, None)
    got: list[dict] = []

    async def send(message):
        got.append(json.loads(message) if isinstance(message, str) else message)

    async def scenario():
        await run_bots(table)
        there.clients.add(Client(send=send, position=None))
        stopped = [n for n in notices if n.get("k") == "stopped"]
        assert stopped == [{"t": table.id, "k": "stopped", "reason": table.stopped}]
        assert await there.take_notice(stopped[0]) and there.stopped == table.stopped
        assert not await there.take_notice(stopped[0])  # a second notice changes nothing
        with pytest.raises(TableError) as refused:
            await there.act(0, "pass")
        return refused.value

    try:
        refused = asyncio.run(scenario())
        assert refused.code == "table_stopped"
        assert got == [{"type": "stopped", "table_id": table.id, "reason": table.stopped}]
        assert there.public_info()["status"] == "stopped"
    finally:
        other.shutdown()
        other_store.close()
        store.close()
