"""Matadors, levels, game value, won or lost, overbid and the score-sheet entry."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any, Protocol

from skat._compiled import compiled_module
from skat.cards import Card, CardsLike, mask_of
from skat.rules.contract import Contract, null_value
from skat.rules.ranking import GameType

__all__ = ["matadors", "matador_count", "best_hand_matadors", "Outcome", "evaluate", "max_multiplier",
           "matador_sequence", "multiplier", "can_reach_bid", "declarable", "declarable_by_matadors", "contracts_of",
           "declaration_index", "HAND_CONTRACTS", "SKAT_CONTRACTS", "BASE_VALUES", "ValueRules", "ISKO_VALUES",
           "overbid_loss_value"]


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

if TYPE_CHECKING:  # the source, typed by its Cython annotations (typings/cython.pyi)
    from skat.rules import kernel as _kernel
else:
    _kernel = compiled_module("skat.rules.kernel")  # the one place of matadors, levels and reaching the bid (compiled)
matador_count = _kernel.matador_count
best_hand_matadors = _kernel.best_hand_matadors
multiplier = _kernel.multiplier

_JACK_RUN = [Card.CJ, Card.SJ, Card.HJ, Card.DJ]


def _sequence(gt: int) -> tuple[int, ...]:
    seq = [int(c) for c in _JACK_RUN]
    if gt <= GameType.CLUBS:
        seq += [gt * 8 + r for r in _kernel.SUIT_RUN_RANKS]
    return tuple(seq)


_SEQUENCES = {gt: _sequence(gt) for gt in (0, 1, 2, 3, 4, 6)}


def matador_sequence(game_type: GameType | str) -> tuple[int, ...]:
    """The trumps from the top down over which matadors are counted."""
    gt = GameType.parse(game_type)
    if gt == GameType.NULL:
        raise ValueError("Null games have no matadors")
    return _SEQUENCES[gt]


def matadors(game_type: GameType | str, cards: CardsLike) -> tuple[bool, int]:
    """(with, count): the unbroken run from the club jack held (with) or missing (without), over
    :func:`matador_sequence` (:func:`matador_count` on a game type's number and a mask)."""
    mask = cards if type(cards) is int else mask_of(cards)
    if game_type not in _SEQUENCES:  # a name, or Null (which has no matadors: raises)
        game_type = GameType.parse(game_type)
        matador_sequence(game_type)
    return matador_count(int(game_type), mask)


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

    def to_json(self) -> dict[str, Any]:
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
BASE_VALUES: tuple[int, ...] = tuple(GameType(gt).base_value for gt in range(5))
"""Base values by game type number, diamonds to grand: 9, 10, 11, 12, 24 (docs/rules.md 4.2)."""


def _base_value(contract: Contract, grand_ouvert_base36: bool) -> tuple[int, bool]:
    """(base value, whether ouvert counts a level) of a suit or grand contract: the old Grand ouvert
    (rule option ``grand_ouvert_base36``) has the base value 36 and no ouvert level."""
    gt = contract.game_type
    return (_kernel.base_value(gt, contract.ouvert, grand_ouvert_base36),
            _kernel.ouvert_level(gt, contract.ouvert, grand_ouvert_base36))


def _with_text(w: bool, n: int) -> str:
    return f"{'with' if w else 'without'} {n}"


def evaluate(
    contract: Contract,
    declarer_cards: CardsLike,
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
        loss_value = overbid_loss_value(bid, base)
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


def overbid_loss_value(bid: int, base: int) -> int:
    """The value an overbid suit or grand game is lost at: the smallest multiple of its base value that reaches
    the bid (docs/rules.md 4.4: bid 33 in clubs, worth 24, is lost as 36)."""
    return base * -(-bid // base)


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


HAND_CONTRACTS: tuple[Contract, ...] = tuple(
    c
    for gt in (GameType.DIAMONDS, GameType.HEARTS, GameType.SPADES, GameType.CLUBS, GameType.GRAND)
    for c in (Contract(gt, hand=True), Contract(gt, hand=True, schneider=True),
              Contract(gt, hand=True, schwarz=True), Contract(gt, hand=True, ouvert=True))
) + (Contract(GameType.NULL, hand=True), Contract(GameType.NULL, hand=True, ouvert=True))
"""The hand contracts, in the order of the rules kernel's declaration masks (bit i: contract i): per
suit and grand by rising levels (hand, Schneider, Schwarz and ouvert: 4, 5, 6 and 7 levels beyond the
matadors), then Null hand and Null ouvert hand."""
SKAT_CONTRACTS: tuple[Contract, ...] = tuple(
    Contract(gt) for gt in (GameType.DIAMONDS, GameType.HEARTS, GameType.SPADES, GameType.CLUBS, GameType.GRAND)
) + (Contract(GameType.NULL), Contract(GameType.NULL, ouvert=True))
"""The contracts after picking up the skat, in the order of the kernel's declaration masks."""


def declaration_index(contract: Contract) -> int:
    """The place of a contract in :data:`HAND_CONTRACTS` (a hand game) or :data:`SKAT_CONTRACTS`."""
    if contract.is_null:
        return (20 if contract.hand else 5) + contract.ouvert
    if not contract.hand:
        return int(contract.game_type)
    return 4 * contract.game_type + (3 if contract.ouvert else 2 if contract.schwarz else 1 if contract.schneider else 0)


def can_reach_bid(contract: Contract, matadors: int, bid: int, grand_ouvert_base36: bool = False) -> bool:
    """Whether a declaration can still reach the bid (docs/rules.md 3.3): a Null game by its fixed value,
    a suit or grand game by its base value times :func:`max_multiplier` with ``matadors``, the most
    the declarer can count (over his twelve cards, or for a hand game the best an unseen skat can give,
    :func:`best_hand_matadors`): :func:`skat.rules.kernel.reaches`, the one place of the rule, which
    :func:`declarable` and the engines' declarations apply to every contract."""
    return _kernel.reaches(contract.hand, declaration_index(contract), matadors, bid, grand_ouvert_base36)


def contracts_of(hand_game: bool, mask: int) -> list[Contract]:
    """The contracts of a declaration mask (bit i: contract i of :data:`HAND_CONTRACTS` or :data:`SKAT_CONTRACTS`)."""
    contracts = HAND_CONTRACTS if hand_game else SKAT_CONTRACTS
    return [c for i, c in enumerate(contracts) if mask >> i & 1]


def declarable(hand_game: bool, bid: int, known: int, grand_ouvert_base36: bool = False) -> list[Contract]:
    """The contracts standard Skat's declarer may announce (docs/rules.md 3.3), in the order of
    :data:`HAND_CONTRACTS` or :data:`SKAT_CONTRACTS`: those that can reach the bid with the most
    matadors he can count over ``known`` (after picking up the skat his twelve cards, hand and the two
    put away; in a hand game his ten cards, with the best unseen skat), or, after picking up the skat,
    every one when none can (lost overbid). :func:`skat.rules.kernel.declarable_mask`, which the
    compiled core calls too."""
    return contracts_of(hand_game, _kernel.declarable_mask(hand_game, bid, known, grand_ouvert_base36))


def declarable_by_matadors(hand_game: bool, bid: int, matadors: Sequence[int], among: Iterable[Contract] | None = None,
                           grand_ouvert_base36: bool = False) -> list[Contract]:
    """:func:`declarable` for a declarer who counts his matadors by other rules (Admiral's Skat judges
    on what he knows): ``matadors`` the most he can count in diamonds, hearts, spades, clubs and grand,
    ``among`` the contracts the game offers (default: all of the hand or skat games)."""
    packed = 0
    for gt, count in enumerate(matadors):
        packed |= min(count, 15) << (4 * gt)
    if among is None:
        allowed = _kernel.HAND_DECLARATIONS if hand_game else _kernel.SKAT_DECLARATIONS
    else:
        allowed = 0
        for contract in among:
            if contract.hand != hand_game:
                raise ValueError(f"{contract} is not a {'hand game' if hand_game else 'game after picking up the skat'}")
            allowed |= 1 << declaration_index(contract)
    return contracts_of(hand_game, _kernel.reach_mask(hand_game, bid, packed, grand_ouvert_base36, allowed))
