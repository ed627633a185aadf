"""Role screens (skat.players.screen, tools/role_screen.py): one role's card play on the same contracts."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from skat.players.arena import Checkpoint
from skat.players.screen import ScreenConfig, format_screen, screen_deal, summarize_screen

ROOT = Path(__file__).resolve().parents[1]


def test_a_player_screened_against_itself_plays_the_same_games():
    config = ScreenConfig(("heuristic", "heuristic"), "declarer", 4, seed=5)
    records = [screen_deal(config, d) for d in range(4)]
    played = [r for r in records if r.get("games")]
    assert played, "heuristic bids some of four deals"
    for r in played:
        first, second = r["games"]
        assert first["scores"] == second["scores"] and first["won"] == second["won"]
    summary = summarize_screen(config, records)
    assert summary["difference"]["mean"] == 0.0 and summary["changed"] == 0
    assert summary["cases"] == len(played)


@pytest.mark.parametrize("role, cards", [("declarer", 10), ("defenders", 20)])
def test_the_candidate_sits_in_the_role_screened_only(role, cards):
    config = ScreenConfig(("random", "heuristic"), role, 3, seed=11)
    records = [screen_deal(config, d) for d in range(3)]
    played = [r for r in records if r.get("games")]
    assert played
    for r in played:
        candidate_game, reference_game = r["games"]
        assert candidate_game["decisions"] == [cards, 30 - cards]  # the role's cards, the others' cards
        assert reference_game["decisions"] == [0, 30]


def test_a_screen_signs_the_difference_for_the_candidate_and_skips_deals_without_play():
    def record(deal, declarer, sf_candidate, sf_reference, kind="suit"):
        game = {"time_s": [0.5, 0.1], "decisions": [10, 20], "illegal": [0, 0], "errors": []}
        return {"deal": deal, "declarer": declarer, "kind": kind,
                "games": [{**game, "won": sf_candidate[declarer] > 0, "sf": sf_candidate},
                          {**game, "won": sf_reference[declarer] > 0, "sf": sf_reference}]}

    deals = [record(0, 1, [0, 110, 0], [40, -170, 40]), record(1, 0, [0, 0, 0], [0, 0, 0], "grand"),
             {"deal": 2, "declarer": None, "kind": "passed in"}]
    declarer = summarize_screen(ScreenConfig(("a", "b"), "declarer", 3), deals)
    assert declarer["cases"] == 2 and declarer["deals"] == 3 and declarer["changed"] == 1
    assert declarer["difference"]["mean"] == pytest.approx(140.0)  # (280 + 0) / 2
    assert declarer["by_kind"]["suit"]["mean"] == pytest.approx(280.0)
    assert declarer["declarer_wins"] == [1, 0]
    assert declarer["candidate_ms_a_decision"] == pytest.approx(50.0)
    defenders = summarize_screen(ScreenConfig(("a", "b"), "defenders", 3), deals)
    assert defenders["difference"]["mean"] == pytest.approx(-140.0)  # the declarer won against the candidates
    assert "-140.00" in format_screen(defenders) and "grand: +0.00" in format_screen(defenders)


def test_a_discard_screen_plays_only_the_deals_whose_discard_differs():
    same = ScreenConfig(("heuristic", "heuristic"), "discard", 6, seed=3)
    records = [screen_deal(same, d) for d in range(6)]
    pickups = [r for r in records if r.get("same")]
    assert pickups, "heuristic picks up the skat in some of six deals"
    assert not any(r.get("games") for r in records)  # the same discard everywhere: nothing to play
    assert {r["kind"] for r in records if "discard_s" not in r} <= {"hand game", "passed in", "ramsch"}
    summary = summarize_screen(same, records)
    assert summary["cases"] == len(pickups) and summary["played"] == 0 and summary["difference"]["mean"] == 0.0

    other = ScreenConfig(("random", "heuristic"), "discard", 6, seed=3)
    records = [screen_deal(other, d) for d in range(6)]
    played = [r for r in records if r.get("games")]
    assert played, "a random discard differs from the heuristic's"
    for r in played:
        candidate_game, reference_game = r["games"]
        assert candidate_game["decisions"][0] == 0 and reference_game["decisions"][0] == 0  # no card of its own
        assert 0 < candidate_game["decisions"][1] <= 30
        assert r["discard_s"] >= 0 and "candidate_contract" in r
    summary = summarize_screen(other, records)
    assert summary["played"] == len(played) and summary["cases"] == len([r for r in records if "discard_s" in r])
    assert summary["illegal_actions"] == [0, 0]


def test_a_discard_screen_counts_the_same_discard_as_a_case_of_0():
    game = {"time_s": [0.0, 0.5], "decisions": [0, 30], "illegal": [0, 0], "errors": []}
    deals = [{"deal": 0, "declarer": 1, "kind": "suit", "discard_s": 0.2, "same": True},
             {"deal": 1, "declarer": 2, "kind": "grand", "discard_s": 0.4,
              "games": [{**game, "won": True, "sf": [-40, -40, 122]}, {**game, "won": False, "sf": [40, 40, -194]}]},
             {"deal": 2, "declarer": 0, "kind": "hand game"}]
    summary = summarize_screen(ScreenConfig(("a", "b"), "discard", 3), deals)
    assert summary["cases"] == 2 and summary["played"] == 1 and summary["changed"] == 1
    assert summary["difference"]["mean"] == pytest.approx(158.0)  # (0 + 316) / 2: the declarer's points signed +
    assert summary["candidate_ms_a_decision"] == pytest.approx(300.0)  # the discard's time, not the card play's
    assert summary["by_kind"]["suit"]["mean"] == 0.0


def test_a_screen_says_what_is_wrong_with_its_settings(tmp_path):
    with pytest.raises(ValueError, match="roles declarer, defenders, discard, not 'kibitzer'"):
        ScreenConfig(("strong", "strong"), "kibitzer", 10)
    with pytest.raises(ValueError, match="at least one deal"):
        ScreenConfig(("strong", "strong"), "declarer", 0)
    with pytest.raises(ValueError, match="two players"):
        ScreenConfig(("strong",), "declarer", 10)  # type: ignore[arg-type]
    path = tmp_path / "screen.jsonl"
    Checkpoint(path, ScreenConfig(("heuristic", "heuristic"), "declarer", 2))
    with pytest.raises(ValueError, match="role"):
        Checkpoint(path, ScreenConfig(("heuristic", "heuristic"), "defenders", 2))


def test_the_screen_tool_resumes_and_reports(tmp_path):
    out, summary = tmp_path / "s.jsonl", tmp_path / "s.json"
    command = [sys.executable, str(ROOT / "tools/role_screen.py"), "--candidate", "random", "--reference", "heuristic",
               "--role", "defenders", "--deals", "3", "--seed", "7", "--workers", "1", "--out", str(out),
               "--json", str(summary)]
    first = subprocess.run(command, capture_output=True, text=True, timeout=300, check=True)
    assert "random against heuristic as the defenders" in first.stdout
    again = subprocess.run(command, capture_output=True, text=True, timeout=300, check=True)
    assert "3 deals in" in again.stdout and "0 to play" in again.stdout
    assert json.loads(summary.read_text())["deals"] == 3
    bad = subprocess.run([*command[:3], "nobody-at-all", *command[4:]], capture_output=True, text=True, timeout=300)
    assert bad.returncode == 2 and "nobody-at-all" in bad.stderr
