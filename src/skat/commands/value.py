"""Game-value calculator for keeping score at a real table.

Reads one JSON object on stdin with the fields of a game_value test vector
(game, declarer_cards: the 12 cards of hand plus skat, hand, schneider_announced,
schwarz_announced, ouvert, declarer_card_points, declarer_tricks, bid; optional
kontra_level, bock, ruleset) and prints matadors, multiplier, base_value,
game_value, won, overbid, score and an explanation.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from skat.cards import CardNotationError, mask_of
from skat.rules.contract import Contract, DeclarationError
from skat.rules.ranking import GameType
from skat.rules.value import evaluate
from skat.rulesets import get_ruleset


class InputError(ValueError):
    pass


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--ruleset", default=None, help="rule set name (default: isko2018, or the input's 'ruleset')")


def compute(data: Any, ruleset_name: str | None = None) -> dict[str, Any]:
    """Value one game described by a dict; raises InputError with a clear message."""
    if not isinstance(data, dict):
        raise InputError("expected a JSON object with the fields game, declarer_cards, ... (see 'skat value --help')")
    required = ["game", "declarer_cards", "bid"]
    missing = [k for k in required if k not in data]
    if missing:
        raise InputError(f"missing field(s): {', '.join(missing)}")
    try:
        gt = GameType.parse(data["game"])
    except ValueError as exc:
        raise InputError(str(exc)) from None
    if gt == GameType.RAMSCH:
        raise InputError("Ramsch has no declarer game value; use the table's Ramsch scoring")
    flags = {}
    for key in ("hand", "schneider_announced", "schwarz_announced", "ouvert"):
        v = data.get(key, False)
        if not isinstance(v, bool):
            raise InputError(f"field {key!r} must be true or false, got {v!r}")
        flags[key] = v
    try:
        contract = Contract(gt, hand=flags["hand"], schneider=flags["schneider_announced"],
                            schwarz=flags["schwarz_announced"], ouvert=flags["ouvert"])
    except DeclarationError as exc:
        raise InputError(str(exc)) from None
    cards = data["declarer_cards"]
    if not isinstance(cards, (list, str)):
        raise InputError("declarer_cards must be a list of 12 cards such as [\"CJ\", \"SA\", ...]")
    try:
        mask = mask_of(cards)
    except (CardNotationError, ValueError) as exc:
        raise InputError(f"declarer_cards: {exc}") from None
    if mask.bit_count() != 12:
        raise InputError(f"declarer_cards must hold exactly 12 cards (hand plus skat), got {mask.bit_count()}")
    bid = data["bid"]
    if not isinstance(bid, int) or isinstance(bid, bool) or bid < 0:
        raise InputError(f"bid must be a whole number such as 18, got {bid!r}")
    tricks = data.get("declarer_tricks")
    if not isinstance(tricks, int) or isinstance(tricks, bool) or not 0 <= tricks <= 10:
        raise InputError(f"declarer_tricks must be a whole number from 0 to 10, got {tricks!r}")
    points = data.get("declarer_card_points")
    if gt != GameType.NULL:
        if not isinstance(points, int) or isinstance(points, bool) or not 0 <= points <= 120:
            raise InputError(f"declarer_card_points must be a whole number from 0 to 120, got {points!r}")
    else:
        points = None
    kontra = data.get("kontra_level", 0) or 0
    bock = data.get("bock", 0) or 0
    if bock is True:
        bock = 1
    if not isinstance(kontra, int) or not 0 <= kontra <= 2:
        raise InputError("kontra_level must be 0, 1 (Kontra) or 2 (Re)")
    if not isinstance(bock, int) or bock < 0:
        raise InputError("bock must be a non-negative whole number (Bock rounds in force)")
    try:
        rules = get_ruleset(ruleset_name or data.get("ruleset") or "isko2018")
    except ValueError as exc:
        raise InputError(str(exc)) from None
    outcome = evaluate(contract, mask, points, tricks, bid, rules, kontra_level=kontra, bock=bock)
    return {
        "matadors": None if outcome.matadors is None else {"with": outcome.matadors_with, "count": outcome.matadors},
        "multiplier": outcome.multiplier,
        "base_value": outcome.base_value,
        "game_value": outcome.game_value,
        "won": outcome.won,
        "overbid": outcome.overbid,
        "score": outcome.score,
        "explanation": outcome.explanation,
    }


def run(args: argparse.Namespace) -> int:
    text = sys.stdin.read()
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        print(f"skat value: the input is not valid JSON ({exc})", file=sys.stderr)
        return 2
    try:
        out = compute(data, args.ruleset)
    except InputError as exc:
        print(f"skat value: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(out))
    return 0
