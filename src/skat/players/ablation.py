"""Players that leave out one part of ``strong``: what each part is worth, measured in the arena.

Each factory takes a seed like a level (``skat arena --players strong,skat.players.ablation:NAME``):

* :func:`strong_simulated_bidding`: ``strong``'s card play with the bidding, skat decision and discard
  by double-dummy simulation (:class:`skat.players.bidding.SimulationBidder`), as ``strong`` bid until
  the learned bidder (:mod:`skat.players.learned`) measured better.
"""

from __future__ import annotations

from skat.players.pimc import PIMCPlayer

__all__ = ["strong_simulated_bidding"]


def strong_simulated_bidding(seed: int | None = None) -> PIMCPlayer:
    """``strong`` with its earlier bidding by simulation (40 worlds and 0.5 s a card; bidding 1.0 s)."""
    player = PIMCPlayer(seed, worlds=40, min_worlds=4, time_budget=0.5, bidding=True)
    player.name = "strong-simulated-bidding"
    return player
