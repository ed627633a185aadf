"""Bad input of every kind is answered with a documented error code (docs/protocol.md), and the connection,
the other clients and the table go on (issue 14)."""

from __future__ import annotations

import json

import pytest

from skat.server.app import MAX_FRAME_BYTES, MAX_MESSAGE_BYTES
from test_server import hello, new_table, recv
from test_server_support import browser

DEEP = "[" * 2000 + "]" * 2000


def error_of(ws) -> dict:
    while True:
        m = recv(ws)
        if m["type"] == "error":
            return m


def pong(ws, t=1) -> None:
    ws.send_text(json.dumps({"type": "ping", "t": t}))
    while True:
        m = recv(ws)
        if m["type"] == "pong":
            assert m["t"] == t
            return


@pytest.fixture()
def two_seats(client):
    created = new_table(client, seats=("human", "human", "random"))
    joined = client.post(f"/api/tables/{created['table_id']}/join", json={"name": "Bo"}).json()
    return created["table_id"], created["token"], joined["token"]


def stored_actions(client, table_id):
    table = client.app.state.manager.get(table_id)
    return [str(a) for a in table.game.history], table.deal_no


BAD = [
    ("text", "²", "bad_action"), ("text", "١٨", "bad_action"), ("text", "１８", "bad_action"),
    ("text", "18.0", "bad_action"), ("text", "+18", "bad_action"), ("text", "9" * 5000, "too_large"),
    ("text", "", "bad_action"), ("json", None, "bad_action"), ("json", 18, "bad_action"),
    ("json", ["18"], "bad_action"), ("raw", DEEP, "bad_message"), ("raw", "not json", "bad_message"),
    ("raw", '{"type": "ping", "t": ' + "[" * 3000, "bad_message"), ("bytes", b'{"type": "ping"}', "bad_message"),
    ("raw", "x" * (MAX_MESSAGE_BYTES + 1), "too_large"), ("raw", "ü" * (MAX_MESSAGE_BYTES // 2 + 1), "too_large"),
    ("bytes", b"x" * (1024 * 1024), "too_large"), ("raw", "x" * (1024 * 1024), "too_large"),
]


@pytest.mark.parametrize("how, payload, code", BAD)
def test_bad_message_is_answered_and_everything_goes_on(client, two_seats, how, payload, code):
    table_id, token_a, token_b = two_seats
    with client.websocket_connect(f"/ws/{table_id}") as a, client.websocket_connect(f"/ws/{table_id}") as b:
        hello(a, token_a)
        hello(b, token_b)
        before = stored_actions(client, table_id)
        if how == "bytes":
            a.send_bytes(payload)
        elif how == "raw":
            a.send_text(payload)
        else:
            action = payload if how == "json" else payload
            a.send_text(json.dumps({"type": "action", "action": action}))
        err = error_of(a)
        assert err["code"] == code and err["message"]
        pong(a)
        pong(b)
        assert stored_actions(client, table_id) == before


def test_an_unexpected_failure_is_answered_internal(client, two_seats, monkeypatch, caplog):
    table_id, token_a, token_b = two_seats
    table = client.app.state.manager.get(table_id)

    async def broken(*_args, **_kw):
        raise KeyError("boom")

    with client.websocket_connect(f"/ws/{table_id}") as a, client.websocket_connect(f"/ws/{table_id}") as b:
        hello(a, token_a)
        hello(b, token_b)
        before = stored_actions(client, table_id)
        monkeypatch.setattr(table, "act", broken)
        with caplog.at_level("ERROR", logger="skat.server"):
            a.send_text(json.dumps({"type": "action", "action": "18"}))
            assert error_of(a)["code"] == "internal"
        assert any(table_id in r.getMessage() and "'action'" in r.getMessage() for r in caplog.records)
        monkeypatch.undo()
        pong(a)
        pong(b)
        assert stored_actions(client, table_id) == before
        b.send_text(json.dumps({"type": "state"}))
        assert recv(b)["type"] == "state"


def test_the_transport_takes_a_megabyte():
    assert MAX_FRAME_BYTES > 1024 * 1024 > MAX_MESSAGE_BYTES


# ---------------------------------------------------------------------- REST
@pytest.mark.parametrize("body", [DEEP.encode(), b"[1, 2]", b'"text"', b"\xff\xfe{}", b"{not json", b"null"])
def test_bad_json_bodies_are_400(client, body):
    r = client.post("/api/tables", content=body, headers={"content-type": "application/json"})
    assert r.status_code == 400, r.text
    assert r.json()["error"] == "bad_json" and r.json()["message"]


def test_bad_json_on_join(client, two_seats):
    table_id, _, _ = two_seats
    r = client.post(f"/api/tables/{table_id}/join", content=DEEP.encode(), headers={"content-type": "application/json"})
    assert r.status_code == 400 and r.json()["error"] == "bad_json"


@pytest.mark.parametrize("token", ["²", "１８", "18.0", "9" * 5000, ""])
def test_officers_bad_tokens_are_answered_and_change_nothing(client, token):
    """At an Officers' Skat table (the person chooses the game first), a token it cannot read is answered
    with its code and nothing changes."""
    created = new_table(client, variant="officers", seats=("human", "officers"), seed=1)
    table_id = created["table_id"]
    with client.websocket_connect(f"/ws/{table_id}") as ws:
        state = hello(ws, created["token"])[2]
        assert state["view"]["to_move"] == state["you"]["seat"]
        ws.send_text(json.dumps({"type": "action", "action": token, "seq": state["seq"]}))
        assert error_of(ws)["code"] in ("bad_action", "too_large")
        pong(ws)
    table = client.app.state.manager.get(table_id)
    assert table.game.history == [] and client.app.state.manager.store.load_table(table_id).deals[0].actions == []


def test_an_unexpected_failure_is_500_internal(client, monkeypatch, caplog):
    manager = client.app.state.manager

    def broken(*_args, **_kw):
        raise KeyError("boom")

    monkeypatch.setattr(manager, "lobby", broken)
    quiet = browser(client, raise_server_exceptions=False)
    with caplog.at_level("ERROR", logger="skat.server"):
        r = quiet.get("/api/tables")
    assert r.status_code == 500 and r.json()["error"] == "internal" and r.json()["message"]
    assert any("/api/tables" in rec.getMessage() for rec in caplog.records)
    monkeypatch.undo()
    assert client.get("/api/tables").status_code == 200


@pytest.mark.parametrize("token", ["\ud800", "é" * 10, "x" * 500])
def test_a_token_that_cannot_be_a_seat_token_is_answered_bad_token(client, token):
    t = new_table(client)
    with client.websocket_connect(f"/ws/{t['table_id']}") as ws:
        ws.send_text(json.dumps({"type": "hello", "protocol": 1, "token": token}))
        assert error_of(ws)["code"] == "bad_token"
        assert hello(ws, t["token"])[0]["position"] == 0  # the connection goes on; the right token works
