"""Contracts (what the declarer announces) and the rules for announcing them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from skat._compiled import compiled_module
from skat.errors import IllegalActionError
from skat.rules.ranking import GameType

if TYPE_CHECKING:  # the source, typed by its Cython annotations (typings/cython.pyi)
    from skat.rules import kernel as _kernel
else:
    _kernel = compiled_module("skat.rules.kernel")

__all__ = ["Contract", "DeclarationError", "NULL_VALUES", "null_value"]


class DeclarationError(IllegalActionError):
    """A declaration that the rules do not allow."""


if TYPE_CHECKING:  # typed here: mypy checks the kernel after this module and cannot infer it in time
    NULL_VALUES: dict[tuple[bool, bool], int]
else:
    NULL_VALUES = _kernel.NULL_VALUES
"""Fixed Null values by (hand, ouvert) (the kernel's, which reaching the bid uses)."""


def null_value(hand: bool, ouvert: bool) -> int:
    return NULL_VALUES[(bool(hand), bool(ouvert))]


@dataclass(frozen=True, slots=True)
class Contract:
    """A declared game: game type plus hand, Schneider/Schwarz announced and ouvert.

    Implied announcements are filled in: a suit or grand ouvert is a hand game
    with Schwarz announced, and Schwarz announced implies Schneider announced.
    """

    game_type: GameType
    hand: bool = False
    schneider: bool = False
    schwarz: bool = False
    ouvert: bool = False

    def __post_init__(self) -> None:
        gt = GameType.parse(self.game_type)
        object.__setattr__(self, "game_type", gt)
        if gt == GameType.RAMSCH:
            raise DeclarationError("Ramsch is not a contract a declarer can announce")
        if gt != GameType.NULL:
            if self.ouvert:
                object.__setattr__(self, "hand", True)
                object.__setattr__(self, "schwarz", True)
            if self.schwarz:
                object.__setattr__(self, "schneider", True)
        elif self.schneider or self.schwarz:
            raise DeclarationError("Schneider and Schwarz cannot be announced in a Null game")
        if (self.schneider or self.schwarz) and not self.hand:
            raise DeclarationError("Schneider or Schwarz may only be announced in a hand game")

    @property
    def is_null(self) -> bool:
        return self.game_type == GameType.NULL

    def __str__(self) -> str:
        words = [self.game_type.label]
        if self.hand:
            words.append("hand")
        if self.ouvert:
            words.append("ouvert")
        elif self.schwarz:
            words.append("schwarz")
        elif self.schneider:
            words.append("schneider")
        return " ".join(words)

    @classmethod
    def parse(cls, text: str) -> Contract:
        """Parse ``"grand hand schneider"``, ``"null ouvert"``, ``"clubs"``..."""
        words = text.lower().replace("-", " ").split()
        if not words:
            raise DeclarationError("empty contract: name a game type such as 'clubs' or 'grand hand'")
        gt = GameType.parse(words[0])
        flags = {"hand": False, "schneider": False, "schwarz": False, "ouvert": False}
        for w in words[1:]:
            if w not in flags:
                raise DeclarationError(f"unknown announcement {w!r}: use hand, schneider, schwarz or ouvert")
            flags[w] = True
        return cls(gt, **flags)

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game_type.label,
            "hand": self.hand,
            "schneider": self.schneider,
            "schwarz": self.schwarz,
            "ouvert": self.ouvert,
        }
