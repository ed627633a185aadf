"""A duplicate match of two players that differ only before the card play, played only where they differ.

Two players whose card play is the same code (a ``strong`` with another bidder against ``strong``) play the same
game from the same auction: the arena seeds a seat's player the same whichever player sits there. So a deal whose
auction, skat decision, discard and declaration come out the same in all six seatings of the duplicate match
scores the same for both, and adds 0 to the difference. This replays only the part before the card play of every
deal in every seating (milliseconds a deal), plays the deals where something differs with the arena
(:func:`skat.players.arena.play_deal`), and counts the others as 0: the match's mean difference and its 95 %
interval over all the deals, in a fraction of the arena's time. A sample of the deals that do not differ is played
too (``--check``), to show that they really score 0 (a decision that runs out of time may differ).

    python tools/bidding_screen.py skat.players.ablation:strong_calibrated_bidding strong --deals 1000 --seed 2069 \\
        --data bench/data/arena/bidding
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from pathlib import Path
from typing import Any

from skat.deal.game import Phase
from skat.players.arena import (
    SEATINGS,
    ArenaConfig,
    arena_player,
    derive_seed,
    new_game,
    play_deal,
    run_deals,
    summarize,
)


def before_play(config: ArenaConfig, deal: int, seating: tuple[int, int, int]) -> tuple[str, ...]:
    """Every action before the card play of ``deal`` in ``seating`` (the auction, the skat, the discard and the
    declaration), as the arena's players decide them."""
    names = config.players
    players = [arena_player(names[who], derive_seed("player", config.seed, deal, seat))
               for seat, who in enumerate(seating)]
    game = new_game(derive_seed("deal", config.seed, deal), config.rules(), config.start)
    actions = []
    while not game.is_over and game.phase is not Phase.PLAY:
        seat = game.to_move
        assert seat is not None
        action = players[seat].choose(game.view(seat))
        actions.append(f"{seat}:{action}")
        game.apply(action, seat)
    return tuple(actions)


def differs(config: ArenaConfig, deal: int) -> bool:
    """Whether any seating of ``deal`` reaches the card play otherwise than the table of the second player alone."""
    alone = before_play(config, deal, (1, 1, 1))
    return any(before_play(config, deal, seating) != alone for seating in SEATINGS)


def _difference(config: ArenaConfig, record: dict[str, Any]) -> float:
    """A played deal's difference as the arena counts it (:func:`skat.players.arena.summarize`)."""
    return float(summarize(config, [record])["per_deal_difference"][0])


def _play(config: ArenaConfig, deals: list[int]) -> list[dict[str, Any]]:
    return [play_deal(config, d) for d in deals]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("a", help="player A (the changed bidder)")
    parser.add_argument("b", help="player B, whose card play A shares")
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=2069)
    parser.add_argument("--check", type=int, default=10, help="deals that do not differ played too, to check the 0")
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--data", type=Path, help="keep the played deals here (A-B-SEED-screen.jsonl), resumable")
    args = parser.parse_args(argv)
    config = ArenaConfig((args.a, args.b), args.deals, args.seed)
    started = time.perf_counter()
    differing = [d for d in range(args.deals) if differs(config, d)]
    same = sorted(set(range(args.deals)) - set(differing))
    checks = sorted(random.Random(args.seed).sample(same, min(args.check, len(same))))
    print(f"{len(differing)} of {args.deals} deals reach the card play otherwise ({time.perf_counter() - started:.0f} "
          f"s); playing them and {len(checks)} that do not", flush=True)
    played: dict[int, dict[str, Any]] = {}
    path = None
    if args.data:
        args.data.mkdir(parents=True, exist_ok=True)
        short = [n.rsplit(":", 1)[-1].replace("_", "-") for n in config.players]
        path = args.data / f"{short[0]}-{short[1]}-{args.seed}-screen.jsonl"
        if path.exists():
            for line in path.read_text().splitlines()[1:]:
                record = json.loads(line)
                played[record["deal"]] = record
        else:
            path.write_text(json.dumps({"skat_bidding_screen": 1, "players": list(config.players),
                                        "seed": args.seed, "deals": args.deals}) + "\n")
    todo = [d for d in differing + checks if d not in played]

    def finished(chunk: list[dict[str, Any]]) -> None:
        for record in chunk:
            played[record["deal"]] = record
            if path is not None:
                with path.open("a") as out:
                    out.write(json.dumps(record, separators=(",", ":")) + "\n")
        print(f"  {len(played)}/{len(differing) + len(checks)} played", flush=True)

    if todo:
        run_deals(config, todo, finished, work=_play, workers=args.workers)
    diffs = [_difference(config, played[d]) if d in differing else 0.0 for d in range(args.deals)]
    n = len(diffs)
    mean = sum(diffs) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in diffs) / (n - 1)) if n > 1 else 0.0
    half = 1.96 * sd / math.sqrt(n)
    check = [_difference(config, played[d]) for d in checks]
    illegal = sum(sum(g["illegal"]) for d in differing + checks for g in played[d]["games"])
    summary = {"players": list(config.players), "seed": args.seed, "deals": n, "differing": len(differing),
               "diff": mean, "ci95": [mean - half, mean + half], "differing_mean": (
                   sum(diffs[d] for d in differing) / len(differing) if differing else 0.0),
               "checked": len(checks), "checked_nonzero": sum(1 for x in check if x != 0.0),
               "checked_max_abs": max((abs(x) for x in check), default=0.0), "illegal": illegal,
               "wall_s": time.perf_counter() - started}
    print(f"{args.a} - {args.b}: {mean:+.2f} [{mean - half:+.2f}, {mean + half:+.2f}] SF points a game over {n} deals "
          f"({len(differing)} differ before the card play, {summary['differing_mean']:+.2f} a deal there); "
          f"{len(checks)} deals that do not differ, played: {summary['checked_nonzero']} not 0 (largest "
          f"{summary['checked_max_abs']:.2f}); {illegal} illegal actions")
    print(json.dumps(summary))
    if path is not None:
        path.with_suffix(".json").write_text(json.dumps(summary, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
