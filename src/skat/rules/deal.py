"""The deal (docs/rules.md 1.4): a seeded shuffle of the 32 cards, dealt in packets of 3, skat 2, 4, 3.

A seed stands for a deal number (0 <= n < 32!) drawn by SplitMix64, so a seed gives the same deal on
any machine; the number's digits in the factorial number system give the order of the deck, and
the deck is dealt by :data:`DEAL_PACKETS`. A seed of None deals at random. The rule exists once, in
the compiled rules kernel (:mod:`skat.rules.kernel`), which this module re-exports: the standard
engine's core deals with the same :func:`deal_masks`, Officers' Skat lays out the same
:func:`deal_deck`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from skat._compiled import compiled_module

__all__ = ["DEAL_PACKETS", "deal_number", "deck_order", "deal_deck", "deal_masks"]

if TYPE_CHECKING:  # the source, typed by its Cython annotations (typings/cython.pyi)
    from skat.rules import kernel as _kernel
else:
    _kernel = compiled_module("skat.rules.kernel")  # the one place of the dealing rule (compiled)
DEAL_PACKETS: tuple[int, ...] = _kernel.DEAL_PACKETS
"""Where the cards of a shuffled deck go, in order: packets of 3 to forehand (0), middlehand (1) and
rearhand (2), 2 to the skat (3), then 4 each, then 3 each."""
deal_number = _kernel.deal_number
deck_order = _kernel.deck_order
deal_deck = _kernel.deal_deck
deal_masks = _kernel.deal_masks
