"""Officers' Skat (two players) in the browser: one person against :class:`~skat.variants.officers.OfficersBot`.

This is the older REST-polling API. The club server (:func:`skat.server.create_app`) plays Officers' Skat
at its server tables too (``POST /api/tables`` with ``"variant": "officers"``, the table WebSocket, the
``skat_*`` tables; docs/protocol.md "Officers' Skat tables"), and its page ``/officers`` starts new tables
there. This API stays for the stand-alone app (``skat play --variant officers``) and for the tables already
in ``officers_*``, which it keeps reading and writing (they are never dropped or migrated).

Include :data:`router` in the app; the page is served at ``/officers`` and loads its script and style
from ``/static/`` (``officers.js``, ``officers.css``, and the card faces of ``cards.js``/``style.css``).

Where tables are kept: an app whose ``app.state.officers`` is an :class:`OfficersTables` with a
:class:`~skat.server.store.Store` (``create_app`` of the club server does this with its database;
``create_officers_app(db_url)`` too) keeps every table IN THE DATABASE: the table (secret token's hash,
variant, options, seed, the person's seat, game number, seq, the series' sheet), each game as an
:meth:`OfficersGame.to_record` record and every action, committed before the answer goes out. A
restarted server rebuilds the :data:`MAX_TABLES` most recently changed open tables at start-up (any other
open one when it is first asked for; a closed one never), and the computer goes on where it stopped, at
the person's next request:
its decisions are drawn from the table's ``bot_seed``, the game number and the number of actions, so a
restart does not change the game. A write the database refuses answers 503 and changes nothing.
Server processes on one database share the tables: before each request a process compares the table's
stored game number and action count with its copy and reloads it when another process moved on; of two
processes writing the same action at once, the second gets 409 and nothing changes.

An app without ``app.state.officers`` (or ``create_officers_app()`` without a database) keeps its
tables IN MEMORY only (:data:`TABLES`, a dict in this process): they are lost when the server stops
and not shared between server processes. In memory at most :data:`MAX_TABLES` tables are kept; the
least recently used go first (with a database they are only unloaded).

A table is open until its player closes it (``/close``): then it is marked closed in the database (its
games and actions stay stored), dropped from memory, and every later request for it is answered 410.

API (every response of a seat holds only ``OfficersGame.view(seat)`` in its wire form
(:func:`skat.records.wire.officers_view_to_json`) and the seat's legal
action tokens, so a face-down card the seat may not see never leaves the server):

- ``POST /api/officers/tables`` ``{"variant": "classic", "seed": 7, "options": {...}, "seat": 0}``
  -> ``{"table", "token", "seat", "seq", "view", "legal"}``. Keep ``token`` secret: it is the seat.
  ``seed`` (0 to 2**63-1, or left out for secret deals): game n is dealt from ``seed + n - 1``. Secret deals
  are shuffled from the operating system's randomness (:func:`secret_deck`), with no seed behind them.
- ``GET /api/officers/tables/{table}`` with header ``X-Seat-Token`` -> the seat's state.
- ``POST /api/officers/tables/{table}/actions`` ``{"action": "declare hearts", "seq": 3}`` -> the state after
  the action and the computer's answers. ``seq`` must be the state's ``seq`` (else 409: stale).
- ``POST /api/officers/tables/{table}/next`` -> the next game (seats swap, so the deal alternates).
- ``POST /api/officers/tables/{table}/close`` (header ``X-Seat-Token``) -> ``{"table", "closed": true}``:
  the person leaves and the table is closed for good, mid-game or not. Only the seat's token closes it
  (else 403; 404 for an unknown table); any request for a closed table, a second close too, gets 410.
  The page only asks and never receives pushes, so the other side (the computer) needs no notice; a
  second tab of the same seat learns it from the 410 of its next request.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import math
import secrets
from collections import OrderedDict
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, Depends, FastAPI, Header, HTTPException, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field, ValidationError
from sqlalchemy.exc import IntegrityError, SQLAlchemyError

from skat.errors import IllegalActionError, OutOfTurnError, WrongPhaseError
from skat.players.officers import OfficersBot
from skat.records.wire import action_tokens, officers_view_to_json, parse_token
from skat.rules.actions import Action
from skat.rules.deal import deck_order
from skat.server.errors import BadJSONError, ErrorBoundary, json_object
from skat.server.security import MAX_BODY_BYTES, Security
from skat.server.store import OfficersTableClosedError, Store, StoredOfficersTable
from skat.variants.officers.game import OfficersGame, Phase
from skat.variants.officers.options import SCHEMA as OFFICERS_SCHEMA
from skat.variants.officers.options import VARIANTS

__all__ = ["router", "OfficersTable", "OfficersTables", "TABLES", "MAX_TABLES", "PAGE", "create_officers_app",
           "page_url", "install_officers_errors"]

log = logging.getLogger("skat.server")

PAGE = Path(__file__).resolve().parent.parent / "web" / "static" / "officers.html"
MAX_TABLES = 500
"""At most this many tables are kept in memory; the least recently used go first.

This bounds memory, not the tables a server has: with a database the others stay there and load when
they are asked for, and start-up rebuilds only this many of the most recently used open tables. It stays
now that tables can be closed, because a person who just leaves the page never closes the table, and
without a database it is all that bounds this process's memory."""
MAX_CLOSED = 10_000
"""The ids of this many recently closed tables are kept in memory, so that a request for one is told it
was closed (410); with a database any older one is looked up there, without one it is then unknown (404)."""
MAX_SEED = 2**63 - 1
BOT_SEED_BITS = 63
"""Bits of a secret table's ``bot_seed``, drawn from the operating system (as many as the database's signed
BIGINT column holds). It steers the computer's choices only; a secret table's cards come from
:func:`secret_deck`."""
_DECK_ORDERS = math.factorial(32)

router = APIRouter()


def _hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass
class OfficersTable:
    """One table: the game, the person's seat and secret token's hash, the computer opponent, the sheet.

    With a ``store`` every change is written to the database before it counts."""

    table_id: str
    token_hash: str
    variant: str
    options: dict[str, Any]
    seed: int | None
    bot_seed: int
    person: int
    game: OfficersGame
    bot: OfficersBot
    game_no: int = 1
    seq: int = 0
    sheet: list[list[int]] = field(default_factory=list)
    """The series' score sheet: [person, computer] for every finished game, whatever seats they had."""
    store: Store | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    closed: bool = False
    """Set when the table is closed: a request that waited for the lock meanwhile is refused."""

    def load(self, stored: StoredOfficersTable) -> None:
        """Take the stored state (the current game rebuilt from its record), keeping this object and its lock."""
        self.game = OfficersGame.from_record(stored.record)
        self.person, self.game_no, self.seq = stored.person, stored.game_no, stored.seq
        self.sheet = [list(row) for row in stored.sheet]

    def state(self) -> dict[str, Any]:
        """What the person's seat may know now, and the series' score sheet."""
        view = self.game.view(self.person)
        return {
            "table": self.table_id, "seat": self.person, "seq": self.seq, "game_no": self.game_no,
            "variant": self.variant, "view": officers_view_to_json(view), "legal": action_tokens(view.legal_actions),
            "sheet": {"games": [list(row) for row in self.sheet],
                      "you": sum(row[0] for row in self.sheet), "computer": sum(row[1] for row in self.sheet)},
        }

    @property
    def bot_to_move(self) -> bool:
        """Whether the computer is to act."""
        return self.game.phase is not Phase.FINISHED and self.game.to_move == 1 - self.person

    def bot_moves(self) -> None:
        """Let the computer act until it is the person's turn or the game is over (runs in a worker thread).

        Each decision is drawn from the table's ``bot_seed``, the game number and the actions so far,
        so the computer plays the same after a restart; each action is stored as it is applied."""
        bot_seat = 1 - self.person
        while self.bot_to_move:
            self.bot.rng.seed(f"{self.bot_seed}:{self.game_no}:{len(self.game.history)}")
            self._apply(bot_seat, self.bot.choose(self.game.view(bot_seat)), self.seq)

    def person_acts(self, action: Action) -> None:
        """Apply the person's action (the engine's error says why one is refused) and store it."""
        self._apply(self.person, action, self.seq + 1)

    def _apply(self, seat: int, action: Action, seq: int) -> None:
        """Apply, then store (with the new ``seq``, and the record and sheet when the game ends); when the
        store fails, the table is as before and the error goes up."""
        before, sheet = self.game.copy(), list(self.sheet)
        self.game.apply(action, seat)
        finished = None
        if self.game.result is not None:
            scores = self.game.result.scores
            self.sheet.append([scores[self.person], scores[1 - self.person]])
            finished = self.game.to_record()
        if self.store is not None:
            try:
                self.store.add_officers_action(self.table_id, self.game_no, len(self.game.history) - 1, seat,
                                               str(action), seq=seq if seq != self.seq else None,
                                               finished=finished, sheet=self.sheet if finished else None)
            except BaseException:
                self.game, self.sheet = before, sheet
                raise
        self.seq = seq

    def next_game(self) -> None:
        """Deal the next game (the seats swap, so forehand alternates) and store it."""
        if self.seed is None:
            game = OfficersGame(self.variant, deck=secret_deck(), **self.options)
        else:
            game = OfficersGame(self.variant, seed=self.seed + self.game_no, **self.options)
        person, game_no, seq = 1 - self.person, self.game_no + 1, self.seq + 1
        if self.store is not None:
            self.store.next_officers_game(self.table_id, game_no, person, seq, game.to_record())
        self.game, self.person, self.game_no, self.seq = game, person, game_no, seq


class OfficersTables:
    """The Officers' Skat tables of a server: in memory, and in the database when a ``store`` is given."""

    def __init__(self, store: Store | None = None, max_tables: int = MAX_TABLES) -> None:
        self.store = store
        self.max_tables = max_tables
        self.tables: OrderedDict[str, OfficersTable] = OrderedDict()
        self.closed: OrderedDict[str, str] = OrderedDict()
        """Recently closed tables: id -> seat token's hash (at most :data:`MAX_CLOSED`)."""

    def create(self, variant: str, seed: int | None, options: dict[str, Any], seat: int) -> tuple[OfficersTable, str]:
        """A new table against the computer; returns it and the person's secret token."""
        if seat not in (0, 1):
            raise HTTPException(422, f"seat must be 0 (forehand) or 1 (dealer), not {seat}")
        if seed is not None and not 0 <= seed <= MAX_SEED:
            raise HTTPException(422, f"seed must be a whole number from 0 to 2**63-1 (or left out), not {seed}")
        game = _game(variant, seed, options)
        token = secrets.token_urlsafe(24)
        bot_seed = secrets.randbits(BOT_SEED_BITS) if seed is None else seed
        table = OfficersTable(secrets.token_urlsafe(8), _hash_token(token), game.variant, dict(options), seed,
                              bot_seed, seat, game, OfficersBot(seed=bot_seed), store=self.store)
        if self.store is not None:
            try:
                self.store.create_officers_table(
                    table.table_id, token_hash=table.token_hash, variant=table.variant, options=table.options,
                    seed=seed, bot_seed=bot_seed, person=seat, record=game.to_record())
            except SQLAlchemyError as exc:
                raise _store_failed(exc) from None
        self._keep(table)
        return table, token

    def get(self, table_id: str, token: str | None) -> OfficersTable:
        """The table (from memory, else from the database) if ``token`` is its seat token.

        404 for an unknown table, 403 for a wrong token, 410 (to the seat only) for a closed table."""
        table = self.tables.get(table_id)
        closed_hash = self.closed.get(table_id)
        if table is not None:
            self.tables.move_to_end(table_id)
        elif closed_hash is None and self.store is not None:
            try:
                stored = self.store.load_officers_table(table_id)
            except SQLAlchemyError as exc:
                raise _store_failed(exc) from None
            if stored is not None and stored.closed:
                closed_hash = stored.token_hash
            elif stored is not None:
                table = self._keep(self._build(stored))
        if table is None and closed_hash is None:
            where = "" if self.store is not None else " (this server keeps its tables in memory only)"
            raise HTTPException(404, f"there is no Officers' Skat table {table_id!r}{where}")
        token_hash = table.token_hash if table is not None else closed_hash
        if not token or not secrets.compare_digest(_hash_token(token), token_hash or ""):
            raise HTTPException(403, "wrong or missing seat token (header X-Seat-Token)")
        if table is None:
            raise _closed(table_id)
        return table

    async def close(self, table: OfficersTable) -> None:
        """Close ``table`` for good (hold its lock; the seat token was checked): stored as closed in one
        transaction (in a worker thread), then dropped from memory. 410 when it is closed already (here or
        by another server process)."""
        if table.closed:
            raise _closed(table.table_id)
        if self.store is not None:
            try:
                closed_now = await run_in_threadpool(self.store.close_officers_table, table.table_id)
            except SQLAlchemyError as exc:
                raise _store_failed(exc) from None
            if not closed_now:  # another server process closed it first
                self._forget(table)
                raise _closed(table.table_id)
        self._forget(table)

    def _forget(self, table: OfficersTable) -> None:
        """Mark ``table`` closed and drop it from memory, remembering its id (and token's hash) for the 410."""
        table.closed = True
        if self.tables.get(table.table_id) is table:
            del self.tables[table.table_id]
        self.closed[table.table_id] = table.token_hash
        self.closed.move_to_end(table.table_id)
        while len(self.closed) > MAX_CLOSED:
            self.closed.popitem(last=False)

    def refresh(self, table: OfficersTable) -> None:
        """Reload ``table`` in place when another server process changed it in the database (hold its lock);
        410 when it was closed, here or by another process."""
        if table.closed:
            raise _closed(table.table_id)
        if self.store is None:
            return
        version = self.store.officers_version(table.table_id)
        if version is not None and version[2]:  # another server process closed it
            self._forget(table)
            raise _closed(table.table_id)
        if version is not None and version[:2] != (table.game_no, len(table.game.history)):
            stored = self.store.load_officers_table(table.table_id)
            if stored is not None:
                table.load(stored)

    def restore(self) -> int:
        """Rebuild the ``max_tables`` most recently changed open tables from the database (after a restart);
        returns how many. Closed tables are never rebuilt."""
        if self.store is None:
            return 0
        count = 0
        for stored in self.store.load_officers_tables(limit=self.max_tables):
            try:
                self._keep(self._build(stored))
                count += 1
            except Exception:  # the others are served; this one is logged
                log.exception("Officers' Skat table %s could not be restored", stored.id)
        return count

    def _build(self, stored: StoredOfficersTable) -> OfficersTable:
        return OfficersTable(stored.id, stored.token_hash, stored.variant, stored.options, stored.seed,
                             stored.bot_seed, stored.person, OfficersGame.from_record(stored.record),
                             OfficersBot(seed=stored.bot_seed), game_no=stored.game_no, seq=stored.seq,
                             sheet=[list(row) for row in stored.sheet], store=self.store)

    def _keep(self, table: OfficersTable) -> OfficersTable:
        self.tables[table.table_id] = table
        self.tables.move_to_end(table.table_id)
        if len(self.tables) > self.max_tables:
            idle = [tid for tid, t in self.tables.items() if not t.lock.locked() and tid != table.table_id]
            for tid in idle[: len(self.tables) - self.max_tables]:
                del self.tables[tid]
        return table


MEMORY = OfficersTables()
"""The tables of apps that include :data:`router` without setting ``app.state.officers``."""
TABLES = MEMORY.tables
"""The in-memory tables of :data:`MEMORY` by id."""


def officers_tables(request: Request) -> OfficersTables:
    """The app's :class:`OfficersTables` (``app.state.officers``), else the in-memory :data:`MEMORY`."""
    return getattr(request.app.state, "officers", None) or MEMORY


Tables = Annotated[OfficersTables, Depends(officers_tables)]


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


def secret_deck() -> list[int]:
    """A deck for a secret deal, shuffled from the operating system's randomness (:func:`secrets.randbelow`
    over all 32! orders): no seed stands behind it, so the cards of one game tell nothing of the next. The
    game's record keeps the deck (and ``seed: null``), which is all a restart needs."""
    return deck_order(secrets.randbelow(_DECK_ORDERS))


class BadBodyError(HTTPException):
    """400 for a request body that is no JSON object; answered ``{"error": "bad_json", "message", "detail"}``
    by the handler of :func:`install_officers_errors` (``{"detail"}`` alone in an app without it)."""

    code = "bad_json"


def install_officers_errors(app: FastAPI) -> None:
    """Let ``app`` answer a malformed Officers' request body with the documented ``bad_json`` code."""

    @app.exception_handler(BadBodyError)
    async def bad_body(_request: Request, exc: BadBodyError) -> JSONResponse:
        return JSONResponse({"error": exc.code, "message": exc.detail, "detail": exc.detail}, status_code=400)


def _body(model: type[BaseModel]) -> Any:
    """A dependency reading the request body as ``model``: 400 ``bad_json`` for a body that is no JSON object
    (invalid UTF-8 or JSON, nested too deeply, an array...), 422 for an object that does not fit."""

    async def read(request: Request) -> BaseModel:
        try:
            data = json_object(await request.body())
        except BadJSONError as exc:
            raise BadBodyError(400, str(exc)) from None
        try:
            return model.model_validate(data)
        except ValidationError as exc:
            raise RequestValidationError(exc.errors(include_url=False)) from None

    return Depends(read)


CreateBody = Annotated[CreateTable, _body(CreateTable)]
ActionBody = Annotated[ActionRequest, _body(ActionRequest)]

def _game(variant: str, seed: int | None, options: dict[str, Any]) -> OfficersGame:
    """The table's first game; options are checked by :data:`skat.variants.officers.options.SCHEMA` first (so no
    other keyword, such as ``deck``, gets through), and nothing is created when one is refused (422)."""
    try:
        OFFICERS_SCHEMA.check_changes(options)
        if seed is None:
            return OfficersGame(variant, deck=secret_deck(), **options)
        return OfficersGame(variant, seed=seed, **options)
    except (ValueError, TypeError) as exc:
        raise HTTPException(422, f"cannot start the game: {exc}") from None


def _closed(table_id: str) -> HTTPException:
    return HTTPException(410, f"the Officers' Skat table {table_id!r} was closed by its player, so nothing more "
                              "can be done at it; start a new table")


def _store_failed(exc: SQLAlchemyError) -> HTTPException:
    log.error("Officers' Skat: the database refused a write: %s", exc)
    return HTTPException(503, "the table could not be saved in the database, so nothing changed; try again")


async def _catch_up(tables: OfficersTables, table: OfficersTable) -> None:
    """Bring the table up to date (hold its lock): reload it when another server process changed it, and
    let the computer make the moves still owed (after a restart, or after a failed write)."""
    try:
        tables.refresh(table)
    except SQLAlchemyError as exc:
        raise _store_failed(exc) from None
    if table.bot_to_move:
        await _stored(tables, table, table.bot_moves)


async def _stored(tables: OfficersTables, table: OfficersTable, change: Any) -> None:
    """Run a change of ``table`` in a worker thread; a database error becomes a clear answer."""
    try:
        await run_in_threadpool(change)
    except OfficersTableClosedError:  # another server process closed it meanwhile; nothing was stored
        tables._forget(table)
        raise _closed(table.table_id) from None
    except IntegrityError:  # another server process stored this action first; the next request reloads
        raise HTTPException(409, "this table was changed by another server process at the same moment, so "
                                 "nothing changed; reload the state") from None
    except SQLAlchemyError as exc:
        raise _store_failed(exc) from None


@router.get("/officers", include_in_schema=False)
async def officers_page() -> FileResponse:
    """The Officers' Skat page."""
    return FileResponse(PAGE)


@router.get("/api/officers/variants")
async def variants() -> dict[str, Any]:
    """The variants that can be played."""
    return {"variants": list(VARIANTS)}


@router.post("/api/officers/tables")
async def create_table(tables: Tables, req: CreateBody) -> dict[str, Any]:
    """Open a table against the computer; the answer holds the secret seat token."""
    table, token = tables.create(req.variant, req.seed, req.options, req.seat)
    async with table.lock:
        await _catch_up(tables, table)
        out = table.state()
    out["token"] = token
    return out


@router.get("/api/officers/tables/{table_id}")
async def get_state(table_id: str, tables: Tables,
                    x_seat_token: str | None = Header(default=None)) -> dict[str, Any]:
    """The seat's state."""
    table = tables.get(table_id, x_seat_token)
    async with table.lock:
        await _catch_up(tables, table)
        return table.state()


@router.post("/api/officers/tables/{table_id}/actions")
async def post_action(table_id: str, tables: Tables, req: ActionBody,
                      x_seat_token: str | None = Header(default=None)) -> dict[str, Any]:
    """Apply the person's action, then the computer's answers; an illegal action changes nothing."""
    table = tables.get(table_id, x_seat_token)
    async with table.lock:
        await _catch_up(tables, table)
        if req.seq != table.seq:
            raise HTTPException(409, f"stale action: the table is at seq {table.seq}, the action was for seq "
                                     f"{req.seq}; reload the state")
        game = table.game
        if game.phase is Phase.FINISHED:
            raise HTTPException(409, "the game is over: start the next game")
        if game.to_move != table.person:
            raise HTTPException(409, "it is not your turn: the computer is to move")
        try:
            action = parse_token(req.action, "officers")
        except IllegalActionError as exc:
            raise HTTPException(422, f"cannot read the action {req.action!r}: {exc}") from None
        try:
            await _stored(tables, table, lambda: table.person_acts(action))
        except OutOfTurnError as exc:
            raise HTTPException(409, str(exc)) from None
        except (WrongPhaseError, IllegalActionError) as exc:
            raise HTTPException(422, f"{req.action!r} is not allowed now: {exc}") from None
        await _catch_up(tables, table)
        return table.state()


@router.post("/api/officers/tables/{table_id}/next")
async def next_game(table_id: str, tables: Tables,
                    x_seat_token: str | None = Header(default=None)) -> dict[str, Any]:
    """Deal the next game once this one is over; the seats swap so forehand alternates."""
    table = tables.get(table_id, x_seat_token)
    async with table.lock:
        await _catch_up(tables, table)
        if table.game.phase is not Phase.FINISHED:
            raise HTTPException(409, "the game is still running: finish it first")
        await _stored(tables, table, table.next_game)
        await _catch_up(tables, table)
        return table.state()


@router.post("/api/officers/tables/{table_id}/close")
async def close_table(table_id: str, tables: Tables,
                      x_seat_token: str | None = Header(default=None)) -> dict[str, Any]:
    """The person leaves: the table is closed for good (stored so), mid-game or not; its records stay."""
    table = tables.get(table_id, x_seat_token)
    async with table.lock:
        await tables.close(table)
    return {"table": table_id, "closed": True}


def create_officers_app(db_url: str | None = None, *, max_body: int = MAX_BODY_BYTES) -> FastAPI:
    """A stand-alone app for ``skat play --variant officers``: this router, ``/api/health`` and ``/static``.

    With ``db_url`` (as for ``skat serve --db``) the tables are kept in that database and the open ones
    are rebuilt now; without it they live in this app's memory only."""
    store = None if db_url is None else Store(db_url)
    tables = OfficersTables(store)
    restored = tables.restore()
    if restored:
        log.info("restored %d Officers' Skat table(s) from %s", restored, store.url if store else "")

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        try:
            yield
        finally:
            if store is not None:
                store.close()

    app = FastAPI(title="Officers' Skat", lifespan=lifespan)
    app.state.officers = tables
    app.include_router(router)
    install_officers_errors(app)
    app.add_middleware(ErrorBoundary)
    app.add_middleware(Security, max_body=max_body)  # outermost: headers, JSON-only bodies, the body limit

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
