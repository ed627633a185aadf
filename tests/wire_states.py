"""Seeded random states of every variant, for the wire tests (tests/test_wire.py).

Each variant's games are played by a seeded random policy that passes often in the auction (so that
Ramsch, Schieberamsch and Grand Hand offers come up), prefers ouvert declarations now and then, and
sometimes claims, concedes, resigns or says Kontra/Re. The same seed always gives the same states,
so the golden file (tests/data/wire_golden.json) pins the JSON the server sends for them.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

from skat.deal.game import Game, Phase
from skat.rules.actions import PASS, TURN, Declare
from skat.rules.rulesets import ISKO, PIRATE, PUB, TOURNEE
from skat.variants.officers import OfficersGame
from skat.variants.tournee import TourneeGame

SCHIEBERAMSCH = PUB.replace(schieberamsch=True)


def _standard(ruleset: Any, ramsch_every: int = 0) -> Callable[[int], Game]:
    def make(seed: int) -> Game:
        start = "ramsch" if ramsch_every and seed % ramsch_every == 0 else "auction"
        return Game(seed=seed, ruleset=ruleset, start=start)
    return make


SKAT_VARIANTS: dict[str, Callable[[int], Any]] = {
    "isko": _standard(ISKO),
    "pub": _standard(PUB),
    "schieberamsch": _standard(SCHIEBERAMSCH, ramsch_every=3),
    "pirate": _standard(PIRATE, ramsch_every=4),
    "real_table": _standard(ISKO.replace(real_table=True)),
    "tournee": lambda seed: TourneeGame(seed, ruleset=TOURNEE),
}
"""Three-player variants: standard Skat under several rule sets, and Tournee Skat."""

OFFICERS_VARIANTS: dict[str, Callable[[int], OfficersGame]] = {
    "officers_classic": lambda seed: OfficersGame("classic", seed=seed, allow_null=True, allow_ramsch=True),
    "officers_passing": lambda seed: OfficersGame("passing", seed=seed, allow_ramsch=True),
    "officers_harlequin": lambda seed: OfficersGame("harlequin", seed=seed, allow_null=True),
    "officers_half_open": lambda seed: OfficersGame("half_open", seed=seed),
    "officers_admiral": lambda seed: OfficersGame("admiral", seed=seed),
}

VARIANTS: dict[str, Callable[[int], Any]] = {**SKAT_VARIANTS, **OFFICERS_VARIANTS}


def _choose(game: Any, rng: random.Random) -> tuple[int, Any]:
    """(seat, action) of the random policy."""
    seat = game.to_move
    if isinstance(game, Game) and game.phase is Phase.PLAY and rng.random() < 0.05:
        others = [s for s in range(3) if game.side_actions(s)]
        if others:
            side = rng.choice(others)
            return side, rng.choice(game.side_actions(side))
    legal = game.legal_actions()
    if PASS in legal and game.phase in (Phase.BIDDING, Phase.GRAND_HAND) and rng.random() < 0.5:
        return seat, PASS
    if TURN in legal and rng.random() < 0.5:
        return seat, TURN  # Tournee: turn up a skat card (one of some twenty choices otherwise)
    ouvert = [a for a in legal if isinstance(a, Declare) and a.contract.ouvert]
    if ouvert and rng.random() < 0.3:
        return seat, rng.choice(ouvert)
    return seat, rng.choice(legal)


def states(variant: str, seed: int) -> Iterator[Any]:
    """Every state of one seeded random game, the finished one included (the same object, moved on)."""
    game = VARIANTS[variant](seed)
    rng = random.Random(f"{variant}:{seed}")
    while True:
        yield game
        if game.is_over:
            return
        seat, action = _choose(game, rng)
        game.apply(action, seat)


def seats(game: Any) -> range:
    return range(2) if isinstance(game, OfficersGame) else range(3)
