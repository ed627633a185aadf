"""Bidding, the skat decision, the discard and the declaration by simulation.

For a hand the bidder samples skats and opponents' hands (worlds consistent
with its seat view and the bids so far), and for each candidate contract plays
the whole deal double dummy with :mod:`skat.solver`:

* with the skat picked up, the discard for that contract is the heuristic's best
  pair for the game type (see :mod:`skat.players.heuristic`);
* as a hand game, the skat counts for the declarer as dealt; Schneider is
  announced when the chance of 90 card points makes it pay;
* Null is checked with every hand open (which is what Null ouvert needs; a
  closed Null is credited half of the remaining chance).

The win rate over the worlds gives the expected Seeger-Fabian score of each
contract, ``p (value + 50) - (1 - p) (2 value + 50)``; the bidder bids and
holds up to the highest value whose expected score is positive.  After the
pickup the discard is searched over the best pairs of the two most promising
game types (and Null), each solved over fresh worlds, and the declaration
follows the best of them.  The candidate list is pruned with the heuristic's
hand strength so that a decision stays within its time budget (CPU seconds of
this process, as in :mod:`skat.players.pimc`).
"""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass

from skat.cards import JACKS, mask_points
from skat.deal.game import Phase, SeatView
from skat.players.budget import Budget, SoftDeadline
from skat.players.heuristic import (
    HeuristicPlayer,
    expected_score,
    game_value,
    hand_strength,
    null_risk,
    win_probability,
)
from skat.players.worlds import sample_worlds
from skat.rules.actions import Action, Bid, Declare, Discard, Hold, Pass, PickUp
from skat.rules.contract import Contract, null_value
from skat.rules.ranking import GameType
from skat.rules.value import BASE_VALUES

__all__ = ["SimulationBidder", "ContractEstimate", "best_discards", "candidate_contracts", "NEAR_HOPELESS", "NULL_RISK"]

_NULL = int(GameType.NULL)
HOPELESS = 4.5
"""Below this heuristic strength a game type is not simulated (it would never be played)."""
NEAR_HOPELESS = HOPELESS - 1.0
"""Game types down to this heuristic strength are played too: the corpus must show where games are lost."""
NULL_RISK = 2.0
"""Null is played when the hand's Null risk is at most this (the bidder considers it up to 1.4)."""
_PRIOR = 2.0
"""Weight, in worlds, of the heuristic's win probability that every simulated estimate starts from."""


def candidate_contracts(hand: int) -> list[tuple[int, bool]]:
    """(game type, hand game) of every contract of ten cards worth playing out: each suit and grand of at
    least :data:`NEAR_HOPELESS` strength, Null up to :data:`NULL_RISK`; each as a hand game and with the
    skat picked up (the contracts :mod:`skat.players.corpus` plays out and
    :class:`skat.players.learned.LearnedBidder` judges)."""
    types = [gt for gt in range(5) if hand_strength(hand, gt) >= NEAR_HOPELESS]
    if null_risk(hand) <= NULL_RISK:
        types.append(_NULL)
    return [(gt, hand_game) for gt in types for hand_game in (False, True)]


@dataclass
class ContractEstimate:
    """A contract's simulated chance of winning, its value and expected Seeger-Fabian score."""

    contract: Contract
    p: float
    value: int
    score: float
    discard: int = 0


def best_discards(twelve: int, gt: int, k: int) -> list[int]:
    """The ``k`` best discard pairs for game type ``gt`` by the heuristic's hand strength."""
    cards = [c for c in range(32) if twelve >> c & 1]
    scored = []
    for a, b in itertools.combinations(cards, 2):
        d = (1 << a) | (1 << b)
        if gt != _NULL and d & JACKS:
            continue
        ten = twelve & ~d
        if gt == _NULL:
            s = -10 * null_risk(ten) + 0.01 * ((a & 7) + (b & 7))
        else:
            s = hand_strength(ten, gt) + 0.02 * mask_points(d)
        scored.append((s, d))
    scored.sort(reverse=True)
    return [d for _s, d in scored[:k]]


class SimulationBidder:
    """Bidding and contract decisions by double-dummy simulation (see the module docstring)."""

    def __init__(self, rng: random.Random, *, worlds: int = 24, time_budget: float = 1.2,
                 candidates: int = 3, max_time: float | None = None) -> None:
        self.rng = rng
        self.worlds = worlds
        self.time_budget = time_budget
        self.max_time = 1.2 * time_budget if max_time is None else max_time
        """No search of a decision runs past this (CPU seconds; :class:`skat.players.budget.Budget`)."""
        self.candidates = candidates
        self._cache: dict[tuple[int | None, ...], list[ContractEstimate]] = {}
        self._planned: Contract | None = None

    # ------------------------------------------------------------ dispatch
    def decide(self, view: SeatView, heuristic: HeuristicPlayer) -> Action | None:
        legal = view.legal_actions
        kinds = {type(a) for a in legal}
        if view.phase is Phase.BIDDING and kinds <= {Bid, Hold, Pass}:
            return self.bid(view)
        if view.phase is Phase.SKAT and kinds <= {PickUp, Declare}:
            return self.skat_decision(view)
        if view.phase is Phase.DISCARD and kinds == {Discard}:
            return self.discard(view)
        if view.phase is Phase.DECLARE and kinds == {Declare}:
            return self.declare(view, heuristic)
        return None

    # ------------------------------------------------------------- bidding
    def estimates(self, view: SeatView) -> list[ContractEstimate]:
        """Simulated estimates of the candidate contracts for the seat's 10 cards (cached per hand)."""
        key = (view.seat, view.hand.mask)
        cached = self._cache.get(key)
        if cached is None:
            cached = self._cache[key] = self._simulate_hand(view)
        return cached

    def bid_limit(self, view: SeatView) -> int:
        """The highest bid whose best contract has a positive expected score (0: pass)."""
        limit = 0
        for est in self.estimates(view):
            if est.score > 0:
                limit = max(limit, est.value)
        return limit

    def bid(self, view: SeatView) -> Action:
        limit = self.bid_limit(view)
        legal = view.legal_actions
        if any(isinstance(a, Hold) for a in legal):
            return Hold() if view.bid <= limit else Pass()
        bids = sorted(a.value for a in legal if isinstance(a, Bid))
        if bids and bids[0] <= limit:
            return Bid(bids[0])
        return Pass()

    def skat_decision(self, view: SeatView) -> Action:
        best_hand: ContractEstimate | None = None
        best_pickup: ContractEstimate | None = None
        for est in self.estimates(view):
            if est.value < view.bid:
                continue
            if est.contract.hand:
                if best_hand is None or est.score > best_hand.score:
                    best_hand = est
            elif best_pickup is None or est.score > best_pickup.score:
                best_pickup = est
        if best_hand is not None and (best_pickup is None or best_hand.score > best_pickup.score):
            action = Declare(best_hand.contract)
            if action in view.legal_actions:
                return action
        return PickUp()

    def _simulate_hand(self, view: SeatView) -> list[ContractEstimate]:
        from skat.solver.search import SearchLimitExceeded, declarer_reaches, null_declarer_wins

        budget = Budget(self.time_budget, self.max_time)
        hand = view.hand.mask
        seat = view.seat
        assert seat is not None, "a seat's view, not a spectator's"
        # candidate game types by the heuristic's strength with a skat to come
        strengths = {gt: hand_strength(hand, gt) for gt in range(5)}
        ranked = [gt for gt in sorted(strengths, key=lambda gt: -strengths[gt])[: self.candidates]
                  if strengths[gt] >= HOPELESS]
        risk = null_risk(hand)
        with_null = risk <= 1.4
        if not ranked and not with_null:
            return []  # no game is worth simulating: pass
        worlds = sample_worlds(view, self.worlds, self.rng)
        # (game type, hand game) -> [wins, worlds]; primed with the heuristic's estimate
        tally: dict[tuple[int, bool], list[float]] = {}
        for gt in ranked:
            tally[(gt, False)] = [_PRIOR * win_probability(gt, strengths[gt] + 1.0), _PRIOR]
            tally[(gt, True)] = [_PRIOR * win_probability(gt, strengths[gt]), _PRIOR]
        if with_null:
            tally[(_NULL, False)] = [_PRIOR * win_probability(_NULL, max(0.0, risk - 0.6)), _PRIOR]
            tally[(_NULL, True)] = [_PRIOR * win_probability(_NULL, risk), _PRIOR]
        schneider: dict[int, list[int]] = {}
        values: dict[tuple[int, bool], list[int]] = {}
        jobs = []
        for gt in ranked:
            jobs += [(gt, False), (gt, True)]
        if with_null:
            jobs += [(_NULL, False), (_NULL, True)]
        try:
            for world in worlds:
                skat = world.skat
                twelve = hand | skat
                for gt, hand_game in jobs:
                    budget.check_soft()
                    hands = list(world.hands)
                    if hand_game:
                        points = mask_points(skat)
                    else:  # pickup: discard the heuristic's best pair for this game
                        d = best_discards(twelve, gt, 1)[0]
                        hands[seat] = twelve & ~d
                        points = mask_points(d)
                    if gt == _NULL:
                        ok = null_declarer_wins(hands, [], 0, seat, time_limit=budget.time_limit())
                    else:
                        ok = declarer_reaches(gt, hands, [], 0, seat, 61, declarer_points=points,
                                              time_limit=budget.time_limit())
                        values.setdefault((gt, hand_game), []).append(
                            game_value(Contract(GameType(gt), hand=hand_game), twelve))
                    tally[(gt, hand_game)][0] += ok
                    tally[(gt, hand_game)][1] += 1
                    if gt != _NULL and ok and hand_game and not budget.soft_passed():
                        made = declarer_reaches(gt, hands, [], 0, seat, 90, declarer_points=points,
                                                time_limit=budget.time_limit())
                        schneider.setdefault(gt, []).append(made)
        except (SoftDeadline, SearchLimitExceeded):  # the soft deadline, or a search stopped at the hard one
            pass
        out: list[ContractEstimate] = []
        for (gt, hand_game), (w, n) in tally.items():
            p = w / n
            if gt == _NULL:
                for ouvert in (False, True):
                    q = p if ouvert else p + 0.5 * (1 - p)
                    value = null_value(hand_game, ouvert)
                    out.append(ContractEstimate(Contract(GameType.NULL, hand=hand_game, ouvert=ouvert), q, value,
                                                expected_score(q, value)))
                continue
            contract = Contract(GameType(gt), hand=hand_game)
            seen = values.get((gt, hand_game))
            value = round(sum(seen) / len(seen)) if seen else game_value(contract, hand)
            out.append(ContractEstimate(contract, p, value, expected_score(p, value)))
            made90 = schneider.get(gt)
            if hand_game and made90 and len(made90) >= 4:
                p90 = p * sum(made90) / len(made90)
                announced = Contract(GameType(gt), hand=True, schneider=True)
                v90 = value + 2 * BASE_VALUES[gt]  # Schneider and Schneider announced
                out.append(ContractEstimate(announced, p90, v90, expected_score(p90, v90)))
        return out

    # ------------------------------------------------------ discard, declare
    def discard(self, view: SeatView) -> Action:
        from skat.solver.search import SearchLimitExceeded, declarer_reaches, null_declarer_wins

        budget = Budget(self.time_budget, self.max_time)
        twelve = view.hand.mask
        seat = view.seat
        assert seat is not None, "a seat's view, not a spectator's"
        bid = view.bid
        ranked = sorted(range(5), key=lambda gt: -max(hand_strength(twelve & ~d, gt)
                                                       for d in best_discards(twelve, gt, 1)))[:2]
        options: list[tuple[int, int]] = [(gt, d) for gt in ranked for d in best_discards(twelve, gt, 3)]
        if min(null_risk(twelve & ~d) for d in best_discards(twelve, _NULL, 1)) <= 1.0:
            options += [(_NULL, d) for d in best_discards(twelve, _NULL, 2)]
        worlds = sample_worlds(view, self.worlds, self.rng)
        tally = {(gt, d): [_PRIOR * win_probability(gt, hand_strength(twelve & ~d, gt)), _PRIOR]
                 for gt, d in options}
        try:
            for world in worlds:
                for gt, d in options:
                    budget.check_soft()
                    hands = list(world.hands)
                    hands[seat] = twelve & ~d
                    if gt == _NULL:
                        ok = null_declarer_wins(hands, [], 0, seat, time_limit=budget.time_limit())
                    else:
                        ok = declarer_reaches(gt, hands, [], 0, seat, 61, declarer_points=mask_points(d),
                                              time_limit=budget.time_limit())
                    tally[(gt, d)][0] += ok
                    tally[(gt, d)][1] += 1
        except (SoftDeadline, SearchLimitExceeded):  # the soft deadline, or a search stopped at the hard one
            pass
        best: tuple[float, int, Contract] | None = None
        for (gt, d), (w, n) in tally.items():
            p = w / n
            if gt == _NULL:
                for ouvert in (False, True):
                    q = p if ouvert else p + 0.5 * (1 - p)
                    value = null_value(False, ouvert)
                    score = expected_score(q, value) if value >= bid else -1e6
                    cand = (score, d, Contract(GameType.NULL, ouvert=ouvert))
                    if best is None or cand[0] > best[0]:
                        best = cand
                continue
            contract = Contract(GameType(gt))
            value = game_value(contract, twelve)
            score = expected_score(p, value) if value >= bid else expected_score(0.0, bid)
            score += 0.01 * mask_points(d)
            if best is None or score > best[0]:
                best = (score, d, contract)
        assert best is not None
        self._planned = best[2]
        from skat.cards import CardSet

        action = Discard(CardSet.from_mask(best[1]))
        return action

    def declare(self, view: SeatView, heuristic: HeuristicPlayer) -> Action:
        planned = self._planned
        self._planned = None
        if planned is not None:
            action = Declare(planned)
            if action in view.legal_actions:
                return action
        return heuristic.choose(view)
