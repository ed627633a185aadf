"""``/api/health`` (is the server well?) and ``/api/meta`` (what it plays)."""

from __future__ import annotations

from fastapi import APIRouter

from skat.players.registry import PLAYER_NAMES
from skat.server.bots import default_level
from skat.server.core import PROTOCOL_VERSION
from skat.server.games import games_meta
from skat.server.routes.deps import Manager, Monitor
from skat.server.routes.models import HealthAnswer, MetaAnswer

__all__ = ["router"]

router = APIRouter()


@router.get("/api/health", response_model=HealthAnswer)
async def health(tables: Manager, monitor: Monitor) -> HealthAnswer:
    """The tables held, the event loop's stalls and the database's commits (docs/deployment.md)."""
    store = tables.store
    return HealthAnswer(status="ok", protocol=PROTOCOL_VERSION, tables=len(tables.tables), **monitor.figures(),
                        commits=store.commits, slow_commits=store.slow_commits)


@router.get("/api/meta", response_model=MetaAnswer)
async def meta() -> MetaAnswer:
    """The computer players' levels and the games a table may play, with what each game lists (the rule sets,
    Officers' Skat's variants: :meth:`skat.server.games.TableGame.meta`)."""
    return MetaAnswer(protocol=PROTOCOL_VERSION, levels=list(PLAYER_NAMES), default_level=default_level(),
                      iss_records=True, **games_meta())
