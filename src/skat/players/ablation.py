"""Players that leave out one part of ``strong``: what each part is worth, measured in the arena.

Each factory takes a seed like a level (``skat arena --players strong,skat.players.ablation:NAME``):

* :func:`strong_simulated_bidding`: ``strong``'s card play with the bidding, skat decision and discard
  by double-dummy simulation (:class:`skat.players.bidding.SimulationBidder`), as ``strong`` bid until
  the learned bidder (:mod:`skat.players.learned`) measured better.
* :func:`strong_inference`: ``strong`` whose card play searches the worlds the auction makes likely
  (:mod:`skat.players.inference`), drawn from four times as many.
* :func:`strong_play_inference`: the same with the card plays' likelihood alone
  (:class:`skat.players.inference.PlayLikelihood`: smearing to the partner, saving points otherwise).
* :func:`strong_alphamu`: ``strong`` whose declarer chooses among its cards by alpha-mu search
  (:mod:`skat.players.alphamu`, two own moves deep, 20 worlds) in the last four tricks.
* :func:`strong_close_worlds`: ``strong`` that solves up to 40 more worlds, within its time budget, when
  the best card is not clearly ahead of the next (:func:`skat.players.pimc.close_call`).
"""

from __future__ import annotations

from skat.players.pimc import PIMCPlayer

__all__ = ["strong_simulated_bidding", "strong_inference", "strong_play_inference", "strong_close_worlds",
           "strong_alphamu"]


def strong_simulated_bidding(seed: int | None = None) -> PIMCPlayer:
    """``strong`` with its earlier bidding by simulation (40 worlds and 0.5 s a card; bidding 1.0 s)."""
    player = PIMCPlayer(seed, worlds=40, min_worlds=4, time_budget=0.5, bidding=True)
    player.name = "strong-simulated-bidding"
    return player


def strong_inference(seed: int | None = None) -> PIMCPlayer:
    """``strong`` with the worlds of its card play drawn by the auction's likelihood (a pool of 160 for 40)."""
    from skat.players.inference import AuctionLikelihood
    from skat.players.levels import make_level

    player = make_level("strong", seed)
    player.inference = AuctionLikelihood(temperature=10.0)
    player.pool = 4
    player.name = "strong-inference"
    return player


def strong_play_inference(seed: int | None = None) -> PIMCPlayer:
    """``strong`` with the worlds of its card play drawn by the card plays' likelihood (160 for 40)."""
    from skat.players.inference import PlayLikelihood
    from skat.players.levels import make_level

    player = make_level("strong", seed)
    player.inference = PlayLikelihood(sharpness=2.0)
    player.pool = 4
    player.name = "strong-play-inference"
    return player


def strong_close_worlds(seed: int | None = None) -> PIMCPlayer:
    """``strong`` with up to 40 more worlds on a close call."""
    from skat.players.levels import make_level

    player = make_level("strong", seed)
    player.close_worlds = 40
    player.name = "strong-close-worlds"
    return player


def strong_alphamu(seed: int | None = None) -> PIMCPlayer:
    """``strong`` with alpha-mu (depth 2, 20 worlds) for the declarer's last four tricks."""
    from skat.players.levels import make_level

    player = make_level("strong", seed)
    player.alphamu_tricks = 4
    player.name = "strong-alphamu"
    return player
