"""The wire form of the game: seat views, results and actions to and from JSON (docs/protocol.md).

One module holds the protocol's JSON both ways, so the server that writes it and the clients that
read it cannot drift apart:

* actions: :func:`action_token` (an action's token, ``str(action)``) and :func:`parse_token` (a
  token of a variant: ``standard``, ``tournee`` or ``officers``);
* views: :func:`seat_view_to_json` / :func:`seat_view_from_json` for a :class:`~skat.deal.game.SeatView`
  (standard and Tournee Skat), :func:`officers_view_to_json` / :func:`officers_view_from_json` for an
  :class:`~skat.variants.officers.game.OfficersView`, and :func:`view_to_json` / :func:`view_from_json` for
  either; ``from_json(to_json(view)) == view`` field by field, the result of a finished deal included
  (:func:`result_from_json`);
* the spectator's view: :func:`public_view` builds it from an allow-list of public facts
  (:data:`PUBLIC_FACTS`), never from a seat's view with its secrets blanked.

The server (:mod:`skat.server.tables`, :mod:`skat.server.officers`) sends what this module writes;
:mod:`skat.players.remote` reads it back for a bot in a seat.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from skat.cards import CARD_NAMES, Card, CardSet, mask_names
from skat.deal.game import GameResult, Phase, SeatView
from skat.deal.ramsch import RamschOutcome
from skat.rules.actions import Action
from skat.rules.contract import Contract
from skat.rules.ranking import GameType
from skat.rules.value import Outcome
from skat.variants.officers.game import OfficersGame, OfficersResult, OfficersView
from skat.variants.officers.game import Phase as OfficersPhase
from skat.variants.officers.scoring import OfficersOutcome
from skat.variants.registry import get_variant
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


# ------------------------------------------------------------ small parts
def _names(cards: Iterable[Card] | None) -> list[str] | None:
    if cards is None:
        return None
    if isinstance(cards, CardSet):
        return mask_names(cards.mask)
    return [CARD_NAMES[c] for c in cards]


def _cards(names: list[str] | None) -> CardSet | None:
    return None if names is None else CardSet([Card.parse(n) for n in names])


def contract_from_json(data: dict[str, Any] | None) -> Contract | None:
    """The contract of :meth:`Contract.to_json` output (None stays None)."""
    if data is None:
        return None
    return Contract(GameType.parse(data["game"]), hand=data["hand"], schneider=data["schneider"],
                    schwarz=data["schwarz"], ouvert=data["ouvert"])


def _contract_json(contract: Contract | None) -> dict[str, Any] | None:
    return None if contract is None else contract.to_json()


def _result_json(result: Any) -> dict[str, Any] | None:
    return None if result is None else result.to_json()


def _tricks_json(tricks: Sequence[tuple[int, tuple[Card, ...], int]]) -> list[list[Any]]:
    return [[ld, [CARD_NAMES[c] for c in cs], w] for ld, cs, w in tricks]


def _tricks(data: list[list[Any]]) -> list[tuple[int, tuple[Card, ...], int]]:
    return [(ld, tuple(Card.parse(c) for c in cs), w) for ld, cs, w in data]


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
        declarer_tricks=data["declarer_tricks"], skat=_cards(data["skat"]), discard=_cards(data["discard"]),
        outcome=_outcome(data["outcome"]), scores=tuple(data["scores"]), explanation=data["explanation"],
        kontra_level=data.get("kontra_level", 0), ramsch=_ramsch(data.get("ramsch")), revoke_by=data.get("revoke_by"))
    if "game_name" in data:
        return TourneeResult(**fields, game_name=data["game_name"], second_turn=data["second_turn"],
                             turned=tuple(data["turned"]))
    return GameResult(**fields)


def _officers_result(data: dict[str, Any]) -> OfficersResult:
    outcome = data["outcome"]
    return OfficersResult(
        kind=data["kind"], variant=data["variant"], game=data["game"], chooser=data["chooser"],
        contract=contract_from_json(data["contract"]), bid=data["bid"], kontra_level=data["kontra_level"],
        points=tuple(data["points"]), tricks=tuple(data["tricks"]), skat=_cards(data["skat"]),
        outcome=None if outcome is None else OfficersOutcome(**{**outcome, "scores": tuple(outcome["scores"])}),
        scores=tuple(data["scores"]), explanation=data["explanation"])


def result_from_json(data: dict[str, Any] | None) -> GameResult | OfficersResult | None:
    """The result of its JSON (``result.to_json()``): a :class:`GameResult`, a Tournee's
    :class:`~skat.variants.tournee.TourneeResult` or an :class:`OfficersResult`; None stays None."""
    if data is None:
        return None
    if "variant" in data:
        return _officers_result(data)
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
        "contract": _contract_json(view.contract),
        "skat": _names(view.skat),
        "discard": _names(view.discard),
        "open_hands": {str(s): mask_names(h.mask) for s, h in view.open_hands.items()},
        "trick": [[s, CARD_NAMES[c]] for s, c in view.trick],
        "tricks": _tricks_json(view.tricks),
        "trick_points": list(view.trick_points),
        "hand_sizes": list(view.hand_sizes),
        "result": _result_json(view.result),
        "ruleset": view.ruleset,
    }


def seat_view_from_json(data: dict[str, Any]) -> SeatView:
    """The :class:`SeatView` of its JSON (:func:`seat_view_to_json`), result included."""
    variant = _token_variant(data.get("ruleset"))
    hand = _cards(data["hand"])
    assert hand is not None
    return SeatView(
        seat=data["seat"], phase=Phase(data["phase"]), to_move=data["to_move"], hand=hand,
        legal_actions=[parse_token(t, variant) for t in data["legal_actions"]],
        side_actions=[parse_token(t, variant) for t in data.get("side_actions", [])],
        auction=[(s, t) for s, t in data["auction"]], bid=data["bid"], declarer=data["declarer"],
        contract=contract_from_json(data["contract"]), skat=_cards(data["skat"]), discard=_cards(data["discard"]),
        open_hands={int(s): CardSet([Card.parse(n) for n in h]) for s, h in data["open_hands"].items()},
        trick=[(s, Card.parse(c)) for s, c in data["trick"]],
        tricks=_tricks(data["tricks"]),  # type: ignore[arg-type]
        trick_points=tuple(data["trick_points"]),
        hand_sizes=tuple(data["hand_sizes"]),
        result=result_from_json(data.get("result")),  # type: ignore[arg-type]
        ruleset=data["ruleset"], kontra_level=data.get("kontra_level", 0),
    )


# ----------------------------------------------------- Officers' Skat views
def _piles_json(piles: list[list[Card | None]]) -> list[list[str | None]]:
    return [[None if c is None else c.name for c in p] for p in piles]


def _piles(data: list[list[str | None]]) -> list[list[Card | None]]:
    return [[None if c is None else Card.parse(c) for c in p] for p in data]


def officers_view_to_json(view: OfficersView) -> dict[str, Any]:
    """The JSON of an Officers' Skat seat's view (``view`` of the ``/api/officers`` answers)."""
    return {
        "seat": view.seat, "variant": view.variant, "phase": view.phase.value, "to_move": view.to_move,
        "legal_actions": [str(a) for a in view.legal_actions], "chooser": view.chooser, "game": view.game,
        "contract": _contract_json(view.contract),
        "kontra_level": view.kontra_level, "bid": view.bid, "auction": [[s, t] for s, t in view.auction],
        "own_piles": _piles_json(view.own_piles), "opponent_piles": _piles_json(view.opponent_piles),
        "hand": mask_names(view.hand.mask), "opponent_hand_size": view.opponent_hand_size,
        "opponent_hand": _names(view.opponent_hand),
        "skat": _names(view.skat),
        "discard": _names(view.discard),
        "skat_size": view.skat_size, "trick": [[s, c.name] for s, c in view.trick],
        "tricks": _tricks_json(view.tricks),
        "trick_points": list(view.trick_points), "tricks_won": list(view.tricks_won),
        "result": _result_json(view.result), "options": dict(view.options),
    }


def officers_view_from_json(data: dict[str, Any]) -> OfficersView:
    """The :class:`OfficersView` of its JSON (:func:`officers_view_to_json`), result included."""
    hand = _cards(data["hand"])
    assert hand is not None
    return OfficersView(
        seat=data["seat"], variant=data["variant"], phase=OfficersPhase(data["phase"]), to_move=data["to_move"],
        legal_actions=[parse_token(t, "officers") for t in data["legal_actions"]], chooser=data["chooser"],
        game=data["game"], contract=contract_from_json(data["contract"]), kontra_level=data["kontra_level"],
        bid=data["bid"], auction=[(s, t) for s, t in data["auction"]],
        own_piles=_piles(data["own_piles"]), opponent_piles=_piles(data["opponent_piles"]), hand=hand,
        opponent_hand_size=data["opponent_hand_size"], opponent_hand=_cards(data["opponent_hand"]),
        skat=_cards(data["skat"]), discard=_cards(data["discard"]), skat_size=data["skat_size"],
        trick=[(s, Card.parse(c)) for s, c in data["trick"]],
        tricks=_tricks(data["tricks"]),  # type: ignore[arg-type]
        trick_points=tuple(data["trick_points"]),
        tricks_won=tuple(data["tricks_won"]),
        result=result_from_json(data["result"]),  # type: ignore[arg-type]
        options=dict(data["options"]),
    )


# ----------------------------------------------------------------- either
def view_to_json(view: SeatView | OfficersView) -> dict[str, Any]:
    """The JSON of a seat view of any variant."""
    if isinstance(view, OfficersView):
        return officers_view_to_json(view)
    return seat_view_to_json(view)


def view_from_json(data: dict[str, Any]) -> SeatView | OfficersView:
    """The view of its JSON: an Officers' Skat view (it has ``own_piles``) or a :class:`SeatView`."""
    if "own_piles" in data:
        return officers_view_from_json(data)
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

PUBLIC_OFFICERS_FACTS: tuple[str, ...] = (
    "variant", "phase", "to_move", "chooser", "game", "contract", "kontra_level", "bid", "auction", "skat_size", "trick", "tricks", "trick_points", "tricks_won", "result", "options",
)
"""The facts of an Officers' Skat table that both players see alike; of the cards only those facing
both players are public (face-up pile cards, played cards; every card once the game is over)."""


def _public_skat_view(game: Any) -> SeatView:
    seen = game.view(0)  # the public facts are the same in every seat's view (tests/test_wire.py)
    turned = getattr(game, "turned", None)  # Tournee Skat: the turned skat card(s), shown to everybody
    return SeatView(
        seat=None, hand=CardSet(), legal_actions=[], side_actions=[],
        skat=CardSet(turned) if turned else None, discard=None,
        **{name: getattr(seen, name) for name in PUBLIC_FACTS},
    )


def _public_officers_view(game: OfficersGame) -> OfficersView:
    first, second = game.view(0), game.view(1)

    def both(mine: list[list[Card | None]], theirs: list[list[Card | None]]) -> list[list[Card | None]]:
        return [[a if a == b else None for a, b in zip(p, q, strict=True)] for p, q in zip(mine, theirs, strict=True)]

    over = game.phase is OfficersPhase.FINISHED
    return OfficersView(
        seat=None, legal_actions=[], own_piles=both(first.own_piles, second.opponent_piles),
        opponent_piles=both(first.opponent_piles, second.own_piles), opponent_hand_size=first.opponent_hand_size,
        hand=first.hand if over else CardSet(), opponent_hand=first.opponent_hand if over else None,
        skat=first.skat if over else None, discard=first.discard if over else None,
        **{name: getattr(first, name) for name in PUBLIC_OFFICERS_FACTS},
    )


def public_view(game: Any) -> SeatView | OfficersView:
    """The spectator's view of a game: only the public facts (:data:`PUBLIC_FACTS`), with ``seat``
    None, no hand and no choices.

    For standard and Tournee Skat a :class:`SeatView` (the ``view`` a spectator receives, written by
    :func:`seat_view_to_json`); for Officers' Skat an :class:`OfficersView` whose "own" side is
    seat 0's and the "opponent" seat 1's, each card shown only where it faces both players.
    """
    if isinstance(game, OfficersGame):
        return _public_officers_view(game)
    return _public_skat_view(game)
