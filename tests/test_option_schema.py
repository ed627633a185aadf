"""Every option is checked where it enters: one schema (skat.schema) for the command line (``--set``),
the server (a table's ``options``, Skat and Officers' Skat) and records (a rule set read back).

Each refusal names the option and what it accepts, and nothing is created: no score sheet printed,
no table in the lobby or the database, no game built from the record.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import random

import pytest

from skat import Game, RecordError
from skat.cli import main
from skat.rules.rulesets import (
    ISKO,
    PRESETS,
    PUB,
    SCHEMA,
    TOURNEE,
    TOURNEE_BID_VALUES,
    TOURNEE_GAME_VALUES,
    RuleSet,
    RuleSetError,
)
from skat.schema import OPTION, Option, OptionError, Schema, flag
from skat.server.creation import table_ruleset
from skat.server.store import Store
from skat.table.series import Table
from skat.variants import from_record
from skat.variants.officers import OfficersGame
from skat.variants.officers.options import SCHEMA as OFFICERS_SCHEMA
from skat.variants.officers.options import OfficersOptions
from skat.variants.tournee import TourneeGame

# (option changes as JSON, the option the error must name, words the error must hold)
BAD = [
    pytest.param({"kontraa": True}, "kontra", "unknown rule option", id="unknown-name"),
    pytest.param({"kontra": "maybe"}, "kontra", "true or false", id="kontra-maybe"),
    pytest.param({"bid_values": [1099511627776]}, "bid_values", "1099511627776", id="bid-overflow"),
    pytest.param({"bid_values": [18, 18]}, "bid_values", "does not rise", id="bid-repeated"),
    pytest.param({"bid_values": [20, 18]}, "bid_values", "does not rise", id="bid-falling"),
    pytest.param({"bid_values": [19]}, "bid_values", "19 is not a game value", id="bid-19"),
    pytest.param({"bid_values": [10, 11]}, "bid_values", "historical ladder", id="bid-historical-11"),
    pytest.param({"bid_values": []}, "bid_values", "0 items", id="bid-empty"),
    pytest.param({"pirate_threshold": -1}, "pirate_threshold", "from 1 to 10000", id="threshold-negative"),
    pytest.param({"bock_value_threshold": -1}, "bock_value_threshold", "from 0 to 1000", id="bock-threshold"),
    pytest.param({"schneider_points": 200}, "schneider_points", "from 61 to 120", id="schneider-200"),
    pytest.param({"lost_game_factor": 100}, "lost_game_factor", "from 1 to 4", id="factor-100"),
    pytest.param({"all_pass": "sometimes"}, "all_pass", "passed_in, ramsch, redeal", id="all-pass-sometimes"),
    pytest.param({"fabian_bonus": [40, 30]}, "fabian_bonus", "3 whole numbers", id="tuple-length"),
    pytest.param({"bock_triggers": ["re", "re"]}, "bock_triggers", "named twice", id="trigger-twice"),
    pytest.param({"bock_triggers": ["full_moon"]}, "bock_triggers", "Bock trigger", id="trigger-unknown"),
]

# JSON only: types that the command line cannot even write.
BAD_JSON_TYPES = [
    pytest.param({"kontra": 1}, "kontra", "true or false", id="kontra-1"),  # (--set kontra=1 means true)
    pytest.param({"lost_game_factor": 2.0}, "lost_game_factor", "whole number", id="float-for-int"),
    pytest.param({"lost_game_factor": True}, "lost_game_factor", "whole number", id="bool-for-int"),
    pytest.param({"kontra": "true"}, "kontra", "true or false", id="string-for-bool"),
    pytest.param({"bid_values": "18,20"}, "bid_values", "bids", id="string-for-list"),
    pytest.param({"bid_values": [18, 20.0]}, "bid_values", "whole number", id="float-in-list"),
    pytest.param({"ramsch_scoring": ["augen"]}, "ramsch_scoring", "augen, fixed, hoyle", id="list-for-choice"),
    pytest.param({"kontra": {"x": 1}}, "kontra", "true or false", id="object-for-bool"),
]


def _cli_value(value: object) -> str:
    """How ``--set`` writes a value."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return ",".join(str(v) for v in value)
    return str(value)


def _assert_names(message: str, option: str, words: str) -> None:
    assert option in message and words in message, message


# ---------------------------------------------------------------------- the schema itself
@pytest.mark.parametrize("cls, schema", [(RuleSet, SCHEMA), (OfficersOptions, OFFICERS_SCHEMA)],
                         ids=["RuleSet", "OfficersOptions"])
def test_every_field_has_schema_metadata_that_fits_its_type(cls, schema):
    annotation_of = {"bool": ("bool",), "int": ("int",), "choice": ("str",), "text": ("str",),
                     "ints": ("tuple[int, ...]", "tuple[int, int, int]"), "names": ("tuple[str, ...]",)}
    for field in dataclasses.fields(cls):
        option = field.metadata.get(OPTION)
        assert isinstance(option, Option), f"{cls.__name__}.{field.name} has no schema entry"
        assert option.doc.strip(), f"{cls.__name__}.{field.name} has no doc"
        assert field.type in annotation_of[option.kind], f"{field.name}: {field.type} is not a {option.kind}"
        assert option.check(field.default) == field.default  # the default passes its own schema
        assert option.accepts()
    assert list(schema.options) == [f.name for f in dataclasses.fields(cls)]


def test_a_field_without_schema_metadata_is_refused():
    @dataclasses.dataclass(frozen=True)
    class Options:
        kontra: bool = flag(False, "Kontra may be said.")
        colour: str = "red"

    with pytest.raises(TypeError, match="colour"):
        Schema(Options, "option")


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_presets_pass_the_schema(name):
    rules = PRESETS[name]
    assert RuleSet.from_json(json.loads(json.dumps(rules.to_json()))) == rules


def test_rule_set_errors_are_value_errors_naming_the_option():
    with pytest.raises(RuleSetError) as info:
        ISKO.replace(schneider_points=200)
    assert isinstance(info.value, ValueError) and isinstance(info.value, OptionError)
    assert info.value.option == "schneider_points" and info.value.accepts == "a whole number from 61 to 120"


@pytest.mark.parametrize("changes, option, words", BAD + BAD_JSON_TYPES)
def test_python_and_json_refuse_bad_options(changes, option, words):
    with pytest.raises(RuleSetError) as info:
        ISKO.replace(**changes)
    _assert_names(str(info.value), option, words)
    with pytest.raises(RuleSetError):
        RuleSet.from_json(changes)
    if "kontraa" not in changes:  # (an unknown keyword is Python's TypeError for the constructor)
        with pytest.raises(RuleSetError):
            RuleSet(**changes)


def test_good_options_are_normalised():
    rules = ISKO.replace(bid_values=[18, 20, 22], fabian_bonus=[1, 2, 3], bock_triggers=["re"])
    assert rules.bid_values == (18, 20, 22) and rules.fabian_bonus == (1, 2, 3) and rules.bock_triggers == ("re",)
    assert ISKO.replace(bid_values=TOURNEE_BID_VALUES).bid_values[0] == 10  # the historical ladder, from 10


def test_the_tournee_ladder_holds_what_a_tournee_game_can_reach():
    assert max(TOURNEE_GAME_VALUES) == 216 == TOURNEE_BID_VALUES[-1]  # Grand Ouvert with 4: 9 x 24
    assert TOURNEE_BID_VALUES[0] == 10 and {20, 40, 70, 98, 144, 192} <= set(TOURNEE_BID_VALUES)
    assert not {75, 95, 119, 220, 456} & set(TOURNEE_BID_VALUES)  # 5 x 15 is beyond Tournee diamonds (x14)
    assert TOURNEE.replace(bid_values=[10, 12, 216]).bid_values == (10, 12, 216)
    for ladder, words in (([10, 218], "historical ladder"), ([10, 75], "historical ladder"),
                          ([18, 23], "a tournee table bids on the historical ladder")):
        with pytest.raises(RuleSetError, match=words):
            TOURNEE.replace(bid_values=ladder)


# ---------------------------------------------------------------------- the command line
@pytest.mark.parametrize("changes, option, words", BAD)
def test_the_command_line_refuses_bad_options(changes, option, words, capsys):
    (name, value), = changes.items()
    code = main(["series", "--games", "1", "--seed", "1", "--bot", "random", "--set", f"{name}={_cli_value(value)}"])
    out, err = capsys.readouterr()
    assert code == 2 and out == ""  # nothing was played or printed
    _assert_names(err, option, words)


@pytest.mark.parametrize("text", ["maybe", "2", "True!", "", "on"])
def test_the_command_line_takes_booleans_in_a_few_words_only(text, capsys):
    assert main(["rules", "show", "isko", "--set", f"kontra={text}"]) == 2
    err = capsys.readouterr().err
    assert "kontra" in err and "true/false, yes/no or 1/0" in err


@pytest.mark.parametrize("pair, why", [("schneider_points=91.0", "not a whole number"),
                                       ("bid_values=18,twenty", "not a whole number"),
                                       ("fabian_bonus=40,30", "comma-separated, e.g. 40,30,30"),
                                       ("kontra", "OPTION=VALUE")])
def test_the_command_line_says_how_to_write_a_value(pair, why, capsys):
    assert main(["rules", "show", "isko", "--set", pair]) == 2
    assert why in capsys.readouterr().err


def test_the_command_line_converts_by_the_options_type(capsys):
    args = ["rules", "show", "pub", "--json", "--set", "kontra=no", "--set", "ramsch_grand_hand=0",
            "--set", "schieberamsch=YES", "--set", "schneider_points=91", "--set", "bid_values=18,20,22",
            "--set", "bock_triggers=re,lost_60", "--set", "fabian_bonus=[1,2,3]", "--set", "all_pass=redeal"]
    assert main(args) == 0
    values = {o["name"]: o["value"] for o in json.loads(capsys.readouterr().out)["options"]}
    assert values["kontra"] is False and values["ramsch_grand_hand"] is False and values["schieberamsch"] is True
    assert values["schneider_points"] == 91 and values["bid_values"] == [18, 20, 22]
    assert values["bock_triggers"] == ["re", "lost_60"] and values["fabian_bonus"] == [1, 2, 3]
    assert values["all_pass"] == "redeal"
    assert main(["rules", "show", "pub", "--json", "--set", "bock_triggers="]) == 0  # empty: no Bock rounds
    values = {o["name"]: o["value"] for o in json.loads(capsys.readouterr().out)["options"]}
    assert values["bock_triggers"] == []


def test_series_plays_with_checked_options(capsys):
    assert main(["series", "--games", "2", "--seed", "3", "--bot", "random", "--json", "--set", "kontra=yes",
                 "--set", "seeger_won=10"]) == 0
    rules = json.loads(capsys.readouterr().out)["rules"]
    assert rules["kontra"] is True and rules["seeger_won"] == 10


# ---------------------------------------------------------------------- the server
def _no_tables(client, db_url: str) -> None:
    assert client.get("/api/tables").json()["tables"] == []
    assert Store(db_url).load_open_tables() == []


@pytest.mark.parametrize("changes, option, words", BAD + BAD_JSON_TYPES)
def test_the_server_refuses_bad_options_and_creates_nothing(client, db_url, changes, option, words):
    r = client.post("/api/tables", json={"ruleset": "pub", "seats": ["human", "random", "random"],
                                         "options": changes})
    assert r.status_code == 400 and r.json()["error"] == "bad_options", r.text
    _assert_names(r.json()["message"], option, words)
    _no_tables(client, db_url)


def test_the_server_keeps_good_options(client, db_url):
    r = client.post("/api/tables", json={"ruleset": "isko2018", "seats": ["human", "random", "random"],
                                         "options": {"kontra": True, "bid_values": [18, 20, 22, 23, 24]}})
    assert r.status_code == 201, r.text
    stored = Store(db_url).load_open_tables()
    assert len(stored) == 1 and stored[0].settings["options"] == {"kontra": True, "bid_values": [18, 20, 22, 23, 24]}
    rules = table_ruleset(stored[0].settings)
    assert rules.kontra and rules.bid_values == (18, 20, 22, 23, 24)


def test_a_stored_table_with_tampered_options_is_refused_on_loading():
    with pytest.raises(RuleSetError, match="kontra"):
        table_ruleset({"ruleset": "pub", "options": {"kontra": "maybe"}})
    with pytest.raises(RuleSetError, match="bid_values"):
        table_ruleset({"ruleset": "pub", "options": {"bid_values": [1099511627776]}})


OFFICERS_BAD = [
    pytest.param({"kontra": 1}, "kontra", "true or false", id="kontra-1"),
    pytest.param({"kontra": "maybe"}, "kontra", "true or false", id="kontra-maybe"),
    pytest.param({"null_value": 23.5}, "null_value", "whole number", id="null-float"),
    pytest.param({"null_value": 0}, "null_value", "from 1 to 100", id="null-0"),
    pytest.param({"null_value": 1099511627776}, "null_value", "from 1 to 100", id="null-huge"),
    pytest.param({"scoring": "golf"}, "scoring", "matadors", id="scoring-unknown"),
    pytest.param({"allow_null": "yes"}, "allow_null", "true or false", id="allow-null-string"),
    pytest.param({"deck": ["CJ"] * 32}, "deck", "unknown option", id="deck-is-no-option"),
    pytest.param({"colour": 1}, "colour", "unknown option", id="unknown-name"),
]


@pytest.mark.parametrize("changes, option, words", OFFICERS_BAD)
def test_the_officers_server_refuses_bad_options_and_creates_nothing(client, db_url, changes, option, words):
    before = len(client.app.state.manager.tables)
    r = client.post("/api/tables", json={"variant": "officers", "officers_variant": "classic", "seed": 3,
                                         "options": changes})
    assert r.status_code == 400, r.text
    _assert_names(r.json()["message"], option, words)
    assert len(client.app.state.manager.tables) == before
    assert Store(db_url).open_table_ids() == []


@pytest.mark.parametrize("changes, option, words", OFFICERS_BAD)
def test_officers_options_in_python_are_checked_alike(changes, option, words):
    with pytest.raises(ValueError) as info:
        OfficersGame("classic", seed=1, **changes) if option != "deck" else OFFICERS_SCHEMA.check_changes(changes)
    _assert_names(str(info.value), option, words)


# ---------------------------------------------------------------------- records
def _played(game: Game, seed: int = 5) -> Game:
    rng = random.Random(seed)
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
    return game


RECORD = _played(Game(seed=11, ruleset=PUB)).to_record()


@pytest.mark.parametrize("changes, option, words", BAD + BAD_JSON_TYPES)
def test_a_record_with_a_tampered_rule_set_builds_no_game(changes, option, words):
    record = copy.deepcopy(RECORD)
    record["ruleset"].update(changes)
    before = copy.deepcopy(record)
    built = None
    with pytest.raises(RecordError) as info:
        built = Game.from_record(record)
    assert built is None and record == before
    _assert_names(str(info.value), option, words)


@pytest.mark.parametrize("ruleset", [[1, 2], "pub", 7])
def test_a_record_whose_rule_set_is_no_object_is_refused(ruleset):
    record = dict(copy.deepcopy(RECORD), ruleset=ruleset)
    with pytest.raises(RecordError, match="rule set"):
        Game.from_record(record)


def test_the_table_record_loader_refuses_a_tampered_rule_set():
    table = Table(3, seed=1, games=2)
    stored = copy.deepcopy(RECORD)  # another deal, so the table deals the stored cards
    stored["ruleset"]["kontra"] = "maybe"
    with pytest.raises(RecordError, match="kontra"):
        table.next_game(stored)
    assert table.records == [] and table.sheet.entries == []
    assert table.next_game() is not None  # the table goes on as if nothing had been asked


def _tournee_record() -> dict:
    game = TourneeGame(seed=4)
    rng = random.Random(1)
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
    return game.to_record()


def test_tournee_records_are_checked_and_old_ladders_still_read():
    record = _tournee_record()
    assert from_record(record).ruleset == TOURNEE
    old = set(range(10, 100, 2)) | {20, 40}
    for unit in (5, 6, 7, 8, 9, 10, 11, 12, 16, 20, 24):
        old |= {unit * m for m in range(2, 20) if unit * m >= 10}
    legacy = dict(copy.deepcopy(record))
    legacy["ruleset"]["bid_values"] = sorted(old)  # as written before the ladder was cut to 216
    assert from_record(legacy).ruleset == TOURNEE
    bad = copy.deepcopy(record)
    bad["ruleset"]["schneider_points"] = 200
    with pytest.raises(RecordError, match="schneider_points"):
        from_record(bad)
    standard = copy.deepcopy(record)
    standard["ruleset"] = ISKO.to_json()
    with pytest.raises(RecordError, match="Tournee rule set"):
        from_record(standard)


def test_an_officers_record_with_tampered_options_is_refused():
    game = OfficersGame("classic", seed=2)
    record = game.to_record()
    record["options"] = {"kontra": 1}
    with pytest.raises(RecordError, match="kontra"):
        OfficersGame.from_record(record)


# ---------------------------------------------------------------------- skat rules
def test_rules_show_isko(capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "100")  # the table fits the terminal: the same width wherever the test runs
    assert main(["rules", "show", "isko"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("isko2018: International Skat Order 2018")
    lines = out.splitlines()
    row = next(line for line in lines if line.split()[:1] == ["all_pass"])
    assert "passed_in" in row and "passed_in, ramsch, redeal" in row
    assert any(line.split()[:1] == ["bid_values"] and "18, 20, 22 ... 264 (63 values)" in line for line in lines)
    assert any(line.split()[:3] == ["schneider_points", "90", "61"] for line in lines)
    assert "Seeger-Fabian" in out and "``" not in out  # docs, in plain words
    assert not any(line.startswith("*") for line in lines)  # nothing differs from itself


def test_rules_show_pub_marks_what_differs(capsys):
    assert main(["rules", "show", "pub"]) == 0
    lines = capsys.readouterr().out.splitlines()
    marked = {line.split()[1] for line in lines if line.startswith("* ")}
    assert marked == set(PUB.changed()) - {"name", "description"}
    assert {"kontra", "all_pass", "bock_triggers", "ramsch_grand_hand"} <= marked


def test_rules_show_json(capsys):
    assert main(["rules", "show", "pub", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["name"] == "pub" and data["description"] == PUB.description
    options = {o["name"]: o for o in data["options"]}
    assert list(options) == [f.name for f in dataclasses.fields(RuleSet)][2:]
    assert all(options[k]["value"] == v for k, v in PUB.to_json().items() if k in options)
    assert options["kontra"]["value"] is True and options["kontra"]["default"] is False and options["kontra"]["changed"]
    assert options["all_pass"]["choices"] == ["passed_in", "ramsch", "redeal"]
    assert options["schneider_points"]["low"] == 61 and options["schneider_points"]["high"] == 120
    assert options["fabian_bonus"]["length"] == 3 and options["bid_values"]["increasing"]
    assert all(o["doc"] and o["accepts"] for o in options.values())


def test_rules_list_and_officers(capsys):
    assert main(["rules", "list"]) == 0
    out = capsys.readouterr().out
    for name in ("isko2018", "pub", "pirate", "tournee", "old_pre1999", "officers"):
        assert name in out
    assert main(["rules", "show", "officers", "--json"]) == 0
    options = {o["name"]: o for o in json.loads(capsys.readouterr().out)["options"]}
    assert options["all_pass"]["variants"] == ["admiral"] and options["null_value"]["high"] == 100
    assert main(["rules", "show", "bierskat"]) == 2
    assert "choose one of" in capsys.readouterr().err
