"""The score keeper of a real table (skat.table.keeper) and `skat sheet FILE` (docs/keeper.md)."""

from __future__ import annotations

import csv
import io
import json
from fractions import Fraction

import pytest

from skat.cli import main
from skat.table.keeper import KeeperError, ScoreKeeper

THREE = [
    # Ann deals: Bob grand hand with 2, 78 points: (2 + 1 game + 1 hand) x 24 = 96 -> Bob +96
    {"declarer": "Bob", "game": "grand", "hand": True, "with": 2, "points": 78, "bid": 48},
    # Bob deals: Cid hearts without 2, 50 points: (2 + 1) x 10 = 30, lost -> -2 x 30 = -60
    {"declarer": "Cid", "game": "hearts", "without": 2, "points": 50, "bid": 20},
    # Cid deals: all passed (isko: passed in, nobody scores)
    {"declarer": "passed"},
    # Ann deals: Ann null, a trick taken: -2 x 23 = -46
    {"declarer": "Ann", "game": "null", "result": "lost", "bid": 23},
    # Bob deals: Cid diamonds with 1, 70 points, bid 24: 2 x 9 = 18 < 24, overbid: -2 x 27 = -54
    {"declarer": "Cid", "game": "diamonds", "with": 1, "points": 70, "bid": 24},
    # Cid deals: Ann spades hand schneider announced with 1, 92 points:
    # (1 + 1 game + 1 hand + 1 schneider + 1 announced) x 11 = 55 -> +55
    {"declarer": "Ann", "game": "spades", "hand": True, "schneider_announced": True, "with": 1, "points": 92,
     "bid": 33},
]


def three() -> ScoreKeeper:
    keeper = ScoreKeeper(["Ann", "Bob", "Cid"], "isko", price="0.01")
    for game in THREE:
        keeper.add(game, author="Ann", at="2025-01-01T20:00:00+00:00")
    return keeper


def test_a_three_player_list_checked_by_hand():
    keeper = three()
    games = keeper.games
    assert [g.sheet.dealer for g in games] == [0, 1, 2, 0, 1, 2]
    assert [g.sheet.value for g in games] == [96, 30, None, 23, 18, 55]
    # Ann -46 + 55 = 9; Bob 96; Cid -60 - 54 = -114
    assert keeper.totals == [9, 96, -114]
    assert keeper.sheet.games_won() == [1, 1, 0] and keeper.sheet.games_lost() == [1, 0, 2]
    # Seeger-Fabian: Ann 9 + 50 - 50 + 2 x 40 (Cid's losses) = 89; Bob 96 + 50 + 3 x 40 = 266;
    # Cid -114 - 2 x 50 + 1 x 40 (Ann's loss) = -174
    assert keeper.seeger_fabian == [89, 266, -174]
    # average -3: Ann +12, Bob +99, Cid -111; at 0.01 a point 0.12, 0.99, -1.11
    assert keeper.settlement == [12, 99, -111]
    assert keeper.money == [Fraction(12, 100), Fraction(99, 100), Fraction(-111, 100)]
    assert "overbid" in games[4].explanation and "-2 × 27 = -54" in games[4].explanation
    assert keeper.next_dealer() == "Ann"
    text = keeper.format_text()
    assert "Seeger-Fabian" in text and "266" in text and "without 2" in text and "schneider ann." in text


def test_the_declarers_cards_give_the_matadors():
    keeper = ScoreKeeper(["Ann", "Bob", "Cid"])
    # clubs, holding CJ SJ but not HJ: with 2, (2 + 1) x 12 = 36 (docs/rules.md 4.5, gv-003-01)
    keeper.add({"declarer": "Bob", "game": "clubs", "cards": "CJ SJ CA CT CK C9 SA ST HA HT D7 D8", "points": 72,
                "bid": 36})
    assert keeper.totals == [0, 36, 0]


def test_four_players_a_bock_round_and_a_ramsch():
    keeper = ScoreKeeper(["Ann", "Bob", "Cid", "Dan"], "pub", first_dealer="Ann")
    # 1 Ann deals (sits out): Bob clubs with 2, 72 points: +36
    keeper.add({"declarer": "Bob", "game": "clubs", "with": 2, "points": 72, "bid": 36})
    # 2 Bob deals: Dan spades without 3, 60:60: 4 x 11 = 44, -88; lost_60 queues a Bock round (games 3-6)
    keeper.add({"declarer": "Dan", "game": "spades", "without": 3, "points": 60, "bid": 33})
    assert keeper.upcoming_round() == "bock"
    # 3 Cid deals, Bock: Ann grand with 1, 80 points: 2 x 24 = 48, doubled +96
    keeper.add({"declarer": "Ann", "game": "grand", "with": 1, "points": 80, "bid": 48})
    # 4 Dan deals, Bock: all passed, Ramsch of Ann, Bob, Cid: Ann has most, -50, doubled -100
    keeper.add({"declarer": "ramsch", "ramsch": {"Ann": 50, "Bob": 40, "Cid": 30}})
    # 5 Ann deals, Bock: Cid hearts with 1 won, Kontra: 20 x 2 (Kontra) x 2 (Bock) = +80
    keeper.add({"declarer": "Cid", "game": "hearts", "with": 1, "result": "won", "bid": 18, "kontra": True})
    assert [g.sheet.round for g in keeper.games] == ["normal", "normal", "bock", "bock", "bock"]
    assert keeper.games[1].events == ("lost_60",)
    assert keeper.totals == [-4, 36, 80, -88]
    # Seeger-Fabian: Ann -4 + 50 + 30 (Dan's loss) = 76; Bob 36 + 50 + 30 = 116; Cid 80 + 50 + 30 = 160;
    # Dan -88 - 50 = -138
    assert keeper.seeger_fabian == [76, 116, 160, -138]
    assert keeper.settlement == [-10, 30, 74, -94]  # average 6
    assert keeper.upcoming_round() == "bock"  # game 6 is the Bock round's fourth
    with pytest.raises(KeeperError, match="game 6: Bob deals in this game"):
        keeper.add({"declarer": "Bob", "game": "grand", "with": 1, "points": 80, "bid": 48})


def test_a_ramsch_round_after_a_bock_round_takes_only_ramsch():
    rules = "isko"
    keeper = ScoreKeeper(["Ann", "Bob", "Cid"], rules)
    keeper.rules = keeper.rules.replace(bock_triggers=("lost_60",), bock_ramsch_round=True)
    keeper.add({"declarer": "Bob", "game": "clubs", "with": 1, "points": 60, "bid": 18})  # -48, Bock due
    for _ in range(3):  # the Bock round: three games doubled
        keeper.add({"declarer": "Bob", "game": "diamonds", "with": 1, "points": 61, "bid": 18})
    assert keeper.totals == [0, -48 + 3 * 36, 0]
    assert keeper.upcoming_round() == "ramsch"
    with pytest.raises(KeeperError, match="game 5 is in a ramsch round"):
        keeper.add({"declarer": "Bob", "game": "diamonds", "with": 1, "points": 61, "bid": 18})
    # dealer Bob: Cid, Ann, Bob play; Ann 60 + Jungfrau Bob: -60 x 2 = -120 (Ramsch rounds are not doubled)
    keeper.add({"declarer": "ramsch", "ramsch": {"Ann": 60, "Bob": 0, "Cid": 60}, "jungfrau": ["Bob"],
                "last_trick": "Ann"})
    assert keeper.games[-1].sheet.scores == (-120, 0, -120)  # tied for most: all_lose


@pytest.mark.parametrize("entry, reason", [
    ({"declarer": "Bob", "game": "clubs", "schneider_announced": True, "with": 1, "points": 95, "bid": 18},
     "Schneider can only be announced in a hand game"),
    ({"declarer": "Bob", "game": "grand", "with": 5, "points": 95, "bid": 48},
     "with 5 is impossible: grand has 4 matadors at most"),
    ({"declarer": "Bob", "game": "hearts", "without": 12, "points": 95, "bid": 18},
     "without 12 is impossible: a suit game has 11 matadors at most"),
    ({"declarer": "Bob", "game": "null", "with": 2, "result": "won", "bid": 23}, "a Null game has no matadors"),
    ({"declarer": "Bob", "game": "null", "hand": True, "schwarz_announced": True, "result": "won", "bid": 23},
     "cannot be announced in a Null game"),
    ({"declarer": "Bob", "game": "clubs", "with": 1, "points": 130, "bid": 18},
     "points 130 is impossible: the declarer has 0 to 120"),
    ({"declarer": 5, "game": "clubs", "with": 1, "points": 70, "bid": 18},
     "declarer 5 is out of range: the players are numbered 0 to 2"),
    ({"declarer": "Zed", "game": "clubs", "with": 1, "points": 70, "bid": 18}, "'Zed' is not at the table"),
    ({"declarer": "Bob", "game": "clubs", "with": 1, "points": 70, "bid": 17}, "17 is not a bid value"),
    ({"declarer": "Bob", "game": "clubs", "with": 1, "points": 70}, "give the bid"),
    ({"declarer": "Bob", "game": "clubs", "with": 1, "points": 70, "bid": 18, "kontra": True},
     "Kontra and Re are house rules"),
    ({"declarer": "Bob", "game": "clubs", "with": 1, "points": 50, "result": "won", "bid": 18},
     "won contradicts the rules: 50 card points lose"),
    ({"declarer": "Bob", "game": "clubs", "with": 1, "points": 50, "schwarz": True, "bid": 18},
     "schwarz with 50 card points is impossible"),
    ({"declarer": "Bob", "game": "clubs", "points": 70, "bid": 18}, "needs its matadors"),
    ({"declarer": "Bob", "game": "clubs", "with": 1, "cards": ["CJ"], "points": 70, "bid": 18},
     "not both"),
    ({"declarer": "Bob", "game": "clubs", "cards": ["CJ", "SJ"], "points": 70, "bid": 18}, "12 cards"),
    ({"declarer": "Bob", "game": "skat", "with": 1, "points": 70, "bid": 18}, "unknown game 'skat'"),
    ({"declarer": "Bob", "game": "clubs", "with": 1, "points": 70, "bid": 18, "matdors": 2},
     "unknown field 'matdors'"),
    ({"declarer": "Bob", "game": "clubs", "with": 1, "points": 70, "bid": 18, "revoke": "defenders"},
     "a revoke decides the game"),
    ({"declarer": "ramsch", "ramsch": {"Ann": 50, "Bob": 40, "Cid": 30}}, "isko2018 has no Ramsch here"),
    ({"declarer": "passed", "game": "grand"}, "game belong to a declarer's game"),
    ({"declarer": "Bob", "game": "clubs", "with": "two", "points": 70, "bid": 18}, "'with' must be a whole number"),
])
def test_impossible_entries_are_refused_with_the_reason(entry, reason):
    keeper = ScoreKeeper(["Ann", "Bob", "Cid"])
    keeper.add({"declarer": "Cid", "game": "grand", "with": 1, "points": 80, "bid": 48})
    with pytest.raises(KeeperError, match="game 2: .*" + reason.replace("(", r"\(")) as info:
        keeper.add(entry)
    assert reason in str(info.value)
    assert len(keeper.games) == 1 and keeper.totals == [0, 0, 48]  # nothing changed


@pytest.mark.parametrize("entry, reason", [
    ({"declarer": "passed"}, "under pub a deal that all pass is played as Ramsch"),
    ({"declarer": "ramsch", "ramsch": {"Ann": 50, "Bob": 40, "Cid": 20}}, "add up to 110, not 120"),
    ({"declarer": "ramsch", "ramsch": {"Ann": 50, "Bob": 40, "Dan": 30}}, "Cid played and needs card points"),
    ({"declarer": "ramsch", "ramsch": {"Ann": 50, "Bob": 40, "Cid": 30}, "jungfrau": ["Cid"]},
     "Cid took no trick (Jungfrau) but has 30 card points"),
    ({"declarer": "ramsch", "ramsch": {"Ann": 50, "Bob": 40, "Cid": 30}, "pushes": 1},
     "pushes belong to a Schieberamsch"),
    ({"declarer": "Bob", "game": "clubs", "with": 1, "points": 70, "bid": 18, "re": True},
     "Re answers Kontra: set kontra too"),
])
def test_house_rule_entries_are_refused_with_the_reason(entry, reason):
    keeper = ScoreKeeper(["Ann", "Bob", "Cid"], "pub")
    with pytest.raises(KeeperError, match="game 1: ") as info:
        keeper.add(entry)
    assert reason in str(info.value)


def test_overbid_is_allowed_and_scored_as_lost():
    keeper = ScoreKeeper(["Ann", "Bob", "Cid"])
    # clubs with 1 is worth 2 x 12 = 24 < 264: lost at 12 x 22 = 264, doubled -528 (docs/rules.md 4.4)
    keeper.add({"declarer": "Bob", "game": "clubs", "with": 1, "points": 100, "bid": 264})
    assert keeper.totals == [0, -528, 0] and keeper.games[0].outcome.overbid


def test_revokes_follow_docs_rules_8_3():
    keeper = ScoreKeeper(["Ann", "Bob", "Cid"])
    keeper.add({"declarer": "Bob", "game": "hearts", "with": 1, "bid": 18, "revoke": "declarer"})  # 60: -2 x 20
    keeper.add({"declarer": "Cid", "game": "grand", "hand": True, "schneider_announced": True, "with": 1,
                "bid": 48, "revoke": "defenders"})  # credited 90: (1 + 1 + 1 + 1 + 1) x 24 = 120
    keeper.add({"declarer": "Ann", "game": "null", "bid": 23, "revoke": "defenders"})  # won +23
    assert keeper.totals == [23, -40, 120]


def test_five_players_the_dealer_and_the_third_after_him_sit_out():
    keeper = ScoreKeeper(["A", "B", "C", "D", "E"])
    with pytest.raises(KeeperError, match="D sits out in this game"):
        keeper.add({"declarer": "D", "game": "grand", "with": 1, "points": 80, "bid": 48})
    keeper.add({"declarer": "E", "game": "grand", "with": 1, "points": 80, "bid": 48})
    assert keeper.games[0].sheet.seats == (1, 2, 4)
    # E lost nothing; a lost game gives each of the other four 30 (D14)
    keeper.add({"declarer": "A", "game": "grand", "with": 1, "points": 50, "bid": 48})
    assert keeper.seeger_fabian == [-96 - 50, 30, 30, 30, 48 + 50 + 30]


def test_edit_and_strike_keep_history_and_totals_follow():
    keeper = three()
    keeper.edit(2, dict(THREE[1], points=70), author="Bob", at="2025-01-01T21:00:00+00:00")
    # Cid's hearts now won: +30 instead of -60
    assert keeper.totals == [9, 96, -24]
    keeper.strike(1, author="Cid", at="2025-01-01T21:05:00+00:00", reason="misdeal")
    assert keeper.totals == [9, 0, -24]
    assert keeper.games[0].struck and keeper.games[0].sheet is None
    # the dealer still passes on: game 2 is dealt by Ann now that game 1 is struck
    assert keeper.games[1].sheet.dealer == 0
    history = keeper.history(1)
    assert [(c.action, c.author) for c in history] == [("add", "Ann"), ("strike", "Cid")]
    assert history[1].reason == "misdeal"
    assert [c.action for c in keeper.history(2)] == ["add", "edit"] and keeper.history(2)[0].entry["points"] == 50
    keeper.restore(1, author="Ann")
    assert keeper.totals == [9, 96, -24]
    keeper.strike(3)
    assert "  3 struck: passed" in keeper.format_text()


def test_a_change_that_makes_a_later_entry_impossible_is_refused():
    keeper = ScoreKeeper(["Ann", "Bob", "Cid", "Dan"])
    keeper.add({"declarer": "Bob", "game": "grand", "with": 1, "points": 80, "bid": 48})  # Ann deals
    keeper.add({"declarer": "Ann", "game": "grand", "with": 1, "points": 80, "bid": 48})  # Bob deals
    with pytest.raises(KeeperError, match="game 2: Ann deals in this game"):
        keeper.strike(1)  # game 2 would be dealt by Ann
    assert not keeper.games[0].struck and keeper.totals == [48, 48, 0, 0]
    keeper.edit(2, {"declarer": "Ann", "dealer": "Bob", "game": "grand", "with": 1, "points": 80, "bid": 48})
    keeper.strike(1)  # with the dealer written down game 2 stays as it was
    assert keeper.totals == [48, 0, 0, 0]
    with pytest.raises(KeeperError, match="there is no game 7"):
        keeper.edit(7, {"declarer": "passed"})


def test_json_round_trip():
    keeper = three()
    keeper.strike(3, author="Cid", at="2025-01-01T22:00:00+00:00")
    data = keeper.to_json()
    again = ScoreKeeper.from_json(json.loads(json.dumps(data)))
    assert again.to_json() == data
    assert again.totals == keeper.totals and again.seeger_fabian == keeper.seeger_fabian
    assert again.history(3)[-1].action == "strike" and again.price == Fraction(1, 100)
    pub = ScoreKeeper(["A", "B", "C"], ScoreKeeper(["A", "B", "C"], "pub").rules.replace(schieberamsch=True))
    assert ScoreKeeper.from_json(pub.to_json()).rules == pub.rules
    assert pub.to_json()["options"] == {"schieberamsch": True}


SHEET_FILE = {
    "players": ["Ann", "Bob", "Cid"], "ruleset": "isko", "first_dealer": "Ann", "price": "0.01", "games": THREE,
}


def _run(tmp_path, capsys, data, *flags, name="games.json"):
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    status = main(["sheet", str(path), *flags])
    out = capsys.readouterr()
    return status, out.out, out.err


def test_the_command_prints_the_list(tmp_path, capsys):
    status, out, _ = _run(tmp_path, capsys, SHEET_FILE)
    assert status == 0
    lines = out.splitlines()
    assert lines[1].split()[:9] == ["#", "dealer", "declarer", "game", "matadors", "levels", "bid", "value", "entry"]
    assert "Seeger-Fabian" in out and "266" in out and "money at 0.01 a point" in out
    total = next(line for line in lines if line.startswith("total"))
    assert total.split()[1:] == ["9", "96", "-114"]


def test_the_command_prints_json_and_csv(tmp_path, capsys):
    status, out, _ = _run(tmp_path, capsys, SHEET_FILE, "--json")
    data = json.loads(out)
    assert status == 0 and data["totals"] == [9, 96, -114] and data["seeger_fabian"] == [89, 266, -174]
    assert data["games"][0]["explanation"].startswith("grand hand with 2")
    assert data["money"] == [0.12, 0.99, -1.11]
    status, out, _ = _run(tmp_path, capsys, SHEET_FILE, "--csv")
    rows = list(csv.reader(io.StringIO(out)))
    assert status == 0 and rows[0][:4] == ["#", "struck", "dealer", "declarer"]
    assert rows[1][:10] == ["1", "", "Ann", "Bob", "grand", "normal", "with 2", "48", "96", "yes"]
    assert rows[-2][-4:-1] == ["9", "96", "-114"]


def test_the_command_reads_yaml(tmp_path, capsys):
    yaml = pytest.importorskip("yaml")
    status, out, _ = _run(tmp_path, capsys, yaml.safe_dump(SHEET_FILE), "--json", name="games.yaml")
    assert status == 0 and json.loads(out)["totals"] == [9, 96, -114]


def test_the_command_refuses_a_bad_entry_with_status_2(tmp_path, capsys):
    bad = dict(SHEET_FILE, games=THREE[:2] + [{"declarer": "Bob", "game": "grand", "with": 5, "points": 80,
                                                "bid": 48}])
    status, out, err = _run(tmp_path, capsys, bad)
    assert status == 2 and out == ""
    assert "skat sheet: game 3: with 5 is impossible: grand has 4 matadors at most" in err
    status, _, err = _run(tmp_path, capsys, "{not json")
    assert status == 2 and "not valid JSON" in err


def test_the_example_of_docs_keeper_md_prints_what_the_page_shows(tmp_path, capsys):
    import re
    from pathlib import Path

    page = (Path(__file__).resolve().parents[1] / "docs" / "keeper.md").read_text(encoding="utf-8")
    example = re.search(r"```json\n(.*?)```", page, re.S).group(1)
    shown = re.search(r"`skat sheet` prints:\n\n```\n(.*?)```", page, re.S).group(1)
    status, out, _ = _run(tmp_path, capsys, example)
    assert status == 0 and out == shown


def test_a_list_with_a_limit_takes_that_many_games_and_no_more():
    keeper = ScoreKeeper(["Ann", "Bob", "Cid"], limit=2)
    keeper.add({"declarer": "Bob", "game": "grand", "with": 1, "points": 70, "bid": 18})
    assert not keeper.complete
    keeper.add({"declarer": "Cid", "game": "clubs", "with": 1, "points": 70, "bid": 18})
    assert keeper.complete and keeper.played == 2
    with pytest.raises(KeeperError, match="holds 2 games and has them all"):
        keeper.add({"declarer": "Ann", "game": "clubs", "with": 1, "points": 70, "bid": 18})
    assert len(keeper.games) == 2
    keeper.strike(1)
    keeper.add({"declarer": "Ann", "game": "clubs", "with": 1, "points": 70, "bid": 18})
    with pytest.raises(KeeperError, match="has them all"):
        keeper.restore(1)
    again = ScoreKeeper.from_json(keeper.to_json())
    assert again.limit == 2 and again.totals == keeper.totals
    with pytest.raises(KeeperError, match="holds 1 games, and 2 are entered"):
        ScoreKeeper.from_json({**keeper.to_json(), "limit": 1})
    for limit in (0, 1001, 10**12):  # a list holds 1 to MAX_ENTRIES games
        with pytest.raises(KeeperError, match=r"'limit' is the number of games the list holds \(1 to 1000\)"):
            ScoreKeeper(["Ann", "Bob", "Cid"], limit=limit)
    assert ScoreKeeper(["Ann", "Bob", "Cid"], limit=1000).limit == 1000
    assert keeper.sheet_json()["played"] == 2 and keeper.sheet_json()["limit"] == 2


def test_a_list_settles_against_the_average_or_pairwise():
    keeper = ScoreKeeper(["Ann", "Bob", "Cid"], settle="pairwise", price="0.10")
    keeper.add({"declarer": "Ann", "game": "diamonds", "without": 1, "result": "lost", "bid": 18})
    keeper.add({"declarer": "Ann", "game": "grand", "with": 1, "points": 61, "bid": 18})
    # by hand: diamonds without 1, play 2 x 9 = 18, lost doubled: -36; grand with 1, play 2 x 24 = +48.
    # Totals 12, 0, 0, average 4: against the average +8, -4, -4; pairwise (everybody with everybody,
    # docs/rules.md 10.4: n = 3 times that) +24, -12, -12; at 0.10 a point 2.40, -1.20, -1.20
    assert keeper.totals == [12, 0, 0] and keeper.settlement == [8, -4, -4]
    assert keeper.balance == [24, -12, -12]
    assert keeper.money == [Fraction(12, 5), Fraction(-6, 5), Fraction(-6, 5)]
    again = ScoreKeeper.from_json(keeper.to_json())
    assert again.settle == "pairwise" and again.to_json()["settle"] == "pairwise" and again.balance == keeper.balance
    assert keeper.to_json()["price"] == "0.1" and keeper.sheet_json()["price"] == "0.1"  # as people write it
    assert ScoreKeeper(["Ann", "Bob", "Cid"], price="1/3").to_json()["price"] == "1/3"
    assert "pairwise" in keeper.format_text()
    assert keeper.sheet_json()["balance"] == [24, -12, -12] and keeper.sheet_json()["money"] == [2.4, -1.2, -1.2]
    average = ScoreKeeper(["Ann", "Bob", "Cid"])
    assert average.sheet_json()["settle"] == "average" and "settle" not in average.to_json()
    with pytest.raises(KeeperError, match="'settle' is 'average'"):
        ScoreKeeper(["Ann", "Bob", "Cid"], settle="each")


def test_a_grand_hand_instead_of_the_ramsch_has_no_bid_and_the_same_dealer_deals_again():
    keeper = ScoreKeeper(["Ann", "Bob", "Cid"], "pub")  # all pass: Ramsch, Grand Hand may be announced instead
    keeper.add({"declarer": "Bob", "game": "clubs", "with": 1, "points": 70, "bid": 18})  # Ann deals
    assert keeper.next_dealer() == "Bob"
    keeper.add({"declarer": "Cid", "game": "grand", "hand": True, "with": 1, "points": 70,
                "instead_of_ramsch": True})  # Bob deals; all passed and Cid played Grand Hand instead
    line = keeper.sheet_json()["games"][1]
    # by hand: grand hand with 1, play 3 x 24 = 72, no bid to reach
    assert line["value"] == 72 and line["scores"] == [0, 0, 72] and line["dealer"] == "Bob"
    assert "the same dealer deals again" in line["explanation"]
    assert keeper.next_dealer() == "Bob"  # docs/rules.md 6.4: Bob deals again
    keeper.add({"declarer": "ramsch", "ramsch": {"Cid": 50, "Ann": 40, "Bob": 30}})  # Bob deals, Cid forehand
    assert keeper.next_dealer() == "Cid"
    for entry, words in [
        ({"declarer": "Ann", "game": "grand", "hand": True, "with": 1, "points": 70, "bid": 24,
          "instead_of_ramsch": True}, "has no bid"),
        ({"declarer": "Ann", "game": "clubs", "hand": True, "with": 1, "points": 70, "instead_of_ramsch": True},
         "only a Grand Hand"),
        ({"declarer": "ramsch", "ramsch": {"Ann": 50, "Bob": 40, "Cid": 30}, "instead_of_ramsch": True},
         "belong to a declarer's game"),
    ]:
        with pytest.raises(KeeperError, match=words):
            keeper.add(entry)
    with pytest.raises(KeeperError, match="plays no Grand Hand instead of the Ramsch"):
        ScoreKeeper(["Ann", "Bob", "Cid"]).add({"declarer": "Bob", "game": "grand", "hand": True, "with": 1,
                                                 "points": 70, "instead_of_ramsch": True})
    again = ScoreKeeper.from_json(keeper.to_json())
    assert again.to_json()["games"][1]["instead_of_ramsch"] is True and again.totals == keeper.totals


def test_a_ramsch_may_be_entered_by_its_loser_alone():
    keeper = ScoreKeeper(["Ann", "Bob", "Cid"], "pub")
    keeper.add({"declarer": "ramsch", "ramsch": {"Bob": 62}})
    keeper.add({"declarer": "ramsch", "ramsch": {"Cid": 70}, "jungfrau": ["Ann"]})
    # by hand (Augenramsch, docs/rules.md 6.2): the loser pays his card points, doubled for a Jungfrau
    assert [g["scores"] for g in keeper.sheet_json()["games"]] == [[0, -62, 0], [0, 0, -140]]
    assert keeper.to_json()["games"][0]["ramsch"] == {"Bob": 62}  # kept as entered
    full = ScoreKeeper(["Ann", "Bob", "Cid"], "pub")
    full.add({"declarer": "ramsch", "ramsch": {"Ann": 30, "Bob": 62, "Cid": 28}})
    assert full.totals == [0, -62, 0]
    for entry, words in [({"ramsch": {"Cid": 40}}, "need not be the only one with most"),
                         ({"ramsch": {"Cid": 60}, "jungfrau": ["Ann"]}, "need not be the only one"),
                         ({"ramsch": {"Cid": 90}, "jungfrau": ["Ann", "Bob"]}, "made a Durchmarsch"),
                         ({"ramsch": {"Cid": 0}}, "1 to 120"),
                         ({"ramsch": {"Cid": 70}, "jungfrau": ["Cid"]}, "cannot be the loser")]:
        with pytest.raises(KeeperError, match=words):
            keeper.add({"declarer": "ramsch", **entry})
    assert len(keeper.games) == 2


def test_the_rounds_due_are_shown_as_they_run():
    keeper = ScoreKeeper(["Ann", "Bob", "Cid"], "pub")  # a game lost 60:60 starts a Bock round
    assert keeper.rounds_due() == {"current": "normal", "left": 0, "queued": []}
    keeper.add({"declarer": "Bob", "game": "clubs", "with": 1, "points": 60, "bid": 18})
    assert keeper.rounds_due() == {"current": "normal", "left": 0, "queued": ["bock"]}
    assert keeper.upcoming_round() == "bock"
    keeper.add({"declarer": "Cid", "game": "clubs", "with": 1, "points": 60, "bid": 18})  # in the Bock round, again
    assert keeper.rounds_due() == {"current": "bock", "left": 2, "queued": ["bock"]}
    assert keeper.sheet_json()["rounds_due"] == keeper.rounds_due()


def test_every_game_carries_its_reckoning_and_common_refusals_a_code():
    keeper = ScoreKeeper(["Ann", "Bob", "Cid"], "pub")
    keeper.add({"declarer": "Bob", "game": "grand", "hand": True, "with": 2, "points": 95, "bid": 48, "kontra": True})
    keeper.add({"declarer": "ramsch", "ramsch": {"Cid": 70}, "jungfrau": ["Ann"]})  # in the Bock round
    grand, ramsch = (g["reckoning"] for g in keeper.sheet_json()["games"])
    # by hand: (2 + 1 game + 1 hand + 1 schneider) x 24 = 120, won, x 2 for Kontra = +240
    assert grand["levels"] == [[2, "matadors"], [1, "game"], [1, "hand"], [1, "schneider"]]
    assert (grand["base"], grand["value"], grand["won"], grand["kontra"], grand["score"]) == (24, 120, True, 1, 240)
    assert grand["made"] == ["schneider"] and grand["by_declarer"] and grand["events"] == ["grand_hand_won"]
    # Cid took most, 70, x2 for Ann's Jungfrau: -140, doubled in the Bock round: -280
    assert ramsch["losers"] == ["Cid"] and ramsch["jungfrauen"] == ["Ann"] and ramsch["multiplier"] == 2
    assert ramsch["entry"] == {"Cid": -140} and ramsch["round_doubled"] and keeper.totals == [0, 240, -280]
    assert "-280 in a Bock round" in keeper.sheet_json()["games"][1]["explanation"]
    for entry, code, params in [
        ({"declarer": "Cid", "game": "clubs", "with": 1, "points": 130, "bid": 18}, "points_range", {"points": 130}),
        ({"declarer": "Cid", "game": "clubs", "schneider_announced": True, "with": 1, "points": 95, "bid": 18},
         "announce_needs_hand", {"level": "schneider"}),
        ({"declarer": "ramsch", "ramsch": {"Ann": 50, "Bob": 40, "Cid": 20}}, "ramsch_sum", {"total": 110}),
    ]:
        with pytest.raises(KeeperError) as refused:
            keeper.edit(2, entry) if entry["declarer"] == "ramsch" else keeper.add(entry)
        number = 2 if entry["declarer"] == "ramsch" else 3
        assert (refused.value.code, refused.value.params) == (code, {**params, "game": number})
        assert str(refused.value).startswith(f"game {number}: ")
    full = ScoreKeeper(["Ann", "Bob", "Cid"], limit=1)
    full.add({"declarer": "Bob", "game": "grand", "with": 1, "points": 70, "bid": 18})
    with pytest.raises(KeeperError) as refused:
        full.add({"declarer": "Cid", "game": "grand", "with": 1, "points": 70, "bid": 18})
    assert (refused.value.code, refused.value.params) == ("list_full", {"limit": 1})


def test_a_series_of_the_rules_vectors_games_scores_what_each_vector_says():
    """A 3-player list of every ISkO game-value case of the rules vectors (tests/data/vectors.json, each
    checked by hand in its "check"), entered as a keeper would (the declarer's cards, card points or won/lost):
    each entry is the vector's score and the totals are their sums."""
    from conftest import vectors

    cases = [c for c in vectors("game_value", ("isko2018",)) if "historical_game_kind" not in c["input"]]
    assert len(cases) >= 30
    players = ["Ann", "Bob", "Cid"]
    keeper = ScoreKeeper(players)
    totals = [0, 0, 0]
    for number, case in enumerate(cases, 1):
        given, want = case["input"], case["expected"]
        entry = {"declarer": players[number % 3], "game": given["game"], "hand": given["hand"],
                 "schneider_announced": given["schneider_announced"], "schwarz_announced": given["schwarz_announced"],
                 "ouvert": given["ouvert"], "bid": given["bid"]}
        if given["game"] == "null":
            entry["result"] = "won" if given["declarer_tricks"] == 0 else "lost"
        else:
            entry["cards"] = given["declarer_cards"]
            entry["points"] = given["declarer_card_points"]
            entry["schwarz"] = given["declarer_tricks"] in (0, 10)
        keeper.add(entry)
        line = keeper.sheet_json()["games"][-1]
        assert (line["value"], line["won"]) == (want["game_value"], want["won"]), case["id"]
        assert line["scores"][number % 3] == want["score"], (case["id"], case["check"], line["explanation"])
        totals[number % 3] += want["score"]
    assert keeper.totals == totals


@pytest.mark.parametrize("ruleset, players", [("pub", 4), ("pirate", 3), ("isko", 5)])
def test_games_added_one_by_one_give_the_list_a_full_recount_gives(ruleset, players):
    """An added game is scored from where the list stands (not by counting the whole list again): a long
    random evening comes out as the same list read back from its file (counted from the start)."""
    import random

    rng = random.Random(players)
    names = ["Ann", "Bob", "Cid", "Dan", "Eve"][:players]
    keeper = ScoreKeeper(names, ruleset)
    games = ["clubs", "spades", "hearts", "diamonds", "grand", "null"]
    while len(keeper.games) < 120:
        ramsch_now = keeper.upcoming_round() in ("ramsch", "schieber")
        if ramsch_now or (rng.random() < 0.1 and keeper.rules.all_pass == "ramsch"):
            entry = {"declarer": "ramsch", "ramsch": {rng.choice(names): rng.randint(41, 120)}}
        elif rng.random() < 0.05 and keeper.rules.all_pass != "ramsch":
            entry = {"declarer": "passed"}
        else:
            game = rng.choice(games)
            entry = {"declarer": rng.choice(names), "game": game, "bid": 18 if game != "null" else 23,
                     "hand": rng.random() < 0.2}
            if game == "null":
                entry["result"] = rng.choice(["won", "lost"])
            else:
                entry["with" if rng.random() < 0.6 else "without"] = rng.randint(1, 4)
                entry["points"] = rng.choice([30, 55, 60, 61, 75, 95])
        try:
            keeper.add(entry)
        except KeeperError:
            continue  # a declarer who deals, a Ramsch player not at the deal: the keeper refuses, as at a table
    counted = ScoreKeeper.from_json(keeper.to_json())
    assert counted.sheet_json() == keeper.sheet_json()
    assert counted.upcoming_round() == keeper.upcoming_round() and counted.next_dealer() == keeper.next_dealer()
    if ruleset != "isko":  # Bock, Ramsch and pirate rounds came up
        assert {g["round"] for g in keeper.sheet_json()["games"]} - {"normal"}
