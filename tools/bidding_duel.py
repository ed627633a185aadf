"""Duplicate duels of bidders on the bidding corpus (skat.players.duel): bidding and contract choice alone.

Each deal's auction is played with the real rules, the winner chooses hand game or pickup, discard and
game, and the outcome is the corpus's play of that contract at the bid reached. By default the duel is
judged on the deals tools/train_bidding.py holds out (the last fifth), so a model is never judged on
the deals it was fitted on.

    python tools/bidding_duel.py bench/data/corpus/bidding-2029.jsonl.gz --a learned --b heuristic
    python tools/bidding_duel.py bench/data/corpus/bidding-2029.jsonl.gz --ablation

--ablation prints the gain of each part of the learned bidder: the whole against the heuristic's
bidding (what ``medium`` bids with), and the full learned bidder against itself without one part.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from skat.players.duel import ABLATION, HELD_OUT, bidder_factory, duel, format_duel, held_out, read_corpus


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("corpus", type=Path)
    parser.add_argument("--a", default="learned", help="bidder A: heuristic, learned or learned:KEY=VALUE,...")
    parser.add_argument("--b", default="heuristic", help="bidder B (as --a)")
    parser.add_argument("--held-out", type=float, default=HELD_OUT,
                        help="judge on this share of the deals, the last ones (1: all of them)")
    parser.add_argument("--ablation", action="store_true", help="the table of the learned bidder's parts")
    parser.add_argument("--json", type=Path, default=None, help="write the summaries as JSON")
    args = parser.parse_args(argv)
    if not 0 < args.held_out <= 1:
        parser.error(f"--held-out must be above 0 and at most 1, not {args.held_out}")
    if not args.corpus.exists():
        parser.error(f"no corpus at {args.corpus}")
    deals = read_corpus(args.corpus)
    judged = held_out(deals, args.held_out)
    if len(judged) < 2:
        print(f"bidding_duel: {len(judged)} deals are too few for a duel", file=sys.stderr)
        return 2
    rows = ABLATION if args.ablation else (("duel", args.a, args.b),)
    try:
        makers = [(what, a, b, bidder_factory(a), bidder_factory(b)) for what, a, b in rows]
    except ValueError as e:
        parser.error(str(e))
    print(f"{len(judged)} deals judged, of the {len(deals)} in {args.corpus} (numbers {judged[0].deal} and up)")
    out = []
    for what, a, b, make_a, make_b in makers:
        started = time.process_time()
        summary = duel(judged, make_a, make_b)
        summary.update(what=what, a=a, b=b, cpu_s=round(time.process_time() - started, 1))
        out.append(summary)
        if not args.ablation:
            print(format_duel(summary, (a, b)))
    if args.ablation:
        print(f"{'part of the learned bidder':46s} {'gain':>7s}  {'95 % interval':17s} {'declares A/B':>13s}")
        for s in out:
            d, (pa, pb) = s["difference"], s["players"]
            print(f"{s['what']:46s} {d['mean']:+7.2f}  [{d['ci95'][0]:+6.2f}, {d['ci95'][1]:+6.2f}]  "
                  f"{pa['declare_rate']:6.1%}/{pb['declare_rate']:.1%}")
        print("gain: SF points per game, A minus B, card play the corpus's (medium); "
              f"{out[0]['missing']} deals left out in the first row (a contract the corpus did not play)")
    if args.json:
        args.json.write_text(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
