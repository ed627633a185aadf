"""Polish and Korean everywhere (issue 32): the pages' catalogs (src/skat/web/static/i18n/pl.json, ko.json) have
every text English has, in the plural forms of their language, with English's placeholders, and no English left
in them; every list of languages (text.js, the language pickers of the pages, the printed lists, ``skat
tournament --lang``) has both; the glossary (docs/glossary.md) says the terms the catalogs use; the printed
lists speak Polish and Korean, with Hangul in the Hangul font the package ships (NanumSquare, its licence
beside it) on a Korean list and for a name in Hangul on any list. The pages themselves in Chromium:
tests/test_web_languages.py."""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from skat.table import printing
from skat.table.keeper import ScoreKeeper
from skat.table.printing import ranking_pdf, series_tables_pdf, table_list_pdf
from skat.table.tournament import Tournament
from test_server_support import missing

ROOT = Path(__file__).resolve().parent.parent
STATIC = ROOT / "src" / "skat" / "web" / "static"
LANGUAGES = ("en", "de", "ru", "pl", "ko")
NATIVE = {"en": "English", "de": "Deutsch", "ru": "Русский", "pl": "Polski", "ko": "한국어"}
NEW = ("pl", "ko")
#: the plural forms each language picks for whole numbers (CLDR, as Intl.PluralRules gives them to the pages)
PLURALS = {"pl": {"one", "few", "many", "other"}, "ko": {"other"}}
AT = "2025-01-01T20:00:00+00:00"


def catalog(lang: str) -> dict:
    return json.loads((STATIC / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))


def forms(text) -> list[str]:
    return list(text.values()) if isinstance(text, dict) else [text]


def placeholders(text) -> set[str]:
    return {m for t in forms(text) for m in re.findall(r"\{(\w+)\}", t)}


def everything(lang: str) -> list[str]:
    """Every text of a language: the catalog's and the printed lists' words."""
    return [t for section in catalog(lang).values() for text in section.values() for t in forms(text)] + \
        list(printing._WORDS[lang].values())


# ---------------------------------------------------------------------- the languages' lists
def test_every_list_of_languages_has_polish_and_korean():
    text_js = (STATIC / "text.js").read_text(encoding="utf-8")
    listed = re.search(r"export const LANGUAGES = /\*\* @type \{const\} \*/ \((\[[^\]]*\])\)", text_js)
    assert listed and tuple(json.loads(listed.group(1))) == LANGUAGES
    lang_js = (STATIC / "lang.js").read_text(encoding="utf-8")
    for lang in LANGUAGES:
        assert f'import {lang} from "./i18n/{lang}.json" with {{ type: "json" }};' in lang_js, lang
    assert sorted(p.stem for p in (STATIC / "i18n").glob("*.json")) == sorted(LANGUAGES)
    assert printing.LANGUAGES == LANGUAGES
    for page, select in (("index.html", "sel-lang"), ("keeper.html", "k-lang"), ("tournament.html", "tn-lang"),
                         ("officers.html", "o-lang")):
        html = (STATIC / page).read_text(encoding="utf-8")
        picker = re.search(rf'<select id="{select}"[^>]*>(.*?)</select>', html, re.S)
        assert picker, page
        options = re.findall(r'<option value="(\w+)">([^<]+)</option>', picker.group(1))
        assert options == [(lang, NATIVE[lang]) for lang in LANGUAGES], page  # each in its own language


def test_skat_tournament_prints_in_every_language():
    from skat.commands.tournament import add_arguments

    parser = argparse.ArgumentParser()
    add_arguments(parser)
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction)).choices
    for command in ("ranking", "lists"):
        lang = next(a for a in commands[command]._actions if a.dest == "lang")
        assert tuple(lang.choices) == LANGUAGES, command


def test_the_server_prints_lists_in_every_language():
    from skat.server.keeper import print_language
    from skat.server.tables import TableError

    assert [print_language(lang) for lang in LANGUAGES] == list(LANGUAGES)
    with pytest.raises(TableError, match="en, de, ru, pl, ko"):
        print_language("fr")


# ---------------------------------------------------------------------- the catalogs
@pytest.mark.parametrize("lang", NEW)
def test_the_catalog_has_every_text_english_has_and_no_other(lang):
    en, own = catalog("en"), catalog(lang)
    assert list(own) == list(en)
    for section in en:
        missing = [k for k in en[section] if k not in own[section]]
        extra = [k for k in own[section] if k not in en[section]]
        assert (missing, extra) == ([], []), f"{lang}.json, section {section}: missing {missing}, extra {extra}"
    # written as en.json is (two spaces, UTF-8 letters, the keys in English's order): a diff reads line by line
    assert (STATIC / "i18n" / f"{lang}.json").read_text(encoding="utf-8") == \
        json.dumps({s: {k: own[s][k] for k in en[s]} for s in en}, indent=2, ensure_ascii=False) + "\n"


@pytest.mark.parametrize("lang", NEW)
def test_plural_forms_and_placeholders(lang):
    en, own = catalog("en"), catalog(lang)
    for section in en:
        for key, text in own[section].items():
            where = f"{lang} {section}.{key}"
            if isinstance(text, dict):
                assert "other" in text and set(text) <= PLURALS[lang], f"{where}: forms {sorted(text)}"
                if lang == "pl" and len(text) > 1:
                    assert set(text) == PLURALS["pl"], f"{where}: Polish counts need one, few and many"
            else:
                assert isinstance(text, str), where
            # no placeholder English lacks (a sentence may say a number without repeating it, as German does)
            assert placeholders(text) <= placeholders(en[section][key]), where
            assert all(t.strip() == t or key in ("conceded", "resigned") for t in forms(text) if t), where


#: Latin words a Korean text may have: no Korean word exists for them (names, abbreviations, formats, keys,
#: the Tournee's German call)
LATIN_IN_KOREAN = {"ISkO", "ISS", "JSON", "CSV", "PDF", "Seeger", "Fabian", "Enter", "Esc", "OB", "passt", "mir", "nicht",
                   "S", "B", "H", "P", "L", "N", "A", "K", "Q", "J", "R", "isko2018"}
#: Polish texts that are the English ones: the German Skat words Polish players say, names and symbols
SAME_IN_POLISH = {"Skat", "Menu", "Grand", "Null", "Hand", "Ouvert", "Schneider", "Schwarz", "Kontra", "Re", "Solo",
                  "Gucki", "Tournee", "Grand Tournee", "Grand Solo", "Grand Ouvert", "Null Ouvert", "Jungfrau",
                  "Schieberamsch", "Seeger-Fabian", "Kontra/Re", "Kontra / Re", "OK", "Bock", "Ranking",
                  "Ranking (PDF)", "Ranking (CSV)", "Start", "Durchmarsch"}


def test_no_english_is_left_in_korean():
    for text in everything("ko"):
        for word in re.findall(r"[A-Za-z][A-Za-z0-9]*", re.sub(r"\{\w+\}|</?b>", "", text)):
            assert word in LATIN_IN_KOREAN, f"{word!r} in {text!r}"


def test_no_english_is_left_in_polish():
    en = catalog("en")
    pl = catalog("pl")
    for section in en:
        for key, text in en[section].items():
            if key not in pl[section]:
                continue  # a missing text: test_the_catalog_has_every_text_english_has_and_no_other
            for english, polish in zip(forms(text), forms(pl[section][key]), strict=False):
                if english == polish and re.search(r"[^\W\d_]{2,}", re.sub(r"\{\w+\}", "", english)):
                    assert english in SAME_IN_POLISH, f"pl {section}.{key} is English: {english!r}"


def test_the_korean_texts_name_a_player_without_a_particle_that_depends_on_the_name():
    """이/가, 은/는, 을/를 and 과/와 agree with the name's last syllable, which the text cannot know: after
    {who} or {name} comes 의, a colon, a space and a noun, or the "(이)" spelling that reads either way."""
    for text in everything("ko"):
        for m in re.finditer(r"\{(who|name|names)\}(이|가|은|는|을|를|과|와)(?![(])", text):
            pytest.fail(f"{m.group(0)!r} in {text!r}")


def test_the_korean_lessons_put_no_particle_after_a_card_suit_or_number():
    """Learn Skat's texts fill in cards ("클럽 9"), suits and numbers, whose last syllable decides 을/를, 이/가,
    은/는, 과/와 and (으)로 as much as a name's does: a particle never follows a placeholder there."""
    for key, text in catalog("ko")["learn"].items():
        for form in ([text] if isinstance(text, str) else text.values()):
            for m in re.finditer(r"\{\w+\}(이|가|은|는|을|를|과|와|로|으로)(?![(])", form):
                pytest.fail(f"{key}: {m.group(0)!r} in {form!r}")


def test_the_polish_reader_is_addressed_in_the_verb_agreement_of_ty():
    """The texts name the declarer in the third person; when that is the reader ("Ty"), words.js's youForm puts
    the verb in the second person (tests/js/languages.test.js runs it)."""
    table = catalog("pl")["table"]
    assert table["you"] == "Ty"
    for key in ("resultTitle_won", "resultTitle_lost", "why_won", "why_lost", "why_null_won", "why_null_lost",
                "why_overbid", "why_lost_announce", "durchmarsch"):
        verb = re.search(r"\{who\} (\w+)", table[key])
        assert verb and verb.group(1) in ("wygrywa", "przegrywa", "bierze"), key


# ---------------------------------------------------------------------- the glossary
def glossary_rows() -> list[dict[str, str]]:
    text = (ROOT / "docs" / "glossary.md").read_text(encoding="utf-8")
    lines = [line for line in text.splitlines() if line.startswith("| ") and not line.startswith("| ---")]
    head = [c.strip() for c in lines[0].strip("|").split("|")]
    return [dict(zip(head, (c.strip() for c in line.strip("|").split("|")), strict=True)) for line in lines[1:]]


def test_the_glossary_says_the_terms_the_catalogs_use():
    rows = glossary_rows()
    assert len(rows) >= 30
    for lang, column in (("pl", "Polish"), ("ko", "Korean")):
        said = " ".join(everything(lang)).lower()
        for row in rows:
            for term in re.split(r",|/", re.sub(r"\([^)]*\)", "", row[column])):
                term = term.strip().lower()
                if term:
                    assert term in said, f"the glossary's {column} {term!r} ({row['English']}) is in no {lang} text"


# ---------------------------------------------------------------------- the printed lists
def pdf_text(pdf: bytes) -> str:
    if shutil.which("pdftotext") is None:
        missing("pdftotext (poppler-utils)")  # fails in CI, where .ci/run installs it
    return subprocess.run(["pdftotext", "-enc", "UTF-8", "-layout", "-", "-"], input=pdf, capture_output=True,
                          check=True, timeout=30).stdout.decode()


def test_the_printed_words_are_there_in_polish_and_korean():
    printing._fonts()
    for lang in NEW:
        wanted = set(printing._WORDS["de"]) | set(printing._WORDS["ru"])
        missing = sorted(wanted - set(printing._WORDS[lang]))
        assert not missing, f"{lang}: {missing}"
        for english, words in printing._WORDS[lang].items():
            assert re.findall(r"\{\w+\}", english) == re.findall(r"\{\w+\}", words) or \
                set(re.findall(r"\{\w+\}", english)) == set(re.findall(r"\{\w+\}", words)), (lang, english)
            assert re.findall(r"</?b>", english) == re.findall(r"</?b>", words), (lang, english)
            assert all(printing._has(printing.FONT, ch) or printing._has(printing.HANGUL, ch) for ch in words), \
                (lang, words)  # every character prints in one of the shipped fonts


def test_hangul_prints_in_the_hangul_font_and_everything_else_in_dejavu():
    runs = printing._runs("김민준 Łukasz Żółć − Мария", printing.FONT)
    assert runs == [(printing.HANGUL, "김민준"), (printing.FONT, " Łukasz Żółć − Мария")]
    assert printing._runs("승리", printing.BOLD) == [(printing.HANGUL_BOLD, "승리")]
    assert printing._markup("<b>플레이어</b> (앉은 순서): Ann", printing.FONT) == \
        f'<b><font name="{printing.HANGUL_BOLD}">플레이어</font></b> (<font name="{printing.HANGUL}">앉은</font> ' \
        f'<font name="{printing.HANGUL}">순서</font>): Ann'
    assert printing._width("김", printing.FONT, 10) == pytest.approx(
        printing.pdfmetrics.stringWidth("김", printing.HANGUL, 10))


NAMES = ["Łukasz Żółć", "김민준", "Мария Иванова", "이서연"]


def four_table() -> ScoreKeeper:
    k = ScoreKeeper(NAMES, "isko", limit=48)
    for g in ({"declarer": NAMES[1], "game": "grand", "hand": True, "with": 2, "points": 78},
              {"declarer": NAMES[0], "game": "clubs", "with": 1, "points": 50},
              {"declarer": NAMES[3], "game": "null", "result": "won", "bid": 23},
              {"declarer": NAMES[3], "game": "hearts", "without": 2, "points": 95, "schneider": True}):
        k.add({"bid": 18, **g}, author="tester", at=AT)
        if len(k.games) == 3:
            k.strike(3, at=AT)
    return k


def embedded_fonts(pdf: bytes) -> set[str]:
    return {name.decode() for name in re.findall(rb"/BaseFont /[A-Z]{6}\+([\w-]+)", pdf)}


def test_a_korean_list_prints_in_korean_with_hangul_embedded():
    pdf = table_list_pdf(four_table(), title="클럽 컵 — 시리즈 1", lang="ko")
    assert embedded_fonts(pdf) == {"DejaVuSans", "DejaVuSans-Bold", "NanumSquareR", "NanumSquareB"}
    text = pdf_text(pdf)
    for words in ("클럽 컵 — 시리즈 1", "플레이어", "딜러", "선언자", "그랜드", "하트", "슈나이더", "2 있음", "2 없음",
                  "합계", "이긴 게임", "진 게임", "서명", "1쪽", *NAMES):
        assert words in text, words
    assert "declarer" not in text and "games won" not in text and "Signatures" not in text
    blank = pdf_text(table_list_pdf(ScoreKeeper(NAMES[:3], "isko", limit=36), lang="ko"))
    assert "스카트 점수표" in blank and "서명 (점수표가 맞음)" in blank


def test_a_polish_list_prints_in_polish():
    text = pdf_text(table_list_pdf(four_table(), title="Puchar klubu", lang="pl"))
    for words in ("Gracze", "rozdający", "solista", "grand", "kier", "Schneider", "z 2", "bez 2", "suma",
                  "wygrane gry", "przegrane gry", "Podpisy", "strona 1", "skreślona", *NAMES):
        assert words in text, words
    assert "declarer" not in text and "Signatures" not in text


def test_a_name_in_hangul_prints_on_a_list_in_any_language():
    for lang in ("en", "de", "ru", "pl"):
        pdf = table_list_pdf(four_table(), title="Cup", lang=lang)
        assert {"NanumSquareR"} <= embedded_fonts(pdf), lang
        text = pdf_text(pdf)
        assert all(name in text for name in NAMES), lang
    latin = table_list_pdf(ScoreKeeper(["Ann", "Bob", "Cid"], "isko", limit=36), title="Cup")
    assert not any(f.startswith("Nanum") for f in embedded_fonts(latin))  # only where a text needs it


def test_a_tournament_prints_its_ranking_and_series_in_polish_and_korean():
    t = Tournament(["김민준", "이서연", "박지호", "Łucja", "Bartosz", "Zofia", "Мария"], ruleset="isko2018",
                   name="클럽 토너먼트")
    t.draw_series(seed=3)
    for lang, words in (("ko", ("순위", "플레이어", "시리즈 1", "테이블 1", "선언자")),
                        ("pl", ("ranking", "gracz", "seria 1", "stolik 1", "solista"))):
        ranking = pdf_text(ranking_pdf(t, lang=lang))
        lists = pdf_text(series_tables_pdf(t, 1, blank=True, lang=lang))
        assert words[0] in ranking and words[1] in ranking and words[2] in ranking, (lang, ranking)
        assert words[3] in lists and words[4] in lists, (lang, lists)
        assert "김민준" in ranking and "Łucja" in ranking and "클럽 토너먼트" in ranking


def test_the_hangul_font_ships_with_its_licence():
    fonts = ROOT / "src" / "skat" / "table" / "fonts"
    sizes = {f.name: f.stat().st_size for f in fonts.glob("Nanum*.ttf")}
    assert set(sizes) == {"NanumSquareR.ttf", "NanumSquareB.ttf"} and sum(sizes.values()) < 2_000_000
    for name in sizes:
        assert (fonts / name).read_bytes()[:4] == b"\x00\x01\x00\x00"  # TrueType outlines (ReportLab embeds no CFF)
    licence = (fonts / "LICENSE-NanumSquare").read_text(encoding="utf-8")
    assert "SIL Open Font License, Version 1.1" in licence and "NAVER Corporation" in licence
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert '"src/skat/table/fonts/LICENSE-NanumSquare"' in pyproject and "OFL-1.1" in pyproject
