"""Limits against abuse (issue 14): what one client may ask for, and how long an unused table stays.

* :class:`Limits` holds every limit (``create_app(limits=Limits(...))``, ``skat serve --rate-create ...``); each
  has a default generous enough for real people, a club behind one address included.
* :class:`ClientLimits` keeps a token bucket per client address and kind of request (:data:`KINDS`): new
  tables (``POST /api/tables``), joins, WebSocket ``action`` and ``hint``
  messages (across all of an address' connections) and analysis requests. A refused REST request is answered
  ``429 rate_limited`` with ``Retry-After`` by the :class:`RateLimits` middleware before any handler runs, so it
  creates and changes nothing. The buckets live in a bounded dict that prunes itself: an attacker with many
  addresses cannot grow the server's memory.
* :func:`idle_reason` is the expiry policy (idle tables and finished series without connected clients are
  archived by :meth:`skat.server.tables.TableManager.archive_idle`, which the app's :func:`sweeper` calls);
  :func:`eviction_candidate` picks the table archived when the table cap is reached at creation.
* An all-computer table deals at most :attr:`Limits.robot_deals` deals while nobody watches, then it is
  ``paused`` (see ``ServerTable.paused``) until somebody connects.
* :class:`SocketLimits` caps the WebSockets one address holds open at once (:attr:`Limits.sockets_per_address`):
  one over the cap is closed at once with ``too_many_sockets`` (close code 1013). A table socket that sends no
  ``hello`` within :attr:`Limits.hello_seconds` is closed by :mod:`skat.server.sockets` (``hello_timeout``, 4408).

docs/protocol.md ("Limits") describes all of it for clients.
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
import re
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, fields
from typing import Any

from starlette.types import ASGIApp, Receive, Scope, Send

from skat.server.errors import ErrorCode

__all__ = ["Limits", "Rate", "LimitsError", "ClientBuckets", "ClientLimits", "RateLimits", "SocketLimits", "KINDS",
           "MAX_TABLES", "KEEP_ALIVE_SECONDS", "CLOSE_TOO_MANY_SOCKETS", "client_host", "idle_reason", "eviction_candidate", "sweeper"]

log = logging.getLogger("skat.server")

MAX_TABLES = 2000
"""The default cap of open tables in one server's memory (:attr:`Limits.max_tables`)."""

KEEP_ALIVE_SECONDS = 75
"""How long the server keeps an idle HTTP connection open (uvicorn's ``timeout_keep_alive``, 5 s unless set). A
client or proxy that reuses its idle connections must drop them before the server does, or a request sent as the
server closes is lost ("Server disconnected without sending a response"); httpx and browsers drop theirs after 5 s
or so, nginx's upstream keep-alive after 60 s. A loaded machine once lost a test's request to uvicorn's 5 s."""

KINDS: dict[str, str] = {"create": "new tables, lists or tournaments", "join": "joins", "action": "actions",
                         "analysis": "analysis requests", "hint": "hints", "print": "printed lists and rankings"}
"""The rate-limited kinds of request (the :class:`Limits` field of each) and how a refusal names them."""


class LimitsError(ValueError):
    """A limit that cannot be used; ``option`` is the :class:`Limits` field, the message says why."""

    def __init__(self, option: str, message: str) -> None:
        super().__init__(f"{option}: {message}")
        self.option = option


def _positive_number(value: Any) -> bool:
    return (isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)
            and value > 0)


def _positive_int(value: Any) -> bool:
    return type(value) is int and value >= 1


@dataclass(frozen=True)
class Rate:
    """``count`` requests per ``seconds`` for one client: a bucket of ``count`` tokens refilled at
    ``count / seconds`` a second (so a burst of ``count`` at once, then one every ``seconds / count``)."""

    count: int
    seconds: float

    def __post_init__(self) -> None:
        if not _positive_int(self.count):
            raise ValueError(f"a rate's count must be a whole number of at least 1, not {self.count!r}")
        if not _positive_number(self.seconds):
            raise ValueError(f"a rate's seconds must be a positive number, not {self.seconds!r}")

    @classmethod
    def parse(cls, text: str) -> Rate:
        """``"30/60"``: 30 per 60 seconds (``"30"`` alone: 30 per second)."""
        match = re.fullmatch(r"\s*(\d{1,9})\s*(?:/\s*(\d{1,9}(?:\.\d+)?)\s*)?", text)
        if match is None:
            raise ValueError(f"{text!r} is not a rate: write N/SECONDS, e.g. 30/60 for 30 per minute")
        count, seconds = int(match.group(1)), float(match.group(2) or 1)
        try:
            return cls(count, seconds)
        except ValueError as exc:
            raise ValueError(f"{text!r}: {exc}") from None

    def __str__(self) -> str:
        return f"{self.count}/{self.seconds:g}"

    def describe(self) -> str:
        unit = "second" if self.seconds == 1 else f"{self.seconds:g} seconds"
        return f"at most {self.count} per {unit}"


@dataclass(frozen=True)
class Limits:
    """Every limit of a server (defaults in brackets); an unusable value raises :class:`LimitsError` naming it.

    Rates are per client address (:class:`Rate`). Times are seconds of the server's monotonic clock."""

    create: Rate = Rate(30, 60)
    """New tables, REST and Officers' Skat together (30 a minute)."""
    join: Rate = Rate(60, 60)
    """``POST /api/tables/{id}/join`` (60 a minute)."""
    action: Rate = Rate(300, 10)
    """WebSocket ``action`` messages across all of a client's connections (300 per 10 s), on top of each
    connection's own 60 messages a second."""
    analysis: Rate = Rate(30, 60)
    """``GET .../games/{n}/analysis`` (30 a minute)."""
    hint: Rate = Rate(30, 60)
    """WebSocket ``hint`` messages across all of a client's connections (30 a minute: a search each)."""
    print: Rate = Rate(20, 60)
    """Printed lists and rankings, ``GET ... .pdf`` of the score keeper and tournaments (20 a minute: each is
    drawn anew, 15 ms to a few hundred of CPU)."""
    analysis_queue: int = 8
    """Distinct analyses running or waiting for the solver; a new one beyond them is ``503 busy``."""
    analysis_retry_seconds: int = 15
    """The ``Retry-After`` of a ``503 busy`` analysis."""
    idle_seconds: float = 6 * 3600.0
    """A table nobody acted at, joined, connected to or left for this long, with no client connected, is
    archived (6 hours)."""
    finished_seconds: float = 30 * 60.0
    """A table whose series is over is archived this long after its last activity once nobody is connected
    (30 minutes)."""
    evict_seconds: float = 60.0
    """When the table cap is reached, the longest-idle table without connected clients is archived for a new
    one, if it was idle at least this long (1 minute: a table just created, whose creator is still opening
    it, is kept)."""
    sweep_seconds: float = 60.0
    """How often the sweeper looks for idle tables."""
    robot_deals: int = 20
    """Deals an all-computer table deals while nobody watches; then it pauses until somebody connects."""
    max_tables: int = MAX_TABLES
    """Open tables a server keeps (``503 full`` beyond them when none can be archived)."""
    max_clients: int = 10_000
    """Client addresses remembered per kind of request (the least recently seen beyond them are dropped)."""
    sockets_per_address: int = 64
    """WebSockets one client address holds open at once, tables, lists and tournaments together (64: a club
    evening may put 40 people behind one router, some with two tabs); one more is closed with
    ``too_many_sockets`` (close code 1013)."""
    hello_seconds: float = 10.0
    """A table WebSocket that sends no ``hello`` this long after connecting is closed (``hello_timeout``, close
    code 4408)."""
    login_account: Rate = Rate(5, 300)
    """Wrong passwords for one account (``POST /api/account/login``, changing the password) within the seconds
    (5 in 5 minutes); beyond them every attempt, a right password too, is refused ``429 throttled`` with
    ``Retry-After`` until the oldest counted one is ``seconds`` old. Counted in the database: across processes."""
    login_address: Rate = Rate(20, 300)
    """Wrong passwords from one client address, whatever the account (20 in 5 minutes), the same way."""
    session_seconds: float = 30 * 86400.0
    """A signed-in session ends this long after it was made (30 days; signing out or a new password ends it
    before)."""
    chat: Rate = Rate(5, 10)
    """Chat messages of one author (a person at a table, an account in the lobby) within the seconds (5 per 10 s);
    one more is refused ``chat_flood``, saying how long to wait (docs/chat.md)."""
    chat_keep_seconds: float = 30 * 86400.0
    """Chat messages are deleted this long after they were written (30 days; ``skat serve --chat-days``)."""

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if f.type == "Rate":
                if not isinstance(value, Rate):
                    raise LimitsError(f.name, f"must be a Rate (count per seconds), not {value!r}")
            elif f.type == "int":
                if not _positive_int(value):
                    raise LimitsError(f.name, f"must be a whole number of at least 1, not {value!r}")
            elif not _positive_number(value):
                raise LimitsError(f.name, f"must be a positive number of seconds, not {value!r}")


# ------------------------------------------------------------------ rate limits
class ClientBuckets:
    """Token buckets of one :class:`Rate` by client, at most ``max_clients`` of them.

    The dict is kept in order of last use. A bucket unused for ``rate.seconds`` is full again, the same as a
    bucket never used, so it is dropped as soon as it is the oldest; beyond ``max_clients`` the least
    recently used one is dropped anyway (that client starts afresh: memory stays bounded)."""

    def __init__(self, rate: Rate, max_clients: int = 10_000) -> None:
        self.rate = rate
        self.max_clients = max_clients
        self.per_second = rate.count / rate.seconds
        self.buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()
        """client -> (tokens, time of the last request)"""

    def take(self, client: str, now: float) -> float:
        """Take one token of ``client``'s bucket: 0.0 when there was one (the request may go on), else the
        seconds until there is one (the request is refused and costs nothing)."""
        buckets = self.buckets
        while buckets:  # drop the buckets that are full again (oldest first: ordered by last use)
            oldest = next(iter(buckets.values()))
            if now - oldest[1] < self.rate.seconds:
                break
            buckets.popitem(last=False)
        tokens, last = buckets.pop(client, (float(self.rate.count), now))
        tokens = min(float(self.rate.count), tokens + max(0.0, now - last) * self.per_second)
        wait = 0.0
        if tokens >= 1.0:
            tokens -= 1.0
        else:
            wait = (1.0 - tokens) / self.per_second
        buckets[client] = (tokens, max(now, last))
        while len(buckets) > self.max_clients:
            buckets.popitem(last=False)
        return wait


class ClientLimits:
    """The buckets of every kind in :data:`KINDS` for one app, by client address."""

    def __init__(self, limits: Limits, clock: Callable[[], float] = time.monotonic) -> None:
        self.limits = limits
        self.clock = clock
        self.kinds = {kind: ClientBuckets(getattr(limits, kind), limits.max_clients) for kind in KINDS}

    def check(self, kind: str, client: str, now: float | None = None) -> float:
        """0.0 when ``client`` may make one more request of ``kind`` (it is counted), else the seconds to wait."""
        return self.kinds[kind].take(client, self.clock() if now is None else now)

    def refusal(self, kind: str, wait: float) -> str:
        """The message of a refused request."""
        rate: Rate = getattr(self.limits, kind)
        return (f"too many {KINDS[kind]} from your address: {rate.describe()}; "
                f"try again in {retry_after(wait)} s")


def retry_after(wait: float) -> int:
    """Whole seconds for ``Retry-After`` (at least 1)."""
    return max(1, math.ceil(wait))


def client_host(scope: Scope) -> str:
    """The client's address of an HTTP or WebSocket scope (behind a trusted proxy uvicorn sets it from the
    forwarding headers)."""
    client = scope.get("client")
    return str(client[0]) if client else "unknown"


_LIMITED: tuple[tuple[str, re.Pattern[str], str], ...] = (
    ("POST", re.compile(r"/api/tables/?"), "create"),
    ("POST", re.compile(r"/api/keeper/?"), "create"),
    ("POST", re.compile(r"/api/tournaments/?"), "create"),
    ("POST", re.compile(r"/api/seasons/?"), "create"),
    ("POST", re.compile(r"/api/keeper/[^/]+/check/?"), "action"),
    ("POST", re.compile(r"/api/keeper/[^/]+/changes/?"), "join"),
    ("POST", re.compile(r"/api/tournaments/[^/]+/(players|series)/?"), "join"),
    ("POST", re.compile(r"/api/seasons/[^/]+/(evenings|members|settings)/?"), "join"),
    ("DELETE", re.compile(r"/api/seasons/[^/]+/evenings/[^/]+/?"), "join"),
    ("POST", re.compile(r"/api/tables/[^/]+/join/?"), "join"),
    ("GET", re.compile(r"/api/tables/[^/]+/games/[^/]+/analysis/?"), "analysis"),
    ("GET", re.compile(r"/api/keeper/[^/]+/list\.pdf"), "print"),
    ("GET", re.compile(r"/api/tournaments/[^/]+/ranking\.pdf"), "print"),
    ("GET", re.compile(r"/api/seasons/[^/]+/ranking\.pdf"), "print"),
    ("GET", re.compile(r"/api/tournaments/[^/]+/series/[^/]+/lists\.pdf"), "print"),
)


def request_kind(method: str, path: str) -> str | None:
    """The rate-limited kind of an HTTP request, or None."""
    for m, pattern, kind in _LIMITED:
        if method == m and pattern.fullmatch(path):
            return kind
    return None


class RateLimits:
    """ASGI middleware: a table (list, tournament) creation, join or analysis request, a score keeper's change
    (counted as a join) or check (as an action), over its client's rate is answered
    ``429 {"error": "rate_limited", "message", "detail"}`` with ``Retry-After`` before any handler runs."""

    def __init__(self, app: ASGIApp, limiter: ClientLimits) -> None:
        self.app = app
        self.limiter = limiter

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            kind = request_kind(scope.get("method", ""), scope.get("path", ""))
            if kind is not None:
                wait = self.limiter.check(kind, client_host(scope))
                if wait:
                    message = self.limiter.refusal(kind, wait)
                    body = json.dumps({"error": ErrorCode.RATE_LIMITED, "message": message,
                                       "detail": message}).encode()
                    await send({"type": "http.response.start", "status": 429,
                                "headers": [(b"content-type", b"application/json"),
                                            (b"content-length", str(len(body)).encode()),
                                            (b"retry-after", str(retry_after(wait)).encode())]})
                    await send({"type": "http.response.body", "body": body})
                    return
        await self.app(scope, receive, send)


CLOSE_TOO_MANY_SOCKETS = 1013
"""The close code of a WebSocket over :attr:`Limits.sockets_per_address` (RFC 6455: "try again later")."""


class SocketLimits:
    """ASGI middleware: at most ``per_address`` WebSockets open at once from one client address (in this
    process). One more is accepted, told ``{"type": "error", "code": "too_many_sockets", "message"}`` and closed
    with :data:`CLOSE_TOO_MANY_SOCKETS` and a reason, before any route sees it."""

    def __init__(self, app: ASGIApp, per_address: int) -> None:
        self.app = app
        self.per_address = per_address
        self.open: dict[str, int] = {}
        """Open WebSockets by address (an address with none is not kept)."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "websocket":
            await self.app(scope, receive, send)
            return
        host = client_host(scope)
        if self.open.get(host, 0) >= self.per_address:
            await self._refuse(receive, send)
            return
        self.open[host] = self.open.get(host, 0) + 1
        try:
            await self.app(scope, receive, send)
        finally:
            left = self.open[host] - 1
            if left:
                self.open[host] = left
            else:
                del self.open[host]

    async def _refuse(self, receive: Receive, send: Send) -> None:
        if (await receive())["type"] != "websocket.connect":
            return
        message = (f"too many WebSockets from your address: at most {self.per_address} at once; close one (another "
                   "tab?) and connect again")
        await send({"type": "websocket.accept"})
        await send({"type": "websocket.send",
                    "text": json.dumps({"type": "error", "code": ErrorCode.TOO_MANY_SOCKETS, "message": message})})
        await send({"type": "websocket.close", "code": CLOSE_TOO_MANY_SOCKETS,
                    "reason": f"too many WebSockets from your address (at most {self.per_address})"})


# ------------------------------------------------------------------ idle tables
def _duration(seconds: float) -> str:
    if seconds >= 3600:
        return f"{seconds / 3600:g} hours"
    if seconds >= 60:
        return f"{seconds / 60:g} minutes"
    return f"{seconds:g} seconds"


def _unwatched(table: Any) -> bool:
    """No client connected (the archiving itself waits for the table's lock: nothing is cut off mid-action)."""
    return not table.clients


def idle_reason(table: Any, now: float, limits: Limits) -> str | None:
    """Why a table (a :class:`skat.server.tables.ServerTable`) is archived at ``now``, or None to keep it: no
    client connected and either its series is over and it was idle :attr:`Limits.finished_seconds`, or it
    was idle :attr:`Limits.idle_seconds` (idle: since the last person's action, join, connection or leaving)."""
    if not _unwatched(table):
        return None
    idle = now - table.last_active
    if table.status == "finished" and idle >= limits.finished_seconds:
        return f"the series is over and nobody was here for {_duration(limits.finished_seconds)}"
    if idle >= limits.idle_seconds:
        return f"nobody played or watched here for {_duration(limits.idle_seconds)}"
    return None


def eviction_candidate(tables: Iterable[Any], now: float, limits: Limits) -> Any | None:
    """The table to archive for a new one when the cap is reached: the longest idle without connected
    clients, idle at least :attr:`Limits.evict_seconds`; None when there is none."""
    best = None
    for table in tables:
        if _unwatched(table) and now - table.last_active >= limits.evict_seconds and (
                best is None or table.last_active < best.last_active):
            best = table
    return best


async def sweeper(archive_idle: Callable[[float], Awaitable[int]], every: float,
                  clock: Callable[[], float] = time.monotonic) -> None:
    """Every ``every`` seconds archive the idle tables (``TableManager.archive_idle``), until cancelled."""
    while True:
        await asyncio.sleep(every)
        try:
            archived = await archive_idle(clock())
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("archiving idle tables failed; trying again in %g s", every)
            continue
        if archived:
            log.info("archived %d idle table(s)", archived)
