"""A club's season on the server (docs/season.md), on SQLite and PostgreSQL: three tournament evenings made
through the API (players registered, a series drawn, games entered through each table's keeper link), added to a
season; the members added, one linked to an account whose name he played under, an unmatched player linked by
the director, the others added in one go; the ranking equal to the library's for the same standings, by the sum
and by the best 2 of 3 evenings, live as an evening's list goes on; the ranking as CSV and as PDF (the names read
back with pdftotext, in English, German and Korean); a wrong key and bad input refused with their codes, changing
nothing; all of it kept over a restart."""

from __future__ import annotations

import csv
import io

import pytest
from fastapi.testclient import TestClient

from skat.server import create_app
from skat.table.season import Evening, Result, Season
from test_server_support import postgres  # noqa: F401 - the fixture
from test_server_tournament import games_for, pdf_text, post

EVENINGS = [  # (name, players): the same people under names typed a little differently
    ("Preisskat Januar", ["Anna", "Bernd", "Carla", "Dieter_K", "Emil", "Frieda"]),
    ("Preisskat Februar", ["anna", "Bernd", "Carla", "Hansi", "Emil", "Frieda"]),
    ("Preisskat März", ["ANNA", "Bernd", "Carla", "Dieter_K", "Hansi", "Günther"]),
]
MEMBERS = ["Anna", "Bernd", "Carla", "Dieter", "Emil", "Frieda", "Hans Meier"]
KEY = "X-Season-Key"


def play_evening(c: TestClient, name: str, players: list[str], seed: int, games: int = 3) -> dict:
    """A tournament evening: its players, series 1 drawn, ``games`` games entered at each table."""
    made = post(c, "/api/tournaments", {"name": name, "players": players}).json()
    drawn = post(c, f"/api/tournaments/{made['id']}/series", {"seed": seed}, made["key"]).json()
    for t, link in zip(drawn["series"][0]["tables"], drawn["keys"][0]["tables"], strict=True):
        enter(c, t, link["keeper_url"].split("#key=")[1], 0, games)
    return {"id": made["id"], "key": made["key"], "tables": drawn["series"][0]["tables"],
            "links": drawn["keys"][0]["tables"]}


def enter(c: TestClient, table: dict, key: str, start: int, count: int) -> None:
    changes = [{"id": f"g{start + i}", "op": "add", "entry": g}
               for i, g in enumerate(games_for(table["players"])[start:start + count])]
    r = post(c, f"/api/keeper/{table['list']}/changes", {"changes": changes}, key, "X-Keeper-Key").json()
    assert all(x["ok"] for x in r["results"]), r["results"]


def library_season(c: TestClient, state: dict, accounts: dict[str, str]) -> Season:
    """The library's season of the same members, links and rule, its evenings' results from the tournaments."""
    s = Season(state["name"], state["rule"], state["best"])
    ids = {a["name"]: a["id"] for m in state["members"] if (a := m["account"])}
    for m in state["members"]:
        s.add_member(m["name"], ids.get(m["account"]["name"]) if m["account"] else None)
    for link in state["links"]:
        s.link(link["player"], link["member"])
    for e in state["evenings"]:
        ranking = c.get(f"/api/tournaments/{e['tournament']}").json()["ranking"]
        s.add_evening(Evening(e["tournament"], e["name"], e["date"],
                              [Result(r["player"], r["points"], r["rank"], r["won"], r["lost"]) for r in ranking]))
    return s


def ranking_of(state: dict) -> list[tuple]:
    return [(r["rank"], r["member"], r["total"], r["played"], tuple(r["points"]), tuple(r["counted"]))
            for r in state["ranking"]]


def library_ranking(s: Season, accounts: dict[str, str]) -> list[tuple]:
    return [(x.rank, x.member, x.total, x.played, x.points, x.counted) for x in s.ranking(accounts)]


def members(c: TestClient, sid: str, key: str, body: dict, status: int = 200) -> dict:
    r = post(c, f"/api/seasons/{sid}/members", body, key, KEY)
    assert r.status_code == status, r.text
    return r.json()


@pytest.mark.parametrize("db", ["sqlite", "postgresql"])
def test_a_season_over_three_tournament_evenings(tmp_path, request, db):
    url = f"sqlite:///{tmp_path / 'season.sqlite'}" if db == "sqlite" else request.getfixturevalue("postgres").new_database()
    with TestClient(create_app(url)) as c:
        dieter, _ = c.app.state.accounts.register("dieter_k", "geheim-123")
        evenings = [play_evening(c, name, players, seed) for seed, (name, players) in enumerate(EVENINGS, 1)]
        made = post(c, "/api/seasons", {"name": "Jahreswertung 2026", "rule": "sum"})
        assert made.status_code == 201, made.text
        made = made.json()
        sid, key = made["id"], made["key"]
        assert made["director_url"] == f"/season/{sid}#key={key}" and made["ranking"] == [] and made["best"] is None
        # the evenings: by id, by the public link, by the director's link (only the id is kept), one with its date
        post(c, f"/api/seasons/{sid}/evenings", {"tournament_id": evenings[0]["id"], "date": "2026-01-09"}, key, KEY)
        post(c, f"/api/seasons/{sid}/evenings", {"tournament_id": f"http://testserver/tn/{evenings[2]['id']}",
                                                 "date": "2026-03-13"}, key, KEY)
        state = post(c, f"/api/seasons/{sid}/evenings", {"tournament_id": f"/tn/{evenings[1]['id']}#key="
                                                         f"{evenings[1]['key']}", "date": "2026-02-13"}, key, KEY).json()
        assert [e["tournament"] for e in state["evenings"]] == [e["id"] for e in evenings]  # by their dates
        assert [e["name"] for e in state["evenings"]] == [name for name, _ in EVENINGS]
        assert [e["players"] for e in state["evenings"]] == [6, 6, 6] and state["evenings"][0]["url"].startswith("/tn/")
        assert evenings[1]["key"] not in str(c.get(f"/api/seasons/{sid}").json())
        # nobody is a member yet: every player is listed, once per name key, with the evenings he played
        unmatched = {u["player"]: u["evenings"] for u in state["unmatched"]}
        assert unmatched["Anna"] == [1, 2, 3] and unmatched["Hansi"] == [2, 3] and len(unmatched) == 8
        # the members; Dieter linked to the account he played under (its name in any case)
        for name in MEMBERS:
            state = members(c, sid, key, {"op": "add", "name": name} | ({"account": "DIETER_K"} if name == "Dieter" else {}))
        assert next(m for m in state["members"] if m["name"] == "Dieter")["account"] == {"id": dieter.id,
                                                                                       "name": "dieter_k"}
        assert state["unmatched"] == [{"player": "Günther", "evenings": [3], "reason": "unknown"},
                                      {"player": "Hansi", "evenings": [2, 3], "reason": "unknown"}]
        # the director links Hansi to Hans Meier, and adds the rest as members
        state = members(c, sid, key, {"op": "link", "player": "Hansi", "member": "hans meier"})
        assert state["links"] == [{"player": "Hansi", "member": "Hans Meier"}]
        assert next(m for m in state["members"] if m["name"] == "Hans Meier")["players"] == ["Hansi"]
        state = members(c, sid, key, {"op": "add_unmatched"})
        assert state["unmatched"] == [] and state["members"][-1]["name"] == "Günther"
        accounts = {dieter.id: "dieter_k"}
        expected = library_ranking(library_season(c, state, accounts), accounts)
        assert ranking_of(state) == expected
        assert {r[1] for r in expected} == set(MEMBERS) | {"Günther"}
        rows = {r["member"]: r for r in state["ranking"]}
        assert rows["Anna"]["played"] == 3 and rows["Hans Meier"]["played"] == 2 and rows["Dieter"]["played"] == 2
        assert rows["Dieter"]["account"] == {"id": dieter.id, "name": "dieter_k"}
        assert all(all(r["counted"][i] == (p is not None) for i, p in enumerate(r["points"])) for r in state["ranking"])
        assert rows["Anna"]["total"] == sum(rows["Anna"]["points"])

        # the best 2 of 3 evenings
        state = post(c, f"/api/seasons/{sid}/settings", {"rule": "best", "best": 2}, key, KEY).json()
        assert (state["rule"], state["best"]) == ("best", 2)
        assert ranking_of(state) == library_ranking(library_season(c, state, accounts), accounts)
        for r in state["ranking"]:
            played = sorted((p for p in r["points"] if p is not None), reverse=True)
            assert r["total"] == sum(played[:2]) and sum(r["counted"]) == min(2, r["played"])
        anna = next(r for r in state["ranking"] if r["member"] == "Anna")
        assert not all(anna["counted"]), anna

        # live: more games at an evening's table change the season's ranking at the next request
        before = c.get(f"/api/seasons/{sid}").json()
        assert before == state
        third = evenings[2]
        table = third["tables"][1]
        games = [{"id": "more", "op": "add", "entry": {"declarer": table["players"][0], "game": "grand", "with": 4,
                                                       "points": 120, "bid": 18}}]
        r = post(c, f"/api/keeper/{table['list']}/changes", {"changes": games},
                 third["links"][1]["keeper_url"].split("#key=")[1], "X-Keeper-Key").json()
        assert r["results"][0]["ok"], r
        after = c.get(f"/api/seasons/{sid}").json()
        assert ranking_of(after) != ranking_of(before)
        assert ranking_of(after) == library_ranking(library_season(c, after, accounts), accounts)

        # the ranking as CSV and as PDF
        rows_csv = list(csv.reader(io.StringIO(c.get(f"/api/seasons/{sid}/ranking.csv").text.lstrip("\ufeff"))))
        assert rows_csv[0] == ["rank", "member", "account", "total", "evenings", "evening 1", "evening 2", "evening 3"]
        assert [row[1] for row in rows_csv[1:]] == [r["member"] for r in after["ranking"]]
        assert next(row for row in rows_csv if row[1] == "Dieter")[2] == "dieter_k"
        for lang, title in (("en", "Jahreswertung 2026 — season ranking"), ("de", "Jahreswertung 2026 — Jahreswertung"),
                            ("ko", "Jahreswertung 2026 — 시즌 순위")):
            pdf = c.get(f"/api/seasons/{sid}/ranking.pdf?lang={lang}")
            assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF"), pdf.text[:200]
            text = pdf_text(pdf.content)
            assert title in text, (lang, text)
            for r in after["ranking"]:
                line = next(line for line in text.splitlines() if f" {r['member']} " in f" {line} ")
                cells = line.split()
                assert cells[0] == str(r["rank"]) and str(r["total"]) in cells, (lang, line)
            for name, _ in EVENINGS:
                assert name in text, (lang, name)
        assert c.get(f"/api/seasons/{sid}/ranking.pdf?lang=xx").json()["error"] == "bad_request"

        # unlinking the account, and an evening taken out
        state = members(c, sid, key, {"op": "account", "name": "Dieter"})
        assert next(m for m in state["members"] if m["name"] == "Dieter")["account"] is None
        assert {u["player"] for u in state["unmatched"]} == {"Dieter_K"}
        members(c, sid, key, {"op": "account", "name": "Dieter", "account": "dieter_k"})
        gone = c.delete(f"/api/seasons/{sid}/evenings/{evenings[1]['id']}", headers={KEY: key})
        assert gone.status_code == 200 and [e["tournament"] for e in gone.json()["evenings"]] == \
            [evenings[0]["id"], evenings[2]["id"]]
        kept = c.get(f"/api/seasons/{sid}").json()
    with TestClient(create_app(url)) as c:  # a restart keeps the season
        assert c.get(f"/api/seasons/{sid}").json() == kept


def test_a_wrong_key_and_bad_input_are_refused_and_change_nothing(client):
    c = client
    evening = play_evening(c, "Abend", ["Anna", "Bernd", "Carla"], 1, games=1)
    made = post(c, "/api/seasons", {"name": "Saison", "rule": "best", "best": 3}).json()
    sid, key = made["id"], made["key"]
    post(c, f"/api/seasons/{sid}/evenings", {"tournament_id": evening["id"]}, key, KEY)
    members(c, sid, key, {"op": "add", "name": "Anna"})
    before = c.get(f"/api/seasons/{sid}").json()
    assert before["seq"] == 2 and before["evenings"][0]["date"]  # the day the tournament was made
    for body, status, code in [({"rule": "average"}, 400, "bad_rule"), ({"rule": "best"}, 400, "bad_rule"),
                               ({"rule": "best", "best": 0}, 400, "bad_rule"), ({"rule": "best", "best": "2"}, 400, "bad_rule"),
                               ({"rule": "sum", "best": 2}, 400, "bad_rule"), ({"name": "x" * 201}, 400, "bad_name"),
                               ({"name": 5}, 400, "bad_name"), ({"colour": "red"}, 400, "bad_request")]:
        r = post(c, "/api/seasons", body)
        assert (r.status_code, r.json()["error"]) == (status, code), (body, r.text)
    # the director's key: missing or wrong
    for method, path, body in [("POST", "settings", {"rule": "sum"}), ("POST", "evenings", {"tournament_id": evening["id"]}),
                               ("POST", "members", {"op": "add", "name": "Zoe"}),
                               ("DELETE", f"evenings/{evening['id']}", None)]:
        for wrong in (None, "wrong", evening["key"]):
            headers = {KEY: wrong} if wrong else {}
            r = c.request(method, f"/api/seasons/{sid}/{path}", json=body, headers=headers)
            assert (r.status_code, r.json()["error"]) == (403, "bad_key"), (path, wrong, r.text)
    assert c.get(f"/api/seasons/{sid}/director", headers={KEY: key}).json() == {"director": True}
    for wrong in ({}, {KEY: "wrong"}):
        assert c.get(f"/api/seasons/{sid}/director", headers=wrong).json()["error"] == "bad_key"
    refusals = [
        ("settings", {"rule": "best", "best": 999}, 400, "bad_rule"),
        ("settings", {"name": "  "}, 400, "bad_name"),
        ("settings", {"best": True}, 400, "bad_rule"),
        ("evenings", {"tournament_id": "f" * 32}, 404, "no_tournament"),
        ("evenings", {"tournament_id": "https://example.org/tn/nonsense"}, 404, "no_tournament"),
        ("evenings", {"tournament_id": evening["id"]}, 409, "evening_taken"),
        ("evenings", {"tournament_id": evening["id"], "date": "2026-13-01"}, 400, "bad_date"),
        ("evenings", {"tournament_id": evening["id"], "date": 20260101}, 400, "bad_date"),
        ("evenings", {}, 400, "bad_request"),
        ("members", {"op": "add", "name": "ANNA"}, 409, "member_taken"),
        ("members", {"op": "add", "name": ""}, 400, "bad_name"),
        ("members", {"op": "add", "name": "Zoe", "account": "nobody"}, 404, "no_account"),
        ("members", {"op": "add"}, 400, "bad_request"),
        ("members", {"op": "kick", "name": "Anna"}, 400, "bad_request"),
        ("members", {"op": "link", "player": "Anni", "member": "Zoe"}, 404, "no_member"),
        ("members", {"op": "link", "player": "Anni"}, 400, "bad_request"),
        ("members", {"op": "unlink", "player": "Anni"}, 404, "no_member"),
        ("members", {"op": "remove", "name": "Zoe"}, 404, "no_member"),
        ("members", {"op": "remove", "name": 7}, 400, "bad_request"),
    ]
    for path, body, status, code in refusals:
        r = post(c, f"/api/seasons/{sid}/{path}", body, key, KEY)
        assert (r.status_code, r.json()["error"]) == (status, code), (path, body, r.text)
    r = c.delete(f"/api/seasons/{sid}/evenings/{'e' * 32}", headers={KEY: key})
    assert (r.status_code, r.json()["error"]) == (404, "no_evening")
    assert c.get(f"/api/seasons/{sid}").json() == before
    assert c.get("/api/seasons/" + "f" * 32).json()["error"] == "no_season"
    assert c.get("/api/seasons/nonsense").status_code == 404
    assert c.get("/api/seasons/" + "f" * 32 + "/ranking.pdf").json()["error"] == "no_season"
    assert post(c, f"/api/seasons/{'f' * 32}/members", {"op": "add", "name": "X"}, key, KEY).json()["error"] == "no_season"


def test_the_pages_are_served(client):
    for path in ("/season", "/season/" + "a" * 32):
        r = client.get(path)
        assert r.status_code == 200 and 'src="/static/season.js"' in r.text
