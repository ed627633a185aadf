"""``skat tournament`` end to end in a temporary folder (skat.commands.tournament, docs/keeper.md "Tournament")."""

from __future__ import annotations

import csv
import io
import json

import pytest

from skat.cli import main

PLAYERS = ["Anna", "Bernd", "Clara", "Dieter", "Eva", "Jürgen Weiß", "Мария Иванова"]


def skat(capsys, *argv: str) -> tuple[int, str, str]:
    status = main(["tournament", *map(str, argv)])
    out, err = capsys.readouterr()
    return status, out, err


@pytest.fixture
def folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "players.txt").write_text("# the club\n" + "\n".join(PLAYERS) + "\n\n", encoding="utf-8")
    return tmp_path


def list_file(path, players, games):
    """A keeper's file for a table (docs/keeper.md), every bid 18."""
    path.write_text(json.dumps({"players": players, "ruleset": "isko",
                                "games": [{"bid": 18, **g} for g in games]}, ensure_ascii=False), encoding="utf-8")
    return path


def test_draw_prints_a_first_series(folder, capsys):
    status, out, _ = skat(capsys, "draw", "players.txt", "--seed", 3)
    assert status == 0 and out.splitlines()[0] == "drawn by lot (seed 3)"
    assert out.splitlines()[1].startswith("table 1 (4): ") and out.splitlines()[2].startswith("table 2 (3): ")
    status, out, _ = skat(capsys, "draw", "players.txt", "--seed", 3, "--json")
    data = json.loads(out)
    assert (data["by"], data["seed"]) == ("lot", 3) and sorted(p for t in data["tables"] for p in t) == sorted(PLAYERS)
    assert skat(capsys, "draw", "players.txt", "--seed", 3, "--json")[1] == out  # the same seed, the same draw
    (folder / "six.json").write_text(json.dumps(PLAYERS[:6]), encoding="utf-8")
    status, out, _ = skat(capsys, "draw", "six.json", "--seed", 1, "--tables-of", 3, 3, "--json")
    assert status == 0 and [len(t) for t in json.loads(out)["tables"]] == [3, 3]


def test_a_tournament_end_to_end(folder, capsys):
    status, out, _ = skat(capsys, "new", "Club cup", "--players", "players.txt", "-o", "cup.json", "--games3", 30)
    assert status == 0 and "7 players" in out
    data = json.loads((folder / "cup.json").read_text(encoding="utf-8"))
    assert data["players"] == PLAYERS and data["games"] == {"4": 48, "3": 30} and data["ruleset"] == "isko2018"

    status, out, _ = skat(capsys, "next", "cup.json", "--seed", 1, "--json")
    assert status == 0
    four, three = json.loads(out)["tables"]
    assert json.loads((folder / "cup.json").read_text(encoding="utf-8"))["series"][0]["draw"] == [four, three]
    # 4-table: the first of the draw deals and sits out; 3-table: the dealer plays
    list_file(folder / "t1.json", four, [
        {"declarer": four[1], "game": "grand", "with": 1, "points": 70},  # 48 + 50 = 98
        {"declarer": four[2], "game": "clubs", "with": 1, "points": 40},  # -48 - 50 = -98; the others +30
    ])
    (folder / "t2.yaml").write_text(
        f"players: [{', '.join(three)}]\nruleset: isko\ngames:\n"
        f"  - {{declarer: {three[0]}, game: hearts, with: 1, points: 70, bid: 18}}\n", encoding="utf-8")  # 20 + 50
    status, out, _ = skat(capsys, "record", "cup.json", 1, 1, "t1.json")
    assert status == 0 and "2 of 48 games" in out and f"{four[1]} 128" in out
    assert skat(capsys, "record", "cup.json", 1, 2, "t2.yaml")[0] == 0

    status, out, _ = skat(capsys, "ranking", "cup.json", "--json")
    ranking = json.loads(out)["ranking"]
    assert [(r["player"], r["points"]) for r in ranking[:2]] == [(four[1], 128), (three[0], 70)]
    status, out, _ = skat(capsys, "ranking", "cup.json", "--csv")
    rows = list(csv.reader(io.StringIO(out)))
    assert rows[0][:5] == ["rank", "player", "points", "won", "lost"] and rows[1][1:3] == [four[1], "128"]
    status, out, _ = skat(capsys, "ranking", "cup.json")
    assert out.splitlines()[0] == "Club cup — ranking after 1 series" and four[1] in out.splitlines()[3]
    assert skat(capsys, "ranking", "cup.json", "--pdf", "ranking.pdf")[0] == 0
    assert (folder / "ranking.pdf").read_bytes().startswith(b"%PDF-")

    status, out, _ = skat(capsys, "next", "cup.json", "--by-ranking")
    assert status == 0 and out.splitlines()[0] == "series 2, drawn by the ranking"
    best = [r["player"] for r in ranking[:4]]
    assert out.splitlines()[1] == f"table 1 (4): {', '.join(best)}"
    assert skat(capsys, "lists", "cup.json", 2, "--pdf", "series2.pdf", "--blank")[0] == 0
    assert (folder / "series2.pdf").read_bytes().startswith(b"%PDF-")
    assert skat(capsys, "lists", "cup.json", 1, "--pdf", "series1.pdf")[0] == 0

    assert skat(capsys, "register", "cup.json", "Fritz")[0] == 0
    assert skat(capsys, "withdraw", "cup.json", "Anna")[0] == 0
    data = json.loads((folder / "cup.json").read_text(encoding="utf-8"))
    assert data["players"][-1] == "Fritz" and data["withdrawn"] == ["Anna"]


@pytest.fixture
def cup(folder, capsys):
    """A tournament file with series 1 drawn; returns (its bytes, the draw)."""
    assert skat(capsys, "new", "Cup", "--players", "players.txt", "-o", "cup.json")[0] == 0
    assert skat(capsys, "next", "cup.json", "--seed", 1)[0] == 0
    data = json.loads((folder / "cup.json").read_text(encoding="utf-8"))
    return (folder / "cup.json").read_bytes(), data["series"][0]["draw"]


@pytest.mark.parametrize("argv, why", [
    (["record", "cup.json", 1, 1, "missing.json"], "cannot read missing.json"),
    (["record", "cup.json", 1, 1, "bad.json"], "bad.json is not valid JSON"),
    (["record", "cup.json", 1, 2, "t1.json"], "series 1 table 2 seats"),  # the list of table 1 handed in for 2
    (["record", "cup.json", 3, 1, "t1.json"], "there is no series 3"),
    (["record", "cup.json", 1, 9, "t1.json"], "series 1 has no table 9"),
    (["record", "cup.json", 1, 1, "pub.json"], "the tournament plays isko2018"),
    (["record", "cup.json", 1, 1, "impossible.json"], "game 1:"),
    (["ranking", "nowhere.json"], "cannot read nowhere.json"),
    (["ranking", "bad.json", "--pdf", "out.pdf"], "bad.json: not valid JSON"),
    (["lists", "cup.json", 2, "--pdf", "out.pdf"], "there is no series 2"),
    (["next", "cup.json", "--tables-of", 3, 3], "seat 6 players, not the 7"),
    (["register", "cup.json", "Anna"], "Anna is registered already"),
    (["withdraw", "cup.json", "Zora"], "'Zora' is not registered"),
    (["new", "Cup", "--players", "players.txt", "-o", "cup.json"], "cup.json exists"),
    (["new", "Cup", "--players", "players.txt", "-o", "out.pdf", "--games4", 0], "positive"),
    (["new", "Cup", "--players", "players.txt", "-o", "out.pdf", "--ruleset", "bier"], "unknown rule set"),
    (["new", "Cup", "--players", "nobody.txt", "-o", "out.pdf"], "cannot read nobody.txt"),
    (["draw", "five.txt"], "5 players cannot be seated"),
])
def test_bad_input_says_why_with_status_2_and_changes_nothing(folder, cup, capsys, argv, why):
    before, draw = cup
    list_file(folder / "t1.json", draw[0], [])
    list_file(folder / "impossible.json", draw[0], [{"declarer": draw[0][0], "game": "grand", "with": 1,
                                                      "points": 70}])  # the dealer sits out
    (folder / "pub.json").write_text(json.dumps({"players": draw[0], "ruleset": "pub", "games": []}),
                                     encoding="utf-8")
    (folder / "bad.json").write_text("{not json", encoding="utf-8")
    (folder / "five.txt").write_text("A\nB\nC\nD\nE\n", encoding="utf-8")
    files = {p.name: p.read_bytes() for p in folder.iterdir()}
    status, out, err = skat(capsys, *argv)
    assert status == 2 and out == ""
    assert err.startswith("skat tournament: ") and why in err
    assert (folder / "cup.json").read_bytes() == before
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == files  # nothing written, no file left behind
