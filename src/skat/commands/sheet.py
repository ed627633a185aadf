"""The score keeper's list of a real table from a file of game entries (docs/keeper.md).

  skat sheet games.json            the list as players keep it, with running totals, the classic and
                                   Seeger-Fabian totals and the settlement
  skat sheet games.yaml --json     every game valued and explained, as JSON
  skat sheet games.json --csv      one line per game, for a spreadsheet

The file names the players (3, 4 or 5, in seating order), the rule set (``ruleset``, ``options``), the
first dealer, a price per point and the games, each as the keeper enters it: declarer, game, hand,
announcements, with/without N (or the declarer's 12 cards), card points or won/lost, bid, Kontra/Re;
"passed"; or a Ramsch with each player's card points. Every entry is checked: an impossible one stops
with exit status 2 and a message naming the game's number and the reason. YAML needs PyYAML.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from skat.table.keeper import KeeperError, ScoreKeeper


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.add_argument("file", help="the file of game entries: JSON, or YAML (.yaml, .yml);"
                                     " - reads JSON from stdin")
    out = parser.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true", help="print every game valued and the totals as JSON")
    out.add_argument("--csv", action="store_true", help="print one line per game as CSV")


def read_file(path: str) -> object:
    """The data of a keeper's file: JSON, or YAML by its suffix."""
    if path == "-":
        text = sys.stdin.read()
        suffix = ".json"
    else:
        try:
            text = Path(path).read_text(encoding="utf-8")
        except OSError as exc:
            raise KeeperError(f"cannot read {path}: {exc.strerror}") from None
        suffix = Path(path).suffix.lower()
    if suffix in (".yaml", ".yml"):
        try:
            import yaml
        except ImportError:
            raise KeeperError("reading YAML needs PyYAML (pip install pyyaml); or write the file as JSON") from None
        try:
            return yaml.safe_load(text)
        except yaml.YAMLError as exc:
            raise KeeperError(f"{path} is not valid YAML ({exc})") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise KeeperError(f"{path} is not valid JSON ({exc})") from None


def run(args: argparse.Namespace) -> int:
    try:
        keeper = ScoreKeeper.from_json(read_file(args.file), author="skat sheet")
    except KeeperError as exc:
        print(f"skat sheet: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(keeper.sheet_json(), indent=1, ensure_ascii=False))
    elif args.csv:
        sys.stdout.write(keeper.to_csv())
    else:
        print(keeper.format_text())
    return 0
