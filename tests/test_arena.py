"""The duplicate arena: Seeger-Fabian scoring, the statistics, local processes and Ray."""

from __future__ import annotations

import json
import math
import os
import re

import pytest

from skat.cli import main
from skat.players.arena import SEATINGS, ArenaConfig, play_deal, run_match, seeger_fabian, summarize


def test_seeger_fabian_at_a_three_table() -> None:
    assert seeger_fabian(1, True, (0, 48, 0)) == [0, 98, 0]
    assert seeger_fabian(0, False, (-96, 0, 0)) == [-146, 40, 40]
    assert seeger_fabian(None, None, (0, 0, 0)) == [0, 0, 0]
    assert seeger_fabian(None, None, (0, -62, 0)) == [0, -62, 0]  # a Ramsch: the loser's minus


def test_six_seatings_put_each_player_alone_in_each_seat() -> None:
    solo = sorted((s.index(who), who) for s in SEATINGS for who in (0, 1) if s.count(who) == 1)
    assert solo == [(0, 0), (0, 1), (1, 0), (1, 1), (2, 0), (2, 1)]


def _game(seating, declarer, won, score):
    scores = [0, 0, 0]
    if declarer is not None:
        scores[declarer] = score
    return {"seating": list(seating), "declarer": declarer, "won": won,
            "contract": None if declarer is None else "clubs",
            "scores": scores, "sf": seeger_fabian(declarer, won, scores), "time_s": [0.5, 0.25],
            "decisions": [10, 5], "illegal": [0, 0], "errors": []}


def test_statistics_of_a_match_with_a_known_result() -> None:
    # Deal 0: A wins a 24-game from each solo seat (+74); B, alone, loses it (-98) each time.
    # Deal 1: the same deal is passed in at every table.
    deal0 = [_game(s, s.index(0) if s.count(0) == 1 else s.index(1), s.count(0) == 1,
                   24 if s.count(0) == 1 else -48) for s in SEATINGS]
    deal1 = [_game(s, None, None, 0) for s in SEATINGS]
    config = ArenaConfig(("a", "b"), deals=2)
    out = summarize(config, [{"deal": 1, "games": deal1}, {"deal": 0, "games": deal0}])
    assert out["per_player"]["a"]["sf_per_game"] == pytest.approx(74 / 2)
    assert out["per_player"]["b"]["sf_per_game"] == pytest.approx(-98 / 2)
    assert out["per_deal_difference"] == [74 + 98, 0]
    assert out["difference"]["mean"] == pytest.approx(86)
    sd = math.sqrt(2 * 86**2)
    assert out["difference"]["sd"] == pytest.approx(sd)
    assert out["difference"]["ci95"] == pytest.approx([86 - 1.96 * sd / math.sqrt(2), 86 + 1.96 * sd / math.sqrt(2)])
    assert out["per_player"]["a"]["declarer_win_rate"] == 1.0
    assert out["per_player"]["b"]["declarer_win_rate"] == 0.0
    assert out["per_player"]["a"]["declare_rate"] == pytest.approx(0.5)
    assert out["per_player"]["a"]["avg_decision_ms"] == pytest.approx(50.0)
    assert out["passed_in"] == 6 and out["illegal_actions"] == 0


def test_a_player_against_itself_differs_by_nothing() -> None:
    out = run_match(ArenaConfig(("heuristic", "heuristic"), deals=6, seed=3), workers=1, progress=False)
    lo, hi = out["difference"]["ci95"]
    assert lo <= 0 <= hi
    assert out["per_deal_difference"] == [0.0] * 6  # common random numbers: identical games
    assert out["illegal_actions"] == 0


def test_the_same_deal_is_played_in_all_six_games() -> None:
    deal = play_deal(ArenaConfig(("random", "heuristic"), deals=1, seed=8), 0)
    assert len(deal["games"]) == 6
    assert [tuple(g["seating"]) for g in deal["games"]] == list(SEATINGS)


def test_heuristic_beats_random_in_local_processes() -> None:
    out = run_match(ArenaConfig(("heuristic", "random"), deals=24, seed=1), workers=2, progress=False)
    assert out["difference"]["ci95"][0] > 0
    assert out["illegal_actions"] == 0
    assert out["deals"] == 24 and out["games"] == 144


def test_arena_command_writes_json_and_plot(tmp_path, capsys) -> None:
    path = tmp_path / "match.json"
    rc = main(["arena", "--players", "heuristic,random", "--deals", "4", "--seed", "2", "--workers", "1",
               "--json", str(path), "--quiet"])
    assert rc == 0
    data = json.loads(path.read_text())
    assert data["deals"] == 4 and data["players"] == ["heuristic", "random"]
    assert (tmp_path / "match.png").stat().st_size > 1000
    assert "SF points per game" in capsys.readouterr().out


def test_arena_command_rejects_unknown_players(capsys) -> None:
    rc = main(["arena", "--players", "heuristic,nobody", "--deals", "1", "--quiet"])
    assert rc == 2
    assert "unknown player 'nobody'" in capsys.readouterr().err


def test_arena_on_a_real_local_ray_instance() -> None:
    try:
        import ray
    except ImportError:  # pragma: no cover - depends on the environment
        if os.environ.get("CI"):
            pytest.fail("the Ray arena test must run in CI: install the cluster extra (pip install 'skat[cluster]')")
        pytest.skip("Ray is not installed (pip install 'skat[cluster]')")
    out = run_match(ArenaConfig(("heuristic", "random"), deals=4, seed=5), ray_address="local", progress=False)
    local = run_match(ArenaConfig(("heuristic", "random"), deals=4, seed=5), workers=1, progress=False)
    assert out["execution"] == "ray:local"
    assert out["per_deal_difference"] == local["per_deal_difference"]
    assert not ray.is_initialized()


def test_a_checkpointed_match_resumes_to_the_same_result(tmp_path) -> None:
    config = ArenaConfig(("heuristic", "random"), deals=6, seed=11)
    whole = run_match(config, workers=1, progress=False)
    path = tmp_path / "match.jsonl"
    first = run_match(ArenaConfig(("heuristic", "random"), deals=4, seed=11), workers=1, progress=False,
                      checkpoint=path)
    assert first["resumed_deals"] == 0 and first["deals"] == 4
    with path.open("a") as f:  # a crash in the middle of writing a deal
        f.write('{"deal": 4, "seed": 1, "ga')
    played: list[int] = []
    rest = run_match(config, workers=2, progress=False, checkpoint=path, on_deal=played.append)
    assert rest["resumed_deals"] == 4 and sum(played) == 2
    assert rest["per_deal_difference"] == whole["per_deal_difference"]
    assert rest["difference"] == whole["difference"]
    assert len(path.read_text().splitlines()) == 1 + 6  # header and six whole deals
    again = run_match(config, workers=1, progress=False, checkpoint=path)
    assert again["resumed_deals"] == 6 and again["difference"] == whole["difference"]


def test_a_checkpoint_of_another_match_is_refused(tmp_path) -> None:
    path = tmp_path / "match.jsonl"
    run_match(ArenaConfig(("heuristic", "random"), deals=1, seed=1), workers=1, progress=False, checkpoint=path)
    before = path.read_text()
    with pytest.raises(ValueError, match="seed is 1 there, 2 now"):
        run_match(ArenaConfig(("heuristic", "random"), deals=2, seed=2), workers=1, progress=False,
                  checkpoint=path)
    lines = before.splitlines()
    header = json.loads(lines[0])
    header["players_code"] = "0" * 16
    path.write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n")
    with pytest.raises(ValueError, match="players' code has changed"):
        run_match(ArenaConfig(("heuristic", "random"), deals=2, seed=1), workers=1, progress=False,
                  checkpoint=path)
    with pytest.raises(ValueError, match="Is a directory"):
        run_match(ArenaConfig(("heuristic", "random"), deals=1, seed=1), workers=1, progress=False,
                  checkpoint=tmp_path)
    bad = tmp_path / "bad.jsonl"
    bad.write_text("not json\n")
    with pytest.raises(ValueError, match="not an arena checkpoint"):
        run_match(ArenaConfig(("heuristic", "random"), deals=1, seed=1), workers=1, progress=False,
                  checkpoint=bad)


def test_arena_command_resumes_from_a_checkpoint(tmp_path, capsys) -> None:
    path = tmp_path / "match.jsonl"
    args = ["arena", "--players", "heuristic,random", "--deals", "3", "--seed", "4", "--workers", "1",
            "--checkpoint", str(path), "--quiet"]
    assert main(args) == 0
    first = capsys.readouterr().out
    assert main(args) == 0
    second = capsys.readouterr().out
    line = next(x for x in first.splitlines() if x.startswith("difference"))
    assert line in second
    assert main(["arena", "--players", "random,heuristic", "--deals", "3", "--seed", "4", "--workers", "1",
                 "--checkpoint", str(path), "--quiet"]) == 2
    assert "another match" in capsys.readouterr().err


BOT = '''
from skat.players.base import RandomPlayer


class FirstLegal:
    """A bot of one's own: always the first legal action."""

    def __init__(self, seed):
        self.seed = seed

    def choose(self, view):
        return view.legal_actions[0]


def make(seed):
    return RandomPlayer(seed)
'''


def test_a_bot_of_ones_own_from_a_file_plays_in_worker_processes(tmp_path) -> None:
    bot = tmp_path / "mybot.py"
    bot.write_text(BOT)
    out = run_match(ArenaConfig((f"{bot}:FirstLegal", "random"), deals=4, seed=2), workers=2, progress=False)
    assert out["deals"] == 4 and out["illegal_actions"] == 0
    # the same file through a factory function is the random player itself: no difference at all
    same = run_match(ArenaConfig((f"{bot}:make", "random"), deals=2, seed=2), workers=1, progress=False)
    assert same["difference"]["mean"] == 0.0


def test_a_bot_of_ones_own_by_module_name(tmp_path, monkeypatch) -> None:
    (tmp_path / "club_bot.py").write_text(BOT)
    monkeypatch.chdir(tmp_path)
    out = run_match(ArenaConfig(("club_bot:FirstLegal", "random"), deals=1, seed=3), workers=1, progress=False)
    assert out["illegal_actions"] == 0


def test_a_bot_that_cannot_be_loaded_gets_a_clear_error(tmp_path, capsys) -> None:
    bot = tmp_path / "broken.py"
    bot.write_text("class NoChoose:\n    def __init__(self, seed):\n        pass\n")
    for name, message in ((f"{tmp_path / 'missing.py'}:Bot", "cannot load player"),
                          (f"{bot}:Nothing", "cannot load player"),
                          (f"{bot}:NoChoose", "has no choose"),
                          ("no_such_module_here:Bot", "cannot load player")):
        rc = main(["arena", "--players", f"{name},random", "--deals", "1", "--quiet"])
        assert rc == 2
        assert message in capsys.readouterr().err


def test_a_checkpoint_notices_a_changed_bot_of_ones_own(tmp_path) -> None:
    bot = tmp_path / "mybot.py"
    bot.write_text(BOT)
    path = tmp_path / "match.jsonl"
    config = ArenaConfig((f"{bot}:FirstLegal", "random"), deals=2, seed=2)
    run_match(ArenaConfig(config.players, deals=1, seed=2), workers=1, progress=False, checkpoint=path)
    bot.write_text(BOT + "\nTUNED = True\n")  # a change of code (comments and docstrings do not count)
    with pytest.raises(ValueError, match="players' code has changed"):
        run_match(config, workers=1, progress=False, checkpoint=path)


def test_the_difference_splits_by_role_and_adds_up() -> None:
    out = run_match(ArenaConfig(("heuristic", "random"), deals=8, seed=21), workers=1, progress=False)
    rows = out["by_role"]
    assert sum(r["cases"] for r in rows) == 3 * out["deals"]
    assert math.isclose(sum(r["share"] for r in rows), out["difference"]["mean"], abs_tol=1e-9)
    assert all(r["a"] in ("declares", "defends", "no declarer") for r in rows)
    both_declare = [r for r in rows if r["a"] == r["b"] == "declares"]
    assert all(math.isclose(r["share"], r["cases"] * r["mean_difference"] / 24) for r in both_declare)


def test_the_difference_splits_by_the_kind_of_game_and_adds_up() -> None:
    out = run_match(ArenaConfig(("heuristic", "random"), deals=8, seed=21), workers=1, progress=False)
    rows = out["by_game"]
    assert sum(r["cases"] for r in rows) == 3 * out["deals"]
    assert math.isclose(sum(r["share"] for r in rows), out["difference"]["mean"], abs_tol=1e-9)
    kinds = ("suit", "grand", "null")
    labels = {f"{role} {kind}" for role in ("declares", "defends") for kind in kinds} | {"passed in"}
    assert all(r["a"] in labels and r["b"] in labels for r in rows)
    # the roles' rows are these rows summed over the kinds of game
    declared = sum(r["cases"] for r in rows if r["a"].startswith("declares") and r["b"].startswith("declares"))
    assert declared == sum(r["cases"] for r in out["by_role"] if r["a"] == r["b"] == "declares")


def test_records_without_the_kind_of_game_are_read_by_their_contract() -> None:
    from skat.players.arena import _family_of

    assert _family_of({"contract": "null ouvert hand", "scores": [0, 0, 0]}) == "null"
    assert _family_of({"contract": "grand", "scores": [0, 0, 0]}) == "grand"
    assert _family_of({"contract": "hearts hand", "scores": [0, 0, 0]}) == "suit"
    assert _family_of({"contract": None, "scores": [0, 0, 0]}) == "passed in"
    assert _family_of({"contract": None, "scores": [0, -40, 0]}) == "ramsch"


def test_a_match_of_ramsch_deals_under_changed_rule_options(tmp_path) -> None:
    config = ArenaConfig(("heuristic", "random"), deals=3, seed=5, ruleset="pub", options=("schieberamsch=true",),
                         start="ramsch")
    path = tmp_path / "ramsch.jsonl"
    out = run_match(config, workers=1, progress=False, checkpoint=path)
    assert out["ruleset"] == "pub, schieberamsch=true, every deal a Ramsch"
    assert out["passed_in"] == 0 and out["illegal_actions"] == 0
    # pub lets a player announce Grand Hand instead of the Ramsch; every other deal is a Ramsch
    kinds = {r["a"] for r in out["by_game"]} | {r["b"] for r in out["by_game"]}
    assert "ramsch" in kinds and kinds <= {"ramsch", "declares grand", "defends grand"}
    header = json.loads(path.read_text().splitlines()[0])
    assert header["options"] == ["schieberamsch=true"] and header["start"] == "ramsch"
    games = [g for line in path.read_text().splitlines()[1:] for g in json.loads(line)["games"]]
    ramsch = [g for g in games if g["kind"] == "ramsch"]
    assert ramsch and all(g["declarer"] is None and sum(g["scores"]) < 0 for g in ramsch)  # a Ramsch has a loser
    with pytest.raises(ValueError, match="start is 'ramsch' there, None now"):
        run_match(ArenaConfig(("heuristic", "random"), deals=3, seed=5, ruleset="pub",
                              options=("schieberamsch=true",)), workers=1, progress=False, checkpoint=path)


def test_bad_rule_options_of_a_match_are_refused(capsys) -> None:
    with pytest.raises(ValueError, match="plays no Ramsch"):
        ArenaConfig(("heuristic", "random"), deals=1, start="ramsch")
    with pytest.raises(ValueError, match="unknown rule option"):
        ArenaConfig(("heuristic", "random"), deals=1, options=("ramsh_scoring=fixed",))
    with pytest.raises(ValueError, match="start as one of auction, ramsch, null, not 'bock'"):
        ArenaConfig(("heuristic", "random"), deals=1, start="bock")
    assert main(["arena", "--players", "heuristic,random", "--deals", "1", "--set", "schieberamsch=maybe",
                 "--quiet"]) == 2
    assert "schieberamsch" in capsys.readouterr().err


def test_a_match_of_null_hand_deals(capsys) -> None:
    from skat.players.arena import NULL_RISK, null_deal_seed, null_hand_game
    from skat.players.heuristic import null_risk
    from skat.rules.rulesets import ISKO

    seed = null_deal_seed(5, 3)
    assert seed == null_deal_seed(5, 3) != null_deal_seed(5, 4)
    game = null_hand_game(seed, ISKO)
    view = game.view(0)
    assert view.contract is not None and view.contract.is_null and view.contract.hand and not view.contract.ouvert
    risks = [null_risk(game.view(seat).hand.mask) for seat in range(3)]
    assert view.declarer == risks.index(min(risks)) and min(risks) <= NULL_RISK
    assert main(["arena", "--players", "heuristic,random", "--deals", "4", "--seed", "2", "--start", "null",
                 "--workers", "1", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "every deal a Null Hand" in out
    assert re.search(r"declares null +declares null +4 ", out) and "passed in: 0 games" in out


def test_a_match_scored_at_a_table_of_four_gives_defenders_30(tmp_path) -> None:
    assert seeger_fabian(0, False, (-96, 0, 0), table=4) == [-146, 30, 30]
    assert seeger_fabian(1, True, (0, 48, 0), table=4) == [0, 98, 0]
    path = tmp_path / "m.jsonl"
    three = run_match(ArenaConfig(("heuristic", "random"), deals=4, seed=8), workers=1, progress=False,
                      checkpoint=path)
    four = run_match(ArenaConfig(("heuristic", "random"), deals=4, seed=8, table=4), workers=1, progress=False,
                     checkpoint=path)
    assert four["resumed_deals"] == 4 and four["ruleset"] == "isko2018, scored at a table of 4"
    games = [g for line in path.read_text().splitlines()[1:] for g in json.loads(line)["games"]]
    lost_by_the_other = sum(1 for g in games if g["declarer"] is not None and not g["won"]
                            and g["seating"].count(g["seating"][g["declarer"]]) == 2)
    # each lost game of a copy of the other player gives the player alone 10 points less
    assert lost_by_the_other > 0
    a_three, a_four = three["per_player"]["heuristic"]["sf_per_game"], four["per_player"]["heuristic"]["sf_per_game"]
    assert a_three - a_four > 0
    with pytest.raises(ValueError, match="3, 4 or 5 players"):
        ArenaConfig(("heuristic", "random"), deals=1, table=6)


def test_declare_hand_plays_the_auction_to_the_hand_game_asked_for() -> None:
    from skat.deal.game import Game
    from skat.players.arena import declare_hand
    from skat.rules.rulesets import ISKO

    game = declare_hand(Game(11, ruleset=ISKO), 2, "declare grand hand")
    view = game.view(2)
    assert view.declarer == 2 and view.bid == 18 and view.contract is not None and view.contract.hand
    assert str(view.contract.game_type.label) == "grand"
    with pytest.raises(ValueError, match="'declare nothing' is not a legal action of seat"):
        declare_hand(Game(11, ruleset=ISKO), 1, "declare nothing")


class _Crashing:
    """A bot that raises on every decision."""

    def choose(self, view):
        raise RuntimeError("out of ideas")


class _Passing:
    """A bot that always answers "pass", legal only in the auction."""

    def choose(self, view):
        from skat.rules.actions import Pass

        return Pass()


def test_a_crashing_or_illegal_bot_loses_the_move_not_the_game() -> None:
    from skat.players.arena import checked_choice, new_game, play_game
    from skat.players.registry import make_player
    from skat.rules.rulesets import get_ruleset

    game = new_game(7, get_ruleset("isko"))
    view = game.view(game.to_move)
    action, spent, error = checked_choice(_Crashing(), view)
    assert action == view.legal_actions[0] and spent >= 0 and error == "RuntimeError: out of ideas"
    action, _, error = checked_choice(make_player("heuristic", 1), view)
    assert action in view.legal_actions and error is None
    outcome = play_game(game, [_Crashing(), make_player("heuristic", 2), make_player("heuristic", 3)], (0, 1, 1))
    assert game.is_over and outcome.decisions[0] > 0 and outcome.illegal == [outcome.decisions[0], 0]
    assert outcome.errors[0] == "RuntimeError: out of ideas" and outcome.won is not None
    game = new_game(7, get_ruleset("isko"))
    outcome = play_game(game, [make_player("heuristic", 2), _Passing(), make_player("heuristic", 3)], (0, 1, 0))
    assert game.is_over and 0 < outcome.illegal[1] < outcome.decisions[1]  # its card plays, not its passes
    assert outcome.illegal[0] == 0
    assert outcome.errors[0].startswith("illegal action pass by seat 1 in phase ")
