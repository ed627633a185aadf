"""The club tournament's draw and ranking (skat.table.tournament, docs/keeper.md "Tournament")."""

from __future__ import annotations

import json

import pytest

from skat.rules.rulesets import get_ruleset
from skat.table.keeper import ScoreKeeper
from skat.table.tournament import DEFAULT_GAMES, Tournament, TournamentError, draw, table_sizes

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
    with pytest.raises(TournamentError, match="cannot"):  # five register, but they cannot be seated
        Tournament(["A", "B", "C", "D", "E"]).draw_series(seed=1)


def test_json_round_trip():
    t = seven()
    t.draw_series(seed=4)
    text = t.to_json_text()
    back = Tournament.from_json(json.loads(text))
    assert back.to_json() == t.to_json()
    assert back.ranking() == t.ranking()
    with pytest.raises(TournamentError):
        Tournament.from_json_text("{")


# ---------------------------------------------------------------------- settings, registration, lists
def test_settings_are_validated_and_kept_in_json():
    t = Tournament(["A", "B", "C"], name="cup", ruleset="pub", games={"4": 32, 3: 24})
    assert (t.ruleset, t.games) == ("pub", {4: 32, 3: 24})
    assert Tournament(["A", "B", "C"]).games == DEFAULT_GAMES == {4: 48, 3: 36}
    assert Tournament(["A", "B", "C"]).ruleset == "isko2018"  # isko is the 2018 edition
    assert Tournament(["A", "B", "C"], games={3: 30}).games == {4: 48, 3: 30}  # the size not given keeps 48
    data = t.to_json()
    assert data["games"] == {"4": 32, "3": 24} and data["ruleset"] == "pub"
    assert Tournament.from_json(json.loads(json.dumps(data))).to_json() == data
    for games, why in (({5: 60}, "tables of 3 and 4"), ({4: 0}, "positive"), ({3: 12.5}, "positive"),
                       ({4: True}, "positive"), ([48, 36], "maps"), ({4: 1001}, "at most 1000"),
                       ({3: 10**12}, "at most 1000")):
        with pytest.raises(TournamentError, match=why):
            Tournament(["A", "B", "C"], games=games)
    with pytest.raises(TournamentError, match="unknown rule set"):
        Tournament(["A", "B", "C"], ruleset="bierskat")
    with pytest.raises(TournamentError, match="standard Skat"):
        Tournament(["A", "B", "C"], ruleset="tournee")


def test_register_and_withdraw():
    t = Tournament(["A", "B", "C", "D", "E", "F"])
    t.draw_series(seed=1)
    assert t.register(" G ") == "G"  # kept without the spaces
    for bad, why in (("A", "registered already"), ("  ", "needs a name"), ("passed", "cannot be called")):
        with pytest.raises(TournamentError, match=why):
            t.register(bad)
    t.withdraw("B")
    with pytest.raises(TournamentError, match="withdrawn already"):
        t.withdraw("B")
    with pytest.raises(TournamentError, match="not registered"):
        t.withdraw("Z")
    assert t.active == ["A", "C", "D", "E", "F", "G"]
    second = t.draw_series(seed=2)  # the active six: G in, B out
    assert sorted(p for tab in second.draw for p in tab) == ["A", "C", "D", "E", "F", "G"]
    with pytest.raises(TournamentError, match="not active: B"):
        t.add_series([["A", "B", "C"], ["D", "E", "F"]])
    # B keeps the list he played (series 1) and stays ranked; G has nothing for series 1
    first = t.series[0]
    b_table = next(i for i, tab in enumerate(first.draw, 1) if "B" in tab)
    k = t.table_keeper(1, b_table)
    k.add({"declarer": "B", "game": "grand", "with": 1, "points": 70, "bid": 18}, at=AT)  # 48 + 50 = 98
    t.record(1, b_table, k)
    lines = {s.player: s for s in t.ranking()}
    assert lines["B"].rank == 1 and lines["B"].points == 98 and lines["B"].withdrawn
    assert lines["G"].series == (None, None) and not lines["G"].withdrawn
    back = Tournament.from_json_text(t.to_json_text())
    assert back.withdrawn == ["B"] and back.active == t.active and back.ranking() == t.ranking()
    t.withdraw("C")
    with pytest.raises(TournamentError, match="cannot"):  # two withdrew: five cannot be seated
        t.draw_series(seed=3)


def test_table_keeper_seats_the_draw_with_the_tournaments_rules_and_games():
    t = Tournament([f"P{i}" for i in range(7)], ruleset="pub", games={4: 32, 3: 24})
    series = t.draw_series(seed=5)
    four, three = t.table_keeper(1, 1), t.table_keeper(1, 2)
    assert four.players == series.draw[0] and three.players == series.draw[1]  # seat order of the draw
    assert (four.limit, three.limit) == (32, 24)
    assert four.rules == get_ruleset("pub") and not four.games
    assert four.next_dealer() == series.draw[0][0]
    with pytest.raises(TournamentError, match="no table 3"):
        t.table_keeper(1, 3)
    with pytest.raises(TournamentError, match="no series 2"):
        t.table_keeper(2, 1)


def test_record_takes_a_list_in_progress_and_checks_its_rules_and_length():
    t = Tournament(["A", "B", "C"], games={3: 2})
    t.add_series([["A", "B", "C"]])
    k = t.table_keeper(1, 1)
    t.record(1, 1, k)  # an empty list: everyone 0
    k.add({"declarer": "A", "game": "clubs", "with": 1, "points": 70, "bid": 18}, at=AT)  # 24 + 50 = 74
    assert [(s.player, s.points) for s in t.ranking()][0] == ("A", 74)  # the list counts as it stands
    with pytest.raises(TournamentError, match="kept under pub"):
        t.record(1, 1, ScoreKeeper(["A", "B", "C"], "pub"))
    with pytest.raises(TournamentError, match="with options changed"):
        t.record(1, 1, ScoreKeeper(["A", "B", "C"], get_ruleset("isko").replace(kontra=True)))
    long = ScoreKeeper(["C", "A", "B"], "isko")  # another seat order is the same table
    for declarer in "ABC":
        long.add({"declarer": declarer, "game": "grand", "with": 1, "points": 70, "bid": 18}, at=AT)
    with pytest.raises(TournamentError, match="plays 2 games a series; the list of series 1 table 1 has 3"):
        t.record(1, 1, long)
    long.strike(3)
    t.record(1, 1, long)
    assert t.ranking()[0].points == 98 and long.limit == 2 and long.complete  # the list takes the table's games
    with pytest.raises(TournamentError, match="plays 2 games a series; the list of series 1 table 1 holds 36"):
        t.record(1, 1, ScoreKeeper(["A", "B", "C"], "isko", limit=36))


# ---------------------------------------------------------------------- 13 players, two series, by hand
THIRTEEN = ["Anna", "Bernd", "Clara", "Dieter", "Eva", "Frank", "Gerda", "Hans", "Ilse", "Jonas", "Karin", "Lutz",
            "Mia"]


def kept(t: Tournament, series: int, table: int, games) -> ScoreKeeper:
    """The table's list (Tournament.table_keeper: seat order of the draw, isko, 48/36 games) with ``games``,
    every bid 18 (no game here is overbid), handed in."""
    k = t.table_keeper(series, table)
    t.record(series, table, k)
    for g in games:
        k.add({"bid": 18, **g}, author="tester", at=AT)
    return k


def test_thirteen_players_over_two_series_ranked_by_hand():
    """ISkO (isko2018): won game +value + 50; lost game -2 x value - 50 (the list's entry is already doubled),
    and each other player at the table (the dealer sitting out at a 4-table included) +40 at a 3-table, +30 at a
    4-table. Values: suit base clubs 12, spades 11, hearts 10, diamonds 9, grand 24, times (matadors + 1)."""
    t = Tournament(THIRTEEN, name="Club cup")
    first = t.draw_series(seed=1)
    assert first.draw == [["Ilse", "Mia", "Anna", "Lutz"], ["Frank", "Dieter", "Gerda"], ["Hans", "Karin", "Eva"],
                          ["Bernd", "Jonas", "Clara"]]  # 13 = 4 + 3 + 3 + 3, by lot
    # series 1, table 1 (4-table): the dealer sits out; Ilse deals first, then Mia, Anna, Lutz, Ilse
    kept(t, 1, 1, [
        {"declarer": "Mia", "game": "clubs", "with": 2, "points": 75},    # 3 x 12 = 36: Mia 36 + 50 = 86
        {"declarer": "Anna", "game": "spades", "with": 1, "points": 45},  # 2 x 11 = 22, lost: -44 - 50 = -94;
                                                                          # Ilse, Mia (dealing), Lutz +30
        {"declarer": "Lutz", "game": "grand", "with": 1, "points": 70},   # 2 x 24 = 48: Lutz 98
        {"declarer": "Ilse", "game": "hearts", "with": 1, "points": 80},  # 2 x 10 = 20: Ilse 70
        {"declarer": "Mia", "game": "diamonds", "with": 1, "points": 65},  # 2 x 9 = 18: Mia 68
    ])  # Ilse 30 + 70 = 100, Mia 86 + 30 + 68 = 184, Anna -94, Lutz 30 + 98 = 128
    # series 1, table 2 (3-table): a lost game gives the other two +40
    kept(t, 1, 2, [
        {"declarer": "Dieter", "game": "hearts", "with": 2, "points": 70},  # 3 x 10 = 30: Dieter 80
        {"declarer": "Gerda", "game": "clubs", "with": 1, "points": 50},    # -48 - 50: Gerda -98; Frank, Dieter +40
        {"declarer": "Frank", "game": "grand", "with": 1, "points": 61},    # 48: Frank 98
        {"declarer": "Dieter", "game": "spades", "with": 1, "points": 40},  # -44 - 50: Dieter -94; Frank, Gerda +40
    ])  # Frank 40 + 98 + 40 = 178, Dieter 80 + 40 - 94 = 26, Gerda -98 + 40 = -58
    kept(t, 1, 3, [
        {"declarer": "Karin", "game": "grand", "with": 2, "points": 80},    # 3 x 24 = 72: Karin 122
        {"declarer": "Eva", "game": "diamonds", "with": 1, "points": 70},   # 18: Eva 68
        {"declarer": "Hans", "game": "hearts", "with": 2, "points": 70},    # 30: Hans 80
    ])
    kept(t, 1, 4, [
        {"declarer": "Jonas", "game": "spades", "with": 2, "points": 70},   # 3 x 11 = 33: Jonas 83
        {"declarer": "Clara", "game": "hearts", "with": 1, "points": 75},   # 20: Clara 70
        {"declarer": "Bernd", "game": "spades", "with": 1, "points": 70},   # 22: Bernd 72
    ])
    assert [k.seeger_fabian for k in t.series[0].tables] == [[100, 184, -94, 128], [178, 26, -58], [80, 122, 68],
                                                             [72, 83, 70]]
    after_one = [(s.player, s.points) for s in t.ranking()]
    assert after_one == [("Mia", 184), ("Frank", 178), ("Lutz", 128), ("Karin", 122), ("Ilse", 100), ("Jonas", 83),
                         ("Hans", 80), ("Bernd", 72), ("Clara", 70), ("Eva", 68), ("Dieter", 26), ("Gerda", -58),
                         ("Anna", -94)]

    second = t.draw_series(by_ranking=True)
    # the best four of series 1 at table 1, then the ranking in threes
    assert second.draw == [["Mia", "Frank", "Lutz", "Karin"], ["Ilse", "Jonas", "Hans"], ["Bernd", "Clara", "Eva"],
                           ["Dieter", "Gerda", "Anna"]]
    # series 2, table 1: Mia deals first (sits out), then Frank, Lutz, Karin
    table1 = kept(t, 2, 1, [
        {"declarer": "Frank", "game": "clubs", "with": 1, "points": 45},   # -48 - 50: Frank -98; Mia, Lutz, Karin +30
    ])
    live = {s.player: s.points for s in t.ranking()}  # a list in progress counts as it stands
    assert (live["Frank"], live["Mia"], live["Ilse"]) == (178 - 98, 184 + 30, 100)
    for g in ({"declarer": "Lutz", "game": "hearts", "with": 1, "points": 70},    # 20: Lutz 70
              {"declarer": "Karin", "game": "diamonds", "with": 1, "points": 61},  # 18: Karin 68
              {"declarer": "Mia", "game": "spades", "with": 1, "points": 70}):     # 22: Mia 72
        table1.add({"bid": 18, **g}, at=AT)
    # Mia 30 + 72 = 102, Frank -98, Lutz 30 + 70 = 100, Karin 30 + 68 = 98
    kept(t, 2, 2, [
        {"declarer": "Jonas", "game": "diamonds", "with": 2, "points": 70},  # 3 x 9 = 27: Jonas 77
        {"declarer": "Ilse", "game": "hearts", "with": 1, "points": 70},     # 20: Ilse 70
        {"declarer": "Jonas", "game": "diamonds", "with": 1, "points": 70},  # 18: Jonas 68
    ])  # Ilse 70, Jonas 145, Hans 0
    kept(t, 2, 3, [
        {"declarer": "Bernd", "game": "hearts", "with": 1, "points": 70},   # Bernd 70
        {"declarer": "Clara", "game": "spades", "with": 1, "points": 70},   # Clara 72
        {"declarer": "Eva", "game": "clubs", "with": 1, "points": 70},      # Eva 74
    ])
    kept(t, 2, 4, [
        {"declarer": "Gerda", "game": "grand", "with": 2, "points": 85},    # 72: Gerda 122
        {"declarer": "Anna", "game": "clubs", "with": 2, "points": 80},     # 36: Anna 86
        {"declarer": "Dieter", "game": "diamonds", "with": 1, "points": 70},  # 18: Dieter 68
    ])
    lines = [(s.rank, s.player, s.points, s.won, s.lost, s.series) for s in t.ranking()]
    assert lines == [
        (1, "Mia", 184 + 102, 3, 0, (184, 102)),
        # Jonas and Lutz 228 each: Jonas won 3 games, Lutz 2 (more games won first)
        (2, "Jonas", 83 + 145, 3, 0, (83, 145)),
        (3, "Lutz", 128 + 100, 2, 0, (128, 100)),
        (4, "Karin", 122 + 98, 2, 0, (122, 98)),
        (5, "Ilse", 100 + 70, 2, 0, (100, 70)),
        # Eva, Bernd and Clara 142 each, 2 won, 0 lost: Eva's better series (74) first; Bernd and Clara, 72 each,
        # are equal in all four and share rank 7 (listed in the order they registered)
        (6, "Eva", 68 + 74, 2, 0, (68, 74)),
        (7, "Bernd", 72 + 70, 2, 0, (72, 70)),
        (7, "Clara", 70 + 72, 2, 0, (70, 72)),
        (9, "Dieter", 26 + 68, 2, 1, (26, 68)),
        # Hans and Frank 80 each, 1 game won each: Hans lost none, Frank one (fewer games lost first)
        (10, "Hans", 80 + 0, 1, 0, (80, 0)),
        (11, "Frank", 178 - 98, 1, 1, (178, -98)),
        (12, "Gerda", -58 + 122, 1, 1, (-58, 122)),
        (13, "Anna", -94 + 86, 1, 1, (-94, 86)),
    ]
    back = Tournament.from_json_text(t.to_json_text())
    assert back.ranking() == t.ranking() and back.to_json() == t.to_json()
