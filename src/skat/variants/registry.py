"""The games the engine plays, by name: standard Skat, historical Tournee Skat and Officers' Skat.

Each variant lives in one module that defines its :class:`~skat.deal.variant.Variant` as
``VARIANT`` (:data:`BUILT_IN` lists them); the registry loads them the first time a variant is
looked up, so importing it costs nothing. Callers (records, :class:`skat.table.series.Table`, the arena,
the remote player, the analysis and the server) look a variant up here instead of asking
``if variant == ...``::

    >>> from skat.variants.registry import get_variant, variant_names
    >>> variant_names()
    ('standard', 'tournee', 'officers')
    >>> game = get_variant("tournee").new_game(seed=1)
    >>> type(game).__name__
    'TourneeGame'

Adding a variant means one module with its game class and its ``VARIANT``, and its name in
:data:`BUILT_IN` (or a :func:`register` call for a variant outside the package; see
docs/architecture.md).
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any

from skat.deal.game import DealState
from skat.deal.variant import Variant
from skat.errors import RecordError
from skat.rules.rulesets import RuleSet

__all__ = ["Variant", "DealState", "BUILT_IN", "register", "get_variant", "variant_names", "variants",
           "variant_for_rules", "variant_of_record", "variant_of_game", "from_record"]

BUILT_IN: tuple[str, ...] = ("skat.variants.standard", "skat.variants.tournee", "skat.variants.officers.variant")
"""The modules of the built-in variants, in the order they are listed; each defines ``VARIANT``."""

_VARIANTS: dict[str, Variant] = {}
_LOADED = False


def _registered() -> dict[str, Variant]:
    """The registered variants, the built-in ones loaded first (once)."""
    global _LOADED
    if not _LOADED:
        _LOADED = True
        extra = dict(_VARIANTS)
        _VARIANTS.clear()
        for name in BUILT_IN:
            variant = importlib.import_module(name).VARIANT
            _VARIANTS[variant.name] = variant
        for variant in extra.values():
            register(variant)
    return _VARIANTS


def register(variant: Variant) -> Variant:
    """Make a variant known by its name (a second one of the same name is an error)."""
    if variant.name in (_registered() if _LOADED else _VARIANTS):
        raise ValueError(f"a variant named {variant.name!r} is registered already")
    _VARIANTS[variant.name] = variant
    return variant


def get_variant(name: str) -> Variant:
    """The variant of this name; ValueError listing the known names otherwise."""
    try:
        return _registered()[name]
    except (KeyError, TypeError):
        raise ValueError(f"unknown variant {name!r}; choose one of: {', '.join(_registered())}") from None


def variant_names() -> tuple[str, ...]:
    """The names of the registered variants, in the order they were registered."""
    return tuple(_registered())


def variants() -> tuple[Variant, ...]:
    """Every registered variant."""
    return tuple(_registered().values())


def variant_for_rules(rules: RuleSet) -> Variant:
    """The variant a Skat rule set plays (its ``variant`` option: ``standard`` or ``tournee``)."""
    return get_variant(rules.variant)


def variant_of_record(record: Mapping[str, Any]) -> Variant:
    """The variant a game record belongs to; RecordError if no variant reads it."""
    if not isinstance(record, Mapping):
        raise RecordError(f"a game record is a JSON object, not {type(record).__name__}")
    for variant in _registered().values():
        if variant.owns(record):
            return variant
    raise RecordError(f"no variant reads a record of format {record.get('format')!r} "
                      f"and variant {record.get('variant')!r}; known variants: {', '.join(_registered())}")


def variant_of_game(game: object) -> Variant | None:
    """The registered variant whose game class ``game`` is an instance of, or None."""
    for variant in _registered().values():
        if isinstance(game, variant.game_class):
            return variant
    return None


def from_record(record: dict[str, Any]) -> Any:
    """The deal of any variant's record, replayed action by action."""
    return variant_of_record(record).from_record(record)
