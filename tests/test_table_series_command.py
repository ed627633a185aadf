"""The ``skat series`` command: its JSON contract and its error messages."""

from __future__ import annotations

import json

import pytest

from skat.cli import main


@pytest.mark.parametrize("n, ruleset", [(3, "isko"), (4, "tournee"), (5, "isko")])
def test_series_json_contract(capsys, n, ruleset):
    assert main(["series", "--players", str(n), "--ruleset", ruleset, "--games", "6", "--seed", "4",
                 "--bot", "random", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["players"] == [f"P{i + 1}" for i in range(n)]
    assert len(data["games"]) == 6
    for i, g in enumerate(data["games"]):
        assert {"number", "dealer", "declarer", "game", "won", "scores"} <= set(g)
        assert g["number"] == i + 1 and g["dealer"] == data["players"][i % n]
        assert len(g["scores"]) == n
        assert g["declarer"] is None or g["declarer"] in data["players"]
    assert data["totals"] == [sum(g["scores"][i] for g in data["games"]) for i in range(n)]
    assert len(data["seeger_fabian"]) == n and len(data["settlement"]) == n
    assert abs(sum(data["settlement"])) < 0.05


def test_series_is_reproducible(capsys):
    args = ["series", "--players", "3", "--games", "4", "--seed", "9", "--bot", "random", "--json"]
    main(args)
    first = capsys.readouterr().out
    main(args)
    assert capsys.readouterr().out == first


def test_series_options_and_errors(capsys):
    assert main(["series", "--games", "2", "--seed", "1", "--bot", "random", "--set", "lost_game_factor=1",
                 "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["rules"]["lost_game_factor"] == 1
    assert main(["series", "--ruleset", "bierskat"]) == 2
    assert "choose one of" in capsys.readouterr().err
    assert main(["series", "--set", "no_such_option=1"]) == 2
    assert "unknown rule option" in capsys.readouterr().err
    assert main(["series", "--players", "6"]) == 2
    assert "3, 4 or 5" in capsys.readouterr().err


def test_series_prints_a_table_without_json(capsys):
    assert main(["series", "--games", "3", "--seed", "2", "--bot", "random"]) == 0
    out = capsys.readouterr().out
    assert "Seeger-Fabian" in out and "settlement" in out


def test_series_shows_the_rule_sheet(capsys):
    assert main(["series", "--ruleset", "pirate", "--show-rules"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("pirate:") and "pirate_threshold = 100" in out and "Bock round" in out
