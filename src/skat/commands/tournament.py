"""A club tournament (ISPA/DSkV Preisskat) kept in one file: the draw, the tables' lists, the ranking, printing.

  skat tournament draw players.txt --seed 7        the draw of a first series (--json); no file is written
  skat tournament new "Club cup" --players players.txt -o cup.json [--ruleset isko --games4 48 --games3 36]
  skat tournament next cup.json --seed 7           draw the next series by lot into the file (and print it)
  skat tournament next cup.json --by-ranking       ... by the ranking so far: the best at table 1
  skat tournament record cup.json 1 2 table2.json  hand in the list of series 1, table 2 (a keeper's file,
                                                   JSON or YAML: docs/keeper.md); a list in progress counts
                                                   as it stands
  skat tournament register cup.json "Eva Groß"     a late player (drawn from the next series on)
  skat tournament withdraw cup.json "Eva Groß"     drawn no more; keeps his points
  skat tournament ranking cup.json [--json | --csv | --pdf ranking.pdf]
  skat tournament lists cup.json 2 --pdf series2.pdf [--blank]
                                                   every table's list of series 2, to print

A players file has one name a line (blank lines and lines starting with # are skipped), or is JSON: a list of
names or a tournament file. Every change goes through skat.table.tournament (docs/keeper.md, "Tournament"); an
impossible one stops with exit status 2 and a message, and no file is changed.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
from pathlib import Path
from typing import Any

from skat.commands.sheet import read_file
from skat.errors import SkatError
from skat.table.keeper import KeeperError, ScoreKeeper
from skat.table.tournament import DEFAULT_GAMES, Tournament, TournamentError, draw

PROG = "skat tournament"


class CommandError(SkatError):
    """Bad input to the command: the message says what to do."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    sub = parser.add_subparsers(dest="action", metavar="ACTION", required=True)

    p = sub.add_parser("draw", help="the draw of a first series (nothing is written)")
    p.add_argument("players", metavar="PLAYERS_FILE", help="one name a line, or a JSON list or tournament file")
    p.add_argument("--seed", type=int, help="the seed of the lot (the same seed gives the same draw)")
    _tables_of(p)
    p.add_argument("--json", action="store_true", help="print the draw as JSON")

    p = sub.add_parser("new", help="a new tournament file")
    p.add_argument("name", help="the tournament's name")
    p.add_argument("--players", required=True, metavar="FILE", help="the players: one name a line, or JSON")
    p.add_argument("-o", "--output", required=True, metavar="TOURNAMENT.json", help="the file to write")
    p.add_argument("--ruleset", default="isko", help="the rule set every list is kept under (default isko)")
    p.add_argument("--games4", type=int, default=DEFAULT_GAMES[4], metavar="N",
                   help=f"the games of a 4-table's list (default {DEFAULT_GAMES[4]})")
    p.add_argument("--games3", type=int, default=DEFAULT_GAMES[3], metavar="N",
                   help=f"the games of a 3-table's list (default {DEFAULT_GAMES[3]})")
    p.add_argument("--force", action="store_true", help="overwrite the file if it exists")

    p = sub.add_parser("next", help="draw the next series into the file and print it")
    p.add_argument("file", metavar="TOURNAMENT.json")
    how = p.add_mutually_exclusive_group()
    how.add_argument("--seed", type=int, help="draw by lot with this seed (default: a seed drawn now, printed)")
    how.add_argument("--by-ranking", action="store_true", help="seat by the ranking so far: the best at table 1")
    _tables_of(p)
    p.add_argument("--json", action="store_true", help="print the draw as JSON")

    p = sub.add_parser("record", help="hand in the list of a table (finished or in progress)")
    p.add_argument("file", metavar="TOURNAMENT.json")
    p.add_argument("series", type=int, metavar="SERIES", help="the series, from 1")
    p.add_argument("table", type=int, metavar="TABLE", help="the table, from 1")
    p.add_argument("list", metavar="LIST_FILE", help="the table's keeper's file (JSON or YAML, docs/keeper.md)")

    for action, what in (("register", "register a late player (drawn from the next series on)"),
                         ("withdraw", "withdraw a player: drawn no more, he keeps his points")):
        p = sub.add_parser(action, help=what)
        p.add_argument("file", metavar="TOURNAMENT.json")
        p.add_argument("player", help="the player's name")

    p = sub.add_parser("ranking", help="the ranking: text, --json, --csv or --pdf FILE")
    p.add_argument("file", metavar="TOURNAMENT.json")
    out = p.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true", help="print the ranking as JSON")
    out.add_argument("--csv", action="store_true", help="print the ranking as CSV")
    out.add_argument("--pdf", metavar="OUT.pdf", help="write the ranking as a PDF")
    p.add_argument("--lang", choices=("en", "de", "ru", "pl", "ko"), default="en", help="the PDF's language (default en)")

    p = sub.add_parser("lists", help="every table's list of a series as a PDF, filled or --blank")
    p.add_argument("file", metavar="TOURNAMENT.json")
    p.add_argument("series", type=int, metavar="SERIES", help="the series, from 1")
    p.add_argument("--pdf", required=True, metavar="OUT.pdf", help="the PDF to write")
    p.add_argument("--blank", action="store_true", help="blank lists to keep by hand (default: as handed in)")
    p.add_argument("--lang", choices=("en", "de", "ru", "pl", "ko"), default="en", help="the PDF's language (default en)")


def _tables_of(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--tables-of", nargs="+", type=int, metavar="SIZE",
                        help="the table sizes, each 3 or 4 (such as 3 3 3 3 for 12 players); default: as few "
                             "tables as possible, the 4-tables first")


def run(args: argparse.Namespace) -> int:
    try:
        return _ACTIONS[args.action](args)
    except (TournamentError, KeeperError, CommandError) as exc:
        print(f"{PROG}: {exc}", file=sys.stderr)
        return 2


# ---------------------------------------------------------------------- files
def read_players(path: str) -> list[str]:
    """The names of a players file: one a line (# comments), a JSON list of names, or a tournament file (its
    players still active)."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise CommandError(f"cannot read {path}: {exc.strerror}") from None
    stripped = text.lstrip("\ufeff").strip()
    if Path(path).suffix.lower() == ".json" or stripped[:1] in ("[", "{"):
        try:
            data = json.loads(stripped)
        except json.JSONDecodeError as exc:
            raise CommandError(f"{path} is not valid JSON ({exc})") from None
        if isinstance(data, dict):
            return Tournament.from_json(data).active
        if not isinstance(data, list) or not all(isinstance(n, str) for n in data):
            raise CommandError(f"{path}: a JSON players file is a list of names or a tournament file")
        names = [n.strip() for n in data]
    else:
        names = [line.strip() for line in stripped.splitlines()]
        names = [n for n in names if n and not n.startswith("#")]
    if not names:
        raise CommandError(f"{path} names no players: write one name a line")
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise CommandError(f"{path} names {', '.join(twice)} twice: player names must differ")
    return names


def load(path: str) -> Tournament:
    """The tournament of a file :func:`save` wrote."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise CommandError(f"cannot read {path}: {exc.strerror}") from None
    try:
        return Tournament.from_json_text(text)
    except TournamentError as exc:
        raise CommandError(f"{path}: {exc}") from None


def _write(path: str, data: bytes) -> None:
    """Write ``data`` to ``path`` whole or not at all (a temporary file beside it, then renamed)."""
    target = Path(path)
    if target.is_dir():
        raise CommandError(f"{path} is a folder: name a file")
    try:
        fd, tmp = tempfile.mkstemp(dir=target.parent if str(target.parent) else ".", prefix=f".{target.name}.")
    except OSError as exc:
        raise CommandError(f"cannot write {path}: {exc.strerror}") from None
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
        os.replace(tmp, target)
    except OSError as exc:
        Path(tmp).unlink(missing_ok=True)
        raise CommandError(f"cannot write {path}: {exc.strerror}") from None


def save(path: str, tournament: Tournament) -> None:
    _write(path, (tournament.to_json_text() + "\n").encode("utf-8"))


# ---------------------------------------------------------------------- actions
def _print_draw(tables: list[list[str]], seed: int | None, series: int | None, as_json: bool) -> None:
    """The draw; ``seed`` None: by the ranking."""
    if as_json:
        out: dict[str, Any] = {"series": series, "by": "lot" if seed is not None else "ranking"}
        if seed is not None:
            out["seed"] = seed
        print(json.dumps({**out, "tables": tables}, ensure_ascii=False))
        return
    how = f"drawn by lot (seed {seed})" if seed is not None else "drawn by the ranking"
    print(f"series {series}, {how}" if series else how)
    for number, table in enumerate(tables, 1):
        print(f"table {number} ({len(table)}): {', '.join(table)}")


def _draw(args: argparse.Namespace) -> int:
    names = read_players(args.players)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1_000_000)
    tables = draw(names, seed, sizes=args.tables_of)
    _print_draw(tables, seed, None, args.json)
    return 0


def _new(args: argparse.Namespace) -> int:
    names = read_players(args.players)
    if Path(args.output).exists() and not args.force:
        raise CommandError(f"{args.output} exists: choose another file, or --force to overwrite it")
    t = Tournament(names, name=args.name, ruleset=args.ruleset, games={4: args.games4, 3: args.games3})
    save(args.output, t)
    print(f"{args.output}: {t.name or 'a tournament'}, {len(t.players)} players, {t.ruleset}, "
          f"{t.games[4]} games at a 4-table, {t.games[3]} at a 3-table")
    return 0


def _next(args: argparse.Namespace) -> int:
    t = load(args.file)
    number = len(t.series) + 1
    if args.by_ranking:
        missing = [f"{s}.{n}" for s, series in enumerate(t.series, 1) for n, k in enumerate(series.tables, 1)
                   if k is None]
        if missing:
            print(f"{PROG}: note: no list yet for series.table {', '.join(missing)}: the ranking counts without it",
                  file=sys.stderr)
        series = t.draw_series(by_ranking=True, sizes=args.tables_of)
        seed = None
    else:
        seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1_000_000)
        series = t.draw_series(seed, sizes=args.tables_of)
    save(args.file, t)
    _print_draw(series.draw, seed, number, args.json)
    return 0


def _record(args: argparse.Namespace) -> int:
    t = load(args.file)
    keeper = ScoreKeeper.from_json(read_file(args.list), author=PROG)
    t.record(args.series, args.table, keeper)
    save(args.file, t)
    state = "complete" if keeper.complete else f"{keeper.played} of {keeper.limit} games" if keeper.limit \
        else f"{keeper.played} games"
    points = ", ".join(f"{p} {sf}" for p, sf in zip(keeper.players, keeper.seeger_fabian, strict=True))
    print(f"series {args.series} table {args.table} recorded ({state}): {points}")
    return 0


def _register(args: argparse.Namespace) -> int:
    t = load(args.file)
    name = t.register(args.player)
    save(args.file, t)
    print(f"{name} registered: drawn from series {len(t.series) + 1} on")
    return 0


def _withdraw(args: argparse.Namespace) -> int:
    t = load(args.file)
    t.withdraw(args.player)
    save(args.file, t)
    print(f"{args.player} withdrawn: drawn no more, his points stay in the ranking")
    return 0


def _ranking(args: argparse.Namespace) -> int:
    from skat.table import printing  # ReportLab only where a PDF or the CSV is made

    t = load(args.file)
    if args.pdf:
        _write(args.pdf, printing.ranking_pdf(t, lang=args.lang))
        print(f"{args.pdf}: the ranking after {len(t.series)} series")
    elif args.csv:
        sys.stdout.write(printing.ranking_csv(t))
    elif args.json:
        print(json.dumps({"name": t.name, "series": len(t.series), "ranking": [s.to_json() for s in t.ranking()]},
                         indent=1, ensure_ascii=False))
    else:
        print(format_ranking(t))
    return 0


def format_ranking(t: Tournament) -> str:
    """The ranking as text: rank, player, points, won, lost, and each series' points."""
    lines = t.ranking()
    width = max([6, *(len(s.player) for s in lines)])
    series = [f"S{i}" for i in range(1, len(t.series) + 1)]
    head = f"{'rank':>4}  {'player':<{width}} {'points':>6} {'won':>3} {'lost':>4}" + "".join(f"{s:>6}" for s in series)
    title = " — ".join(w for w in (t.name, f"ranking after {len(t.series)} series") if w)
    out = [title, head, "-" * len(head)]
    for s in lines:
        cells = "".join(f"{'' if x is None else x:>6}" for x in s.series)
        mark = "  (withdrawn)" if s.withdrawn else ""
        out.append(f"{s.rank:>4}  {s.player:<{width}} {s.points:>6} {s.won:>3} {s.lost:>4}{cells}{mark}")
    return "\n".join(out)


def _lists(args: argparse.Namespace) -> int:
    from skat.table import printing

    t = load(args.file)
    pdf = printing.series_tables_pdf(t, args.series, blank=args.blank, lang=args.lang)
    _write(args.pdf, pdf)
    tables = len(t.series[args.series - 1].draw)
    print(f"{args.pdf}: {'blank ' if args.blank else ''}lists of series {args.series}, {tables} tables")
    return 0


_ACTIONS = {"draw": _draw, "new": _new, "next": _next, "record": _record, "register": _register,
            "withdraw": _withdraw, "ranking": _ranking, "lists": _lists}
