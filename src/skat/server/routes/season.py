"""A club's season over REST (docs/season.md): ``POST /api/seasons`` makes one (its director's key in the answer,
once), ``GET /api/seasons/{id}`` is the season with its live ranking across the evenings, the director (header
``X-Season-Key``) changes its settings, evenings and members; ``ranking.pdf`` and ``ranking.csv`` print the
ranking. The pages ``/season`` (a new season) and ``/season/{id}`` are web/static/season.html."""

from __future__ import annotations

import asyncio
from functools import partial
from pathlib import Path
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Header
from fastapi.responses import FileResponse, Response
from pydantic import BaseModel, ConfigDict, Field, model_validator
from starlette.requests import HTTPConnection

from skat.server.errors import ErrorCode
from skat.server.keeper import print_language
from skat.server.messages import Fixed, Incoming, Refusal, judged
from skat.server.routes.bodies import ERRORS, body, documented
from skat.server.season import KEY_HEADER, SeasonService
from skat.table.season import MAX_BEST, MAX_SEASON_NAME

__all__ = ["router", "SEASON_MODELS", "SEASON_BODIES", "SeasonCreateRequest", "SeasonSettingsRequest",
           "EveningRequest", "MemberRequest", "SeasonState", "SeasonCreated", "SeasonDirector"]

PAGE = Path(__file__).resolve().parent.parent.parent / "web" / "static" / "season.html"

router = APIRouter(responses=ERRORS)

_RULE = judged({"type": "string", "enum": ["sum", "best"]}, "sum: every evening's Seeger-Fabian points; best: the "
               "best N evenings' (another: bad_rule)", None)
_BEST = judged({"type": ["integer", "null"], "minimum": 1, "maximum": MAX_BEST, "default": None},
               f"N of the rule best, 1 to {MAX_BEST} (another: bad_rule)")


# ------------------------------------------------------------------ requests
class SeasonCreateRequest(Incoming):
    """``POST /api/seasons``: a new season, its name and its rule."""

    model_config = ConfigDict(extra="forbid", strict=True)
    name: str = Field("", max_length=MAX_SEASON_NAME)
    rule: Any = judged({"type": "string", "enum": ["sum", "best"], "default": "sum"},
                       "sum: every evening's Seeger-Fabian points; best: the best N evenings' (another: bad_rule)", "sum")
    best: Any = _BEST
    refusal = Refusal(ErrorCode.BAD_REQUEST)
    refusals = {"name": Refusal(ErrorCode.BAD_NAME, f"'name' is a text of at most {MAX_SEASON_NAME} characters"),
                "*:extra_forbidden": Refusal(ErrorCode.BAD_REQUEST, "unknown field '{field}': a season has name, "
                                                                    "rule and best")}


class SeasonSettingsRequest(Incoming):
    """``POST /api/seasons/{id}/settings`` (header ``X-Season-Key``): a new name, or a new rule; what is left out
    stays."""

    model_config = ConfigDict(extra="forbid", strict=True)
    name: str | None = Field(None, max_length=MAX_SEASON_NAME)
    rule: Any = _RULE
    best: Any = _BEST
    refusal = Refusal(ErrorCode.BAD_REQUEST)
    refusals = {"name": Refusal(ErrorCode.BAD_NAME, f"'name' is a text of at most {MAX_SEASON_NAME} characters"),
                "*:extra_forbidden": Refusal(ErrorCode.BAD_REQUEST, "unknown field '{field}': the settings are name, "
                                                                    "rule and best")}


class EveningRequest(Incoming):
    """``POST /api/seasons/{id}/evenings`` (header ``X-Season-Key``): a tournament as an evening of the season."""

    model_config = ConfigDict(extra="forbid", strict=True)
    tournament_id: str = Field(max_length=400, description="the tournament's id, or its link (/tn/ID)")
    date: Any = judged({"type": ["string", "null"], "default": None},
                       "the evening's day, YYYY-MM-DD (default: the day the tournament was made; another: bad_date)")
    refusal = Refusal(ErrorCode.BAD_REQUEST)
    refusals = {"tournament_id": Refusal(ErrorCode.BAD_REQUEST, "'tournament_id' is the tournament's id or link"),
                "date": Refusal(ErrorCode.BAD_DATE, "'date' is a day written YYYY-MM-DD"),
                "*:extra_forbidden": Refusal(ErrorCode.BAD_REQUEST, "unknown field '{field}': an evening has "
                                                                    "tournament_id and date")}


_NEEDS: dict[str, tuple[str, ...]] = {"add": ("name",), "remove": ("name",), "account": ("name",),
                                      "link": ("player", "member"), "unlink": ("player",), "add_unmatched": ()}


class MemberRequest(Incoming):
    """``POST /api/seasons/{id}/members`` (header ``X-Season-Key``): one change of the members. ``add`` (``name``,
    ``account``?: an account's name to link), ``remove`` (``name``), ``account`` (link ``name`` to ``account``, or
    unlink it with none), ``link`` (the evenings' ``player`` is the ``member``), ``unlink`` (``player``),
    ``add_unmatched`` (every player of the evenings who is no member becomes one)."""

    model_config = ConfigDict(extra="forbid", strict=True)
    op: Literal["add", "remove", "account", "link", "unlink", "add_unmatched"]
    name: str | None = Field(None, max_length=400)
    account: str | None = Field(None, max_length=400)
    player: str | None = Field(None, max_length=400)
    member: str | None = Field(None, max_length=400)
    refusal = Refusal(ErrorCode.BAD_REQUEST, "{detail}")
    refusals = {"op": Refusal(ErrorCode.BAD_REQUEST, "'op' is add, remove, account, link, unlink or add_unmatched"),
                "*:extra_forbidden": Refusal(ErrorCode.BAD_REQUEST, "unknown field '{field}': a change of the members "
                                                                    "has op, name, account, player and member")}

    @model_validator(mode="after")
    def _needs(self) -> MemberRequest:
        lacking = [f for f in _NEEDS[self.op] if getattr(self, f) is None]
        if lacking:
            raise ValueError(f"'{self.op}' needs {' and '.join(repr(f) for f in lacking)}")
        return self


# ------------------------------------------------------------------ answers
class SeasonEvening(Fixed):
    number: int
    tournament: str
    name: str
    date: str
    url: str
    players: int = Field(description="the players who had a list at the evening")
    series: int
    missing: bool = Field(description="the tournament is gone: the evening counts nothing")


class SeasonAccount(Fixed):
    id: str
    name: str


class SeasonMember(Fixed):
    name: str
    account: SeasonAccount | None
    players: list[str] = Field(description="the evenings' player names the director linked to the member")


class SeasonLink(Fixed):
    player: str
    member: str


class SeasonUnmatched(Fixed):
    player: str
    evenings: list[int]
    reason: Literal["unknown", "twice"]


class SeasonStanding(Fixed):
    rank: int
    member: str
    account: SeasonAccount | None
    points: list[int | None] = Field(description="each evening's Seeger-Fabian points (null: not played)")
    counted: list[bool] = Field(description="whether each evening counts for the total")
    total: int
    played: int
    best: int


class SeasonState(Fixed):
    id: str
    name: str
    url: str
    seq: int
    rule: Literal["sum", "best"]
    best: int | None
    evenings: list[SeasonEvening]
    members: list[SeasonMember]
    links: list[SeasonLink]
    unmatched: list[SeasonUnmatched]
    ranking: list[SeasonStanding]


class SeasonCreated(SeasonState):
    key: str = Field(description="the director's key, given once")
    director_url: str


class SeasonDirector(Fixed):
    """``GET /api/seasons/{id}/director`` with the right key (a wrong one: ``403 bad_key``)."""

    director: Literal[True]


SEASON_BODIES: tuple[type[Incoming], ...] = (SeasonCreateRequest, SeasonSettingsRequest, EveningRequest, MemberRequest)
SEASON_MODELS: tuple[type[BaseModel], ...] = (*SEASON_BODIES, SeasonState, SeasonCreated, SeasonDirector)
"""The models of this router, for the OpenAPI description and the protocol's schema."""


# ------------------------------------------------------------------ routes
def seasons(connection: HTTPConnection) -> SeasonService:
    """The application's seasons (``app.state.seasons``)."""
    return connection.app.state.seasons


Service = Annotated[SeasonService, Depends(seasons)]
DirectorKey = Annotated[str | None, Header(alias=KEY_HEADER, description="the director's key")]


@router.post("/api/seasons", status_code=201, response_model=SeasonCreated,
             openapi_extra=documented(SeasonCreateRequest))
async def create_season(service: Service,
                        request: Annotated[SeasonCreateRequest, Depends(body(SeasonCreateRequest))]) -> Any:
    return await service.create(request.name, request.rule, request.best)


@router.get("/api/seasons/{sid}", response_model=SeasonState)
async def season_state(sid: str, service: Service) -> Any:
    return await service.state(sid)


@router.get("/api/seasons/{sid}/director", response_model=SeasonDirector)
async def season_director(sid: str, service: Service, key: DirectorKey = None) -> Any:
    """Whether ``key`` is the season's director's key (the page asks before it shows the director's desk)."""
    await service.director(sid, key)
    return {"director": True}


@router.post("/api/seasons/{sid}/settings", response_model=SeasonState,
             openapi_extra=documented(SeasonSettingsRequest, required=True))
async def season_settings(sid: str, service: Service,
                          request: Annotated[SeasonSettingsRequest, Depends(body(SeasonSettingsRequest))],
                          key: DirectorKey = None) -> Any:
    return await service.settings(sid, key, name=request.name, rule=request.rule, best=request.best)


@router.post("/api/seasons/{sid}/evenings", response_model=SeasonState,
             openapi_extra=documented(EveningRequest, required=True))
async def season_add_evening(sid: str, service: Service,
                             request: Annotated[EveningRequest, Depends(body(EveningRequest))],
                             key: DirectorKey = None) -> Any:
    return await service.add_evening(sid, key, request.tournament_id, request.date)


@router.delete("/api/seasons/{sid}/evenings/{tid}", response_model=SeasonState)
async def season_remove_evening(sid: str, tid: str, service: Service, key: DirectorKey = None) -> Any:
    return await service.remove_evening(sid, key, tid)


@router.post("/api/seasons/{sid}/members", response_model=SeasonState,
             openapi_extra=documented(MemberRequest, required=True))
async def season_members(sid: str, service: Service, request: Annotated[MemberRequest, Depends(body(MemberRequest))],
                         key: DirectorKey = None) -> Any:
    return await service.members(sid, key, request.op, name=request.name, account=request.account,
                                 player=request.player, member=request.member)


@router.get("/api/seasons/{sid}/ranking.csv", response_class=Response)
async def season_csv(sid: str, service: Service) -> Response:
    from skat.table.printing import season_csv as csv_of

    season, accounts = await service.season(sid)
    return Response("\ufeff" + csv_of(season, accounts), media_type="text/csv; charset=utf-8",
                    headers={"Content-Disposition": f'attachment; filename="skat-season-{sid[:8]}.csv"'})


@router.get("/api/seasons/{sid}/ranking.pdf", response_class=Response)
async def season_pdf(sid: str, service: Service, lang: str = "en") -> Response:
    from skat.table.printing import season_pdf as pdf_of

    print_language(lang)
    season, accounts = await service.season(sid)
    pdf = await asyncio.to_thread(partial(pdf_of, season, accounts, lang=lang))
    return Response(pdf, media_type="application/pdf",
                    headers={"Content-Disposition": f'inline; filename="skat-season-{sid[:8]}.pdf"'})


@router.get("/season", include_in_schema=False)
@router.get("/season/{sid}", include_in_schema=False)
async def season_page() -> FileResponse:
    return FileResponse(PAGE, headers={"Cache-Control": "no-cache"})
