"""The computer players' runner of a table: whose move is due, their thinking off the event loop, the pace
people can follow, the claims computer defenders answer, and a supervisor that retries after a failure and
stops the table when every retry failed."""

from __future__ import annotations

import asyncio
import logging
from concurrent.futures import Executor, ProcessPoolExecutor
from typing import Any, Protocol

from skat.deal.game import Game, Phase
from skat.errors import IllegalActionError
from skat.rules.actions import CONCEDE, Action
from skat.server.bots import SEARCH_LEVELS, ComputerSeat, claim_is_sound
from skat.server.core import Overtaken, Seat
from skat.server.store import Store

__all__ = ["BotRunner", "BOT_RETRY_DELAYS"]

log = logging.getLogger("skat.server")

BOT_RETRY_DELAYS = (0.5, 1.0, 2.0, 4.0)
"""Seconds the computer players' supervisor waits before each new try after a failure (an engine error,
a database outage); when the last try fails too, the table is stopped (:meth:`ServerTable.stop`)."""


class RunnerHost(Protocol):
    """What the runner asks of the server process: the threads and processes computer players think in, and
    the pace people can follow."""

    executor: Executor
    bot_delay: float
    trick_pause: float

    async def worker_pool(self) -> ProcessPoolExecutor | None: ...


class RunnerTable(Protocol):
    """What the runner asks of its table (:class:`skat.server.tables.ServerTable`)."""

    id: str
    game: Game | None
    deal_no: int
    seats: list[Seat]
    stopped: str | None
    closed: bool
    owner: bool
    lock: asyncio.Lock
    store: Store
    claim_checked: set[tuple[int, int, int]]

    @property
    def manager(self) -> RunnerHost: ...

    def bot_to_move(self) -> tuple[int, int] | None: ...

    def computer_at(self, position: int) -> ComputerSeat: ...

    def stands_in(self, position: int) -> bool | None: ...

    def claim_answers_due(self) -> list[tuple[int, int]]: ...

    def unsettled(self) -> bool: ...

    def progress(self) -> tuple[int, int]: ...

    def stop(self, reason: str) -> None: ...

    async def apply(self, seat: int, action: Action, *, stand_in: bool = False) -> None: ...

    async def after_change_no_bots(self, *, tell: bool = True) -> None: ...

    async def broadcast(self) -> None: ...

    async def broadcast_message(self, message: dict[str, Any]) -> None: ...


class BotRunner:
    """Moves one table's computer players while it has one to move (in the process holding its lease)."""

    def __init__(self, table: RunnerTable) -> None:
        self.table = table
        self.task: asyncio.Task[None] | None = None
        self.failure: dict[str, Any] = {}
        """What the computer players are doing (deal, seat, action), for the supervisor's log."""

    def schedule(self) -> None:
        """Start the task when a computer player is to move, a claim to answer or a failed try to settle."""
        table = self.table
        if self.task is not None and not self.task.done():
            return
        if table.stopped is not None or table.closed or not table.owner:
            return
        if table.bot_to_move() is None and not table.claim_answers_due() and not table.unsettled():
            return
        self.task = asyncio.get_running_loop().create_task(self._supervise())

    def cancel(self) -> None:
        """Stop the computer players (the table closes, the server stops or the lease is lost)."""
        if self.task is not None:
            self.task.cancel()

    async def _supervise(self) -> None:
        """Run the computer players; a failure is logged and tried again after :data:`BOT_RETRY_DELAYS`
        (the tries count again once the table moved on). When the last try fails the table is stopped and
        every client gets ``{"type": "stopped", "reason": ...}`` (docs/protocol.md)."""
        table = self.table
        failures = 0
        failed_at: tuple[int, int] | None = None
        while True:
            try:
                await self._run()
                return
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                if table.progress() != failed_at:
                    failures, failed_at = 0, table.progress()
                failures += 1
                info = self.failure
                log.exception("computer players at table %s failed (deal %s, seat %s, action %s; try %d of %d)",
                              table.id, info.get("deal_no", table.deal_no), info.get("seat"), info.get("action"),
                              failures, len(BOT_RETRY_DELAYS) + 1)
                if failures > len(BOT_RETRY_DELAYS):
                    table.stop(f"the computer players failed {failures} times at deal {table.deal_no} "
                               f"({type(exc).__name__}: {str(exc)[:200]})")
                    await table.broadcast_message({"type": "stopped", "table_id": table.id, "reason": table.stopped})
                    await table.broadcast()
                    await self._announce_stopped()
                    return
                await asyncio.sleep(BOT_RETRY_DELAYS[failures - 1])

    async def _announce_stopped(self) -> None:
        """Tell the other server processes that this table stopped (their clients are told too): a notice
        with nothing to write. The stop is not stored: a restarted process gives the computer players
        another try."""
        table = self.table
        try:
            await table.store.write(lambda conn: None, {"t": table.id, "k": "stopped", "reason": table.stopped})
        except Exception:
            log.exception("table %s: the other server processes could not be told that it stopped", table.id)

    async def _run(self) -> None:
        table = self.table
        loop = asyncio.get_running_loop()
        while table.stopped is None:
            self.failure = {"deal_no": table.deal_no}
            if table.unsettled():
                await table.after_change_no_bots()  # settles what a failed try left (raises while it fails)
            if table.claim_answers_due():
                await self._answer_claims(loop)
            mover = table.bot_to_move()
            if mover is None:
                return
            position, seat = mover
            game = table.game
            assert game is not None
            delay = table.manager.bot_delay
            if game.phase is Phase.PLAY and not game.trick and game.tricks:
                delay += table.manager.trick_pause
            # the pause people get to follow is the least a computer takes, not added to its thinking: it
            # thinks meanwhile and acts when both are over (a person waits the longer of the two)
            ready_at = loop.time() + delay
            deal_no, history_len = table.deal_no, len(game.history)
            self.failure = {"deal_no": deal_no, "seat": seat}
            bot = table.computer_at(position)  # the seat's computer player, or a person's stand-in (docs/clock.md)
            at = getattr(bot, "at", None)
            if at is not None:  # a computer whose decisions are drawn from the point of the deal
                at(deal_no, history_len)
            view = game.view(seat)
            if game.phase is Phase.PLAY and hasattr(bot, "call"):
                call = await loop.run_in_executor(table.manager.executor, bot.call, view)
                if call is not None:
                    self.failure["action"] = str(call)
                    await _sleep_until(loop, ready_at)
                    await self._play(game, deal_no, history_len, position, seat, call, "call")
                    await table.after_change_no_bots()
                    continue
            try:
                searches = getattr(bot, "name", None) in SEARCH_LEVELS  # thinks in the worker processes
                action = await bot.think(loop, table.manager.executor, view,
                                         await table.manager.worker_pool() if searches else None)
            except Exception:
                log.exception("computer player at table %s position %d failed outside its fallbacks", table.id,
                              position)
                action = view.legal_actions[0]
            self.failure["action"] = str(action)
            await _sleep_until(loop, ready_at)
            if not await self._play(game, deal_no, history_len, position, seat, action, "action"):
                continue
            await table.after_change_no_bots()

    async def _play(self, game: Game, deal_no: int, history_len: int, position: int, seat: int, action: Action,
                    what: str) -> bool:
        """Store and apply a computer player's ``action`` when the table is still where it thought (and a
        stand-in's person is still away); False when it moved on meanwhile (an early end by a person, the person
        came back) or the engine refused a move (think again)."""
        table = self.table
        async with table.lock:
            if table.game is not game or table.deal_no != deal_no or len(game.history) != history_len:
                return what == "call"  # the table moved on; think again
            stand_in = table.stands_in(position)
            if stand_in is None:
                return False  # the person came back meanwhile: theirs is the decision
            try:
                await table.apply(seat, action, stand_in=stand_in)
            except Overtaken:
                pass  # another process stored an action first (it caught up): think again
            except IllegalActionError:
                if what == "call":
                    log.exception("computer player's call %s refused at table %s", action, table.id)
                    return True
                log.exception("computer player action %s refused at table %s", action, table.id)
                return False
        return True

    async def _answer_claims(self, loop: asyncio.AbstractEventLoop) -> bool:
        """Computer defenders concede a sound claim (checked double-dummy off the event loop); True if
        one conceded."""
        table = self.table
        conceded = False
        for position, seat in table.claim_answers_due():
            game = table.game
            assert game is not None
            deal_no, history_len = table.deal_no, len(game.history)
            table.claim_checked.add((deal_no, history_len, seat))
            view = game.view(seat)
            try:
                sound = await loop.run_in_executor(table.manager.executor, claim_is_sound, view)
            except Exception:
                log.exception("judging a claim at table %s failed; the computer player plays on", table.id)
                sound = False
            if not sound:
                continue
            async with table.lock:
                if table.game is not game or table.deal_no != deal_no or len(game.history) != history_len:
                    return conceded
                stand_in = table.stands_in(position)
                if stand_in is None:
                    continue  # the person came back: theirs is the answer
                try:
                    await table.apply(seat, CONCEDE, stand_in=stand_in)
                except Overtaken:
                    return conceded
                conceded = True
            await table.after_change_no_bots()
        return conceded


async def _sleep_until(loop: asyncio.AbstractEventLoop, when: float) -> None:
    """Wait until the event loop's clock reads ``when`` (at once when it is past)."""
    left = when - loop.time()
    if left > 0:
        await asyncio.sleep(left)
