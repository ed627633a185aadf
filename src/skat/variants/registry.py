"""The games the engine plays, by name: standard Skat, historical Tournee Skat and Officers' Skat.

A :class:`Variant` says how to start a deal, read its record and read its actions' wire tokens;
callers (records, :class:`skat.table.Table`, the arena, the remote player, the analysis and the
server) look a variant up here instead of asking ``if variant == ...``::

    >>> from skat.variants.registry import get_variant, variant_names
    >>> variant_names()
    ('standard', 'tournee', 'officers')
    >>> game = get_variant("tournee").new_game(seed=1)
    >>> type(game).__name__
    'TourneeGame'

Adding a variant means one module with its game class and one :func:`register` call (see
docs/architecture.md).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from skat.actions import Action
from skat.errors import RecordError
from skat.game import DealState, Game
from skat.officers.game import OfficersGame
from skat.rulesets import ISKO, TOURNEE, RuleSet
from skat.tournee import TourneeGame
from skat.wire import parse_token

__all__ = ["Variant", "DealState", "register", "get_variant", "variant_names", "variants", "variant_for_rules",
           "variant_of_record", "variant_of_game", "from_record"]


@dataclass(frozen=True)
class Variant:
    """One game the engine plays.

    ``seats`` is the number of active seats at a deal (3 in Skat, 2 in Officers' Skat);
    ``parse_action`` reads an action's wire token (:func:`skat.wire.parse_token`; ``str(action)``
    writes it); ``start`` makes a
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


_VARIANTS: dict[str, Variant] = {}


def register(variant: Variant) -> Variant:
    """Make a variant known by its name (a second one of the same name is an error)."""
    if variant.name in _VARIANTS:
        raise ValueError(f"a variant named {variant.name!r} is registered already")
    _VARIANTS[variant.name] = variant
    return variant


def get_variant(name: str) -> Variant:
    """The variant of this name; ValueError listing the known names otherwise."""
    try:
        return _VARIANTS[name]
    except (KeyError, TypeError):
        raise ValueError(f"unknown variant {name!r}; choose one of: {', '.join(_VARIANTS)}") from None


def variant_names() -> tuple[str, ...]:
    """The names of the registered variants, in the order they were registered."""
    return tuple(_VARIANTS)


def variants() -> tuple[Variant, ...]:
    """Every registered variant."""
    return tuple(_VARIANTS.values())


def variant_for_rules(rules: RuleSet) -> Variant:
    """The variant a Skat rule set plays (its ``variant`` option: ``standard`` or ``tournee``)."""
    return get_variant(rules.variant)


def variant_of_record(record: Mapping[str, Any]) -> Variant:
    """The variant a game record belongs to; RecordError if no variant reads it."""
    if not isinstance(record, Mapping):
        raise RecordError(f"a game record is a JSON object, not {type(record).__name__}")
    for variant in _VARIANTS.values():
        if variant.owns(record):
            return variant
    raise RecordError(f"no variant reads a record of format {record.get('format')!r} "
                      f"and variant {record.get('variant')!r}; known variants: {', '.join(_VARIANTS)}")


def variant_of_game(game: object) -> Variant | None:
    """The registered variant whose game class ``game`` is an instance of, or None."""
    for variant in _VARIANTS.values():
        if isinstance(game, variant.game_class):
            return variant
    return None


def from_record(record: dict[str, Any]) -> Any:
    """The deal of any variant's record, replayed action by action."""
    return variant_of_record(record).from_record(record)


# --------------------------------------------------------------------- the built-in variants
def _skat_record(variant: str) -> Callable[[Mapping[str, Any]], bool]:
    def owns(record: Mapping[str, Any]) -> bool:
        return record.get("format", "skat-game") == "skat-game" and record.get("variant", "standard") == variant
    return owns


register(Variant(
    name="standard", title="Skat", seats=3, game_class=Game, parse_action=functools.partial(parse_token, variant="standard"),
    start=lambda seed, rules, **options: Game(seed, ruleset=rules or ISKO, **options),
    load=Game.from_record, owns=_skat_record("standard"),
))
register(Variant(
    name="tournee", title="Tournee Skat (historical)", seats=3, game_class=TourneeGame,
    parse_action=functools.partial(parse_token, variant="tournee"),
    start=lambda seed, rules, **options: TourneeGame(seed, ruleset=rules or TOURNEE, **options),
    load=TourneeGame.from_record, owns=_skat_record("tournee"),
))
register(Variant(
    name="officers", title="Officers' Skat (two players)", seats=2, game_class=OfficersGame,
    parse_action=functools.partial(parse_token, variant="officers"),
    start=lambda seed, rules, variant="classic", **options: OfficersGame(
        variant, seed, **(dict(rules.changed()) if rules is not None else {}), **options),
    load=OfficersGame.from_record, owns=lambda record: record.get("format") == "officers-skat",
))
