"""Which rating puts the computer players in order from their recorded arena games (not a test; prints figures).

    python bench/ratings.py                        # the default matches, lists of 1, 12 and 36 games, 10 orders
    python bench/ratings.py --lists 1,12 --orders 5 --plot /tmp/ratings.png
    python bench/ratings.py --files bench/data/arena/strong-medium-2031.jsonl ...

Each recorded duplicate deal holds six games, one per seating (one player alone in a seat, two copies of
the other in the two others). A *list* of N games is N consecutive deals' games of one seating in one
match: three seats with a fixed player each and the seats' SF points summed (N = 1: one game). The lists
of all matches are replayed in a random order (``--orders`` seeds) through every method of
:mod:`skat.ratings`; ``mean-sf`` (SF points per game) is the anchor measured in the same run. Printed per
method and list length: the final order's Kendall tau against strong > medium > easy > heuristic >
random (the arena's direct matches; ``tau29``: against issue 29's strong > medium > easy > heuristic > random),
how many orders end in exactly that order, the games after which the order is right and stays
right (median over the orders that end right; checked every ``--step`` games), and the spread (the top
mean minus the bottom, over the mean sigma). The last line is JSON with every figure.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from skat.ratings import METHODS, PairedGlicko, PlackettLuceRating, RatingMethod, Seat

LEVELS = ("strong", "medium", "heuristic", "easy", "random")
"""The expected order, best first: the arena's direct matches (heuristic beats easy by 11.5 SF points a game)."""
ISSUE_ORDER = ("strong", "medium", "easy", "heuristic", "random")
"""The order issue 29 assumed (easy above heuristic): its tau is printed beside."""

ARENA = Path(__file__).resolve().parent / "data" / "arena"
DEFAULT_FILES = (
    sorted(ARENA.glob("*.jsonl")) + sorted((ARENA / "ratings").glob("*.jsonl"))
    + [ARENA / "2026-11" / "medium-heuristic-2027.jsonl"]  # the only medium-heuristic match (older code)
)
"""The current matches of two levels (the dated folders hold older code's runs of the same seeds)."""

Result = tuple[list[Seat], int]

FACTORIES: dict[str, Callable[[], RatingMethod]] = {
    **METHODS,
    "plackett-luce/static": lambda: PlackettLuceRating(tau=0.0),  # no dynamics: sigma shrinks for ever
    "paired-glicko/static": lambda: PairedGlicko(drift=0.0),
}
"""The methods with their defaults, and the two online ones without dynamics (skill taken as fixed)."""


def load_lists(path: Path, n: int) -> list[Result]:
    """One match's lists of ``n`` games: per seating, ``n`` consecutive deals' games summed per seat."""
    lines = path.read_text().splitlines()
    players = json.loads(lines[0])["players"]
    by_seating: dict[tuple[int, ...], list[list[int]]] = {}
    for line in lines[1:]:
        for game in json.loads(line)["games"]:
            by_seating.setdefault(tuple(game["seating"]), []).append(game["sf"])
    lists: list[Result] = []
    for seating, games in sorted(by_seating.items()):
        for start in range(0, len(games), n):
            chunk = games[start:start + n]
            seats = [(players[seating[s]], float(sum(g[s] for g in chunk))) for s in range(3)]
            lists.append((seats, len(chunk)))
    return lists


def kendall_tau(order: Sequence[str], expected: Sequence[str] = LEVELS) -> float:
    """Kendall's tau of ``order`` (best first) against ``expected``, over the players in both."""
    common = [p for p in expected if p in order]
    position = {p: i for i, p in enumerate(order)}
    pairs = [(a, b) for i, a in enumerate(common) for b in common[i + 1:]]
    if not pairs:
        return 0.0
    agree = sum(1 if position[a] < position[b] else -1 for a, b in pairs)
    return agree / len(pairs)


def by_mean(method: RatingMethod) -> list[str]:
    """The players best first by their mean rating."""
    return [p for p, _ in sorted(method.ratings().items(), key=lambda kv: (-kv[1].mu, kv[0]))]


def replay(results: list[Result], make: Callable[[], RatingMethod], seed: int, step: int) -> dict[str, Any]:
    """Replay the results in the order of ``seed``; the order's history and the final ratings."""
    order = list(results)
    random.Random(seed).shuffle(order)
    method = make()
    games = checked = 0
    settled: int | None = None
    expected = list(LEVELS)
    for seats, n in order:
        method.update(seats, n)
        games += n
        if games - checked >= step or games == sum(k for _, k in order):
            checked = games
            right = by_mean(method) == expected
            settled = (settled if settled is not None else games) if right else None
    final = method.ratings()
    mus = [e.mu for e in final.values()]
    spread = (max(mus) - min(mus)) / statistics.fmean(e.sigma for e in final.values())
    return {"order": by_mean(method), "tau": kendall_tau(by_mean(method)),
            "tau_issue": kendall_tau(by_mean(method), ISSUE_ORDER), "settled": settled,
            "spread": spread, "games": games,
            "ratings": {p: (e.mu, e.sigma, e.conservative) for p, e in final.items()}}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", nargs="+", type=Path, default=DEFAULT_FILES)
    parser.add_argument("--lists", default="1,12,36", help="list lengths in games, comma-separated")
    parser.add_argument("--orders", type=int, default=10, help="random orders (seeds 0..)")
    parser.add_argument("--step", type=int, default=36, help="check the order every this many games")
    parser.add_argument("--methods", default=",".join(FACTORIES))
    parser.add_argument("--plot", type=Path, help="Kendall tau against games, one order (.png)")
    args = parser.parse_args(argv)
    pairs: Counter[str] = Counter()
    for path in args.files:
        header = json.loads(path.read_text().splitlines()[0])
        pairs["-".join(header["players"])] += 6 * (len(path.read_text().splitlines()) - 1)
    print("games per pair of levels (each match: one level alone against two copies of the other):")
    for pair, n in pairs.items():
        print(f"  {pair:<20} {n:>6}")
    figures: dict[str, Any] = {"games_per_pair": dict(pairs), "runs": []}
    print(f"\n{'method':<21}{'list':>5}{'tau':>7}{'tau29':>7}{'right':>7}{'settled (games)':>17}{'spread':>8}  final order (seed 0)")
    for n in (int(x) for x in args.lists.split(",")):
        results = [r for path in args.files for r in load_lists(path, n)]
        for name in args.methods.split(","):
            runs = [replay(results, FACTORIES[name], seed, max(args.step, n)) for seed in range(args.orders)]
            settled = [r["settled"] for r in runs if r["settled"] is not None]
            right = sum(r["order"] == list(LEVELS) for r in runs)
            median = f"{statistics.median(settled):.0f}" if settled else "never"
            span = f" [{min(settled)}-{max(settled)}]" if len(settled) > 1 else ""
            print(f"{name:<21}{n:>5}{statistics.fmean(r['tau'] for r in runs):>7.2f}"
                  f"{statistics.fmean(r['tau_issue'] for r in runs):>7.2f}{right:>4}/{args.orders:<2}"
                  f"{median + span:>17}{statistics.fmean(r['spread'] for r in runs):>8.1f}  "
                  + " > ".join(runs[0]["order"]))
            figures["runs"].append({"method": name, "list": n, "tau": [r["tau"] for r in runs], "right": right,
                                    "settled": [r["settled"] for r in runs], "ratings_seed0": runs[0]["ratings"],
                                    "spread": [r["spread"] for r in runs]})
    print("\nfinal ratings, seed 0 (mu, sigma, mu - 3 sigma):")
    for run in figures["runs"]:
        cells = "  ".join(f"{p} {m:.1f}±{s:.1f} ({c:.1f})" for p, (m, s, c)
                          in sorted(run["ratings_seed0"].items(), key=lambda kv: -kv[1][0]))
        print(f"  {run['method']:<21}{run['list']:>3}  {cells}")
    if args.plot:
        plot(args, args.plot)
    print(json.dumps(figures))
    return 0


def plot(args: argparse.Namespace, path: Path) -> None:
    """Kendall tau against the games replayed, seed 0, the first list length, every method."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    n = int(args.lists.split(",")[0])
    results = [r for p in args.files for r in load_lists(p, n)]
    order = list(results)
    random.Random(0).shuffle(order)
    fig, ax = plt.subplots(figsize=(8, 4))
    for name in args.methods.split(","):
        method = FACTORIES[name]()
        xs, ys, games = [], [], 0
        for seats, k in order:
            method.update(seats, k)
            games += k
            if len(xs) == 0 or games - xs[-1] >= args.step:
                xs.append(games)
                ys.append(kendall_tau(by_mean(method)))
        ax.plot(xs, ys, label=name)
    ax.set_xscale("log")
    ax.set_xlabel("games replayed (seed 0)")
    ax.set_ylabel("Kendall tau vs " + ">".join(LEVELS))
    ax.set_title(f"lists of {n} game(s)")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path)
    print(f"plot: {path}")


if __name__ == "__main__":
    sys.exit(main())
