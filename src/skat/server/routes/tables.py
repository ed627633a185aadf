"""The tables' REST routes (docs/protocol.md, "REST API"): the lobby, a new table, join, close, the score sheet,
the finished deals and their records. At a private table every ``GET`` needs its invite or a seat token
(:func:`skat.server.routes.deps.readable`)."""

from __future__ import annotations

import asyncio
import json
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import PlainTextResponse, Response

from skat.records.iss import to_iss
from skat.server.core import TableError
from skat.server.errors import ErrorCode
from skat.server.games import request_fields
from skat.server.routes.accounts import account_name, accounts, link_seat, signed_in
from skat.server.routes.bodies import ERRORS, body, documented
from skat.server.routes.deps import Manager, Readable
from skat.server.routes.models import (
    CloseRequest,
    CreateTableRequest,
    GamesAnswer,
    Joined,
    JoinRequest,
    LobbyAnswer,
    SheetAnswer,
    TableClosed,
    TableCreated,
    TableInfo,
)
from skat.variants.registry import from_record

__all__ = ["router", "iss_header"]

router = APIRouter(responses=ERRORS)


@router.get("/api/tables", response_model=LobbyAnswer, response_model_exclude_unset=True)
async def list_tables(tables: Manager) -> dict[str, Any]:
    """The lobby: the open public tables (of every server process)."""
    await tables.restored()
    return {"tables": await tables.lobby_tables()}


@router.post("/api/tables", status_code=201, response_model=TableCreated, response_model_exclude_unset=True,
             openapi_extra=documented(CreateTableRequest))
async def create_table(tables: Manager, http: Request, response: Response,
                       request: Annotated[CreateTableRequest, Depends(body(CreateTableRequest))]) -> dict[str, Any]:
    """A new table; the creator's seat token (with ``claim``), and at a private table its invite (given once).
    The creator's seat is marked as the signed-in account's (and named as the account), else as this browser's guest
    seat (docs/accounts.md)."""
    signed_name = await account_name(http)
    table, seat = await tables.create_table(
        name=request.name, seats=request.seats, ruleset=None if request.ruleset is None else str(request.ruleset),
        variant=str(request.variant), **{key: getattr(request, key, None) for key in request_fields()},
        deals=request.deals, player_name=signed_name or request.player_name,
        claim=request.claim, options=request.options, seed=request.seed, public=request.public,
        hints=request.hints, clock=request.clock)
    await table.after_change()
    await link_seat(http, response, table.id, seat["position"])
    url = f"/t/{table.id}"
    return {**seat, "table": table.public_info(), "url": url,
            "invite_url": url if seat["invite"] is None else f"{url}#invite={seat['invite']}"}


@router.get("/api/tables/{table_id}", response_model=TableInfo, response_model_exclude_unset=True)
async def table_info(table: Readable) -> dict[str, Any]:
    return table.public_info()


@router.post("/api/tables/{table_id}/join", response_model=Joined, response_model_exclude_unset=True,
             openapi_extra=documented(JoinRequest))
async def join(table_id: str, tables: Manager, http: Request, response: Response,
               request: Annotated[JoinRequest, Depends(body(JoinRequest))]) -> dict[str, Any]:
    """Take a free seat (at a private table with its ``invite``); the seat's token, given once. The seat is marked
    as the signed-in account's (and named as the account), else as this browser's guest seat."""
    joiner = await signed_in(http, accounts(http))
    await asyncio.to_thread(http.app.state.friends.check_join, None if joiner is None else joiner.id, table_id)
    out = await tables.join(table_id, name=await account_name(http) or request.name, position=request.position, invite=request.invite)
    await link_seat(http, response, table_id, out["position"])
    table = await tables.table(table_id)
    table.touch()
    await table.after_change()
    return out


@router.post("/api/tables/{table_id}/close", response_model=TableClosed, openapi_extra=documented(CloseRequest))
async def close(table_id: str, tables: Manager,
                request: Annotated[CloseRequest, Depends(body(CloseRequest))]) -> TableClosed:
    """A seated person closes the table for good (its records stay)."""
    await tables.close(table_id, request.token)
    return TableClosed(table_id=table_id, closed=True)


@router.get("/api/tables/{table_id}/sheet", response_model=SheetAnswer, response_model_exclude_unset=True)
async def sheet(table: Readable) -> dict[str, Any]:
    return {"table": table.public_info(), "sheet": table.series.sheet()}


@router.get("/api/tables/{table_id}/sheet.json", response_class=Response)
async def sheet_download(table_id: str, table: Readable) -> Response:
    """The score sheet with every finished deal's result, as a download."""
    body = {"table": {"id": table.id, "name": table.name, "players": [s.name for s in table.seats],
                      "ruleset": table.settings.get("ruleset")},
            "sheet": table.series.sheet(), "games": table.game_results()}
    return Response(json.dumps(body, indent=1), media_type="application/json",
                    headers={"Content-Disposition": f'attachment; filename="skat-{table_id}-sheet.json"'})


@router.get("/api/tables/{table_id}/sheet.csv", response_class=Response)
async def sheet_csv_download(table_id: str, table: Readable) -> Response:
    """The score sheet for a spreadsheet (UTF-8 with a byte order mark: umlauts and Cyrillic names read right)."""
    text = table.game_kind.sheet_csv(table.series.sheet(), [s.name for s in table.seats])
    return Response("\ufeff" + text, media_type="text/csv; charset=utf-8",
                    headers={"Content-Disposition": f'attachment; filename="skat-{table_id}-sheet.csv"'})


@router.get("/api/tables/{table_id}/games", response_model=GamesAnswer, response_model_exclude_unset=True)
async def games(table: Readable) -> dict[str, Any]:
    """The finished deals: each one's result and sheet row."""
    return {"games": table.game_results()}


@router.get("/api/tables/{table_id}/games/{deal_no}.json", response_class=Response)
async def game_json(table_id: str, deal_no: int, table: Readable) -> Response:
    """A finished deal's JSON record (``skat.Game.to_record()`` with a ``table`` block)."""
    record = await table.finished_record(deal_no)
    return Response(json.dumps(record, indent=1), media_type="application/json",
                    headers={"Content-Disposition": f'attachment; filename="skat-{table_id}-{deal_no}.json"'})


@router.get("/api/tables/{table_id}/games/{deal_no}.iss", response_class=PlainTextResponse)
async def game_iss(table_id: str, deal_no: int, table: Readable) -> PlainTextResponse:
    """A finished deal as an ISS record; ``422 no_iss_record`` for a deal the format cannot write."""
    record = await table.finished_record(deal_no)
    if table.game_kind.no_iss_record is not None:
        raise TableError(ErrorCode.NO_ISS_RECORD, table.game_kind.no_iss_record, 422)
    try:
        text = to_iss(from_record(record), **iss_header(record))
    except ValueError as exc:  # a deal the ISS format has no notation for (e.g. a pushed Ramsch skat)
        raise TableError(ErrorCode.NO_ISS_RECORD, f"deal {deal_no} cannot be written as an ISS record: {exc}; "
                         "download its JSON record instead", 422) from None
    return PlainTextResponse(text, headers={
        "Content-Disposition": f'attachment; filename="skat-{table_id}-{deal_no}.sgf"'})


def iss_header(record: dict[str, Any]) -> dict[str, Any]:
    """The players' names (by game seat), deal number and table name of a table's record for its ISS header;
    characters the ISS format cannot hold in a value (``]``, line breaks) become ``)`` and spaces."""
    block = record.get("table") or {}

    def clean(text: Any) -> str:
        return str(text).replace("]", ")").replace("\r", " ").replace("\n", " ")

    header: dict[str, Any] = {"game_id": int(block.get("deal_no") or 0), "comment": clean(block.get("name", ""))}
    players = block.get("players")
    if isinstance(players, list) and len(players) == 3:
        header["players"] = [clean(name) for name in players]
    return header
