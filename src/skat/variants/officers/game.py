"""One game of Officers' Skat (two players) as a state machine, in every variant of docs/rules.md section 9.

Seats: 0 is forehand (the dealer's opponent, who chooses the game), 1 is the dealer.
Each player's cards lie in piles, the top card playable and the card under it covered;
in Admiral's and half-open Harlequin some cards are held in the hand. Drive a game with
:meth:`OfficersGame.legal_actions` and :meth:`OfficersGame.apply`; :meth:`OfficersGame.view`
gives a seat exactly what the table shows him.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from skat.cards import Card, CardSet, mask_points
from skat.deal.game import DealState, bid_ladder
from skat.enums import Phase
from skat.errors import IllegalActionError, RecordError, WrongPhaseError
from skat.rules.actions import HOLD, KONTRA, PASS, PICKUP, RE, Action, Bid, Declare, Hold, Kontra, Pass, Re
from skat.rules.bidding import (
    BID_VALUES,
    FOREHAND,
    REARHAND,
    auction_answering,
    auction_bid,
    auction_highest,
    auction_hold,
    auction_pass,
    auction_rung,
    auction_stage,
    auction_state,
    legal_moves,
    rung,
)
from skat.rules.contract import Contract
from skat.rules.deal import deal_deck
from skat.rules.ranking import GameType
from skat.rules.value import HAND_CONTRACTS, SKAT_CONTRACTS, declarable_by_matadors, matador_count
from skat.variants.officers.actions import RAMSCH, ChooseRamsch, parse_officers_action
from skat.variants.officers.options import OfficersOptions, normalize_variant
from skat.variants.officers.scoring import OfficersOutcome, score_admiral, score_game, score_ramsch

__all__ = ["OfficersGame", "Phase", "OfficersView", "OfficersResult", "SEAT_NAMES", "UP", "DOWN", "OWN", "OUT"]

SEAT_NAMES = ("forehand", "dealer")
_CARDS: tuple[Card, ...] = tuple(Card)

UP, DOWN, OWN, OUT = 0, 1, 2, 3
"""Faces of a card: seen by both, by nobody, by its owner only, by the opponent only (Harlequin)."""


_SUITS_AND_GRAND = (GameType.DIAMONDS, GameType.HEARTS, GameType.SPADES, GameType.CLUBS, GameType.GRAND)


@dataclass(frozen=True)
class OfficersResult:
    """How a game ended and what each seat scores."""

    kind: str
    """``played`` (to the end, or until a Null chooser took a trick) or ``passed_in`` (Admiral's, all passed)."""
    variant: str
    game: str | None
    chooser: int | None
    contract: Contract | None
    bid: int
    kontra_level: int
    points: tuple[int, int]
    """Card points per seat (tricks, plus the skat where it counts)."""
    tricks: tuple[int, int]
    skat: CardSet | None
    outcome: OfficersOutcome | None
    scores: tuple[int, int]
    explanation: str

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind, "variant": self.variant, "game": self.game, "chooser": self.chooser,
            "contract": None if self.contract is None else self.contract.to_json(), "bid": self.bid,
            "kontra_level": self.kontra_level, "points": list(self.points), "tricks": list(self.tricks),
            "skat": None if self.skat is None else [c.name for c in self.skat],
            "outcome": None if self.outcome is None else self.outcome.to_json(),
            "scores": list(self.scores), "explanation": self.explanation,
        }


Pile = list  # top card first


@dataclass(frozen=True)
class OfficersView:
    """What one seat may know: his cards that face him, the opponent's that face him, played cards.

    In ``own_piles`` and ``opponent_piles`` every pile lists its cards from the top down, with
    ``None`` for a card this seat cannot see. Only cards already dealt are shown.
    """

    seat: int | None
    """The seat (None in a spectator's view, :func:`skat.records.wire.public_view`)."""
    variant: str
    phase: Phase
    to_move: int | None
    legal_actions: list[Action]
    chooser: int | None
    game: str | None
    contract: Contract | None
    kontra_level: int
    bid: int
    auction: list[tuple[int, str]]
    own_piles: list[list[Card | None]]
    opponent_piles: list[list[Card | None]]
    hand: CardSet
    """Cards in this seat's hand (Admiral's, half-open Harlequin)."""
    opponent_hand_size: int
    opponent_hand: CardSet | None
    """The opponent's hand: shown only when the game is over."""
    skat: CardSet | None
    """Admiral's: the skat the declarer picked up (declarer only; everybody at the end)."""
    discard: CardSet | None
    """Admiral's: the two cards the declarer put away (declarer only)."""
    skat_size: int
    trick: list[tuple[int, Card]]
    tricks: list[tuple[int, tuple[Card, Card], int]]
    """Completed tricks: (leader, cards in play order, winner)."""
    trick_points: tuple[int, int]
    tricks_won: tuple[int, int]
    result: OfficersResult | None
    options: dict[str, Any] = field(default_factory=dict)

    def visible_cards(self) -> CardSet:
        """Every card this view shows: face-up and own cards, the hand, the skat, played cards."""
        mask = self.hand.mask
        for piles in (self.own_piles, self.opponent_piles):
            for pile in piles:
                for c in pile:
                    if c is not None:
                        mask |= 1 << c
        for extra in (self.skat, self.discard, self.opponent_hand):
            if extra is not None:
                mask |= extra.mask
        for _, c in self.trick:
            mask |= 1 << c
        for _, cs, _ in self.tricks:
            for c in cs:
                mask |= 1 << c
        return CardSet.from_mask(mask)


def _parse_deck(deck: Any) -> tuple[int, ...]:
    if isinstance(deck, str):
        deck = deck.split()
    cards = [int(Card.parse(c) if isinstance(c, str) else Card(c)) for c in deck]
    if len(cards) != 32 or len(set(cards)) != 32:
        raise ValueError(f"a deck must list each of the 32 cards exactly once, got {len(cards)} cards "
                         f"({len(set(cards))} different)")
    return tuple(cards)


class OfficersGame(DealState):
    """One game of Officers' Skat.

    ``OfficersGame("classic", seed=7)``; ``variant`` is one of ``classic``, ``passing``,
    ``harlequin``, ``half_open``, ``admiral``; the keyword options are those of
    :class:`~skat.variants.officers.options.OfficersOptions`. ``deck`` (32 cards in dealing order)
    replaces the seeded shuffle. The apply, the trick engine for two seats, the discard and the
    copy are the base's (:class:`skat.deal._core.DealState`); this class adds the piles (what a seat may
    play, what the table shows), the choice of the game, Kontra and Re, Admiral's auction and the result.
    """

    SEAT_NAMES = SEAT_NAMES  # type: ignore[assignment]  # two seats; the base's type is inferred from its three
    _STEPS = {**DealState._STEPS, "choose": "_step_choose", "kontra": "_step_kontra", "re": "_step_re"}
    parse_action = staticmethod(parse_officers_action)
    """Read a token: the standard ones plus ``ramsch``, ``kontra`` and ``re``."""

    def __init__(self, variant: str = "classic", seed: int | None = None, *, deck: Any = None,
                 **options: Any) -> None:
        variant = normalize_variant(variant)
        self._init_core(0, 0, None, 0, seed, None, bid_ladder(BID_VALUES), seats=2,
                        total_tricks=15 if variant == "admiral" else 16, std_auction=False, std_declarer=False,
                        pile_play=True, schwarz_ends=False)
        self.variant = variant
        self.options = OfficersOptions.for_variant(variant, **options)
        self._options_changed = self.options.changed()
        self.deck: tuple[int, ...] = tuple(int(c) for c in deal_deck(seed)) if deck is None else _parse_deck(deck)
        self.piles: list[list[Pile]] = [[], []]
        self.skat: int = 0
        self.face: list[int] = [DOWN] * 32
        self.owner: list[int] = [-1] * 32
        self._stages: list[list[int]] = [[], [], []]
        self._layout()
        self.initial_hands = (self._hands[0], self._hands[1])
        self.initial_skat = self.skat
        self.dealt: int = 0
        self.stage = -1
        self._deal_next()
        self.initial_cards: tuple[int, int] = tuple(  # type: ignore[assignment]
            sum(1 << c for c in range(32) if self.owner[c] == s) for s in (0, 1))
        self.phase = Phase.BIDDING if variant == "admiral" else Phase.CHOOSE
        self._choosing = 0  # the seat whose turn it is to choose
        self.kontra_level = 0
        # Admiral's two-player auction: the dealer bids, forehand holds or passes.
        self._auction_waiting = False
        self._auction_alone = False
        self.auction: list[tuple[int, str]] = []

    # ----------------------------------------------------------------- names
    @property
    def hands(self) -> list[int]:
        """The cards each seat holds in the hand (masks; Admiral's and half-open Harlequin)."""
        return self._hands

    @property
    def chooser(self) -> int | None:
        """The seat that chose the game (Admiral's: the declarer); None before, and in a Ramsch both passed."""
        return self.declarer

    @chooser.setter
    def chooser(self, seat: int | None) -> None:
        self.declarer = seat

    @property
    def leader(self) -> int:
        """The seat that leads (led) the current trick."""
        return self.trick_leader

    @property
    def game_type(self) -> GameType | None:
        """The game type chosen, or None yet."""
        return None if self._game_type < 0 else GameType(self._game_type)

    @game_type.setter
    def game_type(self, game_type: GameType | None) -> None:
        self._game_type = -1 if game_type is None else int(game_type)

    # ---------------------------------------------------------------- layout
    @property
    def total_tricks(self) -> int:
        """16 tricks, 15 in Admiral's Skat."""
        return 15 if self.variant == "admiral" else 16

    def _place(self, stage: int, seat: int, card: int, face: int, pile: int | None, under: bool = False) -> None:
        self.owner[card] = seat
        self.face[card] = face
        if pile is None:
            self.hands[seat] |= 1 << card
        else:
            piles = self.piles[seat]
            while len(piles) <= pile:
                piles.append([])
            if under:
                piles[pile].append(card)
            else:
                piles[pile].insert(0, card)
        self._stages[stage].append(card)

    def _layout(self) -> None:
        d = self.deck
        v = self.variant
        if v in ("classic", "passing"):
            # Rows of four: forehand's face-down row, the dealer's, forehand's face-up row (he chooses
            # now); then the dealer's face-up row; then the second face-down and face-up rows.
            for i in range(4):
                self._place(0, 0, d[i], DOWN, i, under=True)
                self._place(0, 1, d[4 + i], DOWN, i, under=True)
            for i in range(4):
                self._place(0, 0, d[8 + i], UP, i)
                self._place(1, 1, d[12 + i], UP, i)
            for i in range(4):
                self._place(2, 0, d[16 + i], DOWN, 4 + i, under=True)
                self._place(2, 1, d[20 + i], DOWN, 4 + i, under=True)
            for i in range(4):
                self._place(2, 0, d[24 + i], UP, 4 + i)
                self._place(2, 1, d[28 + i], UP, 4 + i)
        elif v in ("harlequin", "half_open"):
            # Alternate draws: one card taken normally, the next put behind it facing the opponent.
            last = 32 if v == "harlequin" else 16
            for k in range(last):
                seat, j = k % 2, k // 2
                stage = 0 if k < 16 else 2
                if j % 2 == 0:
                    self._place(stage, seat, d[k], OWN, j // 2)
                else:
                    self._place(stage, seat, d[k], OUT, j // 2, under=True)
            if v == "half_open":  # the rest dealt normally into the hand, in packets of four
                for p in range(4):
                    for c in d[16 + 4 * p: 20 + 4 * p]:
                        self._place(2, p % 2, c, OWN, None)
        else:  # admiral: 5 face-down, 5 face-up on top, a skat of 2, 5 in the hand
            for i in range(5):
                self._place(0, 0, d[i], DOWN, i, under=True)
                self._place(0, 1, d[5 + i], DOWN, i, under=True)
            for i in range(5):
                self._place(0, 0, d[10 + i], UP, i)
                self._place(0, 1, d[15 + i], UP, i)
            self.skat = (1 << d[20]) | (1 << d[21])
            self._stages[0] += [d[20], d[21]]
            for i in range(5):
                self._place(0, 0, d[22 + i], OWN, None)
                self._place(0, 1, d[27 + i], OWN, None)

    def _deal_next(self) -> None:
        self.stage += 1
        for c in self._stages[self.stage]:
            self.dealt |= 1 << c

    def _deal_rest(self) -> None:
        while self.stage < 2:
            self._deal_next()

    # ----------------------------------------------------------------- state
    def _mover(self) -> int | None:
        """Who moves outside the play: the chooser, the other seat for Kontra, Admiral's bidders."""
        p = self.phase
        if p is Phase.CHOOSE:
            return self._choosing
        if p is Phase.KONTRA:
            return 1 - self.chooser  # type: ignore[operator]
        if p is Phase.BIDDING:
            if self._auction_alone:
                return 0
            return 0 if self._auction_waiting else 1
        return self.chooser  # RE, SKAT, DISCARD, DECLARE

    @property
    def game(self) -> str | None:
        """The chosen game: ``clubs`` ... ``diamonds``, ``grand``, ``null``, ``ramsch``, or None yet."""
        return None if self.game_type is None else self.game_type.label

    def tops(self, seat: int) -> int:
        """Mask of the seat's uncovered pile cards (the face-down ones under them are covered)."""
        m = 0
        for p in self.piles[seat]:
            if p:
                m |= 1 << p[0]
        return m

    def playable(self, seat: int) -> int:
        """Mask of the cards the seat could play: uncovered pile cards and the hand."""
        return self.tops(seat) | self._hands[seat]

    _playable = playable

    def visible_to(self, seat: int, card: int) -> bool:
        """Whether ``seat`` can see a card that lies on the table or in a hand now."""
        if not self.dealt >> card & 1 or self.phase is Phase.FINISHED:
            return bool(self.dealt >> card & 1)
        f = self.face[card]
        if f == UP:
            return True
        if f == DOWN:
            return False
        return (self.owner[card] == seat) == (f == OWN)

    # -------------------------------------------------------------- legality
    def _legal(self, mover: int) -> list[Action]:
        """The actions of the seat to move outside the play (the base lists the playable cards)."""
        p = self.phase
        if p is Phase.CHOOSE:
            acts: list[Action] = [Declare(Contract(gt)) for gt in _SUITS_AND_GRAND]
            if self.options.allow_null:
                acts.append(Declare(Contract(GameType.NULL)))
            if self.options.allow_ramsch:
                acts.append(RAMSCH)
            if self.variant == "passing":
                acts.append(PASS)
            return acts
        if p is Phase.KONTRA:
            return [KONTRA, PASS]
        if p is Phase.RE:
            return [RE, PASS]
        if p is Phase.BIDDING:
            moves = legal_moves(self._auction_value, self._auction_waiting, self._auction_alone)
            return [HOLD if m == "hold" else PASS if m == "pass" else Bid(int(m)) for m in moves]
        if p is Phase.SKAT:
            return [PICKUP, *(Declare(c) for c in self._declarable(hand_game=True))]
        if p is Phase.DISCARD:
            return self._discard_actions(mover)
        if p is Phase.DECLARE:
            return [Declare(c) for c in self._declarable(hand_game=False)]
        return []

    def _declarable(self, hand_game: bool) -> list[Contract]:
        """Admiral's: the contracts that can still reach the bid (docs/rules.md 9.10), judged only on what
        the declarer knows (his face-down cards and, in a hand game, the skat are unknown and may fill
        his matadors): standard Skat's rule (:func:`skat.rules.value.declarable_by_matadors`, with its
        lost overbid when nothing reaches after the pickup) with those matadors, among the games
        without ouvert."""
        d = self.chooser
        assert d is not None
        known_own = self.hands[d] | (self.discard or 0)
        unknown_own = 0
        for p in self.piles[d]:
            for c in p:
                if self.face[c] == UP:
                    known_own |= 1 << c
                else:
                    unknown_own |= 1 << c
        if not self.skat_taken:
            unknown_own |= self.skat
        matadors = []
        for gt in _SUITS_AND_GRAND:
            # the most matadors: "with" as far as all his cards go, "without" as far as the known ones allow
            with_, count = matador_count(gt, known_own | unknown_own)
            with_run = count if with_ else 0
            with_, count = matador_count(gt, known_own)
            matadors.append(max(with_run, 0 if with_ else count))
        among = [c for c in (HAND_CONTRACTS if hand_game else SKAT_CONTRACTS) if not c.ouvert]
        return declarable_by_matadors(hand_game, self.bid, matadors, among)

    # ----------------------------------------------------------------- apply
    def _step_choose(self, seat: int, action: Action) -> None:
        """The chooser names the game (or passes, in the passing variant)."""
        self._choose(seat, action)

    def _step_kontra(self, seat: int, action: Action) -> None:
        """The other player may say Kontra."""
        if isinstance(action, Kontra):
            self.kontra_level = 1
        elif not isinstance(action, Pass):
            raise WrongPhaseError(f"seat {seat} may say 'kontra' or 'pass' now, not {action}")
        self._after_kontra()

    def _step_re(self, seat: int, action: Action) -> None:
        """The chooser may answer a Kontra with Re."""
        if isinstance(action, Re):
            self.kontra_level = 2
        elif not isinstance(action, Pass):
            raise WrongPhaseError(f"seat {seat} may answer 're' or 'pass' now, not {action}")
        self._start_play()

    def _step_bidding(self, seat: int, action: object) -> None:
        """Admiral's two-player auction."""
        self._bid(seat, action)
        self.auction.append((seat, str(action)))

    def _pick_up(self, seat: int) -> None:
        """Admiral's: the declarer takes the skat into his hand; its cards are his, seen only by him."""
        self._hands[seat] |= self.skat
        for c in CardSet.from_mask(self.skat):
            self.owner[c], self.face[c] = seat, OWN
        self.skat_taken = True
        self.phase = Phase.DISCARD

    def _choose(self, seat: int, action: Action) -> None:
        if isinstance(action, Pass):
            if self.variant != "passing":
                raise IllegalActionError("passing the choice is only allowed in the 'passing' variant")
            if seat == 0:
                self._deal_next()  # the dealer's first face-up row, then he chooses
                self._choosing = 1
                return
            self._deal_rest()  # both passed: Ramsch, forehand leads
            self.game_type = GameType.RAMSCH
            self._start_play()
            return
        if isinstance(action, ChooseRamsch):
            if not self.options.allow_ramsch:
                raise IllegalActionError("Ramsch may only be chosen by agreement: option allow_ramsch=True")
            gt = GameType.RAMSCH
        elif isinstance(action, Declare):
            c = action.contract
            if c.hand or c.schneider or c.schwarz or c.ouvert:
                raise IllegalActionError(
                    f"{c}: in Officers' Skat only the game is named (a suit, grand, null), no hand or announcements")
            if c.is_null and not self.options.allow_null:
                raise IllegalActionError("Null may only be chosen by agreement: option allow_null=True")
            gt = c.game_type
            self.contract = c
        else:
            raise WrongPhaseError(f"seat {seat} must choose the game now ('declare hearts', 'declare grand'...), "
                                  f"not {action}")
        self.game_type = gt
        self.chooser = seat
        if self.stage < 1:
            self._deal_next()  # the dealer gets his first face-up row
        if self.options.kontra:
            self.phase = Phase.KONTRA
        else:
            self._deal_rest()
            self._start_play()

    def _after_kontra(self) -> None:
        self._deal_rest()
        if self.kontra_level:
            self.phase = Phase.RE
        else:
            self._start_play()

    def _bid(self, seat: object, action: object) -> None:
        """Admiral's auction is a Skat auction's last two seats (docs/rules.md 9.10): the dealer bids to
        forehand as rearhand does once middlehand has passed, so the rules kernel's auction decides
        (:func:`skat.rules.bidding.auction_bid` and the others) on the standard ladder."""
        alone = self._auction_alone
        waiting = self._auction_waiting
        state = auction_state(3 if alone else 2, REARHAND, FOREHAND, 0b110 if alone else 0b010, waiting,
                              REARHAND if waiting else -1, rung(self._auction_value))
        if isinstance(action, Hold):
            after = auction_hold(state)
        elif isinstance(action, Pass):
            after = auction_pass(state)
        elif isinstance(action, Bid) and not waiting:
            after = auction_bid(state, rung(action.value))
        elif waiting:
            raise IllegalActionError(f"forehand must answer the bid of {self._auction_value}: hold or pass")
        else:
            raise WrongPhaseError(f"the auction is running: bid, hold or pass, not {action}")
        if after < 0:
            if isinstance(action, Hold):
                raise IllegalActionError("there is no bid to hold: the dealer bids or passes")
            if alone:
                raise IllegalActionError(f"the dealer passed: forehand may only play at {BID_VALUES[0]} or pass")
            assert isinstance(action, Bid)  # a hold or a pass that fails is refused above
            if action.value not in BID_VALUES:
                raise IllegalActionError(f"{action.value} is not a possible bid value (18, 20, 22, 23, 24, 27...)")
            raise IllegalActionError(f"a bid must be higher than {self._auction_value}, got {action.value}")
        place = auction_rung(after)
        self._auction_value = BID_VALUES[place - 1] if place else 0
        if auction_stage(after) == 0:
            highest = auction_highest(after)
            self._end_auction(None if highest < 0 else 0 if highest == FOREHAND else 1)
            return
        self._auction_waiting = auction_answering(after)
        self._auction_alone = auction_stage(after) == 3

    def _end_auction(self, declarer: int | None) -> None:
        self.bid = self._auction_value if declarer is not None else 0
        if declarer is None:
            if self.options.all_pass == "passed_in":
                self._finish_passed_in()
            else:
                self.game_type = GameType.RAMSCH
                self._start_play()
            return
        self.chooser = declarer
        self.phase = Phase.SKAT

    def _declare(self, contract: object, hand_game: bool) -> None:
        assert isinstance(contract, Contract)
        if contract.ouvert:
            raise IllegalActionError("ouvert games are not played in Admiral's Skat: the face-down cards are unknown")
        if contract.hand != hand_game:
            if hand_game:
                raise IllegalActionError(f"{contract} is not a hand game: pick up the skat first, or declare it hand")
            raise IllegalActionError("a hand game cannot be declared after picking up the skat")
        if contract not in self._declarable(hand_game):
            raise IllegalActionError(f"{contract} cannot reach the bid of {self.bid}: choose a game that can")
        self.contract = contract
        self.game_type = contract.game_type
        if self.options.kontra:
            self.phase = Phase.KONTRA
        else:
            self._start_play()

    def _start_play(self) -> None:
        self._deal_rest()
        self.phase = Phase.PLAY
        self.trick_leader = self.chooser if self.chooser is not None else 0

    # ------------------------------------------------- the base's trick engine
    def _unplayable_text(self, seat: int, card: int) -> str:
        if self.owner[card] == seat and self.dealt >> card & 1 and not self._hands[seat] >> card & 1:
            return f"{Card(card).name} is covered: only uncovered cards may be played"
        return f"{Card(card).name} is not among seat {seat}'s playable cards"

    def _take_card(self, seat: int, card: int) -> None:
        """A card leaves the hand, or the top of its pile (uncovering the card under it)."""
        if self._hands[seat] >> card & 1:
            self._hands[seat] &= ~(1 << card)
            return
        for p in self.piles[seat]:
            if p and p[0] == card:
                p.pop(0)
                return

    def _trick_closed(self) -> None:
        """Uncovered cards are turned up after the trick."""
        for s in (0, 1):
            for p in self.piles[s]:
                if p and self.face[p[0]] != UP and self.face[p[0]] != OWN:
                    self.face[p[0]] = UP

    # ---------------------------------------------------------------- result
    def _finish_passed_in(self) -> None:
        self._end(OfficersResult("passed_in", self.variant, None, None, None, 0, 0, (0, 0), (0, 0),
                                 CardSet.from_mask(self.skat), None, (0, 0),
                                 "passed in: both players passed; nobody scores"))

    def _finish(self, kind: str = "played") -> None:
        gt = self.game_type
        assert gt is not None
        points = list(self.trick_points)
        tricks = (self.tricks_won[0], self.tricks_won[1])
        skat_cards = self.discard if self.skat_taken else self.skat
        if self.variant == "admiral" and skat_cards:
            # The skat counts for the declarer; in Ramsch for the winner of the last trick (docs/rules.md D9).
            to = self.chooser if gt != GameType.RAMSCH else self.tricks[-1][2]
            if gt != GameType.NULL:
                points[to] += mask_points(skat_cards)  # type: ignore[index]
        pts = (points[0], points[1])
        if gt == GameType.RAMSCH:
            outcome = score_ramsch(pts, tricks, self.chooser, self.options, self.kontra_level)
        elif self.variant == "admiral":
            assert self.contract is not None and self.chooser is not None
            cards = self.initial_cards[self.chooser] | self.skat
            outcome = score_admiral(self.contract, self.chooser, self.bid, cards, pts, tricks, self.kontra_level)
        else:
            assert self.chooser is not None
            outcome = score_game(gt, self.chooser, self.initial_cards[self.chooser], pts, tricks, self.options,
                                 self.kontra_level)
        self._end(OfficersResult(
            "played", self.variant, gt.label, self.chooser, self.contract, self.bid, self.kontra_level, pts, tricks,
            CardSet.from_mask(self.skat) if self.variant == "admiral" else None, outcome, outcome.scores,
            outcome.explanation))

    # ----------------------------------------------------------------- views
    def view(self, seat: int) -> OfficersView:
        """Everything ``seat`` may know now, and nothing more."""
        if seat not in (0, 1):
            raise ValueError(f"there is no seat {seat}: seats are 0 (forehand) and 1 (dealer)")

        def show(piles: list[Pile]) -> list[list[Card | None]]:
            out = []
            for p in piles:
                shown = [_CARDS[c] if self.visible_to(seat, c) else None for c in p if self.dealt >> c & 1]
                out.append(shown)
            return out

        over = self.phase is Phase.FINISHED
        is_decl = seat == self.chooser and self.variant == "admiral"
        skat: CardSet | None = None
        if self.variant == "admiral" and (over or (is_decl and self.skat_taken)):
            skat = CardSet.from_mask(self.skat)
        return OfficersView(
            seat=seat, variant=self.variant, phase=self.phase, to_move=self.to_move,
            legal_actions=self.legal_actions(seat), chooser=self.chooser, game=self.game, contract=self.contract,
            kontra_level=self.kontra_level, bid=self.bid if self.phase is not Phase.BIDDING else self._auction_value,
            auction=list(self.auction),
            own_piles=show(self.piles[seat]), opponent_piles=show(self.piles[1 - seat]),
            hand=CardSet.from_mask(self.hands[seat] & self.dealt),
            opponent_hand_size=(self.hands[1 - seat] & self.dealt).bit_count(),
            opponent_hand=CardSet.from_mask(self.hands[1 - seat]) if over else None,
            skat=skat, discard=CardSet.from_mask(self.discard) if (is_decl or over) and self.discard else None,
            skat_size=self.skat.bit_count() if self.variant == "admiral" else 0,
            trick=[((self.leader + i) % 2, _CARDS[c]) for i, c in enumerate(self.trick)],
            tricks=[(ld, (_CARDS[a], _CARDS[b]), w) for ld, (a, b), w in self.tricks],
            trick_points=(self.trick_points[0], self.trick_points[1]),
            tricks_won=(self.tricks_won[0], self.tricks_won[1]), result=self.result,
            options=dict(self._options_changed),
        )

    # --------------------------------------------------------------- records
    def to_record(self) -> dict[str, Any]:
        """A JSON-ready record: variant, options, the deck in dealing order, every action, the result."""
        return {
            "format": "officers-skat", "version": 1, "variant": self.variant, "options": self.options.changed(),
            "seed": self.seed, "deck": [Card(c).name for c in self.deck],
            "actions": [[s, str(a)] for s, a in self.history],
            "result": None if self.result is None else self.result.to_json(),
        }

    @classmethod
    def from_record(cls, record: dict[str, Any]) -> OfficersGame:
        """Rebuild a game from :meth:`to_record` output by replaying every action."""
        try:
            if record.get("format") != "officers-skat":
                raise RecordError(f"not an Officers' Skat record (format {record.get('format')!r})")
            game = cls(record["variant"], seed=record.get("seed"), deck=record["deck"], **record.get("options", {}))
            game._replay(record["actions"])
        except (KeyError, TypeError, ValueError) as exc:
            if isinstance(exc, RecordError):
                raise
            raise RecordError(f"malformed Officers' Skat record: {exc}") from None
        return game

