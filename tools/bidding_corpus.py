"""Generate the self-play corpus that bidding and contract choice are fitted on (skat.players.corpus).

Every candidate contract of every seat of every deal is played out with hidden cards by the card player
(``medium`` by default) in all three seats. Seeded and numbered deals: the same command makes the same
corpus on any machine, and a stopped run resumes where its file ends (a JSON-lines checkpoint whose header
holds the corpus parameters and the players' code fingerprint: a corpus is never mixed from two versions
of the players).

    python tools/bidding_corpus.py --deals 200 --out /tmp/corpus.jsonl            # a quick one
    nice -n 19 python tools/bidding_corpus.py --deals 20000 --workers 2 \\
        --out bench/data/corpus/bidding-2029.jsonl                                  # stop and resume at will
    python tools/bidding_corpus.py --deals 20000 --ray auto --out ...               # on a Ray cluster

The committed corpus is ``bench/data/corpus/bidding-2029.jsonl.gz`` (``--pack`` writes it); run with
``--out bench/data/corpus/bidding-2029.jsonl`` to go on from it.
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
from collections import defaultdict
from pathlib import Path

from skat.players.arena import Checkpoint, arena_player, fill_checkpoint
from skat.players.corpus import CorpusConfig, corpus_deals
from skat.rules.ranking import GameType


def summary(deals: list[dict]) -> str:
    """Contracts played and won per game type and hand/pickup."""
    played: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for deal in deals:
        for c in deal["contracts"]:
            key = f"{GameType(c['gt']).name.lower()}{' hand' if c['hand_game'] else ''}"
            played[key][0] += 1
            played[key][1] += c["won"]
    total = sum(n for n, _ in played.values())
    lines = [f"{len(deals)} deals, {total} contracts played out"]
    for key, (n, won) in sorted(played.items()):
        lines.append(f"  {key:14s} {n:6d} played, {won / n:6.1%} won")
    return "\n".join(lines)


def restamp(out: Path, config: CorpusConfig, packed: Path | None) -> int:
    """Rewrite the header's players fingerprint of corpus ``out`` to the current code's (see --restamp)."""
    if not out.exists():
        print(f"bidding_corpus: no corpus at {out} to restamp", file=sys.stderr)
        return 2
    header, _, rest = out.read_text().partition("\n")
    try:
        head = json.loads(header)
    except json.JSONDecodeError:
        head = None
    if not isinstance(head, dict) or "players_code" not in head:
        print(f"bidding_corpus: {out} has no corpus header line", file=sys.stderr)
        return 2
    for key, value in (("players", list(config.players)), ("seed", config.seed), ("ruleset", config.ruleset)):
        if head.get(key) != value:
            print(f"bidding_corpus: {out} is another corpus ({key} {head.get(key)!r}, not {value!r})",
                  file=sys.stderr)
            return 2
    old, head["players_code"] = head["players_code"], config.fingerprint()
    out.write_text(json.dumps(head) + "\n" + rest)
    print(f"restamped {out}: players code {old} -> {head['players_code']}")
    if packed is not None:
        packed.write_bytes(gzip.compress(out.read_bytes(), 9, mtime=0))
        print(f"packed to {packed} ({packed.stat().st_size} bytes)")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, required=True, help="deals in the corpus (numbered from 0)")
    parser.add_argument("--seed", type=int, default=2029)
    parser.add_argument("--card-player", default="medium", help="the player of every seat's cards")
    parser.add_argument("--ruleset", default="isko2018")
    parser.add_argument("--out", required=True, help="the corpus file (JSON lines; resumed when it exists)")
    parser.add_argument("--workers", type=int, default=None, help="local processes (default: all cores)")
    parser.add_argument("--pack", action="store_true",
                        help="also write the corpus gzipped beside it (OUT.gz: the file to commit; a later run "
                             "with the same --out and no OUT goes on from it)")
    parser.add_argument("--ray", default=None, metavar="ADDRESS", help="run as Ray tasks (local, auto or an address)")
    parser.add_argument("--restamp", action="store_true",
                        help="play nothing: take the corpus as made by the players' code as it is now (rewrite "
                             "the fingerprint in its header). Only after a change that leaves the card player, "
                             "the candidates and the discard as they were, e.g. another level's definition")
    args = parser.parse_args(argv)
    if args.deals < 1:
        parser.error("--deals must be at least 1")
    config = CorpusConfig(deals=args.deals, seed=args.seed, card_player=args.card_player, ruleset=args.ruleset)
    out = Path(args.out)
    packed = out.with_name(out.name + ".gz")
    if not out.exists() and packed.exists():  # the committed corpus: go on from it
        out.write_bytes(gzip.decompress(packed.read_bytes()))
        print(f"unpacked {packed} to {out}", flush=True)
    if args.restamp:
        return restamp(out, config, packed if args.pack else None)
    try:
        arena_player(config.card_player, 0)
        saved = Checkpoint(out, config)
    except ValueError as exc:
        print(f"bidding_corpus: {exc}", file=sys.stderr)
        return 2
    fill_checkpoint(config, saved, corpus_deals, workers=args.workers, ray_address=args.ray,
                    pack_to=packed if args.pack else None)
    print(summary([saved.deals[d] for d in sorted(saved.deals)]))
    print(json.dumps({"deals": len(saved.deals), "file": args.out, "seed": config.seed,
                      "card_player": config.card_player}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
