"""A finished deal step by step, for the replay viewer (docs/history.md): every state from the deal to the result,
each with all hands (the deal is over: nothing in it is hidden any more), the trick on the table, the tricks taken
and the card points so far."""

from __future__ import annotations

from typing import Any

from skat.variants.registry import from_record, variant_of_game

__all__ = ["replay_steps"]


def _state(game: Any, action: tuple[int, str] | None) -> dict[str, Any]:
    views = [game.view(seat) for seat in range(3)]
    view = views[0]
    last = view.tricks[-1] if view.tricks else None
    taken = [0, 0, 0]
    for _, _, winner in view.tricks:
        taken[winner] += 1
    return {
        "seat": None if action is None else action[0],
        "action": None if action is None else action[1],
        "phase": view.phase.value,
        "to_move": view.to_move,
        "hands": [[card.name for card in v.hand] for v in views],
        "trick": [[seat, card.name] for seat, card in view.trick],
        "last_trick": None if last is None else {"leader": last[0], "cards": [c.name for c in last[1]],
                                                 "winner": last[2]},
        "tricks": taken,
        "points": list(view.trick_points),
        "bid": view.bid,
        "declarer": view.declarer,
        "contract": None if view.contract is None else view.contract.to_json(),
        "kontra": view.kontra_level,
    }


def replay_steps(record: dict[str, Any]) -> list[dict[str, Any]]:
    """The states of a finished deal's record: the deal as dealt, then one after each action (``seat`` and
    ``action``: who did what to come there)."""
    actions = [(int(seat), str(token)) for seat, token in record.get("actions") or []]
    game = from_record({k: v for k, v in record.items() if k not in ("actions", "result")} | {"actions": []})
    variant = variant_of_game(game)
    assert variant is not None
    steps = [_state(game, None)]
    for seat, token in actions:
        game.apply(variant.parse_action(token), seat)
        steps.append(_state(game, (seat, token)))
    return steps
