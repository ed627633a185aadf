"""The games the engine plays, by name (:mod:`skat.variants.registry`): standard Skat, historical
Tournee Skat and Officers' Skat."""

from skat.variants.registry import (
    DealState,
    Variant,
    from_record,
    get_variant,
    register,
    variant_for_rules,
    variant_names,
    variant_of_game,
    variant_of_record,
    variants,
)

__all__ = ["Variant", "DealState", "register", "get_variant", "variant_names", "variants", "variant_for_rules",
           "variant_of_record", "variant_of_game", "from_record"]
