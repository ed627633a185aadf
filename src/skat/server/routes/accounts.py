"""People's accounts over REST (docs/accounts.md): ``POST /api/account/register``, ``login``, ``logout``,
``password`` and ``GET /api/account/me``. The session is a cookie (:data:`skat.server.accounts.SESSION_COOKIE`:
HttpOnly, SameSite=Lax, ``Secure`` when the request came over https, Path=/); every ``POST`` here must come from the
server's own origin (:class:`skat.server.security.Security` refuses it ``403 cross_origin`` else). The service
(:class:`skat.server.accounts.AccountService`, ``app.state.accounts``) hashes and looks up in a thread: the event
loop never waits for Argon2 or the database."""

from __future__ import annotations

import asyncio
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Request, Response
from pydantic import BaseModel
from starlette.requests import HTTPConnection

from skat.server.accounts import GUEST_COOKIE, SESSION_COOKIE, Account, AccountService
from skat.server.core import TableError, new_secret
from skat.server.errors import ErrorCode
from skat.server.limits import client_host
from skat.server.messages import Fixed, Incoming, Refusal
from skat.server.routes.bodies import ERRORS, body, documented

__all__ = ["router", "ACCOUNT_MODELS", "AccountRequest", "LoginRequest", "PasswordRequest", "AccountAnswer",
           "SignedOutAnswer", "accounts", "signed_in", "link_seat", "account_name", "GUEST_SECONDS"]

GUEST_SECONDS = 400 * 86400
"""How long a browser keeps its guest id (the most a browser allows a cookie)."""

router = APIRouter(responses={**ERRORS, 401: {"model": ERRORS[400]["model"],
                                              "description": "bad_login, signed_out"}})


class AccountRequest(Incoming):
    """``POST /api/account/register``: a name (1 to 40 characters, unique after NFKC and case folding) and a
    password (8 to 256 characters)."""

    name: str = ""
    password: str = ""
    refusals = {"name": Refusal(ErrorCode.BAD_ACCOUNT_NAME, "the name must be text"),
                "password": Refusal(ErrorCode.WEAK_PASSWORD, "the password must be text of 8 to 256 characters")}


class LoginRequest(Incoming):
    """``POST /api/account/login``: the account's name and password."""

    name: str = ""
    password: str = ""
    refusals = {"*:string_type": Refusal(ErrorCode.BAD_LOGIN, "the name and the password are text", 401)}


class PasswordRequest(Incoming):
    """``POST /api/account/password``: the present password (``old``) and the new one (``new``)."""

    old: str = ""
    new: str = ""
    refusals = {"old": Refusal(ErrorCode.BAD_PASSWORD, "the present password is text", 403),
                "new": Refusal(ErrorCode.WEAK_PASSWORD, "the new password must be text of 8 to 256 characters")}


class AccountInfo(Fixed):
    """An account as its owner sees it (never its password hash)."""

    id: str
    name: str
    created: float


class AccountAnswer(Fixed):
    """The signed-in account; after registering, ``claimed``: the seats this browser took as a guest, now the
    account's."""

    account: AccountInfo
    claimed: int | None = None


class SignedOutAnswer(Fixed):
    """``POST /api/account/logout``: the session ended (or there was none)."""

    signed_in: Literal[False]


ACCOUNT_MODELS: tuple[type[BaseModel], ...] = (AccountRequest, LoginRequest, PasswordRequest, AccountInfo,
                                               AccountAnswer, SignedOutAnswer)
"""The models of this router, for the OpenAPI description and the protocol's schema."""


def accounts(connection: HTTPConnection) -> AccountService:
    return connection.app.state.accounts


Accounts = Annotated[AccountService, Depends(accounts)]


def _secure(request: Request) -> bool:
    return request.url.scheme == "https"


def _set_session(response: Response, request: Request, service: AccountService, token: str) -> None:
    response.set_cookie(SESSION_COOKIE, token, max_age=int(service.limits.session_seconds), path="/",
                        httponly=True, samesite="lax", secure=_secure(request))


async def signed_in(request: Request, service: AccountService) -> Account | None:
    """The account of the request's session cookie, or None."""
    token = request.cookies.get(SESSION_COOKIE)
    if not token:
        return None
    return await asyncio.to_thread(service.session, token)


async def account_name(request: Request) -> str | None:
    """The signed-in account's name (a signed-in person sits under it at every table), or None."""
    account = await signed_in(request, request.app.state.accounts)
    return None if account is None else account.name


async def link_seat(request: Request, response: Response, table_id: str, position: Any) -> None:
    """Mark a seat the request just took as its account's (a session cookie) or its browser's (the guest cookie,
    given now when the browser has none), so that a guest who registers later keeps the seat."""
    if not isinstance(position, int) or isinstance(position, bool):
        return
    service: AccountService = request.app.state.accounts
    account = await signed_in(request, service)
    if account is not None:
        await asyncio.to_thread(service.link_seat, table_id, position, account_id=account.id)
        return
    guest = request.cookies.get(GUEST_COOKIE)
    if not guest or len(guest) > 100 or not guest.isascii():
        guest = new_secret(24)
        response.set_cookie(GUEST_COOKIE, guest, max_age=GUEST_SECONDS, path="/", httponly=True, samesite="lax",
                            secure=_secure(request))
    await asyncio.to_thread(service.link_seat, table_id, position, guest_id=guest)


async def _required(request: Request, service: AccountService) -> Account:
    account = await signed_in(request, service)
    if account is None:
        raise TableError(ErrorCode.SIGNED_OUT, "you are not signed in (or your session ended): sign in again", 401)
    return account


@router.post("/api/account/register", status_code=201, response_model=AccountAnswer,
             response_model_exclude_none=True, openapi_extra=documented(AccountRequest, True))
async def register(request: Request, response: Response, service: Accounts,
                   data: Annotated[AccountRequest, Depends(body(AccountRequest))]) -> dict[str, Any]:
    """A new account, signed in at once; the seats this browser took as a guest become its (``claimed``).
    ``400 bad_account_name``, ``400 weak_password``, ``409 name_taken``."""
    guest = request.cookies.get(GUEST_COOKIE) or None
    account, claimed = await asyncio.to_thread(service.register, data.name, data.password, guest)
    token = await asyncio.to_thread(service.create_session, account.id)
    _set_session(response, request, service, token)
    if guest:
        response.delete_cookie(GUEST_COOKIE, path="/", httponly=True, samesite="lax", secure=_secure(request))
    return {"account": account.public(), "claimed": claimed}


@router.post("/api/account/login", response_model=AccountAnswer, response_model_exclude_none=True,
             openapi_extra=documented(LoginRequest, True))
async def login(request: Request, response: Response, service: Accounts,
                data: Annotated[LoginRequest, Depends(body(LoginRequest))]) -> dict[str, Any]:
    """Sign in: a new session cookie; the seats this browser took as a guest become the account's (``claimed``), as
    at registering. ``401 bad_login`` (the name or the password is wrong), ``403 account_disabled``, ``429
    throttled`` with ``Retry-After`` after too many wrong passwords."""
    account = await asyncio.to_thread(service.authenticate, data.name, data.password, client_host(request.scope))
    old = request.cookies.get(SESSION_COOKIE)
    if old:
        await asyncio.to_thread(service.revoke, old)
    token = await asyncio.to_thread(service.create_session, account.id)
    _set_session(response, request, service, token)
    guest = request.cookies.get(GUEST_COOKIE) or None
    if not guest:
        return {"account": account.public()}
    claimed = await asyncio.to_thread(service.claim_guest_seats, account.id, guest)
    response.delete_cookie(GUEST_COOKIE, path="/", httponly=True, samesite="lax", secure=_secure(request))
    return {"account": account.public(), "claimed": claimed}


@router.post("/api/account/logout", response_model=SignedOutAnswer)
async def logout(request: Request, response: Response, service: Accounts) -> dict[str, Any]:
    """Sign out: the session ends on the server and its cookie is removed (without one: nothing to do)."""
    await asyncio.to_thread(service.revoke, request.cookies.get(SESSION_COOKIE))
    response.delete_cookie(SESSION_COOKIE, path="/", httponly=True, samesite="lax", secure=_secure(request))
    return {"signed_in": False}


@router.post("/api/account/password", response_model=AccountAnswer, response_model_exclude_none=True,
             openapi_extra=documented(PasswordRequest, True))
async def change_password(request: Request, service: Accounts,
                          data: Annotated[PasswordRequest, Depends(body(PasswordRequest))]) -> dict[str, Any]:
    """A new password; every other session of the account ends. ``401 signed_out``, ``403 bad_password``,
    ``400 weak_password``, ``429 throttled``."""
    account = await _required(request, service)
    await asyncio.to_thread(service.change_password, account, data.old, data.new, client_host(request.scope),
                            request.cookies.get(SESSION_COOKIE))
    return {"account": account.public()}


@router.get("/local-sign-in", include_in_schema=False)
async def local_sign_in(request: Request, service: Accounts, code: str = "", next: str = "/") -> Response:
    """``skat play``'s link: its one-time ``code`` signs this browser in as the local player (a session cookie),
    then the browser goes on to ``next`` (a path of this server). A code used or unknown signs nobody in."""
    from fastapi.responses import RedirectResponse

    target = next if next.startswith("/") and not next.startswith("//") and "\\" not in next else "/"
    response = RedirectResponse(target, status_code=303)
    codes: dict[str, str] = getattr(request.app.state, "local_codes", {})
    account_id = codes.pop(code, None) if code else None
    if account_id is not None:
        token = await asyncio.to_thread(service.create_session, account_id)
        _set_session(response, request, service, token)
    return response


@router.get("/api/account/me", response_model=AccountAnswer, response_model_exclude_none=True)
async def me(request: Request, service: Accounts) -> dict[str, Any]:
    """The signed-in account; ``401 signed_out`` without a live session."""
    account = await _required(request, service)
    return {"account": account.public()}
