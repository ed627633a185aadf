"""The lobby's chat over REST (docs/chat.md): ``GET /api/lobby/chat?after=ID`` (anybody: the recent messages) and
``POST /api/lobby/chat`` (a signed-in account: ``{"text"}`` or ``{"phrase"}``). A table's chat is on its WebSocket
(:mod:`skat.server.sockets`); both are :class:`skat.server.chat.ChatService` (``app.state.chat``)."""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request
from pydantic import BaseModel, JsonValue
from starlette.requests import HTTPConnection

from skat.server.chat import ChatService, author_tag
from skat.server.core import TableError
from skat.server.errors import ErrorCode
from skat.server.messages import CHAT_PHRASES, ChatLine, Fixed, Incoming, judged
from skat.server.routes.accounts import signed_in
from skat.server.routes.bodies import ERRORS, body, documented

__all__ = ["router", "LobbyChatRequest", "LobbyChat", "CHAT_MODELS"]

router = APIRouter(responses={**ERRORS, 401: {"model": ERRORS[400]["model"], "description": "signed_out"}})


class LobbyChatRequest(Incoming):
    """``POST /api/lobby/chat``: a ``text`` (plain text, 1 to 300 characters) or a preset ``phrase``."""

    text: JsonValue = judged({"type": ["string", "null"], "default": None},
                             "plain text, 1 to 300 characters after trimming (chat_empty, chat_too_long)")
    phrase: JsonValue = judged({"type": ["string", "null"], "enum": [*CHAT_PHRASES, None], "default": None},
                               "a preset phrase's key instead of a text (another one: bad_phrase)")


class LobbyChat(Fixed):
    """The lobby's recent messages, oldest first (with ``after``: those after that id)."""

    messages: list[ChatLine]


class Said(Fixed):
    """The message as stored and shown."""

    message: ChatLine


CHAT_MODELS: tuple[type[BaseModel], ...] = (LobbyChatRequest, LobbyChat, Said)


def chat(connection: HTTPConnection) -> ChatService:
    return connection.app.state.chat


Chat = Annotated[ChatService, Depends(chat)]


@router.get("/api/lobby/chat", response_model=LobbyChat, response_model_by_alias=True)
async def lobby_chat(request: Request, service: Chat,
                     after: Annotated[int, Query(ge=0, le=2**62)] = 0) -> dict[str, Any]:
    """The lobby's most recent messages (at most 50), oldest first; ``after``: only those after that id. A
    signed-in reader does not get the messages of the people they blocked (docs/friends.md)."""
    messages = await service.lobby(after)
    account = await signed_in(request, request.app.state.accounts) if messages else None
    if account is not None:
        blocked = await asyncio.to_thread(request.app.state.friends.blocked_by, account.id)
        if blocked:
            tags = {author_tag(f"a:{b}") for b in blocked}
            messages = [m for m in messages if m["from"]["author"] not in tags]
    return {"messages": messages}


@router.post("/api/lobby/chat", status_code=201, response_model=Said, response_model_by_alias=True,
             openapi_extra=documented(LobbyChatRequest, True))
async def say_in_lobby(request: Request, service: Chat,
                       data: Annotated[LobbyChatRequest, Depends(body(LobbyChatRequest))]) -> dict[str, Any]:
    """Say something in the lobby: ``401 signed_out`` without an account, ``400 chat_empty``, ``chat_too_long``,
    ``bad_phrase``, ``403 chat_forbidden`` (disabled), ``429 chat_flood``."""
    account = await signed_in(request, request.app.state.accounts)
    if account is None:
        raise TableError(ErrorCode.SIGNED_OUT, "the lobby's chat is for signed-in accounts: sign in (the account "
                         "page) to write", 401)
    return {"message": await service.say_in_lobby(account, data.text, data.phrase)}

