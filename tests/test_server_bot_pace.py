"""A computer player's pause at the web table (``--bot-delay``) is the least it takes to act, with its
thinking inside it: a person waits the longer of the two, not their sum."""

from __future__ import annotations

import asyncio
import json

from fastapi.testclient import TestClient

from skat.server.app import create_app
from skat.server.bots import BotSeat
from skat.server.tables import ServerTable

DELAY = 10.0
THINKING = 9.7
"""A search this long moves the server loop's clock on at once (the clock in the test runs ahead by it), so a
decision waits only DELAY - THINKING of real time, and the margins below are seconds: a busy machine makes
nothing here late enough to fail. What people really wait is a figure of bench/bot_wait.py."""


def test_a_computer_thinks_during_its_pause_and_still_keeps_it(tmp_path, monkeypatch):
    events: list[tuple[str, float]] = []
    think, apply = BotSeat.think, ServerTable.apply
    ahead = [0.0]  # how far the event loops' clock runs ahead of the monotonic clock
    loop_time = asyncio.BaseEventLoop.time

    async def slow_think(self, *args, **kwargs):
        loop = asyncio.get_running_loop()
        events.append(("think", loop.time()))
        ahead[0] += THINKING  # a search that takes its time
        return await think(self, *args, **kwargs)

    async def timed_apply(self, seat, action, **kwargs):
        await apply(self, seat, action, **kwargs)
        events.append(("apply", asyncio.get_running_loop().time()))

    def decisions() -> list[tuple[float, float, float]]:
        """Each computer decision that follows an action: the action before, when it began thinking and when it
        acted (the loop's clock)."""
        e = list(events)
        return [(e[i - 1][1], e[i][1], e[i + 1][1]) for i in range(1, len(e) - 1)
                if e[i][0] == "think" and e[i - 1][0] == "apply" and e[i + 1][0] == "apply"]

    monkeypatch.setattr(asyncio.BaseEventLoop, "time", lambda loop: loop_time(loop) + ahead[0])
    monkeypatch.setattr(BotSeat, "think", slow_think)
    monkeypatch.setattr(ServerTable, "apply", timed_apply)
    app = create_app(f"sqlite:///{tmp_path / 'pace.sqlite'}", bot_delay=DELAY)
    with TestClient(app) as client:
        t = client.post("/api/tables", json={"seats": ["human", "random", "random"], "public": True}).json()
        with client.websocket_connect(f"/ws/{t['table_id']}") as ws:
            ws.send_text(json.dumps({"type": "hello", "protocol": 1, "token": t["token"]}))
            asked: set[int] = set()  # the deals after which the next one was asked for
            while True:
                m = json.loads(ws.receive_text())
                if m["type"] != "state" or m["view"] is None:
                    continue
                v = m["view"]
                if v["phase"] == "finished":
                    if len(decisions()) >= 5:
                        break
                    if m["table"]["deal_no"] not in asked:  # too few (all passed?): one more deal
                        assert len(asked) < 10, events
                        asked.add(m["table"]["deal_no"])
                        events.append(("next deal", 0.0))
                        ws.send_text(json.dumps({"type": "next_deal"}))
                    continue
                if v["to_move"] == v["seat"] and v["legal_actions"]:
                    legal = v["legal_actions"]
                    ws.send_text(json.dumps({"type": "action", "action": "pass" if "pass" in legal else legal[0],
                                             "seq": m["seq"]}))
    assert len(decisions()) >= 5, events
    for before, began, acted in decisions():
        assert began - before < DELAY / 2  # it thinks at once, not after the pause
        assert acted - before >= DELAY - 0.02  # the pause people get to follow is kept
        assert acted - before < DELAY + THINKING / 2  # and the thinking was inside it (not DELAY + THINKING)
