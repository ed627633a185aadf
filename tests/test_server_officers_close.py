"""Closing, restarts and refused requests at Officers' Skat server tables (``POST /api/tables`` with
``"variant": "officers"``, played over ``/ws/{table_id}``, stored in skat_tables/skat_seats/skat_deals/
skat_actions/skat_ready): the meaning of the older REST API's tests (tests/test_officers_close.py,
tests/test_officers_store.py) on the one kind of server table.

* ``POST /api/tables/{id}/close`` with a seat token closes the table for good: it is stored, its clients
  get ``closed``, every later request is ``404 no_table`` (a WebSocket gets ``no_table`` and is closed with
  4404), its rows stay as they were, and a restarted server (or another process on PostgreSQL) does not
  serve it again. The older API answered ``410`` to its seat and ``403`` to anybody else; a server table
  answers every request for a closed table alike, ``404 no_table`` (docs/protocol.md, "Limits").
* Refused requests (bad actions, a stale ``seq``, a wrong token, ``next_deal`` while the game runs, bad
  ``POST /api/tables`` bodies) and a failed database write change no row and no state, also after a restart;
  a failed write can be sent again. A computer opponent that was to move when the server stopped moves,
  once, after the restart, as it does at an uninterrupted twin table of the same seed.

Left out, as they mean nothing for server tables: the older tests' runs without a database (tables in memory
only; a server table always has one, here SQLite, or PostgreSQL where two server processes share it: SQLite
refuses a second serving process), and the start-up's limit of Officers' tables to load. A database made
before the older tables could be closed, and the page's "Close table" control, are tests/test_officers_web.py's;
the restarts mid-game and two processes sharing a table are tests/test_server_officers_ws.py's.

Four of them guard what the server tables first lacked (an action that waited for the close, a process that
has not heard of the close yet, a catch-up after missed notices, the close of a table not loaded yet).
"""

from __future__ import annotations

import json
import time

from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text
from sqlalchemy.exc import OperationalError

from skat.server import create_app
from skat.server.store import Store, normalize_db_url
from skat.server.tables import ServerTable
from test_server import recv, recv_state
from test_server_officers_ws import act, choice, hello, new_table, until_mine
from test_server_support import postgres  # noqa: F401 - the fixture

STORED = (("skat_tables", "id"), ("skat_seats", "table_id"), ("skat_deals", "table_id"),
          ("skat_actions", "table_id"), ("skat_ready", "table_id"))
"""The tables a server table is stored in, with the column naming the table."""


# ------------------------------------------------------------------ helpers
def rows(url: str, table_id: str) -> dict[str, list[dict]]:
    """Everything stored for a table: its row, seats, deals, actions and readiness."""
    engine = create_engine(normalize_db_url(url))
    try:
        with engine.connect() as conn:
            return {name: [dict(r._mapping) for r in conn.execute(
                text(f"SELECT * FROM {name} WHERE {key} = :t ORDER BY 1, 2, 3"), {"t": table_id})]
                for name, key in STORED}
    finally:
        engine.dispose()


def is_closed(stored: dict[str, list[dict]]) -> bool:
    (row,) = stored["skat_tables"]
    return bool(row["closed"])


def actions(url: str, table_id: str) -> list[tuple[int, int, int, str]]:
    """The stored actions of a table: (deal, seq, seat, token)."""
    return [action(r) for r in rows(url, table_id)["skat_actions"]]


def action(row: dict) -> tuple[int, int, int, str]:
    return row["deal_no"], row["seq"], row["seat"], row["token"]


def close(client: TestClient, table_id: str, body: dict):
    return client.post(f"/api/tables/{table_id}/close", json=body)


def assert_no_table(r, table_id: str) -> None:
    assert r.status_code == 404, r.text
    assert r.json() == {"error": "no_table", "message": f"there is no open table {table_id!r}"}


def until_type(ws, kind: str) -> dict:
    """Messages until one of ``kind`` (states of the game before it are passed over)."""
    while True:
        m = recv(ws)
        if m["type"] == kind:
            return m
        assert m["type"] in ("state", "sheet"), m


def assert_refused_as_closed(ws, table_id: str, seq: int) -> None:
    """The answer to a message on a socket of a table closed meanwhile: ``no_table``, then the socket is closed.
    A state before it (another socket of the closed table went away, the server tells who is connected) shows
    the table as it was closed: ``seq`` actions."""
    m = recv(ws)
    while m["type"] == "state":
        assert m["seq"] == seq, m
        m = recv(ws)
    assert m == {"type": "error", "code": "no_table",
                 "message": f"table {table_id} was closed; there is no open table {table_id!r}"}, m
    end = ws.receive()
    assert end["type"] == "websocket.close" and end["code"] == 4404, end


def assert_socket_refused(client: TestClient, table_id: str) -> None:
    """A new WebSocket to a closed table gets ``no_table`` and is closed (4404)."""
    with client.websocket_connect(f"/ws/{table_id}") as ws:
        assert recv(ws) == {"type": "error", "code": "no_table", "message": f"there is no open table {table_id!r}"}
        end = ws.receive()
        assert end["type"] == "websocket.close" and end["code"] == 4404, end


def ask(ws, message: dict) -> dict:
    ws.send_text(json.dumps(message))
    return recv(ws)


def refused(ws, message: dict, code: str) -> dict:
    answer = ask(ws, message)
    assert answer["type"] == "error" and answer["code"] == code and answer["message"], (message, answer)
    return answer


def current(ws) -> dict:
    """The state again, less its ``now`` (the server's clock as it was sent: no fact of the table)."""
    ws.send_text(json.dumps({"type": "state"}))
    state = recv_state(ws)
    state.pop("now", None)
    return state


def game_part(state: dict) -> dict:
    """What a state says of the game and the seat (the table block less its id, name and connections)."""
    info = {k: state["table"][k] for k in ("status", "deal_no", "game_no", "positions", "dealer", "totals",
                                           "officers_variant", "options", "upcoming")}
    return {"table": info, **{k: state[k] for k in ("you", "seq", "stopped", "view", "hints")}}


def wait_until(done, what: str, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not done():
        assert time.monotonic() < deadline, f"{what} did not happen within {timeout} s"
        time.sleep(0.01)


def two_processes(url: str):
    """Two server processes (apps) on one PostgreSQL database, migrated once before both start."""
    Store(url).close()
    return TestClient(create_app(url)), TestClient(create_app(url))


def table_at_both(one: TestClient, two: TestClient) -> tuple[str, str]:
    """An Officers' table made at process one and held by process two too: (its id, the seat token)."""
    t = new_table(one, seed=9)
    assert two.get(f"/api/tables/{t['table_id']}").status_code == 200
    return t["table_id"], t["token"]


def drop_notices(client: TestClient, kind: str) -> list[dict]:
    """This process misses the other processes' notices of ``kind`` (as in the moment before one arrives, or
    while its listening connection is down); returns the list they go to."""
    fanout = client.app.state.manager.fanout
    take, missed = fanout.on_notice, []

    def on_notice(notice: dict) -> None:
        (missed.append if notice.get("k") == kind else take)(notice)

    fanout.on_notice = on_notice
    return missed


# -------------------------------------------------------------------- close
def test_close_is_stored_and_a_restarted_server_does_not_load_the_table(db_url):
    with TestClient(create_app(db_url)) as client:
        t = new_table(client, seed=17)
        other = new_table(client, officers_variant="harlequin", seed=2)
        tid, oid = t["table_id"], other["table_id"]
        other_info = client.get(f"/api/tables/{oid}").json()
        with client.websocket_connect(f"/ws/{tid}") as ws:
            state = hello(ws, t["token"])
            act(ws, state, choice(state))
            state = until_mine(ws, recv_state(ws))  # mid-game
            assert state["view"]["phase"] != "finished"  # the close comes mid-game
            assert len(rows(db_url, tid)["skat_actions"]) == state["seq"]  # every acknowledged action is stored
            r = close(client, tid, {"token": t["token"]})
            assert r.status_code == 200 and r.json() == {"table_id": tid, "closed": True}
            assert until_type(ws, "closed") == {"type": "closed", "table_id": tid,
                                                "message": "this table was closed by a player"}
        manager = client.app.state.manager
        assert tid not in manager.tables and oid in manager.tables
        assert_no_table(client.get(f"/api/tables/{tid}"), tid)
        assert client.get(f"/api/tables/{oid}").json() == other_info
        assert [x["id"] for x in client.get("/api/tables").json()["tables"]] == [oid]
        stored = rows(db_url, tid)
        assert is_closed(stored) and not is_closed(rows(db_url, oid))
        assert len(stored["skat_actions"]) == state["seq"]  # its deal and actions stay stored
        assert manager.store.open_table_ids() == [oid]
    with TestClient(create_app(db_url)) as client:  # a new server on the same database
        assert list(client.app.state.manager.tables) == [oid]
        assert_no_table(client.get(f"/api/tables/{tid}"), tid)
        assert_socket_refused(client, tid)
        assert tid not in client.app.state.manager.tables  # asking for it does not load it either
        assert client.get(f"/api/tables/{oid}").json() == other_info
        assert [x["id"] for x in client.get("/api/tables").json()["tables"]] == [oid]
    assert rows(db_url, tid) == stored


def test_only_a_seat_holder_closes_the_table(db_url):
    with TestClient(create_app(db_url)) as client:
        t = new_table(client, seed=17, public=False)  # private: its invite is a secret, but no seat token
        other = new_table(client, seed=17)
        tid = t["table_id"]
        with client.websocket_connect(f"/ws/{tid}") as ws:
            state = hello(ws, t["token"])
            before = rows(db_url, tid)
            for body in ({"token": "not-the-token"}, {"token": other["token"]}, {"token": t["invite"]}, {},
                         {"token": None}, {"token": ""}, {"token": 17}, {"token": [t["token"]]}):
                r = close(client, tid, body)
                assert r.status_code == 403 and r.json()["error"] == "bad_token", (body, r.text)
                assert r.json()["message"].startswith(("only a person seated at this table can close it",
                                                       "this seat token is not valid at this table")), r.text
            assert tid in client.app.state.manager.tables and rows(db_url, tid) == before
            assert current(ws) == {k: v for k, v in state.items() if k != "now"}  # still open, unchanged
            r = close(client, "no-such-table", {"token": t["token"]})
            assert_no_table(r, "no-such-table")
            assert close(client, tid, {"token": t["token"]}).status_code == 200
            until_type(ws, "closed")
        # closed for everybody alike: the older API answered 403 here, a server table 404 no_table
        assert_no_table(close(client, tid, {"token": other["token"]}), tid)
        assert_no_table(client.get(f"/api/tables/{tid}", headers={"X-Seat-Token": t["token"]}), tid)
        assert_no_table(client.get(f"/api/tables/{tid}"), tid)
        assert client.get(f"/api/tables/{other['table_id']}").json()["status"] == "playing"
        # at a table of two people, either seat closes it
        two = new_table(client, seats=["human", "human"], seed=4)
        joined = client.post(f"/api/tables/{two['table_id']}/join", json={"name": "Bo"}).json()
        assert joined["position"] == 1
        assert close(client, two["table_id"], {"token": joined["token"]}).json() == {
            "table_id": two["table_id"], "closed": True}
        assert is_closed(rows(db_url, two["table_id"]))


def test_a_closed_table_refuses_everything_and_nothing_changes(db_url):
    with TestClient(create_app(db_url)) as client:
        t = new_table(client, officers_variant="passing", seed=5, seats=["officers", "human"], claim=1)
        tid, token = t["table_id"], t["token"]
        with client.websocket_connect(f"/ws/{tid}") as player, \
                client.websocket_connect(f"/ws/{tid}") as second_tab, \
                client.websocket_connect(f"/ws/{tid}") as spectator, \
                client.websocket_connect(f"/ws/{tid}") as silent:  # connected, no hello yet
            state = until_mine(player, hello(player, token))
            act(player, state, choice(state))
            state = until_mine(player, recv_state(player))
            assert hello(second_tab, token)["you"]["seat"] == 1 and hello(spectator, None)["you"]["role"] == "spectator"
            assert close(client, tid, {"token": token}).status_code == 200
            for ws in (player, second_tab, spectator):
                assert until_type(ws, "closed")["table_id"] == tid
            before = rows(db_url, tid)
            assert is_closed(before) and len(before["skat_actions"]) == state["seq"] >= 2
            player.send_text(json.dumps({"type": "action", "action": choice(state), "seq": state["seq"]}))
            assert_refused_as_closed(player, tid, state["seq"])
            second_tab.send_text(json.dumps({"type": "next_deal"}))
            assert_refused_as_closed(second_tab, tid, state["seq"])
            spectator.send_text(json.dumps({"type": "state"}))
            assert_refused_as_closed(spectator, tid, state["seq"])
            silent.send_text(json.dumps({"type": "hello", "protocol": 1, "token": token}))
            assert_refused_as_closed(silent, tid, state["seq"])
        assert_socket_refused(client, tid)
        headers = {"X-Seat-Token": token}
        for path in ("", "/sheet", "/sheet.json", "/games", "/games/1.json"):
            assert_no_table(client.get(f"/api/tables/{tid}{path}", headers=headers), tid)
        assert_no_table(client.post(f"/api/tables/{tid}/join", json={"name": "Bo"}), tid)
        assert_no_table(close(client, tid, {"token": token}), tid)  # closing twice: a clear answer, no 500
        assert tid not in client.app.state.manager.tables
        assert rows(db_url, tid) == before  # the deal and its actions stay stored, nothing was added


def test_an_action_that_waited_for_the_close_is_refused(db_url):
    """A message that found the table open and then waited for its lock while the table was being closed is
    refused when it gets the lock, before anything is stored."""
    with TestClient(create_app(db_url)) as client:
        t = new_table(client, seed=3)
        tid = t["table_id"]
        manager = client.app.state.manager
        table = manager.get(tid)
        with client.websocket_connect(f"/ws/{tid}") as ws:
            state = hello(ws, t["token"])
            before = rows(db_url, tid)

            async def hold() -> None:
                await table.lock.acquire()

            async def release() -> None:
                table.lock.release()

            client.portal.call(hold)  # as an action or a computer move under way holds it
            closing = client.portal.start_task_soon(manager.close, tid, t["token"])
            wait_until(lambda: len(table.lock._waiters or ()) == 1, "the close waiting for the lock")
            act(ws, state, choice(state))
            wait_until(lambda: len(table.lock._waiters or ()) == 2, "the action waiting for the lock")
            client.portal.call(release)
            closing.result(10)
            assert until_type(ws, "closed")["table_id"] == tid
            answer = recv(ws)
            assert answer["type"] == "error" and answer["code"] == "no_table", answer
        assert actions(db_url, tid) == [] and rows(db_url, tid)["skat_deals"] == before["skat_deals"]


# --------------------------------------------------- another server process
def test_a_table_closed_by_another_server_process(postgres):  # noqa: F811 - the fixture
    url = postgres.new_database()
    one, two = two_processes(url)
    with one, two:
        t = new_table(one, seed=9)
        tid, token = t["table_id"], t["token"]
        assert two.get(f"/api/tables/{tid}").status_code == 200  # loaded in the second process
        assert tid in two.app.state.manager.tables
        with one.websocket_connect(f"/ws/{tid}") as ws1, two.websocket_connect(f"/ws/{tid}") as ws2:
            s1, s2 = hello(ws1, token), hello(ws2, token)
            assert (s1["seq"], s1["view"]) == (s2["seq"], s2["view"])
            act(ws1, s1, choice(s1))  # an action taken in the first process reaches the second
            s1 = until_mine(ws1, recv_state(ws1))
            s2 = until_mine(ws2, recv_state(ws2))
            wait_until(lambda: current(ws2)["seq"] == s1["seq"], "the second process taking the actions")
            assert current(ws2)["view"] == s1["view"]
            assert close(one, tid, {"token": token}).status_code == 200
            before = rows(url, tid)
            assert is_closed(before) and len(before["skat_actions"]) == s1["seq"]
            # the notice reaches the second process: it drops the table and tells its clients
            wait_until(lambda: tid not in two.app.state.manager.tables, "the second process dropping the table")
            assert until_type(ws2, "closed") == {"type": "closed", "table_id": tid,
                                                 "message": "this table was closed by a player"}
            assert until_type(ws1, "closed")["table_id"] == tid
            ws2.send_text(json.dumps({"type": "action", "action": choice(s2), "seq": s2["seq"]}))
            assert_refused_as_closed(ws2, tid, s2["seq"])
        assert_no_table(two.get(f"/api/tables/{tid}"), tid)
        assert tid not in two.app.state.manager.tables  # asking for it does not load it again
        assert_no_table(close(two, tid, {"token": token}), tid)
        assert_socket_refused(two, tid)
        assert rows(url, tid) == before


def test_a_process_that_has_not_heard_of_the_close_stores_nothing(postgres):  # noqa: F811 - the fixture
    url = postgres.new_database()
    one, two = two_processes(url)
    with one, two:
        tid, token = table_at_both(one, two)
        missed = drop_notices(two, "closed")
        with two.websocket_connect(f"/ws/{tid}") as ws2:
            state = hello(ws2, token)
            assert close(one, tid, {"token": token}).status_code == 200
            wait_until(lambda: missed, "the close notice")
            before = rows(url, tid)
            # the second process still holds its copy of the table; the database refuses its write
            act(ws2, state, choice(state))
            answer = recv(ws2)
            while answer["type"] == "state":  # a state sent before the action was read (the move clock's start)
                answer = recv(ws2)
            if answer["type"] == "closed":  # it may learn of the close from the refused write, and say so first
                answer = recv(ws2)
            assert answer["type"] == "error" and answer["code"] == "no_table", answer
        assert rows(url, tid) == before and before["skat_actions"] == []
        assert tid not in two.app.state.manager.tables  # the refused write told it: the table is dropped


def test_catching_up_after_missed_notices_drops_a_table_closed_meanwhile(postgres):  # noqa: F811 - the fixture
    url = postgres.new_database()
    one, two = two_processes(url)
    with one, two:
        tid, token = table_at_both(one, two)
        missed = drop_notices(two, "closed")
        manager = two.app.state.manager
        table = manager.get(tid)
        assert close(one, tid, {"token": token}).status_code == 200
        wait_until(lambda: missed, "the close notice")

        async def reconnected() -> None:
            manager._missed_notices()  # what the fan-out does when its connection is open again

        two.portal.call(reconnected)
        wait_until(lambda: table.inbox_task is not None and table.inbox_task.done(), "the catch-up")
        assert tid not in manager.tables
        assert_no_table(two.get(f"/api/tables/{tid}"), tid)


def test_a_table_not_loaded_yet_in_this_process_is_closed_by_its_seat(postgres):  # noqa: F811 - the fixture
    url = postgres.new_database()
    one, two = two_processes(url)
    with one, two:
        missed = drop_notices(two, "new")
        t = new_table(one, seed=9)
        tid = t["table_id"]
        wait_until(lambda: missed, "the new table's notice")
        assert tid not in two.app.state.manager.tables
        r = close(two, tid, {"token": t["token"]})
        assert r.status_code == 200 and r.json() == {"table_id": tid, "closed": True}, r.text
        assert is_closed(rows(url, tid))
        wait_until(lambda: tid not in one.app.state.manager.tables, "the first process dropping the table")


# ------------------------------------------------------------------ restarts
def test_the_computer_goes_on_after_a_restart_while_it_was_to_move(db_url, monkeypatch):
    """The server stops after the table and its first game were stored but before the computer (forehand)
    chose: the next server lets it choose, once, exactly as an uninterrupted table of the same seed does."""
    body = {"officers_variant": "passing", "seed": 8, "seats": ["officers", "human"], "claim": 1}
    with TestClient(create_app(db_url)) as client:
        with monkeypatch.context() as m:
            m.setattr(ServerTable, "schedule_bots", lambda self: None)  # the computer does not get to move
            t = new_table(client, **body)
            with client.websocket_connect(f"/ws/{t['table_id']}") as ws:
                waiting = hello(ws, t["token"])
        view = waiting["view"]
        assert waiting["seq"] == 0 and view["seat"] == 1 and view["to_move"] == 0 and view["legal_actions"] == []
        stored = rows(db_url, t["table_id"])
        assert len(stored["skat_deals"]) == 1 and stored["skat_actions"] == []
        twin = new_table(client, **body)  # the same table, never interrupted
        with client.websocket_connect(f"/ws/{twin['table_id']}") as ws:
            straight = until_mine(ws, hello(ws, twin["token"]))
        assert straight["seq"] >= 1
    with TestClient(create_app(db_url)) as client:  # the restarted server
        wait_until(lambda: actions(db_url, t["table_id"]), "the computer's move after the restart")
        with client.websocket_connect(f"/ws/{t['table_id']}") as ws:
            after = until_mine(ws, hello(ws, t["token"]))
        assert after["view"]["to_move"] == 1 and after["view"]["legal_actions"]
        assert game_part(after) == game_part(straight)
        assert actions(db_url, t["table_id"]) == actions(db_url, twin["table_id"])
    with TestClient(create_app(db_url)) as client:  # the computer's moves were stored once
        with client.websocket_connect(f"/ws/{t['table_id']}") as ws:
            assert game_part(hello(ws, t["token"])) == game_part(after)
    assert actions(db_url, t["table_id"]) == actions(db_url, twin["table_id"])


def test_bad_requests_change_nothing_in_the_database(db_url):
    with TestClient(create_app(db_url)) as client:
        t = new_table(client, seed=3)  # the person is forehand: to choose the game
        tid = t["table_id"]
        with client.websocket_connect(f"/ws/{tid}") as ws, client.websocket_connect(f"/ws/{tid}") as other:
            refused(other, {"type": "action", "action": "declare clubs", "seq": 0}, "hello_first")
            refused(other, {"type": "hello", "protocol": 1, "token": "not-the-token"}, "bad_token")
            state = hello(ws, t["token"])
            assert state["view"]["phase"] == "choose" and "declare clubs" in state["view"]["legal_actions"]
            before = rows(db_url, tid)
            assert before["skat_actions"] == [] and len(before["skat_deals"]) == 1
            assert "Null may only be chosen by agreement" in refused(
                ws, {"type": "action", "action": "declare null", "seq": 0}, "illegal_action")["message"]
            for action, code in (("CJ", "illegal_action"), ("frobnicate", "bad_action"), (18, "bad_action"),
                                 ("kontra", "illegal_action"), ("", "bad_action")):
                refused(ws, {"type": "action", "action": action, "seq": 0}, code)
            assert "the table has moved on" in refused(
                ws, {"type": "action", "action": "declare clubs", "seq": 1}, "stale")["message"]
            assert recv_state(ws)["seq"] == 0  # a fresh state follows the stale answer
            refused(ws, {"type": "next_deal"}, "deal_running")
            refused(ws, {"type": "hello", "protocol": 1, "token": t["token"]}, "bad_message")
            assert hello(other, None)["you"]["role"] == "spectator"  # a refused hello may be sent again
            refused(other, {"type": "action", "action": "declare clubs", "seq": 0}, "not_a_player")
            refused(other, {"type": "next_deal"}, "not_a_player")
            assert game_part(current(ws)) == game_part(state)
        assert rows(db_url, tid) == before
        assert client.app.state.manager.get(tid).game.history == []
        for body, code, words in (
                ({"seed": -1}, "bad_seed", "seed must be a whole number"),
                ({"seed": 2**63}, "bad_seed", "seed must be a whole number"),
                ({"seed": "7"}, "bad_seed", "seed must be a whole number"),
                ({"officers_variant": "poker"}, "bad_variant", "poker"),
                ({"claim": 3}, "bad_claim", "position 3"),
                ({"seats": ["human"]}, "bad_seats", "seats 2 players"),
                ({"options": {"allow_null": "yes"}}, "bad_options", "allow_null"),
                ({"deals": 0}, "bad_deals", "deals")):
            r = client.post("/api/tables", json={"variant": "officers", **body})
            assert r.status_code == 400 and r.json()["error"] == code, (body, r.text)
            assert words in r.json()["message"], (body, r.text)
        assert list(client.app.state.manager.tables) == [tid]
        assert client.app.state.manager.store.open_table_ids() == [tid]
    with TestClient(create_app(db_url)) as client:  # a restart shows the same table
        with client.websocket_connect(f"/ws/{tid}") as ws:
            assert game_part(hello(ws, t["token"])) == game_part(state)
    assert rows(db_url, tid) == before


def test_a_failed_write_changes_nothing_and_can_be_retried(db_url, monkeypatch):
    with TestClient(create_app(db_url)) as client:
        t = new_table(client, officers_variant="harlequin", seed=4)
        tid = t["table_id"]
        manager = client.app.state.manager
        store = manager.store
        submit = store.submit
        failed: list[dict | None] = []

        def fail_once(kind: str):
            """The next write whose notice is of ``kind`` fails in its transaction (its insert is rolled back)."""
            def patched(op, notice=None, **kw):
                if (notice or {}).get("k") != kind or any((n or {}).get("k") == kind for n in failed):
                    return submit(op, notice, **kw)

                def failing(conn):
                    op(conn)
                    failed.append(notice)
                    raise OperationalError("COMMIT", {}, Exception("disk I/O error"))
                return submit(failing, notice)
            monkeypatch.setattr(store, "submit", patched)

        with client.websocket_connect(f"/ws/{tid}") as ws:
            state = hello(ws, t["token"])
            before = rows(db_url, tid)
            token = state["view"]["legal_actions"][0]
            fail_once("act")
            act(ws, state, token)
            answer = recv(ws)
            assert answer["type"] == "error" and answer["code"] == "db_unavailable", answer
            assert "nothing was changed" in answer["message"] and [n["k"] for n in failed] == ["act"]
            assert game_part(current(ws)) == game_part(state)
            assert rows(db_url, tid) == before and manager.get(tid).game.history == []
            act(ws, state, token)  # the retry goes through
            after = until_mine(ws, recv_state(ws))
            assert after["seq"] >= 1 and actions(db_url, tid)[0] == (1, 0, 0, token)
            # a failed close changes nothing either: 503, the table goes on, the retry closes it
            moved = rows(db_url, tid)
            fail_once("closed")
            r = close(client, tid, {"token": t["token"]})
            assert r.status_code == 503 and r.json()["error"] == "db_unavailable", r.text
            assert r.headers["Retry-After"] == "2" and [n["k"] for n in failed] == ["act", "closed"]
            assert tid in manager.tables and rows(db_url, tid) == moved
            assert game_part(current(ws)) == game_part(after)
    with TestClient(create_app(db_url)) as client:  # a restart shows the retried action
        with client.websocket_connect(f"/ws/{tid}") as ws:
            assert game_part(hello(ws, t["token"])) == game_part(after)
        assert close(client, tid, {"token": t["token"]}).status_code == 200
    assert is_closed(rows(db_url, tid)) and actions(db_url, tid) == [action(r) for r in moved["skat_actions"]]
