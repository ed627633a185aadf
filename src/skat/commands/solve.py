"""Double-dummy solver: reads a card-play position as JSON on stdin, prints its value as JSON.

Input fields: game (clubs, spades, hearts, diamonds, grand, null), declarer (seat 0, 1 or 2; 0 is
forehand), hands (three lists of the cards each seat still holds, ISS notation such as "CJ", "HT"),
trick (the cards already played to the current trick, in order), leader (the seat that led it,
or leads next when it is empty), declarer_points and defender_points (card points taken so far,
the skat or discard counted for the declarer), declarer_tricks and defender_tricks.

Output: to_move, declarer_points (the declarer's final card points under optimal play; for null,
declarer_wins instead) and moves: one object per legal card with its declarer_points (or
declarer_wins).  With --target N only whether the declarer reaches N card points (declarer_wins),
with --all-tricks whether he takes every trick.  Exit code 2 for a bad position; exit code 3 when
--node-limit or --time-limit stopped the search before it had an answer.
"""

from __future__ import annotations

import argparse
import json
import sys


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--target", type=int, default=None, metavar="N",
                        help="only answer whether the declarer reaches N card points (61 wins, 90 Schneider)")
    parser.add_argument("--all-tricks", action="store_true",
                        help="only answer whether the declarer takes every trick (Schwarz, ouvert)")
    parser.add_argument("--node-limit", type=int, default=None, metavar="N",
                        help="give up (exit code 3) after about N search nodes (some 10 million a second)")
    parser.add_argument("--time-limit", type=float, default=None, metavar="SECONDS",
                        help="give up (exit code 3) after about this many seconds of search")
    parser.add_argument("--indent", type=int, default=None, help="indent the JSON output")


def run(args: argparse.Namespace) -> int:
    from skat.solver.position import Position, PositionError  # the solver (numpy): imported only to solve
    from skat.solver.search import SearchLimitExceeded, solve

    text = sys.stdin.read()
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        print(f"skat solve: the input is not valid JSON: {exc}", file=sys.stderr)
        return 2
    try:
        position = Position.from_json(data)
        result = solve(position, target=args.target, all_tricks=args.all_tricks, node_limit=args.node_limit,
                       time_limit=args.time_limit)
    except (PositionError, ValueError) as exc:
        print(f"skat solve: {exc}", file=sys.stderr)
        return 2
    except SearchLimitExceeded as exc:
        print(f"skat solve: {exc}", file=sys.stderr)
        return 3
    print(json.dumps(result.to_json(), indent=args.indent))
    return 0
