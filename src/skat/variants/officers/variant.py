"""Officers' Skat as a variant (:mod:`skat.variants.registry`): its game, its actions' tokens, its records, its
wire form (:mod:`skat.variants.officers.wire`) and its table part (:mod:`skat.variants.officers.table`, which
the server loads by this name)."""

from __future__ import annotations

from skat.deal.variant import Variant
from skat.variants.officers.actions import parse_officers_action
from skat.variants.officers.game import OfficersGame
from skat.variants.officers.wire import WIRE

__all__ = ["VARIANT"]

VARIANT = Variant(
    name="officers", title="Officers' Skat (two players)", seats=2, game_class=OfficersGame,
    parse_action=parse_officers_action,
    start=lambda seed, rules, variant="classic", **options: OfficersGame(
        variant, seed, **(dict(rules.changed()) if rules is not None else {}), **options),
    load=OfficersGame.from_record, owns=lambda record: record.get("format") == "officers-skat",
    wire=WIRE, table="skat.variants.officers.table",
)
"""Officers' Skat as a variant; ``variant=`` picks one of its five games."""
