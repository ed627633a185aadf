"""The rule sets and their options: what each option means, its value and what it accepts.

  skat rules list                       the presets (and the Officers' Skat table options)
  skat rules show NAME                  every option of a preset: value, allowed values, doc;
                                        * marks a value that differs from the ISkO's
  skat rules show pub --set kontra_who=bidders
                                        the same for a preset with options changed (checked)
  skat rules show officers              the options of an Officers' Skat table

``--json`` prints the same for machines: per option its value, the ISkO's (or the default), its
type and range or choices, what it accepts in words, and its doc.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import sys
import textwrap
from typing import Any

from skat.rules.rulesets import ISKO, PRESETS, SCHEMA, RuleSet, get_ruleset
from skat.schema import OptionError, Schema
from skat.variants.officers.options import SCHEMA as OFFICERS_SCHEMA
from skat.variants.officers.options import OfficersOptions, option_variants

OFFICERS = "officers"
"""The name ``skat rules show`` gives the options of an Officers' Skat table."""

_HEADER = ("name", "description")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    sub = parser.add_subparsers(dest="rules_command", metavar="ACTION", required=True)
    lst = sub.add_parser("list", help="the rule sets by name, with a line about each")
    lst.add_argument("--json", action="store_true", help="print JSON")
    show = sub.add_parser("show", help="every option of a rule set: value, allowed values and what it means")
    show.add_argument("name", help=f"a rule set ({', '.join(sorted(PRESETS))}) or {OFFICERS}")
    show.add_argument("--set", action="append", default=[], metavar="OPTION=VALUE",
                      help="change an option first, as skat series --set does (repeatable)")
    show.add_argument("--json", action="store_true", help="print JSON")


def run(args: argparse.Namespace) -> int:
    if args.rules_command == "list":
        return _list(args.json)
    try:
        title, rows = _rows(args.name, args.set)
    except OptionError as exc:
        print(f"skat rules: {exc}", file=sys.stderr)
        return 2
    if args.json:
        rows = [{k: v for k, v in r.items() if not k.startswith("_")} for r in rows]
        print(json.dumps({**title, "options": rows}, indent=1, ensure_ascii=False))
    else:
        print(format_rows(title, rows, _width()))
    return 0


# ---------------------------------------------------------------------- list
def _list(as_json: bool) -> int:
    names: dict[str, list[str]] = {}
    for alias, rules in PRESETS.items():
        names.setdefault(rules.name, [])
        if alias != rules.name:
            names[rules.name].append(alias)
    entries = [{"name": name, "aliases": aliases, "description": get_ruleset(name).description,
                "changed": get_ruleset(name).changed()} for name, aliases in names.items()]
    officers = {"name": OFFICERS, "aliases": [], "description": "Officers' Skat table options (two players, "
                "docs/rules.md section 9)", "changed": {}}
    if as_json:
        print(json.dumps({"rulesets": entries, "officers": officers}, indent=1))
        return 0
    width = max(len(e["name"]) for e in [*entries, officers])
    for e in [*entries, officers]:
        also = f" (also: {', '.join(e['aliases'])})" if e["aliases"] else ""
        print(f"{e['name']:<{width}}  {e['description']}{also}")
    print("\nskat rules show NAME lists a rule set's options.")
    return 0


# ---------------------------------------------------------------------- show
def _rows(name: str, pairs: list[str]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The title (name, description) and the option rows of a rule set, or of the Officers' Skat options."""
    if name.strip().lower() == OFFICERS:
        options = OfficersOptions(**OFFICERS_SCHEMA.parse_assignments(pairs))
        rows = _schema_rows(OFFICERS_SCHEMA, options, OfficersOptions())
        for row in rows:
            row["variants"] = list(option_variants(row["name"]))
        title = {"name": OFFICERS, "description": "Options of an Officers' Skat table (docs/rules.md section 9, D16, Q9)"}
        return title, rows
    rules: RuleSet = get_ruleset(name)
    changes = SCHEMA.parse_assignments(pairs)
    if changes:
        rules = rules.replace(**changes)
    rows = [r for r in _schema_rows(SCHEMA, rules, ISKO) if r["name"] not in _HEADER]
    return {"name": rules.name, "description": rules.description}, rows


def _schema_rows(schema: Schema, options: Any, base: Any) -> list[dict[str, Any]]:
    """:meth:`Schema.describe` rows, with ``default`` taken from ``base`` and ``changed`` against it."""
    defaults = {r["name"]: r["value"] for r in schema.describe(base)}
    rows = schema.describe(options)
    for row in rows:
        row["doc"] = _plain(row["doc"])
        row["default"] = defaults[row["name"]]
        row["changed"] = row["value"] != row["default"]
        if schema.options[row["name"]].rule:
            row["_rule"] = True  # ``accepts`` says more than ``short`` (not in --json)
    return rows


def _plain(doc: str) -> str:
    """A doc on one line without its reST marks (````word````, ``:data:`NAME```)."""
    doc = re.sub(r":[a-z]+:`~?([^`]+)`", r"\1", doc)
    return " ".join(doc.replace("``", "").split())


def _width() -> int:
    return max(72, min(140, shutil.get_terminal_size((100, 24)).columns))


def _shown_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        if not value:
            return "(none)"
        if len(value) > 6:
            return f"{', '.join(map(str, value[:3]))} ... {value[-1]} ({len(value)} values)"
        return ", ".join(map(str, value))
    return str(value)


def format_rows(title: dict[str, Any], rows: list[dict[str, Any]], width: int = 100) -> str:
    """The options as a table for the terminal: option, value and allowed values, the doc beneath."""
    name_w = max(len("option"), *(len(r["name"]) for r in rows)) + 2
    value_w = max(len("value"), min(30, max(len(_shown_value(r["value"])) for r in rows)))
    allowed_w = max(24, width - name_w - value_w - 4)
    base = "the default" if title["name"] == OFFICERS else "the ISkO's (isko2018)"
    lines = [f"{title['name']}: {title['description']}", f"(* marks a value that differs from {base})", ""]
    lines.append(f"  {'option':<{name_w - 2}}  {'value':<{value_w}}  allowed")
    lines.append(f"  {'-' * (name_w - 2)}  {'-' * value_w}  {'-' * min(allowed_w, 40)}")
    for r in rows:
        value = textwrap.wrap(_shown_value(r["value"]), value_w) or [""]
        allowed = textwrap.wrap(r["short"], allowed_w) or [""]
        mark = "*" if r["changed"] else " "
        for i in range(max(len(value), len(allowed))):
            head = f"{mark} {r['name']:<{name_w - 2}}" if i == 0 else " " * name_w
            lines.append(f"{head}  {value[i] if i < len(value) else '':<{value_w}}  "
                         f"{allowed[i] if i < len(allowed) else ''}".rstrip())
        doc = r["doc"]
        if r.get("_rule"):
            doc += f" Accepts {r['accepts']}."
        if r.get("variants") == ["admiral"]:
            doc += " Admiral's Skat only."
        elif "variants" in r and "admiral" not in r["variants"]:
            doc += " Not in Admiral's Skat."
        lines.extend(textwrap.wrap(doc, width - 6, initial_indent=" " * 6, subsequent_indent=" " * 6))
    return "\n".join(lines)
