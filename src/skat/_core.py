"""The hot paths of :class:`skat.game.Game`: the deal, the auction, the legal actions and the play.

This is plain Python that Cython compiles (pure-Python mode) when the package is installed, see
``setup.py``. The ``cython.*`` declarations type the attributes and locals of the compiled module
and mean nothing when the module runs as Python (``SKAT_PURE_PYTHON=1``, or an install without a
C compiler); both behave alike, which ``tests/test_engine_speed_equivalence.py`` checks over
thousands of random games.

:class:`GameCore` holds the state that every action touches (hands, trick, auction, history) and
answers :meth:`~GameCore.legal_actions` and :meth:`~GameCore.apply` for the auction and the play.
Everything else, the declaration, the house rules, the result, views and records, lives in its
subclass :class:`skat.game.Game`, which it calls back for any action it does not handle here
(``_legal_other``, ``_apply_other``, ``_bid_slow``, ``_play``, ``_finish``, ...). Illegal actions
always take those slow paths, so the errors come from one place.
"""

from __future__ import annotations

try:
    import cython
except ImportError:  # running uncompiled without Cython installed
    import skat._cython_shim as cython

from skat.actions import HOLD, PASS, PICKUP, PLAY, Bid, Declare, Discard, Hold, Pass, PickUp, Play
from skat.cards import CARD_POINTS, CardSet
from skat.enums import Phase
from skat.rules.kernel import deal_masks
from skat.rules.value import HAND_CONTRACTS, SKAT_CONTRACTS

# Following suit, the trick winner, the auction and the declarations that can reach the bid are the
# rules layer's (skat.rules.kernel); compiled, the core calls them through C (skat/rules/kernel.pxd),
# uncompiled as Python. The deal of a seed is the kernel's deal_masks, which skat.game calls as _core.deal_masks.
if cython.compiled:
    from cython.cimports.skat.rules.kernel import (
        auction_answering,
        auction_bid,
        auction_bidder,
        auction_first_bid,
        auction_highest,
        auction_hold,
        auction_last_bid,
        auction_listener,
        auction_pass,
        auction_passed,
        auction_rung,
        auction_stage,
        auction_state,
        auction_to_move,
        declarable_mask,
        legal_mask,
        winner_of,
    )
else:
    from skat.rules.kernel import (
        auction_answering,
        auction_bid,
        auction_bidder,
        auction_first_bid,
        auction_highest,
        auction_hold,
        auction_last_bid,
        auction_listener,
        auction_pass,
        auction_passed,
        auction_rung,
        auction_stage,
        auction_state,
        auction_to_move,
        declarable_mask,
        legal_mask,
        winner_of,
    )

__all__ = ["GameCore", "deal_masks", "COMPILED", "HAND_CONTRACTS", "SKAT_CONTRACTS", "DECLARE",
           "PAIR_DISCARDS"]

COMPILED: bool = cython.compiled
"""Whether this module runs compiled by Cython."""

_ONE = cython.declare(cython.ulonglong, 1)

_BYTE_PLAYS = cython.declare(tuple, tuple(
    tuple(tuple(PLAY[8 * suit + r] for r in range(8) if byte >> r & 1) for byte in range(256)) for suit in range(4)
))
"""The play actions of one suit's byte of a card mask, prebuilt for every byte value."""
_POINTS = cython.declare(tuple, tuple(CARD_POINTS))
_NULL = cython.declare(cython.int, 5)

# HAND_CONTRACTS and SKAT_CONTRACTS (skat.rules.value): the contracts in the order of legal_actions,
# which is the order of the kernel's declaration masks
DECLARE: dict = {c: Declare(c) for c in HAND_CONTRACTS + SKAT_CONTRACTS}
"""The Declare action of each contract above."""
PAIR_DISCARDS: tuple = tuple(
    Discard(CardSet.from_mask(1 << a | 1 << b)) if a < b else None for a in range(32) for b in range(32))
"""The discard of cards a < b at index 32 * a + b."""

_HAND_CONTRACTS = cython.declare(tuple, HAND_CONTRACTS)
_HAND_ACTIONS = cython.declare(tuple, tuple(DECLARE[c] for c in HAND_CONTRACTS))
_SKAT_CONTRACTS = cython.declare(tuple, SKAT_CONTRACTS)
_SKAT_ACTIONS = cython.declare(tuple, tuple(DECLARE[c] for c in SKAT_CONTRACTS))
_PAIRS = cython.declare(tuple, PAIR_DISCARDS)

# The phases the core handles (skat.game.Phase is skat.enums.Phase), compared by identity.
_BIDDING = cython.declare(object, Phase.BIDDING)
_SKAT = cython.declare(object, Phase.SKAT)
_PLAY = cython.declare(object, Phase.PLAY)
_FINISHED = cython.declare(object, Phase.FINISHED)
_GRAND_HAND = cython.declare(object, Phase.GRAND_HAND)
_PUSH = cython.declare(object, Phase.PUSH)
_DISCARD = cython.declare(object, Phase.DISCARD)
_DECLARE = cython.declare(object, Phase.DECLARE)


@cython.cclass
class GameCore:
    """The state of a deal that every action touches, and the fast paths of the auction and the play."""

    phase = cython.declare(object, visibility="public")
    is_over = cython.declare(cython.bint, visibility="public")
    declarer = cython.declare(object, visibility="public")
    bid = cython.declare(object, visibility="public")
    contract = cython.declare(object, visibility="public")
    ruleset = cython.declare(object, visibility="public")
    trick = cython.declare(list, visibility="public")
    trick_leader = cython.declare(cython.int, visibility="public")
    tricks = cython.declare(list, visibility="public")
    trick_points = cython.declare(list, visibility="public")
    tricks_won = cython.declare(list, visibility="public")
    history = cython.declare(list, visibility="public")
    _hands = cython.declare(list, visibility="public")
    _game_type = cython.declare(cython.int, visibility="public")
    # the auction (docs/rules.md 2), as in skat.rules.bidding.Auction
    _ladder = cython.declare(tuple, visibility="public")
    _bid_actions = cython.declare(tuple, visibility="public")
    _ladder_next = cython.declare(dict, visibility="public")
    _auction_value = cython.declare(cython.int, visibility="public")
    _auction_rung = cython.declare(cython.int, visibility="public")
    """The place of _auction_value on the ladder (1: its lowest value, 0: no bid yet), as the kernel counts."""
    _bidder = cython.declare(cython.int, visibility="public")
    _listener = cython.declare(cython.int, visibility="public")
    _stage = cython.declare(cython.int, visibility="public")
    _passed = cython.declare(cython.int, visibility="public")
    """Bit s set: seat s has passed."""
    _waiting = cython.declare(cython.bint, visibility="public")
    _highest_bidder = cython.declare(object, visibility="public")
    # the rest of the deal's state (see skat.game.Game)
    seed = cython.declare(object, visibility="public")
    initial_hands = cython.declare(object, visibility="public")
    initial_skat = cython.declare(object, visibility="public")
    _skat = cython.declare(object, visibility="public")
    skat_taken = cython.declare(object, visibility="public")
    discard = cython.declare(object, visibility="public")
    claimed = cython.declare(object, visibility="public")
    conceded = cython.declare(object, visibility="public")
    result = cython.declare(object, visibility="public")
    _declarable_cache = cython.declare(object, visibility="public")
    _house = cython.declare(object, visibility="public")

    def _init_core(self, forehand: object, middlehand: object, rearhand: object, skat: object, seed: object,
                   ruleset: object, ladder: tuple) -> None:
        """Start a deal: the hands and the skat (masks), and the auction, middlehand bidding to forehand.

        ``ladder`` holds the bid values, their Bid actions, and for 0 and each value the index of the next bid.
        """
        self.seed = seed
        self.initial_hands = (forehand, middlehand, rearhand)
        self.initial_skat = skat
        self._skat = skat
        self.skat_taken = False
        self.discard = None
        self.claimed = False
        self.conceded = [False, False, False]
        self.result = None
        self._declarable_cache = None
        self._house = None
        self.phase = _BIDDING
        self.is_over = False
        self.declarer = None
        self.bid = 0
        self.contract = None
        self.ruleset = ruleset
        self.trick = []
        self.trick_leader = 0
        self.tricks = []
        self.trick_points = [0, 0, 0]
        self.tricks_won = [0, 0, 0]
        self.history = []
        self._hands = [forehand, middlehand, rearhand]
        self._game_type = -1
        self._ladder = ladder[0]
        self._bid_actions = ladder[1]
        self._ladder_next = ladder[2]
        self._auction_value = 0
        self._auction_rung = 0
        self._bidder = 1
        self._listener = 0
        self._stage = 1
        self._passed = 0
        self._waiting = False
        self._highest_bidder = None

    def _copy_core(self, other: GameCore) -> None:
        """Copy this state into ``other`` (lists copied, so that the two games are independent)."""
        other.phase = self.phase
        other.is_over = self.is_over
        other.declarer = self.declarer
        other.bid = self.bid
        other.contract = self.contract
        other.ruleset = self.ruleset
        other.trick = list(self.trick)
        other.trick_leader = self.trick_leader
        other.tricks = list(self.tricks)
        other.trick_points = list(self.trick_points)
        other.tricks_won = list(self.tricks_won)
        other.history = list(self.history)
        other._hands = list(self._hands)
        other._game_type = self._game_type
        other._ladder = self._ladder
        other._bid_actions = self._bid_actions
        other._ladder_next = self._ladder_next
        other._auction_value = self._auction_value
        other._auction_rung = self._auction_rung
        other._bidder = self._bidder
        other._listener = self._listener
        other._stage = self._stage
        other._passed = self._passed
        other._waiting = self._waiting
        other._highest_bidder = self._highest_bidder
        other.seed = self.seed
        other.initial_hands = self.initial_hands
        other.initial_skat = self.initial_skat
        other._skat = self._skat
        other.skat_taken = self.skat_taken
        other.discard = self.discard
        other.claimed = self.claimed
        other.conceded = list(self.conceded)
        other.result = self.result
        other._declarable_cache = self._declarable_cache
        other._house = self._house

    # ------------------------------------------------------------------ state
    @property
    def to_move(self) -> int | None:
        """The seat whose turn it is, or None when the game is over."""
        phase = self.phase
        if phase is _PLAY:
            return (self.trick_leader + len(self.trick)) % 3
        if phase is _BIDDING:
            return self._auction_to_move()
        if phase is _FINISHED:
            return None
        if phase is _GRAND_HAND or phase is _PUSH:
            return self._house.ramsch_seat
        return self.declarer

    @cython.cfunc
    def _auction_to_move(self) -> cython.int:
        """Who bids to whom: the rules kernel's auction_to_move of the auction's state."""
        highest: cython.int = -1 if self._highest_bidder is None else self._highest_bidder
        mover: cython.int = auction_to_move(auction_state(
            self._stage, self._bidder, self._listener, self._passed, self._waiting, highest,
            self._auction_rung))
        if mover < 0:
            from skat.rules.bidding import AuctionError

            raise AuctionError("the auction is over")
        return mover

    # -------------------------------------------------------------- legality
    def legal_actions(self, seat: object = None) -> list:
        """The actions the seat to move may take (empty for any other seat)."""
        trick: list
        hand: cython.ulonglong
        legal: cython.ulonglong
        mover: cython.int
        lead: cython.int
        if self.phase is _PLAY:
            trick = self.trick
            mover = (self.trick_leader + len(trick)) % 3
            if seat is not None and seat != mover:
                return []
            hand = self._hands[mover]
            lead = trick[0] if trick else -1
            legal = legal_mask(self._game_type, hand, lead)
            return [
                *_BYTE_PLAYS[0][legal & 255], *_BYTE_PLAYS[1][(legal >> 8) & 255],
                *_BYTE_PLAYS[2][(legal >> 16) & 255], *_BYTE_PLAYS[3][(legal >> 24) & 255],
            ]
        if self.phase is _BIDDING:
            mover = self._auction_to_move()
            if seat is not None and seat != mover:
                return []
            return self._auction_actions()
        if self.phase is _SKAT or self.phase is _DISCARD or self.phase is _DECLARE:
            if seat is not None and seat != self.declarer:
                return []
            if self.phase is _SKAT:
                out: list = [PICKUP]
                out.extend(self._declaration_options(True)[1])
                return out
            if self.phase is _DECLARE:
                return list(self._declaration_options(False)[1])
            return self._discards(self._hands[self.declarer])
        return self._legal_other(seat)

    @cython.cfunc
    def _discards(self, hand: cython.ulonglong) -> list:
        """Every discard of two cards of ``hand``, lower cards first."""
        cards: list = []
        c: cython.int
        a: cython.int
        b: cython.int
        i: cython.int
        j: cython.int
        for c in range(32):
            if (hand >> c) & 1:
                cards.append(c)
        n: cython.int = len(cards)
        out: list = []
        for i in range(n):
            a = cards[i]
            for j in range(i + 1, n):
                b = cards[j]
                out.append(_PAIRS[32 * a + b])
        return out

    def _declaration_options(self, hand_game: bool) -> tuple:
        """The contracts the declarer may announce now and their actions, in the order of
        HAND_CONTRACTS or SKAT_CONTRACTS: they must be able to reach the bid (docs/rules.md 3.3).
        Cached until the discard changes."""
        key = (hand_game, self.discard)
        cache = self._declarable_cache
        if cache is not None and cache[0] == key:
            return cache[1]
        result = self._declaration_options_of(hand_game)
        self._declarable_cache = (key, result)
        return result

    @cython.cfunc
    def _declaration_options_of(self, hand_game: cython.bint) -> tuple:
        """The declarable contracts and their actions: the rules kernel's declarable_mask of the cards
        the declarer knows (in a hand game his ten, else his twelve with the two he put away)."""
        known: cython.ulonglong = self._hands[self.declarer]
        discard: cython.ulonglong
        if not hand_game and self.discard is not None:
            discard = self.discard
            known |= discard
        declarable: cython.int = declarable_mask(hand_game, self.bid, known, self.ruleset.grand_ouvert_base36)
        contracts_of: tuple = _HAND_CONTRACTS if hand_game else _SKAT_CONTRACTS
        actions_of: tuple = _HAND_ACTIONS if hand_game else _SKAT_ACTIONS
        contracts: list = []
        actions: list = []
        i: cython.int
        for i in range(len(contracts_of)):
            if (declarable >> i) & 1:
                contracts.append(contracts_of[i])
                actions.append(actions_of[i])
        return contracts, actions

    @cython.cfunc
    def _auction_actions(self) -> list:
        """The moves of the seat to move: hold or pass a bid named to him, else the bids the rules
        kernel allows (auction_first_bid to auction_last_bid on the ladder) or pass."""
        bids: tuple = self._bid_actions
        highest: cython.int = -1 if self._highest_bidder is None else self._highest_bidder
        state: cython.int = auction_state(self._stage, self._bidder, self._listener, self._passed, self._waiting,
                                          highest, self._auction_rung)
        if auction_answering(state):
            return [HOLD, PASS]
        first: cython.int = auction_first_bid(state)
        last: cython.int = auction_last_bid(state, len(bids))
        out: list = list(bids[first - 1:last]) if first else []
        out.append(PASS)
        return out

    # ----------------------------------------------------------------- apply
    def apply(self, action: object, seat: object = None) -> None:
        """Apply an action of ``seat`` (default: the seat to move).

        An illegal action raises an :class:`~skat.errors.IllegalActionError` that says
        why, and leaves the game unchanged.
        """
        kind = type(action)
        trick: list
        mover: cython.int
        card: cython.int
        lead: cython.int
        hand: cython.ulonglong
        if kind is Play and self.phase is _PLAY:
            trick = self.trick
            mover = (self.trick_leader + len(trick)) % 3
            if seat is None or seat == mover:
                card = action.index
                hand = self._hands[mover]
                if (hand >> card) & 1:
                    if trick:
                        lead = trick[0]
                        if not ((legal_mask(self._game_type, hand, lead) >> card) & 1):
                            self._play(mover, card)  # raises, or records a real-table revoke
                            self.history.append((mover, action))
                            return
                    self._hands[mover] = hand ^ (_ONE << card)
                    trick.append(card)
                    self.history.append((mover, action))
                    if len(trick) == 3:
                        self._end_trick()
                    return
                self._play(mover, card)  # raises the specific error
                self.history.append((mover, action))
                return
        if self.phase is _BIDDING and (kind is Bid or kind is Hold or kind is Pass):
            if seat is None:
                seat = self._auction_to_move()
            self._bid(seat, action)
            self.history.append((seat, action))
            return
        if ((self.phase is _SKAT or self.phase is _DISCARD or self.phase is _DECLARE)
                and (seat is None or (type(seat) is int and seat == self.declarer))):
            if seat is None:
                seat = self.declarer
            if self._declarer_action(action, seat):
                self.history.append((seat, action))
                return
        self._apply_other(action, seat)

    @cython.cfunc
    def _declarer_action(self, action: object, seat: object) -> cython.bint:
        """Pick up the skat, discard or declare, if ``action`` is plainly legal now; else False."""
        kind = type(action)
        if kind is PickUp and self.phase is _SKAT:
            self._hands[seat] |= self._skat
            self.skat_taken = True
            self.phase = _DISCARD
            return True
        if kind is Discard and self.phase is _DISCARD:
            mask = action.cards.mask
            hand = self._hands[seat]
            if type(mask) is not int or mask.bit_count() != 2 or mask & ~hand:
                return False
            self._hands[seat] = hand & ~mask
            self.discard = mask
            self.phase = _DECLARE
            return True
        if kind is Declare and self.phase is not _DISCARD:
            contract = action.contract
            hand_game: cython.bint = self.phase is _SKAT
            if contract.hand != hand_game:
                return False
            for option in self._declaration_options(hand_game)[0]:
                if option is contract:
                    self.contract = contract
                    self._game_type = int(contract.game_type)
                    self.phase = _PLAY
                    self.trick_leader = 0
                    return True
        return False

    def _bid(self, seat: object, action: object) -> None:
        """A bid, hold or pass of ``seat``: the rules kernel says whether it is legal and what follows
        (docs/rules.md 2.2); anything not plainly legal goes the slow way, which says why."""
        kind = type(action)
        highest: cython.int = -1 if self._highest_bidder is None else self._highest_bidder
        state: cython.int = auction_state(self._stage, self._bidder, self._listener, self._passed, self._waiting,
                                          highest, self._auction_rung)
        after: cython.int = -1
        if type(seat) is int and seat == auction_to_move(state):
            if kind is Pass:
                after = auction_pass(state)
            elif kind is Hold:
                after = auction_hold(state)
            elif kind is Bid and type(action.value) is int:
                after = auction_bid(state, self._ladder_next.get(action.value, 0))  # 0: not on the ladder
        if after < 0:
            self._bid_slow(seat, action)
            return
        self._stage = auction_stage(after)
        self._bidder = auction_bidder(after)
        self._listener = auction_listener(after)
        self._passed = auction_passed(after)
        self._waiting = auction_answering(after)
        highest = auction_highest(after)
        self._highest_bidder = None if highest < 0 else highest
        rung: cython.int = auction_rung(after)
        if rung != self._auction_rung:
            self._auction_rung = rung
            self._auction_value = self._ladder[rung - 1]
        if self._stage == 0:
            self._auction_over()

    @cython.cfunc
    def _pass(self, seat: cython.int) -> cython.void:
        """``seat`` passes: :meth:`_bid` of a pass."""
        self._bid(seat, PASS)

    def _auction_over(self) -> None:
        """The auction has ended: the declarer takes over, or all passed (Ramsch or passed in)."""
        self.declarer = self._highest_bidder
        self.bid = self._auction_value
        if self.declarer is not None:
            self.phase = _SKAT
        elif self.ruleset.all_pass == "ramsch":
            self._start_ramsch()
        else:
            self._finish_passed_in()

    def _close_trick(self) -> None:
        """Settle the full trick (for the slow paths of :class:`skat.game.Game`)."""
        self._end_trick()

    @cython.cfunc
    def _end_trick(self) -> cython.void:
        trick: list = self.trick
        a: cython.int = trick[0]
        b: cython.int = trick[1]
        c: cython.int = trick[2]
        gt: cython.int = self._game_type
        best: cython.int = winner_of(gt, a, b, c)  # the rules layer's trick winner (docs/rules.md 1.3)
        leader: cython.int = self.trick_leader
        w: cython.int = (leader + best) % 3
        self.tricks.append((leader, (a, b, c), w))
        pa: cython.int = _POINTS[a]
        pb: cython.int = _POINTS[b]
        pc: cython.int = _POINTS[c]
        self.trick_points[w] += pa + pb + pc
        self.tricks_won[w] += 1
        self.trick = []
        self.trick_leader = w
        if w == self.declarer:
            if gt == _NULL:
                self._finish("played")
                return
        elif gt < _NULL and self.contract.schwarz:  # suit and grand; not Ramsch
            self._finish("played")  # announced Schwarz can no longer be made; every level is fixed
            return
        if len(self.tricks) == 10:
            self._finish("played")
