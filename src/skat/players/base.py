"""The seat protocol: every actor (bot, person, remote program) gets its seat's view and answers
with one of the legal actions in it."""

from __future__ import annotations

import random
from typing import Protocol, runtime_checkable

from skat.deal.game import SeatView
from skat.rules.actions import Action

__all__ = ["Player", "RandomPlayer"]


@runtime_checkable
class Player(Protocol):
    """Anything that can take a seat: ``choose`` returns one of ``view.legal_actions``."""

    name: str

    def choose(self, view: SeatView) -> Action: ...


# A player may also define ``side_action(view) -> Action | None``: it is asked during the
# first trick whether to say Kontra or Re (house rules), which are side actions said out of
# turn and never among ``view.legal_actions``. The arena and the web table both ask it.


class RandomPlayer:
    """A uniformly random legal action: a baseline and a test tool."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: SeatView) -> Action:
        if not view.legal_actions:
            raise ValueError(f"seat {view.seat} has nothing to do now")
        return self.rng.choice(view.legal_actions)
