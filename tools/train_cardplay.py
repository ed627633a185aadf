"""Train the learned card-play model (skat.players.cardmodel) on the card-play corpus and report.

Reads the corpus of tools/cardplay_corpus.py (JSON lines, or gzipped), rebuilds every labelled position by
replaying its deal (skat.players.playcorpus.positions), splits by deal (the last fifth held out) and trains with
PyTorch (the ``train`` extra; the shipped model is numpy weights):

* policy: cross-entropy against the search's values turned into a distribution over the legal cards
  (``softmax(±value / temperature)``, + for the declarer, - for a defender; ``--target played`` imitates the card
  played instead);
* value: the declarer's win (log loss) and his card points / 120 (squared error), from the deal's outcome (its own
  small perceptron: on the policy's trunk it made the policy worse; ``--ablations`` also trains it on the search's
  value of the best card, and on the mean of both).

The report (``--report DIR``: report.json, report.txt, calibration.png, accuracy.png) gives on the held-out deals
the policy's agreement with the search's best card (any card of the best value counts), the value lost per
decision against the search's best (its "regret", in the search's own units), the log loss, and the value head's
log loss, Brier score and calibration against the outcomes, also corpus by corpus; ``--ablations`` trains the
variants (no value head, the played card as target, a smaller network) and reports them side by side, and
``--baseline MODEL`` reports a model already trained (the shipped one, say) on the same held-out positions.

    python tools/train_cardplay.py bench/data/corpus/play-2041.jsonl.gz --model src/skat/data/card_model.npz \\
        --report bench/data/cardplay --ablations
"""

from __future__ import annotations

import argparse
import gzip
import json
import math
import sys
import time
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from skat.players.cardmodel import INPUT_SIZE, CardModel, features, game_index, suit_symmetries
from skat.players.playcorpus import positions

HELD_OUT = 0.2
CORPUS_STRIDE = 10_000_000
"""Deal numbers of the n-th corpus given on the command line are offset by n times this, so two never share one."""


def read_corpus(path: Path) -> tuple[dict, list[dict]]:
    """The corpus header and its deals, in deal order."""
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt") as f:
        lines = [line for line in f.read().splitlines() if line]
    header = json.loads(lines[0])
    deals = sorted((json.loads(line) for line in lines[1:]), key=lambda d: d["deal"])
    return header, deals


@dataclass
class Data:
    """The positions as arrays: inputs, legal cards, the search's values from the mover's side (NaN where not
    legal), the card played, the declarer's win and points, the deal each came from, the tricks played, the
    search's value of the mover's best card for the declarer (clipped to 0..1: his chance to win as it saw it), and
    whether the mover is the declarer."""

    x: np.ndarray
    legal: np.ndarray
    values: np.ndarray
    played: np.ndarray
    won: np.ndarray
    points: np.ndarray
    deal: np.ndarray
    trick: np.ndarray
    search: np.ndarray
    declares: np.ndarray

    def take(self, rows: np.ndarray) -> Data:
        return Data(*(getattr(self, f)[rows] for f in self.__dataclass_fields__))


def build(deals: list[dict], ruleset: str) -> Data:
    """Replay every deal and encode its labelled positions."""
    xs, legal, values, played, won, points, deal_of, trick, search, declares = [], [], [], [], [], [], [], [], [], []
    for record in deals:
        for pos in positions(record, ruleset):
            x = features(pos.view)
            sign = 1.0 if pos.view.seat == pos.declarer else -1.0
            v = np.full(32, np.nan, dtype=np.float32)
            for card, value in pos.values.items():
                v[card] = sign * value
            xs.append(x)
            legal.append(~np.isnan(v))
            values.append(v)
            played.append(pos.played)
            won.append(float(pos.won))
            points.append(np.nan if pos.declarer_points is None else pos.declarer_points / 120.0)  # Null: none
            deal_of.append(record["deal"])
            trick.append(len(pos.view.tricks))
            search.append(min(1.0, max(0.0, sign * float(np.nanmax(v)))))
            declares.append(sign > 0)
    return Data(np.stack(xs), np.stack(legal), np.stack(values), np.array(played), np.array(won, dtype=np.float32),
                np.array(points, dtype=np.float32), np.array(deal_of), np.array(trick),
                np.array(search, dtype=np.float32), np.array(declares, dtype=bool))


def policy_target(data: Data, temperature: float, target: str) -> np.ndarray:
    """The distribution over the 32 cards the policy is trained towards."""
    if target == "played":
        out = np.zeros((len(data.played), 32), dtype=np.float32)
        out[np.arange(len(data.played)), data.played] = 1.0
        return out
    v = np.where(data.legal, data.values, -np.inf) / temperature
    v = v - v.max(axis=1, keepdims=True)
    p = np.exp(v)
    return (p / p.sum(axis=1, keepdims=True)).astype(np.float32)


@dataclass(frozen=True)
class Setup:
    """One model to train."""

    name: str = "model"
    hidden: tuple[int, ...] = (512, 256)
    value_head: bool = True
    value_hidden: tuple[int, ...] = (128,)
    value_target: str = "outcome"
    win_weight: float = 0.2
    declarer_weight: float = 1.0
    """The policy loss of the declarer's positions counts this many times a defender's (a third of the positions)."""
    target: str = "search"
    temperature: float = 0.05
    epochs: int = 30
    augment: bool = True
    batch: int = 256
    lr: float = 1e-3
    weight_decay: float = 1e-5
    seed: int = 1


def train(setup: Setup, train_data: Data, held: Data) -> tuple[CardModel, dict]:
    """Train one network; the weights of the epoch with the best held-out policy loss."""
    import torch
    from torch import nn

    torch.manual_seed(setup.seed)
    torch.set_num_threads(max(1, torch.get_num_threads()))
    layers: list[nn.Module] = []
    width = INPUT_SIZE
    for h in setup.hidden:
        layers += [nn.Linear(width, h), nn.ReLU()]
        width = h
    trunk = nn.Sequential(*layers)
    value_layers: list[nn.Module] = []
    value_width = INPUT_SIZE
    for h in setup.value_hidden:
        value_layers += [nn.Linear(value_width, h), nn.ReLU()]
        value_width = h
    value_trunk = nn.Sequential(*value_layers)
    policy_head = nn.Linear(width, 32)
    value_head = nn.Linear(value_width if setup.value_hidden else width, 2)
    params = [*trunk.parameters(), *value_trunk.parameters(), *policy_head.parameters(), *value_head.parameters()]
    opt = torch.optim.AdamW(params, lr=setup.lr, weight_decay=setup.weight_decay)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=setup.epochs)

    def tensors(data: Data) -> tuple[torch.Tensor, ...]:
        win = {"outcome": data.won, "search": data.search, "mix": (data.won + data.search) / 2}[setup.value_target]
        weight = np.where(data.declares, setup.declarer_weight, 1.0).astype(np.float32)
        return (torch.from_numpy(data.x), torch.from_numpy(data.legal),
                torch.from_numpy(policy_target(data, setup.temperature, setup.target)),
                torch.from_numpy(np.asarray(win, dtype=np.float32)), torch.from_numpy(data.points),
                torch.from_numpy(weight))

    def losses(batch: tuple[torch.Tensor, ...]) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        x, legal, target, won, pts, weight = batch
        h = trunk(x)
        logits = policy_head(h).masked_fill(~legal, -1e9)
        policy_loss = (-(target * torch.log_softmax(logits, dim=1)).sum(dim=1) * weight).sum() / weight.sum()
        v = value_head(value_trunk(x) if setup.value_hidden else h)
        win_loss = nn.functional.binary_cross_entropy_with_logits(v[:, 0], won)
        counted = ~torch.isnan(pts)  # Null games have no card points to predict
        points_loss = ((v[:, 1] - torch.nan_to_num(pts)) ** 2 * counted).sum() / counted.sum().clamp(min=1)
        return policy_loss, win_loss, points_loss

    train_t, held_t = tensors(train_data), tensors(held)
    n = len(train_data.x)
    in_maps, card_maps, ranges = suit_symmetries()
    in_maps_t, card_maps_t = torch.from_numpy(in_maps), torch.from_numpy(card_maps)
    games = game_index(train_data.x)
    low = torch.from_numpy(np.array([ranges.get(int(g), (0, 1))[0] for g in games]))
    span = torch.from_numpy(np.array([ranges.get(int(g), (0, 1))[1] - ranges.get(int(g), (0, 1))[0]
                                      for g in games]))

    def augmented(rows: torch.Tensor) -> tuple[torch.Tensor, ...]:
        """The rows with each deal's suits permuted at random as its game allows (a fresh draw every time)."""
        x, legal, target, won, pts, weight = (t[rows] for t in train_t)
        if not setup.augment:
            return x, legal, target, won, pts, weight
        which = low[rows] + (torch.rand(len(rows), generator=gen) * span[rows]).long()
        x = torch.gather(x, 1, in_maps_t[which])
        cm = card_maps_t[which]
        return x, torch.gather(legal, 1, cm), torch.gather(target, 1, cm), won, pts, weight

    best: tuple[float, dict] | None = None
    curve = []
    gen = torch.Generator().manual_seed(setup.seed)
    for epoch in range(setup.epochs):
        trunk.train()
        order = torch.randperm(n, generator=gen)
        for start in range(0, n, setup.batch):
            rows = order[start:start + setup.batch]
            p, w, pt = losses(augmented(rows))
            loss = p + (setup.win_weight * w + pt if setup.value_head else 0.0)
            opt.zero_grad()
            loss.backward()
            opt.step()
        sched.step()
        with torch.no_grad():
            held_p, held_w, held_pt = (float(t) for t in losses(held_t))
        curve.append({"epoch": epoch + 1, "policy_loss": held_p, "win_loss": held_w, "points_loss": held_pt})
        if best is None or held_p < best[0]:
            state = {k: v.detach().clone() for k, v in
                     {**{f"t{k}": v for k, v in trunk.state_dict().items()},
                      **{f"u{k}": v for k, v in value_trunk.state_dict().items()},
                      **{f"p{k}": v for k, v in policy_head.state_dict().items()},
                      **{f"v{k}": v for k, v in value_head.state_dict().items()}}.items()}
            best = (held_p, state)
    assert best is not None
    state = best[1]
    weights: dict[str, np.ndarray] = {}
    linear = [i for i, m in enumerate(trunk) if isinstance(m, nn.Linear)]
    for k, i in enumerate(linear):
        weights[f"w{k}"] = state[f"t{i}.weight"].numpy().T.copy()
        weights[f"b{k}"] = state[f"t{i}.bias"].numpy().copy()
    for k, i in enumerate(i for i, m in enumerate(value_trunk) if isinstance(m, nn.Linear)):
        weights[f"vw{k}"] = state[f"u{i}.weight"].numpy().T.copy()
        weights[f"vb{k}"] = state[f"u{i}.bias"].numpy().copy()
    weights["policy_w"], weights["policy_b"] = state["pweight"].numpy().T.copy(), state["pbias"].numpy().copy()
    weights["value_w"], weights["value_b"] = state["vweight"].numpy().T.copy(), state["vbias"].numpy().copy()
    meta = {"setup": setup.__dict__ | {"hidden": list(setup.hidden), "value_hidden": list(setup.value_hidden)},
            "input": INPUT_SIZE,
            "train_positions": int(n), "train_deals": int(len(set(train_data.deal.tolist())))}
    return CardModel(weights, meta), {"curve": curve}


def regret_by_part(data: Data, regret: np.ndarray) -> dict[str, dict[str, float]]:
    """The mean regret of the declarer's and the defenders' decisions in suit, grand and Null games (and the number
    of positions of each)."""
    games = game_index(data.x)
    family = np.where(games == 5, "null", np.where(games == 4, "grand", "suit"))
    out = {}
    for part in ("suit", "grand", "null"):
        for role, rows in (("declarer", data.declares), ("defenders", ~data.declares)):
            at = rows & (family == part)
            if at.any():
                out[f"{part} {role}"] = {"positions": int(at.sum()), "regret": float(regret[at].mean())}
    return out


def evaluate(model: CardModel, data: Data) -> dict:
    """Held-out figures of a model (numpy forward pass, as at play time)."""
    logits, v = model.forward(data.x)
    pick = logits.argmax(axis=1)
    rows = np.arange(len(pick))
    best = np.nanmax(data.values, axis=1)
    chosen = data.values[rows, pick]
    played_value = data.values[rows, data.played]
    choice = data.legal.sum(axis=1) > 1
    p = 1.0 / (1.0 + np.exp(-v[:, 0].astype(np.float64)))
    eps = 1e-7
    target = policy_target(data, 0.05, "search")
    logp = logits - logits.max(axis=1, keepdims=True)
    logp = logp - np.log(np.exp(logp).sum(axis=1, keepdims=True))
    ce = float(-(target * np.where(data.legal, logp, 0.0)).sum(axis=1).mean())
    by_trick = {}
    for t in range(10):
        at = data.trick == t
        if at.any():
            by_trick[t] = float(np.mean(np.abs(chosen[at] - best[at]) < 1e-6))
    return {
        "positions": int(len(pick)),
        "best_card_agreement": float(np.mean(np.abs(chosen - best) < 1e-6)),
        "played_card_agreement": float(np.mean(pick == data.played)),
        "regret": float(np.mean(best - chosen)),
        "regret_of_the_search_card": float(np.mean(best - played_value)),
        "random_card_regret": float(np.mean(best - np.nanmean(data.values, axis=1))),
        "policy_cross_entropy": ce,
        "legal_cards_mean": float(data.legal[choice].sum(axis=1).mean()) if choice.any() else 0.0,
        "win_log_loss": float(-np.mean(data.won * np.log(p + eps) + (1 - data.won) * np.log(1 - p + eps))),
        "win_brier": float(np.mean((p - data.won) ** 2)),
        "win_base_rate_brier": float(np.mean((data.won.mean() - data.won) ** 2)),
        "points_mae": (float(np.nanmean(np.abs(v[:, 1] - data.points)) * 120.0) if np.isfinite(data.points).any()
                       else float("nan")),  # Null corpora have no card points to learn
        "best_card_agreement_by_trick": by_trick,
        "regret_by_part": regret_by_part(data, best - chosen),
        "win_probabilities": p.tolist(),
    }


def by_corpus(model: CardModel, held: Data, names: list[str]) -> dict[str, dict]:
    """The held-out agreement and regret of a model on each corpus alone (a deal's corpus is its number over
    :data:`CORPUS_STRIDE`, as :func:`main` numbers them)."""
    out = {}
    for number, name in enumerate(names):
        rows = np.flatnonzero(held.deal // CORPUS_STRIDE == number)
        if len(rows):
            figures = evaluate(model, held.take(rows))
            out[name] = {"positions": figures["positions"], "best_card_agreement": figures["best_card_agreement"],
                         "regret": figures["regret"], "win_brier": figures["win_brier"]}
    return out


def plots(results: dict[str, dict], held: Data, directory: Path) -> list[Path]:
    """calibration.png (the value head's win chance against the outcomes) and accuracy.png (agreement with the
    search's best card by trick), one line per model."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    out = []
    fig, ax = plt.subplots(figsize=(5.5, 5))
    ax.plot([0, 1], [0, 1], color="grey", linestyle=":", label="perfect")
    for name, res in results.items():
        p = np.array(res["win_probabilities"])
        if not len(p) or not res.get("value_head", True):
            continue
        edges = np.linspace(0, 1, 11)
        which = np.clip(np.digitize(p, edges) - 1, 0, 9)
        xs, ys = [], []
        for b in range(10):
            at = which == b
            if at.sum() >= 20:
                xs.append(float(p[at].mean()))
                ys.append(float(held.won[at].mean()))
        ax.plot(xs, ys, marker="o", label=name)
    ax.set_xlabel("the value head's chance that the declarer wins")
    ax.set_ylabel("share of those positions the declarer won")
    ax.set_title("Card-play model: calibration (held-out deals)")
    ax.legend(fontsize=8)
    fig.tight_layout()
    path = directory / "calibration.png"
    fig.savefig(path, dpi=110)
    plt.close(fig)
    out.append(path)
    fig, ax = plt.subplots(figsize=(6.5, 4))
    for name, res in results.items():
        by = res["best_card_agreement_by_trick"]
        ax.plot([int(t) + 1 for t in by], list(by.values()), marker="o", label=name)
    ax.set_xlabel("trick")
    ax.set_ylabel("agrees with the search's best card")
    ax.set_ylim(0, 1)
    ax.set_title("Card-play model: agreement by trick (held-out deals)")
    ax.legend(fontsize=8)
    fig.tight_layout()
    path = directory / "accuracy.png"
    fig.savefig(path, dpi=110)
    plt.close(fig)
    out.append(path)
    return out


def text_report(header: dict, results: dict[str, dict], sizes: dict) -> str:
    lines = [f"card-play model trained on {sizes['train_positions']} positions of {sizes['train_deals']} deals; "
             f"held out {sizes['held_positions']} positions of {sizes['held_deals']} deals "
             f"(corpus seed {header.get('seed')}, player {header.get('players')})", ""]
    keys = [("best_card_agreement", "agrees with the search's best card"),
            ("played_card_agreement", "the card the search played"),
            ("regret", "value lost a decision (search units)"),
            ("policy_cross_entropy", "policy cross-entropy"),
            ("win_log_loss", "win log loss"), ("win_brier", "win Brier"), ("points_mae", "points MAE")]
    names = list(results)
    lines.append(f"{'':40s}" + "".join(f"{n:>18s}" for n in names))
    for key, label in keys:
        lines.append(f"{label:40s}" + "".join(f"{results[n][key]:18.4f}" for n in names))
    first = results[names[0]]
    parts = list(first["regret_by_part"])
    lines += ["", "value lost a decision by role and game (positions held out):"]
    lines.append(f"{'':40s}" + "".join(f"{n:>18s}" for n in names))
    for part in parts:
        label = f"{part} ({first['regret_by_part'][part]['positions']})"
        lines.append(f"{label:40s}" + "".join(f"{results[n]['regret_by_part'].get(part, {}).get('regret', float('nan')):18.4f}"
                                              for n in names))
    if len(first.get("by_corpus", {})) > 1:
        lines += ["", "agreement with the search's best card / value lost a decision, by corpus (positions held out):"]
        lines.append(f"{'':40s}" + "".join(f"{n:>18s}" for n in names))
        for corpus, figures in first["by_corpus"].items():
            label = f"{corpus} ({figures['positions']})"
            lines.append(f"{label:40s}" + "".join(
                f"{results[n]['by_corpus'][corpus]['best_card_agreement']:9.4f}"
                f"{results[n]['by_corpus'][corpus]['regret']:9.4f}" for n in names))
    lines += ["", f"reference: a random legal card loses {first['random_card_regret']:.4f} a decision; "
              f"predicting the base rate gives a win Brier of {first['win_base_rate_brier']:.4f}; "
              f"{first['legal_cards_mean']:.2f} legal cards on average"]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("corpus", type=Path, nargs="+", help="corpus files (each split by its own deals)")
    parser.add_argument("--model", type=Path, default=None, help="write the trained model here (.npz)")
    parser.add_argument("--report", type=Path, default=None, help="a directory for the report and the plots")
    parser.add_argument("--ablations", nargs="?", const="all", default=None, metavar="NAMES",
                        help="also train the variants and report them: all of them, or the comma-separated NAMES")
    parser.add_argument("--epochs", type=int, default=30)
    parser.add_argument("--hidden", default="512,256", help="hidden layer widths")
    parser.add_argument("--first", type=int, default=None, help="use only the first N deals of each corpus")
    parser.add_argument("--baseline", type=Path, default=None, metavar="MODEL",
                        help="also report this model (.npz, e.g. the shipped one) on the same held-out positions")
    args = parser.parse_args(argv)
    corpora = [path.name.split(".")[0] for path in args.corpus]
    if len(set(corpora)) < len(corpora):
        parser.error(f"two corpora have the same name ({', '.join(corpora)}): the report names each by its file")
    try:
        import torch  # noqa: F401
    except ImportError:
        print("train_cardplay: PyTorch is needed to train: pip install -e '.[train]'", file=sys.stderr)
        return 2
    parts, held_masks, headers, count = [], [], [], 0
    started = time.perf_counter()
    for number, path in enumerate(args.corpus):
        header, deals = read_corpus(path)
        deals = deals[:args.first] if args.first else deals
        if len(deals) < 10:
            print(f"train_cardplay: {path} has {len(deals)} deals, too few to train on", file=sys.stderr)
            return 2
        part = build(deals, header.get("ruleset", "isko2018"))
        cut = deals[int(len(deals) * (1 - HELD_OUT))]["deal"]
        held_masks.append(part.deal >= cut)
        part.deal = part.deal + number * CORPUS_STRIDE
        parts.append(part)
        headers.append(header)
        count += len(deals)
    data = Data(*(np.concatenate([getattr(p, f) for p in parts]) for f in Data.__dataclass_fields__))
    held_rows = np.concatenate(held_masks)
    train_data, held = data.take(np.flatnonzero(~held_rows)), data.take(np.flatnonzero(held_rows))
    header = {"seed": [h.get("seed") for h in headers], "players": sorted({p for h in headers for p in h["players"]})}
    sizes = {"train_positions": len(train_data.x), "train_deals": len(set(train_data.deal.tolist())),
             "held_positions": len(held.x), "held_deals": len(set(held.deal.tolist()))}
    print(f"{len(data.x)} positions from {count} deals encoded in {time.perf_counter() - started:.0f} s; "
          f"{sizes}", flush=True)
    base = Setup(hidden=tuple(int(h) for h in args.hidden.split(",")), epochs=args.epochs)
    setups = [replace(base, name="model")]
    if args.ablations:
        setups += [replace(base, name="declarer x3", declarer_weight=3.0),
                   replace(base, name="shared trunk", value_hidden=()),
                   replace(base, name="win: mix", value_target="mix"),
                   replace(base, name="win: search", value_target="search"),
                   replace(base, name="no suit permutations", augment=False),
                   replace(base, name="played card", target="played"),
                   replace(base, name="small (128)", hidden=(128,))]
        if args.ablations != "all":
            wanted = {n.strip() for n in args.ablations.split(",")}
            unknown = wanted - {s.name for s in setups}
            if unknown:
                print(f"train_cardplay: no variant {', '.join(sorted(unknown))}; the variants are "
                      f"{', '.join(s.name for s in setups[1:])}", file=sys.stderr)
                return 2
            setups = [s for s in setups if s.name == "model" or s.name in wanted]
    results: dict[str, dict] = {}
    models: dict[str, CardModel] = {}
    if args.baseline is not None:
        try:
            baseline = CardModel.load(args.baseline)
        except (OSError, KeyError, ValueError) as e:
            print(f"train_cardplay: cannot read the baseline model {args.baseline}: {e}", file=sys.stderr)
            return 2
    for setup in setups:
        t0 = time.perf_counter()
        model, info = train(setup, train_data, held)
        results[setup.name] = evaluate(model, held) | info | {"train_s": round(time.perf_counter() - t0, 1),
                                                               "size_bytes": model.size_bytes,
                                                               "value_head": setup.value_head,
                                                               "by_corpus": by_corpus(model, held, corpora)}
        models[setup.name] = model
        r = results[setup.name]
        print(f"{setup.name}: agreement {r['best_card_agreement']:.3f}, regret {r['regret']:.4f}, "
              f"win Brier {r['win_brier']:.4f} ({r['train_s']} s)", flush=True)
    if args.baseline is not None:
        results["baseline"] = evaluate(baseline, held) | {"size_bytes": baseline.size_bytes,
                                                            "by_corpus": by_corpus(baseline, held, corpora)}
        r = results["baseline"]
        print(f"baseline {args.baseline}: agreement {r['best_card_agreement']:.3f}, regret {r['regret']:.4f}, "
              f"win Brier {r['win_brier']:.4f}", flush=True)
    print(text_report(header, results, sizes))
    if args.model is not None:
        model = models["model"]
        model.meta.update(corpus=[c.name for c in args.corpus], corpus_seed=header.get("seed"), held_out=HELD_OUT,
                          held_out_best_card_agreement=round(results["model"]["best_card_agreement"], 4))
        model.save(args.model)
        print(f"wrote {args.model} ({args.model.stat().st_size} bytes)")
    if args.report is not None:
        args.report.mkdir(parents=True, exist_ok=True)
        for path in plots(results, held, args.report):
            print(f"wrote {path}")
        slim = {k: {kk: vv for kk, vv in r.items() if kk != "win_probabilities"} for k, r in results.items()}
        (args.report / "report.json").write_text(json.dumps({"corpus": [str(c) for c in args.corpus], "sizes": sizes,
                                                             "results": slim}, indent=1) + "\n")
        (args.report / "report.txt").write_text(text_report(header, results, sizes))
    if not all(math.isfinite(r["regret"]) for r in results.values()):
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
