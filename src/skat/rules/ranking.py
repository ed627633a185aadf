"""Game types, card ranking, following suit, trick winners and display order.

All functions here are pure and work on 32-bit card masks; the tables are
built once at import and shared with the compiled solver kernels.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from skat._compiled import compiled_module
from skat.cards import Card, CardSet, CardsLike, mask_of, mask_points, suit_mask
from skat.enums import GameType

__all__ = [
    "GameType",
    "legal_cards",
    "trick_winner",
    "display_order",
    "POWER",
    "FOLLOW_MASK",
    "TRUMP_MASK",
    "legal_mask",
    "winner_index",
]


if TYPE_CHECKING:  # the source, typed by its Cython annotations (typings/cython.pyi)
    from skat.rules import kernel as _kernel

    # The kernel's tables, typed here: mypy checks the kernel after this module (each imports the
    # other through skat.rules) and cannot infer their types in time.
    POWER: list[list[int]]
    FOLLOW_MASK: list[list[int]]
    TRUMP_MASK: list[int]
else:
    _kernel = compiled_module("skat.rules.kernel")  # the one place of the card-play rules (compiled)
    POWER, FOLLOW_MASK, TRUMP_MASK = _kernel.POWER, _kernel.FOLLOW_MASK, _kernel.TRUMP_MASK
legal_mask = _kernel.legal_mask
winner_of = _kernel.winner_of


def legal_cards(game_type: GameType | str, hand: CardsLike, trick: Sequence[Card | int | str] | CardSet = ()) -> CardSet:
    """The cards of ``hand`` that may be played to ``trick`` (the cards already in it, in order)."""
    gt = GameType.parse(game_type)
    hand_mask = mask_of(hand)
    lead = _first_card(trick)
    return CardSet.from_mask(legal_mask(gt, hand_mask, -1 if lead is None else lead))


def _first_card(trick: Sequence[Card | int | str] | CardSet) -> int | None:
    if isinstance(trick, CardSet):
        raise TypeError("a trick is an ordered sequence of cards, not a CardSet")
    if isinstance(trick, str):
        trick = trick.split()
    if not trick:
        return None
    first = trick[0]
    return int(Card.parse(first) if isinstance(first, str) else Card(first))


def trick_winner(game_type: GameType | str, trick: Sequence[Card | int | str]) -> int:
    """Index (0-based, in play order) of the card that wins a complete or partial trick."""
    gt = GameType.parse(game_type)
    played = [int(Card.parse(c) if isinstance(c, str) else Card(c)) for c in trick]
    if not played:
        raise ValueError("an empty trick has no winner")
    return winner_index(gt, played)


def winner_index(gt: int, played: Sequence[int]) -> int:
    """The index of the card that wins a trick of one to three card numbers (:func:`trick_winner`'s
    fast path): :func:`skat.rules.kernel.winner_of`, the one place of the rule."""
    n = len(played)
    return winner_of(gt, played[0], played[1] if n > 1 else -1, played[2] if n > 2 else -1)


def trick_points(trick: Iterable[Card | int | str]) -> int:
    return mask_points(mask_of(trick))


_DISPLAY_SUITS = (3, 1, 2, 0)  # clubs, hearts, spades, diamonds: colours alternate


def display_order(mask: int | CardSet, game_type: GameType | str | None = None) -> list[Card]:
    """Cards sorted as a player holds them: trumps first, then the other suits, highest first."""
    mask = mask_of(mask)
    gt = GameType.GRAND if game_type is None else GameType.parse(game_type)
    power = POWER[gt]
    trumps = TRUMP_MASK[gt]
    groups: list[int] = [mask & trumps]
    suits = list(_DISPLAY_SUITS)
    if gt.is_suit:
        suits.remove(int(gt))
    groups += [mask & suit_mask(s) & ~trumps for s in suits]
    out: list[Card] = []
    for g in groups:
        members = [c for c in range(32) if g >> c & 1]
        members.sort(key=lambda c: power[c], reverse=True)
        out.extend(Card(c) for c in members)
    return out
