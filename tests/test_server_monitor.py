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


def test_a_held_up_loop_is_logged_with_the_collector_share(caplog):
    monitor = LoopMonitor(stall_seconds=0.2, tick_seconds=0.02)

    async def hold_up() -> None:
        watching = asyncio.create_task(monitor.run())
        await asyncio.sleep(0.1)  # a few ticks on time: no stall
        assert monitor.stalls == 0
        time.sleep(0.35)  # a callback that blocks the loop
        gc.collect()
        await asyncio.sleep(0.1)
        watching.cancel()
        await asyncio.gather(watching, return_exceptions=True)

    with caplog.at_level(logging.WARNING, "skat.server"):
        asyncio.run(hold_up())
    assert monitor.stalls == 1 and monitor.worst > 0.3  # the sleep, and the full collection (long in a big suite)
    [record] = [r for r in caplog.records if "event loop was held up" in r.getMessage()]
    assert "1 of them full" in record.getMessage()
    assert monitor._gc not in gc.callbacks  # the monitor cleans up after itself
    assert monitor.figures() == {"loop_stalls": 1, "worst_loop_stall_s": round(monitor.worst, 3)}


@pytest.mark.parametrize("seconds", [0, -1.0, float("nan")])
def test_the_thresholds_must_be_positive(seconds):
    with pytest.raises(ValueError, match="positive"):
        LoopMonitor(stall_seconds=seconds)


def test_a_slow_commit_is_logged_and_counted(tmp_path, caplog, monkeypatch):
    import skat.server.store as store_module

    monkeypatch.setattr(store_module, "SLOW_COMMIT_SECONDS", 0.1)
    store = Store(f"sqlite:///{tmp_path / 'slow.sqlite'}")
    try:
        with caplog.at_level(logging.WARNING, "skat.server"):
            store.submit(lambda conn: time.sleep(0.15)).result(10)
            store.submit(lambda conn: None).result(10)
        assert store.slow_commits == 1 and store.commits == 2
        assert any("database commit of 1 write(s) took" in r.getMessage() for r in caplog.records)
    finally:
        store.close()


def test_health_reports_stalls_and_commits(tmp_path):
    app = create_app(f"sqlite:///{tmp_path / 'health.sqlite'}")
    with TestClient(app) as client:
        client.post("/api/tables", json={"seats": ["human", "random", "random"]})
        health = client.get("/api/health").json()
    assert health["status"] == "ok" and health["loop_stalls"] >= 0 and health["slow_commits"] == 0
    assert health["commits"] >= 1
