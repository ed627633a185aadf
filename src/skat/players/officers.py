"""A computer opponent for Officers' Skat, every variant.

The play: a few hidden cards are sampled consistent with the seat's view (the face-down
cards, and in Harlequin and Admiral's the cards facing away or held; suits the opponent
failed to follow are kept out of his playable hidden cards), and each candidate card is
searched with alpha-beta over the next tricks (to the end of the game, valuing its outcome,
once few tricks are left; two tricks ahead on card points and trumps kept earlier); the card
with the best average wins. Game choice, Kontra/Re, bidding and discarding use card-strength
heuristics.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from skat.cards import Card, CardSet, iter_mask
from skat.players.base import forced_action
from skat.rules.actions import HOLD, KONTRA, PASS, PICKUP, PLAY, RE, Action, Bid, Declare, Discard, Play
from skat.rules.ranking import FOLLOW_MASK, POWER, TRUMP_MASK, GameType, legal_mask, winner_index
from skat.rules.value import matadors
from skat.variants.officers.actions import ChooseRamsch
from skat.variants.officers.game import OfficersView, Phase

__all__ = ["OfficersBot", "World", "sample_world", "game_strength", "choose_game"]

_POINTS = [Card(c).points for c in range(32)]
_JACK_WEIGHT = {Card.CJ: 3.0, Card.SJ: 2.6, Card.HJ: 2.2, Card.DJ: 1.9}
_INF = 10**9


def _game_type(view: OfficersView) -> int:
    return int(GameType.parse(view.game)) if view.game else int(GameType.GRAND)


def game_strength(game: GameType | int, own: int, opponent: int = 0) -> float:
    """How good a game looks with the cards ``own`` known to be ours (and ``opponent`` known to be his):
    jacks and high trumps count most, then side aces and tens; the opponent's known cards count against."""
    gt = GameType(game)

    def value(mask: int) -> float:
        if gt == GameType.NULL:
            return sum(2.0 if c & 7 <= 2 else (-1.0 if c & 7 >= 5 else 0.0) for c in iter_mask(mask))
        if gt == GameType.RAMSCH:
            return sum(1.5 - _POINTS[c] / 6 - (1.5 if c & 7 == 4 else 0) for c in iter_mask(mask))
        trumps = TRUMP_MASK[gt]
        s = 0.0
        for c in iter_mask(mask):
            if c in _JACK_WEIGHT:
                s += _JACK_WEIGHT[Card(c)] * (1.3 if gt == GameType.GRAND else 1.0)
            elif trumps >> c & 1:
                s += 2.0 if c & 7 == 7 else 1.7 if c & 7 == 3 else 1.0
            elif c & 7 == 7:
                s += 1.3 if gt == GameType.GRAND else 1.0
            elif c & 7 == 3:
                s += 0.4
        return s

    return value(own) - value(opponent)


def _known_cards(view: OfficersView) -> tuple[int, int]:
    """(mine, his): cards this seat can see that belong to it and to the opponent."""
    mine = view.hand.mask
    his = view.opponent_hand.mask if view.opponent_hand is not None else 0
    for p in view.own_piles:
        for c in p:
            if c is not None:
                mine |= 1 << c
    for p in view.opponent_piles:
        for c in p:
            if c is not None:
                his |= 1 << c
    return mine, his


def choose_game(view: OfficersView, legal: list[Action]) -> Action:
    """The trump-choice heuristic: the legal game with the best :func:`game_strength`; pass (where
    allowed) when nothing looks playable."""
    mine, his = _known_cards(view)
    n_known = max(1, mine.bit_count())
    best: tuple[float, Action] | None = None
    for a in legal:
        if isinstance(a, Declare):
            gt = a.contract.game_type
            score = game_strength(gt, mine, his)
            if gt == GameType.GRAND:
                jacks = sum(1 for j in _JACK_WEIGHT if mine >> j & 1)
                score -= 1.5 if jacks < 2 else 0.0
            if gt == GameType.NULL:
                score -= 0.5 * n_known
        elif isinstance(a, ChooseRamsch):
            score = game_strength(GameType.RAMSCH, mine, 0) - 0.3 * n_known
        else:
            continue
        if best is None or score > best[0]:
            best = (score, a)
    assert best is not None
    if PASS in legal and best[0] < 0.9 * n_known:
        return PASS
    return best[1]


@dataclass
class World:
    """One complete deal consistent with a view (hidden cards sampled), ready for search."""

    piles: list[list[tuple[int, ...]]]
    hands: list[int]
    game_type: int
    chooser: int | None
    skat: int = 0
    """Admiral's: the skat (the declarer's discard once he picked up) that counts for the declarer."""
    variant: str = "classic"


def _voids(view: OfficersView) -> int:
    """Cards the opponent cannot hold among his playable hidden cards: every class he failed to follow."""
    if view.game is None:
        return 0
    follow = FOLLOW_MASK[_game_type(view)]
    forbidden = 0
    for leader, (a, b), _ in view.tricks:
        if leader == view.seat and not follow[a] >> b & 1:
            forbidden |= follow[a]
    return forbidden


def sample_world(view: OfficersView, rng: random.Random) -> World:
    """Deal the cards this seat cannot see at random into the places it cannot see.

    The opponent's hidden playable cards (his hand, and in Harlequin the fronts facing him) hold
    no card of a suit he has failed to follow, where the unseen cards allow it.
    """
    visible = view.visible_cards().mask
    pool = [c for c in range(32) if not visible >> c & 1]
    rng.shuffle(pool)
    slots = sum(c is None for piles in (view.own_piles, view.opponent_piles) for p in piles for c in p)
    slots += view.opponent_hand_size
    skat_unknown = view.skat_size if view.variant == "admiral" and view.skat is None and view.discard is None else 0
    if len(pool) != slots + skat_unknown:
        raise ValueError(f"view is inconsistent: {len(pool)} unseen cards for {slots + skat_unknown} hidden places")
    forbidden = _voids(view)

    def take(forbid: int) -> int:
        for i, c in enumerate(pool):
            if not forbid >> c & 1:
                return pool.pop(i)
        return pool.pop()

    seat = view.seat
    assert seat is not None, "a seat's view, not a spectator's"
    hands = [0, 0]
    hands[seat] = view.hand.mask
    for _ in range(view.opponent_hand_size):  # constrained places first
        hands[1 - seat] |= 1 << take(forbidden)
    opp_piles = [list(p) for p in view.opponent_piles]
    for p in opp_piles:
        if p and p[0] is None:
            p[0] = Card(take(forbidden))
    piles: list[list[tuple[int, ...]]] = [[], []]
    for s, src in ((seat, view.own_piles), (1 - seat, opp_piles)):
        piles[s] = [tuple(int(c) if c is not None else take(0) for c in p) for p in src]
    skat = sum(1 << c for c in pool)
    if view.discard is not None:
        skat = view.discard.mask
    return World(piles, hands, _game_type(view), view.chooser, skat, view.variant)


class _Search:
    """Alpha-beta over tricks in one sampled world, from the searching seat's side.

    To the end of the game the value is the game's outcome for this seat (won or lost, Schneider,
    Schwarz; the card points only break ties); over a shorter horizon it is the card points won
    minus the card points lost (reversed in Ramsch).
    """

    def __init__(self, world: World, me: int, points: tuple[int, int], exact: bool, material: int = 0) -> None:
        self.piles = world.piles
        self.hands = world.hands
        self.gt = world.game_type
        self.chooser = world.chooser
        self.me = me
        self.exact = exact
        self.ramsch = self.gt == GameType.RAMSCH
        self.null = self.gt == GameType.NULL
        self.power = POWER[self.gt]
        self.tt: dict[tuple[int, int, int], tuple[int, int]] = {}
        skat_points = sum(_POINTS[c] for c in iter_mask(world.skat))
        self.skat_to_chooser = skat_points if world.variant == "admiral" and not self.ramsch else 0
        self.base = points
        self.material = material
        owned = [world.hands[s] | sum(1 << c for p in world.piles[s] for c in p) for s in (0, 1)]
        self.owned = owned
        trumps = TRUMP_MASK[self.gt]
        self.weight = [0] * 32
        if material and not self.null:
            for c in range(32):
                if trumps >> c & 1:
                    self.weight[c] = material * (2 if c & 7 == 4 else 1)
                elif c & 7 == 7:
                    self.weight[c] = material // 2

    def playable(self, seat: int, played: int) -> int:
        m = self.hands[seat] & ~played
        for p in self.piles[seat]:
            for c in p:
                if not played >> c & 1:
                    m |= 1 << c
                    break
        return m

    def moves(self, seat: int, played: int, lead: int) -> list[int]:
        m = self.playable(seat, played)
        if lead >= 0:  # the leader may play any card
            m = legal_mask(self.gt, m, lead)
        power = self.power
        return sorted(iter_mask(m), key=lambda c: -power[c] * 16 - _POINTS[c])

    def leaf(self, mine: int, his: int, played: int = 0) -> int:
        """Value when the search stops: ``mine``/``his`` are the card points taken within the search;
        over a horizon the trumps and aces still held count too (``material`` points each)."""
        if self.null:
            if not self.exact:
                return 0
            return 1000 if self.me == self.chooser else -1000  # the chooser took no trick
        if not self.exact:
            diff = his - mine if self.ramsch else mine - his
            if self.material and not self.ramsch:
                w = self.weight
                diff += sum(w[c] for c in iter_mask(self.owned[self.me] & ~played))
                diff -= sum(w[c] for c in iter_mask(self.owned[1 - self.me] & ~played))
            return diff
        me_total = self.base[self.me] + mine
        his_total = self.base[1 - self.me] + his
        if self.ramsch:
            return (1000 if me_total < his_total else -1000 if me_total > his_total else 0) + his_total - me_total
        if self.me == self.chooser:
            me_total += self.skat_to_chooser
            chooser, other = me_total, his_total
        else:
            his_total += self.skat_to_chooser
            chooser, other = his_total, me_total
        if chooser >= 61:
            value = 4000 if other == 0 else 2000 if other < 30 else 1000
        else:
            value = -2000
        return (value if self.me == self.chooser else -value) + me_total - his_total

    def node(self, played: int, leader: int, depth: int, mine: int, his: int, alpha: int, beta: int) -> int:
        """Best value from a trick start with ``depth`` tricks to search."""
        if depth == 0:
            return self.leaf(mine, his, played)
        key = (played, leader, mine * 256 + his)
        hit = self.tt.get(key)
        if hit is not None:
            lo, hi = hit
            if lo >= beta:
                return lo
            if hi <= alpha:
                return hi
            if lo == hi:
                return lo
        a0, b0 = alpha, beta
        value = self._lead(played, leader, depth, mine, his, alpha, beta)
        lo, hi = hit if hit is not None else (-_INF, _INF)
        if value <= a0:
            hi = value
        elif value >= b0:
            lo = value
        else:
            lo = hi = value
        self.tt[key] = (lo, hi)
        return value

    def _lead(self, played: int, leader: int, depth: int, mine: int, his: int, alpha: int, beta: int) -> int:
        lead_moves = self.moves(leader, played, -1)
        if not lead_moves:
            return self.leaf(mine, his)
        maxing = leader == self.me
        best = -_INF if maxing else _INF
        for a in lead_moves:
            v = self._follow(played | 1 << a, leader, a, depth, mine, his, alpha, beta)
            if maxing:
                best = max(best, v)
                alpha = max(alpha, v)
            else:
                best = min(best, v)
                beta = min(beta, v)
            if alpha >= beta:
                break
        return best

    def after_trick(self, played: int, leader: int, a: int, b: int, depth: int, mine: int, his: int,
                    alpha: int, beta: int) -> int:
        w = leader if winner_index(self.gt, (a, b)) == 0 else 1 - leader
        if self.null and w == self.chooser:
            return -1000 if self.me == self.chooser else 1000
        pts = _POINTS[a] + _POINTS[b]
        if w == self.me:
            mine += pts
        else:
            his += pts
        return self.node(played | 1 << a | 1 << b, w, depth - 1, mine, his, alpha, beta)

    def _follow(self, played: int, leader: int, a: int, depth: int, mine: int, his: int, alpha: int,
                beta: int) -> int:
        follower = 1 - leader
        maxing = follower == self.me
        best = -_INF if maxing else _INF
        for b in self.moves(follower, played, a):
            v = self.after_trick(played, leader, a, b, depth, mine, his, alpha, beta)
            if maxing:
                best = max(best, v)
                alpha = max(alpha, v)
            else:
                best = min(best, v)
                beta = min(beta, v)
            if alpha >= beta:
                break
        return best

    def root(self, played: int, leader: int, trick: list[int], card: int, depth: int) -> int:
        """Value of playing ``card`` now (``played`` holds the cards of earlier tricks and of ``trick``)."""
        if trick:
            return self.after_trick(played & ~(1 << trick[0]), leader, trick[0], card, depth, 0, 0, -_INF, _INF)
        return self._follow(played | 1 << card, leader, card, depth, 0, 0, -_INF, _INF)


class OfficersBot:
    """The computer opponent: sampling plus alpha-beta in the play, heuristics before it.

    ``samples`` worlds per decision; the search runs to the end of the game once at most
    ``exact_tricks`` tricks remain (valuing the game's outcome when ``outcome``, else card
    points), otherwise ``lookahead`` tricks ahead on card points plus ``material`` points for
    every trump (twice for a jack) and half for every side ace still held.
    """

    name = "officers-bot"

    def __init__(self, seed: int | None = None, samples: int = 8, exact_tricks: int = 5, lookahead: int = 2,
                 outcome: bool = True, material: int = 8) -> None:
        self.rng = random.Random(seed)
        self.material = material
        self.outcome = outcome
        self.samples = samples
        self.exact_tricks = exact_tricks
        self.lookahead = lookahead

    def choose(self, view: OfficersView) -> Action:
        """One of ``view.legal_actions``."""
        forced = forced_action(view)
        if forced is not None:
            return forced
        legal = view.legal_actions
        phase = view.phase
        if phase is Phase.PLAY:
            return self._play(view, legal)
        if phase is Phase.CHOOSE:
            return choose_game(view, legal)
        if phase in (Phase.KONTRA, Phase.RE):
            return self._double(view, legal)
        if phase is Phase.BIDDING:
            return self._bid(view, legal)
        if phase is Phase.SKAT:
            return PICKUP
        if phase is Phase.DISCARD:
            return self._discard(view, legal)
        if phase is Phase.DECLARE:
            return self._declare(view, legal)
        return self.rng.choice(legal)

    # ------------------------------------------------------------- before play
    def _double(self, view: OfficersView, legal: list[Action]) -> Action:
        mine, his = _known_cards(view)
        gt = _game_type(view)
        margin = game_strength(gt, mine, his)
        if view.phase is Phase.KONTRA:
            # The opponent of the chooser: Kontra when his own cards are clearly the better ones.
            return KONTRA if margin >= 3.0 and KONTRA in legal else PASS
        return RE if margin >= 4.0 and RE in legal else PASS

    def _best_suit(self, own: int) -> GameType:
        return max((GameType(g) for g in range(5)), key=lambda g: game_strength(g, own))

    def _bid(self, view: OfficersView, legal: list[Action]) -> Action:
        mine, _ = _known_cards(view)
        gt = self._best_suit(mine)
        strength = game_strength(gt, mine)
        known = max(1, mine.bit_count())
        if strength < 0.55 * known:
            return PASS
        with_, count = matadors(GameType.GRAND if gt == GameType.GRAND else gt, mine)
        limit = (min(count, 4) + 2) * gt.base_value
        if HOLD in legal:
            return HOLD if view.bid <= limit else PASS
        bids = [a for a in legal if isinstance(a, Bid) and a.value <= limit]
        return bids[0] if bids else PASS

    def _discard(self, view: OfficersView, legal: list[Action]) -> Action:
        mine, _ = _known_cards(view)
        gt = self._best_suit(mine)
        trumps = TRUMP_MASK[gt]

        def keep(c: int) -> float:
            if trumps >> c & 1:
                return 100 + POWER[gt][c]
            if c & 7 == 7:
                return 50
            ace = c - (c & 7) + 7
            if c & 7 == 3 and not mine >> ace & 1:
                return -5  # an unguarded ten: its points are safe in the skat
            return POWER[gt][c]

        hand = sorted(view.hand, key=keep)
        want = CardSet(hand[:2])
        return next((a for a in legal if isinstance(a, Discard) and a.cards == want), legal[0])

    def _declare(self, view: OfficersView, legal: list[Action]) -> Action:
        mine, _ = _known_cards(view)
        mine |= view.discard.mask if view.discard else 0
        options = [a for a in legal if isinstance(a, Declare)]
        return max(options, key=lambda a: game_strength(a.contract.game_type, mine)
                   - (3.0 if a.contract.is_null else 0.0))

    # ------------------------------------------------------------------- play
    def _play(self, view: OfficersView, legal: list[Action]) -> Action:
        cards = [int(a.card) for a in legal if isinstance(a, Play)]
        played = 0
        for _, cs, _ in view.tricks:
            played |= (1 << cs[0]) | (1 << cs[1])
        trick = [int(c) for _, c in view.trick]
        for c in trick:
            played |= 1 << c
        leader = view.trick[0][0] if view.trick else view.to_move
        assert leader is not None and view.seat is not None
        left = (15 if view.variant == "admiral" else 16) - len(view.tricks)
        depth = left if left <= self.exact_tricks else self.lookahead
        totals = dict.fromkeys(cards, 0)
        exact = depth == left and self.outcome
        for _ in range(self.samples):
            world = sample_world(view, self.rng)
            search = _Search(world, view.seat, view.trick_points, exact, self.material)
            for c in cards:
                totals[c] += search.root(played, leader, trick, c, depth)
        best = max(totals.values())
        choices = [c for c in cards if totals[c] == best]
        # Ties: keep the points; play the cheapest card (lowest points, then lowest power).
        gt = _game_type(view)
        card = min(choices, key=lambda c: (_POINTS[c] * (-1 if gt == GameType.RAMSCH else 1), POWER[gt][c]))
        return PLAY[card]

