"""Card values by playouts: each candidate card is played in each world and the deal goes on as the learned policy
plays it from each seat's own view, until a few tricks are left; the solver finishes it exactly.

Plain PIMC (:func:`skat.players.pimc.card_values`) solves every world double dummy: after the card, every seat
plays as if it saw every hand, the defenders in particular as if each saw the other's cards and the declarer's.
That is strategy fusion, and it flatters the cards whose value rests on later plays no one could find without
seeing the cards. A playout instead lets each seat choose by the learned card-play model
(:mod:`skat.players.cardmodel`) from what that seat could see then (its hand in the world, the public cards), so a
card is judged by what players who do not see through the cards make of it: imperfect-information Monte Carlo with
the policy as the players of the rest of the deal (Furtak and Buro, "Recursive Monte Carlo search for imperfect
information games", CIG 2013, with a PIMC player where this has the policy). Once :data:`SOLVE_FROM` tricks
or fewer are left, strategy fusion costs little (docs/players.md: alpha-mu changed almost nothing there), and the
solver gives the exact card points.

All playouts of a decision run together: one batch of (world, card) rows, one forward pass of the model a card
played. Each row's input is the model's encoding (:func:`skat.players.encoding.encode_view`) of the mover's view in
that row, built from card masks with numpy; the one part no seat can know in a world (which two cards the declarer
picked up) is left empty for the others' views, as the likelihood of the card plays leaves it
(:class:`skat.players.inference.PolicyLikelihood`). Suit and grand games without Schwarz announced; elsewhere the
caller keeps to the plain search.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

import numpy as np

from skat.cards import CARD_POINTS, Card, CardSet
from skat.deal.game import SeatView
from skat.players.encoding import OBSERVATION_SIZE, OFFSET, effective_suit, encode_view, mask_bits
from skat.players.handbatch import card_points
from skat.players.worlds import exact_value, legal_cards, next_leader, tricks_left
from skat.rules.ranking import FOLLOW_MASK, GameType, winner_index

if TYPE_CHECKING:
    from skat.players.budget import Budget
    from skat.players.cardmodel import CardModel
    from skat.players.worlds import Knowledge

__all__ = ["SOLVE_FROM", "applies", "playout_values", "Playouts"]

SOLVE_FROM = 5
"""With this many tricks left or fewer the solver finishes a playout (exact card points)."""

_POINTS = np.array([CARD_POINTS[c] for c in range(32)], dtype=np.int64)
_SUIT_OF = {gt: np.array([effective_suit(Card(c), GameType(gt)) for c in range(32)], dtype=np.int64)
            for gt in range(5)}
_FOLLOW = {gt: np.array(FOLLOW_MASK[gt], dtype=np.int64) for gt in range(5)}
_DYNAMIC = ("hand", "skat", "discard", "open", "played", "trick", "leader", "tricks_won", "points", "void")


def applies(view: SeatView, solve_from: int = SOLVE_FROM) -> bool:
    """Whether a card decision in ``view`` is valued by playouts: a suit or grand game without Schwarz announced
    (nor ouvert), more than ``solve_from`` tricks left."""
    contract = view.contract
    if contract is None or view.declarer is None or contract.is_null or contract.schwarz or contract.ouvert:
        return False
    return tricks_left(view) > solve_from


class Playouts:
    """One decision's playouts: the (world, card) rows and their state as the deal goes on (see the module
    docstring). ``hands`` are the worlds' current hands (W × 3 masks), ``skats`` their skats, ``cards`` the
    candidate cards of the seat to move."""

    def __init__(self, view: SeatView, know: Knowledge, model: CardModel, hands: np.ndarray, skats: np.ndarray,
                 cards: list[int]) -> None:
        contract = view.contract
        assert contract is not None and view.declarer is not None and view.seat is not None
        self.gt = int(contract.game_type)
        self.declarer = view.declarer
        self.me = view.seat
        self.model = model
        self.target = 90 if contract.schneider else 61
        n_worlds, n_cards = len(hands), len(cards)
        rows = n_worlds * n_cards
        self.card_of = np.tile(np.array(cards, dtype=np.int64), n_worlds)
        self.hands = np.repeat(hands.astype(np.int64), n_cards, axis=0)  # B x 3
        self.skats = np.repeat(skats.astype(np.int64), n_cards)
        self.rows = np.arange(rows)
        self.width = model.first_layer()[0].shape[0]  # the observation and the legal cards
        played = [0, 0, 0]
        voids = np.zeros((3, 5), dtype=np.float32)
        won = [0, 0, 0]
        for leader, trick_cards, winner in view.tricks:
            self._note(played, voids, leader, [int(c) for c in trick_cards])
            won[winner] += 1
        self.trick_leader = view.trick[0][0] if view.trick else next_leader(view)
        now = [int(c) for _s, c in view.trick]
        self._note(played, voids, self.trick_leader, now)
        self.played = np.tile(np.array(played, dtype=np.int64), (rows, 1))
        self.voids = np.tile(voids, (rows, 1, 1))
        self.won = np.tile(np.array(won, dtype=np.float32), (rows, 1))
        self.points = np.tile(np.array(view.trick_points, dtype=np.int64), (rows, 1))
        self.leader = np.full(rows, self.trick_leader, dtype=np.int64)
        self.trick = np.full((rows, 3), -1, dtype=np.int64)
        self.trick[:, :len(now)] = now
        self.trick_len = len(now)
        self.tricks_left = tricks_left(view)
        # Each seat's view, its public part that no card play changes (seat, declarer, contract, bid, Kontra).
        assert all(OFFSET[name] < OFFSET["seat"] for name in _DYNAMIC)
        empty = CardSet.from_mask(0)
        self.static = np.zeros((3, OBSERVATION_SIZE), dtype=np.float32)
        for s in range(3):
            public = replace(view, seat=s, hand=empty, skat=None, discard=None, tricks=[], trick=[], open_hands={},
                             trick_points=(0, 0, 0), legal_actions=[], side_actions=[])
            self.static[s] = encode_view(public)
            self.static[s, :OFFSET["seat"]] = 0.0
        # What only the seat deciding knows of its own: the skat it picked up and its discard as the declarer.
        self.own_skat = view.skat.mask if view.skat is not None else 0
        self.picked_up = know.picked_up

    def _note(self, played: list[int], voids: np.ndarray, leader: int, cards: list[int]) -> None:
        """Add a trick's cards (in play order from ``leader``) to each seat's played cards and shown voids."""
        if not cards:
            return
        led = int(_SUIT_OF[self.gt][cards[0]])
        for i, c in enumerate(cards):
            seat = (leader + i) % 3
            played[seat] |= 1 << c
            if i and _SUIT_OF[self.gt][c] != led:
                voids[seat, led] = 1.0

    def movers(self) -> np.ndarray:
        """The seat to move in each row."""
        return (self.leader + self.trick_len) % 3

    def legal(self, movers: np.ndarray) -> np.ndarray:
        """The cards each row's mover may play (masks)."""
        hand = self.hands[self.rows, movers]
        if self.trick_len == 0:
            return hand
        following = hand & _FOLLOW[self.gt][self.trick[:, 0]]
        return np.where(following != 0, following, hand)

    def inputs(self, movers: np.ndarray, legal: np.ndarray) -> np.ndarray:
        """The model's input for each row's mover (:func:`skat.players.encoding.encode_view` of its view in the
        row's world, then its legal cards)."""
        rows = self.rows
        x = np.zeros((len(movers), self.width), dtype=np.float32)
        x[:, :OBSERVATION_SIZE] = self.static[movers]
        x[:, OFFSET["hand"]:OFFSET["hand"] + 32] = mask_bits(self.hands[rows, movers])
        declaring = movers == self.declarer
        if self.picked_up and declaring.any():
            discard = np.where(declaring, self.skats, 0)
            x[:, OFFSET["discard"]:OFFSET["discard"] + 32] = mask_bits(discard)
            if self.me == self.declarer:
                own = np.where(movers == self.me, self.own_skat, 0)
                x[:, OFFSET["skat"]:OFFSET["skat"] + 32] = mask_bits(own)
        for k in range(3):
            seat = (movers + k) % 3
            x[:, OFFSET["played"] + 32 * k:OFFSET["played"] + 32 * (k + 1)] = mask_bits(self.played[rows, seat])
            x[:, OFFSET["tricks_won"] + k] = 0.1 * self.won[rows, seat]
            x[:, OFFSET["points"] + k] = self.points[rows, seat] / 120.0
            if k:
                x[:, OFFSET["void"] + 5 * (k - 1):OFFSET["void"] + 5 * k] = self.voids[rows, seat]
        for i in range(self.trick_len):
            rel = (self.leader + i - movers) % 3
            x[rows, OFFSET["trick"] + 32 * rel + self.trick[:, i]] = 1.0
        if self.trick_len:
            x[rows, OFFSET["leader"] + (self.leader - movers) % 3] = 1.0
        x[:, -32:] = mask_bits(legal)
        return x

    def play(self, cards: np.ndarray) -> None:
        """Each row's mover plays its card; a trick that closes goes to its winner."""
        rows = self.rows
        movers = self.movers()
        bit = np.left_shift(np.int64(1), cards)
        self.hands[rows, movers] &= ~bit
        self.played[rows, movers] |= bit
        if self.trick_len:
            led = _SUIT_OF[self.gt][self.trick[:, 0]]
            off = _SUIT_OF[self.gt][cards] != led
            self.voids[rows[off], movers[off], led[off]] = 1.0
        self.trick[:, self.trick_len] = cards
        self.trick_len += 1
        if self.trick_len < 3:
            return
        gt = self.gt
        firsts = [winner_index(gt, (a, b, c)) for a, b, c in self.trick.tolist()]
        winners = (self.leader + np.array(firsts, dtype=np.int64)) % 3
        self.points[rows, winners] += _POINTS[self.trick].sum(axis=1)
        self.won[rows, winners] += 1.0
        self.leader = winners
        self.trick[:] = -1
        self.trick_len = 0
        self.tricks_left -= 1

    def run(self, solve_from: int = SOLVE_FROM) -> None:
        """Play the candidate card in each row, then the policy's card for every seat until ``solve_from`` tricks
        are left at the start of a trick."""
        self.play(self.card_of)
        with self.model.one_blas_thread():
            while self.tricks_left > solve_from or self.trick_len:
                movers = self.movers()
                legal = self.legal(movers)
                logits = self.model.policy_logits(self.inputs(movers, legal))
                self.play(np.argmax(logits, axis=1).astype(np.int64))


def playout_values(view: SeatView, worlds: list, know: Knowledge, model: CardModel, *, cards: list[int] | None = None,
                   solve_from: int = SOLVE_FROM, budget: Budget | None = None) -> tuple[dict[int, float], int]:
    """Sum over the worlds of each candidate card's value for the declarer (higher is better for him), by
    playouts (the module docstring): the same scale as :func:`skat.players.pimc.card_values`' exact values (won,
    Schneider's steps, a small term a card point). A world drawn more than once (the same object) counts as often.
    With a ``budget`` no solve runs past its hard deadline; the worlds solved until then count. Returns the totals
    and the number of worlds counted. Only where :func:`applies`."""
    from skat.solver.search import SearchLimitExceeded, solve_points

    if not applies(view, solve_from):
        raise ValueError("playouts value a suit or grand game's card without Schwarz, with tricks to play out")
    legal = legal_cards(view)
    if cards is not None:
        legal = [c for c in legal if c in cards] or legal
    distinct: dict[int, int] = {}
    chosen = []
    for world in worlds:
        if id(world) not in distinct:
            distinct[id(world)] = 0
            chosen.append(world)
        distinct[id(world)] += 1
    totals = {c: 0.0 for c in legal}
    if not chosen:
        return totals, 0
    hands = np.array([w.hands for w in chosen], dtype=np.int64)
    skats = np.array([w.skat for w in chosen], dtype=np.int64)
    runs = Playouts(view, know, model, hands, skats, legal)
    runs.run(solve_from)
    declarer, gt, target = runs.declarer, runs.gt, runs.target
    def limit() -> float | None:
        return budget.time_limit() if budget is not None else None

    skat_points = card_points(runs.skats)
    n_cards = len(legal)
    counted = 0
    hands_rows = runs.hands.tolist()
    leaders = runs.leader.tolist()
    points = (runs.points[:, declarer] + skat_points).tolist()
    try:
        for w, world in enumerate(chosen):
            values = {}
            for j in range(n_cards):
                r = w * n_cards + j
                hand3 = hands_rows[r]
                if hand3[0] | hand3[1] | hand3[2]:
                    v = solve_points(gt, hand3, [], leaders[r], declarer, points[r], time_limit=limit())
                else:
                    v = points[r]
                values[legal[j]] = exact_value(v, target)
            times = distinct[id(world)]
            for c, value in values.items():
                totals[c] += times * value
            counted += times
    except SearchLimitExceeded:
        pass
    return totals, counted
