"""A card-play position for the solver: who holds what, the trick on the table, what is taken.

:class:`Position` is an immutable value checked on construction: every card at most once, hand
sizes that fit the trick on the table, a trick that follows suit where it had to, tricks and card
points that add up to a whole deal.  :meth:`Position.from_json` reads the JSON of ``skat solve``;
:meth:`Position.from_game` takes the position of a :class:`skat.deal.game.Game` in its play phase.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from skat.cards import Card, CardNotationError, CardSet, iter_mask, mask_points
from skat.errors import SkatError
from skat.rules.ranking import GameType, legal_mask, winner_index

if TYPE_CHECKING:
    from skat.deal.game import Game

__all__ = ["Position", "PositionError"]

_FIELDS = (
    "game", "declarer", "hands", "trick", "leader",
    "declarer_points", "defender_points", "declarer_tricks", "defender_tricks",
)


class PositionError(SkatError, ValueError):
    """A position that cannot occur in a game of Skat, or JSON that does not describe one."""


@dataclass(frozen=True)
class Position:
    """A position in the card play, all hands visible (double dummy).

    ``hands`` are three card masks by seat (0 forehand, 1 middlehand, 2 rearhand); ``trick`` the
    cards already played to the current trick, in order; ``leader`` the seat that led it, or leads
    next when it is empty.  Card points and tricks taken so far count the skat (or the discard)
    for the declarer.
    """

    game_type: GameType
    declarer: int
    hands: tuple[int, int, int]
    trick: tuple[int, ...] = ()
    leader: int = 0
    declarer_points: int = 0
    defender_points: int = 0
    declarer_tricks: int = 0
    defender_tricks: int = 0

    def __post_init__(self) -> None:
        try:
            gt = GameType(self.game_type) if isinstance(self.game_type, int) else GameType.parse(self.game_type)
        except ValueError as exc:
            raise PositionError(str(exc)) from None
        object.__setattr__(self, "game_type", gt)
        object.__setattr__(self, "hands", tuple(int(h) for h in self.hands))
        object.__setattr__(self, "trick", tuple(int(c) for c in self.trick))
        self._validate()

    # ------------------------------------------------------------------ checks
    def _validate(self) -> None:
        gt = self.game_type
        if gt == GameType.RAMSCH:
            raise PositionError("Ramsch has no declarer; the solver answers questions about a declarer's game")
        for name in ("declarer", "leader"):
            seat = getattr(self, name)
            if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat <= 2:
                raise PositionError(f"{name} must be a seat 0, 1 or 2 (0 is forehand), got {seat!r}")
        for name in ("declarer_points", "defender_points", "declarer_tricks", "defender_tricks"):
            v = getattr(self, name)
            if not isinstance(v, int) or isinstance(v, bool) or v < 0:
                raise PositionError(f"{name} must be a whole number >= 0, got {v!r}")
        if len(self.hands) != 3:
            raise PositionError(f"give three hands (forehand, middlehand, rearhand), got {len(self.hands)}")
        seen = 0
        for seat, hand in enumerate(self.hands):
            if not 0 <= hand <= 0xFFFFFFFF:
                raise PositionError(f"hand of seat {seat} is not a 32-bit card mask")
            twice = seen & hand
            if twice:
                raise PositionError(f"card {Card((twice & -twice).bit_length() - 1).name} is in more than one hand")
            seen |= hand
        if len(self.trick) > 2:
            raise PositionError(
                f"the trick holds {len(self.trick)} cards; a trick with three cards is complete: "
                "give the position after it, with its points and trick counted for the side that took it"
            )
        for c in self.trick:
            if not 0 <= c <= 31:
                raise PositionError(f"{c!r} is not a card")
            if seen >> c & 1:
                raise PositionError(f"card {Card(c).name} is both in the trick and in a hand")
            seen |= 1 << c
        sizes = [h.bit_count() for h in self.hands]
        n = len(self.trick)
        to_move = (self.leader + n) % 3
        left = sizes[to_move]
        expected = [0, 0, 0]
        for i in range(3):
            seat = (self.leader + i) % 3
            expected[seat] = left - 1 if i < n else left
        if sizes != expected:
            raise PositionError(
                f"hand sizes {sizes} do not fit the trick: seat {self.leader} led, {n} card(s) are on the table, "
                f"so the seats must hold {expected} cards (those who played to the trick one card fewer)"
            )
        if left == 0:
            raise PositionError("the hands are empty: there is nothing left to play")
        if left > 10:
            raise PositionError(f"a hand holds at most 10 cards in the card play, seat {to_move} holds {left}")
        taken = self.declarer_tricks + self.defender_tricks
        if taken + left != 10:
            raise PositionError(
                f"tricks do not add up: {self.declarer_tricks} + {self.defender_tricks} tricks taken and {left} "
                f"still to play make {taken + left}, but a deal has 10 tricks"
            )
        for i in range(1, n):
            seat = (self.leader + i) % 3
            card = self.trick[i]
            # the seat held its hand and the card; the card must have been legal then
            legal = legal_mask(gt, self.hands[seat] | 1 << card, self.trick[0])
            if not legal >> card & 1:
                raise PositionError(
                    f"seat {seat} played {Card(card).name} to a trick led with {Card(self.trick[0]).name} "
                    f"but still holds {CardSet.from_mask(legal).iss()}: it had to follow suit"
                )
        if gt == GameType.NULL:
            if self.declarer_tricks:
                raise PositionError("the null declarer has already taken a trick: the game is lost and play has ended")
        else:
            in_play = mask_points(seen)
            total = self.declarer_points + self.defender_points + in_play
            if total != 120:
                raise PositionError(
                    f"card points do not add up: declarer {self.declarer_points} + defenders {self.defender_points} "
                    f"+ {in_play} in the hands and the trick = {total}, but the 32 cards hold 120; count the points "
                    "of the tricks taken, and the skat (or discard) for the declarer"
                )

    # -------------------------------------------------------------- properties
    @property
    def to_move(self) -> int:
        """The seat whose turn it is."""
        return (self.leader + len(self.trick)) % 3

    @property
    def tricks_left(self) -> int:
        """Tricks still to be completed, the current one included."""
        return 10 - self.declarer_tricks - self.defender_tricks

    def legal_cards(self) -> CardSet:
        """The cards the player to move may play."""
        lead = self.trick[0] if self.trick else -1
        return CardSet.from_mask(legal_mask(self.game_type, self.hands[self.to_move], lead))

    def play(self, card: Card | int | str) -> Position:
        """The position after the player to move plays ``card`` (a completed trick is scored)."""
        c = int(Card.parse(card) if isinstance(card, str) else Card(card))
        if not self.legal_cards().mask >> c & 1:
            raise PositionError(f"{Card(c).name} is not a legal card for seat {self.to_move} here")
        seat = self.to_move
        hands = list(self.hands)
        hands[seat] &= ~(1 << c)
        trick = self.trick + (c,)
        if len(trick) < 3:
            return Position(self.game_type, self.declarer, (hands[0], hands[1], hands[2]), trick, self.leader,
                            self.declarer_points, self.defender_points, self.declarer_tricks, self.defender_tricks)
        winner = (self.leader + winner_index(self.game_type, trick)) % 3
        pts = mask_points((1 << trick[0]) | (1 << trick[1]) | (1 << trick[2]))
        dp, fp, dt, ft = self.declarer_points, self.defender_points, self.declarer_tricks, self.defender_tricks
        if winner == self.declarer:
            dp, dt = dp + pts, dt + 1
        else:
            fp, ft = fp + pts, ft + 1
        if self.game_type == GameType.NULL and dt:
            raise PositionError("the null declarer takes this trick: the game ends here")
        if dt + ft == 10:
            raise PositionError("this card ends the deal: there is no position after it")
        return Position(self.game_type, self.declarer, (hands[0], hands[1], hands[2]), (), winner, dp, fp, dt, ft)

    # -------------------------------------------------------------------- JSON
    @classmethod
    def from_json(cls, data: Any) -> Position:
        """Read the JSON object of ``skat solve`` (cards in ISS notation such as ``CJ``, ``HT``)."""
        if not isinstance(data, dict):
            raise PositionError("expected a JSON object with the fields " + ", ".join(_FIELDS))
        unknown = sorted(set(data) - set(_FIELDS))
        if unknown:
            raise PositionError(f"unknown field(s) {', '.join(unknown)}; the fields are {', '.join(_FIELDS)}")
        missing = [k for k in ("game", "declarer", "hands", "leader") if k not in data]
        if missing:
            raise PositionError(f"missing field(s): {', '.join(missing)}")
        try:
            gt = GameType.parse(data["game"]) if isinstance(data["game"], str) else None
        except ValueError:
            gt = None
        if gt is None or gt == GameType.RAMSCH:
            raise PositionError(
                f"game must be one of clubs, spades, hearts, diamonds, grand, null; got {data['game']!r}"
            )
        hands = data["hands"]
        if not isinstance(hands, list) or len(hands) != 3:
            raise PositionError("hands must be a list of three card lists: forehand, middlehand, rearhand")
        masks = []
        for seat, hand in enumerate(hands):
            masks.append(_card_mask(hand, f"hands[{seat}]"))
        trick = _card_list(data.get("trick", []), "trick")
        ints = {}
        for name in ("declarer", "leader", "declarer_points", "defender_points", "declarer_tricks", "defender_tricks"):
            v = data.get(name, 0)
            if not isinstance(v, int) or isinstance(v, bool):
                raise PositionError(f"{name} must be a whole number, got {v!r}")
            ints[name] = v
        return cls(
            game_type=gt, declarer=ints["declarer"], hands=(masks[0], masks[1], masks[2]), trick=tuple(trick),
            leader=ints["leader"], declarer_points=ints["declarer_points"], defender_points=ints["defender_points"],
            declarer_tricks=ints["declarer_tricks"], defender_tricks=ints["defender_tricks"],
        )

    def to_json(self) -> dict[str, Any]:
        """The JSON object that :meth:`from_json` reads."""
        return {
            "game": self.game_type.label,
            "declarer": self.declarer,
            "hands": [[Card(c).name for c in iter_mask(h)] for h in self.hands],
            "trick": [Card(c).name for c in self.trick],
            "leader": self.leader,
            "declarer_points": self.declarer_points,
            "defender_points": self.defender_points,
            "declarer_tricks": self.declarer_tricks,
            "defender_tricks": self.defender_tricks,
        }

    @classmethod
    def from_game(cls, game: Game) -> Position:
        """The position of a game in its play phase, all hands visible."""
        from skat.deal.game import Phase

        if game.phase is not Phase.PLAY or game.declarer is None or game.contract is None:
            raise PositionError(f"the game is in phase {game.phase}, not in the card play")
        decl = game.declarer
        skat = game.discard if game.skat_taken else game.initial_skat
        return cls(
            game_type=game.contract.game_type,
            declarer=decl,
            hands=(game.hand(0).mask, game.hand(1).mask, game.hand(2).mask),
            trick=tuple(game.trick),
            leader=game.trick_leader,
            declarer_points=game.trick_points[decl] + mask_points(skat or 0),
            defender_points=sum(game.trick_points) - game.trick_points[decl],
            declarer_tricks=game.tricks_won[decl],
            defender_tricks=sum(game.tricks_won) - game.tricks_won[decl],
        )


def _card_list(items: Any, where: str) -> list[int]:
    if not isinstance(items, list):
        raise PositionError(f"{where} must be a list of cards such as [\"CJ\", \"HT\"], got {items!r}")
    out = []
    for item in items:
        if not isinstance(item, str):
            raise PositionError(f"{where}: {item!r} is not a card; write cards as strings such as \"CJ\"")
        try:
            out.append(int(Card.parse(item)))
        except CardNotationError as exc:
            raise PositionError(f"{where}: {exc}") from None
    return out


def _card_mask(items: Any, where: str) -> int:
    mask = 0
    for c in _card_list(items, where):
        if mask >> c & 1:
            raise PositionError(f"{where}: card {Card(c).name} is listed twice")
        mask |= 1 << c
    return mask

