"""The printed lists and rankings (skat.table.printing): PDFs read back with pdftotext, the CSV with csv."""

from __future__ import annotations

import csv
import io
import os
import re
import shutil
import subprocess

import pytest

from skat.table.keeper import ScoreKeeper
from skat.table.printing import ranking_csv, ranking_pdf, series_tables_pdf, table_list_pdf
from skat.table.tournament import Tournament, TournamentError

AT = "2025-01-01T20:00:00+00:00"
GERMAN, RUSSIAN = "Jürgen Weiß", "Мария Иванова"


def text_of(pdf: bytes, *, layout: bool = True) -> str:
    """The PDF's text by Debian's pdftotext (poppler-utils; .ci/run installs it)."""
    assert pdf.startswith(b"%PDF-")
    if shutil.which("pdftotext") is None:
        if os.environ.get("CI"):
            pytest.fail("pdftotext is missing: install poppler-utils")
        pytest.skip("pdftotext is missing (apt-get install poppler-utils)")
    args = ["pdftotext", "-enc", "UTF-8"] + (["-layout"] if layout else []) + ["-", "-"]
    return subprocess.run(args, input=pdf, capture_output=True, check=True, timeout=30).stdout.decode()


def four_table() -> ScoreKeeper:
    k = ScoreKeeper([GERMAN, RUSSIAN, "Bob", "Ann"], "isko", limit=48)
    for g in ({"declarer": RUSSIAN, "game": "grand", "hand": True, "with": 2, "points": 78},  # 4 x 24 = 96
              {"declarer": "Bob", "game": "clubs", "with": 1, "points": 50},  # lost: -48
              {"declarer": "Ann", "game": "null", "result": "won", "bid": 23},  # struck: it does not count
              {"declarer": "Ann", "game": "hearts", "without": 2, "points": 95, "schneider": True}):  # 4 x 10 = 40
        k.add({"bid": 18, **g}, author="tester", at=AT)
        if len(k.games) == 3:
            k.strike(3, at=AT)
    return k


def test_a_filled_list_prints_names_values_and_totals_as_the_sheet_gives_them():
    k = four_table()
    sheet = k.sheet_json()
    text = text_of(table_list_pdf(k, title="Club cup — series 1, table 1"))
    assert "Club cup — series 1, table 1" in text and "isko2018" in text
    assert GERMAN in text and RUSSIAN in text  # umlaut, ß and Cyrillic in the embedded font
    rows = {int(m.group(1)): m.group(0) for m in re.finditer(r"^ *(\d+) .*$", text, re.M)}
    for line in sheet["games"]:
        row = rows[line["number"]]
        if line["struck"]:
            assert "struck" in row
            continue
        assert line["game"] in row and str(line["value"]) in row.split()
        declarer_score = line["scores"][k.players.index(line["declarer"])]
        assert f"{declarer_score:+d}" in row.split()
        declarer_total = line["totals"][k.players.index(line["declarer"])]
        assert row.split()[-1] == str(declarer_total)  # the running total in the declarer's column
    assert "schneider" in rows[4] and "hand" in rows[1] and "without 2" in rows[4]

    def summary(label: str) -> list[str]:
        return re.search(rf"^ *{label} +(.*)$", text, re.M).group(1).split()
    assert summary("total") == [str(x) for x in sheet["totals"]] == ["0", "96", "-48", "40"]
    assert summary("Seeger-Fabian") == [str(x) for x in sheet["seeger_fabian"]] == ["30", "176", "-98", "120"]
    assert summary("games won") == ["0", "1", "0", "1"] and summary("games lost") == ["0", "0", "1", "0"]
    assert summary("games lost by the others") == ["1", "1", "0", "1"]
    assert "Signatures" in text


def numbered_rows(text: str) -> list[int]:
    """The numbers of the rows that hold nothing but their number (a blank list's rows)."""
    return [int(m.group(1)) for m in re.finditer(r"^ *(\d+) *$", text, re.M)]


def test_a_blank_list_has_its_numbered_rows_and_a_signature_line_per_player():
    blank = ScoreKeeper([GERMAN, RUSSIAN, "Bob"], "isko", limit=36)
    text = text_of(table_list_pdf(blank, title="series 2, table 3"))
    assert numbered_rows(text) == list(range(1, 37))  # the keeper's limit
    assert GERMAN in text and RUSSIAN in text
    assert re.search(r"^ *points *$", text, re.M) and re.search(r"^ *Seeger-Fabian *$", text, re.M)
    signatures = text[text.index("Signatures"):]
    assert all(f"{name}:" in signatures for name in blank.players)
    assert numbered_rows(text_of(table_list_pdf(blank, blank_rows=10))) == list(range(1, 11))
    # a list in progress with rows to go on with: the blank rows follow its games
    assert numbered_rows(text_of(table_list_pdf(four_table(), blank_rows=3))) == [5, 6, 7]
    with pytest.raises(TournamentError, match="blank_rows"):
        table_list_pdf(blank, blank_rows=-1)


def tournament() -> Tournament:
    t = Tournament(["Anna", GERMAN, RUSSIAN, "=Kurt", "Eva", "Frank", "Gerda"], name="Pokal")
    t.add_series([["Anna", GERMAN, RUSSIAN, "=Kurt"], ["Eva", "Frank", "Gerda"]])
    k1, k2 = t.table_keeper(1, 1), t.table_keeper(1, 2)
    # 4-table, Anna deals first and sits out
    k1.add({"declarer": GERMAN, "game": "grand", "with": 1, "points": 70, "bid": 18}, at=AT)   # 98
    k1.add({"declarer": RUSSIAN, "game": "spades", "with": 1, "points": 40, "bid": 18}, at=AT)  # -94; others +30
    k2.add({"declarer": "Frank", "game": "clubs", "with": 1, "points": 70, "bid": 18}, at=AT)  # 74
    t.record(1, 1, k1)
    t.record(1, 2, k2)
    t.draw_series(by_ranking=True)  # series 2: no list yet
    return t


def test_the_ranking_pdf_lists_the_players_in_rank_order_with_their_points():
    t = tournament()
    ranking = t.ranking()
    assert [(s.player, s.points) for s in ranking][:3] == [(GERMAN, 128), ("Frank", 74), ("Anna", 30)]
    text = text_of(ranking_pdf(t))
    assert "Pokal — ranking" in text and "2 of 4 lists handed in" in text
    lines = [line.split() for line in text.splitlines()]
    rows = [ln for ln in lines if ln and ln[0].isdigit()]
    assert [int(r[0]) for r in rows] == [s.rank for s in ranking]
    for row, s in zip(rows, ranking, strict=True):
        assert " ".join(row).startswith(f"{s.rank} {s.player} {s.points} {s.won} {s.lost}")
    assert "Cup" in text_of(ranking_pdf(t, title="Cup"))


def test_the_ranking_csv():
    t = tournament()
    t.withdraw("Gerda")
    text = ranking_csv(t)
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0] == ["rank", "player", "points", "won", "lost", "series 1", "series 2", "withdrawn"]
    body = rows[1:]
    assert [r[1] for r in body] == [s.player if s.player != "=Kurt" else "'=Kurt" for s in t.ranking()]
    assert body[0] == ["1", GERMAN, "128", "1", "0", "128", "", ""]
    assert body[2:4] == [["3", "Anna", "30", "0", "0", "30", "", ""], ["3", "'=Kurt", "30", "0", "0", "30", "", ""]]
    assert body[-1] == ["7", RUSSIAN, "-94", "0", "1", "-94", "", ""]  # a negative number stays a number
    assert next(r for r in body if r[1] == "Gerda")[-1] == "yes"
    assert "'=Kurt" in text  # a formula guard, as the server's sheet.csv writes names


def test_all_lists_of_a_series_in_one_pdf():
    t = tournament()
    filled = text_of(series_tables_pdf(t, 1, blank=False), layout=False)
    pages = [p for p in filled.split("\f") if p.strip()]
    assert [p.splitlines()[0] for p in pages] == ["Pokal — series 1 — table 1", "Pokal — series 1 — table 2"]
    assert "+48" in pages[0] and "-44" in pages[0] and "+24" in pages[1]  # the declarers' entries
    blank = text_of(series_tables_pdf(t, 1, blank=True))
    assert "+48" not in blank
    assert numbered_rows(blank) == list(range(1, 49)) + list(range(1, 37))  # 48 at the 4-table, 36 at the 3-table
    second = text_of(series_tables_pdf(t, 2, blank=False))  # no list handed in yet: blank lists
    assert "series 2 — table 2" in second and numbered_rows(second)[:3] == [1, 2, 3]
    with pytest.raises(TournamentError, match="no series 3"):
        series_tables_pdf(t, 3, blank=True)


def test_lists_and_rankings_print_in_german_and_russian():
    k = four_table()
    de = text_of(table_list_pdf(k, title="Vereinspokal", lang="de"))
    assert "Geber" in de and "Alleinspieler" in de and "Unterschriften" in de and "Seite 1" in de
    assert "Kreuz" in de and "ohne 2" in de and "Schneider" in de and "gestrichen" in de
    summary = re.search(r"^ *Summe +(.*)$", de, re.M).group(1).split()
    assert summary == [str(x) for x in k.sheet_json()["totals"]]  # the same numbers in every language
    ru = text_of(table_list_pdf(k, lang="ru"))
    assert "сдающий" in ru and "играющий" in ru and "Подписи" in ru and "гранд" in ru and "трефы" in ru
    t = Tournament([GERMAN, RUSSIAN, "Bob", "Ann", "Cid", "Dan", "Eve"], name="Pokal")
    t.add_series([[GERMAN, RUSSIAN, "Bob", "Ann"], ["Cid", "Dan", "Eve"]])
    t.record(1, 1, k)
    ranking = text_of(ranking_pdf(t, lang="de"))
    assert "Rangliste" in ranking and "Platz" in ranking and "Serie 1" in ranking
    assert "серия 1 — стол 2" in text_of(series_tables_pdf(t, 1, blank=True, lang="ru"))
    with pytest.raises(ValueError, match="speaks en, de, ru"):
        table_list_pdf(k, lang="fr")
    assert ranking_csv(t).startswith("rank,player")  # the CSV keeps its English column names
