"""People's accounts (issue 29, docs/accounts.md): register with a name and a password, sign in and out, change
the password; the operator's ``skat user`` command lists, adds, resets, disables and deletes them.

* A name is kept as typed (trimmed) and by its key, NFKC-normalised and case folded (:func:`name_key`): two
  names with one key are one name (``Straße`` and ``STRASSE``), refused ``409 name_taken``.
* A password is kept as its Argon2id hash (argon2-cffi's :class:`~argon2.PasswordHasher`), never itself.
* A session is a random token in an HttpOnly cookie (:data:`SESSION_COOKIE`); the database keeps its sha256,
  never the token, so a session is revoked by deleting its row.
* Wrong passwords are counted in the database (``login_failures``) per account and per client address, so the
  limits (:attr:`skat.server.limits.Limits.login_account`, ``login_address``) hold across server processes;
  past them every attempt is refused ``429 throttled`` with ``Retry-After`` until the window has passed.
* A guest (no account) has a random id in a cookie (:data:`GUEST_COOKIE`); the seats the guest takes carry its
  hash, and registering or signing in in that browser moves them to the account
  (:meth:`AccountService.claim_guest_seats`).
* Deleting an account removes its row (name, hash), its sessions, its counted failures and its history,
  statistics and rating (:func:`skat.server.history.forget_player`); its seats stay in the stored games without
  account and under a neutral name (``Player 2``).

The methods are plain (blocking) functions on the store's engine: the routes run them in a thread
(:mod:`skat.server.routes.accounts`), the ``skat user`` command directly.
"""

from __future__ import annotations

import hashlib
import secrets
import time
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from argon2 import PasswordHasher, Type
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError
from sqlalchemy import String, cast, delete, func, insert, literal, select, update
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError

from skat.server.core import TableError, hash_token, new_secret
from skat.server.database import account_sessions_t, accounts_t, login_failures_t, seats_t
from skat.server.errors import ErrorCode
from skat.server.history import claim_guest, forget_player
from skat.server.limits import Limits, Rate, retry_after
from skat.server.security import SESSION_COOKIE  # the session's token (HttpOnly, SameSite=Lax, Secure under https)
from skat.table.season import name_key  # the one rule names are compared by (a season's members too)

__all__ = ["AccountService", "Account", "guest_player", "ThrottledError", "name_key", "clean_account_name", "check_password",
           "SESSION_COOKIE", "GUEST_COOKIE", "MIN_PASSWORD", "MAX_PASSWORD", "MAX_NAME", "LAST_SEEN_SECONDS"]

GUEST_COOKIE = "skat_guest"
"""The cookie of a guest browser: a random id; its seats carry the id's sha256."""
MIN_PASSWORD = 8
MAX_PASSWORD = 256
MAX_NAME = 40
MAX_KEY = 160
"""The longest name key (NFKC may make a name longer: a name whose key is longer is refused)."""
LOCAL_PASSWORD_HASH = "!local: no password; skat play signs its browser in"
"""The password hash of ``skat play``'s local player (no Argon2 hash: no password verifies against it)."""
LAST_SEEN_SECONDS = 300.0
"""A session's ``last_seen`` is written at most this often (not on every request)."""
_REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})


@dataclass(frozen=True)
class Account:
    """An account as the server shows it: never its password hash."""

    id: str
    name: str
    created: float
    disabled: bool = False

    def public(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "created": self.created}


class ThrottledError(TableError):
    """Too many wrong passwords: ``429 throttled``, with ``retry_after`` seconds."""

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(ErrorCode.THROTTLED, message, 429)
        self.retry_after = retry_after


def clean_account_name(name: Any) -> tuple[str, str]:
    """The name as kept (trimmed) and its key; ``400 bad_account_name`` for one that is no text, empty, over
    :data:`MAX_NAME` characters or holding control or invisible characters."""
    if not isinstance(name, str):
        raise TableError(ErrorCode.BAD_ACCOUNT_NAME, "the name must be text")
    name = name.strip()
    if not 1 <= len(name) <= MAX_NAME:
        raise TableError(ErrorCode.BAD_ACCOUNT_NAME, f"a name has 1 to {MAX_NAME} characters (spaces at either end "
                         "do not count)")
    if any(unicodedata.category(c) in _REFUSED_CATEGORIES for c in name):
        raise TableError(ErrorCode.BAD_ACCOUNT_NAME, "a name may not hold control, format or invisible characters")
    key = name_key(name)
    if not key.strip() or len(key) > MAX_KEY:
        raise TableError(ErrorCode.BAD_ACCOUNT_NAME, "this name cannot be used: choose another")
    return name, key


def check_password(password: Any) -> str:
    """The password; ``400 weak_password`` for one that is no text or not :data:`MIN_PASSWORD` to
    :data:`MAX_PASSWORD` characters."""
    if not isinstance(password, str) or not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        raise TableError(ErrorCode.WEAK_PASSWORD, f"a password has {MIN_PASSWORD} to {MAX_PASSWORD} characters")
    return password


def _guest_hash(guest_id: str) -> str:
    return hashlib.sha256(("guest:" + guest_id).encode()).hexdigest()


def guest_player(guest_id: str) -> str:
    """The player key of a guest browser's id (its history's, docs/history.md)."""
    return "g:" + _guest_hash(guest_id)


def _failure_key(kind: str, value: str) -> str:
    return f"{kind}:{hashlib.sha256(value.encode()).hexdigest()}"


def _account(row: Any) -> Account:
    return Account(id=row.id, name=row.name, created=row.created, disabled=bool(row.disabled))


class AccountService:
    """Accounts, sessions and throttling on one database (``engine``). ``hasher``: the Argon2id hasher
    (tests pass a cheap one); ``clock``: wall-clock seconds (several processes share the counts)."""

    def __init__(self, engine: Engine, limits: Limits | None = None, *, hasher: PasswordHasher | None = None,
                 clock: Callable[[], float] = time.time) -> None:
        self.engine = engine
        self.limits = limits or Limits()
        self.hasher = hasher or PasswordHasher(type=Type.ID)
        if self.hasher.type is not Type.ID:
            raise ValueError("passwords are hashed with Argon2id")
        self.clock = clock
        self._dummy: str | None = None

    # ------------------------------------------------------------ passwords
    def _hash(self, password: str) -> str:
        return self.hasher.hash(password)

    def _verify(self, password_hash: str | None, password: str) -> bool:
        """Whether ``password`` is the one of ``password_hash``; with None (no such account) a dummy hash is
        checked all the same, so that an unknown name takes as long as a wrong password."""
        if password_hash is None:
            if self._dummy is None:
                self._dummy = self.hasher.hash(secrets.token_hex(16))
            password_hash = self._dummy
            try:
                self.hasher.verify(password_hash, password)
            except (VerificationError, InvalidHashError):
                pass
            return False
        try:
            return self.hasher.verify(password_hash, password)
        except VerifyMismatchError:
            return False
        except (VerificationError, InvalidHashError):
            return False

    # ------------------------------------------------------------- accounts
    def register(self, name: Any, password: Any, guest_id: str | None = None) -> tuple[Account, int]:
        """A new account (``409 name_taken`` when its key is another's); with ``guest_id``, the seats that
        guest took become the account's. Returns the account and the number of seats it claimed."""
        name, key = clean_account_name(name)
        password_hash = self._hash(check_password(password))
        account = Account(id=secrets.token_hex(8), name=name, created=self.clock())
        try:
            with self.engine.begin() as conn:
                if conn.execute(select(accounts_t.c.id).where(accounts_t.c.name_key == key)).first() is not None:
                    raise self._taken(name)
                conn.execute(insert(accounts_t).values(id=account.id, name=name, name_key=key,
                                                       password_hash=password_hash, created=account.created,
                                                       disabled=False))
                claimed = self._claim(conn, account.id, guest_id) if guest_id else 0
        except IntegrityError:  # registered at the same moment by another request
            raise self._taken(name) from None
        return account, claimed

    @staticmethod
    def _taken(name: str) -> TableError:
        return TableError(ErrorCode.NAME_TAKEN, f"the name {name!r} is taken (names are compared ignoring case and "
                          "the ways of writing a letter): choose another", 409)

    def local_account(self, name: str, *, rename: bool = False) -> Account:
        """The local player of ``skat play``: the person at the keyboard of a person's own server, one account per
        database, with no password (nobody signs in to it with one; ``skat play`` signs its browser in). Made at
        the first start under ``name`` (``name 2``, ... when another account has it; ``Player`` for a name that is
        none); with ``rename`` an existing local player takes ``name`` when it is free."""
        with self.engine.begin() as conn:
            row = conn.execute(select(accounts_t).where(accounts_t.c.password_hash == LOCAL_PASSWORD_HASH)).first()
            try:
                wanted, key = clean_account_name(name)
            except TableError:
                wanted, key = "Player", name_key("Player")
            if row is not None:
                if rename and key != row.name_key and conn.execute(
                        select(accounts_t.c.id).where(accounts_t.c.name_key == key)).first() is None:
                    conn.execute(update(accounts_t).where(accounts_t.c.id == row.id).values(name=wanted, name_key=key))
                    return Account(id=row.id, name=wanted, created=row.created)
                return _account(row)
            candidate, n = wanted, 1
            while conn.execute(select(accounts_t.c.id).where(accounts_t.c.name_key == name_key(candidate))).first():
                n += 1
                candidate = f"{wanted[:MAX_NAME - 4]} {n}"
            account = Account(id=secrets.token_hex(8), name=candidate, created=self.clock())
            conn.execute(insert(accounts_t).values(id=account.id, name=candidate, name_key=name_key(candidate),
                                                   password_hash=LOCAL_PASSWORD_HASH, created=account.created,
                                                   disabled=False))
        return account

    def find(self, name: Any) -> Account | None:
        """The account of a name (by its key), or None."""
        try:
            _, key = clean_account_name(name)
        except TableError:
            return None
        with self.engine.connect() as conn:
            row = conn.execute(select(accounts_t).where(accounts_t.c.name_key == key)).first()
        return None if row is None else _account(row)

    def get(self, account_id: str) -> Account | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(accounts_t).where(accounts_t.c.id == account_id)).first()
        return None if row is None else _account(row)

    def accounts(self) -> list[tuple[Account, int]]:
        """Every account (by name key) with its number of live sessions."""
        now = self.clock()
        with self.engine.connect() as conn:
            live: dict[str, int] = dict(conn.execute(select(account_sessions_t.c.account_id, func.count())
                                     .where(account_sessions_t.c.expires > now)
                                     .group_by(account_sessions_t.c.account_id)).all())
            rows = conn.execute(select(accounts_t).order_by(accounts_t.c.name_key)).all()
        return [(_account(r), int(live.get(r.id, 0))) for r in rows]

    # ------------------------------------------------------- signing in
    def authenticate(self, name: Any, password: Any, address: str) -> Account:
        """The account whose name and password these are. Refused ``429 throttled`` (before the password is
        checked) while the account's or the address' wrong passwords are over their limit; ``401 bad_login``
        for a wrong name or password (which is counted), ``403 account_disabled`` for a disabled account."""
        if not isinstance(name, str) or not isinstance(password, str) or len(password) > MAX_PASSWORD:
            raise TableError(ErrorCode.BAD_LOGIN, "the name or the password is wrong", 401)
        try:
            _, key = clean_account_name(name)
        except TableError:
            raise TableError(ErrorCode.BAD_LOGIN, "the name or the password is wrong", 401) from None
        keys = [(_failure_key("a", key), self.limits.login_account), (_failure_key("ip", address),
                                                                       self.limits.login_address)]
        self._throttle(keys)
        with self.engine.connect() as conn:
            row = conn.execute(select(accounts_t).where(accounts_t.c.name_key == key)).first()
        if not self._verify(None if row is None else row.password_hash, password):
            self._failed(keys)
            raise TableError(ErrorCode.BAD_LOGIN, "the name or the password is wrong", 401)
        assert row is not None
        with self.engine.begin() as conn:
            conn.execute(delete(login_failures_t).where(login_failures_t.c.key == keys[0][0]))
            if self.hasher.check_needs_rehash(row.password_hash):
                conn.execute(update(accounts_t).where(accounts_t.c.id == row.id)
                             .values(password_hash=self._hash(password)))
        if row.disabled:
            raise TableError(ErrorCode.ACCOUNT_DISABLED, "this account is disabled: ask the server's operator", 403)
        return _account(row)

    def _throttle(self, keys: list[tuple[str, Rate]]) -> None:
        now = self.clock()
        wait = 0.0
        with self.engine.connect() as conn:
            for key, rate in keys:
                times: list[float] = list(conn.execute(select(login_failures_t.c.at).where(
                    login_failures_t.c.key == key, login_failures_t.c.at > now - rate.seconds)
                    .order_by(login_failures_t.c.at)).scalars())
                if len(times) >= rate.count:
                    wait = max(wait, times[len(times) - rate.count] + rate.seconds - now)
        if wait > 0:
            seconds = retry_after(wait)
            raise ThrottledError(f"too many wrong passwords for this account or from your address: try again in "
                                 f"{seconds} s", seconds)

    def _failed(self, keys: list[tuple[str, Rate]]) -> None:
        now = self.clock()
        longest = max(self.limits.login_account.seconds, self.limits.login_address.seconds)
        with self.engine.begin() as conn:
            conn.execute(delete(login_failures_t).where(login_failures_t.c.at <= now - longest))
            conn.execute(insert(login_failures_t), [{"key": key, "at": now} for key, _ in keys])

    # ------------------------------------------------------------ sessions
    def create_session(self, account_id: str) -> str:
        """A new session of the account; its token (given once: the database keeps its hash)."""
        token = new_secret(32)
        now = self.clock()
        with self.engine.begin() as conn:
            conn.execute(delete(account_sessions_t).where(account_sessions_t.c.account_id == account_id,
                                                          account_sessions_t.c.expires <= now))
            conn.execute(insert(account_sessions_t).values(
                token_hash=hash_token(token), account_id=account_id, created=now, last_seen=now,
                expires=now + self.limits.session_seconds))
        return token

    def session(self, token: str | None) -> Account | None:
        """The account of a session token, or None (no such session, expired, revoked or the account disabled)."""
        if not token or not isinstance(token, str) or len(token) > 200:
            return None
        now = self.clock()
        digest = hash_token(token)
        with self.engine.connect() as conn:
            row = conn.execute(select(accounts_t, account_sessions_t.c.last_seen, account_sessions_t.c.expires)
                               .join(account_sessions_t, account_sessions_t.c.account_id == accounts_t.c.id)
                               .where(account_sessions_t.c.token_hash == digest)).first()
        if row is None or row.expires <= now or row.disabled:
            return None
        if now - row.last_seen >= LAST_SEEN_SECONDS:
            with self.engine.begin() as conn:
                conn.execute(update(account_sessions_t).where(account_sessions_t.c.token_hash == digest)
                             .values(last_seen=now))
        return _account(row)

    def revoke(self, token: str | None) -> None:
        """End one session (signing out)."""
        if token and isinstance(token, str):
            with self.engine.begin() as conn:
                conn.execute(delete(account_sessions_t).where(account_sessions_t.c.token_hash == hash_token(token)))

    def revoke_all(self, account_id: str, keep: str | None = None) -> int:
        """End every session of an account but ``keep``'s (a token); the number ended."""
        with self.engine.begin() as conn:
            query = delete(account_sessions_t).where(account_sessions_t.c.account_id == account_id)
            if keep:
                query = query.where(account_sessions_t.c.token_hash != hash_token(keep))
            return conn.execute(query).rowcount or 0

    # ------------------------------------------------------------ passwords
    def change_password(self, account: Account, old: Any, new: Any, address: str, keep: str | None = None) -> None:
        """The account's new password, after its old one (``403 bad_password``; counted and throttled as a
        sign-in); every other session of the account ends."""
        new = check_password(new)
        keys = [(_failure_key("a", name_key(account.name)), self.limits.login_account),
                (_failure_key("ip", address), self.limits.login_address)]
        self._throttle(keys)
        with self.engine.connect() as conn:
            stored = conn.execute(select(accounts_t.c.password_hash).where(accounts_t.c.id == account.id)).scalar()
        if not isinstance(old, str) or len(old) > MAX_PASSWORD or not self._verify(stored, old):
            self._failed(keys)
            raise TableError(ErrorCode.BAD_PASSWORD, "the present password is wrong", 403)
        self.set_password(account.id, new, keep=keep)

    def set_password(self, account_id: str, password: str, keep: str | None = None) -> None:
        """A new password (the operator's reset: no old one); every session but ``keep`` ends."""
        password_hash = self._hash(check_password(password))
        with self.engine.begin() as conn:
            conn.execute(update(accounts_t).where(accounts_t.c.id == account_id).values(password_hash=password_hash))
        self.revoke_all(account_id, keep=keep)

    # ------------------------------------------------------- the operator
    def disable(self, account_id: str, disabled: bool = True) -> None:
        """Disable (every session ends, no sign-in) or enable an account."""
        with self.engine.begin() as conn:
            conn.execute(update(accounts_t).where(accounts_t.c.id == account_id).values(disabled=disabled))
        if disabled:
            self.revoke_all(account_id)

    def delete(self, account_id: str) -> int:
        """Remove an account: its name, hash, sessions and counted failures; its seats in stored games stay,
        without account and named ``Player N``. Returns the number of seats made anonymous."""
        with self.engine.begin() as conn:
            row = conn.execute(select(accounts_t.c.name_key).where(accounts_t.c.id == account_id)).first()
            if row is not None:
                conn.execute(delete(login_failures_t).where(login_failures_t.c.key == _failure_key("a", row.name_key)))
            conn.execute(delete(account_sessions_t).where(account_sessions_t.c.account_id == account_id))
            conn.execute(delete(accounts_t).where(accounts_t.c.id == account_id))
            forget_player(conn, f"a:{account_id}")  # its history, statistics and rating
            seats = conn.execute(update(seats_t).where(seats_t.c.account_id == account_id).values(
                account_id=None, guest_hash=None,
                name=literal("Player ", String) + cast(seats_t.c.position + 1, String))).rowcount
        return seats or 0

    # --------------------------------------------------------------- seats
    def link_seat(self, table_id: str, position: int, *, account_id: str | None = None,
                  guest_id: str | None = None) -> None:
        """Mark a seat just taken as the account's, else the guest's."""
        values = {"account_id": account_id, "guest_hash": None} if account_id else {
            "account_id": None, "guest_hash": _guest_hash(guest_id) if guest_id else None}
        with self.engine.begin() as conn:
            conn.execute(update(seats_t).where(seats_t.c.table_id == table_id, seats_t.c.position == position)
                         .values(**values))

    def claim_guest_seats(self, account_id: str, guest_id: str) -> int:
        """The guest's seats become the account's; their number."""
        with self.engine.begin() as conn:
            return self._claim(conn, account_id, guest_id)

    @staticmethod
    def _claim(conn: Connection, account_id: str, guest_id: str) -> int:
        guest_hash = _guest_hash(guest_id)
        done = conn.execute(update(seats_t).where(seats_t.c.guest_hash == guest_hash)
                            .values(account_id=account_id, guest_hash=None))
        claim_guest(conn, guest_hash, account_id)  # the guest's history, statistics and rating come along
        return done.rowcount or 0

    def seats_of(self, account_id: str) -> list[tuple[str, int]]:
        """(table id, position) of every seat of the account."""
        with self.engine.connect() as conn:
            return [(r.table_id, r.position) for r in conn.execute(
                select(seats_t.c.table_id, seats_t.c.position).where(seats_t.c.account_id == account_id)
                .order_by(seats_t.c.table_id, seats_t.c.position))]
