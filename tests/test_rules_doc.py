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


def test_the_disagreements_and_sections_are_there():
    for d in range(1, 17):
        assert re.search(rf"^#+ .*\bD{d}\b|^\*\*D{d}\b|^- \*\*D{d}\b|\bD{d}\b", DOC, flags=re.M), f"D{d}"
    for section in range(1, 11):
        assert re.search(rf"^## {section}\. ", DOC, flags=re.M), section


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
