"""The enums every layer names: the game types and the phases of a deal.

A leaf of the package: it imports nothing from it, so the cards, the rules, the compiled core
(:mod:`skat.deal._core`) and everything above can share these members. They are re-exported where they
were first defined: :class:`GameType` by :mod:`skat.rules.ranking`, :class:`Phase` by :mod:`skat.deal.game`.
"""

from __future__ import annotations

from enum import IntEnum, StrEnum

__all__ = ["GameType", "Phase"]


class GameType(IntEnum):
    """Game types. The four suits share their number with :class:`skat.cards.Suit`."""

    DIAMONDS = 0
    HEARTS = 1
    SPADES = 2
    CLUBS = 3
    GRAND = 4
    NULL = 5
    RAMSCH = 6  # trick rules of grand; no declarer

    @property
    def label(self) -> str:
        """Lower-case name used in JSON and on the command line (``clubs``, ``grand``)."""
        return _LABELS[self]

    @property
    def is_suit(self) -> bool:
        return self <= GameType.CLUBS

    @property
    def base_value(self) -> int:
        """Base value of a suit or grand game (ISkO): 9, 10, 11, 12, 24."""
        if self <= GameType.CLUBS:
            return 9 + int(self)
        if self in (GameType.GRAND, GameType.RAMSCH):
            return 24
        raise ValueError("Null games have fixed values, not a base value")

    @classmethod
    def parse(cls, text: object) -> GameType:
        """The game type that a name or an alias names (any case, spaces around), or a game type itself. Anything
        else is read as its ``str()``; what names no game type (a bool, a number) raises :class:`ValueError`."""
        if isinstance(text, GameType):
            return text
        key = str(text).strip().lower()
        aliases = {
            "c": "clubs", "s": "spades", "h": "hearts", "d": "diamonds", "g": "grand", "n": "null",
            "kreuz": "clubs", "pik": "spades", "herz": "hearts", "karo": "diamonds",
        }
        key = aliases.get(key, key)
        try:
            return cls[key.upper()]
        except KeyError:
            names = ", ".join(g.label for g in cls)
            raise ValueError(f"unknown game type {text!r}; expected one of: {names}") from None


_LABELS = tuple(g.name.lower() for g in GameType)


class Phase(StrEnum):
    """The phases of a deal, of every variant (one enum: the base state compares them by identity)."""

    BIDDING = "bidding"
    SKAT = "skat"  # declarer decides: pick up the skat or declare a hand game
    DISCARD = "discard"
    DECLARE = "declare"
    PLAY = "play"
    FINISHED = "finished"
    GRAND_HAND = "grand_hand"  # all passed: each player in turn may play Grand Hand instead of Ramsch
    PUSH = "push"  # Schieberamsch: each player in turn takes the skat and pushes two cards, or pushes it on
    # Officers' Skat (docs/rules.md 9)
    CHOOSE = "choose"  # the chooser names the game (or passes, in the passing variant)
    KONTRA = "kontra"  # the other player may say Kontra
    RE = "re"  # the chooser may answer Re
