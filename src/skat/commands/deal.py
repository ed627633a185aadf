"""Play one deal with random legal actions and print a short record: the hands, the skat, the
auction, the game, the tricks and the result (a quick look at the engine).

--json prints the full JSON record instead (it replays with skat.Game.from_record). Without
--seed a seed is drawn and printed, so every deal can be shown again.
"""

from __future__ import annotations

import argparse
import json
import random
import textwrap

from skat.cards import Card
from skat.deal.game import SEAT_NAMES, Game
from skat.rules.actions import Bid, Declare, Discard, Hold, Pass, PickUp, Play
from skat.rules.ranking import GameType, display_order

_INDENT = 12  # the column where a line's text starts, after its label


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """``--seed`` and ``--json``."""
    parser.add_argument("--seed", type=int, default=None, help="deal and play seed (default: a random one)")
    parser.add_argument("--json", action="store_true", help="print the full JSON record of the deal")


def play_random(seed: int) -> Game:
    """The deal of ``seed`` played out with legal actions drawn by ``random.Random(seed)``."""
    rng = random.Random(seed)
    game = Game(seed=seed)
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
    return game


def _cards(cards: list[Card]) -> str:
    return " ".join(c.symbol for c in cards)


def _line(label: str, text: str) -> list[str]:
    """``label`` then ``text``, wrapped under the text's column."""
    return textwrap.wrap(text, width=90, initial_indent=f"{label:<{_INDENT}}", subsequent_indent=" " * _INDENT)


def _auction(game: Game) -> str:
    words = []
    for seat, action in game.history:
        name = SEAT_NAMES[seat]
        if isinstance(action, Bid):
            words.append(f"{name} {action.value}")
        elif isinstance(action, Hold):
            words.append(f"{name} holds")
        elif isinstance(action, Pass):
            words.append(f"{name} passes")
        elif isinstance(action, (PickUp, Declare)):
            break
    return ", ".join(words) or "none"


def _declaration(game: Game) -> str:
    result = game.result
    if result is None or result.kind == "passed_in":
        return "passed in: all three passed, nobody scores"
    if result.contract is None:
        return "Ramsch: all three passed"
    who = SEAT_NAMES[result.declarer]
    if result.discard is not None:
        taken = f"picks up the skat, discards {_cards(display_order(result.discard, result.contract.game_type))}, "
    else:
        taken = ""
    return f"{who} {taken}plays {result.contract} at {result.bid}"


def _calls(game: Game) -> list[str]:
    """Actions that are neither auction, skat, declaration nor a card: Kontra, Re, claims, pushes."""
    plain = (Bid, Hold, Pass, PickUp, Discard, Declare, Play)
    return [f"{SEAT_NAMES[seat]} {action}" for seat, action in game.history if not isinstance(action, plain)]


def summary(game: Game) -> list[str]:
    """A finished deal in about 25 readable lines."""
    result = game.result
    gt = None if result is None or result.contract is None else result.contract.game_type
    order = GameType.GRAND if gt is None else gt
    lines = [f"deal --seed {game.seed} ({game.ruleset.name}); forehand leads, rearhand deals"]
    for seat, hand in enumerate(game.initial_hands):
        mark = "   (declarer)" if result is not None and result.declarer == seat else ""
        lines.append(f"{SEAT_NAMES[seat]:<{_INDENT}}{_cards(display_order(hand, order))}{mark}")
    lines.append(f"{'skat':<{_INDENT}}{_cards(display_order(game.initial_skat, order))}")
    lines += _line("auction", _auction(game))
    lines += _line("game", _declaration(game))
    calls = _calls(game)
    if calls:
        lines += _line("calls", ", ".join(calls))
    for n, (leader, trick, winner) in enumerate(game.tricks, 1):
        played = "  ".join(f"{Card(c).symbol:<3}" for c in trick)
        points = sum(Card(c).points for c in trick)
        lines.append(f"trick {n:>2}    {SEAT_NAMES[leader]:<11} {played}  {SEAT_NAMES[winner]} takes {points}")
    if result is None:
        return lines
    if gt is not None and len(game.tricks) < 10:
        lines.append(f"{'':<{_INDENT}}play ends after trick {len(game.tricks)}")
    lines += _line("result", result.explanation)
    if result.declarer is not None and result.declarer_points is not None:
        lines += _line("", f"{SEAT_NAMES[result.declarer]} {result.declarer_points} card points (skat included), "
                           f"defenders {result.defender_points}; tricks {result.declarer_tricks}:"
                           f"{len(game.tricks) - result.declarer_tricks}")
    entries = [f"{SEAT_NAMES[s]} {score:+d}" for s, score in enumerate(result.scores) if score]
    lines += _line("entry", ", ".join(entries) or "none")
    return lines


def run(args: argparse.Namespace) -> int:
    """Play the deal and print its summary, or with ``--json`` its record."""
    seed = args.seed if args.seed is not None else random.randrange(2**32)
    game = play_random(seed)
    if args.json:
        print(json.dumps(game.to_record(), indent=1))
    else:
        print("\n".join(summary(game)))
    return 0
