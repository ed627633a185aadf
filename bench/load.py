"""Load test of the table server: N concurrent tables, every seat a client over a real WebSocket
on loopback making random legal choices (so the server is measured, not a search). Reports the
action round trip (send an action until its new state arrives) p50 and p99, and actions per
second. Each seat acts after a pause (``--pace``, default 1 s on average, like a computer player
at a table; ``--pace 0`` measures the server's capacity instead). Anchor, measured in the same run: the round trip of a `ping` message on an idle server
(WebSocket, JSON and the event loop, without the engine and the database).

    python3 bench/load.py --tables 200 --seconds 20

Goal (issue 7): 200 concurrent tables on a 2-core machine with p99 under 100 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time

import httpx
import websockets


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


UNLIMITED = ("--rate-create", "1000000/1", "--rate-join", "1000000/1", "--rate-action", "1000000/1")
"""Every table and every seat comes from 127.0.0.1: the per-address limits (skat.server.limits) are raised."""


def start_server(db: str, port: int) -> subprocess.Popen:
    proc = subprocess.Popen(
        [sys.executable, "-m", "skat", "serve", "--port", str(port), "--db", db, "--bot-delay", "0",
         "--log-level", "error", *UNLIMITED], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    deadline = time.time() + 60
    while time.time() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"the server did not start: {proc.stderr.read()}")
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=1).status_code == 200:
                return proc
        except httpx.HTTPError:
            time.sleep(0.2)
    raise SystemExit("the server did not start within 60 s")


def percentile(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


async def ping_anchor(base: str, ws_base: str, n: int = 300) -> float:
    """Median round trip of a ping on an idle server, in ms."""
    async with httpx.AsyncClient() as http:
        t = (await http.post(f"{base}/api/tables", json={"seats": ["random", "random", "random"], "claim": None,
                                                           "deals": 1})).json()
    times = []
    async with websockets.connect(f"{ws_base}/ws/{t['table_id']}") as ws:
        await ws.send(json.dumps({"type": "hello", "protocol": 1}))
        for _ in range(3):
            await ws.recv()
        for i in range(n):
            t0 = time.perf_counter()
            await ws.send(json.dumps({"type": "ping", "t": i}))
            while True:
                m = json.loads(await ws.recv())
                if m["type"] == "pong" and m["t"] == i:
                    break
            times.append((time.perf_counter() - t0) * 1000)
            await asyncio.sleep(0.06)  # stay under the rate limit
    return statistics.median(times)


async def seat_client(ws_base: str, table_id: str, token: str, stop: float, rng: random.Random,
                      latencies: list[float], counts: dict, pace: float) -> None:
    async with websockets.connect(f"{ws_base}/ws/{table_id}", max_size=2**20, compression=None) as ws:
        await ws.send(json.dumps({"type": "hello", "protocol": 1, "token": token}))
        pending: tuple[int, float, int] | None = None
        asked_next = -1
        while time.perf_counter() < stop:
            try:
                raw = await asyncio.wait_for(ws.recv(), timeout=max(0.01, stop - time.perf_counter()))
            except TimeoutError:
                break
            m = json.loads(raw)
            if m["type"] == "error":
                counts["errors"] += 1
                pending = None
                await ws.send(json.dumps({"type": "state"}))  # recover: act again on a fresh state
                continue
            if m["type"] != "state" or m["view"] is None:
                continue
            v = m["view"]
            if pending is not None and m["table"]["deal_no"] == pending[0] and m["seq"] > pending[2]:
                latencies.append((time.perf_counter() - pending[1]) * 1000)
                counts["actions"] += 1
                pending = None
            if v["phase"] == "finished":
                if asked_next != m["table"]["deal_no"]:
                    asked_next = m["table"]["deal_no"]
                    counts["deals"] += 1 if m["you"]["position"] == 0 else 0
                    await ws.send(json.dumps({"type": "next_deal"}))
                continue
            if pending is None and v["to_move"] == v["seat"] and v["legal_actions"]:
                legal = v["legal_actions"]
                if v["phase"] == "bidding":
                    action = rng.choice(["pass", legal[0]]) if legal[0] != "hold" else rng.choice(["hold", "pass"])
                else:
                    action = rng.choice(legal)
                if pace:
                    await asyncio.sleep(rng.uniform(0.5 * pace, 1.5 * pace))  # a computer player's pace
                pending = (m["table"]["deal_no"], time.perf_counter(), m["seq"])
                await ws.send(json.dumps({"type": "action", "action": action, "seq": m["seq"]}))


async def load(base: str, ws_base: str, tables: int, seconds: float, seed: int, pace: float = 0.0,
               ruleset: str = "isko2018") -> dict:
    rng = random.Random(seed)
    latencies: list[float] = []
    counts = {"actions": 0, "errors": 0, "deals": 0}
    seats = []
    async with httpx.AsyncClient(timeout=30) as http:
        for _ in range(tables):
            t = (await http.post(f"{base}/api/tables", json={"seats": ["human"] * 3, "claim": 0,
                                                               "ruleset": ruleset})).json()
            seats.append((t["table_id"], t["token"]))
            for _ in range(2):
                j = (await http.post(f"{base}/api/tables/{t['table_id']}/join", json={})).json()
                seats.append((t["table_id"], j["token"]))
    start = time.perf_counter()
    stop = start + seconds
    await asyncio.gather(*(seat_client(ws_base, tid, tok, stop, random.Random(rng.random()), latencies, counts, pace)
                           for tid, tok in seats))
    elapsed = time.perf_counter() - start
    return {"latencies": latencies, "elapsed": elapsed, **counts}


async def server_cost(actions: int = 3000, seed: int = 1, ruleset: str = "isko2018") -> float:
    """Milliseconds per action of the server's own path (check, store, three encoded states), in process."""
    from skat.server.store import Store
    from skat.server.tables import Client, TableManager

    tmp = tempfile.mkdtemp(prefix="skat-cost-")
    manager = TableManager(Store(f"sqlite:///{os.path.join(tmp, 'cost.sqlite')}"), bot_processes=False)
    table, _ = manager.create_table(seats=["human"] * 3, ruleset=ruleset)
    manager.join(table.id)
    manager.join(table.id)
    table.maybe_start()

    async def sink(message) -> None:
        return None

    for position in range(3):
        table.clients.append(Client(send=sink, position=position))
    rng = random.Random(seed)
    done = 0
    start = time.perf_counter()
    while done < actions:
        game = table.game
        if game.is_over:
            for position in range(3):
                await table.next_deal(position)
            continue
        await table.act(table.positions[game.to_move], str(rng.choice(game.legal_actions())))
        done += 1
    elapsed = time.perf_counter() - start
    manager.shutdown()
    manager.store.close()
    return elapsed / actions * 1000


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--repeats", type=int, default=3, help="runs; the median run is reported")
    parser.add_argument("--db", default=None, help="database URL (default: a fresh SQLite file)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--pace", type=float, default=1.0,
                        help="mean seconds a seat waits before acting, like a computer player at a table "
                             "(uniform 0.5x to 1.5x); 0 drives every table as fast as the server answers")
    parser.add_argument("--ruleset", default="isko2018",
                        help="rule set of the tables (pub: Ramsch, Kontra/Re, Bock rounds through skat.Table)")
    args = parser.parse_args()
    runs = []
    anchors = []
    for r in range(args.repeats):
        tmp = tempfile.mkdtemp(prefix="skat-load-")
        db = args.db or f"sqlite:///{os.path.join(tmp, 'load.sqlite')}"
        port = free_port()
        proc = start_server(db, port)
        base, ws_base = f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}"
        try:
            anchors.append(asyncio.run(ping_anchor(base, ws_base)))
            res = asyncio.run(load(base, ws_base, args.tables, args.seconds, args.seed + r, args.pace, args.ruleset))
        finally:
            proc.terminate()
            proc.wait(10)
        lat = res["latencies"]
        run = {"p50": percentile(lat, 0.5), "p99": percentile(lat, 0.99), "rate": res["actions"] / res["elapsed"],
               "actions": res["actions"], "deals": res["deals"], "errors": res["errors"]}
        runs.append(run)
        print(f"run {r + 1}: {args.tables} tables, {run['actions']} actions in {res['elapsed']:.1f} s, "
              f"{run['deals']} deals finished, p50 {run['p50']:.1f} ms, p99 {run['p99']:.1f} ms, "
              f"{run['rate']:.0f} actions/s, {run['errors']} errors; idle ping {anchors[-1]:.2f} ms", flush=True)
    cost = statistics.median(asyncio.run(server_cost(ruleset=args.ruleset)) for _ in range(3))
    med = sorted(runs, key=lambda x: x["p99"])[len(runs) // 2]
    anchor = statistics.median(anchors)
    print(f"\nmedian of {len(runs)} runs at {args.tables} concurrent {args.ruleset} tables, pace {args.pace} s per action:")
    print(f"  action round trip p50 {med['p50']:.1f} ms, p99 {med['p99']:.1f} ms (goal: p99 < 100 ms)")
    print(f"  throughput {med['rate']:.0f} actions/s")
    print(f"  the server's own path, in process without the network: {cost:.2f} ms per action "
          f"(at most {1000 / cost:.0f} actions/s on one core)")
    print(f"  load average of this machine now: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print(f"  anchor: idle ping round trip {anchor:.2f} ms; p50/anchor {med['p50'] / anchor:.1f}x, "
          f"p99/anchor {med['p99'] / anchor:.1f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
