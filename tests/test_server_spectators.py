"""Spectators joining and leaving: the newcomer gets its state, the others at most a short ``spectators``
notice (arrivals close together told in one), so a crowd of watchers costs the server one state each and
never a full state for every connection per arrival (issue 28: 300 spectators joining)."""

from __future__ import annotations

import asyncio
import json

import orjson
from fastapi.testclient import TestClient

import skat.server.tables as tables_module
from skat.server import create_app
from skat.server.connections import Client
from skat.server.manager import TableManager
from skat.server.store import Store


class Inbox:
    """A connection's received messages, decoded."""

    def __init__(self) -> None:
        self.messages: list[dict] = []

    async def send(self, message) -> None:
        self.messages.append(orjson.loads(message) if isinstance(message, str) else message)

    def kinds(self) -> list[str]:
        return [m["type"] for m in self.messages]


def test_three_hundred_spectators_cost_one_state_each_and_a_few_notices(tmp_path, monkeypatch):
    monkeypatch.setattr(tables_module, "SPECTATOR_NOTICE_DELAY", 0.05)

    async def scenario() -> tuple[Inbox, list[Inbox], int]:
        manager = TableManager(Store(f"sqlite:///{tmp_path / 'watch.sqlite'}"), bot_processes=False)
        table, made = await manager.create_table(seats=["human", "human", "human"], public=True)
        await manager.join(table.id)
        await manager.join(table.id)
        player = Inbox()
        await table.connect(Client(send=player.send, position=0))
        assert player.kinds() == ["state"]
        watchers = [Inbox() for _ in range(300)]
        clients = [Client(send=w.send, position=None) for w in watchers]
        for number, (watcher, client) in enumerate(zip(watchers, clients, strict=True)):
            await table.connect(client)
            assert watcher.kinds() == ["state"] and watcher.messages[0]["you"]["role"] == "spectator"
            assert watcher.messages[0]["table"]["spectators"] == number + 1
        await asyncio.sleep(0.2)  # the notice's delay is over
        notices = [m for m in player.messages[1:]]
        assert notices and all(m["type"] == "spectators" for m in notices)  # no state for the others' arrival
        assert notices[-1] == {"type": "spectators", "table_id": table.id, "spectators": 300}
        for client in clients[:100]:
            await table.disconnect(client)
        await asyncio.sleep(0.2)
        assert player.messages[-1]["spectators"] == 200 and player.kinds().count("state") == 1
        assert table.public_info()["spectators"] == 200 and len(table.clients) == 201
        for client in clients[100:]:
            await table.disconnect(client)
        await table.disconnect(clients[0])  # twice: nothing happens
        assert table.present == {0: 1} and len(table.clients) == 1
        sent = sum(len(w.messages) for w in watchers)
        manager.shutdown()
        manager.store.close()
        return player, watchers, sent

    player, watchers, sent = asyncio.run(scenario())
    assert len(player.messages) < 20  # 300 arrivals and 300 departures: a handful of notices
    assert sent < 300 * 25  # each spectator: its state, then at most the notices of the time it watched


def test_a_seat_holder_arriving_is_shown_to_everybody(tmp_path):
    async def scenario() -> None:
        manager = TableManager(Store(f"sqlite:///{tmp_path / 'seats.sqlite'}"), bot_processes=False)
        table, _ = await manager.create_table(seats=["human", "human", "human"], public=True)
        await manager.join(table.id)
        await manager.join(table.id)
        first, second, watcher = Inbox(), Inbox(), Inbox()
        await table.connect(Client(send=watcher.send, position=None))
        await table.connect(Client(send=first.send, position=0))
        await table.connect(Client(send=second.send, position=1))
        connected = [s["connected"] for s in first.messages[-1]["table"]["seats"]]
        assert first.kinds() == ["state", "state"] and connected == [True, True, False]
        assert watcher.messages[-1]["table"]["seats"][1]["connected"]  # a state: seats changed
        manager.shutdown()
        manager.store.close()

    asyncio.run(scenario())


def test_a_spectator_over_the_socket_gets_its_state_and_the_player_a_notice(tmp_path, monkeypatch):
    monkeypatch.setattr(tables_module, "SPECTATOR_NOTICE_DELAY", 0.05)
    with TestClient(create_app(f"sqlite:///{tmp_path / 'ws.sqlite'}")) as client:
        t = client.post("/api/tables", json={"seats": ["human", "random", "random"], "public": True}).json()
        with client.websocket_connect(f"/ws/{t['table_id']}") as ws:
            ws.send_text(json.dumps({"type": "hello", "protocol": 1, "token": t["token"]}))
            assert [json.loads(ws.receive_text())["type"] for _ in range(3)] == ["welcome", "sheet", "state"]
            with client.websocket_connect(f"/ws/{t['table_id']}") as watch:
                watch.send_text(json.dumps({"type": "hello", "protocol": 1}))
                got = [json.loads(watch.receive_text()) for _ in range(3)]
                assert [m["type"] for m in got] == ["welcome", "sheet", "state"]
                assert got[2]["you"]["role"] == "spectator" and got[2]["table"]["spectators"] == 1
                notice = json.loads(ws.receive_text())
                while notice["type"] == "state":  # a computer player's move meanwhile
                    notice = json.loads(ws.receive_text())
                assert notice == {"type": "spectators", "table_id": t["table_id"], "spectators": 1}
