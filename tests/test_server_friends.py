"""Friends (docs/friends.md): following people, seeing who of them is online and at which table, inviting them to
a table with one click, blocking a person (who then cannot join your tables, invite you or follow you); each bad
request refused with its own error and nothing changed. On SQLite and PostgreSQL."""

from __future__ import annotations

import json
import time

import pytest
from fastapi.testclient import TestClient

from skat.server import create_app
from skat.server.friends import ONLINE_SECONDS
from test_server_support import browser, postgres  # noqa: F401 - the fixture

ORIGIN = {"Origin": "http://testserver"}


@pytest.fixture(params=["sqlite", "postgresql"])
def app(request, tmp_path):
    url = f"sqlite:///{tmp_path / 'f.sqlite'}" if request.param == "sqlite" else \
        request.getfixturevalue("postgres").new_database()
    with TestClient(create_app(url)) as client:
        client.app.state.test_client = client  # the one event loop: sockets that must reach each other use it
        yield client.app


def person(app, name: str) -> tuple[TestClient, str]:
    """A browser signed in as a new account, and the account's id as in the URLs (a-ID)."""
    signed_in = browser(app.state.test_client)
    r = signed_in.post("/api/account/register", json={"name": name, "password": f"password-{name}"}, headers=ORIGIN)
    assert r.status_code == 201, r.text
    return signed_in, signed_in.get("/api/me").json()["player"]["id"]


def test_following_shows_who_is_online_and_at_which_table(app):
    anna, _a = person(app, "Anna")
    bernd, b = person(app, "Bernd")
    clara, c = person(app, "Clara")
    assert anna.put(f"/api/friends/{b}/follow", headers=ORIGIN).status_code == 200
    friends = anna.put(f"/api/friends/{c}/follow", headers=ORIGIN).json()
    assert [f["name"] for f in friends["following"]] == ["Bernd", "Clara"]
    # nobody online yet (registering is no presence)
    assert not any(f["online"] for f in anna.get("/api/friends").json()["following"])
    # a page of Bernd's that asks for his friends: he is seen (online, at no table)
    assert bernd.get("/api/friends").json()["followers"] == 1
    assert anna.get("/api/friends").json()["following"][0] == {"player": b, "name": "Bernd", "online": True,
                                                               "table": None}
    # Bernd sits at a public table with his browser connected: online, at that table
    t = bernd.post("/api/tables", json={"name": "Bernd's", "public": True}, headers=ORIGIN).json()
    with bernd.websocket_connect(f"/ws/{t['table_id']}") as ws:
        ws.send_text(json.dumps({"type": "hello", "protocol": 1, "token": t["token"]}))
        json.loads(ws.receive_text())
        deadline = time.monotonic() + 10
        while True:
            bernd_entry = anna.get("/api/friends").json()["following"][0]
            if bernd_entry["table"] is not None or time.monotonic() > deadline:
                break
            time.sleep(0.05)
        assert bernd_entry == {"player": b, "name": "Bernd", "online": True,
                               "table": {"id": t["table_id"], "name": "Bernd's", "public": True}}
    # Clara at a private table: online, at "a private table" (no id, no name)
    t2 = clara.post("/api/tables", json={"name": "secret"}, headers=ORIGIN).json()
    with clara.websocket_connect(f"/ws/{t2['table_id']}") as ws:
        ws.send_text(json.dumps({"type": "hello", "protocol": 1, "token": t2["token"]}))
        json.loads(ws.receive_text())
        deadline = time.monotonic() + 10
        while True:
            clara_entry = [f for f in anna.get("/api/friends").json()["following"] if f["name"] == "Clara"][0]
            if clara_entry["table"] is not None or time.monotonic() > deadline:
                break
            time.sleep(0.05)
        assert clara_entry["online"] and clara_entry["table"] == {"id": None, "name": None, "public": False}
    # Bernd left his table: still online a while, at no table; long gone: offline (the presence's writes are made
    # one at a time, each of the state then: an arrival's write finishing late cannot undo the leaving)
    deadline = time.monotonic() + 10
    while True:
        entry = anna.get("/api/friends").json()["following"][0]
        if entry["table"] is None or time.monotonic() > deadline:
            break
        time.sleep(0.05)
    assert entry["name"] == "Bernd" and entry["online"] and entry["table"] is None
    later = time.time() + ONLINE_SECONDS + 1
    assert not any(f["online"] for f in app.state.friends.friends(a_of(anna)[2:], later)["following"])
    # unfollow
    friends = anna.delete(f"/api/friends/{b}/follow", headers=ORIGIN).json()
    assert [f["name"] for f in friends["following"]] == ["Clara"]


def a_of(browser: TestClient) -> str:
    """The browser's account as in the URLs (a-ID)."""
    return browser.get("/api/me").json()["player"]["id"]


def test_an_invitation_takes_a_friend_to_a_private_table_in_one_click(app):
    anna, a = person(app, "Anna")
    bernd, b = person(app, "Bernd")
    t = anna.post("/api/tables", json={"name": "Anna's", "seats": ["human", "human", "strong"]},
                  headers=ORIGIN).json()
    r = anna.post(f"/api/friends/{b}/invite", json={"table_id": t["table_id"], "invite": t["invite"]}, headers=ORIGIN)
    assert r.status_code == 204, r.text
    invitations = bernd.get("/api/friends").json()["invitations"]
    assert len(invitations) == 1
    invitation = invitations[0]
    assert invitation["by"] == {"player": a, "name": "Anna"} and invitation["table"]["name"] == "Anna's"
    assert invitation["url"] == f"/t/{t['table_id']}#invite={t['invite']}"
    # the link's invite lets Bernd join the private table
    joined = bernd.post(f"/api/tables/{t['table_id']}/join", json={"invite": t["invite"]}, headers=ORIGIN)
    assert joined.status_code == 200 and joined.json()["position"] == 1
    assert bernd.delete(f"/api/friends/invitations/{invitation['id']}", headers=ORIGIN).status_code == 204
    assert bernd.get("/api/friends").json()["invitations"] == []


def test_bad_friend_requests_are_refused_and_change_nothing(app):
    anna, a = person(app, "Anna")
    bernd, b = person(app, "Bernd")
    guest = browser(app.state.test_client)
    assert guest.get("/api/friends").json()["error"] == "signed_out"
    assert guest.put(f"/api/friends/{b}/follow", headers=ORIGIN).status_code == 401
    r = anna.put(f"/api/friends/{a}/follow", headers=ORIGIN)
    assert r.status_code == 400 and r.json()["error"] == "bad_friend"
    assert anna.put("/api/friends/a-nobody/follow", headers=ORIGIN).json()["error"] == "no_player"
    assert anna.put("/api/friends/b-strong/follow", headers=ORIGIN).json()["error"] == "no_player"
    assert anna.put("/api/friends/../follow", headers=ORIGIN).status_code == 404
    # inviting to a table Anna does not sit at
    t = bernd.post("/api/tables", json={"public": True}, headers=ORIGIN).json()
    r = anna.post(f"/api/friends/{b}/invite", json={"table_id": t["table_id"]}, headers=ORIGIN)
    assert r.status_code == 403 and r.json()["error"] == "not_at_table"
    r = anna.post(f"/api/friends/{b}/invite", json={"table_id": "nosuchtable"}, headers=ORIGIN)
    assert r.status_code == 404 and r.json()["error"] == "no_table"
    # a private table's invite that is not its own
    mine = anna.post("/api/tables", json={"seats": ["human", "human", "strong"]}, headers=ORIGIN).json()
    r = anna.post(f"/api/friends/{b}/invite", json={"table_id": mine["table_id"], "invite": "guessed"}, headers=ORIGIN)
    assert r.status_code == 403 and r.json()["error"] == "bad_invite"
    assert bernd.get("/api/friends").json()["invitations"] == []
    assert anna.get("/api/friends").json()["following"] == []


def test_a_blocked_person_cannot_join_invite_or_follow(app):
    anna, a = person(app, "Anna")
    bernd, b = person(app, "Bernd")
    assert bernd.put(f"/api/friends/{a}/follow", headers=ORIGIN).status_code == 200
    blocked = anna.put(f"/api/friends/{b}/block", headers=ORIGIN).json()
    assert blocked["blocked"] == [{"player": b, "name": "Bernd"}]
    assert bernd.get("/api/friends").json()["following"] == []  # blocking ends following, both ways
    # Bernd cannot join a table Anna sits at
    t = anna.post("/api/tables", json={"seats": ["human", "human", "strong"], "public": True}, headers=ORIGIN).json()
    r = bernd.post(f"/api/tables/{t['table_id']}/join", json={}, headers=ORIGIN)
    assert r.status_code == 403 and r.json()["error"] == "blocked"
    assert app.state.manager.tables[t["table_id"]].seats[1].token_hash is None  # the seat stays free
    # ... nor follow or invite her
    assert bernd.put(f"/api/friends/{a}/follow", headers=ORIGIN).json()["error"] == "blocked"
    his = bernd.post("/api/tables", json={"seats": ["human", "human", "strong"], "public": True}, headers=ORIGIN).json()
    r = bernd.post(f"/api/friends/{a}/invite", json={"table_id": his["table_id"]}, headers=ORIGIN)
    assert r.status_code == 403 and r.json()["error"] == "blocked"
    assert anna.get("/api/friends").json()["invitations"] == []
    # unblocked: he may join
    assert anna.delete(f"/api/friends/{b}/block", headers=ORIGIN).json()["blocked"] == []
    assert bernd.post(f"/api/tables/{t['table_id']}/join", json={}, headers=ORIGIN).status_code == 200


def test_a_blocked_persons_chat_does_not_reach_the_blocker(app):
    anna, a = person(app, "Anna")
    bernd, b = person(app, "Bernd")
    t = bernd.post("/api/tables", json={"seats": ["human", "human", "strong"], "public": True}, headers=ORIGIN).json()
    seat = anna.post(f"/api/tables/{t['table_id']}/join", json={}, headers=ORIGIN).json()
    assert anna.put(f"/api/friends/{b}/block", headers=ORIGIN).status_code == 200  # at the table already
    with bernd.websocket_connect(f"/ws/{t['table_id']}") as bernd_ws, \
            anna.websocket_connect(f"/ws/{t['table_id']}") as anna_ws:
        bernd_ws.send_text(json.dumps({"type": "hello", "protocol": 1, "token": t["token"], "chat": True}))
        anna_ws.send_text(json.dumps({"type": "hello", "protocol": 1, "token": seat["token"], "chat": True}))
        for ws in (bernd_ws, anna_ws):
            while json.loads(ws.receive_text())["type"] != "chat_history":
                pass
        bernd_ws.send_text(json.dumps({"type": "chat", "text": "Hallo Anna"}))
        refused = _next(bernd_ws, "error")  # Anna, the only one to read it, blocked him: refused, nothing sent
        assert refused["code"] == "chat_muted"
        anna_ws.send_text(json.dumps({"type": "chat", "text": "mine"}))
        assert _next(anna_ws, "chat")["text"] == "mine"  # nothing of Bernd's came before it
    # the lobby: Anna does not get Bernd's messages, everybody else does
    assert bernd.post("/api/lobby/chat", json={"text": "Wer spielt mit?"}, headers=ORIGIN).status_code == 201
    assert [m["text"] for m in browser(app.state.test_client).get("/api/lobby/chat").json()["messages"]] == ["Wer spielt mit?"]
    assert anna.get("/api/lobby/chat").json()["messages"] == []


def test_a_block_made_at_the_table_applies_at_once(app):
    anna, a = person(app, "Anna")
    bernd, b = person(app, "Bernd")
    t = bernd.post("/api/tables", json={"seats": ["human", "human", "strong"], "public": True}, headers=ORIGIN).json()
    seat = anna.post(f"/api/tables/{t['table_id']}/join", json={}, headers=ORIGIN).json()
    with bernd.websocket_connect(f"/ws/{t['table_id']}") as bernd_ws, \
            anna.websocket_connect(f"/ws/{t['table_id']}") as anna_ws:
        bernd_ws.send_text(json.dumps({"type": "hello", "protocol": 1, "token": t["token"], "chat": True}))
        anna_ws.send_text(json.dumps({"type": "hello", "protocol": 1, "token": seat["token"], "chat": True}))
        for ws in (bernd_ws, anna_ws):
            while json.loads(ws.receive_text())["type"] != "chat_history":
                pass
        def say(text: str) -> tuple[list[dict], list[dict]]:
            """Bernd says something; what he and then Anna were sent until each answered a ping (his message is
            handled, and delivered, before his pong)."""
            bernd_ws.send_text(json.dumps({"type": "chat", "text": text}))
            return _settle(bernd_ws), _settle(anna_ws)

        _his, hers = say("eins")
        assert [m["text"] for m in hers if m["type"] == "chat"] == ["eins"]
        assert anna.put(f"/api/friends/{b}/block", headers=ORIGIN).status_code == 200  # while both sit there
        his, hers = say("zwei")
        assert [m["code"] for m in his if m["type"] == "error"] == ["chat_muted"]
        assert not [m for m in hers if m["type"] == "chat"]
        assert anna.delete(f"/api/friends/{b}/block", headers=ORIGIN).status_code == 200
        _his, hers = say("drei")
        assert [m["text"] for m in hers if m["type"] == "chat"] == ["drei"]


def _settle(ws) -> list[dict]:
    """What a socket was sent before it answered a ping."""
    ws.send_text(json.dumps({"type": "ping", "t": "settle"}))
    got = []
    for _ in range(500):
        m = json.loads(ws.receive_text())
        if m["type"] == "pong":
            return got
        got.append(m)
    raise AssertionError("no pong came")


def _next(ws, kind: str) -> dict:
    """The next message of a kind on a socket."""
    for _ in range(200):
        m = json.loads(ws.receive_text())
        if m["type"] == kind:
            return m
    raise AssertionError(f"no {kind} came")
