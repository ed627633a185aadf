"""Generate the card-play corpus the learned card-play model is trained on (skat.players.playcorpus).

Every deal is played to the end by the player (``strong`` by default) in all three seats; each card decision with a
choice is labelled by the player's own search (the mean value of every legal card over the worlds searched) and by
the deal's outcome. Seeded and numbered deals: the same command makes the same corpus on any machine (up to the
search's CPU-time budget), and a stopped run resumes where its file ends (a JSON-lines checkpoint whose header holds
the corpus parameters and the players' code fingerprint: a corpus is never mixed from two versions of the players).

    python tools/cardplay_corpus.py --deals 20 --out /tmp/play.jsonl                 # a quick one
    nice -n 19 python tools/cardplay_corpus.py --deals 20000 --workers 2 \\
        --out bench/data/corpus/play-2041.jsonl --pack                               # stop and resume at will
    python tools/cardplay_corpus.py --deals 200000 --ray auto --out ...              # on a Ray cluster
    python tools/cardplay_corpus.py --deals 2000 --start null --seed 2044 --out ...  # Null Hand deals only

``--pack`` writes OUT.gz beside it (the file to commit); a run with the same --out and no OUT goes on from it.
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
from collections import Counter
from pathlib import Path

from skat.players.arena import Checkpoint, arena_player, fill_checkpoint
from skat.players.playcorpus import PlayCorpusConfig, labelled_deals


def summary(deals: list[dict]) -> str:
    """Deals, labelled positions and contracts played."""
    labels = sum(len(d["labels"]) for d in deals)
    contracts = Counter((d["contract"] or "passed in").split()[0] for d in deals)
    won = sum(1 for d in deals if d["won"])
    declared = sum(1 for d in deals if d["declarer"] is not None)
    games = ", ".join(f"{k} {n}" for k, n in contracts.most_common())
    return (f"{len(deals)} deals, {labels} labelled card decisions; declared {declared}, won {won}; {games}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, required=True, help="deals in the corpus (numbered from 0)")
    parser.add_argument("--seed", type=int, default=2041)
    parser.add_argument("--player", default="strong", help="the player of all three seats (it labels, too)")
    parser.add_argument("--ruleset", default="isko2018")
    parser.add_argument("--start", choices=("auction", "null"), default="auction",
                        help="auction (default) or null: only deals with a Null hand, declared Null Hand")
    parser.add_argument("--out", required=True, help="the corpus file (JSON lines; resumed when it exists)")
    parser.add_argument("--workers", type=int, default=None, help="local processes (default: all cores)")
    parser.add_argument("--pack", action="store_true", help="also write the corpus gzipped beside it (OUT.gz)")
    parser.add_argument("--ray", default=None, metavar="ADDRESS", help="run as Ray tasks (local, auto or an address)")
    args = parser.parse_args(argv)
    if args.deals < 1:
        parser.error("--deals must be at least 1")
    config = PlayCorpusConfig(deals=args.deals, seed=args.seed, player=args.player, ruleset=args.ruleset,
                              start=args.start)
    out = Path(args.out)
    packed = out.with_name(out.name + ".gz")
    if not out.exists() and packed.exists():  # the committed corpus: go on from it
        out.write_bytes(gzip.decompress(packed.read_bytes()))
        print(f"unpacked {packed} to {out}", flush=True)
    try:
        arena_player(config.player, 0)
        saved = Checkpoint(out, config)
    except ValueError as exc:
        print(f"cardplay_corpus: {exc}", file=sys.stderr)
        return 2
    fill_checkpoint(config, saved, labelled_deals, workers=args.workers, ray_address=args.ray,
                    pack_to=packed if args.pack else None)
    print(summary([saved.deals[d] for d in sorted(saved.deals)]))
    print(json.dumps({"deals": len(saved.deals), "file": args.out, "seed": config.seed, "player": config.player}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
