"""Stalls are never silent: an event loop held up and a slow database commit are logged and counted, and
``/api/health`` reports them."""

from __future__ import annotations

import asyncio
import gc
import logging
import time

import pytest
from fastapi.testclient import TestClient

from skat.server import create_app
from skat.server.monitor import LoopMonitor
from skat.server.store import Store


class VirtualTimeLoop(asyncio.SelectorEventLoop):
    """An event loop on a clock of its own: it moves only when the loop would wait (to the next timer, at
    once) or when a test moves it (:meth:`hold_up`). A held-up loop is then exactly as late as the test says,
    and a busy machine never makes one."""

    def __init__(self) -> None:
        super().__init__()
        self.now = 0.0
        select = self._selector.select

        def no_waiting(timeout=None):
            ready = select(0)
            if not ready and timeout:
                self.now += timeout
            return ready

        self._selector.select = no_waiting

    def time(self) -> float:
        return self.now

    def hold_up(self, seconds: float) -> None:
        """A callback that keeps the loop for ``seconds``."""
        self.now += seconds


def test_a_held_up_loop_is_logged_with_the_collector_share(caplog):
    monitor = LoopMonitor(stall_seconds=0.2, tick_seconds=0.02)
    loop = VirtualTimeLoop()

    async def hold_up() -> None:
        watching = asyncio.create_task(monitor.run())
        await asyncio.sleep(1.0)  # fifty ticks on time: no stall
        assert monitor.stalls == 0
        loop.hold_up(0.15)  # held up, but less than the threshold
        await asyncio.sleep(0.1)
        assert monitor.stalls == 0
        loop.hold_up(0.35)  # a callback that blocks the loop
        gc.collect()  # and a full collection meanwhile
        await asyncio.sleep(0.1)
        watching.cancel()
        await asyncio.gather(watching, return_exceptions=True)

    enabled = gc.isenabled()
    gc.disable()  # no collection but the one above in the count
    try:
        with caplog.at_level(logging.WARNING, "skat.server"):
            loop.run_until_complete(hold_up())
    finally:
        loop.close()
        if enabled:
            gc.enable()
    assert monitor.stalls == 1 and 0.3 < monitor.worst < 0.36  # the hold-up (less any part of a tick it ate)
    [record] = [r for r in caplog.records if "event loop was held up" in r.getMessage()]
    assert f"held up for {monitor.worst:.2f} s" in record.getMessage()
    assert "in 1 garbage collection(s), 1 of them full" in record.getMessage()
    assert monitor._gc not in gc.callbacks  # the monitor cleans up after itself
    assert monitor.figures() == {"loop_stalls": 1, "worst_loop_stall_s": round(monitor.worst, 3)}


@pytest.mark.parametrize("seconds", [0, -1.0, float("nan")])
def test_the_thresholds_must_be_positive(seconds):
    with pytest.raises(ValueError, match="positive"):
        LoopMonitor(stall_seconds=seconds)


class _Clock:
    """A clock that moves only when a test moves it."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


def test_a_slow_commit_is_logged_and_counted(tmp_path, caplog, monkeypatch):
    import types

    import skat.server.store as store_module

    clock = _Clock()  # the writer times its commits on this clock: a write takes what it says, on any machine
    monkeypatch.setattr(store_module, "time", types.SimpleNamespace(perf_counter=clock, time=time.time))
    monkeypatch.setattr(store_module, "SLOW_COMMIT_SECONDS", 0.1)
    store = Store(f"sqlite:///{tmp_path / 'slow.sqlite'}")
    try:
        with caplog.at_level(logging.WARNING, "skat.server"):
            store.submit(lambda conn: clock.advance(0.15)).result(10)  # slower than the threshold
            store.submit(lambda conn: clock.advance(0.1)).result(10)  # as slow as the threshold: not slow
            store.submit(lambda conn: None).result(10)
        assert store.slow_commits == 1 and store.commits == 3
        [record] = [r for r in caplog.records if "database commit" in r.getMessage()]
        assert "database commit of 1 write(s) took 0.15 s" in record.getMessage()
    finally:
        store.close()


def test_health_reports_stalls_and_commits(tmp_path):
    app = create_app(f"sqlite:///{tmp_path / 'health.sqlite'}")
    with TestClient(app) as client:
        client.post("/api/tables", json={"seats": ["human", "random", "random"]})
        health = client.get("/api/health").json()
    assert health["status"] == "ok" and health["loop_stalls"] >= 0 and health["slow_commits"] == 0
    assert health["commits"] >= 1
