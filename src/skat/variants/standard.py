"""Standard Skat as a variant: :class:`skat.deal.game.Game` (the International Skat Order and every
house rule of its rule set) found by the name ``standard``."""

from __future__ import annotations

from skat.deal.game import Game
from skat.deal.variant import Variant, skat_record_owner
from skat.rules.rulesets import ISKO

__all__ = ["VARIANT"]

VARIANT = Variant(
    name="standard", title="Skat", seats=3, game_class=Game, parse_action=Game.parse_action,
    start=lambda seed, rules, **options: Game(seed, ruleset=rules or ISKO, **options),
    load=Game.from_record, owns=skat_record_owner("standard"),
    table="skat.variants.standard_table",
)
"""Standard Skat: three seats, the rule set's house rules, ``skat-game`` records without a variant; played at
server tables of 3, 4 or 5 (its table part: :mod:`skat.variants.standard_table`)."""
