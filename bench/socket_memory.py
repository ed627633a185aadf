"""Does a server give memory back after WebSockets close? A real ``skat serve`` (port 0, SQLite, default limits);
N spectators (``hello`` without a token, docs/protocol.md) join one public table over real WebSockets, then all
close. The server process's resident memory (VmRSS, /proc/PID/status) is read at start, with the N sockets open
and a few seconds after they all closed, over several rounds:

    python3 bench/socket_memory.py                        # 300 sockets, 5 rounds
    python3 bench/socket_memory.py --sockets 1000 --rounds 3
    python3 bench/socket_memory.py --compare              # also a server with --gc-thaw 0 (Python's own policy)
    python3 bench/socket_memory.py --serve-args "--gc-thaw 0"

The verdict has two parts: memory after the last close within ``--tolerance`` MiB of before the first sockets
opened (given back), and no growth round over round (the figure after each close at most ``--tolerance`` MiB
over the one before, and the last at most that over the first round's). The table's ``spectators`` (TableInfo)
must be 0 after each close. Memory that is kept but does not grow is the allocators' high-water mark, reused
by the next sockets (skat.server.memory explains it); memory that grows is something of a closed socket kept
alive (tests/test_server_socket_memory.py finds which). The exit status is 1 when it grows.

Spectators come from several loopback addresses (127.0.1.1, ...; ``PER_ADDRESS`` each), under the server's cap
of WebSockets per address.

Measured (2 cores, 300 sockets, 5 rounds): the open sockets take some 9-10 MiB (about 32 KiB each) and the
process keeps them after the closes, flat over the rounds (+0.6 MiB from round 1 to 5): pymalloc's arenas and
glibc's heap, reused by the next sockets (``skat.server.memory.give_back_memory`` hands back some 2 MiB of it).
A reference cycle through a closed connection (a table ``Client`` whose ``send`` is a bound method of the
connection that holds the client) showed as growth instead: +1 to +4 MiB a round, +8 MiB over 5 rounds, the
closed connections waiting for a full garbage collection (and, under ``skat serve``'s collector policy, for
the next thaw).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import tempfile
import threading
import time

import aiohttp
import httpx

__all__ = ["rss_mib", "start_server", "open_spectators", "close_spectators", "measure", "main"]


def rss_mib(pid: int) -> float:
    """Resident memory of a process in MiB (Linux /proc), 0 when it is gone."""
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def start_server(db: str, extra: list[str]) -> tuple[subprocess.Popen, str]:
    """``skat serve`` on a free port (port 0: the address is read from the line it prints first), once it
    answers /api/health: (the process, its base address)."""
    proc = subprocess.Popen([sys.executable, "-m", "skat", "serve", "--port", "0", "--db", db, "--log-level",
                             "warning", *extra], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert proc.stdout is not None
    line = proc.stdout.readline()  # "skat serve: http://127.0.0.1:PORT/ (database ...)"
    if "http://" not in line:
        proc.kill()
        raise SystemExit(f"the server did not start: {line}{proc.stdout.read()[-3000:]}")
    threading.Thread(target=proc.stdout.read, daemon=True).start()
    base = "http://127.0.0.1:" + line[line.index("http://"):].split()[0].rstrip("/").rsplit(":", 1)[1]
    deadline = time.time() + 60
    while True:
        try:
            if httpx.get(f"{base}/api/health", timeout=2).status_code == 200:
                return proc, base
        except httpx.HTTPError:
            pass
        if proc.poll() is not None or time.time() > deadline:
            proc.kill()
            raise SystemExit("the server did not answer /api/health")
        time.sleep(0.1)


PER_ADDRESS = 50
"""Spectators per client address: under the server's cap of WebSockets one address holds open
(``Limits.sockets_per_address``, 64 by default), so the crowd comes from 127.0.1.1, 127.0.1.2, ... (every
127.x.y.z is this machine's loopback on Linux)."""


def client_address(i: int) -> str:
    return f"127.0.{1 + i // 250}.{1 + i % 250}"


async def open_spectators(ws_url: str, n: int, parallel: int = 50,
                          per_address: int = PER_ADDRESS) -> tuple[list[aiohttp.ClientWebSocketResponse],
                                                                   list[aiohttp.ClientSession]]:
    """``n`` spectators, each past ``hello`` (its first state received), at most ``per_address`` from one
    loopback address: (the sockets, the client sessions to close after them)."""
    gate = asyncio.Semaphore(parallel)
    sessions = [aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0, local_addr=(client_address(i), 0)))
                for i in range((n + per_address - 1) // per_address)]

    async def one(i: int) -> aiohttp.ClientWebSocketResponse:
        async with gate:
            ws = await sessions[i // per_address].ws_connect(ws_url, max_msg_size=0)
            await ws.send_str(json.dumps({"type": "hello", "protocol": 1}))
            while True:
                message = json.loads(await ws.receive_str())
                if message.get("type") == "state":
                    return ws
                if message.get("type") == "error":
                    raise RuntimeError(f"the server refused a spectator: {message}")

    try:
        return list(await asyncio.gather(*(one(i) for i in range(n)))), sessions
    except BaseException:
        await asyncio.gather(*(session.close() for session in sessions))
        raise


async def close_spectators(sockets: list[aiohttp.ClientWebSocketResponse],
                           sessions: list[aiohttp.ClientSession]) -> None:
    await asyncio.gather(*(ws.close() for ws in sockets))
    await asyncio.gather(*(session.close() for session in sessions))


async def spectators_seen(http: httpx.AsyncClient, base: str, table_id: str) -> int:
    return int((await http.get(f"{base}/api/tables/{table_id}")).json().get("spectators", -1))


async def measure(base: str, pid: int, sockets: int, rounds: int, settle: float) -> dict:
    """Open and close ``sockets`` spectators ``rounds`` times; the memory figures (MiB) of each round."""
    figures: dict = {"start": rss_mib(pid), "rounds": []}
    async with httpx.AsyncClient(timeout=30) as http:
        r = await http.post(f"{base}/api/tables", json={"seats": ["human", "random", "random"], "public": True,
                                                        "name": "memory"})
        r.raise_for_status()
        table_id = r.json()["table_id"]
        ws_url = base.replace("http", "ws", 1) + f"/ws/{table_id}"
        figures["table"] = rss_mib(pid)
        for _ in range(rounds):
            t0 = time.perf_counter()
            open_ws, sessions = await open_spectators(ws_url, sockets)
            opened = time.perf_counter() - t0
            await asyncio.sleep(0.5)
            watching = await spectators_seen(http, base, table_id)
            at_open = rss_mib(pid)
            await close_spectators(open_ws, sessions)
            del open_ws, sessions
            await asyncio.sleep(settle)
            figures["rounds"].append({"open": at_open, "closed": rss_mib(pid), "opened_s": opened,
                                      "watching": watching, "left": await spectators_seen(http, base, table_id)})
    return figures


def verdict(figures: dict, tolerance: float) -> tuple[bool, list[str]]:
    """(no growth, the lines of the verdict): memory after the closes against before the sockets opened, and
    round over round."""
    rounds = figures["rounds"]
    closed = [r["closed"] for r in rounds]
    growth = [b - a for a, b in zip(closed, closed[1:])]
    kept = closed[-1] - figures["table"]
    peak = max(r["open"] for r in rounds) - figures["table"]
    drift = closed[-1] - closed[0]
    left = [r["left"] for r in rounds]
    given_back = kept <= tolerance
    flat = drift <= tolerance and all(g <= tolerance for g in growth) and not any(left)
    lines = [
        (f"after close within {tolerance:g} MiB of before: " + ("yes" if given_back else "no") +
         f" (kept {kept:+.1f} MiB of the {peak:+.1f} MiB the open sockets took)"),
        ("no growth round over round: " + ("yes" if flat else "NO") +
         f" ({drift:+.1f} MiB from round 1 to round {len(rounds)}; each round "
         f"{', '.join(f'{g:+.1f}' for g in growth) or '-'}; spectators left after each close {left})"),
    ]
    if given_back:
        lines.append("verdict: the memory comes back")
    elif flat:
        lines.append("verdict: kept and reused (the allocator's high-water mark of the most sockets open at once, "
                     "not a leak; see skat.server.memory)")
    else:
        lines.append("verdict: GROWS (something of a closed socket is kept: see tests/test_server_socket_memory.py)")
    return flat, lines


def report(label: str, figures: dict, tolerance: float) -> bool:
    print(f"{label}: start {figures['start']:.1f} MiB, with the table {figures['table']:.1f} MiB")
    for i, r in enumerate(figures["rounds"], 1):
        print(f"  round {i}: {r['watching']} sockets open {r['open']:.1f} MiB "
              f"(+{r['open'] - figures['table']:.1f}; opened in {r['opened_s']:.1f} s), "
              f"all closed {r['closed']:.1f} MiB (+{r['closed'] - figures['table']:.1f})")
    ok, lines = verdict(figures, tolerance)
    for line in lines:
        print(f"  {line}")
    return ok


def run(label: str, args: argparse.Namespace, extra: list[str]) -> bool:
    with tempfile.TemporaryDirectory(prefix="skat-socket-memory-") as tmp:
        proc, base = start_server(args.db or f"sqlite:///{os.path.join(tmp, 'skat.sqlite')}", extra)
        try:
            figures = asyncio.run(measure(base, proc.pid, args.sockets, args.rounds, args.settle))
        finally:
            proc.terminate()
            proc.wait(10)
    return report(label + (f" ({' '.join(extra)})" if extra else ""), figures, args.tolerance)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sockets", type=int, default=300, help="spectator sockets per round (default 300)")
    parser.add_argument("--rounds", type=int, default=5, help="open/close rounds (default 5)")
    parser.add_argument("--settle", type=float, default=3.0, help="seconds after the closes before measuring (3)")
    parser.add_argument("--tolerance", type=float, default=2.0,
                        help="MiB: after the closes against before, and of growth from round to round (2)")
    parser.add_argument("--db", default=None, help="database URL (default: a fresh SQLite file)")
    parser.add_argument("--serve-args", default="", help="more options of skat serve, e.g. \"--gc-thaw 0\"")
    parser.add_argument("--compare", action="store_true",
                        help="run twice: the server as given, then with --gc-thaw 0 (Python's own collector policy)")
    args = parser.parse_args(argv)
    extra = args.serve_args.split()
    print(f"{args.sockets} spectator sockets, {args.rounds} rounds, {args.settle:g} s after the closes; "
          f"VmRSS of the server process")
    ok = run("skat serve", args, extra)
    if args.compare:
        ok = run("skat serve", args, [*extra, "--gc-thaw", "0"]) and ok
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
