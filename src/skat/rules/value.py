"""Matadors, levels, game value, won or lost, overbid and the score-sheet entry."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Protocol

from skat.cards import Card, mask_of
from skat.rules.contract import Contract, null_value
from skat.rules.ranking import GameType

__all__ = ["matadors", "Outcome", "evaluate", "max_multiplier", "matador_sequence", "multiplier", "can_reach_bid",
           "BASE_VALUES", "ValueRules", "ISKO_VALUES"]


class ValueRules(Protocol):
    """The numbers of a rule set that value a game; a :class:`skat.rules.rulesets.RuleSet` has them all."""

    @property
    def lost_game_factor(self) -> int: ...
    @property
    def lost_hand_game_factor(self) -> int: ...
    @property
    def schneider_points(self) -> int: ...
    @property
    def grand_ouvert_base36(self) -> bool: ...


@dataclass(frozen=True)
class _IskoValues:
    lost_game_factor: int = 2
    lost_hand_game_factor: int = 2
    schneider_points: int = 90
    grand_ouvert_base36: bool = False


ISKO_VALUES: ValueRules = _IskoValues()
"""The ISkO's numbers (those of :data:`skat.rules.rulesets.ISKO`): what :func:`evaluate` uses without a rule set."""

_JACK_RUN = [Card.CJ, Card.SJ, Card.HJ, Card.DJ]
_SUIT_RUN_RANKS = [7, 3, 6, 5, 2, 1, 0]  # A T K Q 9 8 7


def _sequence(gt: int) -> tuple[int, ...]:
    seq = [int(c) for c in _JACK_RUN]
    if gt <= GameType.CLUBS:
        seq += [gt * 8 + r for r in _SUIT_RUN_RANKS]
    return tuple(seq)


_SEQUENCES = {gt: _sequence(gt) for gt in (0, 1, 2, 3, 4, 6)}


def matador_sequence(game_type: GameType | str) -> tuple[int, ...]:
    """The trumps from the top down over which matadors are counted."""
    gt = GameType.parse(game_type)
    if gt == GameType.NULL:
        raise ValueError("Null games have no matadors")
    return _SEQUENCES[gt]


def matadors(game_type: GameType | str, cards) -> tuple[bool, int]:
    """(with, count): the unbroken run from the club jack held (with) or missing (without), over
    :func:`matador_sequence` (:func:`matador_count` on a game type's number and a mask)."""
    mask = cards if type(cards) is int else mask_of(cards)
    if game_type not in _SEQUENCES:  # a name, or Null (which has no matadors: raises)
        game_type = GameType.parse(game_type)
        matador_sequence(game_type)
    return matador_count(int(game_type), mask)


def _run_count(pattern: int, length: int) -> int:
    """Matadors of a pattern whose bit i says whether the i-th trump of the run is held."""
    holding = pattern & 1
    count = 0
    while count < length and (pattern >> count & 1) == holding:
        count += 1
    return count


def _best_hand_count(pattern: int, length: int) -> int:
    """The most matadors an unseen two-card skat can give a hand holding ``pattern``: it fills
    the two highest gaps of the run ("with"), or holds no trump of it ("without")."""
    gaps = [i for i in range(length) if not pattern >> i & 1]
    best_with = gaps[2] if len(gaps) > 2 else length
    if pattern & 1:
        return best_with
    return max(best_with, _run_count(pattern, length))


_RUN_COUNT = {n: [_run_count(p, n) for p in range(1 << n)] for n in (4, 11)}
_BEST_HAND = {n: [_best_hand_count(p, n) for p in range(1 << n)] for n in (4, 11)}
# a suit's byte (ranks 7..A as bits 0..7) -> its non-jack cards in run order A T K Q 9 8 7
_SUIT_PATTERN = [sum(1 << i for i, r in enumerate(_SUIT_RUN_RANKS) if b >> r & 1) for b in range(256)]
_RUN11, _RUN4 = _RUN_COUNT[11], _RUN_COUNT[4]


def _pattern(gt: int, mask: int) -> tuple[int, int]:
    """The run of :func:`matador_sequence` as bits (bit i: its i-th trump is held) and its length."""
    jacks = (mask >> 28 & 1) | (mask >> 19 & 2) | (mask >> 10 & 4) | (mask >> 1 & 8)
    if gt <= 3:
        return jacks | _SUIT_PATTERN[mask >> (8 * gt) & 255] << 4, 11
    return jacks, 4


def matador_count(gt: int, mask: int) -> tuple[bool, int]:
    """The matador rule (docs/rules.md 4.1) on a game type number (suit, grand, Ramsch) and a mask:
    (with, count) of the run of :func:`matador_sequence`, read from tables. The one place of the
    rule: :func:`matadors`, the engines, the players and the scoring call it (the compiled core
    reads the same tables)."""
    # _pattern, inlined: the players count matadors in their inner loops
    jacks = (mask >> 28 & 1) | (mask >> 19 & 2) | (mask >> 10 & 4) | (mask >> 1 & 8)
    if gt <= 3:
        return jacks & 1 == 1, _RUN11[jacks | _SUIT_PATTERN[mask >> (8 * gt) & 255] << 4]
    return jacks & 1 == 1, _RUN4[jacks]


def best_hand_matadors(gt: int, hand_mask: int) -> int:
    """The most matadors a hand game can have once the unseen skat is counted (ten known cards)."""
    pattern, length = _pattern(gt, hand_mask)
    return _BEST_HAND[length][pattern]


@dataclass(frozen=True)
class Outcome:
    """The value and result of a declared game, as it goes on the score sheet."""

    contract: Contract
    bid: int
    won: bool
    overbid: bool
    matadors_with: bool | None
    matadors: int | None
    multiplier: int | None
    base_value: int | None
    game_value: int
    score: int
    declarer_points: int | None
    declarer_tricks: int
    schneider: bool
    schwarz: bool
    explanation: str

    def to_json(self) -> dict:
        d = asdict(self)
        d["contract"] = self.contract.to_json()
        return d


def _outcome(contract: Contract, bid: int, won: bool, overbid: bool, matadors_with: bool | None,
             matadors: int | None, multiplier: int | None, base_value: int | None, game_value: int, score: int,
             declarer_points: int | None, declarer_tricks: int, schneider: bool, schwarz: bool,
             explanation: str) -> Outcome:
    """``Outcome(...)``, filled in one step instead of the frozen dataclass's ``object.__setattr__``
    per field (every deal ends with one)."""
    outcome = object.__new__(Outcome)
    outcome.__dict__.update(
        contract=contract, bid=bid, won=won, overbid=overbid, matadors_with=matadors_with, matadors=matadors,
        multiplier=multiplier, base_value=base_value, game_value=game_value, score=score,
        declarer_points=declarer_points, declarer_tricks=declarer_tricks, schneider=schneider, schwarz=schwarz,
        explanation=explanation,
    )
    return outcome


_NULL = GameType.NULL
_GRAND = GameType.GRAND
BASE_VALUES: tuple[int, ...] = tuple(GameType(gt).base_value for gt in range(5))
"""Base values by game type number, diamonds to grand: 9, 10, 11, 12, 24 (docs/rules.md 4.2)."""


def multiplier(matadors: int, hand: bool = False, schneider: bool = False, schneider_announced: bool = False,
               schwarz: bool = False, schwarz_announced: bool = False, ouvert: bool = False,
               announced_counts_made: bool = True) -> int:
    """The levels of a suit or grand game (docs/rules.md 4.2): the matadors, 1 for the game, and one
    each for hand, Schneider, Schneider announced, Schwarz, Schwarz announced and ouvert.

    In Skat a level announced counts as reached (a missed announcement loses the game at its full
    value); Tournee counts only the Schneider and Schwarz made (``announced_counts_made=False``,
    docs/rules.md 10.3) and passes no hand or ouvert level. The one place of the level arithmetic:
    :func:`evaluate`, :func:`max_multiplier`, Tournee's and Officers' scoring and the players' value
    estimates call it."""
    if announced_counts_made:
        schneider = schneider or schneider_announced
        schwarz = schwarz or schwarz_announced
    return matadors + 1 + hand + schneider + schneider_announced + schwarz + schwarz_announced + ouvert


def _base_value(contract: Contract, grand_ouvert_base36: bool) -> tuple[int, bool]:
    """(base value, whether ouvert counts a level) of a suit or grand contract: the old Grand ouvert
    (rule option ``grand_ouvert_base36``) has the base value 36 and no ouvert level."""
    if grand_ouvert_base36 and contract.game_type == _GRAND and contract.ouvert:
        return 36, False
    return BASE_VALUES[contract.game_type], contract.ouvert


def _with_text(w: bool, n: int) -> str:
    return f"{'with' if w else 'without'} {n}"


def evaluate(
    contract: Contract,
    declarer_cards,
    declarer_points: int | None,
    declarer_tricks: int,
    bid: int,
    rules: ValueRules | None = None,
    *,
    kontra_level: int = 0,
    bock: int = 0,
) -> Outcome:
    """Value a finished game.

    ``declarer_cards`` are the 12 cards that decide matadors (final hand plus
    skat or discard), ``declarer_points`` his card points including the skat.
    ``kontra_level`` (1 Kontra, 2 Re) and ``bock`` double the score, not the value. ``rules`` is the
    rule set (:class:`skat.rules.rulesets.RuleSet`, or anything with the numbers of :class:`ValueRules`);
    without one the ISkO's apply.
    """
    if rules is None:
        rules = ISKO_VALUES
    gt = contract.game_type
    lost_factor = rules.lost_hand_game_factor if contract.hand else rules.lost_game_factor
    doubling = 2 ** (kontra_level + bock)
    if gt == _NULL:
        value = null_value(contract.hand, contract.ouvert)
        overbid = value < bid
        won = declarer_tricks == 0 and not overbid
        score = value if won else -lost_factor * value
        if overbid:
            why = f"lost, overbid: {contract} is worth {value} but the bid was {bid}"
        elif won:
            why = f"won: {contract} for {value}, the declarer took no trick"
        else:
            why = f"lost: {contract} for {value}, the declarer took a trick; lost games count {lost_factor}x"
        return _outcome(contract, bid, won, overbid, None, None, None, None, value, score * doubling,
                        None, declarer_tricks, False, False, _with_doubling(why, kontra_level, bock))

    if declarer_points is None:
        raise ValueError("a suit or grand game needs the declarer's card points")
    if type(declarer_cards) is int and 0 <= declarer_cards <= 0xFFFFFFFF:
        cards_mask = declarer_cards
    else:
        cards_mask = mask_of(declarer_cards)
    if cards_mask.bit_count() != 12:
        raise ValueError(
            f"matadors are counted over 12 cards (hand plus skat), got {cards_mask.bit_count()}"
        )
    with_, count = matador_count(gt, cards_mask)
    # the defenders are schneider when the declarer reaches schneider_points (ISkO 90, historical 91);
    # the declarer himself is schneider with 30 or fewer under both rules (docs/rules.md 4.3, 10.3)
    schneider = declarer_points >= rules.schneider_points or declarer_points <= 30
    schwarz = declarer_tricks in (0, 10)
    base, ouvert_level = _base_value(contract, rules.grand_ouvert_base36)
    levels = multiplier(count, contract.hand, schneider, contract.schneider, schwarz, contract.schwarz, ouvert_level)
    value = levels * base
    reached = declarer_points >= 61
    missed = []
    if contract.schneider and declarer_points < rules.schneider_points:
        missed.append("Schneider")
    if contract.schwarz and declarer_tricks < 10:
        missed.append("Schwarz")
    overbid = value < bid
    won = reached and not missed and not overbid
    desc = f"{contract} {_with_text(with_, count)}"
    if won:
        score = value
        extras = [w for w, on in (("Schneider", schneider), ("Schwarz", schwarz)) if on]
        why = f"won: {desc} is worth {value} ({levels} x {base}), {declarer_points} card points"
        if extras:
            why += ", " + " and ".join(extras)
    elif overbid:
        loss_value = base * -(-bid // base)
        score = -lost_factor * loss_value
        why = (f"lost, overbid: {desc} is worth {value} but the bid was {bid}; "
               f"loses {lost_factor} x {loss_value}")
    else:
        score = -lost_factor * value
        if missed:
            reason = f"announced {' and '.join(missed)} not made"
        else:
            reason = f"only {declarer_points} card points"
        why = f"lost: {desc} is worth {value} ({levels} x {base}), {reason}; loses {lost_factor} x {value}"
    return _outcome(contract, bid, won, overbid, with_, count, levels, base, value, score * doubling,
                    declarer_points, declarer_tricks, schneider, schwarz, _with_doubling(why, kontra_level, bock))


def _with_doubling(why: str, kontra_level: int, bock: int) -> str:
    parts = []
    if kontra_level:
        parts.append(("Kontra", "Kontra and Re")[min(kontra_level, 2) - 1])
    if bock:
        parts.append("Bock" if bock == 1 else f"Bock x{bock}")
    if parts:
        why += f"; score doubled for {' and '.join(parts)}"
    return why


def max_multiplier(contract: Contract, matador_count: int) -> int:
    """The highest multiplier a suit or grand contract can still reach with these matadors: game,
    Schneider and Schwarz by play, plus every announced level."""
    return multiplier(matador_count, contract.hand, True, contract.schneider, True, contract.schwarz, contract.ouvert)


def can_reach_bid(contract: Contract, matadors: int, bid: int, grand_ouvert_base36: bool = False) -> bool:
    """Whether a declaration can still reach the bid (docs/rules.md 3.3): a Null game by its fixed value,
    a suit or grand game by its base value times :func:`max_multiplier` with ``matadors``, the most
    the declarer can count (over his twelve cards, or for a hand game the best an unseen skat can give,
    :func:`best_hand_matadors`). The one place of the rule: the engines' declarations call it."""
    if contract.is_null:
        return null_value(contract.hand, contract.ouvert) >= bid
    base, ouvert = _base_value(contract, grand_ouvert_base36)
    return multiplier(matadors, contract.hand, True, contract.schneider, True, contract.schwarz, ouvert) * base >= bid
