"""The rules kernel (skat.rules.kernel): the deal, the auction and the declarations that can still
reach the bid, each once (docs/rules.md 1.4, 2.2, 3.3, 4.1, 4.2).

Each function is checked against a plain reference of its rule written out here, compiled and as
Python source alike (the kernel is loaded a second time from its ``.py``), and the deals of a few
seeds are pinned to the values the engine has always dealt.
"""

from __future__ import annotations

import importlib.util
import itertools
import random
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path

import pytest

import skat.rules.kernel as compiled_kernel
from skat.errors import IllegalActionError, OutOfTurnError
from skat.rules import deal as deal_module
from skat.rules.bidding import BID_VALUES, Auction, AuctionError, legal_moves
from skat.rules.contract import NULL_VALUES, Contract
from skat.rules.ranking import GameType
from skat.rules.rulesets import TOURNEE
from skat.rules.value import (
    HAND_CONTRACTS,
    SKAT_CONTRACTS,
    best_hand_matadors,
    can_reach_bid,
    declarable,
    declarable_by_matadors,
    declaration_index,
    matador_count,
    matador_sequence,
    multiplier,
)


def _source_kernel():
    path = Path(compiled_kernel.__file__).with_name("kernel.py")
    spec = importlib.util.spec_from_file_location("skat_kernel_as_source", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert not module.COMPILED
    return module


SOURCE_KERNEL = _source_kernel()


@pytest.fixture(params=["kernel", "source"])
def kernel(request):
    """The kernel as the package loads it (compiled where built), and its plain Python source."""
    return compiled_kernel if request.param == "kernel" else SOURCE_KERNEL


# -------------------------------------------------------------------- the deal
PINNED = {
    0: (0x48890689, 0xB0245812, 0x7522124, 0x8040),
    1: (0x59201512, 0x80516069, 0x26888A84, 0x60000),
    7: (0xA6108849, 0x19A014A2, 0x4F2314, 0x40004000),
    -1: (0x4900131B, 0x34A9A400, 0x82524864, 0x40080),
    2**64: (0x48890689, 0xB0245812, 0x7522124, 0x8040),
    10**30: (0x4201BC11, 0xB18240A2, 0xC7C010C, 0x240),
    -(2**63): (0x21103554, 0xC668A02, 0x928940A8, 0x40000001),
    123456789: (0x883A8450, 0x14041AAA, 0x60C16105, 0x3000000),
}
"""Deals of seeds as (forehand, middlehand, rearhand, skat) masks, taken from the engine before its
deal moved into the kernel: a seed must deal the same cards for ever (records, series, tests)."""
PINNED_DECK_7 = [25, 26, 29, 21, 27, 1, 4, 17, 19, 30, 14, 6, 3, 0, 31, 28, 5, 12, 10, 2, 18, 9, 8, 11, 15, 20, 7,
                 24, 23, 22, 13, 16]
PINNED_NUMBER_7 = 129543153787866986158581381135666969


def test_pinned_deals(kernel):
    for seed, masks in PINNED.items():
        assert kernel.deal_masks(seed) == masks, seed
    assert kernel.deal_number(7) == PINNED_NUMBER_7
    assert kernel.deck_order(PINNED_NUMBER_7) == PINNED_DECK_7
    assert [int(c) for c in kernel.deal_deck(7)] == PINNED_DECK_7
    assert kernel.DEAL_PACKETS == (0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 0, 0, 0, 1, 1,
                                   1, 2, 2, 2)


def _reference_deck(number: int) -> list[int]:
    """The factorial number system on big integers: digit i (base 32, 31, ...) picks the next card."""
    deck = list(range(32))
    out = []
    for i in range(32, 0, -1):
        number, r = divmod(number, i)
        out.append(deck.pop(r))
    return out


def test_deck_order_of_any_number(kernel):
    fact32 = 263130836933693530167218012160000000
    rng = random.Random(4)
    numbers = [0, 1, fact32 - 1, fact32 // 2, (1 << 64) - 1, 1 << 64, (1 << 64) + 1]
    numbers += [rng.randrange(fact32) for _ in range(3000)] + [rng.randrange(1 << 64) for _ in range(500)]
    for number in numbers:
        assert kernel.deck_order(number) == _reference_deck(number), number
    for bad in (-1, fact32):
        with pytest.raises(ValueError, match="deal number"):
            kernel.deck_order(bad)


def test_the_deal_is_the_deck_dealt_in_packets(kernel):
    rng = random.Random(5)
    for seed in [*range(-20, 20), *(rng.getrandbits(70) - (1 << 69) for _ in range(1000))]:
        order = kernel.deck_order(kernel.deal_number(seed))
        masks = [0, 0, 0, 0]
        for place, card in zip(kernel.DEAL_PACKETS, order):
            masks[place] |= 1 << card
        assert kernel.deal_masks(seed) == tuple(masks), seed
        assert kernel.deal_number(seed) == kernel.deal_number(seed & ((1 << 64) - 1))


def test_a_random_deal_draws_from_python_random(kernel):
    """A seed of None deals at random, from :mod:`random` (seeding it repeats the deal)."""
    random.seed(11)
    number = random.randrange(263130836933693530167218012160000000)
    random.seed(11)
    assert kernel.deal_number(None) == number
    random.seed(11)
    assert kernel.deck_order(number) == [int(c) for c in kernel.deal_deck(None)]
    random.seed(11)
    masks = kernel.deal_masks(None)
    assert [m.bit_count() for m in masks] == [10, 10, 10, 2] and masks[0] | masks[1] | masks[2] | masks[3] == 2**32 - 1
    random.seed(11)
    assert masks == kernel.deal_masks(None)


def test_the_rules_deal_module_is_the_kernels():
    from skat.deal import game  # a standard deal is dealt by the rules layer's one dealing rule

    assert game.deal_masks is deal_module.deal_masks
    assert deal_module.DEAL_PACKETS == compiled_kernel.DEAL_PACKETS


# ------------------------------------------------------------------ the auction
@dataclass
class ReferenceAuction:
    """The auction of docs/rules.md 2.2 written out plainly (as skat.rules.bidding had it before the
    kernel): the reference the packed state machine is checked against."""

    ladder: tuple = BID_VALUES
    value: int = 0
    bidder: int = 1
    listener: int = 0
    stage: int = 1
    passed: list = field(default_factory=lambda: [False, False, False])
    waiting_for_answer: bool = False
    highest_bidder: int | None = None

    @property
    def to_move(self) -> int:
        if self.stage == 0:
            raise AuctionError("the auction is over")
        if self.stage == 3:
            return 0
        return self.listener if self.waiting_for_answer else self.bidder

    def legal(self) -> list:
        if self.stage == 0:
            return []
        if self.waiting_for_answer:
            return ["hold", "pass"]
        if self.stage == 3:
            return [self.ladder[0], "pass"]
        return [v for v in self.ladder if v > self.value] + ["pass"]

    def apply(self, seat: int, move) -> None:
        if seat != self.to_move:
            raise OutOfTurnError(f"it is seat {self.to_move}'s turn in the auction, not seat {seat}'s")
        if self.waiting_for_answer:
            if move == "hold":
                self.highest_bidder = self.listener
                self.waiting_for_answer = False
            elif move == "pass":
                self._pass(self.listener)
            else:
                raise AuctionError(f"seat {seat} must answer the bid of {self.value}: hold or pass")
        elif move == "pass":
            self._pass(seat)
        elif isinstance(move, int) and not isinstance(move, bool):
            if move not in self.ladder:
                raise AuctionError(f"{move} is not a possible bid value")
            if self.stage == 3:
                if move != self.ladder[0]:
                    raise AuctionError(f"forehand may only play at {self.ladder[0]} when nobody bid")
                self.value, self.highest_bidder, self.stage = move, 0, 0
            elif move <= self.value:
                raise AuctionError(f"a bid must be higher than {self.value}, got {move}")
            else:
                self.value, self.highest_bidder, self.waiting_for_answer = move, seat, True
        else:
            raise AuctionError(f"unknown auction move {move!r}: bid a value, hold or pass")

    def _pass(self, seat: int) -> None:
        self.passed[seat] = True
        self.waiting_for_answer = False
        survivor = self.listener if seat == self.bidder else self.bidder
        if self.stage == 1:
            self.stage, self.bidder, self.listener = 2, 2, survivor
        elif self.stage == 2:
            if self.value == 0:
                if survivor == 0 and not self.passed[0]:
                    self.stage = 3
                    return
                self.stage, self.highest_bidder = 0, None
                return
            self.stage, self.highest_bidder = 0, survivor
        else:
            self.stage, self.highest_bidder = 0, None

    def key(self) -> tuple:
        return (self.value, self.bidder, self.listener, self.stage, tuple(self.passed), self.waiting_for_answer,
                self.highest_bidder)

    def copy(self) -> ReferenceAuction:
        return ReferenceAuction(self.ladder, self.value, self.bidder, self.listener, self.stage, list(self.passed),
                                self.waiting_for_answer, self.highest_bidder)


def _view_key(a: Auction) -> tuple:
    return (a.value, a.bidder, a.listener, a.stage, tuple(a.passed), a.waiting_for_answer, a.highest_bidder)


def _outcome(auction, seat: int, move):
    try:
        auction.apply(seat, move)
    except IllegalActionError as exc:
        return type(exc), str(exc)
    return None


def _explore(ladder: tuple, start: ReferenceAuction) -> int:
    """Every auction state reachable from ``start`` with every move of every seat: the view of the
    kernel's state and the reference agree on the seat to move, the legal moves, the refusals (type
    and text) and the state that follows."""
    tries = [*ladder, 0, ladder[0] - 1, ladder[-1] + 1, "hold", "pass", "yes", True]
    queue = deque([start])
    seen = {start.key()}
    while queue:
        ref = queue.popleft()
        view = Auction(ladder=ladder, value=ref.value, bidder=ref.bidder, listener=ref.listener, stage=ref.stage,
                       passed=list(ref.passed), waiting_for_answer=ref.waiting_for_answer,
                       highest_bidder=ref.highest_bidder)
        assert _view_key(view) == ref.key()
        assert view.legal() == ref.legal()
        if ref.stage == 0:
            with pytest.raises(AuctionError, match="the auction is over"):
                view.apply(0, "pass")
            assert view.finished and view.declarer == ref.highest_bidder
            continue
        assert view.to_move == ref.to_move and not view.finished
        assert legal_moves(ref.value, ref.waiting_for_answer, ref.stage == 3, ladder) == ref.legal()
        for seat, move in itertools.product(range(3), tries):
            after_ref, after_view = ref.copy(), Auction(ladder=ladder, value=ref.value, bidder=ref.bidder,
                                                        listener=ref.listener, stage=ref.stage,
                                                        passed=list(ref.passed),
                                                        waiting_for_answer=ref.waiting_for_answer,
                                                        highest_bidder=ref.highest_bidder)
            refused = _outcome(after_ref, seat, move)
            assert _outcome(after_view, seat, move) == refused, (ref, seat, move)
            assert _view_key(after_view) == (ref.key() if refused else after_ref.key())
            assert after_view.history == ([] if refused else [(seat, move)])
            if not refused and after_ref.key() not in seen:
                seen.add(after_ref.key())
                queue.append(after_ref)
    return len(seen)


@pytest.mark.parametrize("ladder", [(18, 20, 22), BID_VALUES[:6], TOURNEE.bid_values[:5], (10,)], ids=str)
def test_the_packed_auction_is_the_auction_of_the_rules(ladder):
    states = _explore(ladder, ReferenceAuction(ladder))
    assert states > 10
    # Admiral's Skat: the last two seats, the dealer as rearhand bidding to forehand
    _explore(ladder, ReferenceAuction(ladder, stage=2, bidder=2, listener=0, passed=[False, True, False]))


def test_the_packed_auction_on_the_whole_ladder():
    rng = random.Random(9)
    for _ in range(3000):
        ref, view = ReferenceAuction(), Auction()
        while ref.stage:
            assert view.legal() == ref.legal() and view.to_move == ref.to_move
            move = rng.choice(ref.legal()[:4] + ref.legal()[-2:])
            seat = ref.to_move
            ref.apply(seat, move)
            view.apply(seat, move)
            assert _view_key(view) == ref.key()
        assert view.declarer == ref.highest_bidder and view.value == ref.value


def test_the_packed_state(kernel):
    state = kernel.auction_state(2, 2, 0, 0b010, True, 2, 7)
    parts = (kernel.auction_stage(state), kernel.auction_bidder(state), kernel.auction_listener(state),
             kernel.auction_passed(state), kernel.auction_answering(state), kernel.auction_highest(state),
             kernel.auction_rung(state))
    assert parts == (2, 2, 0, 0b010, True, 2, 7)
    assert kernel.auction_highest(kernel.auction_state(1, 1, 0, 0, False, -1, 0)) == -1
    assert kernel.AUCTION_START == kernel.auction_state(1, 1, 0, 0, False, -1, 0) == Auction().state
    assert kernel.auction_to_move(kernel.AUCTION_START) == 1
    assert kernel.auction_first_bid(kernel.AUCTION_START) == 1
    assert kernel.auction_last_bid(kernel.AUCTION_START, 63) == 63
    assert kernel.auction_hold(kernel.AUCTION_START) == -1
    over = kernel.auction_state(0, 2, 1, 0b101, False, 1, 5)
    assert kernel.auction_to_move(over) == -1 and kernel.auction_pass(over) == -1
    assert kernel.auction_bid(over, 6) == -1 and kernel.auction_first_bid(over) == 0


def test_the_source_kernel_runs_the_same_auction():
    rng = random.Random(2)
    for _ in range(500):
        a = b = compiled_kernel.AUCTION_START
        while compiled_kernel.auction_stage(a):
            assert a == b
            choice = rng.random()
            if choice < 0.3:
                a, b = compiled_kernel.auction_pass(a), SOURCE_KERNEL.auction_pass(b)
            elif choice < 0.5:
                a, b = compiled_kernel.auction_hold(a), SOURCE_KERNEL.auction_hold(b)
            else:
                r = rng.randrange(64)
                a, b = compiled_kernel.auction_bid(a, r), SOURCE_KERNEL.auction_bid(b, r)
            if a < 0:
                assert b == a
                break


# ------------------------------------------------------ matadors, levels, reach
def _reference_matadors(gt: int, mask: int) -> tuple[bool, int]:
    run = [mask >> card & 1 for card in matador_sequence(GameType(gt))]
    count = 0
    while count < len(run) and run[count] == run[0]:
        count += 1
    return run[0] == 1, count


def test_matadors_are_the_run_from_the_club_jack(kernel):
    rng = random.Random(6)
    masks = [0, 2**32 - 1] + [rng.getrandbits(32) for _ in range(4000)]
    masks += [sum(1 << c for c in rng.sample(range(32), 12)) for _ in range(4000)]
    for mask in masks:
        for gt in (0, 1, 2, 3, 4, 6):
            assert kernel.matador_count(gt, mask) == _reference_matadors(gt, mask), (gt, mask)


def test_the_best_unseen_skat_of_a_hand_game(kernel):
    """best_hand_matadors == the most matadors over every skat the declarer might find."""
    rng = random.Random(7)
    for _ in range(150):
        cards = rng.sample(range(32), 10)
        hand = sum(1 << c for c in cards)
        rest = [c for c in range(32) if c not in cards]
        for gt in range(5):
            best = max(_reference_matadors(gt, hand | 1 << a | 1 << b)[1] for a, b in itertools.combinations(rest, 2))
            assert kernel.best_hand_matadors(gt, hand) == best, (gt, hand)


def test_levels(kernel):
    for flags in itertools.product((False, True), repeat=7):
        hand, schneider, s_ann, schwarz, w_ann, ouvert, counts = flags
        made_s, made_w = (schneider or s_ann, schwarz or w_ann) if counts else (schneider, schwarz)
        expected = 3 + 1 + hand + made_s + s_ann + made_w + w_ann + ouvert
        assert kernel.multiplier(3, hand, schneider, s_ann, schwarz, w_ann, ouvert, counts) == expected
    assert multiplier(2) == 3 and multiplier(2, True, announced_counts_made=False) == 4


def _reference_reach(contract: Contract, matadors: int, bid: int, base36: bool) -> bool:
    if contract.is_null:
        return NULL_VALUES[(contract.hand, contract.ouvert)] >= bid
    old_grand_ouvert = base36 and contract.game_type == GameType.GRAND and contract.ouvert
    base = 36 if old_grand_ouvert else contract.game_type.base_value
    levels = matadors + 3 + contract.hand + contract.schneider + contract.schwarz + (contract.ouvert and not old_grand_ouvert)
    return levels * base >= bid


def test_the_order_of_the_declaration_masks():
    from skat.deal.game import _core

    assert _core.HAND_CONTRACTS is HAND_CONTRACTS and _core.SKAT_CONTRACTS is SKAT_CONTRACTS
    assert len(HAND_CONTRACTS) == 22 and len(SKAT_CONTRACTS) == 7
    for contracts in (HAND_CONTRACTS, SKAT_CONTRACTS):
        assert [declaration_index(c) for c in contracts] == list(range(len(contracts)))
    assert compiled_kernel.HAND_DECLARATIONS == 2**22 - 1 and compiled_kernel.SKAT_DECLARATIONS == 2**7 - 1


def test_a_declaration_reaches_the_bid(kernel):
    for base36, hand_game in itertools.product((False, True), repeat=2):
        contracts = HAND_CONTRACTS if hand_game else SKAT_CONTRACTS
        for (i, contract), matadors, bid in itertools.product(enumerate(contracts), range(1, 12),
                                                             (*BID_VALUES, 17, 300)):
            expected = _reference_reach(contract, matadors, bid, base36)
            assert bool(kernel.reaches(hand_game, i, matadors, bid, base36)) == expected, (contract, matadors, bid)
            if kernel is compiled_kernel:
                assert can_reach_bid(contract, matadors, bid, base36) == expected


def test_the_declarable_contracts(kernel):
    """declarable_mask: the contracts that reach the bid with the known matadors; after the pickup,
    when none does, every one (lost overbid); a hand game then offers none."""
    rng = random.Random(8)
    fallbacks = 0
    for n in range(3000):
        hand_game = n % 2 == 0
        base36 = n % 3 == 0
        known = sum(1 << c for c in rng.sample(range(32), 10 if hand_game else 12))
        bid = rng.choice(BID_VALUES)
        contracts = HAND_CONTRACTS if hand_game else SKAT_CONTRACTS
        matadors = [best_hand_matadors(gt, known) if hand_game else matador_count(gt, known)[1] for gt in range(5)]
        ok = [c for c in contracts
              if _reference_reach(c, 0 if c.is_null else matadors[c.game_type], bid, base36)]
        if not ok and not hand_game:
            ok = list(contracts)
            fallbacks += 1
        mask = kernel.declarable_mask(hand_game, bid, known, base36)
        assert [c for i, c in enumerate(contracts) if mask >> i & 1] == ok, (hand_game, bid, known)
        packed = kernel.known_matadors(hand_game, known)
        assert [packed >> 4 * gt & 15 for gt in range(5)] == matadors
        if kernel is compiled_kernel:
            assert declarable(hand_game, bid, known, base36) == ok
            assert declarable_by_matadors(hand_game, bid, matadors, None, base36) == ok
    assert fallbacks > 50


def test_declarable_among_some_contracts():
    """Admiral's Skat offers no ouvert: the rule among the contracts a game offers, with its lost overbid."""
    among = [c for c in SKAT_CONTRACTS if not c.ouvert]
    clubs, grand, null_ouvert = Contract(GameType.CLUBS), Contract(GameType.GRAND), Contract(GameType.NULL, ouvert=True)
    assert declarable_by_matadors(False, 46, [1] * 5, among) == [clubs, grand]  # 4 x 12 and 4 x 24
    assert declarable_by_matadors(False, 46, [1] * 5) == [clubs, grand, null_ouvert]
    assert declarable_by_matadors(False, 99, [1] * 5, among) == among  # none reaches: lost overbid
    assert declarable_by_matadors(False, 99, [1] * 5) == list(SKAT_CONTRACTS)
    hand = [c for c in HAND_CONTRACTS if not c.ouvert]
    assert declarable_by_matadors(True, 264, [1] * 5, hand) == []
    with pytest.raises(ValueError, match="not a hand game"):
        declarable_by_matadors(True, 18, [1] * 5, among)


def test_the_kernels_null_values_are_the_contracts():
    for hand, ouvert in itertools.product((False, True), repeat=2):
        contract = Contract(GameType.NULL, hand=hand, ouvert=ouvert)
        value = NULL_VALUES[(hand, ouvert)]
        assert can_reach_bid(contract, 0, value) and not can_reach_bid(contract, 0, value + 1)
