"""How long a person waits for the computer players at the web table (not a test; prints figures).

    python bench/bot_wait.py                        # strong (the web table's default), 4 deals, one table
    python bench/bot_wait.py --level medium --deals 8 --tables 3

Starts ``skat serve`` (SQLite in a temporary folder, the default pause ``--bot-delay 0.7``), makes tables of
one person and two computer players of ``--level``; the person acts at once (passes, or plays the first
legal card). Each computer decision is timed at the person's client: from the state that makes a computer
the one to move until the state that shows its action. Printed: the median, p95 and max of that wait, and of
the wait beyond the pause the server keeps so that people can follow the play (the bot delay, and the
trick pause before a computer leads to the next trick: a computer thinks during its pause, see
``ServerTable._run_bots``), the server's first computer decision (it starts the worker processes) apart.
Anchor, measured in the same run: a ping's round trip on the same server.

Goal (issue 16): a person waits at most about 1.5 s for a computer player at the default level.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import tempfile
import time

import aiohttp
import httpx

from skat.commands.serve import trick_pause as serve_trick_pause

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from load import percentile, ping_anchor, start_server  # noqa: E402  (bench/load.py: the server's harness)


def pause_before(view: dict, delay: float, trick_pause: float) -> float:
    """The pause the server keeps before the seat to move in ``view`` acts, if that seat is a computer."""
    leads_next_trick = view["phase"] == "play" and not view["trick"] and view["tricks"]
    return delay + (trick_pause if leads_next_trick else 0.0)


async def person(ws_base: str, table_id: str, token: str, delay: float, trick_pause: float,
                 waits: list[tuple[float, float]]) -> int:
    """Play one seat at once until the series is over; append (wait, pause) of every computer decision."""
    deals = 0
    async with aiohttp.ClientSession() as session, session.ws_connect(f"{ws_base}/ws/{table_id}") as ws:
        await ws.send_str(json.dumps({"type": "hello", "protocol": 1, "token": token}))
        last: tuple[int, int, float, float] | None = None  # (deal, seq, when, pause) of a computer's turn
        while True:
            m = json.loads(await ws.receive_str())
            if m["type"] == "error":
                raise RuntimeError(f"the server refused the person's action: {m}")
            if m["type"] != "state" or m["view"] is None:
                continue
            now, v, deal, seq = time.perf_counter(), m["view"], m["table"]["deal_no"], m["seq"]
            if last is not None and last[0] == deal and seq == last[1] + 1:
                waits.append((now - last[2], last[3]))
            last = None
            if v["phase"] == "finished":
                deals += 1
                if m["table"]["status"] == "finished":
                    return deals
                await ws.send_str(json.dumps({"type": "next_deal"}))
                continue
            if v["to_move"] == v["seat"] and v["legal_actions"]:
                legal = v["legal_actions"]
                await ws.send_str(json.dumps({"type": "action", "action": "pass" if "pass" in legal else legal[0],
                                              "seq": seq}))
            elif v["to_move"] is not None and v["to_move"] != v["seat"]:
                last = (deal, seq, now, pause_before(v, delay, trick_pause))


async def measure(base: str, level: str, tables: int, deals: int, delay: float, trick_pause: float) -> dict:
    ws_base = base.replace("http", "ws", 1)
    waits: list[tuple[float, float]] = []
    async with httpx.AsyncClient(timeout=60) as http:
        made = [(await http.post(f"{base}/api/tables", json={"seats": ["human", level, level], "public": True,
                                                             "deals": deals})).json() for _ in range(tables)]
    started = time.perf_counter()
    played = await asyncio.gather(*(person(ws_base, t["table_id"], t["token"], delay, trick_pause, waits)
                                    for t in made))
    wall = time.perf_counter() - started
    anchor = await ping_anchor(base, ws_base, n=50)
    total = [w for w, _ in waits]
    beyond = [max(0.0, w - p) for w, p in waits]  # in the order they happened: the first starts the workers
    return {"level": level, "tables": tables, "deals": sum(played), "decisions": len(waits), "wall_s": wall,
            "wait_median_s": statistics.median(total), "wait_p95_s": percentile(total, 0.95), "wait_max_s": max(total),
            "beyond_pause_median_s": statistics.median(beyond), "beyond_pause_p95_s": percentile(beyond, 0.95),
            "beyond_pause_max_s": max(beyond),
            "first_beyond_pause_s": beyond[0], "later_beyond_pause_max_s": max(beyond[1:], default=0.0), "ping_ms": anchor, "bot_delay_s": delay, "trick_pause_s": trick_pause}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--level", default="strong", help="the computer players' level (default strong)")
    parser.add_argument("--deals", type=int, default=4, help="deals per table")
    parser.add_argument("--tables", type=int, default=1, help="tables played at once")
    parser.add_argument("--bot-delay", type=float, default=0.7, help="the server's pause (skat serve's default)")
    args = parser.parse_args()
    if args.deals < 1 or args.tables < 1 or args.bot_delay < 0:
        parser.error("--deals and --tables must be at least 1, --bot-delay not negative")
    trick_pause = serve_trick_pause(args.bot_delay)
    with tempfile.TemporaryDirectory() as tmp:
        # waits until the server answers; a later --bot-delay wins over the harness's 0
        proc = start_server(f"sqlite:///{os.path.join(tmp, 'wait.sqlite')}", ("--bot-delay", str(args.bot_delay)))
        try:
            base = proc.base
            out = asyncio.run(measure(base, args.level, args.tables, args.deals, args.bot_delay, trick_pause))
        finally:
            proc.terminate()
            proc.wait(10)
    print(f"{out['level']} at {out['tables']} table(s), {out['deals']} deals, {out['decisions']} computer decisions "
          f"in {out['wall_s']:.0f} s: a person waits {out['wait_median_s']:.2f} s median, p95 "
          f"{out['wait_p95_s']:.2f} s, max {out['wait_max_s']:.2f} s (pause {args.bot_delay} s, "
          f"{args.bot_delay + trick_pause:.1f} s before a new trick); beyond the pause {out['beyond_pause_median_s']:.2f} s "
          f"median, p95 {out['beyond_pause_p95_s']:.2f} s, max {out['beyond_pause_max_s']:.2f} s (the server's first "
          f"computer decision, which starts its worker processes, {out['first_beyond_pause_s']:.2f} s; the others at most "
          f"{out['later_beyond_pause_max_s']:.2f} s); "
          f"anchor ping {out['ping_ms']:.1f} ms")
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
