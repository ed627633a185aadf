"""The printed list says each game as players write it (issue 32): the four Null games (Null 23, Null Hand 35,
Null Ouvert 46, Null Ouvert Hand 59) with their own levels, a struck game in the list's language, an overbid
game marked. The PDF is read back with pdftotext, as in tests/test_printing.py."""

from __future__ import annotations

import re

import pytest

from skat.table.keeper import GameEntry, ScoreKeeper, entry_words, levels_text
from skat.table.printing import table_list_pdf
from test_printing import text_of

AT = "2025-01-01T20:00:00+00:00"
NULLS = [  # hand, ouvert, value, the levels column in English and German
    (False, False, 23, "", ""),
    (True, False, 35, "hand", "Hand"),
    (False, True, 46, "ouvert", "Ouvert"),
    (True, True, 59, "hand ouvert", "Hand Ouvert"),
]


def null_list() -> ScoreKeeper:
    k = ScoreKeeper(["Anna", "Bert", "Carla"], "isko")
    for i, (hand, ouvert, _, _, _) in enumerate(NULLS):
        k.add({"declarer": ["Bert", "Carla", "Anna"][i % 3], "game": "null", "hand": hand, "ouvert": ouvert,
               "result": "won", "bid": 18}, at=AT)
    k.add({"declarer": "Carla", "game": "clubs", "with": 1, "points": 70, "bid": 36}, at=AT)  # overbid: 24 < 36
    k.add({"declarer": "Anna", "game": "null", "ouvert": True, "result": "lost", "bid": 18}, at=AT)
    k.strike(6, at=AT, reason="wrong table")
    return k


def rows(text: str) -> dict[int, str]:
    return {int(m[1]): m[0] for m in re.finditer(r"^ *(\d+) .*$", text, re.M)}


def test_the_levels_of_the_four_nulls_and_of_a_suit_ouvert():
    for hand, ouvert, _, english, _ in NULLS:
        e = GameEntry.from_json({"declarer": "Bert", "game": "null", "hand": hand, "ouvert": ouvert})
        assert levels_text(e, None) == english
        assert entry_words(e) == " ".join(w for w in ("Bert null", english) if w)
    # a suit or grand ouvert is always hand
    assert levels_text(GameEntry.from_json({"declarer": "Bert", "game": "grand", "ouvert": True}), None) == "hand ouvert"
    k = null_list()
    for kept, (_, _, value, english, _) in zip(k.games, NULLS):
        assert kept.sheet is not None and kept.sheet.value == value
        assert levels_text(kept.entry, kept.outcome) == english


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_printed_list_names_each_null_as_it_was_played(lang, tmp_path):
    pdf = table_list_pdf(null_list(), title="Nulls", lang=lang)
    (tmp_path / f"nulls-{lang}.pdf").write_bytes(pdf)
    text = text_of(pdf)
    print(text)
    printed = rows(text)
    null = "null" if lang == "en" else "Null"
    for number, (_, _, value, english, german) in enumerate(NULLS, 1):
        cells = printed[number].split()
        assert null in cells and str(value) in cells and f"+{value}" in cells, printed[number]
        levels = english if lang == "en" else german
        after = printed[number].split(null, 1)[1]
        words = [w for w in after.split() if not re.fullmatch(r"[+−-]?\d+", w)]
        assert " ".join(words) == levels, (printed[number], levels)
    # the overbid game: bid 36, value 24, lost at 3 x 12 = 36, doubled
    assert re.search(r"clubs +with 1 +overbid +36 +24 +-72" if lang == "en" else r"Kreuz +mit 1 +überreizt +36 +24 +-72",
                     printed[5]), printed[5]
    # the struck Null Ouvert in the list's words
    assert ("Anna null ouvert" if lang == "en" else "Anna Null Ouvert") in printed[6], printed[6]
    assert "Hand" not in printed[6] and "hand" not in printed[6]
