"""Online tournaments over REST (docs/online-tournaments.md): ``POST /api/online-tournaments`` schedules one (its
director's key in the answer, once), ``GET /api/online-tournaments`` lists those registering or running and the
last finished, ``GET /api/online-tournaments/{id}`` is one with its tables and live ranking; a signed-in person
registers, withdraws and asks for their seat; the director (header ``X-Tournament-Key``) starts it now or cancels
it; ``ranking.pdf`` prints the ranking. The pages ``/online`` and ``/online/{id}`` are web/static/online.html."""

from __future__ import annotations

import asyncio
from functools import partial
from pathlib import Path
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Header, Request
from fastapi.responses import FileResponse, Response
from pydantic import BaseModel, ConfigDict, Field
from starlette.requests import HTTPConnection

from skat.server.accounts import Account
from skat.server.core import TableError
from skat.server.errors import ErrorCode
from skat.server.keeper import print_language
from skat.server.messages import Fixed, Incoming, Refusal, judged
from skat.server.online import KEY_HEADER, MAX_GAMES, MAX_ROUNDS, OnlineService
from skat.server.routes.accounts import signed_in
from skat.server.routes.bodies import ERRORS, body, documented

__all__ = ["router", "ONLINE_MODELS", "ONLINE_BODIES", "OnlineCreateRequest", "OnlineState", "OnlineCreated",
           "OnlineList", "OnlineSeat", "OnlineDirector"]

PAGE = Path(__file__).resolve().parent.parent.parent / "web" / "static" / "online.html"

router = APIRouter(responses={**ERRORS, 401: {"model": ERRORS[400]["model"], "description": "signed_out"}})

Status = Literal["registering", "running", "finished", "cancelled"]


# ------------------------------------------------------------------ requests
class OnlineCreateRequest(Incoming):
    """``POST /api/online-tournaments``: a new online tournament."""

    model_config = ConfigDict(extra="forbid", strict=True)
    name: str = Field("", max_length=400)
    starts_at: Any = judged({"type": ["number", "null"]}, "the start, Unix seconds, from now to a year ahead (default: "
                            "now; another: bad_start)")
    ruleset: Any = judged({"type": ["string", "null"]}, "a server table's rule set (default isko2018; another: "
                          "bad_ruleset)")
    rounds: Any = judged({"type": ["integer", "null"], "minimum": 1, "maximum": MAX_ROUNDS},
                         f"rounds, 1 to {MAX_ROUNDS} (default 3; another: bad_rounds)")
    games: Any = judged({"type": ["integer", "object", "null"]},
                        f"games a table plays each round, 1 to {MAX_GAMES}, or by table size {{\"4\": n, \"3\": m}} "
                        "(default 12; another: bad_games)")
    clock: Any = judged({"type": ["boolean", "object", "null"]},
                        "the tables' move clock: true or the settings to change (docs/clock.md; default a minute's "
                        "grace and half a minute between deals; false or another: bad_clock)")
    refusal = Refusal(ErrorCode.BAD_REQUEST)
    refusals = {"name": Refusal(ErrorCode.BAD_NAME, "'name' is a text of at most 200 characters"),
                "*:extra_forbidden": Refusal(ErrorCode.BAD_REQUEST, "unknown field '{field}': an online tournament "
                                                                    "has name, starts_at, ruleset, rounds, games and "
                                                                    "clock")}


# ------------------------------------------------------------------ answers
class OnlineClock(Fixed):
    decision: int
    reserve: int
    grace: int
    ready: int
    stand_in: str


class OnlineGames(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)
    four: int = Field(alias="4", description="games a table of 4 plays each round")
    three: int = Field(alias="3", description="games a table of 3 plays each round")


class OnlinePlayer(Fixed):
    name: str
    account: str


class OnlineTable(Fixed):
    number: int
    table: str | None = Field(description="the server table's id (null while it is being made)")
    players: list[str] = Field(description="the names in seat order")
    status: str | None = Field(description="the table's status (waiting, playing, between_deals, finished, ...); "
                                           "null where this server cannot reach it")
    deal_no: int | None
    games: int


class OnlineSeries(Fixed):
    number: int
    tables: list[OnlineTable]


class OnlineStanding(Fixed):
    rank: int
    player: str
    account: str | None = Field(description="the player's account (null: the computer player who makes 5 into 3+3)")
    points: int = Field(description="Seeger-Fabian points over the rounds, live")
    won: int
    lost: int
    series: list[int | None] = Field(description="each round's points (null: not played)")
    withdrawn: bool


class OnlineYou(Fixed):
    registered: bool
    name: str


class OnlineState(Fixed):
    id: str
    name: str
    url: str
    status: Status
    seq: int
    created: float
    starts_at: float
    started: float | None
    finished: float | None
    reason: str | None = Field(description="why it was cancelled")
    ruleset: str
    rounds: int
    games: OnlineGames
    clock: OnlineClock
    players: list[OnlinePlayer] = Field(description="the registered players, in the order they registered")
    round: int = Field(description="the round being played (0 before the start)")
    series: list[OnlineSeries] = Field(description="every round so far with its tables")
    ranking: list[OnlineStanding]
    you: OnlineYou | None = Field(description="the signed-in person (null: nobody is signed in)")


class OnlineCreated(OnlineState):
    key: str = Field(description="the director's key, given once")
    director_url: str


class OnlineSummary(Fixed):
    id: str
    name: str
    url: str
    status: Status
    starts_at: float
    players: int
    rounds: int
    round: int
    ruleset: str


class OnlineList(Fixed):
    """``GET /api/online-tournaments``: registering and running (soonest first), then the last 20 over."""

    tournaments: list[OnlineSummary]


class OnlineSeat(Fixed):
    """``POST /api/online-tournaments/{id}/seat``: your table in the current round, with a fresh seat token."""

    round: int
    table_id: str
    position: int
    token: str = Field(description="the seat's new token (an older one of this seat no longer opens it)")
    url: str = Field(description="the table's page with the token: /t/ID#token=TOKEN")
    status: str


class OnlineDirector(Fixed):
    """``GET /api/online-tournaments/{id}/director`` with the right key (a wrong one: ``403 bad_key``)."""

    director: Literal[True]


ONLINE_BODIES: tuple[type[Incoming], ...] = (OnlineCreateRequest,)
ONLINE_MODELS: tuple[type[BaseModel], ...] = (*ONLINE_BODIES, OnlineState, OnlineCreated, OnlineList, OnlineSeat,
                                              OnlineDirector)
"""The models of this router, for the OpenAPI description and the protocol's schema."""


# ------------------------------------------------------------------ routes
def online(connection: HTTPConnection) -> OnlineService:
    """The application's online tournaments (``app.state.online``)."""
    return connection.app.state.online


Service = Annotated[OnlineService, Depends(online)]
DirectorKey = Annotated[str | None, Header(alias=KEY_HEADER, description="the director's key")]


async def _account(request: Request) -> Account:
    account = await signed_in(request, request.app.state.accounts)
    if account is None:
        raise TableError(ErrorCode.SIGNED_OUT, "sign in to take part in an online tournament: its games count in "
                                               "your history, statistics and rating", 401)
    return account


@router.post("/api/online-tournaments", status_code=201, response_model=OnlineCreated,
             openapi_extra=documented(OnlineCreateRequest))
async def create_online(service: Service,
                        request: Annotated[OnlineCreateRequest, Depends(body(OnlineCreateRequest))]) -> Any:
    return await service.create(name=request.name, starts_at=request.starts_at, ruleset=request.ruleset,
                                rounds=request.rounds, games=request.games, clock=request.clock)


@router.get("/api/online-tournaments", response_model=OnlineList)
async def list_online(service: Service) -> Any:
    return await service.listing()


@router.get("/api/online-tournaments/{tid}", response_model=OnlineState)
async def online_state(tid: str, service: Service, http: Request) -> Any:
    return await service.state(tid, await signed_in(http, http.app.state.accounts))


@router.post("/api/online-tournaments/{tid}/register", response_model=OnlineState)
async def online_register(tid: str, service: Service, http: Request) -> Any:
    """Register the signed-in person (until the start)."""
    return await service.register(tid, await _account(http))


@router.post("/api/online-tournaments/{tid}/withdraw", response_model=OnlineState)
async def online_withdraw(tid: str, service: Service, http: Request) -> Any:
    """Withdraw the signed-in person's registration (until the start)."""
    return await service.withdraw(tid, await _account(http))


@router.post("/api/online-tournaments/{tid}/seat", response_model=OnlineSeat)
async def online_seat(tid: str, service: Service, http: Request) -> Any:
    """The signed-in player's table in the current round, with a fresh seat token."""
    return await service.seat(tid, await _account(http))


@router.get("/api/online-tournaments/{tid}/director", response_model=OnlineDirector)
async def online_director(tid: str, service: Service, key: DirectorKey = None) -> Any:
    """Whether ``key`` is the director's (the page asks before it shows the director's desk)."""
    await service.director(tid, key)
    return {"director": True}


@router.post("/api/online-tournaments/{tid}/start", response_model=OnlineState)
async def online_start(tid: str, service: Service, key: DirectorKey = None) -> Any:
    """The director starts the tournament now."""
    return await service.start(tid, key)


@router.post("/api/online-tournaments/{tid}/cancel", response_model=OnlineState)
async def online_cancel(tid: str, service: Service, key: DirectorKey = None) -> Any:
    """The director cancels the tournament."""
    return await service.cancel(tid, key)


@router.get("/api/online-tournaments/{tid}/ranking.pdf", response_class=Response)
async def online_pdf(tid: str, service: Service, lang: str = "en") -> Response:
    from skat.table.printing import ranking_pdf as pdf_of

    print_language(lang)
    t = await service.tournament(tid)
    pdf = await asyncio.to_thread(partial(pdf_of, t, lang=lang))
    return Response(pdf, media_type="application/pdf",
                    headers={"Content-Disposition": f'inline; filename="skat-online-{tid[:8]}.pdf"'})


@router.get("/online", include_in_schema=False)
@router.get("/online/{tid}", include_in_schema=False)
async def online_page() -> FileResponse:
    return FileResponse(PAGE, headers={"Cache-Control": "no-cache"})
