"""The score keeper on the server (docs/keeper-server.md): a list made, games entered, edited, struck and
restored with their history, impossible entries refused with the library's reason and nothing changed, a
change sent twice stored once, bad requests and keys refused, the list kept over a restart, followed live
over the WebSocket, and on PostgreSQL followed at one process while entered at another."""

from __future__ import annotations

import json

import httpx
import pytest
from fastapi.testclient import TestClient
from websockets.sync.client import connect

from skat.server import create_app
from skat.server.keeper import table_key
from skat.table.keeper import ScoreKeeper
from test_server_support import ServerProcess, postgres  # noqa: F401 - the fixture

PLAYERS = ["Ann", "Bob", "Cid"]
GAMES = [
    {"declarer": "Bob", "game": "grand", "hand": True, "with": 2, "points": 78, "bid": 48},
    {"declarer": "Cid", "game": "clubs", "with": 1, "points": 65, "bid": 18},
    {"declarer": "Ann", "game": "null", "result": "won", "bid": 23},
]


def make(client, **extra) -> dict:
    r = client.post("/api/keeper", json={"players": PLAYERS, "name": "Donnerstag", **extra})
    assert r.status_code == 201, r.text
    return r.json()


def change(client, made: dict, *changes: dict, key: str | None = None):
    return client.post(f"/api/keeper/{made['id']}/changes", json={"changes": list(changes)},
                       headers={"X-Keeper-Key": key or made["key"]})


def test_a_list_is_made_entered_and_valued_by_the_library(client):
    made = make(client)
    assert made["url"] == f"/k/{made['id']}" and made["keeper_url"] == f"/k/{made['id']}#key={made['key']}"
    assert made["seq"] == 0 and made["name"] == "Donnerstag" and made["sheet"]["next_dealer"] == "Ann"
    r = change(client, made, *({"id": f"g{i}", "op": "add", "entry": g, "author": "Ann"} for i, g in enumerate(GAMES)))
    assert r.status_code == 200, r.text
    body = r.json()
    assert [x["number"] for x in body["results"]] == [1, 2, 3] and all(x["ok"] for x in body["results"])
    expected = ScoreKeeper(PLAYERS)
    for g in GAMES:
        expected.add(g)
    # Bob's grand hand with 2, 78 points: (2 + 1 hand + 1 game) x 24 = 96 (by hand)
    assert body["sheet"]["games"][0]["value"] == 96 and body["sheet"]["games"][0]["scores"] == [0, 96, 0]
    assert body["sheet"]["totals"] == expected.totals == [23, 96, 24]  # clubs with 1: 2 x 12; null: 23
    assert body["sheet"]["seeger_fabian"] == expected.seeger_fabian
    assert body["seq"] == 3 and body["sheet"]["next_dealer"] == "Ann"
    state = client.get(f"/api/keeper/{made['id']}").json()
    assert "key" not in json.dumps(state) or made["key"] not in json.dumps(state)
    assert state["seq"] == 3 and state["list"]["games"][0]["history"][0]["author"] == "Ann"


def test_an_impossible_entry_is_refused_with_its_reason_and_the_others_are_kept(client):
    made = make(client)
    r = change(client, made,
               {"id": "a", "op": "add", "entry": GAMES[0]},
               {"id": "b", "op": "add", "entry": {"declarer": "Cid", "game": "clubs", "schneider_announced": True,
                                                  "with": 1, "points": 95, "bid": 18}},
               {"id": "c", "op": "add", "entry": {"declarer": "Cid", "game": "grand", "with": 5, "points": 70,
                                                  "bid": 24}},
               {"id": "d", "op": "add", "entry": GAMES[1]}).json()
    ok = [x["ok"] for x in r["results"]]
    assert ok == [True, False, False, True]
    assert "hand" in r["results"][1]["message"].lower() and r["results"][1]["message"].startswith("game 2")
    assert (r["results"][1]["code"], r["results"][1]["params"]) == ("announce_needs_hand",
                                                                    {"level": "schneider", "game": 2})
    assert "grand has 4 matadors at most" in r["results"][2]["message"]
    assert len(r["list"]["games"]) == 2 and r["seq"] == 2
    # a refused change is not remembered: corrected, it goes in under the same id
    again = change(client, made, {"id": "c", "op": "add", "entry": {**GAMES[2]}}).json()
    assert again["results"] == [{"id": "c", "ok": True, "number": 3}]


def test_a_change_sent_again_is_stored_once(client):
    made = make(client)
    first = change(client, made, {"id": "offline-1", "op": "add", "entry": GAMES[0],
                                  "at": "2026-12-01T20:15:03+00:00"}).json()
    again = change(client, made, {"id": "offline-1", "op": "add", "entry": GAMES[0],
                                  "at": "2026-12-01T20:15:03+00:00"},
                   {"id": "offline-2", "op": "add", "entry": GAMES[1]}).json()
    assert first["results"] == [{"id": "offline-1", "ok": True, "number": 1}]
    assert again["results"][0] == first["results"][0] and again["results"][1]["number"] == 2
    assert len(again["list"]["games"]) == 2 and again["seq"] == 2
    assert again["list"]["games"][0]["history"][0]["at"] == "2026-12-01T20:15:03+00:00"


def test_edit_strike_and_restore_keep_the_history_and_the_totals_follow(client):
    made = make(client)
    change(client, made, *({"id": f"g{i}", "op": "add", "entry": g, "author": "Ann"} for i, g in enumerate(GAMES)))
    lost = {**GAMES[1], "points": 50}
    r = change(client, made, {"id": "e1", "op": "edit", "number": 2, "entry": lost, "author": "Bob"}).json()
    assert r["results"][0]["ok"]
    # Cid's clubs with 1, lost with 50: (1 + 1) x 12 = 24, lost doubled: -48 (by hand)
    assert r["sheet"]["games"][1]["scores"] == [0, 0, -48] and r["sheet"]["totals"] == [23, 96, -48]
    r = change(client, made, {"id": "s1", "op": "strike", "number": 1, "reason": "dealt wrong", "author": "Cid"}).json()
    assert r["sheet"]["totals"] == [23, 0, -48] and r["sheet"]["games"][0]["struck"]
    r = change(client, made, {"id": "r1", "op": "restore", "number": 1}).json()
    assert r["sheet"]["totals"] == [23, 96, -48]
    history = r["list"]["games"][1]["history"]
    assert [(c["action"], c["author"]) for c in history] == [("add", "Ann"), ("edit", "Bob")]
    assert history[0]["entry"]["points"] == 65 and history[1]["entry"]["points"] == 50
    assert [c["action"] for c in r["list"]["games"][0]["history"]] == ["add", "strike", "restore"]
    refused = change(client, made, {"id": "r2", "op": "restore", "number": 1}).json()
    assert refused["results"][0] == {"id": "r2", "ok": False, "error": "impossible",
                                     "message": "game 1 is not struck"}
    assert refused["seq"] == r["seq"]


def test_check_values_an_entry_without_storing_it(client):
    made = make(client)
    r = client.post(f"/api/keeper/{made['id']}/check", json={"entry": GAMES[0]}).json()
    assert r["ok"] and r["line"]["value"] == 96 and "24" in r["line"]["explanation"]
    bad = client.post(f"/api/keeper/{made['id']}/check",
                      json={"entry": {"declarer": "Bob", "game": "grand", "with": 5, "points": 70, "bid": 18}}).json()
    assert bad == {"ok": False, "error": "impossible", "message": bad["message"]} and "4 matadors" in bad["message"]
    assert client.get(f"/api/keeper/{made['id']}").json()["seq"] == 0


@pytest.mark.parametrize(("body", "status", "code"), [
    ({"changes": []}, 400, "bad_request"),
    ({"changes": "add"}, 400, "bad_request"),
    ({"changes": [{"op": "add", "entry": {}}]}, 400, "bad_request"),
    ({"changes": [{"id": "x y", "op": "add", "entry": {}}]}, 400, "bad_request"),
    ({"changes": [{"id": "x", "op": "delete", "number": 1}]}, 400, "bad_request"),
    ({"changes": [{"id": "x", "op": "edit", "entry": {}}]}, 400, "bad_request"),
    ({"changes": [{"id": "x", "op": "add", "entry": {}, "at": "yesterday"}]}, 400, "bad_request"),
    ({"changes": [{"id": f"x{i}", "op": "strike", "number": 1} for i in range(201)]}, 413, "too_large"),
])
def test_a_malformed_change_request_is_refused_whole(client, body, status, code):
    made = make(client)
    change(client, made, {"id": "g0", "op": "add", "entry": GAMES[0]})
    ok = {"id": "fine", "op": "add", "entry": GAMES[1]}
    body = {"changes": [ok, *body["changes"]]} if isinstance(body["changes"], list) and body["changes"] else body
    r = client.post(f"/api/keeper/{made['id']}/changes", json=body, headers={"X-Keeper-Key": made["key"]})
    assert (r.status_code, r.json()["error"]) == (status, code), r.text
    assert r.json()["message"]
    assert client.get(f"/api/keeper/{made['id']}").json()["seq"] == 1  # nothing of it applied


def test_keys_lists_and_bodies_that_are_wrong_are_refused(client):
    made = make(client)
    entry = {"id": "a", "op": "add", "entry": GAMES[0]}
    assert change(client, made, entry, key="wrong").status_code == 403
    r = client.post(f"/api/keeper/{made['id']}/changes", json={"changes": [entry]})
    assert (r.status_code, r.json()["error"]) == (403, "bad_key")
    assert client.get("/api/keeper/" + "0" * 32).json()["error"] == "no_list"
    assert client.get("/api/keeper/../etc").status_code == 404
    r = client.post(f"/api/keeper/{made['id']}/changes", content=b"{not json",
                    headers={"X-Keeper-Key": made["key"], "Content-Type": "application/json"})
    assert (r.status_code, r.json()["error"]) == (400, "bad_json")
    for body, words in [({"players": ["Ann", "Bob"]}, "3, 4 or 5 players"), ({"players": PLAYERS, "ruleset": "x"}, ""),
                        ({"players": PLAYERS, "ruleset": "tournee"}, "standard Skat"),
                        ({"players": PLAYERS, "games": [{"declarer": "Dan"}]}, "game 1"),
                        ({"players": PLAYERS, "name": 7}, "'name'")]:
        r = client.post("/api/keeper", json=body)
        assert r.status_code in (400, 422) and words in r.json()["message"], (body, r.text)
    assert client.get(f"/api/keeper/{made['id']}").json()["seq"] == 0
    assert table_key("director", "a" * 32) != table_key("director", "b" * 32)


def test_the_list_is_kept_over_a_restart_and_exported(tmp_path):
    url = f"sqlite:///{tmp_path / 'keeper.sqlite'}"
    with TestClient(create_app(url)) as c:
        made = make(c, ruleset="pub", price="0.05")
        change(c, made, *({"id": f"g{i}", "op": "add", "entry": g} for i, g in enumerate(GAMES)))
        before = c.get(f"/api/keeper/{made['id']}").json()
    with TestClient(create_app(url)) as c:
        after = c.get(f"/api/keeper/{made['id']}").json()
        assert after == before and after["list"]["ruleset"] == "pub" and after["sheet"]["money"]
        assert change(c, made, {"id": "g0", "op": "add", "entry": GAMES[0]}).json()["seq"] == 3  # seen before
        csv = c.get(f"/api/keeper/{made['id']}/sheet.csv")
        assert csv.headers["content-type"].startswith("text/csv") and csv.text.startswith("\ufeff#,struck,dealer")
        assert "Seeger-Fabian" in csv.text and len(csv.text.strip().splitlines()) == 1 + 3 + 2
        pdf = c.get(f"/api/keeper/{made['id']}/list.pdf?lang=de")
        assert pdf.headers["content-type"] == "application/pdf" and pdf.content.startswith(b"%PDF")
        assert c.get(f"/api/keeper/{made['id']}/list.pdf?blank=1").content.startswith(b"%PDF")
        assert c.get(f"/api/keeper/{made['id']}/list.pdf?lang=fr").status_code == 400
        meta = c.get("/api/keeper/meta").json()
        pub = next(r for r in meta["rulesets"] if r["name"] == "pub")
        assert pub["kontra"] and pub["ramsch"] and pub["bock"] and "tournee" not in {r["name"] for r in meta["rulesets"]}


def test_followers_hear_every_change(client):
    made = make(client)
    with client.websocket_connect(f"/ws/keeper/{made['id']}") as ws, \
            client.websocket_connect(f"/ws/keeper/{made['id']}") as other:
        assert ws.receive_json()["seq"] == 0 and other.receive_json()["seq"] == 0
        change(client, made, {"id": "a", "op": "add", "entry": GAMES[0]})
        heard = ws.receive_json()
        assert heard["type"] == "list" and heard["seq"] == 1 and heard["sheet"]["totals"] == [0, 96, 0]
        assert other.receive_json()["seq"] == 1
        ws.send_json({"type": "ping"})
        assert ws.receive_json() == {"type": "pong"}
        ws.send_text("nonsense")
        assert ws.receive_json()["code"] == "bad_message"
    with client.websocket_connect("/ws/keeper/" + "0" * 32) as ws:
        assert ws.receive_json()["code"] == "no_list"


@pytest.mark.timeout(120)
def test_a_list_entered_at_one_process_is_followed_at_another(postgres):  # noqa: F811 - the fixture
    from skat.server.store import Store

    url = postgres.new_database()
    Store(url).close()
    a, b = ServerProcess(url).start(), ServerProcess(url).start()
    try:
        made = httpx.post(a.url + "/api/keeper", json={"players": PLAYERS}).json()
        ws = connect(b.url.replace("http", "ws") + f"/ws/keeper/{made['id']}", open_timeout=30, legacy=True)
        assert json.loads(ws.recv(timeout=30))["seq"] == 0
        r = httpx.post(a.url + f"/api/keeper/{made['id']}/changes", headers={"X-Keeper-Key": made["key"]},
                       json={"changes": [{"id": "a", "op": "add", "entry": GAMES[0]}]})
        assert r.status_code == 200
        heard = json.loads(ws.recv(timeout=30))
        assert heard["seq"] == 1 and heard["sheet"]["totals"] == [0, 96, 0]
        # both processes enter at once: each change lands once, in some order, none lost
        import concurrent.futures

        def enter(server, i):
            return httpx.post(server.url + f"/api/keeper/{made['id']}/changes", headers={"X-Keeper-Key": made["key"]},
                              json={"changes": [{"id": f"p{i}", "op": "add", "entry": GAMES[1]}]}).json()
        with concurrent.futures.ThreadPoolExecutor(8) as pool:
            answers = list(pool.map(lambda i: enter((a, b)[i % 2], i), range(8)))
        assert sorted(x["results"][0]["number"] for x in answers) == list(range(2, 10))
        final = httpx.get(b.url + f"/api/keeper/{made['id']}").json()
        assert final["seq"] == 9 and len(final["list"]["games"]) == 9
        ws.close()
    finally:
        a.stop()
        b.stop()


def test_a_list_holds_at_most_max_games_entries(client, monkeypatch):
    import skat.server.keeper as server_keeper

    monkeypatch.setattr(server_keeper, "MAX_GAMES", 2)
    made = make(client)
    r = change(client, made, *({"id": f"g{i}", "op": "add", "entry": g} for i, g in enumerate(GAMES))).json()
    assert [x["ok"] for x in r["results"]] == [True, True, False]
    assert (r["results"][2]["code"], r["results"][2]["params"]) == ("list_too_long", {"limit": 2})
    check = client.post(f"/api/keeper/{made['id']}/check", json={"entry": GAMES[2]}).json()
    assert check["code"] == "list_too_long" and "start a new list" in check["message"]
    # striking or editing still works on a full list
    assert change(client, made, {"id": "s", "op": "strike", "number": 1}).json()["results"][0]["ok"]
