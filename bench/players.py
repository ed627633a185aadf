"""Strength and speed of the computer players (not a test; prints figures).

    python bench/players.py                                   # every match below, 1,000 deals each
    python bench/players.py --matches strong-medium --deals 300
    python bench/players.py --deals 1000 --data bench/data/arena  # the committed matches: resumes them
    python bench/players.py --matches none --timing-deals 20      # decision times only
    python bench/players.py --matches strong-medium --data bench/data/arena --rescore-table 4  # a record at four
    python bench/players.py --matches strong-2026-12 --data bench/data/arena/2026-12-05c --show  # as it stands

Matches (duplicate arena, ISKO rules, Seeger-Fabian points per game with the 95 % CI; the goals of
issue 16 beside them):

* ``strong-medium`` (seed 2031): at least +8, the lower bound above +4; ``strong`` declares 25-35 %.
* ``strong-heuristic`` (2032): at least +25.
* ``medium-easy`` (2033): the levels apart.
* ``heuristic-random`` (2034): the floor.
* ``ablation-*``: one part of ``strong`` alone, against ``strong`` without inference
  (:func:`skat.players.ablation.strong_plain`): ``ablation-bidding`` (2035) the learned bidding (against
  the earlier bidding by simulation), ``ablation-inference`` (2036) the auction's likelihood,
  ``ablation-play-inference`` (2038) the card plays' likelihood, ``ablation-inference-whole`` (2040) both
  (``strong`` itself), ``ablation-alphamu`` (2039) alpha-mu for the declarer's last four tricks,
  ``ablation-close-worlds`` (2037) more worlds on close calls.
* issue 31, the learned card-play model: ``learned-medium`` (2041) the policy alone against ``medium`` (goal: at
  least 0; the record of 5 December 2026 is of :func:`skat.players.ablation.learned_2026_12`, the shipped model); ``policy-inference`` (2042) ``strong`` with the card plays weighed by the policy against ``strong`` as
  it was (:func:`skat.players.ablation.strong_2026_12`); ``policy-prune`` (2043) that, searching only the
  policy's three best cards early, with up to 60 worlds; ``expert-strong`` (2044) the slow level (goal: above 0).
* issue 31, every game the players play (:data:`RULES`): ``null-*`` (2045-2047) deals with a Null hand, its seat
  declaring Null Hand (``skat arena --start null``: the card play of Null alone); ``ramsch-search`` (2048) and
  ``schieberamsch-search`` (2049) every deal a Ramsch under the pub rules (``--start ramsch``): ``medium``, which
  plays a Ramsch by the search, against ``medium`` playing it by the heuristic's rules of thumb
  (:func:`skat.players.ablation.medium_heuristic_ramsch`; the 2048 record of 5 December 2026 names the two
  ``medium_ramsch_search`` and ``medium`` as they were then);
  ``pub-strong-medium`` (2050) the pub rules as they are played (Ramsch when all pass, Kontra and Re).
* issue 31, the goals over 1,000 deals: ``strong-2026-12`` (2051) today's ``strong`` (re-tuned on the model, with the
  Ramsch search) against ``strong`` as it was (goal: at least +5, the lower bound above 0);
  ``expert-strong-pruned`` (2052) ``expert`` with the policy's pruning against today's ``strong`` (goal: above 0;
  ``expert-strong``, 2044, was the first ``expert`` against ``strong`` as it was); ``symmetric-prune`` (2053)
  ``strong`` pruning by the suit-symmetric policy against ``strong``; ``policy-ties`` (2056) ``strong`` breaking the
  search's ties by the learned policy instead of the heuristic against ``strong``; ``exact-early`` (2057) ``strong``
  valuing the cards by the exact card points from seven tricks left against ``strong``; ``selfplay-model`` (2061)
  ``strong`` with the card-play model retrained with its own games (the self-play corpus 2060) against ``strong``;
  ``exact-ties-2026-12`` (2062) ``strong`` with exact-early and policy-ties together
  (:func:`skat.players.ablation.strong_exact_ties`) against ``strong`` as it was (the goal's measure for a next
  ``strong``); ``schneider-ties`` (2063) that breaking the yes/no search's ties by Schneider first
  (:func:`skat.players.ablation.strong_schneider_ties`) against it; ``posterior-draws`` (2064) ``strong`` searching
  worlds drawn with replacement by the likelihood (:func:`skat.players.ablation.strong_posterior_draws`) against
  ``strong``; ``next-strong`` (2065) the three that measured level or better together, 80 worlds drawn
  (:func:`skat.players.ablation.strong_drawn_exact_ties_80`), against ``strong`` as it was; ``next-expert`` (2066)
  ``expert`` with the same changes (:func:`skat.players.ablation.expert_drawn_exact_ties`) against that candidate;
  ``prune-two`` (2067) ``strong`` searching only the policy's two best cards in the first seven tricks
  (:func:`skat.players.ablation.strong_prune_two`), ``prune-four`` (2070) its four best
  (:func:`skat.players.ablation.strong_prune_four`), ``prune-five`` (2071) its five best, ``unpruned`` (2072) every
  legal card (:func:`skat.players.ablation.strong_unpruned`) and ``prune-throughout`` (2068) its three best in every trick
  (:func:`skat.players.ablation.strong_prune_throughout`), each against ``strong``; ``next-strong-2`` (2074) four
  cards and bidding down to an expected score of 0 together (:func:`skat.players.ablation.strong_prune_four_margin_0`)
  against ``strong`` as it was; ``playout-defence`` (2075) ``strong`` whose defenders value the cards by playouts of
  the learned policy (:func:`skat.players.ablation.strong_playout_defence`, :mod:`skat.players.playout`) and
  ``playouts`` (2076) every role by them (:func:`skat.players.ablation.strong_playouts`), ``playouts-wide`` (2077)
  that searching every legal card (:func:`skat.players.ablation.strong_playouts_wide`), each against ``strong``;
  ``next-strong-3`` (2078) that against ``strong`` as it was (the goal's measure). Since 6 December 2026 the
  playouts are ``strong`` and ``expert``: where the matches from 2052 to 2077 say ``strong`` they mean
  :func:`skat.players.ablation.strong_solver` (and ``expert`` in 2052 :func:`skat.players.ablation.expert_solver`),
  as their definitions here name them; ``expert-playouts`` (2079) ``expert`` against ``strong``, both with the
  playouts (goal: above 0); ``playout-model`` (2082) ``strong`` with the card-play model trained on the labels of
  its own playouts (:func:`skat.players.ablation.strong_playout_model`, corpus 2081) against ``strong``,
  ``playout-model-defence`` (2083) that model in defence alone
  (:func:`skat.players.ablation.strong_playout_model_defence`), ``playout-model-2`` (2085) the second round:
  the model trained on the playouts of ``strong`` with the first round's model as well (corpus 2084;
  :func:`skat.players.ablation.strong_playout_model_2`) against ``strong``. Since the evening of 6 December 2026
  that model is ``strong``'s and ``expert``'s (:data:`skat.players.cardmodel.LEVEL_MODEL`): where the matches from
  2079 to 2085 say ``strong`` they mean :func:`skat.players.ablation.strong_2026_12_06` (``expert``
  :func:`skat.players.ablation.expert_2026_12_06`), as their definitions here name them (:data:`RECORDED_AS`);
  ``level-model-2026-12`` (2086) that ``strong`` against ``strong`` as it was (the goal's measure: at least +5, the
  lower bound above 0), ``expert-level-model`` (2087) ``expert`` against ``strong``, both with it (goal: above 0);
  ``learned-level-model`` (2088) ``learned`` with the level model
  (:func:`skat.players.ablation.learned_level_model`) against ``learned`` with the shipped one
  (:func:`skat.players.ablation.learned_2026_12`); since then the level model is ``learned``'s too, and
  ``learned-medium`` (2041) measured both (the record of 5 December 2026 the one before). The third round of the
  policy iteration (the model trained on the playouts of ``strong`` with the level model, corpus 2089):
  ``learned-playout-model-3`` (2090) ``learned`` with it (:func:`skat.players.ablation.learned_playout_model_3`)
  against ``learned`` with the level model (:func:`skat.players.ablation.learned_level_model`; since then the
  third round's model is ``learned``'s), ``playout-model-3`` (2091) ``strong`` with it
  (:func:`skat.players.ablation.strong_playout_model_3`) against ``strong``; ``learned-strong`` (2092) what the
  search adds to the policy: ``learned`` against ``strong``. ``declarer-worlds`` (2093) ``strong`` whose declarer
  searches ``expert``'s 160 worlds (:func:`skat.players.ablation.strong_declarer_worlds`) against ``strong``.
  Since 7 December 2026 that is ``strong`` (:func:`skat.players.ablation.strong_2026_12_07` the one before, which
  the matches 2086, 2087, 2091 and 2093 call ``strong``): ``declarer-worlds-2026-12`` (2094) it against ``strong`` as it
  was (the goal's measure), ``expert-declarer-worlds`` (2095) ``expert`` against it (goal: above 0).
  ``declarer-320-discard-2026-12`` (2096) ``strong`` with the declarer's two changes screened that afternoon (320
  worlds, the discard searched: :func:`skat.players.ablation.strong_declarer_320_searched_discard`) against
  ``strong`` as it was (the goal's measure, were it ``strong``). ``declarer-320-defence-40-2026-12`` (2097) the
  same with the defence's worlds cut from 60 to 40 to pay for the declarer's 320 in the card-time goal
  (:func:`skat.players.ablation.strong_declarer_320_defence_40`; 2096's player took 57 ms median a card, over 50),
  ``declarer-320-defence-40`` (2098) it against today's ``strong`` (the second look: -0.69, not taken);
  ``expert-640-strong`` (2100) ``expert`` with 640 declarer's worlds and the discard searched
  (:func:`skat.players.ablation.expert_declarer_640_searched_discard`) against ``strong`` (``expert``'s goal).
  (Seeds 2069 and 2073 are the bidding screens', ``tools/bidding_screen.py``.)
* issue 31, the Ramsch search with the skat: ``ramsch-skat`` (2054) and ``schieberamsch-skat`` (2055) ``medium``
  whose Ramsch search counts the skat's points for whoever takes the last trick
  (:func:`skat.players.ablation.medium_ramsch_with_skat`) against ``medium`` leaving them out (the 2054 record of 5
  December 2026 names the two ``medium`` and ``medium_ramsch_without_skat``, as they were then: the same play, A and
  B the other way round); ``ramsch-durchmarsch`` (2058) ``medium`` against ``medium`` never playing on for a
  Durchmarsch (:func:`skat.players.ablation.medium_without_durchmarsch`); every deal a Ramsch under the pub rules.

``--screens NAME,...`` (or ``all``) plays or resumes the role screens (:data:`SCREENS`, one role's card play of a
candidate against the reference on the same contracts; records in ``bench/data/screen/``) to ``--deals`` and prints
their table; with ``--show`` it prints their records as they stand. With ``--screens`` and no ``--matches`` no match
is played.

With ``--data DIR`` every match keeps its checkpoint ``DIR/A-B-SEED.jsonl`` (a stopped run resumes; a
checkpoint of other players' code is refused) and writes ``DIR/A-B-SEED.json`` and the plot.
``--duel CORPUS`` adds the bidding ablation on the corpus (skat.players.duel: each part of the learned
bidder alone, card play fixed). Decision times of ``strong`` are CPU seconds of one process, against the
anchor ``heuristic`` measured in the same run; beside them the seconds a process takes to load the solver's
kernels and the learned bidder's model. The last line is JSON with every figure.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from skat.deal.game import Game, Phase
from skat.players.arena import (
    ArenaConfig,
    Checkpoint,
    arena_player,
    fill_checkpoint,
    format_summary,
    plot_cumulative,
    run_match,
    summarize,
)
from skat.players.learned import shipped_model
from skat.players.screen import ScreenConfig, format_screen, screen_deals, summarize_screen
from skat.solver import warm_up

_PLAIN = "skat.players.ablation:strong_plain"
_TODAY = "skat.players.ablation:strong_2026_12"
_SOLVER = "skat.players.ablation:strong_solver"
_STRONG_1206 = "skat.players.ablation:strong_2026_12_06"
_EXPERT_1206 = "skat.players.ablation:expert_2026_12_06"
_STRONG_1207 = "skat.players.ablation:strong_2026_12_07"
MATCHES = {
    "strong-medium": (("strong", "medium"), 2031),
    "strong-heuristic": (("strong", "heuristic"), 2032),
    "medium-easy": (("medium", "easy"), 2033),
    "heuristic-random": (("heuristic", "random"), 2034),
    "ablation-bidding": ((_PLAIN, "skat.players.ablation:strong_simulated_bidding"), 2035),
    "ablation-inference": (("skat.players.ablation:strong_inference", _PLAIN), 2036),
    "ablation-close-worlds": (("skat.players.ablation:strong_close_worlds", _PLAIN), 2037),
    "ablation-play-inference": (("skat.players.ablation:strong_play_inference", _PLAIN), 2038),
    "ablation-alphamu": (("skat.players.ablation:strong_alphamu", _PLAIN), 2039),
    "ablation-inference-whole": (("strong", _PLAIN), 2040),
    "learned-medium": (("learned", "medium"), 2041),
    "policy-inference": (("skat.players.ablation:strong_policy_inference", _TODAY), 2042),
    "policy-prune": (("skat.players.ablation:strong_policy_prune", _TODAY), 2043),
    "expert-strong": (("expert", "strong"), 2044),
    "null-learned-medium": (("learned", "medium"), 2045),
    "null-strong-medium": (("strong", "medium"), 2046),
    "null-medium-heuristic": (("medium", "heuristic"), 2047),
    "ramsch-search": (("medium", "skat.players.ablation:medium_heuristic_ramsch"), 2048),
    "schieberamsch-search": (("medium", "skat.players.ablation:medium_heuristic_ramsch"), 2049),
    "pub-strong-medium": (("strong", "medium"), 2050),
    "strong-2026-12": (("strong", _TODAY), 2051),
    "expert-strong-pruned": (("skat.players.ablation:expert_solver", _SOLVER), 2052),
    "symmetric-prune": (("skat.players.ablation:strong_symmetric_prune", _SOLVER), 2053),
    "ramsch-skat": (("skat.players.ablation:medium_ramsch_with_skat", "medium"), 2054),
    "schieberamsch-skat": (("skat.players.ablation:medium_ramsch_with_skat", "medium"), 2055),
    "ramsch-durchmarsch": (("medium", "skat.players.ablation:medium_without_durchmarsch"), 2058),
    "policy-ties": (("skat.players.ablation:strong_policy_ties", _SOLVER), 2056),
    "exact-early": (("skat.players.ablation:strong_exact_early", _SOLVER), 2057),
    "selfplay-model": (("skat.players.ablation:strong_selfplay_model", _SOLVER), 2061),
    "exact-ties-2026-12": (("skat.players.ablation:strong_exact_ties", _TODAY), 2062),
    "schneider-ties": (("skat.players.ablation:strong_schneider_ties", "skat.players.ablation:strong_exact_ties"), 2063),
    "posterior-draws": (("skat.players.ablation:strong_posterior_draws", _SOLVER), 2064),
    "next-strong": (("skat.players.ablation:strong_drawn_exact_ties_80", _TODAY), 2065),
    "next-expert": (("skat.players.ablation:expert_drawn_exact_ties", "skat.players.ablation:strong_drawn_exact_ties_80"),
                    2066),
    "prune-two": (("skat.players.ablation:strong_prune_two", _SOLVER), 2067),
    "prune-throughout": (("skat.players.ablation:strong_prune_throughout", _SOLVER), 2068),
    "prune-four": (("skat.players.ablation:strong_prune_four", _SOLVER), 2070),
    "prune-five": (("skat.players.ablation:strong_prune_five", _SOLVER), 2071),
    "unpruned": (("skat.players.ablation:strong_unpruned", _SOLVER), 2072),
    "next-strong-2": (("skat.players.ablation:strong_prune_four_margin_0", _TODAY), 2074),
    "playout-defence": (("skat.players.ablation:strong_playout_defence", _SOLVER), 2075),
    "playouts": (("skat.players.ablation:strong_playouts", _SOLVER), 2076),
    "playouts-wide": (("skat.players.ablation:strong_playouts_wide", _SOLVER), 2077),
    "next-strong-3": (("skat.players.ablation:strong_playouts_wide", _TODAY), 2078),
    "expert-playouts": ((_EXPERT_1206, _STRONG_1206), 2079),
    "playout-model": (("skat.players.ablation:strong_playout_model", _STRONG_1206), 2082),
    "playout-model-defence": (("skat.players.ablation:strong_playout_model_defence", _STRONG_1206), 2083),
    "playout-model-2": (("skat.players.ablation:strong_playout_model_2", _STRONG_1206), 2085),
    "level-model-2026-12": ((_STRONG_1207, _TODAY), 2086),
    "expert-level-model": (("expert", _STRONG_1207), 2087),
    "learned-level-model": (("skat.players.ablation:learned_level_model", "skat.players.ablation:learned_2026_12"),
                            2088),
    "learned-playout-model-3": (("learned", "skat.players.ablation:learned_level_model"), 2090),
    "playout-model-3": (("skat.players.ablation:strong_playout_model_3", _STRONG_1207), 2091),
    "learned-strong": (("learned", "strong"), 2092),
    "declarer-worlds": (("skat.players.ablation:strong_declarer_worlds", _STRONG_1207), 2093),
    "declarer-worlds-2026-12": (("strong", _TODAY), 2094),
    "expert-declarer-worlds": (("expert", "strong"), 2095),
    "declarer-320-discard-2026-12": (("skat.players.ablation:strong_declarer_320_searched_discard", _TODAY), 2096),
    "declarer-320-defence-40-2026-12": (("skat.players.ablation:strong_declarer_320_defence_40", _TODAY), 2097),
    "declarer-320-defence-40": (("skat.players.ablation:strong_declarer_320_defence_40", "strong"), 2098),
    "expert-640-strong": (("skat.players.ablation:expert_declarer_640_searched_discard", "strong"), 2100),
}
"""name -> (players, seed)."""

RECORDED_AS: dict[str, tuple[str, str]] = {
    "ramsch-search": ("skat.players.ablation:medium_ramsch_search", "medium"),
    "expert-strong-pruned": ("expert", "strong"),
    "ramsch-skat": ("medium", "skat.players.ablation:medium_ramsch_without_skat"),
    **{name: (MATCHES[name][0][0], "strong") for name in (
        "policy-ties", "exact-early", "selfplay-model", "posterior-draws", "prune-two", "prune-throughout",
        "prune-four", "playout-defence", "playouts", "playouts-wide", "playout-model", "playout-model-2")},
    "expert-playouts": ("expert", "strong"),
    "learned-level-model": ("skat.players.ablation:learned_level_model", "learned"),
    "learned-playout-model-3": ("skat.players.ablation:learned_playout_model_3", "learned"),
    **{name: (MATCHES[name][0][0], "strong") for name in ("expert-level-model", "playout-model-3", "declarer-worlds")},
    "level-model-2026-12": ("strong", _TODAY),
}
"""The players as the committed record of a match names them, where they were called otherwise when it was played:
a level as it was then is an ablation's factory now (``strong`` of 5 and 6 December 2026 is
:func:`skat.players.ablation.strong_solver` in the matches 2052 to 2077 and
:func:`skat.players.ablation.strong_2026_12_06` in 2079 to 2085, :func:`skat.players.ablation.strong_2026_12_07`
in 2086, 2087, 2091 and 2093, ``learned`` of the day
:func:`skat.players.ablation.learned_2026_12` in 2088), the same players in the same order."""

SCREENS: dict[str, tuple[tuple[str, str], str, int]] = {
    "solve-from-3-defenders": (("skat.players.ablation:strong_solve_from_3", _STRONG_1207), "defenders", 3001),
    "declarer-worlds-declarer": (("skat.players.ablation:strong_declarer_worlds", _STRONG_1207), "declarer", 3002),
    "160-worlds-defenders": (("skat.players.ablation:strong_160_worlds", _STRONG_1207), "defenders", 3003),
    "declarer-320-declarer": (("skat.players.ablation:strong_declarer_320", "strong"), "declarer", 3004),
    "searched-discard": (("skat.players.ablation:strong_searched_discard", "strong"), "discard", 3005),
    "solve-from-6-declarer": (("skat.players.ablation:strong_solve_from_6", "strong"), "declarer", 3006),
    "solve-from-6-defenders": (("skat.players.ablation:strong_solve_from_6", "strong"), "defenders", 3007),
}
"""name -> ((candidate, reference), role, seed) of the role screens (:mod:`skat.players.screen`,
``tools/role_screen.py``): one role's card play of a candidate against the reference on the same contracts. Their
records are ``bench/data/screen/NAME-SEED.jsonl``; ``--screens`` plays or resumes them, ``--show`` prints them."""

SCREENS_RECORDED_AS: dict[str, tuple[str, str]] = {
    name: (SCREENS[name][0][0], "strong")
    for name in ("solve-from-3-defenders", "declarer-worlds-declarer", "160-worlds-defenders")}
"""The players as a screen's record names them where they were called otherwise (``strong`` of the morning of 7
December 2026 is :func:`skat.players.ablation.strong_2026_12_07`), as :data:`RECORDED_AS` for the matches."""

SCREEN_DATA = Path(__file__).resolve().parent / "data" / "screen"
"""Where the screens' records are committed."""

RULES: dict[str, tuple[str, tuple[str, ...], str]] = {
    "null-learned-medium": ("isko2018", (), "null"),
    "null-strong-medium": ("isko2018", (), "null"),
    "null-medium-heuristic": ("isko2018", (), "null"),
    "ramsch-search": ("pub", (), "ramsch"),
    "schieberamsch-search": ("pub", ("schieberamsch=true",), "ramsch"),
    "pub-strong-medium": ("pub", (), "auction"),
    "ramsch-skat": ("pub", (), "ramsch"),
    "schieberamsch-skat": ("pub", ("schieberamsch=true",), "ramsch"),
    "ramsch-durchmarsch": ("pub", (), "ramsch"),
}
"""name -> (rule set, options, how every deal starts) of the matches not under ISKO rules with an auction."""

ABLATION_PARTS = {
    "ablation-bidding": "learned bidding (vs bidding by double-dummy simulation)",
    "ablation-inference": "the auction's likelihood alone",
    "ablation-play-inference": "the card plays' likelihood alone",
    "ablation-inference-whole": "both likelihoods (strong itself)",
    "ablation-close-worlds": "more worlds on close calls",
    "ablation-alphamu": "alpha-mu for the declarer's last four tricks",
}
"""ablation match -> the part of ``strong`` it measures alone."""


def _ms(seconds: float) -> str:
    """Milliseconds as a figure reads well: ``35 ms``, ``0.08 ms``."""
    ms = 1000 * seconds
    return f"{ms:.0f} ms" if ms >= 10 else f"{ms:.2f} ms"


def short_name(player: str) -> str:
    """A player's name for a plot: ``strong_inference`` for ``skat.players.ablation:strong_inference``."""
    return player.rpartition(":")[2]


def ablation_table(figures: dict[str, dict]) -> str:
    """The ablation matches among ``figures`` (as :func:`match_figures` gives them) as a table."""
    width = max(len(what) for what in ABLATION_PARTS.values())
    rows = [f"{'part of strong':{width}s} {'gain':>7s}  {'95 % CI':16s} {'deals':>5s}"]
    for name, what in ABLATION_PARTS.items():
        if name in figures:
            f = figures[name]
            lo, hi = f["ci95"]
            rows.append(f"{what:{width}s} {f['diff']:+7.2f}  [{lo:+6.2f}, {hi:+6.2f}] {f['deals']:5d}")
    return "\n".join(rows) if len(rows) > 1 else ""


def timing(name: str, deals: int, seed: int) -> dict[str, float]:
    """Median, p95 and max CPU seconds per decision of ``name`` in each seat against two heuristic players."""
    cards: list[float] = []
    contracts: list[float] = []
    for d in range(deals):
        for seat in range(3):
            game = Game(seed=seed * 100_003 + d)
            players = [arena_player(name if s == seat else "heuristic", d * 3 + s) for s in range(3)]
            while not game.is_over:
                s = game.to_move
                assert s is not None  # a deal not over has a seat to move
                view = game.view(s)
                t0 = time.process_time()
                action = players[s].choose(view)
                dt = time.process_time() - t0
                if s == seat and len(view.legal_actions) > 1:
                    (cards if view.phase is Phase.PLAY else contracts).append(dt)
                game.apply(action, s)

    def q(xs: list[float], f: float) -> float:
        xs = sorted(xs)
        return xs[min(len(xs) - 1, int(f * len(xs)))] if xs else 0.0

    return {"card_median_s": statistics.median(cards) if cards else 0.0, "card_p95_s": q(cards, 0.95),
            "card_max_s": max(cards, default=0.0), "cards": len(cards),
            "bidding_median_s": statistics.median(contracts) if contracts else 0.0,
            "bidding_p95_s": q(contracts, 0.95), "bidding_max_s": max(contracts, default=0.0),
            "bidding_decisions": len(contracts)}


def match_figures(s: dict) -> dict:
    """The figures of a match summary that the last line keeps."""
    return {"deals": s["deals"], "diff": s["difference"]["mean"], "ci95": s["difference"]["ci95"],
            "illegal": s["illegal_actions"],
            "sf_per_game": {k: v["sf_per_game"] for k, v in s["per_player"].items()},
            "declare_rate": {k: v["declare_rate"] for k, v in s["per_player"].items()},
            "declarer_win_rate": {k: v["declarer_win_rate"] for k, v in s["per_player"].items()}}


def _record_deals(name: str, path: Path, players: tuple[Sequence[str], Sequence[str]], **expected: Any) -> list[dict]:
    """The deals of the record (a match's or a screen's checkpoint) at ``path``, after checking that its header
    names one of ``players`` (as the code names them now, or as the record named them) and the ``expected`` values
    (its seed, a screen's role); a record of something else stops with what it holds."""
    lines = path.read_text().splitlines()
    header = json.loads(lines[0])
    if (header.get("players") not in [list(p) for p in players]
            or any(header.get(key) != value for key, value in expected.items())):
        held = " ".join(f"{key} {header.get(key)}" for key in ("players", *expected))
        raise SystemExit(f"{name}: the record in {path.parent} is of {held}")
    return [json.loads(line) for line in lines[1:] if line]


def recorded(name: str, data: Path, table: int = 3) -> dict:
    """The summary of match ``name``'s record (its checkpoint) in ``data`` as it stands, whatever code played it,
    summed up as at a table of ``table``: a finished match or one still being played."""
    players, seed = MATCHES[name]
    ruleset, options, start = RULES.get(name, ("isko2018", (), "auction"))
    deals = _record_deals(name, data / f"{name}-{seed}.jsonl", (players, RECORDED_AS.get(name, players)), seed=seed)
    config = ArenaConfig(players, len(deals), seed, ruleset=ruleset, options=options, start=start, table=table)
    return summarize(config, deals)


def rescored(name: str, data: Path, table: int) -> dict:
    """:func:`match_figures` of match ``name``'s record in ``data`` summed up as at a table of ``table``."""
    return match_figures(recorded(name, data, table))


def screened(name: str, data: Path = SCREEN_DATA) -> dict:
    """The summary of screen ``name``'s record in ``data`` as it stands, whatever code played it (a screen still
    being played too)."""
    players, role, seed = SCREENS[name]
    deals = _record_deals(name, data / f"{name}-{seed}.jsonl", (players, SCREENS_RECORDED_AS.get(name, players)),
                          seed=seed, role=role)
    return summarize_screen(ScreenConfig(players, role, len(deals), seed), deals)


def play_screen(name: str, deals: int, data: Path = SCREEN_DATA, workers: int | None = None) -> dict:
    """Play (or resume) screen ``name`` to ``deals`` deals with its checkpoint in ``data``; write its summary beside
    it and return it."""
    players, role, seed = SCREENS[name]
    config = ScreenConfig(players, role, deals, seed)
    data.mkdir(parents=True, exist_ok=True)
    saved = Checkpoint(data / f"{name}-{seed}.jsonl", config)
    fill_checkpoint(config, saved, screen_deals, workers=workers)
    summary = summarize_screen(config, list(saved.deals.values()))
    (data / f"{name}-{seed}.json").write_text(json.dumps(summary, indent=1) + "\n")
    return summary


def screen_table(summaries: dict[str, dict]) -> str:
    """The screens' differences a case, one row each."""
    width = max([len("screen")] + [len(n) for n in summaries])
    rows = [f"{'screen':{width}s} {'role':9s} {'a case':>7s}  {'95 % CI':16s} {'cases':>5s}"]
    for name, summary in summaries.items():
        lo, hi = summary["difference"]["ci95"]
        rows.append(f"{name:{width}s} {summary['role']:9s} {summary['difference']['mean']:+7.2f}  "
                    f"[{lo:+6.2f}, {hi:+6.2f}] {summary['cases']:5d}")
    return "\n".join(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", default=None,
                        help=f"comma-separated, of {', '.join(MATCHES)} (or none); left out: all of them, or none "
                             f"where --screens names some")
    parser.add_argument("--deals", type=int, default=1000, help="deals per match")
    parser.add_argument("--data", type=Path, default=None, metavar="DIR",
                        help="keep each match's checkpoint, JSON and plot in DIR (resumed)")
    parser.add_argument("--duel", type=Path, default=None, metavar="CORPUS",
                        help="the bidding ablation on this corpus (tools/bidding_duel.py --ablation)")
    parser.add_argument("--timing-deals", type=int, default=10)
    parser.add_argument("--timing-player", default="strong",
                        help="the player timed (a level, or module:Factory as in the arena)")
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--show", action="store_true",
                        help="play nothing: print each match's record in --data as it stands (a match still being "
                             "played too)")
    parser.add_argument("--rescore-table", type=int, choices=(3, 4, 5), default=None, metavar="N",
                        help="play nothing: sum up each match's record in --data as at a table of N (whatever code "
                             "played it; the deals are the same at three and four, only the scoring differs)")
    parser.add_argument("--screens", default="none",
                        help=f"comma-separated role screens to play or resume (with --show: print), of "
                             f"{', '.join(SCREENS)}, all or none (the default)")
    parser.add_argument("--screen-data", type=Path, default=SCREEN_DATA, metavar="DIR",
                        help="the screens' records (bench/data/screen)")
    args = parser.parse_args()
    screens = {"none": [], "all": list(SCREENS)}.get(args.screens, args.screens.split(","))
    if args.matches is None:  # a screen asked for alone plays no match first
        args.matches = "none" if screens else ",".join(MATCHES)
    names = [] if args.matches == "none" else args.matches.split(",")
    unknown = [n for n in screens if n not in SCREENS]
    if unknown:
        parser.error(f"unknown screen {unknown[0]!r}: choose from {', '.join(SCREENS)}, all or none")
    unknown = [n for n in names if n not in MATCHES]
    if unknown:
        parser.error(f"unknown match {unknown[0]!r}: choose from {', '.join(MATCHES)}")
    if args.deals < 1:
        parser.error("--deals must be at least 1")
    out: dict[str, object] = {}
    if args.show:
        if args.data is None and names:
            parser.error("--show reads the matches' records in --data DIR")
        for name in names:
            print(format_summary(recorded(name, args.data)), flush=True)
        shown = {}
        for name in screens:
            if not (args.screen_data / f"{name}-{SCREENS[name][2]}.jsonl").exists():
                print(f"{name}: no record in {args.screen_data} yet (play it: --screens {name})", flush=True)
                continue
            shown[name] = screened(name, args.screen_data)
        for summary in shown.values():
            print(format_screen(summary), flush=True)
        if shown:
            print(screen_table(shown), flush=True)
        return
    if args.rescore_table is not None:
        if args.data is None:
            parser.error("--rescore-table reads the records in --data DIR")
        for name in names:
            print(json.dumps({name: rescored(name, args.data, args.rescore_table)}))
        return
    for name in names:
        players, seed = MATCHES[name]
        ruleset, options, start = RULES.get(name, ("isko2018", (), "auction"))
        config = ArenaConfig(players, args.deals, seed, ruleset=ruleset, options=options, start=start)
        stem = f"{name}-{seed}"
        checkpoint = args.data / f"{stem}.jsonl" if args.data else None
        if args.data:
            args.data.mkdir(parents=True, exist_ok=True)
        s = run_match(config, workers=args.workers, checkpoint=checkpoint)
        print(format_summary(s), flush=True)
        if args.data and not (s.get("resumed_deals") == s["deals"] and (args.data / f"{stem}.json").exists()):
            # (a match taken whole from its checkpoint keeps the JSON of the run that played it: its wall time)
            (args.data / f"{stem}.json").write_text(json.dumps(s, indent=1))
            plot_cumulative({**s, "players": [short_name(n) for n in s["players"]]}, args.data / f"{stem}.png")
        out[name] = match_figures(s)
    played = {name: play_screen(name, args.deals, args.screen_data, args.workers) for name in screens}
    for summary in played.values():
        print(format_screen(summary), flush=True)
    if played:
        print("role screens: SF points a case, the candidate against the reference in one role\n"
              + screen_table(played), flush=True)
        out["screens"] = {name: {"role": s["role"], "diff": s["difference"]["mean"], "ci95": s["difference"]["ci95"],
                                 "cases": s["cases"]} for name, s in played.items()}
    table = ablation_table(out)  # type: ignore[arg-type]
    if table:
        print("ablation: SF points per game, the player with the part against the one without it\n" + table, flush=True)
    if args.duel:
        from skat.players.duel import ABLATION, bidder_factory, duel, held_out, read_corpus

        judged = held_out(read_corpus(args.duel))
        rows = {}
        for what, a, b in ABLATION:
            s = duel(judged, bidder_factory(a), bidder_factory(b))
            d = s["difference"]
            print(f"duel {what:46s} {d['mean']:+7.2f} [{d['ci95'][0]:+6.2f}, {d['ci95'][1]:+6.2f}] "
                  f"over {s['deals']} held-out deals", flush=True)
            rows[what] = {"diff": d["mean"], "ci95": d["ci95"], "deals": s["deals"], "missing": s["missing"]}
        out["duel_ablation"] = rows
    if args.timing_deals:
        load = warm_up()  # a process loads the solver once; not a decision's time
        print(f"solver kernels loaded in {load:.2f} s (once per process)", flush=True)
        shipped_model.cache_clear()
        started = time.perf_counter()
        shipped_model()  # the learned bidder's model, also once per process (goal: well under a second)
        model_load = time.perf_counter() - started
        print(f"learned bidding model loaded in {1000 * model_load:.0f} ms (once per process)", flush=True)
        anchor = timing("heuristic", args.timing_deals, 2026)
        strong = timing(args.timing_player, args.timing_deals, 2026)
        ratio = strong["card_median_s"] / anchor["card_median_s"] if anchor["card_median_s"] else float("inf")
        print(f"{args.timing_player}, CPU seconds: {_ms(strong['card_median_s'])} median per card "
              f"(p95 {_ms(strong['card_p95_s'])}, max {_ms(strong['card_max_s'])}, "
              f"{strong['cards']} cards), bidding/skat {1000 * strong['bidding_median_s']:.1f} ms median "
              f"(p95 {1000 * strong['bidding_p95_s']:.1f} ms, max {1000 * strong['bidding_max_s']:.1f} ms); "
              f"anchor heuristic {1000 * anchor['card_median_s']:.2f} ms per card, ratio {ratio:.0f}x", flush=True)
        out["timing"] = {"player": args.timing_player, "strong": strong, "heuristic": anchor, "ratio_card_median": ratio, "solver_load_s": load,
                         "model_load_s": model_load}
    print(json.dumps(out))


if __name__ == "__main__":
    main()
