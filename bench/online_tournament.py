"""An online tournament of simulated players (docs/online-tournaments.md), through the server's own protocol: every
player is an account that registers over REST, asks for its seat each round and plays over the table's WebSocket
(``hello`` with the seat token, a random legal action on its turn, ``next_deal`` after each deal); some never come
(no-shows) and some leave after a few actions (leavers): the move clock's stand-in plays for them. The director
schedules the tournament and starts it; the run ends at the finished ranking and its PDF.

    python3 bench/online_tournament.py                            # 60 players, 3 rounds, SQLite
    python3 bench/online_tournament.py --players 60 --rounds 3 --games 6 --db postgresql://...

Printed: the wall time to the printed ranking, the players' REST requests and WebSocket actions, the errors (REST
answers >= 400 but the expected ``no_seat`` while a round is being seated; WebSocket errors but ``stale`` and
``deal_running``, answers to an outdated state), the
stand-in's decisions; written to bench/data/online/ as JSON. It exits 1 on any error or when the tournament did not
finish. ``run_tournament`` is what tests/test_online_tournament.py runs at a small size.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import tempfile
import threading
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "bench" / "data" / "online"
PASSWORD = "a good long password"


@dataclass
class Figures:
    """What one run measured."""

    players: int = 0
    rounds: int = 0
    seconds: float = 0.0
    requests: int = 0
    actions: int = 0
    errors: list[str] = field(default_factory=list)
    stale: int = 0
    tournament: dict[str, Any] = field(default_factory=dict)
    """The finished tournament's state (its ranking)."""
    pdf_bytes: int = 0
    accounts: dict[str, str] = field(default_factory=dict)
    """Each player's account id by name."""


class Player:
    """One simulated person: an account (its own cookies), its REST requests and its table connections."""

    def __init__(self, base: str, name: str, figures: Figures, rng: random.Random, *, no_show: bool = False,
                 leave_after: int | None = None) -> None:
        self.base = base
        self.name = name
        self.figures = figures
        self.rng = rng
        self.no_show = no_show
        self.leave_after = leave_after
        self.http = httpx.AsyncClient(base_url=base, headers={"Origin": base}, timeout=60)
        self.acted = 0

    async def request(self, method: str, path: str, expect: tuple[int, ...] = (200, 201), **kw: Any) -> httpx.Response:
        self.figures.requests += 1
        r = await self.http.request(method, path, **kw)
        if r.status_code not in expect:
            self.figures.errors.append(f"{self.name}: {method} {path} -> {r.status_code} {r.text[:200]}")
        return r

    async def sign_up(self) -> None:
        r = await self.request("POST", "/api/account/register", json={"name": self.name, "password": PASSWORD})
        self.figures.accounts[self.name] = r.json()["account"]["id"]

    async def play(self, tid: str, deadline: float) -> None:
        """Sit at each round's table until the tournament is over (a no-show only watches the state)."""
        played = 0
        while time.monotonic() < deadline:
            state = (await self.request("GET", f"/api/online-tournaments/{tid}")).json()
            if state["status"] in ("finished", "cancelled"):
                return
            if self.no_show or (self.leave_after is not None and self.acted >= self.leave_after):
                await asyncio.sleep(0.2)
                continue
            if state["status"] != "running" or state["round"] <= played:
                await asyncio.sleep(0.05)
                continue
            r = await self.request("POST", f"/api/online-tournaments/{tid}/seat", expect=(200, 404))
            if r.status_code == 404:  # the round's tables are being made
                if r.json()["error"] != "no_seat":
                    self.figures.errors.append(f"{self.name}: seat -> {r.text[:200]}")
                await asyncio.sleep(0.05)
                continue
            seat = r.json()
            await self.sit(seat, deadline)
            played = seat["round"]

    async def sit(self, seat: dict[str, Any], deadline: float) -> None:
        """Play at one table over its WebSocket until its series is over (or this player leaves)."""
        ws_url = self.base.replace("http", "ws", 1) + f"/ws/{seat['table_id']}"
        async with connect(ws_url, max_size=2**22) as ws:
            await ws.send(json.dumps({"type": "hello", "protocol": 1, "token": seat["token"]}))
            done_seq: tuple[int, int] | None = None
            readied = 0
            while time.monotonic() < deadline:
                try:
                    m = json.loads(await asyncio.wait_for(ws.recv(), timeout=max(0.1, deadline - time.monotonic())))
                except TimeoutError:
                    return
                if m["type"] == "error":
                    # "deal_running" answers a next_deal sent on a state between deals after the next deal had
                    # started (the others were ready first): an answer to an outdated state, like "stale".
                    if m["code"] in ("stale", "deal_running"):
                        self.figures.stale += 1
                    else:
                        self.figures.errors.append(f"{self.name}: {m['code']} {m['message'][:160]}")
                    continue
                if m["type"] != "state":
                    continue
                table = m["table"]
                if table["status"] == "finished":
                    return
                view = m["view"]
                if table["status"] == "between_deals" and seat["position"] not in table["ready"] \
                        and readied < table["deal_no"]:
                    readied = table["deal_no"]
                    await ws.send(json.dumps({"type": "next_deal"}))
                    continue
                if view is None or view.get("seat") is None or view.get("to_move") != view["seat"]:
                    continue
                legal = view.get("legal_actions") or []
                point = (table["deal_no"], m["seq"])
                if not legal or point == done_seq:
                    continue
                done_seq = point
                await ws.send(json.dumps({"type": "action", "action": self.rng.choice(legal), "seq": m["seq"]}))
                self.acted += 1
                self.figures.actions += 1
                if self.leave_after is not None and self.acted >= self.leave_after:
                    return  # the leaver walks away: the connection ends, the stand-in takes the seat after the grace


async def run_tournament(base: str, *, players: int = 60, rounds: int = 3, games: int | dict[str, int] = 6,
                         no_shows: int = 0, leavers: int = 0, leave_after: int = 5, seed: int = 1,
                         clock: dict[str, Any] | None = None, timeout: float = 600.0,
                         prefix: str = "Sim") -> Figures:
    """A whole tournament at the server ``base``: the director's REST, ``players`` accounts (the first
    ``no_shows`` never come, the next ``leavers`` leave after ``leave_after`` actions), to the printed ranking."""
    figures = Figures(players=players, rounds=rounds)
    rng = random.Random(seed)
    started = time.monotonic()
    deadline = started + timeout
    director = httpx.AsyncClient(base_url=base, timeout=60)
    clock = clock or {"decision": 5, "reserve": 0, "grace": 5, "ready": 10, "stand_in": "heuristic"}
    made = await director.post("/api/online-tournaments", json={
        "name": f"{prefix} online tournament", "starts_at": time.time() + 3600, "rounds": rounds, "games": games,
        "clock": clock})
    figures.requests += 1
    if made.status_code != 201:
        figures.errors.append(f"create -> {made.status_code} {made.text[:300]}")
        return figures
    tid, key = made.json()["id"], made.json()["key"]
    people = [Player(base, f"{prefix} {i + 1:02d}", figures, random.Random(rng.random()), no_show=i < no_shows,
                     leave_after=leave_after if no_shows <= i < no_shows + leavers else None) for i in range(players)]
    try:
        await asyncio.gather(*(p.sign_up() for p in people))
        await asyncio.gather(*(p.request("POST", f"/api/online-tournaments/{tid}/register") for p in people))
        r = await director.post(f"/api/online-tournaments/{tid}/start", headers={"X-Tournament-Key": key})
        figures.requests += 1
        if r.status_code != 200:
            figures.errors.append(f"start -> {r.status_code} {r.text[:300]}")
            return figures
        await asyncio.gather(*(p.play(tid, deadline) for p in people))
        state: dict[str, Any] = {}
        while time.monotonic() < deadline:
            state = (await director.get(f"/api/online-tournaments/{tid}")).json()
            figures.requests += 1
            if state["status"] in ("finished", "cancelled"):
                break
            await asyncio.sleep(0.1)
        figures.tournament = state
        if state.get("status") != "finished":
            figures.errors.append(f"the tournament is {state.get('status')} after {timeout:g} s (round {state.get('round')})")
        pdf = await director.get(f"/api/online-tournaments/{tid}/ranking.pdf")
        figures.requests += 1
        if pdf.status_code != 200 or not pdf.content.startswith(b"%PDF"):
            figures.errors.append(f"ranking.pdf -> {pdf.status_code}")
        figures.pdf_bytes = len(pdf.content)
    finally:
        await asyncio.gather(director.aclose(), *(p.http.aclose() for p in people))
    figures.seconds = round(time.monotonic() - started, 2)
    return figures


def serve_app(db_url: str, clock_scale: float, tick: float) -> tuple[Any, str]:
    """The application on a free port in a thread (uvicorn), its clock ``clock_scale`` times real time, the per-address
    limits raised (every simulated player comes from 127.0.0.1): (the uvicorn server, its address)."""
    import uvicorn

    from skat.server import create_app
    from skat.server.limits import KEEP_ALIVE_SECONDS, Limits, Rate

    many = Rate(1_000_000, 1)
    app = create_app(db_url, limits=Limits(create=many, join=many, action=many, print=many, sockets_per_address=100_000))
    app.state.manager.clock_scale = clock_scale
    app.state.online.tick = tick
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning",
                                           timeout_keep_alive=KEEP_ALIVE_SECONDS))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    limit = time.time() + 60
    while not server.started:
        if time.time() > limit or not thread.is_alive():
            raise RuntimeError("the server did not start")
        time.sleep(0.05)
    server.thread = thread  # type: ignore[attr-defined]
    port = server.servers[0].sockets[0].getsockname()[1]
    return server, f"http://127.0.0.1:{port}"


def stop_app(server: Any) -> None:
    server.should_exit = True
    server.thread.join(15)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", type=int, default=60)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--games", type=int, default=6, help="games a table plays each round")
    ap.add_argument("--no-shows", type=int, default=2)
    ap.add_argument("--leavers", type=int, default=2)
    ap.add_argument("--db", default="sqlite", help="sqlite (a new file) or a PostgreSQL URL")
    ap.add_argument("--clock-scale", type=float, default=0.1, help="real seconds per clock second (a 5 s decision: 0.5 s)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=900.0)
    ap.add_argument("--out", default=str(OUT))
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{Path(tmp) / 'online.sqlite'}" if args.db == "sqlite" else args.db
        server, base = serve_app(url, args.clock_scale, 0.2)
        try:
            figures = asyncio.run(run_tournament(base, players=args.players, rounds=args.rounds, games=args.games,
                                                 no_shows=args.no_shows, leavers=args.leavers, seed=args.seed,
                                                 timeout=args.timeout))
        finally:
            stop_app(server)
    t = figures.tournament
    print(f"online tournament: {args.players} players ({args.no_shows} no-shows, {args.leavers} leavers), "
          f"{args.rounds} rounds of {args.games} games, {args.db.split(':')[0]}, clock x{args.clock_scale:g}")
    print(f"  time to the printed ranking  {figures.seconds:8.2f} s")
    print(f"  REST requests                {figures.requests:8d}")
    print(f"  WebSocket actions            {figures.actions:8d}   (stale answers: {figures.stale})")
    print(f"  errors                       {len(figures.errors):8d}")
    print(f"  status                       {t.get('status', '?'):>8}   tables per round: "
          f"{[len(s['tables']) for s in t.get('series', [])]}")
    print(f"  ranking PDF                  {figures.pdf_bytes:8d} bytes")
    for line in t.get("ranking", [])[:3]:
        print(f"    {line['rank']:3d}. {line['player']:<12} {line['points']:6d} SF  won {line['won']} lost {line['lost']}")
    for e in figures.errors[:20]:
        print("  ERROR", e)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    summary = {k: v for k, v in asdict(figures).items() if k not in ("tournament", "accounts")}
    summary.update(status=t.get("status"), db=args.db.split(":")[0], games=args.games, no_shows=args.no_shows,
                   leavers=args.leavers, clock_scale=args.clock_scale, ranking=t.get("ranking", [])[:10])
    (out / f"run-{args.players}p-{args.rounds}r-{args.db.split(':')[0]}.json").write_text(json.dumps(summary, indent=1))
    return 0 if not figures.errors and t.get("status") == "finished" else 1


if __name__ == "__main__":
    sys.exit(main())
