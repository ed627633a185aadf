"""How well the learned bidder's chances hold in the games a level really plays, and the model refitted to them.

The bidding model was fitted on contracts that ``medium`` played out in all three seats; ``strong`` plays the
cards better as declarer and as defender. Given arena checkpoints of matches between players that bid alike (every
``strong`` variant bids with the same learned bidder), this replays each deal's auction
(:func:`skat.players.calibration.replay_declared`) and prints, for pickup and for hand games, by bins of the chance
the bidder judged its planned contract by: the games, the mean chance, the rate won, and the expected Seeger-Fabian
score a game at the chance (seen), at the rate won (true), and in the arena's measure (the true score less 80/3 for
each lost game: the 40 each defender gets, over the six seatings of a duplicate deal). Then, per family, the log loss
of the model and of its Platt correction fitted on all checkpoints and, leaving each checkpoint out in turn, on the
one left out. ``--write MODEL --families F,...`` writes the model with those families corrected.

    python tools/calibrate_bidding.py bench/data/arena/2026-12-05c/strong-2026-12-2051.jsonl ... \\
        --write src/skat/data/win_model_strong.npz --families "suit hand"
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from skat.players.calibration import Declared, fit_platt, log_loss, recalibrated, replay_declared
from skat.players.heuristic import expected_score
from skat.players.learned import FAMILIES, WinModel, shipped_model

ARENA_LOSS = 80 / 3
"""What a lost game costs the declarer's player beyond his own score in a duplicate match at a table of three: each
defender gets 40, and over the three seatings that put the player in the declarer's seat the two defenders are both
the other player once (80) and one of each twice (0)."""

BINS = (0.0, 0.5, 0.6, 0.65, 0.7, 0.75, 0.8, 0.9, 1.01)


def calibration_table(rows: Iterable[Declared]) -> list[dict[str, Any]]:
    """By bins of the planned chance: the games, the mean chance, the rate won, and the expected score a game at
    the chance (``seen``), at the rate won (``true``) and in the arena's measure (``arena``)."""
    rows = list(rows)
    out = []
    for lo, hi in zip(BINS, BINS[1:], strict=False):
        inside = [r for r in rows if lo <= r.planned_p < hi]
        if not inside:
            continue
        n = len(inside)
        rate = [r.won / r.games for r in inside]
        true = sum(expected_score(q, r.value) for q, r in zip(rate, inside, strict=True)) / n
        out.append({"bin": [lo, min(hi, 1.0)], "deals": n, "chance": sum(r.planned_p for r in inside) / n,
                    "won": sum(rate) / n, "seen": sum(expected_score(r.planned_p, r.value) for r in inside) / n,
                    "true": true, "arena": true - sum((1 - q) * ARENA_LOSS for q in rate) / n})
    return out


def format_table(title: str, table: list[dict[str, Any]]) -> str:
    """A calibration table as text."""
    lines = [title, f"{'planned chance':>16} {'deals':>6} {'chance':>7} {'won':>6} {'seen':>7} {'true':>7} {'arena':>7}"]
    for b in table:
        lo, hi = b["bin"]
        lines.append(f"{f'[{lo:.2f}, {hi:.2f})':>16} {b['deals']:>6} {b['chance']:>7.3f} {b['won']:>6.3f} "
                     f"{b['seen']:>7.1f} {b['true']:>7.1f} {b['arena']:>7.1f}")
    return "\n".join(lines)


def family_fits(model: WinModel, rows: list[Declared]) -> list[dict[str, Any]]:
    """Per family: the deals, the Platt correction on all rows, and the log loss of the model and of the correction,
    on all rows and leaving each checkpoint out in turn (the correction fitted on the others, judged on it)."""
    out = []
    for name in FAMILIES:
        mine = [r for r in rows if r.family == name]
        if not mine:
            continue
        a, b = fit_platt(model, mine)
        held_model = held_fit = 0.0
        judged = 0
        for match in sorted({r.match for r in mine}):
            train = [r for r in mine if r.match != match]
            test = [r for r in mine if r.match == match]
            if not any(r.won for r in train) or not any(r.won < r.games for r in train):  # both outcomes to fit
                continue
            games = sum(r.games for r in test)
            held_model += log_loss(model, test) * games
            held_fit += log_loss(model, test, fit_platt(model, train)) * games
            judged += games
        out.append({"family": name, "deals": len(mine), "a": a, "b": b, "log_loss": log_loss(model, mine),
                    "log_loss_fit": log_loss(model, mine, (a, b)),
                    "held_out_log_loss": held_model / judged if judged else None,
                    "held_out_log_loss_fit": held_fit / judged if judged else None})
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("checkpoints", nargs="+", type=Path, help="arena checkpoints (.jsonl) of matches whose two "
                        "players bid alike")
    parser.add_argument("--level", default="strong", help="the level whose bidders replay the auctions")
    parser.add_argument("--write", type=Path, help="write the model with the --families corrected here")
    parser.add_argument("--families", default="", help="comma-separated families to correct (e.g. 'suit hand')")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args(argv)
    families = [f.strip() for f in args.families.split(",") if f.strip()]
    unknown = [f for f in families if f not in FAMILIES]
    if unknown:
        parser.error(f"unknown families {unknown}; choose among {', '.join(FAMILIES)}")
    if args.write and not families:
        parser.error("--write needs --families: the families whose correction to fold into the model")
    rows: list[Declared] = []
    left_out = 0
    for path in args.checkpoints:
        found, missed = replay_declared(path, args.level)
        rows += found
        left_out += missed
    model = shipped_model()
    pickups = [r for r in rows if not r.hand_game]
    hands = [r for r in rows if r.hand_game]
    result: dict[str, Any] = {"checkpoints": [str(p) for p in args.checkpoints], "deals": len(rows),
                              "left_out": left_out, "pickup": calibration_table(pickups),
                              "hand": calibration_table(hands), "families": family_fits(model, rows)}
    print(f"{len(rows)} declared deals from {len(args.checkpoints)} checkpoints ({left_out} left out: the replayed "
          "declarer or contract not among the recorded games); expected score a game in SF points (seen: at the "
          "planned chance; true: at the rate won; arena: the true score less 80/3 for each lost game)")
    print(format_table(f"pickup games ({len(pickups)}): the best pickup contract reaching the bid", result["pickup"]))
    print(format_table(f"hand games ({len(hands)})", result["hand"]))
    print(f"{'family':>12} {'deals':>6} {'a':>6} {'b':>7} {'log loss':>9} {'fitted':>7} {'held out':>9} {'fitted':>7}")
    for f in result["families"]:
        held = ("-" if f["held_out_log_loss"] is None
                else f"{f['held_out_log_loss']:>9.4f} {f['held_out_log_loss_fit']:>7.4f}")
        print(f"{f['family']:>12} {f['deals']:>6} {f['a']:>6.3f} {f['b']:>+7.3f} {f['log_loss']:>9.4f} "
              f"{f['log_loss_fit']:>7.4f} {held}")
    if args.write:
        fits = {f["family"]: (f["a"], f["b"]) for f in result["families"]}
        missing = [f for f in families if f not in fits]
        if missing:
            parser.error(f"no declared deals of {missing} to fit")
        recalibrated(model, {f: fits[f] for f in families}).save(args.write)
        result["written"] = {"path": str(args.write), "families": {f: fits[f] for f in families}}
        print(f"wrote {args.write}: {', '.join(f'{f} a={fits[f][0]:.3f} b={fits[f][1]:+.3f}' for f in families)}")
    if args.json:
        args.json.write_text(json.dumps(result, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
