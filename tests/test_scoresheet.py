"""Score sheet: classic list, Seeger-Fabian (docs/rules.md 5.2) and settlement (10.4), table and JSON."""

from __future__ import annotations

import json

import pytest

from skat.table.scoresheet import ScoreSheet, SheetEntry


def _entry(number, declarer, won, scores, dealer=0, game="clubs"):
    return SheetEntry(number=number, dealer=dealer, seats=(1, 2, 0), declarer=declarer, game=game, won=won,
                      scores=tuple(scores))


def test_classic_totals_add_up_entries():
    sheet = ScoreSheet(["A", "B", "C"])
    sheet.add(_entry(1, 0, True, [48, 0, 0]))
    sheet.add(_entry(2, 1, False, [0, -96, 0]))
    sheet.add(_entry(3, None, None, [0, 0, 0], game="passed"))
    assert sheet.totals == [48, -96, 0]
    assert sheet.games_won() == [1, 0, 0] and sheet.games_lost() == [0, 1, 0]


def test_seeger_fabian_three_table_bonus_40():
    sheet = ScoreSheet(["A", "B", "C"])
    sheet.add(_entry(1, 0, True, [48, 0, 0]))
    sheet.add(_entry(2, 1, False, [0, -96, 0]))
    # A: 48 + 50 + 40; B: -96 - 50; C: 40
    assert sheet.seeger_fabian == [138, -146, 40]


def test_seeger_fabian_four_table_dealer_included():
    sheet = ScoreSheet(["A", "B", "C", "D"])
    sheet.add(SheetEntry(number=1, dealer=0, seats=(1, 2, 3), declarer=1, game="grand", won=False,
                         scores=(0, -96, 0, 0)))
    assert sheet.seeger_fabian == [30, -146, 30, 30]  # the sitting-out dealer A gets 30 too


def test_passed_and_ramsch_carry_no_game_bonus():
    sheet = ScoreSheet(["A", "B", "C"])
    sheet.add(_entry(1, None, None, [0, 0, 0], game="passed"))
    sheet.add(_entry(2, None, None, [-50, 0, 0], game="ramsch"))
    assert sheet.seeger_fabian == sheet.totals == [-50, 0, 0]


def test_settlement_is_difference_from_average():
    sheet = ScoreSheet(["A", "B", "C", "D"])
    for i, total in enumerate([186, 42, 344, 116]):
        scores = [0, 0, 0, 0]
        scores[i] = total
        sheet.add(SheetEntry(number=i + 1, dealer=0, seats=(1, 2, 3), declarer=i, game="grand", won=True,
                             scores=tuple(scores)))
    assert sheet.settlement == [14, -130, 172, -56]
    assert sheet.pairwise_balance() == [56, -520, 688, -224]
    assert sum(sheet.settlement) == 0


def test_fractional_settlement_in_json_is_rounded():
    sheet = ScoreSheet(["A", "B", "C"])
    sheet.add(_entry(1, 0, True, [10, 0, 0]))
    data = sheet.to_json()
    assert data["settlement"] == [6.67, -3.33, -3.33]
    json.dumps(data)


def test_json_and_table_output():
    sheet = ScoreSheet(["Ann", "Bob", "Cid"])
    sheet.add(_entry(1, 0, True, [48, 0, 0], dealer=2))
    data = sheet.to_json()
    assert data["players"] == ["Ann", "Bob", "Cid"]
    game = data["games"][0]
    assert {k: game[k] for k in ("number", "dealer", "declarer", "game", "won", "scores")} == {
        "number": 1, "dealer": "Cid", "declarer": "Ann", "game": "clubs", "won": True, "scores": [48, 0, 0]}
    assert data["totals"] == [48, 0, 0] and data["seeger_fabian"] == [98, 0, 0]
    text = sheet.format_table()
    assert "Ann" in text and "Seeger-Fabian" in text and "settlement" in text and "48" in text


def test_bad_sheets_are_refused():
    with pytest.raises(ValueError, match="3, 4 or 5"):
        ScoreSheet(["A", "B"])
    with pytest.raises(ValueError, match="differ"):
        ScoreSheet(["A", "A", "B"])
    sheet = ScoreSheet(["A", "B", "C"])
    with pytest.raises(ValueError, match="scores"):
        sheet.add(_entry(1, 0, True, [1, 2]))
