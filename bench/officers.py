"""Strength of the Officers' Skat computer opponent against random play, per variant.

Each game is dealt from its own seed; the bot alternates seats (forehand/dealer). A game
counts as won by the bot when its score-sheet entry is higher than the random player's
(ties: equal entries, e.g. a Ramsch 60:60). The anchor is random against random on the
same deals (seat 0's player against seat 1's), measured in the same run.

    python bench/officers.py --games 500 --variants classic
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor

from skat.players.base import RandomPlayer
from skat.players.officers import OfficersBot
from skat.variants.officers import VARIANTS, OfficersGame


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a proportion."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return centre - half, centre + half


def one_game(args: tuple[str, int, bool]) -> tuple[int, int, float, int]:
    """(outcome for the tested side: 1 win, 0 tie, -1 loss; score difference; bot seconds; bot decisions)."""
    variant, seed, use_bot = args
    tested = seed % 2
    g = OfficersGame(variant, seed=seed)
    players = {tested: OfficersBot(seed=seed) if use_bot else RandomPlayer(seed=seed + 10**6),
               1 - tested: RandomPlayer(seed=seed)}
    spent, decisions = 0.0, 0
    while not g.is_over:
        s = g.to_move
        view = g.view(s)
        t = time.perf_counter()
        action = players[s].choose(view)
        if s == tested:
            spent += time.perf_counter() - t
            decisions += 1
        g.apply(action, s)
    mine, theirs = g.result.scores[tested], g.result.scores[1 - tested]
    return (mine > theirs) - (mine < theirs), mine - theirs, spent, decisions


def measure(variant: str, games: int, use_bot: bool, pool: ProcessPoolExecutor, first_seed: int) -> dict:
    results = list(pool.map(one_game, [(variant, first_seed + i, use_bot) for i in range(games)], chunksize=8))
    wins = sum(r[0] == 1 for r in results)
    ties = sum(r[0] == 0 for r in results)
    losses = games - wins - ties
    rate = (wins + 0.5 * ties) / games
    lo, hi = wilson(wins + 0.5 * ties, games)
    diffs = [r[1] for r in results]
    mean = statistics.fmean(diffs)
    sem = statistics.stdev(diffs) / math.sqrt(games) if games > 1 else 0.0
    ms = [1000 * r[2] / r[3] for r in results if r[3]]
    return {"wins": wins, "ties": ties, "losses": losses, "rate": rate, "ci": (lo, hi), "mean_diff": mean,
            "sem": sem, "ms_per_decision": statistics.median(ms) if ms else 0.0}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500, help="games per variant (default 500)")
    parser.add_argument("--variants", nargs="*", default=list(VARIANTS), choices=VARIANTS)
    parser.add_argument("--workers", type=int, default=None, help="processes (default: all cores)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first deal")
    args = parser.parse_args(argv)
    print(f"Officers' Skat: OfficersBot (samples=8, exact over the last 5 tricks, 2 tricks ahead with material 8 before) "
          f"against random play, {args.games} games per variant, seats alternating")
    print(f"{'variant':<10} {'side':<14} {'won':>5} {'tied':>5} {'lost':>5} {'win rate':>9} {'95% CI':>17} "
          f"{'score diff/game':>17} {'ms/decision':>12} {'ratio to anchor':>16}")
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        for variant in args.variants:
            anchor = measure(variant, args.games, False, pool, args.seed)
            bot = measure(variant, args.games, True, pool, args.seed)
            for name, m in (("random (anchor)", anchor), ("OfficersBot", bot)):
                ratio = m["rate"] / anchor["rate"] if anchor["rate"] else float("nan")
                print(f"{variant:<10} {name:<14} {m['wins']:>5} {m['ties']:>5} {m['losses']:>5} "
                      f"{m['rate']:>9.1%} [{m['ci'][0]:>6.1%}, {m['ci'][1]:>6.1%}] "
                      f"{m['mean_diff']:>+9.1f} ± {1.96 * m['sem']:<5.1f} {m['ms_per_decision']:>12.1f} "
                      f"{ratio:>16.2f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
