"""The table WebSocket ``/ws/{table_id}`` (docs/protocol.md, "WebSocket"): one :class:`Connection` per socket.

A frame is checked in order (the table still open, the connection's rate, the size, text, JSON, an object with a
``type``, the address' rate of ``action`` and ``hint``), then parsed with
:data:`skat.server.messages.CLIENT_ADAPTER` and answered by the handler of its model (:data:`HANDLERS`). Every
refusal is one ``error`` message with a documented code; the connection goes on, but for ``flood`` (close
4429), a table that is gone (4404) and a socket that sends no ``hello`` within ``Limits.hello_seconds`` of
connecting (``hello_timeout``, 4408).
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from pydantic import ValidationError
from sqlalchemy.exc import SQLAlchemyError
from starlette.types import Message
from starlette.websockets import WebSocketState

from skat.server.chat import ChatService
from skat.server.connections import Client, encode_message
from skat.server.core import PROTOCOL_VERSION, TableError
from skat.server.errors import DB_UNAVAILABLE_MESSAGE, ErrorCode
from skat.server.limits import ClientLimits, client_host
from skat.server.manager import TableManager
from skat.server.memory import MemoryGiver
from skat.server.messages import (
    CLIENT_ADAPTER,
    CLIENT_TYPES,
    Action,
    Back,
    ChatSend,
    Hello,
    HintRequest,
    Incoming,
    Mute,
    NextDeal,
    Ping,
    SheetRequest,
    StateRequest,
    refusal_of,
)
from skat.server.routes.deps import Limiter, Manager
from skat.server.security import SESSION_COOKIE
from skat.server.tables import ServerTable

__all__ = ["router", "Connection", "serve_socket", "HANDLERS", "MAX_MESSAGE_BYTES", "MAX_FRAME_BYTES",
           "RATE_PER_SECOND", "RATE_BURST", "FLOOD_CLOSE_AFTER", "CLOSE_NO_TABLE", "CLOSE_FLOOD",
           "CLOSE_HELLO_TIMEOUT"]

log = logging.getLogger("skat.server")
_MEMORY = MemoryGiver()
"""Gives the heap that closed connections freed back to the system (glibc's ``malloc_trim``) once after each
burst of closes: bench/socket_memory.py shows the server's memory after rounds of 300 sockets."""

MAX_MESSAGE_BYTES = 4096
MAX_FRAME_BYTES = 4 * 1024 * 1024
"""The transport's limit (uvicorn's ``ws_max_size`` in ``skat serve``): a message up to this size is read and
answered ``too_large`` when it is over :data:`MAX_MESSAGE_BYTES`; only one over this closes the connection (1009)."""
RATE_PER_SECOND = 60.0
RATE_BURST = 120.0
FLOOD_CLOSE_AFTER = 200
ADDRESS_LIMITED = frozenset({"action", "hint"})
"""Message types limited per client address, across all its connections (``Limits.action``, ``Limits.hint``)."""
CLOSE_NO_TABLE = 4404
CLOSE_FLOOD = 4429
CLOSE_HELLO_TIMEOUT = 4408

Handler = Callable[["Connection", Any], Awaitable[None]]


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


class _Closed(Exception):
    """The connection was closed by the server (after its error message)."""


class Connection:
    """One socket at a table: its client once it said ``hello`` (a seat holder or a spectator)."""

    def __init__(self, ws: WebSocket, manager: TableManager, table: ServerTable,
                 limiter: ClientLimits | None = None) -> None:
        self.ws = ws
        self.manager = manager
        self.table = table
        self.limiter = limiter
        self.client: Client | None = None
        self.account_id: str | None = None
        """The signed-in person of this browser (its session cookie), seen at the table by friends."""
        self.flood = _RateLimit()
        self.host = client_host(ws.scope)
        self.hello_by: float | None = asyncio.get_running_loop().time() + manager.limits.hello_seconds
        """When the connection is closed unless a ``hello`` came (None once one came, taken or refused)."""
        self._send_lock = asyncio.Lock()

    # ------------------------------------------------------------------ sending
    async def send(self, message: dict[str, Any] | str) -> None:
        text = message if isinstance(message, str) else encode_message(message)
        async with self._send_lock:
            await self.ws.send_text(text)

    async def error(self, code: str, message: str) -> None:
        await self.send({"type": "error", "code": code, "message": message})

    async def close(self, close_code: int, code: str, message: str) -> None:
        """Say why with an ``error``, then close the socket."""
        await self.error(code, message)
        await self.ws.close(code=close_code)
        raise _Closed

    # ------------------------------------------------------------------ the connection
    async def serve(self) -> None:
        """Read and answer frames until the client goes or the server closes the connection."""
        try:
            while True:
                frame = await self.receive()
                if frame["type"] == "websocket.disconnect":
                    return
                message = await self.read(frame)
                if message is not None:
                    await self.answer(message)
        except (_Closed, WebSocketDisconnect):
            pass
        except RuntimeError:
            pass  # the socket went away while sending
        finally:
            await self.leave()

    async def receive(self) -> Message:
        """The next frame; before the first ``hello``, closed with ``hello_timeout`` when it is overdue."""
        if self.hello_by is None:
            return await self.ws.receive()
        try:
            async with asyncio.timeout_at(self.hello_by):
                return await self.ws.receive()
        except TimeoutError:
            pass
        await self.close(CLOSE_HELLO_TIMEOUT, ErrorCode.HELLO_TIMEOUT,
                         f"no hello within {self.manager.limits.hello_seconds:g} s of connecting; the connection is "
                         "closed (send hello first, see docs/protocol.md)")
        raise AssertionError("unreachable")  # close() raises

    async def read(self, frame: Message) -> dict[str, Any] | None:
        """A frame as a JSON object with a ``type``; None after refusing it. A table that is gone, and a flood
        that goes on, close the connection."""
        if self.manager.tables.get(self.table.id) is not self.table:  # closed or archived meanwhile
            await self.close(CLOSE_NO_TABLE, ErrorCode.NO_TABLE, f"table {self.table.id} was closed; there is no "
                             f"open table {self.table.id!r}")
        allowed = self.flood.allow()
        if not allowed and self.flood.refused > FLOOD_CLOSE_AFTER:
            await self.close(CLOSE_FLOOD, ErrorCode.FLOOD, "too many messages; the connection is closed")
        checked = self.check(frame, allowed)
        if isinstance(checked, dict):
            return checked
        await self.error(*checked)
        return None

    def check(self, frame: Message, allowed: bool = True) -> dict[str, Any] | tuple[ErrorCode, str]:
        """The frame's JSON object with a ``type``, or the error it is refused with: over the connection's rate
        (not ``allowed``), too large, binary, no JSON, no object with a type, over the address' rate."""
        if not allowed:
            return ErrorCode.RATE_LIMITED, f"too many messages: at most {RATE_PER_SECOND:.0f} per second; this " \
                                           "message was ignored"
        raw, data = frame.get("text"), frame.get("bytes")
        size = len(raw.encode("utf-8", "surrogatepass")) if raw is not None else len(data or b"")
        if size > MAX_MESSAGE_BYTES:
            return ErrorCode.TOO_LARGE, f"messages are at most {MAX_MESSAGE_BYTES} bytes; this one has {size}"
        if raw is None:
            return ErrorCode.BAD_MESSAGE, "send text frames with JSON, not binary frames; see docs/protocol.md"
        try:
            message = json.loads(raw)
        except RecursionError:
            return ErrorCode.BAD_MESSAGE, "the message's JSON is nested too deeply"
        except ValueError:
            return ErrorCode.BAD_MESSAGE, "the message is not JSON; see docs/protocol.md"
        if not isinstance(message, dict) or not isinstance(message.get("type"), str):
            return ErrorCode.BAD_MESSAGE, "a message is a JSON object with a 'type' field"
        kind = message["type"]
        if kind in ADDRESS_LIMITED and self.limiter is not None:
            wait = self.limiter.check(kind, self.host)
            if wait:  # across all of this address' connections
                return ErrorCode.RATE_LIMITED, self.limiter.refusal(kind, wait) + f"; this {kind} was ignored"
        return message

    def parse(self, message: dict[str, Any]) -> Incoming:
        """The message as its model (:data:`skat.server.messages.ClientMessage`); raises the :class:`TableError`
        it is refused with: ``hello_first`` before ``hello``, then the refusal of the field that does not fit."""
        kind = message["type"]
        if kind == "hello":
            self.hello_by = None  # it came: a refused one (a private table's invite missing) leaves the socket open
        if kind == "hello" and self.client is not None:
            raise TableError(ErrorCode.BAD_MESSAGE, "hello was already sent on this connection")
        if kind != "hello" and self.client is None:
            raise TableError(ErrorCode.HELLO_FIRST, "send hello (with your seat token, or none to watch) first")
        try:
            return CLIENT_ADAPTER.validate_python(message)
        except ValidationError as exc:
            model = CLIENT_TYPES.get(kind)
            if model is None:
                raise TableError(ErrorCode.BAD_MESSAGE, f"unknown message type {kind[:40]!r}; see docs/protocol.md") \
                    from None
            refusal, text = refusal_of(model, exc, tagged=True)
            raise TableError(refusal.code, text) from None

    async def answer(self, message: dict[str, Any]) -> None:
        """Answer one message with its handler; a refusal or a failure is answered with its error."""
        kind = message["type"]
        try:
            parsed = self.parse(message)
            await HANDLERS[type(parsed)](self, parsed)
        except TableError as exc:
            await self.error(exc.code, str(exc))
            if exc.code == ErrorCode.STALE and self.client is not None:
                await self.send(self.table.state_for(self.client.position))
        except (WebSocketDisconnect, asyncio.CancelledError):
            raise
        except SQLAlchemyError as exc:
            log.error("table %s: message %r of position %s: the database failed (%s); nothing was changed",
                      self.table.id, kind[:40], self.position, type(exc).__name__)
            await self.error(ErrorCode.DB_UNAVAILABLE, DB_UNAVAILABLE_MESSAGE)
        except Exception:
            if self.ws.client_state is not WebSocketState.CONNECTED or \
                    self.ws.application_state is not WebSocketState.CONNECTED:
                raise  # the socket went away while sending
            log.exception("table %s: message %r of position %s failed", self.table.id, kind[:40], self.position)
            await self.error(ErrorCode.INTERNAL, f"the server failed to handle this {kind[:40]!r} message; it was "
                             "logged. Ask for the state and go on")

    @property
    def position(self) -> int | None:
        return None if self.client is None else self.client.position

    async def leave(self) -> None:
        """The connection ended: the table goes on without its client. The client is let go of (its ``send`` refers
        back to this connection: without it, no reference cycle is left to the garbage collector)."""
        client, table = self.client, self.table
        self.client = None
        _MEMORY.closed()  # after a burst of closes, the freed heap goes back to the system
        if self.account_id is not None:  # first: the table's own telling may be cut short
            self.ws.app.state.presence.leave(self.account_id, table.id)
            self.account_id = None
        if client is not None:
            try:
                await table.disconnect(client)
            except Exception:  # the table goes on without this client
                log.debug("telling the table of a disconnect failed", exc_info=True)

    async def _seen(self) -> None:
        """The signed-in person of this browser is at this table now, for the people who follow them
        (docs/friends.md); a failure only costs the presence."""
        token = self.ws.cookies.get(SESSION_COOKIE)
        if not token or self.account_id is not None:
            return
        try:
            account = await asyncio.to_thread(self.ws.app.state.accounts.session, token)
        except Exception:
            log.exception("table %s: the session of a connection could not be read; its person is not shown online",
                          self.table.id)
            return
        if account is not None:
            self.account_id = account.id
            await self.ws.app.state.presence.arrive(account.id, self.table.id)
            if self.client is not None:  # the people this person blocked write to nobody here for them
                try:
                    blocked = await asyncio.to_thread(self.ws.app.state.friends.blocked_by, account.id)
                except Exception:
                    log.exception("table %s: the blocks of a person could not be read", self.table.id)
                else:
                    self.chat.block_for(self.client, blocked, account.id)

    # ------------------------------------------------------------------ the messages
    async def on_hello(self, message: Hello) -> None:
        table = self.table
        position = self.manager.position_for_token(table, message.token)
        if position is None:  # a spectator: at a private table only with its invite
            table.check_invite(message.invite)
        client = Client(send=self.send, position=position)
        table.touch()
        await self.send({"type": "welcome", "protocol": PROTOCOL_VERSION, "table_id": table.id,
                         "position": position, "role": "spectator" if position is None else "player"})
        await self.send({"type": "sheet", "sheet": table.series.sheet()})
        # joined only now, so that no broadcast (a computer's move meanwhile) comes between the welcome, the sheet
        # and the state
        self.client = client
        await table.connect(client)
        await self._seen()
        if message.chat:  # a client that shows the chat: the table's recent messages (docs/chat.md)
            await self.send(self.chat.without_blocked(client, await self.chat.history(table.id)))

    async def on_action(self, message: Action) -> None:
        self.table.touch()
        await self.table.act(self.position, message.action, message.seq)

    async def on_next_deal(self, _message: NextDeal) -> None:
        self.table.touch()
        await self.table.next_deal(self.position)

    async def on_hint(self, _message: HintRequest) -> None:
        self.table.touch()
        seq, job = self.table.start_hint(self.position)  # refused at once when there is no hint to give
        task = asyncio.ensure_future(_answer_hint(self.table, job, seq, self.send))
        _HINT_TASKS.add(task)
        task.add_done_callback(_HINT_TASKS.discard)

    async def on_sheet(self, _message: SheetRequest) -> None:
        await self.send({"type": "sheet", "sheet": self.table.series.sheet()})

    async def on_state(self, _message: StateRequest) -> None:
        await self.send(self.table.state_for(self.position))

    async def on_ping(self, message: Ping) -> None:
        await self.send({"type": "pong", "t": message.t})

    @property
    def chat(self) -> ChatService:
        """The application's chat (``app.state.chat``, :mod:`skat.server.chat`)."""
        chat: ChatService = self.ws.app.state.chat
        return chat

    async def on_chat(self, message: ChatSend) -> None:
        assert self.client is not None
        await self.chat.say(self.table, self.client, message.text, message.phrase, self.ws.cookies)

    async def on_mute(self, message: Mute) -> None:
        assert self.client is not None
        self.chat.mute(self.client, message.author, message.on)

    async def on_back(self, _message: Back) -> None:
        self.table.touch()
        await self.table.come_back(self.position)


HANDLERS: dict[type[Incoming], Handler] = {
    Hello: Connection.on_hello, Action: Connection.on_action, NextDeal: Connection.on_next_deal,
    HintRequest: Connection.on_hint, SheetRequest: Connection.on_sheet, StateRequest: Connection.on_state,
    Ping: Connection.on_ping, Back: Connection.on_back,
    ChatSend: Connection.on_chat, Mute: Connection.on_mute,
}
"""The handler of each client message's model (every member of :data:`skat.server.messages.ClientMessage`)."""

_HINT_TASKS: set[asyncio.Task] = set()
"""Hints being thought about and answered (the connection reads on meanwhile: a card may be played)."""


async def _answer_hint(table: ServerTable, job: asyncio.Future, seq: int,
                       send: Callable[[dict[str, Any]], Awaitable[None]]) -> None:
    """Send the hint of ``job`` when it is ready: ``{"type": "hint", "card", "reason", "why", "seq"}`` (``seq``:
    the action count it is for; the table may have moved on meanwhile), or the error ``hint_failed``."""
    try:
        hint = await asyncio.shield(job)
    except asyncio.CancelledError:
        raise
    except Exception:
        log.exception("table %s: the card hint at action %d failed", table.id, seq)
        message: dict[str, Any] = {"type": "error", "code": ErrorCode.HINT_FAILED,
                                   "message": "the hint could not be computed; play on, or ask again"}
    else:
        message = {"type": "hint", **hint, "seq": seq}
    try:
        await send(message)
    except Exception:  # the connection went away meanwhile
        log.debug("a hint could not be sent", exc_info=True)


async def serve_socket(manager: TableManager, ws: WebSocket, table_id: str, limiter: ClientLimits | None = None) -> None:
    """Serve an accepted socket at table ``table_id``: an unknown table is answered with its error and closed
    (4404)."""
    try:
        table = await manager.table(table_id)
    except TableError as exc:
        await ws.send_text(encode_message({"type": "error", "code": exc.code, "message": str(exc)}))
        await ws.close(code=CLOSE_NO_TABLE)
        return
    await Connection(ws, manager, table, limiter).serve()


router = APIRouter()


@router.websocket("/ws/{table_id}")
async def table_socket(ws: WebSocket, table_id: str, tables: Manager, limiter: Limiter) -> None:
    await ws.accept()
    await serve_socket(tables, ws, table_id, limiter)
