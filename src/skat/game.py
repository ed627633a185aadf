"""One deal of Skat as a state machine: auction, skat, declaration, ten tricks, result.

Seats are numbered from the dealer's left: 0 forehand, 1 middlehand, 2 rearhand.
Drive a game with :meth:`Game.legal_actions` and :meth:`Game.apply`; every seat
sees the game through :meth:`Game.view`, which holds only what that seat may know.
"""

from __future__ import annotations

import itertools
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
from skat.cards import ALL_CARDS, Card, CardSet, deal_deck, mask_of, mask_points
from skat.errors import IllegalActionError, OutOfTurnError, RecordError, WrongPhaseError
from skat.rules.bidding import Auction, AuctionError
from skat.rules.contract import Contract, null_value
from skat.rules.ranking import FOLLOW_MASK, GameType, winner_index
from skat.rules.value import Outcome, evaluate, matador_sequence, matadors, max_multiplier
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


def deal(seed: int | None) -> tuple[list[int], int]:
    """Deal from a seeded shuffle in packets of 3, skat 2, 4, 3: three hand masks and the skat mask."""
    deck = deal_deck(seed)
    hands = [0, 0, 0]
    pos = 0
    for packet in (3, "skat", 4, 3):
        if packet == "skat":
            skat = (1 << deck[pos]) | (1 << deck[pos + 1])
            pos += 2
            continue
        for seat in range(3):
            for c in deck[pos : pos + packet]:
                hands[seat] |= 1 << c
            pos += packet
    return hands, skat


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
        self.phase: Phase = Phase.BIDDING
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
        self._declarable_cache: tuple[tuple[bool, int | None], list[Contract]] | None = None
        self._matador_cache: dict[tuple[int, bool, int | None], int] = {}

    # ------------------------------------------------------------------ state
    @property
    def to_move(self) -> int | None:
        """The seat whose turn it is, or None when the game is over."""
        phase = self.phase
        if phase is Phase.PLAY:
            return (self.trick_leader + len(self.trick)) % 3
        if phase is Phase.BIDDING:
            return self._auction.to_move
        if phase is Phase.FINISHED:
            return None
        return self.declarer

    @property
    def game_type(self) -> GameType | None:
        return None if self.contract is None else self.contract.game_type

    def hand(self, seat: int) -> CardSet:
        """The current hand of a seat (full information; use :meth:`view` for a player's knowledge)."""
        return CardSet.from_mask(self._hands[seat])

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.FINISHED

    # -------------------------------------------------------------- legality
    def legal_actions(self, seat: int | None = None) -> list[Action]:
        """The actions the seat to move may take (empty for any other seat)."""
        mover = self.to_move
        if mover is None or (seat is not None and seat != mover):
            return []
        phase = self.phase
        if phase is Phase.PLAY:
            hand = self._hands[mover]
            if self.trick:
                legal = hand & FOLLOW_MASK[self._game_type][self.trick[0]] or hand
            else:
                legal = hand
            out = []
            while legal:
                low = legal & -legal
                out.append(PLAY[low.bit_length() - 1])
                legal ^= low
            return out
        if phase is Phase.BIDDING:
            return [Bid(m) if isinstance(m, int) else (HOLD if m == "hold" else PASS) for m in self._auction.legal()]
        if phase is Phase.SKAT:
            return [PICKUP, *(Declare(c) for c in self._declarable(hand_game=True))]
        if phase is Phase.DISCARD:
            cards = [1 << c for c in range(32) if self._hands[mover] >> c & 1]
            return [Discard(CardSet.from_mask(a | b)) for a, b in itertools.combinations(cards, 2)]
        if phase is Phase.DECLARE:
            return [Declare(c) for c in self._declarable(hand_game=False)]
        return []

    def side_actions(self, seat: int) -> list[Action]:
        """Early-end actions a seat may take at any moment of the play, in turn or not."""
        if self.phase is not Phase.PLAY:
            return []
        if seat == self.declarer:
            return [RESIGN] if self.claimed else [CLAIM, RESIGN]
        return [] if self.conceded[seat] else [CONCEDE]

    def _declarable(self, hand_game: bool) -> list[Contract]:
        """Contracts the declarer may announce now: they must be able to reach the bid (RULES.md 3)."""
        key = (hand_game, self.discard)
        if self._declarable_cache is not None and self._declarable_cache[0] == key:
            return self._declarable_cache[1]
        result = self._compute_declarable(hand_game)
        self._declarable_cache = (key, result)
        return result

    def _compute_declarable(self, hand_game: bool) -> list[Contract]:
        contracts: list[Contract] = []
        if hand_game:
            for gt in _SUIT_AND_GRAND:
                contracts += [
                    Contract(gt, hand=True),
                    Contract(gt, hand=True, schneider=True),
                    Contract(gt, hand=True, schwarz=True),
                    Contract(gt, hand=True, ouvert=True),
                ]
            contracts += [Contract(GameType.NULL, hand=True), Contract(GameType.NULL, hand=True, ouvert=True)]
        else:
            contracts = [Contract(gt) for gt in _SUIT_AND_GRAND]
            contracts += [Contract(GameType.NULL), Contract(GameType.NULL, ouvert=True)]
        reachable = [c for c in contracts if self._can_reach_bid(c)]
        if reachable or hand_game:
            return reachable
        return contracts  # nothing can reach the bid any more: any game may be declared, and is lost overbid

    def _can_reach_bid(self, contract: Contract) -> bool:
        if contract.is_null:
            return null_value(contract.hand, contract.ouvert) >= self.bid
        gt = contract.game_type
        base = gt.base_value
        if self.ruleset.grand_ouvert_base36 and gt == GameType.GRAND and contract.ouvert:
            base = 36
        return max_multiplier(contract, self._best_matadors(gt, contract.hand)) * base >= self.bid

    def _best_matadors(self, gt: GameType, hand_game: bool) -> int:
        """Matadors the declarer knows, or for a hand game the most any unseen skat could give."""
        key = (int(gt), hand_game, self.discard)
        cached = self._matador_cache.get(key)
        if cached is None:
            cached = self._matador_cache[key] = self._compute_best_matadors(gt, hand_game)
        return cached

    def _compute_best_matadors(self, gt: GameType, hand_game: bool) -> int:
        assert self.declarer is not None
        own = self._hands[self.declarer]
        if not hand_game:
            return matadors(gt, own | (self.discard or 0))[1]
        # The best skat fills the highest gaps of the run, or holds no trump of the run at all.
        seq = matador_sequence(gt)
        unknown_seq = [c for c in seq if not own >> c & 1][:2]
        fillers = [c for c in range(32) if not own >> c & 1 and c not in seq][:2]
        candidates = unknown_seq + fillers
        return max(matadors(gt, own | (1 << a) | (1 << b))[1] for a, b in itertools.combinations(candidates, 2))

    # ----------------------------------------------------------------- apply
    def apply(self, action: Action | str, seat: int | None = None) -> None:
        """Apply an action of ``seat`` (default: the seat to move).

        An illegal action raises an :class:`~skat.errors.IllegalActionError` that says
        why, and leaves the game unchanged.
        """
        if isinstance(action, str):
            action = parse_action(action)
        if self.phase is Phase.FINISHED:
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
        if phase is Phase.PLAY:
            if not isinstance(action, Play):
                raise WrongPhaseError(f"the game is in the play; seat {seat} must play a card, not {action}")
            self._play(seat, int(action.card))
        elif phase is Phase.BIDDING:
            self._bid(seat, action)
        elif phase is Phase.SKAT:
            if isinstance(action, PickUp):
                self._hands[seat] |= self._skat
                self.skat_taken = True
                self.phase = Phase.DISCARD
            elif isinstance(action, Declare):
                self._declare(action.contract, hand_game=True)
            else:
                raise WrongPhaseError(f"the declarer must pick up the skat or declare a hand game, not {action}")
        elif phase is Phase.DISCARD:
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
            self.phase = Phase.DECLARE
        elif phase is Phase.DECLARE:
            if not isinstance(action, Declare):
                raise WrongPhaseError(f"the declarer must announce the game now, not {action}")
            self._declare(action.contract, hand_game=False)
        self.history.append((seat, action))

    def _bid(self, seat: int, action: Action) -> None:
        if isinstance(action, Bid):
            move: str | int = action.value
        elif isinstance(action, Hold):
            move = "hold"
        elif isinstance(action, Pass):
            move = "pass"
        else:
            raise WrongPhaseError(f"the auction is running: bid, hold or pass, not {action}")
        try:
            self._auction.apply(seat, move)
        except AuctionError as exc:
            raise IllegalActionError(str(exc)) from None
        if self._auction.finished:
            self.declarer = self._auction.declarer
            self.bid = self._auction.value
            if self.declarer is None:
                self._finish_passed_in()
            else:
                self.phase = Phase.SKAT

    def _declare(self, contract: Contract, hand_game: bool) -> None:
        if contract.hand != hand_game:
            if hand_game:
                raise IllegalActionError(f"{contract} is not a hand game: pick up the skat first, or declare it hand")
            raise IllegalActionError("a hand game cannot be declared after picking up the skat")
        if contract not in self._declarable(hand_game):
            raise IllegalActionError(
                f"{contract} cannot reach the bid of {self.bid}: choose a game whose value can reach it"
            )
        self.contract = contract
        self._game_type = int(contract.game_type)
        self.phase = Phase.PLAY
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
        cards = self.trick
        w = (self.trick_leader + winner_index(self._game_type, cards)) % 3
        self.tricks.append((self.trick_leader, (cards[0], cards[1], cards[2]), w))
        self.trick_points[w] += mask_points((1 << cards[0]) | (1 << cards[1]) | (1 << cards[2]))
        self.tricks_won[w] += 1
        self.trick = []
        self.trick_leader = w
        contract = self.contract
        assert contract is not None
        if w == self.declarer:
            if contract.is_null:
                self._finish("played")
                return
        elif contract.schwarz and not contract.is_null:
            self._finish("played")  # announced Schwarz can no longer be made; every level is fixed
            return
        if len(self.tricks) == 10:
            self._finish("played")

    def _apply_early_end(self, action: Action, seat: int) -> None:
        if self.phase is not Phase.PLAY:
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
        self.phase = Phase.FINISHED
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
        self.phase = Phase.FINISHED
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
        if self.phase is Phase.FINISHED:
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
        """Rebuild a game from :meth:`to_record` output by replaying every action."""
        try:
            ruleset = RuleSet.from_json(record.get("ruleset") or {})
            game = cls(seed=record.get("seed"), hands=record["hands"], skat=record["skat"], ruleset=ruleset)
            for i, (seat, token) in enumerate(record["actions"]):
                try:
                    game.apply(parse_action(token), seat)
                except IllegalActionError as exc:
                    raise RecordError(f"action {i + 1} ({seat} {token!r}) does not replay: {exc}") from None
        except (KeyError, TypeError, ValueError) as exc:
            if isinstance(exc, RecordError):
                raise
            raise RecordError(f"malformed game record: {exc}") from None
        return game

    def copy(self) -> Game:
        """An independent copy (for search and simulation)."""
        g = object.__new__(Game)
        g.__dict__.update(self.__dict__)
        g._hands = list(self._hands)
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
        g._matador_cache = dict(self._matador_cache)
        return g

