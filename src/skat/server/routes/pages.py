"""The browser's pages: the lobby and the table (``/``, ``/t/{id}``), the API's documentation (``/api/docs``) and
the static files (``/static``). None of them is part of the API's OpenAPI description."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from fastapi import APIRouter, FastAPI
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles

__all__ = ["router", "STATIC_DIR", "mount_static"]

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


@router.get("/api/docs")
async def api_docs() -> FileResponse:
    """The API's documentation: Swagger UI on /api/openapi.json, its files from the package (FastAPI's own page
    loads Swagger UI from a CDN with an inline script, which the Content-Security-Policy forbids)."""
    return _page(STATIC_DIR / "apidocs" / "index.html")


def mount_static(app: FastAPI) -> None:
    """Serve the package's ``web/static`` under ``/static``."""
    app.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")
