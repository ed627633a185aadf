"""Officers' Skat's wire form (docs/protocol.md, "Officers' Skat tables"): its seat views and results to and
from JSON, and the spectator's view built from the facts both players see alike.

Its :class:`~skat.deal.variant.Variant` carries these as its :class:`~skat.deal.variant.WireForm`
(:data:`WIRE`), so :mod:`skat.records.wire` writes and reads an Officers' Skat view without naming the variant;
the parts every variant's views share (card lists, contracts, tricks) come from :mod:`skat.deal.wire_parts`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from skat.cards import Card, CardSet, mask_names
from skat.deal.variant import WireForm
from skat.deal.wire_parts import (
    card_names,
    card_set,
    contract_from_json,
    contract_json,
    result_json,
    tricks_from_json,
    tricks_json,
)
from skat.enums import Phase
from skat.variants.officers.actions import parse_officers_action
from skat.variants.officers.game import OfficersGame, OfficersResult, OfficersView
from skat.variants.officers.scoring import OfficersOutcome

__all__ = ["view_to_json", "view_from_json", "result_from_json", "public_view", "PUBLIC_FACTS", "WIRE"]


def _piles_json(piles: list[list[Card | None]]) -> list[list[str | None]]:
    return [[None if c is None else c.name for c in p] for p in piles]


def _piles(data: list[list[str | None]]) -> list[list[Card | None]]:
    return [[None if c is None else Card.parse(c) for c in p] for p in data]


def view_to_json(view: OfficersView) -> dict[str, Any]:
    """The JSON of an Officers' Skat seat's view (``view`` of a state message at an Officers' Skat table)."""
    return {
        "seat": view.seat, "variant": view.variant, "phase": view.phase.value, "to_move": view.to_move,
        "legal_actions": [str(a) for a in view.legal_actions], "chooser": view.chooser, "game": view.game,
        "contract": contract_json(view.contract),
        "kontra_level": view.kontra_level, "bid": view.bid, "auction": [[s, t] for s, t in view.auction],
        "own_piles": _piles_json(view.own_piles), "opponent_piles": _piles_json(view.opponent_piles),
        "hand": mask_names(view.hand.mask), "opponent_hand_size": view.opponent_hand_size,
        "opponent_hand": card_names(view.opponent_hand),
        "skat": card_names(view.skat),
        "discard": card_names(view.discard),
        "skat_size": view.skat_size, "trick": [[s, c.name] for s, c in view.trick],
        "tricks": tricks_json(view.tricks),
        "trick_points": list(view.trick_points), "tricks_won": list(view.tricks_won),
        "result": result_json(view.result), "options": dict(view.options),
    }


def result_from_json(data: dict[str, Any] | None) -> OfficersResult | None:
    """The :class:`OfficersResult` of its JSON (``result.to_json()``); None stays None."""
    if data is None:
        return None
    outcome = data["outcome"]
    return OfficersResult(
        kind=data["kind"], variant=data["variant"], game=data["game"], chooser=data["chooser"],
        contract=contract_from_json(data["contract"]), bid=data["bid"], kontra_level=data["kontra_level"],
        points=tuple(data["points"]), tricks=tuple(data["tricks"]), skat=card_set(data["skat"]),
        outcome=None if outcome is None else OfficersOutcome(**{**outcome, "scores": tuple(outcome["scores"])}),
        scores=tuple(data["scores"]), explanation=data["explanation"])


def view_from_json(data: dict[str, Any]) -> OfficersView:
    """The :class:`OfficersView` of its JSON (:func:`view_to_json`), result included."""
    hand = card_set(data["hand"])
    assert hand is not None
    return OfficersView(
        seat=data["seat"], variant=data["variant"], phase=Phase(data["phase"]), to_move=data["to_move"],
        legal_actions=[parse_officers_action(t) for t in data["legal_actions"]], chooser=data["chooser"],
        game=data["game"], contract=contract_from_json(data["contract"]), kontra_level=data["kontra_level"],
        bid=data["bid"], auction=[(s, t) for s, t in data["auction"]],
        own_piles=_piles(data["own_piles"]), opponent_piles=_piles(data["opponent_piles"]), hand=hand,
        opponent_hand_size=data["opponent_hand_size"], opponent_hand=card_set(data["opponent_hand"]),
        skat=card_set(data["skat"]), discard=card_set(data["discard"]), skat_size=data["skat_size"],
        trick=[(s, Card.parse(c)) for s, c in data["trick"]],
        tricks=tricks_from_json(data["tricks"]),  # type: ignore[arg-type]
        trick_points=tuple(data["trick_points"]),
        tricks_won=tuple(data["tricks_won"]),
        result=result_from_json(data["result"]),
        options=dict(data["options"]),
    )


PUBLIC_FACTS: tuple[str, ...] = (
    "variant", "phase", "to_move", "chooser", "game", "contract", "kontra_level", "bid", "auction", "skat_size", "trick", "tricks", "trick_points", "tricks_won", "result", "options",
)
"""The facts of an Officers' Skat table that both players see alike; of the cards only those facing
both players are public (face-up pile cards, played cards; every card once the game is over)."""


def public_view(game: OfficersGame) -> OfficersView:
    """The spectator's view: an :class:`OfficersView` whose "own" side is seat 0's and the "opponent" seat 1's,
    each card shown only where it faces both players (:data:`PUBLIC_FACTS`); ``seat`` None, no choices."""
    first, second = game.view(0), game.view(1)

    def both(mine: list[list[Card | None]], theirs: list[list[Card | None]]) -> list[list[Card | None]]:
        return [[a if a == b else None for a, b in zip(p, q, strict=True)] for p, q in zip(mine, theirs, strict=True)]

    over = game.phase is Phase.FINISHED
    return OfficersView(
        seat=None, legal_actions=[], own_piles=both(first.own_piles, second.opponent_piles),
        opponent_piles=both(first.opponent_piles, second.own_piles), opponent_hand_size=first.opponent_hand_size,
        hand=first.hand if over else CardSet(), opponent_hand=first.opponent_hand if over else None,
        skat=first.skat if over else None, discard=first.discard if over else None,
        **{name: getattr(first, name) for name in PUBLIC_FACTS},
    )


def _reads_view(data: Mapping[str, Any]) -> bool:
    return "own_piles" in data


def _reads_result(data: Mapping[str, Any]) -> bool:
    return "variant" in data


WIRE = WireForm(view_class=OfficersView, view_to_json=view_to_json, view_from_json=view_from_json,
                public_view=public_view, reads_view=_reads_view, result_from_json=result_from_json,
                reads_result=_reads_result)
"""Officers' Skat's wire form, carried by its variant (``VARIANT.wire``)."""
