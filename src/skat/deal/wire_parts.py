"""The parts of the protocol's JSON (docs/protocol.md) that every variant's views share: card lists, contracts,
results and tricks, both ways.

:mod:`skat.records.wire` writes the views of Skat with them and each variant whose views are its own (Officers'
Skat: :mod:`skat.variants.officers.wire`) writes its views with them too, so a card list or a trick reads alike
in every view the server sends.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from skat.cards import CARD_NAMES, Card, CardSet, mask_names
from skat.rules.contract import Contract
from skat.rules.ranking import GameType

__all__ = ["card_names", "card_set", "contract_json", "contract_from_json", "result_json", "tricks_json",
           "tricks_from_json"]


def card_names(cards: Iterable[Card] | None) -> list[str] | None:
    """Card names in their order (a :class:`CardSet` in its own order); None stays None."""
    if cards is None:
        return None
    if isinstance(cards, CardSet):
        return mask_names(cards.mask)
    return [CARD_NAMES[c] for c in cards]


def card_set(names: list[str] | None) -> CardSet | None:
    """The card set of :func:`card_names` output; None stays None."""
    return None if names is None else CardSet([Card.parse(n) for n in names])


def contract_json(contract: Contract | None) -> dict[str, Any] | None:
    return None if contract is None else contract.to_json()


def contract_from_json(data: dict[str, Any] | None) -> Contract | None:
    """The contract of :meth:`Contract.to_json` output (None stays None)."""
    if data is None:
        return None
    return Contract(GameType.parse(data["game"]), hand=data["hand"], schneider=data["schneider"],
                    schwarz=data["schwarz"], ouvert=data["ouvert"])


def result_json(result: Any) -> dict[str, Any] | None:
    """A result's ``to_json()``; None stays None."""
    if result is None:
        return None
    data: dict[str, Any] = result.to_json()
    return data


def tricks_json(tricks: Sequence[tuple[int, tuple[Card, ...], int]]) -> list[list[Any]]:
    """Completed tricks as ``[leader, [cards in play order], winner]``."""
    return [[ld, [CARD_NAMES[c] for c in cs], w] for ld, cs, w in tricks]


def tricks_from_json(data: list[list[Any]]) -> list[tuple[int, tuple[Card, ...], int]]:
    """The tricks of :func:`tricks_json` output."""
    return [(ld, tuple(Card.parse(c) for c in cs), w) for ld, cs, w in data]
