"""How much the others' card plays tell about their hands, by likelihood: the rank of the true world among sampled ones.

For positions of held-out corpus deals (the last fifth of each card-play corpus, which the model was not trained
on; tools/cardplay_corpus.py), the seat to move samples a pool of worlds consistent with what it knows
(skat.players.worlds), the true world is added, and each likelihood of skat.players.inference weighs them all. The
figure is the true world's mean rank among the sampled ones (0.5: the likelihood tells nothing; 1.0: the true world
always weighs most; ties count half). Anchor, in the same run: the hand-written card-play likelihood that `strong`
uses today (PlayLikelihood, sharpness 2.0). Also the milliseconds a likelihood takes to weigh the pool.

    python bench/inference.py bench/data/corpus/play-2041.jsonl.gz --positions 300

``--calibration`` asks instead whether the worlds a player searches are spread as the true deal is: for decisions
from the second to the seventh trick of held-out deals, with the auction's and the policy's likelihood together,
the share of the searched worlds that are less likely than the true one. Over many decisions its mean is 0.5 when
the worlds are a sample of what the seat should believe (above: too unsure, the true world beats most of the worlds
searched; below: too sure). Anchor: `strong` today, the 60 most likely of a pool of 240 (Gumbel top-k, each once);
against it the draws with replacement of skat.players.inference.draw_worlds by the likelihood to several powers.

    python bench/inference.py bench/data/corpus/play-2043.jsonl.gz --calibration --deals 100
"""

from __future__ import annotations

import argparse
import gzip
import json
import math
import random
import statistics
import sys
import time
from pathlib import Path

from skat.players.arena import new_game
from skat.players.inference import (
    AuctionLikelihood,
    Inference,
    PlayLikelihood,
    PolicyLikelihood,
    draw_worlds,
    select_worlds,
)
from skat.players.worlds import Knowledge, World, sample_worlds
from skat.rules.actions import parse_action
from skat.rules.rulesets import get_ruleset


def held_out(path: Path) -> list[dict]:
    """The last fifth of a corpus file's deals (the trainer's held-out split)."""
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt") as f:
        lines = [line for line in f.read().splitlines() if line]
    deals = sorted((json.loads(line) for line in lines[1:]), key=lambda d: d["deal"])
    return deals[int(len(deals) * 0.8):]


def positions(deals: list[dict], count: int, rng: random.Random) -> list[tuple[object, Knowledge, tuple]]:
    """Card decisions from the second half of the play (the others have played), with the true hands."""
    out = []
    for record in deals:
        labels = [lab["i"] for lab in record["labels"]]
        if len(labels) < 8:
            continue
        stop = labels[rng.randrange(len(labels) // 2, len(labels))]
        game = new_game(record["seed"], get_ruleset("isko2018"))
        for seat, token in record["actions"][:stop]:
            game.apply(parse_action(token), seat)
        view = game.view(game.to_move)
        out.append((view, Knowledge.from_view(view), tuple(game.view(s).hand.mask for s in range(3))))
        if len(out) >= count:
            break
    return out


def early_positions(deals: list[dict], rng: random.Random) -> list[tuple[object, Knowledge, tuple]]:
    """Every third labelled card decision of the first two thirds of each deal after its first, with the true hands."""
    out = []
    for record in deals:
        labels = [lab["i"] for lab in record["labels"]]
        for stop in labels[1:len(labels) * 2 // 3:3]:
            game = new_game(record["seed"], get_ruleset("isko2018"))
            for seat, token in record["actions"][:stop]:
                game.apply(parse_action(token), seat)
            view = game.view(game.to_move)
            know = Knowledge.from_view(view)
            if know.declarer is not None:
                out.append((view, know, tuple(game.view(s).hand.mask for s in range(3))))
    return out


POWERS = (0.5, 0.75, 1.0)


def calibration(deals: list[dict], rng: random.Random, pool_size: int = 240, searched: int = 60) -> int:
    """Print the mean share of searched worlds less likely than the true one, by scheme and role (see the module)."""
    likelihood = Inference(AuctionLikelihood(temperature=10.0), PolicyLikelihood())
    shares: dict[tuple[str, str], list[float]] = {}
    effective: dict[str, list[float]] = {}  # Kish's effective size of the pool under the full likelihood
    found = early_positions(deals, rng)
    for view, know, hands in found:
        pool = sample_worlds(know, pool_size, rng)
        true = World(hands, pool[0].skat)
        weights = likelihood.log_weights(likelihood.prepare(view, know), [*pool, true])
        mine = weights[-1]
        below = {id(w): (lw < mine) + 0.5 * (lw == mine) for w, lw in zip(pool, weights[:-1])}
        role = "declarer" if view.seat == view.declarer else "defender"
        top = max(weights[:-1])
        plain = [math.exp(lw - top) for lw in weights[:-1]]
        effective.setdefault(role, []).append(sum(plain) ** 2 / sum(w * w for w in plain))
        schemes = {f"strong today: the {searched} most likely of {pool_size}":
                   select_worlds(pool, weights[:-1], searched, rng)}
        for power in POWERS:
            schemes[f"{searched} draws by the likelihood to the power {power}"] = draw_worlds(
                pool, weights[:-1], searched, rng, power)
        for name, worlds in schemes.items():
            shares.setdefault((name, role), []).append(statistics.mean(below[id(w)] for w in worlds))
    print(f"{len(found)} decisions (tricks 2 to 7) of {len(deals)} held-out deals, a pool of {pool_size}, "
          f"{searched} worlds searched; share of them less likely than the true world (0.5: calibrated)")
    for role in ("declarer", "defender"):
        print(f"  {role:8s} the pool's effective size under the likelihood (Kish): median "
              f"{statistics.median(effective[role]):.0f} of {pool_size}")
        anchor = statistics.mean(shares[(next(iter(shares))[0], role)])
        for (name, who), values in shares.items():
            if who != role:
                continue
            mean = statistics.mean(values)
            sd = statistics.stdev(values) / len(values) ** 0.5
            tails = (sum(v < 0.1 for v in values) / len(values), sum(v > 0.9 for v in values) / len(values))
            print(f"  {role:8s} {name:48s} {mean:.3f} ± {1.96 * sd:.3f}  (anchor {mean - anchor:+.3f}; "
                  f"below 0.1: {tails[0]:.2f}, above 0.9: {tails[1]:.2f}; n {len(values)})")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("corpus", type=Path, nargs="+")
    parser.add_argument("--positions", type=int, default=300)
    parser.add_argument("--pool", type=int, default=160, help="worlds sampled per position (strong: 160)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--calibration", action="store_true",
                        help="the spread of the worlds searched against the true deal (see the module)")
    parser.add_argument("--deals", type=int, default=100, help="held-out deals for --calibration")
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    deals = [d for path in args.corpus for d in held_out(path)]
    if args.calibration:
        return calibration(deals[:args.deals], rng)
    found = positions(deals, args.positions, rng)
    likelihoods = {
        "hand-written plays (strong today)": PlayLikelihood(sharpness=2.0),
        "learned policy": PolicyLikelihood(),
        "auction + hand-written plays": Inference(AuctionLikelihood(temperature=10.0), PlayLikelihood(sharpness=2.0)),
        "auction + learned policy": Inference(AuctionLikelihood(temperature=10.0), PolicyLikelihood()),
    }
    ranks: dict[str, list[float]] = {name: [] for name in likelihoods}
    times: dict[str, list[float]] = {name: [] for name in likelihoods}
    for view, know, hands in found:
        pool = sample_worlds(know, args.pool, rng)
        true = World(hands, pool[0].skat)  # the skat as the pool guesses it: only the hands are judged
        for name, likelihood in likelihoods.items():
            started = time.perf_counter()
            prepared = likelihood.prepare(view, know)
            batch = getattr(likelihood, "log_weights", None)
            weights = (batch(prepared, [*pool, true]) if batch is not None
                       else [likelihood.log_weight(prepared, w) for w in [*pool, true]])
            times[name].append(time.perf_counter() - started)
            mine, others = weights[-1], weights[:-1]
            ranks[name].append((sum(o < mine for o in others) + 0.5 * sum(o == mine for o in others)) / len(others))
    print(f"{len(found)} positions of {len(deals)} held-out deals, {args.pool} worlds each")
    anchor = statistics.mean(ranks["hand-written plays (strong today)"])
    for name in likelihoods:
        mean = statistics.mean(ranks[name])
        sd = statistics.stdev(ranks[name]) / len(ranks[name]) ** 0.5
        print(f"  {name:36s} true world's mean rank {mean:.3f} ± {1.96 * sd:.3f}   (anchor {mean - anchor:+.3f}); "
              f"weighing the pool {1000 * statistics.median(times[name]):.1f} ms median")
    return 0


if __name__ == "__main__":
    sys.exit(main())
