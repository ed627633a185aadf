"""The server's error boundary: whatever a request or its body is, the answer is a documented error.

:class:`ErrorBoundary` answers an unexpected exception of any HTTP request handler with status 500 and
``{"error": "internal", "message": ...}`` (the shape of every other error, docs/protocol.md) after logging
it with the path; :func:`json_object` reads a request body that must be a JSON object."""

from __future__ import annotations

import json
import logging
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = ["ErrorBoundary", "BadJSONError", "json_object", "INTERNAL_MESSAGE"]

log = logging.getLogger("skat.server")

INTERNAL_MESSAGE = "the server failed to answer this request; it was logged. Try again, or report it"


class BadJSONError(ValueError):
    """A request body that is not a JSON object (the message says why)."""


def json_object(raw: bytes) -> dict[str, Any]:
    """The JSON object of a request body (empty: ``{}``); anything else raises :class:`BadJSONError`:
    invalid UTF-8, invalid JSON, JSON nested too deeply, or JSON that is not an object."""
    if not raw:
        return {}
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise BadJSONError(f"the request body is not UTF-8 text (byte {exc.start})") from None
    try:
        body = json.loads(text)
    except RecursionError:
        raise BadJSONError("the request body's JSON is nested too deeply") from None
    except ValueError as exc:
        raise BadJSONError(f"the request body is not valid JSON ({exc})") from None
    if not isinstance(body, dict):
        raise BadJSONError("the request body must be a JSON object")
    return body


class ErrorBoundary:
    """ASGI middleware: an exception of an HTTP request that no handler answered is logged with the path
    and answered 500 ``{"error": "internal", "message": ...}`` (also as ``detail``, which the Officers'
    page shows), unless the answer had already begun."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def tracked(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, receive, tracked)
        except Exception:
            log.exception("%s %s failed", scope.get("method"), scope.get("path"))
            if started:
                raise
            body = json.dumps({"error": "internal", "message": INTERNAL_MESSAGE, "detail": INTERNAL_MESSAGE}).encode()
            await send({"type": "http.response.start", "status": 500,
                        "headers": [(b"content-type", b"application/json"),
                                    (b"content-length", str(len(body)).encode())]})
            await send({"type": "http.response.body", "body": body})
