"""The server's error boundary: whatever a request or its body is, the answer is a documented error.

:class:`ErrorBoundary` answers an unexpected exception of any HTTP request handler with status 500 and
``{"error": "internal", "message": ...}`` (the shape of every other error, docs/protocol.md) after logging
it with the path; :func:`json_object` reads a request body that must be a JSON object. :class:`ErrorCode` lists
every error code the server answers with, :data:`CLOSE_CODES` the codes it closes WebSockets with (both are in
the protocol's JSON Schema, docs/protocol.schema.json)."""

from __future__ import annotations

import json
import logging
from enum import StrEnum
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = ["ErrorBoundary", "BadJSONError", "json_object", "INTERNAL_MESSAGE", "DB_UNAVAILABLE_MESSAGE",
           "ErrorCode", "CLOSE_CODES"]

log = logging.getLogger("skat.server")

INTERNAL_MESSAGE = "the server failed to answer this request; it was logged. Try again, or report it"
DB_UNAVAILABLE_MESSAGE = ("the database cannot be reached just now; nothing was changed. Try again in a moment "
                          "(the table goes on where it was)")


class ErrorCode(StrEnum):
    """Every error code of the server: ``{"error": CODE}`` over REST, ``{"type": "error", "code": CODE}`` over
    WebSockets (docs/protocol.md, "Error codes")."""

    ACCOUNT_DISABLED = "account_disabled"
    ALREADY_REGISTERED = "already_registered"
    ANALYSIS_FAILED = "analysis_failed"
    BAD_ACCOUNT_NAME = "bad_account_name"
    BAD_ACTION = "bad_action"
    BAD_CLAIM = "bad_claim"
    BAD_CLOCK = "bad_clock"
    BAD_FRIEND = "bad_friend"
    BAD_DATE = "bad_date"
    BAD_DEALS = "bad_deals"
    BAD_FILTER = "bad_filter"
    BAD_GAMES = "bad_games"
    BAD_HINTS = "bad_hints"
    BAD_INVITE = "bad_invite"
    BAD_JSON = "bad_json"
    BAD_KEY = "bad_key"
    BAD_LOGIN = "bad_login"
    BAD_MESSAGE = "bad_message"
    BAD_NAME = "bad_name"
    BAD_OPTIONS = "bad_options"
    BAD_PASSWORD = "bad_password"
    BAD_PHRASE = "bad_phrase"
    BAD_POSITION = "bad_position"
    BAD_PUBLIC = "bad_public"
    BAD_REQUEST = "bad_request"
    BAD_ROUNDS = "bad_rounds"
    BAD_RULE = "bad_rule"
    BAD_RULESET = "bad_ruleset"
    BAD_SEATS = "bad_seats"
    BAD_SEED = "bad_seed"
    BAD_START = "bad_start"
    BAD_STORE = "bad_store"
    BAD_TOKEN = "bad_token"
    BLOCKED = "blocked"
    BAD_VARIANT = "bad_variant"
    BUSY = "busy"
    CHAT_EMPTY = "chat_empty"
    CHAT_FLOOD = "chat_flood"
    CHAT_FORBIDDEN = "chat_forbidden"
    CHAT_MUTED = "chat_muted"
    CHAT_TOO_LONG = "chat_too_long"
    CLOSED = "closed"
    CROSS_ORIGIN = "cross_origin"
    DB_UNAVAILABLE = "db_unavailable"
    DEAL_OVER = "deal_over"
    DEAL_RUNNING = "deal_running"
    EVENING_TAKEN = "evening_taken"
    FLOOD = "flood"
    FULL = "full"
    HELLO_FIRST = "hello_first"
    HELLO_TIMEOUT = "hello_timeout"
    HINT_FAILED = "hint_failed"
    HINTS_OFF = "hints_off"
    ILLEGAL_ACTION = "illegal_action"
    IMPOSSIBLE = "impossible"
    INTERNAL = "internal"
    INVITE_REQUIRED = "invite_required"
    MEMBER_TAKEN = "member_taken"
    NAME_TAKEN = "name_taken"
    NO_ACCOUNT = "no_account"
    NO_ANALYSIS = "no_analysis"
    NO_DEAL = "no_deal"
    NO_EVENING = "no_evening"
    NO_ISS_RECORD = "no_iss_record"
    NO_LESSON = "no_lesson"
    NO_LIST = "no_list"
    NO_MEMBER = "no_member"
    NO_PLAYER = "no_player"
    NO_SEASON = "no_season"
    NO_SEAT = "no_seat"
    NO_SERIES = "no_series"
    NO_TABLE = "no_table"
    NO_TOURNAMENT = "no_tournament"
    NOT_A_PLAYER = "not_a_player"
    NOT_AT_TABLE = "not_at_table"
    NOT_IN_PLAY = "not_in_play"
    NOT_REGISTERED = "not_registered"
    NOT_YOUR_TURN = "not_your_turn"
    PROTOCOL = "protocol"
    RATE_LIMITED = "rate_limited"
    REPLAY_PRIVATE = "replay_private"
    RETIRED = "retired"
    SEAT_TAKEN = "seat_taken"
    SIGNED_OUT = "signed_out"
    SITTING_OUT = "sitting_out"
    STALE = "stale"
    TABLE_BROKEN = "table_broken"
    TABLE_FULL = "table_full"
    TABLE_STOPPED = "table_stopped"
    THROTTLED = "throttled"
    TOO_FEW_PLAYERS = "too_few_players"
    TOO_LARGE = "too_large"
    TOO_MANY_SOCKETS = "too_many_sockets"
    TOURNAMENT_FULL = "tournament_full"
    TOURNAMENT_OVER = "tournament_over"
    TOURNAMENT_STARTED = "tournament_started"
    UNSUPPORTED_MEDIA_TYPE = "unsupported_media_type"
    WEAK_PASSWORD = "weak_password"


CLOSE_CODES: dict[int, str] = {
    1009: "a frame over 4 MiB (the transport closes it)",
    1013: "too_many_sockets: more WebSockets open from this address than Limits.sockets_per_address",
    4403: "a WebSocket handshake from another origin (refused before it is accepted)",
    4404: "no_table / table_broken: there is no open table of this id, or it was closed or archived",
    4408: "hello_timeout: no hello within Limits.hello_seconds of connecting",
    4429: "flood: the connection went on sending over its rate",
}
"""The close codes the server ends a WebSocket with (besides the normal 1000), and when."""


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
            body = json.dumps({"error": ErrorCode.INTERNAL, "message": INTERNAL_MESSAGE, "detail": INTERNAL_MESSAGE}).encode()
            await send({"type": "http.response.start", "status": 500,
                        "headers": [(b"content-type", b"application/json"),
                                    (b"content-length", str(len(body)).encode())]})
            await send({"type": "http.response.body", "body": body})
