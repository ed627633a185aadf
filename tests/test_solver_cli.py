"""`skat solve` and the position checks: JSON in, JSON out, clear errors for impossible positions."""

from __future__ import annotations

import io
import json
import random

import pytest

from skat.cli import main
from skat.deal.game import Game, Phase
from skat.solver import Position, PositionError, solve
from skat.solver import reference as ref

# Clubs, declarer forehand, 3 tricks left, middlehand has led the current trick with the HA.
ENDGAME = {
    "game": "clubs",
    "declarer": 0,
    "hands": [["CJ", "SA", "D7"], ["HK", "H7"], ["ST", "S7", "H9"]],
    "trick": ["HA"],
    "leader": 1,
    "declarer_points": 50,
    "defender_points": 32,
    "declarer_tricks": 4,
    "defender_tricks": 3,
}


def run_solve(capsys, monkeypatch, data, *args: str) -> tuple[int, str, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO(data if isinstance(data, str) else json.dumps(data)))
    code = main(["solve", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_solve_prints_points_and_a_value_per_legal_card(capsys, monkeypatch) -> None:
    code, out, _ = run_solve(capsys, monkeypatch, ENDGAME)
    assert code == 0
    result = json.loads(out)
    pos = Position.from_json(ENDGAME)
    expected = ref.brute_force_move_points(pos)
    assert result["to_move"] == 2
    assert {m["card"]: m["declarer_points"] for m in result["moves"]} == {
        c.name: expected[int(c)] for c in pos.legal_cards()}
    assert result["declarer_points"] == ref.brute_force_points(pos)


def test_solve_target_answers_only_won_or_lost(capsys, monkeypatch) -> None:
    pos = Position.from_json(ENDGAME)
    points = ref.brute_force_points(pos)
    for target, wins in ((points, True), (points + 1, False)):
        code, out, _ = run_solve(capsys, monkeypatch, ENDGAME, "--target", str(target))
        result = json.loads(out)
        assert code == 0 and result["declarer_wins"] is wins and "declarer_points" not in result
        assert all(set(m) == {"card", "declarer_wins"} for m in result["moves"])


def test_solve_null_answers_declarer_wins(capsys, monkeypatch) -> None:
    data = {"game": "null", "declarer": 1, "hands": [["C8", "HA"], ["C7", "H7"], ["CA", "H8"]],
            "trick": [], "leader": 0, "declarer_points": 0, "defender_points": 0,
            "declarer_tricks": 0, "defender_tricks": 8}
    code, out, _ = run_solve(capsys, monkeypatch, data)
    result = json.loads(out)
    assert code == 0 and result["to_move"] == 0
    assert result["declarer_wins"] is ref.brute_force_null(Position.from_json(data)) is True
    assert {m["card"] for m in result["moves"]} == {"C8", "HA"}


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"hands": [["CJ", "SA", "D7"], ["HK", "CJ"], ["ST", "S7", "H9"]]}, "CJ is in more than one hand"),
        ({"hands": [["CJ", "SA", "D7"], ["HK", "H7"], ["ST", "S7", "H9", "S8"]]}, "hand sizes"),
        ({"hands": [["CJ", "SA", "XX"], ["HK", "H7"], ["ST", "S7", "H9"]]}, "unknown card 'XX'"),
        ({"hands": [["CJ", "SA", "D7"], ["HK", "H7"], ["ST", "ST", "H9"]]}, "listed twice"),
        ({"leader": 0}, "hand sizes"),
        ({"trick": ["HA", "CA", "CK"]}, "complete"),
        ({"trick": ["CJ"]}, "both in the trick and in a hand"),
        ({"game": "skat"}, "game must be one of"),
        ({"declarer": 3}, "declarer must be a seat"),
        ({"declarer_points": 40}, "card points do not add up"),
        ({"defender_tricks": 2}, "tricks do not add up"),
        ({"kontra": True}, "unknown field"),
    ],
)
def test_bad_positions_get_a_clear_error_and_exit_code_2(capsys, monkeypatch, change, message) -> None:
    code, out, err = run_solve(capsys, monkeypatch, {**ENDGAME, **change})
    assert code == 2 and out == ""
    assert message in err


def test_not_following_suit_is_an_inconsistent_trick() -> None:
    # middlehand led HA and rearhand threw D8 although it still holds H9: a revoke, not a position
    bad = {**ENDGAME, "hands": [["CJ", "SA", "D7"], ["HK", "H7"], ["ST", "H9"]], "trick": ["HA", "D8"]}
    with pytest.raises(PositionError, match="had to follow suit"):
        Position.from_json(bad)


def test_invalid_json_exits_with_2(capsys, monkeypatch) -> None:
    code, _, err = run_solve(capsys, monkeypatch, "{not json")
    assert code == 2 and "not valid JSON" in err


def test_position_from_a_game_in_play() -> None:
    rng = random.Random(3)
    seed = 0
    game = Game(seed=seed)
    while True:
        while game.phase not in (Phase.PLAY, Phase.FINISHED):
            game.apply(rng.choice(game.legal_actions()))
        contract = game.contract
        if game.phase is Phase.PLAY and contract is not None and not (contract.is_null or contract.schwarz):
            break
        seed += 1
        game = Game(seed=seed)
    for _ in range(7):  # into the third trick, mid-trick
        game.apply(rng.choice(game.legal_actions()))
    pos = Position.from_game(game)
    assert pos.to_move == game.to_move and len(pos.trick) == 1
    assert Position.from_json(pos.to_json()) == pos
    assert solve(pos).declarer_points == ref.reference_points(pos)


def test_node_limit_gives_up_with_exit_code_3(capsys, monkeypatch) -> None:
    from skat.cards import Card, iter_mask, mask_points
    from skat.deal.game import deal

    hands, skat = deal(11)
    full = {"game": "grand", "declarer": 0, "hands": [[Card(c).name for c in iter_mask(h)] for h in hands],
            "trick": [], "leader": 0, "declarer_points": mask_points(skat), "defender_points": 0, "declarer_tricks": 0,
            "defender_tricks": 0}
    code, out, err = run_solve(capsys, monkeypatch, full, "--node-limit", "20")
    assert code == 3 and out == "" and "node_limit=20" in err
    code, out, err = run_solve(capsys, monkeypatch, full, "--node-limit", "0")
    assert code == 2 and "node_limit must be a positive" in err
    code, out, _ = run_solve(capsys, monkeypatch, ENDGAME, "--node-limit", "100000", "--time-limit", "30")
    assert code == 0 and json.loads(out) == solve(Position.from_json(ENDGAME)).to_json()
