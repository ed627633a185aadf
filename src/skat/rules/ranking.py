"""Game types, card ranking, following suit, trick winners and display order.

All functions here are pure and work on 32-bit card masks; the tables are
built once at import and shared with the compiled solver kernels.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from skat.cards import JACKS, Card, CardSet, mask_of, mask_points, suit_mask
from skat.enums import GameType

__all__ = [
    "GameType",
    "legal_cards",
    "trick_winner",
    "display_order",
    "POWER",
    "FOLLOW_MASK",
    "TRUMP_MASK",
]


# Plain-suit order for suit, grand and ramsch games: 7 8 9 Q K T A (jacks are trumps).
_PLAIN_ORDER = {0: 0, 1: 1, 2: 2, 5: 3, 6: 4, 3: 5, 7: 6}


def _build_tables() -> tuple[list[list[int]], list[list[int]], list[int]]:
    power: list[list[int]] = []
    follow: list[list[int]] = []
    trumps: list[int] = []
    for gt in GameType:
        pw = [0] * 32
        fm = [0] * 32
        if gt == GameType.NULL:
            trump_mask = 0
        elif gt.is_suit:
            trump_mask = JACKS | (suit_mask(gt) & ~JACKS)
        else:
            trump_mask = JACKS
        for card in range(32):
            suit, rank = card >> 3, card & 7
            if trump_mask >> card & 1:
                pw[card] = 40 + suit if rank == 4 else 20 + _PLAIN_ORDER[rank]
                fm[card] = trump_mask
            else:
                pw[card] = rank if gt == GameType.NULL else _PLAIN_ORDER[rank]
                fm[card] = suit_mask(suit) & ~trump_mask
        power.append(pw)
        follow.append(fm)
        trumps.append(trump_mask)
    return power, follow, trumps


POWER, FOLLOW_MASK, TRUMP_MASK = _build_tables()
"""POWER[game][card]: trick strength (trumps >= 20); FOLLOW_MASK[game][card]: the cards that
follow a lead of that card; TRUMP_MASK[game]: the trumps of a game type."""


def legal_cards(game_type: GameType | str, hand: CardSet | int | Iterable, trick: Sequence | CardSet = ()) -> CardSet:
    """The cards of ``hand`` that may be played to ``trick`` (the cards already in it, in order)."""
    gt = GameType.parse(game_type)
    hand_mask = mask_of(hand)
    lead = _first_card(trick)
    return CardSet.from_mask(legal_mask(gt, hand_mask, -1 if lead is None else lead))


def legal_mask(gt: int, hand: int, lead: int) -> int:
    """The follow-suit rule (docs/rules.md 1.3) on masks: the cards of ``hand`` that may be played to a
    trick led with ``lead`` (-1 for an empty trick): those that follow the led suit (a trump lead:
    the trumps), and any card when none does. The one place of the rule outside the compiled code:
    the engines, the players and the solver's Python side call it; the compiled core keeps a copy
    that ``tests/test_rules_consistency.py`` checks against it, the numba kernels compile the tables."""
    if lead < 0:
        return hand
    return hand & FOLLOW_MASK[gt][lead] or hand


def _first_card(trick: Sequence | CardSet) -> int | None:
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
    """The trick-winner rule (docs/rules.md 1.3) on card numbers, :func:`trick_winner`'s fast path: the
    index of the highest trump, else of the highest card of the led suit. The one place of the rule
    outside the compiled code (the core's copy is checked against it as :func:`legal_mask`'s is)."""
    power = POWER[gt]
    follow = FOLLOW_MASK[gt][played[0]]
    trumps = TRUMP_MASK[gt]
    best = 0
    best_key = power[played[0]]
    for i in range(1, len(played)):
        c = played[i]
        if trumps >> c & 1 or follow >> c & 1:
            key = power[c]
            if key > best_key:
                best, best_key = i, key
    return best


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
