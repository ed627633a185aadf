"""The web application: REST API, the WebSocket protocol (docs/protocol.md) and the browser table."""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections import OrderedDict
from collections.abc import Iterable
from concurrent.futures import BrokenExecutor, Executor, ThreadPoolExecutor
from contextlib import asynccontextmanager
from importlib import resources
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from fastapi.staticfiles import StaticFiles
from sqlalchemy.exc import SQLAlchemyError
from starlette.websockets import WebSocketState

from skat.analysis import analyse_game
from skat.errors import SkatError
from skat.players.registry import PLAYER_NAMES
from skat.records.iss import to_iss
from skat.server.bots import bot_process_pool, default_level, start_workers
from skat.server.connections import Client, encode_message
from skat.server.core import PROTOCOL_VERSION, TableError
from skat.server.errors import ErrorBoundary
from skat.server.games import games_meta, request_fields
from skat.server.keeper import KeeperService
from skat.server.keeper import json_body as _json_body
from skat.server.keeper import router as keeper_router
from skat.server.limits import ClientLimits, Limits, RateLimits, client_host, sweeper
from skat.server.manager import TableManager
from skat.server.monitor import LoopMonitor
from skat.server.officers import router as officers_router
from skat.server.security import MAX_BODY_BYTES, Security, parse_origins
from skat.server.store import Store
from skat.server.tables import ServerTable
from skat.server.tournament import TournamentService
from skat.server.tournament import router as tournament_router
from skat.solver.search import warm_up
from skat.variants.registry import from_record

__all__ = ["create_app", "STATIC_DIR"]

log = logging.getLogger("skat.server")

STATIC_DIR = Path(str(resources.files("skat.web") / "static"))
MAX_MESSAGE_BYTES = 4096
MAX_FRAME_BYTES = 4 * 1024 * 1024
"""The transport's limit (uvicorn's ``ws_max_size`` in ``skat serve``): a message up to this size is read and
answered ``too_large`` when it is over :data:`MAX_MESSAGE_BYTES`; only one over this closes the connection (1009)."""
RATE_PER_SECOND = 60.0
RATE_BURST = 120.0
FLOOD_CLOSE_AFTER = 200
ANALYSIS_TIME_LIMIT = 1.0
"""Seconds of solving per position when the server analyses a deal (a position over it is shown as not analysed)."""
DB_UNAVAILABLE = ("the database cannot be reached just now; nothing was changed. Try again in a moment "
                  "(the table goes on where it was)")
ANALYSIS_CACHE_SIZE = 64
"""Analyses kept in memory (the most recently asked for), per application."""


def create_app(db_url: str, *, bot_delay: float = 0.0, trick_pause: float = 0.0,
               manager: TableManager | None = None, allowed_origins: Iterable[str] = (),
               max_body: int = MAX_BODY_BYTES, limits: Limits | None = None,
               restore_in_background: bool = False) -> FastAPI:
    """The application for one database (or an existing manager). Open tables are restored from it: now,
    or with ``restore_in_background`` (``skat serve``) once it runs, one after the other, while it already
    answers (a table asked for meanwhile is loaded at once; the lobby waits until all are).

    ``allowed_origins`` are origins (``https://host[:port]``) besides the server's own whose pages may open
    its WebSockets; ``max_body`` is the limit of a request body in bytes (skat.server.security); ``limits``
    the limits against abuse (skat.server.limits; default: the manager's, else :class:`Limits`())."""
    allowed_origins = tuple(allowed_origins)
    parse_origins(allowed_origins)  # a bad origin fails now, before the database is opened
    if manager is None:
        store = Store(db_url, serve=True)
        manager = TableManager(store, bot_delay=bot_delay, trick_pause=trick_pause, limits=limits)
        if not restore_in_background:
            restored = manager.restore()
            if restored:
                log.info("restored %d open table(s) from %s", restored, store.url)
    elif limits is not None:
        manager.limits = limits
    limits = manager.limits
    mgr_ = manager
    analyses = AnalysisCache(max_waiting=limits.analysis_queue, retry_seconds=limits.analysis_retry_seconds)
    limiter = ClientLimits(limits)
    monitor = LoopMonitor()

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        await mgr_.start(restore=restore_in_background)
        sweeping = asyncio.create_task(sweeper(lambda now: app.state.manager.archive_idle(now), limits.sweep_seconds))
        watching = asyncio.create_task(monitor.run())
        try:
            yield
        finally:
            sweeping.cancel()
            watching.cancel()
            analyses.shutdown()
            await mgr_.stop()
            mgr_.shutdown()
            mgr_.store.close()

    # FastAPI's own docs page loads Swagger UI from a CDN with an inline script, which the Content-Security-Policy
    # forbids: /api/docs (below) serves it from the package instead (web/static/apidocs).
    app = FastAPI(title="skat", version=str(PROTOCOL_VERSION), lifespan=lifespan, docs_url=None,
                  openapi_url="/api/openapi.json", redoc_url=None,
                  description="The table server's REST API. The WebSocket protocol (`/ws/{table_id}`), the errors and "
                              "the limits are described in docs/protocol.md.")
    app.state.manager = manager
    app.state.keeper = KeeperService(manager.store)
    manager.listeners.append(app.state.keeper)
    app.state.tournaments = TournamentService(manager.store, app.state.keeper)
    app.state.analyses = analyses
    app.state.limiter = limiter

    def mgr() -> TableManager:
        return app.state.manager

    async def readable(request: Request, table_id: str) -> ServerTable:
        """The table a GET request reads: at a private table only with the ``X-Invite`` header (its invite
        secret) or ``X-Seat-Token`` (a seat holder's token); 403 ``invite_required`` / ``bad_invite`` else."""
        table = await mgr().table(table_id)
        mgr().admit(table, invite=request.headers.get("x-invite"), token=request.headers.get("x-seat-token"))
        return table

    @app.exception_handler(TableError)
    async def table_error(_request: Request, exc: TableError) -> JSONResponse:
        retry = getattr(exc, "retry_after", None)
        return JSONResponse({"error": exc.code, "message": str(exc)}, status_code=exc.status,
                            headers=None if retry is None else {"Retry-After": str(retry)})

    @app.exception_handler(SQLAlchemyError)
    async def database_error(request: Request, exc: SQLAlchemyError) -> JSONResponse:
        log.error("%s %s: the database failed (%s: %s); nothing was changed", request.method, request.url.path,
                  type(exc).__name__, str(exc).splitlines()[0][:300] if str(exc) else "")
        return JSONResponse({"error": "db_unavailable", "message": DB_UNAVAILABLE}, status_code=503,
                            headers={"Retry-After": "2"})

    # ----------------------------------------------------------------- REST
    @app.get("/api/health")
    async def health() -> dict[str, Any]:
        store = mgr().store
        return {"status": "ok", "protocol": PROTOCOL_VERSION, "tables": len(mgr().tables), **monitor.figures(),
                "commits": store.commits, "slow_commits": store.slow_commits}

    @app.get("/api/meta")
    async def meta() -> dict[str, Any]:
        return {"protocol": PROTOCOL_VERSION, "levels": list(PLAYER_NAMES), "default_level": default_level(),
                **games_meta(), "iss_records": True}  # the games' names and what each lists (rule sets...)

    @app.get("/api/tables")
    async def list_tables() -> dict[str, Any]:
        await mgr().restored()
        return {"tables": await mgr().lobby_tables()}

    @app.post("/api/tables", status_code=201)
    async def create_table(request: Request) -> dict[str, Any]:
        body = await _json_body(request)
        seats = body.get("seats")
        if seats is not None and not isinstance(seats, list):
            raise TableError("bad_seats", "seats must be a list such as [\"human\", \"strong\", \"strong\"]")
        deals = body.get("deals")
        if deals is not None and (not isinstance(deals, int) or isinstance(deals, bool) or deals < 1):
            raise TableError("bad_deals", "deals must be a positive whole number (or left out for no limit)")
        seed = body.get("seed")
        if seed is not None and (type(seed) is not int or not 0 <= seed < 2**63):
            raise TableError("bad_seed", "seed must be a whole number from 0 to 2**63-1 (or left out for secret deals)")
        claim = body.get("claim", 0)
        if claim is not None and (not isinstance(claim, int) or isinstance(claim, bool)):
            raise TableError("bad_claim", "claim must be the position you sit at (0, 1, 2, ...) or null")
        ruleset = body.get("ruleset")
        table, seat = await mgr().create_table(
            name=body.get("name", ""), seats=seats, ruleset=None if ruleset is None else str(ruleset),
            variant=str(body.get("variant", "standard")), **{key: body.get(key) for key in request_fields()},
            deals=deals, player_name=body.get("player_name", ""),
            claim=claim, options=body.get("options"), seed=seed, public=body.get("public", False),
            hints=body.get("hints", True))
        await table.after_change()
        url = f"/t/{table.id}"
        return {**seat, "table": table.public_info(), "url": url,
                "invite_url": url if seat["invite"] is None else f"{url}#invite={seat['invite']}"}

    @app.get("/api/tables/{table_id}")
    async def table_info(table_id: str, request: Request) -> dict[str, Any]:
        return (await readable(request, table_id)).public_info()

    @app.post("/api/tables/{table_id}/join")
    async def join(table_id: str, request: Request) -> dict[str, Any]:
        body = await _json_body(request)
        position = body.get("position")
        if position is not None and (not isinstance(position, int) or isinstance(position, bool)):
            raise TableError("bad_position", "position must be a seat number (0, 1, 2, ...)")
        out = await mgr().join(table_id, name=body.get("name", ""), position=position, invite=body.get("invite"))
        table = await mgr().table(table_id)
        table.touch()
        await table.after_change()
        return out

    @app.post("/api/tables/{table_id}/close")
    async def close(table_id: str, request: Request) -> dict[str, Any]:
        body = await _json_body(request)
        await mgr().close(table_id, body.get("token"))
        return {"table_id": table_id, "closed": True}

    @app.get("/api/tables/{table_id}/sheet")
    async def sheet(table_id: str, request: Request) -> dict[str, Any]:
        table = await readable(request, table_id)
        return {"table": table.public_info(), "sheet": table.series.sheet()}

    @app.get("/api/tables/{table_id}/sheet.json")
    async def sheet_download(table_id: str, request: Request) -> Response:
        table = await readable(request, table_id)
        body = {"table": {"id": table.id, "name": table.name, "players": [s.name for s in table.seats],
                          "ruleset": table.settings.get("ruleset")},
                "sheet": table.series.sheet(), "games": table.game_results()}
        return Response(json.dumps(body, indent=1), media_type="application/json",
                        headers={"Content-Disposition": f'attachment; filename="skat-{table_id}-sheet.json"'})

    @app.get("/api/tables/{table_id}/sheet.csv")
    async def sheet_csv_download(table_id: str, request: Request) -> Response:
        table = await readable(request, table_id)
        text = table.game_kind.sheet_csv(table.series.sheet(), [s.name for s in table.seats])
        # UTF-8 with a byte order mark: spreadsheets then read umlauts and Cyrillic names right
        return Response("\ufeff" + text, media_type="text/csv; charset=utf-8",
                        headers={"Content-Disposition": f'attachment; filename="skat-{table_id}-sheet.csv"'})

    @app.get("/api/tables/{table_id}/games")
    async def games(table_id: str, request: Request) -> dict[str, Any]:
        table = await readable(request, table_id)
        return {"games": table.game_results()}

    @app.get("/api/tables/{table_id}/games/{deal_no}.json")
    async def game_json(table_id: str, deal_no: int, request: Request) -> Response:
        record = await (await readable(request, table_id)).finished_record(deal_no)
        return Response(json.dumps(record, indent=1), media_type="application/json",
                        headers={"Content-Disposition": f'attachment; filename="skat-{table_id}-{deal_no}.json"'})

    @app.get("/api/tables/{table_id}/games/{deal_no}.iss")
    async def game_iss(table_id: str, deal_no: int, request: Request) -> Response:
        table = await readable(request, table_id)
        record = await table.finished_record(deal_no)
        if table.game_kind.no_iss_record is not None:
            raise TableError("no_iss_record", table.game_kind.no_iss_record, 422)
        try:
            text = to_iss(from_record(record), **_iss_header(record))
        except ValueError as exc:  # a deal the ISS format has no notation for (e.g. a pushed Ramsch skat)
            raise TableError("no_iss_record", f"deal {deal_no} cannot be written as an ISS record: {exc}; "
                             "download its JSON record instead", 422) from None
        return PlainTextResponse(text, headers={
            "Content-Disposition": f'attachment; filename="skat-{table_id}-{deal_no}.sgf"'})

    @app.get("/api/tables/{table_id}/games/{deal_no}/analysis")
    async def game_analysis(table_id: str, deal_no: int, request: Request) -> dict[str, Any]:
        """The double-dummy analysis of a finished deal (docs/analysis.md); computed once, then cached."""
        table = await readable(request, table_id)
        record = await table.finished_record(deal_no)
        if table.game_kind.no_analysis is not None:
            raise TableError("no_analysis", table.game_kind.no_analysis, 422)
        return await analyses.get(table_id, deal_no, record, table.name)

    # ------------------------------------------------------------ WebSocket
    @app.websocket("/ws/{table_id}")
    async def table_socket(ws: WebSocket, table_id: str) -> None:
        await ws.accept()
        await _serve_socket(mgr(), ws, table_id, limiter)

    # --------------------------------------------------------------- pages
    @app.get("/", include_in_schema=False)
    async def index() -> FileResponse:
        return FileResponse(STATIC_DIR / "index.html", headers={"Cache-Control": "no-cache"})

    @app.get("/t/{table_id}", include_in_schema=False)
    async def table_page(table_id: str) -> FileResponse:
        return FileResponse(STATIC_DIR / "index.html", headers={"Cache-Control": "no-cache"})

    @app.get("/api/docs", include_in_schema=False)
    async def api_docs() -> FileResponse:
        """The API's documentation: Swagger UI on /api/openapi.json, its files from the package."""
        return FileResponse(STATIC_DIR / "apidocs" / "index.html", headers={"Cache-Control": "no-cache"})

    app.include_router(keeper_router)  # the score keeper of real tables (docs/keeper-server.md)
    app.include_router(tournament_router)  # club tournaments, their tables kept as lists
    app.include_router(officers_router)  # the Officers' Skat page; the older REST API's stored tables, read-only
    app.add_middleware(ErrorBoundary)
    app.add_middleware(RateLimits, limiter=limiter)  # before any handler: a refused request changes nothing
    app.add_middleware(Security, max_body=max_body, allowed_origins=allowed_origins)  # outermost
    app.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")
    return app


def _iss_header(record: dict[str, Any]) -> dict[str, Any]:
    """The players' names (by game seat), deal number and table name of a table's record for its ISS header;
    characters the ISS format cannot hold in a value (``]``, line breaks) become ``)`` and spaces."""
    block = record.get("table") or {}

    def clean(text: Any) -> str:
        return str(text).replace("]", ")").replace("\r", " ").replace("\n", " ")

    header: dict[str, Any] = {"game_id": int(block.get("deal_no") or 0), "comment": clean(block.get("name", ""))}
    players = block.get("players")
    if isinstance(players, list) and len(players) == 3:
        header["players"] = [clean(name) for name in players]
    return header


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
                raise RetryLaterError("busy", f"the server is analysing {waiting} deals already; ask again in "
                                      f"{self.retry_seconds} s", 503, retry_after=self.retry_seconds)
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
            raise TableError("analysis_failed", f"deal {deal_no} could not be analysed: {exc}", 500) from None
        except BrokenExecutor:
            self._forget(key, future)
            self.shutdown()  # the worker died (killed, out of memory): the next request starts a new one
            raise TableError("analysis_failed", f"the analysis of deal {deal_no} stopped unexpectedly; ask again",
                             503) from None
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


class RetryLaterError(TableError):
    """A refusal with a ``Retry-After`` (whole seconds)."""

    def __init__(self, code: str, message: str, status: int, *, retry_after: int) -> None:
        super().__init__(code, message, status)
        self.retry_after = retry_after


class _RateLimit:
    """A token bucket per connection: a flood gets errors, a long flood gets the socket closed."""

    def __init__(self) -> None:
        self.tokens = RATE_BURST
        self.last = time.monotonic()
        self.refused = 0

    def allow(self) -> bool:
        now = time.monotonic()
        self.tokens = min(RATE_BURST, self.tokens + (now - self.last) * RATE_PER_SECOND)
        self.last = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        self.refused += 1
        return False


async def _serve_socket(manager: TableManager, ws: WebSocket, table_id: str,
                        limiter: ClientLimits | None = None) -> None:
    send_lock = asyncio.Lock()

    async def send(message: dict[str, Any] | str) -> None:
        text = message if isinstance(message, str) else encode_message(message)
        async with send_lock:
            await ws.send_text(text)

    async def error(code: str, message: str) -> None:
        await send({"type": "error", "code": code, "message": message})

    try:
        table = await manager.table(table_id)
    except TableError as exc:
        await error(exc.code, str(exc))
        await ws.close(code=4404)
        return
    client: Client | None = None
    flood = _RateLimit()
    host = client_host(ws.scope)
    try:
        while True:
            message = await ws.receive()
            if message["type"] == "websocket.disconnect":
                raise WebSocketDisconnect(message.get("code", 1000), message.get("reason"))
            if manager.tables.get(table.id) is not table:  # closed or archived meanwhile
                await error("no_table", f"table {table.id} was closed; there is no open table {table.id!r}")
                await ws.close(code=4404)
                return
            if not flood.allow():
                if flood.refused > FLOOD_CLOSE_AFTER:
                    await error("flood", "too many messages; the connection is closed")
                    await ws.close(code=4429)
                    return
                await error("rate_limited", f"too many messages: at most {RATE_PER_SECOND:.0f} per second; "
                            "this message was ignored")
                continue
            raw = message.get("text")
            data = message.get("bytes")
            size = len(raw.encode("utf-8", "surrogatepass")) if raw is not None else len(data or b"")
            if size > MAX_MESSAGE_BYTES:
                await error("too_large", f"messages are at most {MAX_MESSAGE_BYTES} bytes; this one has {size}")
                continue
            if raw is None:
                await error("bad_message", "send text frames with JSON, not binary frames; see docs/protocol.md")
                continue
            try:
                msg = json.loads(raw)
            except RecursionError:
                await error("bad_message", "the message's JSON is nested too deeply")
                continue
            except ValueError:
                await error("bad_message", "the message is not JSON; see docs/protocol.md")
                continue
            if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
                await error("bad_message", "a message is a JSON object with a 'type' field")
                continue
            kind = msg["type"]
            if kind in ("action", "hint") and limiter is not None:
                wait = limiter.check(kind, host)
                if wait:  # across all of this address' connections
                    await error("rate_limited", limiter.refusal(kind, wait) + f"; this {kind} was ignored")
                    continue
            try:
                client = await _handle_message(manager, table, client, msg, send)
            except TableError as exc:
                await error(exc.code, str(exc))
                if exc.code == "stale" and client is not None:
                    await send(table.state_for(client.position))
            except (WebSocketDisconnect, asyncio.CancelledError):
                raise
            except SQLAlchemyError as exc:
                log.error("table %s: message %r of position %s: the database failed (%s); nothing was changed",
                          table.id, kind[:40], None if client is None else client.position, type(exc).__name__)
                await error("db_unavailable", DB_UNAVAILABLE)
            except Exception:
                if ws.client_state is not WebSocketState.CONNECTED or ws.application_state is not \
                        WebSocketState.CONNECTED:
                    raise  # the socket went away while sending
                log.exception("table %s: message %r of position %s failed", table.id, kind[:40],
                              None if client is None else client.position)
                await error("internal", f"the server failed to handle this {kind[:40]!r} message; it was logged. "
                            "Ask for the state and go on")
    except WebSocketDisconnect:
        pass
    except RuntimeError:
        pass  # the socket went away while sending
    finally:
        if client is not None:
            try:
                await table.disconnect(client)
            except Exception:  # the table goes on without this client
                log.debug("telling the table of a disconnect failed", exc_info=True)


_HINT_TASKS: set[asyncio.Task] = set()
"""Hints being thought about and answered (the connection reads on meanwhile: a card may be played)."""


async def _answer_hint(table: ServerTable, job: asyncio.Future, seq: int, send: Any) -> None:
    """Send the hint of ``job`` when it is ready: ``{"type": "hint", "card", "reason", "why", "seq"}`` (``seq``:
    the action count it is for; the table may have moved on meanwhile), or the error ``hint_failed``."""
    try:
        hint = await asyncio.shield(job)
    except asyncio.CancelledError:
        raise
    except Exception:
        log.exception("table %s: the card hint at action %d failed", table.id, seq)
        message: dict[str, Any] = {"type": "error", "code": "hint_failed",
                                   "message": "the hint could not be computed; play on, or ask again"}
    else:
        message = {"type": "hint", **hint, "seq": seq}
    try:
        await send(message)
    except Exception:  # the connection went away meanwhile
        log.debug("a hint could not be sent", exc_info=True)


async def _handle_message(manager: TableManager, table: Any, client: Client | None, msg: dict[str, Any],
                          send: Any) -> Client | None:
    """Answer one message of a connection (its client, None before ``hello``); the client after it."""
    kind = msg["type"]
    if kind == "hello":
        if client is not None:
            raise TableError("bad_message", "hello was already sent on this connection")
        version = msg.get("protocol", PROTOCOL_VERSION)
        if version != PROTOCOL_VERSION:
            raise TableError("protocol", f"this server speaks protocol {PROTOCOL_VERSION}, not {str(version)[:40]!r}")
        token = msg.get("token")
        if token is not None and not isinstance(token, str):
            raise TableError("bad_token", "the token must be a string")
        position = manager.position_for_token(table, token)
        if position is None:  # a spectator: at a private table only with its invite
            table.check_invite(msg.get("invite"))
        client = Client(send=send, position=position)
        table.touch()
        await send({"type": "welcome", "protocol": PROTOCOL_VERSION, "table_id": table.id,
                    "position": position, "role": "spectator" if position is None else "player"})
        await send({"type": "sheet", "sheet": table.series.sheet()})
        # joined only now, so that no broadcast (a computer's move meanwhile) comes between
        # the welcome, the sheet and the state
        await table.connect(client)
    elif client is None:
        raise TableError("hello_first", "send hello (with your seat token, or none to watch) first")
    elif kind == "action":
        table.touch()
        await table.act(client.position, msg.get("action"), msg.get("seq"))
    elif kind == "next_deal":
        table.touch()
        await table.next_deal(client.position)
    elif kind == "hint":
        table.touch()
        seq, job = table.start_hint(client.position)  # refused at once when there is no hint to give
        task = asyncio.ensure_future(_answer_hint(table, job, seq, send))
        _HINT_TASKS.add(task)
        task.add_done_callback(_HINT_TASKS.discard)
    elif kind == "sheet":
        await send({"type": "sheet", "sheet": table.series.sheet()})
    elif kind == "state":
        await send(table.state_for(client.position))
    elif kind == "ping":
        await send({"type": "pong", "t": msg.get("t")})
    else:
        raise TableError("bad_message", f"unknown message type {kind[:40]!r}; see docs/protocol.md")
    return client
