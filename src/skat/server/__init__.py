"""The table server: FastAPI on uvicorn, a versioned WebSocket protocol (docs/protocol.md),
a small REST API, SQLAlchemy persistence and computer players at the tables.

``create_app(db_url)`` builds the application; ``skat play`` and ``skat serve`` run it. The names below are
imported when first asked for, so that a module of the package (``skat.server.bots`` for ``skat play --text``)
does not load FastAPI, SQLAlchemy and the solver with it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from skat.server.app import create_app
    from skat.server.core import PROTOCOL_VERSION, TableError
    from skat.server.manager import TableManager

__all__ = ["create_app", "TableManager", "TableError", "PROTOCOL_VERSION"]


def __getattr__(name: str) -> Any:
    """The public names, from their modules on first use."""
    if name == "create_app":
        from skat.server.app import create_app

        return create_app
    if name in ("PROTOCOL_VERSION", "TableError"):
        from skat.server import core

        return getattr(core, name)
    if name == "TableManager":
        from skat.server.manager import TableManager

        return TableManager
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
