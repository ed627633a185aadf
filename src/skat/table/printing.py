"""Printing a tournament: table lists and rankings as PDF (A4 landscape, ReportLab), the ranking as CSV.

* :func:`table_list_pdf` prints one table's list as players keep it: a header (title, players in seat
  order, rule set, games), a row per game (number, dealer, declarer, game, with/without, levels, bid,
  value, the declarer's entry, the running totals; struck games struck through), then the totals, won
  and lost games, the games the others lost and the Seeger-Fabian points. A list without games prints
  blank, with numbered rows to fill in by hand and a signature line per player.
* :func:`series_tables_pdf` prints every table of one series in one PDF, blank or as handed in.
* :func:`ranking_pdf` and :func:`ranking_csv` print :meth:`skat.table.tournament.Tournament.ranking`.
* :func:`season_pdf` and :func:`season_csv` print a club's season (:meth:`skat.table.season.Season.ranking`).

Nothing is valued here: the values, totals and Seeger-Fabian points are those of
:meth:`skat.table.keeper.ScoreKeeper.sheet_json` and its games. The PDFs embed DejaVu Sans (shipped in
``skat/table/fonts``, Bitstream Vera licence) so that every name prints, umlauts, Polish letters and Cyrillic
included, and NanumSquare (``skat/table/fonts``, SIL Open Font License 1.1) for Hangul: the Korean words of a
Korean list and any name written in Hangul on any list. A character DejaVu Sans lacks prints in NanumSquare where
that has it (:func:`_runs`), in paragraphs, table cells and the footer alike.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Sequence
from contextvars import ContextVar
from importlib.resources import files
from typing import Any
from xml.sax.saxutils import escape

# reportlab has no types of its own, and its stubs (types-reportlab) are not among the project's dependencies
from reportlab.lib import colors  # type: ignore[import-untyped]
from reportlab.lib.pagesizes import A4, landscape  # type: ignore[import-untyped]
from reportlab.lib.styles import ParagraphStyle  # type: ignore[import-untyped]
from reportlab.lib.units import mm  # type: ignore[import-untyped]
from reportlab.pdfbase import pdfmetrics  # type: ignore[import-untyped]
from reportlab.pdfbase.ttfonts import TTFont  # type: ignore[import-untyped]
from reportlab.pdfgen.canvas import Canvas  # type: ignore[import-untyped]
from reportlab.platypus import (  # type: ignore[import-untyped]
    CondPageBreak,
    KeepTogether,
    PageBreak,
    SimpleDocTemplate,
    Spacer,
    Table,
    TableStyle,
)
from reportlab.platypus import Paragraph as _Paragraph

from skat.rules.ranking import GameType
from skat.table.keeper import ScoreKeeper, entry_words, levels_text
from skat.table.scoresheet import csv_cell
from skat.table.season import Season
from skat.table.tournament import Tournament, TournamentError

__all__ = ["table_list_pdf", "series_tables_pdf", "ranking_pdf", "ranking_csv", "season_pdf", "season_csv", "FONT", "BOLD", "HANGUL",
           "HANGUL_BOLD", "LANGUAGES"]

FONT, BOLD = "SkatSans", "SkatSans-Bold"
"""The names the embedded DejaVu Sans and DejaVu Sans Bold are registered under."""
HANGUL, HANGUL_BOLD = "SkatHangul", "SkatHangul-Bold"
"""The names the embedded NanumSquare Regular and Bold (Hangul) are registered under."""
_FALLBACK = {FONT: HANGUL, BOLD: HANGUL_BOLD}

PAGE = landscape(A4)
MARGIN = 12 * mm
WIDTH = PAGE[0] - 2 * MARGIN
GRID = colors.Color(0.55, 0.55, 0.55)
SHADE = colors.Color(0.92, 0.92, 0.92)

LANGUAGES = ("en", "de", "ru", "pl", "ko")
"""The languages a printed list or ranking speaks (the tables' languages)."""
_LANG: ContextVar[str] = ContextVar("skat_print_language", default="en")
_WORDS: dict[str, dict[str, str]] = {
    "de": {
        "page {n}": "Seite {n}", "dealer": "Geber", "declarer": "Alleinspieler", "game": "Spiel",
        "with/without": "mit/ohne", "levels": "Stufen", "bid": "Reiz", "value": "Wert", "entry": "Wertung",
        "Seeger-Fabian: +{won} for a game won, −{lost} for a game lost; each other player +{bonus} for a game "
        "lost at a table of {n}": "Seeger-Fabian: +{won} je gewonnenes Spiel, −{lost} je verlorenes; jeder andere "
        "Spieler +{bonus} je verlorenes Spiel am {n}er-Tisch",
        "<b>Players</b> (seat order, {first} deals first): {seats}":
            "<b>Spieler</b> (Sitzfolge, {first} gibt zuerst): {seats}",
        "{played} of {limit}": "{played} von {limit}",
        "<b>Rule set</b> {rules} · <b>games</b> {games}": "<b>Regeln</b> {rules} · <b>Spiele</b> {games}",
        "struck": "gestrichen", "points": "Punkte", "games won": "gewonnene Spiele", "games lost": "verlorene Spiele",
        "games lost by the others": "von den anderen verloren", "total": "Summe", "passed": "eingepasst",
        "{n} push": "{n}× geschoben", "{n} pushes": "{n}× geschoben", "lost": "verloren",
        "with {n}": "mit {n}", "without {n}": "ohne {n}",
        "<b>Signatures</b> (the list is right):": "<b>Unterschriften</b> (die Liste stimmt):",
        "series {n}": "Serie {n}", "table {n}": "Tisch {n}", "rank": "Platz", "player": "Spieler", "won": "gew.",
        "after {n} series · {handed} of {tables} lists handed in":
            "nach {n} Serie(n) · {handed} von {tables} Listen abgegeben",
        "lists in progress count as they stand": "laufende Listen zählen mit ihrem Stand",
        "ranking": "Rangliste", "withdrawn": "abgemeldet", "rule set {rules}": "Regeln {rules}",
        "Seeger-Fabian points; ties: more games won, fewer lost, the better series":
            "Seeger-Fabian-Punkte; bei Gleichstand: mehr gewonnene, weniger verlorene Spiele, die bessere Serie",
        "Skat list": "Skatliste", "grand": "Grand", "null": "Null", "clubs": "Kreuz", "spades": "Pik", "hearts": "Herz", "diamonds": "Karo",
        "hand": "Hand", "ouvert": "Ouvert", "schwarz ann.": "Schwarz angesagt", "schneider ann.": "Schneider angesagt",
        "schwarz": "Schwarz", "schneider": "Schneider", "overbid": "überreizt",
        "season ranking": "Jahreswertung", "evening {n}": "Abend {n}", "member": "Mitglied", "evenings": "Abende",
        "after {n} evenings": "nach {n} Spielabend(en)",
        "rule: the Seeger-Fabian points of every evening": "Wertung: die Seeger-Fabian-Punkte aller Spielabende",
        "rule: the Seeger-Fabian points of the best {n} of {m} evenings":
            "Wertung: die Seeger-Fabian-Punkte der besten {n} von {m} Spielabenden",
        "ties: more evenings played, then the better single evening":
            "bei Gleichstand: mehr Spielabende, dann der bessere einzelne Abend",
        "in brackets: not counted": "in Klammern: nicht gewertet",
        "evenings in progress count as they stand": "laufende Spielabende zählen mit ihrem Stand",
    },
    "ru": {
        "page {n}": "стр. {n}", "dealer": "сдающий", "declarer": "играющий", "game": "игра",
        "with/without": "с/без", "levels": "уровни", "bid": "заяв.", "value": "стоим.", "entry": "запись",
        "Seeger-Fabian: +{won} for a game won, −{lost} for a game lost; each other player +{bonus} for a game "
        "lost at a table of {n}": "Зегер-Фабиан: +{won} за выигранную игру, −{lost} за проигранную; каждому другому "
        "игроку +{bonus} за проигранную игру за столом на {n}",
        "<b>Players</b> (seat order, {first} deals first): {seats}":
            "<b>Игроки</b> (по местам, первым сдаёт {first}): {seats}",
        "{played} of {limit}": "{played} из {limit}",
        "<b>Rule set</b> {rules} · <b>games</b> {games}": "<b>Правила</b> {rules} · <b>игр</b> {games}",
        "struck": "вычеркнуто", "points": "очки", "games won": "выиграно", "games lost": "проиграно",
        "games lost by the others": "проиграно другими", "total": "итого", "Seeger-Fabian": "Зегер-Фабиан",
        "passed": "все спасовали", "Ramsch": "рамш", "{n} push": "передач: {n}", "{n} pushes": "передач: {n}",
        "Bock": "бок", "Kontra": "контра", "Re": "ре", "lost": "проиграна", "with {n}": "с {n}", "without {n}": "без {n}",
        "<b>Signatures</b> (the list is right):": "<b>Подписи</b> (запись верна):",
        "series {n}": "серия {n}", "table {n}": "стол {n}", "rank": "место", "player": "игрок", "won": "выигр.",
        "after {n} series · {handed} of {tables} lists handed in": "серий: {n} · сдано записей: {handed} из {tables}",
        "lists in progress count as they stand": "незаконченные записи учтены как есть",
        "ranking": "рейтинг", "withdrawn": "выбыл", "rule set {rules}": "правила {rules}",
        "Seeger-Fabian points; ties: more games won, fewer lost, the better series":
            "очки Зегера-Фабиана; при равенстве: больше выигранных, меньше проигранных, лучшая серия",
        "Skat list": "Запись ската", "clubs": "трефы", "spades": "пики", "hearts": "червы", "diamonds": "бубны",
        "grand": "гранд", "null": "нуль", "hand": "хенд", "ouvert": "открытая", "schwarz ann.": "шварц объявлен",
        "schneider ann.": "шнайдер объявлен", "schwarz": "шварц", "schneider": "шнайдер", "overbid": "перезаявлено",
        "season ranking": "годовой зачёт", "evening {n}": "вечер {n}", "member": "член клуба", "evenings": "вечеров",
        "after {n} evenings": "вечеров: {n}",
        "rule: the Seeger-Fabian points of every evening": "зачёт: очки Зегера-Фабиана всех вечеров",
        "rule: the Seeger-Fabian points of the best {n} of {m} evenings":
            "зачёт: очки Зегера-Фабиана лучших {n} из {m} вечеров",
        "ties: more evenings played, then the better single evening":
            "при равенстве: больше сыгранных вечеров, затем лучший отдельный вечер",
        "in brackets: not counted": "в скобках: не засчитано",
        "evenings in progress count as they stand": "незаконченные вечера учтены как есть",
    },
    "pl": {
        "page {n}": "strona {n}", "dealer": "rozdający", "declarer": "solista", "game": "gra",
        "with/without": "z/bez", "levels": "dodatki", "bid": "licyt.", "value": "wart.", "entry": "zapis",
        "Seeger-Fabian: +{won} for a game won, −{lost} for a game lost; each other player +{bonus} for a game "
        "lost at a table of {n}": "Seeger-Fabian: +{won} za wygraną grę, −{lost} za przegraną; każdy inny gracz "
        "+{bonus} za przegraną grę przy stoliku {n}-osobowym",
        "<b>Players</b> (seat order, {first} deals first): {seats}":
            "<b>Gracze</b> (kolejność miejsc, na początku rozdaje: {first}): {seats}",
        "{played} of {limit}": "{played} z {limit}",
        "<b>Rule set</b> {rules} · <b>games</b> {games}": "<b>Zasady</b> {rules} · <b>gry</b> {games}",
        "struck": "skreślona", "points": "punkty", "games won": "wygrane gry", "games lost": "przegrane gry",
        "games lost by the others": "przegrane przez innych", "total": "suma", "Seeger-Fabian": "Seeger-Fabian",
        "passed": "wszyscy pas", "Ramsch": "ramsz", "{n} push": "przesunięty {n}×", "{n} pushes": "przesunięty {n}×",
        "Bock": "bock", "Kontra": "kontra", "Re": "re", "lost": "przegrana", "with {n}": "z {n}",
        "without {n}": "bez {n}",
        "<b>Signatures</b> (the list is right):": "<b>Podpisy</b> (lista jest poprawna):",
        "series {n}": "seria {n}", "table {n}": "stolik {n}", "rank": "miejsce", "player": "gracz", "won": "wygr.",
        "after {n} series · {handed} of {tables} lists handed in":
            "po seriach: {n} · oddane listy: {handed} z {tables}",
        "lists in progress count as they stand": "niezakończone listy liczą się według stanu",
        "ranking": "ranking", "withdrawn": "poza turniejem", "rule set {rules}": "zasady {rules}",
        "Seeger-Fabian points; ties: more games won, fewer lost, the better series":
            "punkty Seeger-Fabian; przy remisie: więcej wygranych gier, mniej przegranych, lepsza seria",
        "Skat list": "Lista skatowa", "clubs": "trefl", "spades": "pik", "hearts": "kier", "diamonds": "karo",
        "grand": "grand", "null": "null", "hand": "hand", "ouvert": "ouvert", "schwarz ann.": "Schwarz zapow.",
        "schneider ann.": "Schneider zapow.", "schwarz": "Schwarz", "schneider": "Schneider",
        "overbid": "przelicytowana",
        "season ranking": "klasyfikacja sezonu", "evening {n}": "wieczór {n}", "member": "członek",
        "evenings": "wieczory", "after {n} evenings": "po wieczorach: {n}",
        "rule: the Seeger-Fabian points of every evening": "zasada: punkty Seeger-Fabian ze wszystkich wieczorów",
        "rule: the Seeger-Fabian points of the best {n} of {m} evenings":
            "zasada: punkty Seeger-Fabian z {n} najlepszych spośród {m} wieczorów",
        "ties: more evenings played, then the better single evening":
            "przy remisie: więcej rozegranych wieczorów, potem lepszy pojedynczy wieczór",
        "in brackets: not counted": "w nawiasach: nie liczone",
        "evenings in progress count as they stand": "trwające wieczory liczą się według stanu",
    },
    "ko": {
        "page {n}": "{n}쪽", "dealer": "딜러", "declarer": "선언자", "game": "게임",
        "with/without": "있음/없음", "levels": "추가", "bid": "비드", "value": "가치", "entry": "기록",
        "Seeger-Fabian: +{won} for a game won, −{lost} for a game lost; each other player +{bonus} for a game "
        "lost at a table of {n}": "Seeger-Fabian: 이긴 게임마다 +{won}, 진 게임마다 −{lost}; {n}인 테이블에서 "
        "진 게임마다 다른 플레이어 모두 +{bonus}",
        "<b>Players</b> (seat order, {first} deals first): {seats}":
            "<b>플레이어</b> (앉은 순서, 첫 딜러 {first}): {seats}",
        "{played} of {limit}": "{limit}판 중 {played}판",
        "<b>Rule set</b> {rules} · <b>games</b> {games}": "<b>규칙</b> {rules} · <b>게임</b> {games}",
        "struck": "취소됨", "points": "점수", "games won": "이긴 게임", "games lost": "진 게임",
        "games lost by the others": "다른 사람이 진 게임", "total": "합계", "Seeger-Fabian": "Seeger-Fabian",
        "passed": "모두 패스", "Ramsch": "람쉬", "{n} push": "{n}번 넘김", "{n} pushes": "{n}번 넘김",
        "Bock": "보크", "Kontra": "콘트라", "Re": "레", "lost": "패배", "with {n}": "{n} 있음",
        "without {n}": "{n} 없음",
        "<b>Signatures</b> (the list is right):": "<b>서명</b> (점수표가 맞음):",
        "series {n}": "시리즈 {n}", "table {n}": "테이블 {n}", "rank": "순위", "player": "플레이어", "won": "승",
        "after {n} series · {handed} of {tables} lists handed in":
            "시리즈 {n}회 후 · 점수표 {tables}장 중 {handed}장 제출",
        "lists in progress count as they stand": "진행 중인 점수표는 현재 상태로 계산",
        "ranking": "순위", "withdrawn": "기권", "rule set {rules}": "규칙 {rules}",
        "Seeger-Fabian points; ties: more games won, fewer lost, the better series":
            "Seeger-Fabian 점수; 동점이면: 이긴 게임이 많은 쪽, 진 게임이 적은 쪽, 더 나은 시리즈",
        "Skat list": "스카트 점수표", "clubs": "클럽", "spades": "스페이드", "hearts": "하트", "diamonds": "다이아몬드",
        "grand": "그랜드", "null": "널", "hand": "핸드", "ouvert": "우베르", "schwarz ann.": "슈바르츠 선언",
        "schneider ann.": "슈나이더 선언", "schwarz": "슈바르츠", "schneider": "슈나이더", "overbid": "오버비드",
        "season ranking": "시즌 순위", "evening {n}": "대회 {n}", "member": "회원", "evenings": "대회 수",
        "after {n} evenings": "대회 {n}회 후",
        "rule: the Seeger-Fabian points of every evening": "규칙: 모든 대회의 Seeger-Fabian 점수 합계",
        "rule: the Seeger-Fabian points of the best {n} of {m} evenings":
            "규칙: {m}회 대회 중 가장 좋은 {n}회의 Seeger-Fabian 점수",
        "ties: more evenings played, then the better single evening":
            "동점이면: 참가한 대회가 많은 쪽, 그다음 가장 좋은 한 대회",
        "in brackets: not counted": "괄호 안: 계산하지 않음",
        "evenings in progress count as they stand": "진행 중인 대회는 현재 상태로 계산",
    },
}
"""The printed words in German, Russian, Polish and Korean, by their English text (a word missing prints in English;
tests/test_languages.py checks that Polish and Korean miss none). The Skat terms: docs/glossary.md."""


class _language:
    """``with _language(lang):`` prints in ``lang`` (one of :data:`LANGUAGES`)."""

    def __init__(self, lang: str) -> None:
        if lang not in LANGUAGES:
            raise ValueError(f"a printed list speaks {', '.join(LANGUAGES)}, not {lang!r}")
        self.lang = lang

    def __enter__(self) -> None:
        self.token = _LANG.set(self.lang)

    def __exit__(self, *exc: Any) -> None:
        _LANG.reset(self.token)


def _w(text: str, **params: Any) -> str:
    """``text`` in the language being printed, its ``{name}`` places filled."""
    words = _WORDS.get(_LANG.get(), {}).get(text, text)
    return words.format(**params) if params else words


def _words(levels: str) -> str:
    """The levels column (:func:`skat.table.keeper.levels_text`, English words) in the language being printed."""
    if _LANG.get() == "en" or not levels:
        return levels
    for phrase in ("schwarz ann.", "schneider ann."):
        levels = levels.replace(phrase, phrase.replace(" ", "_"))
    return " ".join(_w(w.replace("_", " ")) for w in levels.split())


def _entry_words(e: Any) -> str:
    """A struck entry (:func:`skat.table.keeper.entry_words`, English words) in the language being printed."""
    if _LANG.get() == "en" or e.kind == "ramsch":
        return entry_words(e)
    if e.kind == "passed":
        return _w("passed")
    try:
        game = GameType.parse(e.game or "").label
    except ValueError:
        return entry_words(e)
    return " ".join(w for w in (str(e.declarer), _w(game), _words(levels_text(e, None))) if w)


def _fonts() -> None:
    """Register the shipped fonts once (ReportLab's standard fonts have no Cyrillic, DejaVu Sans has no Hangul)."""
    if HANGUL_BOLD in pdfmetrics.getRegisteredFontNames():
        return
    folder = files("skat.table") / "fonts"
    pdfmetrics.registerFont(TTFont(FONT, str(folder / "DejaVuSans.ttf")))
    pdfmetrics.registerFont(TTFont(BOLD, str(folder / "DejaVuSans-Bold.ttf")))
    pdfmetrics.registerFontFamily(FONT, normal=FONT, bold=BOLD, italic=FONT, boldItalic=BOLD)
    pdfmetrics.registerFont(TTFont(HANGUL, str(folder / "NanumSquareR.ttf")))
    pdfmetrics.registerFont(TTFont(HANGUL_BOLD, str(folder / "NanumSquareB.ttf")))
    pdfmetrics.registerFontFamily(HANGUL, normal=HANGUL, bold=HANGUL_BOLD, italic=HANGUL, boldItalic=HANGUL_BOLD)


def _has(font: str, ch: str) -> bool:
    """Whether the registered TrueType font ``font`` has a glyph for ``ch``."""
    return ord(ch) in pdfmetrics.getFont(font).face.charToGlyph


def _runs(text: str, font: str) -> list[tuple[str, str]]:
    """``text`` cut into (font, piece) runs: each character in ``font`` where it has the character (spaces always),
    else in the Hangul font where that has it (DejaVu Sans has no Hangul)."""
    _fonts()
    other = _FALLBACK.get(font)
    runs: list[tuple[str, str]] = []
    for ch in text:
        use = font if other is None or ch.isspace() or _has(font, ch) or not _has(other, ch) else other
        if runs and runs[-1][0] == use:
            runs[-1] = (use, runs[-1][1] + ch)
        else:
            runs.append((use, ch))
    return runs


def _width(text: str, font: str, size: float) -> float:
    """The printed width of ``text`` in points, Hangul measured in the font it prints in."""
    return sum(pdfmetrics.stringWidth(piece, f, size) for f, piece in _runs(text, font))


_TAG = re.compile(r"(<[^>]*>)")


def _markup(text: str, font: str) -> str:
    """Paragraph markup with each run the paragraph's font lacks set in the Hangul font (bold inside <b>)."""
    if text.isascii():
        return text
    bold = 0
    out = []
    for part in _TAG.split(text):
        if part.startswith("<"):
            tag = part.strip("</>").split()[0].lower() if part.strip("</>").strip() else ""
            if tag == "b":
                bold += -1 if part.startswith("</") else 1
            out.append(part)
            continue
        base = BOLD if bold > 0 and font == FONT else font
        for f, piece in _runs(part, base):
            out.append(piece if f == base else f'<font name="{f}">{piece}</font>')
    return "".join(out)


class Paragraph(_Paragraph):
    """ReportLab's Paragraph, Hangul set in the Hangul font (:func:`_markup`)."""

    def __init__(self, text: str, style: ParagraphStyle, *args: Any, **kwargs: Any) -> None:
        _fonts()
        super().__init__(_markup(text, style.fontName), style, *args, **kwargs)


class _Canvas(Canvas):
    """The canvas the PDFs are drawn on: a string (a table's cell, the footer) with characters its font lacks draws
    them in the Hangul font (:func:`_runs`)."""

    def drawString(self, x: float, y: float, text: str, *args: Any, **kwargs: Any) -> None:  # noqa: N802
        font, size, leading = self._fontname, self._fontsize, self._leading
        runs = _runs(str(text), font)
        if len(runs) <= 1 and (not runs or runs[0][0] == font):
            super().drawString(x, y, text, *args, **kwargs)
            return
        for f, piece in runs:
            self.setFont(f, size, leading)
            super().drawString(x, y, piece, *args, **kwargs)
            x += pdfmetrics.stringWidth(piece, f, size)
        self.setFont(font, size, leading)

    def drawRightString(self, x: float, y: float, text: str, *args: Any, **kwargs: Any) -> None:  # noqa: N802
        self.drawString(x - _width(str(text), self._fontname, self._fontsize), y, text, *args, **kwargs)

    def drawCentredString(self, x: float, y: float, text: str, *args: Any, **kwargs: Any) -> None:  # noqa: N802
        self.drawString(x - _width(str(text), self._fontname, self._fontsize) / 2, y, text, *args, **kwargs)


def _styles() -> dict[str, ParagraphStyle]:
    _fonts()
    return {
        "title": ParagraphStyle("title", fontName=BOLD, fontSize=15, leading=19, spaceAfter=3),
        "line": ParagraphStyle("line", fontName=FONT, fontSize=9, leading=12),
        "cell": ParagraphStyle("cell", fontName=FONT, fontSize=8, leading=9.5),
        "head": ParagraphStyle("head", fontName=BOLD, fontSize=8, leading=9.5, alignment=2),
        "sign": ParagraphStyle("sign", fontName=FONT, fontSize=9, leading=12),
    }


def _text(value: Any) -> str:
    return escape(str(value))


def _fit(text: str, width: float, font: str = FONT, size: float = 8) -> str:
    """``text`` cut (with an ellipsis) to fit ``width`` points."""
    limit = width - 4
    if _width(text, font, size) <= limit:
        return text
    while text and _width(text + "…", font, size) > limit:
        text = text[:-1]
    return text + "…"


def _document(out: io.BytesIO, title: str) -> SimpleDocTemplate:
    return SimpleDocTemplate(out, pagesize=PAGE, leftMargin=MARGIN, rightMargin=MARGIN, topMargin=MARGIN,
                             bottomMargin=MARGIN + 4 * mm, title=title, author="skat", creator="skat",
                             invariant=True)


def _footer(title: str):
    def draw(canvas: Any, doc: Any) -> None:
        canvas.saveState()
        canvas.setFont(FONT, 7)
        canvas.setFillColor(colors.Color(0.35, 0.35, 0.35))
        canvas.drawString(MARGIN, MARGIN, _fit(title, WIDTH / 2, FONT, 7))
        canvas.drawRightString(PAGE[0] - MARGIN, MARGIN, _w("page {n}", n=doc.page))
        canvas.restoreState()
    return draw


def _build(story: list[Any], title: str) -> bytes:
    _fonts()
    out = io.BytesIO()
    _document(out, title).build(story, onFirstPage=_footer(title), onLaterPages=_footer(title), canvasmaker=_Canvas)
    return out.getvalue()


# ---------------------------------------------------------------------- a table's list
_FIXED = [("#", 22), ("dealer", 70), ("declarer", 72), ("game", 50), ("with/without", 64), ("levels", 74),
          ("bid", 34), ("value", 38), ("entry", 46)]


def _seeger_words(keeper: ScoreKeeper) -> str:
    r = keeper.rules
    bonus = r.fabian_bonus[keeper.size - 3]
    return _w("Seeger-Fabian: +{won} for a game won, −{lost} for a game lost; each other player +{bonus} for a game "
              "lost at a table of {n}", won=r.seeger_won, lost=r.seeger_lost, bonus=bonus, n=keeper.size)


def _table_story(keeper: ScoreKeeper, title: str, blank_rows: int | None) -> list[Any]:
    """The flowables of one table's list (see :func:`table_list_pdf`)."""
    st = _styles()
    sheet = keeper.sheet_json()
    names = keeper.players
    n = keeper.size
    blank = not sheet["games"]
    rows_blank = blank_rows if blank_rows is not None else (keeper.limit or 12 * n) if blank else 0
    if isinstance(rows_blank, bool) or not isinstance(rows_blank, int) or rows_blank < 0:
        raise TournamentError(f"blank_rows is a number of rows (0 or more), not {blank_rows!r}")
    fixed = _FIXED if not blank else _FIXED[:-1]  # a blank list: the players' columns take the entry
    player_w = (WIDTH - sum(w for _, w in fixed)) / n
    widths = [w for _, w in fixed] + [player_w] * n

    story: list[Any] = []
    if title:
        story.append(Paragraph(_text(title), st["title"]))
    seats = " · ".join(f"{i}. {_text(p)}" for i, p in enumerate(names, 1))
    story.append(Paragraph(_w("<b>Players</b> (seat order, {first} deals first): {seats}",
                              first=_text(names[keeper.first_dealer]), seats=seats), st["line"]))
    games = _w("{played} of {limit}", played=sheet["played"], limit=keeper.limit) if keeper.limit \
        else str(sheet["played"])
    story.append(Paragraph(_w("<b>Rule set</b> {rules} · <b>games</b> {games}", rules=_text(keeper.rules.name),
                              games=games if not blank else keeper.limit or rows_blank)
                           + f" · {_seeger_words(keeper)}", st["line"]))
    story.append(Spacer(1, 3 * mm))

    head = [Paragraph(_text(_w(t)), st["head"]) if i >= 6 else _w(t) for i, (t, _) in enumerate(fixed)]
    head += [Paragraph(_text(p), st["head"]) for p in names]
    data: list[list[Any]] = [head]
    style: list[tuple[Any, ...]] = []
    for kept, line in zip(keeper.games, sheet["games"], strict=True):
        r = len(data)
        if line["struck"]:
            words = _text(_entry_words(kept.entry))
            data.append([str(line["number"]), Paragraph(f"<strike>{words}</strike> · {_w('struck')}", st["cell"])]
                        + [""] * (len(widths) - 2))
            style += [("SPAN", (1, r), (-1, r)), ("TEXTCOLOR", (0, r), (-1, r), colors.grey)]
            continue
        data.append(_game_row(kept, line, names, widths))
    first_blank = (sheet["games"][-1]["number"] + 1) if sheet["games"] else 1
    for i in range(rows_blank):
        data.append([str(first_blank + i)] + [""] * (len(widths) - 1))
    body_end = len(data) - 1

    if blank:
        summary: list[tuple[str, list[Any] | None]] = [
            ("points", None), ("games won", None), ("games lost", None), ("games lost by the others", None),
            ("Seeger-Fabian", None)]
    else:
        lost = sheet["games_lost"]
        summary = [("total", sheet["totals"]), ("games won", sheet["games_won"]), ("games lost", lost),
                   ("games lost by the others", [sum(lost) - x for x in lost]),
                   ("Seeger-Fabian", sheet["seeger_fabian"])]
    label_span = len(fixed) - 1
    for label, values in summary:
        r = len(data)
        cells = [_w(label)] + [""] * label_span + (["" for _ in names] if values is None else [str(v) for v in values])
        data.append(cells)
        style += [("SPAN", (0, r), (label_span, r)), ("ALIGN", (0, r), (label_span, r), "RIGHT")]
    last = len(data) - 1
    row_h = 17 if blank or rows_blank else 13
    table = Table(data, colWidths=widths, repeatRows=1,
                  rowHeights=[None] + [row_h] * (len(data) - 1))
    table.setStyle(TableStyle([
        ("FONT", (0, 0), (-1, -1), FONT, 8),
        ("FONT", (0, 0), (-1, 0), BOLD, 8),
        ("BACKGROUND", (0, 0), (-1, 0), SHADE),
        ("GRID", (0, 0), (-1, -1), 0.4, GRID),
        ("LINEBELOW", (0, body_end), (-1, body_end), 1.2, colors.black),
        ("FONT", (0, last), (-1, last), BOLD, 9),
        ("BACKGROUND", (0, last), (-1, last), SHADE),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("ALIGN", (0, 1), (0, -1), "RIGHT"),
        ("ALIGN", (6, 1), (-1, -1), "RIGHT"),
        ("LEFTPADDING", (0, 0), (-1, -1), 3), ("RIGHTPADDING", (0, 0), (-1, -1), 3),
        ("TOPPADDING", (0, 0), (-1, -1), 1.5), ("BOTTOMPADDING", (0, 0), (-1, -1), 1.5),
        *style,
    ]))
    story.append(table)
    story.append(Spacer(1, 5 * mm))
    story.append(KeepTogether(_signatures(names, st)))
    return story


def _game_row(kept: Any, line: dict[str, Any], names: Sequence[str], widths: Sequence[float]) -> list[str]:
    """One game's row: what :meth:`ScoreKeeper.format_text` writes, in cells."""
    e, o = kept.entry, kept.outcome
    scores = line["scores"]
    if e.kind == "game":
        mat = "" if o is None or o.matadors is None else \
            _w("with {n}" if o.matadors_with else "without {n}", n=o.matadors)
        levels = _words(levels_text(e, o))
        decl = line["declarer"] or ""
        entry = f"{scores[names.index(decl)]:+d}" if decl else ""
        game, value, bid = _w(line["game"]), str(line["value"] or ""), str(line["bid"] or "")
    else:
        mat, levels, bid, value, game = "", "", "", "", ""
        decl = _w("passed") if e.kind == "passed" else _w("Ramsch")
        entry = " ".join(f"{v:+d}" for v in scores if v) if e.kind == "ramsch" else ""
        if e.kind == "ramsch" and e.pushes:
            levels = _w("{n} push" if e.pushes == 1 else "{n} pushes", n=e.pushes)
    marks = [_w(m) for m, on in (("Bock", line["bock"]), ("Kontra" if line["kontra"] == 1 else "Re",
                                                         line["kontra"] > 0)) if on]
    if marks:
        levels = (levels + " " if levels else "") + " ".join(marks)
    if line["won"] is False and not (o is not None and o.overbid):  # an overbid game is lost: its word says so
        levels = (levels + " " if levels else "") + _w("lost")
    cells = [str(line["number"]), line["dealer"], decl, game, mat, levels, bid, value, entry]
    cells = [_fit(c, w) for c, w in zip(cells, widths)]
    return cells + [str(t) if s else "" for s, t in zip(scores, line["totals"])]


def _signatures(names: Sequence[str], st: dict[str, ParagraphStyle]) -> list[Any]:
    cells = [[Paragraph(f"{_text(p)}:", st["sign"]), ""] for p in names]
    per_row = 2 if len(names) <= 4 else 3
    rows = []
    for i in range(0, len(cells), per_row):
        row: list[Any] = []
        for c in cells[i:i + per_row]:
            row += c
        row += ["", ""] * (per_row - len(cells[i:i + per_row]))
        rows.append(row)
    w = WIDTH / per_row
    table = Table(rows, colWidths=[w * 0.35, w * 0.6] * per_row, rowHeights=[26] * len(rows))
    table.setStyle(TableStyle([
        ("FONT", (0, 0), (-1, -1), FONT, 9),
        ("VALIGN", (0, 0), (-1, -1), "BOTTOM"),
        ("ALIGN", (0, 0), (-1, -1), "RIGHT"),
        *[("LINEBELOW", (2 * k + 1, 0), (2 * k + 1, -1), 0.6, colors.black) for k in range(per_row)],
    ]))
    return [Paragraph(_w("<b>Signatures</b> (the list is right):"), st["line"]), table]


def table_list_pdf(keeper: ScoreKeeper, *, title: str = "", blank_rows: int | None = None, lang: str = "en") -> bytes:
    """One table's list as a PDF: filled from ``keeper``'s games, or blank when it has none.

    A blank list has ``blank_rows`` numbered rows (default: the keeper's :attr:`~ScoreKeeper.limit`, else 12
    per player) to keep by hand; ``blank_rows`` after games adds that many empty rows to go on with.
    """
    with _language(lang):
        return _build(_table_story(keeper, title, blank_rows), title or _w("Skat list"))


def series_tables_pdf(tournament: Tournament, series: int, *, blank: bool, lang: str = "en") -> bytes:
    """Every table's list of one series (numbered from 1) in one PDF, each from a new page: blank (to keep by
    hand), or as handed in (a table without a list prints blank)."""
    if isinstance(series, bool) or not isinstance(series, int) or not 1 <= series <= len(tournament.series):
        raise TournamentError(f"there is no series {series} (the tournament has {len(tournament.series)})")
    s = tournament.series[series - 1]
    story: list[Any] = []
    with _language(lang):
        for number, kept in enumerate(s.tables, 1):
            keeper = kept if kept is not None and not blank else tournament.table_keeper(series, number)
            if story:
                story.append(PageBreak())
            story += _table_story(keeper, _series_title(tournament, series, number), None)
        return _build(story, _series_title(tournament, series))


def _series_title(tournament: Tournament, series: int, table: int | None = None) -> str:
    words = [w for w in (tournament.name, _w("series {n}", n=series), table and _w("table {n}", n=table)) if w]
    return " — ".join(words)


# ---------------------------------------------------------------------- the ranking
def _ranking_rows(tournament: Tournament) -> tuple[list[str], list[list[Any]]]:
    head = [_w(w) for w in ("rank", "player", "points", "won", "lost")] + [
        _w("series {n}", n=i) for i in range(1, len(tournament.series) + 1)]
    rows = [[s.rank, s.player, s.points, s.won, s.lost, *("" if x is None else x for x in s.series)]
            for s in tournament.ranking()]
    return head, rows


def _progress(tournament: Tournament) -> str:
    tables = [k for s in tournament.series for k in s.tables]
    handed = [k for k in tables if k is not None]
    results = [r for s in tournament.series for r in s.results if r is not None]  # tables scored elsewhere
    handed_in = len(handed) + len(results)
    live = handed_in < len(tables) or any(k.limit is not None and not k.complete for k in handed) or any(
        not r.complete for r in results)
    words = _w("after {n} series · {handed} of {tables} lists handed in", n=len(tournament.series),
               handed=handed_in, tables=len(tables))
    return words + (" · " + _w("lists in progress count as they stand") if live else "")


def ranking_pdf(tournament: Tournament, *, title: str | None = None, lang: str = "en") -> bytes:
    """The ranking as a PDF: rank, player, Seeger-Fabian points, games won and lost, the points of each series."""
    with _language(lang):
        return _ranking_pdf(tournament, title)


def _ranking_pdf(tournament: Tournament, title: str | None) -> bytes:
    _fonts()
    st = _styles()
    title = title if title is not None else " — ".join(w for w in (tournament.name, _w("ranking")) if w)
    head, rows = _ranking_rows(tournament)
    standings = tournament.ranking()
    n_series = len(tournament.series)
    fixed = [40, 220, 64, 44, 44]
    series_w = min(64.0, (WIDTH - sum(fixed)) / n_series) if n_series else 0
    widths = fixed + [series_w] * n_series
    data: list[list[Any]] = [[Paragraph(_text(h), st["head"]) if i != 1 else h for i, h in enumerate(head)]]
    for standing, row in zip(standings, rows, strict=True):
        name = _fit(row[1] + (f" ({_w('withdrawn')})" if standing.withdrawn else ""), fixed[1])
        data.append([str(row[0]), name, *(str(x) for x in row[2:])])
    table = Table(data, colWidths=widths, repeatRows=1, hAlign="LEFT")
    table.setStyle(TableStyle([
        ("FONT", (0, 0), (-1, -1), FONT, 9),
        ("FONT", (0, 0), (-1, 0), BOLD, 9),
        ("FONT", (2, 1), (2, -1), BOLD, 9),
        ("BACKGROUND", (0, 0), (-1, 0), SHADE),
        ("GRID", (0, 0), (-1, -1), 0.4, GRID),
        ("ALIGN", (0, 0), (0, -1), "RIGHT"),
        ("ALIGN", (2, 0), (-1, -1), "RIGHT"),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("ROWBACKGROUNDS", (0, 1), (-1, -1), [colors.white, colors.Color(0.97, 0.97, 0.97)]),
    ]))
    story: list[Any] = [Paragraph(_text(title), st["title"]),
                        Paragraph(f"{_text(_progress(tournament))} · "
                                  + _w("rule set {rules}", rules=_text(tournament.ruleset)) + " · "
                                  + _w("Seeger-Fabian points; ties: more games won, fewer lost, the better series"),
                                  st["line"]),
                        Spacer(1, 3 * mm), CondPageBreak(40 * mm), table]
    return _build(story, title)


def ranking_csv(tournament: Tournament) -> str:
    """The ranking as CSV text: a header row (rank, player, points, won, lost, series 1 ..., withdrawn), then
    one row per player, best first; an empty series cell where the player had no list in that series."""
    head, rows = _ranking_rows(tournament)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(head + ["withdrawn"])
    for standing, row in zip(tournament.ranking(), rows, strict=True):
        writer.writerow([csv_cell(x) if isinstance(x, str) else x for x in row] + ["yes" if standing.withdrawn else ""])
    return out.getvalue()


# ---------------------------------------------------------------------- a club's season
def _season_rows(season: Season, accounts: dict[str, str] | None) -> tuple[list[str], list[list[Any]]]:
    head = [_w(w) for w in ("rank", "member", "total", "evenings")] + [
        _w("evening {n}", n=i) for i in range(1, len(season.evenings) + 1)]
    rows = [[s.rank, s.member, s.total, s.played, *("" if p is None else p if c else f"({p})"
                                                    for p, c in zip(s.points, s.counted, strict=True))]
            for s in season.ranking(accounts)]
    return head, rows


def _season_rule(season: Season) -> str:
    if season.rule == "best":
        return _w("rule: the Seeger-Fabian points of the best {n} of {m} evenings", n=season.best,
                  m=len(season.evenings))
    return _w("rule: the Seeger-Fabian points of every evening")


def season_pdf(season: Season, accounts: dict[str, str] | None = None, *, title: str | None = None,
               lang: str = "en", in_progress: bool = False) -> bytes:
    """A season's ranking as a PDF: place, member, total, evenings played and each evening's points (in brackets
    where they do not count), then the evenings with their dates and names. ``accounts``: the names of linked
    accounts by id (:meth:`Season.ranking`)."""
    with _language(lang):
        _fonts()
        st = _styles()
        title = title if title is not None else " — ".join(w for w in (season.name, _w("season ranking")) if w)
        head, rows = _season_rows(season, accounts)
        n = len(season.evenings)
        fixed = [40, 200, 60, 52]
        size = 9 if n <= 10 else 7.5 if n <= 16 else 6
        column = min(64.0, (WIDTH - sum(fixed)) / n) if n else 0
        data: list[list[Any]] = [[Paragraph(_text(h), st["head"]) if i != 1 else h for i, h in enumerate(head)]]
        for row in rows:
            data.append([str(row[0]), _fit(row[1], fixed[1], FONT, size), *(str(x) for x in row[2:])])
        table = Table(data, colWidths=fixed + [column] * n, repeatRows=1, hAlign="LEFT")
        table.setStyle(TableStyle([
            ("FONT", (0, 0), (-1, -1), FONT, size),
            ("FONT", (0, 0), (-1, 0), BOLD, size),
            ("FONT", (2, 1), (2, -1), BOLD, size),
            ("BACKGROUND", (0, 0), (-1, 0), SHADE),
            ("GRID", (0, 0), (-1, -1), 0.4, GRID),
            ("ALIGN", (0, 0), (0, -1), "RIGHT"),
            ("ALIGN", (2, 0), (-1, -1), "RIGHT"),
            ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
            ("ROWBACKGROUNDS", (0, 1), (-1, -1), [colors.white, colors.Color(0.97, 0.97, 0.97)]),
        ]))
        about = [_w("after {n} evenings", n=n), _season_rule(season),
                 _w("ties: more evenings played, then the better single evening"), _w("in brackets: not counted")]
        if in_progress:
            about.append(_w("evenings in progress count as they stand"))
        story: list[Any] = [Paragraph(_text(title), st["title"]), Paragraph(_text(" · ".join(about)), st["line"]),
                            Spacer(1, 3 * mm), CondPageBreak(40 * mm), table, Spacer(1, 4 * mm)]
        for i, e in enumerate(season.evenings, 1):
            words = " ".join(w for w in (e.date, e.name) if w)
            story.append(Paragraph(f"<b>{_text(_w('evening {n}', n=i))}</b> {_text(words)}", st["line"]))
        return _build(story, title)


def season_csv(season: Season, accounts: dict[str, str] | None = None) -> str:
    """A season's ranking as CSV text: a header row (rank, member, account, total, evenings, evening 1 ...), then
    one row per member, best first; an empty evening cell where the member did not play, the points in brackets
    where they do not count."""
    head, rows = _season_rows(season, accounts)
    names = accounts or {}
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(head[:2] + ["account"] + head[2:])
    for standing, row in zip(season.ranking(accounts), rows, strict=True):
        account = names.get(standing.account or "", "")
        cells = row[:2] + [account] + row[2:]
        writer.writerow([csv_cell(x) if isinstance(x, str) else x for x in cells])
    return out.getvalue()
