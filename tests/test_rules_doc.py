"""docs/rules.md, the users' rules reference, names every table option with what the schema accepts
and its default; the code cites it (never the canon outside the repository)."""

from __future__ import annotations

import re

import pytest

from conftest import ROOT
from skat.rules.rulesets import ISKO
from skat.rules.rulesets import SCHEMA as RULE_SCHEMA
from skat.variants.officers.options import SCHEMA as OFFICERS_SCHEMA
from skat.variants.officers.options import OfficersOptions

OUTSIDE = "/".join(("..", "shared"))  # the folder beside a checkout, which a clone alone does not have
DOC = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")


def _rows(text: str) -> dict[str, list[list[str]]]:
    """The option tables' rows by option name: `| \\`name\\` | allowed | default | ... |`."""
    rows: dict[str, list[list[str]]] = {}
    for line in text.splitlines():
        m = re.match(r"^\| `(\w+)` \|(.*)\|$", line)
        if m:
            rows.setdefault(m.group(1), []).append([c.strip() for c in m.group(2).split("|")])
    return rows


OFFICERS_PART = DOC[DOC.index("### 9.11"):DOC.index("\n## 10.")]
RULE_ROWS = _rows(DOC[:DOC.index("\n## 9.")])
OFFICERS_ROWS = _rows(OFFICERS_PART)


def _shown_default(value: object) -> str:
    if isinstance(value, bool):
        return f"`{str(value).lower()}`"
    if isinstance(value, str):
        return f"`{value}`"
    return str(value)


def _check_row(rows: dict[str, list[list[str]]], name: str, option, default: object) -> None:
    assert name in rows, f"docs/rules.md has no table row for option {name}"
    allowed, shown = rows[name][-1][0], rows[name][-1][1]
    if option.kind == "bool":
        assert "`true`, `false`" in allowed, name
    if option.kind in ("choice", "names"):
        for word in option.choices:
            assert f"`{word}`" in allowed or word in DOC.split(f"`{name}`", 1)[1][:4000], (name, word)
    if option.kind in ("int", "ints") and name != "bid_values":
        assert f"{option.low} to {option.high}" in allowed, (name, allowed)
    if name != "bid_values" and not isinstance(default, tuple):
        assert shown == _shown_default(default), (name, shown, default)


@pytest.mark.parametrize("name", [n for n in RULE_SCHEMA.options if n not in ("name", "description")])
def test_every_rule_option_is_documented_with_its_range_and_default(name):
    _check_row(RULE_ROWS, name, RULE_SCHEMA.options[name], getattr(ISKO, name))


@pytest.mark.parametrize("name", list(OFFICERS_SCHEMA.options))
def test_every_officers_option_is_documented_with_its_range_and_default(name):
    _check_row(OFFICERS_ROWS, name, OFFICERS_SCHEMA.options[name], getattr(OfficersOptions(), name))


def _part(start: str, end: str) -> str:
    """The text of docs/rules.md from the heading line that starts with ``start`` to the one starting ``end``."""
    match = re.search(rf"^{re.escape(start)}.*$", DOC, flags=re.M)
    assert match, f"docs/rules.md has no heading {start!r}"
    return DOC[match.start():DOC.index("\n" + end, match.end())]


def _numbered(part: str, letter: str) -> tuple[int, list[int]]:
    """The last number the part's heading announces ("(D1–D18)": 18) and the numbers of its entries in order
    (``**D1.`` or ``* **Q1.**`` at the start of a line)."""
    announced = re.search(rf"\({letter}1[–-]{letter}(\d+)\)", part.splitlines()[0])
    assert announced, f"the heading {part.splitlines()[0]!r} announces no range {letter}1–{letter}n"
    entries = [int(n) for n in re.findall(rf"^(?:\* )?\*\*{letter}(\d+)\.", part, flags=re.M)]
    return int(announced.group(1)), entries


DISAGREEMENTS = _part("## 11. Where the sources disagree", "## 12.")
QUESTIONS = _part("## 13. Open questions", "## 14.")
SECTIONS = [int(n) for n in re.findall(r"^## (\d+)\. ", DOC, flags=re.M)]


@pytest.mark.parametrize("part, letter, words", [(DISAGREEMENTS, "D", "disagreements"), (QUESTIONS, "Q", "open questions")],
                         ids=["D", "Q"])
def test_every_disagreement_and_open_question_is_there_once_in_order(part, letter, words):
    """Section 11 holds D1 to Dn and section 13 Q1 to Qn as its heading announces, each once and in order, and
    the introduction names the same range: an entry left out, doubled or added without the heading fails."""
    last, entries = _numbered(part, letter)
    assert entries == list(range(1, last + 1)), f"{letter} entries {entries}, the heading announces {letter}1–{letter}{last}"
    said = re.search(rf"{words} {letter}1 to {letter}(\d+)", DOC)
    assert said and int(said.group(1)) == last, f"the introduction says {said and said.group(0)!r}, section says {last}"
    assert last >= (18 if letter == "D" else 10)  # the canon's numbers, kept (none is ever dropped)


def test_the_sections_are_numbered_without_a_gap():
    assert SECTIONS == list(range(SECTIONS[-1] + 1)) and SECTIONS[-1] >= 10, SECTIONS


def test_what_the_code_cites_is_in_the_reference():
    """Every ``docs/rules.md 4.3`` / ``section 9`` / ``D12`` / ``Q7`` in the code, the tests and the docs names a
    section, disagreement or open question the reference has."""
    subsections = set(re.findall(r"^### (\d+\.\d+) ", DOC, flags=re.M)) | {str(n) for n in SECTIONS}
    have = {"D": set(_numbered(DISAGREEMENTS, "D")[1]), "Q": set(_numbered(QUESTIONS, "Q")[1])}
    cited = []
    for path in [*(ROOT / "src").rglob("*.py"), *(ROOT / "tests").glob("*.py"), *(ROOT / "docs").glob("*.md")]:
        text = path.read_text(encoding="utf-8")
        for ref in re.findall(r"docs/rules\.md,? (?:sections? )?([DQ]\d+|\d+(?:\.\d+)?)\b", text):
            cited.append(ref)
            if ref[0] in "DQ":
                assert int(ref[1:]) in have[ref[0]], f"{path} cites docs/rules.md {ref}, which it does not have"
            else:
                assert ref in subsections, f"{path} cites docs/rules.md {ref}, which it does not have"
    assert len(cited) > 50 and any(ref[0] == "D" for ref in cited)


def test_the_code_cites_the_reference_in_the_repository():
    cited = []
    for path in [*(ROOT / "src").rglob("*.py"), *(ROOT / "tests").glob("*.py"), *(ROOT / "docs").glob("*.md")]:
        if path.name == "rules.md" or path == ROOT / "tests" / "test_rules_doc.py":
            continue
        text = path.read_text(encoding="utf-8")
        assert "RULES.md" not in text.replace("docs/rules.md", ""), f"{path} cites the canon outside the repository"
        assert OUTSIDE not in text, f"{path} reads {OUTSIDE}"
        cited.append("docs/rules.md" in text)
    assert sum(cited) > 20
