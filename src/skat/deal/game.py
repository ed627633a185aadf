"""One deal of Skat as a state machine: auction, skat, declaration, ten tricks, result.

Seats are numbered from the dealer's left: 0 forehand, 1 middlehand, 2 rearhand.
Drive a game with :meth:`Game.legal_actions` and :meth:`Game.apply`; every seat
sees the game through :meth:`Game.view`, which holds only what that seat may know.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from skat._compiled import compiled_module
from skat.cards import ALL_CARDS, CARDS, Card, CardSet, CardsLike, mask_of, mask_points
from skat.deal.ramsch import push_discards, score_ramsch
from skat.enums import Phase
from skat.errors import IllegalActionError, RecordError, WrongPhaseError
from skat.rules.actions import (
    CLAIM,
    CONCEDE,
    KONTRA,
    PASS,
    PICKUP,
    PUSH,
    RE,
    RESIGN,
    Action,
    Bid,
    Claim,
    Concede,
    Declare,
    Discard,
    Hold,
    Kontra,
    Pass,
    PickUp,
    Push,
    Re,
    Resign,
    parse_action,
)
from skat.rules.contract import Contract
from skat.rules.deal import deal_masks
from skat.rules.ranking import GameType, legal_mask
from skat.rules.rulesets import ISKO, RuleSet, RuleSetError
from skat.rules.value import Outcome, evaluate

if TYPE_CHECKING:  # their source, typed by its Cython annotations (typings/cython.pyi)
    from skat.deal import _core
    from skat.rules import kernel as _kernel
else:
    _kernel = compiled_module("skat.rules.kernel")
    _core = compiled_module("skat.deal._core")  # plain Python with SKAT_PURE_PYTHON=1 (for comparing the two)
DealState = _core.DealState
StatePart = _core.StatePart
check_discard = _core.check_discard
bid_ladder = _core.bid_ladder
COMPILED: bool = _core.COMPILED and _kernel.COMPILED
"""Whether the engine's core (:mod:`skat.deal._core`) and the rules kernel it calls
(:mod:`skat.rules.kernel`) run compiled by Cython."""

__all__ = ["Game", "Phase", "GameResult", "SeatView", "deal", "check_discard", "ramsch_game",
           "SEAT_NAMES"]

SEAT_NAMES = ("forehand", "middlehand", "rearhand")


_BIDDING, _SKAT, _DISCARD, _DECLARE_PHASE, _PLAY, _FINISHED = (
    Phase.BIDDING, Phase.SKAT, Phase.DISCARD, Phase.DECLARE, Phase.PLAY, Phase.FINISHED)
_GRAND_HAND, _PUSH = Phase.GRAND_HAND, Phase.PUSH
_RAMSCH = int(GameType.RAMSCH)


def deal(seed: int | None) -> tuple[list[int], int]:
    """Deal from a seeded shuffle in packets of 3, skat 2, 4, 3 (:func:`skat.rules.deal.deal_masks`,
    docs/rules.md 1.4): three hand masks and the skat mask; a seed of None deals at random."""
    forehand, middlehand, rearhand, skat = deal_masks(seed)
    return [forehand, middlehand, rearhand], skat


@dataclass(frozen=True)
class GameResult:
    """How a deal ended and what each seat scores."""

    kind: str
    """``played`` (to the end), ``claimed``, ``conceded``, ``resigned``, ``revoke`` (real-table mode:
    a player did not follow suit, docs/rules.md 8), ``passed_in``, or ``ramsch``."""
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
    """Score-sheet entries per seat (standard Skat writes only the declarer; Ramsch every loser)."""
    explanation: str
    kontra_level: int = 0
    """0, 1 (Kontra was said) or 2 (Re): the score is doubled once per call (docs/rules.md 5.3)."""
    ramsch: Any = None
    """The :class:`skat.deal.ramsch.RamschOutcome` of a Ramsch (card points, losers, Jungfrauen, pushes)."""
    revoke_by: int | None = None
    """The seat whose revoke ended the game (real-table mode)."""

    @property
    def score(self) -> int:
        """The declarer's score-sheet entry (0 for a passed-in deal or a Ramsch)."""
        return 0 if self.declarer is None else self.scores[self.declarer]

    @property
    def game_name(self) -> str:
        """The score sheet's game column: ``clubs`` ... ``null``, ``ramsch`` or ``passed``."""
        if self.kind == "passed_in":
            return "passed"
        if self.contract is None:
            return "ramsch"
        return self.contract.game_type.label

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
            **({"kontra_level": self.kontra_level} if self.kontra_level else {}),
            **({"ramsch": self.ramsch.to_json()} if self.ramsch is not None else {}),
            **({"revoke_by": self.revoke_by} if self.revoke_by is not None else {}),
        }


@dataclass(frozen=True)
class SeatView:
    """What one seat may know: never another player's hidden cards."""

    seat: int | None
    """The seat (None in a spectator's view, :func:`skat.records.wire.public_view`)."""
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
    """The two cards the declarer picked up (declarer only); in Schieberamsch the two this seat
    took up; in Tournee Skat the turned skat cards (shown to everybody)."""
    discard: CardSet | None
    """The two cards the declarer put away (declarer only); in Schieberamsch the two this seat pushed."""
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
    kontra_level: int = 0
    """0, 1 after Kontra, 2 after Re (public: they are said aloud)."""


_HAND_CONTRACTS: tuple[Contract, ...] = _core.HAND_CONTRACTS
_SKAT_CONTRACTS: tuple[Contract, ...] = _core.SKAT_CONTRACTS
_DECLARE: dict[Contract, Declare] = _core.DECLARE
_GRAND_HAND_CONTRACTS = tuple(c for c in _HAND_CONTRACTS if c.game_type == GameType.GRAND)
_GRAND_HAND_ACTIONS = tuple(_DECLARE[c] for c in _GRAND_HAND_CONTRACTS)


_DISCARDS: dict[int, Discard] = {d.cards.mask: d for d in _core.PAIR_DISCARDS if d is not None}


class _HouseState(StatePart):
    """Per-deal state of the house rules: Kontra/Re, Ramsch pushes, a revoke."""

    __slots__ = ("start", "kontra_level", "ramsch_grand_hand", "pushes", "ramsch_seat", "push_holding",
                 "push_taken", "push_given", "revoke_by")

    def __init__(self) -> None:
        self.start = "auction"
        self.kontra_level = 0
        self.ramsch_grand_hand = False
        self.pushes = 0
        self.ramsch_seat = 0
        self.push_holding = False
        self.push_taken: list[int | None] = [None, None, None]
        self.push_given: list[int | None] = [None, None, None]
        self.revoke_by: int | None = None


def record_ruleset(record: dict[str, Any], default: RuleSet) -> RuleSet:
    """The rule set a game record carries (``default`` when it has none), every option checked by
    :data:`skat.rules.rulesets.SCHEMA`; a bad one raises :class:`~skat.errors.RecordError` naming it."""
    raw = record.get("ruleset")
    if raw is None or raw == {}:
        return default
    try:
        return RuleSet.from_json(raw)
    except RuleSetError as exc:
        raise RecordError(f"the record's rule set cannot be used: {exc}") from None


def _discard_action(mask: int) -> Discard:
    action = _DISCARDS.get(mask)
    if action is None:
        action = _DISCARDS[mask] = Discard(CardSet.from_mask(mask))
    return action


class Game(DealState):
    """One deal of standard Skat.

    Build it from a seed (``Game(seed=7)``) or from explicit cards
    (``Game(hands=["CJ SJ ...", ..., ...], skat="D7 D8")``). The rule set's house rules
    are part of the deal: Ramsch when all pass (optionally Grand Hand instead, Schieberamsch
    pushes), Kontra/Re as side actions, and real-table revokes. ``start="ramsch"`` skips the
    auction for the deals of a Ramsch or Schieber round (see :func:`ramsch_game`).
    """

    if TYPE_CHECKING:  # typed here: mypy checks skat.deal._core after this module, too late to infer the base's
        _STEPS: dict[str, str]
    else:
        _STEPS = {**DealState._STEPS, "grand_hand": "_grand_hand_offer", "push": "_push"}
    _SIDE_ACTIONS = (Claim, Concede, Resign, Kontra, Re)
    parse_action = staticmethod(parse_action)
    """Read an action token (``18``, ``pickup``, ``CJ``...)."""
    _house: _HouseState | None
    """The house rules' state (made only when needed); declared in the base as a plain object."""

    def __init__(
        self,
        seed: int | None = None,
        *,
        hands: list[CardsLike] | None = None,
        skat: CardsLike | None = None,
        ruleset: RuleSet = ISKO,
        start: str = "auction",
    ) -> None:
        if start != "auction" and start != "ramsch":
            raise ValueError(f"a deal starts with the 'auction' or as 'ramsch', not {start!r}")
        if hands is None:
            if skat is not None:
                raise ValueError("give the skat together with the three hands")
            if seed is None:
                dealt, skat_mask = deal(seed)
            else:
                *dealt, skat_mask = deal_masks(seed)
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
        # The state of the deal lives in the base (skat.deal._core.DealState), set up here:
        # seed; initial_hands and initial_skat (masks); phase (BIDDING); is_over (True once the deal
        # has ended); declarer, bid and contract (None, 0, None); ruleset; the current hands and skat;
        # trick (the cards in it), trick_leader, tricks (leader, cards, winner), trick_points,
        # tricks_won; history ((seat, action) pairs); skat_taken, discard (mask), claimed,
        # conceded (per seat) and result; the auction; and _house, the house rules' state
        # (_HouseState, made only when needed).
        self._init_core(dealt[0], dealt[1], dealt[2], skat_mask, seed, ruleset, bid_ladder(ruleset.bid_values))
        if start == "ramsch":
            self._house_state().start = "ramsch"
            self._start_ramsch()

    def _house_state(self) -> _HouseState:
        house = self._house
        if house is None:
            house = self._house = _HouseState()
        return house

    @property
    def start(self) -> str:
        """``auction``, or ``ramsch`` for a deal of a Ramsch or Schieber round."""
        return "auction" if self._house is None else self._house.start

    @property
    def kontra_level(self) -> int:
        """0, 1 after Kontra, 2 after Re (docs/rules.md 5.3)."""
        return 0 if self._house is None else self._house.kontra_level

    @property
    def ramsch_grand_hand(self) -> bool:
        """True when a player announced Grand Hand instead of Ramsch (the same dealer deals again)."""
        return self._house is not None and self._house.ramsch_grand_hand

    @property
    def pushes(self) -> int:
        """Schieberamsch: how often the skat was pushed on unseen."""
        return 0 if self._house is None else self._house.pushes

    @property
    def revoke_by(self) -> int | None:
        """Real-table mode: the seat whose revoke ended the game."""
        return None if self._house is None else self._house.revoke_by

    # ------------------------------------------------------------------ state
    # to_move, legal_actions, apply, the auction, the declarer's steps, the trick engine and copy
    # live in the base (skat.deal._core.DealState); this class adds the phases of the house rules (Grand
    # Hand offers, Schieberamsch pushes), the side actions (claims, Kontra/Re), revokes and the result.

    @property
    def is_ramsch(self) -> bool:
        """Whether this deal is (or is about to be) played as Ramsch."""
        return self.declarer is None and (self._game_type == _RAMSCH or self.phase in (_GRAND_HAND, _PUSH))

    @property
    def game_type(self) -> GameType | None:
        return None if self.contract is None else self.contract.game_type

    # -------------------------------------------------------------- legality
    def _mover(self) -> int | None:
        """Who moves outside the auction and the play: the offer or push of Ramsch, else the declarer."""
        if self.phase is _GRAND_HAND or self.phase is _PUSH:
            return self._house.ramsch_seat  # type: ignore[union-attr]
        declarer: int | None = self.declarer
        return declarer

    def _legal(self, mover: int) -> list[Action]:
        """The actions of the house rules' phases: Grand Hand offers and Schieberamsch pushes."""
        phase = self.phase
        if phase is _GRAND_HAND:
            return [*_GRAND_HAND_ACTIONS, PASS]
        if phase is _PUSH:
            if self._house.push_holding:  # type: ignore[union-attr]
                return [_discard_action(m) for m in push_discards(self._hands[mover], self.ruleset)]
            return [PICKUP, PUSH] if self.ruleset.schieberamsch_unseen_push else [PICKUP]
        return []

    def side_actions(self, seat: int) -> list[Action]:
        """Actions a seat may take at any moment of the play, in turn or not: claim, concede,
        resign, and under the house rules Kontra and Re (docs/rules.md 5.3)."""
        if self.phase is not _PLAY or self.declarer is None:
            return []
        calls = self._calls(seat) if self.ruleset.kontra else []
        if seat == self.declarer:
            return [*calls, RESIGN] if self.claimed else [*calls, CLAIM, RESIGN]
        return calls if self.conceded[seat] else [*calls, CONCEDE]

    def _calls(self, seat: int) -> list[Action]:
        """Kontra for a defender, Re for the declarer, while the rule set's window is open."""
        if self.tricks:
            return []  # only during the first trick
        rules = self.ruleset
        if seat == self.declarer:
            if self.kontra_level == 1 and rules.kontra_re and (rules.kontra_until != "first_lead" or not self.trick):
                return [RE]
            return []
        if self.kontra_level:
            return []
        if rules.kontra_who == "bidders" and not any(
                s == seat and type(a) in (Bid, Hold) for s, a in self.history):
            return []
        if rules.kontra_until == "first_lead":
            return [] if self.trick else [KONTRA]
        played = {(self.trick_leader + i) % 3 for i in range(len(self.trick))}
        return [] if seat in played else [KONTRA]

    def _declarable(self, hand_game: bool) -> list[Contract]:
        """Contracts the declarer may announce now: they must be able to reach the bid (docs/rules.md 3)."""
        contracts: list[Contract] = self._declaration_options(hand_game)[0]
        return contracts

    # ----------------------------------------------------------------- apply
    def _side_step(self, seat: int, action: Action) -> None:  # type: ignore[override]  # only _SIDE_ACTIONS come here
        """A claim, concession, resignation, Kontra or Re: possible at any moment of the play, in turn or not."""
        if isinstance(action, (Kontra, Re)):
            self._apply_call(action, seat)
        else:
            self._apply_early_end(action, seat)

    # ------------------------------------------------------------ house rules
    def _apply_call(self, action: Action, seat: int) -> None:
        if self.phase is not _PLAY:
            raise WrongPhaseError(f"{action} is only possible during the play")
        if not self.ruleset.kontra:
            raise IllegalActionError(f"this table ({self.ruleset.name}) plays without Kontra and Re")
        if action not in self._calls(seat):
            if isinstance(action, Kontra):
                why = ("the declarer answers with Re" if seat == self.declarer else
                       "Kontra was said already, or it is too late, or this defender did not bid")
            else:
                why = "only the declarer may answer a Kontra with Re, during the first trick"
            raise IllegalActionError(f"seat {seat} cannot say {action} now: {why}")
        self._house_state().kontra_level += 1

    def _start_ramsch(self) -> None:
        """All passed (or a Ramsch round): Grand Hand offers, Schieberamsch pushes, then the play."""
        self.declarer = None
        self._house_state().ramsch_seat = 0
        if self.ruleset.ramsch_grand_hand:
            self.phase = _GRAND_HAND
        else:
            self._after_grand_hand()

    def _after_grand_hand(self) -> None:
        self._house_state().ramsch_seat = 0
        if self.ruleset.schieberamsch:
            self.phase = _PUSH
        else:
            self._game_type = _RAMSCH
            self.trick_leader = 0
            self.phase = _PLAY

    def _grand_hand_offer(self, seat: int, action: Action) -> None:
        if isinstance(action, Pass):
            if seat == 2:
                self._after_grand_hand()
            else:
                self._house_state().ramsch_seat = seat + 1
            return
        if not (isinstance(action, Declare) and action.contract in _GRAND_HAND_CONTRACTS):
            raise IllegalActionError(f"before the Ramsch each player may announce Grand Hand or pass, not {action}")
        self.declarer = seat
        self._house_state().ramsch_grand_hand = True
        self._declarable_cache = None
        self._declare(action.contract, hand_game=True)

    def _push(self, seat: int, action: Action) -> None:
        rules = self.ruleset
        house = self._house_state()
        if house.push_holding:
            if not isinstance(action, Discard):
                raise WrongPhaseError(f"seat {seat} holds the skat and must push two cards, not {action}")
            mask = action.cards.mask
            if mask not in push_discards(self._hands[seat], rules):
                raise IllegalActionError(
                    f"cannot push {action.cards}: push two cards of your hand"
                    + ("" if rules.schieberamsch_jacks else ", and no jacks"))
            self._hands[seat] &= ~mask
            self._skat = mask
            house.push_given[seat] = mask
            house.push_holding = False
        elif isinstance(action, PickUp):
            house.push_taken[seat] = self._skat
            self._hands[seat] |= self._skat
            self._skat = 0
            house.push_holding = True
            return
        elif isinstance(action, Push):
            if not rules.schieberamsch_unseen_push:
                raise IllegalActionError(f"at this table ({rules.name}) every player must take up the skat")
            house.pushes += 1
        else:
            raise WrongPhaseError(f"Schieberamsch: take up the skat (pickup) or push it on (push), not {action}")
        if seat == 2:
            self._game_type = _RAMSCH
            self.trick_leader = 0
            self.phase = _PLAY
        else:
            house.ramsch_seat = seat + 1

    def _illegal_card(self, seat: int, card: int) -> None:
        """A card that does not follow suit is a revoke at a real table (it ends the game); otherwise,
        and for a card not held, the base refuses it saying why."""
        hand = self._hands[seat]
        if (hand >> card & 1 and self.ruleset.real_table and self.declarer is not None
                and not legal_mask(self._game_type, hand, self.trick[0]) >> card & 1):
            self._revoke(seat, card)
            return
        super()._illegal_card(seat, card)

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
        self._end(GameResult(
            kind="passed_in", declarer=None, contract=None, bid=0, won=None, declarer_points=None,
            defender_points=None, declarer_tricks=0, skat=CardSet.from_mask(self.initial_skat), discard=None,
            outcome=None, scores=(0, 0, 0), explanation="passed in: all three players passed; nobody scores",
        ))

    def _revoke(self, seat: int, card: int) -> None:
        """Real-table mode: a card that does not follow suit ends the game (docs/rules.md 8, ISkO 4.2.3)."""
        self._hands[seat] &= ~(1 << card)
        self.trick.append(card)
        self._house_state().revoke_by = seat
        self._finish("revoke")

    def _revoke_points(self, decl_points: int, decl_tricks: int) -> tuple[int, int]:
        """Card points and tricks the revoke decides the game with (ISkO 4.1.3-4.1.5).

        A game already decided stays with the side that won it, with the points it brought in;
        otherwise the guilty side loses "in der Stufe einfach" (no schneider or schwarz), and a
        declarer whose defenders revoked is credited the levels he announced.
        """
        contract = self.contract
        declarer = self.declarer
        assert contract is not None and declarer is not None
        if contract.is_null:
            return decl_points, 1 if self.revoke_by == declarer else 0
        defender_points = sum(self.trick_points) - self.trick_points[declarer]
        needed = self.ruleset.schneider_points if contract.schneider else 61
        if decl_points >= needed and not contract.schwarz:
            return decl_points, decl_tricks  # already won: a later violation cannot lose it
        if defender_points >= 60 or (contract.schneider and defender_points > 120 - needed):
            return decl_points, decl_tricks  # already lost
        if self.revoke_by == declarer:
            return 60, 5
        return max(needed, 61), 10 if contract.schwarz else 5

    def _finish_ramsch(self) -> None:
        out = score_ramsch(self.trick_points, self.tricks_won, mask_points(self._skat), self.trick_leader,
                           self.ruleset, self.pushes)
        self._end(GameResult(
            kind="ramsch", declarer=None, contract=None, bid=0, won=None, declarer_points=None,
            defender_points=None, declarer_tricks=0, skat=CardSet.from_mask(self.initial_skat), discard=None,
            outcome=None, scores=out.scores, explanation=out.explanation, ramsch=out,
        ))

    def outcome_of(self, declarer_points: int | None, declarer_tricks: int) -> Outcome:
        """The declared game scored with the declarer's final card points (skat included; None in
        Null) and tricks, under this deal's bid, rule set and Kontra (for the analysis too)."""
        assert self.declarer is not None and self.contract is not None
        twelve = self.initial_hands[self.declarer] | self.initial_skat
        return evaluate(self.contract, twelve, declarer_points, declarer_tricks, self.bid, self.ruleset,
                        kontra_level=self.kontra_level)

    def _finish(self, kind: str, rest_to_declarer: bool | None = None) -> None:
        declarer = self.declarer
        contract = self.contract
        if declarer is None:
            self._finish_ramsch()
            return
        assert contract is not None
        is_null = contract.is_null
        skat_mask = self.discard if self.skat_taken else self.initial_skat
        decl_points = self.trick_points[declarer] + mask_points(skat_mask or 0)
        decl_tricks = self.tricks_won[declarer]
        if kind == "revoke":
            decl_points, decl_tricks = self._revoke_points(decl_points, decl_tricks)
        if rest_to_declarer is not None:
            rest = self._hands[0] | self._hands[1] | self._hands[2]
            for c in self.trick:
                rest |= 1 << c
            rest_tricks = 10 - len(self.tricks)
            if rest_to_declarer:
                decl_points += mask_points(rest)
                if not is_null:
                    decl_tricks += rest_tricks
            elif is_null:
                decl_tricks = max(decl_tricks, 1)  # a null declarer who gives up takes a trick
        outcome = self.outcome_of(None if is_null else decl_points, 0 if is_null and kind == "conceded" else decl_tricks)
        scores = [0, 0, 0]
        scores[declarer] = outcome.score
        explanation = outcome.explanation
        if kind == "conceded":
            explanation += " (the defenders conceded)"
        elif kind == "resigned":
            explanation += " (the declarer gave up)"
        elif kind == "revoke":
            who = "the declarer" if self.revoke_by == declarer else f"defender seat {self.revoke_by}"
            explanation += (f" (decided by a revoke of {who}: {Card(self.trick[-1]).name} did not follow "
                            f"{Card(self.trick[0]).name})")
        # GameResult(...) filled in one step instead of the frozen dataclass's object.__setattr__ per field
        result = object.__new__(GameResult)
        result.__dict__.update(
            kind="claimed" if kind == "conceded" and self.claimed else kind,
            declarer=declarer, contract=contract, bid=self.bid, won=outcome.won,
            declarer_points=None if is_null else decl_points,
            defender_points=None if is_null else 120 - decl_points,
            declarer_tricks=decl_tricks, skat=CardSet.from_mask(self.initial_skat),
            discard=None if self.discard is None else CardSet.from_mask(self.discard),
            outcome=outcome, scores=(scores[0], scores[1], scores[2]), explanation=explanation,
            kontra_level=self.kontra_level, ramsch=None, revoke_by=self.revoke_by,
        )
        self._end(result)

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
            bid=self._auction_value,
            declarer=self.declarer,
            contract=self.contract,
            skat=self._view_skat(seat, is_declarer),
            discard=self._view_discard(seat, is_declarer),
            open_hands=open_hands,
            trick=[((lead + i) % 3, CARDS[c]) for i, c in enumerate(self.trick)],
            tricks=[(ld, (CARDS[a], CARDS[b], CARDS[c]), w) for ld, (a, b, c), w in self.tricks],
            trick_points=(self.trick_points[0], self.trick_points[1], self.trick_points[2]),
            hand_sizes=(self._hands[0].bit_count(), self._hands[1].bit_count(), self._hands[2].bit_count()),
            result=self.result,
            ruleset=self.ruleset.name,
            kontra_level=self.kontra_level,
        )

    def _view_skat(self, seat: int, is_declarer: bool) -> CardSet | None:
        if is_declarer and self.skat_taken:
            return CardSet.from_mask(self.initial_skat)
        if self._house is None:
            return None
        taken = self._house.push_taken[seat]
        return None if taken is None else CardSet.from_mask(taken)

    def _view_discard(self, seat: int, is_declarer: bool) -> CardSet | None:
        if is_declarer and self.discard is not None:
            return CardSet.from_mask(self.discard)
        if self._house is None:
            return None
        given = self._house.push_given[seat]
        return None if given is None else CardSet.from_mask(given)

    # --------------------------------------------------------------- records
    def to_record(self) -> dict[str, Any]:
        """A JSON-ready record: the deal, every action with its seat, and the result."""
        return {
            "format": "skat-game",
            "version": 1,
            "ruleset": self.ruleset.to_json(),
            **({"start": self.start} if self.start != "auction" else {}),
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
        if record.get("variant", "standard") != "standard":
            raise RecordError(f"a record of the {record.get('variant')!r} variant: read it with "
                              "skat.variants.from_record, which finds the variant's game")
        ruleset = record_ruleset(record, ISKO)
        try:
            game = cls(seed=record.get("seed"), hands=record["hands"], skat=record["skat"], ruleset=ruleset,
                       start=record.get("start", "auction"))
        except (KeyError, TypeError, ValueError) as exc:
            raise RecordError(f"malformed game record: {exc}") from None
        game._replay(record["actions"])
        stored = record.get("result")
        if stored is not None:
            replayed = None if game.result is None else game.result.to_json()
            if replayed != stored:
                raise RecordError("the record's result differs from the replay of its actions")
        return game


def ramsch_game(
    seed: int | None = None, *, hands: list[CardsLike] | None = None, skat: CardsLike | None = None,
    ruleset: RuleSet | None = None,
    schieberamsch: bool | None = None,
) -> Game:
    """A deal that is played as Ramsch from the start (a Ramsch round or a Schieber round).

    ``schieberamsch`` overrides the rule set's option for this deal. The returned
    :class:`Game` skips the auction (Grand Hand may still be announced when
    the rule set allows it).
    """
    rules = ruleset or ISKO
    if schieberamsch is not None and schieberamsch != rules.schieberamsch:
        rules = rules.replace(schieberamsch=schieberamsch)
    return Game(seed, hands=hands, skat=skat, ruleset=rules, start="ramsch")
