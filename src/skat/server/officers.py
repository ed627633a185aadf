"""Officers' Skat (two players) in the browser: one person against :class:`~skat.officers.OfficersBot`.

Include :data:`router` in the app; the page is served at ``/officers`` and loads its script and style
from ``/static/`` (``officers.js``, ``officers.css``, and the card faces of ``cards.js``/``style.css``).

Tables live IN MEMORY only (a dict in this process): they are lost when the server stops, and are
not shared between server processes. Old tables are dropped when more than :data:`MAX_TABLES` exist.

API (every response of a seat holds only ``OfficersGame.view(seat).to_json()`` and the seat's legal
action tokens, so a face-down card the seat may not see never leaves the server):

- ``POST /api/officers/tables`` ``{"variant": "classic", "seed": 7, "options": {...}, "seat": 0}``
  -> ``{"table", "token", "seat", "seq", "view", "legal"}``. Keep ``token`` secret: it is the seat.
- ``GET /api/officers/tables/{table}`` with header ``X-Seat-Token`` -> the seat's state.
- ``POST /api/officers/tables/{table}/actions`` ``{"action": "declare hearts", "seq": 3}`` -> the state after
  the action and the computer's answers. ``seq`` must be the state's ``seq`` (else 409: stale).
- ``POST /api/officers/tables/{table}/next`` -> the next game (seats swap, so the deal alternates).
"""

from __future__ import annotations

import asyncio
import secrets
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fastapi import APIRouter, FastAPI, Header, HTTPException
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field

from skat.errors import IllegalActionError, OutOfTurnError, WrongPhaseError
from skat.officers import OfficersBot, OfficersGame, Phase, parse_officers_action
from skat.officers.options import VARIANTS

__all__ = ["router", "OfficersTable", "TABLES", "MAX_TABLES", "PAGE", "create_officers_app", "page_url"]

PAGE = Path(__file__).resolve().parent.parent / "web" / "static" / "officers.html"
MAX_TABLES = 500
"""At most this many tables are kept in memory; the oldest go first."""

router = APIRouter()


@dataclass
class OfficersTable:
    """One in-memory table: the game, the person's seat and secret token, the computer opponent."""

    table_id: str
    token: str
    variant: str
    options: dict[str, Any]
    seed: int | None
    person: int
    game: OfficersGame
    bot: OfficersBot
    game_no: int = 1
    seq: int = 0
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    sheet: list[tuple[int, int]] = field(default_factory=list)
    """The series' score sheet: (person, computer) for every finished game, whatever seats they had."""

    def state(self) -> dict[str, Any]:
        """What the person's seat may know now, and the series' score sheet."""
        game = self.game
        if game.result is not None and len(self.sheet) < self.game_no:
            scores = game.result.scores
            self.sheet.append((scores[self.person], scores[1 - self.person]))
        view = game.view(self.person)
        return {
            "table": self.table_id, "seat": self.person, "seq": self.seq, "game_no": self.game_no,
            "variant": self.variant, "view": view.to_json(), "legal": [str(a) for a in view.legal_actions],
            "sheet": {"games": [list(row) for row in self.sheet],
                      "you": sum(row[0] for row in self.sheet), "computer": sum(row[1] for row in self.sheet)},
        }

    def bot_moves(self) -> None:
        """Let the computer act until it is the person's turn or the game is over (runs in a worker thread)."""
        bot_seat = 1 - self.person
        while self.game.phase is not Phase.FINISHED and self.game.to_move == bot_seat:
            self.game.apply(self.bot.choose(self.game.view(bot_seat)), bot_seat)


TABLES: OrderedDict[str, OfficersTable] = OrderedDict()


class CreateTable(BaseModel):
    """A new table: the variant, an optional seed for the deal, table options, the person's seat."""

    variant: str = "classic"
    seed: int | None = None
    options: dict[str, Any] = Field(default_factory=dict)
    seat: int = 0


class ActionRequest(BaseModel):
    """An action token of the seat (``declare hearts``, ``kontra``, ``pass``, ``18``, ``CJ``...)."""

    action: str
    seq: int


def _game(variant: str, seed: int | None, options: dict[str, Any]) -> OfficersGame:
    try:
        return OfficersGame(variant, seed=seed, **options)
    except (ValueError, TypeError) as exc:
        raise HTTPException(422, f"cannot start the game: {exc}") from None


def _table(table_id: str, token: str | None) -> OfficersTable:
    table = TABLES.get(table_id)
    if table is None:
        raise HTTPException(404, f"there is no Officers' Skat table {table_id!r} (tables are kept in memory only)")
    if not token or not secrets.compare_digest(token, table.token):
        raise HTTPException(403, "wrong or missing seat token (header X-Seat-Token)")
    return table


@router.get("/officers", include_in_schema=False)
async def officers_page() -> FileResponse:
    """The Officers' Skat page."""
    return FileResponse(PAGE)


@router.get("/api/officers/variants")
async def variants() -> dict[str, Any]:
    """The variants that can be played."""
    return {"variants": list(VARIANTS)}


@router.post("/api/officers/tables")
async def create_table(req: CreateTable) -> dict[str, Any]:
    """Open a table against the computer; the answer holds the secret seat token."""
    if req.seat not in (0, 1):
        raise HTTPException(422, f"seat must be 0 (forehand) or 1 (dealer), not {req.seat}")
    game = _game(req.variant, req.seed, req.options)
    table = OfficersTable(secrets.token_urlsafe(8), secrets.token_urlsafe(24), game.variant, dict(req.options),
                          req.seed, req.seat, game, OfficersBot(seed=req.seed))
    while len(TABLES) >= MAX_TABLES:
        TABLES.popitem(last=False)
    TABLES[table.table_id] = table
    async with table.lock:
        await run_in_threadpool(table.bot_moves)
        out = table.state()
    out["token"] = table.token
    return out


@router.get("/api/officers/tables/{table_id}")
async def get_state(table_id: str, x_seat_token: str | None = Header(default=None)) -> dict[str, Any]:
    """The seat's state."""
    table = _table(table_id, x_seat_token)
    async with table.lock:
        return table.state()


@router.post("/api/officers/tables/{table_id}/actions")
async def post_action(table_id: str, req: ActionRequest,
                      x_seat_token: str | None = Header(default=None)) -> dict[str, Any]:
    """Apply the person's action, then the computer's answers; an illegal action changes nothing."""
    table = _table(table_id, x_seat_token)
    async with table.lock:
        if req.seq != table.seq:
            raise HTTPException(409, f"stale action: the table is at seq {table.seq}, the action was for seq "
                                     f"{req.seq}; reload the state")
        game = table.game
        if game.phase is Phase.FINISHED:
            raise HTTPException(409, "the game is over: start the next game")
        if game.to_move != table.person:
            raise HTTPException(409, "it is not your turn: the computer is to move")
        try:
            action = parse_officers_action(req.action)
        except IllegalActionError as exc:
            raise HTTPException(422, f"cannot read the action {req.action!r}: {exc}") from None
        try:
            game.apply(action, table.person)
        except OutOfTurnError as exc:
            raise HTTPException(409, str(exc)) from None
        except (WrongPhaseError, IllegalActionError) as exc:
            raise HTTPException(422, f"{req.action!r} is not allowed now: {exc}") from None
        table.seq += 1
        await run_in_threadpool(table.bot_moves)
        return table.state()


@router.post("/api/officers/tables/{table_id}/next")
async def next_game(table_id: str, x_seat_token: str | None = Header(default=None)) -> dict[str, Any]:
    """Deal the next game once this one is over; the seats swap so forehand alternates."""
    table = _table(table_id, x_seat_token)
    async with table.lock:
        if table.game.phase is not Phase.FINISHED:
            raise HTTPException(409, "the game is still running: finish it first")
        seed = None if table.seed is None else table.seed + table.game_no
        table.game = _game(table.variant, seed, table.options)
        table.person = 1 - table.person
        table.game_no += 1
        table.seq += 1
        await run_in_threadpool(table.bot_moves)
        return table.state()


def create_officers_app() -> FastAPI:
    """A stand-alone app for ``skat play --variant officers``: this router, ``/api/health`` and ``/static``."""
    app = FastAPI(title="Officers' Skat")
    app.include_router(router)

    @app.get("/api/health", include_in_schema=False)
    async def health() -> dict[str, str]:
        return {"status": "ok"}

    app.mount("/static", StaticFiles(directory=PAGE.parent), name="static")
    return app


def page_url(base: str, variant: str = "classic", seed: int | None = None) -> str:
    """The address that opens the page and starts a table at once (``base`` like ``http://127.0.0.1:8000``)."""
    from urllib.parse import urlencode

    query = {"variant": variant, "start": "1"} | ({} if seed is None else {"seed": str(seed)})
    return f"{base.rstrip('/')}/officers?{urlencode(query)}"
