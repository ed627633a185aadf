"""Game-value calculator for keeping score at a real table.

In words (prints the value, the score-sheet entry and the arithmetic):

  skat value grand hand --with 2 --points 78
  skat value clubs --without 3 --points 55 --bid 30
  skat value null ouvert --lost
  skat value grand hand schneider announced --with 1 --won
  skat value hearts hand schwarz announced --with 1 --won --seeger

GAME is clubs, spades, hearts, diamonds (kreuz, pik, herz, karo), grand or null, followed by
what was declared: hand, ouvert, "schneider announced", "schwarz announced" (hand games
only; a suit or grand ouvert is a hand game with Schwarz announced). Matadors (--with N or
--without N) are needed for suit and grand games, never for Null. --points N (the
declarer's card points, skat included) decides won or lost and Schneider; without it say
--won or --lost, and --schneider or --schwarz if that was made in play (by either side).

As JSON (no GAME): one object on stdin with the fields of a game_value test vector (game,
declarer_cards: the 12 cards of hand plus skat, hand, schneider_announced,
schwarz_announced, ouvert, declarer_card_points, declarer_tricks, bid; optional
kontra_level, bock, ruleset); prints matadors, multiplier, base_value, game_value, won,
overbid, score and an explanation as JSON. --json gives that JSON for a game in words too.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from skat.cards import CardNotationError, mask_of
from skat.rules.contract import Contract, DeclarationError
from skat.rules.ranking import GameType
from skat.rules.rulesets import RuleSet, RuleSetError, get_ruleset
from skat.rules.value import Outcome, evaluate
from skat.table.valuing import GameInputError, check_matadors, explain, value_game

InputError = GameInputError
"""Input that does not describe a possible game; the message says why."""


# options that only describe a game in words (refused together with JSON on stdin)
_WORD_OPTIONS = ("with_", "without", "points", "won", "lost", "schneider", "schwarz", "bid", "kontra", "re", "seeger")
_GERMAN_DECK = {"eichel": "clubs", "grün": "spades", "gruen": "spades", "laub": "spades", "rot": "hearts",
                "schellen": "diamonds"}
_ANNOUNCED = ("announced", "angesagt")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The words grammar and the JSON switches of ``skat value``."""
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.usage = ("%(prog)s GAME [hand] [ouvert] [schneider announced | schwarz announced]\n"
                    "         [--with N | --without N] [--points N] [--won | --lost] [--schneider] [--schwarz]\n"
                    "         [--bid N] [--kontra | --re] [--seeger] [--ruleset NAME] [--json]\n"
                    "       %(prog)s [--ruleset NAME] < game.json")
    parser.add_argument("words", nargs="*", metavar="GAME",
                        help="the declared game, e.g. 'grand hand' or 'null ouvert' (leave out to read JSON on stdin)")
    parser.add_argument("--with", dest="with_", type=int, metavar="N", help="played with N matadors")
    parser.add_argument("--without", type=int, metavar="N", help="played without N matadors")
    parser.add_argument("--points", type=int, metavar="N", help="the declarer's card points, skat included (0-120)")
    parser.add_argument("--won", action="store_true", help="the declarer made his game in play")
    parser.add_argument("--lost", action="store_true", help="the declarer lost it in play")
    parser.add_argument("--schneider", action="store_true", help="Schneider was made in play (by either side)")
    parser.add_argument("--schwarz", action="store_true", help="one side took every trick")
    parser.add_argument("--bid", type=int, metavar="N", help="the bid, to judge an overbid game")
    parser.add_argument("--kontra", action="store_true", help="Kontra was said (house rules, e.g. --ruleset pub)")
    parser.add_argument("--re", action="store_true", help="Kontra and Re were said")
    parser.add_argument("--seeger", action="store_true", help="also print the Seeger-Fabian entry")
    parser.add_argument("--ruleset", default=None,
                        help="rule set name (default: isko2018, or the JSON input's 'ruleset')")
    parser.add_argument("--json", action="store_true", help="print the result as JSON (always so for JSON input)")


def _outcome_json(outcome: Outcome) -> dict[str, Any]:
    """The JSON answer for an outcome (the fields of a game_value vector's expected result)."""
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
    return _outcome_json(outcome)


# ----------------------------------------------------------------------------- words


def parse_contract(words: list[str]) -> Contract:
    """The declared game from words: ``grand hand``, ``spades hand schneider announced``, ``null ouvert``."""
    words = [w.lower() for w in " ".join(words).replace("-", " ").split()]
    if not words:
        raise InputError("name the game: clubs, spades, hearts, diamonds, grand or null")
    head = _GERMAN_DECK.get(words[0], words[0])
    try:
        gt = GameType.parse(head)
    except ValueError:
        raise InputError(f"unknown game {words[0]!r}: name clubs, spades, hearts, diamonds "
                         "(kreuz, pik, herz, karo), grand or null first") from None
    if gt == GameType.RAMSCH:
        raise InputError("Ramsch has no declarer and no game value; it is scored by card points")
    flags = {"hand": False, "schneider": False, "schwarz": False, "ouvert": False}
    rest = words[1:]
    i = 0
    while i < len(rest):
        w = rest[i]
        announced = i + 1 < len(rest) and rest[i + 1] in _ANNOUNCED
        if w in ("hand", "ouvert"):
            flags[w] = True
        elif w in ("schneider", "schwarz") and announced:
            flags[w] = True
            i += 1
        elif w in ("schneider", "schwarz"):
            raise InputError(f"'{w}' alone is unclear: write '{w} announced' if it was announced (hand games "
                             f"only), or --{w} if it was made in play")
        elif w in ("with", "without", "mit", "ohne"):
            english = "with" if w in ("with", "mit") else "without"
            raise InputError(f"matadors are an option: write --{english} N")
        else:
            raise InputError(f"unknown word {w!r}: after the game come hand, ouvert, 'schneider announced' "
                             "or 'schwarz announced'")
        i += 1
    if gt == GameType.NULL and (flags["schneider"] or flags["schwarz"]):
        raise InputError("a Null game has no Schneider or Schwarz to announce")
    if (flags["schneider"] or flags["schwarz"]) and not (flags["hand"] or flags["ouvert"]):
        which = "Schwarz" if flags["schwarz"] else "Schneider"
        raise InputError(f"{which} may only be announced in a hand game (write 'hand' before it): "
                         "after picking up the skat no announcement is allowed")
    try:
        return Contract(gt, **flags)
    except DeclarationError as exc:
        raise InputError(str(exc)) from None


def _rules(name: str | None) -> RuleSet:
    try:
        rules = get_ruleset(name or "isko2018")
    except RuleSetError as exc:
        raise InputError(str(exc)) from None
    if rules.variant != "standard":
        raise InputError(f"the {rules.name} rules have games of their own (Tournee, Solo, Gucki); "
                         "skat value knows standard Skat")
    return rules


def value_words(words: list[str], *, with_: int | None = None, without: int | None = None,
                points: int | None = None, won: bool | None = None, schneider: bool = False,
                schwarz: bool = False, bid: int | None = None, kontra: int = 0,
                ruleset: str | None = None) -> tuple[Outcome, RuleSet, str]:
    """Value a game given in words and options: (outcome, rule set, one line of explanation).

    Raises InputError, saying why, for a combination the rules do not allow
    (:func:`skat.table.valuing.value_game`, which the score keeper uses too).
    """
    rules = _rules(ruleset)
    contract = parse_contract(words)
    mat = check_matadors(contract.game_type, with_, without)
    outcome = value_game(contract, rules, matadors=mat, points=points, won=won, schneider=schneider,
                         schwarz=schwarz, bid=bid, kontra=kontra)
    return outcome, rules, explain(outcome, rules, points, kontra, won)


def seeger_fabian(outcome: Outcome, rules: RuleSet) -> dict[str, int]:
    """Seeger-Fabian for one game: the declarer's entry and each other player's bonus at a 3- and 4-table."""
    if outcome.won:
        return {"declarer": outcome.score + rules.seeger_won, "others_3": 0, "others_4": 0}
    return {"declarer": outcome.score - rules.seeger_lost, "others_3": rules.fabian_bonus[0],
            "others_4": rules.fabian_bonus[1]}


def _seeger_line(outcome: Outcome, rules: RuleSet) -> str:
    sf = seeger_fabian(outcome, rules)
    if outcome.won:
        return f"Seeger-Fabian: {sf['declarer']:+d} ({outcome.score:+d} + {rules.seeger_won})"
    return (f"Seeger-Fabian: {sf['declarer']:+d} ({outcome.score:+d} - {rules.seeger_lost}); each other player "
            f"+{sf['others_3']} at a 3-table, +{sf['others_4']} at a 4-table")


# ----------------------------------------------------------------------------- command


def _fail(message: str) -> int:
    print(f"skat value: {message}", file=sys.stderr)
    return 2


def run(args: argparse.Namespace) -> int:
    """JSON on stdin when no game is named, else the game in words."""
    if not args.words:
        given = [name.rstrip("_") for name in _WORD_OPTIONS if getattr(args, name, None) not in (None, False)]
        if given:
            return _fail(f"name the game first (e.g. skat value grand hand --with 2 --points 78): "
                         f"--{', --'.join(given)} go with a game in words, not with JSON on stdin")
        if sys.stdin.isatty():
            return _fail("name a game (e.g. skat value grand hand --with 2 --points 78) or pipe a JSON "
                         "object to stdin; see skat value --help")
        return _run_json(args)
    if args.won and args.lost:
        return _fail("give --won or --lost, not both")
    if args.kontra and args.re:
        args.kontra = False  # Re follows Kontra: --re says both
    try:
        outcome, rules, line = value_words(
            args.words, with_=args.with_, without=args.without, points=args.points,
            won=True if args.won else False if args.lost else None, schneider=args.schneider,
            schwarz=args.schwarz, bid=args.bid, kontra=2 if args.re else 1 if args.kontra else 0,
            ruleset=args.ruleset)
    except InputError as exc:
        return _fail(str(exc))
    if args.json:
        out = _outcome_json(outcome)
        if args.seeger:
            out["seeger_fabian"] = seeger_fabian(outcome, rules)
        print(json.dumps(out))
        return 0
    print(f"value: {outcome.game_value}")
    print(f"entry: {outcome.score:+d}")
    print(line)
    if args.seeger:
        print(_seeger_line(outcome, rules))
    return 0


def _run_json(args: argparse.Namespace) -> int:
    text = sys.stdin.read()
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        return _fail(f"the input is not valid JSON ({exc})")
    try:
        out = compute(data, args.ruleset)
    except InputError as exc:
        return _fail(str(exc))
    print(json.dumps(out))
    return 0
