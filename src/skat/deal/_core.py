"""The base of every deal (:class:`DealState`) with its hot paths: the auction, the legal actions,
the play and the trick engine (the rules they apply are the compiled kernel's, skat.rules.kernel).

This is plain Python that Cython compiles (pure-Python mode) when the package is installed, see
``setup.py``. The ``cython.*`` declarations type the attributes and locals of the compiled module
and mean nothing when the module runs as Python (``SKAT_PURE_PYTHON=1``, or an install without a
C compiler); both behave alike, which ``tests/test_engine_speed_equivalence.py`` checks over
thousands of random games of every variant.

:class:`DealState` holds the state that every action touches (hands, trick, auction, history), owns
:meth:`~DealState.apply` and :meth:`~DealState.legal_actions`, the trick engine and :meth:`~DealState.copy`.
The variants (:class:`skat.deal.game.Game`, :class:`skat.variants.tournee.TourneeGame`,
:class:`skat.variants.officers.game.OfficersGame`) subclass it and override only what differs: their phases'
steps, the result, views and records. Illegal actions always take the slow path
(:meth:`~DealState._apply_step`), so the errors come from one place.
"""

from __future__ import annotations

try:
    import cython
except ImportError:  # running uncompiled without Cython installed
    import skat._cython_shim as cython

from bisect import bisect_right

from skat.cards import CARD_POINTS, Card, CardSet
from skat.enums import Phase
from skat.errors import IllegalActionError, OutOfTurnError, RecordError, WrongPhaseError
from skat.rules.actions import HOLD, PASS, PICKUP, PLAY, Bid, Declare, Discard, Hold, Pass, PickUp, Play
from skat.rules.bidding import Auction, auction_rung
from skat.rules.value import HAND_CONTRACTS, SKAT_CONTRACTS

# Following suit, the trick winner, the auction and the declarations that can reach the bid are the
# rules layer's (skat.rules.kernel); compiled, the core calls them through C (skat/rules/kernel.pxd),
# uncompiled as Python. The deal of a seed is the kernel's deal_masks (skat.rules.deal).
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

__all__ = ["DealState", "StatePart", "clone_state", "bid_ladder", "bid_action", "check_discard", "COMPILED", "HAND_CONTRACTS", "SKAT_CONTRACTS", "DECLARE",
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

# The phases the core handles (skat.deal.game.Phase is skat.enums.Phase), compared by identity.
_BIDDING = cython.declare(object, Phase.BIDDING)
_SKAT = cython.declare(object, Phase.SKAT)
_PLAY = cython.declare(object, Phase.PLAY)
_FINISHED = cython.declare(object, Phase.FINISHED)
_GRAND_HAND = cython.declare(object, Phase.GRAND_HAND)
_PUSH = cython.declare(object, Phase.PUSH)
_DISCARD = cython.declare(object, Phase.DISCARD)
_DECLARE = cython.declare(object, Phase.DECLARE)


class StatePart:
    """A mutable part of a deal's state kept outside the base fields (a variant's house rules, say):
    :meth:`DealState.copy` copies it slot by slot, like everything else, by :func:`clone_state`."""

    __slots__ = ()

    def clone(self) -> StatePart:
        """An independent copy: every slot cloned by :func:`clone_state`."""
        other = object.__new__(type(self))
        for name in type(self).__slots__:
            setattr(other, name, clone_state(getattr(self, name)))
        return other


def clone_state(value: object) -> object:
    """An independent copy of a piece of deal state: lists, dicts and sets copied all the way down,
    :class:`StatePart` objects cloned, everything else (numbers, text, tuples, enums, cards, contracts,
    actions, rule sets: immutable values) shared. The one copy mechanism of every variant."""
    kind = type(value)
    if kind is list:
        return [clone_state(v) for v in value]
    if kind is dict:
        return {k: clone_state(v) for k, v in value.items()}
    if kind is set:
        return set(value)
    if isinstance(value, StatePart):
        return value.clone()
    return value


_BIDS: dict = {}
_LADDERS: dict = {}
_LADDER_OF_TUPLE: dict = {}


def bid_action(value: int) -> Bid:
    """The Bid action of a value (one object per value)."""
    action = _BIDS.get(value)
    if action is None:
        action = _BIDS[value] = Bid(value)
    return action


def bid_ladder(values: tuple) -> tuple:
    """A bid ladder, its bid actions, and for 0 and each value the index of the next higher bid."""
    entry = _LADDER_OF_TUPLE.get(id(values))  # by identity first: hashing 63 values costs more
    if entry is None or entry[3] is not values:
        built = _LADDERS.get(values)
        if built is None:
            ladder = tuple(values)
            built = _LADDERS[values] = (ladder, tuple(bid_action(v) for v in ladder),
                                        {v: bisect_right(ladder, v) for v in (0, *ladder)}, values)
        if len(_LADDER_OF_TUPLE) >= 64:
            _LADDER_OF_TUPLE.clear()
        entry = _LADDER_OF_TUPLE[id(values)] = (*built[:3], values)
    return entry


def check_discard(hand: int, discard: int) -> None:
    """Refuse a discard that is not exactly two cards of ``hand`` (masks), saying why."""
    if discard.bit_count() != 2:
        raise IllegalActionError(f"discard exactly two cards, not {discard.bit_count()}")
    if discard & ~hand:
        missing = CardSet.from_mask(discard & ~hand)
        raise IllegalActionError(f"cannot discard {missing}: not in the declarer's hand (only cards in the hand may go)")


@cython.cclass
class DealState:
    """One deal as a state machine: the base of every variant (standard Skat, Tournee, Officers' Skat).

    It owns :meth:`apply`: the seat and the phase are checked, the action goes to the phase's step
    (``_STEPS``: a phase's name -> the method that takes ``(seat, action)``), the history is recorded
    once, and an illegal action raises its specific error with the state unchanged. It owns the trick
    engine for two and three active seats (:meth:`_play_card`, ``_end_trick``: following suit and the
    trick winner are the rules kernel's), the three-seat auction (docs/rules.md 2), the declarer's
    standard steps (pick up, discard, declare) and :meth:`copy`. A variant overrides only what differs:
    its phases' steps, ``_legal`` (the actions of the phases it adds), ``_mover`` (who moves in them),
    ``_finish`` (the result), and for cards that are not plainly a hand ``_playable``/``_take_card``/
    ``_trick_closed`` (Officers' piles). Plainly legal cards, bids and declarer actions take compiled
    fast paths that do exactly what the steps do (``tests/test_engine_speed_equivalence.py``).
    """

    SEAT_NAMES = ("forehand", "middlehand", "rearhand")
    """The seats' names, from the dealer's left."""
    _STEPS = {"play": "_step_play", "bidding": "_step_bidding", "skat": "_step_skat",
                    "discard": "_step_discard", "declare": "_step_declare"}
    """The step of each phase (by the phase's value); a variant adds its own phases' steps."""
    _SIDE_ACTIONS = ()
    """Action types a seat may take out of turn (claims, Kontra...): they go to ``_side_step``."""

    seats = cython.declare(cython.int, visibility="public")
    """The active seats: 3, or 2 in Officers' Skat."""
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
    _total_tricks = cython.declare(cython.int, visibility="public")
    _pile_play = cython.declare(cython.bint, visibility="public")
    """Cards are played from more than the hand (Officers' piles): ask ``_playable``/``_take_card``."""
    _std_auction = cython.declare(cython.bint, visibility="public")
    """The three-seat auction of docs/rules.md 2 (not Officers' two-seat one)."""
    _std_declarer = cython.declare(cython.bint, visibility="public")
    """The declarer's standard steps: pick up or hand, discard, declare a reachable contract."""
    _schwarz_ends = cython.declare(cython.bint, visibility="public")
    """An announced Schwarz ends the game at the defenders' first trick (docs/rules.md 4)."""
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
    # the rest of the deal's state
    seed = cython.declare(object, visibility="public")
    initial_hands = cython.declare(object, visibility="public")
    initial_skat = cython.declare(object, visibility="public")
    _skat = cython.declare(object, visibility="public")
    skat_taken = cython.declare(object, visibility="public")
    discard = cython.declare(object, visibility="public")
    claimed = cython.declare(object, visibility="public")
    conceded = cython.declare(list, visibility="public")
    """Per seat: whether that seat has conceded (claims and concessions end a deal early)."""
    result = cython.declare(object, visibility="public")
    _declarable_cache = cython.declare(object, visibility="public")
    _house = cython.declare(object, visibility="public")
    """A variant's own state that actions touch (standard Skat's house rules: a :class:`StatePart`),
    or None. A field rather than an attribute, so that a deal of standard Skat needs no ``__dict__``."""

    def _init_core(self, forehand: object, middlehand: object, rearhand: object, skat: object, seed: object,
                   ruleset: object, ladder: tuple, seats: cython.int = 3, total_tricks: cython.int = 10,
                   std_auction: cython.bint = True, std_declarer: cython.bint = True,
                   pile_play: cython.bint = False, schwarz_ends: cython.bint = True) -> None:
        """Start a deal: the hands and the skat (masks), and the auction, middlehand bidding to forehand.

        ``ladder`` holds the bid values, their Bid actions, and for 0 and each value the index of the
        next bid (:func:`bid_ladder`). A two-seat deal gives ``rearhand`` as None. The flags say which
        of the base's standard parts the variant uses (see the fields).
        """
        self.seats = seats
        self._total_tricks = total_tricks
        self._std_auction = std_auction
        self._std_declarer = std_declarer
        self._pile_play = pile_play
        self._schwarz_ends = schwarz_ends
        self.seed = seed
        self.initial_hands = (forehand, middlehand, rearhand) if seats == 3 else (forehand, middlehand)
        self.initial_skat = skat
        self._skat = skat
        self.skat_taken = False
        self.discard = None
        self.claimed = False
        self.conceded = [False] * seats
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
        self.trick_points = [0] * seats
        self.tricks_won = [0] * seats
        self.history = []
        self._hands = list(self.initial_hands)
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

    def _copy_core(self, other: DealState) -> None:
        """Copy the base's fields into ``other`` (lists copied, so that the two deals are independent)."""
        other.seats = self.seats
        other._total_tricks = self._total_tricks
        other._std_auction = self._std_auction
        other._std_declarer = self._std_declarer
        other._pile_play = self._pile_play
        other._schwarz_ends = self._schwarz_ends
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
        other._house = clone_state(self._house)

    def copy(self) -> DealState:
        """An independent copy (for search, simulation and trying an action), of any variant: the base's
        fields, then the variant's own attributes by :func:`clone_state`. No variant writes its own."""
        cls = type(self)
        other = cls.__new__(cls)
        self._copy_core(other)
        state = getattr(self, "__dict__", None)
        if state:
            other.__dict__.update({name: clone_state(value) for name, value in state.items()})
        return other

    # ------------------------------------------------------------------ state
    @property
    def to_move(self) -> int | None:
        """The seat whose turn it is, or None when the deal is over."""
        phase = self.phase
        if phase is _PLAY:
            return (self.trick_leader + len(self.trick)) % self.seats
        if phase is _BIDDING and self._std_auction:
            return self._auction_to_move()
        if phase is _FINISHED:
            return None
        return self._mover()

    def _mover(self) -> object:
        """Who moves in a phase the base does not know (a variant's hook); the declarer by default."""
        return self.declarer

    def hand(self, seat: int) -> CardSet:
        """The current hand of a seat (full information; use ``view`` for a player's knowledge)."""
        return CardSet.from_mask(self._hands[seat])

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
            mover = (self.trick_leader + len(trick)) % self.seats
            if seat is not None and seat != mover:
                return []
            hand = self._playable(mover) if self._pile_play else self._hands[mover]
            lead = trick[0] if trick else -1
            legal = legal_mask(self._game_type, hand, lead)
            return [
                *_BYTE_PLAYS[0][legal & 255], *_BYTE_PLAYS[1][(legal >> 8) & 255],
                *_BYTE_PLAYS[2][(legal >> 16) & 255], *_BYTE_PLAYS[3][(legal >> 24) & 255],
            ]
        if self.phase is _BIDDING and self._std_auction:
            mover = self._auction_to_move()
            if seat is not None and seat != mover:
                return []
            return self._auction_actions()
        if self._std_declarer and (self.phase is _SKAT or self.phase is _DISCARD or self.phase is _DECLARE):
            if seat is not None and seat != self.declarer:
                return []
            if self.phase is _SKAT:
                out: list = [PICKUP]
                out.extend(self._declaration_options(True)[1])
                return out
            if self.phase is _DECLARE:
                return list(self._declaration_options(False)[1])
            return self._discards(self._hands[self.declarer])
        if self.phase is _FINISHED:
            return []
        who = self.to_move
        if who is None or (seat is not None and seat != who):
            return []
        return self._legal(who)

    def _legal(self, seat: int) -> list:
        """The actions of the seat to move in a phase the base does not know (a variant's hook)."""
        return []

    def side_actions(self, seat: int) -> list:
        """Actions a seat may take out of turn (none unless the variant has some)."""
        return []

    def _discard_actions(self, seat: int) -> list:
        """Every discard of two cards of the seat's hand, lower cards first."""
        return self._discards(self._hands[seat])

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

        An illegal action raises an :class:`~skat.errors.IllegalActionError` that says why and leaves
        the deal unchanged. Plainly legal cards, bids and declarer actions take the compiled fast
        paths; everything else goes through :meth:`_apply_step`. The history is recorded here, once.
        """
        kind = type(action)
        phase = self.phase
        mover: cython.int
        entry: tuple = None
        if kind is Play and phase is _PLAY:
            mover = (self.trick_leader + len(self.trick)) % self.seats
            if seat is None or seat == mover:
                self._play_card(mover, action.index)  # raises the specific error, or plays the card
                entry = (mover, action)
        elif phase is _BIDDING and self._std_auction and (kind is Bid or kind is Hold or kind is Pass):
            if seat is None:
                seat = self._auction_to_move()
            self._bid(seat, action)
            entry = (seat, action)
        elif (self._std_declarer and (phase is _SKAT or phase is _DISCARD or phase is _DECLARE)
                and (seat is None or (type(seat) is int and seat == self.declarer))):
            if self._declarer_action(action, self.declarer):
                entry = (self.declarer, action)
        if entry is None:
            entry = self._apply_step(action, seat)
        self.history.append(entry)

    def _apply_step(self, action: object, seat: object) -> tuple:
        """Check the action like every variant does and hand it to the phase's step; returns the
        history entry ``(seat, action)``. Text actions are read by the variant's ``parse_action``."""
        if isinstance(action, str):
            action = self.parse_action(action)
        if self.is_over:
            raise WrongPhaseError("the game is over")
        mover = self.to_move
        if seat is None:
            seat = mover
        elif type(seat) is not int or not 0 <= seat < self.seats:
            seats = ", ".join(f"{s} ({name})" for s, name in enumerate(self.SEAT_NAMES))
            raise IllegalActionError(f"there is no seat {seat!r}: the seats are {seats}")
        if self._SIDE_ACTIONS and isinstance(action, self._SIDE_ACTIONS):
            self._side_step(seat, action)
            return (seat, action)
        if seat != mover:
            raise OutOfTurnError(f"it is {self.SEAT_NAMES[mover]}'s (seat {mover}) turn, not seat {seat}'s")
        step = self._STEPS.get(self.phase)
        if step is None:
            raise WrongPhaseError(f"nothing can be done in the {self.phase} phase")
        getattr(self, step)(seat, action)
        return (seat, action)

    def _side_step(self, seat: int, action: object) -> None:
        """An action of ``_SIDE_ACTIONS`` (a variant's hook)."""
        raise WrongPhaseError(f"{action} is not possible in this game")

    # ----------------------------------------------------------------- steps
    def _step_play(self, seat: int, action: object) -> None:
        """The play: a card of the seat to move."""
        if type(action) is not Play:
            raise WrongPhaseError(f"the cards are being played: seat {seat} must play a card, not {action}")
        self._play_card(seat, action.index)

    def _step_bidding(self, seat: int, action: object) -> None:
        """The three-seat auction (docs/rules.md 2)."""
        self._bid(seat, action)

    def _step_skat(self, seat: int, action: object) -> None:
        """The declarer picks up the skat or declares a hand game."""
        if isinstance(action, PickUp):
            self._pick_up(seat)
        elif isinstance(action, Declare):
            self._declare(action.contract, True)
        else:
            raise WrongPhaseError(f"the declarer must pick up the skat or declare a hand game, not {action}")

    def _step_discard(self, seat: int, action: object) -> None:
        """The declarer puts two cards away."""
        if not isinstance(action, Discard):
            raise WrongPhaseError(f"the declarer must discard two cards now, not {action}")
        mask = action.cards.mask
        check_discard(self._hands[seat], mask)
        self._hands[seat] &= ~mask
        self.discard = mask
        self._discarded()

    def _step_declare(self, seat: int, action: object) -> None:
        """The declarer announces the game after picking up the skat."""
        if not isinstance(action, Declare):
            raise WrongPhaseError(f"the declarer must announce the game now, not {action}")
        self._declare(action.contract, False)

    def _pick_up(self, seat: int) -> None:
        """The declarer takes the skat into his hand."""
        self._hands[seat] |= self._skat
        self.skat_taken = True
        self.phase = _DISCARD

    def _discarded(self) -> None:
        """After the discard: the declarer announces the game."""
        self.phase = _DECLARE

    def _declare(self, contract: object, hand_game: cython.bint) -> None:
        """Announce ``contract``: it must be a hand game exactly when the skat was not picked up, and
        able to reach the bid (docs/rules.md 3)."""
        if contract.hand != hand_game:
            if hand_game:
                raise IllegalActionError(f"{contract} is not a hand game: pick up the skat first, or declare it hand")
            raise IllegalActionError("a hand game cannot be declared after picking up the skat")
        contracts = self._declaration_options(hand_game)[0]
        if not any(c is contract for c in contracts) and contract not in contracts:
            raise IllegalActionError(
                f"{contract} cannot reach the bid of {self.bid}: choose a game whose value can reach it"
            )
        self.contract = contract
        self._game_type = int(contract.game_type)
        self.phase = _PLAY
        self.trick_leader = 0

    def _bid_slow(self, seat: object, action: object) -> None:
        """An auction action that the fast path does not take as plainly legal: the auction rules
        (:class:`skat.rules.bidding.Auction`) say why not, or take it."""
        kind = type(action)
        if kind is Bid:
            move: object = action.value
        elif kind is Hold:
            move = "hold"
        elif kind is Pass:
            move = "pass"
        else:
            raise WrongPhaseError(f"the auction is running: bid, hold or pass, not {action}")
        auction = self._auction
        auction.apply(seat, move)  # raises, leaving the deal unchanged
        self._set_auction(auction)
        if auction.stage == 0:
            self._auction_over()

    @property
    def _auction(self) -> Auction:
        """The auction's state as a :class:`~skat.rules.bidding.Auction` (a copy; see :meth:`_set_auction`)."""
        return Auction(
            ladder=self._ladder, value=self._auction_value, bidder=self._bidder, listener=self._listener,
            stage=self._stage, passed=[bool(self._passed >> s & 1) for s in range(3)],
            waiting_for_answer=self._waiting, highest_bidder=self._highest_bidder,
        )

    def _set_auction(self, auction: Auction) -> None:
        self._auction_value = auction.value
        self._auction_rung = auction_rung(auction.state)
        self._bidder = auction.bidder
        self._listener = auction.listener
        self._stage = auction.stage
        self._passed = sum(1 << s for s in range(3) if auction.passed[s])
        self._waiting = auction.waiting_for_answer
        self._highest_bidder = auction.highest_bidder

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


    def _start_ramsch(self) -> None:
        """All passed and the rule set plays Ramsch (a variant's hook)."""
        raise NotImplementedError

    def _finish_passed_in(self) -> None:
        """All passed and nobody plays (a variant's hook)."""
        raise NotImplementedError

    def _finish(self, kind: str) -> None:
        """The deal has ended (``played`` to its end); the variant scores it (a variant's hook)."""
        raise NotImplementedError

    def _end(self, result: object) -> None:
        """Close the deal with its result."""
        self.phase = _FINISHED
        self.is_over = True
        self.result = result

    # ------------------------------------------------------------ trick engine
    @cython.cfunc
    def _play_card(self, seat: cython.int, card: cython.int) -> cython.void:
        """Play ``card`` of ``seat``, which must hold it (or, with piles, see it uncovered) and follow
        suit (docs/rules.md 1.3); a full trick is settled. Otherwise ``_illegal_card`` says why."""
        trick: list = self.trick
        hand: cython.ulonglong = self._playable(seat) if self._pile_play else self._hands[seat]
        if not (hand >> card) & 1 or (trick and not ((legal_mask(self._game_type, hand, trick[0]) >> card) & 1)):
            self._illegal_card(seat, card)  # raises, or (a real-table revoke) ends the deal
            return
        if self._pile_play:
            self._take_card(seat, card)
        else:
            self._hands[seat] = hand ^ (_ONE << card)
        trick.append(card)
        if len(trick) == self.seats:
            self._end_trick()

    def _illegal_card(self, seat: int, card: int) -> None:
        """Refuse a card the seat may not play (``_unplayable_text`` says why) or that does not follow suit."""
        if not self._playable(seat) >> card & 1:
            raise IllegalActionError(self._unplayable_text(seat, card))
        raise IllegalActionError(
            f"{Card(card).name} does not follow suit: seat {seat} must follow {Card(self.trick[0]).name}")

    def _unplayable_text(self, seat: int, card: int) -> str:
        """Why a card the seat may not play is refused (with piles it may be covered; a variant's hook)."""
        return f"{Card(card).name} is not in seat {seat}'s hand"

    def _playable(self, seat: int) -> int:
        """The cards the seat may play from (with piles: the uncovered ones too; a variant's hook)."""
        return self._hands[seat]

    def _take_card(self, seat: int, card: int) -> None:
        """Take a played card from where it lay (with piles; a variant's hook)."""
        self._hands[seat] &= ~(1 << card)

    def _trick_closed(self) -> None:
        """After a trick, with piles: what the table shows changes (a variant's hook)."""

    def _close_trick(self) -> None:
        """Settle the full trick (for the slow paths of a variant)."""
        self._end_trick()

    @cython.cfunc
    def _end_trick(self) -> cython.void:
        trick: list = self.trick
        n: cython.int = self.seats
        a: cython.int = trick[0]
        b: cython.int = trick[1]
        c: cython.int = trick[2] if n == 3 else -1
        gt: cython.int = self._game_type
        best: cython.int = winner_of(gt, a, b, c)  # the rules layer's trick winner (docs/rules.md 1.3)
        leader: cython.int = self.trick_leader
        w: cython.int = (leader + best) % n
        pa: cython.int = _POINTS[a]
        pb: cython.int = _POINTS[b]
        points: cython.int = pa + pb
        if n == 3:
            self.tricks.append((leader, (a, b, c), w))
            pa = _POINTS[c]
            points += pa
        else:
            self.tricks.append((leader, (a, b), w))
        self.trick_points[w] += points
        self.tricks_won[w] += 1
        self.trick = []
        self.trick_leader = w
        if self._pile_play:
            self._trick_closed()
        if w == self.declarer:
            if gt == _NULL:
                self._finish("played")  # the Null declarer took a trick
                return
        elif gt < _NULL and self._schwarz_ends and self.contract is not None and self.contract.schwarz:
            self._finish("played")  # announced Schwarz can no longer be made; every level is fixed
            return
        if len(self.tricks) == self._total_tricks:
            self._finish("played")

    # --------------------------------------------------------------- records
    def _replay(self, actions: object) -> None:
        """Replay a record's ``[seat, action text]`` pairs, each by :meth:`apply`; a pair that is
        malformed or does not replay raises :class:`~skat.errors.RecordError` naming it."""
        if not isinstance(actions, list):
            raise RecordError("the record's actions must be a list of [seat, action] pairs")
        last = self.seats - 1
        for i, entry in enumerate(actions):
            if (not isinstance(entry, (list, tuple)) or len(entry) != 2 or type(entry[0]) is not int
                    or not isinstance(entry[1], str)):
                raise RecordError(f"action {i + 1} must be [seat 0-{last}, action text], got {entry!r}")
            seat, token = entry
            if not 0 <= seat <= last:
                seats = ", ".join(str(s) for s in range(last)) + f" and {last}"
                raise RecordError(f"action {i + 1} ({seat} {token!r}): there is no seat {seat}; seats are {seats}")
            try:
                self.apply(self.parse_action(token), seat)
            except IllegalActionError as exc:
                raise RecordError(f"action {i + 1} ({seat} {token!r}) does not replay: {exc}") from None
