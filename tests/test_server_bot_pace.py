"""A computer player's pause at the web table (``--bot-delay``) is the least it takes to act, with its
thinking inside it: a person waits the longer of the two, not their sum."""

from __future__ import annotations

import asyncio
import json
import time

from fastapi.testclient import TestClient

from skat.server.app import create_app
from skat.server.bots import BotSeat
from skat.server.tables import ServerTable

DELAY = 0.5
THINKING = 0.45


def test_a_computer_thinks_during_its_pause_and_still_keeps_it(tmp_path, monkeypatch):
    events: list[tuple[str, float]] = []
    think, apply = BotSeat.think, ServerTable._apply

    async def slow_think(self, *args, **kwargs):
        events.append(("think", time.monotonic()))
        await asyncio.sleep(THINKING)  # a search that takes its time
        return await think(self, *args, **kwargs)

    async def timed_apply(self, seat, action):
        await apply(self, seat, action)
        events.append(("apply", time.monotonic()))

    monkeypatch.setattr(BotSeat, "think", slow_think)
    monkeypatch.setattr(ServerTable, "_apply", timed_apply)
    app = create_app(f"sqlite:///{tmp_path / 'pace.sqlite'}", bot_delay=DELAY)
    with TestClient(app) as client:
        t = client.post("/api/tables", json={"seats": ["human", "random", "random"], "public": True}).json()
        with client.websocket_connect(f"/ws/{t['table_id']}") as ws:
            ws.send_text(json.dumps({"type": "hello", "protocol": 1, "token": t["token"]}))
            while True:
                m = json.loads(ws.receive_text())
                if m["type"] != "state" or m["view"] is None:
                    continue
                v = m["view"]
                if v["phase"] == "finished":
                    break
                if v["to_move"] == v["seat"] and v["legal_actions"]:
                    legal = v["legal_actions"]
                    ws.send_text(json.dumps({"type": "action", "action": "pass" if "pass" in legal else legal[0],
                                             "seq": m["seq"]}))
    # each computer decision that follows an action: when it began thinking and when it acted
    decisions = [(events[i - 1][1], events[i][1], events[i + 1][1]) for i in range(1, len(events) - 1)
                 if events[i][0] == "think" and events[i - 1][0] == "apply" and events[i + 1][0] == "apply"]
    assert len(decisions) >= 5, events
    for before, began, acted in decisions:
        assert began - before < DELAY / 2  # it thinks at once, not after the pause
        assert acted - before >= DELAY - 0.02  # the pause people get to follow is kept
        assert acted - before < DELAY + THINKING - 0.15  # and the thinking was inside it
