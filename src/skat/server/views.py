"""The parts of a state message built from a deal's views: cards in display order and the cards as dealt."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from skat.rules.ranking import display_order

__all__ = ["sorted_cards", "dealt_cards", "shared", "display"]


def sorted_cards(view: Any, own: bool = True) -> dict[str, Any]:
    """The cards of a view in display order for the game (trumps first): the own hand and open hands."""
    gt = None if view.contract is None else view.contract.game_type
    return {
        "hand": display(view.hand.mask, gt) if own else [],
        "open": {str(s): display(h.mask, gt) for s, h in view.open_hands.items()},
    }


def shared(memo: dict[str, Any], key: str, compute: Callable[[], Any]) -> Any:
    """``memo[key]``, computed the first time it is asked for (a part every state of a broadcast carries alike)."""
    if key not in memo:
        memo[key] = compute()
    return memo[key]


def dealt_cards(game: Any) -> dict[str, Any]:
    """A finished deal's cards as dealt, by game seat, each hand and the skat in display order for the game
    played (a Ramsch or a deal passed in: as for a grand, jacks first). Only for a finished deal."""
    assert game.is_over
    gt = None if game.contract is None else game.contract.game_type
    return {"hands": [display(h, gt) for h in game.initial_hands], "skat": display(game.initial_skat, gt)}


@functools.lru_cache(maxsize=8192)  # about the hands in play at 2,000 tables; bounded memory
def display(mask: int, game_type: Any) -> tuple[str, ...]:
    """Card names in display order (a tuple of strings: shared by the cache, and not scanned by the garbage
    collector)."""
    return tuple(c.name for c in display_order(mask, game_type))
