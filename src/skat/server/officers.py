"""The Officers' Skat page, and what is left of the older REST API: reading the tables it stored.

Officers' Skat (two players) is a server table like every other (``POST /api/tables`` with
``"variant": "officers"``, the table WebSocket, the ``skat_*`` tables; docs/protocol.md "Officers' Skat
tables"); the page ``/officers`` plays there, and ``skat play --variant officers`` opens it on the club server.

The older REST-polling API (``/api/officers/tables...``, one person against the computer, its own tables
``officers_tables``, ``officers_games``, ``officers_actions``) is retired. Its stored tables are kept and
stay readable, nothing is written to them any more:

- ``GET /api/officers/tables/{table}`` with header ``X-Seat-Token`` (the token its seat was given) -> the
  seat's state as it was stored, ``"read_only": true`` and no legal actions (404 unknown table, 403 wrong
  token, 410 a table its player closed). The answer holds only ``OfficersGame.view(seat)`` in its wire form
  (:func:`skat.records.wire.officers_view_to_json`): a face-down card never leaves the server.
- ``GET /api/officers/variants`` -> the variants (as ``/api/meta``'s ``officers_variants``).
- Every other ``/api/officers/...`` request (making a table, an action, the next game, closing) is answered
  410 ``{"error": "retired", "message": ...}`` saying where Officers' Skat is played now; nothing changes.

Include :data:`router` in the app (``skat.server.create_app`` does); the page loads its script and style
from ``/static/`` (``officers.js``, ``officers.css``, and the card faces of ``cards.js``/``style.css``).
"""

from __future__ import annotations

import logging
import secrets
from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, Header
from fastapi.responses import FileResponse, JSONResponse

from skat.records.wire import officers_view_to_json
from skat.server.core import TableError, hash_token
from skat.server.errors import ErrorCode
from skat.server.routes.bodies import ERRORS
from skat.server.routes.deps import Manager
from skat.server.routes.models import ErrorAnswer, OfficersVariants, StoredOfficersState
from skat.server.store import Store, StoredOfficersTable
from skat.variants.officers.game import OfficersGame
from skat.variants.officers.options import VARIANTS

__all__ = ["router", "PAGE", "RETIRED", "page_url", "stored_state"]

log = logging.getLogger("skat.server")

PAGE = Path(__file__).resolve().parent.parent / "web" / "static" / "officers.html"
RETIRED = ("the Officers' Skat REST API was retired: Officers' Skat is a server table now. Make one with "
           'POST /api/tables {"variant": "officers", "officers_variant": "classic"} and play it over the table '
           "WebSocket (docs/protocol.md, \"Officers' Skat tables\"), or open /officers. Tables of the older API "
           "stay readable: GET /api/officers/tables/{table} with its X-Seat-Token")

router = APIRouter(responses=ERRORS)


def stored_state(stored: StoredOfficersTable, token: str | None) -> dict[str, Any]:
    """The read-only state of a table of the older API for the holder of its seat ``token``: the seat's view
    of the stored game and the series' sheet (403 ``bad_token`` for a wrong token, 410 ``closed`` when its
    player closed it)."""
    if not token or not secrets.compare_digest(hash_token(token), stored.token_hash):
        raise TableError(ErrorCode.BAD_TOKEN, "wrong or missing seat token (header X-Seat-Token)", 403)
    if stored.closed:
        raise TableError(ErrorCode.CLOSED, f"the Officers' Skat table {stored.id!r} was closed by its player", 410)
    game = OfficersGame.from_record(stored.record)
    view = game.view(stored.person)
    sheet = [list(row) for row in stored.sheet]
    return {
        "table": stored.id, "seat": stored.person, "seq": stored.seq, "game_no": stored.game_no,
        "variant": stored.variant, "view": officers_view_to_json(view), "legal": [], "read_only": True,
        "sheet": {"games": sheet, "you": sum(row[0] for row in sheet), "computer": sum(row[1] for row in sheet)},
    }


@router.get("/officers", include_in_schema=False)
async def officers_page() -> FileResponse:
    """The Officers' Skat page."""
    return FileResponse(PAGE)


@router.get("/api/officers/variants", response_model=OfficersVariants)
async def variants() -> OfficersVariants:
    """The variants that can be played."""
    return OfficersVariants(variants=list(VARIANTS))


@router.get("/api/officers/tables/{table_id}", response_model=StoredOfficersState,
            responses={410: {"model": ErrorAnswer, "description": "closed: its player closed the table"}})
async def get_state(table_id: str, tables: Manager,
                    x_seat_token: Annotated[str | None, Header()] = None) -> dict[str, Any]:
    """The stored state of a table of the older API, read-only."""
    store: Store = tables.store
    stored = await store.read(store.load_officers_table, table_id)
    if stored is None:
        raise TableError(ErrorCode.NO_TABLE, f"there is no Officers' Skat table {table_id!r} of the older API", 404)
    return stored_state(stored, x_seat_token)


@router.api_route("/api/officers/{rest:path}", methods=["POST", "PUT", "PATCH", "DELETE"], include_in_schema=False)
async def retired(rest: str) -> JSONResponse:
    """Everything that used to change a table of the older API: 410, nothing changes."""
    return JSONResponse({"error": ErrorCode.RETIRED, "message": RETIRED}, status_code=410)


def page_url(base: str, variant: str = "classic", seed: int | None = None) -> str:
    """The address that opens the page and starts a table at once (``base`` like ``http://127.0.0.1:8000``)."""
    from urllib.parse import urlencode

    query = {"variant": variant, "start": "1"} | ({} if seed is None else {"seed": str(seed)})
    return f"{base.rstrip('/')}/officers?{urlencode(query)}"
