"""Scoring of Officers' Skat: docs/rules.md section 9, default D16, the seed's reading of Q9.

Pure functions: they take the chosen game, the chooser's cards and the card points and
tricks each player took, and return an :class:`OfficersOutcome` with each seat's score.
Admiral's Skat, the variant with an auction, is valued like Skat (:func:`score_admiral`).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from skat.cards import mask_of
from skat.rules.contract import Contract, null_value
from skat.rules.ranking import GameType
from skat.rules.value import matadors, multiplier
from skat.variants.officers.options import OfficersOptions

__all__ = ["OfficersOutcome", "score_game", "score_admiral", "is_schneider", "is_schwarz"]

_DEFAULT = OfficersOptions()


@dataclass(frozen=True)
class OfficersOutcome:
    """The result of one game as it goes on the score sheet."""

    game: str
    """``clubs`` ... ``diamonds``, ``grand``, ``null`` or ``ramsch``."""
    chooser: int | None
    """The seat that chose the game (the declarer in Admiral's); None for a Ramsch both passed into."""
    won: bool | None
    """Whether the chooser won (None without a chooser)."""
    winner: int | None
    """The seat that won, or None for a tie that scores for both or nobody."""
    matadors_with: bool | None
    matadors: int | None
    base_value: int | None
    game_value: int | None
    """The value before Schneider/Schwarz and Kontra (the fixed value in Null)."""
    schneider: bool
    schwarz: bool
    kontra_level: int
    """0 none, 1 Kontra (x2), 2 Re (x4)."""
    scores: tuple[int, int]
    """Score-sheet entries of seat 0 (forehand) and seat 1 (dealer)."""
    explanation: str

    def to_json(self) -> dict[str, Any]:
        d = asdict(self)
        d["scores"] = list(self.scores)
        return d


def is_schneider(points: int, options: OfficersOptions = _DEFAULT) -> bool:
    """Whether a side with these card points is Schneider (Q9: < 30 by default, <= 30 as in Skat)."""
    return points < 30 if options.schneider_rule == "less_than_30" else points <= 30


def is_schwarz(points: int, tricks: int, options: OfficersOptions = _DEFAULT) -> bool:
    """Whether a side is Schwarz (Q9: no card points by default, no trick as in Skat)."""
    return points == 0 if options.schwarz_rule == "no_points" else tricks == 0


def _calls(level: int) -> str:
    return ("", "; Kontra doubles the score", "; Kontra and Re double it twice")[level]


def score_game(
    game: GameType | str,
    chooser: int,
    chooser_cards: Any,
    points: tuple[int, int],
    tricks: tuple[int, int],
    options: OfficersOptions = _DEFAULT,
    kontra_level: int = 0,
) -> OfficersOutcome:
    """Score a suit, Grand or Null game chosen by ``chooser`` (seat 0 or 1).

    ``chooser_cards`` are all 16 of the chooser's cards (they decide the matadors);
    ``points`` and ``tricks`` are indexed by seat. 61 wins; 60:60 goes to the player who
    did not choose (in ``points_234`` scoring a 60:60 tie gives 1 point each).
    """
    gt = GameType.parse(game)
    if gt == GameType.RAMSCH:
        return score_ramsch(points, tricks, chooser, options, kontra_level)
    if chooser not in (0, 1):
        raise ValueError(f"the chooser is seat 0 or 1, got {chooser!r}")
    opp = 1 - chooser
    factor = 2 ** kontra_level
    scores = [0, 0]
    if gt == GameType.NULL:
        null_value = options.null_value
        won = tricks[chooser] == 0
        null_winner = chooser if won else opp
        if options.scoring in ("matadors", "full_matadors"):
            scores[chooser] = null_value if won else -2 * null_value
        elif options.scoring == "points_234":
            scores[null_winner] = 2
        else:
            scores[null_winner] = null_value
        why = (f"Null {'won' if won else 'lost'}: the chooser took {'no' if won else 'a'} trick; "
               f"value {null_value}")
        return OfficersOutcome("null", chooser, won, null_winner, None, None, None, null_value, False, False,
                               kontra_level, (scores[0] * factor, scores[1] * factor), why + _calls(kontra_level))

    cp, op = points[chooser], points[opp]
    if cp + op != 120:
        raise ValueError(f"the card points of both players must add up to 120, got {cp} + {op}")
    won = cp >= 61
    loser = opp if won else chooser
    schneider = is_schneider(points[loser], options)
    schwarz = is_schwarz(points[loser], tricks[loser], options)
    winner = chooser if won else opp
    tied = False  # 60:60 under points_234: nobody wins the hand
    base = gt.base_value
    with_: bool | None = None
    count: int | None = None
    value: int | None = None
    if options.scoring in ("matadors", "full_matadors"):
        run_type = gt if options.scoring == "full_matadors" else GameType.GRAND  # GRAND: the jacks only
        with_, count = matadors(run_type, mask_of(chooser_cards))
        value = multiplier(count) * base  # matadors + 1: Schneider and Schwarz double the score instead
        level = 4 if schwarz else 2 if schneider else 1
        if won:
            scores[chooser] = value * level
        else:
            scores[chooser] = -2 * value * (level if options.schneider_on_loss else 1)
            if not options.schneider_on_loss:
                schneider = schwarz = False
        desc = f"{gt.label} {'with' if with_ else 'without'} {count}: ({count} + 1) x {base} = {value}"
    elif options.scoring == "base":
        value = base
        scores[winner] = base * (2 if schneider else 1)
        desc = f"{gt.label}: the winner gets the base value {base}"
    elif options.scoring == "card_points":
        scores[winner] = points[winner]
        desc = f"{gt.label}: the winner gets his {points[winner]} card points"
    else:  # points_234
        if cp == 60:
            tied = True
            scores = [1, 1]
            schneider = schwarz = False
        else:
            scores[winner] = 4 if schwarz else 3 if schneider else 2
        desc = f"{gt.label}: 2 for a win, 3 with Schneider, 4 with Schwarz, 1 each at 60:60"
    extras = [w for w, on in (("Schneider", schneider), ("Schwarz", schwarz)) if on]
    result = "won" if won else ("lost at 60:60 (the tie goes to the player who did not choose)" if cp == 60 else "lost")
    why = f"{desc}; the chooser {result} with {cp}:{op} card points"
    if extras:
        why += ", " + " and ".join(extras)
    return OfficersOutcome(gt.label, chooser, won, None if tied else winner, with_, count, base, value, schneider,
                           schwarz,
                           kontra_level, (scores[0] * factor, scores[1] * factor), why + _calls(kontra_level))


def score_ramsch(
    points: tuple[int, int],
    tricks: tuple[int, int],
    chooser: int | None,
    options: OfficersOptions = _DEFAULT,
    kontra_level: int = 0,
) -> OfficersOutcome:
    """Score a Ramsch: fewer card points win (a tie goes to the player who did not choose it).

    Augenramsch (docs/rules.md D8) for two: the loser gets minus his card points; a player who took
    every trick (Durchmarsch) gets +120. In ``points_234`` scoring the winner gets 2, a Durchmarsch 4,
    and a tie of a Ramsch nobody chose 1 each.
    """
    if points[0] + points[1] not in (120,):
        raise ValueError(f"the card points of both players must add up to 120, got {points[0]} + {points[1]}")
    factor = 2 ** kontra_level if chooser is not None else 1
    scores = [0, 0]
    simple = options.scoring == "points_234"
    durchmarsch = next((s for s in (0, 1) if tricks[1 - s] == 0), None)
    winner: int | None
    if durchmarsch is not None:
        winner = durchmarsch
        scores[winner] = 4 if simple else 120
        why = f"Ramsch: seat {winner} took every trick (Durchmarsch)"
    elif points[0] == points[1] and chooser is None:
        winner = None
        scores = [1, 1] if simple else [0, 0]
        why = "Ramsch 60:60: a tie"
    else:
        if points[0] == points[1]:
            winner = 1 - chooser  # type: ignore[operator]
        else:
            winner = 0 if points[0] < points[1] else 1
        loser = 1 - winner
        if simple:
            scores[winner] = 2
        else:
            scores[loser] = -points[loser]
        why = f"Ramsch: seat {winner} wins with fewer card points ({points[winner]}:{points[loser]})"
    won = None if chooser is None else winner == chooser
    return OfficersOutcome("ramsch", chooser, won, winner, None, None, None, None, False, False,
                           kontra_level if chooser is not None else 0,
                           (scores[0] * factor, scores[1] * factor), why + _calls(kontra_level if chooser is not None else 0))


def score_admiral(
    contract: Contract,
    declarer: int,
    bid: int,
    declarer_cards: Any,
    points: tuple[int, int],
    tricks: tuple[int, int],
    kontra_level: int = 0,
) -> OfficersOutcome:
    """Value an Admiral's Skat game like Skat (docs/rules.md 4): matadors over the declarer's 15 cards plus
    the skat, levels for game, hand, Schneider (<= 30 either side), Schwarz (no trick), announcements;
    the bid must be reached (overbid: 2 x the smallest multiple of the base reaching the bid).
    ``points`` include the skat in the declarer's points."""
    opp = 1 - declarer
    factor = 2 ** kontra_level
    scores = [0, 0]
    if contract.is_null:
        value = null_value(contract.hand, False)
        overbid = value < bid
        won = tricks[declarer] == 0 and not overbid
        scores[declarer] = value if won else -2 * value
        why = f"{contract} {'won' if won else 'lost'}" + (f", overbid (bid {bid})" if overbid else "")
        return OfficersOutcome("null", declarer, won, declarer if won else opp, None, None, None, value, False,
                               False, kontra_level, (scores[0] * factor, scores[1] * factor),
                               why + _calls(kontra_level))
    gt = contract.game_type
    dp = points[declarer]
    if dp + points[opp] != 120:
        raise ValueError(f"the card points (skat included) must add up to 120, got {dp} + {points[opp]}")
    with_, count = matadors(gt, mask_of(declarer_cards))
    schneider = dp >= 90 or dp <= 30
    schwarz = tricks[opp] == 0 or tricks[declarer] == 0
    base = gt.base_value
    levels = multiplier(count, contract.hand, schneider, contract.schneider, schwarz, contract.schwarz)
    value = levels * base
    missed = (contract.schneider and dp < 90) or (contract.schwarz and tricks[opp] > 0)
    overbid = value < bid
    won = dp >= 61 and not missed and not overbid
    if won:
        scores[declarer] = value
    elif overbid:
        scores[declarer] = -2 * base * -(-bid // base)
    else:
        scores[declarer] = -2 * value
    why = (f"{contract} {'with' if with_ else 'without'} {count}: {levels} x {base} = {value}; "
           f"{'won' if won else 'lost'} with {dp} card points (skat included)")
    if overbid:
        why += f", overbid: the bid was {bid}"
    elif missed:
        why += ", the announced level was not made"
    return OfficersOutcome(gt.label, declarer, won, declarer if won else opp, with_, count, base, value, schneider,
                           schwarz, kontra_level, (scores[0] * factor, scores[1] * factor),
                           why + _calls(kontra_level))
