"""Where the learned card-play model could stand in for the search: measured on held-out corpus positions.

    python tools/cardplay_cuts.py bench/data/corpus/play-2041.jsonl.gz ... --report bench/data/cardplay

For every held-out position (the last fifth of each corpus's deals, as ``tools/train_cardplay.py`` holds them out)
in the first ``--tricks`` tricks, two ways to skip the search and play the policy's card instead:

* **policy cut**: the policy is sure (its best card has probability at least tau);
* **value cut**: the value head says the deal is decided (the declarer's win chance at most eps or at least 1 - eps).

For each threshold the table gives the share of those positions cut, the mean value the policy's card loses there
against the search's best (search units: the declarer's chance to reach his goal; the search's own labels), how
much the legal cards differ there at all (best minus worst), and for the value cut how often the value head's
verdict was the deal's outcome. A cut pays where it skips many searches at a loss far below the policy's loss
everywhere (the policy alone loses about 0.018 a decision): that time buys more worlds for the decisions that
matter. The report (``cuts.txt``, ``cuts.json``) goes beside the training report.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from train_cardplay import HELD_OUT, Data, build, read_corpus  # noqa: E402

from skat.players.cardmodel import CardModel, shipped_card_model  # noqa: E402

POLICY_TAUS = (0.5, 0.7, 0.8, 0.9, 0.95, 0.98)
VALUE_EPS = (0.2, 0.1, 0.05, 0.02, 0.01)


def held_out(paths: list[Path]) -> Data:
    """The held-out positions of the corpora (the last fifth of each one's deals)."""
    parts = []
    for path in paths:
        header, deals = read_corpus(path)
        cut = deals[int(len(deals) * (1 - HELD_OUT))]["deal"]
        parts.append(build([d for d in deals if d["deal"] >= cut], header.get("ruleset", "isko2018")))
    return Data(*(np.concatenate([getattr(p, f) for p in parts]) for f in Data.__dataclass_fields__))


def cut_rows(kind: str, threshold: float, sure: np.ndarray, win: np.ndarray, at: np.ndarray,
             data: Data, regret: np.ndarray, spread: np.ndarray) -> dict[str, float]:
    """The figures of one cut rule among positions ``at``."""
    cut = at & (sure >= threshold if kind == "policy" else (win <= threshold) | (win >= 1 - threshold))
    n = int(at.sum())
    row: dict[str, float] = {"threshold": threshold, "share_cut": float(cut.sum()) / n if n else 0.0,
                             "positions_cut": int(cut.sum())}
    if cut.any():
        row["policy_loss_where_cut"] = float(regret[cut].mean())
        row["policy_loss_where_searched"] = float(regret[at & ~cut].mean()) if (at & ~cut).any() else 0.0
        row["loss_per_decision"] = float(regret[cut].sum()) / n
        row["cards_differ_where_cut"] = float(spread[cut].mean())
        if kind == "value":
            row["verdict_right"] = float(np.mean((win[cut] >= 0.5) == (data.won[cut] >= 0.5)))
    return row


def measure(model: CardModel, data: Data, tricks: int) -> dict:
    """Both cut rules at every threshold, over the positions of the first ``tricks`` tricks."""
    logits, v = model.forward(data.x)
    logits = np.where(data.legal, logits, -np.inf)
    prob = np.exp(logits - logits.max(axis=1, keepdims=True))
    prob /= prob.sum(axis=1, keepdims=True)
    pick = prob.argmax(axis=1)
    rows = np.arange(len(pick))
    best = np.nanmax(data.values, axis=1)
    regret = best - data.values[rows, pick]
    spread = best - np.nanmin(data.values, axis=1)
    sure = prob.max(axis=1)
    win = 1.0 / (1.0 + np.exp(-v[:, 0].astype(np.float64)))
    at = (data.trick < tricks) & (data.legal.sum(axis=1) > 1)
    return {
        "positions": int(at.sum()),
        "tricks": tricks,
        "policy_loss_everywhere": float(regret[at].mean()),
        "policy": [cut_rows("policy", t, sure, win, at, data, regret, spread) for t in POLICY_TAUS],
        "value": [cut_rows("value", e, sure, win, at, data, regret, spread) for e in VALUE_EPS],
    }


def text(figures: dict) -> str:
    """The figures as the report's table."""
    lines = [f"{figures['positions']} held-out decisions in the first {figures['tricks']} tricks; the policy's card "
             f"loses {figures['policy_loss_everywhere']:.4f} a decision everywhere (search units)", "",
             f"{'cut':22s} {'share':>6s} {'loss there':>10s} {'elsewhere':>9s} {'per dec.':>8s} {'cards differ':>12s}"
             f" {'verdict':>7s}"]
    for kind, label in (("policy", "policy sure >= {:.2f}"), ("value", "value decided eps {:.2f}")):
        for row in figures[kind]:
            if not row["positions_cut"]:
                lines.append(f"{label.format(row['threshold']):22s} {0:6.1%}")
                continue
            verdict = f"{row['verdict_right']:7.1%}" if "verdict_right" in row else f"{'':7s}"
            lines.append(f"{label.format(row['threshold']):22s} {row['share_cut']:6.1%} "
                         f"{row['policy_loss_where_cut']:10.4f} {row['policy_loss_where_searched']:9.4f} "
                         f"{row['loss_per_decision']:8.4f} {row['cards_differ_where_cut']:12.4f} {verdict}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("corpus", type=Path, nargs="+", help="corpus files (their last fifth is held out)")
    parser.add_argument("--model", type=Path, default=None, help="a model file (default: the shipped model)")
    parser.add_argument("--tricks", type=int, default=7, help="the first N tricks, where the search is dear")
    parser.add_argument("--report", type=Path, default=None, metavar="DIR", help="write cuts.txt and cuts.json there")
    args = parser.parse_args(argv)
    if not 1 <= args.tricks <= 10:
        parser.error("--tricks is 1 to 10")
    model = CardModel.load(args.model) if args.model else shipped_card_model()
    figures = measure(model, held_out(args.corpus), args.tricks)
    figures["corpus"] = [str(p) for p in args.corpus]
    report = text(figures)
    print(report)
    if args.report:
        args.report.mkdir(parents=True, exist_ok=True)
        (args.report / "cuts.txt").write_text(report + "\n")
        (args.report / "cuts.json").write_text(json.dumps(figures, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
