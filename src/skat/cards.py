"""Cards, suits, ranks and card sets as 32-bit masks.

A card is an integer 0..31: ``suit * 8 + rank`` with suits ordered
diamonds < hearts < spades < clubs and ranks in the natural (Null) order
7 8 9 T J Q K A.  A set of cards is a 32-bit integer mask; :class:`CardSet`
wraps one with a friendly, immutable interface.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from enum import IntEnum
from typing import TypeAlias

__all__ = [
    "Suit",
    "Rank",
    "Card",
    "CardSet",
    "cards",
    "card_points",
    "CardNotationError",
    "ALL_CARDS",
    "JACKS",
    "suit_mask",
    "mask_of",
    "iter_mask",
]


class CardNotationError(ValueError):
    """A card or card list could not be parsed."""


class Suit(IntEnum):
    """The four suits, in ascending order of precedence."""

    DIAMONDS = 0
    HEARTS = 1
    SPADES = 2
    CLUBS = 3

    @property
    def letter(self) -> str:
        return "DHSC"[self]

    @property
    def symbol(self) -> str:
        return "♦♥♠♣"[self]

    @property
    def german(self) -> str:
        return ("Karo", "Herz", "Pik", "Kreuz")[self]


class Rank(IntEnum):
    """The eight ranks in natural (Null) order."""

    SEVEN = 0
    EIGHT = 1
    NINE = 2
    TEN = 3
    JACK = 4
    QUEEN = 5
    KING = 6
    ACE = 7

    @property
    def letter(self) -> str:
        return "789TJQKA"[self]

    @property
    def points(self) -> int:
        return _RANK_POINTS[self]

    @property
    def german(self) -> str:
        return ("Sieben", "Acht", "Neun", "Zehn", "Bube", "Dame", "König", "Ass")[self]


_RANK_POINTS = (0, 0, 0, 10, 2, 3, 4, 11)
_SUIT_LETTERS = "DHSC"
_RANK_LETTERS = "789TJQKA"


class Card(IntEnum):
    """One of the 32 cards; the member name is its ISS notation (``CJ``, ``HT``, ``D7``)."""

    D7 = 0
    D8 = 1
    D9 = 2
    DT = 3
    DJ = 4
    DQ = 5
    DK = 6
    DA = 7
    H7 = 8
    H8 = 9
    H9 = 10
    HT = 11
    HJ = 12
    HQ = 13
    HK = 14
    HA = 15
    S7 = 16
    S8 = 17
    S9 = 18
    ST = 19
    SJ = 20
    SQ = 21
    SK = 22
    SA = 23
    C7 = 24
    C8 = 25
    C9 = 26
    CT = 27
    CJ = 28
    CQ = 29
    CK = 30
    CA = 31

    @property
    def suit(self) -> Suit:
        return Suit(self >> 3)

    @property
    def rank(self) -> Rank:
        return Rank(self & 7)

    @property
    def points(self) -> int:
        return _RANK_POINTS[self & 7]

    @property
    def bit(self) -> int:
        return 1 << self

    @property
    def symbol(self) -> str:
        """Symbol notation, e.g. ``♣J`` or ``♥10``."""
        rank = "10" if self.rank == Rank.TEN else self.rank.letter
        return self.suit.symbol + rank

    @property
    def german(self) -> str:
        """German name with French suits, e.g. ``Kreuz-Bube``."""
        return f"{self.suit.german}-{self.rank.german}"

    def __str__(self) -> str:
        return self.name

    @classmethod
    def of(cls, suit: Suit, rank: Rank) -> Card:
        return cls(suit * 8 + rank)

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse ISS notation (``CJ``), symbols (``♣J``, ``♥10``) or a German name."""
        card = _parse_card(text)
        if card is None:
            raise CardNotationError(
                f"unknown card {text!r}: write a suit (C S H D or ♣ ♠ ♥ ♦) and a rank "
                "(A T K Q J 9 8 7, or 10), e.g. 'CJ', '♥10', or a German name like 'Kreuz-Bube'"
            )
        return card


_SUIT_WORDS = {
    "c": 3, "clubs": 3, "club": 3, "kreuz": 3, "eichel": 3, "eicheln": 3, "♣": 3,
    "s": 2, "spades": 2, "spade": 2, "pik": 2, "grün": 2, "gruen": 2, "laub": 2, "blatt": 2, "♠": 2,
    "h": 1, "hearts": 1, "heart": 1, "herz": 1, "rot": 1, "♥": 1, "♡": 1,
    "d": 0, "diamonds": 0, "diamond": 0, "karo": 0, "schellen": 0, "schelle": 0, "♦": 0, "♢": 0,
}
_RANK_WORDS = {
    "a": 7, "ace": 7, "ass": 7, "daus": 7, "as": 7,
    "t": 3, "10": 3, "ten": 3, "zehn": 3,
    "k": 6, "king": 6, "könig": 6, "koenig": 6,
    "q": 5, "queen": 5, "dame": 5, "ober": 5, "o": 5, "d": 5,
    "j": 4, "jack": 4, "bube": 4, "unter": 4, "u": 4, "b": 4,
    "9": 2, "nine": 2, "neun": 2,
    "8": 1, "eight": 1, "acht": 1,
    "7": 0, "seven": 0, "sieben": 0,
}
_ISS_RE = re.compile(r"^([CSHD])([AKQJT987])$")
_SYMBOL_RE = re.compile(r"^([♣♠♥♦♡♢])\s*(10|[AKQJT987])$|^(10|[AKQJT987])\s*([♣♠♥♦♡♢])$", re.IGNORECASE)


def _parse_card(text: str) -> Card | None:
    t = text.strip()
    m = _ISS_RE.match(t)
    if m:
        return Card(_SUIT_LETTERS.index(m.group(1)) * 8 + _RANK_LETTERS.index(m.group(2)))
    m = _SYMBOL_RE.match(t)
    if m:
        sym, rank = (m.group(1), m.group(2)) if m.group(1) else (m.group(4), m.group(3))
        return Card(_SUIT_WORDS[sym] * 8 + _RANK_WORDS[rank.lower()])
    words = [w for w in re.split(r"[\s\-_]+", t.lower()) if w and w != "of"]
    if len(words) == 2:
        a, b = words
        if a in _SUIT_WORDS and b in _RANK_WORDS:  # "Kreuz Bube", "clubs jack"
            return Card(_SUIT_WORDS[a] * 8 + _RANK_WORDS[b])
        if b in _SUIT_WORDS and a in _RANK_WORDS:  # "jack of clubs"
            return Card(_SUIT_WORDS[b] * 8 + _RANK_WORDS[a])
    return None


ALL_CARDS = 0xFFFFFFFF
CARDS: tuple[Card, ...] = tuple(Card)
"""Every card by its number (``CARDS[n]`` is ``Card(n)`` without the enum's lookup)."""
CARD_NAMES: tuple[str, ...] = tuple(card.name for card in Card)
"""The ISS name of every card by its number (``CARD_NAMES[Card.CJ] == "CJ"``)."""
CARD_POINTS: tuple[int, ...] = tuple(_RANK_POINTS[c & 7] for c in range(32))
"""Card points by card number."""
JACKS = (1 << Card.DJ) | (1 << Card.HJ) | (1 << Card.SJ) | (1 << Card.CJ)
_POINTS_MASKS = [(sum(1 << (s * 8 + r) for s in range(4)), p) for r, p in enumerate(_RANK_POINTS) if p]


def suit_mask(suit: int) -> int:
    """All eight cards of a printed suit (jacks included)."""
    return 0xFF << (8 * suit)


def iter_mask(mask: int) -> Iterator[int]:
    """The card numbers in a mask, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def mask_names(mask: int) -> list[str]:
    """The ISS names of the cards in a mask, lowest first (``CardSet`` without making ``Card`` members)."""
    return [CARD_NAMES[i] for i in iter_mask(mask)]


CardsLike: TypeAlias = "Iterable[Card | int | str] | CardSet | int | str"
"""What :func:`mask_of` reads as cards: a CardSet, a 32-bit mask, a notation string or an iterable of
cards (members, card numbers or notations)."""


def mask_of(items: CardsLike) -> int:
    """A 32-bit mask from a CardSet, an int mask, a notation string or an iterable of cards."""
    if isinstance(items, CardSet):
        return items.mask
    if isinstance(items, int) and not isinstance(items, Card):
        if not 0 <= items <= ALL_CARDS:
            raise ValueError(f"a card mask must be a 32-bit unsigned integer, got {items}")
        return items
    if isinstance(items, Card):  # a card is no mask (Card.D7 == 0) and no iterable of cards
        raise TypeError(f"'Card' object is not iterable: write [{items.name}] or {items.name}.bit")
    if isinstance(items, str):
        items = _split_cards(items)
    mask = 0
    for item in items:
        card = Card.parse(item) if isinstance(item, str) else Card(item)
        if mask >> card & 1:
            raise CardNotationError(f"card {card.name} is listed twice")
        mask |= 1 << card
    return mask


def _split_cards(text: str) -> list[str]:
    text = text.strip()
    if not text:
        return []
    if re.search(r"[\s,.]", text):
        return [p for p in re.split(r"[\s,.]+", text) if p]
    if len(text) % 2 == 0 and all(_ISS_RE.match(text[i : i + 2]) for i in range(0, len(text), 2)):
        return [text[i : i + 2] for i in range(0, len(text), 2)]
    return [text]


def card_points(cards: CardsLike) -> int:
    """The card points (Augen) of a set of cards: A 11, T 10, K 4, Q 3, J 2."""
    mask = mask_of(cards)
    return sum(p * (mask & m).bit_count() for m, p in _POINTS_MASKS)


def mask_points(mask: int) -> int:
    """Card points of a raw mask (fast path)."""
    return (
        11 * (mask & 0x80808080).bit_count()
        + 10 * (mask & 0x08080808).bit_count()
        + 4 * (mask & 0x40404040).bit_count()
        + 3 * (mask & 0x20202020).bit_count()
        + 2 * (mask & 0x10101010).bit_count()
    )


class CardSet:
    """An immutable set of cards backed by a 32-bit mask."""

    __slots__ = ("mask",)
    mask: int
    """The 32-bit mask of the cards (bit ``n`` is ``Card(n)``)."""

    def __init__(self, cards: CardsLike = 0) -> None:
        object.__setattr__(self, "mask", mask_of(cards))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("CardSet is immutable")

    def __reduce__(self) -> tuple[Callable[[int], CardSet], tuple[int]]:
        return (CardSet.from_mask, (self.mask,))

    @classmethod
    def from_mask(cls, mask: int) -> CardSet:
        obj = object.__new__(cls)
        object.__setattr__(obj, "mask", mask)
        return obj

    def __iter__(self) -> Iterator[Card]:
        return (Card(i) for i in iter_mask(self.mask))

    def __len__(self) -> int:
        return self.mask.bit_count()

    def __bool__(self) -> bool:
        return self.mask != 0

    def __contains__(self, card: object) -> bool:
        if isinstance(card, str):
            card = Card.parse(card)
        if not isinstance(card, int) or not 0 <= card < 32:
            return False
        return bool(self.mask >> card & 1)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, CardSet):
            return self.mask == other.mask
        return NotImplemented

    def __hash__(self) -> int:
        return hash(("CardSet", self.mask))

    def __or__(self, other: CardsLike) -> CardSet:
        return CardSet.from_mask(self.mask | mask_of(other))

    def __and__(self, other: CardsLike) -> CardSet:
        return CardSet.from_mask(self.mask & mask_of(other))

    def __sub__(self, other: CardsLike) -> CardSet:
        return CardSet.from_mask(self.mask & ~mask_of(other))

    def __xor__(self, other: CardsLike) -> CardSet:
        return CardSet.from_mask(self.mask ^ mask_of(other))

    __ror__ = __or__
    __rand__ = __and__

    def __le__(self, other: CardSet) -> bool:
        return self.mask & ~other.mask == 0

    def __ge__(self, other: CardSet) -> bool:
        return other.mask & ~self.mask == 0

    @property
    def points(self) -> int:
        """Card points of the set."""
        return mask_points(self.mask)

    def of_suit(self, suit: Suit) -> CardSet:
        """Cards of a printed suit (jacks included)."""
        return CardSet.from_mask(self.mask & suit_mask(suit))

    def iss(self) -> str:
        return " ".join(c.name for c in self)

    def __str__(self) -> str:
        return self.iss()

    def __repr__(self) -> str:
        return f"cards({self.iss()!r})"


def cards(text: str | Iterable[Card | int | str] = "") -> CardSet:
    """A card set from notation: ``cards("CJ SJ HA")``, symbols, or German names separated by commas."""
    if isinstance(text, str) and "," in text:
        return CardSet([p for p in text.split(",") if p.strip()])
    return CardSet(text)
