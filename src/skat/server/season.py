"""A club's season on the server (docs/season.md): its rule, members and evenings stored in ``seasons``, its live
ranking across the evenings' tournaments.

The library decides (:class:`skat.table.season.Season`: matching players to members, the rule, the ranking with
its tie-break); this module stores the season (:meth:`Season.to_json` without the evenings' results) and reads
each evening's standings from its tournament (:meth:`skat.server.tournament.TournamentService.state`, the
tournament's live ranking) when the season is asked for: so the season's ranking is as live as the evenings'.
The answer is kept per season and given again while nothing it is made of changed (the season's ``seq``, each
evening's tournament and its lists' ``seq``, the linked accounts' names: read in one go per request). The page
asks again every few seconds (season.js).

A change (settings, an evening added or removed, a member added, removed or linked, a player linked) needs the
director's key (``X-Season-Key``; the server keeps its hash only). It is tried first on the season as read, so an
impossible change is answered without a write, then made in the writer thread in one transaction that reads the
season (``FOR UPDATE`` on PostgreSQL), changes it with the library and writes it back.
"""

from __future__ import annotations

import copy
import datetime
import json
import re
import secrets
import time
from collections.abc import Callable
from typing import Any

from sqlalchemy import insert, select, update
from sqlalchemy.engine import Connection

from skat.server.accounts import AccountService, clean_account_name
from skat.server.core import TableError, hash_token, new_secret
from skat.server.database import accounts_t, keeper_lists_t, seasons_t, tournaments_t
from skat.server.errors import ErrorCode
from skat.server.store import Store
from skat.server.tournament import TournamentService
from skat.table.season import Evening, Result, Season, SeasonError, check_date

__all__ = ["SeasonService", "KEY_HEADER", "tournament_of", "refused"]

KEY_HEADER = "X-Season-Key"
_STATUS = {"bad_name": 400, "bad_rule": 400, "bad_date": 400, "member_taken": 409, "no_member": 404,
           "evening_taken": 409, "no_evening": 404, "impossible": 409}
"""The status of each code of :class:`SeasonError`."""
_KEPT = 256
"""Seasons whose last answer is kept."""


class _NoSeason(TableError):
    def __init__(self, sid: str) -> None:
        super().__init__(ErrorCode.NO_SEASON, f"there is no season {sid[:40]!r} (a mistyped or cut-short link?)", 404)


def _check_id(sid: str) -> None:
    if not re.fullmatch(r"[0-9a-f]{32}", sid):
        raise _NoSeason(sid)


def refused(exc: SeasonError) -> TableError:
    """The answer to a change the library refuses: its code, with that code's status."""
    return TableError(ErrorCode(exc.code), str(exc), _STATUS.get(exc.code, 409))


def tournament_of(ref: str) -> str:
    """A tournament's id from its id or its link (``https://host/tn/ID``, the director's too: only the id is
    kept); ``404 no_tournament`` for anything else."""
    ref = ref.strip()
    found = re.fullmatch(r"[0-9a-f]{32}", ref) or re.search(r"/tn/([0-9a-f]{32})(?:[/?#]|$)", ref)
    if not found:
        raise TableError(ErrorCode.NO_TOURNAMENT, f"{ref[:80]!r} is no tournament's id or link (/tn/ID)", 404)
    return found.group(1) if found.groups() else found.group(0)


def _day(at: float) -> str:
    """The server's local date of a time, ``YYYY-MM-DD``."""
    return datetime.datetime.fromtimestamp(at).date().isoformat()


class SeasonService:
    """The seasons of one server process; the evenings' standings come from ``tournaments``, the names of linked
    accounts from ``accounts``."""

    def __init__(self, store: Store, tournaments: TournamentService, accounts: AccountService) -> None:
        self.store = store
        self.tournaments = tournaments
        self.accounts = accounts
        self._states: dict[str, tuple[tuple, dict[str, Any], Season, dict[str, str]]] = {}

    # ------------------------------------------------------------------ changes
    async def create(self, name: str, rule: Any, best: Any) -> dict[str, Any]:
        """A new season; the answer holds the director's key, once."""
        try:
            season = Season(name.strip(), rule, best)
        except SeasonError as exc:
            raise refused(exc) from None
        sid = secrets.token_hex(16)
        key = new_secret(24)
        now = time.time()
        row = {"id": sid, "name": season.name, "created": now, "updated": now, "key_hash": hash_token(key),
               "data": json.dumps(season.to_json(results=False), ensure_ascii=False), "seq": 0}

        def op(conn: Connection) -> None:
            conn.execute(insert(seasons_t).values(**row))
        await self.store.write(op)
        return {**await self.state(sid), "key": key, "director_url": f"/season/{sid}#key={key}"}

    async def change(self, sid: str, key: str | None, how: Callable[[Season], Any]) -> dict[str, Any]:
        """Change a season with the library (``how``), as its director; answers the new state."""
        _check_id(sid)
        row = await self._director(sid, key)
        try:  # tried first on the season as read: an impossible change is answered without a write
            how(Season.from_json(json.loads(row["data"])))
        except SeasonError as exc:
            raise refused(exc) from None

        def op(conn: Connection) -> None:
            query = select(seasons_t).where(seasons_t.c.id == sid)
            locked = conn.execute(query.with_for_update() if conn.dialect.name == "postgresql" else query).mappings().first()
            if locked is None:
                raise _NoSeason(sid)
            season = Season.from_json(json.loads(locked["data"]))
            try:
                how(season)
            except SeasonError as exc:
                raise refused(exc) from None
            conn.execute(update(seasons_t).where(seasons_t.c.id == sid).values(
                name=season.name, data=json.dumps(season.to_json(results=False), ensure_ascii=False),
                seq=locked["seq"] + 1, updated=time.time()))
        await self.store.write(op)
        return await self.state(sid)

    async def settings(self, sid: str, key: str | None, *, name: str | None = None, rule: Any = None,
                       best: Any = None) -> dict[str, Any]:
        """A new name, or a new rule (``rule`` with ``best`` for ``best``)."""

        def how(season: Season) -> None:
            if name is not None:
                season.rename(name)
            if rule is not None:
                season.set_rule(rule, best)
            elif best is not None:
                season.set_rule("best", best)
        return await self.change(sid, key, how)

    async def add_evening(self, sid: str, key: str | None, ref: str, date: Any = None) -> dict[str, Any]:
        """Add a tournament (its id or link) as an evening, on ``date`` (default: the day it was made)."""
        _check_id(sid)
        await self._director(sid, key)
        tid = tournament_of(ref)
        if date is not None:
            try:
                check_date(date)
            except SeasonError as exc:
                raise refused(exc) from None
        info = await self.store.read(self._tournament_head, tid)
        if info is None:
            raise TableError(ErrorCode.NO_TOURNAMENT, f"there is no tournament {tid!r} (a mistyped or cut-short link?)",
                             404)
        evening = Evening(tid, info["name"], date or _day(info["created"]))
        return await self.change(sid, key, lambda s: s.add_evening(evening))

    async def remove_evening(self, sid: str, key: str | None, tid: str) -> dict[str, Any]:
        return await self.change(sid, key, lambda s: s.remove_evening(tid))

    async def members(self, sid: str, key: str | None, op: str, *, name: str | None = None,
                      account: str | None = None, player: str | None = None,
                      member: str | None = None) -> dict[str, Any]:
        """A change of the members: ``add`` (``name``, ``account``: an account's name), ``remove`` (``name``),
        ``account`` (link ``name`` to ``account``, or unlink it with none), ``link`` (``player`` is ``member``),
        ``unlink`` (``player``), ``add_unmatched`` (every player of the evenings who is no member becomes one)."""
        _check_id(sid)
        await self._director(sid, key)
        account_id = await self._account_id(account) if account else None
        who, whom, player_name = name or "", member or "", player or ""  # a missing one: the library's refusal
        if op == "add":
            return await self.change(sid, key, lambda s: s.add_member(who, account_id))
        if op == "remove":
            return await self.change(sid, key, lambda s: s.remove_member(who))
        if op == "account":
            return await self.change(sid, key, lambda s: s.link_account(who, account_id))
        if op == "link":
            return await self.change(sid, key, lambda s: s.link(player_name, whom))
        if op == "unlink":
            return await self.change(sid, key, lambda s: s.unlink(player_name))
        assert op == "add_unmatched", op
        state = await self.state(sid)
        names = [u["player"] for u in state["unmatched"] if u["reason"] == "unknown"]

        def add_all(season: Season) -> None:
            for player in names:
                try:
                    season.add_member(player)
                except SeasonError as exc:
                    if exc.code != "member_taken":  # made a member meanwhile: nothing to add
                        raise
        return await self.change(sid, key, add_all)

    # ------------------------------------------------------------------ reads
    async def state(self, sid: str) -> dict[str, Any]:
        """The season as everybody may see it: rule, evenings, members, links, unmatched players and ranking."""
        return (await self._filled(sid))[0]

    async def season(self, sid: str) -> tuple[Season, dict[str, str]]:
        """The season with its evenings' standings as they stand, and the linked accounts' names by id (for the
        printer)."""
        _, season, accounts = await self._filled(sid)
        return copy.deepcopy(season), dict(accounts)  # the kept answer's own stays as it is

    async def _filled(self, sid: str) -> tuple[dict[str, Any], Season, dict[str, str]]:
        _check_id(sid)
        loaded = await self.store.read(self._load, sid)
        if loaded is None:
            raise _NoSeason(sid)
        row, heads, lists, accounts = loaded
        version = (row["seq"], heads, lists, tuple(sorted(accounts.items())))
        cached = self._states.get(sid)
        if cached is not None and cached[0] == version:
            return cached[1], cached[2], cached[3]
        season = Season.from_json(json.loads(row["data"]))
        found = {tid for tid, *_ in heads}
        evenings = []
        for number, e in enumerate(season.evenings, 1):
            t: dict[str, Any] | None = None
            if e.tournament in found:
                try:
                    t = await self.tournaments.state(e.tournament)
                except TableError as exc:
                    if exc.code != ErrorCode.NO_TOURNAMENT:
                        raise
            if t is not None:
                e.name = t["name"]
                e.results = [Result(r["player"], r["points"], r["rank"], r["won"], r["lost"]) for r in t["ranking"]
                             if any(x is not None for x in r["series"])]  # a player who had a list this evening
            evenings.append({"number": number, "tournament": e.tournament, "name": e.name, "date": e.date,
                             "url": f"/tn/{e.tournament}", "players": len(e.results),
                             "series": 0 if t is None else len(t["series"]), "missing": t is None})

        def account(account_id: str | None) -> dict[str, str] | None:
            return {"id": account_id, "name": accounts[account_id]} if account_id and account_id in accounts else None

        linked: dict[str, list[str]] = {}
        for player, member in season.links.items():
            linked.setdefault(member, []).append(player)
        state = {
            "id": sid, "name": season.name, "url": f"/season/{sid}", "seq": row["seq"], "rule": season.rule,
            "best": season.best, "evenings": evenings,
            "members": [{"name": m.name, "account": account(m.account), "players": linked.get(m.name, [])}
                        for m in season.members],
            "links": [{"player": p, "member": m} for p, m in season.links.items()],
            "unmatched": [u.to_json() for u in season.unmatched(accounts)],
            "ranking": [{**s.to_json(), "account": account(s.account)} for s in season.ranking(accounts)],
        }
        self._states[sid] = (version, state, season, accounts)
        while len(self._states) > _KEPT:
            self._states.pop(next(iter(self._states)))
        return state, season, accounts

    async def director(self, sid: str, key: str | None) -> None:
        """Nothing if ``key`` is the season's director's key; else ``403 bad_key`` (``404 no_season``)."""
        _check_id(sid)
        await self._director(sid, key)

    # ------------------------------------------------------------------ internals
    async def _director(self, sid: str, key: str | None) -> dict[str, Any]:
        """The season's row, if ``key`` is its director's key."""
        if not key:
            raise TableError(ErrorCode.BAD_KEY, f"the director's key is needed (header {KEY_HEADER})", 403)
        row = await self.store.read(self._row, sid)
        if row is None:
            raise _NoSeason(sid)
        if not secrets.compare_digest(hash_token(key), row["key_hash"]):
            raise TableError(ErrorCode.BAD_KEY, f"this key is not the director's key of season {sid}", 403)
        return row

    async def _account_id(self, name: str) -> str:
        """The id of the account of a name (compared by its name key); ``404 no_account`` if there is none."""
        try:
            clean_account_name(name)
        except TableError:
            raise TableError(ErrorCode.NO_ACCOUNT, f"there is no account {name[:40]!r}", 404) from None
        found = await self.store.read(self.accounts.find, name)
        if found is None:
            raise TableError(ErrorCode.NO_ACCOUNT, f"there is no account {name[:40]!r} (an account's name as its "
                             "owner registered it)", 404)
        return found.id

    def _row(self, sid: str) -> dict[str, Any] | None:
        with self.store.engine.connect() as conn:
            row = conn.execute(select(seasons_t).where(seasons_t.c.id == sid)).mappings().first()
        return None if row is None else dict(row)

    def _tournament_head(self, tid: str) -> dict[str, Any] | None:
        c = tournaments_t.c
        with self.store.engine.connect() as conn:
            row = conn.execute(select(c.name, c.created).where(c.id == tid)).mappings().first()
        return None if row is None else dict(row)

    def _load(self, sid: str) -> tuple[dict[str, Any], tuple, tuple, dict[str, str]] | None:
        """The season's row, the heads of its evenings' tournaments and of their lists (id and seq: what the
        ranking is made of) and the names of its members' accounts, in one connection."""
        with self.store.engine.connect() as conn:
            row = conn.execute(select(seasons_t).where(seasons_t.c.id == sid)).mappings().first()
            if row is None:
                return None
            data = json.loads(row["data"])
            tids = [e.get("tournament") for e in data.get("evenings", []) if isinstance(e, dict)]
            ids = [m.get("account") for m in data.get("members", []) if isinstance(m, dict) and m.get("account")]
            t, k, a = tournaments_t.c, keeper_lists_t.c, accounts_t.c
            heads = tuple(sorted(tuple(r) for r in conn.execute(select(t.id, t.seq, t.name).where(t.id.in_(tids))))) \
                if tids else ()
            lists = tuple(sorted(tuple(r) for r in conn.execute(select(k.tournament_id, k.id, k.seq).where(
                k.tournament_id.in_(tids))))) if tids else ()
            accounts = {r.id: r.name for r in conn.execute(select(a.id, a.name).where(a.id.in_(ids)))} if ids else {}
        return dict(row), heads, lists, accounts
