"""`skat user list|add|reset-password|disable|delete` (docs/accounts.md): the operator's accounts on the database of
`skat serve`; a password is read from stdin (or asked for) and never printed."""

from __future__ import annotations

import io

import pytest
from argon2 import PasswordHasher

from skat.cli import main
from skat.server.accounts import AccountService
from skat.server.store import Store

FAST = PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)


@pytest.fixture
def db(tmp_path, monkeypatch):
    monkeypatch.setattr("skat.server.accounts.PasswordHasher", lambda **_: FAST)
    return f"sqlite:///{tmp_path / 'u.sqlite'}"


def user(db, monkeypatch, capsys, *args, stdin=""):
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    status = main(["user", "--db", db, *args])
    out = capsys.readouterr()
    return status, out.out, out.err


def test_add_list_reset_disable_delete(db, monkeypatch, capsys):
    status, out, _ = user(db, monkeypatch, capsys, "add", "Straße", "--password-stdin", stdin="geheim-123\n")
    assert status == 0 and "Straße" in out and "geheim" not in out
    status, _, err = user(db, monkeypatch, capsys, "add", "STRASSE", "--password-stdin", stdin="geheim-123\n")
    assert status == 1 and "taken" in err
    status, _, err = user(db, monkeypatch, capsys, "add", "Kurz", "--password-stdin", stdin="short\n")
    assert status == 1 and "8 to 256" in err
    status, out, _ = user(db, monkeypatch, capsys, "list")
    assert status == 0 and "Straße" in out and "active" in out and "$argon2" not in out
    store = Store(db)
    try:
        accounts = AccountService(store.engine, hasher=FAST)
        account = accounts.find("strasse")
        token = accounts.create_session(account.id)
        status, out, _ = user(db, monkeypatch, capsys, "reset-password", "strasse", "--password-stdin",
                              stdin="neues-passwort\n")
        assert status == 0 and "neues" not in out
        assert accounts.session(token) is None  # every session ended
        assert accounts.authenticate("Straße", "neues-passwort", "h").id == account.id
        assert user(db, monkeypatch, capsys, "disable", "Straße")[0] == 0
        assert "disabled" in user(db, monkeypatch, capsys, "list")[1]
        with pytest.raises(Exception, match="disabled"):
            accounts.authenticate("Straße", "neues-passwort", "h")
        assert user(db, monkeypatch, capsys, "disable", "Straße", "--enable")[0] == 0
        assert accounts.authenticate("Straße", "neues-passwort", "h").id == account.id
        status, out, _ = user(db, monkeypatch, capsys, "delete", "Straße", stdin="n\n")
        assert status == 1 and accounts.find("Straße") is not None  # asked, and not confirmed
        status, out, _ = user(db, monkeypatch, capsys, "delete", "Straße", "--yes")
        assert status == 0 and accounts.find("Straße") is None
    finally:
        store.close()
    status, _, err = user(db, monkeypatch, capsys, "delete", "Straße", "--yes")
    assert status == 1 and "no account" in err
    assert "no accounts" in user(db, monkeypatch, capsys, "list")[2]


def test_the_password_is_asked_for_twice(db, monkeypatch, capsys):
    answers = iter(["password-1", "password-2"])
    monkeypatch.setattr("getpass.getpass", lambda prompt="": next(answers))
    status, _, err = user(db, monkeypatch, capsys, "add", "Anna")
    assert status == 1 and "differ" in err
    answers = iter(["password-1", "password-1"])
    assert user(db, monkeypatch, capsys, "add", "Anna")[0] == 0
