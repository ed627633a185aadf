"""Officers' Skat tables in the database: a restarted server (a new app on the same SQLite file, or the
same PostgreSQL database) gives the person the same view, legal actions and sheet, the computer goes on
as it would have without the restart, and refused or failed requests change nothing, stored or not."""

from __future__ import annotations

import random

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.exc import IntegrityError, OperationalError

from skat.records.wire import view_to_json
from skat.server import create_app
from skat.server import officers as officers_server
from skat.server.officers import OfficersTables, create_officers_app
from skat.server.store import Store, StoredOfficersTable
from skat.variants.officers import OfficersGame, parse_officers_action
from test_server_support import postgres  # noqa: F401 - the fixture

BODY = {"variant": "classic", "seed": 21, "options": {"allow_null": True}, "seat": 0}


def create(client: TestClient, body: dict) -> tuple[dict, dict]:
    r = client.post("/api/officers/tables", json=body)
    assert r.status_code == 200, r.text
    st = r.json()
    return st, {"X-Seat-Token": st.pop("token")}


def get(client: TestClient, st: dict, headers: dict) -> dict:
    r = client.get(f"/api/officers/tables/{st['table']}", headers=headers)
    assert r.status_code == 200, r.text
    return r.json()


def act(client: TestClient, st: dict, headers: dict, action: str) -> dict:
    r = client.post(f"/api/officers/tables/{st['table']}/actions", json={"action": action, "seq": st["seq"]},
                    headers=headers)
    assert r.status_code == 200, r.text
    return r.json()


def play(client: TestClient, st: dict, headers: dict, rng: random.Random, steps: int = 1000) -> dict:
    """The person's actions, drawn from ``rng``, for ``steps`` turns or to the end of the game."""
    for _ in range(steps):
        if st["view"]["phase"] == "finished":
            break
        assert st["legal"], st["view"]
        st = act(client, st, headers, rng.choice(st["legal"]))
    return st


def stored_table(url: str, table_id: str) -> StoredOfficersTable | None:
    store = Store(url)
    try:
        return store.load_officers_table(table_id)
    finally:
        store.close()


def restart_mid_game(url: str) -> None:
    """Two games; the server is replaced by a new one mid-game and between the games; a twin table on
    a server in memory that never stops, with the same deal and the person's same choices, ends alike."""
    rng, twin_rng = random.Random(5), random.Random(5)
    with TestClient(create_officers_app()) as memory:
        twin, twin_headers = create(memory, BODY)
        twin = play(memory, twin, twin_headers, twin_rng, steps=6)
        with TestClient(create_officers_app(url)) as client:
            st, headers = create(client, BODY)
            st = play(client, st, headers, rng, steps=6)
            assert st["view"]["phase"] == "play" and st["view"]["tricks"], "the restart should come mid-play"
        with TestClient(create_officers_app(url)) as client:  # a new server on the same database
            assert st["table"] in client.app.state.officers.tables  # rebuilt at start-up
            assert get(client, st, headers) == st  # same view, legal actions, seq, game number, sheet
            st = play(client, st, headers, rng)
            twin = play(memory, twin, twin_headers, twin_rng)
            assert st["view"]["phase"] == "finished"
            assert {**st, "table": None} == {**twin, "table": None}
        person = st["seat"]
        scores = st["view"]["result"]["scores"]
        assert st["sheet"]["games"] == [[scores[person], scores[1 - person]]]
    with TestClient(create_officers_app(url)) as client:  # the finished game and its sheet survive
        assert get(client, st, headers) == st
        r = client.post(f"/api/officers/tables/{st['table']}/next", headers=headers)
        assert r.status_code == 200, r.text
        second = r.json()
        assert second["game_no"] == 2 and second["seat"] == 1 - person and second["sheet"] == st["sheet"]
        second = play(client, second, headers, rng, steps=3)
    with TestClient(create_officers_app(url)) as client:
        assert get(client, second, headers) == second
        second = play(client, second, headers, rng)
        assert len(second["sheet"]["games"]) == 2 and second["sheet"]["games"][0] == st["sheet"]["games"][0]
    # the database holds each game as a record that rebuilds it
    stored = stored_table(url, st["table"])
    assert stored is not None and (stored.game_no, stored.seq, stored.sheet) == (
        2, second["seq"], second["sheet"]["games"])
    game = OfficersGame.from_record(stored.record)
    assert view_to_json(game.view(second["seat"])) == second["view"]


def test_restart_mid_game_sqlite(tmp_path):
    restart_mid_game(f"sqlite:///{tmp_path / 'officers.sqlite'}")


def test_restart_mid_game_postgresql(postgres):  # noqa: F811 - the fixture
    restart_mid_game(postgres.new_database())


def test_the_club_server_keeps_officers_tables_in_its_database(tmp_path):
    url = f"sqlite:///{tmp_path / 'skat.sqlite'}"
    with TestClient(create_app(url)) as client:
        st, headers = create(client, {"variant": "admiral", "seed": 3, "seat": 1})
        st = play(client, st, headers, random.Random(1), steps=2)
        skat_table = client.post("/api/tables", json={"seats": ["human", "random", "random"], "public": True}).json()
    with TestClient(create_app(url)) as client:
        assert get(client, st, headers) == st
        assert client.get(f"/api/tables/{skat_table['table_id']}").status_code == 200  # Skat tables as before
        assert play(client, st, headers, random.Random(2))["view"]["phase"] == "finished"


def test_the_computer_goes_on_after_a_restart_while_it_was_to_move(tmp_path, monkeypatch):
    """The server stops after the table was stored but before the computer (forehand) chose: the next
    server lets it choose, exactly as an uninterrupted table does."""
    url = f"sqlite:///{tmp_path / 'officers.sqlite'}"
    body = {"variant": "passing", "seed": 8, "seat": 1}
    with TestClient(create_officers_app(url)) as client:
        twin, _ = create(client, body)
        with monkeypatch.context() as m:
            m.setattr(officers_server.OfficersTable, "bot_moves", lambda self: None)
            st, headers = create(client, body)
        assert st["view"]["to_move"] == 0 and st["legal"] == []  # the computer has not chosen yet
    with TestClient(create_officers_app(url)) as client:
        after = get(client, st, headers)
        assert after["view"]["to_move"] == 1 and after["legal"]
        assert {**after, "table": None} == {**twin, "table": None}
        assert get(client, st, headers) == after  # the computer's moves were stored once


def test_bad_requests_change_nothing_in_the_database(tmp_path):
    url = f"sqlite:///{tmp_path / 'officers.sqlite'}"
    with TestClient(create_officers_app(url)) as client:
        st, headers = create(client, {"variant": "classic", "seed": 3, "seat": 0})
        base = f"/api/officers/tables/{st['table']}"
        stored = stored_table(url, st["table"])
        for action, status, words in [("CJ", 422, "not allowed now"), ("frobnicate", 422, "cannot read the action"),
                                      ("declare null", 422, "allow_null")]:
            r = client.post(f"{base}/actions", json={"action": action, "seq": st["seq"]}, headers=headers)
            assert r.status_code == status and words in r.json()["detail"]
        r = client.post(f"{base}/actions", json={"action": st["legal"][0], "seq": st["seq"] + 1}, headers=headers)
        assert r.status_code == 409 and "stale" in r.json()["detail"]
        r = client.post(f"{base}/actions", json={"action": st["legal"][0], "seq": st["seq"]},
                        headers={"X-Seat-Token": "not-the-token"})
        assert r.status_code == 403
        r = client.post(f"{base}/next", headers=headers)
        assert r.status_code == 409 and "still running" in r.json()["detail"]
        assert stored_table(url, st["table"]) == stored
        assert get(client, st, headers) == st
        for body, words in [({"seed": -1}, "seed must be a whole number"), ({"seed": 2**63}, "seed must be"),
                            ({"variant": "poker"}, "unknown Officers' Skat variant"), ({"seat": 3}, "seat must be 0")]:
            r = client.post("/api/officers/tables", json=body)
            assert r.status_code == 422 and words in r.json()["detail"], r.text
        assert len(client.app.state.officers.store.load_officers_tables()) == 1
    with TestClient(create_officers_app(url)) as client:
        assert get(client, st, headers) == st


def test_a_failed_write_changes_nothing_and_can_be_retried(tmp_path, monkeypatch):
    url = f"sqlite:///{tmp_path / 'officers.sqlite'}"
    with TestClient(create_officers_app(url)) as client:
        st, headers = create(client, {"variant": "harlequin", "seed": 4, "seat": 0})
        store = client.app.state.officers.store
        stored = store.load_officers_table(st["table"])

        def refuse(*_args, **_kwargs):
            raise OperationalError("INSERT", {}, Exception("disk I/O error"))

        with monkeypatch.context() as m:
            m.setattr(store, "add_officers_action", refuse)
            r = client.post(f"/api/officers/tables/{st['table']}/actions",
                            json={"action": st["legal"][0], "seq": st["seq"]}, headers=headers)
            assert r.status_code == 503 and "nothing changed" in r.json()["detail"]
            assert get(client, st, headers) == st
        assert store.load_officers_table(st["table"]) == stored
        after = act(client, st, headers, st["legal"][0])
        assert after["seq"] == st["seq"] + 1
    with TestClient(create_officers_app(url)) as client:
        assert get(client, st, headers) == after


def test_two_server_processes_share_the_tables(tmp_path):
    url = f"sqlite:///{tmp_path / 'officers.sqlite'}"
    with TestClient(create_officers_app(url)) as one, TestClient(create_officers_app(url)) as two:
        st, headers = create(one, {"variant": "classic", "seed": 9, "seat": 0})
        assert get(two, st, headers) == st  # loaded from the database when first asked for
        moved = act(one, st, headers, st["legal"][0])
        assert get(two, st, headers) == moved  # the second process reloads what the first one changed
        moved = act(two, moved, headers, moved["legal"][0])
        assert get(one, st, headers) == moved
        # two processes write the same action at once: the second one's write is refused, nothing changes
        stale = one.app.state.officers.tables[st["table"]]
        ahead = act(two, moved, headers, moved["legal"][0])
        before = stale.state()
        with pytest.raises(IntegrityError):
            stale.person_acts(parse_officers_action(moved["legal"][-1]))
        assert stale.state() == before
        assert get(one, st, headers) == ahead


def test_only_recent_tables_stay_in_memory_the_others_load_when_asked_for(tmp_path):
    url = f"sqlite:///{tmp_path / 'officers.sqlite'}"
    with TestClient(create_officers_app(url)) as client:
        client.app.state.officers.max_tables = 2
        made = [create(client, {"variant": "half_open", "seed": s}) for s in range(3)]
        assert list(client.app.state.officers.tables) == [made[1][0]["table"], made[2][0]["table"]]
        assert get(client, *made[0]) == made[0][0]
        assert list(client.app.state.officers.tables) == [made[2][0]["table"], made[0][0]["table"]]
    # a restart rebuilds the two most recently changed; the other loads when asked for
    tables = OfficersTables(Store(url), max_tables=2)
    assert tables.restore() == 2 and set(tables.tables) == {made[1][0]["table"], made[2][0]["table"]}
    assert tables.get(made[0][0]["table"], made[0][1]["X-Seat-Token"]).state() == made[0][0]
    assert set(tables.tables) == {made[2][0]["table"], made[0][0]["table"]}
    tables.store.close()


def test_without_a_database_tables_live_in_memory_only():
    with TestClient(create_officers_app()) as client:
        st, headers = create(client, BODY)
        assert client.app.state.officers.store is None
    with TestClient(create_officers_app()) as client:
        r = client.get(f"/api/officers/tables/{st['table']}", headers=headers)
        assert r.status_code == 404 and "memory only" in r.json()["detail"]
