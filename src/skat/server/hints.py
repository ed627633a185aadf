"""Hints for the person at the table, computed from that seat's own view only.

* :func:`bid_estimate`: how high the hand can go in the auction (the heuristic player's estimate).
* :func:`contract_values`: the value of every contract the declarer may announce now.
* :func:`auction_turn`: what the seat to move in the auction is asked (public: it follows from the bids said).
"""

from __future__ import annotations

import functools
from typing import Any

from skat.cards import CardSet, cards
from skat.deal.game import Phase, SeatView
from skat.rules.actions import Bid, Hold, Pass
from skat.rules.contract import Contract, null_value
from skat.rules.kernel import TRUMP_MASK
from skat.rules.value import matadors, multiplier

__all__ = ["bid_estimate", "contract_values", "contract_value", "auction_turn"]


def bid_estimate(hand: CardSet) -> dict[str, Any]:
    """How high a 10-card hand can bid: the best game and its value by the heuristic player's judgment
    (:func:`skat.players.heuristic.best_game`: positive expected score, with the skat's expected help
    when picking up); ``value`` 0 means pass. A hand game is advised only when it promises more than
    picking up the skat. The reasons for one line: ``p`` (the chance to win, per cent), ``matadors``
    (``{"with", "count"}``; None for Null), ``trumps`` (None for Null), ``aces``, ``tens``."""
    return dict(_bid_estimate(hand.mask))


_ACES = cards("CA SA HA DA").mask
_TENS = cards("CT ST HT DT").mask


@functools.lru_cache(maxsize=4096)  # a hand is asked for at every bid of its auction (about 0.2 ms each)
def _bid_estimate(mask: int) -> dict[str, Any]:
    from skat.players.heuristic import best_game

    pickup = best_game(mask, hand_game=False, skat_bonus=0.7)
    hand = best_game(mask, hand_game=True, skat_bonus=0.0)
    best = hand if hand.score > pickup.score else pickup
    gt = best.contract.game_type
    reasons: dict[str, Any] = {"p": round(best.p * 100), "matadors": None, "trumps": None,
                               "aces": (mask & _ACES).bit_count(), "tens": (mask & _TENS).bit_count()}
    if not best.contract.is_null:
        with_, count = matadors(gt, mask)
        reasons |= {"matadors": {"with": with_, "count": count}, "trumps": (mask & TRUMP_MASK[int(gt)]).bit_count()}
    if best.score <= 0:
        return {"value": 0, "game": None, "hand": False, **reasons}
    return {"value": best.value, "game": gt.label, "hand": best.contract.hand, **reasons}


def contract_value(contract: Contract, known: int, exact: bool) -> dict[str, Any]:
    """The value of ``contract`` from the cards the declarer knows (``known``: hand plus skat
    or discard; for a hand game only the 10 cards, so the value is ``exact=False``)."""
    if contract.is_null:
        return {"token": "declare " + str(contract), "contract": contract.to_json(),
                "value": null_value(contract.hand, contract.ouvert), "exact": True, "matadors": None}
    gt = contract.game_type
    with_, count = matadors(gt, known)
    levels = multiplier(count, contract.hand, False, contract.schneider, False, contract.schwarz, contract.ouvert)
    return {
        "token": "declare " + str(contract),
        "contract": contract.to_json(),
        "value": levels * gt.base_value,
        "exact": exact,
        "matadors": {"with": with_, "count": count},
    }


def contract_values(view: SeatView) -> list[dict[str, Any]]:
    """Values of the declarable contracts in this view (declarer only, skat and declare phases)."""
    if view.phase not in (Phase.SKAT, Phase.DECLARE) or view.declarer != view.seat:
        return []
    known = view.hand.mask | (view.discard.mask if view.discard is not None else 0)
    exact = view.phase is Phase.DECLARE
    out = []
    for action in view.legal_actions:
        contract = getattr(action, "contract", None)
        if contract is not None:
            out.append(contract_value(contract, known, exact))
    return out


def auction_turn(game: Any, bid: int) -> dict[str, Any] | None:
    """What the seat to move in the auction is asked, for every seat and spectator to show: ``{"seat", "asks",
    "value"}`` with ``asks`` "hold" (answer ``value`` with yes or pass), "bid" (say ``value`` or more, or pass)
    or "play" (forehand after two passes: play at ``value``, the lowest bid, or pass it in); ``bid`` is the
    value said so far (the views' ``bid``). None outside the auction."""
    if game.phase is not Phase.BIDDING or game.to_move is None:
        return None
    seat = game.to_move
    legal = game.legal_actions(seat)
    if any(isinstance(a, Hold) for a in legal):
        return {"seat": seat, "asks": "hold", "value": bid}
    bids = [a.value for a in legal if isinstance(a, Bid)]
    if not bids:
        return None
    passes = sum(1 for _, a in game.history if isinstance(a, Pass))
    asks = "play" if len(bids) == 1 and passes >= 2 else "bid"
    return {"seat": seat, "asks": asks, "value": bids[0]}
