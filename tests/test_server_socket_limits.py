"""The WebSocket limits (docs/protocol.md, "Limits"; skat.server.limits.SocketLimits, skat.server.sockets): at most
``Limits.sockets_per_address`` sockets open from one address (one more: ``too_many_sockets``, close code 1013),
and a table socket that sends no ``hello`` within ``Limits.hello_seconds`` is closed (``hello_timeout``, 4408).

The sockets are real ones, to a uvicorn server on a free port, all from 127.0.0.1. Nothing is timed: each test waits
for the events it expects with long deadlines; the only bound on time is a lower one (a socket is not closed for
its missing hello before the limit has passed), which a slow machine cannot break.
"""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from skat.server import create_app
from skat.server.limits import CLOSE_TOO_MANY_SOCKETS, Limits, LimitsError, SocketLimits
from skat.server.sockets import CLOSE_HELLO_TIMEOUT
from test_server_support import serve, stop

DEADLINE = 60.0
"""Seconds a test waits for what it expects (only a broken server makes it wait that long)."""


def test_the_socket_limits_have_sensible_defaults_and_are_validated():
    assert Limits().sockets_per_address == 64 and Limits().hello_seconds == 10.0
    for option, value in [("sockets_per_address", 0), ("sockets_per_address", 1.5), ("hello_seconds", 0),
                          ("hello_seconds", float("inf"))]:
        with pytest.raises(LimitsError, match=option):
            Limits(**{option: value})


@pytest.fixture()
def server(tmp_path, request):
    """A uvicorn server of an app with the test's limits (``@pytest.mark.parametrize("server", [Limits(...)],
    indirect=True)``); yields its base address (ws://...) and the app."""
    app = create_app(f"sqlite:///{tmp_path / 'sockets.sqlite'}", limits=request.param)
    srv = serve(app)
    try:
        yield f"127.0.0.1:{srv.port}", app
    finally:
        stop(srv)


def new_table(address: str) -> str:
    """A public table waiting for two people (nothing happens at it until they come)."""
    r = httpx.post(f"http://{address}/api/tables", json={"seats": ["human", "human", "random"], "claim": None,
                                                         "public": True})
    assert r.status_code == 201, r.text
    return r.json()["table_id"]


async def until(ws: ClientConnection, kind: str) -> dict[str, Any]:
    """The next message of type ``kind`` (states and spectator counts of other clients' comings and goings pass by)."""
    while True:
        message = json.loads(await ws.recv())
        if message["type"] == kind:
            return message
        assert message["type"] in ("state", "sheet", "welcome", "spectators"), message


async def hello(url: str) -> ClientConnection | tuple[int | None, str, list[dict[str, Any]]]:
    """Connect and say hello as a spectator: the open connection once its state came, or, when the server closes
    it, (close code, reason, the messages before the close)."""
    ws = await connect(url, max_queue=None, open_timeout=DEADLINE)
    got: list[dict[str, Any]] = []
    try:
        await ws.send(json.dumps({"type": "hello", "protocol": 1}))
    except ConnectionClosed:
        pass  # closed at once: what came before the close is read below
    try:
        while not got or got[-1]["type"] != "state":
            got.append(json.loads(await ws.recv()))
    except ConnectionClosed as exc:
        return (None if exc.rcvd is None else exc.rcvd.code), ("" if exc.rcvd is None else exc.rcvd.reason), got
    return ws


@pytest.mark.parametrize("server", [Limits()], indirect=True)
def test_sockets_over_the_cap_of_one_address_are_refused_and_the_others_served(server):
    address, app = server
    table = new_table(address)
    url = f"ws://{address}/ws/{table}"
    cap = Limits().sockets_per_address

    async def scenario() -> None:
        results = await asyncio.wait_for(asyncio.gather(*(hello(url) for _ in range(500))), DEADLINE)
        served = [r for r in results if isinstance(r, ClientConnection)]
        refused = [r for r in results if not isinstance(r, ClientConnection)]
        assert len(served) == cap and len(refused) == 500 - cap
        for code, reason, got in refused:  # told why, closed with the documented code, no table reached
            assert code == CLOSE_TOO_MANY_SOCKETS and "too many" in reason, (code, reason)
            assert [m["type"] for m in got] == ["error"] and got[0]["code"] == "too_many_sockets", got
        # the sockets under the cap are served normally: the table counts them, each answers a ping
        info = httpx.get(f"http://{address}/api/tables/{table}").json()
        assert info["spectators"] == cap
        for i, ws in enumerate(served):
            await ws.send(json.dumps({"type": "ping", "t": i}))
            assert (await asyncio.wait_for(until(ws, "pong"), DEADLINE))["t"] == i
        assert httpx.get(f"http://{address}/api/health").json()["status"] == "ok"  # the server goes on
        # a socket closed makes room for another one (the count goes down when the server has seen it go)
        for ws in served[:3]:
            await ws.close()
        loop = asyncio.get_running_loop()
        deadline = loop.time() + DEADLINE
        while True:
            again = await hello(url)
            if isinstance(again, ClientConnection):
                break
            assert again[0] == CLOSE_TOO_MANY_SOCKETS and loop.time() < deadline, again
            await asyncio.sleep(0.05)
        await again.close()
        await asyncio.gather(*(ws.close() for ws in served[3:]))
        assert await asyncio.wait_for(sockets_gone(app), DEADLINE)

    asyncio.run(scenario())


async def sockets_gone(app) -> bool:
    """Wait until the app's socket count has no address left."""
    counter = _socket_limits(app)
    while counter.open:
        await asyncio.sleep(0.05)
    return True


def _socket_limits(app) -> SocketLimits:
    layer = app.middleware_stack
    while not isinstance(layer, SocketLimits):
        layer = layer.app
    return layer


HELLO_SECONDS = 1.0


@pytest.mark.parametrize("server", [Limits(hello_seconds=HELLO_SECONDS, sockets_per_address=1000)], indirect=True)
def test_sockets_that_say_no_hello_are_closed_and_those_that_said_hello_stay(server):
    address, _app = server
    table = new_table(address)
    url = f"ws://{address}/ws/{table}"

    async def silent(chatty: bool) -> tuple[int | None, float, list[dict[str, Any]]]:
        """A socket that never says hello (``chatty``: it pings first); its close code, how long it was open,
        and the messages it got."""
        start = time.monotonic()
        ws = await connect(url, max_queue=None, open_timeout=DEADLINE)
        got = []
        try:
            if chatty:
                await ws.send(json.dumps({"type": "ping", "t": 1}))
            while True:
                got.append(json.loads(await ws.recv()))
        except ConnectionClosed as exc:
            return (None if exc.rcvd is None else exc.rcvd.code), time.monotonic() - start, got

    async def scenario() -> None:
        kept = await hello(url)
        assert isinstance(kept, ClientConnection)
        refused = await connect(url, max_queue=None, open_timeout=DEADLINE)  # a hello that is refused counts too
        await refused.send(json.dumps({"type": "hello", "protocol": 1, "token": "not-a-seat-token"}))
        assert (await asyncio.wait_for(until(refused, "error"), DEADLINE))["code"] == "bad_token"
        closed = await asyncio.wait_for(asyncio.gather(*(silent(chatty=i < 5) for i in range(100))), DEADLINE)
        for i, (code, seconds, got) in enumerate(closed):
            assert code == CLOSE_HELLO_TIMEOUT, (code, got)
            assert seconds >= HELLO_SECONDS * 0.9, seconds  # not before its time (a slow machine only adds to it)
            expected = (["hello_first"] if i < 5 else []) + ["hello_timeout"]
            assert [m["code"] for m in got] == expected, got
        # the sockets that said hello stay, past their time: one answers a ping, the other (no seat) is still told
        await kept.send(json.dumps({"type": "ping", "t": "still here"}))
        assert (await asyncio.wait_for(until(kept, "pong"), DEADLINE))["t"] == "still here"
        await refused.send(json.dumps({"type": "ping"}))
        assert (await asyncio.wait_for(until(refused, "error"), DEADLINE))["code"] == "hello_first"
        assert httpx.get(f"http://{address}/api/tables/{table}").json()["spectators"] == 1
        await kept.close()
        await refused.close()

    asyncio.run(scenario())


def test_the_cap_is_per_address_and_a_socket_that_ends_makes_room():
    """The middleware alone, with sockets from two addresses: the third of address A is refused while B's first
    is served; when one of A's ends, A's next one is served; the count forgets an address with no socket."""

    async def scenario() -> None:
        gates: list[asyncio.Event] = []

        async def app(scope, receive, send) -> None:  # a socket route that stays open until its gate opens
            await receive()
            await send({"type": "websocket.accept"})
            gate = asyncio.Event()
            gates.append(gate)
            await gate.wait()

        limits = SocketLimits(app, per_address=2)

        def socket(host: str) -> tuple[asyncio.Task, list[dict[str, Any]]]:
            sent: list[dict[str, Any]] = []
            incoming: asyncio.Queue = asyncio.Queue()
            incoming.put_nowait({"type": "websocket.connect"})

            async def send(message: dict[str, Any]) -> None:
                sent.append(message)

            scope = {"type": "websocket", "path": "/ws/t", "client": (host, 5000)}
            return asyncio.ensure_future(limits(scope, incoming.get, send)), sent

        async def settled() -> None:
            for _ in range(20):
                await asyncio.sleep(0)

        a1, a2 = socket("10.0.0.1"), socket("10.0.0.1")
        await settled()
        a3, b1 = socket("10.0.0.1"), socket("10.0.0.2")
        await settled()
        assert a3[0].done() and [m["type"] for m in a3[1]] == ["websocket.accept", "websocket.send", "websocket.close"]
        assert json.loads(a3[1][1]["text"])["code"] == "too_many_sockets"
        assert a3[1][2]["code"] == CLOSE_TOO_MANY_SOCKETS and a3[1][2]["reason"]
        assert not b1[0].done() and [m["type"] for m in b1[1]] == ["websocket.accept"]
        assert limits.open == {"10.0.0.1": 2, "10.0.0.2": 1}
        gates[0].set()  # A's first socket ends
        await a1[0]
        a4 = socket("10.0.0.1")
        await settled()
        assert not a4[0].done() and [m["type"] for m in a4[1]] == ["websocket.accept"]
        for gate in gates:
            gate.set()
        await asyncio.gather(a2[0], b1[0], a4[0])
        assert limits.open == {}

    asyncio.run(scenario())
