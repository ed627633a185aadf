"""The score keeper of real tables on the server: lists entered from a phone and followed by link
(docs/keeper-server.md).

The library decides (:class:`skat.table.keeper.ScoreKeeper`: every value, every refusal with its reason,
the history of every entry); this module stores and serves:

* :class:`KeeperService` keeps the lists in the store's ``keeper_lists`` and ``keeper_changes`` tables.
  A change request is applied in the store's writer thread inside one transaction that reads the list
  (``SELECT ... FOR UPDATE`` on PostgreSQL, so two server processes never apply changes to one list at
  once), applies each change with the library and writes the list, its ``seq`` and the accepted change
  ids together; a change id seen before answers what it answered then and changes nothing, which is
  how a page that entered games offline sends them again safely.
* Followers (``/ws/keeper/{id}``) get the list's state after every change: from this process at once,
  from another process through the notice ``{"kl": id}`` of the commit (PostgreSQL fan-out).
* :data:`router` holds the REST routes and the WebSocket; the pages ``/keeper`` and ``/k/{id}``.
"""

from __future__ import annotations

import asyncio
import copy
import hashlib
import hmac
import json
import logging
import re
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from functools import partial
from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import FileResponse, Response
from pydantic import ValidationError
from sqlalchemy import insert, select, update
from sqlalchemy.engine import Connection
from starlette.requests import HTTPConnection

from skat.rules.rulesets import PRESETS, get_ruleset
from skat.server.core import TableError, hash_token, new_secret
from skat.server.errors import ErrorCode
from skat.server.messages import check_outgoing, checking
from skat.server.routes.bodies import ERRORS, body, documented, json_body, parse
from skat.server.routes.models import (
    FOLLOWER_ADAPTER,
    FOLLOWER_CLIENT_ADAPTER,
    MAX_CHANGES,
    ChangesAnswer,
    ChangesRequest,
    CheckAnswer,
    CheckRequest,
    ErrorAnswer,
    KeeperCreated,
    KeeperCreateRequest,
    KeeperMeta,
    KeeperState,
    Ping,
)
from skat.server.store import Store, keeper_changes_t, keeper_lists_t
from skat.table.keeper import ENTRY_FIELDS, MAX_ENTRIES, KeeperError, ScoreKeeper

__all__ = ["KeeperService", "router", "service", "KEY_HEADER", "MAX_CHANGES", "table_key", "keeper_rulesets",
           "new_list_row", "serve_followers", "json_body", "refusal", "print_language"]

log = logging.getLogger("skat.server.keeper")

KEY_HEADER = "X-Keeper-Key"
STATE_CACHE = 256
"""Lists whose computed state a process keeps in memory (the most recently used)."""
MAX_GAMES = MAX_ENTRIES
"""Entries a list may hold (struck ones included): :data:`skat.table.keeper.MAX_ENTRIES`."""
PAGE = Path(__file__).resolve().parent.parent / "web" / "static" / "keeper.html"

Sender = Callable[[dict[str, Any]], Awaitable[None]]


def table_key(director_key: str, list_id: str) -> str:
    """The key of a tournament table's list, derived from the director's key (nothing stored in the clear)."""
    return hmac.new(director_key.encode(), list_id.encode(), hashlib.sha256).hexdigest()[:32]


def keeper_rulesets() -> list[dict[str, Any]]:
    """The rule sets a list may use (standard Skat), each with what it plays, for the page's entry form."""
    out = []
    for name in PRESETS:
        rules = get_ruleset(name)
        if name == "isko" or rules.variant != "standard":
            continue
        out.append({"name": name, "description": rules.description, "kontra": rules.kontra,
                    "kontra_re": rules.kontra_re, "all_pass": rules.all_pass,
                    "ramsch": rules.all_pass == "ramsch" or rules.bock_ramsch_round or rules.pirate,
                    "ramsch_grand_hand": rules.ramsch_grand_hand, "ramsch_scoring": rules.ramsch_scoring,
                    "schieberamsch": rules.schieberamsch or rules.pirate,
                    "bock": bool(rules.bock_triggers) or rules.pirate, "pirate": rules.pirate,
                    "bid_values": list(rules.bid_values)})
    return out


class _NoList(TableError):
    def __init__(self, list_id: str) -> None:
        super().__init__(ErrorCode.NO_LIST, f"there is no list {list_id!r} (a mistyped or cut-short link?)", 404)


def _check_id(list_id: str) -> None:
    if not re.fullmatch(r"[0-9a-f]{32}", list_id):
        raise _NoList(list_id)


class KeeperService:
    """The lists of one server process: stored in ``store``, their states cached, their followers told."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._states: OrderedDict[str, tuple[int, dict[str, Any]]] = OrderedDict()
        self._keepers: OrderedDict[str, tuple[int, ScoreKeeper]] = OrderedDict()
        """The lists as :class:`ScoreKeeper` objects, by id, with the seq they stand at (used by the writer
        thread, the readers and the event loop: each takes a shallow copy, which it may change alone)."""
        self._keepers_lock = threading.Lock()
        self._followers: dict[str, set[Sender]] = {}
        self._tasks: set[asyncio.Task] = set()
        self.on_tournament: Callable[[str], None] | None = None
        """Called (on the event loop) with a tournament's id when one of its lists or itself changed."""

    # ------------------------------------------------------------------ lists
    async def create(self, request: KeeperCreateRequest) -> dict[str, Any]:
        """Make a list from a keeper's file (``name`` besides); the answer holds its key, once. A file the keeper
        cannot read is ``422 impossible``, saying why."""
        try:
            keeper = ScoreKeeper.from_json(dict(request.model_extra or {}), author="import")
        except KeeperError as exc:
            raise TableError(ErrorCode.IMPOSSIBLE, str(exc), 422) from None
        key = new_secret(24)
        row = new_list_row(request.name.strip(), keeper, lambda _list_id: key)

        def op(conn: Connection) -> None:
            conn.execute(insert(keeper_lists_t).values(**row))
        await self.store.write(op)
        self._keep(row["id"], 0, keeper)
        state = self._remember(row["id"], 0, self._state(row, keeper))
        return {**state, "key": key, "keeper_url": f"/k/{row['id']}#key={key}"}

    async def state(self, list_id: str) -> dict[str, Any]:
        """The list's state (docs/keeper-server.md): seq, the stored list, the computed sheet."""
        _check_id(list_id)
        row = await self.store.read(self._load_head, list_id)
        if row is None:
            raise _NoList(list_id)
        cached = self._states.get(list_id)
        if cached is not None and cached[0] == row["seq"]:
            self._states.move_to_end(list_id)
            return cached[1]
        keeper = await self.store.read(self.kept, row)
        return self._remember(list_id, row["seq"], self._state(row, keeper))

    async def keeper(self, list_id: str) -> ScoreKeeper:
        """The list as a :class:`ScoreKeeper` of its own (for the CSV, the printed list, a check)."""
        _check_id(list_id)
        row = await self.store.read(self._load_head, list_id)
        if row is None:
            raise _NoList(list_id)
        return await self.store.read(self.kept, row)

    async def apply(self, list_id: str, key: str | None, body: dict[str, Any]) -> dict[str, Any]:
        """Apply a change request (:class:`ChangesRequest`: read after the list's id, before its key are checked):
        one result per change, then the new state."""
        _check_id(list_id)
        changes = _changes(parse(ChangesRequest, body))
        if not key:
            raise TableError(ErrorCode.BAD_KEY, f"entering games needs the list's key (header {KEY_HEADER})", 403)
        key_hash = hash_token(key)
        stored = await self.store.read(self._load_head, list_id)
        if stored is None:
            raise _NoList(list_id)
        _check_key(stored, key, key_hash)

        def op(conn: Connection) -> tuple[list[dict[str, Any]], dict[str, Any], ScoreKeeper]:
            return self._apply(conn, list_id, key, key_hash, changes)
        notice = {"kl": list_id}
        if stored["tournament_id"]:
            notice["tn"] = stored["tournament_id"]
        results, row, keeper = await self.store.write(op, notice)
        state = self._remember(list_id, row["seq"], self._state(row, keeper))
        if any(r["ok"] for r in results):
            self.broadcast("k:" + list_id, {"type": "list", **state})
            if row["tournament_id"] and self.on_tournament is not None:
                self.on_tournament(row["tournament_id"])
        return {"results": results, **state}

    async def check(self, list_id: str, request: CheckRequest) -> dict[str, Any]:
        """Value an entry at the end of the list (or as an edit of game ``number``) without storing it."""
        entry, number = request.entry, request.number
        keeper = await self.keeper(list_id)
        try:
            if number is None:
                if len(keeper.games) >= MAX_GAMES:
                    raise _too_long()
                number = keeper.add(entry)
            else:
                keeper.edit(number, entry)
        except KeeperError as exc:
            return refusal(exc)
        return {"ok": True, "line": keeper.sheet_json()["games"][number - 1]}

    # -------------------------------------------------------------- followers
    def follow(self, channel: str, send: Sender) -> None:
        """Send ``channel``'s messages to ``send`` (``k:{list}`` a list's states, ``t:{tournament}`` a
        tournament's)."""
        self._followers.setdefault(channel, set()).add(send)

    def unfollow(self, channel: str, send: Sender) -> None:
        followers = self._followers.get(channel)
        if followers is not None:
            followers.discard(send)
            if not followers:
                del self._followers[channel]

    def followed(self, channel: str) -> bool:
        return channel in self._followers

    def broadcast(self, channel: str, message: dict[str, Any]) -> None:
        """Send a message to every follower of the channel at this process."""
        for send in list(self._followers.get(channel, ())):
            self._background(send(message))

    def on_notice(self, notice: dict[str, Any]) -> None:
        """A notice of another server process (on the event loop): a list or a tournament changed there."""
        list_id = notice.get("kl")
        if isinstance(list_id, str) and self.followed("k:" + list_id):
            self._background(self._reload(list_id))
        tournament = notice.get("tn")
        if isinstance(tournament, str) and self.on_tournament is not None:
            self.on_tournament(tournament)

    def on_missed(self) -> None:
        """Notices may have been missed (the listening connection was lost): tell every follower the state."""
        for channel in list(self._followers):
            if channel.startswith("k:"):
                self._background(self._reload(channel[2:]))
            elif self.on_tournament is not None:
                self.on_tournament(channel[2:])

    async def _reload(self, list_id: str) -> None:
        self._states.pop(list_id, None)
        try:
            state = await self.state(list_id)
        except TableError:
            return
        self.broadcast("k:" + list_id, {"type": "list", **state})

    def _background(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)

        def done(t: asyncio.Task) -> None:
            self._tasks.discard(t)
            if not t.cancelled() and t.exception() is not None:
                log.warning("telling a list's followers failed: %r", t.exception())
        task.add_done_callback(done)

    # -------------------------------------------------------------- internals
    def _load_head(self, list_id: str) -> dict[str, Any] | None:
        """The list's row without its data (in a reader thread)."""
        with self.store.engine.connect() as conn:
            row = conn.execute(select(*_HEAD).where(keeper_lists_t.c.id == list_id)).mappings().first()
        return None if row is None else dict(row)

    def kept(self, row: dict[str, Any], conn: Connection | None = None) -> ScoreKeeper:
        """The list of ``row`` (its head) as a :class:`ScoreKeeper` of the caller's own: a copy of the one kept
        in memory when it stands at the row's seq, else read from its stored data."""
        with self._keepers_lock:
            kept = self._keepers.get(row["id"])
            if kept is not None and kept[0] == row["seq"]:
                self._keepers.move_to_end(row["id"])
                return copy.copy(kept[1])
        query = select(keeper_lists_t.c.data).where(keeper_lists_t.c.id == row["id"])
        data: str
        if conn is None:
            with self.store.engine.connect() as own:
                data = own.execute(query).scalar_one()
        else:
            data = conn.execute(query).scalar_one()
        keeper = ScoreKeeper.from_json(json.loads(data))
        self._keep(row["id"], row["seq"], keeper)
        return copy.copy(keeper)

    def _keep(self, list_id: str, seq: int, keeper: ScoreKeeper) -> None:
        with self._keepers_lock:
            kept = self._keepers.get(list_id)
            if kept is None or kept[0] <= seq:
                self._keepers[list_id] = (seq, keeper)
                self._keepers.move_to_end(list_id)
                while len(self._keepers) > STATE_CACHE:
                    self._keepers.popitem(last=False)

    def _apply(self, conn: Connection, list_id: str, key: str, key_hash: str,
               changes: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], dict[str, Any], ScoreKeeper]:
        """In the writer's transaction: read the list (locked), apply the changes, write it back. The list kept
        in memory is a copy until the changes are written; if the transaction then fails, its seq no longer
        matches the stored one and the next change reads the stored list."""
        query = select(*_HEAD).where(keeper_lists_t.c.id == list_id)
        found = conn.execute(query.with_for_update() if self.store.shared else query).mappings().first()
        if found is None:
            raise _NoList(list_id)
        row = dict(found)
        _check_key(row, key, key_hash)
        ids = [c["id"] for c in changes]
        seen = {r.change_id: json.loads(r.answer) for r in conn.execute(
            select(keeper_changes_t.c.change_id, keeper_changes_t.c.answer).where(
                keeper_changes_t.c.list_id == list_id, keeper_changes_t.c.change_id.in_(ids)))}
        keeper = self.kept(row, conn)
        results: list[dict[str, Any]] = []
        accepted = []
        seq = row["seq"]
        for ch in changes:
            if ch["id"] in seen:
                results.append(seen[ch["id"]])
                continue
            try:
                if ch["op"] == "add" and len(keeper.games) >= MAX_GAMES:
                    raise _too_long()
                number = _apply_one(keeper, ch)
            except KeeperError as exc:
                results.append({"id": ch["id"], **refusal(exc)})
                continue
            seq += 1
            answer = {"id": ch["id"], "ok": True, "number": number}
            seen[ch["id"]] = answer
            results.append(answer)
            accepted.append({"list_id": list_id, "change_id": ch["id"], "seq": seq, "answer": json.dumps(answer)})
        if accepted:
            row.update(seq=seq, updated=time.time())
            conn.execute(update(keeper_lists_t).where(keeper_lists_t.c.id == list_id).values(
                seq=seq, updated=row["updated"], data=json.dumps(keeper.to_json(), ensure_ascii=False)))
            conn.execute(insert(keeper_changes_t), accepted)
            self._keep(list_id, seq, keeper)
        return results, row, copy.copy(keeper)

    def _remember(self, list_id: str, seq: int, state: dict[str, Any]) -> dict[str, Any]:
        cached = self._states.get(list_id)
        if cached is None or cached[0] <= seq:
            self._states[list_id] = (seq, state)
            self._states.move_to_end(list_id)
            while len(self._states) > STATE_CACHE:
                self._states.popitem(last=False)
        return state

    @staticmethod
    def _state(row: dict[str, Any], keeper: ScoreKeeper) -> dict[str, Any]:
        tournament = None
        if row.get("tournament_id"):
            tournament = {"id": row["tournament_id"], "series": row["series"], "table": row["table_no"]}
        return {"id": row["id"], "name": row["name"], "url": f"/k/{row['id']}", "seq": row["seq"],
                "list": keeper.to_json(), "sheet": keeper.sheet_json(), "tournament": tournament}


def print_language(lang: str) -> str:
    """A printed list's language from a query (``en``, ``de``, ``ru``, ``pl``, ``ko``: printing.LANGUAGES); anything else
    is 400 ``bad_request``."""
    from skat.table.printing import LANGUAGES

    if lang not in LANGUAGES:
        raise TableError(ErrorCode.BAD_REQUEST, f"'lang' is one of {', '.join(LANGUAGES)}, not {lang[:20]!r}")
    return lang


def refusal(exc: KeeperError) -> dict[str, Any]:
    """An impossible entry as answered: ``ok`` false, the reason, and its ``code`` with ``params`` when it has one
    (for the page to say it in its language)."""
    out: dict[str, Any] = {"ok": False, "error": ErrorCode.IMPOSSIBLE, "message": str(exc)}
    if exc.code:
        out.update(code=exc.code, params=exc.params)
    return out


def new_list_row(name: str, keeper: ScoreKeeper, key_for: Callable[[str], str], *,
                 tournament: tuple[str, int, int] | None = None) -> dict[str, Any]:
    """The ``keeper_lists`` row of a new list: a new id, the hash of ``key_for(id)``, the list, seq 0, and
    for a tournament table its (tournament, series, table)."""
    list_id = secrets.token_hex(16)
    now = time.time()
    tid, series, table = tournament or (None, None, None)
    return {"id": list_id, "name": name, "created": now, "updated": now, "key_hash": hash_token(key_for(list_id)),
            "data": json.dumps(keeper.to_json(), ensure_ascii=False), "seq": 0, "tournament_id": tid,
            "series": series, "table_no": table}


def _changes(request: ChangesRequest) -> list[dict[str, Any]]:
    """The changes of a request as the writer applies them (their form checked by the model; the keeper judges
    what they enter)."""
    return [{"id": c.id, "op": c.op, "number": c.number, "entry": c.entry, "author": c.author.strip(), "at": c.at,
             "reason": c.reason} for c in request.changes]


def _check_key(row: dict[str, Any], key: str, key_hash: str) -> None:
    """The list's own key, or for a tournament table's list also its director's key."""
    if secrets.compare_digest(key_hash, row["key_hash"]):
        return
    if row["tournament_id"] and secrets.compare_digest(hash_token(table_key(key, row["id"])), row["key_hash"]):
        return
    raise TableError(ErrorCode.BAD_KEY, f"this key does not open list {row['id']} (mistyped or cut short?): "
                     "ask its keeper for the link with the key", 403)


_HEAD = [c for c in keeper_lists_t.c if c.name != "data"]
"""The columns of a list's row but its data (the list itself, read only when it is not kept in memory)."""


def _too_long() -> KeeperError:
    return KeeperError(f"a list holds at most {MAX_GAMES} entries: start a new list", "list_too_long",
                       limit=MAX_GAMES)


def _apply_one(keeper: ScoreKeeper, ch: dict[str, Any]) -> int:
    who = dict(author=ch["author"], at=ch["at"])
    if ch["op"] == "add":
        return keeper.add(ch["entry"], **who)
    number = ch["number"]
    if ch["op"] == "edit":
        keeper.edit(number, ch["entry"], **who)
    elif ch["op"] == "strike":
        keeper.strike(number, reason=ch["reason"], **who)
    else:
        keeper.restore(number, **who)
    return number


# ------------------------------------------------------------------ the routes
router = APIRouter(responses=ERRORS)


def service(connection: HTTPConnection) -> KeeperService:
    """The application's lists (``app.state.keeper``)."""
    return connection.app.state.keeper


Service = Annotated[KeeperService, Depends(service)]


@router.get("/api/keeper/meta", response_model=KeeperMeta)
async def keeper_meta() -> dict[str, Any]:
    """The rule sets a list may use and the fields of one game."""
    return {"rulesets": keeper_rulesets(), "default_ruleset": "isko2018", "entry_fields": ENTRY_FIELDS,
            "max_changes": MAX_CHANGES}


@router.post("/api/keeper", status_code=201, response_model=KeeperCreated, response_model_exclude_unset=True,
             openapi_extra=documented(KeeperCreateRequest),
             responses={422: {"model": ErrorAnswer, "description": "impossible: a list the keeper cannot read"}})
async def create_list(lists: Service,
                      request: Annotated[KeeperCreateRequest, Depends(body(KeeperCreateRequest))]) -> dict[str, Any]:
    return await lists.create(request)


@router.get("/api/keeper/{list_id}", response_model=KeeperState, response_model_exclude_unset=True)
async def list_state(list_id: str, lists: Service) -> dict[str, Any]:
    return await lists.state(list_id)


@router.post("/api/keeper/{list_id}/changes", response_model=ChangesAnswer, response_model_exclude_unset=True,
             openapi_extra=documented(ChangesRequest, required=True))
async def list_changes(list_id: str, request: Request, lists: Service,
                       data: Annotated[dict[str, Any], Depends(json_body)]) -> dict[str, Any]:
    """Apply changes (a :class:`ChangesRequest`; header ``X-Keeper-Key``): a result per change, then the state."""
    return await lists.apply(list_id, request.headers.get(KEY_HEADER), data)


@router.post("/api/keeper/{list_id}/check", response_model=CheckAnswer, response_model_exclude_unset=True,
             openapi_extra=documented(CheckRequest, required=True))
async def list_check(list_id: str, lists: Service,
                     request: Annotated[CheckRequest, Depends(body(CheckRequest))]) -> dict[str, Any]:
    return await lists.check(list_id, request)


@router.get("/api/keeper/{list_id}/sheet.csv", response_class=Response)
async def list_csv(list_id: str, lists: Service) -> Response:
    keeper = await lists.keeper(list_id)
    return Response("\ufeff" + keeper.to_csv(), media_type="text/csv; charset=utf-8",
                    headers={"Content-Disposition": f'attachment; filename="skat-list-{list_id[:8]}.csv"'})


@router.get("/api/keeper/{list_id}/list.pdf", response_class=Response)
async def list_pdf(list_id: str, lists: Service, blank: bool = False, lang: str = "en") -> Response:
    """The list for the printer (``?blank=1``: the empty list of these players, to keep by hand; ``?lang=de``,
    ``ru``, ``pl`` or ``ko``: its words in that language)."""
    from skat.table.printing import table_list_pdf

    print_language(lang)
    state = await lists.state(list_id)
    data = state["list"]
    if blank:
        data = {**data, "games": []}
    keeper = ScoreKeeper.from_json(data)
    pdf = await asyncio.to_thread(partial(table_list_pdf, keeper, title=state["name"], lang=lang))
    return Response(pdf, media_type="application/pdf",
                    headers={"Content-Disposition": f'inline; filename="skat-list-{list_id[:8]}.pdf"'})


async def serve_followers(ws: WebSocket, service: KeeperService, channel: str, kind: str,
                          state: Callable[[], Awaitable[dict[str, Any]]]) -> None:
    """A follower's WebSocket (a list's or a tournament's; :data:`skat.server.routes.models.FollowerMessage`):
    ``{"type": kind, ...state}`` at once and whenever ``channel`` hears of a change; it answers ``ping`` with
    ``pong`` and ``state`` with the state, anything else with ``bad_message``; an unknown list or tournament is
    answered with its error and closed (4404)."""
    await ws.accept()
    lock = asyncio.Lock()
    check = checking()

    async def send(message: dict[str, Any]) -> None:
        if check:
            check_outgoing(message, FOLLOWER_ADAPTER)
        async with lock:
            await ws.send_text(json.dumps(message, ensure_ascii=False))

    try:
        first = await state()
    except TableError as exc:
        await send({"type": "error", "code": exc.code, "message": str(exc)})
        await ws.close(code=4404)
        return
    service.follow(channel, send)
    try:
        await send({"type": kind, **first})
        while True:
            message = await ws.receive()
            if message["type"] == "websocket.disconnect":
                return
            await send(await _follower_answer(message.get("text"), kind, state))
    except (WebSocketDisconnect, RuntimeError):
        pass
    except Exception:
        log.exception("a follower of %s failed", channel)
    finally:
        service.unfollow(channel, send)


async def _follower_answer(text: str | None, kind: str,
                           state: Callable[[], Awaitable[dict[str, Any]]]) -> dict[str, Any]:
    """The answer to a follower's message (:data:`skat.server.routes.models.FollowerClientMessage`)."""
    try:
        message = FOLLOWER_CLIENT_ADAPTER.validate_json(text or "")
    except ValidationError:
        return {"type": "error", "code": ErrorCode.BAD_MESSAGE,
                "message": "a follower sends only {\"type\": \"ping\"} or {\"type\": \"state\"}"}
    if isinstance(message, Ping):
        return {"type": "pong"}
    return {"type": kind, **await state()}


@router.websocket("/ws/keeper/{list_id}")
async def follow_list(ws: WebSocket, list_id: str, lists: Service) -> None:
    """Follow a list: its state at once and after every change."""
    await serve_followers(ws, lists, "k:" + list_id, "list", lambda: lists.state(list_id))


@router.get("/keeper", include_in_schema=False)
async def keeper_page() -> FileResponse:
    return FileResponse(PAGE, headers={"Cache-Control": "no-cache"})


@router.get("/k/{list_id}", include_in_schema=False)
async def list_page(list_id: str) -> FileResponse:
    return FileResponse(PAGE, headers={"Cache-Control": "no-cache"})
