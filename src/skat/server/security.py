"""The server's web security: headers on every answer, JSON-only bodies, a body size limit, the WebSocket Origin check.

:class:`Security` is one ASGI middleware, outermost in the app (:func:`skat.server.create_app`);
docs/protocol.md ("Security") describes what it does:

* every HTTP answer (pages, API, static files, errors) carries ``Content-Security-Policy`` (no inline script
  or style, no framing), ``X-Frame-Options: DENY``, ``X-Content-Type-Options: nosniff`` and
  ``Referrer-Policy: same-origin``;
* a POST, PUT or PATCH with a body whose ``Content-Type`` is not ``application/json`` is refused
  ``415 unsupported_media_type`` before any handler runs (a cross-site form or ``text/plain`` fetch, which a
  browser sends without asking, so creates nothing);
* a body over ``max_body`` bytes is refused ``413 too_large``: by its ``Content-Length`` before a byte of it
  is read, or, sent in chunks, as soon as the bytes read pass the limit;
* a request refused before its body was read (413, 415, 400) is answered at once, with ``Connection: close``,
  and the rest of its body is then read and thrown away (at most ``DRAIN_BYTES`` bytes, ``DRAIN_SECONDS``
  seconds, ``DRAIN_IDLE_SECONDS`` without a byte) before the connection is closed: a client that writes its
  whole body before it reads the answer (Python's ``urllib``, a plain socket) reads the refusal instead of a
  connection reset (closing a socket with unread bytes sends a TCP reset, RFC 9112 section 9.6);
* a WebSocket handshake whose ``Origin`` is neither the server's own (the scheme and the ``Host`` header)
  nor in ``allowed_origins`` is closed with 4403 before it is accepted (uvicorn answers it HTTP 403);
  a client that sends no ``Origin`` (not a browser: ``skat.players.remote``, scripts) is let in;
* a state-changing request (POST, PUT, PATCH, DELETE) to ``/api/account/...``, or any carrying the session cookie
  (:data:`SESSION_COOKIE`), must come from the server's own origin or an allowed one: its ``Origin`` header
  (``Sec-Fetch-Site: same-origin`` where a browser sends no ``Origin``) proves it; without that proof it is
  refused ``403 cross_origin`` before any handler runs (docs/accounts.md, "Cross-site requests").
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Iterable
from urllib.parse import urlsplit

from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = ["Security", "MAX_BODY_BYTES", "DRAIN_BYTES", "DRAIN_SECONDS", "DRAIN_IDLE_SECONDS", "SECURITY_HEADERS",
           "content_security_policy", "normalise_origin", "parse_origins", "has_session_cookie", "SESSION_COOKIE"]

MAX_BODY_BYTES = 64 * 1024
"""The default limit of a request body (``create_app(max_body=...)``)."""

DRAIN_BYTES = 64 * 1024 * 1024
"""The most bytes of a refused request's body read and thrown away after the refusal, so that a client still
writing it reads the answer; past them the connection is closed (and the client may see a reset)."""
DRAIN_SECONDS = 10.0
"""The longest time a refused request's body is drained after the refusal."""
DRAIN_IDLE_SECONDS = 2.0
"""The longest wait for the next bytes of a refused request's body while it is drained."""

BODY_METHODS = frozenset({"POST", "PUT", "PATCH"})
CHANGING_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
SESSION_COOKIE = "skat_session"
"""The session cookie's name (skat.server.accounts.SESSION_COOKIE; kept here so that this module imports nothing
of the server)."""
ACCOUNT_PATHS = "/api/account/"
JSON_TYPES = frozenset({"application/json"})
_HOST_RE = re.compile(r"^[A-Za-z0-9.\-]+(:[0-9]{1,5})?$|^\[[0-9A-Fa-f:.]+\](:[0-9]{1,5})?$")
_DEFAULT_PORTS = {"http": 80, "https": 443, "ws": 80, "wss": 443}

SECURITY_HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),
)


def content_security_policy(host: str | None) -> str:
    """The ``Content-Security-Policy`` of an answer to a request for ``host`` (the ``Host`` header): scripts,
    styles and connections from this server only (``connect-src`` names its ``ws:``/``wss:`` address too, for
    browsers whose ``'self'`` does not cover WebSockets), no framing, no ``<base>``, forms to this server."""
    connect = "'self'"
    if host and _HOST_RE.match(host):
        connect += f" ws://{host} wss://{host}"
    return ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
            f"connect-src {connect}; frame-ancestors 'none'; base-uri 'none'; form-action 'self'; "
            "object-src 'none'")


def normalise_origin(origin: str) -> tuple[str, str, int] | None:
    """``(scheme, host, port)`` of an origin such as ``https://skat.example`` (the default port filled in,
    the host in lower case), or None for one that is no http(s) origin (``null``, garbage)."""
    try:
        parts = urlsplit(origin.strip())
        port = parts.port
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    if scheme not in ("http", "https") or not parts.hostname:
        return None
    return scheme, parts.hostname.lower(), port if port is not None else _DEFAULT_PORTS[scheme]


def parse_origins(origins: Iterable[str]) -> frozenset[tuple[str, str, int]]:
    """The normalised origins of an allow-list; a ValueError names one that is no http(s) origin."""
    allowed = set()
    for origin in origins:
        normal = normalise_origin(origin)
        if normal is None:
            raise ValueError(f"not an origin: {origin!r} (give a scheme, host and port, e.g. https://skat.example)")
        allowed.add(normal)
    return frozenset(allowed)


def _headers(scope: Scope) -> dict[bytes, bytes]:
    return {name.lower(): value for name, value in scope.get("headers", [])}


class Security:
    """ASGI middleware: see the module's description. ``max_body`` is the limit of a request body in bytes;
    ``allowed_origins`` are the origins (``https://host[:port]``) besides the server's own whose pages may open
    its WebSockets."""

    def __init__(self, app: ASGIApp, *, max_body: int = MAX_BODY_BYTES, allowed_origins: Iterable[str] = (),
                 drain_bytes: int = DRAIN_BYTES, drain_seconds: float = DRAIN_SECONDS,
                 drain_idle_seconds: float = DRAIN_IDLE_SECONDS) -> None:
        self.app = app
        self.max_body = int(max_body)
        self.allowed = parse_origins(allowed_origins)
        self.drain_bytes = int(drain_bytes)
        self.drain_seconds = float(drain_seconds)
        self.drain_idle_seconds = float(drain_idle_seconds)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            if not self.origin_allowed(scope):
                await send({"type": "websocket.close", "code": 4403, "reason": "origin not allowed"})
                return
            await self.app(scope, receive, send)
            return
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = _headers(scope)
        host = headers.get(b"host", b"").decode("latin-1")
        extra = [(b"content-security-policy", content_security_policy(host).encode("latin-1")), *SECURITY_HEADERS]

        async def secured(message: Message) -> None:
            if message["type"] == "http.response.start":
                present = {name.lower() for name, _ in message.get("headers", [])}
                message = {**message, "headers": [*message.get("headers", []),
                                                  *[(n, v) for n, v in extra if n not in present]]}
            await send(message)

        length = headers.get(b"content-length")
        has_body = b"transfer-encoding" in headers or (length is not None and length.strip() not in (b"", b"0"))
        refusal = self.refuse(scope, headers)
        if refusal is not None:
            await self._refuse(secured, receive, *refusal, drain=has_body)
            return
        if not has_body:
            await self.app(scope, receive, secured)
            return
        # A body: read it up to the limit (so a chunked one is refused before it is all read), then hand it on.
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client went away
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_body:
                await self._refuse(secured, receive, 413, "too_large", self._too_large(),
                                   drain=message.get("more_body", False))
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, secured)

    async def _refuse(self, send: Send, receive: Receive, status: int, code: str, message: str, *,
                      drain: bool) -> None:
        """Answer the JSON error (with ``Connection: close``); with ``drain``, the body is not all read yet:
        the whole answer is sent first, then the rest of the body is read and thrown away (see :meth:`drain`)
        before the answer is ended, so that the server closes a connection with no unread bytes (no reset)."""
        if not drain:
            await _error(send, status, code, message)
            return
        await _error(send, status, code, message, more_body=True)
        await self.drain(receive)
        await send({"type": "http.response.body", "body": b"", "more_body": False})

    async def drain(self, receive: Receive) -> int:
        """Read and throw away the rest of a request's body: until its end, the client's leaving, ``drain_bytes``
        bytes, ``drain_seconds`` in all or ``drain_idle_seconds`` without a message. Returns the bytes read."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.drain_seconds
        drained = 0
        while drained <= self.drain_bytes:
            left = min(deadline - loop.time(), self.drain_idle_seconds)
            if left <= 0:
                break
            try:
                message = await asyncio.wait_for(receive(), left)
            except TimeoutError:
                break
            if message["type"] != "http.request":
                break  # the client went away
            drained += len(message.get("body", b""))
            if not message.get("more_body", False):
                break
        return drained

    def _too_large(self) -> str:
        return f"request bodies are at most {self.max_body} bytes"

    def refuse(self, scope: Scope, headers: dict[bytes, bytes]) -> tuple[int, str, str] | None:
        """(status, code, message) for an HTTP request refused from its headers alone, or None."""
        length_header = headers.get(b"content-length")
        length = None
        if length_header is not None:
            try:
                length = int(length_header)
            except ValueError:
                return 400, "bad_request", "the Content-Length header is not a number"
            if length < 0:
                return 400, "bad_request", "the Content-Length header is negative"
        if scope.get("method", "").upper() in CHANGING_METHODS and (
                str(scope.get("path", "")).startswith(ACCOUNT_PATHS) or has_session_cookie(headers)) \
                and not self.same_origin(scope, headers):
            return 403, "cross_origin", ("this request must come from this server's own pages (its Origin header "
                                         "is missing or another site's); reload the page and try again")
        has_body = (length is not None and length > 0) or b"transfer-encoding" in headers
        if has_body and scope.get("method", "").upper() in BODY_METHODS:
            media = headers.get(b"content-type", b"").decode("latin-1").split(";", 1)[0].strip().lower()
            if media not in JSON_TYPES:
                shown = media or "none"
                return 415, "unsupported_media_type", (f"send the request body as JSON with the header "
                                                       f"'Content-Type: application/json' (not {shown})")
        if length is not None and length > self.max_body:
            return 413, "too_large", self._too_large()
        return None

    def same_origin(self, scope: Scope, headers: dict[bytes, bytes]) -> bool:
        """Whether an HTTP request proves it comes from the server's own origin (or an allowed one): its ``Origin``
        header, or, without one, ``Sec-Fetch-Site: same-origin``."""
        origin = headers.get(b"origin")
        if origin is None:
            return headers.get(b"sec-fetch-site", b"").strip().lower() == b"same-origin"
        return self._own_or_allowed(origin, headers, str(scope.get("scheme", "http")))

    def origin_allowed(self, scope: Scope) -> bool:
        """Whether a WebSocket handshake may go on: no ``Origin`` header, the server's own origin (the request's
        scheme with its ``Host`` header), or one of the allowed origins."""
        headers = _headers(scope)
        origin = headers.get(b"origin")
        if origin is None:
            return True
        return self._own_or_allowed(origin, headers, {"ws": "http", "wss": "https"}.get(scope.get("scheme", "ws"), "http"))

    def _own_or_allowed(self, origin: bytes, headers: dict[bytes, bytes], scheme: str) -> bool:
        """Whether an ``Origin`` header names one of the allowed origins or the server's own (``scheme`` with the
        request's ``Host`` header)."""
        normal = normalise_origin(origin.decode("latin-1"))
        if normal is None:
            return False
        if normal in self.allowed:
            return True
        host = headers.get(b"host", b"").decode("latin-1")
        return bool(host) and normal == normalise_origin(f"{scheme}://{host}")


def has_session_cookie(headers: dict[bytes, bytes]) -> bool:
    """Whether a request's ``Cookie`` header holds the session cookie (a value that is not empty)."""
    cookie = headers.get(b"cookie")
    if not cookie:
        return False
    for part in cookie.decode("latin-1").split(";"):
        name, _, value = part.strip().partition("=")
        if name == SESSION_COOKIE and value.strip():
            return True
    return False


async def _error(send: Send, status: int, code: str, message: str, *, more_body: bool = False) -> None:
    """The project's JSON error, whole (its ``Content-Length`` tells the client where it ends even while
    ``more_body`` keeps the response open for draining)."""
    body = json.dumps({"error": code, "message": message, "detail": message}).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                            (b"connection", b"close")]})
    await send({"type": "http.response.body", "body": body, "more_body": more_body})
