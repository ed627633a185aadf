"""The browser's pages: the lobby and the table (``/``, ``/t/{id}``), the API's documentation (``/api/docs``) and
the static files (``/static``). None of them is part of the API's OpenAPI description."""

from __future__ import annotations

import gzip
import os
import threading
from importlib import resources
from pathlib import Path

from fastapi import APIRouter, FastAPI
from fastapi.responses import FileResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.datastructures import Headers
from starlette.staticfiles import NotModifiedResponse
from starlette.types import Scope

__all__ = ["router", "STATIC_DIR", "mount_static", "CompressedStaticFiles", "COMPRESSED_TYPES"]

STATIC_DIR = Path(str(resources.files("skat.web") / "static"))

router = APIRouter(include_in_schema=False)


def _page(path: Path) -> FileResponse:
    return FileResponse(path, headers={"Cache-Control": "no-cache"})


@router.get("/")
async def index() -> FileResponse:
    return _page(STATIC_DIR / "index.html")


@router.get("/t/{table_id}")
async def table_page(table_id: str) -> FileResponse:
    return _page(STATIC_DIR / "index.html")


@router.get("/learn")
async def learn_page() -> FileResponse:
    """Learn Skat: guided deals (:mod:`skat.lessons`)."""
    return _page(STATIC_DIR / "learn.html")


@router.get("/account")
async def account_page() -> FileResponse:
    """Sign in, register, sign out, change the password (docs/accounts.md)."""
    return _page(STATIC_DIR / "account.html")


@router.get("/me")
@router.get("/players/{player}")
async def player_page() -> FileResponse:
    """A player's profile: rating, statistics, and (your own) history (docs/history.md)."""
    return _page(STATIC_DIR / "players.html")


@router.get("/leaderboard")
async def leaderboard_page() -> FileResponse:
    """The leaderboards of people and computer players (docs/history.md)."""
    return _page(STATIC_DIR / "leaderboard.html")


@router.get("/replay/{table_id}/{deal_no}")
async def replay_page() -> FileResponse:
    """A finished deal step by step (docs/history.md)."""
    return _page(STATIC_DIR / "replay.html")


@router.get("/api/docs")
async def api_docs() -> FileResponse:
    """The API's documentation: Swagger UI on /api/openapi.json, its files from the package (FastAPI's own page
    loads Swagger UI from a CDN with an inline script, which the Content-Security-Policy forbids)."""
    return _page(STATIC_DIR / "apidocs" / "index.html")


COMPRESSED_TYPES = frozenset({".svg", ".js", ".css", ".json", ".html", ".txt", ".map"})
"""The static files sent gzip-compressed to a browser that takes it (text: a court card's SVG shrinks to a third)."""


class CompressedStaticFiles(StaticFiles):
    """Static files, the textual ones gzip-compressed for a client whose ``Accept-Encoding`` takes gzip.

    Each file is compressed once and kept in memory by its path, size and modification time (the package's
    files: a few MiB of text, about 1.5 MiB compressed), so serving it costs no more than the file itself.
    Validators and 304 answers are :class:`StaticFiles`'s; the compressed answer's ETag differs from the plain
    one's, and ``Vary: Accept-Encoding`` tells caches that the answer depends on it.
    """

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self._compressed: dict[tuple[str, int, int], bytes] = {}
        self._lock = threading.Lock()

    def file_response(self, full_path: os.PathLike[str] | str, stat_result: os.stat_result, scope: Scope,
                      status_code: int = 200) -> Response:
        response = super().file_response(full_path, stat_result, scope, status_code)
        headers = Headers(scope=scope)
        if (status_code != 200 or not isinstance(response, FileResponse)
                or Path(full_path).suffix.lower() not in COMPRESSED_TYPES
                or "gzip" not in headers.get("accept-encoding", "").lower() or "range" in headers):
            response.headers.setdefault("Vary", "Accept-Encoding")
            return response
        kept = {k: v for k, v in response.headers.items() if k.lower() not in ("content-length", "etag")}
        etag = response.headers.get("etag", "")
        kept["ETag"] = etag[:-1] + '-gz"' if etag.endswith('"') else etag + "-gz"
        kept["Content-Encoding"] = "gzip"
        kept["Vary"] = "Accept-Encoding"
        wanted = [tag.strip() for tag in headers.get("if-none-match", "").split(",")]
        if kept["ETag"] in wanted or f"W/{kept['ETag']}" in wanted:
            return NotModifiedResponse(Headers(kept))
        return Response(self._gzip(str(full_path), stat_result), status_code=200, headers=kept,
                        media_type=response.media_type)

    def _gzip(self, path: str, stat_result: os.stat_result) -> bytes:
        key = (path, stat_result.st_size, stat_result.st_mtime_ns)
        body = self._compressed.get(key)
        if body is None:
            with open(path, "rb") as source:
                body = gzip.compress(source.read(), compresslevel=9, mtime=0)
            with self._lock:
                for old in [k for k in self._compressed if k[0] == path]:  # an edited file's older copy
                    del self._compressed[old]
                self._compressed[key] = body
        return body


def mount_static(app: FastAPI) -> None:
    """Serve the package's ``web/static`` under ``/static``, text compressed (:class:`CompressedStaticFiles`)."""
    app.mount("/static", CompressedStaticFiles(directory=STATIC_DIR), name="static")
