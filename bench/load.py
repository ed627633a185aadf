"""Load test of the table server: N concurrent tables, every seat a client over a real WebSocket
on loopback making random legal choices (so the server is measured, not a search). Reports the
action round trip (send an action until its new state arrives) p50 and p99, and actions per
second. Each seat acts after a pause (``--pace``, default 1 s on average, like a computer player
at a table; ``--pace 0`` measures the server's capacity instead). Anchor, measured in the same run: the round trip of a `ping` message on an idle server
(WebSocket, JSON and the event loop, without the engine and the database).

    python3 bench/load.py --tables 200 --seconds 20                      # people's pace, SQLite
    python3 bench/load.py --compare --pace 0 --tables 200 --seconds 20    # fast play, SQLite and PostgreSQL
    python3 bench/load.py --db postgresql --processes 2 --tables 1000     # two processes on PostgreSQL
    python3 bench/load.py --db postgresql --processes 2 --tables 333 --chat-every 60   # issue 30: clocks and chat

Goals (issue 14): fast play on PostgreSQL reaches at least 80 % of SQLite's acknowledged actions per
second in the same run; 1,000 tables at a person's pace on two processes and PostgreSQL with p99 at most
250 ms on a 2-core machine with the load generator on it. Issue 30: 1,000 people at 333 tables of 3 with the move
clock on (every table of people has one unless ``--no-clock``; docs/clock.md), one action a second each and a chat
message a minute each (``--chat-every 60``: the seat's ``chat`` message, measured until its own copy comes back),
on 2 processes and PostgreSQL, p99 at most 250 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import gc
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from typing import Any

import aiohttp
import httpx
import orjson

from skat.server.monitor import STALL_SECONDS

LOOP_STALL_MS = round(STALL_SECONDS * 1000)

UNLIMITED = ("--rate-create", "1000000/1", "--rate-join", "1000000/1", "--rate-action", "1000000/1",
             "--sockets-per-address", "1000000")
"""Every table and every seat comes from 127.0.0.1: the per-address limits (skat.server.limits) are raised."""


def serve_process(args: list[str], **popen: object) -> tuple[subprocess.Popen, str]:
    """Start ``skat serve ARGS`` on port 0 (a free port the system picks as the server binds it, so nothing
    can take it in between) and read its address from the first line it prints: (the process, the address).
    The rest of what it prints to stdout is drained in a thread."""
    proc = subprocess.Popen([sys.executable, "-m", "skat", "serve", "--port", "0", *args], stdout=subprocess.PIPE,
                            text=True, **popen)
    line = proc.stdout.readline()  # "skat serve: http://127.0.0.1:PORT/ (database ...)"
    if "http://" not in line:
        proc.wait(30)
        return proc, ""
    threading.Thread(target=proc.stdout.read, daemon=True).start()
    address = line[line.index("http://"):].split()[0].rstrip("/")
    return proc, "http://127.0.0.1:" + address.rsplit(":", 1)[1]


def start_server(db: str, extra: tuple[str, ...] = ()) -> subprocess.Popen:
    """``skat serve`` on a free port, once it answers; its address is ``proc.base`` and its log (warnings and
    errors) goes to a file, ``proc.log_path``."""
    log_file = tempfile.NamedTemporaryFile("w", prefix="skat-load-server-", suffix=".log", delete=False)
    proc, base = serve_process(["--db", db, "--bot-delay", "0", "--log-level", "warning", *UNLIMITED, *extra],
                               stderr=log_file)
    log_file.close()
    proc.log_path = log_file.name  # type: ignore[attr-defined]
    proc.base = base  # type: ignore[attr-defined]
    deadline = time.time() + 60
    while time.time() < deadline:
        if proc.poll() is not None or not base:
            proc.kill()
            with open(log_file.name) as logged:
                raise SystemExit(f"the server did not start: {logged.read()[-4000:]}")
        try:
            if httpx.get(f"{base}/api/health", timeout=1).status_code == 200:
                return proc
        except httpx.HTTPError:
            time.sleep(0.2)
    raise SystemExit("the server did not start within 60 s")


def fast_loop() -> Callable[[], asyncio.AbstractEventLoop] | None:
    """uvloop's event loop (the servers run on it too: uvicorn[standard]) where it is installed."""
    try:
        import uvloop
    except ImportError:
        return None
    return uvloop.new_event_loop


def percentile(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


async def ping_anchor(base: str, ws_base: str, n: int = 300) -> float:
    """Median round trip of a ping on an idle server, in ms."""
    async with httpx.AsyncClient() as http:
        t = (await http.post(f"{base}/api/tables", json={"seats": ["random", "random", "random"], "claim": None,
                                                           "deals": 1, "public": True})).json()
    times = []
    async with aiohttp.ClientSession() as session, session.ws_connect(f"{ws_base}/ws/{t['table_id']}") as ws:
        await ws.send_str(json.dumps({"type": "hello", "protocol": 1}))
        for _ in range(3):
            await ws.receive_str()
        for i in range(n):
            t0 = time.perf_counter()
            await ws.send_str(json.dumps({"type": "ping", "t": i}))
            while True:
                m = json.loads(await ws.receive_str())
                if m["type"] == "pong" and m["t"] == i:
                    break
            times.append((time.perf_counter() - t0) * 1000)
            await asyncio.sleep(0.06)  # stay under the rate limit
    return statistics.median(times)


class SeatProtocol(asyncio.Protocol):
    """One seat over a real WebSocket (RFC 6455 on a plain asyncio transport): it acts on every state that
    asks it to, until the run ends. The generator is kept lean (no client framework: the upgrade request
    and the frames written and read here, orjson) so that it leaves the cores to the servers it measures;
    its frames are masked as a browser's are."""

    def __init__(self, path: str, host: str, token: str, rng: random.Random, latencies: list[float], counts: dict,
                 pace: float, chat_every: float = 0.0) -> None:
        self.path, self.host, self.token, self.rng = path, host, token, rng
        self.latencies, self.counts, self.pace = latencies, counts, pace
        self.chat_every = chat_every
        self.chats: dict[str, float] = {}
        """The chat messages sent and not yet come back: text -> when sent."""
        self.transport: asyncio.Transport | None = None
        self.buffer = bytearray()
        self.upgraded = False
        self.pending: tuple[int, float, int] | None = None
        self.asked_next = -1
        self.done: asyncio.Future = asyncio.get_running_loop().create_future()
        self.loop = asyncio.get_running_loop()

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]
        key = base64.b64encode(os.urandom(16)).decode()
        self.transport.write((f"GET {self.path} HTTP/1.1\r\nHost: {self.host}\r\nUpgrade: websocket\r\n"
                              f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                              "Sec-WebSocket-Version: 13\r\n\r\n").encode())

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.done.done():
            self.done.set_exception(ConnectionError(f"the server closed the connection of a seat ({exc})"))

    def send(self, text: str | bytes) -> None:
        """One masked text frame."""
        if self.transport is None or self.transport.is_closing():
            return
        payload = text.encode() if isinstance(text, str) else text
        n = len(payload)
        mask = os.urandom(4)
        head = bytes((0x81, 0x80 | n)) if n < 126 else bytes((0x81, 0xFE)) + n.to_bytes(2, "big")
        masked = (int.from_bytes(payload, "big") ^ int.from_bytes((mask * (n // 4 + 1))[:n], "big")).to_bytes(n, "big")
        self.transport.write(head + mask + masked)

    def data_received(self, data: bytes) -> None:
        buf = self.buffer
        buf += data
        if not self.upgraded:
            end = buf.find(b"\r\n\r\n")
            if end < 0:
                return
            status = bytes(buf[:buf.find(b"\r\n")])
            del buf[:end + 4]
            if b" 101 " not in status:
                self.done.set_exception(ConnectionError(f"the WebSocket upgrade was refused: {status!r}"))
                self.transport.close()  # type: ignore[union-attr]
                return
            self.upgraded = True
            self.send(orjson.dumps({"type": "hello", "protocol": 1, "token": self.token}))
            if self.chat_every:  # the first message at a random moment of the first interval
                self.loop.call_later(self.rng.uniform(0, self.chat_every), self.chat)
        while len(buf) >= 2:
            opcode, n = buf[0] & 0x0F, buf[1] & 0x7F
            at = 2
            if n == 126:
                if len(buf) < 4:
                    return
                n, at = int.from_bytes(buf[2:4], "big"), 4
            elif n == 127:
                if len(buf) < 10:
                    return
                n, at = int.from_bytes(buf[2:10], "big"), 10
            if len(buf) < at + n:
                return
            payload = bytes(buf[at:at + n])
            del buf[:at + n]
            if opcode == 1:
                self.on_message(orjson.loads(payload))
            elif opcode == 8:
                self.transport.close()  # type: ignore[union-attr]
                return
            elif opcode == 9:  # a ping: answer with a pong carrying its payload
                mask = os.urandom(4)
                self.transport.write(bytes((0x8A, 0x80 | len(payload))) + mask  # type: ignore[union-attr]
                                     + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))

    def chat(self) -> None:
        """Say something at the table, then again after ``chat_every`` seconds (a person's chat: one a minute)."""
        if self.transport is None or self.transport.is_closing() or self.done.done():
            return
        text = f"gut gespielt {self.rng.random():.12f}"
        self.chats[text] = time.perf_counter()
        self.send(orjson.dumps({"type": "chat", "text": text}))
        self.loop.call_later(self.chat_every, self.chat)

    def on_message(self, m: dict) -> None:
        counts = self.counts
        if m["type"] == "chat":
            sent = self.chats.pop(m.get("text"), None)
            if sent is not None and sent >= counts["from"]:
                counts["chat_ms"].append((time.perf_counter() - sent) * 1000)
            return
        if m["type"] == "error" and str(m.get("code", "")).startswith("chat"):
            counts["chat_errors"] += 1
            counts["codes"][m.get("code")] = counts["codes"].get(m.get("code"), 0) + 1
            return
        if m["type"] == "error":
            counts["errors"] += 1
            counts["codes"][m.get("code")] = counts["codes"].get(m.get("code"), 0) + 1
            self.pending = None
            self.send('{"type":"state"}')  # recover: act again on a fresh state
            return
        if m["type"] != "state" or m["view"] is None:
            return
        v = m["view"]
        pending = self.pending
        if pending is not None and m["table"]["deal_no"] == pending[0] and m["seq"] > pending[2]:
            if pending[1] >= counts["from"]:  # sent after the warm-up
                now = time.perf_counter()
                self.latencies.append((now - pending[1]) * 1000)
                self.counts["stamps"].append(now - self.counts["from"])
                counts["actions"] += 1
            self.pending = pending = None
        if v["phase"] == "finished":
            if self.asked_next != m["table"]["deal_no"]:
                self.asked_next = m["table"]["deal_no"]
                counts["deals"] += 1 if m["you"]["position"] == 0 and time.perf_counter() >= counts["from"] else 0
                if m["table"]["status"] == "finished":  # the series is over: this seat leaves the table
                    if not self.done.done():
                        self.done.set_result(None)
                    return
                self.send('{"type":"next_deal"}')
            return
        if pending is None and v["to_move"] == v["seat"] and v["legal_actions"]:
            legal, rng = v["legal_actions"], self.rng
            if v["phase"] == "bidding":
                action = rng.choice(["pass", legal[0]]) if legal[0] != "hold" else rng.choice(["hold", "pass"])
            else:
                action = rng.choice(legal)
            deal_no, seq = m["table"]["deal_no"], m["seq"]
            self.pending = (deal_no, 0.0, seq)  # nothing else is sent meanwhile
            if self.pace:  # a computer player's pace
                self.loop.call_later(rng.uniform(0.5 * self.pace, 1.5 * self.pace), self.act, deal_no, seq, action)
            else:
                self.act(deal_no, seq, action)

    def act(self, deal_no: int, seq: int, action: str) -> None:
        self.pending = (deal_no, time.perf_counter(), seq)
        self.send(orjson.dumps({"type": "action", "action": action, "seq": seq}))


async def seat_client(ws_base: str, table_id: str, token: str, rng: random.Random, latencies: list[float],
                      counts: dict, pace: float, chat_every: float = 0.0) -> None:
    """One seat (:class:`SeatProtocol`) until cancelled; raises when its connection fails."""
    host_port = ws_base.split("://", 1)[1]
    host, port = host_port.rsplit(":", 1)
    loop = asyncio.get_running_loop()
    transport, seat = await loop.create_connection(
        lambda: SeatProtocol(f"/ws/{table_id}", host_port, token, rng, latencies, counts, pace, chat_every), host,
        int(port))
    try:
        await seat.done
    finally:
        transport.close()


async def load(bases: list[str], tables: int, seconds: float, seed: int, pace: float = 0.0,
               ruleset: str = "isko2018", route: str = "spread", warmup: float = 0.0,
               pids: list[int] | None = None, deals: int | None = None, clock: bool = True,
               chat_every: float = 0.0) -> dict:
    """Play ``tables`` tables of three people for ``seconds``. With several server processes (``bases``)
    table i is made at process i; ``route`` "spread" connects its three seats to three processes in turn,
    so that every action reaches the other seats through the fan-out (the fan-out's worst case), "table"
    connects them all to process i, as a balancer routing by table id does (docs/deployment.md). The first
    ``warmup`` seconds (every seat connecting and getting its first state at once) are played, not counted.
    ``deals``: each table is a series of that many deals; when it is over its people leave and a new table
    takes its place (tables come and go, as at a club's server). ``pids``: the server processes, whose CPU
    time in the measured seconds is reported with the generator's. ``clock``: the tables have the move clock
    (30 s a decision: nobody runs out of time at this pace, the server keeps the clock); ``chat_every``: each seat
    says something at its table every so many seconds (0: no chat)."""
    pids = pids or []
    rng = random.Random(seed)
    latencies: list[float] = []
    counts = {"actions": 0, "errors": 0, "deals": 0, "codes": {}, "stamps": [], "series": 0, "made": 0,
              "chat_ms": [], "chat_errors": 0}
    n = len(bases)
    settings = {"seats": ["human"] * 3, "claim": 0, "public": True, "ruleset": ruleset,
                "clock": {"decision": 30} if clock else False}
    if deals is not None:
        settings["deals"] = deals

    async def make_table(http: httpx.AsyncClient, i: int) -> list[tuple[str, str, str]]:
        base = bases[i % n]
        http.cookies.clear()  # every seat is another person (its own guest cookie: the chat counts per person)
        t = (await http.post(f"{base}/api/tables", json=settings)).json()
        seats = [(base, t["table_id"], t["token"])]
        for k in (1, 2):
            http.cookies.clear()
            answer = await http.post(f"{base}/api/tables/{t['table_id']}/join", json={})
            j = answer.json()
            if "token" not in j:
                raise RuntimeError(f"joining table {t['table_id']} at {base} answered {answer.status_code}: {j}")
            seats.append((bases[(i + k) % n if route == "spread" else i % n], t["table_id"], j["token"]))
        counts["made"] += 1
        return seats

    async def slot(http: httpx.AsyncClient, i: int, seats: list[tuple[str, str, str]], seat_rng: random.Random):
        while True:  # without ``deals`` the first table plays until the run ends
            await asyncio.gather(*(seat_client(b.replace("http", "ws", 1), tid, tok, random.Random(seat_rng.random()),
                                               latencies, counts, pace, chat_every) for b, tid, tok in seats))
            counts["series"] += 1
            seats = await make_table(http, i)

    async with httpx.AsyncClient(timeout=60) as http:
        first = [await make_table(http, i) for i in range(tables)]
        start = time.perf_counter()
        counts["from"] = start + warmup
        counts["wall_from"] = time.time() + warmup  # the clock's time of the measured start (to match server logs)
        clients = [asyncio.create_task(slot(http, i, seats, random.Random(rng.random())))
                   for i, seats in enumerate(first)]
        done: set = set()
        if warmup:
            done, _ = await asyncio.wait(clients, timeout=max(0.0, counts["from"] - time.perf_counter()))
        gc.collect()  # the generator's own full collections (every seat's objects) stay out of the measured time
        gc.freeze()
        cpu_from = cpu_seconds(pids)
        series_from = counts["series"]
        if not done:
            done, _ = await asyncio.wait(clients, timeout=max(0.0, counts["from"] + seconds - time.perf_counter()))
        cpu_to = cpu_seconds(pids)
        elapsed = time.perf_counter() - start - warmup
        for task in clients:
            task.cancel()
        await asyncio.gather(*clients, return_exceptions=True)
    gc.unfreeze()
    for task in done:  # a table slot that ended before the time was up failed: say why
        if not task.cancelled() and task.exception() is not None:
            raise task.exception()  # type: ignore[misc]
    return {"latencies": latencies, "stamps": counts["stamps"], "wall_from": counts["wall_from"], "elapsed": elapsed,
            "actions": counts["actions"], "errors": counts["errors"], "deals": counts["deals"], "codes": counts["codes"],
            "series": counts["series"] - series_from, "tables_made": counts["made"],
            "chat_ms": counts["chat_ms"], "chat_errors": counts["chat_errors"],
            "cpu": {k: cpu_to[k] - cpu_from[k] for k in cpu_to}}


def cpu_seconds(pids: list[int]) -> dict[str, float]:
    """CPU seconds used so far by this process (the load generator), by the server processes and by PostgreSQL's
    processes (Linux /proc; a PostgreSQL process that ended meanwhile is missed)."""
    out = {"generator": time.process_time(), "servers": 0.0, "database": 0.0}
    tick = os.sysconf("SC_CLK_TCK")
    wanted = set(pids)
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat") as stat:
                head, _, rest = stat.read().rpartition(")")
        except OSError:
            continue
        used = sum(int(f) for f in rest.split()[11:13]) / tick
        if int(name) in wanted:
            out["servers"] += used
        elif head.endswith("(postgres"):  # PostgreSQL's processes (the bench's own cluster, or a local one)
            out["database"] += used
    return out


async def random_step(table, rng: random.Random) -> int:
    """One step at a table of three people in process: the next deal when one is over (0), else a random
    legal action of the seat to move (1)."""
    game = table.game
    if game.is_over:
        for position in range(3):
            await table.next_deal(position)
        return 0
    await table.act(table.positions[game.to_move], str(rng.choice(game.legal_actions())))
    return 1


async def server_cost(actions: int = 3000, seed: int = 1, ruleset: str = "isko2018") -> float:
    """Milliseconds per action of the server's own path (check, store, three encoded states), in process."""
    from skat.server.connections import Client
    from skat.server.manager import TableManager
    from skat.server.store import Store

    tmp = tempfile.mkdtemp(prefix="skat-cost-")
    manager = TableManager(Store(f"sqlite:///{os.path.join(tmp, 'cost.sqlite')}"), bot_processes=False)
    table, _ = await manager.create_table(seats=["human"] * 3, ruleset=ruleset, public=True)
    await manager.join(table.id)
    await manager.join(table.id)
    async with table.lock:
        await table.maybe_start()

    async def sink(message) -> None:
        return None

    for position in range(3):
        table.clients.add(Client(send=sink, position=position))
    rng = random.Random(seed)
    done = 0
    start = time.perf_counter()
    while done < actions:
        done += await random_step(table, rng)
    elapsed = time.perf_counter() - start
    manager.shutdown()
    manager.store.close()
    return elapsed / actions * 1000


def run_once(db: str, processes: int, args: argparse.Namespace, seed: int) -> tuple[dict, float]:
    """One run on ``db`` with ``processes`` server processes: (the run's figures, the idle ping anchor)."""
    procs = []
    try:
        for _ in range(processes):
            proc = start_server(db, tuple(args.serve_args.split()))
            procs.append((proc, proc.base))
        bases = [base for _, base in procs]
        anchor = asyncio.run(ping_anchor(bases[0], bases[0].replace("http", "ws", 1), args.pings))
        memory: list[list[int]] = []
        sampling = threading.Event()

        def sample() -> None:  # the server processes' resident memory, every --memory-every seconds
            while not sampling.wait(args.memory_every):
                memory.append([rss_kib(proc.pid) for proc, _ in procs])

        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
        try:
            with asyncio.Runner(loop_factory=fast_loop()) as runner:  # the clients as cheap as the servers' loop
                res = runner.run(load(bases, args.tables, args.seconds, seed, args.pace, args.ruleset, args.route,
                                      args.warmup, [proc.pid for proc, _ in procs], args.deals,
                                      not args.no_clock, args.chat_every))
        finally:
            sampling.set()
            sampler.join()
        res["memory"] = memory
        res["health"] = [httpx.get(f"{base}/api/health", timeout=10).json() for base in bases]
    finally:
        for proc, _ in procs:
            proc.terminate()
            proc.wait(10)
    res["logged"] = [server_log(proc.log_path) for proc, _ in procs]  # type: ignore[attr-defined]
    lat = res["latencies"] or [float("nan")]
    run = {"p50": percentile(lat, 0.5), "p99": percentile(lat, 0.99), "rate": res["actions"] / res["elapsed"],
           "actions": res["actions"], "deals": res["deals"], "errors": res["errors"], "codes": res["codes"],
           "elapsed": res["elapsed"], "cpu": res["cpu"], "timeline": timeline(res["stamps"], res["latencies"], 5.0),
           "memory": res["memory"], "wall_from": res["wall_from"], "health": res["health"], "logged": res["logged"],
           "series": res["series"], "tables_made": res["tables_made"], "chats": len(res["chat_ms"]),
           "chat_p99": percentile(res["chat_ms"], 0.99) if res["chat_ms"] else float("nan"),
           "chat_errors": res["chat_errors"]}
    return run, anchor


def server_log(path: str) -> dict[str, Any]:
    """A server's log file, read and removed: its warnings and errors (the first lines of each)."""
    with open(path, errors="replace") as logged:
        lines = logged.read().splitlines()
    os.unlink(path)
    found: dict[str, Any] = {"WARNING": [], "ERROR": []}
    for line in lines:
        for level in found:
            if f" {level} " in line:
                found[level].append(line)
    return found


def timeline(stamps: list[float], latencies: list[float], width: float) -> list[tuple[float, int, float, float]]:
    """(start second, actions, p50, p99) of each ``width``-second slice of the measured time, by when the
    answer came: where the slow answers fall (a stall shows as one slice)."""
    slices: dict[int, list[float]] = {}
    for at, ms in zip(stamps, latencies):
        slices.setdefault(int(at // width), []).append(ms)
    return [(k * width, len(v), percentile(v, 0.5), percentile(v, 0.99)) for k, v in sorted(slices.items())]


def report_run(label: str, r: int, run: dict, anchor: float, args: argparse.Namespace) -> None:
    """Print one run's figures."""
    codes = ", ".join(f"{c} {n}" for c, n in sorted(run["codes"].items(), key=str))
    print(f"{label} run {r + 1}: {args.tables} tables on {args.processes} process(es), {run['actions']} "
          f"actions in {run['elapsed']:.1f} s, {run['deals']} deals finished, p50 {run['p50']:.1f} ms, "
          f"p99 {run['p99']:.1f} ms, {run['rate']:.0f} actions/s, {run['errors']} errors"
          f"{' (' + codes + ')' if codes else ''}; idle ping {anchor:.2f} ms", flush=True)
    if args.chat_every:
        print(f"  chat: {run['chats']} messages came back (one a seat every {args.chat_every:g} s), round trip p99 "
              f"{run['chat_p99']:.1f} ms, {run['chat_errors']} refused", flush=True)
    if args.deals:
        print(f"  series of {args.deals} deals: {run['series']} ended in the measured time, {run['tables_made']} "
              "tables made in all (each series over makes a new one)", flush=True)
    per = max(1, run["actions"])
    print(f"  CPU per acknowledged action: servers {run['cpu']['servers'] / per * 1000:.2f} ms, "
          f"load generator {run['cpu']['generator'] / per * 1000:.2f} ms, PostgreSQL "
          f"{run['cpu']['database'] / per * 1000:.2f} ms", flush=True)
    if args.timeline:
        started = time.strftime("%H:%M:%S", time.gmtime(run["wall_from"]))
        print(f"  by 5 s of the measured time (from {started} UTC; from s: actions, p50, p99 ms): " + "; ".join(
            f"{at:.0f}: {n}, {p50:.0f}, {p99:.0f}" for at, n, p50, p99 in run["timeline"]), flush=True)
    for i, (health, logged) in enumerate(zip(run["health"], run["logged"])):
        if health.get("loop_stalls") or health.get("slow_commits") or logged["WARNING"] or logged["ERROR"]:
            print(f"  server {i + 1} since its start: {health.get('loop_stalls')} event-loop stall(s) over "
                  f"{LOOP_STALL_MS} ms (worst {health.get('worst_loop_stall_s')} s), {health.get('slow_commits')} "
                  f"slow commit(s) of {health.get('commits')}; logged {len(logged['WARNING'])} warning(s), "
                  f"{len(logged['ERROR'])} error(s)", flush=True)
            for line in (logged["ERROR"] + logged["WARNING"])[:6]:
                print(f"    {line[:300]}", flush=True)
    if len(run["memory"]) >= 2:
        print(f"  server memory (MiB per process) every {args.memory_every:.0f} s: "
              + "; ".join("/".join(f"{k / 1024:.0f}" for k in row) for row in run["memory"]), flush=True)


def rss_kib(pid: int) -> int:
    """Resident memory of a process in KiB (Linux /proc), 0 when it is gone."""
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def databases(args: argparse.Namespace) -> tuple[list[tuple[str, str]], object | None]:
    """The databases to measure, by label: ``sqlite`` (a fresh file per run), ``postgresql`` (a throw-away
    cluster from Debian's PostgreSQL, as the tests start one, or SKAT_TEST_PG_URL), or a URL."""
    wanted = ["sqlite", "postgresql"] if args.compare else [args.db]
    cluster = None
    out = []
    for db in wanted:
        if db == "postgresql":
            sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests"))
            from test_server_support import Postgres

            cluster = cluster or Postgres()
            out.append(("postgresql", "new-postgresql"))
        else:
            out.append(("sqlite" if db == "sqlite" else db.split("@")[-1], db))
    return out, cluster


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=20.0, help="seconds measured (after the warm-up)")
    parser.add_argument("--warmup", type=float, default=5.0,
                        help="seconds played first and not counted: every seat connects and gets its first state")
    parser.add_argument("--repeats", type=int, default=3, help="runs; the median run is reported")
    parser.add_argument("--db", default="sqlite",
                        help="sqlite (a fresh file, the default), postgresql (a throw-away local cluster) or a URL")
    parser.add_argument("--compare", action="store_true",
                        help="measure SQLite and PostgreSQL in the same run and print the ratio of actions/s")
    parser.add_argument("--processes", type=int, default=1,
                        help="server processes on the database (more than one needs PostgreSQL); the seats of a "
                             "table connect to different processes")
    parser.add_argument("--route", choices=("spread", "table"), default="spread",
                        help="with several processes: spread a table's seats over the processes (every action "
                             "crosses the fan-out) or connect them all to one process, as nginx routing by table "
                             "id does (docs/deployment.md)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--deals", type=int, default=None,
                        help="each table is a series of this many deals; then its people leave and a new table "
                             "takes its place (default: one series that never ends)")
    parser.add_argument("--pace", type=float, default=1.0,
                        help="mean seconds a seat waits before acting, like a computer player at a table "
                             "(uniform 0.5x to 1.5x); 0 drives every table as fast as the server answers")
    parser.add_argument("--ruleset", default="isko2018",
                        help="rule set of the tables (pub: Ramsch, Kontra/Re, Bock rounds through skat.Table)")
    parser.add_argument("--pings", type=int, default=300, help="pings of the idle anchor (one every 60 ms)")
    parser.add_argument("--serve-args", default="", metavar="ARGS",
                        help="more options for every `skat serve` (for example \"--gc-thaw 0\")")
    parser.add_argument("--timeline", action="store_true",
                        help="print the round trip p50/p99 of every 5 s of the measured time (where a stall falls)")
    parser.add_argument("--no-cost", action="store_true", help="skip the in-process cost of the server's path")
    parser.add_argument("--no-clock", action="store_true",
                        help="tables without the move clock (by default each has one, 30 s a decision: docs/clock.md)")
    parser.add_argument("--chat-every", type=float, default=0.0, metavar="SECONDS",
                        help="each seat says something at its table every SECONDS (60: a chat message a minute)")
    parser.add_argument("--memory-every", type=float, default=30.0,
                        help="seconds between samples of the server processes' memory (a soak: --seconds 600)")
    args = parser.parse_args()
    dbs, cluster = databases(args)
    medians = {}
    results: dict[str, tuple[list[dict], list[float]]] = {label: ([], []) for label, _ in dbs}
    try:
        for r in range(args.repeats):  # the databases in turn, so that the machine's drift falls on both alike
            for label, db in dbs:
                runs, anchors = results[label]
                url = db
                if db == "sqlite":
                    url = f"sqlite:///{os.path.join(tempfile.mkdtemp(prefix='skat-load-'), 'load.sqlite')}"
                elif db == "new-postgresql":
                    url = cluster.new_database()  # type: ignore[union-attr]
                run, anchor = run_once(url, args.processes, args, args.seed + r)
                runs.append(run)
                anchors.append(anchor)
                report_run(label, r, run, anchor, args)
        for label, (runs, anchors) in results.items():
            med = sorted(runs, key=lambda x: x["p99"])[len(runs) // 2]
            rate = statistics.median(x["rate"] for x in runs)
            anchor = statistics.median(anchors)
            medians[label] = rate
            route = f", seats routed: {args.route}" if args.processes > 1 else ""
            print(f"\n{label}: median of {len(runs)} runs at {args.tables} concurrent {args.ruleset} tables, "
                  f"{args.processes} server process(es){route}, pace {args.pace} s per action:")
            print(f"  action round trip p50 {med['p50']:.1f} ms, p99 {med['p99']:.1f} ms")
            print(f"  throughput {rate:.0f} acknowledged actions/s, errors {sum(x['errors'] for x in runs)}")
            if args.chat_every:
                print(f"  chat: {med['chats']} messages, round trip p99 {med['chat_p99']:.1f} ms, "
                      f"{sum(x['chat_errors'] for x in runs)} refused")
            print(f"  anchor: idle ping round trip {anchor:.2f} ms; p50/anchor {med['p50'] / anchor:.1f}x, "
                  f"p99/anchor {med['p99'] / anchor:.1f}x\n", flush=True)
        if "sqlite" in results and "postgresql" in results:
            ratios = [b["rate"] / a["rate"] for a, b in zip(results["sqlite"][0], results["postgresql"][0])]
            medians["pairs"] = statistics.median(ratios)
            print("PostgreSQL / SQLite of each pair of runs (one after the other): "
                  + ", ".join(f"{x:.2f}" for x in ratios))
    finally:
        if cluster is not None:
            cluster.stop()  # type: ignore[attr-defined]
    if "sqlite" in medians and "postgresql" in medians:
        print(f"PostgreSQL / SQLite acknowledged actions per second: median of the pairs {medians['pairs']:.2f}, "
              f"ratio of the medians {medians['postgresql'] / medians['sqlite']:.2f} (goal: at least 0.80; a "
              "pair ran back to back, so the shared machine's drift falls on both)")
    if not args.no_cost:
        cost = statistics.median(asyncio.run(server_cost(ruleset=args.ruleset)) for _ in range(3))
        print(f"the server's own path, in process without the network: {cost:.2f} ms per action "
              f"(at most {1000 / cost:.0f} actions/s on one core)")
    print(f"load average of this machine now: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    return 0


if __name__ == "__main__":
    sys.exit(main())
