"""The chat (issue 30, point 2; docs/chat.md) through the table's WebSocket and the lobby's REST routes: players'
and spectators' messages apart, preset phrases, plain text kept as it is (markup too), the limits (length, empty,
flood) each refused with its own code and nothing stored, muting, the history on hello, the operator's delete,
a disabled account, the retention sweep and the notices of another server process."""

from __future__ import annotations

import asyncio
import time

import pytest
from argon2 import PasswordHasher
from fastapi.testclient import TestClient
from sqlalchemy import func, insert, select

from skat.cli import main
from skat.server import create_app
from skat.server.chat import LOBBY, MAX_CHARS, author_tag, clean_text, delete_message
from skat.server.core import TableError
from skat.server.database import chat_messages_t
from skat.server.limits import Limits, Rate
from test_server_support import browser

FAST = PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)
ORIGIN = {"Origin": "http://testserver"}


@pytest.fixture
def app(tmp_path):
    app = create_app(f"sqlite:///{tmp_path / 'chat.sqlite'}", limits=Limits(chat=Rate(5, 10)))
    app.state.accounts.hasher = FAST
    return app


@pytest.fixture
def client(app):
    with TestClient(app, headers=ORIGIN) as c:
        yield c


def register(client: TestClient, name: str) -> None:
    assert client.post("/api/account/register", json={"name": name, "password": "secret-pass"}).status_code == 201


def table(client: TestClient) -> tuple[str, str, str]:
    """A table of three people: its id and the tokens of positions 0 and 1 (position 2 stays free)."""
    made = client.post("/api/tables", json={"seats": ["human", "human", "human"], "claim": 0, "public": True,
                                            "player_name": "Anna"}).json()
    other = browser(client, headers=ORIGIN)  # another browser (another guest) on the client's server and loop
    joined = other.post(f"/api/tables/{made['table_id']}/join", json={"name": "Bert", "position": 1}).json()
    return made["table_id"], made["token"], joined["token"]


def hello(ws, token: str | None = None, chat: bool = True) -> list[dict]:
    ws.send_json({"type": "hello", "token": token, "chat": chat})
    return until(ws, "chat_history" if chat else "state")


def until(ws, kind: str) -> list[dict]:
    """The messages up to and with the first of ``kind``."""
    got = []
    while True:
        message = ws.receive_json()
        got.append(message)
        if message["type"] == kind:
            return got


def settle(ws) -> list[dict]:
    """Everything the connection was sent before a pong (its earlier messages are all answered)."""
    ws.send_json({"type": "ping", "t": "settle"})
    return until(ws, "pong")[:-1]


def chats(messages: list[dict]) -> list[dict]:
    return [m for m in messages if m["type"] == "chat"]


def stored(app) -> int:
    with app.state.manager.store.engine.connect() as conn:
        return conn.execute(select(func.count()).select_from(chat_messages_t)).scalar_one()


def error(ws) -> dict:
    message = until(ws, "error")[-1]
    return message


def test_players_and_spectators_chat_apart_and_everybody_at_the_table_reads_both(client, app):
    tid, anna, bert = table(client)
    watcher = browser(client, headers=ORIGIN)
    register(watcher, "Vera")
    with client.websocket_connect(f"/ws/{tid}") as a, client.websocket_connect(f"/ws/{tid}") as b, \
            watcher.websocket_connect(f"/ws/{tid}") as v:
        assert hello(a, anna)[-1] == {"type": "chat_history", "messages": []}
        hello(b, bert)
        hello(v)
        a.send_json({"type": "chat", "text": "  Gut Blatt!  "})
        said = chats(until(b, "chat"))[0]
        assert said["channel"] == "players" and said["text"] == "Gut Blatt!" and said["phrase"] is None
        assert said["from"]["name"] == "Anna" and said["from"]["position"] == 0
        assert len(said["from"]["author"]) == 16 and anna not in str(said)  # never a token
        assert chats(until(v, "chat"))[0]["id"] == said["id"]
        assert chats(until(a, "chat"))[0]["id"] == said["id"]  # the author's own comes back too
        v.send_json({"type": "chat", "phrase": "well_played"})
        kibitz = chats(until(a, "chat"))[0]
        assert kibitz["channel"] == "spectators" and kibitz["phrase"] == "well_played" and kibitz["text"] is None
        assert kibitz["from"] == {"name": "Vera", "position": None, "author": kibitz["from"]["author"]}
        assert chats(until(b, "chat"))[0]["id"] == kibitz["id"]
    assert stored(app) == 2
    watcher.close()


def test_a_spectator_without_an_account_cannot_chat_and_nothing_changes(client, app):
    tid, anna, _ = table(client)
    with client.websocket_connect(f"/ws/{tid}") as a, browser(client, headers=ORIGIN).websocket_connect(f"/ws/{tid}") as v:
        hello(a, anna)
        hello(v)
        v.send_json({"type": "chat", "text": "hello"})
        refused = error(v)
        assert refused["code"] == "signed_out" and "sign in" in refused["message"]
        assert not chats(settle(a)) and stored(app) == 0
        assert settle(v) == []  # the socket goes on


def test_the_text_is_kept_as_text_and_bad_messages_are_refused_each_with_its_code(client, app):
    tid, anna, bert = table(client)
    with client.websocket_connect(f"/ws/{tid}") as a, client.websocket_connect(f"/ws/{tid}") as b:
        hello(a, anna)
        hello(b, bert)
        markup = '<img src=x onerror="alert(1)"> & <b>bold</b> \u202eevil\u0007'
        a.send_json({"type": "chat", "text": markup})
        said = chats(until(b, "chat"))[0]
        assert said["text"] == '<img src=x onerror="alert(1)"> & <b>bold</b> evil'  # as written, less the controls
        for bad, code in (({"text": "x" * (MAX_CHARS + 1)}, "chat_too_long"), ({"text": " \n\t "}, "chat_empty"),
                          ({}, "chat_empty"), ({"text": "\u0000\u0001"}, "chat_empty"),
                          ({"phrase": "insult"}, "bad_phrase"), ({"phrase": 7}, "bad_phrase"),
                          ({"text": ["no"]}, "bad_message"), ({"text": "a", "phrase": "hello"}, "bad_message")):
            a.send_json({"type": "chat", **bad})
            refused = error(a)
            assert refused["code"] == code, (bad, refused)
        assert "300" in clean_refusal(a, {"text": "é" * 301})
        a.send_json({"type": "chat", "text": "é" * MAX_CHARS})  # 300 characters (600 bytes): fits
        assert chats(until(b, "chat"))[0]["text"] == "é" * MAX_CHARS
        assert not chats(settle(b)) and stored(app) == 2  # nothing of the refused ones


def clean_refusal(ws, body: dict) -> str:
    ws.send_json({"type": "chat", **body})
    return error(ws)["message"]


def test_a_flood_is_refused_saying_how_long_to_wait(client, app):
    tid, anna, bert = table(client)
    with client.websocket_connect(f"/ws/{tid}") as a, client.websocket_connect(f"/ws/{tid}") as b:
        hello(a, anna)
        hello(b, bert)
        for n in range(5):
            a.send_json({"type": "chat", "text": f"message {n}"})
        a.send_json({"type": "chat", "phrase": "oops"})
        refused = error(a)
        assert refused["code"] == "chat_flood" and "at most 5 per 10 seconds" in refused["message"]
        assert "wait 2 s" in refused["message"]
        assert len(chats(settle(b))) == 5 and stored(app) == 5
        b.send_json({"type": "chat", "text": "mine is another bucket"})  # per author
        assert chats(until(a, "chat"))[-1]["text"] == "mine is another bucket"


def test_a_muted_author_reaches_the_others_only_and_is_told_when_nobody_is_left(client, app):
    tid, anna, bert = table(client)
    with client.websocket_connect(f"/ws/{tid}") as a, client.websocket_connect(f"/ws/{tid}") as b, \
            client.websocket_connect(f"/ws/{tid}") as spectator:
        hello(a, anna)
        hello(b, bert)
        hello(spectator)
        b.send_json({"type": "chat", "text": "first"})
        bert_tag = chats(until(a, "chat"))[0]["from"]["author"]
        settle(spectator)
        a.send_json({"type": "mute", "author": bert_tag, "on": True})
        settle(a)
        b.send_json({"type": "chat", "text": "you will not read this"})
        assert chats(until(spectator, "chat"))[0]["text"] == "you will not read this"
        settle(b)
        assert not chats(settle(a))  # muted: never sent to Anna's connection
        spectator.send_json({"type": "mute", "author": bert_tag, "on": True})
        settle(spectator)
        b.send_json({"type": "chat", "text": "anybody?"})
        refused = error(b)
        assert refused["code"] == "chat_muted" and stored(app) == 2
        a.send_json({"type": "mute", "author": bert_tag, "on": False})  # shown again
        settle(a)
        b.send_json({"type": "chat", "phrase": "sorry"})
        assert chats(until(a, "chat"))[0]["phrase"] == "sorry"
        for bad in ({"author": 5}, {"author": ""}, {"author": "x", "on": "yes"}):
            a.send_json({"type": "mute", **bad})
            assert error(a)["code"] == "bad_message"


def test_the_history_comes_after_hello_when_asked_for_without_deleted_messages(client, app):
    tid, anna, bert = table(client)
    with client.websocket_connect(f"/ws/{tid}") as a:
        hello(a, anna)
        for text in ("one", "two", "three"):
            a.send_json({"type": "chat", "text": text})
        settle(a)
    with app.state.manager.store.engine.connect() as conn:
        ids = list(conn.execute(select(chat_messages_t.c.id).order_by(chat_messages_t.c.id)).scalars())
    assert delete_message(app.state.manager.store, ids[1]) is not None
    assert delete_message(app.state.manager.store, 999) is None
    with client.websocket_connect(f"/ws/{tid}") as b:
        history = hello(b, bert)[-1]
        assert [m["text"] for m in history["messages"]] == ["one", "three"]
        assert [m["type"] for m in hello_plain(client, tid, bert)] == ["welcome", "sheet", "state"]  # not asked for


def hello_plain(client, tid, token) -> list[dict]:
    with client.websocket_connect(f"/ws/{tid}") as ws:
        got = hello(ws, token, chat=False)
        got += settle(ws)
        return [m for m in got if m["type"] != "spectators"]


def test_the_operator_lists_and_deletes_and_a_running_server_tells_its_pages(client, app, tmp_path, capsys):
    tid, anna, bert = table(client)
    with client.websocket_connect(f"/ws/{tid}") as a, client.websocket_connect(f"/ws/{tid}") as b:
        hello(a, anna)
        hello(b, bert)
        a.send_json({"type": "chat", "text": "rude words"})
        said = chats(until(b, "chat"))[0]
        settle(a)
        db = str(app.state.manager.store.url)
        assert main(["chat", "--db", db, "list", "--table", tid]) == 0
        out = capsys.readouterr().out
        assert f"{said['id']}\t" in out and "'rude words'" in out and anna not in out
        assert main(["chat", "--db", db, "delete", str(said["id"])]) == 0
        assert main(["chat", "--db", db, "delete", "424242"]) == 1
        assert main(["chat", "--db", db, "list"]) == 0 and "(deleted)" in capsys.readouterr().out
        # on PostgreSQL the deletion's notice reaches the server processes: as one would hear it
        client.portal.call(_notice, app, {"chat_deleted": said["id"], "room": tid})
        assert {"type": "chat_deleted", "id": said["id"]} in settle(b)
        # and a message said at another process holding the table
        line = dict(said, id=said["id"] + 1, text="from the other process")
        client.portal.call(_notice, app, {"chat": tid, "m": line})
        assert chats(settle(a))[0]["text"] == "from the other process"


async def _notice(app, notice: dict) -> None:
    app.state.manager.on_notice(notice)
    await asyncio.sleep(0.05)


def test_a_disabled_account_may_not_chat(client, app):
    tid, anna, _ = table(client)
    player, watcher = browser(client, headers=ORIGIN), browser(client, headers=ORIGIN)
    register(player, "Carl")
    register(watcher, "Vera")
    carl = player.post(f"/api/tables/{tid}/join", json={"position": 2}).json()["token"]  # the seat is Carl's
    accounts = app.state.accounts
    with player.websocket_connect(f"/ws/{tid}") as c, watcher.websocket_connect(f"/ws/{tid}") as v, \
            client.websocket_connect(f"/ws/{tid}") as a:
        hello(c, carl)
        hello(v)
        hello(a, anna)
        v.send_json({"type": "chat", "text": "before"})
        assert chats(until(a, "chat"))[0]["text"] == "before"
        settle(v)
        for name in ("Carl", "Vera"):
            accounts.disable(accounts.find(name).id)
        for ws in (c, v):
            ws.send_json({"type": "chat", "text": "after"})
            refused = error(ws)
            assert refused["code"] == "chat_forbidden" and "disabled" in refused["message"]
        assert not chats(settle(a)) and stored(app) == 1
    player.close()
    watcher.close()


def test_old_messages_are_deleted_by_the_sweep(client, app):
    now = time.time()
    with app.state.manager.store.engine.begin() as conn:
        for age_days in (31, 29):
            conn.execute(insert(chat_messages_t).values(room=LOBBY, channel="lobby", author="a:x", name="X",
                                                        text=f"{age_days} days", at=now - age_days * 86400))
    assert client.portal.call(app.state.chat.expire) == 1
    assert [m["text"] for m in client.get("/api/lobby/chat").json()["messages"]] == ["29 days"]


def test_the_lobby_chat_is_for_accounts(client, app):
    assert client.get("/api/lobby/chat").json() == {"messages": []}
    refused = client.post("/api/lobby/chat", json={"text": "hi"})
    assert refused.status_code == 401 and refused.json()["error"] == "signed_out"
    register(client, "Anna")
    first = client.post("/api/lobby/chat", json={"text": "<script>alert(1)</script> anyone for a game?"})
    assert first.status_code == 201
    message = first.json()["message"]
    assert message["text"] == "<script>alert(1)</script> anyone for a game?" and message["channel"] == "lobby"
    assert message["from"]["author"] == author_tag(f"a:{app.state.accounts.find('Anna').id}")
    assert client.post("/api/lobby/chat", json={"phrase": "hello"}).json()["message"]["phrase"] == "hello"
    for body, status, code in (({"text": "x" * 301}, 400, "chat_too_long"), ({"text": ""}, 400, "chat_empty"),
                               ({"phrase": "nope"}, 400, "bad_phrase"), ({"text": 3}, 400, "bad_message")):
        answer = client.post("/api/lobby/chat", json=body)
        assert (answer.status_code, answer.json()["error"]) == (status, code), body
    for n in range(3):
        assert client.post("/api/lobby/chat", json={"text": f"n{n}"}).status_code == 201
    flood = client.post("/api/lobby/chat", json={"text": "one too many"})
    assert flood.status_code == 429 and flood.json()["error"] == "chat_flood"
    messages = client.get("/api/lobby/chat").json()["messages"]
    assert [m["text"] for m in messages][-3:] == ["n0", "n1", "n2"] and len(messages) == 5
    after = client.get(f"/api/lobby/chat?after={messages[2]['id']}").json()["messages"]
    assert [m["text"] for m in after] == ["n1", "n2"]
    assert client.get("/api/lobby/chat?after=-1").json()["error"] == "bad_request"
    assert stored(app) == 5


def test_clean_text_and_the_limits_option():
    assert clean_text(" a\nb\tc ") == "a b c"
    with pytest.raises(TableError) as refused:
        clean_text("\u200e\u202e")
    assert refused.value.code == "chat_empty"
    from skat.commands.serve import limits_from_args

    class Args:
        rate_chat = "3/60"
        chat_days = 7.0

    limits = limits_from_args(Args())
    assert limits.chat == Rate(3, 60) and limits.chat_keep_seconds == 7 * 86400
