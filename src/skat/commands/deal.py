"""Play one deal with random legal actions and print its JSON record (a quick look at the engine)."""

from __future__ import annotations

import argparse
import json
import random

from skat.game import Game


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--seed", type=int, default=None, help="deal and play seed")


def run(args: argparse.Namespace) -> int:
    rng = random.Random(args.seed)
    game = Game(seed=args.seed)
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
    print(json.dumps(game.to_record(), indent=1))
    return 0
