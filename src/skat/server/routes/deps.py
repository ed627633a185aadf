"""What the routes take from the application, through FastAPI's dependency injection: each object lives in
``app.state`` (set up by :func:`skat.server.app.create_app`), never in a closure."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request
from starlette.requests import HTTPConnection

from skat.server.limits import ClientLimits
from skat.server.manager import TableManager
from skat.server.monitor import LoopMonitor
from skat.server.tables import ServerTable

__all__ = ["Manager", "Readable", "Monitor", "Limiter", "manager", "readable"]


def manager(connection: HTTPConnection) -> TableManager:
    """The application's tables (a test may put another manager into ``app.state.manager``)."""
    return connection.app.state.manager


def monitor(connection: HTTPConnection) -> LoopMonitor:
    return connection.app.state.monitor


def limiter(connection: HTTPConnection) -> ClientLimits:
    return connection.app.state.limiter


Manager = Annotated[TableManager, Depends(manager)]
Monitor = Annotated[LoopMonitor, Depends(monitor)]
Limiter = Annotated[ClientLimits, Depends(limiter)]


async def readable(table_id: str, request: Request, tables: Manager) -> ServerTable:
    """The table a GET request reads: at a private table only with the ``X-Invite`` header (its invite secret)
    or ``X-Seat-Token`` (a seat holder's token); 403 ``invite_required`` / ``bad_invite`` else."""
    table = await tables.table(table_id)
    tables.admit(table, invite=request.headers.get("x-invite"), token=request.headers.get("x-seat-token"))
    return table


Readable = Annotated[ServerTable, Depends(readable)]
