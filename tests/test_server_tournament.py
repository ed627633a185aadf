"""Club tournaments on the server (docs/keeper-server.md, "Tournaments"): 13 players registered, a series
drawn by lot at one table of 4 and three of 3, each table's list kept through its own link (its key opens
only its list, the director's opens all), the live ranking equal to the library's for the same lists and
followed over the WebSocket, the next series drawn by the ranking, late registration and withdrawal, the
ranking as CSV and PDF, a full list refused, bad requests refused, and all of it kept over a restart."""

from __future__ import annotations

import csv
import io
import shutil
import subprocess

import pytest
from fastapi.testclient import TestClient

from skat.server import create_app
from skat.table.keeper import ScoreKeeper
from skat.table.tournament import Tournament
from test_server_support import missing

PLAYERS = ["Anna", "Bernd", "Carla", "Dieter", "Emil", "Frieda", "Günther", "Hanna", "Ilse", "Jörg", "Karl",
           "Lena", "Мария"]


def games_for(players: list[str]) -> list[dict]:
    """Three games at a table (the dealer at a 4-table sits out: game 1 is dealt by the first player)."""
    n = len(players)
    playing = [p for p in players if n == 3 or p != players[0]]
    return [
        {"declarer": playing[0], "game": "grand", "with": 1, "points": 80, "bid": 48},
        {"declarer": playing[1], "game": "clubs", "with": 2, "points": 50, "bid": 24},
        {"declarer": players[2] if n == 3 else players[3], "game": "null", "result": "won", "bid": 23},
    ]


def post(client, path: str, body: dict, key: str | None = None, header: str = "X-Tournament-Key"):
    return client.post(path, json=body, headers={header: key} if key else {})


@pytest.fixture()
def app_url(tmp_path):
    return f"sqlite:///{tmp_path / 'tournament.sqlite'}"


def test_a_tournament_of_13_over_two_series(app_url):
    with TestClient(create_app(app_url)) as c:
        made = post(c, "/api/tournaments", {"name": "Preisskat", "players": PLAYERS}).json()
        tid, key = made["id"], made["key"]
        assert made["director_url"] == f"/tn/{tid}#key={key}" and made["games"] == {"4": 48, "3": 36}
        drawn = post(c, f"/api/tournaments/{tid}/series", {"seed": 7}, key).json()
        tables = drawn["series"][0]["tables"]
        assert [len(t["players"]) for t in tables] == [4, 3, 3, 3]
        assert sorted(p for t in tables for p in t["players"]) == sorted(PLAYERS)
        links = drawn["keys"][0]["tables"]
        assert [x["list"] for x in links] == [t["list"] for t in tables]
        keys = [x["keeper_url"].split("#key=")[1] for x in links]
        assert c.get(f"/api/tournaments/{tid}/keys", headers={"X-Tournament-Key": key}).json()["series"] == drawn["keys"]
        library = Tournament(PLAYERS, name="Preisskat")
        library.add_series([t["players"] for t in tables])
        for number, (t, table_key) in enumerate(zip(tables, keys, strict=True), 1):
            state = c.get(f"/api/keeper/{t['list']}").json()
            assert state["list"]["players"] == t["players"] and state["sheet"]["limit"] == (48 if number == 1 else 36)
            assert state["tournament"] == {"id": tid, "series": 1, "table": number}
            other = keys[number % 4]  # another table's key does not open this list
            change = {"changes": [{"id": "x", "op": "add", "entry": games_for(t["players"])[0]}]}
            assert post(c, f"/api/keeper/{t['list']}/changes", change, other, "X-Keeper-Key").status_code == 403
            changes = [{"id": f"g{i}", "op": "add", "entry": g} for i, g in enumerate(games_for(t["players"]))]
            r = post(c, f"/api/keeper/{t['list']}/changes", {"changes": changes}, table_key, "X-Keeper-Key").json()
            assert all(x["ok"] for x in r["results"]), r["results"]
            keeper = ScoreKeeper(t["players"], limit=48 if number == 1 else 36)
            for g in games_for(t["players"]):
                keeper.add(g)
            library.record(1, number, keeper)
        # the director's key opens every table's list
        assert post(c, f"/api/keeper/{tables[0]['list']}/changes",
                    {"changes": [{"id": "d", "op": "strike", "number": 3}]}, key, "X-Keeper-Key").json()["seq"] == 4
        library.series[0].tables[0].strike(3)
        state = c.get(f"/api/tournaments/{tid}").json()
        assert state["ranking"] == [s.to_json() for s in library.ranking()]
        assert [t["played"] for t in state["series"][0]["tables"]] == [2, 3, 3, 3]
        best_four = [s["player"] for s in state["ranking"][:4]]
        # a late registration and a withdrawal, then the next series by the ranking
        assert post(c, f"/api/tournaments/{tid}/players", {"register": "Otto"}, key).json()["active"][-1] == "Otto"
        gone = state["ranking"][-1]["player"]
        post(c, f"/api/tournaments/{tid}/players", {"withdraw": gone}, key)
        second = post(c, f"/api/tournaments/{tid}/series", {"by_ranking": True}, key).json()
        assert second["series"][1]["tables"][0]["players"] == best_four
        seated = [p for t in second["series"][1]["tables"] for p in t["players"]]
        assert "Otto" in seated and gone not in seated and len(seated) == 13
        assert second["withdrawn"] == [gone]
        ranking = list(csv.reader(io.StringIO(c.get(f"/api/tournaments/{tid}/ranking.csv").text.lstrip("\ufeff"))))
        assert ranking[0][:5] == ["rank", "player", "points", "won", "lost"]
        assert [row[1] for row in ranking[1:]] == [s["player"] for s in second["ranking"]]
        pdf = c.get(f"/api/tournaments/{tid}/ranking.pdf")
        assert pdf.headers["content-type"] == "application/pdf" and pdf.content.startswith(b"%PDF")
        german = c.get(f"/api/tournaments/{tid}/ranking.pdf?lang=de")
        assert german.status_code == 200 and german.content.startswith(b"%PDF")
        assert c.get(f"/api/tournaments/{tid}/ranking.pdf?lang=xx").json()["error"] == "bad_request"
        blank = c.get(f"/api/tournaments/{tid}/series/2/lists.pdf?blank=1&lang=ru")
        assert blank.status_code == 200 and blank.content.startswith(b"%PDF")
        assert c.get(f"/api/tournaments/{tid}/series/3/lists.pdf").json()["error"] == "no_series"
        before = c.get(f"/api/tournaments/{tid}").json()
    with TestClient(create_app(app_url)) as c:  # a restart keeps the tournament and its lists
        assert c.get(f"/api/tournaments/{tid}").json() == before


def pdf_text(pdf: bytes) -> str:
    """The text of a PDF as poppler's ``pdftotext -layout`` reads it: rows of a table stay on one line."""
    if not shutil.which("pdftotext"):
        missing("pdftotext (Debian package poppler-utils)")  # a failure in CI, a skip elsewhere
    return subprocess.run(["pdftotext", "-layout", "-", "-"], input=pdf, capture_output=True, check=True,
                          timeout=60).stdout.decode()


def test_the_ranking_pdf_prints_the_ranking_row_for_row(client):
    """The ranking PDF, read back as text in English and German: the title, and one row per player in the
    ranking's order with its rank, name (Cyrillic and umlauts in the embedded font), points, games won and
    lost and the series' points, exactly as the ranking JSON has them."""
    players = ["Anna", "Bernd", "Günther", "Мария", "Emil", "Frieda"]
    made = post(client, "/api/tournaments", {"name": "Preisskat", "players": players}).json()
    tid, key = made["id"], made["key"]
    drawn = post(client, f"/api/tournaments/{tid}/series", {"seed": 3}, key).json()
    for t, link in zip(drawn["series"][0]["tables"], drawn["keys"][0]["tables"], strict=True):
        changes = [{"id": f"g{i}", "op": "add", "entry": g} for i, g in enumerate(games_for(t["players"]))]
        r = post(client, f"/api/keeper/{t['list']}/changes", {"changes": changes},
                 link["keeper_url"].split("#key=")[1], "X-Keeper-Key").json()
        assert all(x["ok"] for x in r["results"]), r["results"]
    ranking = client.get(f"/api/tournaments/{tid}").json()["ranking"]
    expected = [[str(s["rank"]), s["player"], str(s["points"]), str(s["won"]), str(s["lost"]), *map(str, s["series"])]
                for s in ranking]
    assert len({s["points"] for s in ranking}) > 1  # an order to keep, not all alike
    for lang, title in (("en", "Preisskat — ranking"), ("de", "Preisskat — Rangliste")):
        pdf = client.get(f"/api/tournaments/{tid}/ranking.pdf?lang={lang}")
        assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")
        text = pdf_text(pdf.content)
        rows = [line.split() for line in text.splitlines() if len(line.split()) > 1 and line.split()[1] in players]
        assert rows == expected, (lang, text)
        assert title in text, (lang, text)


def test_the_ranking_is_followed_live_and_a_full_list_takes_no_more(client):
    made = post(client, "/api/tournaments", {"players": PLAYERS[:6], "games": {"4": 2, "3": 2}}).json()
    tid, key = made["id"], made["key"]
    drawn = post(client, f"/api/tournaments/{tid}/series", {"seed": 1}, key).json()
    table = drawn["series"][0]["tables"][0]
    table_key = drawn["keys"][0]["tables"][0]["keeper_url"].split("#key=")[1]
    with client.websocket_connect(f"/ws/tournament/{tid}") as ws:
        assert ws.receive_json()["ranking"][0]["points"] == 0
        games = games_for(table["players"])
        post(client, f"/api/keeper/{table['list']}/changes",
             {"changes": [{"id": "a", "op": "add", "entry": games[0]}]}, table_key, "X-Keeper-Key")
        heard = ws.receive_json()
        assert heard["type"] == "tournament" and heard["series"][0]["tables"][0]["played"] == 1
        winner = games[0]["declarer"]
        assert heard["ranking"][0]["player"] == winner and heard["ranking"][0]["points"] == 50 + 48  # grand with 1: 2 x 24
    r = post(client, f"/api/keeper/{table['list']}/changes", {"changes": [
        {"id": "b", "op": "add", "entry": games[1]}, {"id": "c", "op": "add", "entry": games[2]}]},
        table_key, "X-Keeper-Key").json()
    assert [x["ok"] for x in r["results"]] == [True, False] and "holds 2 games" in r["results"][1]["message"]


def test_bad_tournament_requests_are_refused_and_change_nothing(client):
    made = post(client, "/api/tournaments", {"players": PLAYERS[:7]}).json()
    tid, key = made["id"], made["key"]
    for body, status, code in [({"players": ["A", "A", "B"]}, 409, "impossible"),
                               ({"players": PLAYERS[:7], "ruleset": "tournee"}, 409, "impossible"),
                               ({"players": PLAYERS[:7], "games": {"4": 0}}, 409, "impossible"),
                               # no list can hold a trillion games (a list holds MAX_ENTRIES)
                               ({"players": PLAYERS[:7], "games": {"4": 1_000_000_000_000}}, 409, "impossible"),
                               ({"players": PLAYERS[:7], "games": {"3": 1001}}, 409, "impossible"),
                               ({"players": "Anna"}, 400, "bad_request"), ({"plyers": []}, 400, "bad_request")]:
        r = post(client, "/api/tournaments", body)
        assert (r.status_code, r.json()["error"]) == (status, code), (body, r.text)
    assert post(client, f"/api/tournaments/{tid}/series", {}, "wrong").status_code == 403
    assert post(client, f"/api/tournaments/{tid}/series", {}).json()["error"] == "bad_key"
    assert post(client, f"/api/tournaments/{tid}/series", {"seed": "x"}, key).json()["error"] == "bad_request"
    assert post(client, f"/api/tournaments/{tid}/players", {"register": "Anna"}, key).status_code == 409
    assert post(client, f"/api/tournaments/{tid}/players", {"kick": "Anna"}, key).status_code == 400
    post(client, f"/api/tournaments/{tid}/players", {"withdraw": "Anna"}, key)
    post(client, f"/api/tournaments/{tid}/players", {"withdraw": "Bernd"}, key)
    r = post(client, f"/api/tournaments/{tid}/series", {}, key)  # 5 active players cannot be seated
    assert r.status_code == 409 and "5 players" in r.json()["message"]
    state = client.get(f"/api/tournaments/{tid}").json()
    assert state["series"] == [] and state["withdrawn"] == ["Anna", "Bernd"] and state["seq"] == 2
    assert client.get("/api/tournaments/" + "f" * 32).json()["error"] == "no_tournament"
    assert client.get("/api/tournaments/nonsense").status_code == 404
    with client.websocket_connect("/ws/tournament/" + "f" * 32) as ws:
        assert ws.receive_json()["code"] == "no_tournament"
