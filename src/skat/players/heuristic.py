"""``heuristic``: fast rules of thumb for every decision of a deal.

* **Hand strength.** A suit game counts its trumps, the club and spade jack,
  side aces, tens guarded by their ace or by a second card, and void side suits;
  a grand counts jacks, aces, tens and long suits; a Null hand counts the risk of
  each suit (a card that cannot be ducked under).  Each strength maps to a win
  probability (a logistic curve), and a game's expected Seeger-Fabian score is
  ``p (value + 50) - (1 - p) (2 value + 50)``.
* **Bidding.** Bid or hold up to the value of the best game with a positive
  expected score; forehand plays at 18 alone only with such a game.
* **Skat.** Play hand when the best game is strong enough without the skat,
  otherwise pick up; the discard searches all 66 pairs for the game and discard
  with the best expected score (short suits and their points go away).
* **Card play.** Declarer: pull trumps while the defenders hold any and he has
  the majority or the master trump, cash masters, then lead from long suits.
  Defenders: cash aces, "short way long suit, long way short suit", smear points
  on a partner's trick, win a trick cheaply, discard the least valuable card.
  Null: the declarer ducks under the trick and leads his safest card; the
  defenders keep the declarer on top.  Ramsch (no declarer): avoid points.
* **Unknown decisions** (house-rule actions this module does not know): a
  cautious default from the legal actions (pass, no, push), never an illegal one.

Measured strength (``bench/players.py``, duplicate arena, standard rules): against
``random`` +260.7 Seeger-Fabian points per game, 95 % CI [+259.6, +261.8], over
16,667 deals (100,002 games, no illegal action); about 0.04 ms per card.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from skat.cards import ALL_CARDS, JACKS, iter_mask, mask_points, suit_mask
from skat.deal.game import Phase, SeatView
from skat.players.base import forced_action
from skat.players.worlds import Knowledge
from skat.rules.actions import Action, Bid, Declare, Discard, Hold, Pass, PickUp, Play
from skat.rules.contract import Contract, null_value
from skat.rules.ranking import FOLLOW_MASK, POWER, TRUMP_MASK, GameType, winner_index
from skat.rules.value import BASE_VALUES, matador_count, multiplier

__all__ = [
    "HeuristicPlayer",
    "trump_strength",
    "grand_strength",
    "null_risk",
    "win_probability",
    "expected_score",
    "best_game",
    "GameChoice",
]

ACE, TEN, KING, QUEEN = 7, 3, 6, 5
_CAUTIOUS_TOKENS = ("pass", "no", "push", "skip", "decline", "none", "continue")


# ----------------------------------------------------------------- hand strength
def _suit_cards(hand: int, suit: int) -> int:
    return hand & suit_mask(suit) & ~JACKS


def _side_strength(hand: int, suit: int, trumps_held: int) -> float:
    """Tricks-worth of one side suit (suit and grand games)."""
    cards = _suit_cards(hand, suit)
    n = cards.bit_count()
    base = suit * 8
    has_ace = cards >> (base + ACE) & 1
    has_ten = cards >> (base + TEN) & 1
    has_king = cards >> (base + KING) & 1
    s = 0.0
    if n == 0:
        return 0.6 if trumps_held >= 5 else 0.3
    if has_ace:
        s += 1.0
        if has_ten:
            s += 0.9
            if has_king:
                s += 0.3
    elif has_ten:
        s += 0.45 if n >= 2 else -0.4  # a blank ten is a liability
    if n == 1 and not has_ace and not has_ten:
        s += 0.15 if trumps_held >= 5 else 0.0  # a near-void
    if n >= 4 and has_ace:
        s += 0.3
    return s


def trump_strength(hand: int, gt: int) -> float:
    """A suit game's strength: about the tricks the hand takes, 7 is an even game."""
    trumps = hand & TRUMP_MASK[gt]
    t = trumps.bit_count()
    s = float(t)
    s += 0.6 * (hand >> 28 & 1) + 0.35 * (hand >> 20 & 1) + 0.15 * (hand >> 12 & 1)
    s += 0.2 * (trumps >> (gt * 8 + ACE) & 1) + 0.1 * (trumps >> (gt * 8 + TEN) & 1)
    if t <= 4:
        s -= 1.0 * (5 - t)
    for suit in range(4):
        if suit != gt:
            s += _side_strength(hand, suit, t)
    return s


def grand_strength(hand: int) -> float:
    """A grand's strength on the same scale as :func:`trump_strength`."""
    jacks = hand & JACKS
    j = jacks.bit_count()
    s = 1.6 * j + 0.7 * (hand >> 28 & 1) + 0.4 * (hand >> 20 & 1)
    if j <= 1:
        s -= 2.0
    for suit in range(4):
        cards = _suit_cards(hand, suit)
        n = cards.bit_count()
        base = suit * 8
        if cards >> (base + ACE) & 1:
            s += 1.2
            if cards >> (base + TEN) & 1:
                s += 1.1
                if cards >> (base + KING) & 1:
                    s += 0.4
            if n >= 4:
                s += 0.5 * (n - 3)
        elif cards >> (base + TEN) & 1:
            s += 0.3 if n >= 3 else -0.6
        elif n == 0:
            s += 0.4
        elif n >= 2:
            s -= 0.4  # a suit without ace or ten gives the defenders tricks
    return s - 1.2


def null_risk(hand: int) -> float:
    """Risk of a Null hand: about the number of suits in which the declarer can be forced to win."""
    risk = 0.0
    for suit in range(4):
        ranks = [c & 7 for c in iter_mask(hand & suit_mask(suit))]
        if not ranks:
            continue
        for k, r in enumerate(ranks):  # ascending natural order 7 8 9 T J Q K A
            if r <= 2 * k:
                continue
            risk += 1.0 if r >= 2 * k + 2 else 0.35
            break
        if len(ranks) >= 6:
            risk += 0.0
    return risk


def _logistic(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x))


def win_probability(gt: int, strength: float) -> float:
    """Estimated chance to win a game of type ``gt`` with a hand strength (risk for Null)."""
    if gt == GameType.NULL:
        return math.exp(-1.6 * strength) * 0.95
    if gt == GameType.GRAND:
        return _logistic(1.5 * (strength - 7.0))
    return _logistic(1.5 * (strength - 7.0))


def expected_score(p: float, value: int, lost_factor: int = 2) -> float:
    """Expected Seeger-Fabian score of the declarer: won +value+50, lost -factor*value-50."""
    return p * (value + 50) - (1 - p) * (lost_factor * value + 50)


def hand_strength(hand: int, gt: int) -> float:
    """Strength of ``hand`` for game type ``gt`` (Null: risk)."""
    if gt == GameType.NULL:
        return null_risk(hand)
    if gt == GameType.GRAND:
        return grand_strength(hand)
    return trump_strength(hand, gt)


class GameChoice:
    """A candidate game: contract, its value, win probability and expected score."""

    __slots__ = ("contract", "value", "p", "score")

    def __init__(self, contract: Contract, value: int, p: float, score: float) -> None:
        self.contract, self.value, self.p, self.score = contract, value, p, score

    def __repr__(self) -> str:
        return f"GameChoice({self.contract}, value={self.value}, p={self.p:.2f}, score={self.score:.1f})"


def game_value(contract: Contract, cards12: int, extra_levels: int = 0) -> int:
    """Value of a contract with the matadors of the 12 declarer cards (no Schneider by play)."""
    if contract.is_null:
        return null_value(contract.hand, contract.ouvert)
    return contract_value(contract, matador_count(int(contract.game_type), cards12)[1], extra_levels)


def contract_value(contract: Contract, matadors: int, extra_levels: int = 0) -> int:
    """:func:`game_value` of a contract with this many matadors (with or without)."""
    if contract.is_null:
        return null_value(contract.hand, contract.ouvert)
    levels = multiplier(matadors, contract.hand, False, contract.schneider, False, contract.schwarz, contract.ouvert)
    return (levels + extra_levels) * BASE_VALUES[int(contract.game_type)]


def best_game(hand: int, *, known12: int | None = None, hand_game: bool = False, skat_bonus: float = 0.0,
              lost_factor: int = 2) -> GameChoice:
    """The game with the best expected score for a hand of 10 cards.

    ``known12`` are the 12 cards that decide matadors (after the pickup); before it
    the matadors of the 10 cards are used.  ``skat_bonus`` raises the strength for
    the expected help of a skat not yet seen.
    """
    cards12 = known12 if known12 is not None else hand
    choices: list[GameChoice] = []
    for gt in (0, 1, 2, 3, 4):
        s = hand_strength(hand, gt) + skat_bonus
        p = win_probability(gt, s)
        contract = Contract(GameType(gt), hand=hand_game)
        value = game_value(contract, cards12)
        choices.append(GameChoice(contract, value, p, expected_score(p, value, lost_factor)))
    risk = max(0.0, null_risk(hand) - 0.6 * skat_bonus)
    p = win_probability(GameType.NULL, risk)
    for ouvert in (False, True):
        contract = Contract(GameType.NULL, hand=hand_game, ouvert=ouvert)
        value = null_value(hand_game, ouvert)
        q = p if not ouvert else (p if risk == 0 else p * 0.5)
        choices.append(GameChoice(contract, value, q, expected_score(q, value, lost_factor)))
    return max(choices, key=lambda c: c.score)


# ------------------------------------------------------------------- the player
class HeuristicPlayer:
    """Fast rules of thumb for every decision (see the module docstring)."""

    name = "heuristic"

    def __init__(self, seed: int | None = None, *, boldness: float = 0.0) -> None:
        self.rng = random.Random(seed)
        self.boldness = boldness
        """Added to hand strengths in bidding: above 0 bids more, below 0 less."""

    def choose(self, view: SeatView) -> Action:
        forced = forced_action(view)
        if forced is not None:
            return forced
        legal = view.legal_actions
        try:
            action = self._decide(view, legal)
        except Exception:  # a rule of thumb must never cost a legal move
            action = None
        if action is None or action not in legal:
            return fallback_action(legal)
        return action

    def _decide(self, view: SeatView, legal: list[Action]) -> Action | None:
        phase = view.phase
        kinds = {type(a) for a in legal}
        if phase is Phase.PLAY and kinds == {Play}:
            return PLAY_RULES.play(view, legal)
        if phase is Phase.BIDDING and kinds <= {Bid, Hold, Pass}:
            return self.bid(view, legal)
        if phase is Phase.SKAT and kinds <= {PickUp, Declare}:
            return self.skat_decision(view, legal)
        if phase is Phase.DISCARD and kinds == {Discard}:
            return self.discard(view, legal)
        if phase is Phase.DECLARE and kinds == {Declare}:
            return self.declare(view, legal)
        tokens = {str(a) for a in legal}
        if phase.value == "grand_hand":
            return self.grand_hand_instead_of_ramsch(view, legal)
        if phase.value == "push":
            if kinds == {Discard}:
                return self.push_discard(view, legal)
            return self.push_or_pick_up(view, legal)
        if "accept" in tokens or "turn" in tokens:
            return self.tournee(view, legal)
        return None

    # house rules ---------------------------------------------------------------
    def grand_hand_instead_of_ramsch(self, view: SeatView, legal: list[Action]) -> Action | None:
        """Announce Grand Hand instead of Ramsch when it has a positive expected score."""
        hand = view.hand.mask
        p = win_probability(GameType.GRAND, grand_strength(hand) + self.boldness)
        plain = [a for a in legal if isinstance(a, Declare) and a.contract == Contract(GameType.GRAND, hand=True)]
        if plain and expected_score(p, game_value(plain[0].contract, hand)) > 0:
            return plain[0]
        return _by_token(legal, "pass")

    def push_or_pick_up(self, view: SeatView, legal: list[Action]) -> Action | None:
        """Schieberamsch: push the skat on unseen with a safe Ramsch hand, else pick it up."""
        if ramsch_risk(view.hand.mask) <= 1.5:
            return _by_token(legal, "push") or _by_token(legal, "pickup")
        return _by_token(legal, "pickup")

    def push_discard(self, view: SeatView, legal: list[Action]) -> Action:
        """Schieberamsch: push on the two cards most likely to take tricks with points."""
        hand = view.hand.mask

        def danger(action: Action) -> float:
            assert isinstance(action, Discard)
            rest = hand & ~action.cards.mask
            return -ramsch_risk(rest) + 0.01 * mask_points(action.cards.mask)

        return max(legal, key=danger)

    def tournee(self, view: SeatView, legal: list[Action]) -> Action | None:
        """Tournee: accept a turned suit the hand is strong in, reject otherwise; turn before picking up."""
        hand = view.hand.mask
        if "accept" in {str(a) for a in legal}:
            turned = view.skat.mask if view.skat is not None else 0
            if turned:
                card = max(iter_mask(turned & ~hand) or iter_mask(turned))
                gt = card >> 3
                if JACKS >> card & 1:
                    strength = grand_strength(hand | turned)
                else:
                    strength = trump_strength(hand | turned, gt)
                if strength < 6.5 and _by_token(legal, "reject") is not None:
                    return _by_token(legal, "reject")
            return _by_token(legal, "accept")
        return _by_token(legal, "turn")

    def side_action(self, view: SeatView) -> Action | None:
        """Kontra as a defender against a weak-looking game, Re as a declarer who is sure of it."""
        calls = {str(a): a for a in view.side_actions if str(a) in ("kontra", "re")}
        if not calls or view.contract is None or view.contract.is_null:
            return None
        gt = int(view.contract.game_type)
        hand = view.hand.mask
        if "re" in calls:
            return calls["re"] if hand_strength(hand, gt) >= 9.5 else None
        if "kontra" in calls:
            trumps = hand & TRUMP_MASK[gt]
            aces = sum(hand >> (s * 8 + ACE) & 1 for s in range(4) if s != gt)
            high = (trumps & (1 << 28 | 1 << 20)).bit_count()
            if trumps.bit_count() >= 4 and high >= 1 and aces >= 2:
                return calls["kontra"]
        return None

    # bidding ---------------------------------------------------------------
    def bid_limit(self, hand: int, lost_factor: int = 2) -> int:
        """The highest bid this hand backs (0: pass)."""
        limit = 0
        for hand_game, bonus in ((False, 0.7 + self.boldness), (True, self.boldness)):
            choice = best_game(hand, hand_game=hand_game, skat_bonus=bonus, lost_factor=lost_factor)
            if choice.score > 0:
                limit = max(limit, choice.value)
        return limit

    def bid(self, view: SeatView, legal: list[Action]) -> Action:
        limit = self.bid_limit(view.hand.mask)
        bids = sorted(a.value for a in legal if isinstance(a, Bid))
        if any(isinstance(a, Hold) for a in legal):
            return Hold() if view.bid <= limit else Pass()
        if bids and bids[0] <= limit:
            return Bid(bids[0])
        return Pass()

    # skat, discard, declaration --------------------------------------------
    def skat_decision(self, view: SeatView, legal: list[Action]) -> Action:
        hand = view.hand.mask
        declarable = [a for a in legal if isinstance(a, Declare)]
        pickup_choice = best_game(hand, skat_bonus=1.0)
        best_hand: tuple[float, Declare] | None = None
        best_hand_p = 0.0
        for action in declarable:
            c = action.contract
            gt = int(c.game_type)
            if (c.schneider or c.schwarz or c.ouvert) and not c.is_null:
                continue
            s = hand_strength(hand, gt)
            p = win_probability(gt, s)
            if c.is_null and c.ouvert and s > 0:
                p *= 0.5
            value = game_value(c, hand)
            if value < view.bid and not c.is_null:
                continue
            score = expected_score(p, value)
            if best_hand is None or score > best_hand[0]:
                best_hand = (score, action)
                best_hand_p = p
        if best_hand is not None and best_hand[0] > max(pickup_choice.score + 8, 0) and best_hand_p >= 0.85:
            return best_hand[1]
        return PickUp()

    def discard(self, view: SeatView, legal: list[Action]) -> Action:
        hand12 = view.hand.mask
        bid = view.bid
        best: tuple[float, Discard] | None = None
        for action in legal:
            assert isinstance(action, Discard)
            d = action.cards.mask
            if d & JACKS:
                continue
            ten = hand12 & ~d
            score = self._best_declarable_score(ten, hand12, bid) + 0.15 * mask_points(d)
            if best is None or score > best[0]:
                best = (score, action)
        if best is None:
            return legal[0]
        return best[1]

    def _best_declarable_score(self, ten: int, twelve: int, bid: int) -> float:
        best = -1e9
        for gt in (0, 1, 2, 3, 4):
            contract = Contract(GameType(gt))
            value = game_value(contract, twelve, extra_levels=0)
            p = win_probability(gt, hand_strength(ten, gt))
            if value < bid:
                # Schneider might still rescue an overbid with one more level
                if game_value(contract, twelve, extra_levels=1) >= bid:
                    p *= 0.35
                else:
                    p = 0.0
                value = max(value, bid)
            best = max(best, expected_score(p, value))
        for ouvert in (False, True):
            value = null_value(False, ouvert)
            risk = null_risk(ten)
            p = win_probability(GameType.NULL, risk)
            if ouvert and risk > 0:
                p *= 0.5
            if value < bid:
                p = 0.0
            best = max(best, expected_score(p, value))
        return best

    def declare(self, view: SeatView, legal: list[Action]) -> Action:
        ten = view.hand.mask
        twelve = ten | (view.discard.mask if view.discard is not None else 0)
        best: tuple[float, Action] | None = None
        for action in legal:
            assert isinstance(action, Declare)
            c = action.contract
            gt = int(c.game_type)
            p = win_probability(gt, hand_strength(ten, gt))
            if c.is_null and c.ouvert and null_risk(ten) > 0:
                p *= 0.5
            value = game_value(c, twelve)
            if value < view.bid and not c.is_null:
                p *= 0.35 if game_value(c, twelve, extra_levels=1) >= view.bid else 0.0
                value = view.bid
            score = expected_score(p, value)
            if best is None or score > best[0]:
                best = (score, action)
        assert best is not None
        return best[1]


def ramsch_risk(hand: int) -> float:
    """How many tricks with points a hand is likely to take in Ramsch (jacks, aces, tens, long suits)."""
    risk = 0.6 * (hand >> 28 & 1) + 0.5 * (hand >> 20 & 1) + 0.35 * (hand >> 12 & 1) + 0.25 * (hand >> 4 & 1)
    for suit in range(4):
        cards = _suit_cards(hand, suit)
        n = cards.bit_count()
        if not n:
            continue
        low = (cards & (0x07 << (8 * suit))).bit_count()  # 7 8 9
        high = (cards >> (suit * 8 + ACE) & 1) + (cards >> (suit * 8 + TEN) & 1)
        risk += high * (1.0 if low == 0 else 0.5)
        if n >= 5:
            risk += 0.5
    return risk


def _by_token(legal: Sequence[Action], token: str) -> Action | None:
    for a in legal:
        if str(a) == token:
            return a
    return None


def fallback_action(legal: Sequence[Action]) -> Action:
    """A cautious legal default for any decision: pass, no, push... else the first action."""
    for token in _CAUTIOUS_TOKENS:
        for a in legal:
            if str(a).lower() == token:
                return a
    plays = [a for a in legal if isinstance(a, Play)]
    if plays:
        return min(plays, key=lambda a: (a.card.points, a.card & 7))
    return legal[0]


# ------------------------------------------------------------------ card play
class _PlayRules:
    """Card play rules of thumb for declarer, defenders, Null and Ramsch."""

    def play(self, view: SeatView, legal: list[Action]) -> Action:
        know = Knowledge.from_view(view)
        ctx = _Context(view, know)
        cards = [int(a.card) for a in legal if isinstance(a, Play)]
        if ctx.gt == GameType.NULL:
            card = self._null(ctx, cards)
        elif view.declarer is None:
            card = self._ramsch(ctx, cards)
        elif not view.trick:
            card = self._lead(ctx, cards)
        else:
            card = self._follow(ctx, cards)
        return Play(_card(card))

    # trump games: leading ----------------------------------------------------
    def _lead(self, ctx: _Context, cards: list[int]) -> int:
        gt = ctx.gt
        trumps_mask = TRUMP_MASK[gt]
        my_trumps = [c for c in cards if trumps_mask >> c & 1]
        side = [c for c in cards if not trumps_mask >> c & 1]
        if ctx.is_declarer:
            opp_trumps = ctx.outside & trumps_mask & ~ctx.void_both(trumps_mask)
            if my_trumps and opp_trumps:
                masters = [c for c in my_trumps if ctx.is_master(c)]
                if masters:
                    return min(masters, key=lambda c: POWER[gt][c])
                if len(my_trumps) > opp_trumps.bit_count() or not side:
                    return min(my_trumps, key=lambda c: (POWER[gt][c] >= 40, mask_points(1 << c), POWER[gt][c]))
            cash = [c for c in side if ctx.is_master(c) and not ctx.opponent_can_ruff(c)]
            if cash:
                return max(cash, key=lambda c: mask_points(1 << c))
            if side:
                # lead low from the longest side suit, keeping guarded tens
                def key(c: int) -> tuple:
                    length = (ctx.hand & FOLLOW_MASK[gt][c]).bit_count()
                    return (-length, mask_points(1 << c), POWER[gt][c])
                return min(side, key=key)
            return min(my_trumps, key=lambda c: (mask_points(1 << c), POWER[gt][c]))
        # defender leading
        declarer = ctx.declarer
        assert declarer is not None  # play(): a game without a declarer (Ramsch) goes to _ramsch()
        cash = [c for c in side if ctx.is_master(c) and not ctx.seat_void(declarer, c)]
        if cash:
            return max(cash, key=lambda c: mask_points(1 << c))
        partner = ctx.partner
        assert partner is not None
        ruffs = [c for c in side if ctx.seat_void(partner, c) and not ctx.seat_void_trump(partner)
                 and not ctx.seat_void(declarer, c)]
        if ruffs:
            return min(ruffs, key=lambda c: (mask_points(1 << c), POWER[gt][c]))
        if side:
            declarer_next = (ctx.seat + 1) % 3 == declarer
            def key2(c: int) -> tuple:
                length = (ctx.hand & FOLLOW_MASK[gt][c]).bit_count()
                suit_len = -length if declarer_next else length
                # never lead away from a guarded ten
                ten_guard = 1 if (c & 7) != TEN and ctx.hand >> ((c & ~7) + TEN) & 1 and length <= 2 else 0
                declarer_void = 1 if ctx.seat_void(declarer, c) else 0
                return (declarer_void, ten_guard, suit_len, mask_points(1 << c), POWER[gt][c])
            return min(side, key=key2)
        return min(my_trumps, key=lambda c: (mask_points(1 << c), POWER[gt][c]))

    # trump games: following --------------------------------------------------
    def _follow(self, ctx: _Context, cards: list[int]) -> int:
        gt = ctx.gt
        trick = ctx.trick_cards
        leader = ctx.trick_leader
        win_i = winner_index(gt, trick)
        winner_seat = (leader + win_i) % 3
        partner_wins = ctx.same_side(winner_seat)
        trick_pts = mask_points(sum(1 << c for c in trick))
        last = len(trick) == 2
        beats = [c for c in cards if winner_index(gt, [*trick, c]) == len(trick)]
        def cheap(c: int) -> tuple:
            return (mask_points(1 << c) + (8 if TRUMP_MASK[gt] >> c & 1 else 0), POWER[gt][c])
        if last:
            if partner_wins:
                return max(cards, key=lambda c: (ctx.smear_value(c), -POWER[gt][c]))
            if beats:
                best = min(beats, key=lambda c: (POWER[gt][c] >= 40, POWER[gt][c], -mask_points(1 << c)))
                cost = mask_points(1 << best) if TRUMP_MASK[gt] >> best & 1 else 0
                if trick_pts >= 3 or ctx.is_declarer or cost == 0 and not TRUMP_MASK[gt] >> best & 1:
                    # win with the card that brings the most points among cheap winners
                    non_trump = [c for c in beats if not TRUMP_MASK[gt] >> c & 1]
                    if non_trump:
                        return max(non_trump, key=lambda c: mask_points(1 << c))
                    return best
            return min(cards, key=cheap)
        # second in the trick
        third = (leader + 2) % 3
        if partner_wins and ctx.same_side(third):
            return min(cards, key=cheap)  # impossible for the declarer; defender behind partner
        if partner_wins:
            # partner led, the opponent plays last: smear only if partner's card is unbeatable
            if ctx.is_master_in_trick(trick[win_i]) and not ctx.seat_void(third, trick[0]):
                return max(cards, key=lambda c: (ctx.smear_value(c), -POWER[gt][c]))
            return min(cards, key=cheap)
        # the opponent leads and leads the trick
        sure = [c for c in beats if ctx.is_master(c) and not ctx.seat_void(third, trick[0])]
        if sure and (trick_pts >= 3 or any((c & 7) in (ACE, TEN) for c in sure)):
            return max(sure, key=lambda c: mask_points(1 << c))
        if ctx.same_side(third):
            return min(cards, key=cheap)  # partner plays last and may still win
        if beats and ctx.is_declarer and trick_pts >= 10:
            return max(beats, key=lambda c: POWER[gt][c])
        return min(cards, key=cheap)

    # Null --------------------------------------------------------------------
    def _null(self, ctx: _Context, cards: list[int]) -> int:
        gt = GameType.NULL
        trick = ctx.trick_cards
        rank = lambda c: c & 7  # noqa: E731
        if ctx.is_declarer:
            if not trick:
                def danger(c: int) -> tuple:
                    suit = suit_mask(c >> 3)
                    lower = (ctx.outside & suit & ((1 << c) - 1)).bit_count()
                    higher = (ctx.outside & suit & ~((1 << (c + 1)) - 1)).bit_count()
                    return (lower, 0 if higher else 1, rank(c))
                return min(cards, key=danger)
            win = trick[winner_index(gt, trick)]
            follow = [c for c in cards if FOLLOW_MASK[gt][trick[0]] >> c & 1]
            if follow:
                under = [c for c in follow if rank(c) < rank(win)]
                if under:
                    return max(under, key=rank)
                return min(follow, key=rank)
            # void: throw the most dangerous card (highest of the riskiest suit)
            return max(cards, key=lambda c: (rank(c), (ctx.hand & suit_mask(c >> 3)).bit_count() == 1))
        declarer = ctx.declarer
        assert declarer is not None  # a Null game has a declarer
        if not trick:
            # lead low in a suit the declarer still holds, preferring his short ones
            open_decl = ctx.open_declarer
            def lead_key(c: int) -> tuple:
                suit = suit_mask(c >> 3)
                void = ctx.seat_void(declarer, c)
                if open_decl is not None:
                    d = open_decl & suit
                    void = not d
                    beatable = bool(d) and (d & -d).bit_length() - 1 > c  # his lowest is above ours
                    return (void, not beatable, rank(c))
                return (void, rank(c))
            return min(cards, key=lead_key)
        declarer_played = any(s == declarer for s, _c in ctx.view.trick)
        win_i = winner_index(gt, trick)
        if declarer_played:
            if (ctx.trick_leader + win_i) % 3 == declarer:
                # keep the declarer on top: play under his card, else the highest
                under = [c for c in cards if winner_index(gt, [*trick, c]) != len(trick)]
                return max(under or cards, key=rank)
            return max(cards, key=rank)
        # declarer plays after me: play as low as possible
        return min(cards, key=rank)

    # Ramsch (no declarer): avoid points -------------------------------------
    def _ramsch(self, ctx: _Context, cards: list[int]) -> int:
        gt = ctx.gt
        trick = ctx.trick_cards
        if not trick:
            return min(cards, key=lambda c: (POWER[gt][c], mask_points(1 << c)))
        losers = [c for c in cards if winner_index(gt, [*trick, c]) != len(trick)]
        if losers:
            return max(losers, key=lambda c: (mask_points(1 << c), POWER[gt][c]))
        return max(cards, key=lambda c: POWER[gt][c]) if len(trick) == 2 else min(cards, key=lambda c: POWER[gt][c])


PLAY_RULES = _PlayRules()


def _card(c: int):
    from skat.cards import Card

    return Card(c)


class _Context:
    """Facts for the card play of one seat: hand, unseen cards, voids, sides."""

    def __init__(self, view: SeatView, know: Knowledge) -> None:
        assert view.seat is not None, "a seat's view, not a spectator's"
        self.view = view
        self.seat = view.seat
        self.hand = view.hand.mask
        contract = view.contract
        self.gt = int(contract.game_type) if contract is not None else int(GameType.RAMSCH)
        self.declarer = view.declarer
        self.is_declarer = view.declarer == view.seat
        self.partner = None if view.declarer is None or self.is_declarer else 3 - view.seat - view.declarer
        played = know.played[0] | know.played[1] | know.played[2]
        self.played = played
        # cards that can still appear in this deal, outside my hand
        self.outside = ALL_CARDS & ~played & ~self.hand & ~(know.known[3] if self.is_declarer else 0)
        self.excluded = know.excluded
        self.trick_cards = [int(c) for _s, c in view.trick]
        self.trick_leader = view.trick[0][0] if view.trick else view.seat
        self.open_declarer = (view.open_hands[view.declarer].mask
                              if view.declarer is not None and view.declarer in view.open_hands
                              and view.declarer != view.seat else None)

    def same_side(self, seat: int) -> bool:
        if seat == self.seat:
            return True
        if self.declarer is None:
            return False
        return seat != self.declarer and self.seat != self.declarer

    def is_master(self, card: int) -> bool:
        """No unseen card of the card's class (trumps or its suit) is higher."""
        gt = self.gt
        cls = TRUMP_MASK[gt] if TRUMP_MASK[gt] >> card & 1 else FOLLOW_MASK[gt][card]
        p = POWER[gt][card]
        return not any(POWER[gt][c] > p for c in iter_mask(self.outside & cls))

    def smear_value(self, card: int) -> float:
        """How good a card is to throw on a partner's trick: points, but not trumps or winning aces."""
        pts = float(mask_points(1 << card))
        if TRUMP_MASK[self.gt] >> card & 1:
            return pts - 8
        if card & 7 == ACE and self.outside & FOLLOW_MASK[self.gt][card]:
            return pts - 8  # an ace still takes its own trick
        return pts

    def is_master_in_trick(self, card: int) -> bool:
        return self.is_master(card)

    def seat_void(self, seat: int, card: int) -> bool:
        """Whether ``seat`` is known to hold no card of the class of ``card``."""
        cls = FOLLOW_MASK[self.gt][card]
        return seat != self.seat and cls & ~self.excluded[seat] & self.outside == 0

    def seat_void_trump(self, seat: int) -> bool:
        trumps = TRUMP_MASK[self.gt]
        return trumps & ~self.excluded[seat] & self.outside == 0

    def void_both(self, cls: int) -> int:
        """The class mask if both other seats are known void in it, else 0."""
        others = [s for s in range(3) if s != self.seat]
        if all(cls & ~self.excluded[s] & self.outside == 0 for s in others):
            return cls
        return 0

    def opponent_can_ruff(self, card: int) -> bool:
        """A defender is void in the card's suit and may still hold a trump."""
        trumps = TRUMP_MASK[self.gt]
        for s in range(3):
            if s == self.seat or self.same_side(s):
                continue
            if self.seat_void(s, card) and trumps & ~self.excluded[s] & self.outside:
                return True
        return False


FACTORIES = {"heuristic": HeuristicPlayer}
"""The player of this module by name, for :func:`skat.players.registry.make_player`."""
