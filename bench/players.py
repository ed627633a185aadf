"""Strength and speed of the computer players (not a test; prints figures).

    python bench/players.py                       # defaults below, all local cores
    python bench/players.py --random-deals 300 --strong-deals 2000 --timing-deals 20
    python bench/players.py --random-deals 0 --timing-deals 0 --checkpoint strong.jsonl   # stop and resume

1. ``heuristic`` vs ``random``: duplicate arena, SF points per game with the 95 % CI.
2. ``strong`` vs ``heuristic`` (the goal: >= +10 SF points per game, CI above zero, >= 2,000 deals).
3. Decision time of ``strong`` on one core: median and p95 per card, and per bidding/skat
   decision, against the anchor ``heuristic`` measured in the same run (ratio); the solver's
   one-time load in a fresh process is reported apart.
The last line is JSON with every figure.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

from skat.deal.game import Game, Phase
from skat.players import make_player
from skat.players.arena import ArenaConfig, format_summary, run_match
from skat.solver import warm_up


def timing(name: str, deals: int, seed: int) -> dict[str, float]:
    """Median and p95 seconds per decision of ``name`` in seat 0 against two heuristic players."""
    cards: list[float] = []
    contracts: list[float] = []
    for d in range(deals):
        for seat in range(3):
            game = Game(seed=seed * 100_003 + d)
            players = [make_player(name if s == seat else "heuristic", d * 3 + s) for s in range(3)]
            while not game.is_over:
                s = game.to_move
                view = game.view(s)
                t0 = time.perf_counter()
                action = players[s].choose(view)
                dt = time.perf_counter() - t0
                if s == seat and len(view.legal_actions) > 1:
                    (cards if view.phase is Phase.PLAY else contracts).append(dt)
                game.apply(action, s)

    def q(xs: list[float], f: float) -> float:
        xs = sorted(xs)
        return xs[min(len(xs) - 1, int(f * len(xs)))] if xs else 0.0

    return {"card_median_s": statistics.median(cards) if cards else 0.0, "card_p95_s": q(cards, 0.95),
            "card_max_s": max(cards, default=0.0), "cards": len(cards),
            "bidding_median_s": statistics.median(contracts) if contracts else 0.0,
            "bidding_p95_s": q(contracts, 0.95), "bidding_max_s": max(contracts, default=0.0),
            "bidding_decisions": len(contracts)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--random-deals", type=int, default=300)
    parser.add_argument("--strong-deals", type=int, default=2000)
    parser.add_argument("--strong", default="strong", help="the player measured against heuristic")
    parser.add_argument("--timing-deals", type=int, default=10)
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--checkpoint", metavar="FILE", default=None,
                        help="keep the strong match's finished deals in FILE and resume from it (hours on 2 cores)")
    args = parser.parse_args()
    out: dict[str, object] = {}
    if args.random_deals:
        s = run_match(ArenaConfig(("heuristic", "random"), args.random_deals, args.seed), workers=args.workers)
        print(format_summary(s), flush=True)
        out["heuristic_vs_random"] = {"deals": s["deals"], "diff": s["difference"]["mean"],
                                      "ci95": s["difference"]["ci95"], "illegal": s["illegal_actions"]}
    if args.strong_deals:
        s = run_match(ArenaConfig((args.strong, "heuristic"), args.strong_deals, args.seed), workers=args.workers,
                      checkpoint=args.checkpoint)
        print(format_summary(s), flush=True)
        out[f"{args.strong}_vs_heuristic"] = {
            "deals": s["deals"], "diff": s["difference"]["mean"], "ci95": s["difference"]["ci95"],
            "illegal": s["illegal_actions"],
            "sf_per_game": {k: v["sf_per_game"] for k, v in s["per_player"].items()},
            "declarer_win_rate": {k: v["declarer_win_rate"] for k, v in s["per_player"].items()},
            "declare_rate": {k: v["declare_rate"] for k, v in s["per_player"].items()}}
    if args.timing_deals:
        load = warm_up()  # a process loads the solver once; not a decision's time
        print(f"solver kernels loaded in {load:.2f} s (once per process)", flush=True)
        anchor = timing("heuristic", args.timing_deals, args.seed)
        strong = timing(args.strong, args.timing_deals, args.seed)
        ratio = strong["card_median_s"] / anchor["card_median_s"] if anchor["card_median_s"] else float("inf")
        print(f"{args.strong}: {1000 * strong['card_median_s']:.0f} ms median per card "
              f"(p95 {1000 * strong['card_p95_s']:.0f} ms, max {1000 * strong['card_max_s']:.0f} ms, "
              f"{strong['cards']} cards), bidding/skat {1000 * strong['bidding_median_s']:.0f} ms median "
              f"(p95 {1000 * strong['bidding_p95_s']:.0f} ms, max {1000 * strong['bidding_max_s']:.0f} ms); "
              f"anchor heuristic {1000 * anchor['card_median_s']:.2f} ms per card, ratio {ratio:.0f}x", flush=True)
        out["timing"] = {args.strong: strong, "heuristic": anchor, "ratio_card_median": ratio,
                         "solver_load_s": load}
    print(json.dumps(out))


if __name__ == "__main__":
    main()
