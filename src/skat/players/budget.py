"""The time one decision of a computer player may take, and the solver's limit inside it.

A decision has a *soft* deadline (no new world is started after it once the player has the few it needs)
and a *hard* one that no search runs past: every solver call gets the seconds left to the hard deadline as
its ``time_limit`` (:mod:`skat.solver.search`), and a search that reaches it raises
:class:`~skat.solver.search.SearchLimitExceeded`; the player then decides on the worlds it finished. Budgets
are CPU seconds of this process (:func:`time.process_time`), so a busy machine makes a player slower, not
weaker; the solver's limit is wall-clock time, which passes at least as fast as one thread's CPU time, so
the hard deadline holds either way.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from skat.solver.search import SearchLimitExceeded

__all__ = ["Budget", "OutOfTime", "SoftDeadline"]


class OutOfTime(SearchLimitExceeded):
    """The hard deadline of a decision has passed before a search could start."""

    def __init__(self) -> None:
        super().__init__(0, 0.0, None, None)
        self.args = ("the decision's hard deadline passed before this search could start",)


class SoftDeadline(Exception):
    """A decision's soft deadline has passed: no new world is started (:meth:`Budget.check_soft`; the loop over
    the worlds catches it, with :class:`~skat.solver.search.SearchLimitExceeded`, and decides on those done)."""


class Budget:
    """One decision's deadlines, ``soft`` and ``hard`` CPU seconds from now (``hard`` defaults to twice
    ``soft``; it is never below it)."""

    def __init__(self, soft: float, hard: float | None = None, *,
                 clock: Callable[[], float] = time.process_time) -> None:
        if not soft > 0 or (hard is not None and not hard > 0):
            raise ValueError(f"a decision's budget is a positive number of seconds, not {soft!r} / {hard!r}")
        self.clock = clock
        self.started = clock()
        self.soft = self.started + soft
        self.hard = self.started + max(soft, 2 * soft if hard is None else hard)

    def soft_passed(self) -> bool:
        """Whether the soft deadline has passed (start no new world)."""
        return self.clock() > self.soft

    def check_soft(self) -> None:
        """Raise :class:`SoftDeadline` once the soft deadline has passed (before a new world or option)."""
        if self.soft_passed():
            raise SoftDeadline()

    def time_limit(self) -> float:
        """The seconds a search may take now (the ``time_limit`` of a solver call); raises :class:`OutOfTime`
        once the hard deadline has passed."""
        left = self.hard - self.clock()
        if left <= 0:
            raise OutOfTime()
        return left

    def spent(self) -> float:
        """CPU seconds since the decision started."""
        return self.clock() - self.started
