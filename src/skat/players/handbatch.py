"""Many hands at once: the heuristic's hand strengths (:func:`skat.players.heuristic.hand_strength`) and the
learned bidder's contract features (:func:`skat.players.learned.contract_features`) of an array of card masks,
with numpy.

The inference weighs a pool of some hundred worlds by the auction (:class:`skat.players.inference.AuctionLikelihood`),
each world's hands judged as the bidder would; one hand at a time in Python that took longer than the dealing and
the search of a card decision together. These functions give the same numbers as the one-hand functions they
follow, the float operations in the same order (``tests/test_players_handbatch.py`` compares them on random hands
of every game type): change both together.
"""

from __future__ import annotations

import numpy as np

from skat.rules.ranking import TRUMP_MASK
from skat.rules.value import matador_count

__all__ = ["bits", "popcount", "card_points", "null_risks", "hand_strengths", "contract_features_of"]

_JACK, _TEN, _ACE, _KING = 4, 3, 7, 6
_NULL, _GRAND = 5, 4


def bits(hands: np.ndarray, card: int) -> np.ndarray:
    """Whether each hand holds bit ``card`` (0 or 1, int64)."""
    return (hands >> card) & 1


def popcount(masks: np.ndarray) -> np.ndarray:
    """The number of cards in each mask (int64)."""
    m = np.asarray(masks, dtype=np.int64)
    if hasattr(np, "bitwise_count"):  # numpy 2
        return np.bitwise_count(m).astype(np.int64)
    return sum(((m >> c) & 1 for c in range(32)), np.zeros(len(m), dtype=np.int64))


def card_points(masks: np.ndarray) -> np.ndarray:
    """:func:`skat.cards.mask_points` of each mask."""
    m = np.asarray(masks, dtype=np.int64)
    return (11 * popcount(m & 0x80808080) + 10 * popcount(m & 0x08080808) + 4 * popcount(m & 0x40404040)
            + 3 * popcount(m & 0x20202020) + 2 * popcount(m & 0x10101010))


def _suit_cards(hands: np.ndarray, suit: int) -> np.ndarray:
    """The cards of a suit without its jack, a bit per rank (0..7)."""
    return (hands >> (suit * 8)) & 0xFF & ~(1 << _JACK)


def null_risks(hands: np.ndarray) -> np.ndarray:
    """:func:`skat.players.heuristic.null_risk` of each hand."""
    risk = np.zeros(len(hands))
    for suit in range(4):
        cards = (hands >> (suit * 8)) & 0xFF
        seen = np.zeros(len(hands), dtype=np.int64)  # the cards of the suit below this rank
        done = np.zeros(len(hands), dtype=bool)
        for rank in range(8):  # ascending natural order 7 8 9 T J Q K A
            held = ((cards >> rank) & 1).astype(bool)
            first = held & ~done & (rank > 2 * seen)
            risk = risk + np.where(first, np.where(rank >= 2 * seen + 2, 1.0, 0.35), 0.0)
            done |= first
            seen += held
    return risk


def _side_strength(hands: np.ndarray, suit: int, trumps_held: np.ndarray) -> np.ndarray:
    cards = _suit_cards(hands, suit)
    n = popcount(cards)
    ace = ((cards >> _ACE) & 1).astype(bool)
    ten = ((cards >> _TEN) & 1).astype(bool)
    king = ((cards >> _KING) & 1).astype(bool)
    many = trumps_held >= 5
    s = np.zeros(len(hands))
    s = s + np.where(ace, 1.0, 0.0)
    s = s + np.where(ace & ten, 0.9, 0.0)
    s = s + np.where(ace & ten & king, 0.3, 0.0)
    s = s + np.where(~ace & ten, np.where(n >= 2, 0.45, -0.4), 0.0)
    s = s + np.where((n == 1) & ~ace & ~ten, np.where(many, 0.15, 0.0), 0.0)
    s = s + np.where((n >= 4) & ace, 0.3, 0.0)
    return np.where(n == 0, np.where(many, 0.6, 0.3), s)


def _trump_strengths(hands: np.ndarray, gt: int) -> np.ndarray:
    trumps = hands & TRUMP_MASK[gt]
    t = popcount(trumps)
    s = t.astype(np.float64)
    s = s + (0.6 * bits(hands, 28) + 0.35 * bits(hands, 20) + 0.15 * bits(hands, 12))
    s = s + (0.2 * bits(trumps, gt * 8 + _ACE) + 0.1 * bits(trumps, gt * 8 + _TEN))
    s = s - np.where(t <= 4, 1.0 * (5 - t), 0.0)
    for suit in range(4):
        if suit != gt:
            s = s + _side_strength(hands, suit, t)
    return s


def _grand_strengths(hands: np.ndarray) -> np.ndarray:
    j = sum((bits(hands, suit * 8 + _JACK) for suit in range(4)), np.zeros(len(hands), dtype=np.int64))
    s = 1.6 * j + 0.7 * bits(hands, 28) + 0.4 * bits(hands, 20)
    s = s - np.where(j <= 1, 2.0, 0.0)
    for suit in range(4):
        cards = _suit_cards(hands, suit)
        n = popcount(cards)
        ace = ((cards >> _ACE) & 1).astype(bool)
        ten = ((cards >> _TEN) & 1).astype(bool)
        king = ((cards >> _KING) & 1).astype(bool)
        s = s + np.where(ace, 1.2, 0.0)
        s = s + np.where(ace & ten, 1.1, 0.0)
        s = s + np.where(ace & ten & king, 0.4, 0.0)
        s = s + np.where(ace & (n >= 4), 0.5 * (n - 3), 0.0)
        s = s + np.where(~ace & ten, np.where(n >= 3, 0.3, -0.6), 0.0)
        s = s + np.where(~ace & ~ten & (n == 0), 0.4, 0.0)
        s = s - np.where(~ace & ~ten & (n >= 2), 0.4, 0.0)
    return s - 1.2


def hand_strengths(hands: np.ndarray, gt: int) -> np.ndarray:
    """:func:`skat.players.heuristic.hand_strength` of each hand for game type ``gt`` (Null: the risk)."""
    if gt == _NULL:
        return null_risks(hands)
    if gt == _GRAND:
        return _grand_strengths(hands)
    return _trump_strengths(hands, gt)


def contract_features_of(hands: np.ndarray, gt: int, seat: int, heard: int = 0) -> np.ndarray:
    """:func:`skat.players.learned.contract_features` of each hand, a row each."""
    n_hands = len(hands)
    points = card_points(hands) / 10.0
    position = [np.full(n_hands, float(seat == 0)), np.full(n_hands, float(seat == 1))]
    bidding = [np.full(n_hands, heard / 24.0), np.full(n_hands, float(heard > 0))]
    if gt == _NULL:
        zeros = np.zeros(n_hands, dtype=np.int64)
        lengths: list[np.ndarray] = []
        sevens, eights, highs, lone_high = zeros, zeros, zeros, zeros
        for suit in range(4):
            cards = (hands >> (suit * 8)) & 0xFF
            n = popcount(cards)
            lengths.append(n)
            sevens = sevens + (cards & 1)
            eights = eights + ((cards >> 1) & 1)
            highs = highs + popcount(cards >> 5) + ((cards >> _JACK) & 1)
            lone_high = lone_high + ((n == 1) & (cards & 0b111 == 0))
        stacked = np.stack(lengths)
        columns = [null_risks(hands), sevens, eights, highs, (stacked == 0).sum(axis=0), (stacked == 1).sum(axis=0),
                   stacked.max(axis=0), lone_high, points, *position, *bidding]
        return np.stack([np.asarray(c, dtype=np.float64) for c in columns], axis=1)
    jacks = [bits(hands, s * 8 + _JACK) for s in (3, 2, 1, 0)]
    runs = [matador_count(gt, int(h)) for h in hands]
    matadors = np.array([count if with_ else -count for with_, count in runs], dtype=np.int64)
    trump_cards = _suit_cards(hands, gt) if gt < 4 else np.zeros(n_hands, dtype=np.int64)
    trumps = jacks[0] + jacks[1] + jacks[2] + jacks[3] + popcount(trump_cards)
    zero = np.zeros(n_hands, dtype=np.int64)
    side_aces, side_tens, bare_tens, voids, singletons, longest = zero, zero, zero, zero, zero, zero
    for s in range(4):
        if s == gt:
            continue
        cards = _suit_cards(hands, s)
        n = popcount(cards)
        ace, ten = (cards >> _ACE) & 1, (cards >> _TEN) & 1
        side_aces = side_aces + ace
        side_tens = side_tens + ten
        bare_tens = bare_tens + ((ten == 1) & (ace == 0) & (n <= 2))
        voids = voids + (n == 0)
        singletons = singletons + (n == 1)
        longest = np.maximum(longest, n)
    columns = [*jacks, matadors, trumps, (trump_cards >> _ACE) & 1, (trump_cards >> _TEN) & 1, side_aces, side_tens,
               bare_tens, voids, singletons, longest, points, *position, hand_strengths(hands, gt), *bidding]
    return np.stack([np.asarray(c, dtype=np.float64) for c in columns], axis=1)
