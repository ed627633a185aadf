"""Complete random games per second through the public API, against OpenSpiel's skat.

Each round times our engine and OpenSpiel (``pyspiel.load_game("skat")``) back to back for the
same wall-clock budget, both driven from Python with uniformly random legal actions until
the game ends; the script prints every round, then the medians and the median ratio, and a
last line of JSON. OpenSpiel's skat skips bid values, hand games and scoring, so ours does
more work per game (it deals, bids over the 63 values, declares, plays ten tricks and scores).
The engine's core (``skat.deal._core``) runs compiled by Cython when installed with ``pip install -e .``;
the first line says whether it is (``SKAT_PURE_PYTHON=1`` measures the plain Python engine).

    python3 bench/engine.py [--rounds 7] [--seconds 2]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time

import skat
from skat.deal.game import COMPILED


def ours_games(seconds: float, rng: random.Random) -> float:
    n = 0
    seed = rng.getrandbits(32)
    start = time.perf_counter()
    deadline = start + seconds
    choice = rng.choice
    while time.perf_counter() < deadline:
        for _ in range(50):
            game = skat.Game(seed=seed + n)
            while not game.is_over:
                game.apply(choice(game.legal_actions()))
            assert game.result is not None
            n += 1
    return n / (time.perf_counter() - start)


def openspiel_games(seconds: float, rng: random.Random, game) -> float:
    n = 0
    start = time.perf_counter()
    deadline = start + seconds
    choice = rng.choice
    while time.perf_counter() < deadline:
        for _ in range(50):
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    state.apply_action(choice(state.chance_outcomes())[0])
                else:
                    state.apply_action(choice(state.legal_actions()))
            state.returns()
            n += 1
    return n / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--seconds", type=float, default=2.0)
    args = parser.parse_args()
    try:
        import pyspiel
    except ImportError:
        raise SystemExit("OpenSpiel is the anchor of this benchmark: pip install open-spiel") from None
    spiel_game = pyspiel.load_game("skat")
    print(f"engine core: {'compiled (Cython)' if COMPILED else 'plain Python'}")
    rng = random.Random(2026)
    ours_games(0.3, rng)
    openspiel_games(0.3, rng, spiel_game)
    rows = []
    for i in range(args.rounds):
        a = ours_games(args.seconds, rng)
        b = openspiel_games(args.seconds, rng, spiel_game)
        rows.append((a, b, a / b))
        print(f"round {i + 1}: skat {a:8.0f} games/s   openspiel {b:8.0f} games/s   ratio {a / b:.2f}")
    ours = statistics.median(r[0] for r in rows)
    theirs = statistics.median(r[1] for r in rows)
    ratio = statistics.median(r[2] for r in rows)
    print(f"median: skat {ours:.0f} games/s, openspiel {theirs:.0f} games/s, ratio {ratio:.2f} (goal >= 1.5)")
    print(json.dumps({"skat_games_per_s": round(ours), "openspiel_games_per_s": round(theirs),
                      "ratio": round(ratio, 3), "rounds": args.rounds, "seconds": args.seconds,
                      "compiled_core": COMPILED}))


if __name__ == "__main__":
    main()
