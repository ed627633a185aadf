"""The move clock's timers of a table (docs/clock.md): when a person's time for a decision runs out the computer
stand-in takes over their seat (:attr:`skat.server.clock.MoveClock.away`) and the table's runner plays for them;
when a finished deal has waited its time for people to be ready, they are counted ready; a person whose last
connection ended is replaced after the grace. A person is back when they act, send ``back`` or connect again.

Only the server process holding the table's lease acts on a decision's or a deal's time running out (it runs the
computer players); the grace after a lost connection is watched by the process that held the connection. Either
tells the other processes (a notice ``{"k": "away", "pos", "on"}``), so every process shows the same seats away.
"""

from __future__ import annotations

import asyncio
import logging
from collections import Counter
from collections.abc import Callable
from typing import Any, Protocol

from skat.server.clock import ClockTable, MoveClock
from skat.server.store import Store

__all__ = ["ClockRunner"]

log = logging.getLogger("skat.server")


class ClockHost(ClockTable, Protocol):
    """What the clock's timers ask of their table (:class:`skat.server.tables.ServerTable`)."""

    id: str
    present: Counter[int | None]
    owner: bool
    lock: asyncio.Lock
    store: Store
    clock: MoveClock

    @property
    def wall(self) -> Callable[[], float]: ...

    async def after_change(self, *, tell: bool = True) -> None: ...


class ClockRunner:
    """The timers of one table's move clock."""

    def __init__(self, table: ClockHost) -> None:
        self.table = table
        self.handle: asyncio.TimerHandle | None = None
        self.armed_for: tuple[Any, ...] | None = None
        self.graces: dict[int, asyncio.TimerHandle] = {}
        self.tasks: set[asyncio.Task[None]] = set()

    # ------------------------------------------------------------ following the table
    def follow(self) -> bool:
        """Follow the table to what its clock waits for now (the caller holds the table's lock) and arm the timer;
        returns whether that changed (everybody is to hear of it)."""
        table = self.table
        if not table.clock.on:
            return False
        changed = table.clock.update(table, table.wall())
        self.arm()
        return changed

    def arm(self) -> None:
        """Set the timer for the clock's current point (in the process holding the table's lease)."""
        table = self.table
        point = table.clock.point
        if point == self.armed_for and self.handle is not None:
            return
        self._disarm()
        deadline = table.clock.deadline()
        if point is None or deadline is None or not table.owner or table.closed or table.stopped is not None:
            return
        self.armed_for = point
        self.handle = asyncio.get_running_loop().call_later(max(0.0, deadline - table.wall()), self._start,
                                                           self._expire, point)

    def _disarm(self) -> None:
        if self.handle is not None:
            self.handle.cancel()
        self.handle, self.armed_for = None, None

    def cancel(self) -> None:
        """Stop every timer (the table closes, the server stops or the lease is lost)."""
        self._disarm()
        for handle in self.graces.values():
            handle.cancel()
        self.graces.clear()
        for task in list(self.tasks):
            task.cancel()

    def _start(self, step: Any, *args: Any) -> None:
        task = asyncio.get_running_loop().create_task(step(*args))
        self.tasks.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[None]) -> None:
        self.tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("table %s: the move clock failed", self.table.id, exc_info=task.exception())

    # ------------------------------------------------------------ time runs out
    async def _expire(self, point: tuple[Any, ...]) -> None:
        """The time of ``point`` ran out: a person's decision goes to the stand-in (they are away from now on), or
        the people not ready for the next deal are counted ready."""
        table = self.table
        self.handle = None
        async with table.lock:
            if table.clock.point != point or table.closed or table.stopped is not None:
                return
            deadline = table.clock.deadline()
            if deadline is not None and table.wall() < deadline - 0.05:  # the table's clock moved on: wait on
                self.armed_for = None
                self.arm()
                return
            if point[0] == "decision":
                position = point[3]
                table.clock.away.add(position)
                log.info("table %s deal %d: position %d's time ran out; the %s stand-in decides for them",
                         table.id, table.deal_no, position, table.clock.settings and table.clock.settings["stand_in"])
                await self._tell(position, True)
            else:
                humans = {s.position for s in table.seats if s.kind == "human"}
                for position in sorted(humans - table.ready):
                    await table.store.add_ready(table.id, table.deal_no, position)
                    table.ready.add(position)
                log.info("table %s: the wait for the next deal after deal %d ran out", table.id, table.deal_no)
        await table.after_change()

    # ------------------------------------------------------------ connections
    def gone(self, position: int) -> None:
        """A seat holder's connection ended: when none of theirs is left after the grace, the stand-in takes
        their seat."""
        table = self.table
        if not table.clock.on or position in table.present or position in table.clock.away:
            return
        old = self.graces.pop(position, None)
        if old is not None:
            old.cancel()
        self.graces[position] = asyncio.get_running_loop().call_later(table.clock.seconds("grace"), self._start,
                                                                      self._grace_over, position)

    async def _grace_over(self, position: int) -> None:
        table = self.table
        self.graces.pop(position, None)
        async with table.lock:
            if position in table.present or position in table.clock.away or table.closed or \
                    table.stopped is not None or table.seats[position].token_hash is None:
                return
            table.clock.away.add(position)
            log.info("table %s: position %d lost the connection; the stand-in takes the seat", table.id, position)
            await self._tell(position, True)
        await table.after_change()

    async def back(self, position: int, why: str) -> None:
        """A person away is back (they acted, sent ``back`` or connected again): their seat is theirs again."""
        table = self.table
        grace = self.graces.pop(position, None)
        if grace is not None:
            grace.cancel()
        if position not in table.clock.away:
            return
        table.clock.away.discard(position)
        log.info("table %s: position %d is back (%s)", table.id, position, why)
        self.follow()
        await self._tell(position, False)

    async def _tell(self, position: int, away: bool) -> None:
        """Tell the other server processes that a person is away or back (nothing is stored)."""
        table = self.table
        try:
            await table.store.write(lambda conn: None, {"t": table.id, "k": "away", "pos": position, "on": away})
        except Exception:
            log.exception("table %s: the other server processes could not be told that position %d is %s",
                          table.id, position, "away" if away else "back")
