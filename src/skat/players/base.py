"""The seat protocol: every actor (bot, person, remote program) gets its seat's view and answers
with one of the legal actions in it."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from skat.deal.game import SeatView
from skat.rules.actions import Action

__all__ = ["Player", "RandomPlayer", "forced_action"]


@runtime_checkable
class Player(Protocol):
    """Anything that can take a seat: ``choose`` returns one of ``view.legal_actions``."""

    name: str

    def choose(self, view: SeatView) -> Action: ...


# A player may also define ``side_action(view) -> Action | None``: it is asked during the
# first trick whether to say Kontra or Re (house rules), which are side actions said out of
# turn and never among ``view.legal_actions``. The arena and the web table both ask it.


class _Turn(Protocol):
    """A seat's view as far as whose turn it is: a Skat deal's or an Officers' Skat game's."""

    @property
    def seat(self) -> int | None: ...

    @property
    def legal_actions(self) -> Sequence[Action]: ...


def forced_action(view: _Turn) -> Action | None:
    """The one legal action when the seat has no choice, else None; a ValueError when it has nothing to do now
    (the start of the searching and rule-based players' ``choose``; :class:`RandomPlayer` draws even then)."""
    legal = view.legal_actions
    if not legal:
        raise ValueError(f"seat {view.seat} has nothing to do now")
    return legal[0] if len(legal) == 1 else None


class RandomPlayer:
    """A uniformly random legal action: a baseline and a test tool."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: SeatView) -> Action:
        if not view.legal_actions:
            raise ValueError(f"seat {view.seat} has nothing to do now")
        return self.rng.choice(view.legal_actions)  # a draw even for a forced action: seeded series stay as they were
