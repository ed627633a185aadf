"""What a variant is: :class:`Variant` says how to start a deal of the game, read its record and
read its actions' wire tokens. Each variant's module defines one as ``VARIANT``;
:mod:`skat.variants.registry` finds them by name."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from skat.rules.actions import Action

__all__ = ["Variant", "skat_record_owner"]


@dataclass(frozen=True)
class Variant:
    """One game the engine plays.

    ``seats`` is the number of active seats at a deal (3 in Skat, 2 in Officers' Skat);
    ``parse_action`` reads an action's wire token (``str(action)`` writes it); ``start`` makes a
    new deal from a seed and the table's rules; ``load`` rebuilds a deal from its record, and
    ``owns`` says whether a record is one of this variant's.
    """

    name: str
    title: str
    seats: int
    game_class: type
    parse_action: Callable[[str], Action]
    start: Callable[..., Any]
    load: Callable[[dict[str, Any]], Any]
    owns: Callable[[Mapping[str, Any]], bool]

    def new_game(self, seed: int | None = None, rules: Any = None, **options: Any) -> Any:
        """A new deal of this variant (``rules``: its rule set or options; None for the defaults)."""
        return self.start(seed, rules, **options)

    def from_record(self, record: dict[str, Any]) -> Any:
        """The deal of a record of this variant, replayed action by action (RecordError if it does not)."""
        return self.load(record)


def skat_record_owner(variant: str) -> Callable[[Mapping[str, Any]], bool]:
    """``owns`` for a variant whose records are ``skat-game`` records with a ``variant`` key
    (``standard`` when it has none)."""
    def owns(record: Mapping[str, object]) -> bool:
        return record.get("format", "skat-game") == "skat-game" and record.get("variant", "standard") == variant
    return owns
