"""``pimc``: perfect-information Monte Carlo card play, with bidding and contract choice by simulation.

For a card decision the player samples worlds consistent with everything its
seat knows (:mod:`skat.players.worlds`: cards played, voids shown, open hands,
the skat it saw, and the bids as soft facts), solves every world double dummy
with :mod:`skat.solver` for each legal card, and plays the card with the best
total over the worlds.  What a world is worth depends on the contract:

* suit and grand: whether the declarer reaches 61 (90 when Schneider was
  announced, every trick for Schwarz and ouvert); once few tricks are left, the
  exact card points, scored as win + Schneider bonus + a small per-point term;
* Null: whether the declarer avoids every trick.

The defenders minimise what the declarer maximises.  A budget bounds the work:
at most ``worlds`` worlds and ``time_budget`` seconds per card (at least
``min_worlds``), and no search runs past ``max_time`` (twice ``time_budget`` by
default; :mod:`skat.players.budget`).  Budgets are in CPU seconds of this process
(:func:`time.process_time`), so a busy machine or a crowded arena does not make
the player weaker, only slower.  Ties between cards go to the card the heuristic player would
choose.  Bidding, the skat decision, the discard and the declaration are made by
simulation (:mod:`skat.players.bidding`); decisions this player does not know
(house-rule actions) go to the heuristic player.
"""

from __future__ import annotations

import random
import time
from typing import TYPE_CHECKING, Any

from skat.cards import Card, mask_points
from skat.deal.game import Phase, SeatView
from skat.players.base import forced_action
from skat.players.budget import Budget
from skat.players.heuristic import HeuristicPlayer, fallback_action
from skat.players.worlds import Knowledge, exact_value, legal_cards, sample_worlds, tricks_left
from skat.players.worlds import next_leader as _next_leader
from skat.rules.actions import Action, Play
from skat.rules.ranking import GameType, winner_index
from skat.rules.rulesets import ISKO, RuleSetError, get_ruleset

if TYPE_CHECKING:
    from skat.players.cardmodel import CardModel
    from skat.players.inference import AuctionLikelihood, Inference, PlayLikelihood, PolicyLikelihood

__all__ = ["PIMCPlayer", "card_values", "ramsch_card_values", "skat_goes_with_last_trick", "durchmarsch_pays",
           "durchmarsch_chances", "DURCHMARSCH_CHANCE", "close_call"]

_NULL = int(GameType.NULL)
PLAYOUT_ROLES = (None, "defenders", "all")
"""Who values the cards by playouts (:attr:`PIMCPlayer.playouts`)."""


def card_values(
    view: SeatView,
    worlds: list,
    know: Knowledge,
    *,
    deadline: float | None = None,
    min_worlds: int = 1,
    points_from_tricks_left: int = 5,
    budget: Budget | None = None,
    trace: list[dict[int, float]] | None = None,
    cards: list[int] | None = None,
) -> tuple[dict[int, float], int]:
    """Sum over the worlds of each legal card's value for the declarer (higher is better for him).

    Each card is played in each world and the rest of the deal is solved double dummy
    (one yes/no search per card and world; exact card points once few tricks are
    left).  Returns the totals and the number of worlds solved (it stops at
    ``deadline`` once ``min_worlds`` are done).  With a ``budget`` no search runs past its hard
    deadline: a world whose searches did not all finish is left out, and the worlds stop there. Each solved
    world's values are appended to ``trace`` when one is given. ``cards``: search only these of the legal cards.
    A world that comes again in ``worlds`` (the same object, :func:`skat.players.inference.draw_worlds`) counts
    again without a second search.
    """
    from skat.solver.search import (
        SearchLimitExceeded,
        declarer_reaches,
        declarer_takes_all,
        null_declarer_wins,
        solve_points,
    )

    contract = view.contract
    assert contract is not None and view.declarer is not None
    declarer = view.declarer
    gt = int(contract.game_type)
    trick = [int(c) for _s, c in view.trick]
    leader = view.trick[0][0] if view.trick else _next_leader(view)
    legal = legal_cards(view)
    if cards is not None:
        legal = [c for c in legal if c in cards] or legal
    totals = {c: 0.0 for c in legal}
    declarer_tricks = sum(1 for _ld, _cs, w in view.tricks if w == declarer)
    defender_tricks = len(view.tricks) - declarer_tricks
    target = 90 if contract.schneider else 61
    exact = tricks_left(view) <= points_from_tricks_left
    solved = 0
    limit = budget.time_limit if budget is not None else _no_limit
    seen: dict[int, dict[int, float]] = {}  # a world drawn again (the same object) is searched once
    for world in worlds:
        if deadline is not None and solved >= min_worlds and time.process_time() > deadline:
            break
        values = seen.get(id(world), {})
        if values:
            for c, value in values.items():
                totals[c] += value
            if trace is not None:
                trace.append(values)
            solved += 1
            continue
        base_points = view.trick_points[declarer] + mask_points(world.skat)
        try:
            for c in legal:
                hands, now, lead, points, d_tricks, o_tricks = _after_card(
                    gt, world.hands, trick, leader, declarer, c, base_points, declarer_tricks, defender_tricks)
                done = not (hands[0] | hands[1] | hands[2])
                if gt == _NULL:
                    if d_tricks:
                        value = 0.0
                    elif done:
                        value = 1.0
                    else:
                        value = float(null_declarer_wins(hands, now, lead, declarer, time_limit=limit()))
                elif contract.schwarz:
                    if o_tricks:
                        value = 0.0
                    elif done:
                        value = 1.0
                    else:
                        value = float(declarer_takes_all(gt, hands, now, lead, declarer, o_tricks,
                                                         time_limit=limit()))
                elif exact:
                    v = points if done else solve_points(gt, hands, now, lead, declarer, points, time_limit=limit())
                    value = exact_value(v, target)
                else:
                    value = float(points >= target if done else
                                  declarer_reaches(gt, hands, now, lead, declarer, target, points,
                                                   time_limit=limit()))
                values[c] = value
        except SearchLimitExceeded:  # the hard deadline: decide on the worlds that were finished
            break
        seen[id(world)] = values
        for c, value in values.items():
            totals[c] += value
        if trace is not None:
            trace.append(values)
        solved += 1
    return totals, solved


def _after_card(gt: int, world_hands: tuple[int, int, int] | list[int], trick: list[int], leader: int, declarer: int,
                card: int, points: int, declarer_tricks: int, defender_tricks: int,
                ) -> tuple[list[int], list[int], int, int, int, int]:
    """The position after the seat to move plays ``card`` in a world: (hands, the trick on the table, its leader, the
    declarer's card points, his tricks, the defenders' tricks); a card that closes the trick resolves it."""
    mover = (leader + len(trick)) % 3
    hands = list(world_hands)
    hands[mover] &= ~(1 << card)
    now = [*trick, card]
    if len(now) == 3:
        winner = (leader + winner_index(gt, now)) % 3
        if winner == declarer:
            points += mask_points((1 << now[0]) | (1 << now[1]) | (1 << now[2]))
            declarer_tricks += 1
        else:
            defender_tricks += 1
        return hands, [], winner, points, declarer_tricks, defender_tricks
    return hands, now, leader, points, declarer_tricks, defender_tricks



def schneider_steps(
    view: SeatView,
    worlds: list,
    trace: list[dict[int, float]],
    cards: list[int],
    *,
    deadline: float | None = None,
    budget: Budget | None = None,
) -> tuple[dict[int, float], int]:
    """The Schneider steps of ``cards`` (tied for best on the yes/no question of :func:`card_values`) over the first
    worlds of ``worlds``, whose yes/no values ``trace`` holds in order: in a world where the declarer reaches his goal
    after a card, +1 when he also reaches 90; where he misses it, -1 when he stays at 30 or below (one yes/no search
    a card and world). Returns the sums (higher is better for the declarer) and the number of worlds asked; stops
    before a world at ``deadline`` or when a search would pass ``budget``'s hard deadline (that world left out)."""
    from skat.solver.search import SearchLimitExceeded, declarer_reaches

    contract = view.contract
    assert contract is not None and view.declarer is not None
    declarer, gt = view.declarer, int(contract.game_type)
    trick = [int(c) for _s, c in view.trick]
    leader = view.trick[0][0] if view.trick else _next_leader(view)
    declarer_tricks = sum(1 for _ld, _cs, w in view.tricks if w == declarer)
    defender_tricks = len(view.tricks) - declarer_tricks
    steps = {c: 0.0 for c in cards}
    asked = 0
    limit = budget.time_limit if budget is not None else _no_limit
    seen: dict[int, dict[int, float]] = {}
    for world, values in zip(worlds, trace):
        if deadline is not None and time.process_time() > deadline:
            break
        world_steps = seen.get(id(world), {})
        if world_steps:
            for c, step in world_steps.items():
                steps[c] += step
            asked += 1
            continue
        base_points = view.trick_points[declarer] + mask_points(world.skat)
        try:
            for c in cards:
                hands, now, lead, points, _d, _o = _after_card(gt, world.hands, trick, leader, declarer, c,
                                                               base_points, declarer_tricks, defender_tricks)
                won = values[c] >= 0.5
                goal = 90 if won else 31
                if not (hands[0] | hands[1] | hands[2]):
                    reached = points >= goal
                else:
                    reached = declarer_reaches(gt, hands, now, lead, declarer, goal, points, time_limit=limit())
                world_steps[c] = (1.0 if reached else 0.0) if won else (0.0 if reached else -1.0)
        except SearchLimitExceeded:
            break
        seen[id(world)] = world_steps
        for c, step in world_steps.items():
            steps[c] += step
        asked += 1
    return steps, asked


def _ramsch_world_values(
    view: SeatView,
    worlds: list,
    question: str,
    skat: bool,
    deadline: float | None,
    min_worlds: int,
    budget: Budget | None,
) -> tuple[dict[int, float], int]:
    """Sum over the worlds of the solver's value of each legal card of a Ramsch seat to move
    (:func:`skat.solver.search.move_values_array` with the seat as the one that searches, grand's tricks) for
    ``question``; with ``skat`` the world's skat points go with the last trick. Returns the totals and the number of
    worlds solved, stopping at ``deadline`` (once ``min_worlds`` are done) or ``budget``'s hard one."""
    from skat.solver.search import SearchLimitExceeded, move_values_array

    trick = [int(c) for _s, c in view.trick]
    leader = view.trick[0][0] if view.trick else _next_leader(view)
    mover = view.seat
    assert mover is not None and (leader + len(trick)) % 3 == mover
    legal = legal_cards(view)
    totals = {c: 0.0 for c in legal}
    solved = 0
    limit = budget.time_limit if budget is not None else _no_limit
    for world in worlds:
        if deadline is not None and solved >= min_worlds and time.process_time() > deadline:
            break
        try:
            out = move_values_array(int(GameType.GRAND), world.hands, trick, leader, mover, question=question,
                                    skat_points=mask_points(world.skat) if skat else 0, time_limit=limit())
        except SearchLimitExceeded:
            break
        for c in legal:
            totals[c] += float(out[c])
        solved += 1
    return totals, solved


def ramsch_card_values(
    view: SeatView,
    worlds: list,
    *,
    deadline: float | None = None,
    min_worlds: int = 1,
    budget: Budget | None = None,
    skat: bool = True,
) -> tuple[dict[int, float], int]:
    """A Ramsch's card play: sum over the worlds of the card points the other two seats take from the trick on the
    table to the end after each legal card (higher is better for the mover), each world solved double dummy with
    the others playing together to give the mover the most (``question="ramsch"``). With ``skat`` the world's skat
    counts for whoever takes the last trick where the rules give it to him (:func:`skat_goes_with_last_trick`); the
    Jungfrau is not weighed (the Durchmarsch: :func:`durchmarsch_chances`). Returns the totals and the number of
    worlds solved, stopping at ``deadline`` (or ``budget``'s hard one) as :func:`card_values`."""
    return _ramsch_world_values(view, worlds, "ramsch", skat and skat_goes_with_last_trick(view.ruleset), deadline,
                                min_worlds, budget)


DURCHMARSCH_CHANCE = 0.5
"""A Ramsch seat that has taken every trick so far plays on for the Durchmarsch when it still takes every trick in at
least this share of the worlds searched (double dummy, the other two together against it, so the share is a
pessimistic one). Failing late costs most (the loser's minus doubled for each Jungfrau), and it pays 120."""


def durchmarsch_pays(ruleset: str) -> bool:
    """Whether taking every trick of a Ramsch scores +120 under the rule set named ``ruleset`` (``augen`` scoring with
    ``ramsch_durchmarsch``, docs/rules.md 6.2); a name that is no preset counts as the defaults (it does)."""
    try:
        rules = get_ruleset(ruleset)
    except RuleSetError:
        rules = ISKO
    return rules.ramsch_scoring == "augen" and rules.ramsch_durchmarsch


def durchmarsch_chances(
    view: SeatView,
    worlds: list,
    *,
    deadline: float | None = None,
    min_worlds: int = 1,
    budget: Budget | None = None,
) -> tuple[dict[int, float], int]:
    """For a Ramsch seat to move: after each legal card, in how many of the worlds it still takes every trick when the
    other two play together to stop it (``question="all_tricks"``). Returns the counts and the number of worlds
    solved, stopping as :func:`card_values`."""
    return _ramsch_world_values(view, worlds, "all_tricks", False, deadline, min_worlds, budget)


def skat_goes_with_last_trick(ruleset: str) -> bool:
    """Whether a Ramsch under the rule set named ``ruleset`` gives the skat's points to whoever takes the last trick
    (``ramsch_skat``: the default, and every preset but ``pirate``); a name that is no preset (a table's own
    options) counts as the default."""
    try:
        return get_ruleset(ruleset).ramsch_skat == "last_trick"
    except RuleSetError:
        return True


def close_call(trace: list[dict[int, float]], sign: float = 1.0, z: float = 2.0) -> bool:
    """Whether the best card over the solved worlds of ``trace`` is not clearly better than the next best:
    their mean difference per world is within ``z`` standard errors (cards that are worth the same in every
    world are no close call). ``sign`` is -1 for a defender (lower is better)."""
    n = len(trace)
    if n < 2 or len(trace[0]) < 2:
        return False
    totals = {c: sign * sum(values[c] for values in trace) for c in trace[0]}
    best, second = sorted(totals, key=totals.__getitem__, reverse=True)[:2]
    diffs = [sign * (values[best] - values[second]) for values in trace]
    mean = sum(diffs) / n
    variance = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return variance > 0 and mean <= z * (variance / n) ** 0.5


def _no_limit() -> None:
    return None


class PIMCPlayer:
    """Perfect-information Monte Carlo player (see the module docstring)."""

    name = "pimc"

    def __init__(
        self,
        seed: int | None = None,
        *,
        worlds: int = 40,
        min_worlds: int = 4,
        time_budget: float = 0.5,
        bidding: bool = True,
        bid_worlds: int = 20,
        bid_time: float = 1.0,
        search_from_trick: int = 0,
        max_time: float | None = None,
        bid_max_time: float | None = None,
        inference: AuctionLikelihood | PlayLikelihood | PolicyLikelihood | Inference | None = None,
        pool: int = 2,
        close_worlds: int = 0,
        alphamu_tricks: int = 0,
        alphamu_depth: int = 2,
        alphamu_worlds: int = 20,
        policy_prune: int = 0,
        policy_prune_tricks: int = 10,
        policy_symmetric: bool = False,
        ramsch_search: bool = False,
        ramsch_skat: bool = False,
        ramsch_durchmarsch: bool = True,
        policy_ties: bool = False,
        schneider_ties: bool = False,
        draw_power: float | None = None,
        playouts: str | None = None,
        declarer_worlds: int | None = None,
        declarer_pool: int | None = None,
    ) -> None:
        self.rng = random.Random(seed)
        self.worlds = worlds
        self.min_worlds = min_worlds
        self.time_budget = time_budget
        self.max_time = 2 * time_budget if max_time is None else max_time
        """The hard limit of a card decision (CPU seconds; :class:`skat.players.budget.Budget`)."""
        self.inference = inference
        """A likelihood of :mod:`skat.players.inference` that draws the worlds searched from ``pool`` times as
        many by how likely they make what the others did (None: every consistent world is as likely)."""
        self.pool = max(1, int(pool))
        if draw_power is not None and not draw_power >= 0:
            raise ValueError(f"the power of the likelihood must be zero or more, not {draw_power}")
        self.draw_power = draw_power
        """None: search the :attr:`worlds` most likely of the pool (Gumbel top-k, each once); a number: draw them with
        replacement by the likelihood to this power (:func:`skat.players.inference.draw_worlds`), a likely world
        counted as often as it is drawn and searched once."""
        if playouts not in PLAYOUT_ROLES:
            raise ValueError(f"playouts are for {', '.join(repr(r) for r in PLAYOUT_ROLES if r)} or None, not {playouts!r}")
        self.playouts = playouts
        """Who values the cards by playouts of the learned policy (:mod:`skat.players.playout`) where they apply (a
        suit or grand game, more than :attr:`playout_solve_from` tricks left): ``"defenders"``, ``"all"``, or None (the
        solver alone)."""
        self.playout_solve_from = 5
        if declarer_worlds is not None and not declarer_worlds >= 1:
            raise ValueError(f"the declarer's worlds must be one or more, not {declarer_worlds}")
        self.declarer_worlds = declarer_worlds
        """The worlds the declarer's card decisions in a suit, grand or Null game search (None: :attr:`worlds`, as a
        defender's): the declarer's play gains from more worlds where the defence does not (docs/players.md)."""
        if declarer_pool is not None and not declarer_pool >= 1:
            raise ValueError(f"the declarer's pool must be one or more times his worlds, not {declarer_pool}")
        self.declarer_pool = declarer_pool
        """How many times :attr:`declarer_worlds` the pool those are drawn from holds (None: :attr:`pool`)."""
        """The tricks left from which the solver finishes a playout (:data:`skat.players.playout.SOLVE_FROM`)."""
        self.close_worlds = max(0, int(close_worlds))
        """Worlds added, within the time budget, when the best card is not clearly better than the next
        (:func:`close_call`); 0: none."""
        self.alphamu_tricks = alphamu_tricks
        """As the declarer of a suit or grand game, with at most this many tricks left, choose among the cards
        by :mod:`skat.players.alphamu` (``alphamu_depth`` own moves, ``alphamu_worlds`` worlds; 0: never)."""
        self.alphamu_depth = alphamu_depth
        self.alphamu_worlds = alphamu_worlds
        self.policy_prune = max(0, int(policy_prune))
        """Search only the cards the learned card-play model's policy likes best, this many (0: every legal card),
        in the first ``policy_prune_tricks`` tricks: fewer searches a world, more worlds in the same time."""
        self.policy_prune_tricks = policy_prune_tricks
        self.policy_symmetric = policy_symmetric
        """Prune by the policy averaged over the suit permutations (:meth:`CardModel.symmetric_policy`, as ``learned``
        plays) instead of the plain policy."""
        self.ramsch_search = ramsch_search
        """Play a Ramsch by the search too (:func:`ramsch_card_values`, the same worlds and budget; the levels do);
        False: by the heuristic's rules of thumb (``skat.players.ablation.medium_heuristic_ramsch``)."""
        self.ramsch_skat = ramsch_skat
        """The Ramsch search counts the skat's points for whoever takes the last trick (where the rules say so;
        ``skat.players.ablation.medium_ramsch_with_skat``). Off in the levels: it measured worse (-3.08 [-5.76,
        -0.39] over 300 Ramsch deals, docs/players.md): the paranoid search then gives up too much to dodge the last
        trick."""
        self.ramsch_durchmarsch = ramsch_durchmarsch
        """A Ramsch seat that has taken every trick so far plays on for the Durchmarsch where it pays and the search
        finds it likely (:data:`DURCHMARSCH_CHANCE`, :func:`durchmarsch_chances`)."""
        self.policy_ties = policy_ties
        self.schneider_ties = schneider_ties
        """Where the yes/no search leaves several cards tied for best (a suit or grand game without Schneider
        announced, before the exact card points), ask over the same worlds which of them reaches Schneider or avoids
        being Schneider (:func:`schneider_steps`, within the soft deadline) and keep the best of those."""
        self.points_from_tricks_left = 5
        """With this many tricks left or fewer a world values each card by the declarer's exact card points (the
        score's steps: won, schneider, schwarz), earlier by one yes/no search (does he reach his goal)."""
        self.card_model: CardModel | None = None
        """The learned card-play model the pruning and the ties ask (None: the shipped one; the inference's
        :class:`skat.players.inference.PolicyLikelihood` holds its own)."""
        """Among cards the search finds equally good (binary values that tie over every world are common early in
        the deal), play the learned policy's favourite instead of the heuristic's card."""
        """The Ramsch search counts the skat's points for whoever takes the last trick (where the rules say so);
        False: leaves them out (``skat.players.ablation.medium_ramsch_without_skat``)."""
        self.search_from_trick = search_from_trick
        """Tricks before this one are played by the heuristic (a cheaper level, or quick tests)."""
        self.heuristic = HeuristicPlayer(None if seed is None else seed ^ 0x5EED)
        self.bidder = None
        if bidding:
            from skat.players.bidding import SimulationBidder

            self.bidder = SimulationBidder(self.rng, worlds=bid_worlds, time_budget=bid_time, max_time=bid_max_time)

    def choose(self, view: SeatView) -> Action:
        forced = forced_action(view)
        if forced is not None:
            return forced
        legal = view.legal_actions
        try:
            action = self._decide(view)
        except Exception:  # search trouble must never cost a legal move
            action = None
        if action is None or action not in legal:
            action = self.heuristic.choose(view)
        return action if action in legal else fallback_action(legal)

    def side_action(self, view: SeatView) -> Action | None:
        """Kontra and Re (house rules), by the heuristic's judgement."""
        return self.heuristic.side_action(view)

    def _decide(self, view: SeatView) -> Action | None:
        if view.phase is Phase.PLAY and view.contract is None and view.declarer is None:  # a Ramsch
            if self.ramsch_search and len(view.tricks) >= self.search_from_trick and all(
                    isinstance(a, Play) for a in view.legal_actions):
                return self.play_ramsch(view)
            return None
        if view.phase is Phase.PLAY and view.contract is not None and view.declarer is not None:
            if len(view.tricks) < self.search_from_trick:
                return None
            if all(isinstance(a, Play) for a in view.legal_actions):
                return self.play(view)
            return None
        if self.bidder is not None:
            return self.bidder.decide(view, self.heuristic)
        return None

    def play(self, view: SeatView) -> Action:
        return self.rank_cards(view)[0]

    def play_ramsch(self, view: SeatView) -> Action:
        """A Ramsch's card: the one that leaves the others the most card points over the worlds (the fewest to this
        seat); ties go to the heuristic's card among them, else the lowest. A seat that has taken every trick so far
        first looks whether it can take them all (:attr:`ramsch_durchmarsch`) and then plays the card that keeps the
        Durchmarsch in the most worlds."""
        budget = Budget(self.time_budget, self.max_time)
        know = Knowledge.from_view(view)
        worlds = self.sample(view, know, self.worlds)
        if (self.ramsch_durchmarsch and view.tricks and all(w == view.seat for _l, _c, w in view.tricks)
                and durchmarsch_pays(view.ruleset)):
            chances, solved = durchmarsch_chances(view, worlds, deadline=budget.soft, min_worlds=self.min_worlds,
                                                  budget=budget)
            if solved and max(chances.values()) >= DURCHMARSCH_CHANCE * solved:
                return self._pick(view, chances, sign=1.0)
        totals, solved = ramsch_card_values(view, worlds, deadline=budget.soft, min_worlds=self.min_worlds,
                                            budget=budget, skat=self.ramsch_skat)
        if not solved:
            return self.heuristic.choose(view)
        return self._pick(view, totals, sign=1.0)

    def rank_cards(self, view: SeatView) -> tuple[Action, dict[int, float], int]:
        """The card this player plays in ``view`` (a suit, grand or null game's play, more than one legal card),
        with :func:`card_values`' totals per legal card (for the declarer: higher is better) and the number of
        worlds solved."""
        budget = Budget(self.time_budget, self.max_time)
        know = Knowledge.from_view(view)
        n, pool = self.card_worlds(view)
        worlds = self.sample(view, know, n, pool)
        trace: list[dict[int, float]] = []
        if self._playouts_apply(view):
            from skat.players.playout import playout_values

            totals, solved = playout_values(view, worlds, know, self.model(), cards=self._pruned(view), budget=budget,
                                            solve_from=self.playout_solve_from)
            return self._pick(view, totals), totals, solved
        totals, solved = card_values(view, worlds, know, deadline=budget.soft, min_worlds=self.min_worlds,
                                     points_from_tricks_left=self.points_from_tricks_left, budget=budget,
                                     trace=trace, cards=self._pruned(view))
        sign = 1.0 if view.declarer == view.seat else -1.0
        if (self.close_worlds and solved == len(worlds) and not budget.soft_passed()
                and close_call(trace, sign)):
            more = self.sample(view, know, self.close_worlds)
            extra, added = card_values(view, more, know, deadline=budget.soft, min_worlds=0,
                                       points_from_tricks_left=self.points_from_tricks_left, budget=budget)
            totals = {c: v + extra[c] for c, v in totals.items()}
            solved += added
        if self._alphamu_applies(view):
            totals = self._alphamu(view, worlds[:self.alphamu_worlds], totals, budget)
        if self.schneider_ties and solved and self._yes_no_search(view):
            totals = self._break_ties_by_schneider(view, worlds, trace, totals, sign, budget)
        return self._pick(view, totals), totals, solved

    def card_worlds(self, view: SeatView) -> tuple[int, int]:
        """How many worlds a suit, grand or Null game's card decision in ``view`` searches and how many times as many
        its pool holds: :attr:`declarer_worlds` and :attr:`declarer_pool` for the declarer where set, else
        :attr:`worlds` and :attr:`pool`."""
        if self.declarer_worlds is not None and view.declarer is not None and view.declarer == view.seat:
            return self.declarer_worlds, self.pool if self.declarer_pool is None else max(1, int(self.declarer_pool))
        return self.worlds, self.pool

    def _playouts_apply(self, view: SeatView) -> bool:
        """Whether this decision is valued by playouts (:attr:`playouts`)."""
        if self.playouts is None or (self.playouts == "defenders" and view.declarer == view.seat):
            return False
        from skat.players.playout import applies

        return applies(view, self.playout_solve_from)

    def _yes_no_search(self, view: SeatView) -> bool:
        """Whether :func:`card_values` answers this decision by the yes/no search (a suit or grand game, no Schneider
        or Schwarz announced, more tricks left than :attr:`points_from_tricks_left`)."""
        contract = view.contract
        if contract is None or contract.is_null or contract.schneider or contract.schwarz:
            return False
        return tricks_left(view) > self.points_from_tricks_left

    def _break_ties_by_schneider(self, view: SeatView, worlds: list, trace: list[dict[int, float]],
                                 totals: dict[int, float], sign: float, budget: Budget) -> dict[int, float]:
        """``totals`` with the cards tied for best told apart by :func:`schneider_steps` over the worlds searched: each
        tied card gains its steps scaled below half a world, so no card passes one that was better on the goal."""
        best = max(sign * v for v in totals.values())
        tied = [c for c, v in totals.items() if sign * v >= best - 1e-9]
        if len(tied) < 2:
            return totals
        steps, asked = schneider_steps(view, worlds, trace, tied, deadline=budget.soft, budget=budget)
        if not asked:
            return totals
        scale = 0.5 / (asked + 1)
        return {c: v + scale * steps[c] if c in steps else v for c, v in totals.items()}

    def _pruned(self, view: SeatView) -> list[int] | None:
        """The cards to search when :attr:`policy_prune` applies (the policy's best), else None (all)."""
        legal = legal_cards(view)
        if not self.policy_prune or len(legal) <= self.policy_prune or len(view.tricks) >= self.policy_prune_tricks:
            return None
        model = self.model()
        p = model.symmetric_policy(view) if self.policy_symmetric else model.policy(view)
        return sorted(legal, key=lambda c: -p[c])[:self.policy_prune]

    def model(self) -> CardModel:
        """The learned card-play model this player asks (:attr:`card_model`, by default the shipped one)."""
        if self.card_model is None:
            from skat.players.cardmodel import shipped_card_model

            return shipped_card_model()
        return self.card_model

    def _alphamu_applies(self, view: SeatView) -> bool:
        contract = view.contract
        if not self.alphamu_tricks or contract is None or view.declarer != view.seat:
            return False
        if contract.is_null or contract.schwarz or int(contract.game_type) > 4:
            return False
        return tricks_left(view) <= self.alphamu_tricks

    def _alphamu(self, view: SeatView, worlds: list, totals: dict[int, float], budget: Budget) -> dict[int, float]:
        """Keep only the cards alpha-mu finds best (their PIMC totals decide among them); the totals as they
        were when the budget runs out."""
        from skat.players.alphamu import Position, best_card
        from skat.solver.search import SearchLimitExceeded

        contract = view.contract
        assert contract is not None and view.declarer is not None
        gt, declarer = int(contract.game_type), view.declarer
        trick = tuple(int(c) for _s, c in view.trick)
        leader = view.trick[0][0] if view.trick else _next_leader(view)
        positions = [Position(world.hands, trick, leader, view.trick_points[declarer] + mask_points(world.skat))
                     for world in worlds]
        try:
            _card, won, _leaves = best_card(gt, declarer, 90 if contract.schneider else 61, positions,
                                            self.alphamu_depth, budget.time_limit)
        except SearchLimitExceeded:
            return totals
        top = max(won.values())
        low = min(totals.values()) - 1.0
        return {c: (v if won.get(c, -1) == top else low) for c, v in totals.items()}

    def sample(self, view: SeatView, know: Knowledge, n: int | None = None, pool: int | None = None) -> list:
        """``n`` worlds to search (default :attr:`worlds`): consistent with the seat's knowledge, drawn by the
        likelihood of what the others did from ``pool`` times as many (default :attr:`pool`) when the player has an
        :attr:`inference`."""
        n = self.worlds if n is None else n
        times = self.pool if pool is None else pool
        if self.inference is None or know.declarer is None or times == 1:
            return sample_worlds(know, n, self.rng)
        from skat.players.inference import draw_worlds, select_worlds

        candidates = sample_worlds(know, n * times, self.rng)
        prepared: Any = self.inference.prepare(view, know)  # of the likelihood's own type, for its log_weight
        batch = getattr(self.inference, "log_weights", None)  # a likelihood that weighs the whole pool at once
        weights = (batch(prepared, candidates) if batch is not None
                   else [self.inference.log_weight(prepared, world) for world in candidates])
        if self.draw_power is not None:
            return draw_worlds(candidates, weights, n, self.rng, self.draw_power)
        return select_worlds(candidates, weights, n, self.rng)

    def _pick(self, view: SeatView, totals: dict[int, float], sign: float | None = None) -> Action:
        """The card of the best total (``sign`` +1: the highest; by default the declarer's highest, a defender's
        lowest); among tied cards the heuristic's (with :attr:`policy_ties` in a suit, grand or Null game: the
        learned policy's), else the lowest."""
        if sign is None:
            sign = 1.0 if view.declarer == view.seat else -1.0
        best = max(sign * v for v in totals.values())
        ties = [c for c, v in totals.items() if sign * v >= best - 1e-9]
        if len(ties) == 1:
            return Play(Card(ties[0]))
        if self.policy_ties and view.contract is not None:
            p = self.model().policy(view)
            return Play(Card(max(ties, key=lambda c: (p[c], -c))))
        hint = self.heuristic.choose(view)
        if isinstance(hint, Play) and int(hint.card) in ties:
            return hint
        return Play(Card(min(ties, key=lambda c: (mask_points(1 << c), c & 7))))

