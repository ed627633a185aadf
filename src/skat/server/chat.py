"""Chat at a table and in the lobby (issue 30, point 2; docs/chat.md).

* At a table, over its WebSocket (:mod:`skat.server.sockets`): ``{"type": "chat", "text" | "phrase"}``. A player's
  message goes to the players' channel, a spectator's to the spectators'; everybody at the table gets both (the page
  lets a player hide the spectators'). A spectator chats under a signed-in account; a player under the seat.
* In the lobby, over REST (:mod:`skat.server.routes.chat`): signed-in accounts only.
* A message is plain text: control and direction characters removed, trimmed, 1 to :data:`MAX_CHARS` characters
  (``chat_empty``, ``chat_too_long``), or one of the preset phrases (:data:`PHRASES`; ``bad_phrase``), whose key it
  carries, so that every reader sees it in their own language. Markup is kept as the text it is: the pages show
  every message as text (``textContent``), never as HTML.
* An author writes at most :attr:`skat.server.limits.Limits.chat` messages (5 per 10 s; ``chat_flood`` says how
  long to wait). An account the operator disabled (``skat user disable``) may not chat (``chat_forbidden``).
* Muting: a connection hides an author (``{"type": "mute", "author", "on"}``): it is sent none of the author's
  messages; the page keeps its list (localStorage) and sends it again after each ``hello``. A message whose every
  reader at the table muted its author is refused ``chat_muted``.
* Every refusal is one ``error`` with its code, and nothing is stored or sent.
* The messages are kept in ``chat_messages`` with their room (the table's id, or ``lobby``) for
  :attr:`~skat.server.limits.Limits.chat_keep_seconds` (30 days), then deleted by the server's sweep
  (:meth:`ChatService.expire`). The operator lists and deletes them with ``skat chat`` (:mod:`skat.commands.chat`).
* With several server processes (PostgreSQL) a message is told to the other processes by the store's notice of its
  write (``{"chat": room, "m": message}``; a deletion ``{"chat_deleted": id, "room": room}``), which reaches
  :meth:`ChatService.on_notice` through the manager's listeners.
"""

from __future__ import annotations

import asyncio
import hashlib
import time
import unicodedata
import weakref
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy import delete, insert, select, update
from sqlalchemy.engine import Connection, Engine

from skat.server.accounts import SESSION_COOKIE, Account, AccountService
from skat.server.connections import Client, encode_message
from skat.server.core import TableError
from skat.server.database import accounts_t, chat_messages_t, seats_t
from skat.server.errors import ErrorCode
from skat.server.limits import ClientBuckets, Limits, retry_after
from skat.server.messages import CHAT_PHRASES
from skat.server.store import Store
from skat.server.tables import ServerTable

__all__ = ["ChatService", "Author", "PHRASES", "MAX_CHARS", "HISTORY", "LOBBY", "author_tag", "clean_text",
           "list_messages", "delete_message", "expire_messages"]

PHRASES = CHAT_PHRASES
MAX_CHARS = 300
"""The longest message, in characters after cleaning (:func:`clean_text`)."""
HISTORY = 50
"""Messages a newcomer at a table (and the lobby page) is sent: the most recent ones."""
MAX_MUTES = 200
"""Authors one connection may mute (the page's list is capped the same)."""
LOBBY = "lobby"
"""The room of the lobby's chat (a table's room is its id)."""

_DIRECTION = frozenset("\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u061c")
"""Direction marks and overrides: a message may not turn the text after it around."""
_DROPPED = frozenset({"Cc", "Cs", "Co", "Cn"})


@dataclass(frozen=True)
class Author:
    """Who writes: ``key`` is the person's key (``a:ACCOUNT``, ``g:GUEST_HASH`` or ``s:TABLE:POSITION``; never a
    token), ``account_id`` the account when there is one (an operator can disable it)."""

    key: str
    name: str
    position: int | None
    account_id: str | None = None


def author_tag(key: str) -> str:
    """The id a reader mutes an author by: a hash of the author's key (the key itself is not shown: a guest's is
    private)."""
    return hashlib.sha256(("chat:" + key).encode()).hexdigest()[:16]


def clean_text(raw: Any) -> str:
    """A message's text as kept: line breaks and tabs as spaces, control, private-use and direction characters
    removed, trimmed; ``chat_empty`` when nothing is left, ``chat_too_long`` over :data:`MAX_CHARS` characters."""
    if not isinstance(raw, str):
        raise TableError(ErrorCode.BAD_MESSAGE, "text: a chat message's text is a string")
    text = "".join(" " if c in "\n\r\t" else c for c in raw
                   if c in "\n\r\t" or (c not in _DIRECTION and unicodedata.category(c) not in _DROPPED)).strip()
    if not text:
        raise TableError(ErrorCode.CHAT_EMPTY, "the message is empty: write something (spaces and control "
                         "characters do not count)")
    if len(text) > MAX_CHARS:
        raise TableError(ErrorCode.CHAT_TOO_LONG, f"a message has at most {MAX_CHARS} characters; this one has "
                         f"{len(text)}: nothing was sent")
    return text


def judge(text: Any, phrase: Any) -> tuple[str | None, str | None]:
    """The message's (text, phrase): exactly one of them; each refused with its own code."""
    if phrase is not None:
        if text is not None:
            raise TableError(ErrorCode.BAD_MESSAGE, "send a text or a phrase, not both")
        if not isinstance(phrase, str) or phrase not in PHRASES:
            shown = phrase[:40] if isinstance(phrase, str) else phrase
            raise TableError(ErrorCode.BAD_PHRASE, f"there is no preset phrase {shown!r}; the phrases are "
                             f"{', '.join(PHRASES)}")
        return None, phrase
    if text is None:
        raise TableError(ErrorCode.CHAT_EMPTY, "the message is empty: send a text or a phrase")
    return clean_text(text), None


def line_of(row: Any) -> dict[str, Any]:
    """A stored message as the protocol sends it (:class:`skat.server.messages.ChatLine`)."""
    return {"id": int(row.id), "channel": row.channel,
            "from": {"name": row.name, "position": row.position, "author": author_tag(row.author)},
            "text": row.text, "phrase": row.phrase, "at": float(row.at)}


# ------------------------------------------------------------------ the database (plain functions: the CLI too)
def recent(engine: Engine, room: str, after: int = 0, limit: int = HISTORY) -> list[dict[str, Any]]:
    """The room's most recent messages that are not deleted (with ``after``: only those after that id), oldest
    first."""
    query = (select(chat_messages_t).where(chat_messages_t.c.room == room, chat_messages_t.c.deleted.is_(False),
                                           chat_messages_t.c.id > after)
             .order_by(chat_messages_t.c.id.desc()).limit(limit))
    with engine.connect() as conn:
        rows = conn.execute(query).all()
    return [line_of(r) for r in reversed(rows)]


def list_messages(engine: Engine, room: str | None = None, limit: int = 100) -> list[Any]:
    """The operator's list: the most recent messages (of a room), deleted ones too, oldest first."""
    query = select(chat_messages_t).order_by(chat_messages_t.c.id.desc()).limit(limit)
    if room is not None:
        query = query.where(chat_messages_t.c.room == room)
    with engine.connect() as conn:
        return list(reversed(conn.execute(query).all()))


def delete_message(store: Store, message_id: int) -> Any | None:
    """Mark a message deleted (the operator's ``skat chat delete``); its row, or None when there is none. The
    server processes on PostgreSQL hear of it (a notice) and tell their clients; on SQLite the clients stop
    seeing it when they next load the chat."""
    with store.engine.connect() as conn:
        row = conn.execute(select(chat_messages_t).where(chat_messages_t.c.id == message_id)).first()
    if row is None:
        return None

    def op(conn: Connection) -> None:
        conn.execute(update(chat_messages_t).where(chat_messages_t.c.id == message_id).values(deleted=True))
    store.submit(op, {"chat_deleted": message_id, "room": row.room}).result(timeout=30)
    return row


def expire_messages(conn: Connection, before: float) -> int:
    """Delete the messages written before ``before`` (wall-clock seconds); how many."""
    return conn.execute(delete(chat_messages_t).where(chat_messages_t.c.at < before)).rowcount or 0


def _seat_owner(engine: Engine, table_id: str, position: int) -> tuple[str | None, str | None, bool]:
    """A seat's account, its guest hash, and whether its account is disabled."""
    with engine.connect() as conn:
        row = conn.execute(select(seats_t.c.account_id, seats_t.c.guest_hash, accounts_t.c.disabled)
                           .select_from(seats_t.outerjoin(accounts_t, accounts_t.c.id == seats_t.c.account_id))
                           .where(seats_t.c.table_id == table_id, seats_t.c.position == position)).first()
    if row is None:
        return None, None, False
    return row.account_id, row.guest_hash, bool(row.disabled)


def _disabled(engine: Engine, account_id: str) -> bool:
    """Whether the account is disabled (or gone)."""
    with engine.connect() as conn:
        row = conn.execute(select(accounts_t.c.disabled).where(accounts_t.c.id == account_id)).first()
    return row is None or bool(row.disabled)


# ------------------------------------------------------------------ the service
class ChatService:
    """The chat of one server process: checks, stores and sends messages; ``app.state.chat``.

    ``tables`` finds a table this process holds by its id (the manager's ``tables.get``), for the notices of the
    other processes."""

    def __init__(self, store: Store, accounts: AccountService, limits: Limits,
                 tables: Callable[[str], ServerTable | None], *, clock: Callable[[], float] = time.time,
                 monotonic: Callable[[], float] = time.monotonic) -> None:
        self.store = store
        self.accounts = accounts
        self.limits = limits
        self.tables = tables
        self.clock = clock
        self.monotonic = monotonic
        self.buckets = ClientBuckets(limits.chat, limits.max_clients)
        self.mutes: weakref.WeakKeyDictionary[Client, set[str]] = weakref.WeakKeyDictionary()
        """The authors (their tags) each connection muted."""
        self.spectators: weakref.WeakKeyDictionary[Client, Author] = weakref.WeakKeyDictionary()
        """A spectator's account, found from its session cookie at its first message."""
        self.blocks: weakref.WeakKeyDictionary[Client, set[str]] = weakref.WeakKeyDictionary()
        """The authors (their tags) each connection's signed-in person blocked (docs/friends.md): never shown to it,
        whatever its mutes."""
        self.people: weakref.WeakKeyDictionary[Client, str] = weakref.WeakKeyDictionary()
        """The signed-in person (account id) of each connection whose blocks are kept: a block made later reaches it."""
        self.blocked_by: Callable[[str], set[str]] | None = None
        """Reads the people an account blocked (the friends service's; set by the app): a block made at another
        server process is read again here when its notice comes."""

    # ------------------------------------------------------------ authors
    async def _table_author(self, table: ServerTable, client: Client, cookies: Mapping[str, str]) -> Author:
        """Who a connection at a table is: its seat, or a spectator's signed-in account (``signed_out`` without
        one); ``chat_forbidden`` for a disabled account."""
        engine = self.store.engine
        if client.position is not None:
            position = client.position
            account_id, guest_hash, disabled = await asyncio.to_thread(_seat_owner, engine, table.id, position)
            if disabled:
                raise _forbidden()
            key = f"a:{account_id}" if account_id else f"g:{guest_hash}" if guest_hash else f"s:{table.id}:{position}"
            name = table.seats[position].name if position < len(table.seats) else ""
            return Author(key, name or f"Player {position + 1}", position, account_id)
        author = self.spectators.get(client)
        if author is None:
            account = await asyncio.to_thread(self.accounts.session, cookies.get(SESSION_COOKIE))
            if account is None:
                raise TableError(ErrorCode.SIGNED_OUT, "spectators chat under their account: sign in (the account "
                                 "page), then come back to this table", 401)
            author = self.spectators[client] = Author(f"a:{account.id}", account.name, None, account.id)
        elif author.account_id is not None:
            if await asyncio.to_thread(_disabled, engine, author.account_id):
                raise _forbidden()
        return author

    def _flood(self, author: Author) -> None:
        """Count one message of the author; ``chat_flood`` (nothing counted) over :attr:`Limits.chat`."""
        wait = self.buckets.take(author.key, self.monotonic())
        if wait:
            raise TableError(ErrorCode.CHAT_FLOOD, f"too many messages: {self.limits.chat.describe()}; wait "
                             f"{retry_after(wait)} s before the next one (nothing was sent)", 429)

    # ------------------------------------------------------------ a table
    async def say(self, table: ServerTable, client: Client, text: Any, phrase: Any,
                  cookies: Mapping[str, str]) -> dict[str, Any]:
        """Check, store and send one message of a connection at a table; every refusal raises its
        :class:`TableError` before anything is stored or sent. Returns the message as sent."""
        text, phrase = judge(text, phrase)
        author = await self._table_author(table, client, cookies)
        channel = "players" if author.position is not None else "spectators"
        tag = author_tag(author.key)
        readers = [c for c in table.clients if c is not client]
        if readers and all(self._hidden(c, tag) for c in readers):
            raise TableError(ErrorCode.CHAT_MUTED, "everybody at this table muted you: your message would reach "
                             "nobody, so it was not sent")
        self._flood(author)
        line = await self._store(table.id, channel, author, text, phrase)
        await self.deliver(table, line)
        return line

    async def _store(self, room: str, channel: str, author: Author, text: str | None,
                     phrase: str | None) -> dict[str, Any]:
        at = self.clock()
        line: dict[str, Any] = {"id": 0, "channel": channel,
                                "from": {"name": author.name, "position": author.position,
                                         "author": author_tag(author.key)},
                                "text": text, "phrase": phrase, "at": at}
        notice = {"chat": room, "m": line}

        def op(conn: Connection) -> int:
            done = conn.execute(insert(chat_messages_t).values(
                room=room, channel=channel, author=author.key, name=author.name[:100], position=author.position,
                text=text, phrase=phrase, at=at, deleted=False))
            key = done.inserted_primary_key
            assert key is not None
            line["id"] = int(key[0])  # the notice is written after the op: it carries the id
            return line["id"]
        await self.store.submit(op, notice)
        return line

    async def deliver(self, table: ServerTable, line: dict[str, Any]) -> None:
        """Send a message to every client at the table but those who muted its author."""
        tag = line["from"]["author"]
        encoded = encode_message({"type": "chat", **line})
        for client in list(table.clients):
            if not self._hidden(client, tag):
                await table.clients.send(client, encoded)

    def _hidden(self, client: Client, tag: str) -> bool:
        """Whether a connection does not see an author's messages: muted, or blocked by its person."""
        return tag in self.mutes.get(client, ()) or tag in self.blocks.get(client, ())

    def block_for(self, client: Client, blocked_accounts: set[str], account_id: str | None = None) -> None:
        """The people a connection's signed-in person (``account_id``) blocked (account ids): their messages are not
        sent to it."""
        self.blocks[client] = {author_tag(f"a:{blocked}") for blocked in blocked_accounts}
        if account_id is not None:
            self.people[client] = account_id

    def blocks_changed(self, account_id: str, blocked_accounts: set[str]) -> int:
        """A person blocked or unblocked somebody: every connection of theirs here follows at once (not only at the
        next connect). How many connections."""
        clients = [client for client, person in list(self.people.items()) if person == account_id]
        for client in clients:
            self.block_for(client, blocked_accounts)
        return len(clients)

    async def _read_blocks(self, account_id: str) -> None:
        if self.blocked_by is None or account_id not in set(self.people.values()):
            return
        self.blocks_changed(account_id, await asyncio.to_thread(self.blocked_by, account_id))

    def without_blocked(self, client: Client, history: dict[str, Any]) -> dict[str, Any]:
        """A ``chat_history`` less the messages of the people the connection's person blocked."""
        tags = self.blocks.get(client)
        if not tags:
            return history
        return {**history, "messages": [m for m in history["messages"] if m["from"]["author"] not in tags]}

    async def history(self, table_id: str) -> dict[str, Any]:
        """``chat_history``: the table's recent messages, for a newcomer."""
        messages = await asyncio.to_thread(recent, self.store.engine, table_id)
        return {"type": "chat_history", "messages": messages}

    def mute(self, client: Client, author: Any, on: Any) -> None:
        """A connection hides (or shows again) an author's messages."""
        if not isinstance(author, str) or not 1 <= len(author) <= 40:
            raise TableError(ErrorCode.BAD_MESSAGE, "author: the author's id, as the chat messages give it")
        if not isinstance(on, bool):
            raise TableError(ErrorCode.BAD_MESSAGE, "on: true (mute) or false (show again)")
        muted = self.mutes.setdefault(client, set())
        if not on:
            muted.discard(author)
        elif len(muted) >= MAX_MUTES and author not in muted:
            raise TableError(ErrorCode.BAD_MESSAGE, f"a connection mutes at most {MAX_MUTES} authors")
        else:
            muted.add(author)

    # ------------------------------------------------------------ the lobby
    async def lobby(self, after: int = 0) -> list[dict[str, Any]]:
        return await asyncio.to_thread(recent, self.store.engine, LOBBY, after)

    async def say_in_lobby(self, account: Account, text: Any, phrase: Any) -> dict[str, Any]:
        """Check and store one message of a signed-in account in the lobby (which the lobby pages read)."""
        text, phrase = judge(text, phrase)
        disabled: bool = account.disabled or await asyncio.to_thread(_disabled, self.store.engine, account.id)
        if disabled:
            raise _forbidden()
        author = Author(f"a:{account.id}", account.name, None, account.id)
        self._flood(author)
        return await self._store(LOBBY, "lobby", author, text, phrase)

    # ------------------------------------------------------------ other processes, the sweep
    def on_notice(self, notice: dict[str, Any]) -> None:
        """A notice of another server process: a message said at a table held here too, or one deleted, or a
        person's blocks changed."""
        if isinstance(notice.get("blocks"), str):
            _background(self._read_blocks(notice["blocks"]))
            return
        room = notice.get("chat") or notice.get("room")
        if not isinstance(room, str):
            return
        table = self.tables(room)
        if table is None:
            return
        if isinstance(notice.get("m"), dict):
            _background(self.deliver(table, notice["m"]))
        elif isinstance(notice.get("chat_deleted"), int):
            _background(table.broadcast_message({"type": "chat_deleted", "id": notice["chat_deleted"]}))

    def on_missed(self) -> None:
        """Notices may have been missed: the pages load the chat again when they reconnect."""

    async def expire(self) -> int:
        """Delete the messages older than :attr:`Limits.chat_keep_seconds`; how many."""
        before = self.clock() - self.limits.chat_keep_seconds
        deleted: int = await self.store.submit(lambda conn: expire_messages(conn, before))
        return deleted


def _forbidden() -> TableError:
    return TableError(ErrorCode.CHAT_FORBIDDEN, "this account may not chat: the server's operator disabled it", 403)


_TASKS: set[asyncio.Task[Any]] = set()


def _background(coro: Any) -> None:
    task = asyncio.get_running_loop().create_task(coro)
    _TASKS.add(task)
    task.add_done_callback(_TASKS.discard)
