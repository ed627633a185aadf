"""Players' histories, statistics, ratings, leaderboards and replays over REST (docs/history.md).

``GET /api/me`` says who the browser is (the signed-in account, else the guest of its cookie);
``/api/me/history`` is that player's history (nobody else's: a history shows the tables a person sat at);
``/api/players/{player}`` a player's statistics and rating history (a person with an account or a computer level:
public; a guest's only to that guest, as ``me``); ``/api/leaderboard`` the leaderboards; ``/api/replays/...`` a
finished deal step by step, its ISS record and its analysis: to the players who sat at it, and to everybody once
its table is closed unless the operator made replays private (``skat serve --private-replays``). Reading runs in the
store's reader threads: the event loop never waits for the database."""

from __future__ import annotations

import asyncio
import time
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import PlainTextResponse
from pydantic import BaseModel

from skat.players.registry import PLAYER_NAMES
from skat.records.iss import to_iss
from skat.server.accounts import GUEST_COOKIE, guest_player
from skat.server.core import TableError
from skat.server.errors import ErrorCode
from skat.server.games import table_game
from skat.server.history import (
    GAMES,
    ROLES,
    HistoryFilter,
    history_page,
    leaderboard,
    player_kind,
    player_name,
    player_stats,
    rating_history,
    stored_record,
    table_players,
)
from skat.server.messages import Fixed, Open
from skat.server.replays import replay_steps
from skat.server.routes.accounts import accounts, signed_in
from skat.server.routes.analysis import AnalysisCache, analyses
from skat.server.routes.bodies import ERRORS
from skat.server.routes.deps import Readable
from skat.server.routes.tables import iss_header
from skat.server.store import Store
from skat.variants.registry import from_record

__all__ = ["router", "HISTORY_MODELS", "player_url", "player_of_url"]

router = APIRouter(responses=ERRORS)


# ------------------------------------------------------------------ models
class PlayerRef(Fixed):
    """A player: ``id`` as in the URLs (``a-ID`` a person, ``b-strong`` a computer level, ``me``), the name shown
    (null for a guest), ``kind`` (person, guest, computer)."""

    id: str
    name: str | None
    kind: str


class MeAnswer(Fixed):
    """``GET /api/me``: the browser's player (a guest until it takes a seat has no history yet)."""

    player: PlayerRef | None
    signed_in: bool


class HistoryDeal(Fixed):
    """One deal of a player's history: the table, the game, the player's role and seat (0 forehand, 1 middlehand,
    2 rearhand; null when sitting out), whether the player's side won, the list score and SF points it gave."""

    table_id: str
    table_name: str
    table_closed: bool
    deal_no: int
    game_no: int
    position: int
    at: float
    variant: str
    ruleset: str
    game: str
    contract: str
    role: str
    seat: int | None
    bid: int
    won: bool | None
    score: int
    sf: int
    kontra: int
    overbid: bool
    stand_in: int
    """Decisions the computer stand-in made for the player in this deal (their time ran out; docs/clock.md)."""
    players: list[str]


class HistoryAnswer(Fixed):
    """A page of the history, newest first; ``next`` the cursor of the following page (null: the last)."""

    player: PlayerRef
    deals: list[HistoryDeal]
    total: int
    next: str | None


class Rating(Fixed):
    """A rating (OpenSkill's scale, docs/ratings.md): the leaderboard orders by ``conservative`` = mu - 3 sigma."""

    mu: float
    sigma: float
    conservative: float
    lists: int
    games: int
    updated: float


class FormGame(Fixed):
    """One of the last 100 games: its SF points for the player."""

    sf: int
    at: float
    won: bool | None
    role: str


class StatsAnswer(Fixed):
    """``GET /api/players/{player}``: the player's statistics (``stats``; shares are null without games), the
    computer players' at this person's tables (by level), the form and the rating."""

    player: PlayerRef
    stats: Open
    computers: dict[str, Open]
    form: list[FormGame]
    rating: Rating | None


class RatingPoint(Fixed):
    """The rating after one rated list (games ``first_game`` to ``last_game`` of a table)."""

    at: float
    mu: float
    sigma: float
    conservative: float
    sf: int
    table_id: str
    first_game: int
    last_game: int


class RatingsAnswer(Fixed):
    """``GET /api/players/{player}/ratings``: the rating history, oldest first."""

    player: PlayerRef
    history: list[RatingPoint]


class LeaderRow(Fixed):
    """A place on a leaderboard: by rating (``all``) or by SF points per game in the last 30 days (``30d``)."""

    rank: int
    player: PlayerRef
    rating: Rating | None = None
    games: int | None = None
    sf: int | None = None
    sf_per_game: float | None = None


class LeaderboardAnswer(Fixed):
    """``GET /api/leaderboard``: people or computers, all time or the last 30 days."""

    kind: str
    period: str
    rows: list[LeaderRow]


class ReplayStep(Fixed):
    """The deal after one action (the first step: as dealt): all hands, the trick on the table, the last trick,
    tricks and card points taken per seat, the bid, the declarer, the contract, Kontra."""

    seat: int | None
    action: str | None
    phase: str
    to_move: int | None
    hands: list[list[str]]
    trick: list[list[Any]]
    last_trick: Open | None
    tricks: list[int]
    points: list[int]
    bid: int
    declarer: int | None
    contract: Open | None
    kontra: int


class ReplayAnswer(Fixed):
    """``GET /api/replays/{table}/{deal}``: the finished deal's record, its steps, result and sheet row; whether an
    analysis and an ISS record can be had; ``you``: your table position in it (null: you did not sit at it)."""

    table_id: str
    deal_no: int
    table_name: str
    table_closed: bool
    variant: str
    ruleset: str
    record: Open
    steps: list[ReplayStep]
    result: Open | None
    sheet_row: Open | None
    you: int | None
    analysable: bool
    iss: bool


# ------------------------------------------------------------------ players
def player_url(player: str) -> str:
    """A player key as a URL's part: ``a:ID`` is ``a-ID``."""
    return player.replace(":", "-", 1)


def player_of_url(text: str) -> str:
    """The player key of a URL's part (``a-ID``, ``b-strong``); ``404 no_player`` for anything else (a guest is
    only ``me``)."""
    if len(text) < 3 or len(text) > 80 or text[1] != "-" or text[0] not in "ab" or not text.isascii():
        raise TableError(ErrorCode.NO_PLAYER, f"there is no player {text[:80]!r}: a player is a-ID (a person) or "
                         "b-LEVEL (a computer player), or me", 404)
    return text[0] + ":" + text[2:]


async def _me(request: Request) -> str | None:
    """The browser's player key: its signed-in account, else its guest cookie's; None for neither."""
    account = await signed_in(request, accounts(request))
    if account is not None:
        return f"a:{account.id}"
    guest = request.cookies.get(GUEST_COOKIE)
    if guest and len(guest) <= 100 and guest.isascii():
        return guest_player(guest)
    return None


def _store(request: Request) -> Store:
    store: Store = request.app.state.manager.store
    return store


async def _player(request: Request, text: str) -> str:
    if text == "me":
        me = await _me(request)
        if me is None:
            raise TableError(ErrorCode.NO_PLAYER, "this browser has played no deal yet (and is not signed in)", 404)
        return me
    return player_of_url(text)


def _ref(player: str, name: str | None, me: str | None = None) -> dict[str, Any]:
    return {"id": "me" if player == me and player.startswith("g:") else player_url(player), "name": name,
            "kind": player_kind(player)}


@router.get("/api/me", response_model=MeAnswer)
async def who_am_i(request: Request) -> dict[str, Any]:
    """The browser's player: the signed-in account, else the guest of its cookie (null: neither yet)."""
    account = await signed_in(request, accounts(request))
    if account is not None:
        return {"player": {"id": player_url(f"a:{account.id}"), "name": account.name, "kind": "person"},
                "signed_in": True}
    me = await _me(request)
    return {"player": None if me is None else {"id": "me", "name": None, "kind": "guest"}, "signed_in": False}


@router.get("/api/me/history", response_model=HistoryAnswer)
async def my_history(request: Request,
                     game: Annotated[str | None, Query(max_length=20)] = None,
                     role: Annotated[str | None, Query(max_length=10)] = None,
                     result: Annotated[str | None, Query(max_length=5)] = None,
                     since: float | None = None, until: float | None = None,
                     cursor: Annotated[str | None, Query(max_length=40)] = None,
                     limit: Annotated[int, Query(ge=1, le=200)] = 50) -> dict[str, Any]:
    """Your deals, newest first (``limit`` a page, ``cursor`` the page after): ``game`` (grand, clubs, ..., null,
    ramsch, passed), ``role`` (declarer, defender, ramsch, passed, out), ``result`` (won, lost), ``since`` and
    ``until`` (Unix seconds). ``400 bad_filter`` for a value none of these; ``404 no_player`` for a browser that has
    played nothing and is not signed in."""
    if game is not None and game not in GAMES:
        raise TableError(ErrorCode.BAD_FILTER, f"game must be one of {', '.join(GAMES)}")
    if role is not None and role not in ROLES:
        raise TableError(ErrorCode.BAD_FILTER, f"role must be one of {', '.join(ROLES)}")
    if result is not None and result not in ("won", "lost"):
        raise TableError(ErrorCode.BAD_FILTER, "result must be won or lost")
    before = None
    if cursor:
        try:
            at, _, row_id = cursor.partition(":")
            before = (float(at), int(row_id))
        except ValueError:
            raise TableError(ErrorCode.BAD_FILTER, "cursor must be the next value of the page before") from None
    player = await _player(request, "me")
    store = _store(request)
    page = await store.read(_history, store, player, HistoryFilter(game, role, result, since, until), before, limit)
    page["player"] = _ref(player, page.pop("name"), player)
    return page


def _history(store: Store, player: str, f: HistoryFilter, before: tuple[float, int] | None,
             limit: int) -> dict[str, Any]:
    with store.engine.connect() as conn:
        return {**history_page(conn, player, f, before, limit), "name": player_name(conn, player)}


def _stats(store: Store, player: str) -> dict[str, Any] | None:
    with store.engine.connect() as conn:
        return player_stats(conn, player)


@router.get("/api/players/{player}", response_model=StatsAnswer)
async def statistics(request: Request, player: str) -> dict[str, Any]:
    """A player's statistics, the computer players' at the person's tables, the form over the last 100 games and
    the rating (``me``: your own, a guest's too). ``404 no_player``: no such player, or one with no deal yet."""
    me = await _me(request)
    key = await _player(request, player)
    found = await _store(request).read(_stats, _store(request), key)
    if found is None or (key.startswith("a:") and found["name"] is None):
        raise TableError(ErrorCode.NO_PLAYER, f"player {player!r} has played no deal here", 404)
    found["player"] = _ref(key, found.pop("name"), me)
    found.pop("kind")
    return found


def _ratings(store: Store, player: str) -> tuple[list[dict[str, Any]], str | None]:
    with store.engine.connect() as conn:
        return rating_history(conn, player), player_name(conn, player)


@router.get("/api/players/{player}/ratings", response_model=RatingsAnswer)
async def ratings(request: Request, player: str) -> dict[str, Any]:
    """The player's rating after each rated list, oldest first (``404 no_player`` for a player with none)."""
    me = await _me(request)
    key = await _player(request, player)
    history, name = await _store(request).read(_ratings, _store(request), key)
    if (key.startswith("a:") and name is None) or (key.startswith("b:") and key[2:] not in PLAYER_NAMES):
        raise TableError(ErrorCode.NO_PLAYER, f"there is no player {player!r}", 404)
    return {"player": _ref(key, name, me), "history": history}


def _board(store: Store, kind: str, period: str, now: float) -> list[dict[str, Any]]:
    with store.engine.connect() as conn:
        return leaderboard(conn, kind, period, now)


@router.get("/api/leaderboard", response_model=LeaderboardAnswer, response_model_exclude_none=True)
async def leaderboards(request: Request, kind: Literal["person", "computer"] = "person",
                       period: Literal["all", "30d"] = "all") -> dict[str, Any]:
    """People (``kind=person``) or computer players: ``period=all`` by rating (mu - 3 sigma), ``30d`` by SF points
    per game over the last 30 days (at least 12 games). The first 100."""
    rows = await _store(request).read(_board, _store(request), kind, period, time.time())
    for row in rows:
        row["player"] = _ref(row["player"], row.pop("name"))
    return {"kind": kind, "period": period, "rows": rows}


class TablePlayer(Fixed):
    """A table position's player and rating (``player`` null: a guest, or nobody known)."""

    position: int
    player: PlayerRef | None
    rating: Rating | None


class TablePlayersAnswer(Fixed):
    """``GET /api/tables/{id}/players``: who sits at each position, with their ratings."""

    players: list[TablePlayer]


def _table_players(store: Store, table_id: str) -> list[dict[str, Any]]:
    with store.engine.connect() as conn:
        return table_players(conn, table_id)


@router.get("/api/tables/{table_id}/players", response_model=TablePlayersAnswer)
async def players_at_table(request: Request, table: Readable) -> dict[str, Any]:
    """The players at the table's positions and their ratings, for the table page and the lobby (a private table:
    with its invite or a seat token, as every ``GET`` of it)."""
    rows = await _store(request).read(_table_players, _store(request), table.id)
    return {"players": [{"position": r["position"], "rating": r["rating"],
                         "player": None if r["player"] is None else _ref(r["player"], r["name"])} for r in rows]}


# ------------------------------------------------------------------ replays
def _load(store: Store, table_id: str, deal_no: int) -> dict[str, Any] | None:
    with store.engine.connect() as conn:
        return stored_record(conn, table_id, deal_no)


async def _replayable(request: Request, table_id: str, deal_no: int) -> tuple[dict[str, Any], int | None]:
    """The stored finished deal and your position at it, if you may see it; else the error why not."""
    if len(table_id) > 32:
        raise TableError(ErrorCode.NO_DEAL, f"there is no finished deal {deal_no} at table {table_id[:32]!r}", 404)
    stored = await _store(request).read(_load, _store(request), table_id, deal_no)
    if stored is None:
        raise TableError(ErrorCode.NO_DEAL, f"there is no finished deal {deal_no} at table {table_id!r} (a deal "
                         "being played is shown when it is over)", 404)
    me = await _me(request)
    you = next((p for p, key in enumerate(stored["players"]) if me is not None and key == me), None)
    if you is None and not (stored["closed"] and request.app.state.public_replays):
        why = ("replays of other people's deals are switched off on this server" if stored["closed"] else
               "its table is still open: a deal is shown to those who did not play it once its table is closed")
        raise TableError(ErrorCode.REPLAY_PRIVATE, f"deal {deal_no} of table {table_id} is not yours to see: {why}",
                         403)
    return stored, you


@router.get("/api/replays/{table_id}/{deal_no}.iss", response_class=PlainTextResponse)
async def replay_iss(request: Request, table_id: str, deal_no: int) -> PlainTextResponse:
    """The finished deal as an ISS record (the same rules as its replay); ``422 no_iss_record``. (Routed before the
    replay itself, whose ``{deal_no}`` would take ``1.iss``.)"""
    stored, _ = await _replayable(request, table_id, deal_no)
    kind = table_game(str(stored["settings"].get("variant", "standard")))
    if kind.no_iss_record is not None:
        raise TableError(ErrorCode.NO_ISS_RECORD, kind.no_iss_record, 422)
    record = stored["record"]
    try:
        text = to_iss(from_record(record), **iss_header(record))
    except ValueError as exc:
        raise TableError(ErrorCode.NO_ISS_RECORD, f"deal {deal_no} cannot be written as an ISS record: {exc}", 422) \
            from None
    return PlainTextResponse(text, headers={
        "Content-Disposition": f'attachment; filename="skat-{table_id}-{deal_no}.sgf"'})


@router.get("/api/replays/{table_id}/{deal_no}", response_model=ReplayAnswer)
async def replay(request: Request, table_id: str, deal_no: int) -> dict[str, Any]:
    """A finished deal step by step (docs/history.md). ``404 no_deal`` for none (a running deal is none yet);
    ``403 replay_private`` for a deal of somebody else at a table still open (or replays switched off)."""
    stored, you = await _replayable(request, table_id, deal_no)
    settings = stored["settings"]
    kind = table_game(str(settings.get("variant", "standard")))
    steps = await asyncio.to_thread(replay_steps, stored["record"])
    return {"table_id": table_id, "deal_no": deal_no, "table_name": stored["record"]["table"]["name"],
            "table_closed": stored["closed"], "variant": settings.get("variant", "standard"),
            "ruleset": settings.get("ruleset", ""), "record": stored["record"], "steps": steps,
            "result": stored["result"], "sheet_row": stored["sheet_row"], "you": you,
            "analysable": kind.no_analysis is None, "iss": kind.no_iss_record is None}


@router.get("/api/replays/{table_id}/{deal_no}/analysis")
async def replay_analysis(request: Request, table_id: str, deal_no: int,
                          cache: Annotated[AnalysisCache, Depends(analyses)]) -> dict[str, Any]:
    """The double-dummy analysis of the finished deal (docs/analysis.md), as for an open table's deal."""
    stored, _ = await _replayable(request, table_id, deal_no)
    kind = table_game(str(stored["settings"].get("variant", "standard")))
    if kind.no_analysis is not None:
        raise TableError(ErrorCode.NO_ANALYSIS, kind.no_analysis, 422)
    return await cache.get(table_id, deal_no, stored["record"], stored["record"]["table"]["name"])


HISTORY_MODELS: tuple[type[BaseModel], ...] = (PlayerRef, MeAnswer, HistoryDeal, HistoryAnswer, Rating, FormGame,
                                               StatsAnswer, RatingPoint, RatingsAnswer, LeaderRow, LeaderboardAnswer,
                                               ReplayStep, ReplayAnswer, TablePlayer, TablePlayersAnswer)
"""The models of this router, for the OpenAPI description and the protocol's schema."""
