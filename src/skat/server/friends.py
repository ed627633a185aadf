"""Friends (docs/friends.md): a person follows other people, sees which of them are online and at which table,
invites them to a table with one click, and blocks a person (who then cannot join the blocker's tables, write to
the blocker or invite them).

Everything is an account's (a guest has no friends: sign in). The facts live in the database (``follows``,
``blocks``, ``presence``, ``invitations``), so every server process serves the same. *Online* is a person seen in
the last :data:`ONLINE_SECONDS`: each server process notes the accounts connected to its tables (a WebSocket of a
signed-in browser, at ``hello``) and tells the database when they come, go, and every :data:`PRESENCE_SECONDS`
while they stay; a signed-in page that asks for its friends counts as seen too. A process that dies leaves no one
online for long: its rows grow old.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections import Counter
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from sqlalchemy import and_, delete, func, or_, select, update
from sqlalchemy.engine import Connection, Engine

from skat.server.accounts import clean_account_name
from skat.server.core import TableError
from skat.server.database import (
    accounts_t,
    blocks_t,
    dialect_insert,
    follows_t,
    invitations_t,
    presence_t,
    seats_t,
    tables_t,
)
from skat.server.errors import ErrorCode

__all__ = ["FriendsService", "ONLINE_SECONDS", "PRESENCE_SECONDS", "INVITATION_SECONDS", "MAX_FOLLOWS",
           "PresenceBook"]

log = logging.getLogger("skat.server")

ONLINE_SECONDS = 120.0
"""A person seen this recently is online."""
PRESENCE_SECONDS = 45.0
"""How often a server process tells the database that the people connected to it are still there."""
INVITATION_SECONDS = 3600.0
"""How long an invitation to a table stands."""
MAX_FOLLOWS = 500
"""The most people one person follows."""


def _now() -> float:
    return time.time()


@dataclass
class Person:
    """An account as friends see it."""

    id: str
    name: str

    def key(self) -> str:
        return f"a-{self.id}"


class FriendsService:
    """Follows, blocks, presence and invitations over the database (every method runs in a thread: the routes
    call them with ``asyncio.to_thread``)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    # ------------------------------------------------------------ who
    def person(self, conn: Connection, account_id: str) -> Person:
        """An account that exists and is not disabled; ``404 no_player`` otherwise."""
        row = conn.execute(select(accounts_t.c.id, accounts_t.c.name, accounts_t.c.disabled)
                           .where(accounts_t.c.id == account_id)).first()
        if row is None or row.disabled:
            raise TableError(ErrorCode.NO_PLAYER, f"there is no person a-{account_id[:40]}", 404)
        return Person(row.id, row.name)

    def find(self, account_id: str | None = None, name: str | None = None) -> Person:
        """A person by account id, or by name (as typed: the same name after Unicode's NFKC and case folding, as
        accounts are told apart); ``404 no_player`` when there is none."""
        with self.engine.connect() as conn:
            if account_id is not None:
                return self.person(conn, account_id)
            try:
                _name, key = clean_account_name(name)
            except TableError:
                raise TableError(ErrorCode.NO_PLAYER, f"there is no person named {str(name)[:40]!r}", 404) from None
            row = conn.execute(select(accounts_t.c.id).where(accounts_t.c.name_key == key)).first()
            if row is None:
                raise TableError(ErrorCode.NO_PLAYER, f"there is no person named {str(name)[:40]!r}", 404)
            return self.person(conn, row.id)

    @staticmethod
    def _not_me(me: str, other: str, what: str) -> None:
        if me == other:
            raise TableError(ErrorCode.BAD_FRIEND, f"you cannot {what} yourself")

    # ------------------------------------------------------------ following and blocking
    def follow(self, me: str, other: str, on: bool = True) -> None:
        """Follow a person (``on``) or stop following them. Following a person who blocked you, or whom you
        blocked, is refused (``blocked``)."""
        self._not_me(me, other, "follow")
        with self.engine.begin() as conn:
            self.person(conn, other)
            if not on:
                conn.execute(delete(follows_t).where(follows_t.c.follower == me, follows_t.c.followed == other))
                return
            if self._blocked(conn, me, other):
                raise TableError(ErrorCode.BLOCKED, "you cannot follow this person: one of you blocked the other",
                                 403)
            count = conn.execute(select(func.count()).select_from(follows_t).where(follows_t.c.follower == me)
                                 ).scalar_one()
            if count >= MAX_FOLLOWS:
                raise TableError(ErrorCode.BAD_FRIEND, f"you follow {MAX_FOLLOWS} people, the most there may be: "
                                 "stop following somebody first")
            conn.execute(dialect_insert(conn, follows_t).values(follower=me, followed=other, at=_now())
                         .on_conflict_do_nothing())

    def block(self, me: str, other: str, on: bool = True) -> None:
        """Block a person (``on``; neither follows the other any more, their invitations to you go) or unblock."""
        self._not_me(me, other, "block")
        with self.engine.begin() as conn:
            self.person(conn, other)
            if not on:
                conn.execute(delete(blocks_t).where(blocks_t.c.blocker == me, blocks_t.c.blocked == other))
                return
            conn.execute(dialect_insert(conn, blocks_t).values(blocker=me, blocked=other, at=_now())
                         .on_conflict_do_nothing())
            conn.execute(delete(follows_t).where(or_(
                and_(follows_t.c.follower == me, follows_t.c.followed == other),
                and_(follows_t.c.follower == other, follows_t.c.followed == me))))
            conn.execute(delete(invitations_t).where(or_(
                and_(invitations_t.c.from_account == other, invitations_t.c.to_account == me),
                and_(invitations_t.c.from_account == me, invitations_t.c.to_account == other))))

    @staticmethod
    def _blocked(conn: Connection, a: str, b: str) -> bool:
        """Whether one of two people blocked the other."""
        return conn.execute(select(blocks_t.c.blocker).where(or_(
            and_(blocks_t.c.blocker == a, blocks_t.c.blocked == b),
            and_(blocks_t.c.blocker == b, blocks_t.c.blocked == a))).limit(1)).first() is not None

    def blockers_of(self, person: str, among: list[str]) -> set[str]:
        """Those of ``among`` who blocked ``person``."""
        if not among:
            return set()
        with self.engine.connect() as conn:
            return set(conn.execute(select(blocks_t.c.blocker).where(
                blocks_t.c.blocked == person, blocks_t.c.blocker.in_(among))).scalars())

    def blocked_by(self, person: str) -> set[str]:
        """The people ``person`` blocked."""
        with self.engine.connect() as conn:
            return set(conn.execute(select(blocks_t.c.blocked).where(blocks_t.c.blocker == person)).scalars())

    def check_join(self, person: str | None, table_id: str) -> None:
        """Refuse a person's joining a table where somebody seated blocked them (``403 blocked``)."""
        if person is None:
            return
        with self.engine.connect() as conn:
            rows = conn.execute(select(seats_t.c.account_id).where(
                seats_t.c.table_id == table_id, seats_t.c.account_id.is_not(None))).all()
        seated = [str(r.account_id) for r in rows]
        if seated and self.blockers_of(person, seated):
            raise TableError(ErrorCode.BLOCKED, "you cannot join this table: a person seated at it blocked you", 403)

    # ------------------------------------------------------------ presence
    def seen(self, account_ids: list[str], table_id: str | None = None, *, keep_table: bool = False,
             now: float | None = None) -> None:
        """People seen now: at ``table_id`` (None: at no table), or (``keep_table``) wherever they were."""
        if not account_ids:
            return
        now = _now() if now is None else now
        with self.engine.begin() as conn:
            for account_id in account_ids:
                stmt = dialect_insert(conn, presence_t).values(account_id=account_id, table_id=table_id, at=now)
                changes: dict[str, Any] = {"at": now} if keep_table else {"at": now, "table_id": table_id}
                conn.execute(stmt.on_conflict_do_update(index_elements=["account_id"], set_=changes))

    # ------------------------------------------------------------ what a person sees
    def friends(self, me: str, now: float | None = None) -> dict[str, Any]:
        """The people ``me`` follows (each online or not, and at which table when the table is one ``me`` may
        see: a public one, or one ``me`` sits at), the people ``me`` blocked, and the invitations to ``me``."""
        now = _now() if now is None else now
        with self.engine.connect() as conn:
            c = follows_t.c
            rows = conn.execute(
                select(accounts_t.c.id, accounts_t.c.name, presence_t.c.table_id, presence_t.c.at)
                .select_from(follows_t.join(accounts_t, accounts_t.c.id == c.followed)
                             .outerjoin(presence_t, presence_t.c.account_id == c.followed))
                .where(c.follower == me, accounts_t.c.disabled.is_(False))
                .order_by(func.lower(accounts_t.c.name))).all()
            tables = self._tables(conn, me, {r.table_id for r in rows if r.table_id})
            following = []
            for r in rows:
                online = r.at is not None and r.at >= now - ONLINE_SECONDS
                following.append({"player": f"a-{r.id}", "name": r.name, "online": online,
                                  "table": tables.get(r.table_id) if online and r.table_id else None})
            following.sort(key=lambda f: (not f["online"], f["name"].lower()))
            blocked = [{"player": f"a-{r.id}", "name": r.name} for r in conn.execute(
                select(accounts_t.c.id, accounts_t.c.name).select_from(
                    blocks_t.join(accounts_t, accounts_t.c.id == blocks_t.c.blocked))
                .where(blocks_t.c.blocker == me).order_by(func.lower(accounts_t.c.name)))]
            followers = conn.execute(select(func.count()).select_from(follows_t).where(c.followed == me)).scalar_one()
        return {"following": following, "blocked": blocked, "followers": followers,
                "invitations": self.invitations(me, now)}

    @staticmethod
    def _tables(conn: Connection, me: str, table_ids: set[str]) -> dict[str, dict[str, Any]]:
        """The open tables among ``table_ids`` as a friend's entry shows them: a public one, or one ``me`` sits at
        (a private table another person sits at is "a private table", no more)."""
        if not table_ids:
            return {}
        mine: set[str] = set(conn.execute(select(seats_t.c.table_id).where(
            seats_t.c.table_id.in_(table_ids), seats_t.c.account_id == me)).scalars())
        out: dict[str, dict[str, Any]] = {}
        for t in conn.execute(select(tables_t.c.id, tables_t.c.name, tables_t.c.settings, tables_t.c.closed)
                              .where(tables_t.c.id.in_(table_ids))):
            if t.closed:
                continue
            public = bool(json.loads(t.settings).get("public", True))
            if public or t.id in mine:
                out[t.id] = {"id": t.id, "name": t.name, "public": public}
            else:
                out[t.id] = {"id": None, "name": None, "public": False}
        return out

    # ------------------------------------------------------------ invitations
    def invite(self, me: str, other: str, table_id: str, invite: str | None, now: float | None = None) -> None:
        """Invite a person to a table ``me`` sits at (a private table's ``invite`` secret goes with it, for them
        only). Refused: ``blocked`` (one of the two blocked the other), ``not_at_table`` (``me`` has no seat at
        an open table of that id). A second invitation to the same table replaces the first."""
        self._not_me(me, other, "invite")
        now = _now() if now is None else now
        with self.engine.begin() as conn:
            self.person(conn, other)
            if self._blocked(conn, me, other):
                raise TableError(ErrorCode.BLOCKED, "you cannot invite this person: one of you blocked the other", 403)
            seat = conn.execute(select(seats_t.c.position).select_from(
                seats_t.join(tables_t, tables_t.c.id == seats_t.c.table_id)).where(
                seats_t.c.table_id == table_id, seats_t.c.account_id == me, tables_t.c.closed.is_(False))
                .limit(1)).first()
            if seat is None:
                raise TableError(ErrorCode.NOT_AT_TABLE, "you can invite people only to an open table you sit at", 403)
            conn.execute(delete(invitations_t).where(
                invitations_t.c.from_account == me, invitations_t.c.to_account == other,
                invitations_t.c.table_id == table_id))
            conn.execute(invitations_t.insert().values(from_account=me, to_account=other, table_id=table_id,
                                                       invite=invite, at=now))

    def invitations(self, me: str, now: float | None = None) -> list[dict[str, Any]]:
        """The standing invitations to ``me``, newest first: who, which table, and the table's address (with its
        invite secret at a private table)."""
        now = _now() if now is None else now
        i = invitations_t.c
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(i.id, i.table_id, i.invite, i.at, accounts_t.c.id.label("from_id"),
                       accounts_t.c.name.label("from_name"), tables_t.c.name.label("table_name"))
                .select_from(invitations_t.join(accounts_t, accounts_t.c.id == i.from_account)
                             .join(tables_t, tables_t.c.id == i.table_id))
                .where(i.to_account == me, i.at >= now - INVITATION_SECONDS, tables_t.c.closed.is_(False),
                       accounts_t.c.disabled.is_(False))
                .order_by(i.at.desc()).limit(20)).all()
        return [{"id": r.id, "by": {"player": f"a-{r.from_id}", "name": r.from_name},
                 "table": {"id": r.table_id, "name": r.table_name}, "at": r.at,
                 "url": f"/t/{r.table_id}" + (f"#invite={r.invite}" if r.invite else "")} for r in rows]

    def dismiss(self, me: str, invitation_id: int) -> None:
        """Drop an invitation to ``me``."""
        with self.engine.begin() as conn:
            conn.execute(delete(invitations_t).where(invitations_t.c.id == invitation_id,
                                                     invitations_t.c.to_account == me))

    def expire(self, now: float | None = None) -> int:
        """Delete old invitations and old presence rows; returns the rows deleted."""
        now = _now() if now is None else now
        with self.engine.begin() as conn:
            gone = conn.execute(delete(invitations_t).where(invitations_t.c.at < now - INVITATION_SECONDS)).rowcount
            gone += conn.execute(update(presence_t).where(presence_t.c.at < now - ONLINE_SECONDS,
                                                          presence_t.c.table_id.is_not(None))
                                 .values(table_id=None)).rowcount
        return int(gone or 0)


class PresenceBook:
    """The signed-in people connected to this server process's tables: told to the database as they come and go,
    and every :data:`PRESENCE_SECONDS` while they stay."""

    def __init__(self, service: FriendsService) -> None:
        self.service = service
        self.at: dict[str, Counter[str]] = {}
        self.task: asyncio.Task[None] | None = None
        self._writer: ThreadPoolExecutor | None = None

    def _write_later(self, account_id: str) -> Future[None]:
        """Queue a write of where the person is to the book's one writer thread: the writes are made in the order
        the arrivals and leavings came, each of the state when it is made (so the database ends with the last),
        and a leaving is written even when the event loop that saw it ends (a test client's)."""
        if self._writer is None:
            self._writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="skat-presence")
        return self._writer.submit(self._write_where, account_id)

    def _write_where(self, account_id: str) -> None:
        try:
            tables = list(self.at.get(account_id) or ())
            self.service.seen([account_id], tables[0] if tables else None)
        except Exception:  # presence is a courtesy: the table goes on
            log.exception("the presence of person %s could not be written", account_id)

    async def arrive(self, account_id: str, table_id: str) -> None:
        """A connection of a signed-in person to a table began."""
        self.at.setdefault(account_id, Counter())[table_id] += 1
        await asyncio.wrap_future(self._write_later(account_id))
        if self.task is None or self.task.done():
            self.task = asyncio.get_running_loop().create_task(self._keep())

    def leave(self, account_id: str, table_id: str) -> None:
        """A connection counted by :meth:`arrive` ended: told to the database by the writer thread (the connection's
        own task may be ending)."""
        tables = self.at.get(account_id)
        if tables is None:
            return
        tables[table_id] -= 1
        if tables[table_id] <= 0:
            del tables[table_id]
        if not tables:
            del self.at[account_id]
        self._write_later(account_id)

    async def _tell(self, account_ids: list[str], table_id: str | None, keep_table: bool = False) -> None:
        try:
            await asyncio.to_thread(self.service.seen, account_ids, table_id, keep_table=keep_table)
        except Exception:  # presence is a courtesy: the table goes on
            log.exception("the presence of %d people could not be written", len(account_ids))

    async def _keep(self) -> None:
        """Tell the database every :data:`PRESENCE_SECONDS` that the people connected here are still here."""
        while self.at:
            await asyncio.sleep(PRESENCE_SECONDS)
            await self._tell(sorted(self.at), None, keep_table=True)
            try:
                await asyncio.to_thread(self.service.expire)
            except Exception:
                log.exception("old invitations and presence could not be deleted")

    def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
        if self._writer is not None:  # what is queued is still written
            self._writer.shutdown(wait=False)
            self._writer = None
