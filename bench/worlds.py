"""How long a searching player takes to deal its pool of worlds (skat.players.worlds.sample_worlds).

For every decision of a few deals played by heuristic players (each seat's view in turn, the auction to the last
trick), deal a pool of worlds consistent with what the seat knows, as `strong` does before each card (240 worlds).
The figure is the median milliseconds a pool; the anchor, in the same run, is the same dealing by the plain Python
source of skat.players.dealing (what runs without a C compiler, and how the dealing ran before it was compiled).
Both deal the same worlds for the same seed (checked here on every pool, and in tests/test_players_worlds.py).

    python bench/worlds.py --deals 20 --pool 240
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from skat.deal.game import Game
from skat.players import worlds
from skat.players.heuristic import HeuristicPlayer
from skat.players.worlds import Knowledge, sample_worlds


def knowledge(deals: int, seed: int) -> list[Knowledge]:
    """What each seat knows at each decision of ``deals`` deals played by heuristic players."""
    out = []
    for d in range(deals):
        game = Game(seed=seed * 100_003 + d)
        players = [HeuristicPlayer(d * 3 + s) for s in range(3)]
        while not game.is_over:
            mover = game.to_move
            assert mover is not None
            out.append(Knowledge.from_view(game.view(mover)))
            game.apply(players[mover].choose(game.view(mover)), mover)
    return out


def plain_dealing() -> Any:
    """skat.players.dealing loaded from its ``.py`` source, whatever this install compiled, as it runs where
    Cython is not installed (with skat._cython_shim's placeholders: Cython's own pure-Python mode is slower)."""
    source = Path(worlds.__file__).with_name("dealing.py")
    spec = importlib.util.spec_from_file_location("skat_dealing_source", source)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    saved = sys.modules.get("cython")
    sys.modules["cython"] = None  # type: ignore[assignment]  # `import cython` fails: the shim stands in
    try:
        spec.loader.exec_module(module)
    finally:
        if saved is None:
            del sys.modules["cython"]
        else:
            sys.modules["cython"] = saved
    return module


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--pool", type=int, default=240, help="worlds a pool (strong: 240)")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    knows = knowledge(args.deals, args.seed)
    compiled, plain = worlds._dealing, plain_dealing()
    times: dict[str, list[float]] = {"compiled": [], "plain": []}
    for k, know in enumerate(knows):
        dealt = []
        for name, module in (("compiled", compiled), ("plain", plain)):
            worlds._dealing = module
            try:
                t0 = time.process_time()
                dealt.append(sample_worlds(know, args.pool, random.Random(k)))
                times[name].append(time.process_time() - t0)
            finally:
                worlds._dealing = compiled
        if dealt[0] != dealt[1]:
            raise SystemExit(f"decision {k}: the two dealings dealt different worlds")
    ms = {name: 1000 * statistics.median(xs) for name, xs in times.items()}
    print(f"{len(knows)} decisions of {args.deals} deals, a pool of {args.pool} worlds each, the same worlds both ways")
    print(f"  dealing (skat.players.dealing, compiled: {compiled.COMPILED})  {ms['compiled']:7.2f} ms median a pool")
    print(f"  anchor: its plain Python source                 {ms['plain']:7.2f} ms median a pool")
    print(f"  ratio {ms['plain'] / ms['compiled']:.1f}x")
    print(json.dumps({"decisions": len(knows), "pool": args.pool, "compiled": compiled.COMPILED,
                      "ms_median": ms["compiled"], "anchor_ms_median": ms["plain"],
                      "ratio": ms["plain"] / ms["compiled"]}))


if __name__ == "__main__":
    main()
