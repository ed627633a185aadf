"""Club tournaments on the server (docs/keeper-server.md, "Tournaments"): players registered, series drawn,
one score keeper's list per table (:mod:`skat.server.keeper`), and the live ranking over all series.

The library decides (:class:`skat.table.tournament.Tournament`: the draw, the tables' lists, the ranking
with its tie-breaks); this module stores the tournament in the ``tournaments`` table (its
:meth:`~Tournament.to_json` without the lists, and each table's list id) and its tables' lists in
``keeper_lists``. Every change (register, withdraw, draw a series) runs in the writer thread in one
transaction that reads the tournament (``FOR UPDATE`` on PostgreSQL) and its lists, changes it with the
library and writes it back with the new lists; the notice ``{"tn": id}`` tells the other processes, whose
followers (``/ws/tournament/{id}``) then get the new state. A table's key is derived from the director's
(:func:`skat.server.keeper.table_key`): the server stores no key in the clear.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import secrets
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Header, WebSocket
from fastapi.responses import FileResponse, Response
from sqlalchemy import insert, select, update
from sqlalchemy.engine import Connection
from starlette.requests import HTTPConnection

from skat.server.core import TableError, hash_token, new_secret
from skat.server.errors import ErrorCode
from skat.server.keeper import KeeperService, new_list_row, print_language, serve_followers, table_key
from skat.server.routes.bodies import ERRORS, body, documented
from skat.server.routes.models import (
    DrawAnswer,
    DrawRequest,
    KeysAnswer,
    RegisterRequest,
    TournamentCreated,
    TournamentCreateRequest,
    TournamentState,
)
from skat.server.store import Store, keeper_lists_t, tournaments_t
from skat.table.keeper import KeeperError
from skat.table.tournament import Tournament, TournamentError

__all__ = ["TournamentService", "router", "service", "KEY_HEADER"]

log = logging.getLogger("skat.server.tournament")

KEY_HEADER = "X-Tournament-Key"
PAGE = Path(__file__).resolve().parent.parent / "web" / "static" / "tournament.html"


class _NoTournament(TableError):
    def __init__(self, tid: str) -> None:
        super().__init__(ErrorCode.NO_TOURNAMENT, f"there is no tournament {tid!r} (a mistyped or cut-short link?)", 404)


def _check_id(tid: str) -> None:
    if not re.fullmatch(r"[0-9a-f]{32}", tid):
        raise _NoTournament(tid)


def _impossible(exc: Exception) -> TableError:
    return TableError(ErrorCode.IMPOSSIBLE, str(exc), 409)


class TournamentService:
    """The tournaments of one server process, their lists kept by ``lists`` (the keeper service)."""

    def __init__(self, store: Store, lists: KeeperService) -> None:
        self.store = store
        self.lists = lists
        lists.on_tournament = self._changed
        self._states: dict[str, tuple[tuple, dict[str, Any]]] = {}

    # ------------------------------------------------------------------ changes
    async def create(self, request: TournamentCreateRequest) -> dict[str, Any]:
        """A new tournament: ``name``, ``players``, ``ruleset``, ``games``; the answer holds its key, once."""
        try:
            t = Tournament(request.players, name=request.name.strip(), ruleset=request.ruleset, games=request.games)
        except (TournamentError, TypeError) as exc:
            raise _impossible(exc) from None
        tid = secrets.token_hex(16)
        key = new_secret(24)
        now = time.time()
        data = {"tournament": t.to_json(), "lists": []}
        row = {"id": tid, "name": t.name, "created": now, "updated": now, "key_hash": hash_token(key),
               "data": json.dumps(data, ensure_ascii=False), "seq": 0}

        def op(conn: Connection) -> None:
            conn.execute(insert(tournaments_t).values(**row))
        await self.store.write(op)
        return {**await self.state(tid), "key": key, "director_url": f"/tn/{tid}#key={key}"}

    async def change(self, tid: str, key: str | None, how: Callable[[Tournament], Any]) -> dict[str, Any]:
        """Change a tournament with the library (``how``), as its director; answers the new state."""
        _check_id(tid)
        await self._director(tid, key)
        assert key is not None
        director_key = key
        try:  # tried first on the tournament as read, so that an impossible change is answered without a write
            how(await self.tournament(tid))
        except (TournamentError, KeeperError) as exc:
            raise _impossible(exc) from None

        def op(conn: Connection) -> Any:
            row = self._locked_row(conn, tid)
            data = json.loads(row["data"])
            t = self._tournament(data, self._list_rows(conn, tid), conn)
            lists_before = len(t.series)
            try:
                answer = how(t)
            except (TournamentError, KeeperError) as exc:
                raise _impossible(exc) from None
            new_rows = []
            for number in range(lists_before + 1, len(t.series) + 1):
                ids = []
                for table in range(1, len(t.series[number - 1].draw) + 1):
                    keeper = t.table_keeper(number, table)
                    title = " — ".join(w for w in (t.name, f"series {number}", f"table {table}") if w)
                    list_row = new_list_row(title, keeper, lambda list_id: table_key(director_key, list_id),
                                            tournament=(tid, number, table))
                    new_rows.append(list_row)
                    ids.append(list_row["id"])
                data["lists"].append(ids)
            stored = t.to_json()
            for s in stored["series"]:
                s["tables"] = [None] * len(s["draw"])  # the lists live in keeper_lists
            data["tournament"] = stored
            conn.execute(update(tournaments_t).where(tournaments_t.c.id == tid).values(
                data=json.dumps(data, ensure_ascii=False), seq=row["seq"] + 1, updated=time.time()))
            if new_rows:
                conn.execute(insert(keeper_lists_t), new_rows)
            return answer
        await self.store.write(op, {"tn": tid})
        self._changed(tid)
        return await self.state(tid)

    async def register(self, tid: str, key: str | None, request: RegisterRequest) -> dict[str, Any]:
        """``{"register": name}`` or ``{"withdraw": name}``."""
        if request.register_ is not None:
            name = request.register_
            return await self.change(tid, key, lambda t: t.register(name))
        gone = request.withdraw
        assert gone is not None  # the model has one of the two
        return await self.change(tid, key, lambda t: t.withdraw(gone))

    async def draw(self, tid: str, key: str | None, request: DrawRequest) -> dict[str, Any]:
        """Draw the next series (by lot with ``seed``, or ``by_ranking``) and make its tables' lists."""
        seed, by_ranking = request.seed, request.by_ranking
        if seed is None:
            seed = secrets.randbits(63)
        state = await self.change(tid, key, lambda t: t.draw_series(seed, by_ranking=by_ranking))
        return {**state, "keys": (await self.keys(tid, key))["series"]}

    # ------------------------------------------------------------------ reads
    async def state(self, tid: str) -> dict[str, Any]:
        """The tournament as everybody may see it: settings, players, series with their tables' links, ranking."""
        _check_id(tid)
        row, lists = await self.store.read(self._load, tid)
        if row is None:
            raise _NoTournament(tid)
        version = (row["seq"], tuple((r["id"], r["seq"]) for r in lists))
        cached = self._states.get(tid)
        if cached is not None and cached[0] == version:
            return cached[1]
        data = json.loads(row["data"])
        t = await self.store.read(self._tournament, data, lists)
        by_id = {r["id"]: r for r in lists}
        series = []
        for number, (s, ids) in enumerate(zip(t.series, data["lists"], strict=True), 1):
            tables = []
            for table, (players, keeper, list_id) in enumerate(zip(s.draw, s.tables, ids, strict=True), 1):
                tables.append({"table": table, "players": list(players), "list": list_id, "url": f"/k/{list_id}",
                               "played": 0 if keeper is None else keeper.played,
                               "limit": t.games[len(players)], "seq": by_id[list_id]["seq"] if list_id in by_id else 0})
            series.append({"number": number, "tables": tables})
        state = {"id": tid, "name": t.name, "url": f"/tn/{tid}", "seq": row["seq"], "players": list(t.players),
                 "withdrawn": list(t.withdrawn), "active": t.active, "ruleset": t.ruleset,
                 "games": {str(k): v for k, v in sorted(t.games.items(), reverse=True)}, "series": series,
                 "ranking": [s.to_json() for s in t.ranking()]}
        self._states[tid] = (version, state)
        return state

    async def tournament(self, tid: str) -> Tournament:
        """The tournament with its tables' lists as they stand (for the printer)."""
        _check_id(tid)
        row, lists = await self.store.read(self._load, tid)
        if row is None:
            raise _NoTournament(tid)
        return await self.store.read(self._tournament, json.loads(row["data"]), lists)

    async def keys(self, tid: str, key: str | None) -> dict[str, Any]:
        """Each table's keeper link with its key (the director's answer)."""
        _check_id(tid)
        await self._director(tid, key)
        assert key is not None
        row, _ = await self.store.read(self._load, tid)
        if row is None:
            raise _NoTournament(tid)
        data = json.loads(row["data"])
        return {"series": [{"number": n, "tables": [
            {"table": i, "list": list_id, "keeper_url": f"/k/{list_id}#key={table_key(key, list_id)}"}
            for i, list_id in enumerate(ids, 1)]} for n, ids in enumerate(data["lists"], 1)]}

    # ------------------------------------------------------------------ followers
    def _changed(self, tid: str) -> None:
        """A tournament or one of its lists changed (here or at another process): tell its followers."""
        self._states.pop(tid, None)
        channel = "t:" + tid
        if not self.lists.followed(channel):
            return

        async def tell() -> None:
            try:
                state = await self.state(tid)
            except TableError:
                return
            self.lists.broadcast(channel, {"type": "tournament", **state})
        asyncio.get_running_loop().create_task(tell())

    # ------------------------------------------------------------------ internals
    async def _director(self, tid: str, key: str | None) -> None:
        if not key:
            raise TableError(ErrorCode.BAD_KEY, f"the director's key is needed (header {KEY_HEADER})", 403)
        row, _ = await self.store.read(self._load, tid)
        if row is None:
            raise _NoTournament(tid)
        if not secrets.compare_digest(hash_token(key), row["key_hash"]):
            raise TableError(ErrorCode.BAD_KEY, f"this key is not the director's key of tournament {tid}", 403)

    def _load(self, tid: str) -> tuple[dict[str, Any] | None, list[dict[str, Any]]]:
        with self.store.engine.connect() as conn:
            row = conn.execute(select(tournaments_t).where(tournaments_t.c.id == tid)).mappings().first()
            if row is None:
                return None, []
            return dict(row), self._list_rows(conn, tid)

    @staticmethod
    def _locked_row(conn: Connection, tid: str) -> dict[str, Any]:
        query = select(tournaments_t).where(tournaments_t.c.id == tid)
        row = conn.execute(query.with_for_update() if conn.dialect.name == "postgresql" else query).mappings().first()
        if row is None:
            raise _NoTournament(tid)
        return dict(row)

    @staticmethod
    def _list_rows(conn: Connection, tid: str) -> list[dict[str, Any]]:
        """The heads of the tournament's lists (id, seq, series, table; not the lists themselves)."""
        c = keeper_lists_t.c
        return [dict(r) for r in conn.execute(select(c.id, c.seq, c.series, c.table_no).where(
            c.tournament_id == tid)).mappings()]

    def _tournament(self, data: dict[str, Any], lists: list[dict[str, Any]],
                    conn: Connection | None = None) -> Tournament:
        """The tournament with its tables' lists (in a reader or the writer thread): each list as the keeper
        service keeps it in memory, read from the database only when it changed."""
        t = Tournament.from_json(data["tournament"])
        for r in lists:
            t.record(r["series"], r["table_no"], self.lists.kept(r, conn))
        return t


# ------------------------------------------------------------------ the routes
router = APIRouter(responses=ERRORS)


def service(connection: HTTPConnection) -> TournamentService:
    """The application's tournaments (``app.state.tournaments``)."""
    return connection.app.state.tournaments


Service = Annotated[TournamentService, Depends(service)]
DirectorKey = Annotated[str | None, Header(alias=KEY_HEADER, description="the director's key")]


@router.post("/api/tournaments", status_code=201, response_model=TournamentCreated,
             openapi_extra=documented(TournamentCreateRequest))
async def create_tournament(tournaments: Service, request: Annotated[TournamentCreateRequest,
                                                                     Depends(body(TournamentCreateRequest))]) -> Any:
    return await tournaments.create(request)


@router.get("/api/tournaments/{tid}", response_model=TournamentState)
async def tournament_state(tid: str, tournaments: Service) -> Any:
    return await tournaments.state(tid)


@router.post("/api/tournaments/{tid}/players", response_model=TournamentState,
             openapi_extra=documented(RegisterRequest, required=True))
async def tournament_players(tid: str, tournaments: Service,
                             request: Annotated[RegisterRequest, Depends(body(RegisterRequest))],
                             key: DirectorKey = None) -> Any:
    return await tournaments.register(tid, key, request)


@router.post("/api/tournaments/{tid}/series", response_model=DrawAnswer, openapi_extra=documented(DrawRequest))
async def tournament_series(tid: str, tournaments: Service,
                            request: Annotated[DrawRequest, Depends(body(DrawRequest))], key: DirectorKey = None) -> Any:
    return await tournaments.draw(tid, key, request)


@router.get("/api/tournaments/{tid}/keys", response_model=KeysAnswer)
async def tournament_keys(tid: str, tournaments: Service, key: DirectorKey = None) -> Any:
    return await tournaments.keys(tid, key)


@router.get("/api/tournaments/{tid}/ranking.csv", response_class=Response)
async def ranking_csv(tid: str, tournaments: Service) -> Response:
    from skat.table.printing import ranking_csv as csv_of

    t = await tournaments.tournament(tid)
    return Response("\ufeff" + csv_of(t), media_type="text/csv; charset=utf-8",
                    headers={"Content-Disposition": f'attachment; filename="skat-ranking-{tid[:8]}.csv"'})


@router.get("/api/tournaments/{tid}/ranking.pdf", response_class=Response)
async def ranking_pdf(tid: str, tournaments: Service, lang: str = "en") -> Response:
    from skat.table.printing import ranking_pdf as pdf_of

    print_language(lang)
    t = await tournaments.tournament(tid)
    pdf = await asyncio.to_thread(partial(pdf_of, t, lang=lang))
    return Response(pdf, media_type="application/pdf",
                    headers={"Content-Disposition": f'inline; filename="skat-ranking-{tid[:8]}.pdf"'})


@router.get("/api/tournaments/{tid}/series/{number}/lists.pdf", response_class=Response)
async def series_pdf(tid: str, number: int, tournaments: Service, blank: bool = False, lang: str = "en") -> Response:
    from skat.table.printing import series_tables_pdf

    print_language(lang)
    t = await tournaments.tournament(tid)
    try:
        pdf = await asyncio.to_thread(partial(series_tables_pdf, t, number, blank=blank, lang=lang))
    except TournamentError as exc:
        raise TableError(ErrorCode.NO_SERIES, str(exc), 404) from None
    return Response(pdf, media_type="application/pdf",
                    headers={"Content-Disposition": f'inline; filename="skat-series-{number}-{tid[:8]}.pdf"'})


@router.websocket("/ws/tournament/{tid}")
async def follow_tournament(ws: WebSocket, tid: str, tournaments: Service) -> None:
    """Follow a tournament: its state (with the live ranking) at once and after every change of it or its lists."""
    await serve_followers(ws, tournaments.lists, "t:" + tid, "tournament", lambda: tournaments.state(tid))


@router.get("/tournament", include_in_schema=False)
async def tournament_page() -> FileResponse:
    return FileResponse(PAGE, headers={"Cache-Control": "no-cache"})


@router.get("/tn/{tid}", include_in_schema=False)
async def tournament_table_page(tid: str) -> FileResponse:
    return FileResponse(PAGE, headers={"Cache-Control": "no-cache"})
