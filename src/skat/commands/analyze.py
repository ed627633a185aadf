"""Analyse played games double dummy: where each game was won or lost, and which card was the mistake.

  skat analyze FILE                  every game of an ISS record file (one record per line) or of our
                                     JSON game records (one record, a list of records, or one per line)
  skat analyze FILE --id 727 --id 9  only these games (ISS: the game number ID[...]; JSON: the
                                     record's place in the file, 1 for the first)
  skat analyze FILE --json           the analysis as JSON (a list, one object per game)
  skat analyze FILE --time-limit 2   at most 2 seconds of solving per position; a position over the
                                     limit is shown as not analysed

A row per card: trick, seat, card, the best card(s), the value of the position before the card and
of the card played (the declarer's final card points with best play from there, and whether he
wins his contract), the card points the card gave away, and TURN for a turning point (a card that
changed the outcome of the contract).  See docs/analysis.md.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from skat.errors import SkatError
from skat.records.iss import IssRecord, parse_iss

if TYPE_CHECKING:  # skat.analysis loads the solver (numpy): imported where a game is analysed, not for --help
    from skat.analysis import CardRow, GameAnalysis


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.add_argument("file", type=Path, help="ISS record file (one record per line) or JSON game record(s)")
    parser.add_argument("--format", choices=("iss", "json"), default=None,
                        help="the file's format (default: told from its first character, '(' or '{'/'[')")
    parser.add_argument("--id", dest="ids", action="append", default=None, metavar="ID",
                        help="only this game: the ISS game number, or a JSON record's place in the file (repeatable)")
    parser.add_argument("--json", action="store_true", help="print the analysis as JSON")
    parser.add_argument("--time-limit", type=float, default=None, metavar="SECONDS",
                        help="solver time per position; a position over it is reported as not analysed")


class _InputError(Exception):
    """The file cannot be used at all (exit code 2)."""


def _items(path: Path, fmt: str | None) -> Iterator[tuple[str, str, Any]]:
    """(id, label, record or SkatError) for every game in the file."""
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise _InputError(f"{path} is not a text file (not UTF-8)") from None
    except OSError as exc:
        raise _InputError(f"cannot read {path}: {exc.strerror or exc}") from None
    stripped = text.lstrip()
    if not stripped:
        raise _InputError(f"{path} is empty: no game records to analyse")
    if fmt is None:
        if stripped[0] == "(":
            fmt = "iss"
        elif stripped[0] in "{[":
            fmt = "json"
        else:
            raise _InputError(f"{path} holds neither ISS records (lines starting with '(;') nor JSON game records "
                              "(starting with '{' or '['); give --format iss or --format json")
    if fmt == "iss":
        yield from _iss_items(text)
    else:
        yield from _json_items(path, text)


def _iss_items(text: str) -> Iterator[tuple[str, str, Any]]:
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            record = parse_iss(line, n)
        except SkatError as exc:
            yield "", f"line {n}", exc
            continue
        yield record.id, record.label, record


def _json_items(path: Path, text: str) -> Iterator[tuple[str, str, Any]]:
    from skat.analysis import AnalysisError

    try:
        data = json.loads(text)
        records = data if isinstance(data, list) else [data]
    except json.JSONDecodeError as whole:
        records = []
        for line in text.splitlines():  # JSON Lines: one record per line
            if not line.strip():
                continue
            try:
                records.append(json.loads(line))
            except json.JSONDecodeError:
                raise _InputError(f"{path} is not valid JSON: {whole.msg} at line {whole.lineno}, column "
                                  f"{whole.colno}") from None
    for i, record in enumerate(records, 1):
        if not isinstance(record, dict):
            yield str(i), f"JSON record {i}", AnalysisError(
                f"JSON record {i}: a game record is a JSON object (Game.to_record()), not {type(record).__name__}")
            continue
        yield str(i), f"JSON record {i}", record


def run(args: argparse.Namespace) -> int:
    from skat.analysis import analyse_game

    if args.time_limit is not None and not 0 < args.time_limit < math.inf:
        print(f"skat analyze: --time-limit must be a positive number of seconds, got {args.time_limit}",
              file=sys.stderr)
        return 2
    try:
        items = list(_items(args.file, args.format))
    except _InputError as exc:
        print(f"skat analyze: {exc}", file=sys.stderr)
        return 2
    if args.ids:
        known = {item_id for item_id, _, _ in items if item_id}
        unknown = [i for i in args.ids if i not in known]
        if unknown:
            shown = ", ".join(sorted(known, key=lambda s: (len(s), s))[:20]) or "none"
            print(f"skat analyze: no game with ID {', '.join(unknown)} in {args.file} (IDs there: {shown})",
                  file=sys.stderr)
            return 2
        items = [item for item in items if item[0] in args.ids]
    status = 0
    results: list[dict[str, Any]] = []
    for _item_id, label, item in items:
        if isinstance(item, Exception):
            print(f"skat analyze: {item}", file=sys.stderr)
            status = 1
            continue
        try:
            analysis = analyse_game(item, time_limit=args.time_limit,
                                    label=None if isinstance(item, IssRecord) else label)
        except SkatError as exc:
            text = str(exc)
            print(f"skat analyze: {text if text.startswith(label) else f'{label}: {text}'}", file=sys.stderr)
            status = 1
            continue
        if args.json:
            results.append(analysis.to_json())
        else:
            print(format_analysis(analysis))
            sys.stdout.flush()
    if args.json:
        print(json.dumps(results, indent=1))
    return status


# ------------------------------------------------------------------------------------ the table
def _value(points: int | None, wins: bool | None, null: bool) -> str:
    if wins is None:
        return "-"
    outcome = "won" if wins else "lost"
    if null:
        return outcome
    return f"{'?' if points is None else points} {outcome}"


def _best(row: CardRow) -> str:
    if row.forced:
        return "(only card)"
    if not row.best:
        return "-"
    if len(row.best) == len(row.legal):
        return "(any)"
    return " ".join(c.name for c in row.best)


def _seat(analysis: GameAnalysis, seat: int) -> str:
    text = f"seat {seat}"
    if analysis.players is not None and analysis.players[seat]:
        text += f" ({analysis.players[seat]})"
    return text


def format_analysis(a: GameAnalysis) -> str:
    """The analysis of one game as a readable table with a summary."""
    from skat.analysis import describe_turning_point

    head = a.label + (f": {' / '.join(a.players)}" if a.players else "")
    lines = [head]
    if a.skipped is not None:
        lines.append(f"  {a.skipped}")
        return "\n".join(lines) + "\n"
    assert a.contract is not None and a.declarer is not None and a.goal is not None
    null = a.contract.is_null
    lines.append(f"  declarer {_seat(a, a.declarer)}, {a.contract}, bid {a.bid}; to win: {a.goal.describe()}")
    actual = a.actual
    real = "not scored" if actual.won is None else ("won" if actual.won else "lost")
    if not null and actual.declarer_points is not None:
        real = f"{actual.declarer_points} card points, {real}"
    lines.append(f"  double dummy at the first card: {_value(a.start_points, a.start_wins, null)}; "
                 f"actual: {real} ({actual.ended_by})")
    if a.rows:
        table = [("trick", "seat", "card", "best", "before", "after", "cost", "")]
        for r in a.rows:
            flags = []
            if r.turning_point:
                flags.append("TURN")
            if r.note:
                flags.append(r.note)
            table.append((str(r.trick), f"{r.seat} {'decl' if r.declarer else 'def'}", r.card.name, _best(r),
                          _value(r.points_before, r.wins_before, null), _value(r.points_after, r.wins_after, null),
                          "" if r.cost is None else str(r.cost), "  ".join(flags)))
        widths = [max(len(row[i]) for row in table) for i in range(len(table[0]) - 1)]
        right = {0, 6}
        for row in table:
            cells = [c.rjust(w) if i in right else c.ljust(w) for i, (c, w) in enumerate(zip(row, widths))]
            lines.append(("    " + "  ".join(cells) + ("  " + row[-1] if row[-1] else "")).rstrip())
    else:
        lines.append("  no card was played")
    if a.ending is not None:
        e = a.ending
        where = f"after card {e.after_cards}" if e.after_cards else "before the first card"
        text = f"  {where}: {e.description}; double dummy there: {_value(e.points, e.wins, null)}"
        if e.turning_point:
            who = "the defenders" if e.seat is None else _seat(a, e.seat)
            text += f"  TURN: {who} gave away the outcome"
        if e.note:
            text += f" ({e.note})"
        lines.append(text)
    if a.turning_points:
        lines.append("  turning points:")
        for r in a.turning_points:
            lines.append(f"    {describe_turning_point(r, a.goal)}")
    elif a.rows and a.start_wins is not None:
        lines.append(f"  no turning point in the card play: the double-dummy outcome ("
                     f"{'won' if a.start_wins else 'lost'}) held to the {'end' if a.ending is None else 'stop'}")
    if not null and a.rows:
        lost = a.points_lost
        parts = [f"{s}{' (declarer)' if s == a.declarer else ''} {lost[s]}" for s in range(3)]
        lines.append(f"  card points given away against best play: seat {', seat '.join(parts)}")
    turns = a.turning_points_by_seat
    if any(turns):
        lines.append("  turning points by seat: " + ", ".join(f"seat {s} {turns[s]}" for s in range(3) if turns[s]))
    if a.not_analysed:
        lines.append(f"  {len(a.not_analysed)} card(s) not fully analysed within the time limit "
                     f"({a.time_limit} s per position)")
    return "\n".join(lines) + "\n"
