"""The actions of Officers' Skat that standard Skat lacks: choosing Ramsch, Kontra and Re.

Everything else reuses :mod:`skat.rules.actions`: :class:`~skat.rules.actions.Declare` with a
:class:`~skat.rules.contract.Contract` chooses a suit, Grand or Null; :class:`~skat.rules.actions.Pass`
passes the choice or declines Kontra/Re; Bid, Hold, PickUp and Discard run Admiral's auction and
skat; :class:`~skat.rules.actions.Play` plays a card.
"""

from __future__ import annotations

from dataclasses import dataclass

from skat.errors import IllegalActionError
from skat.rules.actions import Action, check_token, parse_action

__all__ = ["ChooseRamsch", "Kontra", "Re", "RAMSCH", "KONTRA", "RE", "parse_officers_action"]


@dataclass(frozen=True, slots=True)
class ChooseRamsch(Action):
    """The chooser picks Ramsch (by agreement): the player with fewer card points wins."""

    token = "ramsch"


@dataclass(frozen=True, slots=True)
class Kontra(Action):
    """The player who did not choose doubles the score."""

    token = "kontra"


@dataclass(frozen=True, slots=True)
class Re(Action):
    """The chooser answers Kontra and doubles again."""

    token = "re"


RAMSCH, KONTRA, RE = ChooseRamsch(), Kontra(), Re()
_OWN = {"ramsch": RAMSCH, "kontra": KONTRA, "contra": KONTRA, "re": RE, "rekontra": RE}


def parse_officers_action(token: str) -> Action:
    """Read a token: ``ramsch``, ``kontra``, ``re``, or any token of :func:`skat.rules.actions.parse_action`
    (``declare hearts``, ``pass``, ``18``, ``hold``, ``pickup``, ``discard C7 D7``, ``CJ``)."""
    key = check_token(token).strip().lower()
    if key in _OWN:
        return _OWN[key]
    try:
        return parse_action(token)
    except IllegalActionError as exc:
        raise IllegalActionError(f"{exc}; in Officers' Skat also 'ramsch', 'kontra' or 're'") from None
