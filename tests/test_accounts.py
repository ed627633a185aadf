"""Accounts (issue 29, docs/accounts.md): the service (skat.server.accounts) on SQLite and PostgreSQL, and the
routes (``/api/account/...``) through FastAPI's TestClient: names unique after NFKC and case folding, Argon2id
hashes that no answer shows, sessions that end, throttled wrong passwords, the cross-site refusal, guest seats."""

from __future__ import annotations

import pytest
from argon2 import PasswordHasher
from fastapi.testclient import TestClient
from sqlalchemy import select

from skat.server.accounts import (
    GUEST_COOKIE,
    SESSION_COOKIE,
    AccountService,
    ThrottledError,
    clean_account_name,
    name_key,
)
from skat.server.app import create_app
from skat.server.core import TableError
from skat.server.database import account_sessions_t, accounts_t, seats_t
from skat.server.limits import Limits, Rate
from skat.server.store import Store
from test_server_support import browser, postgres  # noqa: F401 - the fixture

FAST = PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)
"""Argon2id, cheap enough for tests."""
ORIGIN = {"Origin": "http://testserver"}


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request, tmp_path):
    url = f"sqlite:///{tmp_path / 'a.sqlite'}" if request.param == "sqlite" else \
        request.getfixturevalue("postgres").new_database()
    s = Store(url)
    yield s
    s.close()


def service(store: Store, limits: Limits | None = None) -> tuple[AccountService, Clock]:
    clock = Clock()
    return AccountService(store.engine, limits, hasher=FAST, clock=clock), clock


# ------------------------------------------------------------------ names
def test_names_are_compared_by_their_nfkc_case_folded_key():
    assert name_key("Ǆ") == name_key("DŽ") == name_key("dž")
    assert name_key("Straße") == name_key("STRASSE")
    assert clean_account_name("  Anna  ") == ("Anna", "anna")
    for bad in ("", "   ", "x" * 41, "a\x00b", "a\u200bb", "line\nbreak", 7):
        with pytest.raises(TableError) as err:
            clean_account_name(bad)
        assert err.value.code == "bad_account_name"


# ------------------------------------------------------------------ the service
def test_register_authenticate_and_the_hash_is_argon2id(store):
    accounts, _ = service(store)
    account, claimed = accounts.register("Straße", "geheim-123")
    assert claimed == 0 and account.name == "Straße"
    with store.engine.connect() as conn:
        stored = conn.execute(select(accounts_t.c.password_hash, accounts_t.c.name_key)).one()
    assert stored.password_hash.startswith("$argon2id$") and "geheim" not in stored.password_hash
    assert stored.name_key == "strasse"
    for same in ("STRASSE", "strasse", " Straße "):
        with pytest.raises(TableError) as err:
            accounts.register(same, "another-password")
        assert err.value.code == "name_taken" and err.value.status == 409
    accounts.register("Ǆemal", "password-1")
    with pytest.raises(TableError, match="taken"):
        accounts.register("DŽEMAL", "password-1")
    assert accounts.authenticate("strasse", "geheim-123", "1.2.3.4").id == account.id
    with pytest.raises(TableError) as err:
        accounts.authenticate("Straße", "wrong-one", "1.2.3.4")
    assert err.value.code == "bad_login" and err.value.status == 401
    with pytest.raises(TableError) as err:
        accounts.authenticate("nobody", "wrong-one", "1.2.3.4")
    assert err.value.code == "bad_login"  # an unknown name reads as a wrong password
    with pytest.raises(TableError) as err:
        accounts.register("Kurz", "short")
    assert err.value.code == "weak_password"
    with pytest.raises(TableError):
        accounts.register("Lang", "x" * 257)


def test_sessions_are_kept_hashed_expire_and_are_revoked(store):
    accounts, clock = service(store, Limits(session_seconds=3600))
    account, _ = accounts.register("Anna", "password-a")
    token = accounts.create_session(account.id)
    with store.engine.connect() as conn:
        kept = conn.execute(select(account_sessions_t.c.token_hash)).scalars().all()
    assert token not in kept and len(kept) == 1
    assert accounts.session(token) == account
    assert accounts.session("made-up") is None and accounts.session(None) is None
    clock.now += 3601
    assert accounts.session(token) is None  # expired
    second = accounts.create_session(account.id)
    accounts.revoke(second)
    assert accounts.session(second) is None  # signed out
    third = accounts.create_session(account.id)
    accounts.disable(account.id)
    assert accounts.session(third) is None
    with pytest.raises(TableError) as err:
        accounts.authenticate("Anna", "password-a", "h")
    assert err.value.code == "account_disabled"
    accounts.disable(account.id, False)
    assert accounts.authenticate("Anna", "password-a", "h").id == account.id


def test_changing_the_password_ends_the_other_sessions(store):
    accounts, _ = service(store)
    account, _ = accounts.register("Bert", "password-1")
    here, there = accounts.create_session(account.id), accounts.create_session(account.id)
    with pytest.raises(TableError) as err:
        accounts.change_password(account, "wrong-pass", "password-2", "h", keep=here)
    assert err.value.code == "bad_password"
    accounts.change_password(account, "password-1", "password-2", "h", keep=here)
    assert accounts.session(here) == account and accounts.session(there) is None
    assert accounts.authenticate("Bert", "password-2", "h").id == account.id


def test_wrong_passwords_are_throttled_per_account_and_per_address(store):
    limits = Limits(login_account=Rate(3, 60), login_address=Rate(5, 60))
    accounts, clock = service(store, limits)
    accounts.register("Carl", "password-c")
    for _ in range(3):
        with pytest.raises(TableError, match="wrong"):
            accounts.authenticate("Carl", "nope-nope", "10.0.0.1")
    with pytest.raises(ThrottledError) as err:  # the right password waits too
        accounts.authenticate("Carl", "password-c", "10.0.0.2")
    assert err.value.status == 429 and err.value.code == "throttled" and 1 <= err.value.retry_after <= 60
    clock.now += 61
    assert accounts.authenticate("Carl", "password-c", "10.0.0.2").name == "Carl"  # after the wait
    # per address: wrong passwords for many names from one address
    for n in range(5):
        with pytest.raises(TableError, match="wrong"):
            accounts.authenticate(f"name{n}", "nope-nope", "10.0.0.9")
    with pytest.raises(ThrottledError):
        accounts.authenticate("Carl", "password-c", "10.0.0.9")
    assert accounts.authenticate("Carl", "password-c", "10.0.0.3").name == "Carl"  # another address may
    # the counts are in the database: a second service (another process) sees them
    other = AccountService(store.engine, limits, hasher=FAST, clock=clock)
    with pytest.raises(ThrottledError):
        other.authenticate("Carl", "password-c", "10.0.0.9")


def test_delete_leaves_seats_anonymous_and_frees_the_name(store):
    accounts, _ = service(store)
    account, _ = accounts.register("Dora", "password-d")
    token = accounts.create_session(account.id)
    store.create_table("t1", "T", {}, [{"position": p, "kind": "human", "name": f"Dora{p}", "bot": None,
                                       "token_hash": None} for p in range(3)]).result(10)
    accounts.link_seat("t1", 1, account_id=account.id)
    accounts.link_seat("t1", 2, guest_id="guest-x")
    assert accounts.seats_of(account.id) == [("t1", 1)]
    assert accounts.delete(account.id) == 1
    assert accounts.session(token) is None and accounts.find("Dora") is None
    with store.engine.connect() as conn:
        seats = conn.execute(select(seats_t.c.position, seats_t.c.name, seats_t.c.account_id)
                             .order_by(seats_t.c.position)).all()
    assert [tuple(s) for s in seats] == [(0, "Dora0", None), (1, "Player 2", None), (2, "Dora2", None)]
    again, claimed = accounts.register("DORA", "password-e", guest_id="guest-x")  # the name is free again
    assert claimed == 1 and accounts.seats_of(again.id) == [("t1", 2)]


# ------------------------------------------------------------------ the routes
@pytest.fixture
def client(tmp_path):
    app = create_app(f"sqlite:///{tmp_path / 'r.sqlite'}",
                     limits=Limits(login_account=Rate(3, 60), login_address=Rate(10, 60)))
    app.state.accounts.hasher = FAST
    with TestClient(app, headers=ORIGIN) as c:
        yield c


def test_register_me_logout_login_and_change_password(client):
    r = client.post("/api/account/register", json={"name": "Emma", "password": "password-1"})
    assert r.status_code == 201, r.text
    assert r.json()["account"]["name"] == "Emma" and r.json()["claimed"] == 0
    cookie = r.headers["set-cookie"]
    assert f"{SESSION_COOKIE}=" in cookie and "HttpOnly" in cookie and "SameSite=lax" in cookie
    assert "Path=/" in cookie and "Secure" not in cookie  # plain http
    assert client.get("/api/account/me").json()["account"]["name"] == "Emma"
    assert client.post("/api/account/register", json={"name": "EMMA", "password": "password-1"}).json()["error"] \
        == "name_taken"
    assert client.post("/api/account/password", json={"old": "password-1", "new": "short"}).json()["error"] \
        == "weak_password"
    r = client.post("/api/account/password", json={"old": "password-9", "new": "password-2"})
    assert (r.status_code, r.json()["error"]) == (403, "bad_password")
    assert client.post("/api/account/password", json={"old": "password-1", "new": "password-2"}).status_code == 200
    assert client.get("/api/account/me").status_code == 200  # this session stays
    assert client.post("/api/account/logout").json() == {"signed_in": False}
    r = client.get("/api/account/me")
    assert (r.status_code, r.json()["error"]) == (401, "signed_out")
    assert client.post("/api/account/login", json={"name": "emma", "password": "password-1"}).status_code == 401
    r = client.post("/api/account/login", json={"name": "emma", "password": "password-2"})
    assert r.status_code == 200 and r.json()["account"]["name"] == "Emma"
    assert client.get("/api/account/me").status_code == 200
    for body, code in (({"name": 5, "password": "password-1"}, "bad_account_name"),
                       ({"name": "Fritz", "password": ["x"]}, "weak_password"),
                       ({"name": "", "password": "password-1"}, "bad_account_name")):
        assert client.post("/api/account/register", json=body).json()["error"] == code


def test_no_answer_shows_a_hash_or_a_token(client):
    r = client.post("/api/account/register", json={"name": "Geo", "password": "password-g"})
    token = client.cookies.get(SESSION_COOKIE)
    texts = [r.text, client.get("/api/account/me").text,
             client.post("/api/account/login", json={"name": "Geo", "password": "password-g"}).text,
             client.get("/api/openapi.json").text]
    for text in texts:
        assert "$argon2" not in text and "password-g" not in text and token not in text


def test_a_revoked_session_cookie_is_signed_out(client):
    client.post("/api/account/register", json={"name": "Hans", "password": "password-h"})
    token = client.cookies.get(SESSION_COOKIE)
    client.app.state.accounts.revoke(token)
    assert client.get("/api/account/me").json()["error"] == "signed_out"


def test_login_is_throttled_with_retry_after(client):
    client.post("/api/account/register", json={"name": "Ida", "password": "password-i"})
    client.post("/api/account/logout")
    for _ in range(3):
        assert client.post("/api/account/login", json={"name": "Ida", "password": "wrong-pass"}).status_code == 401
    r = client.post("/api/account/login", json={"name": "Ida", "password": "password-i"})
    assert r.status_code == 429 and r.json()["error"] == "throttled" and 1 <= int(r.headers["retry-after"]) <= 60


def test_cross_site_requests_are_refused(client):
    r = client.post("/api/account/register", json={"name": "Jan", "password": "password-j"},
                    headers={"Origin": "https://evil.example"})
    assert (r.status_code, r.json()["error"]) == (403, "cross_origin")
    client.post("/api/account/register", json={"name": "Jan", "password": "password-j"})
    assert client.cookies.get(SESSION_COOKIE)
    # a POST carrying the session cookie without Origin (or a foreign one) is refused, wherever it goes
    for headers in ({"Origin": "null"}, {"Origin": "https://evil.example"}):
        r = client.post("/api/tables", json={"seats": ["human", "strong", "strong"]}, headers=headers)
        assert (r.status_code, r.json()["error"]) == (403, "cross_origin")
    bare = browser(client)  # no Origin at all
    bare.cookies.set(SESSION_COOKIE, client.cookies.get(SESSION_COOKIE))
    assert bare.post("/api/account/logout").json()["error"] == "cross_origin"
    assert bare.post("/api/tables", json={"seats": ["human", "strong", "strong"]}).status_code == 403
    assert bare.get("/api/account/me").status_code == 200  # reading is no change
    r = bare.post("/api/account/logout", headers={"Sec-Fetch-Site": "same-origin"})
    assert r.status_code == 200
    # without the session cookie a script without Origin still creates tables
    assert browser(client).post("/api/tables", json={"seats": ["human", "strong", "strong"]}).status_code == 201


def test_a_guests_seats_become_the_account_of_who_registers_in_that_browser(client):
    r = client.post("/api/tables", json={"seats": ["human", "human", "strong"], "player_name": "Kim",
                                           "public": True})
    assert r.status_code == 201 and GUEST_COOKIE in r.headers["set-cookie"]
    table_id = r.json()["table_id"]
    other = browser(client, headers=ORIGIN)
    assert other.post(f"/api/tables/{table_id}/join", json={"name": "Lu"}).status_code == 200
    r = client.post("/api/account/register", json={"name": "Kim", "password": "password-k"})
    assert r.json()["claimed"] == 1
    accounts = client.app.state.accounts
    account = accounts.find("Kim")
    assert accounts.seats_of(account.id) == [(table_id, 0)]
    t2 = client.post("/api/tables", json={"seats": ["human", "strong", "strong"]}).json()["table_id"]
    assert accounts.seats_of(account.id) == sorted([(table_id, 0), (t2, 0)])  # signed in: the account's at once
    with client.app.state.manager.store.engine.connect() as conn:
        rows = conn.execute(select(seats_t.c.position, seats_t.c.account_id, seats_t.c.guest_hash)
                            .where(seats_t.c.table_id == table_id).order_by(seats_t.c.position)).all()
    assert rows[0].account_id == account.id and rows[0].guest_hash is None
    assert rows[1].account_id is None and rows[1].guest_hash is not None  # the other browser's guest seat
    assert other.cookies.get(GUEST_COOKIE) not in (rows[1].guest_hash, None)  # kept hashed


def test_signing_in_claims_the_guests_seats_too(client):
    """A person with an account who played as a guest in this browser (signed out) keeps those games on signing in."""
    assert client.post("/api/account/register", json={"name": "Ria", "password": "password-r"}).status_code == 201
    assert client.post("/api/account/logout").status_code == 200
    table_id = client.post("/api/tables", json={"seats": ["human", "strong", "strong"]}).json()["table_id"]
    accounts = client.app.state.accounts
    account = accounts.find("Ria")
    assert accounts.seats_of(account.id) == []  # played as a guest
    r = client.post("/api/account/login", json={"name": "ria", "password": "password-r"})
    assert r.status_code == 200 and r.json()["claimed"] == 1
    assert accounts.seats_of(account.id) == [(table_id, 0)]
    assert client.post("/api/account/logout").status_code == 200
    again = client.post("/api/account/login", json={"name": "Ria", "password": "password-r"}).json()
    assert "claimed" not in again  # no guest games left in this browser


def test_https_session_cookies_are_secure(tmp_path):
    app = create_app(f"sqlite:///{tmp_path / 's.sqlite'}")
    app.state.accounts.hasher = FAST
    with TestClient(app, base_url="https://testserver", headers={"Origin": "https://testserver"}) as c:
        r = c.post("/api/account/register", json={"name": "Mo", "password": "password-m"})
        assert r.status_code == 201 and "Secure" in r.headers["set-cookie"]
