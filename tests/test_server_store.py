"""Persistence: every action is stored before it is acknowledged, and a restarted server resumes
open tables exactly where they were (SQLite and a real PostgreSQL)."""

from __future__ import annotations

import json
import logging
import threading
import time

import pytest
from fastapi.testclient import TestClient

from skat.deal.game import Game
from skat.records.wire import view_to_json
from skat.server import create_app
from skat.server.core import unpack
from skat.server.store import Store, Written, _Write, lock_order, normalize_db_url
from test_server_support import postgres  # noqa: F401 - the fixture


def hello(ws, token):
    """Say hello; returns the seat's state (the welcome and the sheet come first)."""
    ws.send_text(json.dumps({"type": "hello", "protocol": 1, "token": token}))
    return recv_state(ws)


def recv_state(ws):
    while True:
        m = json.loads(ws.receive_text())
        if m["type"] == "state":
            return m


def step(ws, state):
    """Take one action for this seat when it is its turn; returns the next state."""
    v = state["view"]
    if v["to_move"] == v["seat"] and v["legal_actions"]:
        legal = v["legal_actions"]
        action = "hold" if "hold" in legal else ("18" if legal == ["18", "pass"] else legal[0])
        if v["phase"] == "bidding" and action not in ("hold", "18"):
            action = "pass"
        ws.send_text(json.dumps({"type": "action", "action": action}))
    return recv_state(ws)


def restart_keeps_the_game(url: str) -> None:
    with TestClient(create_app(url)) as client:
        t = client.post("/api/tables", json={"seats": ["human", "random", "random"], "public": True}).json()
        with client.websocket_connect(f"/ws/{t['table_id']}") as ws:
            state = hello(ws, t["token"])
            for _ in range(12):
                if state["view"]["phase"] == "finished":
                    break
                state = step(ws, state)
        app = client.app
    # the server is down: this is what it had acknowledged
    old = app.state.manager.get(t["table_id"]).game
    history = [(s, str(a)) for s, a in old.history]
    hand = {c.name for c in old.hand(0)}
    # a new server on the same database restores the table before it serves anybody
    app = create_app(url)
    table = app.state.manager.get(t["table_id"])
    assert [(s, str(a)) for s, a in table.game.history] == history
    assert view_to_json(table.game.view(0)) == view_to_json(old.view(0))
    with TestClient(app) as client:
        with client.websocket_connect(f"/ws/{t['table_id']}") as ws:
            after = hello(ws, t["token"])
            assert after["seq"] >= len(history) and set(after["view"]["hand"]) == hand
            state = after
            while state["view"]["phase"] != "finished":
                state = step(ws, state)
        record = client.get(f"/api/tables/{t['table_id']}/games/1.json").json()
        assert [tuple(a) for a in record["actions"][: len(history)]] == [tuple(h) for h in history]
        assert Game.from_record(record).is_over


def test_restart_resumes_the_table_sqlite(tmp_path):
    restart_keeps_the_game(f"sqlite:///{tmp_path / 'skat.sqlite'}")


def test_restart_resumes_the_table_postgresql(postgres):  # noqa: F811 - the fixture
    restart_keeps_the_game(postgres.new_database())


def test_actions_are_stored_before_they_are_acknowledged(tmp_path):
    url = f"sqlite:///{tmp_path / 'skat.sqlite'}"
    with TestClient(create_app(url)) as client:
        t = client.post("/api/tables", json={"seats": ["human", "human", "random"], "public": True}).json()
        j = client.post(f"/api/tables/{t['table_id']}/join", json={}).json()
        with client.websocket_connect(f"/ws/{t['table_id']}") as ws:
            hello(ws, j["token"])
            ws.send_text(json.dumps({"type": "action", "action": "18"}))
            state = recv_state(ws)
            assert state["seq"] == 1
            # the acknowledgement (the new state) came after the action was committed
            stored = Store(url).load_open_tables()
            deal = [s for s in stored if s.id == t["table_id"]][0].deals[-1]
            assert deal.actions == [(1, "18")]


def test_database_urls():
    assert normalize_db_url("postgres://u@h/db") == "postgresql+psycopg://u@h/db"
    assert normalize_db_url("postgresql://u@h/db") == "postgresql+psycopg://u@h/db"
    assert normalize_db_url("sqlite:///x.db") == "sqlite:///x.db"
    assert normalize_db_url("skat.sqlite").startswith("sqlite:////")


@pytest.mark.parametrize("argv", [["serve", "--port", "70000"], ["play", "--deals", "0", "--text"],
                                  ["serve", "--gc-thaw", "-5"], ["serve", "--gc-thaw", "nan"]])
def test_commands_refuse_bad_options(argv, capsys):
    from skat.cli import main

    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "skat" in err and ("--gc-thaw" in err) == ("--gc-thaw" in argv)


def test_a_server_restored_in_the_background_answers_at_once_and_loads_every_table(tmp_path):
    url = f"sqlite:///{tmp_path / 'skat.sqlite'}"
    with TestClient(create_app(url)) as client:
        made = [client.post("/api/tables", json={"seats": ["human", "random", "random"], "public": True,
                                                 "name": f"T{i}"}).json() for i in range(3)]
    app = create_app(url, restore_in_background=True)  # as `skat serve` does: nothing is replayed yet
    assert app.state.manager.tables == {}
    with TestClient(app) as client:
        # a table asked for is loaded at once; the lobby waits for all of them
        assert client.get(f"/api/tables/{made[1]['table_id']}").json()["name"] == "T1"
        assert sorted(t["name"] for t in client.get("/api/tables").json()["tables"]) == ["T0", "T1", "T2"]
        with client.websocket_connect(f"/ws/{made[2]['table_id']}") as ws:
            assert hello(ws, made[2]["token"])["view"]["hand"]


def test_old_records_leave_memory_and_come_back_from_the_database(tmp_path, monkeypatch):
    import skat.server.core as core_mod

    monkeypatch.setattr(core_mod, "RECENT_RECORDS", 2)
    url = f"sqlite:///{tmp_path / 'skat.sqlite'}"
    with TestClient(create_app(url)) as client:
        t = client.post("/api/tables", json={"seats": ["random", "random", "random"], "claim": None, "deals": 5,
                                             "public": True}).json()
        table = client.app.state.manager.get(t["table_id"])
        seen: dict[int, dict] = {}
        deadline = time.time() + 60
        while len(seen) < 5:
            assert time.time() < deadline, "the computers did not finish 5 deals"
            for deal_no, record in list(table.records.items()):
                seen.setdefault(deal_no, unpack(record))
            time.sleep(0.005)
        assert len(table.records) == 2 and len(table.series.table.records) == 1  # memory stays bounded
        for deal_no in range(1, 6):  # the old ones rebuilt from the database, exactly as they were
            got = client.get(f"/api/tables/{t['table_id']}/games/{deal_no}.json")
            assert got.status_code == 200 and got.json() == seen[deal_no]
        assert client.get(f"/api/tables/{t['table_id']}/games/6.json").json()["error"] == "no_deal"


def test_a_process_ignores_its_own_notices_without_reading_them_and_hears_the_others():
    from types import SimpleNamespace

    from skat.server.fanout import Fanout

    heard: list[dict] = []
    mine = SimpleNamespace(process_id="aa11", shared=True)
    fanout = Fanout(mine, heard.append, lambda: None, lambda: None)  # type: ignore[arg-type]
    store = SimpleNamespace(process_id="aa11")
    payloads = Store._notice_payloads(store, [{"t": "x", "k": "a"}])  # type: ignore[arg-type]
    assert payloads[0].startswith('{"p":"aa11",')
    fanout._deliver(payloads[0])
    assert heard == [] and fanout.received == 0
    other = Store._notice_payloads(SimpleNamespace(process_id="bb22"), [{"t": "x", "k": "a"}])  # type: ignore[arg-type]
    fanout._deliver(other[0])
    assert heard == [{"t": "x", "k": "a"}] and fanout.received == 1
    fanout._deliver("not json")  # logged, ignored
    assert fanout.received == 1


def grouped_actions_answer_each_write(url: str) -> None:
    """Actions queued together are inserted in one statement and each answered as if alone: stored, or
    not (its point was stored already, or its table is closed), in the order they were queued."""
    store = Store(url)
    try:
        store.create_table("t1", "one", {}, []).result(10)
        store.create_table("t2", "two", {}, []).result(10)
        store.start_deal("t1", 1, 0, (0, 1, 2), {}).result(10)
        store.start_deal("t2", 1, 0, (0, 1, 2), {}).result(10)
        assert store.add_action("t1", 1, 0, 1, "18").result(10) is True
        store.close_table("t2").result(10)
        store._queue.put(None)  # stop the writer, queue the writes, start it again: it takes them at once
        store._writer.join(10)
        rows = [("t1", 0, "pass"), ("t1", 1, "pass"), ("t2", 0, "18"), ("t1", 2, "hold"), ("t1", 1, "20")]
        writes = [_Write(lambda conn: None, Written(store, None), None, {"table_id": table_id, "deal_no": 1, "seq": seq,
                                                              "seat": 0, "token": token, "at": 1.0,
                                                              "stand_in": token == "hold"})
                  for table_id, seq, token in rows]
        for w in writes:
            store._queue.put(w)
        commits = store.commits
        store._writer = threading.Thread(target=store._write_loop, daemon=True)
        store._writer.start()
        assert [w.future.result(10) for w in writes] == [False, True, False, True, False]
        assert store.commits == commits + 1
        deal = store.load_deal("t1", 1)
        assert deal.actions == [(1, "18"), (0, "pass"), (0, "hold")]
        assert deal.stand_ins == {2}  # the computer stand-in's action is marked as such (docs/clock.md)
        assert store.load_deal("t2", 1).actions == []
    finally:
        store.close()


def test_grouped_actions_answer_each_write_sqlite(tmp_path):
    grouped_actions_answer_each_write(f"sqlite:///{tmp_path / 'g.sqlite'}")


def test_grouped_actions_answer_each_write_postgresql(postgres):  # noqa: F811 - the fixture
    grouped_actions_answer_each_write(postgres.new_database())


def test_lock_order_sorts_by_table_and_keeps_each_tables_order():
    def w(table, n):
        return _Write(op=lambda conn: n, future=None, notice=None, table=table)  # type: ignore[arg-type]

    batch = [w("b", 1), w("a", 2), w("b", 3), w(None, 4), w("c", 5), w("a", 6)]
    ordered = lock_order(batch)
    assert [(x.table, x.op(None)) for x in ordered] == [("a", 2), ("b", 1), ("b", 3), (None, 4), ("a", 6), ("c", 5)]


def test_two_processes_batches_in_crossed_order_do_not_deadlock(postgres, caplog, monkeypatch):  # noqa: F811 - the fixture
    """Two writers commit batches that write the same two rows, handed over in opposite orders: taken in
    lock order, the second waits for the first and neither is broken as a deadlock (PostgreSQL breaks one after
    ``deadlock_timeout``, 1 s, and every table of both batches waited that long)."""
    url = postgres.new_database()
    stores = [Store(url), Store(url)]
    broken: list[BaseException] = []
    transaction = Store._transaction

    def watched(self, batch):
        try:
            return transaction(self, batch)
        except Exception as exc:  # a batch broken as a deadlock (the writer then tries each write alone)
            broken.append(exc)
            raise

    monkeypatch.setattr(Store, "_transaction", watched)
    try:
        with stores[0].engine.begin() as conn:
            conn.exec_driver_sql("CREATE TABLE crossed (k TEXT PRIMARY KEY, by INTEGER)")
        wrote = [threading.Event(), threading.Event()]  # each writer's first row is written

        def the_other_is_there(by: int) -> bool:
            """The other writer has written a row, or it waits for a row's lock (this writer's)."""
            if wrote[1 - by].is_set():
                return True
            with stores[0].engine.connect() as conn:
                return bool(conn.exec_driver_sql("SELECT count(*) FROM pg_stat_activity WHERE datname = "
                                                 "current_database() AND wait_event_type = 'Lock'").scalar())

        def row(key: str, by: int) -> _Write:
            def op(conn):
                inserted = conn.exec_driver_sql(
                    "INSERT INTO crossed VALUES (%s, %s) ON CONFLICT DO NOTHING RETURNING k", (key, by)).first()
                wrote[by].set()
                deadline = time.monotonic() + 20  # the other writer reaches its first row meanwhile
                while not the_other_is_there(by) and time.monotonic() < deadline:
                    time.sleep(0.01)
                return inserted is not None
            return _Write(op=op, future=Written(stores[by], None), notice=None, table=key)

        batches = [[row("x", 0), row("y", 0)], [row("y", 1), row("x", 1)]]
        with caplog.at_level(logging.WARNING, "skat.server"):
            threads = [threading.Thread(target=stores[i]._commit, args=(lock_order(b),)) for i, b in enumerate(batches)]
            for t in threads:
                t.start()
            for t in threads:
                t.join(60)
        answers = [[w.future.result(5) for w in b] for b in batches]
        assert answers[0] != answers[1] and sorted(answers[0] + answers[1]) == [False, False, True, True]
        assert not [r for r in caplog.records if "write failed" in r.getMessage()]
        assert not broken, f"a batch was broken: {broken}"  # no deadlock: each batch committed whole, at once
        with stores[0].engine.connect() as conn:
            assert conn.exec_driver_sql("SELECT count(*) FROM crossed").scalar() == 2
    finally:
        for store in stores:
            store.close()
