"""Friends over REST (docs/friends.md): the people you follow (online or not, at which table), the people you
blocked, invitations to tables. Signed-in people only (``401 signed_out`` otherwise); a person is ``a-ID`` as in
``/api/players/{player}``. The database work runs in threads: the event loop never waits for it."""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request
from pydantic import BaseModel

from skat.server.accounts import Account
from skat.server.core import TableError
from skat.server.errors import ErrorCode
from skat.server.friends import FriendsService
from skat.server.messages import Fixed, Incoming, Refusal, judged
from skat.server.routes.accounts import accounts, signed_in
from skat.server.routes.bodies import ERRORS, body, documented
from skat.server.routes.history import player_of_url

__all__ = ["router", "FRIENDS_MODELS", "friends_service"]

router = APIRouter(responses=ERRORS)


# ------------------------------------------------------------------ models
class FriendRef(Fixed):
    """A person: ``player`` as in the URLs (``a-ID``) and the name."""

    player: str
    name: str


class FriendTable(Fixed):
    """The table a friend sits at: ``id`` and ``name`` when you may see it (a public table, or yours too); both
    null at a private table of others."""

    id: str | None
    name: str | None
    public: bool


class Friend(Fixed):
    """A person you follow: online (seen in the last two minutes) and at which table."""

    player: str
    name: str
    online: bool
    table: FriendTable | None


class InvitationTable(Fixed):
    id: str
    name: str


class Invitation(Fixed):
    """An invitation to a table (it stands an hour): ``by`` whom, which table, and the address that takes you
    there (with a private table's invite)."""

    id: int
    by: FriendRef
    table: InvitationTable
    at: float
    url: str


class FriendsAnswer(Fixed):
    """``GET /api/friends``: the people you follow (online first), how many follow you, whom you blocked, and the
    invitations to you."""

    following: list[Friend]
    followers: int
    blocked: list[FriendRef]
    invitations: list[Invitation]


class InviteRequest(Incoming):
    """``POST /api/friends/{player}/invite``: the table you sit at, and at a private table its invite secret (your
    browser has it; the invited person's link carries it)."""

    table_id: Any = judged({"type": "string", "maxLength": 32}, "the id of an open table you sit at", None)
    invite: Any = judged({"type": ["string", "null"], "maxLength": 64, "default": None},
                         "the private table's invite secret (a wrong one: bad_invite)")
    refusals = {"table_id": Refusal(ErrorCode.NOT_AT_TABLE, "table_id is the id of an open table you sit at", 400)}


FRIENDS_MODELS: tuple[type[BaseModel], ...] = (FriendsAnswer, InviteRequest, FriendRef)
"""The models of these routes in the protocol's schema (docs/protocol.schema.json)."""


# ------------------------------------------------------------------ helpers
def friends_service(request: Request) -> FriendsService:
    service: FriendsService = request.app.state.friends
    return service


async def _me(request: Request) -> Account:
    account = await signed_in(request, accounts(request))
    if account is None:
        raise TableError(ErrorCode.SIGNED_OUT, "friends are for signed-in people: sign in (or register) first", 401)
    return account


def _person(player: str) -> str:
    """The account id of a URL's ``a-ID``; ``404 no_player`` for anything else (a computer has no friends)."""
    key = player_of_url(player)
    if not key.startswith("a:"):
        raise TableError(ErrorCode.NO_PLAYER, f"{player[:40]!r} is no person: friends are people (a-ID)", 404)
    return key[2:]


# ------------------------------------------------------------------ routes
@router.get("/api/people", response_model=FriendRef)
async def person_by_name(request: Request, name: Annotated[str, Query(max_length=200)]) -> dict[str, Any]:
    """A person by name (as the account was registered; case does not matter): to follow a friend whose name you
    know. ``404 no_player`` when there is none."""
    found = await asyncio.to_thread(friends_service(request).find, None, name)
    return {"player": found.key(), "name": found.name}


@router.get("/api/people/{player}", response_model=FriendRef)
async def person_by_id(request: Request, player: str) -> dict[str, Any]:
    """A person by ``a-ID`` (a person with no game yet has a name all the same); ``404 no_player``."""
    found = await asyncio.to_thread(friends_service(request).find, _person(player))
    return {"player": found.key(), "name": found.name}


@router.get("/api/friends", response_model=FriendsAnswer)
async def friends(request: Request) -> dict[str, Any]:
    """The people you follow (online first, each at which table), your followers' number, the people you blocked
    and the invitations to you. Asking counts as being seen (online)."""
    me = await _me(request)
    service = friends_service(request)
    await asyncio.to_thread(service.seen, [me.id], keep_table=True)
    return await asyncio.to_thread(service.friends, me.id)


async def _set(request: Request, player: str, what: str, on: bool) -> dict[str, Any]:
    me = await _me(request)
    service = friends_service(request)
    other = _person(player)
    await asyncio.to_thread(service.follow if what == "follow" else service.block, me.id, other, on)
    if what == "block":  # the blocker's connections here follow at once, the other server processes by a notice
        request.app.state.chat.blocks_changed(me.id, await asyncio.to_thread(service.blocked_by, me.id))
        await request.app.state.manager.store.submit(_nothing, {"blocks": me.id})
    return await asyncio.to_thread(service.friends, me.id)


def _nothing(_conn: Any) -> None:
    """A write of nothing: what carries a notice to the other server processes."""


@router.put("/api/friends/{player}/follow", response_model=FriendsAnswer)
async def follow(request: Request, player: str) -> dict[str, Any]:
    """Follow a person (``403 blocked`` when one of you blocked the other). Answers your friends."""
    return await _set(request, player, "follow", True)


@router.delete("/api/friends/{player}/follow", response_model=FriendsAnswer)
async def unfollow(request: Request, player: str) -> dict[str, Any]:
    """Stop following a person."""
    return await _set(request, player, "follow", False)


@router.put("/api/friends/{player}/block", response_model=FriendsAnswer)
async def block(request: Request, player: str) -> dict[str, Any]:
    """Block a person: they cannot join tables you sit at, write to you or invite you; neither follows the other."""
    return await _set(request, player, "block", True)


@router.delete("/api/friends/{player}/block", response_model=FriendsAnswer)
async def unblock(request: Request, player: str) -> dict[str, Any]:
    """Unblock a person."""
    return await _set(request, player, "block", False)


@router.post("/api/friends/{player}/invite", status_code=204, openapi_extra=documented(InviteRequest, True))
async def invite(request: Request, player: str,
                 body_: Annotated[InviteRequest, Depends(body(InviteRequest))]) -> None:
    """Invite a person to a table you sit at; they find it among their invitations (an hour). ``403 blocked``,
    ``403 not_at_table``, ``403 bad_invite`` (a private table's invite that is not its own)."""
    me = await _me(request)
    other = _person(player)
    table_id = body_.table_id
    if not isinstance(table_id, str) or not table_id or len(table_id) > 32:
        raise TableError(ErrorCode.NOT_AT_TABLE, "table_id is the id of an open table you sit at")
    manager = request.app.state.manager
    table = await manager.table(table_id)
    invite_secret = body_.invite if not table.public else None
    if not table.public:
        table.check_invite(invite_secret)
    await asyncio.to_thread(friends_service(request).invite, me.id, other, table_id, invite_secret)


@router.delete("/api/friends/invitations/{invitation_id}", status_code=204)
async def dismiss(request: Request, invitation_id: int) -> None:
    """Drop an invitation to you."""
    me = await _me(request)
    await asyncio.to_thread(friends_service(request).dismiss, me.id, invitation_id)
