"""bench/players.py: the figures it keeps of a match and its ablation table."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

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


def test_a_frozen_match_plays_at_its_commit_and_resumes_from_this_checkout(tmp_path):
    """bench/frozen_match.sh: a worktree at the commit plays the match; the checkpoint comes back here and a second
    run takes the finished deals from it."""
    import shutil
    import subprocess
    import sys

    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "-q", "--shared", str(ROOT), str(clone)], check=True, timeout=120)
    for so in (ROOT / "src").rglob("*.so"):  # the compiled modules of this checkout (the kernels are the same)
        shutil.copy(so, clone / so.relative_to(ROOT))
    env = {"PATH": "/usr/bin:/bin", "SKAT_VENV": sys.prefix, "SKAT_MATCH_TREE": str(tmp_path / "tree"),
           "HOME": str(tmp_path)}

    def play(deals: int) -> str:
        done = subprocess.run(["bash", "bench/frozen_match.sh", "HEAD", "heuristic-random", str(deals),
                               "bench/data/arena/frozen", "1"], cwd=clone, env=env, capture_output=True, text=True,
                              timeout=300)
        assert done.returncode == 0, done.stderr
        return done.stdout

    play(2)
    record = clone / "bench" / "data" / "arena" / "frozen" / "heuristic-random-2034.jsonl"
    assert len(record.read_text().splitlines()) == 3  # the header and two deals, back in the checkout
    assert (record.parent / "heuristic-random-2034.json").exists()
    shutil.rmtree(tmp_path / "tree" / "bench" / "data" / "arena" / "frozen")  # only this checkout has the deals now
    assert "(2 deals taken from the checkpoint)" in play(3)
    assert len(record.read_text().splitlines()) == 4
    bad = subprocess.run(["bash", "bench/frozen_match.sh", "HEAD"], cwd=clone, env=env, capture_output=True,
                         text=True, timeout=60)
    assert bad.returncode == 2 and "COMMIT MATCH DEALS DIR" in bad.stderr


def test_show_prints_a_record_as_it_stands():
    import subprocess
    import sys

    done = subprocess.run([sys.executable, str(ROOT / "bench" / "players.py"), "--matches", "strong-medium",
                           "--data", str(ROOT / "bench" / "data" / "arena"), "--show"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    summary = json.loads((ROOT / "bench" / "data" / "arena" / "strong-medium-2031.json").read_text())
    assert "1000 duplicate deals" in done.stdout
    assert f"{summary['difference']['mean']:+.2f} SF points per game" in done.stdout
    assert "where the difference comes from" in done.stdout


def test_every_committed_record_is_read_as_its_match_whatever_its_players_were_called(monkeypatch):
    """A level renamed since (``strong`` of 6 December 2026 is an ablation's factory now) still reads as the match:
    the record's difference is the one its summary kept when it was played."""
    bench = _bench()
    records = 0
    for name, (_, seed) in bench.MATCHES.items():
        for record in sorted((ROOT / "bench" / "data" / "arena").glob(f"*/{name}-{seed}.jsonl")):
            summary = bench.recorded(name, record.parent)
            records += 1
            kept = record.with_suffix(".json")
            if kept.is_file():
                figures = json.loads(kept.read_text())
                if figures["deals"] == summary["deals"]:
                    assert abs(figures["difference"]["mean"] - summary["difference"]["mean"]) < 1e-9, record
    assert records >= 30
    monkeypatch.setitem(bench.RECORDED_AS, "playouts-wide", ("strong", "medium"))
    with pytest.raises(SystemExit, match="is of players"):
        bench.recorded("playouts-wide", ROOT / "bench" / "data" / "arena" / "2026-12-06d")


def test_every_committed_screen_is_read_as_its_screen_and_a_screen_plays_and_resumes(tmp_path, monkeypatch):
    """The role screens' records read as the screens ``SCREENS`` names (the reference ``strong`` of the morning
    of 7 December 2026 is an ablation's factory now), with the difference their summaries kept; a screen plays,
    resumes from its checkpoint and refuses another screen's record."""
    bench = _bench()
    records = 0
    for name, (_, role, seed) in bench.SCREENS.items():
        record = bench.SCREEN_DATA / f"{name}-{seed}.jsonl"
        if not record.is_file():
            continue
        summary = bench.screened(name)
        records += 1
        assert summary["role"] == role
        kept = record.with_suffix(".json")
        if kept.is_file() and json.loads(kept.read_text())["deals"] == summary["deals"]:  # (not one being played)
            figures = json.loads(kept.read_text())
            assert figures["cases"] == summary["cases"], record
            assert abs(figures["difference"]["mean"] - summary["difference"]["mean"]) < 1e-9, record
    assert records >= 3
    table = bench.screen_table({"declarer-worlds-declarer": bench.screened("declarer-worlds-declarer")})
    assert "declarer-worlds-declarer declarer    +6.25  [ +2.17, +10.33]   987" in table
    # a quick screen of fast players, played in two steps: the second resumes the first's deals
    monkeypatch.setitem(bench.SCREENS, "quick", (("random", "heuristic"), "declarer", 7))
    first = bench.play_screen("quick", 2, tmp_path, workers=1)
    second = bench.play_screen("quick", 4, tmp_path, workers=1)
    assert first["deals"] == 2 and second["deals"] == 4
    assert len((tmp_path / "quick-7.jsonl").read_text().splitlines()) == 5  # the header and four deals
    assert json.loads((tmp_path / "quick-7.json").read_text())["deals"] == 4
    assert bench.screened("quick", tmp_path)["cases"] == second["cases"]
    monkeypatch.setitem(bench.SCREENS, "quick", (("random", "heuristic"), "defenders", 7))
    with pytest.raises(SystemExit, match="role declarer"):
        bench.screened("quick", tmp_path)


def test_show_prints_the_committed_screens_without_a_match_directory():
    import subprocess
    import sys

    done = subprocess.run([sys.executable, str(ROOT / "bench" / "players.py"), "--timing-deals",  # no match with a screen
                           "0", "--show", "--screens", "declarer-worlds-declarer"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "+6.25 [+2.17, +10.33] SF points a case over 987 cases of 1000 deals" in done.stdout
    assert "declarer-worlds-declarer declarer    +6.25" in done.stdout
    unknown = subprocess.run([sys.executable, str(ROOT / "bench" / "players.py"), "--matches", "none", "--screens",
                              "nonesuch"], capture_output=True, text=True, timeout=120)
    assert unknown.returncode == 2 and "unknown screen 'nonesuch'" in unknown.stderr
