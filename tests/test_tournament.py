"""The club tournament's draw and ranking (skat.table.tournament, docs/keeper.md "Tournament")."""

from __future__ import annotations

import json

import pytest

from skat.table.keeper import ScoreKeeper
from skat.table.tournament import Tournament, TournamentError, draw, table_sizes

NAMES = [f"P{i:02d}" for i in range(20)]
AT = "2025-01-01T20:00:00+00:00"


@pytest.mark.parametrize("n", [n for n in range(3, 21) if n != 5])
def test_every_player_is_seated_once_at_tables_of_3_or_4(n):
    tables = draw(NAMES[:n], seed=n)
    seated = [p for t in tables for p in t]
    assert sorted(seated) == NAMES[:n]
    assert all(len(t) in (3, 4) for t in tables)
    assert len(tables) == -(-n // 4)  # as few tables as possible
    assert [len(t) for t in tables] == sorted((len(t) for t in tables), reverse=True)  # the 4-tables first


def test_table_sizes_by_hand():
    assert table_sizes(13) == [4, 3, 3, 3]
    assert table_sizes(6) == [3, 3]
    assert table_sizes(7) == [4, 3]
    assert table_sizes(12) == [4, 4, 4]
    assert table_sizes(3) == [3]


@pytest.mark.parametrize("n", [0, 1, 2, 5])
def test_impossible_counts_are_refused(n):
    with pytest.raises(TournamentError, match="cannot"):
        draw(NAMES[:n], seed=1)


def test_the_seeded_draw_is_reproducible():
    assert draw(NAMES[:13], seed=7) == draw(NAMES[:13], seed=7)
    assert draw(NAMES[:13], seed=7) != draw(NAMES[:13], seed=8)


def test_the_draw_by_ranking_seats_the_best_at_table_1():
    ranking = list(reversed(NAMES[:7]))
    assert draw(NAMES[:7], None, ranking) == [["P06", "P05", "P04", "P03"], ["P02", "P01", "P00"]]
    # a ranked name who does not play is skipped; unranked players follow, drawn with the seed
    tables = draw(NAMES[:7], 3, ["P04", "gone", "P02"])
    assert tables[0][:2] == ["P04", "P02"]
    assert sorted(p for t in tables for p in t) == NAMES[:7]


def keeper(players, games):
    k = ScoreKeeper(players, "isko")
    for g in games:
        k.add({"bid": 18, **g}, author="tester", at=AT)  # bid 18: no game here is overbid
    return k


def seven() -> Tournament:
    """Seven players, two series of a 4-table and a 3-table (isko, every bid 18: no game is overbid)."""
    t = Tournament(["A", "B", "C", "D", "E", "F", "G"], name="club")
    t.add_series([["A", "B", "C", "D"], ["E", "F", "G"]])
    # 4-table, A deals first and sits out; a lost game gives each of the other three +30
    t.record(1, 1, keeper(["A", "B", "C", "D"], [
        {"declarer": "B", "game": "clubs", "with": 1, "points": 70},   # (1+1) x 12 = 24: B 24 + 50 = 74
        {"declarer": "C", "game": "spades", "with": 1, "points": 50},  # -2 x 22 = -44: C -44 - 50 = -94; A, B, D +30
        {"declarer": "D", "game": "hearts", "with": 1, "points": 80},  # 2 x 10 = 20: D 20 + 50 = 70
        {"declarer": "A", "game": "grand", "with": 1, "points": 61},   # 2 x 24 = 48: A 48 + 50 = 98
    ]))  # A 30 + 98 = 128, B 74 + 30 = 104, C -94, D 30 + 70 = 100
    # 3-table: a lost game gives each of the other two +40
    t.record(1, 2, keeper(["E", "F", "G"], [
        {"declarer": "E", "game": "diamonds", "with": 1, "points": 70},  # 2 x 9 = 18: E 68
        {"declarer": "F", "game": "clubs", "with": 1, "points": 40},     # -48: F -98; E, G +40
        {"declarer": "G", "game": "hearts", "with": 1, "points": 65},    # 20: G 70
    ]))  # E 108, F -98, G 110
    t.add_series([["A", "C", "E", "G"], ["B", "D", "F"]])
    t.record(2, 1, keeper(["A", "C", "E", "G"], [
        {"declarer": "C", "game": "grand", "with": 1, "points": 61},  # C 48 + 50 = 98
        {"declarer": "E", "game": "clubs", "with": 1, "points": 70},  # E 24 + 50 = 74
    ]))  # A 0, C 98, E 74, G 0
    t.record(2, 2, keeper(["B", "D", "F"], [
        {"declarer": "B", "game": "spades", "with": 1, "points": 70},  # B 22 + 50 = 72
        {"declarer": "D", "game": "hearts", "with": 1, "points": 40},  # -2 x 20 = -40: D -90; B, F +40
        {"declarer": "F", "game": "diamonds", "with": 1, "points": 61},  # F 18 + 50 = 68
    ]))  # B 112, D -90, F 108
    return t


def test_a_small_tournament_ranked_by_hand():
    t = seven()
    assert [k.seeger_fabian for k in t.series[0].tables] == [[128, 104, -94, 100], [108, -98, 110]]
    lines = [(s.rank, s.player, s.points, s.won, s.lost, s.series) for s in t.ranking()]
    assert lines == [
        (1, "B", 104 + 112, 2, 0, (104, 112)),
        (2, "E", 108 + 74, 2, 0, (108, 74)),
        (3, "A", 128 + 0, 1, 0, (128, 0)),
        (4, "G", 110 + 0, 1, 0, (110, 0)),
        # F and D: 10 points, 1 won, 1 lost each; F's better series (108 against D's 100) puts him first
        (5, "F", -98 + 108, 1, 1, (-98, 108)),
        (6, "D", 100 - 90, 1, 1, (100, -90)),
        (7, "C", -94 + 98, 1, 1, (-94, 98)),
    ]


def test_ties_share_the_rank_and_won_games_break_ties():
    t = Tournament(["A", "B", "C", "D", "E", "F"])
    t.add_series([["A", "B", "C"], ["D", "E", "F"]])
    assert [s.rank for s in t.ranking()] == [1] * 6  # nothing played: a full tie
    t.record(1, 1, keeper(["A", "B", "C"], [
        {"declarer": "A", "game": "grand", "with": 1, "points": 61},  # A 98
    ]))
    t.record(1, 2, keeper(["D", "E", "F"], [
        {"declarer": "D", "game": "clubs", "with": 1, "points": 70},  # D 74
        {"declarer": "E", "game": "clubs", "with": 1, "points": 40},  # E -98; D, F +40: D 114, F 40
        {"declarer": "F", "game": "diamonds", "with": 1, "points": 70},  # F 40 + 68 = 108
    ]))
    lines = [(s.rank, s.player, s.points, s.won) for s in t.ranking()]
    # D 114 first; F 108 and A 98; B and C 0 share rank 4; E -98 last
    assert lines == [(1, "D", 114, 1), (2, "F", 108, 1), (3, "A", 98, 1), (4, "B", 0, 0), (4, "C", 0, 0),
                     (6, "E", -98, 0)]


def test_a_draw_by_the_ranking_so_far():
    t = seven()
    series = t.draw_series(by_ranking=True)
    assert series.draw == [["B", "E", "A", "G"], ["F", "D", "C"]]
    assert series.tables == [None, None]


def test_lists_and_draws_are_checked():
    t = seven()
    with pytest.raises(TournamentError, match="seats A, C, E, G"):
        t.record(2, 1, keeper(["A", "B", "C", "D"], []))
    with pytest.raises(TournamentError, match="not seated: G"):
        t.add_series([["A", "B", "C", "D"], ["E", "F"]])
    with pytest.raises(TournamentError, match="no series 5"):
        t.record(5, 1, keeper(["A", "B", "C"], []))
    with pytest.raises(TournamentError, match="cannot"):
        Tournament(["A", "B", "C", "D", "E"])


def test_json_round_trip():
    t = seven()
    t.draw_series(seed=4)
    text = t.to_json_text()
    back = Tournament.from_json(json.loads(text))
    assert back.to_json() == t.to_json()
    assert back.ranking() == t.ranking()
    with pytest.raises(TournamentError):
        Tournament.from_json_text("{")
