"""Restart time of the table server with many stored deals: fills a database with ``--tables`` tables of
``--deals`` finished deals each (people making random legal choices, played in process through the
server's own path), then starts ``skat serve`` on it and reports the seconds until it answers
``/api/health``, until it serves every table (each ``GET /api/tables/{id}``), and the replay cost per
stored deal. Anchor, measured in the same run: the start-up of ``skat serve`` on an empty database.

    python3 bench/restart.py --tables 50 --deals 100          # 5,000 stored deals
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time

import httpx

from skat.server.manager import TableManager
from skat.server.store import Store

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from load import UNLIMITED, random_step, serve_process  # noqa: E402


async def fill(url: str, tables: int, deals: int, seed: int) -> list[str]:
    """Play ``deals`` deals at each of ``tables`` tables of three people (all at once: grouped commits)."""
    manager = TableManager(Store(url), bot_processes=False)
    rng = random.Random(seed)
    made = []
    for _ in range(tables):
        table, _ = await manager.create_table(seats=["human"] * 3, public=True)
        await manager.join(table.id)
        await manager.join(table.id)
        async with table.lock:
            await table.maybe_start()
        made.append(table)

    async def play(table) -> None:
        while table.deal_no < deals or not table.game.is_over:
            await random_step(table, rng)

    await asyncio.gather(*(play(t) for t in made))
    manager.shutdown()
    manager.store.close()
    return [t.id for t in made]


def start(url: str) -> tuple[subprocess.Popen, str, float, float]:
    """Start ``skat serve``: (the process, its address, seconds until /api/health answered, the start moment)."""
    t0 = time.perf_counter()
    proc, base = serve_process(["--db", url, "--log-level", "error", *UNLIMITED], stderr=subprocess.PIPE)
    while True:
        if proc.poll() is not None:
            raise SystemExit(f"the server did not start: {proc.stderr.read()}")
        try:
            if httpx.get(base + "/api/health", timeout=1).status_code == 200:
                return proc, base, time.perf_counter() - t0, t0
        except httpx.HTTPError:
            time.sleep(0.02)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--deals", type=int, default=100, help="finished deals per table")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    tmp = tempfile.mkdtemp(prefix="skat-restart-")
    url = f"sqlite:///{os.path.join(tmp, 'restart.sqlite')}"
    t0 = time.perf_counter()
    ids = asyncio.run(fill(url, args.tables, args.deals, args.seed))
    print(f"filled {args.tables} tables x {args.deals} deals in {time.perf_counter() - t0:.0f} s", flush=True)
    empty = f"sqlite:///{os.path.join(tmp, 'empty.sqlite')}"
    health, served, anchors = [], [], []
    for _ in range(args.repeats):
        proc, _base, up, _t0 = start(empty)
        proc.terminate()
        proc.wait(10)
        anchors.append(up)
        proc, base, up, began = start(url)
        try:
            for table_id in ids:
                assert httpx.get(f"{base}/api/tables/{table_id}", timeout=120).status_code == 200
            all_served = time.perf_counter() - began
        finally:
            proc.terminate()
            proc.wait(10)
        health.append(up)
        served.append(all_served)
        print(f"start-up: health after {up:.2f} s, every table served after {all_served:.2f} s "
              f"(empty database: {anchors[-1]:.2f} s)", flush=True)
    n = args.tables * args.deals
    h, s, a = statistics.median(health), statistics.median(served), statistics.median(anchors)
    print(f"\nmedian of {args.repeats}: {n} stored deals: /api/health after {h:.2f} s, every table after {s:.2f} s; "
          f"anchor (empty database) {a:.2f} s; {(s - a) / n * 1000:.2f} ms per stored deal")
    return 0


if __name__ == "__main__":
    sys.exit(main())
