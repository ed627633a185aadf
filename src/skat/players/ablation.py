"""Players that differ from ``strong`` in one part: what each part is worth, measured in the arena.

Each factory takes a seed like a level (``skat arena --players strong,skat.players.ablation:NAME``).
:func:`strong_plain` is ``strong`` without the inference (every consistent world as likely); the others
add one part to it, so that a match against it measures that part alone:

* :func:`strong_simulated_bidding`: the card play of :func:`strong_plain` with the bidding, skat decision
  and discard by double-dummy simulation (:class:`skat.players.bidding.SimulationBidder`), as ``strong``
  bid until the learned bidder (:mod:`skat.players.learned`) measured better.
* :func:`strong_inference`: the worlds drawn by the auction's likelihood
  (:class:`skat.players.inference.AuctionLikelihood`), 40 of 160.
* :func:`strong_play_inference`: the worlds drawn by the card plays' likelihood alone
  (:class:`skat.players.inference.PlayLikelihood`: smearing to the partner, saving points otherwise).
* :func:`strong_alphamu`: the declarer chooses among its cards by alpha-mu search
  (:mod:`skat.players.alphamu`, two own moves deep, 20 worlds) in the last four tricks.
* :func:`strong_close_worlds`: up to 40 more worlds, within the time budget, when the best card is not
  clearly ahead of the next (:func:`skat.players.pimc.close_call`).

``strong`` itself (:mod:`skat.players.levels`) is :func:`strong_plain` with both likelihoods; :func:`strong_2026_12`
keeps it as it was before the learned card-play model (issue 31 compares the re-tuned ``strong`` with it), and
:func:`strong_policy_inference` is that ``strong`` with the card plays weighed by the learned model's policy
(:class:`skat.players.inference.PolicyLikelihood`) instead of the hand-written likelihood;
:func:`strong_policy_prune` adds the search of the policy's three best cards only in the first seven tricks, with
up to 60 worlds in the same time budget (today's ``strong``, with the Ramsch search); :func:`strong_symmetric_prune`
prunes by the suit-symmetric policy instead. :func:`medium_heuristic_ramsch` is ``medium`` playing a Ramsch by the
heuristic's rules of thumb, as every level did until December 2026 (the levels search a Ramsch now,
:func:`skat.players.pimc.ramsch_card_values`); :func:`strong_2026_12` keeps that too.
:func:`medium_ramsch_with_skat` counts the skat's points for whoever takes the last trick in its Ramsch search
(measured worse; the levels leave them out), :func:`medium_without_durchmarsch` never plays on for a Durchmarsch.
:func:`strong_selfplay_model` is ``strong`` with the card-play model retrained with a corpus of its own play;
:func:`strong_playout_model` today's ``strong`` with the model trained on the values of its own playouts,
:func:`strong_playout_model_defence` that in defence alone (:class:`ByRole`); :func:`strong_playout_model_2` the
second round of that policy iteration (:data:`PLAYOUT_MODEL_2`);
:func:`strong_exact_ties` is ``strong`` with :func:`strong_exact_early` and :func:`strong_policy_ties` together,
:func:`strong_schneider_ties` that breaking the yes/no search's ties by Schneider first;
:func:`strong_posterior_draws` is ``strong`` searching a sample of the posterior (worlds drawn with replacement).

Since 6 December 2026 ``strong`` values every legal card by playouts of the learned policy
(:func:`strong_playouts_wide`, :mod:`skat.players.playout`); :func:`strong_solver` keeps it as it was before, every
world solved double dummy, and the ablations of the days before (those built by ``_solver_variant``: the pruning's
width, the ties, the exact card points, the draws, the margins, the playouts) change one thing of that player, so
they stay what was measured; their docstrings say ``strong`` for it. :func:`expert_solver` is ``expert`` before the
playouts.

Since the evening of 6 December 2026 ``strong`` and ``expert`` play with the policy iteration's second
model (:data:`skat.players.cardmodel.LEVEL_MODEL`, :func:`strong_playout_model_2`); :func:`strong_2026_12_06` and
:func:`expert_2026_12_06` keep them as they were before, with the shipped model, and every ablation built on a level
(``_level_variant``) starts from that player, so it stays what was measured.

Since 7 December 2026 ``strong``'s declarer searches its own 160 worlds drawn from 320 (:func:`strong_declarer_worlds`,
``PIMCPlayer.declarer_worlds``); :func:`strong_2026_12_07` keeps it as it was before. ``_level_variant`` leaves the
declarer's worlds unset, so the ablations of that morning that say "today's ``strong``"
(:func:`strong_playout_model_3`, :func:`strong_solve_from_3`, :func:`strong_160_worlds`) change one thing of
:func:`strong_2026_12_07`, as measured.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from importlib import resources
from types import MappingProxyType

from skat.deal.game import Phase, SeatView
from skat.players.cardmodel import LEARNED_MODEL, LEVEL_MODEL, SHIPPED_MODEL, level_card_model, shipped_card_model
from skat.players.learned import LearnedBidder, WinModel
from skat.players.pimc import PIMCPlayer
from skat.players.policy import PolicyPlayer
from skat.rules.actions import Action

__all__ = ["strong_plain", "strong_simulated_bidding", "strong_inference", "strong_play_inference",
           "strong_close_worlds", "strong_alphamu", "strong_2026_12", "strong_policy_inference", "strong_policy_prune",
           "strong_symmetric_prune", "medium_heuristic_ramsch", "medium_ramsch_with_skat",
           "medium_without_durchmarsch", "strong_policy_ties",
           "strong_exact_early", "strong_exact_ties", "strong_schneider_ties", "strong_drawn_exact_ties",
           "strong_drawn_exact_ties_80", "expert_drawn_exact_ties",
           "strong_posterior_draws", "strong_selfplay_model", "strong_prune_two", "strong_prune_four", "strong_prune_five",
           "strong_unpruned", "strong_prune_throughout",
           "strong_calibrated_bidding", "strong_playout_defence", "strong_playouts",
           "strong_playouts_wide", "strong_solver", "expert_solver", "SOLVER",
           "strong_playouts_margin_0", "strong_playout_model", "ByRole", "strong_playout_model_defence",
           "strong_playout_model_2", "strong_2026_12_06", "expert_2026_12_06", "learned_level_model",
           "learned_2026_12", "PLAYOUT_MODEL_3", "learned_playout_model_3", "strong_playout_model_3",
           "DECLARER_WORLDS", "DECLARER_POOL", "strong_declarer_worlds",
           "strong_solve_from_3", "strong_160_worlds", "strong_2026_12_07",
           "expert_declarer_worlds", "strong_declarer_320", "strong_searched_discard",
           "strong_declarer_320_searched_discard", "strong_declarer_320_defence_40", "strong_solve_from_6",
           "strong_solve_from_7"]


def _level_variant(level: str, seed: int | None, name: str, **changes: object) -> PIMCPlayer:
    """The searching level ``level`` as it was until the evening of 6 December 2026, with the shipped card-play model
    (:data:`skat.players.cardmodel.SHIPPED_MODEL`) in its search and inference and the same worlds in every role
    (no :attr:`~skat.players.pimc.PIMCPlayer.declarer_worlds`, as until 7 December 2026), and the attributes
    ``changes`` set; named ``name``."""
    from skat.players.levels import LEVELS

    player = LEVELS[level](seed)
    assert isinstance(player, PIMCPlayer)
    before = {"declarer_worlds": None, "declarer_pool": None, **_card_model_changes(SHIPPED_MODEL)}
    for attribute, value in {**before, **changes}.items():
        if not hasattr(player, attribute):
            raise AttributeError(f"{level} has no attribute {attribute!r} to change")
        setattr(player, attribute, value)
    player.name = name
    return player


SOLVER: Mapping[str, object] = MappingProxyType({"playouts": None, "policy_prune": 3, "policy_prune_tricks": 7})
"""What :func:`strong_solver` sets on today's ``strong``: every card valued by the solver in each world, only the
policy's three best cards searched in the first seven tricks."""


def _solver_variant(seed: int | None, name: str, **changes: object) -> PIMCPlayer:
    """:func:`strong_solver` with the attributes ``changes`` set, named ``name``: the player the ablations of 5 and 6
    December 2026 each changed one thing of (their docstrings call it ``strong``)."""
    return _level_variant("strong", seed, name, **{**SOLVER, **changes})


def strong_2026_12_06(seed: int | None = None) -> PIMCPlayer:
    """``strong`` as it was until the evening of 6 December 2026: every legal card valued by playouts, with the
    shipped card-play model (trained on the solver's labels) in the playouts and the inference, before the level model
    (:data:`skat.players.cardmodel.LEVEL_MODEL`, :func:`strong_playout_model_2`)."""
    return _level_variant("strong", seed, "strong-2026-12-06")


def expert_2026_12_06(seed: int | None = None) -> PIMCPlayer:
    """``expert`` as it was until the evening of 6 December 2026 (:func:`strong_2026_12_06`'s card-play model)."""
    return _level_variant("expert", seed, "expert-2026-12-06")


def strong_solver(seed: int | None = None) -> PIMCPlayer:
    """``strong`` as it was on 5 and 6 December 2026, before the playouts: perfect-information Monte Carlo, each
    world solved double dummy after each card, only the policy's three best cards searched in the first seven tricks
    (60 worlds drawn from 240 by the auction's and the policy's likelihoods, the learned bidder)."""
    return _solver_variant(seed, "strong-solver")


def expert_solver(seed: int | None = None) -> PIMCPlayer:
    """``expert`` as it was until 6 December 2026, before the playouts: :func:`strong_solver`'s search with 160
    worlds and 2 s a card."""
    return _level_variant("expert", seed, "expert-solver", **SOLVER)


def strong_plain(seed: int | None = None) -> PIMCPlayer:
    """``strong`` without inference: PIMC with 40 worlds and 0.5 s a card, the learned bidder (margin 5)."""
    player = PIMCPlayer(seed, worlds=40, min_worlds=4, time_budget=0.5, bidding=False)
    player.bidder = LearnedBidder(player.rng, margin=5.0, worlds=20, time_budget=1.0)
    player.name = "strong-plain"
    return player


def strong_simulated_bidding(seed: int | None = None) -> PIMCPlayer:
    """``strong``'s earlier bidding by simulation (40 worlds and 0.5 s a card; bidding 1.0 s)."""
    player = PIMCPlayer(seed, worlds=40, min_worlds=4, time_budget=0.5, bidding=True)
    player.name = "strong-simulated-bidding"
    return player


def strong_inference(seed: int | None = None) -> PIMCPlayer:
    """:func:`strong_plain` with the worlds of its card play drawn by the auction's likelihood (160 for 40)."""
    from skat.players.inference import AuctionLikelihood

    player = strong_plain(seed)
    player.inference = AuctionLikelihood(temperature=10.0)
    player.pool = 4
    player.name = "strong-inference"
    return player


def strong_play_inference(seed: int | None = None) -> PIMCPlayer:
    """:func:`strong_plain` with the worlds drawn by the card plays' likelihood (160 for 40)."""
    from skat.players.inference import PlayLikelihood

    player = strong_plain(seed)
    player.inference = PlayLikelihood(sharpness=2.0)
    player.pool = 4
    player.name = "strong-play-inference"
    return player


def strong_close_worlds(seed: int | None = None) -> PIMCPlayer:
    """:func:`strong_plain` with up to 40 more worlds on a close call."""
    player = strong_plain(seed)
    player.close_worlds = 40
    player.name = "strong-close-worlds"
    return player


def strong_alphamu(seed: int | None = None) -> PIMCPlayer:
    """:func:`strong_plain` with alpha-mu (depth 2, 20 worlds) for the declarer's last four tricks."""
    player = strong_plain(seed)
    player.alphamu_tricks = 4
    player.name = "strong-alphamu"
    return player


def strong_2026_12(seed: int | None = None) -> PIMCPlayer:
    """``strong`` as it was in December 2026 before the learned card play: :func:`strong_plain` with the auction's
    and the hand-written card plays' likelihoods (160 worlds for 40)."""
    from skat.players.inference import AuctionLikelihood, Inference, PlayLikelihood

    player = strong_plain(seed)
    player.inference = Inference(AuctionLikelihood(temperature=10.0), PlayLikelihood(sharpness=2.0))
    player.pool = 4
    player.name = "strong-2026-12"
    return player


def strong_policy_inference(seed: int | None = None) -> PIMCPlayer:
    """:func:`strong_2026_12` with the others' card plays weighed by the learned model's policy."""
    from skat.players.inference import AuctionLikelihood, Inference, PolicyLikelihood

    player = strong_plain(seed)
    player.inference = Inference(AuctionLikelihood(temperature=10.0), PolicyLikelihood())
    player.pool = 4
    player.name = "strong-policy-inference"
    return player


def strong_policy_prune(seed: int | None = None) -> PIMCPlayer:
    """:func:`strong_policy_inference` searching only the policy's three best cards in the first seven tricks, up to
    60 worlds (240 drawn from) in the same 0.5 s."""
    player = strong_policy_inference(seed)
    player.policy_prune, player.policy_prune_tricks = 3, 7
    player.worlds = 60
    player.name = "strong-policy-prune"
    return player


def strong_symmetric_prune(seed: int | None = None) -> PIMCPlayer:
    """``strong`` pruning by the suit-symmetric policy (:meth:`skat.players.cardmodel.CardModel.symmetric_policy`):
    on held-out positions its three best cards hold the search's best one more often (93.7 % against 92.5 %)."""
    return _solver_variant(seed, "strong-symmetric-prune", policy_symmetric=True)


def medium_heuristic_ramsch(seed: int | None = None) -> PIMCPlayer:
    """``medium`` (12 worlds, 0.15 s a card) playing a Ramsch by the heuristic's rules of thumb, not by the search."""
    return _level_variant("medium", seed, "medium-heuristic-ramsch", ramsch_search=False)


def medium_ramsch_with_skat(seed: int | None = None) -> PIMCPlayer:
    """``medium`` whose Ramsch search counts the skat's points for whoever takes the last trick
    (:func:`skat.players.pimc.ramsch_card_values`): measured worse than leaving them out, as the levels do."""
    return _level_variant("medium", seed, "medium-ramsch-with-skat", ramsch_skat=True)


def medium_without_durchmarsch(seed: int | None = None) -> PIMCPlayer:
    """``medium`` never playing on for a Ramsch's Durchmarsch (:attr:`skat.players.pimc.PIMCPlayer.ramsch_durchmarsch`):
    its Ramsch search alone decides, as the levels did before."""
    return _level_variant("medium", seed, "medium-without-durchmarsch", ramsch_durchmarsch=False)


def strong_policy_ties(seed: int | None = None) -> PIMCPlayer:
    """``strong`` breaking the search's ties by the learned policy instead of the heuristic (43 % of the defenders'
    and 67 % of the declarer's card decisions in the play corpora have more than one best card)."""
    return _solver_variant(seed, "strong-policy-ties", policy_ties=True)


def strong_exact_early(seed: int | None = None) -> PIMCPlayer:
    """``strong`` valuing the cards by the declarer's exact card points from seven tricks left (not five): fewer
    cards tie for best (the ties then go to the heuristic), at the price of more search a world."""
    return _solver_variant(seed, "strong-exact-early", points_from_tricks_left=7)


def strong_exact_ties(seed: int | None = None) -> PIMCPlayer:
    """``strong`` with both small changes that measured ahead of it: exact card points from seven tricks left
    (:func:`strong_exact_early`) and the search's ties broken by the learned policy (:func:`strong_policy_ties`);
    the two act mostly apart (the ties of the first three tricks, the values of the last seven)."""
    return _solver_variant(seed, "strong-exact-ties", points_from_tricks_left=7, policy_ties=True)


def strong_schneider_ties(seed: int | None = None) -> PIMCPlayer:
    """:func:`strong_exact_ties` telling the cards tied on the goal apart by Schneider first
    (:attr:`skat.players.pimc.PIMCPlayer.schneider_ties`: in the first three tricks, which of them reaches 90 or
    keeps the declarer below 31 over the same worlds), the policy deciding what is still tied."""
    return _solver_variant(seed, "strong-schneider-ties", points_from_tricks_left=7, policy_ties=True,
                           schneider_ties=True)


def strong_posterior_draws(seed: int | None = None) -> PIMCPlayer:
    """``strong`` drawing its 60 worlds from the pool of 240 with replacement by the likelihood to the power 0.75
    (:func:`skat.players.inference.draw_worlds`, :data:`skat.players.inference.DRAW_POWER`) instead of the 60 most
    likely once each: a sample of the posterior, the likely worlds searched once and counted as often as drawn."""
    from skat.players.inference import DRAW_POWER

    return _solver_variant(seed, "strong-posterior-draws", draw_power=DRAW_POWER)


def strong_drawn_exact_ties(seed: int | None = None) -> PIMCPlayer:
    """The candidate for the next ``strong``: the changes that each measured level or better against ``strong``
    together, :func:`strong_posterior_draws` (60 worlds drawn with replacement by the likelihood to the power
    0.75), :func:`strong_exact_early` (exact card points from seven tricks left) and :func:`strong_policy_ties`
    (the learned policy's favourite among tied cards)."""
    from skat.players.inference import DRAW_POWER

    return _solver_variant(seed, "strong-drawn-exact-ties", draw_power=DRAW_POWER,
                           points_from_tricks_left=7, policy_ties=True)


def strong_drawn_exact_ties_80(seed: int | None = None) -> PIMCPlayer:
    """:func:`strong_drawn_exact_ties` drawing 80 worlds from the same pool of 240 (the time the draws save,
    spent on a smaller Monte Carlo error)."""
    player = strong_drawn_exact_ties(seed)
    player.worlds, player.pool = 80, 3
    player.name = "strong-drawn-exact-ties-80"
    return player


def expert_drawn_exact_ties(seed: int | None = None) -> PIMCPlayer:
    """``expert`` with the changes of :func:`strong_drawn_exact_ties`: 200 worlds drawn with replacement from a pool of
    800 by the likelihood to the power 0.75, exact card points from seven tricks left, the policy's favourite among
    tied cards (2 s a card as ever)."""
    from skat.players.inference import DRAW_POWER

    return _level_variant("expert", seed, "expert-drawn-exact-ties", **{**SOLVER, "draw_power": DRAW_POWER,
                          "worlds": 200, "pool": 4, "points_from_tricks_left": 7, "policy_ties": True})


def strong_prune_two(seed: int | None = None) -> PIMCPlayer:
    """``strong`` searching only the policy's two best cards (not three) in the first seven tricks: more trust in
    the learned policy, whose filter is what the pruning's gain came from (the 60 worlds rarely run out of time)."""
    return _solver_variant(seed, "strong-prune-two", policy_prune=2)


def strong_prune_four(seed: int | None = None) -> PIMCPlayer:
    """``strong`` searching the policy's four best cards (not three) in the first seven tricks."""
    return _solver_variant(seed, "strong-prune-four", policy_prune=4)


def strong_prune_five(seed: int | None = None) -> PIMCPlayer:
    """``strong`` searching the policy's five best cards (not three) in the first seven tricks."""
    return _solver_variant(seed, "strong-prune-five", policy_prune=5)


def strong_unpruned(seed: int | None = None) -> PIMCPlayer:
    """``strong`` searching every legal card (no pruning by the policy; its likelihood still weighs the worlds)."""
    return _solver_variant(seed, "strong-unpruned", policy_prune=0)


def strong_prune_throughout(seed: int | None = None) -> PIMCPlayer:
    """``strong`` searching only the policy's three best cards in every trick, not only the first seven."""
    return _solver_variant(seed, "strong-prune-throughout", policy_prune_tricks=10)


STRONG_BIDDING_MODEL = "win_model_strong.npz"
"""The bidding model with the chances of suit hand games refitted to ``strong``'s own games
(``tools/calibrate_bidding.py``: a Platt correction fitted on nine matches between ``strong`` variants)."""


def strong_calibrated_bidding(seed: int | None = None) -> PIMCPlayer:
    """``strong`` bidding, choosing hand or pickup and declaring with :data:`STRONG_BIDDING_MODEL` (the same card
    play: its inference still judges the others' bids by the shipped model)."""
    return _strong_bidding_with(seed, "strong-calibrated-bidding", model=_strong_bidding_model())


def _strong_bidding_with(seed: int | None, name: str, *, margin: float = 5.0, model: WinModel | None = None,
                         playouts: bool = False) -> PIMCPlayer:
    """:func:`strong_solver` (with ``playouts`` today's ``strong``) with its learned bidder given another ``margin``
    or ``model`` (its own: 5.0, the shipped model)."""
    player = _level_variant("strong", seed, name) if playouts else _solver_variant(seed, name)
    player.bidder = LearnedBidder(player.rng, model, margin=margin, worlds=20, time_budget=1.0)
    return player


def _strong_with_margin(seed: int | None, margin: float, name: str) -> PIMCPlayer:
    return _strong_bidding_with(seed, name, margin=margin)


def strong_margin_0(seed: int | None = None) -> PIMCPlayer:
    """``strong`` bidding every contract whose expected score is above 0 (not 5): more games declared, now that its
    card play wins more of them (the pickups near the margin won 0.66 where the bidder judged 0.63)."""
    return _strong_with_margin(seed, 0.0, "strong-margin-0")


def strong_margin_minus_10(seed: int | None = None) -> PIMCPlayer:
    """``strong`` bidding contracts down to an expected score of -10: a game given up goes to the opponents."""
    return _strong_with_margin(seed, -10.0, "strong-margin-minus-10")


def strong_playout_defence(seed: int | None = None) -> PIMCPlayer:
    """``strong`` whose defenders value the cards by playouts of the learned policy until five tricks are left
    (:mod:`skat.players.playout`: no seat sees through the cards in the middle of the deal), the declarer as
    ``strong``."""
    return _solver_variant(seed, "strong-playout-defence", playouts="defenders")


def strong_playouts(seed: int | None = None) -> PIMCPlayer:
    """``strong`` valuing every role's cards by playouts of the learned policy until five tricks are left."""
    return _solver_variant(seed, "strong-playouts", playouts="all")


def strong_playouts_wide(seed: int | None = None) -> PIMCPlayer:
    """:func:`strong_playouts` spending some of the time the playouts save (their p95 is a tenth of the solver's) on
    every legal card: no pruning by the policy."""
    return _solver_variant(seed, "strong-playouts-wide", playouts="all", policy_prune=0)


def strong_prune_four_margin_0(seed: int | None = None) -> PIMCPlayer:
    """The next ``strong`` candidate: the policy's four best cards searched in the first seven tricks
    (:func:`strong_prune_four`) and bidding down to an expected score of 0 (:func:`strong_margin_0`), the two
    changes that measured best against ``strong`` in the third week."""
    player = _strong_with_margin(seed, 0.0, "strong-prune-four-margin-0")
    player.policy_prune = 4
    return player


def strong_playouts_margin_0(seed: int | None = None) -> PIMCPlayer:
    """Today's ``strong`` (every card by playouts) bidding every contract whose expected score is above 0 (not 5):
    its declarer wins more of its games since the playouts (83.9 % against 82.1 % in the match of seed 2077), and a
    margin of 0 measured +0.77 [-0.14, +1.68] on :func:`strong_solver`."""
    return _strong_bidding_with(seed, "strong-playouts-margin-0", margin=0.0, playouts=True)


def strong_margin_10(seed: int | None = None) -> PIMCPlayer:
    """``strong`` bidding only contracts whose expected score is above 10 (not 5)."""
    return _strong_with_margin(seed, 10.0, "strong-margin-10")


@functools.cache
def _strong_bidding_model() -> WinModel:
    with resources.as_file(resources.files("skat") / "data" / STRONG_BIDDING_MODEL) as path:
        return WinModel.load(path)


def _card_model_changes(name: str) -> dict[str, object]:
    """What a searching level changes to play with the packaged card-play model ``name``
    (:func:`skat.players.levels.card_model_settings`)."""
    from skat.players.cardmodel import packaged_card_model
    from skat.players.levels import card_model_settings

    return card_model_settings(packaged_card_model(name))


SELFPLAY_MODEL = "card_model_selfplay.npz"
"""The card-play model retrained with the self-play corpus (``bench/data/corpus/play-2060``) beside the others."""


def strong_selfplay_model(seed: int | None = None) -> PIMCPlayer:
    """``strong`` with the card-play model retrained on its own play as well (:data:`SELFPLAY_MODEL`, the corpus of
    :func:`strong_policy_inference`): the model prunes, and weighs the others' card plays in the inference."""
    return _solver_variant(seed, "strong-selfplay-model", **_card_model_changes(SELFPLAY_MODEL))


PLAYOUT_MODEL = "card_model_playouts.npz"
"""The card-play model trained on a corpus of today's ``strong``, every legal card labelled by the values of its
playouts (``bench/data/corpus/play-2081``), beside the corpora the shipped model learned from (the solver's labels)
and the self-play one: a step of policy iteration (``bench/data/cardplay-playouts``)."""


def strong_playout_model(seed: int | None = None) -> PIMCPlayer:
    """Today's ``strong`` (every card by playouts) with :data:`PLAYOUT_MODEL`: the model the playouts play with,
    and the one that weighs the others' card plays in the inference."""
    return _level_variant("strong", seed, "strong-playout-model", **_card_model_changes(PLAYOUT_MODEL))


class ByRole:
    """One player's card play in defence, another's for everything else (the auction, the skat, the declarer's
    cards, a Ramsch, Kontra and Re): to measure a change in one role alone."""

    def __init__(self, name: str, main: PIMCPlayer, defender: PIMCPlayer) -> None:
        self.name = name
        self.main = main
        self.defender = defender

    def choose(self, view: SeatView) -> Action:
        """The defender's card from :attr:`defender`, every other action from :attr:`main`."""
        defends = view.phase is Phase.PLAY and view.declarer is not None and view.seat != view.declarer
        return (self.defender if defends else self.main).choose(view)

    def side_action(self, view: SeatView) -> Action | None:
        """Kontra and Re as :attr:`main` says them."""
        return self.main.side_action(view)


def strong_playout_model_defence(seed: int | None = None) -> ByRole:
    """Today's ``strong`` defending as :func:`strong_playout_model` (its playouts and inference with
    :data:`PLAYOUT_MODEL`), declaring and bidding as ``strong``: over the 1,000 deals of match ``playout-model``
    that model's defence measured +0.7 a case, its declarer's play +2.3 (-11 after the first 212 deals)."""
    return ByRole("strong-playout-model-defence", _level_variant("strong", seed, "strong"), strong_playout_model(seed))


PLAYOUT_MODEL_2 = LEVEL_MODEL
"""The second round of the policy iteration: the card-play model trained beside all the corpora of
:data:`PLAYOUT_MODEL` on a corpus of :func:`strong_playout_model`, every legal card labelled by the values of its
playouts, which play with :data:`PLAYOUT_MODEL` (``bench/data/corpus/play-2084``; ``bench/data/cardplay-playouts-2``)."""


def strong_playout_model_2(seed: int | None = None) -> PIMCPlayer:
    """:func:`strong_2026_12_06` with :data:`PLAYOUT_MODEL_2` in its playouts and its inference: ``strong`` since
    the evening of 6 December 2026 (the level model, :data:`skat.players.cardmodel.LEVEL_MODEL`), by another
    name."""
    return _level_variant("strong", seed, "strong-playout-model-2", **_card_model_changes(PLAYOUT_MODEL_2))


def learned_level_model(seed: int | None = None) -> PolicyPlayer:
    """``learned`` (the policy alone, no search) with the level model (:data:`skat.players.cardmodel.LEVEL_MODEL`):
    ``learned`` from the evening of 6 December to 7 December 2026."""
    player = PolicyPlayer(seed, model=level_card_model())
    player.name = "learned-level-model"
    return player


def learned_2026_12(seed: int | None = None) -> PolicyPlayer:
    """``learned`` as it was until the evening of 6 December 2026: the shipped model's policy
    (:data:`skat.players.cardmodel.SHIPPED_MODEL`, the solver's labels)."""
    player = PolicyPlayer(seed, model=shipped_card_model())
    player.name = "learned-2026-12"
    return player


PLAYOUT_MODEL_3 = LEARNED_MODEL
"""The third round of the policy iteration: the card-play model trained beside all the corpora of
:data:`PLAYOUT_MODEL_2` on a corpus of today's ``strong`` (``bench/data/corpus/play-2089``), every legal card labelled
by the values of its playouts, which play with :data:`PLAYOUT_MODEL_2` (``bench/data/cardplay-playouts-3``)."""


def learned_playout_model_3(seed: int | None = None) -> PolicyPlayer:
    """``learned`` with :data:`PLAYOUT_MODEL_3` (its Null games by the shipped model): ``learned`` since 7 December
    2026 (:data:`skat.players.cardmodel.LEARNED_MODEL`), by another name."""
    from skat.players.cardmodel import packaged_card_model

    player = PolicyPlayer(seed, model=packaged_card_model(PLAYOUT_MODEL_3))
    player.name = "learned-playout-model-3"
    return player


def strong_playout_model_3(seed: int | None = None) -> PIMCPlayer:
    """Today's ``strong`` with :data:`PLAYOUT_MODEL_3` in its playouts, its pruning and its inference: against
    ``strong`` -0.83 [-3.09, +1.44] after 712 of 1,000 deals (match ``playout-model-3``, seed 2091; the declarer's
    grand games -9.6 a case), so the levels keep :data:`PLAYOUT_MODEL_2`."""
    return _level_variant("strong", seed, "strong-playout-model-3", **_card_model_changes(PLAYOUT_MODEL_3))


DECLARER_WORLDS = 160
"""The worlds :func:`strong_declarer_worlds` searches as the declarer (``expert``'s 160)."""

DECLARER_POOL = 2
"""How many times :data:`DECLARER_WORLDS` the pool of :func:`strong_declarer_worlds`'s declarer holds (320 worlds;
``expert`` draws from 640): the pool's weighing by the policy is most of a decision's overhead, and the declarer has
two hands to guess where a defender has three."""


def strong_declarer_worlds(seed: int | None = None) -> PIMCPlayer:
    """Today's ``strong`` whose declarer searches :data:`DECLARER_WORLDS` worlds a card drawn from
    :data:`DECLARER_POOL` times as many, its defence 60 of 240 as before: in ``expert``'s match against ``strong``
    (2079) the declarer's play gained +5.7 a case, the defence -0.2, so the declarer's decisions, a third of the
    cards, get the time. Against ``strong`` +0.56 [-0.95, +2.08] over 1,000 deals (match ``declarer-worlds``, seed
    2093; declaring +1.5 a case, grand +3.5; 46.9 ms a decision against 33.2); in a screen of the declarer's play
    alone +6.25 [+2.17, +10.33] a case over 987 (seed 3002). ``strong`` since 7 December 2026, by another name
    (:func:`strong_2026_12_07` before)."""
    return _level_variant("strong", seed, "strong-declarer-worlds", **_card_model_changes(LEVEL_MODEL),
                          declarer_worlds=DECLARER_WORLDS, declarer_pool=DECLARER_POOL)


def strong_2026_12_07(seed: int | None = None) -> PIMCPlayer:
    """``strong`` as it was until 7 December 2026: the level model (:data:`skat.players.cardmodel.LEVEL_MODEL`) in
    its playouts, pruning and inference, 60 worlds from 240 in every role, before its declarer searched
    :data:`DECLARER_WORLDS` (:func:`strong_declarer_worlds`). The same player as :func:`strong_playout_model_2`."""
    return _level_variant("strong", seed, "strong-2026-12-07", **_card_model_changes(LEVEL_MODEL))


def strong_solve_from_3(seed: int | None = None) -> PIMCPlayer:
    """Today's ``strong`` whose playouts go on by the policy until three tricks are left (five in ``strong``): the
    solver, which plays as if every seat saw every hand, decides two tricks fewer (for a role screen,
    ``tools/role_screen.py``)."""
    return _level_variant("strong", seed, "strong-solve-from-3", **_card_model_changes(LEVEL_MODEL),
                          playout_solve_from=3)


def strong_160_worlds(seed: int | None = None) -> PIMCPlayer:
    """Today's ``strong`` searching ``expert``'s 160 worlds from 640 in every role, in its 0.5 s (for a role screen of
    the defence, ``tools/role_screen.py``: ``expert``'s defence measured -0.2 a case against ``strong``)."""
    return _level_variant("strong", seed, "strong-160-worlds", **_card_model_changes(LEVEL_MODEL), worlds=160)


def expert_declarer_worlds(seed: int | None = None) -> PIMCPlayer:
    """``expert`` whose declarer searches twice its 160 worlds, 320 drawn from 640 (its defence 160 from 640 as
    before): ``strong``'s declarer searches 160 since 7 December 2026, where ``expert``'s gain over ``strong`` was
    (+5.7 a case declaring, -0.2 in defence, match 2079), so ``expert`` keeps its lead there only with more."""
    return _level_variant("expert", seed, "expert-declarer-worlds", **_card_model_changes(LEVEL_MODEL),
                          declarer_worlds=320, declarer_pool=2)


def expert_declarer_640_searched_discard(seed: int | None = None) -> PIMCPlayer:
    """``expert`` with more where ``expert``'s lead over ``strong`` is (declaring +5.5 a case, defence 0.0 in 2095):
    its declarer searches 640 worlds drawn from 1,280 (four times ``expert``'s 160 and ``strong``'s) and its discard
    is searched in 80 worlds in 1 s (:meth:`skat.players.learned.LearnedBidder.searched_discard`); its defence and
    bidding as ``expert``'s. Beside ``strong`` in 2098 the declarer's 320 worlds with the discard searched in 0.5 s
    measured -3.0 a case, so whether more of them pay in ``expert``'s 2 s is the open question."""
    player = _level_variant("expert", seed, "expert-declarer-640-searched-discard", **_card_model_changes(LEVEL_MODEL),
                            declarer_worlds=640, declarer_pool=2)
    assert isinstance(player.bidder, LearnedBidder)
    player.bidder.discard_worlds, player.bidder.discard_time = 80, 1.0
    return player


def _strong_variant(seed: int | None, name: str, **changes: object) -> PIMCPlayer:
    """``strong`` since 7 December 2026 (the level model, the declarer's 160 worlds from 320) with the attributes
    ``changes`` set, named ``name``: the player the ablations from then on change one thing of."""
    return _level_variant("strong", seed, name, **{**_card_model_changes(LEVEL_MODEL), "declarer_worlds":
                                                   DECLARER_WORLDS, "declarer_pool": DECLARER_POOL, **changes})


def strong_declarer_320(seed: int | None = None) -> PIMCPlayer:
    """``strong`` whose declarer searches 320 worlds drawn from 640 (160 from 320 in ``strong``), within the same
    0.5 s: the declarer's screen gained +6.25 a case from 60 to 160 worlds; does it go on? (A role screen; the
    declarer's decisions are a third of the cards, so the median card time moves little.)"""
    return _strong_variant(seed, "strong-declarer-320", declarer_worlds=320)


def strong_searched_discard(seed: int | None = None) -> PIMCPlayer:
    """``strong`` whose pair laid away after the pickup, in the suit or grand game its after-pickup model chooses, is
    searched: the heuristic's six best pairs and the model's, each solved double dummy in the same 40 worlds of the
    opponents' cards, the best mean Seeger-Fabian score laid away, in 0.5 s
    (:meth:`skat.players.learned.LearnedBidder.searched_discard`); ``strong`` lays away the model's pick of the
    heuristic's three best pairs. For the discard screen (``tools/role_screen.py --role discard``)."""
    player = _strong_variant(seed, "strong-searched-discard")
    assert isinstance(player.bidder, LearnedBidder)
    player.bidder.discard_worlds = 40
    return player


def strong_solve_from_6(seed: int | None = None) -> PIMCPlayer:
    """``strong`` whose playouts stop at six tricks left, where the solver (which sees every hand) decides the rest,
    and which values the cards by the solver's exact card points in every world from six tricks left (five in
    ``strong``). The playouts to three tricks left cost the defence -3.09 a case in its screen
    (:func:`strong_solve_from_3`): is the policy's endgame weaker than the solver's one trick earlier too? (Role
    screens, ``tools/role_screen.py``.)"""
    return _strong_variant(seed, "strong-solve-from-6", playout_solve_from=6, points_from_tricks_left=6)


def strong_solve_from_7(seed: int | None = None) -> PIMCPlayer:
    """:func:`strong_solve_from_6` with the solver from seven tricks left."""
    return _strong_variant(seed, "strong-solve-from-7", playout_solve_from=7, points_from_tricks_left=7)


def strong_declarer_320_searched_discard(seed: int | None = None) -> PIMCPlayer:
    """``strong`` with both of the declarer's screened changes of 7 December 2026, each inside its screen's noise
    and short of a match alone: 320 worlds from 640 in the card play (:func:`strong_declarer_320`, +1.98 a case in
    the declarer screen) and the discard searched (:func:`strong_searched_discard`, +1.35 a pickup game in the discard
    screen). Together, for the goal's measure against :func:`strong_2026_12` (match ``declarer-320-discard-2026-12``,
    not played: 57 ms median a card on one core, over the goal's 50; :func:`strong_declarer_320_defence_40` instead)."""
    player = _strong_variant(seed, "strong-declarer-320-searched-discard", declarer_worlds=320)
    assert isinstance(player.bidder, LearnedBidder)
    player.bidder.discard_worlds = 40
    return player


def strong_declarer_320_defence_40(seed: int | None = None) -> PIMCPlayer:
    """:func:`strong_declarer_320_searched_discard` paying for the declarer's 320 worlds with the defence's time: the
    defenders search 40 worlds drawn from 160 (60 from 240 in ``strong``). With 60 the candidate took 57 ms median a
    card on one core (the goal: 50 ms); more worlds never moved the defence (``expert``'s 160: -0.2 a case, 2079)."""
    player = strong_declarer_320_searched_discard(seed)
    player.worlds, player.name = 40, "strong-declarer-320-defence-40"
    return player
