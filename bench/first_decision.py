"""How long a newcomer waits after the README's install (issue 32: the first computer decision at a new table in at
most 3 s; ``skat --help`` in at most 0.3 s). Not a test; prints figures.

    python bench/first_decision.py                      # a fresh clone and venv in a temporary folder (minutes)
    python bench/first_decision.py --venv /tmp/v        # an existing venv with skat installed (its caches as they are)

From a fresh virtual environment with empty caches (a clone of this repository's HEAD, ``pip install -e .`` as the
README says, ``NUMBA_CACHE_DIR`` and the data directory empty): the wall time of ``skat --help``, then
``skat play --no-browser`` (its default pause of 0.8 s per computer decision) started ``--plays`` times on a new
database each, the first right after the install. For each start: the seconds from starting the process until it
prints the table's address; from the page's connection (its hello) until the first computer decision (middlehand's
first bid to the person at forehand), and, while the person passes and plays its first legal card, the first
computer card (the first search with the solver) beyond the pause.

Anchor, measured in the same venv: ``python -c pass`` (the interpreter's own start).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import aiohttp

ROOT = Path(__file__).resolve().parent.parent
PAUSE = 0.8  # skat play's --bot-delay default


def wall(cmd: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True, timeout=300)
    return time.perf_counter() - start


async def person(url: str) -> tuple[float, float]:
    """Open the table as its person; (seconds until the first computer decision, the first computer card's wait
    beyond the pause)."""
    base, rest = url.split("/t/")
    table_id, token = rest.split("#token=")
    first_decision = first_card = None
    async with aiohttp.ClientSession() as session, session.ws_connect(
            f"{base.replace('http', 'ws', 1)}/ws/{table_id}") as ws:
        opened = time.perf_counter()
        await ws.send_str(json.dumps({"type": "hello", "protocol": 1, "token": token}))
        turn: float | None = None  # when a computer's card became due
        turn_cards = 0  # the cards played by then
        while first_card is None:
            m = json.loads(await asyncio.wait_for(ws.receive_str(), 600))
            if m["type"] == "error":
                raise RuntimeError(f"the server refused the person's action: {m}")
            if m["type"] != "state" or m["view"] is None:
                continue
            now, v = time.perf_counter(), m["view"]
            if first_decision is None and v["auction"]:
                first_decision = now - opened
            if turn is not None and v["phase"] == "play":
                played = sum(len(t["cards"]) if isinstance(t, dict) else 3 for t in v["tricks"]) + len(v["trick"])
                if played > turn_cards:
                    first_card = max(0.0, now - turn - PAUSE)
                    break
            if v["phase"] == "finished":
                await ws.send_str(json.dumps({"type": "next_deal"}))
            elif v["to_move"] == v["seat"] and v["legal_actions"]:
                legal = v["legal_actions"]
                await ws.send_str(json.dumps({"type": "action", "action": "pass" if "pass" in legal else legal[0],
                                              "seq": m["seq"]}))
            elif v["phase"] == "play" and v["to_move"] is not None and turn is None:
                turn = now
                turn_cards = sum(len(t["cards"]) if isinstance(t, dict) else 3 for t in v["tricks"]) + len(v["trick"])
    assert first_decision is not None
    return first_decision, first_card


def one_play(python: str, env: dict[str, str], folder: str, n: int) -> dict[str, float]:
    db = os.path.join(folder, f"play{n}.sqlite")
    started = time.perf_counter()
    proc = subprocess.Popen([python, "-m", "skat", "play", "--no-browser", "--db", db], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        assert proc.stdout is not None
        url = ""
        for line in proc.stdout:
            if line.startswith("Your table:"):
                url = line.split("Your table:")[1].strip()
                break
        if not url:
            raise SystemExit(f"skat play printed no table (exit {proc.wait(10)})")
        address = time.perf_counter() - started
        decision, card = asyncio.run(person(url))
        return {"address_s": address, "first_decision_s": decision, "first_card_beyond_pause_s": card}
    finally:
        proc.terminate()
        proc.wait(20)


def fresh_venv(folder: str) -> str:
    clone = os.path.join(folder, "skat")
    subprocess.run(["git", "clone", "-q", str(ROOT), clone], check=True)
    venv = os.path.join(clone, ".venv")
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "venv", venv], check=True)
    subprocess.run([os.path.join(venv, "bin", "pip"), "install", "-q", "-e", clone], check=True, cwd=clone)
    print(f"install (venv + pip install -e .): {time.perf_counter() - started:.0f} s", flush=True)
    return venv


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--venv", help="a venv with skat installed (default: a fresh clone and venv)")
    parser.add_argument("--plays", type=int, default=3, help="skat play starts, the first right after the install")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        venv = args.venv or fresh_venv(folder)
        python = os.path.join(venv, "bin", "python")
        env = {**os.environ, "NUMBA_CACHE_DIR": os.path.join(folder, "numba-cache"),
               "XDG_DATA_HOME": os.path.join(folder, "data"), "XDG_STATE_HOME": os.path.join(folder, "state")}
        env.pop("PYTHONPATH", None)
        anchor = statistics.median(wall([python, "-c", "pass"], env) for _ in range(5))
        help_first = wall([python, "-m", "skat", "--help"], env)
        help_later = statistics.median(wall([python, "-m", "skat", "--help"], env) for _ in range(5))
        plays = [one_play(python, env, folder, n) for n in range(args.plays)]
    print(f"anchor python -c pass: {anchor:.3f} s")
    print(f"skat --help: first {help_first:.2f} s, then {help_later:.2f} s median "
          f"({help_later / anchor:.1f}x the anchor; goal 0.3 s)")
    for n, p in enumerate(plays):
        print(f"skat play #{n + 1}{' (right after the install)' if n == 0 and not args.venv else ''}: address after "
              f"{p['address_s']:.1f} s; first computer decision {p['first_decision_s']:.2f} s after the page opened "
              f"(goal 3 s, the {PAUSE} s pause included); first computer card {p['first_card_beyond_pause_s']:.2f} s "
              f"beyond the pause")
    print(json.dumps({"anchor_s": anchor, "help_first_s": help_first, "help_s": help_later, "plays": plays}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
