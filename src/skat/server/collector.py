"""The garbage collector's policy of a server process: short pauses with thousands of connections.

CPython's full collection scans every object that lives in the process. At 1,000 tables on two processes
(``bench/load.py``) that is some 300,000 objects per process (the connections' protocol objects, the
tables, their games and score sheets), and each full collection held every table for 0.25 to 0.55 s: the
slowest answers of a run were the actions that arrived meanwhile.

The policy: what survives a full collection is moved out of the collector's generations (``gc.freeze``),
so that the next full collection scans only what was made since; every ``thaw_seconds`` the frozen objects
are given back (``gc.unfreeze``), so that the next full collection also frees cycles among them (a closed
connection, an archived table) and memory stays flat. One long collection every ``thaw_seconds``, short
ones in between. Objects freed by reference counting (most of them) are freed at once, frozen or not.
"""

from __future__ import annotations

import gc
import logging
import threading
import time
from typing import Any

log = logging.getLogger("skat.server")

THAW_SECONDS = 600.0
"""Default seconds between two thaws (``skat serve --gc-thaw``)."""


class CollectorPolicy:
    """Freeze the survivors of each full collection; thaw every ``thaw_seconds`` (see the module)."""

    def __init__(self, thaw_seconds: float = THAW_SECONDS) -> None:
        if not thaw_seconds > 0:
            raise ValueError(f"the seconds between thaws must be positive, not {thaw_seconds!r}")
        self.thaw_seconds = float(thaw_seconds)
        self.freezes = 0
        """Full collections whose survivors were frozen."""
        self.thaws = 0
        self._stop = threading.Event()
        self._thawer: threading.Thread | None = None

    def install(self) -> CollectorPolicy:
        """Freeze what the start-up made (modules, classes, the app) and follow every full collection."""
        gc.collect()
        gc.freeze()
        gc.callbacks.append(self._after_collection)
        self._thawer = threading.Thread(target=self._thaw_loop, name="skat-gc-thaw", daemon=True)
        self._thawer.start()
        return self

    def uninstall(self) -> None:
        """Stop the policy and give every frozen object back to the collector."""
        self._stop.set()
        if self._after_collection in gc.callbacks:
            gc.callbacks.remove(self._after_collection)
        if self._thawer is not None:
            self._thawer.join(timeout=5)
            self._thawer = None
        gc.unfreeze()

    def _after_collection(self, phase: str, info: dict[str, Any]) -> None:
        if phase != "stop" or info.get("generation") != 2:
            return
        gc.freeze()  # the collection is over: what it left alive is long-lived
        self.freezes += 1

    def thaw(self) -> None:
        """Give the frozen objects back: the next full collection scans (and frees cycles among) them all."""
        gc.unfreeze()
        self.thaws += 1

    def _thaw_loop(self) -> None:
        last = time.monotonic()
        while not self._stop.wait(min(self.thaw_seconds, 5.0)):
            if time.monotonic() - last >= self.thaw_seconds:
                last = time.monotonic()
                try:
                    self.thaw()
                except Exception:  # noqa: BLE001 - the policy must never stop the server
                    log.exception("giving the frozen objects back to the garbage collector failed")
