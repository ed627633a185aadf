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
from skat.rules.value import Outcome, evaluate, matador_count, matador_sequence


class InputError(ValueError):
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


def holding_with(game_type: GameType, with_: bool, count: int) -> int:
    """Some 12 cards (a mask) that play ``with``/``without`` ``count`` matadors in ``game_type``."""
    seq = matador_sequence(game_type)
    if with_:
        held, barred = list(seq[:count]), set(seq[count:count + 1])
    else:
        held, barred = list(seq[count:count + 1]), set(seq[:count])
    spare = [c for c in range(32) if c not in seq] + list(seq[count + 1:])
    for c in spare:
        if len(held) == 12:
            break
        if c not in barred and c not in held:
            held.append(c)
    mask = sum(1 << c for c in held)
    assert matador_count(int(game_type), mask) == (with_, count), (game_type, with_, count)
    return mask


def _rules(name: str | None) -> RuleSet:
    try:
        rules = get_ruleset(name or "isko2018")
    except RuleSetError as exc:
        raise InputError(str(exc)) from None
    if rules.variant != "standard":
        raise InputError(f"the {rules.name} rules have games of their own (Tournee, Solo, Gucki); "
                         "skat value knows standard Skat")
    return rules


def _matadors(gt: GameType, with_: int | None, without: int | None) -> tuple[bool, int] | None:
    if with_ is not None and without is not None:
        raise InputError("give --with or --without, not both")
    if gt == GameType.NULL:
        if with_ is not None or without is not None:
            raise InputError("a Null game has no matadors: leave out --with/--without")
        return None
    if with_ is None and without is None:
        raise InputError(f"a {gt.label} game needs its matadors: --with N or --without N "
                         "(count them over the 12 cards of hand and skat)")
    holding, count = (True, with_) if with_ is not None else (False, without)
    top = len(matador_sequence(gt))
    word = "with" if holding else "without"
    if count is None or not 1 <= count <= top:
        what = "grand has 4 matadors at most (the jacks)" if gt == GameType.GRAND else \
            "a suit game has 11 matadors at most (4 jacks and 7 trumps)"
        raise InputError(f"--{word} {count} is impossible: {what}; the count starts at 1")
    return holding, count


def value_words(words: list[str], *, with_: int | None = None, without: int | None = None,
                points: int | None = None, won: bool | None = None, schneider: bool = False,
                schwarz: bool = False, bid: int | None = None, kontra: int = 0,
                ruleset: str | None = None) -> tuple[Outcome, RuleSet, str]:
    """Value a game given in words and options: (outcome, rule set, one line of explanation).

    Raises InputError, saying why, for a combination the rules do not allow.
    """
    rules = _rules(ruleset)
    contract = parse_contract(words)
    gt = contract.game_type
    mat = _matadors(gt, with_, without)
    if bid is not None and bid not in rules.bid_values:
        low = [v for v in rules.bid_values if v < bid][-1:]
        high = [v for v in rules.bid_values if v > bid][:1]
        near = " or ".join(str(v) for v in low + high)
        raise InputError(f"{bid} is not a bid value (bids are possible game values: {near}?)")
    if kontra and not rules.kontra:
        raise InputError(f"Kontra and Re are house rules, not part of {rules.name}: use --ruleset pub")
    if kontra == 2 and not rules.kontra_re:
        raise InputError(f"the {rules.name} rules have no Re")
    if points is not None and not 0 <= points <= 120:
        raise InputError(f"--points {points} is impossible: the declarer has 0 to 120 card points")
    points_given = points is not None
    if gt == GameType.NULL:
        if points_given:
            raise InputError("card points do not count in a Null game: say --won (no trick) or --lost")
        if schneider or schwarz:
            raise InputError("a Null game has no Schneider or Schwarz: say --won or --lost")
        if won is None:
            raise InputError("say --won (the declarer took no trick) or --lost")
        outcome = evaluate(contract, 0, None, 0 if won else 1, bid or 0, rules, kontra_level=kontra)
        return outcome, rules, _explain(outcome, rules, None, kontra)
    assert mat is not None
    points, tricks = _play(contract, rules, points, won, schneider or schwarz, schwarz)
    outcome = evaluate(contract, holding_with(gt, *mat), points, tricks, bid or 0, rules, kontra_level=kontra)
    if won is True and not outcome.won and not outcome.overbid:
        raise InputError(f"--won contradicts the rules: {_why_lost(contract, rules, points, tricks)}")
    if won is False and outcome.won:
        raise InputError(f"--lost contradicts {points} card points: they win {_name(contract)}"
                         + ("" if bid else " (give --bid if it was overbid)"))
    return outcome, rules, _explain(outcome, rules, points if points_given else None, kontra, won)


def _play(contract: Contract, rules: RuleSet, points: int | None, won: bool | None, schneider: bool,
          schwarz: bool) -> tuple[int, int]:
    """The declarer's card points and tricks that the options describe (suit and grand games)."""
    sp = rules.schneider_points
    if schwarz:
        if points is None:
            if won is None:
                raise InputError("--schwarz: say who took every trick: --won (the declarer) or --lost (the defenders)")
            points = 120 if won else 0
        if points == 120:
            return 120, 10
        if points <= 22:
            return points, 0
        raise InputError(f"--schwarz with {points} card points is impossible: a declarer who takes every trick "
                         "has all 120, one who takes none only the skat's (22 at most)")
    if won and contract.schwarz:
        # a won game with Schwarz announced (or ouvert) took every trick
        if points is not None and points != 120:
            raise InputError(f"--won with {points} card points is impossible for {_name(contract)}: Schwarz was "
                             "announced, so the declarer must take every trick (all 120 card points)")
        return 120, 10
    if schneider:
        if points is None:
            if won is None:
                raise InputError("--schneider: say --won (the defenders have 30 or fewer) or --lost (the "
                                 "declarer has), or give --points")
            points = sp if won else 30
        elif 30 < points < sp:
            raise InputError(f"--schneider with {points} card points is impossible: Schneider means one side has "
                             f"30 or fewer, so the declarer {sp} or more, or 30 or fewer")
    elif points is None:
        if won is None:
            raise InputError("say how the game went: --points N (the declarer's card points, skat included) "
                             "or --won/--lost")
        points = (sp if contract.schneider else 61) if won else 60
    return points, 5


def _why_lost(contract: Contract, rules: RuleSet, points: int, tricks: int) -> str:
    if points <= 60:
        return f"{points} card points lose; the declarer needs 61"
    if contract.schwarz and tricks < 10:
        return f"{_name(contract)} announces Schwarz: the declarer must take every trick (say --schwarz)"
    return f"{_name(contract)} announces Schneider: the declarer needs {rules.schneider_points} card points, not {points}"


def _name(contract: Contract) -> str:
    """The declared game in words: ``grand hand``, ``spades hand schneider announced``, ``clubs ouvert``."""
    words = [contract.game_type.label]
    if contract.ouvert and not contract.is_null:
        return " ".join(words + ["ouvert"])
    if contract.hand:
        words.append("hand")
    if contract.ouvert:
        words.append("ouvert")
    elif contract.schwarz:
        words.append("schwarz announced")
    elif contract.schneider:
        words.append("schneider announced")
    return " ".join(words)


def _levels(outcome: Outcome, rules: RuleSet) -> list[str]:
    """The levels of a suit or grand game, one term each: ``2``, ``1 game``, ``1 hand``..."""
    c = outcome.contract
    old_ouvert = rules.grand_ouvert_base36 and c.game_type == GameType.GRAND and c.ouvert
    terms = [str(outcome.matadors), "1 game"]
    for on, word in ((c.hand, "hand"), (outcome.schneider or c.schneider, "schneider"),
                     (c.schneider, "schneider announced"), (outcome.schwarz or c.schwarz, "schwarz"),
                     (c.schwarz, "schwarz announced"), (c.ouvert and not old_ouvert, "ouvert")):
        if on:
            terms.append(f"1 {word}")
    assert sum(int(t.split()[0]) for t in terms) == outcome.multiplier, (terms, outcome)
    return terms


def _entry(outcome: Outcome, rules: RuleSet, amount: int, kontra: int) -> str:
    """The score-sheet entry with its arithmetic: ``+96``, ``-2 × 48 = -96``, ``-2 × 27 × 2 (Kontra) = -108``."""
    if outcome.won:
        terms = f"+{amount}"
    else:
        factor = rules.lost_hand_game_factor if outcome.contract.hand else rules.lost_game_factor
        terms = f"-{factor} × {amount}" if factor > 1 else f"-{amount}"
    if kontra:
        terms += f" × {2 ** kontra} ({'Kontra' if kontra == 1 else 'Kontra and Re'})"
    return terms if terms == f"{outcome.score:+d}" else f"{terms} = {outcome.score:+d}"


def _explain(outcome: Outcome, rules: RuleSet, points: int | None, kontra: int = 0, won: bool | None = None) -> str:
    """One line in words: the value with its levels, then how the game ended and the entry."""
    c = outcome.contract
    if c.is_null:
        head = f"{_name(c)}: fixed value {outcome.game_value}"
        lost_at = outcome.game_value
        if outcome.overbid:
            return f"{head}, bid {outcome.bid}: overbid, lost: {_entry(outcome, rules, lost_at, kontra)}"
        how = "won (no trick)" if outcome.won else "lost (a trick)"
        return f"{head}, {how}: {_entry(outcome, rules, lost_at, kontra)}"
    word = "with" if outcome.matadors_with else "without"
    head = (f"{_name(c)} {word} {outcome.matadors}: ({' + '.join(_levels(outcome, rules))}) × "
            f"{outcome.base_value} = {outcome.game_value}")
    played = "" if points is None else f" with {points} card points"
    made = " and ".join(w for w, on in (("Schneider", outcome.schneider), ("Schwarz", outcome.schwarz)) if on)
    if made:
        declarer_made = outcome.declarer_points is not None and outcome.declarer_points > 30
        played += f", {made}" if declarer_made else f", the declarer {made}"
    if outcome.overbid:
        base = outcome.base_value or 1
        lost_at = base * -(-outcome.bid // base)
        note = f" (played{played})" if played else " (won in play)" if won else ""
        tail = f", bid {outcome.bid}: overbid, lost at {lost_at // base} × {base} = {lost_at}{note}"
        return f"{head}{tail}: {_entry(outcome, rules, lost_at, kontra)}"
    if outcome.won:
        return f"{head}, won{played}: {_entry(outcome, rules, outcome.game_value, kontra)}"
    missed = ""
    if (points is None or points >= 61) and (c.schneider or c.schwarz):
        missed = ", Schwarz announced not made" if c.schwarz else ", Schneider announced not made"
    return f"{head}, lost{played}{missed}: {_entry(outcome, rules, outcome.game_value, kontra)}"


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
