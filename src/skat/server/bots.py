"""Computer players at a server table: level choice, fallbacks and thinking off the event loop."""

from __future__ import annotations

import logging
from concurrent.futures import Executor
from typing import Any

from skat.actions import Action
from skat.game import SeatView
from skat.players import make_player

__all__ = ["BotSeat", "available_bot", "default_level", "FALLBACKS"]

log = logging.getLogger("skat.server.bots")

FALLBACKS = ("strong", "heuristic", "random")
"""The order in which a failing or missing computer player is replaced."""


def available_bot(name: str) -> str:
    """``name`` if that player is registered, else the first registered fallback after it."""
    names = [name, *[f for f in FALLBACKS if f != name]]
    if name in FALLBACKS:
        names = list(FALLBACKS[FALLBACKS.index(name):])
    for candidate in names:
        try:
            make_player(candidate, 0)
        except ValueError:
            continue
        return candidate
    return "random"


def default_level() -> str:
    """Level ``strong`` when it is registered, else ``heuristic``, else ``random``."""
    return available_bot("strong")


class BotSeat:
    """A computer player in one table position; replaced by a fallback when it fails."""

    def __init__(self, name: str, seed: int | None = None) -> None:
        self.requested = name
        self.seed = seed
        self.name = available_bot(name)
        self.player: Any = make_player(self.name, seed)
        self.failures: list[str] = []

    def _fallback(self, why: str) -> None:
        self.failures.append(f"{self.name}: {why}")
        chain = list(FALLBACKS[FALLBACKS.index(self.name) + 1:]) if self.name in FALLBACKS else ["heuristic", "random"]
        for candidate in chain:
            try:
                self.player = make_player(candidate, self.seed)
            except Exception:  # a broken factory is skipped like a missing one
                continue
            log.warning("computer player %r failed (%s); replaced by %r", self.name, why, candidate)
            self.name = candidate
            return
        log.warning("computer player %r failed (%s); replaced by a fresh 'random' player", self.name, why)
        self.player = make_player("random", self.seed)
        self.name = "random"

    def choose(self, view: SeatView) -> Action:
        """A legal action for ``view``; a player that raises or answers illegally is replaced."""
        legal = view.legal_actions
        for _ in range(len(FALLBACKS) + 1):
            try:
                action = self.player.choose(view)
            except Exception as exc:  # any bot failure must not stop the table
                log.exception("computer player %r raised", self.name)
                self._fallback(f"raised {type(exc).__name__}: {exc}")
                continue
            if action in legal:
                return action
            self._fallback(f"chose the illegal action {action!r}")
        return legal[0]

    async def think(self, loop: Any, executor: Executor | None, view: SeatView) -> Action:
        """Choose in the executor so the event loop (and every other table) keeps running."""
        return await loop.run_in_executor(executor, self.choose, view)
