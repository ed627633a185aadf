"""Give freed memory back to the system after a burst of closed connections.

What a server process keeps after its WebSockets close (``bench/socket_memory.py`` measures it: 300 spectators
raise ``skat serve`` by some 9 MiB, 1,000 by some 32 MiB):

* Python's own allocator (pymalloc) takes memory from the system in 1 MiB arenas and gives an arena back only
  when every object in it is freed. The objects of a burst of connections are spread over many arenas, and a
  few long-lived objects made meanwhile (a table's caches, a client address' rate bucket) pin them: most of
  the memory stays resident. It is not lost: the next connections reuse it, so a server's memory follows the
  most connections it held at once, not the connections it ever had (no growth round over round).
* The C library's allocator (glibc's malloc, for the larger buffers) keeps freed memory in its heaps too;
  ``malloc_trim(0)`` hands the free pages back. :func:`give_back_memory` calls it: after 300 spectators left it
  gave back some 2 MiB of 9, after 1,000 some 7 MiB of 32, in under a millisecond.

:class:`MemoryGiver` calls :func:`give_back_memory` a second after enough connections closed, and not more often
than every ten seconds, so that a burst of closes is followed by one trim, never one per close. On a system
without glibc (musl, macOS, Windows) it does nothing.
"""

from __future__ import annotations

import asyncio
import ctypes
import ctypes.util
import logging
import os
import threading
import time
from collections.abc import Callable

__all__ = ["give_back_memory", "resident_bytes", "MemoryGiver", "CLOSES_PER_TRIM", "MIN_SECONDS_BETWEEN",
           "SETTLE_SECONDS"]

log = logging.getLogger("skat.server")

CLOSES_PER_TRIM = 50
"""Closed connections since the last trim that call for the next one (:class:`MemoryGiver`)."""
SETTLE_SECONDS = 1.0
"""Seconds from the close that calls for a trim to the trim: the rest of the burst closes meanwhile."""
MIN_SECONDS_BETWEEN = 10.0
"""The least seconds between two trims (:class:`MemoryGiver`)."""

_trim: Callable[[int], int] | None = None
_trim_looked_up = False
_trim_lock = threading.Lock()


def _malloc_trim() -> Callable[[int], int] | None:
    """glibc's ``malloc_trim``, or None where the C library has none."""
    global _trim, _trim_looked_up
    with _trim_lock:
        if not _trim_looked_up:
            _trim_looked_up = True
            try:
                libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
                trim = libc.malloc_trim
            except (OSError, AttributeError):
                trim = None
            if trim is not None:
                trim.argtypes = [ctypes.c_size_t]
                trim.restype = ctypes.c_int
            _trim = trim
        return _trim


def resident_bytes() -> int | None:
    """The process's resident memory in bytes (Linux ``/proc/self/statm``), or None where it cannot be read."""
    try:
        with open("/proc/self/statm") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return None


def give_back_memory() -> int | None:
    """Hand the C library's free heap pages back to the system (glibc ``malloc_trim(0)``). Returns the bytes of
    resident memory it gave back (0 or more; where the resident memory cannot be read, 0), or None where
    there is no ``malloc_trim``. Objects still alive are not touched; pymalloc's arenas are not (see the
    module)."""
    trim = _malloc_trim()
    if trim is None:
        return None
    before = resident_bytes()
    trim(0)
    after = resident_bytes()
    if before is None or after is None:
        return 0
    return max(0, before - after)


class MemoryGiver:
    """Calls ``give`` (:func:`give_back_memory`) once after a burst of closed connections. Call :meth:`closed`
    on the event loop for each closed connection: once ``closes`` connections closed since the last trim, one
    trim is scheduled ``settle_seconds`` later (so that it follows the whole burst, not its first part), and at
    least ``min_seconds`` after the last one. ``clock``, ``call_later`` and ``give`` are for tests."""

    def __init__(self, closes: int = CLOSES_PER_TRIM, min_seconds: float = MIN_SECONDS_BETWEEN,
                 settle_seconds: float = SETTLE_SECONDS, *, give: Callable[[], int | None] = give_back_memory,
                 clock: Callable[[], float] = time.monotonic,
                 call_later: Callable[[float, Callable[[], None]], object] | None = None) -> None:
        if closes < 1:
            raise ValueError(f"closes must be at least 1, not {closes!r}")
        if not (min_seconds >= 0 and settle_seconds >= 0):
            raise ValueError(f"the seconds cannot be negative: {min_seconds!r}, {settle_seconds!r}")
        self.closes = closes
        self.min_seconds = float(min_seconds)
        self.settle_seconds = float(settle_seconds)
        self.give = give
        self.clock = clock
        self.call_later = call_later
        self.pending = 0
        """Connections closed since the last trim."""
        self.scheduled = False
        self.available = True
        """False once ``give`` said there is no ``malloc_trim`` here."""
        self.last: float | None = None
        self.trims = 0
        self.given = 0
        """Bytes given back by all trims together."""

    def closed(self, count: int = 1) -> None:
        """Note ``count`` closed connections; schedules the trim when enough closed."""
        self.pending += count
        if not self.available or self.scheduled or self.pending < self.closes:
            return
        now = self.clock()
        delay = self.settle_seconds
        if self.last is not None:
            delay = max(delay, self.last + self.min_seconds - now)
        call_later = self.call_later or asyncio.get_running_loop().call_later
        call_later(delay, self.trim)
        self.scheduled = True

    def trim(self) -> None:
        """Give memory back now (the scheduled call)."""
        self.scheduled = False
        self.pending = 0
        self.last = self.clock()
        try:
            given = self.give()
        except Exception:  # noqa: BLE001 - giving memory back must never break the server
            log.debug("giving memory back failed", exc_info=True)
            return
        if given is None:  # no malloc_trim here: never again
            self.available = False
            return
        self.trims += 1
        self.given += given
