"""Screen one role's card play: a candidate against a reference as the declarer or as the defenders, on the same
contracts (skat.players.screen); or, with --role discard, the declarer's discard and declaration after the pickup.

Each deal is bid by the reference in every seat, then played twice from the same position: the candidate in the
role, and the reference there. Two games a deal where an arena match plays six, and only the role screened
differs, so a change to the declarer's (or the defenders') play is seen with far fewer games; an arena match
(bench/players.py) still measures the player as a whole. Seeded and numbered deals; a stopped run resumes from
its file (a JSON-lines checkpoint whose header holds the players' code fingerprint).

    python tools/role_screen.py --candidate skat.players.ablation:strong_declarer_worlds --role declarer \\
        --deals 1000 --seed 3001 --workers 2 --out bench/data/screen/declarer-worlds-3001.jsonl
    python tools/role_screen.py --candidate skat.players.ablation:strong_searched_discard --role discard \
        --deals 1000 --seed 3005 --workers 2 --out bench/data/screen/searched-discard-3005.jsonl
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from skat.players.arena import Checkpoint, arena_player, fill_checkpoint
from skat.players.screen import ROLES, ScreenConfig, format_screen, screen_deals, summarize_screen


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--candidate", required=True, help="the player screened (a level, module:factory or file.py:Class)")
    parser.add_argument("--reference", default="strong", help="the player it is compared with, who also bids (strong)")
    parser.add_argument("--role", choices=ROLES, required=True, help="the role whose card play is screened (discard: the declarer's discard and declaration)")
    parser.add_argument("--deals", type=int, required=True, help="deals to screen (numbered from 0)")
    parser.add_argument("--seed", type=int, default=3001)
    parser.add_argument("--ruleset", default="isko2018")
    parser.add_argument("--out", required=True, help="the screen's checkpoint (JSON lines; resumed when it exists)")
    parser.add_argument("--json", default=None, help="also write the summary here")
    parser.add_argument("--workers", type=int, default=None, help="local processes (default: all cores)")
    parser.add_argument("--ray", default=None, metavar="ADDRESS", help="run as Ray tasks (local, auto or an address)")
    args = parser.parse_args(argv)
    try:
        config = ScreenConfig((args.candidate, args.reference), args.role, args.deals, args.seed, args.ruleset)
        for name in config.players:  # a bad name fails here, before any process starts
            arena_player(name, 0)
        saved = Checkpoint(args.out, config)
    except (ValueError, KeyError) as exc:
        print(f"role_screen: {exc}", file=sys.stderr)
        return 2
    fill_checkpoint(config, saved, screen_deals, workers=args.workers, ray_address=args.ray)
    summary = summarize_screen(config, list(saved.deals.values()))
    print(format_screen(summary))
    if args.json:
        Path(args.json).write_text(json.dumps(summary, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
