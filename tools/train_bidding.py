"""Fit the learned win probabilities of contracts (skat.players.learned) on a bidding corpus and report.

Reads the corpus of tools/bidding_corpus.py (JSON lines, or gzipped), splits it by deal (the last fifth
of the deals held out), fits one logistic model per family of contract with scikit-learn (training only:
the shipped model is numpy weights), and prints per family the held-out log loss and Brier score of the
model against the heuristic's own estimate (skat.players.heuristic.win_probability, the prior the
simulation bidder starts from). ``--plot`` draws the calibration curves, ``--model`` writes the weights.

    python tools/train_bidding.py /work/corpus/bidding-2029.jsonl --plot calibration.png --model win.npz
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
from collections import defaultdict
from pathlib import Path

import numpy as np

from skat.players.arena import new_game
from skat.players.duel import HELD_OUT
from skat.players.heuristic import HeuristicPlayer, game_value, hand_strength, win_probability
from skat.players.learned import (
    FAMILIES,
    SKAT_FAMILIES,
    WinModel,
    contract_features,
    family,
    skat_family,
    skat_features,
)
from skat.rules.contract import Contract
from skat.rules.ranking import GameType
from skat.rules.rulesets import get_ruleset

_NULL = 5
HEURISTIC = HeuristicPlayer(0)
BIDDING_FEATURES = 2
"""contract_features' last values: the bids heard (left out with --no-heard)."""


def read_corpus(path: Path) -> list[dict]:
    """The deals of a corpus file (its header line skipped)."""
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt") as f:
        lines = [line for line in f.read().splitlines() if line]
    return [json.loads(line) for line in lines[1:]]


def heuristic_probability(hand: int, gt: int, hand_game: bool) -> float:
    """The heuristic's chance for a contract, as the simulation bidder's prior takes it."""
    strength = hand_strength(hand, gt)
    if gt == _NULL:
        return win_probability(gt, strength if hand_game else max(0.0, strength - 0.6))
    return win_probability(gt, strength if hand_game else strength + 1.0)


def opponents_heard(deal_seed: int, ruleset: str = "isko2018") -> list[int]:
    """Per seat, the bid its opponents would have gone to: the higher of their heuristic bid limits (the
    corpus's auctions are all passes, so this is what contract_features' ``heard`` is fitted on)."""
    game = new_game(deal_seed, get_ruleset(ruleset))
    limits = [HEURISTIC.bid_limit(game.view(seat).hand.mask) for seat in range(3)]
    return [max(limits[s] for s in range(3) if s != seat) for seat in range(3)]


def _row(rows: dict[str, list], x: np.ndarray, contract: dict, test: bool, heuristic: float, value: int) -> None:
    """Add one played contract to a family's rows."""
    rows["x"].append(x)
    rows["y"].append(float(contract["won"]))
    rows["h"].append(heuristic)
    rows["test"].append(test)
    rows["sf"].append(float(contract["sf"]))
    rows["value"].append(float(value))


def expected_scores(p: np.ndarray, value: np.ndarray) -> np.ndarray:
    """:func:`skat.players.heuristic.expected_score` of arrays."""
    return p * (value + 50) - (1 - p) * (2 * value + 50)


def rmse(predicted: np.ndarray, played: np.ndarray) -> float:
    """Root mean square error of expected scores against the scores played."""
    return round(float(np.sqrt(np.mean((predicted - played) ** 2))), 2)


def log_loss(y: np.ndarray, p: np.ndarray) -> float:
    p = np.clip(p, 1e-6, 1 - 1e-6)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("corpus", type=Path)
    parser.add_argument("--held-out", type=float, default=HELD_OUT,
                        help="the share of deals (the last ones) held out, the ones a duel judges")
    parser.add_argument("--plot", type=Path, default=None, help="write the calibration curves (PNG)")
    parser.add_argument("--model", type=Path, default=None, help="write the fitted weights (.npz)")
    parser.add_argument("--json", type=Path, default=None, help="write the report as JSON")
    parser.add_argument("--first", type=int, default=None, metavar="N",
                        help="fit on the first N deals of the file only (in file order: a corpus only grows, so "
                             "a model stays reproducible from a longer corpus)")
    parser.add_argument("--no-heard", action="store_true", help="fit without the bids heard (an ablation)")
    args = parser.parse_args(argv)
    from sklearn.linear_model import LogisticRegression, Ridge

    deals = read_corpus(args.corpus)
    if args.first is not None:
        if args.first < 1:
            parser.error(f"--first must be at least 1, not {args.first}")
        deals = deals[: args.first]
    if len(deals) < 10:
        print(f"train_bidding: {len(deals)} deals are too few to fit and test on", file=sys.stderr)
        return 2
    cut = sorted(d["deal"] for d in deals)[int(len(deals) * (1 - args.held_out))]
    rows: dict[str, dict[str, list]] = defaultdict(lambda: {"x": [], "y": [], "h": [], "test": [], "sf": [],
                                                            "value": []})
    for deal in deals:
        heard = opponents_heard(deal["seed"])
        test = deal["deal"] >= cut
        for c in deal["contracts"]:
            gt, seat, hand = c["gt"], c["seat"], c["hand"]
            x = contract_features(hand, gt, seat, heard[seat])
            _row(rows[family(gt, c["hand_game"])], x[:-BIDDING_FEATURES] if args.no_heard else x, c, test,
                 heuristic_probability(hand, gt, c["hand_game"]),
                 game_value(Contract(GameType(gt), hand=c["hand_game"]), hand))
            if not c["hand_game"]:  # the same game judged after the pickup, on the ten cards kept
                kept = (hand | c["skat"]) & ~c["discard"]
                _row(rows[skat_family(gt)], skat_features(kept, c["discard"], gt, seat, heard[seat]), c, test,
                     heuristic_probability(kept, gt, True), game_value(Contract(GameType(gt)), hand | c["skat"]))
    report: dict[str, dict] = {}
    weights, scores = {}, {}
    curves = {}
    for name in FAMILIES + SKAT_FAMILIES:
        if name not in rows:
            continue
        x, y = np.array(rows[name]["x"]), np.array(rows[name]["y"])
        h, test = np.array(rows[name]["h"]), np.array(rows[name]["test"])
        train = ~test
        if train.sum() < 20 or test.sum() < 10 or len(set(y[train])) < 2:
            report[name] = {"contracts": int(len(y)), "skipped": "too few to fit"}
            continue
        mean, scale = x[train].mean(axis=0), x[train].std(axis=0)
        scale[scale == 0] = 1.0
        z = (x - mean) / scale
        fit = LogisticRegression(C=1.0, max_iter=2000).fit(z[train], y[train])
        p = fit.predict_proba(z[test])[:, 1]
        weights[name] = (mean, scale, fit.coef_[0], float(fit.intercept_[0]))
        sf, value = np.array(rows[name]["sf"]), np.array(rows[name]["value"])
        ridge = Ridge(alpha=1.0).fit(z[train], sf[train])
        scores[name] = (mean, scale, ridge.coef_, float(ridge.intercept_))

        report[name] = {"contracts": int(len(y)), "train": int(train.sum()), "test": int(test.sum()),
                        "won": round(float(y.mean()), 3), "log_loss": round(log_loss(y[test], p), 4),
                        "heuristic_log_loss": round(log_loss(y[test], h[test]), 4),
                        "brier": round(float(np.mean((p - y[test]) ** 2)), 4),
                        "heuristic_brier": round(float(np.mean((h[test] - y[test]) ** 2)), 4),
                        "sf_rmse_heuristic": rmse(expected_scores(h[test], value[test]), sf[test]),
                        "sf_rmse_learned_p": rmse(expected_scores(p, value[test]), sf[test]),
                        "sf_rmse_score_model": rmse(ridge.predict(z[test]), sf[test]),
                        "sf_mean": round(float(sf[test].mean()), 1)}
        curves[name] = (y[test], p, h[test])
    print(f"{len(deals)} deals ({sum(len(d['contracts']) for d in deals)} contracts); deals from {cut} held out")
    print(f"{'family':12s} {'contracts':>9s} {'won':>6s} {'log loss':>9s} {'heuristic':>9s} {'Brier':>7s} "
          f"{'heuristic':>9s}")
    for name, r in report.items():
        if "skipped" in r:
            print(f"{name:12s} {r['contracts']:9d}  {r['skipped']}")
            continue
        print(f"{name:12s} {r['contracts']:9d} {r['won']:6.1%} {r['log_loss']:9.4f} {r['heuristic_log_loss']:9.4f} "
              f"{r['brier']:7.4f} {r['heuristic_brier']:9.4f}")
    print("expected Seeger-Fabian score, held out (root mean square error against the score played; the "
          "heuristic's and the learned chance with the value of the ten cards, and the score model):")
    for name, r in report.items():
        if "skipped" not in r:
            print(f"  {name:12s} mean {r['sf_mean']:+7.1f}: heuristic {r['sf_rmse_heuristic']:6.1f}, learned chance "
                  f"{r['sf_rmse_learned_p']:6.1f}, score model {r['sf_rmse_score_model']:6.1f}")
    if args.model:
        WinModel(weights, scores).save(args.model)
        print(f"model written to {args.model} ({args.model.stat().st_size} bytes)")
    if args.plot and curves:
        plot_calibration(curves, args.plot)
        print(f"calibration curves written to {args.plot}")
    if args.json:
        args.json.write_text(json.dumps({"deals": len(deals), "first": args.first, "held_out_from": cut,
                                         "families": report}, indent=1))
    return 0


def plot_calibration(curves: dict, path: Path, bins: int = 10) -> None:
    """Observed win rate against predicted chance, in ``bins`` bins, per family (model and heuristic)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = -(-len(curves) // 3)
    fig, axes = plt.subplots(rows, 3, figsize=(12, 4 * rows), sharex=True, sharey=True, squeeze=False)
    for ax, (name, (y, p, h)) in zip(axes.flat, curves.items()):
        for probs, label, style in ((p, "learned", "o-"), (h, "heuristic", "s--")):
            edges = np.linspace(0, 1, bins + 1)
            which = np.clip(np.digitize(probs, edges) - 1, 0, bins - 1)
            xs = [probs[which == b].mean() for b in range(bins) if (which == b).sum() >= 5]
            ys = [y[which == b].mean() for b in range(bins) if (which == b).sum() >= 5]
            ax.plot(xs, ys, style, label=label)
        ax.plot([0, 1], [0, 1], ":", color="grey")
        ax.set_title(f"{name} ({len(y)} held out)" + (": after the pickup" if name.endswith("skat") else ""))
        ax.set_xlabel("predicted chance to win")
        ax.set_ylabel("won")
        ax.legend(loc="upper left")
    for ax in list(axes.flat)[len(curves):]:
        ax.set_visible(False)
    fig.tight_layout()
    fig.savefig(path, dpi=80)
    plt.close(fig)


if __name__ == "__main__":
    sys.exit(main())
