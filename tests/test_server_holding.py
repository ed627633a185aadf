"""With several server processes a table is held only where it is asked for (issue 14): a table of people
made at one process is not loaded by the others until somebody joins or watches there, while a table with
computer players is held at once (a process must be there to move them when its maker stops); the lobby of
every process lists every public table. Two managers on one real PostgreSQL, in one process."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import time

from skat.server.manager import TableManager
from skat.server.store import Store
from test_server_support import postgres  # noqa: F401 - the fixture


async def until(predicate, timeout: float = 30.0) -> None:
    deadline = asyncio.get_running_loop().time() + timeout
    while not predicate():
        assert asyncio.get_running_loop().time() < deadline, "the condition did not come true in time"
        await asyncio.sleep(0.02)


@contextlib.asynccontextmanager
async def two_processes(url: str):
    """Two table managers on one database, each hearing the other (as two server processes do)."""
    a = TableManager(Store(url), bot_processes=False)
    b = TableManager(Store(url), bot_processes=False)
    await a.start()
    await b.start()
    try:
        yield a, b
    finally:
        for m in (a, b):
            await m.stop()
            m.shutdown()
            m.store.close()


def test_a_table_is_held_where_it_is_asked_for_and_listed_everywhere(postgres):  # noqa: F811 - the fixture
    url = postgres.new_database()

    async def scenario() -> None:
        async with two_processes(url) as (a, b):
            people, _ = await a.create_table(name="people", seats=["human"] * 3, public=True)
            hidden, _ = await a.create_table(name="friends", seats=["human"] * 3, public=False)
            robots, _ = await a.create_table(name="robots", seats=["human", "random", "random"], public=True)
            await until(lambda: robots.id in b.tables)  # computer players: held at once
            await asyncio.sleep(0.3)  # the notices of the tables of people have come too
            assert people.id not in b.tables and hidden.id not in b.tables
            listed = {t["id"]: t for t in await b.lobby_tables()}
            assert set(listed) == {people.id, robots.id}  # a private table is not listed, here or there
            entry = listed[people.id]
            assert entry["held_elsewhere"] and entry["name"] == "people" and entry["status"] == "waiting"
            assert [s["taken"] for s in entry["seats"]] == [True, False, False]
            assert "settings" not in entry and "seed" not in entry  # only what the lobby shows, no seed
            assert [t["id"] for t in await a.lobby_tables()] == [people.id, robots.id]
            joined = await b.join(people.id, name="Bea")  # asked for at b: loaded there, and the seat is b's
            assert people.id in b.tables and joined["position"] == 1
            await until(lambda: a.tables[people.id].seats[1].taken)  # a hears of the seat
            listed = {t["id"]: t for t in await b.lobby_tables()}
            assert "held_elsewhere" not in listed[people.id] and listed[people.id]["seats"][1]["name"] == "Bea"

    asyncio.run(scenario())


def test_a_table_nobody_holds_is_archived_when_idle(postgres, monkeypatch):  # noqa: F811 - the fixture
    """After a restart a table of people is held nowhere until asked for; when nothing happened at it for
    the idle time, the sweep of a process that does not hold it archives it from the database."""
    import skat.server.manager as manager_module
    import skat.server.store as store_module
    import skat.server.tables as tables_module

    url = postgres.new_database()
    wall = [time.time()]  # the wall clock of both processes (the tables' times in the database): the test moves it
    for module in (store_module, tables_module, manager_module):
        monkeypatch.setattr(module, "time", _TimeWithWall(wall))

    async def scenario() -> None:
        async with two_processes(url) as (a, b):
            old, _ = await a.create_table(name="old", seats=["human"] * 3, public=True)
            wall[0] += 100.0
            young, _ = await a.create_table(name="young", seats=["human"] * 3, public=True)
            wall[0] += 30.0
            b.limits = dataclasses.replace(b.limits, idle_seconds=60.0)  # old: idle 130 s, young 30 s
            assert old.id not in b.tables and await b.archive_idle() == 1  # only the one idle long enough
            assert [t["id"] for t in await b.lobby_tables()] == [young.id]
            await until(lambda: old.id not in a.tables)  # the process that held it hears and drops it
            assert [t["id"] for t in await a.lobby_tables()] == [young.id]

    asyncio.run(scenario())


class _TimeWithWall:
    """The ``time`` module with a wall clock (``time.time``) that a test moves."""

    def __init__(self, wall: list[float]) -> None:
        self._wall = wall

    def time(self) -> float:
        return self._wall[0]

    def __getattr__(self, name: str):
        return getattr(time, name)
