"""A PostgreSQL outage while a table is played: the person's action is answered ``db_unavailable`` and
changes nothing, the computer players' moves are retried, and when the database is back the table goes on
with nothing lost or doubled. Runs on a throw-away PostgreSQL cluster of its own (it is stopped mid-test)."""

from __future__ import annotations

import json
import logging
import os
import subprocess
import time

import pytest
from fastapi.testclient import TestClient

from skat.server.app import create_app
from skat.server.store import Store
from test_server_support import Postgres

pytestmark = pytest.mark.timeout(180)


@pytest.fixture()
def own_postgres(monkeypatch):
    monkeypatch.delenv("SKAT_TEST_PG_URL", raising=False)
    pg = Postgres()  # a cluster of its own: this test stops it
    yield pg
    pg.stop()


def pg_ctl(pg: Postgres, *args: str) -> None:
    subprocess.run([*pg.as_postgres, f"{pg.bindir}/pg_ctl", "-D", os.path.join(pg.tmp, "data"), *args],
                   check=True, capture_output=True, timeout=60)


def recv(ws) -> dict:
    return json.loads(ws.receive_text())


def next_state(ws, errors: list) -> dict:
    while True:
        m = recv(ws)
        if m["type"] == "state":
            return m
        if m["type"] == "error":
            errors.append(m)


def state_beyond(ws, seq: int, errors: list) -> dict:
    """The first state past ``seq`` (a state the server sends again meanwhile, as after it took the
    computers' lease back, is skipped)."""
    while True:
        state = next_state(ws, errors)
        if state["seq"] != seq:
            return state


def my_turn(ws, state: dict, errors: list) -> dict:
    while state["view"]["phase"] != "finished" and state["view"]["to_move"] != state["view"]["seat"]:
        state = next_state(ws, errors)
    return state


def logged_in_order(caplog, since: int, parts: tuple[str, ...], timeout: float = 20) -> None:
    """Wait until the server's warnings logged since record ``since`` hold ``parts``, each in a later line than
    the one before; fail naming what was logged."""
    deadline = time.time() + timeout
    while True:
        lines = [r.getMessage() for r in caplog.records[since:]
                 if r.levelno >= logging.WARNING and r.name.startswith("skat.server")]
        found = 0
        for line in lines:
            if found < len(parts) and parts[found] in line:
                found += 1
        if found == len(parts):
            return
        assert time.time() < deadline, f"never logged {parts[found]!r} after {parts[:found]}; logged: {lines}"
        time.sleep(0.1)


LOST = "the fan-out lost its database connection"
BACK = "the fan-out's connection to the database is open again"


def choose(view: dict) -> str:
    legal = view["legal_actions"]
    return "pass" if "pass" in legal else legal[0]


def test_a_database_outage_is_answered_retried_and_loses_nothing(own_postgres, caplog):
    url = own_postgres.new_database()
    app = create_app(url, bot_delay=0.3)
    errors: list[dict] = []
    caplog.set_level(logging.WARNING, "skat.server")
    with TestClient(app) as client:
        t = client.post("/api/tables", json={"seats": ["human", "random", "random"], "public": True}).json()
        with client.websocket_connect(f"/ws/{t['table_id']}") as ws:
            ws.send_text(json.dumps({"type": "hello", "protocol": 1, "token": t["token"]}))
            state = my_turn(ws, next_state(ws, errors), errors)
            ws.send_text(json.dumps({"type": "action", "action": choose(state["view"]), "seq": state["seq"]}))
            state = my_turn(ws, next_state(ws, errors), errors)
            assert state["view"]["phase"] != "finished"
            table = app.state.manager.get(t["table_id"])
            before = len(table.game.history)

            pg_ctl(own_postgres, "-m", "fast", "stop")  # the database goes away
            ws.send_text(json.dumps({"type": "action", "action": choose(state["view"]), "seq": state["seq"]}))
            deadline = time.time() + 60
            while not any(e["code"] == "db_unavailable" for e in errors):
                assert time.time() < deadline, f"the action was not answered: {errors}"
                m = recv(ws)
                if m["type"] == "error":
                    errors.append(m)
            assert len(table.game.history) == before  # nothing changed
            assert "nothing was changed" in [e for e in errors if e["code"] == "db_unavailable"][0]["message"]
            time.sleep(1.0)
            port = own_postgres.admin_url.rsplit("port=", 1)[1]
            pg_ctl(own_postgres, "-w", "-l", os.path.join(own_postgres.tmp, "log"), "-o",
                   f"-p {port} -k {own_postgres.tmp} -c listen_addresses=''", "start")  # back, as it was

            ws.send_text(json.dumps({"type": "state"}))
            state = my_turn(ws, next_state(ws, errors), errors)
            assert state["view"]["phase"] != "finished" and state["seq"] == before
            # logged, never silent: the lost connection, and that it is open again (so the second outage below
            # starts from a server connected as before the first)
            logged_in_order(caplog, 0, (LOST, BACK))
            # a second outage while the computer players are due (they wait 0.3 s before they act)
            ws.send_text(json.dumps({"type": "action", "action": choose(state["view"]), "seq": state["seq"]}))
            answered = len(errors)
            state = state_beyond(ws, before, errors)
            assert state["seq"] == before + 1 and len(errors) == answered, errors[answered:]
            second = len(caplog.records)  # from here on, only what the second outage logs counts
            pg_ctl(own_postgres, "-m", "fast", "stop")
            time.sleep(2.0)
            pg_ctl(own_postgres, "-w", "-l", os.path.join(own_postgres.tmp, "log"), "-o",
                   f"-p {port} -k {own_postgres.tmp} -c listen_addresses=''", "start")
            state = my_turn(ws, state, errors)
            # the second outage is logged in lines of its own too (the first one's do not count): lost, then open
            # again
            logged_in_order(caplog, second, (LOST, BACK))
            while state["view"]["phase"] != "finished":  # the table goes on: the person and the computers
                ws.send_text(json.dumps({"type": "action", "action": choose(state["view"]), "seq": state["seq"]}))
                state = my_turn(ws, next_state(ws, errors), errors)
            assert table.stopped is None
            played = [(seat, str(a)) for seat, a in table.game.history]
    store = Store(url)
    try:
        stored = store.load_table(t["table_id"])
        assert stored is not None and stored.deals[0].actions == played  # nothing lost, nothing doubled
        assert stored.deals[0].finished
    finally:
        store.close()
