"""The engines against the rules layer: each rule once (docs/rules.md 1-4).

Every rule an engine applies in its hot path exists once, in the rules kernel
(:mod:`skat.rules.kernel`, compiled by Cython like the core of :class:`skat.Game`, :mod:`skat.deal._core`,
which calls it through C): the deal, following suit, the trick winner, the auction on a packed state
and the declarations that can still reach the bid. The rules layer's modules re-export it for
everybody else (:mod:`skat.rules.deal`, :mod:`skat.rules.ranking`, :mod:`skat.rules.bidding`,
:mod:`skat.rules.value`). Seeded random play through the public API reaches at least :data:`POSITIONS`
card positions, and as many auction positions, per variant (standard Skat under the ISkO, pub and
pirate rule sets, Ramsch and the old Grand ouvert included; Tournee; the five Officers' Skat variants
and full-matador scoring) and checks at each position the engine against the rules functions:

* the legal cards == :func:`skat.rules.ranking.legal_mask` of the seat's hand (Officers' Skat: of the
  playable cards, pile tops and hand), the led card and the game type; a card outside it is refused;
* each completed trick's winner == :func:`skat.rules.ranking.winner_index`;
* in the auction, the legal bids == :func:`skat.rules.bidding.legal_moves` of a rules
  :class:`~skat.rules.bidding.Auction` (a view of the kernel's packed auction state) replayed alongside
  (Tournee on its own ladder, Admiral's Skat as that auction's last two seats), the seat to move, the
  declarer and the bid agree, and a move the rules refuse is refused;
* the declarable contracts == :func:`skat.rules.value.declarable` of the declarer's cards (the kernel's
  ``declarable_mask``, which the compiled core calls) == those that :func:`skat.rules.value.can_reach_bid`
  contract by contract with the matadors of :func:`~skat.rules.value.matador_count` /
  :func:`~skat.rules.value.best_hand_matadors`; Admiral's Skat: those that reach the bid with the
  matadors its declarer can be sure of or hope for (his face-down cards and an unseen skat unknown),
  contract by contract and by :func:`~skat.rules.value.declarable_by_matadors`;
* the matadors of the result == :func:`~skat.rules.value.matador_count` over the cards that count;
* the deal of a seed == :func:`skat.rules.deal.deal_masks` (standard and Tournee), which equals a plain
  big-integer reference of the dealing rule (:func:`reference_deal`).

``test_a_wrong_rule_fails`` swaps each rules function for a wrong one and sees the check fail.
"""
from __future__ import annotations

import random
import sys
from collections import Counter

import pytest

from skat import IllegalActionError
from skat.deal.game import Game, Phase, deal
from skat.rules.actions import HOLD, PASS, Bid, Declare, Hold, Pass, Play
from skat.rules.bidding import FOREHAND, REARHAND, Auction, legal_moves
from skat.rules.contract import Contract
from skat.rules.deal import deal_masks
from skat.rules.ranking import GameType, legal_mask, winner_index
from skat.rules.rulesets import ISKO, PIRATE, PUB, TOURNEE
from skat.rules.value import best_hand_matadors, can_reach_bid, declarable, declarable_by_matadors, matador_count
from skat.variants.officers import OfficersGame
from skat.variants.officers.game import Phase as OfficersPhase
from skat.variants.tournee import TourneeGame

POSITIONS = 10_000
"""Card positions, and auction positions where there is an auction, per variant (the declarations,
tricks and results of the same games come on top)."""

_MODULE = sys.modules[__name__]
"""This module: ``test_a_wrong_rule_fails`` swaps the rules functions it imported."""
_SUITS_AND_GRAND = (GameType.DIAMONDS, GameType.HEARTS, GameType.SPADES, GameType.CLUBS, GameType.GRAND)
HAND_CONTRACTS = tuple(Contract(gt, hand=True, schneider=s, schwarz=w, ouvert=o) for gt in _SUITS_AND_GRAND
                       for s, w, o in ((False, False, False), (True, False, False), (True, True, False),
                                       (True, True, True))) + (
    Contract(GameType.NULL, hand=True), Contract(GameType.NULL, hand=True, ouvert=True))
SKAT_CONTRACTS = tuple(Contract(gt) for gt in _SUITS_AND_GRAND) + (
    Contract(GameType.NULL), Contract(GameType.NULL, ouvert=True))
"""Every contract of standard Skat, hand games and games after picking up the skat."""


# ----------------------------------------------------------------- helpers
def _cards(legal: list) -> int:
    mask = 0
    for action in legal:
        assert type(action) is Play, action
        mask |= 1 << action.index
    return mask


def _moves(legal: list) -> list:
    """Auction actions written as the rules layer writes moves: bid values, "hold", "pass"."""
    out: list = []
    for action in legal:
        kind = type(action)
        assert kind in (Bid, Hold, Pass), action
        out.append(action.value if kind is Bid else "hold" if kind is Hold else "pass")
    return out


def _action(move: int | str) -> Bid | Hold | Pass:
    return HOLD if move == "hold" else PASS if move == "pass" else Bid(move)


def _bidding_choice(rng: random.Random, legal: list):
    """Random auction play that passes often enough for all-pass deals and climbs the ladder."""
    if HOLD in legal:
        return HOLD if rng.random() < 0.6 else PASS
    if rng.random() < 0.3 or len(legal) == 1:
        return PASS
    bids = [a for a in legal if type(a) is Bid]
    return bids[min(len(bids) - 1, int(rng.expovariate(0.4)))] if rng.random() < 0.9 else rng.choice(bids)


def _check_auction(rng: random.Random, game, seat: int, legal: list, auction: Auction, rules_seat: int,
                   seen: Counter) -> None:
    """The engine's auction moves == the rules' (the rules' state machine replayed alongside)."""
    assert auction.to_move == rules_seat
    expected = legal_moves(auction.value, auction.waiting_for_answer, auction.stage == 3, auction.ladder)
    assert sorted(map(str, _moves(legal))) == sorted(map(str, expected)), (auction, legal)
    seen["bid"] += 1
    if rng.random() < 0.25:  # a move the rules refuse is refused, and changes nothing
        candidates = [*auction.ladder, "hold", "pass"]
        refused = [m for m in candidates if m not in expected]
        if refused:
            with pytest.raises(IllegalActionError):
                game.apply(_action(rng.choice(refused)), seat)
            seen["refused"] += 1


def _auction_step(rng: random.Random, game, seat: int, legal: list, auction: Auction, rules_seat: int,
                  seen: Counter):
    """Check an auction position, choose a move and replay it on the rules' auction."""
    _check_auction(rng, game, seat, legal, auction, rules_seat, seen)
    action = _bidding_choice(rng, legal)
    auction.apply(rules_seat, _moves([action])[0])
    return action


def _check_cards(rng: random.Random, game, seat: int, legal: list, gt: int, held: int, trick: list,
                 seen: Counter) -> None:
    """The engine's legal cards == the follow-suit rule's, and a card that does not follow is refused."""
    expected = legal_mask(gt, held, trick[0] if trick else -1)
    assert _cards(legal) == expected, (gt, held, trick)
    seen["card"] += 1
    refused = held & ~expected
    if refused and rng.random() < 0.25:
        card = rng.choice([c for c in range(32) if refused >> c & 1])
        with pytest.raises(IllegalActionError):
            game.apply(Play(card), seat)
        seen["refused"] += 1


def _check_trick(trick: tuple, gt: int, seats: int, seen: Counter) -> None:
    leader, cards, won_by = trick
    assert won_by == (leader + winner_index(gt, list(cards))) % seats, (gt, trick)
    seen["trick"] += 1


def _declarable(candidates: tuple, matadors: dict, bid: int, base36: bool, hand_game: bool) -> set:
    ok = {c for c in candidates if can_reach_bid(c, 0 if c.is_null else matadors[c.game_type], bid, base36)}
    return ok if ok or hand_game else set(candidates)


def _check_declarations(game, legal: list, seen: Counter) -> None:
    """The contracts the engine lets the declarer announce == those the rules let reach the bid."""
    hand = game.hand(game.declarer).mask
    hand_game = game.phase is Phase.SKAT
    known = hand if hand_game else hand | game.discard
    if hand_game:
        matadors = {gt: best_hand_matadors(int(gt), hand) for gt in _SUITS_AND_GRAND}
    else:
        matadors = {gt: matador_count(int(gt), known)[1] for gt in _SUITS_AND_GRAND}
    candidates = HAND_CONTRACTS if hand_game else SKAT_CONTRACTS
    offered = [a.contract for a in legal if type(a) is Declare]
    base36 = game.ruleset.grand_ouvert_base36
    assert set(offered) == _declarable(candidates, matadors, game.bid, base36, hand_game)
    assert offered == declarable(hand_game, game.bid, known, base36)
    seen["declaration"] += 1


def _admiral_matadors(game) -> dict:
    """The most matadors Admiral's declarer can count: "with" as far as all his cards go, "without" as
    far as the cards he knows allow (face-down cards and an untaken skat are unknown)."""
    d = game.chooser
    everything = game.initial_cards[d] | game.skat
    known = game.hands[d] | (game.discard or 0)
    for pile in game.piles[d]:
        for card in pile:
            if game.visible_to(d, card):
                known |= 1 << card
    if game.skat_taken:
        known |= game.skat
    out = {}
    for gt in _SUITS_AND_GRAND:
        with_all, count_all = matador_count(int(gt), everything)
        with_known, count_known = matador_count(int(gt), known)
        out[gt] = max(count_all if with_all else 0, 0 if with_known else count_known)
    return out


def _check_admiral_declarations(game, legal: list, seen: Counter) -> None:
    """Admiral's declarable contracts == those that can reach the bid on what the declarer knows."""
    hand_game = game.phase is OfficersPhase.SKAT
    candidates = tuple(c for c in (HAND_CONTRACTS if hand_game else SKAT_CONTRACTS) if not c.ouvert)
    matadors = _admiral_matadors(game)
    offered = [a.contract for a in legal if type(a) is Declare]
    assert set(offered) == _declarable(candidates, matadors, game.bid, False, hand_game), (game.bid, matadors)
    assert offered == declarable_by_matadors(hand_game, game.bid, [matadors[gt] for gt in _SUITS_AND_GRAND],
                                             candidates)
    seen["declaration"] += 1


def _check_matadors(outcome, gt: int, cards: int, seen: Counter) -> None:
    assert (outcome.matadors_with, outcome.matadors) == matador_count(gt, cards), (outcome, gt, cards)
    seen["matadors"] += 1


# ------------------------------------------------------- three-handed games
def play_three_handed(new_game, ladder: tuple, positions: int, declarations: bool) -> Counter:
    """Random games of a three-handed engine (``new_game(seed)``) until ``positions`` card and auction
    positions are checked; ``declarations``: check the declarable contracts (standard Skat)."""
    seen: Counter = Counter()
    number = 0
    while seen["card"] < positions or seen["bid"] < positions:
        rng = random.Random(number)
        seed = rng.getrandbits(64) - (1 << 63)
        number += 1
        game = new_game(seed)
        assert (*game.initial_hands, game.initial_skat) == deal_masks(seed), seed
        auction = Auction(ladder=ladder)
        tricks = 0
        while not game.is_over:
            phase, seat, legal = game.phase, game.to_move, game.legal_actions()
            if phase is Phase.BIDDING:
                action = _auction_step(rng, game, seat, legal, auction, seat, seen)
            elif phase is Phase.PLAY:
                if seen["card"] >= positions:
                    break  # enough card positions: only the auctions and declarations still count
                gt = GameType.RAMSCH if game.contract is None else game.contract.game_type
                _check_cards(rng, game, seat, legal, gt, game.hand(seat).mask, game.trick, seen)
                action = rng.choice(legal)
            else:
                if declarations and (phase is Phase.SKAT or phase is Phase.DECLARE):
                    _check_declarations(game, legal, seen)
                action = rng.choice(legal)
            game.apply(action, seat)
            if phase is Phase.BIDDING and game.phase is not Phase.BIDDING:
                assert auction.finished and (game.declarer, game.bid) == (auction.declarer, auction.value)
            if len(game.tricks) > tricks:
                tricks = len(game.tricks)
                gt = GameType.RAMSCH if game.contract is None else game.contract.game_type
                _check_trick(game.tricks[-1], gt, 3, seen)
        outcome = game.result.outcome if game.is_over else None
        if outcome is not None and outcome.matadors is not None:
            d = game.declarer
            _check_matadors(outcome, game.contract.game_type, game.initial_hands[d] | game.initial_skat, seen)
        seen["game"] += 1
    return seen


# ---------------------------------------------------------------- standard
def play_standard(ruleset, positions: int = POSITIONS) -> Counter:
    """:class:`skat.Game` under ``ruleset``: the compiled core's copies of the rules."""
    return play_three_handed(lambda seed: Game(seed=seed, ruleset=ruleset), ruleset.bid_values, positions, True)


@pytest.mark.parametrize("ruleset", [ISKO, PUB, PIRATE], ids=lambda r: r.name)
def test_standard_engine_follows_the_rules(ruleset):
    seen = play_standard(ruleset)
    assert seen["card"] >= POSITIONS and seen["bid"] >= POSITIONS
    assert seen["trick"] >= POSITIONS // 4 and seen["declaration"] >= 1000 and seen["matadors"] >= 300
    assert seen["refused"] >= 1000


def test_standard_engine_plays_ramsch_by_the_rules():
    """Under the pub rules an all-pass deal is Ramsch (or a Grand Hand): its play follows the rules too."""
    seen: Counter = Counter()
    number = 0
    while seen["card"] < POSITIONS:
        rng = random.Random(number)
        game = Game(seed=number, ruleset=PUB)
        number += 1
        while not game.is_over:
            seat = game.to_move
            legal = game.legal_actions()
            if game.phase is Phase.PLAY:
                gt = GameType.RAMSCH if game.contract is None else game.contract.game_type
                _check_cards(rng, game, seat, legal, gt, game.hand(seat).mask, game.trick, seen)
                action = rng.choice(legal)
            else:  # everybody passes; a Grand Hand now and then
                action = PASS if PASS in legal and rng.random() < 0.95 else rng.choice(legal)
            tricks = len(game.tricks)
            game.apply(action, seat)
            if len(game.tricks) > tricks:
                gt = GameType.RAMSCH if game.contract is None else game.contract.game_type
                _check_trick(game.tricks[-1], gt, 3, seen)
        seen["ramsch"] += game.result.kind == "ramsch"
    assert seen["ramsch"] >= 200 and seen["trick"] >= POSITIONS // 4


_FACT32 = 263130836933693530167218012160000000  # 32!
_PACKETS = (0,) * 3 + (1,) * 3 + (2,) * 3 + (3,) * 2 + (0,) * 4 + (1,) * 4 + (2,) * 4 + (0,) * 3 + (1,) * 3 + (2,) * 3


def reference_deal(seed: int) -> tuple[int, int, int, int]:
    """The dealing rule (docs/rules.md 1.4) on plain big integers, as the rules layer defined it before
    the kernel computed it in 64-bit pieces: SplitMix64 draws 118 bits below 32! (rejection sampling)
    from the seed's low 64 bits, the number's digits in the factorial number system pick the cards, and
    they go in packets of 3, skat 2, 4, 3."""
    mask64 = (1 << 64) - 1
    state = seed & mask64

    def draw() -> int:
        nonlocal state
        state = (state + 0x9E3779B97F4A7C15) & mask64
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask64
        return z ^ (z >> 31)

    while True:
        a = draw()
        number = ((a << 64) | draw()) >> 10
        if number < _FACT32:
            break
    deck = list(range(32))
    masks = [0, 0, 0, 0]
    for i, place in zip(range(32, 0, -1), _PACKETS):
        number, r = divmod(number, i)
        masks[place] |= 1 << deck.pop(r)
    return masks[0], masks[1], masks[2], masks[3]


def test_the_deal_of_a_seed():
    """The engine's deal of a seed is :func:`skat.rules.deal.deal_masks` (the kernel's), which is the
    plain reference of the rule."""
    rng = random.Random(1)
    seeds = [*range(-50, 50), 2**63 - 1, 2**64 - 1, 2**64, -(2**63), 10**30]
    seeds += [rng.getrandbits(rng.choice((16, 32, 63, 64, 80))) for _ in range(POSITIONS)]
    for seed in seeds:
        hands, skat = deal(seed)
        assert (*hands, skat) == deal_masks(seed), seed
        if seed % 10 == 0 or seed < 50:
            assert deal_masks(seed) == reference_deal(seed), seed
    fh, mh, rh, skat = deal_masks(None)
    assert fh | mh | rh | skat == (1 << 32) - 1 and [m.bit_count() for m in (fh, mh, rh, skat)] == [10, 10, 10, 2]


# ----------------------------------------------------------------- Tournee
def play_tournee(positions: int = POSITIONS) -> Counter:
    """:class:`skat.variants.tournee.TourneeGame`, bidding on the Tournee ladder."""
    return play_three_handed(lambda seed: TourneeGame(seed=seed), TOURNEE.bid_values, positions, False)


def test_tournee_engine_follows_the_rules():
    seen = play_tournee()
    assert seen["card"] >= POSITIONS and seen["bid"] >= POSITIONS
    assert seen["trick"] >= POSITIONS // 4 and seen["matadors"] >= 300 and seen["refused"] >= 1000


# --------------------------------------------------------------- Officers'
_OFFICERS_TO_RULES = (FOREHAND, REARHAND)
"""Admiral's Skat bids as the last two seats of a Skat auction: the dealer (1) bids to forehand (0)."""
_RULES_TO_OFFICERS = {FOREHAND: 0, REARHAND: 1, None: None}


def _admiral_auction() -> Auction:
    return Auction(stage=2, bidder=REARHAND, listener=FOREHAND, passed=[False, True, False])


def play_officers(variant: str, options: dict, positions: int = POSITIONS, first_seed: int = 0) -> Counter:
    """Random games of :class:`skat.variants.officers.OfficersGame` until ``positions`` card positions (and, in
    Admiral's Skat, auction positions)."""
    seen: Counter = Counter()
    number = first_seed
    while seen["card"] < positions or (variant == "admiral" and seen["bid"] < positions):
        rng = random.Random(number)
        game = OfficersGame(variant, seed=number, **options)
        number += 1
        auction = _admiral_auction()
        tricks = 0
        while not game.is_over:
            phase, seat, legal = game.phase, game.to_move, game.legal_actions()
            if phase is OfficersPhase.BIDDING:
                action = _auction_step(rng, game, seat, legal, auction, _OFFICERS_TO_RULES[seat], seen)
            elif phase is OfficersPhase.PLAY:
                if seen["card"] >= positions:
                    break  # enough card positions: only the auctions still count
                # the playable cards (pile tops and hand) are what must follow suit
                _check_cards(rng, game, seat, legal, game.game_type, game.playable(seat), game.trick, seen)
                action = rng.choice(legal)
            else:
                if phase is OfficersPhase.SKAT or phase is OfficersPhase.DECLARE:
                    _check_admiral_declarations(game, legal, seen)
                action = PASS if PASS in legal and rng.random() < 0.8 else rng.choice(legal)
            game.apply(action, seat)
            if phase is OfficersPhase.BIDDING and game.phase is not OfficersPhase.BIDDING:
                declarer = _RULES_TO_OFFICERS[auction.declarer]
                assert auction.finished and game.bid == (auction.value if declarer is not None else 0)
                assert game.chooser == declarer
            if len(game.tricks) > tricks:
                tricks = len(game.tricks)
                _check_trick(game.tricks[-1], game.game_type, 2, seen)
        outcome = game.result.outcome if game.is_over else None
        if outcome is not None and outcome.matadors is not None:
            chooser = game.chooser
            if variant == "admiral":
                gt, cards = game.game_type, game.initial_cards[chooser] | game.skat
            else:  # the jacks only, unless full matadors are counted
                gt = game.game_type if game.options.scoring == "full_matadors" else GameType.GRAND
                cards = game.initial_cards[chooser]
            _check_matadors(outcome, gt, cards, seen)
        seen["game"] += 1
    return seen


OFFICERS = {"classic": ("classic", {}), "passing": ("passing", {}), "harlequin": ("harlequin", {}),
            "half_open": ("half_open", {}), "admiral": ("admiral", {}),
            "full_matadors": ("classic", {"scoring": "full_matadors", "allow_null": True, "allow_ramsch": True})}


@pytest.mark.parametrize(("variant", "options"), list(OFFICERS.values()), ids=list(OFFICERS))
def test_officers_engine_follows_the_rules(variant, options):
    seen = play_officers(variant, options)
    assert seen["card"] >= POSITIONS and seen["trick"] >= POSITIONS // 3 and seen["refused"] >= 500
    assert seen["matadors"] >= 50 and seen["bid"] >= (POSITIONS if variant == "admiral" else 0)
    assert seen["declaration"] >= (1000 if variant == "admiral" else 0)


# ------------------------------------------------------------ the checks live
_RIGHT = {"legal_moves": legal_moves, "matador_count": matador_count, "deal_masks": deal_masks,
          "can_reach_bid": can_reach_bid, "declarable": declarable, "declarable_by_matadors": declarable_by_matadors}


def _wrong_legal_mask(gt, hand, lead):
    return hand  # no following suit


def _wrong_winner_index(gt, played):
    return 0  # the leader always wins


def _wrong_legal_moves(value, answering, alone, ladder):
    return _RIGHT["legal_moves"](value, answering, alone, ladder)[1:]  # the lowest move missing


def _wrong_matador_count(gt, mask):
    with_, count = _RIGHT["matador_count"](gt, mask)
    return with_, count + 1


def _wrong_deal_masks(seed):
    return _RIGHT["deal_masks"](seed + 1)


def _wrong_can_reach_bid(contract, matadors, bid, grand_ouvert_base36=False):
    return _RIGHT["can_reach_bid"](contract, matadors + 1, bid, grand_ouvert_base36)


def _wrong_declarable(hand_game, bid, known, grand_ouvert_base36=False):
    return _RIGHT["declarable"](hand_game, bid - 12, known, grand_ouvert_base36)  # a lower bid


def _wrong_declarable_by_matadors(hand_game, bid, matadors, among=None, grand_ouvert_base36=False):
    return _RIGHT["declarable_by_matadors"](hand_game, bid, [m + 1 for m in matadors], among, grand_ouvert_base36)


WRONG = {"legal_mask": _wrong_legal_mask, "winner_index": _wrong_winner_index, "legal_moves": _wrong_legal_moves,
         "matador_count": _wrong_matador_count, "deal_masks": _wrong_deal_masks,
         "can_reach_bid": _wrong_can_reach_bid, "declarable": _wrong_declarable,
         "declarable_by_matadors": _wrong_declarable_by_matadors}


# Tournee games are not declared against the bid; Officers' Skat deals a deck; only standard Skat has
# declarable() and only Admiral's Skat declarable_by_matadors()
_CHECKED = {"standard": sorted(set(WRONG) - {"declarable_by_matadors"}),
            "tournee": sorted(set(WRONG) - {"can_reach_bid", "declarable", "declarable_by_matadors"}),
            "officers": sorted(set(WRONG) - {"deal_masks", "declarable"})}


@pytest.mark.parametrize(("engine", "rule"), [(e, r) for e, rules in _CHECKED.items() for r in rules])
def test_a_wrong_rule_fails(monkeypatch, engine, rule):
    """Each comparison is live: with one rules function made wrong, the check fails."""
    monkeypatch.setattr(_MODULE, rule, WRONG[rule])
    with pytest.raises(AssertionError):
        if engine == "standard":
            play_standard(ISKO, 400)
        elif engine == "tournee":
            play_tournee(400)
        else:
            play_officers("admiral", {}, 2000)
