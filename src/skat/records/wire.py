"""The wire form of the game: seat views, results and actions to and from JSON (docs/protocol.md).

One module holds the protocol's JSON both ways, so the server that writes it and the clients that
read it cannot drift apart:

* actions: :func:`action_token` (an action's token, ``str(action)``) and :func:`parse_token` (a
  token of a variant: ``standard``, ``tournee``, ``officers``, any registered one);
* views: :func:`seat_view_to_json` / :func:`seat_view_from_json` for a :class:`~skat.deal.game.SeatView`
  (standard and Tournee Skat), and :func:`view_to_json` / :func:`view_from_json` for a view of any variant:
  a variant whose views are its own class writes and reads them by its
  :class:`~skat.deal.variant.WireForm` (``Variant.wire``; Officers' Skat's is
  :mod:`skat.variants.officers.wire`), found through the registry, never by name here;
  ``from_json(to_json(view)) == view`` field by field, the result of a finished deal included
  (:func:`result_from_json`);
* the spectator's view: :func:`public_view` builds it from an allow-list of public facts
  (:data:`PUBLIC_FACTS`; a variant with views of its own, by its wire form), never from a seat's view with
  its secrets blanked.

The server (:mod:`skat.server.core`, through each table game's state) sends what this module writes;
:mod:`skat.players.remote` reads it back for a bot in a seat. ``officers_view_to_json``,
``officers_view_from_json`` and ``PUBLIC_OFFICERS_FACTS`` are Officers' Skat's own
(:mod:`skat.variants.officers.wire`), kept here for the callers that import them from this module.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from skat.cards import CARD_NAMES, Card, CardSet, mask_names
from skat.deal.game import GameResult, Phase, SeatView
from skat.deal.ramsch import RamschOutcome
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
from skat.rules.actions import Action
from skat.rules.value import Outcome
from skat.variants.officers.wire import PUBLIC_FACTS as PUBLIC_OFFICERS_FACTS
from skat.variants.officers.wire import view_from_json as officers_view_from_json
from skat.variants.officers.wire import view_to_json as officers_view_to_json
from skat.variants.registry import get_variant, variant_of_game, variants
from skat.variants.tournee import TourneeResult

__all__ = [
    "action_token", "action_tokens", "parse_token",
    "seat_view_to_json", "seat_view_from_json", "officers_view_to_json", "officers_view_from_json",
    "view_to_json", "view_from_json", "result_from_json", "contract_from_json",
    "public_view", "PUBLIC_FACTS", "PUBLIC_OFFICERS_FACTS",
]

# ---------------------------------------------------------------- actions


def action_token(action: Action) -> str:
    """An action's token on the wire (``18``, ``pass``, ``discard CT DT``, ``declare grand hand``, ``CJ``)."""
    return str(action)


def action_tokens(actions: Iterable[Action]) -> list[str]:
    return [str(a) for a in actions]


def parse_token(token: str, variant: str = "standard") -> Action:
    """The action of a token of ``variant`` (``standard``, ``tournee``, ``officers``); a token that is
    no action raises :class:`~skat.errors.IllegalActionError` saying what is expected."""
    return get_variant(variant).parse_action(token)


def _token_variant(ruleset: Any) -> str:
    return "tournee" if ruleset == "tournee" else "standard"


# ---------------------------------------------------------------- results
def _outcome(data: dict[str, Any] | None) -> Outcome | None:
    if data is None:
        return None
    return Outcome(**{**data, "contract": contract_from_json(data["contract"])})


def _ramsch(data: dict[str, Any] | None) -> RamschOutcome | None:
    if data is None:
        return None
    return RamschOutcome(
        scores=tuple(data["scores"]), card_points=tuple(data["card_points"]),
        tricks=tuple(data["tricks"]), losers=tuple(data["losers"]),
        jungfrauen=tuple(data["jungfrauen"]), durchmarsch=data["durchmarsch"], pushes=data["pushes"],
        multiplier=data["multiplier"], explanation=data["explanation"])


def _game_result(data: dict[str, Any]) -> GameResult:
    fields: dict[str, Any] = dict(
        kind=data["kind"], declarer=data["declarer"], contract=contract_from_json(data["contract"]), bid=data["bid"],
        won=data["won"], declarer_points=data["declarer_points"], defender_points=data["defender_points"],
        declarer_tricks=data["declarer_tricks"], skat=card_set(data["skat"]), discard=card_set(data["discard"]),
        outcome=_outcome(data["outcome"]), scores=tuple(data["scores"]), explanation=data["explanation"],
        kontra_level=data.get("kontra_level", 0), ramsch=_ramsch(data.get("ramsch")), revoke_by=data.get("revoke_by"))
    if "game_name" in data:
        return TourneeResult(**fields, game_name=data["game_name"], second_turn=data["second_turn"],
                             turned=tuple(data["turned"]))
    return GameResult(**fields)


def result_from_json(data: dict[str, Any] | None) -> Any:
    """The result of its JSON (``result.to_json()``): a :class:`GameResult`, a Tournee's
    :class:`~skat.variants.tournee.TourneeResult`, or the result of a variant whose wire form reads it (an
    Officers' Skat result); None stays None."""
    if data is None:
        return None
    for form in _forms():
        if form.reads_result(data):
            return form.result_from_json(data)
    return _game_result(data)


# ------------------------------------------------- seat views (Skat, Tournee)
def seat_view_to_json(view: SeatView) -> dict[str, Any]:
    """The JSON of a seat's view as the server sends it (docs/protocol.md, ``view``)."""
    return {
        "kontra_level": view.kontra_level,
        "seat": view.seat,
        "phase": view.phase.value,
        "to_move": view.to_move,
        "hand": mask_names(view.hand.mask),
        "legal_actions": [str(a) for a in view.legal_actions],
        "side_actions": [str(a) for a in view.side_actions],
        "auction": [[s, t] for s, t in view.auction],
        "bid": view.bid,
        "declarer": view.declarer,
        "contract": contract_json(view.contract),
        "skat": card_names(view.skat),
        "discard": card_names(view.discard),
        "open_hands": {str(s): mask_names(h.mask) for s, h in view.open_hands.items()},
        "trick": [[s, CARD_NAMES[c]] for s, c in view.trick],
        "tricks": tricks_json(view.tricks),
        "trick_points": list(view.trick_points),
        "hand_sizes": list(view.hand_sizes),
        "result": result_json(view.result),
        "ruleset": view.ruleset,
    }


def seat_view_from_json(data: dict[str, Any]) -> SeatView:
    """The :class:`SeatView` of its JSON (:func:`seat_view_to_json`), result included."""
    variant = _token_variant(data.get("ruleset"))
    hand = card_set(data["hand"])
    assert hand is not None
    return SeatView(
        seat=data["seat"], phase=Phase(data["phase"]), to_move=data["to_move"], hand=hand,
        legal_actions=[parse_token(t, variant) for t in data["legal_actions"]],
        side_actions=[parse_token(t, variant) for t in data.get("side_actions", [])],
        auction=[(s, t) for s, t in data["auction"]], bid=data["bid"], declarer=data["declarer"],
        contract=contract_from_json(data["contract"]), skat=card_set(data["skat"]), discard=card_set(data["discard"]),
        open_hands={int(s): CardSet([Card.parse(n) for n in h]) for s, h in data["open_hands"].items()},
        trick=[(s, Card.parse(c)) for s, c in data["trick"]],
        tricks=tricks_from_json(data["tricks"]),  # type: ignore[arg-type]
        trick_points=tuple(data["trick_points"]),
        hand_sizes=tuple(data["hand_sizes"]),
        result=result_from_json(data.get("result")),
        ruleset=data["ruleset"], kontra_level=data.get("kontra_level", 0),
    )


# ------------------------------------------------------- any variant's views
def _forms() -> list[WireForm]:
    """The wire forms of the registered variants whose views are their own."""
    return [variant.wire for variant in variants() if variant.wire is not None]


def view_to_json(view: Any) -> dict[str, Any]:
    """The JSON of a seat view of any variant: by the wire form of the variant whose views are of its class, a
    :class:`SeatView` as Skat's (:func:`seat_view_to_json`)."""
    for form in _forms():
        if isinstance(view, form.view_class):
            return form.view_to_json(view)
    return seat_view_to_json(view)


def view_from_json(data: dict[str, Any]) -> Any:
    """The view of its JSON: by the wire form that reads it (an Officers' Skat view has ``own_piles``), else a
    :class:`SeatView`."""
    for form in _forms():
        if form.reads_view(data):
            return form.view_from_json(data)
    return seat_view_from_json(data)


# ------------------------------------------------------- the public view
PUBLIC_FACTS: tuple[str, ...] = (
    "phase", "to_move", "auction", "bid", "declarer", "contract", "kontra_level", "open_hands",
    "trick", "tricks", "trick_points", "hand_sizes", "result", "ruleset",
)
"""What everybody at a Skat table sees, the same for every seat: the phase and who is to move, the
auction as it was said aloud, the declarer and his announced contract, Kontra/Re, the hands laid
open (an ouvert game, a claim, every remaining hand once the deal is over), the current and the
completed tricks with their card points, how many cards each seat holds, and the result when the
deal is over (with the skat and the discard: the finished deal is public). Tournee Skat's turned
skat cards are public too (the ``skat`` of the public view). Never public while the deal runs: a
hand, the skat, the discard, Schieberamsch's pushed cards, and a seat's choices."""


def _public_skat_view(game: Any) -> SeatView:
    seen = game.view(0)  # the public facts are the same in every seat's view (tests/test_wire.py)
    turned = getattr(game, "turned", None)  # Tournee Skat: the turned skat card(s), shown to everybody
    return SeatView(
        seat=None, hand=CardSet(), legal_actions=[], side_actions=[],
        skat=CardSet(turned) if turned else None, discard=None,
        **{name: getattr(seen, name) for name in PUBLIC_FACTS},
    )


def public_view(game: Any) -> Any:
    """The spectator's view of a game: only the public facts, with ``seat`` None, no hand and no choices.

    For standard and Tournee Skat a :class:`SeatView` of :data:`PUBLIC_FACTS` (the ``view`` a spectator
    receives, written by :func:`seat_view_to_json`); for a variant with views of its own, its wire form's
    (Officers' Skat: an ``OfficersView`` whose "own" side is seat 0's and the "opponent" seat 1's, each card
    shown only where it faces both players, :data:`PUBLIC_OFFICERS_FACTS`).
    """
    variant = variant_of_game(game)
    form = None if variant is None else variant.wire
    if form is not None:
        return form.public_view(game)
    return _public_skat_view(game)
