"""The observation encoding of one seat's view: what the PettingZoo environment (:mod:`skat.players.env`) gives
its agents and what the learned card-play model (:mod:`skat.players.cardmodel`) reads. numpy only (no PettingZoo):
the model uses it at play time.

One flat ``float32`` vector of :data:`OBSERVATION_SIZE` values, its parts in :data:`LAYOUT` (docs/env.md), seats
counted relative to the observer (me, left, right). Built only from :meth:`skat.deal.game.Game.view`, so nothing the
seat may not know is in it. :func:`legal_cards` is the action encoding of the card play: the 32 cards, by
:class:`skat.cards.Card` number.
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np

from skat.cards import Card
from skat.enums import GameType, Phase
from skat.rules.actions import Play

__all__ = ["LAYOUT", "OBSERVATION_SIZE", "OFFSET", "encode_view", "legal_cards", "effective_suit", "mask_bits"]

_PHASES = tuple(Phase)
_GAMES = (GameType.DIAMONDS, GameType.HEARTS, GameType.SPADES, GameType.CLUBS, GameType.GRAND, GameType.NULL)
LAYOUT: tuple[tuple[str, int], ...] = (
    ("hand", 32),  # own cards
    ("skat", 32),  # the skat this seat picked up or was shown
    ("discard", 32),  # the two cards this seat put away
    ("open", 32),  # cards shown open (an ouvert declarer's hand)
    ("played", 3 * 32),  # the cards each seat has played, by relative seat (me, left, right)
    ("trick", 3 * 32),  # the current trick's cards, by relative seat
    ("leader", 3),  # who led the current trick (relative seat)
    ("tricks_won", 3),  # tricks taken per relative seat, / 10
    ("points", 3),  # card points taken per relative seat, / 120
    ("void", 2 * 5),  # shown not to hold: each other seat's suits (diamonds, hearts, spades, clubs) and trump
    ("seat", 3),  # own seat: forehand, middlehand, rearhand
    ("declarer", 4),  # no declarer, me, left, right
    ("game", 7),  # diamonds ... grand, null; none
    ("levels", 4),  # hand, Schneider announced, Schwarz announced, ouvert
    ("phase", len(_PHASES)),
    ("bid", 1),  # the auction's value, / 264
    ("kontra", 2),  # Kontra, Re
    ("ramsch", 1),  # the deal is a Ramsch
)
"""The parts of the observation vector, in order, with their lengths."""
OBSERVATION_SIZE = sum(n for _, n in LAYOUT)
OFFSET = dict(zip([name for name, _ in LAYOUT], itertools.accumulate([0, *[n for _, n in LAYOUT]]), strict=False))


_BITS = np.arange(32, dtype=np.int64)


def mask_bits(masks: np.ndarray) -> np.ndarray:
    """Card masks (an int64 array of any shape) as the encoding's 0/1 rows of 32 (``float32``), card ``c`` at
    place ``c``: many hands or legal cards encoded at once."""
    return ((masks[..., None] >> _BITS) & 1).astype(np.float32)


def effective_suit(card: Card, game: GameType | None) -> int:
    """0..3 the suit a card follows (diamonds, hearts, spades, clubs), 4 trump, under the game (None: grand's)."""
    if game is None or game in (GameType.GRAND,):
        return 4 if card.name[1] == "J" else "DHSC".index(card.name[0])
    if game == GameType.NULL:
        return "DHSC".index(card.name[0])
    trump = {GameType.DIAMONDS: "D", GameType.HEARTS: "H", GameType.SPADES: "S", GameType.CLUBS: "C"}[game]
    if card.name[1] == "J" or card.name[0] == trump:
        return 4
    return "DHSC".index(card.name[0])


def encode_view(view: Any) -> np.ndarray:
    """One seat's view (:class:`~skat.deal.game.SeatView`) as the observation vector: nothing the seat may not
    know is in it, because the view holds nothing else."""
    obs = np.zeros(OBSERVATION_SIZE, dtype=np.float32)
    me = view.seat

    def rel(seat: int) -> int:
        return (seat - me) % 3

    def cards(part: str, items: Any, block: int = 0) -> None:
        base = OFFSET[part] + 32 * block
        for c in items:
            obs[base + int(c)] = 1.0

    cards("hand", view.hand)
    if view.skat:
        cards("skat", view.skat)
    if view.discard:
        cards("discard", view.discard)
    for shown in view.open_hands.values():
        cards("open", shown)
    game = view.contract.game_type if view.contract is not None else None
    ramsch = view.contract is None and view.phase in (Phase.PLAY, Phase.FINISHED) and view.declarer is None
    for leader, trick, _ in view.tricks:
        led = effective_suit(trick[0], game)
        for i, card in enumerate(trick):
            seat = (leader + i) % 3
            cards("played", [card], rel(seat))
            if i and effective_suit(card, game) != led and rel(seat):
                obs[OFFSET["void"] + 5 * (rel(seat) - 1) + led] = 1.0
    if view.trick:
        led = effective_suit(view.trick[0][1], game)
        obs[OFFSET["leader"] + rel(view.trick[0][0])] = 1.0
        for i, (seat, card) in enumerate(view.trick):
            cards("trick", [card], rel(seat))
            cards("played", [card], rel(seat))
            if i and effective_suit(card, game) != led and rel(seat):
                obs[OFFSET["void"] + 5 * (rel(seat) - 1) + led] = 1.0
    for _, _, winner in view.tricks:
        obs[OFFSET["tricks_won"] + rel(winner)] += 0.1
    for seat in range(3):
        obs[OFFSET["points"] + rel(seat)] = view.trick_points[seat] / 120.0
    obs[OFFSET["seat"] + me] = 1.0
    obs[OFFSET["declarer"] + (0 if view.declarer is None else 1 + rel(view.declarer))] = 1.0
    obs[OFFSET["game"] + (_GAMES.index(game) if game in _GAMES else 6)] = 1.0
    if view.contract is not None:
        c = view.contract
        for i, flag in enumerate((c.hand, c.schneider, c.schwarz, c.ouvert)):
            obs[OFFSET["levels"] + i] = float(bool(flag))
    obs[OFFSET["phase"] + _PHASES.index(view.phase)] = 1.0
    obs[OFFSET["bid"]] = view.bid / 264.0
    if view.kontra_level >= 1:
        obs[OFFSET["kontra"]] = 1.0
    if view.kontra_level >= 2:
        obs[OFFSET["kontra"] + 1] = 1.0
    obs[OFFSET["ramsch"]] = float(ramsch)
    return obs


def legal_cards(view: Any) -> np.ndarray:
    """The cards the seat may play now as a mask over the 32 cards (``bool``; all False outside the card play)."""
    mask = np.zeros(32, dtype=bool)
    for action in view.legal_actions:
        if isinstance(action, Play):
            mask[int(action.card)] = True
    return mask
