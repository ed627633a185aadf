"""One deal of Skat as a state machine: auction, skat, declaration, ten tricks, result.

Seats are numbered from the dealer's left: 0 forehand, 1 middlehand, 2 rearhand.
Drive a game with :meth:`Game.legal_actions` and :meth:`Game.apply`; every seat
sees the game through :meth:`Game.view`, which holds only what that seat may know.
"""

from __future__ import annotations

import itertools
from bisect import bisect_right
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from skat.actions import (
    CLAIM,
    CONCEDE,
    HOLD,
    PASS,
    PICKUP,
    PLAY,
    RESIGN,
    Action,
    Bid,
    Claim,
    Concede,
    Declare,
    Discard,
    Hold,
    Pass,
    PickUp,
    Play,
    Resign,
    parse_action,
)
from skat.cards import ALL_CARDS, CARD_POINTS, Card, CardSet, deal_number, deck_order, mask_of, mask_points
from skat.errors import IllegalActionError, OutOfTurnError, RecordError, WrongPhaseError
from skat.rules.bidding import Auction
from skat.rules.contract import Contract, null_value
from skat.rules.ranking import FOLLOW_MASK, POWER, TRUMP_MASK, GameType
from skat.rules.value import Outcome, best_hand_matadors, evaluate, matador_count, max_multiplier
from skat.rulesets import ISKO, RuleSet

__all__ = ["Game", "Phase", "GameResult", "SeatView", "deal", "SEAT_NAMES"]

SEAT_NAMES = ("forehand", "middlehand", "rearhand")


class Phase(StrEnum):
    """The phases of a deal."""

    BIDDING = "bidding"
    SKAT = "skat"  # declarer decides: pick up the skat or declare a hand game
    DISCARD = "discard"
    DECLARE = "declare"
    PLAY = "play"
    FINISHED = "finished"


_BIDDING, _SKAT, _DISCARD, _DECLARE_PHASE, _PLAY, _FINISHED = (
    Phase.BIDDING, Phase.SKAT, Phase.DISCARD, Phase.DECLARE, Phase.PLAY, Phase.FINISHED)

# Deal order: packets of 3 to each seat, 2 to the skat (3), 4 each, 3 each.
_DEAL_TO = (0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3) + (0,) * 4 + (1,) * 4 + (2,) * 4 + (0,) * 3 + (1,) * 3 + (2,) * 3


def deal(seed: int | None) -> tuple[list[int], int]:
    """Deal from a seeded shuffle in packets of 3, skat 2, 4, 3: three hand masks and the skat mask."""
    masks = [0, 0, 0, 0]
    for seat, card in zip(_DEAL_TO, deck_order(deal_number(seed))):
        masks[seat] |= 1 << card
    return masks[:3], masks[3]


@dataclass(frozen=True)
class GameResult:
    """How a deal ended and what each seat scores."""

    kind: str
    """``played`` (to the end), ``claimed``, ``conceded``, ``resigned``, or ``passed_in``."""
    declarer: int | None
    contract: Contract | None
    bid: int
    won: bool | None
    declarer_points: int | None
    defender_points: int | None
    declarer_tricks: int
    skat: CardSet
    """The original skat, revealed at the end."""
    discard: CardSet | None
    outcome: Outcome | None
    scores: tuple[int, int, int]
    """Score-sheet entries per seat (standard Skat writes only the declarer)."""
    explanation: str

    @property
    def score(self) -> int:
        """The declarer's score-sheet entry (0 for a passed-in deal)."""
        return 0 if self.declarer is None else self.scores[self.declarer]

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "declarer": self.declarer,
            "contract": None if self.contract is None else self.contract.to_json(),
            "bid": self.bid,
            "won": self.won,
            "declarer_points": self.declarer_points,
            "defender_points": self.defender_points,
            "declarer_tricks": self.declarer_tricks,
            "skat": [c.name for c in self.skat],
            "discard": None if self.discard is None else [c.name for c in self.discard],
            "outcome": None if self.outcome is None else self.outcome.to_json(),
            "scores": list(self.scores),
            "explanation": self.explanation,
        }


@dataclass(frozen=True)
class SeatView:
    """What one seat may know: never another player's hidden cards."""

    seat: int
    phase: Phase
    to_move: int | None
    hand: CardSet
    legal_actions: list[Action]
    side_actions: list[Action]
    auction: list[tuple[int, str]]
    bid: int
    declarer: int | None
    contract: Contract | None
    skat: CardSet | None
    """The two cards the declarer picked up (declarer only)."""
    discard: CardSet | None
    """The two cards the declarer put away (declarer only)."""
    open_hands: dict[int, CardSet]
    """Hands shown to everybody (ouvert games, a claim)."""
    trick: list[tuple[int, Card]]
    tricks: list[tuple[int, tuple[Card, Card, Card], int]]
    """Completed tricks: (leader, cards in play order, winner)."""
    trick_points: tuple[int, int, int]
    """Card points each seat has taken in tricks (the skat not included)."""
    hand_sizes: tuple[int, int, int]
    result: GameResult | None
    ruleset: str

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "phase": self.phase.value,
            "to_move": self.to_move,
            "hand": [c.name for c in self.hand],
            "legal_actions": [str(a) for a in self.legal_actions],
            "side_actions": [str(a) for a in self.side_actions],
            "auction": [[s, t] for s, t in self.auction],
            "bid": self.bid,
            "declarer": self.declarer,
            "contract": None if self.contract is None else self.contract.to_json(),
            "skat": None if self.skat is None else [c.name for c in self.skat],
            "discard": None if self.discard is None else [c.name for c in self.discard],
            "open_hands": {str(s): [c.name for c in h] for s, h in self.open_hands.items()},
            "trick": [[s, c.name] for s, c in self.trick],
            "tricks": [[ld, [c.name for c in cs], w] for ld, cs, w in self.tricks],
            "trick_points": list(self.trick_points),
            "hand_sizes": list(self.hand_sizes),
            "result": None if self.result is None else self.result.to_json(),
            "ruleset": self.ruleset,
        }


_SUIT_AND_GRAND = (GameType.DIAMONDS, GameType.HEARTS, GameType.SPADES, GameType.CLUBS, GameType.GRAND)
_HAND_CONTRACTS: tuple[Contract, ...] = tuple(
    c
    for gt in _SUIT_AND_GRAND
    for c in (Contract(gt, hand=True), Contract(gt, hand=True, schneider=True),
              Contract(gt, hand=True, schwarz=True), Contract(gt, hand=True, ouvert=True))
) + (Contract(GameType.NULL, hand=True), Contract(GameType.NULL, hand=True, ouvert=True))
_SKAT_CONTRACTS: tuple[Contract, ...] = tuple(Contract(gt) for gt in _SUIT_AND_GRAND) + (
    Contract(GameType.NULL), Contract(GameType.NULL, ouvert=True))
_DECLARE: dict[Contract, Declare] = {c: Declare(c) for c in _HAND_CONTRACTS + _SKAT_CONTRACTS}


def _contract_info(c: Contract) -> tuple[GameType, int, int, int]:
    """(game type, base value, levels beyond the matadors it can reach, fixed Null value or 0)."""
    if c.is_null:
        return c.game_type, 0, 0, null_value(c.hand, c.ouvert)
    return c.game_type, c.game_type.base_value, max_multiplier(c, 0), 0


_HAND_OPTIONS = tuple((c, _DECLARE[c], *_contract_info(c)) for c in _HAND_CONTRACTS)
_SKAT_OPTIONS = tuple((c, _DECLARE[c], *_contract_info(c)) for c in _SKAT_CONTRACTS)
_BYTE_PLAYS: tuple[tuple[tuple[Play, ...], ...], ...] = tuple(
    tuple(tuple(PLAY[8 * suit + r] for r in range(8) if byte >> r & 1) for byte in range(256)) for suit in range(4)
)
"""The play actions of one suit's byte of a card mask, prebuilt for every byte value."""
_NULL = int(GameType.NULL)
_BIDS: dict[int, Bid] = {}
_AUCTION_ACTION_TYPES = frozenset((Bid, Hold, Pass))
_LADDER_ACTIONS: dict[tuple[int, ...], tuple[Bid, ...]] = {}
_DISCARDS: dict[int, Discard] = {}


def _bid_action(value: int) -> Bid:
    action = _BIDS.get(value)
    if action is None:
        action = _BIDS[value] = Bid(value)
    return action


def _ladder_actions(ladder: tuple[int, ...]) -> tuple[Bid, ...]:
    bids = _LADDER_ACTIONS.get(ladder)
    if bids is None:
        bids = _LADDER_ACTIONS[ladder] = tuple(_bid_action(v) for v in ladder)
    return bids


def _discard_action(mask: int) -> Discard:
    action = _DISCARDS.get(mask)
    if action is None:
        action = _DISCARDS[mask] = Discard(CardSet.from_mask(mask))
    return action


class Game:
    """One deal of standard Skat.

    Build it from a seed (``Game(seed=7)``) or from explicit cards
    (``Game(hands=["CJ SJ ...", ..., ...], skat="D7 D8")``).
    """

    def __init__(
        self,
        seed: int | None = None,
        *,
        hands: list | None = None,
        skat: Any = None,
        ruleset: RuleSet = ISKO,
    ) -> None:
        self.ruleset = ruleset
        self.seed = seed
        if hands is None:
            if skat is not None:
                raise ValueError("give the skat together with the three hands")
            dealt, skat_mask = deal(seed)
        else:
            if len(hands) != 3 or skat is None:
                raise ValueError("give three hands of 10 cards and a skat of 2 cards")
            dealt = [mask_of(h) for h in hands]
            skat_mask = mask_of(skat)
            sizes = [h.bit_count() for h in dealt]
            if sizes != [10, 10, 10] or skat_mask.bit_count() != 2:
                raise ValueError(f"hands must hold 10 cards each and the skat 2, got {sizes} and {skat_mask.bit_count()}")
            union = dealt[0] | dealt[1] | dealt[2] | skat_mask
            if union != ALL_CARDS:
                raise ValueError("the hands and the skat must hold each of the 32 cards exactly once")
        self.initial_hands: tuple[int, int, int] = (dealt[0], dealt[1], dealt[2])
        self.initial_skat: int = skat_mask
        self._hands: list[int] = list(dealt)
        self._skat: int = skat_mask
        self._auction = Auction(ladder=ruleset.bid_values)
        self._bid_actions = _ladder_actions(ruleset.bid_values)
        self.phase: Phase = _BIDDING
        self.is_over = False
        """True once the deal has ended."""
        self.declarer: int | None = None
        self.bid: int = 0
        self.contract: Contract | None = None
        self.skat_taken = False
        self.discard: int | None = None
        self._game_type: int = -1
        self.trick: list[int] = []
        self.trick_leader: int = 0
        self.tricks: list[tuple[int, tuple[int, int, int], int]] = []
        self.trick_points: list[int] = [0, 0, 0]
        self.tricks_won: list[int] = [0, 0, 0]
        self.claimed = False
        self.conceded: list[bool] = [False, False, False]
        self.history: list[tuple[int, Action]] = []
        self.result: GameResult | None = None
        self._declarable_cache: tuple[tuple[bool, int | None], Any] | None = None

    # ------------------------------------------------------------------ state
    @property
    def to_move(self) -> int | None:
        """The seat whose turn it is, or None when the game is over."""
        phase = self.phase
        if phase is _PLAY:
            return (self.trick_leader + len(self.trick)) % 3
        if phase is _BIDDING:
            return self._auction.to_move
        if phase is _FINISHED:
            return None
        return self.declarer

    @property
    def game_type(self) -> GameType | None:
        return None if self.contract is None else self.contract.game_type

    def hand(self, seat: int) -> CardSet:
        """The current hand of a seat (full information; use :meth:`view` for a player's knowledge)."""
        return CardSet.from_mask(self._hands[seat])


    # -------------------------------------------------------------- legality
    def legal_actions(self, seat: int | None = None) -> list[Action]:
        """The actions the seat to move may take (empty for any other seat)."""
        if self.phase is _PLAY:
            trick = self.trick
            mover = (self.trick_leader + len(trick)) % 3
            if seat is not None and seat != mover:
                return []
            hand = self._hands[mover]
            legal = hand & FOLLOW_MASK[self._game_type][trick[0]] or hand if trick else hand
            return [
                *_BYTE_PLAYS[0][legal & 255], *_BYTE_PLAYS[1][legal >> 8 & 255],
                *_BYTE_PLAYS[2][legal >> 16 & 255], *_BYTE_PLAYS[3][legal >> 24],
            ]
        mover = self.to_move
        if mover is None or (seat is not None and seat != mover):
            return []
        phase = self.phase
        if phase is _BIDDING:
            return self._auction_actions()
        if phase is _SKAT:
            return [PICKUP, *self._declaration_options(True)[1]]
        if phase is _DISCARD:
            cards = [1 << c for c in range(32) if self._hands[mover] >> c & 1]
            return [_discard_action(a | b) for a, b in itertools.combinations(cards, 2)]
        if phase is _DECLARE_PHASE:
            return list(self._declaration_options(False)[1])
        return []

    def _auction_actions(self) -> list[Action]:
        auction = self._auction
        if auction.waiting_for_answer:
            return [HOLD, PASS]
        ladder = auction.ladder
        bids = self._bid_actions
        if auction.stage == 3:
            return [bids[0], PASS]
        out: list[Action] = list(bids[bisect_right(ladder, auction.value):])
        out.append(PASS)
        return out

    def side_actions(self, seat: int) -> list[Action]:
        """Early-end actions a seat may take at any moment of the play, in turn or not."""
        if self.phase is not _PLAY:
            return []
        if seat == self.declarer:
            return [RESIGN] if self.claimed else [CLAIM, RESIGN]
        return [] if self.conceded[seat] else [CONCEDE]

    def _declarable(self, hand_game: bool) -> list[Contract]:
        """Contracts the declarer may announce now: they must be able to reach the bid (RULES.md 3)."""
        return self._declaration_options(hand_game)[0]

    def _declaration_options(self, hand_game: bool) -> tuple[list[Contract], list[Action], set[int]]:
        key = (hand_game, self.discard)
        cache = self._declarable_cache
        if cache is not None and cache[0] == key:
            return cache[1]
        options = _HAND_OPTIONS if hand_game else _SKAT_OPTIONS
        bid = self.bid
        old_ouvert = self.ruleset.grand_ouvert_base36
        best: dict[int, int] = {}
        contracts: list[Contract] = []
        actions: list[Action] = []
        for contract, action, gt, base, extra_levels, fixed_value in options:
            if fixed_value:
                ok = fixed_value >= bid
            else:
                m = best.get(gt)
                if m is None:
                    m = best[gt] = self._best_matadors(gt, hand_game)
                if old_ouvert and gt == GameType.GRAND and contract.ouvert:
                    ok = (m + extra_levels - 1) * 36 >= bid
                else:
                    ok = (m + extra_levels) * base >= bid
            if ok:
                contracts.append(contract)
                actions.append(action)
        if not contracts and not hand_game:
            # nothing can reach the bid any more: any game may be declared, and is lost overbid
            contracts = [o[0] for o in options]
            actions = [o[1] for o in options]
        result = (contracts, actions, {id(c) for c in contracts})
        self._declarable_cache = (key, result)
        return result

    def _best_matadors(self, gt: int, hand_game: bool) -> int:
        """Matadors the declarer knows, or for a hand game the most any unseen skat could give."""
        own = self._hands[self.declarer]  # type: ignore[index]
        if hand_game:
            return best_hand_matadors(gt, own)
        return matador_count(gt, own | (self.discard or 0))[1]

    # ----------------------------------------------------------------- apply
    def apply(self, action: Action | str, seat: int | None = None) -> None:
        """Apply an action of ``seat`` (default: the seat to move).

        An illegal action raises an :class:`~skat.errors.IllegalActionError` that says
        why, and leaves the game unchanged.
        """
        if type(action) is Play and self.phase is _PLAY:
            trick = self.trick
            mover = (self.trick_leader + len(trick)) % 3
            if seat is None or seat == mover:
                card = action.index
                hand = self._hands[mover]
                if hand >> card & 1 and (
                    not trick or (hand & (follow := FOLLOW_MASK[self._game_type][trick[0]])) == 0 or follow >> card & 1
                ):
                    self._hands[mover] = hand ^ (1 << card)
                    trick.append(card)
                    self.history.append((mover, action))
                    if len(trick) == 3:
                        self._close_trick()
                    return
                self._play(mover, card)  # raises the specific error
        if self.phase is _BIDDING and type(action) in _AUCTION_ACTION_TYPES:
            if seat is None:
                seat = self._auction.to_move
            self._bid(seat, action)
            self.history.append((seat, action))
            return
        if isinstance(action, str):
            action = parse_action(action)
        if self.phase is _FINISHED:
            raise WrongPhaseError("the game is over")
        mover = self.to_move
        if seat is None:
            seat = mover
        elif not 0 <= seat <= 2:
            raise IllegalActionError(f"there is no seat {seat}: seats are 0, 1 and 2")
        if isinstance(action, (Claim, Concede, Resign)):
            self._apply_early_end(action, seat)
            self.history.append((seat, action))
            return
        if seat != mover:
            raise OutOfTurnError(f"it is {SEAT_NAMES[mover]}'s (seat {mover}) turn, not seat {seat}'s")
        phase = self.phase
        if phase is _PLAY:
            if not isinstance(action, Play):
                raise WrongPhaseError(f"the game is in the play; seat {seat} must play a card, not {action}")
            self._play(seat, action.index)
        elif phase is _BIDDING:
            self._bid(seat, action)
        elif phase is _SKAT:
            if isinstance(action, PickUp):
                self._hands[seat] |= self._skat
                self.skat_taken = True
                self.phase = _DISCARD
            elif isinstance(action, Declare):
                self._declare(action.contract, hand_game=True)
            else:
                raise WrongPhaseError(f"the declarer must pick up the skat or declare a hand game, not {action}")
        elif phase is _DISCARD:
            if not isinstance(action, Discard):
                raise WrongPhaseError(f"the declarer must discard two cards now, not {action}")
            mask = action.cards.mask
            if mask.bit_count() != 2:
                raise IllegalActionError(f"discard exactly two cards, not {mask.bit_count()}")
            if mask & ~self._hands[seat]:
                missing = CardSet.from_mask(mask & ~self._hands[seat])
                raise IllegalActionError(f"cannot discard {missing}: not in the declarer's hand")
            self._hands[seat] &= ~mask
            self.discard = mask
            self.phase = _DECLARE_PHASE
        elif phase is _DECLARE_PHASE:
            if not isinstance(action, Declare):
                raise WrongPhaseError(f"the declarer must announce the game now, not {action}")
            self._declare(action.contract, hand_game=False)
        self.history.append((seat, action))

    def _bid(self, seat: int, action: Action) -> None:
        kind = type(action)
        if kind is Bid:
            move: str | int = action.value  # type: ignore[attr-defined]
        elif kind is Hold:
            move = "hold"
        elif kind is Pass:
            move = "pass"
        else:
            raise WrongPhaseError(f"the auction is running: bid, hold or pass, not {action}")
        auction = self._auction
        auction.apply(seat, move)
        if auction.stage == 0:
            self.declarer = auction.declarer
            self.bid = auction.value
            if self.declarer is None:
                self._finish_passed_in()
            else:
                self.phase = _SKAT

    def _declare(self, contract: Contract, hand_game: bool) -> None:
        if contract.hand != hand_game:
            if hand_game:
                raise IllegalActionError(f"{contract} is not a hand game: pick up the skat first, or declare it hand")
            raise IllegalActionError("a hand game cannot be declared after picking up the skat")
        contracts, _, ids = self._declaration_options(hand_game)
        if id(contract) not in ids and contract not in contracts:
            raise IllegalActionError(
                f"{contract} cannot reach the bid of {self.bid}: choose a game whose value can reach it"
            )
        self.contract = contract
        self._game_type = int(contract.game_type)
        self.phase = _PLAY
        self.trick_leader = 0

    def _play(self, seat: int, card: int) -> None:
        hand = self._hands[seat]
        if not hand >> card & 1:
            raise IllegalActionError(f"{Card(card).name} is not in seat {seat}'s hand")
        if self.trick:
            follow = FOLLOW_MASK[self._game_type][self.trick[0]]
            if not follow >> card & 1 and hand & follow:
                raise IllegalActionError(
                    f"{Card(card).name} does not follow suit: seat {seat} must follow {Card(self.trick[0]).name}"
                )
        self._hands[seat] = hand & ~(1 << card)
        self.trick.append(card)
        if len(self.trick) == 3:
            self._close_trick()

    def _close_trick(self) -> None:
        a, b, c = self.trick
        gt = self._game_type
        power = POWER[gt]
        # the highest trump wins, else the highest card of the led suit (RULES.md 1)
        follow = FOLLOW_MASK[gt][a] | TRUMP_MASK[gt]
        best, best_power = 0, power[a]
        if follow >> b & 1 and power[b] > best_power:
            best, best_power = 1, power[b]
        if follow >> c & 1 and power[c] > best_power:
            best = 2
        leader = self.trick_leader
        w = (leader + best) % 3
        self.tricks.append((leader, (a, b, c), w))
        self.trick_points[w] += CARD_POINTS[a] + CARD_POINTS[b] + CARD_POINTS[c]
        self.tricks_won[w] += 1
        self.trick = []
        self.trick_leader = w
        if w == self.declarer:
            if gt == _NULL:
                self._finish("played")
                return
        elif gt != _NULL and self.contract.schwarz:  # type: ignore[union-attr]
            self._finish("played")  # announced Schwarz can no longer be made; every level is fixed
            return
        if len(self.tricks) == 10:
            self._finish("played")

    def _apply_early_end(self, action: Action, seat: int) -> None:
        if self.phase is not _PLAY:
            raise WrongPhaseError(f"{action} is only possible during the play")
        if action not in self.side_actions(seat):
            who = "the declarer" if seat == self.declarer else "a defender"
            raise IllegalActionError(f"seat {seat} ({who}) cannot {action} now")
        if isinstance(action, Claim):
            self.claimed = True
        elif isinstance(action, Concede):
            self.conceded[seat] = True
            if sum(self.conceded) == 2:
                self._finish("conceded", rest_to_declarer=True)
        else:
            self._finish("resigned", rest_to_declarer=False)

    # ---------------------------------------------------------------- result
    def _finish_passed_in(self) -> None:
        self.phase = _FINISHED
        self.is_over = True
        self.result = GameResult(
            kind="passed_in", declarer=None, contract=None, bid=0, won=None, declarer_points=None,
            defender_points=None, declarer_tricks=0, skat=CardSet.from_mask(self.initial_skat), discard=None,
            outcome=None, scores=(0, 0, 0), explanation="passed in: all three players passed; nobody scores",
        )

    def _finish(self, kind: str, rest_to_declarer: bool | None = None) -> None:
        declarer = self.declarer
        contract = self.contract
        assert declarer is not None and contract is not None
        skat_mask = self.discard if self.skat_taken else self.initial_skat
        decl_points = self.trick_points[declarer] + mask_points(skat_mask or 0)
        decl_tricks = self.tricks_won[declarer]
        if rest_to_declarer is not None:
            rest = self._hands[0] | self._hands[1] | self._hands[2]
            for c in self.trick:
                rest |= 1 << c
            rest_tricks = 10 - len(self.tricks)
            if rest_to_declarer:
                decl_points += mask_points(rest)
                if not contract.is_null:
                    decl_tricks += rest_tricks
            elif contract.is_null:
                decl_tricks = max(decl_tricks, 1)  # a null declarer who gives up takes a trick
        twelve = self.initial_hands[declarer] | self.initial_skat
        outcome = evaluate(
            contract, twelve, None if contract.is_null else decl_points, decl_tricks, self.bid, self.ruleset
        )
        if contract.is_null and kind == "conceded":
            outcome = evaluate(contract, twelve, None, 0, self.bid, self.ruleset)
        scores = [0, 0, 0]
        scores[declarer] = outcome.score
        explanation = outcome.explanation
        if kind == "conceded":
            explanation += " (the defenders conceded)"
        elif kind == "resigned":
            explanation += " (the declarer gave up)"
        self.phase = _FINISHED
        self.is_over = True
        self.result = GameResult(
            kind="claimed" if kind == "conceded" and self.claimed else kind,
            declarer=declarer, contract=contract, bid=self.bid, won=outcome.won,
            declarer_points=None if contract.is_null else decl_points,
            defender_points=None if contract.is_null else 120 - decl_points,
            declarer_tricks=decl_tricks, skat=CardSet.from_mask(self.initial_skat),
            discard=None if self.discard is None else CardSet.from_mask(self.discard),
            outcome=outcome, scores=(scores[0], scores[1], scores[2]), explanation=explanation,
        )

    # ----------------------------------------------------------------- views
    def view(self, seat: int) -> SeatView:
        """Everything ``seat`` may know now, and nothing more."""
        if not 0 <= seat <= 2:
            raise ValueError(f"there is no seat {seat}: seats are 0, 1 and 2")
        is_declarer = seat == self.declarer
        open_hands: dict[int, CardSet] = {}
        if self.declarer is not None and self.contract is not None and (self.contract.ouvert or self.claimed):
            open_hands[self.declarer] = CardSet.from_mask(self._hands[self.declarer])
        if self.phase is _FINISHED:
            open_hands = {s: CardSet.from_mask(self._hands[s]) for s in range(3) if self._hands[s]}
        lead = self.trick_leader
        return SeatView(
            seat=seat,
            phase=self.phase,
            to_move=self.to_move,
            hand=CardSet.from_mask(self._hands[seat]),
            legal_actions=self.legal_actions(seat),
            side_actions=self.side_actions(seat),
            auction=[(s, str(a)) for s, a in self.history if isinstance(a, (Bid, Hold, Pass))],
            bid=self._auction.value,
            declarer=self.declarer,
            contract=self.contract,
            skat=CardSet.from_mask(self.initial_skat) if is_declarer and self.skat_taken else None,
            discard=CardSet.from_mask(self.discard) if is_declarer and self.discard is not None else None,
            open_hands=open_hands,
            trick=[((lead + i) % 3, Card(c)) for i, c in enumerate(self.trick)],
            tricks=[(ld, (Card(a), Card(b), Card(c)), w) for ld, (a, b, c), w in self.tricks],
            trick_points=(self.trick_points[0], self.trick_points[1], self.trick_points[2]),
            hand_sizes=(self._hands[0].bit_count(), self._hands[1].bit_count(), self._hands[2].bit_count()),
            result=self.result,
            ruleset=self.ruleset.name,
        )

    # --------------------------------------------------------------- records
    def to_record(self) -> dict[str, Any]:
        """A JSON-ready record: the deal, every action with its seat, and the result."""
        return {
            "format": "skat-game",
            "version": 1,
            "ruleset": self.ruleset.to_json(),
            "seed": self.seed,
            "hands": [[c.name for c in CardSet.from_mask(h)] for h in self.initial_hands],
            "skat": [c.name for c in CardSet.from_mask(self.initial_skat)],
            "actions": [[s, str(a)] for s, a in self.history],
            "result": None if self.result is None else self.result.to_json(),
        }

    @classmethod
    def from_record(cls, record: dict[str, Any]) -> Game:
        """Rebuild a game from :meth:`to_record` output by replaying every action.

        Raises :class:`~skat.errors.RecordError` naming what is wrong; a stored result must
        equal the replayed one.
        """
        if not isinstance(record, dict):
            raise RecordError(f"a game record is a JSON object, not {type(record).__name__}")
        if record.get("format", "skat-game") != "skat-game" or record.get("version", 1) != 1:
            raise RecordError(
                f"not a skat game record of version 1 (format {record.get('format')!r}, version {record.get('version')!r})"
            )
        missing = [k for k in ("hands", "skat", "actions") if k not in record]
        if missing:
            raise RecordError(f"the game record lacks {', '.join(missing)}")
        if not isinstance(record["actions"], list):
            raise RecordError("the record's actions must be a list of [seat, action] pairs")
        try:
            ruleset = RuleSet.from_json(record.get("ruleset") or {})
            game = cls(seed=record.get("seed"), hands=record["hands"], skat=record["skat"], ruleset=ruleset)
        except (KeyError, TypeError, ValueError) as exc:
            raise RecordError(f"malformed game record: {exc}") from None
        for i, entry in enumerate(record["actions"]):
            if (not isinstance(entry, (list, tuple)) or len(entry) != 2 or type(entry[0]) is not int
                    or not isinstance(entry[1], str)):
                raise RecordError(f"action {i + 1} must be [seat 0-2, action text], got {entry!r}")
            seat, token = entry
            if not 0 <= seat <= 2:
                raise RecordError(f"action {i + 1} ({seat} {token!r}): there is no seat {seat}; seats are 0, 1 and 2")
            try:
                game.apply(parse_action(token), seat)
            except IllegalActionError as exc:
                raise RecordError(f"action {i + 1} ({seat} {token!r}) does not replay: {exc}") from None
        stored = record.get("result")
        if stored is not None:
            replayed = None if game.result is None else game.result.to_json()
            if replayed != stored:
                raise RecordError("the record's result differs from the replay of its actions")
        return game

    def copy(self) -> Game:
        """An independent copy (for search and simulation)."""
        g = object.__new__(Game)
        g.__dict__.update(self.__dict__)
        g._hands = list(self._hands)
        g._bid_actions = self._bid_actions
        g._auction = Auction(
            ladder=self._auction.ladder, value=self._auction.value, bidder=self._auction.bidder,
            listener=self._auction.listener, stage=self._auction.stage, passed=list(self._auction.passed),
            waiting_for_answer=self._auction.waiting_for_answer, highest_bidder=self._auction.highest_bidder,
            history=list(self._auction.history),
        )
        g.trick = list(self.trick)
        g.tricks = list(self.tricks)
        g.trick_points = list(self.trick_points)
        g.tricks_won = list(self.tricks_won)
        g.conceded = list(self.conceded)
        g.history = list(self.history)
        return g

