"""The variant registry: every game the engine plays found by name, started, recorded and read back
through one interface."""

from __future__ import annotations

import json
import random

import pytest

from skat.analysis import AnalysisError, analyse_game
from skat.deal.game import Game
from skat.errors import RecordError
from skat.players.base import RandomPlayer
from skat.rules.rulesets import PUB, TOURNEE
from skat.table.series import Table
from skat.variants import (
    DealState,
    Variant,
    from_record,
    get_variant,
    register,
    variant_for_rules,
    variant_names,
    variant_of_game,
    variant_of_record,
    variants,
)
from skat.variants.officers.game import OfficersGame
from skat.variants.tournee import TourneeGame


def _play_out(game, seed: int):
    rng = random.Random(seed)
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
    return game


def test_the_built_in_variants():
    assert variant_names() == ("standard", "tournee", "officers")
    assert [v.seats for v in variants()] == [3, 3, 2]
    assert get_variant("tournee").game_class is TourneeGame
    with pytest.raises(ValueError, match="unknown variant 'doppelkopf'; choose one of: standard, tournee, officers"):
        get_variant("doppelkopf")


def test_a_name_is_registered_once():
    with pytest.raises(ValueError, match="registered already"):
        register(get_variant("standard"))


@pytest.mark.parametrize("name", ["standard", "tournee", "officers"])
@pytest.mark.parametrize("seed", range(6))
def test_every_variant_plays_records_and_reads_back_through_the_registry(name, seed):
    variant = get_variant(name)
    game = _play_out(variant.new_game(seed), seed)
    assert isinstance(game, variant.game_class) and isinstance(game, DealState)
    assert variant_of_game(game) is variant
    record = json.loads(json.dumps(game.to_record()))
    assert variant_of_record(record) is variant
    again = from_record(record)
    assert type(again) is type(game) and again.result == game.result
    assert [str(a) for _, a in again.history] == [str(a) for _, a in game.history]
    for _, action in game.history:  # the wire tokens read back as the same actions
        assert variant.parse_action(str(action)) == action


def test_rule_sets_choose_their_variant():
    assert variant_for_rules(TOURNEE).name == "tournee" and variant_for_rules(PUB).name == "standard"
    assert isinstance(variant_for_rules(TOURNEE).new_game(3, TOURNEE), TourneeGame)
    assert isinstance(variant_for_rules(PUB).new_game(3, PUB), Game)


def test_officers_variant_takes_its_own_options():
    game = get_variant("officers").new_game(5, variant="harlequin", allow_null=True)
    assert isinstance(game, OfficersGame) and game.variant == "harlequin" and game.options.allow_null


def test_a_record_no_variant_reads():
    with pytest.raises(RecordError, match="no variant reads a record of format 'doppelkopf'"):
        variant_of_record({"format": "doppelkopf"})
    with pytest.raises(RecordError, match="JSON object"):
        variant_of_record([1, 2])  # type: ignore[arg-type]


def test_the_standard_game_loader_points_to_the_registry():
    record = _play_out(TourneeGame(4), 4).to_record()
    with pytest.raises(RecordError, match="skat.variants.from_record"):
        Game.from_record(record)


def test_every_variant_offers_what_its_callers_read():
    """A table, the analysis and the server read these of any three-player deal (no getattr guesses)."""
    for variant in variants():
        if variant.seats != 3:
            continue
        game = _play_out(variant.new_game(11), 11)
        assert game.kontra_level in (0, 1, 2) and game.claimed in (True, False)
        assert game.revoke_by is None and game.ramsch_grand_hand in (True, False)
        assert game.is_ramsch in (True, False)
        assert game.result.outcome is None or isinstance(game.result.outcome.score, int)
        if game.declarer is not None and game.contract is not None:
            assert game.outcome_of(90, 7).won in (True, False)


def test_a_tournee_table_and_its_analysis_go_through_the_registry():
    table = Table(3, ruleset=TOURNEE, seed=8, games=3)
    table.play([RandomPlayer(s) for s in range(3)])
    assert all(r.get("variant") == "tournee" for r in table.records)
    analysed = [analyse_game(r, time_limit=5.0) for r in table.records]
    assert len(analysed) == 3


def test_officers_skat_is_not_analysed():
    record = _play_out(OfficersGame("classic", 2), 2).to_record()
    with pytest.raises(AnalysisError, match="three players"):
        analyse_game(record)


def test_a_variant_is_a_plain_record_of_its_parts():
    v = get_variant("standard")
    assert isinstance(v, Variant) and v.title == "Skat" and v.parse_action("18").value == 18
