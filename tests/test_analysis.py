"""Double-dummy analysis of played games (skat.analysis, `skat analyze`).

Endgames of real ISS games and random null endgames are checked row by row against brute-force
minimax (skat.solver.reference); whole games are checked against play chosen with the solver's
other entry point (solve_points on each child position), with and without a known losing card.
"""

from __future__ import annotations

import json
import random

import pytest

from conftest import ISS_SAMPLE
from skat.analysis import (
    AnalysisError,
    GameAnalysis,
    Goal,
    analyse_card_play,
    analyse_game,
    contract_goal,
    start_position,
)
from skat.cards import Card, iter_mask, mask_of, mask_points
from skat.cli import main
from skat.deal.game import Game, deal
from skat.errors import RecordError
from skat.records.iss import read_iss_file, replay
from skat.rules.actions import Bid, Play
from skat.rules.contract import Contract
from skat.rules.ranking import GameType, winner_index
from skat.rules.rulesets import ISKO, PUB
from skat.solver import Position, solve_points
from skat.solver import reference as ref

SAMPLE = ISS_SAMPLE
RECORDS = {r.id: r for r in read_iss_file(SAMPLE)}


def _played_cards(game: Game) -> list[Card]:
    return [a.card for _, a in game.history if isinstance(a, Play)]


def _endgame(record_id: str, tricks_left: int) -> tuple[Position, list[Card], Goal]:
    """The position of a real, played-out game with ``tricks_left`` tricks to go, and the cards played from there."""
    game, _ = replay(RECORDS[record_id])
    pos = start_position(game)
    cards = _played_cards(game)
    assert len(cards) == 30
    k = 30 - 3 * tricks_left
    for c in cards[:k]:
        pos = pos.play(c)
    assert game.contract is not None and game.declarer is not None
    goal = contract_goal(game.contract, game.initial_hands[game.declarer] | game.initial_skat, game.bid, game.ruleset)
    return pos, cards[k:], goal


def _best_by_key(legal, key, declarer_moves: bool) -> tuple[Card, ...]:
    top = max(key[c] for c in legal) if declarer_moves else min(key[c] for c in legal)
    return tuple(c for c in legal if key[c] == top)


# ------------------------------------------------------------------------------ against brute force
@pytest.mark.parametrize(("record_id", "tricks_left"), [("135521", 4), ("9", 4), ("684159", 3), ("541932", 3)])
def test_endgame_rows_equal_brute_force(record_id: str, tricks_left: int) -> None:
    pos, cards, goal = _endgame(record_id, tricks_left)
    rows = analyse_card_play(pos, cards, goal)
    assert [r.card for r in rows] == cards
    assert [r.number for r in rows] == list(range(31 - 3 * tricks_left, 31))
    for row in rows:
        assert row.analysed and not row.note
        bf = ref.brute_force_move_points(row.position)
        legal = [Card(c) for c in bf]
        assert sorted(row.legal) == sorted(legal)
        if not row.forced:  # a forced card takes the value of the card before it
            assert {m.card: m.points for m in row.moves} == bf
            assert {m.card: m.wins for m in row.moves} == {c: bf[c] >= goal.points for c in bf}
        by_declarer = row.position.to_move == row.position.declarer
        assert row.declarer == by_declarer
        before = max(bf.values()) if by_declarer else min(bf.values())
        assert row.points_before == before
        assert row.points_after == bf[row.card]
        assert row.cost == (before - bf[row.card] if by_declarer else bf[row.card] - before)
        assert row.cost >= 0
        assert row.turning_point == ((before >= goal.points) != (bf[row.card] >= goal.points))
        key = {Card(c): (bf[c] >= goal.points, bf[c]) for c in bf}
        assert row.best == _best_by_key(row.legal, key, by_declarer)
    # the values chain: the card played is the value of the next position
    for a, b in zip(rows, rows[1:]):
        assert a.points_after == b.points_before and a.wins_after == b.wins_before


def _random_null_endgame(seed: int, tricks_left: int) -> tuple[Position, list[Card]]:
    """A null position after random play that the declarer survived, and a random continuation."""
    rng = random.Random(seed)
    while True:
        hands, _skat = deal(rng.randrange(1 << 30))
        pos = Position(GameType.NULL, rng.randrange(3), (hands[0], hands[1], hands[2]), (), 0)
        try:
            while sum(h.bit_count() for h in pos.hands) + len(pos.trick) > 3 * tricks_left:
                pos = pos.play(rng.choice(list(iter_mask(pos.legal_cards().mask))))
        except ValueError:  # the declarer took a trick on the way: deal again
            continue
        break
    cards: list[Card] = []
    cur = pos
    while True:
        card = Card(rng.choice(list(iter_mask(cur.legal_cards().mask))))
        cards.append(card)
        if len(cur.trick) == 2 and (cur.tricks_left == 1 or (cur.leader + winner_index(
                GameType.NULL, (*cur.trick, card))) % 3 == cur.declarer):
            return pos, cards
        cur = cur.play(card)


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_null_endgame_rows_equal_brute_force(seed: int) -> None:
    pos, cards = _random_null_endgame(seed, 4)
    rows = analyse_card_play(pos, cards)
    assert [r.card for r in rows] == cards
    for row in rows:
        bf = ref.brute_force_null_moves(row.position)
        by_declarer = row.position.to_move == row.position.declarer
        if not row.forced:
            assert {m.card: m.wins for m in row.moves} == {Card(c): w for c, w in bf.items()}
        assert all(m.points is None for m in row.moves) and row.cost is None
        assert row.wins_before == ref.brute_force_null(row.position)
        assert row.wins_after == bf[row.card]
        assert row.turning_point == (row.wins_before != row.wins_after)
        assert row.best == _best_by_key(row.legal, {Card(c): w for c, w in bf.items()}, by_declarer)


@pytest.mark.parametrize("record_id", ["1707755", "2996964"])
def test_all_tricks_goal_equals_brute_force(record_id: str) -> None:
    pos, cards, _goal = _endgame(record_id, 4)
    goal = Goal("all_tricks", reason="Schwarz announced")
    rows = analyse_card_play(pos, cards, goal)
    for row in rows:
        assert row.wins_before == ref.brute_force_all_tricks(row.position)
        if row is not rows[-1]:
            after = row.position.play(row.card)
            assert row.wins_after == ref.brute_force_all_tricks(after)
        assert row.points_before == ref.brute_force_points(row.position)


# ------------------------------------------------------------------------------------- the goal
def _twelve(text: str) -> int:
    mask = mask_of(text)
    assert mask.bit_count() == 12
    return mask


def test_contract_goal_follows_the_scoring_rules() -> None:
    with_one = _twelve("CJ HJ CA CT CK CQ C9 C8 C7 SA ST HA")  # clubs with 1: game 2 x 12 = 24
    clubs = Contract(GameType.CLUBS)
    assert contract_goal(clubs, with_one, 18, ISKO) == Goal("points", 61)
    assert contract_goal(clubs, with_one, 24, ISKO).points == 61
    needs_schneider = contract_goal(clubs, with_one, 36, ISKO)  # 3 x 12: only with Schneider
    assert (needs_schneider.kind, needs_schneider.points) == ("points", 90)
    assert "only reached with Schneider" in needs_schneider.reason
    needs_schwarz = contract_goal(clubs, with_one, 48, ISKO)
    assert needs_schwarz.kind == "all_tricks" and "Schwarz" in needs_schwarz.reason
    assert contract_goal(clubs, with_one, 60, ISKO).kind == "none"
    announced = contract_goal(Contract(GameType.CLUBS, hand=True, schneider=True), with_one, 18, ISKO)
    assert announced == Goal("points", 90, "Schneider announced")
    assert contract_goal(Contract(GameType.CLUBS, hand=True, schneider=True), with_one, 18,
                         ISKO.replace(schneider_points=91)).points == 91
    assert contract_goal(Contract(GameType.GRAND, ouvert=True), with_one, 18, ISKO).kind == "all_tricks"
    assert contract_goal(Contract(GameType.NULL), with_one, 23, ISKO) == Goal("no_trick")
    assert contract_goal(Contract(GameType.NULL), with_one, 24, ISKO).kind == "none"


# --------------------------------------------------------------------------------- whole games
def _before_card_play(record_id: str) -> Game:
    """A real deal at its first card (auction, skat and declaration as played)."""
    game, _ = replay(RECORDS[record_id])
    record = game.to_record()
    first = next(i for i, (_, a) in enumerate(game.history) if isinstance(a, Play))
    record["actions"] = record["actions"][:first]
    record["result"] = None
    return Game.from_record(record)


def _child_values(pos: Position) -> dict[Card, int]:
    """Final declarer card points after each legal card, by solve_points on the position after it."""
    out = {}
    for c in iter_mask(pos.legal_cards().mask):
        if len(pos.trick) == 2 and pos.tricks_left == 1:
            trick = (*pos.trick, c)
            won = (pos.leader + winner_index(pos.game_type, trick)) % 3 == pos.declarer
            out[Card(c)] = pos.declarer_points + (mask_points(sum(1 << x for x in trick)) if won else 0)
        else:
            child = pos.play(c)
            out[Card(c)] = solve_points(int(child.game_type), child.hands, child.trick, child.leader,
                                        child.declarer, child.declarer_points)
    return out


def _play_out(game: Game, goal: Goal, mistake: bool) -> tuple[int, Card, int] | None:
    """Play to the end with best cards; with ``mistake`` the declarer once plays a card that loses the
    contract.  Returns (card number, card, its cost) of the mistake."""
    made = None
    number = 0
    while not game.is_over:
        number += 1
        pos = Position.from_game(game)
        values = _child_values(pos)
        by_declarer = pos.to_move == pos.declarer
        best = max(values.values()) if by_declarer else min(values.values())
        card = min(c for c, v in values.items() if v == best)
        if mistake and made is None and by_declarer and best >= goal.points:
            losing = [c for c, v in values.items() if v < goal.points]
            if losing:
                card = losing[0]
                made = (number, card, best - values[card])
        game.apply(Play(card), pos.to_move)
    return made


def test_a_perfectly_played_game_has_no_errors() -> None:
    game = _before_card_play("684159")  # grand, double dummy 68 card points for the declarer
    goal = Goal("points", 61)
    _play_out(game, goal, mistake=False)
    a = analyse_game(game)
    assert len(a.rows) == 30 and a.ending is None and a.goal == goal
    assert a.turning_points == [] and a.points_lost == (0, 0, 0)
    assert all(r.cost == 0 and r.card in r.best for r in a.rows)
    assert a.start_points == a.actual.declarer_points == 68
    assert a.start_wins is True and a.actual.won is True


def test_a_losing_card_of_the_declarer_is_the_turning_point() -> None:
    game = _before_card_play("684159")
    made = _play_out(game, Goal("points", 61), mistake=True)
    assert made is not None, "the declarer had no losing card on the best line"
    number, card, cost = made
    a = analyse_game(game)
    assert a.start_wins is True and a.actual.won is False
    assert [(r.number, r.card) for r in a.turning_points] == [(number, card)]
    row = a.turning_points[0]
    assert row.declarer and row.seat == game.declarer and row.wins_before and not row.wins_after
    assert row.card not in row.best and row.cost == cost > 0
    assert a.points_lost[game.declarer] == cost and sum(a.points_lost) == cost
    assert a.turning_points_by_seat[game.declarer] == 1 and sum(a.turning_points_by_seat) == 1
    assert row.points_after == a.actual.declarer_points < 61


def _check_consistent(a: GameAnalysis) -> None:
    """What every analysis of a played-out suit or grand game must satisfy."""
    rows = a.rows
    assert rows[0].points_before == a.start_points and rows[0].wins_before == a.start_wins
    for x, y in zip(rows, rows[1:]):
        assert x.points_after == y.points_before and x.wins_after == y.wins_before
    assert rows[-1].points_after == a.actual.declarer_points
    assert rows[-1].wins_after == a.actual.won
    declarer_lost = sum(r.cost for r in rows if r.declarer)
    defenders_lost = sum(r.cost for r in rows if not r.declarer)
    assert a.start_points - declarer_lost + defenders_lost == a.actual.declarer_points
    outcome = a.start_wins
    for r in a.turning_points:  # each flips the outcome against the side that played it
        assert r.wins_before == outcome and r.wins_after != outcome and r.declarer == outcome
        outcome = r.wins_after


@pytest.mark.parametrize("record_id", ["135521", "9", "462690"])
def test_sample_games_are_consistent(record_id: str) -> None:
    a = analyse_game(RECORDS[record_id])
    assert a.players == RECORDS[record_id].players and a.label == RECORDS[record_id].label
    assert len(a.rows) == 30 and a.ending is None
    _check_consistent(a)
    json.dumps(a.to_json())


def test_sample_games_that_end_early_or_have_no_card_play() -> None:
    claimed = analyse_game(RECORDS["1039093"])  # grand, the declarer claims after 18 cards
    assert len(claimed.rows) == 18 and claimed.ending is not None
    assert claimed.ending.kind == "claimed" and claimed.ending.after_cards == 18
    assert claimed.ending.wins is True and not claimed.ending.turning_point
    assert claimed.ending.points == claimed.rows[-1].points_after

    null = analyse_game(RECORDS["1390253"])  # null ouvert, the defenders concede before the first card
    assert null.rows == () and null.goal == Goal("no_trick")
    assert null.start_wins is True and null.start_points is None and null.ending.kind == "conceded"

    left = analyse_game(RECORDS["18358"])  # a defender leaves before the first card of a grand the declarer loses
    assert left.start_wins is False and left.actual.won is True
    assert left.ending.kind == "left" and left.ending.seat == 1 and left.ending.turning_point

    for record_id, words in [("756788", "passed in"), ("10330141", "had not announced"), ("8", "no game was declared")]:
        a = analyse_game(RECORDS[record_id])
        assert a.skipped is not None and words in a.skipped and a.rows == () and a.goal is None


def test_ramsch_is_skipped_with_a_message() -> None:
    rng = random.Random(3)
    game = Game(seed=11, ruleset=PUB.replace(ramsch_grand_hand=False), start="ramsch")
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
    assert game.result.kind == "ramsch"
    a = analyse_game(game.to_record())
    assert a.skipped is not None and a.skipped.startswith("Ramsch") and a.rows == ()


def test_a_revoke_ends_the_analysis_and_names_the_seat() -> None:
    game = _before_card_play("684159")
    record = game.to_record()
    record["ruleset"] = ISKO.replace(name="real", real_table=True).to_json()
    game = Game.from_record(record)
    while True:  # lead, then revoke at the first seat that holds the led suit and something else
        pos = Position.from_game(game)
        legal = pos.legal_cards().mask
        hand = pos.hands[pos.to_move]
        if pos.trick and hand & ~legal and legal != hand:
            revoker, card = pos.to_move, Card((hand & ~legal).bit_length() - 1)
            game.apply(Play(card), revoker)
            break
        game.apply(Play(Card(legal.bit_length() - 1)), pos.to_move)
    assert game.is_over and game.result.kind == "revoke"
    a = analyse_game(game)
    assert a.ending is not None and a.ending.kind == "revoke" and a.ending.seat == revoker
    assert len(a.rows) == len(_played_cards(game)) - 1


def test_a_position_over_the_time_limit_is_not_analysed() -> None:
    a = analyse_game(RECORDS["9"], time_limit=1e-9)
    first = a.rows[0]
    assert first.note and first.wins_before is None and first.points_before is None
    assert not first.turning_point and first.cost is None and first.best == ()
    assert first in a.not_analysed
    assert all(not r.turning_point for r in a.rows if not r.analysed)
    assert a.to_json()["not_analysed"][0] == 1


def test_bad_arguments() -> None:
    unfinished = _before_card_play("684159")
    with pytest.raises(AnalysisError, match="not finished"):
        analyse_game(unfinished)
    with pytest.raises(AnalysisError, match="not finished"):
        analyse_game(unfinished.to_record())
    with pytest.raises(TypeError, match="takes a finished Game"):
        analyse_game(42)  # type: ignore[arg-type]
    for bad in (0, -1, float("nan"), float("inf"), True):
        with pytest.raises(AnalysisError, match="time_limit"):
            analyse_game(RECORDS["9"], time_limit=bad)
    pos, cards, goal = _endgame("9", 2)
    with pytest.raises(AnalysisError, match="not a legal card"):
        analyse_card_play(pos, [cards[1], *cards], goal)
    with pytest.raises(AnalysisError, match="after the last card"):
        analyse_card_play(pos, [*cards, cards[0]], goal)


# -------------------------------------------------------------------------------------- command
def test_command_prints_a_table_with_the_turning_points(capsys) -> None:
    assert main(["analyze", str(SAMPLE), "--id", "135521", "--id", "756788"]) == 0
    out = capsys.readouterr().out
    assert "ISS record ID 135521 (line 2): Dennis / xskat / zoot" in out
    assert "to win: 90 card points (Schneider announced)" in out
    assert "double dummy at the first card: 76 lost; actual: 83 card points, lost (played)" in out
    table = [line.split() for line in out.splitlines() if line.startswith("    ") and "TURN" in line]
    assert [(t[0], t[1], t[3]) for t in table] == [("2", "2", "H7"), ("9", "0", "DT")]
    assert "trick 9: the declarer (seat 0) played DT and loses the game; with S7 he still makes 90" in out
    assert "passed in: all three players passed" in out


def test_command_json_output(capsys) -> None:
    assert main(["analyze", str(SAMPLE), "--id", "1039093", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert len(data) == 1
    game = data[0]
    assert game["contract"] == "grand" and game["goal"]["points"] == 61 and len(game["cards"]) == 18
    assert game["ending"]["kind"] == "claimed" and game["start"]["declarer_wins"] is True
    assert set(game["cards"][0]) >= {"trick", "seat", "card", "best", "points_before", "points_after", "cost",
                                     "turning_point", "moves"}


def test_command_reads_our_json_records(tmp_path, capsys) -> None:
    records = [replay(RECORDS[i])[0].to_record() for i in ("1390253", "756788")]
    one = tmp_path / "games.json"
    one.write_text(json.dumps(records))
    assert main(["analyze", str(one), "--id", "2"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("JSON record 2") and "passed in" in out and "JSON record 1" not in out
    lines = tmp_path / "games.jsonl"
    lines.write_text("\n".join(json.dumps(r) for r in records) + "\n")
    assert main(["analyze", str(lines), "--format", "json"]) == 0
    out = capsys.readouterr().out
    assert "null ouvert" in out and "the defenders conceded the rest" in out


def test_command_time_limit_marks_positions(capsys) -> None:
    assert main(["analyze", str(SAMPLE), "--id", "9", "--time-limit", "1e-9"]) == 0
    out = capsys.readouterr().out
    assert "not analysed" in out and "not fully analysed within the time limit" in out


@pytest.mark.parametrize(
    ("setup", "args", "code", "message"),
    [
        (None, ["--id", "424242"], 2, "no game with ID 424242"),
        ("missing", [], 2, "cannot read"),
        ("", [], 2, "is empty"),
        ("hello\n", [], 2, "neither ISS records"),
        ("{not json", [], 2, "is not valid JSON"),
        ("[1]", [], 1, "JSON record 1: a game record is a JSON object"),
        ('{"hands": []}', [], 1, "JSON record 1"),
        ("(;GM[Skat]ID[5]MV[w CJ]R[passed] ;)\n", [], 1, "ISS record ID 5 (line 1): move 1"),
        (None, ["--time-limit", "0"], 2, "--time-limit must be a positive number"),
        (None, ["--time-limit", "inf"], 2, "--time-limit must be a positive number"),
    ],
)
def test_command_bad_input(tmp_path, capsys, setup, args, code, message) -> None:
    path = SAMPLE
    if setup == "missing":
        path = tmp_path / "nothing.sgf"
    elif setup is not None:
        path = tmp_path / "input.txt"
        path.write_text(setup)
    assert main(["analyze", str(path), *args]) == code
    captured = capsys.readouterr()
    assert message in captured.err and "Traceback" not in captured.err


def test_command_record_that_does_not_replay(tmp_path, capsys) -> None:
    line = RECORDS["9"].properties["MV"]
    text = SAMPLE.read_text().splitlines()[24]
    assert line in text
    moves = line.split()
    moves[moves.index("SQ", 2)] = "SA"  # forehand leads a card that is not in his hand
    bad = tmp_path / "bad.sgf"
    bad.write_text(text.replace(line, " ".join(moves)) + "\n" + SAMPLE.read_text().splitlines()[6] + "\n")
    assert main(["analyze", str(bad)]) == 1
    captured = capsys.readouterr()
    assert "ISS record ID 9 (line 1): move" in captured.err and "does not replay" in captured.err
    assert "Traceback" not in captured.err
    assert "ISS record ID 756788 (line 2)" in captured.out  # the others are still analysed
    with pytest.raises(RecordError):
        analyse_game(text.replace(line, " ".join(moves)))


def test_announced_schwarz_ends_with_the_first_defenders_trick() -> None:
    game = _before_card_play("26496")  # clubs hand, Schwarz announced
    assert game.contract is not None and game.contract.schwarz
    rng = random.Random(7)
    while not game.is_over:  # the declarer plays his lowest card, the defenders at random
        pos = Position.from_game(game)
        legal = list(iter_mask(pos.legal_cards().mask))
        game.apply(Play(Card(legal[0] if pos.to_move == pos.declarer else rng.choice(legal))), pos.to_move)
    assert game.result.won is False and len(game.tricks) < 10
    a = analyse_game(game)
    assert a.goal.kind == "all_tricks" and a.ending is None
    assert len(a.rows) == len(_played_cards(game)) and a.rows[-1].wins_after is False
    assert a.start_wins is True and len(a.turning_points) >= 1 and a.turning_points[-1].declarer


def test_tournee_games_use_tournee_scoring() -> None:
    from skat.variants.tournee import TourneeGame, tournee_outcome

    rng = random.Random(15)
    game = TourneeGame(seed=15)
    while not game.is_over:  # random actions, bids up to 30
        actions = game.legal_actions()
        game.apply(rng.choice([x for x in actions if not (isinstance(x, Bid) and x.value > 30)] or actions))
    assert game.game_name == "solo_clubs" and game.bid == 27
    a = analyse_game(game.to_record())
    assert a.goal.kind == "points" and a.goal.points == 91  # Schneider at 91 in Tournee Skat
    decl = game.declarer
    twelve = game.initial_hands[decl] | game.initial_skat
    assert len(a.rows) == 30 and a.rows[-1].points_after == a.actual.declarer_points
    for points in (60, 61, 90, 120):  # the goal is where Tournee scoring starts to win
        won = tournee_outcome(game.game_name, twelve, points, 5, game.bid, game.ruleset).won
        assert won == (a.goal.kind == "points" and points >= a.goal.points)
    assert a.rows[-1].wins_after == a.actual.won
