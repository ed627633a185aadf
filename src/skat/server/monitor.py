"""Watch a server process's event loop: a stall (every table on the process waits) is logged, never silent.

A task wakes every :data:`TICK_SECONDS`; when it wakes later than :data:`STALL_SECONDS` past its time, the
loop was held up (a long callback, a full garbage collection, the machine's other processes) and a warning
says for how long and how much of it the garbage collector took. ``/api/health`` reports the counts.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import time
from typing import Any

log = logging.getLogger("skat.server")

TICK_SECONDS = 0.1
STALL_SECONDS = 0.25
"""A wake-up later than this is a stall worth a warning (a person notices a quarter of a second)."""


class LoopMonitor:
    """Counts and logs the stalls of the running event loop (see the module)."""

    def __init__(self, stall_seconds: float = STALL_SECONDS, tick_seconds: float = TICK_SECONDS) -> None:
        if not stall_seconds > 0 or not tick_seconds > 0:
            raise ValueError("the stall threshold and the tick must be positive seconds")
        self.stall_seconds = stall_seconds
        self.tick_seconds = tick_seconds
        self.stalls = 0
        """Stalls seen so far."""
        self.worst = 0.0
        """The longest stall so far, in seconds."""
        self._collecting = 0.0
        self._collected = 0.0  # seconds in the garbage collector since the last tick
        self._collections: list[int] = []  # the generations collected since the last tick

    def _gc(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._collecting = time.perf_counter()
        elif self._collecting:
            self._collected += time.perf_counter() - self._collecting
            self._collections.append(info.get("generation", -1))
            self._collecting = 0.0

    async def run(self) -> None:
        """Watch until cancelled."""
        loop = asyncio.get_running_loop()
        gc.callbacks.append(self._gc)
        try:
            while True:
                due = loop.time() + self.tick_seconds
                self._collected, self._collections = 0.0, []
                await asyncio.sleep(self.tick_seconds)
                late = loop.time() - due
                if late > self.stall_seconds:
                    self.stalls += 1
                    self.worst = max(self.worst, late)
                    full = sum(1 for g in self._collections if g == 2)
                    log.warning("the event loop was held up for %.2f s (every table on this process waited); "
                                "%.2f s of it in %d garbage collection(s), %d of them full; %d stall(s) so far",
                                late, self._collected, len(self._collections), full, self.stalls)
        finally:
            if self._gc in gc.callbacks:
                gc.callbacks.remove(self._gc)

    def figures(self) -> dict[str, Any]:
        """What ``/api/health`` reports."""
        return {"loop_stalls": self.stalls, "worst_loop_stall_s": round(self.worst, 3)}
