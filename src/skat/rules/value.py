"""Matadors, levels, game value, won or lost, overbid and the score-sheet entry."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Protocol

from skat.cards import Card, mask_of
from skat.rules.contract import Contract, null_value
from skat.rules.ranking import GameType

__all__ = ["matadors", "Outcome", "evaluate", "max_multiplier", "matador_sequence", "ValueRules", "ISKO_VALUES"]


class ValueRules(Protocol):
    """The numbers of a rule set that value a game; a :class:`skat.rulesets.RuleSet` has them all."""

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
"""The ISkO's numbers (those of :data:`skat.rulesets.ISKO`): what :func:`evaluate` uses without a rule set."""

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
    """(with, count): the unbroken run from the club jack held (with) or missing (without)."""
    mask = cards if type(cards) is int else mask_of(cards)
    seq = _SEQUENCES.get(game_type) or matador_sequence(game_type)
    holding = mask >> seq[0] & 1
    count = 0
    for c in seq:
        if (mask >> c & 1) != holding:
            break
        count += 1
    return bool(holding), count


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


def _pattern(gt: int, mask: int) -> tuple[int, int]:
    jacks = (mask >> 28 & 1) | (mask >> 19 & 2) | (mask >> 10 & 4) | (mask >> 1 & 8)
    if gt <= 3:
        return jacks | _SUIT_PATTERN[mask >> (8 * gt) & 255] << 4, 11
    return jacks, 4


def matador_count(gt: int, mask: int) -> tuple[bool, int]:
    """Fast path of :func:`matadors` on a game type number and a mask."""
    pattern, length = _pattern(gt, mask)
    return bool(pattern & 1), _RUN_COUNT[length][pattern]


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
_BASE_VALUES = (9, 10, 11, 12, 24)


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
    rule set (:class:`skat.rulesets.RuleSet`, or anything with the numbers of :class:`ValueRules`);
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
    base = _BASE_VALUES[gt]
    old_ouvert = rules.grand_ouvert_base36 and gt == _GRAND and contract.ouvert
    if old_ouvert:
        base = 36
    levels = count + 1
    levels += contract.hand
    levels += schneider or contract.schneider
    levels += contract.schneider
    levels += schwarz or contract.schwarz
    levels += contract.schwarz
    levels += contract.ouvert and not old_ouvert
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
    """The highest multiplier a suit or grand contract can still reach with these matadors."""
    # game, schneider and schwarz by play, plus every announced level
    return matador_count + 3 + contract.hand + contract.schneider + contract.schwarz + contract.ouvert
