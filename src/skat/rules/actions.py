"""Actions a seat can take, each with a short text token for records and protocols."""

from __future__ import annotations

from dataclasses import dataclass, field

from skat.cards import Card, CardNotationError, CardSet
from skat.errors import IllegalActionError
from skat.rules.contract import Contract, DeclarationError

__all__ = [
    "Action", "Bid", "Hold", "Pass", "PickUp", "Discard", "Declare", "Play",
    "Claim", "Concede", "Resign", "Kontra", "Re", "Push", "Turn", "Accept", "Reject", "parse_action",
    "HOLD", "PASS", "PICKUP", "CLAIM", "CONCEDE", "RESIGN", "KONTRA", "RE", "PUSH", "TURN", "ACCEPT", "REJECT",
    "PLAY", "check_token", "MAX_TOKEN_LENGTH",
]


class Action:
    """Base class of all actions. ``str(action)`` is its token; :func:`parse_action` reads it back."""

    __slots__ = ()
    token: str

    def __str__(self) -> str:
        return self.token


@dataclass(frozen=True, slots=True)
class Bid(Action):
    """Name a bid value in the auction (or, for forehand alone, play at the lowest value)."""

    value: int

    @property
    def token(self) -> str:  # type: ignore[override]
        return str(self.value)


@dataclass(frozen=True, slots=True)
class Hold(Action):
    """Answer a bid with "yes": hold the same value."""

    token = "hold"


@dataclass(frozen=True, slots=True)
class Pass(Action):
    """Pass in the auction (final)."""

    token = "pass"


@dataclass(frozen=True, slots=True)
class PickUp(Action):
    """The declarer picks up the skat (then discards two cards)."""

    token = "pickup"


@dataclass(frozen=True, slots=True)
class Discard(Action):
    """The declarer puts two cards away after picking up the skat."""

    cards: CardSet

    @property
    def token(self) -> str:  # type: ignore[override]
        return "discard " + self.cards.iss()


@dataclass(frozen=True, slots=True)
class Declare(Action):
    """Announce the game. A hand game is declared directly instead of picking up the skat."""

    contract: Contract

    @property
    def token(self) -> str:  # type: ignore[override]
        return "declare " + str(self.contract)


@dataclass(frozen=True, slots=True)
class Play(Action):
    """Play a card to the trick."""

    card: Card
    index: int = field(init=False, repr=False, compare=False)
    """The card's number as a plain int (fast path)."""

    def __post_init__(self) -> None:
        card = Card(self.card)
        object.__setattr__(self, "card", card)
        object.__setattr__(self, "index", int(card))

    @property
    def token(self) -> str:  # type: ignore[override]
        return self.card.name


@dataclass(frozen=True, slots=True)
class Claim(Action):
    """The declarer lays his cards open and claims the remaining tricks."""

    token = "claim"


@dataclass(frozen=True, slots=True)
class Concede(Action):
    """A defender gives up; when both have, the remaining tricks go to the declarer."""

    token = "concede"


@dataclass(frozen=True, slots=True)
class Resign(Action):
    """The declarer gives up; the remaining tricks go to the defenders."""

    token = "resign"


@dataclass(frozen=True, slots=True)
class Kontra(Action):
    """A defender doubles the score of the game (house rule, docs/rules.md 5.3)."""

    token = "kontra"


@dataclass(frozen=True, slots=True)
class Re(Action):
    """The declarer answers Kontra and doubles the score again (house rule, docs/rules.md 5.3)."""

    token = "re"


@dataclass(frozen=True, slots=True)
class Push(Action):
    """Schieberamsch: pass the skat on to the next player without looking at it (docs/rules.md 6)."""

    token = "push"


@dataclass(frozen=True, slots=True)
class Turn(Action):
    """Tournee Skat: turn up the top card of the skat to fix trumps (docs/rules.md 10.2)."""

    token = "turn"


@dataclass(frozen=True, slots=True)
class Accept(Action):
    """Tournee Skat: accept the turned card's suit as trumps."""

    token = "accept"


@dataclass(frozen=True, slots=True)
class Reject(Action):
    """Tournee Skat: "passt mir nicht": reject the first turned card; the second one fixes trumps."""

    token = "reject"


HOLD, PASS, PICKUP = Hold(), Pass(), PickUp()
CLAIM, CONCEDE, RESIGN = Claim(), Concede(), Resign()
KONTRA, RE, PUSH = Kontra(), Re(), Push()
TURN, ACCEPT, REJECT = Turn(), Accept(), Reject()
PLAY: tuple[Play, ...] = tuple(Play(c) for c in Card)
"""The 32 play actions, indexed by card number."""

_SIMPLE = {"hold": HOLD, "yes": HOLD, "y": HOLD, "pass": PASS, "p": PASS, "pickup": PICKUP,
           "claim": CLAIM, "concede": CONCEDE, "resign": RESIGN, "kontra": KONTRA, "contra": KONTRA,
           "re": RE, "rekontra": RE, "push": PUSH, "turn": TURN, "accept": ACCEPT, "reject": REJECT,
           "passt": REJECT, "passt mir nicht": REJECT}


MAX_TOKEN_LENGTH = 80
"""The longest action token that is read (the longest real one, a declaration, has under 40 characters)."""
MAX_BID_DIGITS = 4
"""A bid value has at most this many digits (the highest value on any ladder has three)."""
_ASCII_DIGITS = frozenset("0123456789")


def check_token(token: object) -> str:
    """``token`` as a string that may be an action token; anything else raises :class:`IllegalActionError`
    saying what a token is (shared by the variants' parsers)."""
    if not isinstance(token, str):
        raise IllegalActionError(f"an action token is a string such as '18', 'pass' or 'CJ', not {type(token).__name__}")
    if len(token) > MAX_TOKEN_LENGTH:
        raise IllegalActionError(f"an action token has at most {MAX_TOKEN_LENGTH} characters, this one has "
                                 f"{len(token)}")
    if not token.strip():
        raise IllegalActionError("empty action token: send a bid value such as '18', 'pass', 'pickup' or a card "
                                 "such as 'CJ'")
    return token


def _bid(t: str, token: str) -> Bid | None:
    """The bid of a token made of digits only (ASCII ``0``-``9``); None for any other token."""
    if not set(t) <= _ASCII_DIGITS:
        return None
    if len(t.lstrip("0")) > MAX_BID_DIGITS:
        raise IllegalActionError(f"bad bid {token!r}: bid values have at most {MAX_BID_DIGITS} digits, such as '18'")
    return Bid(int(t))


def _words_after(t: str, word: str) -> str | None:
    """The rest of ``t`` when its first letters are ``word`` (any case), else None."""
    head = t[:len(word)]
    return t[len(word):] if head.isascii() and head.lower() == word else None


def parse_action(token: str) -> Action:
    """Read an action token: ``18``, ``hold``, ``pass``, ``pickup``, ``discard CT DT``,
    ``declare grand hand``, ``CJ``, ``claim``, ``concede``, ``resign``; the house rules' ``kontra``,
    ``re`` and ``push`` (Schieberamsch); Tournee Skat's ``turn``, ``accept`` and ``reject``.

    Leading and trailing spaces and the case of words do not matter. A bid value is written with the
    ASCII digits ``0``-``9`` only (no sign, point or other script's digits). Anything that is no action
    token (also a token that is not a string, empty, or over :data:`MAX_TOKEN_LENGTH` characters)
    raises :class:`IllegalActionError` saying what is expected."""
    t = check_token(token).strip()
    low = " ".join(t.lower().split())
    if low in _SIMPLE:
        return _SIMPLE[low]
    bid = _bid(t, token)
    if bid is not None:
        return bid
    rest = _words_after(t, "discard")
    if rest is not None:
        try:
            cards = CardSet(rest)
        except (CardNotationError, ValueError, TypeError) as exc:
            raise IllegalActionError(f"bad discard {token!r}: {exc}") from None
        return Discard(cards)
    rest = _words_after(t, "declare")
    if rest is not None:
        try:
            return Declare(Contract.parse(rest))
        except (DeclarationError, ValueError, TypeError) as exc:
            raise IllegalActionError(f"bad declaration {token!r}: {exc}") from None
    try:
        return PLAY[Card.parse(t)]
    except (CardNotationError, ValueError, TypeError):
        if any(c.isnumeric() for c in t) and not any(c.isalpha() for c in t):
            raise IllegalActionError(f"bad bid {token!r}: a bid value is a whole number written with the digits "
                                     "0-9 only, such as '18' (no sign, point, space or other digits)") from None
        raise IllegalActionError(
            f"unknown action {token!r}: expected a bid value, hold, pass, pickup, 'discard C1 C2', "
            "'declare <game> [hand] [schneider|schwarz|ouvert]', a card such as CJ, claim, concede, resign, "
            "kontra, re, push, turn, accept or reject"
        ) from None
