"""Load test of the table server: N concurrent tables, every seat a client over a real WebSocket
on loopback making random legal choices (so the server is measured, not a search). Reports the
action round trip (send an action until its new state arrives) p50 and p99, and actions per
second. Each seat acts after a pause (``--pace``, default 1 s on average, like a computer player
at a table; ``--pace 0`` measures the server's capacity instead). Anchor, measured in the same run: the round trip of a `ping` message on an idle server
(WebSocket, JSON and the event loop, without the engine and the database).

    python3 bench/load.py --tables 200 --seconds 20                      # people's pace, SQLite
    python3 bench/load.py --compare --pace 0 --tables 200 --seconds 20    # fast play, SQLite and PostgreSQL
    python3 bench/load.py --db postgresql --processes 2 --tables 1000     # two processes on PostgreSQL

Goals (issue 14): fast play on PostgreSQL reaches at least 80 % of SQLite's acknowledged actions per
second in the same run; 1,000 tables at a person's pace on two processes and PostgreSQL with p99 at most
250 ms on a 2-core machine with the load generator on it.
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
import threading
import time
from collections.abc import Callable

import aiohttp
import httpx
import orjson


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


async def seat_client(session: aiohttp.ClientSession, ws_base: str, table_id: str, token: str,
                      rng: random.Random, latencies: list[float], counts: dict, pace: float) -> None:
    """One seat: act on every state that asks it to, until cancelled (the generator's own cost is kept low,
    aiohttp's compiled frame reader, orjson, no timeout per message, so that it leaves the cores to the
    servers it measures)."""
    async with session.ws_connect(f"{ws_base}/ws/{table_id}", max_msg_size=2**20, compress=0) as ws:
        await ws.send_str(orjson.dumps({"type": "hello", "protocol": 1, "token": token}).decode())
        pending: tuple[int, float, int] | None = None
        asked_next = -1
        async for frame in ws:
            if frame.type is not aiohttp.WSMsgType.TEXT:
                continue
            m = orjson.loads(frame.data)
            if m["type"] == "error":
                counts["errors"] += 1
                counts["codes"][m.get("code")] = counts["codes"].get(m.get("code"), 0) + 1
                pending = None
                await ws.send_str('{"type":"state"}')  # recover: act again on a fresh state
                continue
            if m["type"] != "state" or m["view"] is None:
                continue
            v = m["view"]
            if pending is not None and m["table"]["deal_no"] == pending[0] and m["seq"] > pending[2]:
                if pending[1] >= counts["from"]:  # sent after the warm-up
                    latencies.append((time.perf_counter() - pending[1]) * 1000)
                    counts["actions"] += 1
                pending = None
            if v["phase"] == "finished":
                if asked_next != m["table"]["deal_no"]:
                    asked_next = m["table"]["deal_no"]
                    counts["deals"] += 1 if m["you"]["position"] == 0 and time.perf_counter() >= counts["from"] else 0
                    await ws.send_str('{"type":"next_deal"}')
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
                await ws.send_str(orjson.dumps({"type": "action", "action": action, "seq": m["seq"]}).decode())


async def load(bases: list[str], tables: int, seconds: float, seed: int, pace: float = 0.0,
               ruleset: str = "isko2018", route: str = "spread", warmup: float = 0.0) -> dict:
    """Play ``tables`` tables of three people for ``seconds``. With several server processes (``bases``)
    table i is made at process i; ``route`` "spread" connects its three seats to three processes in turn,
    so that every action reaches the other seats through the fan-out (the fan-out's worst case), "table"
    connects them all to process i, as a balancer routing by table id does (docs/deployment.md). The first
    ``warmup`` seconds (every seat connecting and getting its first state at once) are played, not counted."""
    rng = random.Random(seed)
    latencies: list[float] = []
    counts = {"actions": 0, "errors": 0, "deals": 0, "codes": {}}
    seats = []
    n = len(bases)
    async with httpx.AsyncClient(timeout=60) as http:
        for i in range(tables):
            base = bases[i % n]
            t = (await http.post(f"{base}/api/tables", json={"seats": ["human"] * 3, "claim": 0, "public": True,
                                                               "ruleset": ruleset})).json()
            seats.append((bases[i % n], t["table_id"], t["token"]))
            for k in (1, 2):
                j = (await http.post(f"{base}/api/tables/{t['table_id']}/join", json={})).json()
                seats.append((bases[(i + k) % n if route == "spread" else i % n], t["table_id"], j["token"]))
    start = time.perf_counter()
    counts["from"] = start + warmup
    session = aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0))
    clients = [asyncio.create_task(seat_client(session, b.replace("http", "ws", 1), tid, tok,
                                               random.Random(rng.random()), latencies, counts, pace))
               for b, tid, tok in seats]
    done, _ = await asyncio.wait(clients, timeout=warmup + seconds)
    elapsed = time.perf_counter() - start - warmup
    for task in clients:
        task.cancel()
    await asyncio.gather(*clients, return_exceptions=True)
    await session.close()
    for task in done:  # a seat that ended before the time was up failed: say why
        if not task.cancelled() and task.exception() is not None:
            raise task.exception()  # type: ignore[misc]
    return {"latencies": latencies, "elapsed": elapsed, "actions": counts["actions"], "errors": counts["errors"],
            "deals": counts["deals"], "codes": counts["codes"]}


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
    from skat.server.store import Store
    from skat.server.tables import Client, TableManager

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
        table.clients.append(Client(send=sink, position=position))
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
            port = free_port()
            procs.append((start_server(db, port), f"http://127.0.0.1:{port}"))
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
                                            args.warmup))
        finally:
            sampling.set()
            sampler.join()
        res["memory"] = memory
    finally:
        for proc, _ in procs:
            proc.terminate()
            proc.wait(10)
    lat = res["latencies"] or [float("nan")]
    run = {"p50": percentile(lat, 0.5), "p99": percentile(lat, 0.99), "rate": res["actions"] / res["elapsed"],
           "actions": res["actions"], "deals": res["deals"], "errors": res["errors"], "codes": res["codes"],
           "elapsed": res["elapsed"],
           "memory": res["memory"]}
    return run, anchor


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
    parser.add_argument("--pace", type=float, default=1.0,
                        help="mean seconds a seat waits before acting, like a computer player at a table "
                             "(uniform 0.5x to 1.5x); 0 drives every table as fast as the server answers")
    parser.add_argument("--ruleset", default="isko2018",
                        help="rule set of the tables (pub: Ramsch, Kontra/Re, Bock rounds through skat.Table)")
    parser.add_argument("--pings", type=int, default=300, help="pings of the idle anchor (one every 60 ms)")
    parser.add_argument("--no-cost", action="store_true", help="skip the in-process cost of the server's path")
    parser.add_argument("--memory-every", type=float, default=30.0,
                        help="seconds between samples of the server processes' memory (a soak: --seconds 600)")
    args = parser.parse_args()
    dbs, cluster = databases(args)
    medians = {}
    try:
        for label, db in dbs:
            runs, anchors = [], []
            for r in range(args.repeats):
                url = db
                if db == "sqlite":
                    url = f"sqlite:///{os.path.join(tempfile.mkdtemp(prefix='skat-load-'), 'load.sqlite')}"
                elif db == "new-postgresql":
                    url = cluster.new_database()  # type: ignore[union-attr]
                run, anchor = run_once(url, args.processes, args, args.seed + r)
                runs.append(run)
                anchors.append(anchor)
                print(f"{label} run {r + 1}: {args.tables} tables on {args.processes} process(es), {run['actions']} "
                      f"actions in {run['elapsed']:.1f} s, {run['deals']} deals finished, p50 {run['p50']:.1f} ms, "
                      f"p99 {run['p99']:.1f} ms, {run['rate']:.0f} actions/s, {run['errors']} errors"
                      f"{' (' + ', '.join(f'{c} {n}' for c, n in sorted(run['codes'].items(), key=str)) + ')' if run['codes'] else ''}; idle ping "
                      f"{anchor:.2f} ms", flush=True)
                if len(run["memory"]) >= 2:
                    samples = run["memory"]
                    print(f"  server memory (MiB per process) every {args.memory_every:.0f} s: "
                          + "; ".join("/".join(f"{k / 1024:.0f}" for k in row) for row in samples), flush=True)
            med = sorted(runs, key=lambda x: x["p99"])[len(runs) // 2]
            rate = statistics.median(x["rate"] for x in runs)
            anchor = statistics.median(anchors)
            medians[label] = rate
            route = f", seats routed: {args.route}" if args.processes > 1 else ""
            print(f"\n{label}: median of {len(runs)} runs at {args.tables} concurrent {args.ruleset} tables, "
                  f"{args.processes} server process(es){route}, pace {args.pace} s per action:")
            print(f"  action round trip p50 {med['p50']:.1f} ms, p99 {med['p99']:.1f} ms")
            print(f"  throughput {rate:.0f} acknowledged actions/s, errors {sum(x['errors'] for x in runs)}")
            print(f"  anchor: idle ping round trip {anchor:.2f} ms; p50/anchor {med['p50'] / anchor:.1f}x, "
                  f"p99/anchor {med['p99'] / anchor:.1f}x\n", flush=True)
    finally:
        if cluster is not None:
            cluster.stop()  # type: ignore[attr-defined]
    if "sqlite" in medians and "postgresql" in medians:
        print(f"PostgreSQL / SQLite acknowledged actions per second: {medians['postgresql'] / medians['sqlite']:.2f} "
              "(goal: at least 0.80)")
    if not args.no_cost:
        cost = statistics.median(asyncio.run(server_cost(ruleset=args.ruleset)) for _ in range(3))
        print(f"the server's own path, in process without the network: {cost:.2f} ms per action "
              f"(at most {1000 / cost:.0f} actions/s on one core)")
    print(f"load average of this machine now: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    return 0


if __name__ == "__main__":
    sys.exit(main())
