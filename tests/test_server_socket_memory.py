"""The memory of a WebSocket comes back when it closes (bench/socket_memory.py measures the process's memory).

A few hundred spectators join a table of an in-process server (uvicorn in a thread, real sockets on loopback)
and leave again. Every server-side object of a connection is watched through a weak reference: uvicorn's
protocol object (which the connection's ``WebSocket``, its task, transport and buffers hang from) and the
table's :class:`skat.server.tables.Client`. With the garbage collector off while they close, each must be
freed by reference counting alone, at once: an object left in a reference cycle waits for a full collection,
and ``skat serve``'s collector policy (:mod:`skat.server.collector`) freezes whatever lived through one, so a
cycle of a closed connection would stay until the next thaw (ten minutes by default), with everything it
holds. The one cycle allowed is inside the ``websockets`` library (its ``ServerProtocol`` keeps its parser, a
generator that refers back to it); a full collection then frees it too, so that nothing of a connection is
kept for good. No timings are asserted: the waits are for conditions, with generous deadlines.
"""

from __future__ import annotations

import asyncio
import gc
import json
import platform
import threading
import time
import weakref
from typing import Any

import aiohttp
import httpx
import pytest

from skat.server import create_app
from skat.server.memory import MemoryGiver, give_back_memory, resident_bytes
from test_server_support import serve, stop

SPECTATORS = 240
PER_ADDRESS = 40
"""Spectators per client address, under the server's cap of WebSockets per address; the crowd comes from
127.0.1.1, 127.0.1.2, ... (every 127.x.y.z is this machine on Linux)."""


class Watcher:
    """An ASGI wrapper that keeps a weak reference to the uvicorn protocol object of every WebSocket."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.protocols: list[weakref.ref] = []
        self.conns: list[weakref.ref] = []
        self.lock = threading.Lock()

    def __getattr__(self, name: str) -> Any:  # app.state and the like
        return getattr(self.app, name)

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] == "websocket":
            protocol = getattr(send, "__self__", None)
            if protocol is not None:
                with self.lock:
                    self.protocols.append(weakref.ref(protocol))
                    conn = getattr(protocol, "conn", None)  # the websockets library's ServerProtocol
                    if conn is not None:
                        self.conns.append(weakref.ref(conn))
        await self.app(scope, receive, send)

    def alive(self) -> tuple[int, int]:
        with self.lock:
            return (sum(ref() is not None for ref in self.protocols), sum(ref() is not None for ref in self.conns))


@pytest.fixture()
def server(tmp_path):
    app = create_app(f"sqlite:///{tmp_path / 'memory.sqlite'}")
    watcher = Watcher(app)
    srv = serve(watcher)
    base = f"http://127.0.0.1:{srv.port}"
    try:
        yield watcher, app, base, srv.server_state
    finally:
        stop(srv)


def wait_for(condition, what, seconds: float = 120.0) -> bool:
    """Wait until ``condition()``; past ``seconds`` fail with ``what()``."""
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, f"still waiting for {what()}"
        time.sleep(0.05)
    return True


async def crowd(ws_url: str, n: int) -> tuple[list[aiohttp.ClientWebSocketResponse], list[aiohttp.ClientSession]]:
    """``n`` spectators past ``hello`` (their first state received)."""
    sessions = [aiohttp.ClientSession(connector=aiohttp.TCPConnector(
        limit=0, local_addr=(f"127.0.1.{1 + i}", 0))) for i in range((n + PER_ADDRESS - 1) // PER_ADDRESS)]
    gate = asyncio.Semaphore(40)

    async def one(i: int) -> aiohttp.ClientWebSocketResponse:
        async with gate:
            ws = await sessions[i // PER_ADDRESS].ws_connect(ws_url)
            await ws.send_str(json.dumps({"type": "hello", "protocol": 1}))
            while True:
                message = json.loads(await ws.receive_str())
                assert message["type"] != "error", message
                if message["type"] == "state":
                    return ws

    try:
        return list(await asyncio.gather(*(one(i) for i in range(n)))), sessions
    except BaseException:
        await asyncio.gather(*(s.close() for s in sessions))
        raise


async def leave(sockets: list[aiohttp.ClientWebSocketResponse], sessions: list[aiohttp.ClientSession]) -> None:
    await asyncio.gather(*(ws.close() for ws in sockets))
    await asyncio.gather(*(s.close() for s in sessions))


def test_a_closed_socket_leaves_nothing_behind(server):
    watcher, app, base, server_state = server
    table_id = httpx.post(base + "/api/tables", json={"seats": ["human", "random", "random"], "public": True},
                          timeout=60).json()["table_id"]
    table = app.state.manager.tables[table_id]
    ws_url = base.replace("http", "ws", 1) + f"/ws/{table_id}"

    async def one_round(round_no: int) -> None:
        sockets, sessions = await crowd(ws_url, SPECTATORS)
        clients = [weakref.ref(c) for c in list(table.clients)]
        assert len(clients) == SPECTATORS
        assert len(watcher.protocols) == round_no * SPECTATORS and watcher.alive()[0] == SPECTATORS  # all watched

        def kept() -> tuple[int, int]:
            return watcher.alive()[0], sum(ref() is not None for ref in clients)

        gc.collect()
        gc.disable()  # from here on only reference counting frees
        try:
            await leave(sockets, sessions)
            del sockets, sessions
            # the server is done with every connection: its table, its tasks, its transports
            await asyncio.to_thread(wait_for, lambda: not table.clients and not server_state.tasks and
                                    not server_state.connections,
                                    lambda: f"the server to finish with the closed sockets ({len(table.clients)} "
                                    f"clients, {len(server_state.tasks)} tasks, "
                                    f"{len(server_state.connections)} connections left)")
            # then nothing of them is left (a moment for the last callbacks of the server's loop to run)
            await asyncio.to_thread(wait_for, lambda: kept() == (0, 0),
                                    lambda: f"the objects of the closed connections to be freed without the "
                                    f"garbage collector: in round {round_no}, of {SPECTATORS} closed sockets, "
                                    f"(uvicorn protocols, table clients) {kept()} are still alive, kept by a "
                                    "reference cycle", 10)
        finally:
            gc.enable()
        gc.collect()
        assert watcher.alive() == (0, 0), "a full collection frees the rest"

    async def rounds() -> None:
        for round_no in (1, 2):  # the second round: nothing of the first is in the way
            await one_round(round_no)

    asyncio.run(rounds())


# ------------------------------------------------------------ giving memory back (skat.server.memory)
def test_give_back_memory_trims_the_c_heap():
    given = give_back_memory()
    if given is None:  # a platform whose C library has no malloc_trim (musl, macOS): nothing to give back there
        assert platform.libc_ver()[0] != "glibc", "glibc has malloc_trim: skat.server.memory did not find it"
        pytest.skip("this C library has no malloc_trim (not glibc)")
    assert given >= 0
    before = resident_bytes()
    assert before is not None and before > 0
    blocks = [bytearray(64 * 1024) for _ in range(400)]  # 25 MiB of the C heap (above pymalloc's 512 bytes)
    del blocks[::2]  # half of it freed, between live blocks: the heap cannot shrink from its top alone
    again = give_back_memory()
    assert again is not None and again >= 0
    del blocks


def test_the_giver_trims_once_after_a_burst():
    now = [0.0]
    timers: list[tuple[float, object]] = []
    calls: list[float] = []

    def give() -> int:
        calls.append(now[0])
        return 1000

    def call_later(delay: float, callback) -> None:
        timers.append((now[0] + delay, callback))

    def run_timers() -> None:
        while timers:
            at, callback = timers.pop(0)
            now[0] = max(now[0], at)
            callback()

    giver = MemoryGiver(closes=50, min_seconds=10, settle_seconds=1, give=give, clock=lambda: now[0],
                        call_later=call_later)
    for _ in range(49):
        giver.closed()
    assert timers == [] and calls == []
    for _ in range(251):  # the 50th close schedules one trim for the whole burst
        giver.closed()
    assert len(timers) == 1 and timers[0][0] == 1.0
    run_timers()
    assert calls == [1.0] and giver.pending == 0
    now[0] = 2.0
    giver.closed(50)  # the next burst: not before 10 s after the last trim
    assert timers[0][0] == 11.0
    run_timers()
    now[0] = 100.0
    giver.closed(60)
    assert timers[0][0] == 101.0  # long after: a second after the burst
    run_timers()
    assert calls == [1.0, 11.0, 101.0] and giver.trims == 3 and giver.given == 3000


def test_the_giver_stops_without_malloc_trim_and_never_raises():
    timers: list = []
    calls: list = []
    giver = MemoryGiver(closes=1, give=lambda: calls.append(1),  # None: no malloc_trim here
                        call_later=lambda delay, callback: timers.append(callback))
    giver.closed()
    timers.pop()()
    giver.closed()
    assert calls == [1] and timers == [] and not giver.available

    def broken() -> int:
        raise OSError("no")

    giver = MemoryGiver(closes=1, give=broken, call_later=lambda delay, callback: timers.append(callback))
    giver.closed()
    timers.pop()()
    assert giver.trims == 0 and not giver.scheduled
    with pytest.raises(ValueError):
        MemoryGiver(closes=0)


def test_the_giver_runs_on_the_event_loop():
    async def burst() -> MemoryGiver:
        giver = MemoryGiver(closes=3, settle_seconds=0)
        for _ in range(5):
            giver.closed()
        assert giver.scheduled
        while giver.scheduled:
            await asyncio.sleep(0.01)
        return giver

    giver = asyncio.run(burst())
    assert giver.pending == 0 and (giver.trims == 1 or not giver.available)
