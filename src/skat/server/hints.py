"""Hints for the person at the table, computed from that seat's own view only.

* :func:`bid_estimate`: how high the hand can go in the auction (a computer estimate).
* :func:`contract_values`: the value of every contract the declarer may announce now.
"""

from __future__ import annotations

from typing import Any

from skat.cards import CardSet, suit_mask
from skat.game import Phase, SeatView
from skat.rules.contract import Contract, null_value
from skat.rules.ranking import TRUMP_MASK, GameType
from skat.rules.value import matadors

__all__ = ["bid_estimate", "contract_values", "contract_value"]

_JACKS = (1 << 28) | (1 << 20) | (1 << 12) | (1 << 4)
_ACE, _TEN, _SEVEN, _EIGHT, _NINE = 7, 3, 0, 1, 2


def _suit_strength(mask: int, gt: int) -> float:
    """A rough count of tricks a suit game can expect: trumps, aces and tens with cover."""
    trumps = mask & TRUMP_MASK[gt]
    n_trumps = trumps.bit_count()
    jacks = mask & _JACKS
    score = n_trumps + 0.5 * (jacks >> 28 & 1) + 0.25 * (jacks >> 20 & 1)
    for s in range(4):
        if s == gt:
            continue
        side = mask & suit_mask(s) & ~_JACKS
        if side >> (s * 8 + _ACE) & 1:
            score += 1
            if side >> (s * 8 + _TEN) & 1:
                score += 0.5
        if not side:
            score += 0.5  # a void to trump in
    return score


def _grand_strength(mask: int) -> float:
    jacks = (mask & _JACKS).bit_count()
    score = 1.3 * jacks + (0.7 if mask >> 28 & 1 else 0)
    for s in range(4):
        side = mask & suit_mask(s) & ~_JACKS
        if side >> (s * 8 + _ACE) & 1:
            score += 1
            if side >> (s * 8 + _TEN) & 1:
                score += 1
    return score


def _null_safe(mask: int) -> bool:
    """Every suit held is low enough to duck: 7 present, or 8 with the 7 gone is not assumed."""
    for s in range(4):
        side = mask & suit_mask(s)
        if not side:
            continue
        low = side & ((1 << (s * 8 + _SEVEN)) | (1 << (s * 8 + _EIGHT)) | (1 << (s * 8 + _NINE)))
        if not side >> (s * 8 + _SEVEN) & 1 or low.bit_count() < min(side.bit_count(), 2):
            return False
    return True


def bid_estimate(hand: CardSet) -> dict[str, Any]:
    """How high a 10-card hand can bid: the best playable game and its value (0: pass).

    A suit game is counted playable with about 7 expected tricks' worth of trumps and
    side aces; a grand with strong jacks and aces; a null with low cards in every suit.
    """
    mask = hand.mask
    best_value, best_game = 0, None
    for gt in (GameType.DIAMONDS, GameType.HEARTS, GameType.SPADES, GameType.CLUBS):
        if _suit_strength(mask, gt) >= 6.5 and (mask & TRUMP_MASK[gt]).bit_count() >= 5:
            count = matadors(gt, mask)[1]
            value = (count + 1) * gt.base_value
            if value > best_value:
                best_value, best_game = value, gt.label
    if _grand_strength(mask) >= 7.5 and (mask & _JACKS).bit_count() >= 2:
        value = (matadors(GameType.GRAND, mask)[1] + 1) * 24
        if value > best_value:
            best_value, best_game = value, "grand"
    if best_value < 23 and _null_safe(mask):
        best_value, best_game = 23, "null"
    return {"value": best_value, "game": best_game}


def contract_value(contract: Contract, known: int, exact: bool) -> dict[str, Any]:
    """The value of ``contract`` from the cards the declarer knows (``known``: hand plus skat
    or discard; for a hand game only the 10 cards, so the value is ``exact=False``)."""
    if contract.is_null:
        return {"token": "declare " + str(contract), "contract": contract.to_json(),
                "value": null_value(contract.hand, contract.ouvert), "exact": True, "matadors": None}
    gt = contract.game_type
    with_, count = matadors(gt, known)
    levels = count + 1 + contract.hand + contract.schneider * 2 + contract.schwarz * 2 + contract.ouvert
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
