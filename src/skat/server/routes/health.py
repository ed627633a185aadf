"""``/api/health`` (is the server well?) and ``/api/meta`` (what it plays)."""

from __future__ import annotations

from fastapi import APIRouter

from skat.players.registry import PLAYER_NAMES
from skat.rules.rulesets import get_ruleset
from skat.server.bots import default_level
from skat.server.routes.deps import Manager, Monitor
from skat.server.routes.models import HealthAnswer, MetaAnswer
from skat.server.tables import PROTOCOL_VERSION, TABLE_VARIANTS, table_rulesets
from skat.variants.officers.options import VARIANTS as OFFICERS_VARIANTS

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
    """The computer players' levels, the rule sets and the variants a table may play."""
    return MetaAnswer(protocol=PROTOCOL_VERSION, levels=list(PLAYER_NAMES), default_level=default_level(),
                      rulesets=table_rulesets(), variants=list(TABLE_VARIANTS),
                      officers_variants=list(OFFICERS_VARIANTS), iss_records=True,
                      ruleset_descriptions={name: get_ruleset(name).description for name in table_rulesets()})
