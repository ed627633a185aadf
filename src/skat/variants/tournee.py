"""Historical Tournee Skat (docs/rules.md section 10; seed 000 part B, Foster's Complete Hoyle).

Bids are plain numbers from 10. The declarer chooses one of fifteen games:

* **Tournee** (``turn``): he turns up the top skat card. He accepts it (``accept``: its suit is
  trumps) or says "passt mir nicht" (``reject``) and the second card fixes trumps ("second
  turn"). A turned jack allows **Grand Tournee** (``declare grand``). Either way he takes both
  skat cards and discards two.
* **Solo** (``declare hearts hand``): trumps named, the skat untouched; Schneider or Schwarz may
  be announced (``declare hearts hand schneider``).
* **Gucki** (``pickup``): a grand with the skat picked up.
* **Grand Solo** (``declare grand hand``) and **Grand Ouvert** (``declare grand hand ouvert``).
* **Null** 20 (``declare null hand``) and **Null Ouvert** 40 (``declare null hand ouvert``), only
  up to those bids.

Unit values (Foster p.366): Tournee D/H/S/C 5/6/7/8, Solo 9/10/11/12, Grand Tournee 12, Gucki 16,
Grand Solo 20, Grand Ouvert 24. Multiplier = matadors (the skat counts) + 1, + schneider (91 for
the player, the player himself at 30 or less), + schneider announced, + schwarz, + schwarz
announced; there is no hand level. A lost game costs its value once, except Gucki and
second-turn Tournee (twice). An overbid game loses the smallest multiple of its unit that
reaches the bid. When all pass, the same cards are played as Ramsch (+10 to the lowest, +20
without a trick, -30 for all tricks).
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass
from typing import Any

from skat.cards import ALL_CARDS, CARDS, JACKS, Card, CardSet, mask_of, mask_points
from skat.deal.game import DealState, GameResult, Phase, SeatView, bid_ladder, deal, record_ruleset
from skat.deal.ramsch import score_ramsch
from skat.deal.variant import Variant, skat_record_owner
from skat.errors import IllegalActionError, RecordError, WrongPhaseError
from skat.rules.actions import (
    ACCEPT,
    PICKUP,
    REJECT,
    TURN,
    Accept,
    Action,
    Bid,
    Declare,
    Hold,
    Pass,
    PickUp,
    Reject,
    Turn,
    check_token,
    parse_action,
)
from skat.rules.contract import Contract
from skat.rules.ranking import GameType
from skat.rules.rulesets import TOURNEE, RuleSet
from skat.rules.value import Outcome, matadors, multiplier

__all__ = [
    "TourneeGame", "TourneeResult", "Turn", "Accept", "Reject", "TURN", "ACCEPT", "REJECT",
    "tournee_unit", "tournee_outcome", "tournee_null_allowed", "parse_tournee_action", "TOURNEE_GAMES", "VARIANT",
]

_SUITS = ("diamonds", "hearts", "spades", "clubs")
TOURNEE_GAMES: dict[str, int] = {
    **{f"tournee_{s}": 5 + i for i, s in enumerate(_SUITS)},
    **{f"solo_{s}": 9 + i for i, s in enumerate(_SUITS)},
    "grand_tournee": 12, "gucki": 16, "grand_solo": 20, "grand_ouvert": 24, "null": 20, "null_ouvert": 40,
}
"""The fifteen games of the historical rules and their unit values (Null: fixed values)."""


_TOKENS = {"turn": TURN, "accept": ACCEPT, "reject": REJECT, "passt": REJECT, "passt mir nicht": REJECT}


def parse_tournee_action(token: str) -> Action:
    """Read a token: ``turn``, ``accept``, ``reject`` (or ``passt``), or any standard action token."""
    low = " ".join(check_token(token).lower().split())
    if low in _TOKENS:
        return _TOKENS[low]
    return parse_action(token)


def game_name(kind: str, game_type: GameType) -> str:
    """The name of a Tournee game: kind ``tournee``, ``solo``, ``gucki``... plus the game type."""
    gt = GameType.parse(game_type)
    if gt == GameType.NULL:
        return "null_ouvert" if kind == "null_ouvert" else "null"
    if kind in ("tournee", "solo") and gt.is_suit:
        return f"{kind}_{gt.label}"
    if kind == "tournee":
        return "grand_tournee"
    if kind == "solo":
        return "grand_solo"
    if kind in ("gucki", "grand_gucki"):
        return "gucki"
    if kind in ("grand_ouvert", "null", "null_ouvert", "grand_tournee", "grand_solo"):
        return kind
    raise ValueError(f"unknown Tournee game kind {kind!r} with {gt.label}")


def tournee_unit(name: str) -> int:
    """Unit value of a Tournee game by name (docs/rules.md 10.2)."""
    try:
        return TOURNEE_GAMES[name]
    except KeyError:
        raise ValueError(f"unknown Tournee game {name!r}; known: {', '.join(TOURNEE_GAMES)}") from None


def tournee_null_allowed(name: str, bid: int) -> bool:
    """No Null above a bid of 20, no Null Ouvert above 40 (seed 000 part B)."""
    return TOURNEE_GAMES[name] >= bid


def tournee_outcome(
    name: str,
    declarer_cards: Any,
    declarer_points: int | None,
    declarer_tricks: int,
    bid: int,
    rules: RuleSet = TOURNEE,
    *,
    second_turn: bool = False,
    schneider_announced: bool = False,
    schwarz_announced: bool = False,
) -> Outcome:
    """Value and score of a finished Tournee game (docs/rules.md 10.3).

    ``name`` is a key of :data:`TOURNEE_GAMES`; ``declarer_cards`` the 12 cards of hand plus
    skat (they decide matadors); ``declarer_points`` include the skat.
    """
    unit = tournee_unit(name)
    double_loss = name == "gucki" or second_turn
    loss_factor = 2 if double_loss else rules.lost_game_factor
    if name in ("null", "null_ouvert"):
        contract = Contract(GameType.NULL, hand=True, ouvert=name == "null_ouvert")
        overbid = unit < bid
        won = declarer_tricks == 0 and not overbid
        score = unit if won else -loss_factor * unit
        why = f"{name} for {unit}: " + ("won, no trick taken" if won else "lost")
        return Outcome(contract, bid, won, overbid, None, None, None, None, unit, score, None,
                       declarer_tricks, False, False, why)
    gt = GameType.GRAND if name.startswith("grand") or name == "gucki" else GameType.parse(name.split("_")[1])
    ouvert = name == "grand_ouvert"
    schwarz_announced = schwarz_announced or ouvert
    schneider_announced = schneider_announced or schwarz_announced
    hand = name.startswith("solo") or name in ("grand_solo", "grand_ouvert")
    contract = Contract(gt, hand=hand, schneider=schneider_announced and hand, schwarz=schwarz_announced and hand,
                        ouvert=ouvert)
    if declarer_points is None:
        raise ValueError("a suit or grand game needs the declarer's card points")
    mask = mask_of(declarer_cards)
    if mask.bit_count() != 12:
        raise ValueError(f"matadors are counted over 12 cards (hand plus skat), got {mask.bit_count()}")
    with_, count = matadors(gt, mask)
    schneider = declarer_points >= rules.schneider_points or declarer_points <= 30
    schwarz = declarer_tricks in (0, 10)
    # no hand or ouvert level, and an announced level counts only when made (docs/rules.md 10.3)
    levels = multiplier(count, False, schneider, schneider_announced, schwarz, schwarz_announced, False,
                        announced_counts_made=False)
    value = levels * unit
    missed = (schneider_announced and declarer_points < rules.schneider_points) or (
        schwarz_announced and declarer_tricks < 10)
    overbid = value < bid
    won = declarer_points >= 61 and not missed and not overbid
    desc = f"{name} {'with' if with_ else 'against'} {count}"
    if won:
        score = value
        why = f"won: {desc} is worth {value} ({levels} x {unit}), {declarer_points} card points"
    elif overbid:
        loss = unit * -(-bid // unit)
        score = -loss_factor * loss
        why = f"lost, overbid: {desc} is worth {value} but the bid was {bid}; loses {loss_factor} x {loss}"
    else:
        score = -loss_factor * value
        why = f"lost: {desc} is worth {value} ({levels} x {unit}), {declarer_points} card points"
        if missed:
            why += ", announcement missed"
    if not won and double_loss:
        why += " (Gucki and second-turn games lose double)"
    return Outcome(contract, bid, won, overbid, with_, count, levels, unit, value, score, declarer_points,
                   declarer_tricks, schneider, schwarz, why)


@dataclass(frozen=True)
class TourneeResult(GameResult):
    """A Tournee game's result: the standard fields plus the game's historical name."""

    game_name: str = ""
    """``tournee_hearts``, ``grand_tournee``, ``solo_clubs``, ``gucki``, ``ramsch``, ``passed``..."""
    second_turn: bool = False
    turned: tuple[str, ...] = ()
    """The skat cards turned up (Tournee), shown to everybody."""

    def to_json(self) -> dict[str, Any]:
        d = super().to_json()
        d.update(game_name=self.game_name, second_turn=self.second_turn, turned=list(self.turned))
        return d


_SOLO_CONTRACTS = tuple(
    Contract(gt, hand=True, schneider=s, schwarz=w)
    for gt in (GameType.DIAMONDS, GameType.HEARTS, GameType.SPADES, GameType.CLUBS, GameType.GRAND)
    for s, w in ((False, False), (True, False), (True, True))
) + (Contract(GameType.GRAND, hand=True, ouvert=True),)
_NULLS = (("null", Contract(GameType.NULL, hand=True)), ("null_ouvert", Contract(GameType.NULL, hand=True, ouvert=True)))


def _skat_order(seed: int | None, skat_mask: int) -> tuple[int, int]:
    """Which skat card lies on top: drawn from the seed (a fair coin, reproducible)."""
    cards = [c for c in range(32) if skat_mask >> c & 1]
    if seed is None:
        flip = random.random() < 0.5
    else:
        flip = hashlib.sha256(f"tournee-skat:{seed}".encode()).digest()[0] & 1 == 1
    return (cards[1], cards[0]) if flip else (cards[0], cards[1])


class TourneeGame(DealState):
    """One deal of historical Tournee Skat, driven like :class:`skat.Game`.

    ``legal_actions()``, ``apply()``, ``view(seat)``, ``result``, ``to_record()``,
    ``from_record()`` and ``copy()`` work as there; seats are 0 forehand, 1 middlehand,
    2 rearhand. ``skat`` may be given as two cards in order, the top one first. The auction, the
    discard and the play are the base's (:class:`skat.deal._core.DealState`); this class adds the
    choice of the game (turn, Gucki, Solo...) and the Tournee result.
    """

    parse_action = staticmethod(parse_tournee_action)
    """Read a token: ``turn``, ``accept``, ``reject`` (or ``passt``), or any standard action token."""

    def __init__(self, seed: int | None = None, *, hands: list | None = None, skat: Any = None,
                 ruleset: RuleSet = TOURNEE) -> None:
        if ruleset.variant != "tournee":
            raise ValueError(f"rule set {ruleset.name!r} is not a Tournee rule set (variant={ruleset.variant!r})")
        if hands is None:
            if skat is not None:
                raise ValueError("give the skat together with the three hands")
            dealt, skat_mask = deal(seed)
            order = _skat_order(seed, skat_mask)
        else:
            if len(hands) != 3 or skat is None:
                raise ValueError("give three hands of 10 cards and a skat of 2 cards")
            dealt = [mask_of(h) for h in hands]
            skat_list = [int(c) for c in CardSet(skat)] if not isinstance(skat, (list, tuple)) else [
                int(Card.parse(c)) if isinstance(c, str) else int(c) for c in skat]
            skat_mask = mask_of(skat_list)
            if [h.bit_count() for h in dealt] != [10, 10, 10] or skat_mask.bit_count() != 2:
                raise ValueError("hands must hold 10 cards each and the skat 2")
            if dealt[0] | dealt[1] | dealt[2] | skat_mask != ALL_CARDS:
                raise ValueError("the hands and the skat must hold each of the 32 cards exactly once")
            order = (skat_list[0], skat_list[1])
        self._init_core(dealt[0], dealt[1], dealt[2], skat_mask, seed, ruleset, bid_ladder(ruleset.bid_values),
                        std_declarer=False)
        self.skat_order: tuple[int, int] = order
        self.kind: str | None = None
        """``tournee``, ``solo``, ``gucki``, ``grand_ouvert``, ``null``, ``null_ouvert`` or ``ramsch``."""
        self.turned: list[int] = []
        self.second_turn = False
        self.kontra_level = 0
        """No Kontra in the historical rules (the attribute every variant has)."""
        self.revoke_by: int | None = None
        """No real-table revokes in this engine's Tournee Skat."""
        self.ramsch_grand_hand = False
        """No Grand Hand offer before a Tournee Ramsch."""

    # ------------------------------------------------------------------ state
    @property
    def is_ramsch(self) -> bool:
        """Whether this deal is played as Ramsch (all passed)."""
        return self.kind == "ramsch"

    @property
    def game_name(self) -> str | None:
        """The historical name of the game being played (None before the declaration)."""
        if self.kind is None:
            return None
        if self.kind == "ramsch":
            return "ramsch"
        assert self.contract is not None
        return game_name(self.kind, self.contract.game_type)

    # -------------------------------------------------------------- legality
    def _legal(self, mover: int) -> list[Action]:
        """The declarer's choices: the game (turn, Gucki, Solo, Null), the answer to a turned card, the discard."""
        phase = self.phase
        if phase is Phase.SKAT:
            out: list[Action] = [TURN, PICKUP, *(Declare(c) for c in _SOLO_CONTRACTS)]
            out += [Declare(c) for name, c in _NULLS if tournee_null_allowed(name, self.bid)]
            return out
        if phase is Phase.DECLARE:
            card = self.turned[-1]
            out = [ACCEPT]
            if len(self.turned) == 1:
                out.append(REJECT)
            if JACKS >> card & 1:
                out.append(Declare(Contract(GameType.GRAND)))
            return out
        if phase is Phase.DISCARD:
            return self._discard_actions(mover)
        return []

    # ----------------------------------------------------------------- steps
    def _start_ramsch(self) -> None:
        """All passed: the same cards are played as Ramsch, forehand leading."""
        self.kind = "ramsch"
        self._game_type = int(GameType.RAMSCH)
        self.phase = Phase.PLAY

    def _step_skat(self, seat: int, action: object) -> None:
        """The declarer turns the top skat card, picks up (Gucki) or declares a Solo or Null."""
        if isinstance(action, Turn):
            self.kind = "tournee"
            self.turned.append(self.skat_order[0])
            self.phase = Phase.DECLARE
        elif isinstance(action, PickUp):
            self.kind = "gucki"
            self.contract = Contract(GameType.GRAND)
            self._pick_up(seat)
        elif isinstance(action, Declare):
            contract = action.contract
            if contract in _SOLO_CONTRACTS:
                kind = "grand_ouvert" if contract.ouvert else "solo"
            else:
                names = [name for name, c in _NULLS if c == contract]
                if not names:
                    raise IllegalActionError(
                        f"{contract} is not a game of the historical rules: Solo (suit or grand hand, with "
                        "schneider or schwarz), grand hand ouvert, null hand or null hand ouvert")
                if not tournee_null_allowed(names[0], self.bid):
                    raise IllegalActionError(
                        f"{names[0]} is worth {TOURNEE_GAMES[names[0]]} and cannot be declared after a bid of {self.bid}")
                kind = names[0]
            self.kind = kind
            self.contract = contract
            self._start_play()
        else:
            raise WrongPhaseError(f"the declarer must turn, pick up (Gucki) or declare a game, not {action}")

    def _step_declare(self, seat: int, action: object) -> None:
        """The answer to the turned card: accept its suit, reject the first one, or Grand Tournee on a jack."""
        card = self.turned[-1]
        if isinstance(action, Accept):
            self.contract = Contract(GameType(card // 8))
        elif isinstance(action, Reject) and len(self.turned) == 1:
            self.turned.append(self.skat_order[1])
            self.second_turn = True
            return
        elif isinstance(action, Declare) and action.contract == Contract(GameType.GRAND) and JACKS >> card & 1:
            self.contract = action.contract
        else:
            raise IllegalActionError(f"answer the turned {Card(card).name}: {', '.join(map(str, self.legal_actions()))}")
        self._pick_up(seat)

    def _discarded(self) -> None:
        """The game was fixed before the discard: the play starts."""
        self._start_play()

    def _start_play(self) -> None:
        assert self.contract is not None
        self._game_type = int(self.contract.game_type)
        self.trick_leader = 0
        self.phase = Phase.PLAY

    # ---------------------------------------------------------------- result
    def _result(self, **fields: Any) -> TourneeResult:
        base = dict(kind="played", declarer=None, contract=None, bid=self.bid, won=None, declarer_points=None,
                    defender_points=None, declarer_tricks=0, skat=CardSet.from_mask(self.initial_skat),
                    discard=None, outcome=None, scores=(0, 0, 0), explanation="")
        base.update(fields)
        return TourneeResult(**base)

    def _finish_passed_in(self) -> None:
        self._end(self._result(kind="passed_in", bid=0, game_name="passed",
                               explanation="passed in: all three players passed; nobody scores"))

    def _finish_ramsch(self) -> None:
        out = score_ramsch(self.trick_points, self.tricks_won, mask_points(self.initial_skat), self.trick_leader,
                           self.ruleset)
        self._end(self._result(kind="ramsch", bid=0, scores=out.scores, game_name="ramsch",
                               explanation=out.explanation, ramsch=out))

    def outcome_of(self, declarer_points: int | None, declarer_tricks: int) -> Outcome:
        """The declared game scored by the Tournee rules with the declarer's final card points (skat
        included; None in Null) and tricks (for the analysis too)."""
        declarer, contract, name = self.declarer, self.contract, self.game_name
        assert declarer is not None and contract is not None and name is not None
        twelve = self.initial_hands[declarer] | self.initial_skat
        return tournee_outcome(name, twelve, declarer_points, declarer_tricks, self.bid, self.ruleset,
                               second_turn=self.second_turn, schneider_announced=contract.schneider,
                               schwarz_announced=contract.schwarz)

    def _finish(self, kind: str = "played") -> None:
        if self.kind == "ramsch":
            self._finish_ramsch()
            return
        declarer, contract, name = self.declarer, self.contract, self.game_name
        assert declarer is not None and contract is not None and name is not None
        skat_points = mask_points(self.discard if self.skat_taken else self.initial_skat)
        points = self.trick_points[declarer] + skat_points
        outcome = self.outcome_of(None if contract.is_null else points, self.tricks_won[declarer])
        scores = [0, 0, 0]
        scores[declarer] = outcome.score
        self._end(self._result(
            declarer=declarer, contract=contract, won=outcome.won,
            declarer_points=None if contract.is_null else points,
            defender_points=None if contract.is_null else 120 - points,
            declarer_tricks=self.tricks_won[declarer],
            discard=None if self.discard is None else CardSet.from_mask(self.discard), outcome=outcome,
            scores=(scores[0], scores[1], scores[2]), explanation=outcome.explanation, game_name=name,
            second_turn=self.second_turn, turned=tuple(Card(c).name for c in self.turned),
        ))

    # ----------------------------------------------------------------- views
    def view(self, seat: int) -> SeatView:
        """What ``seat`` may know: its hand, the auction, turned cards (shown to all), the tricks."""
        if not 0 <= seat <= 2:
            raise ValueError(f"there is no seat {seat}: seats are 0, 1 and 2")
        is_declarer = seat == self.declarer
        open_hands: dict[int, CardSet] = {}
        if self.declarer is not None and self.contract is not None and self.contract.ouvert:
            open_hands[self.declarer] = CardSet.from_mask(self._hands[self.declarer])
        if self.phase is Phase.FINISHED:
            open_hands = {s: CardSet.from_mask(self._hands[s]) for s in range(3) if self._hands[s]}
        lead = self.trick_leader
        return SeatView(
            seat=seat, phase=self.phase, to_move=self.to_move, hand=CardSet.from_mask(self._hands[seat]),
            legal_actions=self.legal_actions(seat), side_actions=[],
            auction=[(s, str(a)) for s, a in self.history if isinstance(a, (Bid, Hold, Pass))],
            bid=self._auction_value, declarer=self.declarer, contract=self.contract,
            skat=CardSet.from_mask(self.initial_skat) if is_declarer and self.skat_taken else (
                CardSet.from_mask(sum(1 << c for c in self.turned)) if self.turned else None),
            discard=CardSet.from_mask(self.discard) if is_declarer and self.discard is not None else None,
            open_hands=open_hands,
            trick=[((lead + i) % 3, CARDS[c]) for i, c in enumerate(self.trick)],
            tricks=[(ld, (CARDS[a], CARDS[b], CARDS[c]), w) for ld, (a, b, c), w in self.tricks],
            trick_points=(self.trick_points[0], self.trick_points[1], self.trick_points[2]),
            hand_sizes=(self._hands[0].bit_count(), self._hands[1].bit_count(), self._hands[2].bit_count()),
            result=self.result, ruleset=self.ruleset.name,
        )

    # --------------------------------------------------------------- records
    def to_record(self) -> dict[str, Any]:
        """A JSON-ready record; the skat is listed top card first."""
        return {
            "format": "skat-game", "version": 1, "variant": "tournee", "ruleset": self.ruleset.to_json(),
            "seed": self.seed,
            "hands": [[c.name for c in CardSet.from_mask(h)] for h in self.initial_hands],
            "skat": [Card(c).name for c in self.skat_order],
            "actions": [[s, str(a)] for s, a in self.history],
            "result": None if self.result is None else self.result.to_json(),
        }

    @classmethod
    def from_record(cls, record: dict[str, Any]) -> TourneeGame:
        """Rebuild a game from :meth:`to_record` output by replaying every action."""
        ruleset = record_ruleset(record, TOURNEE)
        if ruleset.variant != "tournee":
            raise RecordError(f"a Tournee record needs a Tournee rule set, not {ruleset.name!r} "
                              f"(variant={ruleset.variant!r})")
        try:
            game = cls(seed=record.get("seed"), hands=record["hands"], skat=list(record["skat"]), ruleset=ruleset)
            game._replay(record["actions"])
        except RecordError:
            raise
        except (KeyError, TypeError, ValueError) as exc:
            raise RecordError(f"malformed Tournee record: {exc}") from None
        return game


VARIANT = Variant(
    name="tournee", title="Tournee Skat (historical)", seats=3, game_class=TourneeGame,
    parse_action=parse_tournee_action,
    start=lambda seed, rules, **options: TourneeGame(seed, ruleset=rules or TOURNEE, **options),
    load=TourneeGame.from_record, owns=skat_record_owner("tournee"),
)
"""Tournee Skat as a variant (:mod:`skat.variants.registry`)."""
