"""The double-dummy analysis of finished deals (docs/protocol.md, "Analysis of a finished deal"; docs/analysis.md):
``GET /api/tables/{id}/games/{n}/analysis``, and :class:`AnalysisCache`, which solves each deal once off the event
loop (the application's is ``app.state.analyses``)."""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from concurrent.futures import BrokenExecutor, Executor, ThreadPoolExecutor
from typing import Annotated, Any

from fastapi import APIRouter, Depends
from starlette.requests import HTTPConnection

from skat.analysis import analyse_game
from skat.errors import SkatError
from skat.server.bots import bot_process_pool, start_workers
from skat.server.core import TableError
from skat.server.errors import ErrorCode
from skat.server.routes.bodies import ERRORS
from skat.server.routes.deps import Readable
from skat.server.routes.models import Analysis
from skat.solver.search import warm_up

__all__ = ["router", "AnalysisCache", "RetryLaterError", "analyse_record", "ANALYSIS_TIME_LIMIT",
           "ANALYSIS_CACHE_SIZE"]

ANALYSIS_TIME_LIMIT = 1.0
"""Seconds of solving per position when the server analyses a deal (a position over it is shown as not analysed)."""
ANALYSIS_CACHE_SIZE = 64
"""Analyses kept in memory (the most recently asked for), per application."""


def analyse_record(record: dict[str, Any], label: str, time_limit: float | None = ANALYSIS_TIME_LIMIT) -> dict[str, Any]:
    """The analysis JSON of a finished deal's record (``GameAnalysis.to_json()``), with the players' names and
    table positions from the record's ``table`` block (by game seat: forehand, middlehand, rearhand) and the
    deal number.
    A deal without a declarer's card play (passed in, Ramsch) has ``skipped`` set to the reason."""
    analysis = analyse_game(record, time_limit=time_limit, label=label).to_json()
    block = record.get("table") or {}
    if analysis["players"] is None and isinstance(block.get("players"), list):
        analysis["players"] = list(block["players"])
    analysis["deal_no"] = block.get("deal_no")
    analysis["positions"] = block.get("positions")
    return analysis


class RetryLaterError(TableError):
    """A refusal with a ``Retry-After`` (whole seconds)."""

    def __init__(self, code: str, message: str, status: int, *, retry_after: int) -> None:
        super().__init__(code, message, status)
        self.retry_after = retry_after


class AnalysisCache:
    """Analyses of finished deals by (table, deal), the last :data:`ANALYSIS_CACHE_SIZE` kept; requests for a
    deal that is being analysed wait for the same result.

    The solver runs off the event loop, one deal at a time, at most ``time_limit`` seconds per position: in
    a worker process (``processes=True``, the server's choice: the analysis' Python work between searches
    would otherwise compete with the server's other tables for the GIL), or on a worker thread.
    """

    def __init__(self, size: int = ANALYSIS_CACHE_SIZE, time_limit: float | None = ANALYSIS_TIME_LIMIT, *,
                 processes: bool = True, max_waiting: int | None = None, retry_seconds: int = 15) -> None:
        self.size = size
        self.max_waiting = max_waiting
        """Distinct analyses running or waiting at most (None: no limit); a new one beyond is ``503 busy``."""
        self.retry_seconds = retry_seconds
        self.time_limit = time_limit
        """Seconds per position (None: solve every position exactly, however long it takes)."""
        self.processes = processes
        self.entries: OrderedDict[tuple[str, int], asyncio.Future[dict[str, Any]]] = OrderedDict()
        self._pool: Executor | None = None
        self._ready: asyncio.Future | None = None

    async def get(self, table_id: str, deal_no: int, record: dict[str, Any], table_name: str) -> dict[str, Any]:
        """The analysis JSON of a finished deal's record (see :func:`analyse_record`), solved once."""
        key = (table_id, deal_no)
        future = self.entries.get(key)
        if future is None:
            waiting = sum(1 for f in self.entries.values() if not f.done())
            if self.max_waiting is not None and waiting >= self.max_waiting:
                raise RetryLaterError(ErrorCode.BUSY, f"the server is analysing {waiting} deals already; ask again "
                                      f"in {self.retry_seconds} s", 503, retry_after=self.retry_seconds)
            future = self._start(record, f"{table_name}, deal {deal_no}")
            self.entries[key] = future
            while len(self.entries) > self.size:
                self.entries.popitem(last=False)
        else:
            self.entries.move_to_end(key)
        try:
            return await asyncio.shield(future)  # a client that goes away does not cancel it for the others
        except SkatError as exc:
            self._forget(key, future)
            raise TableError(ErrorCode.ANALYSIS_FAILED, f"deal {deal_no} could not be analysed: {exc}", 500) from None
        except BrokenExecutor:
            self._forget(key, future)
            self.shutdown()  # the worker died (killed, out of memory): the next request starts a new one
            raise TableError(ErrorCode.ANALYSIS_FAILED, f"the analysis of deal {deal_no} stopped unexpectedly; ask "
                             "again", 503) from None
        except BaseException:
            if future.done():  # a failure is not kept; a request that was cancelled leaves the work running
                self._forget(key, future)
            raise

    def _start(self, record: dict[str, Any], label: str) -> asyncio.Future[dict[str, Any]]:
        """Hand one analysis to the worker (a new worker process is started in a thread, not on the event
        loop: :func:`skat.server.bots.start_workers`)."""
        loop = asyncio.get_running_loop()
        if self._pool is None:
            if self.processes:
                self._pool = bot_process_pool(workers=1)  # its worker loads the solver before its first task
                self._ready = loop.run_in_executor(None, start_workers, self._pool)
            else:
                self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="skat-analysis")
                self._pool.submit(warm_up)  # runs first: the first deal's time limit is spent solving
                self._ready = None
        return asyncio.ensure_future(self._analyse(self._pool, self._ready, record, label))

    async def _analyse(self, pool: Executor, ready: asyncio.Future | None, record: dict[str, Any],
                       label: str) -> dict[str, Any]:
        if ready is not None:
            await asyncio.shield(ready)
        return await asyncio.get_running_loop().run_in_executor(pool, analyse_record, record, label, self.time_limit)

    def _forget(self, key: tuple[str, int], future: asyncio.Future[dict[str, Any]]) -> None:
        if self.entries.get(key) is future:
            del self.entries[key]

    def shutdown(self) -> None:
        """Stop the worker (an analysis running now finishes in the background)."""
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None


def analyses(connection: HTTPConnection) -> AnalysisCache:
    """The application's analyses (``app.state.analyses``)."""
    return connection.app.state.analyses


router = APIRouter(responses=ERRORS)


@router.get("/api/tables/{table_id}/games/{deal_no}/analysis", response_model=Analysis,
            response_model_exclude_unset=True)
async def game_analysis(table_id: str, deal_no: int, table: Readable,
                        cache: Annotated[AnalysisCache, Depends(analyses)]) -> dict[str, Any]:
    """The double-dummy analysis of a finished deal (docs/analysis.md); computed once, then cached."""
    record = await table.finished_record(deal_no)
    if table.game_kind.no_analysis is not None:
        raise TableError(ErrorCode.NO_ANALYSIS, table.game_kind.no_analysis, 422)
    return await cache.get(table_id, deal_no, record, table.name)
