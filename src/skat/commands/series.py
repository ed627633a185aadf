"""Play a whole series (a list) at a table of 3, 4 or 5 computer players and print the score sheet.

Example: ``skat series --players 4 --ruleset pub --games 48 --seed 7 --json``. Options of the
rule set can be changed one by one: ``--set kontra=true --set ramsch_scoring=fixed``; each value is
checked against the option (``skat rules show pub`` lists the options and what they accept). The same
seed deals the same cards, so two tables can play exactly the same series.
"""

from __future__ import annotations

import argparse
import json
import sys

from skat.rules.rulesets import PRESETS, SCHEMA, RuleSetError, get_ruleset
from skat.table.series import Table, TableError

DEFAULT_BOT = "heuristic"
"""The computer player a series uses when it is registered; ``random`` otherwise."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--players", type=int, default=3, help="players at the table: 3, 4 or 5 (default 3)")
    parser.add_argument("--ruleset", default="isko", help=f"rule set: {', '.join(sorted(PRESETS))} (default isko)")
    parser.add_argument("--games", type=int, default=None, help="games in the series (default 12 per player)")
    parser.add_argument("--seed", type=int, default=None, help="seed of the deals and the players")
    parser.add_argument("--bot", default=None, help=f"computer player (default {DEFAULT_BOT} if available, else random)")
    parser.add_argument("--names", default=None, help="comma-separated player names in seat order")
    parser.add_argument("--set", action="append", default=[], metavar="OPTION=VALUE",
                        help="change one rule option on top of the preset (repeatable): true/false, a number, "
                             "a word, or a comma list (bid_values=18,20,22); skat rules show NAME lists them")
    parser.add_argument("--json", action="store_true", help="print the score sheet as JSON")
    parser.add_argument("--show-rules", action="store_true",
                        help="print every option of the rule set with its documentation, and stop")


def _bot_name(requested: str | None) -> str:
    from skat.players.registry import make_player

    if requested:
        return requested
    try:
        make_player(DEFAULT_BOT, 0)
    except ValueError:
        return "random"
    return DEFAULT_BOT


def run(args: argparse.Namespace) -> int:
    from skat.players.registry import make_player

    try:
        rules = get_ruleset(args.ruleset)
        changes = SCHEMA.parse_assignments(args.set)
        if changes:
            rules = rules.replace(**changes)
        names = args.names.split(",") if args.names else [f"P{i + 1}" for i in range(args.players)]
        if args.names and len(names) != args.players:
            raise TableError(f"--names gives {len(names)} names for --players {args.players}")
        if args.show_rules:
            print(f"{rules.name}: {rules.description}")
            for option, value, doc in rules.describe()[2:]:
                shown = list(value) if isinstance(value, tuple) and len(value) > 8 else value
                if isinstance(shown, list) and len(shown) > 8:
                    shown = f"{shown[:4]} ... {shown[-1]} ({len(shown)} values)"
                print(f"  {option} = {shown}\n      {doc}")
            return 0
        table = Table(names, ruleset=rules, seed=args.seed, games=args.games)
        bot = _bot_name(args.bot)
        players = [make_player(bot, table.seed + i) for i in range(table.size)]
    except (RuleSetError, TableError, ValueError, TypeError) as exc:
        print(f"skat series: {exc}", file=sys.stderr)
        return 2
    sheet = table.play(players)
    if args.json:
        out = sheet.to_json()
        out["seed"] = table.seed
        out["bot"] = bot
        out["rules"] = rules.to_json()
        print(json.dumps(out, indent=1))
    else:
        print(f"rule set {rules.name}, seed {table.seed}, {table.games} games, players: {bot}")
        print(sheet.format_table())
    return 0
