"""What a variant is: :class:`Variant` says how to start a deal of the game, read its record and
read its actions' wire tokens; a variant whose seat views are its own writes them by its :class:`WireForm`,
and a variant played at server tables names its table part. Each variant's module defines one as
``VARIANT``; :mod:`skat.variants.registry` finds them by name."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from skat.rules.actions import Action

__all__ = ["Variant", "WireForm", "skat_record_owner"]


@dataclass(frozen=True)
class WireForm:
    """The protocol's JSON (docs/protocol.md) of a variant whose seat views are its own class, not
    :class:`skat.deal.game.SeatView`: :mod:`skat.records.wire` asks the variant for it and never names it.

    ``view_to_json`` and ``view_from_json`` write and read a view of ``view_class`` (``from(to(view)) ==
    view``); ``public_view`` is the spectator's view of a deal, built from the facts both players see alike;
    ``reads_view`` and ``reads_result`` say whether a view's or a result's JSON is this variant's, and
    ``result_from_json`` reads such a result.
    """

    view_class: type
    view_to_json: Callable[[Any], dict[str, Any]]
    view_from_json: Callable[[dict[str, Any]], Any]
    public_view: Callable[[Any], Any]
    reads_view: Callable[[Mapping[str, Any]], bool]
    result_from_json: Callable[[dict[str, Any]], Any]
    reads_result: Callable[[Mapping[str, Any]], bool]


@dataclass(frozen=True)
class Variant:
    """One game the engine plays.

    ``seats`` is the number of active seats at a deal (3 in Skat, 2 in Officers' Skat);
    ``parse_action`` reads an action's wire token (``str(action)`` writes it); ``start`` makes a
    new deal from a seed and the table's rules; ``load`` rebuilds a deal from its record, and
    ``owns`` says whether a record is one of this variant's.

    ``wire`` is the wire form of a variant with views of its own (None: its views are
    :class:`~skat.deal.game.SeatView` objects, written as Skat's by :mod:`skat.records.wire`). ``table`` names the
    module of its table part (a ``skat.variants.<...>.table`` or ``skat.variants.<...>_table`` module whose
    ``TABLE`` is a :class:`skat.server.games.TableGame`): the server loads it by this name to play the variant
    at its tables (None: no server table plays it, as Tournee Skat, which a Skat table plays by its rule set).
    """

    name: str
    title: str
    seats: int
    game_class: type
    parse_action: Callable[[str], Action]
    start: Callable[..., Any]
    load: Callable[[dict[str, Any]], Any]
    owns: Callable[[Mapping[str, Any]], bool]
    wire: WireForm | None = None
    table: str | None = None

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
