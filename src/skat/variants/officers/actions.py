"""The action of Officers' Skat that standard Skat lacks: choosing Ramsch.

Everything else reuses :mod:`skat.rules.actions`: :class:`~skat.rules.actions.Declare` with a
:class:`~skat.rules.contract.Contract` chooses a suit, Grand or Null; :class:`~skat.rules.actions.Pass`
passes the choice or declines Kontra/Re; :data:`~skat.rules.actions.KONTRA` and :data:`~skat.rules.actions.RE`
(the standard Kontra and Re, tokens ``kontra``/``contra`` and ``re``/``rekontra``) double the score; Bid,
Hold, PickUp and Discard run Admiral's auction and skat; :class:`~skat.rules.actions.Play` plays a card.
"""

from __future__ import annotations

from dataclasses import dataclass

from skat.errors import IllegalActionError
from skat.rules.actions import KONTRA, RE, Action, check_token, parse_action

__all__ = ["ChooseRamsch", "RAMSCH", "parse_officers_action"]


@dataclass(frozen=True, slots=True)
class ChooseRamsch(Action):
    """The chooser picks Ramsch (by agreement): the player with fewer card points wins."""

    token = "ramsch"


RAMSCH = ChooseRamsch()
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
