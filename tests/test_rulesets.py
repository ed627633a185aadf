"""Named rule sets: presets, options on top of them, validation and documentation."""

from __future__ import annotations

import dataclasses

import pytest

from skat.rules.rulesets import ISKO, PIRATE, PRESETS, PUB, TOURNEE, RuleSet, RuleSetError, get_ruleset
from skat.rules.value import ISKO_VALUES


def test_presets_by_name():
    assert get_ruleset("ISKO") is ISKO
    assert get_ruleset("pub") is PUB and get_ruleset("pirate") is PIRATE and get_ruleset("tournee") is TOURNEE
    with pytest.raises(RuleSetError, match="choose one of"):
        get_ruleset("bierskat")


def test_isko_is_the_default_and_plain():
    assert RuleSet() == ISKO
    assert ISKO.all_pass == "passed_in" and not ISKO.kontra and ISKO.bock_triggers == () and not ISKO.pirate


def test_the_rules_layer_values_a_game_by_the_isko_numbers_without_a_rule_set():
    assert dataclasses.asdict(ISKO_VALUES) == {f: getattr(ISKO, f) for f in dataclasses.asdict(ISKO_VALUES)}


def test_preset_contents_follow_the_canon():
    assert PUB.all_pass == "ramsch" and PUB.kontra and PUB.bock_triggers
    assert PIRATE.pirate and PIRATE.pirate_threshold == 100 and PIRATE.lost_hand_game_factor == 1
    assert not PIRATE.schieberamsch_unseen_push and PIRATE.ramsch_skat == "loser"
    assert TOURNEE.variant == "tournee" and TOURNEE.schneider_points == 91 and TOURNEE.bid_values[0] == 10
    assert TOURNEE.lost_game_factor == 1 and TOURNEE.ramsch_scoring == "hoyle"


def test_options_change_one_by_one():
    pub = PUB.replace(ramsch_scoring="fixed", bock_triggers=["lost_60"])
    assert pub.ramsch_scoring == "fixed" and pub.bock_triggers == ("lost_60",) and pub.kontra
    with pytest.raises(RuleSetError, match="unknown rule option"):
        ISKO.replace(kontra_everybody=True)
    with pytest.raises(RuleSetError, match="ramsch_scoring"):
        ISKO.replace(ramsch_scoring="cheap")
    with pytest.raises(RuleSetError, match="Bock trigger"):
        ISKO.replace(bock_triggers=("full_moon",))


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_json_round_trip(name):
    rules = PRESETS[name].replace(kontra=True)
    assert RuleSet.from_json(rules.to_json()) == rules


def test_every_option_is_documented():
    docs = {name: doc for name, _, doc in ISKO.describe()}
    for field in dataclasses.fields(RuleSet):
        if field.name not in ("name", "description"):
            assert docs[field.name], f"option {field.name} has no documentation"
