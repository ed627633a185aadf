"""The web application: :func:`create_app` wires the table server together.

The routes live one router per resource in :mod:`skat.server.routes` (tables, analysis, health, pages) and in
:mod:`skat.server.keeper`, :mod:`skat.server.tournament` and :mod:`skat.server.officers`; the table WebSocket
(docs/protocol.md) is :mod:`skat.server.sockets`; the messages' models are :mod:`skat.server.messages` and
:mod:`skat.server.routes.models`. What the routes use lives in ``app.state`` and reaches them through FastAPI's
dependency injection (:mod:`skat.server.routes.deps`): ``manager`` (the tables), ``keeper``, ``tournaments``,
``analyses``, ``limiter``, ``monitor`` and ``accounts``.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager

from fastapi import APIRouter, FastAPI, Request
from fastapi.responses import JSONResponse
from sqlalchemy.exc import SQLAlchemyError

from skat.server import keeper, officers, sockets, tournament
from skat.server.accounts import AccountService
from skat.server.chat import ChatService
from skat.server.core import PROTOCOL_VERSION, TableError
from skat.server.errors import DB_UNAVAILABLE_MESSAGE, ErrorBoundary, ErrorCode
from skat.server.friends import FriendsService, PresenceBook
from skat.server.keeper import KeeperService
from skat.server.limits import ClientLimits, Limits, RateLimits, SocketLimits, sweeper
from skat.server.manager import TableManager
from skat.server.monitor import LoopMonitor
from skat.server.online import OnlineService
from skat.server.routes import accounts, analysis, chat, friends, health, history, learn, pages, season, tables
from skat.server.routes import online as online_routes
from skat.server.routes.accounts import AccountRequest, LoginRequest, PasswordRequest
from skat.server.routes.analysis import (
    ANALYSIS_CACHE_SIZE,
    ANALYSIS_TIME_LIMIT,
    AnalysisCache,
    RetryLaterError,
    analyse_record,
)
from skat.server.routes.bodies import install
from skat.server.routes.learn import LearnRequest
from skat.server.routes.models import (
    ChangesRequest,
    CheckRequest,
    CloseRequest,
    CreateTableRequest,
    DrawRequest,
    JoinRequest,
    KeeperCreateRequest,
    RegisterRequest,
    TournamentCreateRequest,
)
from skat.server.routes.pages import STATIC_DIR, mount_static
from skat.server.season import SeasonService
from skat.server.security import MAX_BODY_BYTES, Security, parse_origins
from skat.server.sockets import MAX_FRAME_BYTES, MAX_MESSAGE_BYTES
from skat.server.store import Store
from skat.server.tournament import TournamentService

__all__ = ["create_app", "STATIC_DIR", "MAX_MESSAGE_BYTES", "MAX_FRAME_BYTES", "ANALYSIS_TIME_LIMIT",
           "ANALYSIS_CACHE_SIZE", "AnalysisCache", "RetryLaterError", "analyse_record", "ROUTERS"]

log = logging.getLogger("skat.server")

ROUTERS: tuple[APIRouter, ...] = (
    health.router, tables.router, analysis.router, sockets.router, pages.router,
    keeper.router,  # the score keeper of real tables (docs/keeper-server.md)
    tournament.router,  # club tournaments, their tables kept as lists
    officers.router,  # the Officers' Skat page; the older REST API's stored tables, read-only
    learn.router,  # Learn Skat: guided deals (skat.lessons)
    accounts.router,  # people's accounts: register, sign in and out (docs/accounts.md)
    history.router,  # players' histories, statistics, ratings, leaderboards, replays (docs/history.md)
    season.router,  # a club's season across its tournament evenings (docs/season.md)
    chat.router,  # the lobby's chat (docs/chat.md; a table's is on its WebSocket)
    online_routes.router,  # online tournaments at server tables (docs/online-tournaments.md)
    friends.router,  # following people, who is online, invitations, blocking (docs/friends.md)
)
"""Every router of the application, in the order they are included."""

BODIES = (CreateTableRequest, JoinRequest, CloseRequest, KeeperCreateRequest, ChangesRequest, CheckRequest,
          TournamentCreateRequest, RegisterRequest, DrawRequest, LearnRequest, AccountRequest, LoginRequest,
          PasswordRequest, chat.LobbyChatRequest, friends.InviteRequest) + season.SEASON_BODIES + online_routes.ONLINE_BODIES
"""The request bodies (their schemas go into the OpenAPI description)."""


def create_app(db_url: str, *, bot_delay: float = 0.0, trick_pause: float = 0.0,
               manager: TableManager | None = None, allowed_origins: Iterable[str] = (),
               max_body: int = MAX_BODY_BYTES, limits: Limits | None = None,
               restore_in_background: bool = False, public_replays: bool = True) -> FastAPI:
    """The application for one database (or an existing manager). Open tables are restored from it: now,
    or with ``restore_in_background`` (``skat serve``) once it runs, one after the other, while it already
    answers (a table asked for meanwhile is loaded at once; the lobby waits until all are).

    ``allowed_origins`` are origins (``https://host[:port]``) besides the server's own whose pages may open
    its WebSockets; ``max_body`` is the limit of a request body in bytes (skat.server.security); ``limits``
    the limits against abuse (skat.server.limits; default: the manager's, else :class:`Limits`()); without
    ``public_replays`` a finished deal's replay is only for those who played it, also once its table is closed."""
    allowed_origins = tuple(allowed_origins)
    parse_origins(allowed_origins)  # a bad origin fails now, before the database is opened
    manager = _manager(db_url, manager, bot_delay=bot_delay, trick_pause=trick_pause, limits=limits,
                       restore_now=not restore_in_background)
    limits = manager.limits
    # FastAPI's own docs page loads Swagger UI from a CDN with an inline script, which the Content-Security-Policy
    # forbids: /api/docs (skat.server.routes.pages) serves it from the package instead (web/static/apidocs).
    app = FastAPI(title="skat", version=str(PROTOCOL_VERSION), lifespan=_lifespan, docs_url=None,
                  openapi_url="/api/openapi.json", redoc_url=None,
                  description="The table server's REST API. The WebSocket protocol (`/ws/{table_id}`), the errors and "
                              "the limits are described in docs/protocol.md, its JSON Schema in "
                              "docs/protocol.schema.json.")
    app.state.manager = manager
    app.state.restore_in_background = restore_in_background
    app.state.keeper = KeeperService(manager.store)
    manager.listeners.append(app.state.keeper)
    app.state.tournaments = TournamentService(manager.store, app.state.keeper)
    app.state.analyses = AnalysisCache(max_waiting=limits.analysis_queue, retry_seconds=limits.analysis_retry_seconds)
    app.state.limiter = ClientLimits(limits)
    app.state.accounts = AccountService(manager.store.engine, limits)
    app.state.seasons = SeasonService(manager.store, app.state.tournaments, app.state.accounts)
    app.state.friends = FriendsService(manager.store.engine)
    app.state.presence = PresenceBook(app.state.friends)  # the signed-in people at this process's tables
    app.state.chat = ChatService(manager.store, app.state.accounts, limits, manager.tables.get)
    app.state.chat.blocked_by = app.state.friends.blocked_by  # a block reaches the blocker's open tables at once
    app.state.online = OnlineService(manager.store, manager, app.state.accounts)  # docs/online-tournaments.md
    manager.listeners.append(app.state.chat)  # the chat of the other server processes (docs/chat.md)
    app.state.monitor = LoopMonitor()
    app.state.public_replays = public_replays
    app.state.local_codes = {}  # skat play's one-time sign-in codes of its local player: code -> account id
    app.add_exception_handler(TableError, _table_error)
    app.add_exception_handler(SQLAlchemyError, _database_error)
    for router in ROUTERS:
        app.include_router(router)
    install(app, BODIES)
    mount_static(app)
    app.add_middleware(ErrorBoundary)
    app.add_middleware(RateLimits, limiter=app.state.limiter)  # before any handler: a refused request changes nothing
    app.add_middleware(SocketLimits, per_address=limits.sockets_per_address)
    app.add_middleware(Security, max_body=max_body, allowed_origins=allowed_origins)  # outermost
    return app


def _manager(db_url: str, manager: TableManager | None, *, bot_delay: float, trick_pause: float,
             limits: Limits | None, restore_now: bool) -> TableManager:
    """The tables: ``manager`` (with ``limits`` if given), or a new manager of ``db_url``'s store, its open tables
    restored now unless they are restored once the application runs."""
    if manager is not None:
        if limits is not None:
            manager.limits = limits
        return manager
    store = Store(db_url, serve=True)
    manager = TableManager(store, bot_delay=bot_delay, trick_pause=trick_pause, limits=limits)
    if restore_now:
        restored = manager.restore()
        if restored:
            log.info("restored %d open table(s) from %s", restored, store.url)
    return manager


@asynccontextmanager
async def _lifespan(app: FastAPI) -> AsyncIterator[None]:
    """Start the tables (restoring them now with ``restore_in_background``), the idle-table sweeper and the event
    loop's monitor; stop them all at the end."""
    manager: TableManager = app.state.manager
    await manager.start(restore=app.state.restore_in_background)
    sweeping = asyncio.create_task(sweeper(lambda now: _sweep(app, now), manager.limits.sweep_seconds))
    await _expire_chat(app)
    watching = asyncio.create_task(app.state.monitor.run())
    tournaments_running = asyncio.create_task(app.state.online.run())  # starts and seats the online tournaments
    try:
        yield
    finally:
        sweeping.cancel()
        watching.cancel()
        tournaments_running.cancel()
        app.state.presence.stop()
        app.state.analyses.shutdown()
        await manager.stop()
        manager.shutdown()
        manager.store.close()


async def _sweep(app: FastAPI, now: float) -> int:
    """The periodic sweep: archive the idle tables, delete the chat messages past their time."""
    archived: int = await app.state.manager.archive_idle(now)
    await _expire_chat(app)
    return archived


async def _expire_chat(app: FastAPI) -> None:
    try:
        expired = await app.state.chat.expire()
    except Exception:  # a database outage: the next sweep tries again
        log.exception("deleting old chat messages failed; the next sweep tries again")
        return
    if expired:
        log.info("deleted %d chat message(s) older than %g days", expired, app.state.chat.limits.chat_keep_seconds / 86400)


async def _table_error(_request: Request, exc: Exception) -> JSONResponse:
    """A refusal: ``{"error": CODE, "message": TEXT}`` with its status (and ``Retry-After`` when it has one)."""
    assert isinstance(exc, TableError)
    retry = getattr(exc, "retry_after", None)
    return JSONResponse({"error": exc.code, "message": str(exc)}, status_code=exc.status,
                        headers=None if retry is None else {"Retry-After": str(retry)})


async def _database_error(request: Request, exc: Exception) -> JSONResponse:
    """The database failed: ``503 db_unavailable`` (nothing was changed), logged with the path."""
    log.error("%s %s: the database failed (%s: %s); nothing was changed", request.method, request.url.path,
              type(exc).__name__, str(exc).splitlines()[0][:300] if str(exc) else "")
    return JSONResponse({"error": ErrorCode.DB_UNAVAILABLE, "message": DB_UNAVAILABLE_MESSAGE}, status_code=503,
                        headers={"Retry-After": "2"})
