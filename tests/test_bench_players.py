"""bench/players.py: the figures it keeps of a match and its ablation table."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _bench():
    spec = importlib.util.spec_from_file_location("bench_players", ROOT / "bench" / "players.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_ablation_part_names_a_match():
    bench = _bench()
    assert set(bench.ABLATION_PARTS) <= set(bench.MATCHES)
    assert {n for n in bench.MATCHES if n.startswith("ablation-")} == set(bench.ABLATION_PARTS)


def test_ablation_table_lists_the_parts_played_with_their_ci():
    bench = _bench()
    summary = json.loads((ROOT / "bench" / "data" / "arena" / "strong-medium-2031.json").read_text())
    figures = bench.match_figures(summary)
    assert figures["deals"] == 1000 and figures["illegal"] == 0
    lo, hi = figures["ci95"]
    assert lo < figures["diff"] < hi
    table = bench.ablation_table({"ablation-inference": figures, "strong-medium": figures})
    lines = table.splitlines()
    assert len(lines) == 2  # the header and the one ablation match; strong-medium is no ablation
    assert lines[1].startswith("the auction's likelihood alone")
    assert f"{figures['diff']:+7.2f}" in lines[1] and f"[{lo:+6.2f}, {hi:+6.2f}]" in lines[1]
    assert bench.ablation_table({"strong-medium": figures}) == ""


def test_plots_name_a_factory_without_its_module():
    bench = _bench()
    assert bench.short_name("skat.players.ablation:strong_inference") == "strong_inference"
    assert bench.short_name("mybot.py:MyBot") == "MyBot"
    assert bench.short_name("strong") == "strong"


def test_every_match_makes_a_valid_arena_configuration():
    from skat.players.arena import ArenaConfig

    bench = _bench()
    assert set(bench.RULES) <= set(bench.MATCHES)
    assert len({seed for _players, seed in bench.MATCHES.values()}) == len(bench.MATCHES)  # one seed each
    for name, (players, seed) in bench.MATCHES.items():
        ruleset, options, start = bench.RULES.get(name, ("isko2018", (), "auction"))
        config = ArenaConfig(players, 1, seed, ruleset=ruleset, options=options, start=start)
        assert config.rules().name == ruleset, name
        assert start == "auction" or start in name  # the name says how its deals start


def test_a_record_is_summed_up_as_at_a_table_of_four():
    bench = _bench()
    data = ROOT / "bench" / "data" / "arena"
    three = bench.rescored("strong-medium", data, 3)
    four = bench.rescored("strong-medium", data, 4)
    assert three["diff"] == json.loads((data / "strong-medium-2031.json").read_text())["difference"]["mean"]
    assert four["deals"] == 1000 and four["diff"] != three["diff"]
    # a defender's bonus for a lost game is 30 instead of 40: everyone's points a game shrink a little
    assert all(four["sf_per_game"][p] < three["sf_per_game"][p] for p in three["sf_per_game"])
