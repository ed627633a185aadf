"""Duplicate match between two players: each deal is played six times, each player alone in each
seat against two copies of the other, with the same cards and random seeds (common random numbers).
Prints Seeger-Fabian points per game, the paired difference with its 95 % confidence interval,
declarer win rate, declare frequency, decision time and illegal actions; writes JSON and a plot."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from skat.players.arena import STARTS, ArenaConfig, format_summary, plot_cumulative, run_match, write_json
from skat.players.registry import OWN_BOT_FORMS, PLAYER_NAMES


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--players", required=True, metavar="A,B",
                        help=f"two players, e.g. strong,heuristic: {', '.join(PLAYER_NAMES)}, or a bot of your "
                             f"own ({OWN_BOT_FORMS}: called with a seed, returns an object with choose(view))")
    parser.add_argument("--deals", type=int, default=100, help="number of deals (each is played 6 times)")
    parser.add_argument("--seed", type=int, default=0, help="match seed: deals and player seeds derive from it")
    parser.add_argument("--ruleset", default="isko2018", help="rule set name (default isko2018)")
    parser.add_argument("--set", action="append", default=[], metavar="OPTION=VALUE",
                        help="change one rule option on top of the rule set (repeatable), e.g. schieberamsch=true; "
                             "skat rules show NAME lists them")
    parser.add_argument("--table", type=int, choices=(3, 4, 5), default=3,
                        help="score as at a table of this many players (4, 5: a lost game gives each defender 30 "
                             "instead of 40); the deals are played by three either way")
    parser.add_argument("--start", choices=tuple(STARTS), default="auction",
                        help="how every deal starts: auction (default); ramsch: a Ramsch without an auction, as in a "
                             "Ramsch round (a rule set with Ramsch, e.g. --ruleset pub); null: the hand that suits "
                             "Null best declares Null Hand. ramsch and null measure that card play alone")
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--workers", type=int, default=None, help="local processes (default: all cores)")
    where.add_argument("--ray", metavar="ADDRESS", default=None,
                       help="run on a Ray cluster at ADDRESS ('auto', 'ray://host:10001'; 'local' starts one)")
    parser.add_argument("--json", metavar="FILE", default=None, help="write the statistics as JSON")
    parser.add_argument("--plot", metavar="FILE", default=None,
                        help="plot of the cumulative difference (.png or .svg; default: next to --json)")
    parser.add_argument("--checkpoint", metavar="FILE", default=None,
                        help="save each finished deal to FILE (JSON lines) and resume from it: a long match "
                             "can be stopped and continued later")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")


def run(args: argparse.Namespace) -> int:
    names = [p.strip() for p in args.players.split(",") if p.strip()]
    try:
        config = ArenaConfig(players=tuple(names), deals=args.deals, seed=args.seed, ruleset=args.ruleset,
                             options=tuple(args.set), start=args.start, table=args.table)
        if args.workers is not None and args.workers < 1:
            raise ValueError(f"--workers must be at least 1, got {args.workers}")
        summary = run_match(config, workers=args.workers, ray_address=args.ray, progress=not args.quiet,
                            checkpoint=args.checkpoint)
    except (ValueError, RuntimeError) as exc:
        print(f"skat arena: {exc}", file=sys.stderr)
        return 2
    print(format_summary(summary))
    plot = args.plot
    if plot is None and args.json:
        plot = str(Path(args.json).with_suffix(".png"))
    if plot:
        summary["plot"] = str(plot_cumulative(summary, plot))
        print(f"plot: {summary['plot']}")
    if args.json:
        write_json(summary, args.json)
        print(f"json: {args.json}")
    return 0 if summary["illegal_actions"] == 0 else 1
