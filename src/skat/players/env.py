"""A PettingZoo AEC environment over one deal of Skat, for reinforcement-learning research (docs/env.md).

The three agents are the deal's seats, ``forehand``, ``middlehand`` and ``rearhand``; an episode is one deal under
a rule set of :mod:`skat.rules.rulesets` (ISkO by default; ``pub`` brings Ramsch, Schieberamsch and Kontra,
``tournee`` Tournee Skat). The agent to move chooses one action of a fixed catalogue (:data:`ACTIONS`: the 32 cards,
every bid value, hold and pass, picking up the skat, every discard of two cards, every declaration, the Ramsch
push, Tournee's turn, accept and reject, Kontra and Re); its observation says which are legal (``action_mask``).
Claims and concessions are not offered (the deal is played to its last trick). Kontra and Re, side actions in the
engine, are offered to the agent to move when the engine allows them.

Each seat observes only what that player may know (the engine's :meth:`~skat.deal.game.Game.view`), encoded by
:func:`encode_view` as one flat ``float32`` vector (:data:`OBSERVATION_SIZE` values; the layout in
:data:`LAYOUT`). At the end every seat gets its Seeger-Fabian points for the deal as reward (the declarer's
score ± 50, 40 to each defender of a lost game; a Ramsch or a deal passed in: the score sheet's entries), so the
rewards of one episode are those of a Skat list.
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from skat.cards import Card
from skat.players.arena import seeger_fabian
from skat.players.encoding import LAYOUT, OBSERVATION_SIZE, encode_view
from skat.rules.bidding import BID_VALUES
from skat.rules.rulesets import TOURNEE_BID_VALUES, get_ruleset
from skat.rules.value import HAND_CONTRACTS, SKAT_CONTRACTS
from skat.variants.registry import variant_for_rules, variant_of_game

__all__ = ["SkatEnv", "env", "raw_env", "ACTIONS", "ACTION_INDEX", "AGENTS", "OBSERVATION_SIZE", "LAYOUT",
           "encode_view", "action_mask"]

AGENTS = ("forehand", "middlehand", "rearhand")
_CARDS = [Card(i).name for i in range(32)]
_BIDS = sorted(set(BID_VALUES) | set(TOURNEE_BID_VALUES))
_DISCARDS = [f"discard {a} {b}" for a, b in itertools.combinations(_CARDS, 2)]
_DECLARES = sorted({"declare " + str(c) for c in (*HAND_CONTRACTS, *SKAT_CONTRACTS)})
ACTIONS: tuple[str, ...] = (*_CARDS, *(str(v) for v in _BIDS), "hold", "pass", "pickup", "push", "turn", "accept",
                            "reject", "kontra", "re", *_DISCARDS, *_DECLARES)
"""Every action token an agent may choose, by its index (the action space's numbers)."""
ACTION_INDEX: dict[str, int] = {token: i for i, token in enumerate(ACTIONS)}
_SIDE = ("kontra", "re")

def action_mask(game: Any, seat: int) -> np.ndarray:
    """The catalogue's actions the seat may take now: its legal actions, and Kontra or Re when allowed."""
    mask = np.zeros(len(ACTIONS), dtype=np.int8)
    if game.to_move != seat:
        return mask
    for action in game.legal_actions(seat):
        mask[ACTION_INDEX[str(action)]] = 1
    for action in game.side_actions(seat):
        if str(action) in _SIDE:
            mask[ACTION_INDEX[str(action)]] = 1
    return mask


class SkatEnv(AECEnv):
    """One deal of Skat as a PettingZoo AEC environment (see the module's description)."""

    metadata = {"name": "skat_v0", "render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(self, ruleset: str = "isko2018", render_mode: str | None = None) -> None:
        super().__init__()
        self.rules = get_ruleset(ruleset)
        self.variant = variant_for_rules(self.rules)
        self.possible_agents = list(AGENTS)
        self.render_mode = render_mode
        self.game: Any = None
        self._observation_spaces = {a: spaces.Dict({
            "observation": spaces.Box(0.0, 1.0, (OBSERVATION_SIZE,), dtype=np.float32),
            "action_mask": spaces.Box(0, 1, (len(ACTIONS),), dtype=np.int8),
        }) for a in AGENTS}
        self._action_spaces = {a: spaces.Discrete(len(ACTIONS)) for a in AGENTS}

    def observation_space(self, agent: str) -> spaces.Space:
        return self._observation_spaces[agent]  # one space object per agent, as PettingZoo asks

    def action_space(self, agent: str) -> spaces.Space:
        return self._action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """A new deal (from ``seed``: the same seed deals the same cards)."""
        if seed is None:
            seed = int(np.random.default_rng().integers(0, 2**63 - 1))
        self.game = self.variant.new_game(seed, self.rules)
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = AGENTS[self.game.to_move]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = AGENTS.index(agent)
        return {"observation": encode_view(self.game.view(seat)), "action_mask": action_mask(self.game, seat)}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        seat = AGENTS.index(agent)
        assert action is not None
        token = ACTIONS[int(action)]
        if not action_mask(self.game, seat)[int(action)]:
            raise ValueError(f"{agent} may not {token!r} now; choose an action of the observation's action_mask")
        self._cumulative_rewards[agent] = 0.0
        variant = variant_of_game(self.game)
        assert variant is not None
        self.game.apply(variant.parse_action(token), seat)
        self._clear_rewards()
        if self.game.is_over:
            result = self.game.result
            scores = list(result.scores) if getattr(result, "scores", None) is not None else [0, 0, 0]
            sf = seeger_fabian(result.declarer, result.won, scores)
            for i, a in enumerate(AGENTS):
                self.rewards[a] = float(sf[i])
                self.terminations[a] = True
                self.infos[a] = {"result": result.to_json()}
        else:
            self.agent_selection = AGENTS[self.game.to_move]
        self._accumulate_rewards()

    def render(self) -> str | None:
        if self.render_mode != "ansi" or self.game is None:
            return None
        view = self.game.view(self.game.to_move if self.game.to_move is not None else 0)
        return f"{view.phase.value}: to move {self.agent_selection}, bid {view.bid}, contract {view.contract}"

    def close(self) -> None:
        pass


def raw_env(ruleset: str = "isko2018", render_mode: str | None = None) -> SkatEnv:
    """The environment without PettingZoo's wrappers."""
    return SkatEnv(ruleset, render_mode)


def env(ruleset: str = "isko2018", render_mode: str | None = None) -> AECEnv:
    """The environment with PettingZoo's order and bounds checks (``OrderEnforcingWrapper``)."""
    from pettingzoo.utils import wrappers

    return wrappers.OrderEnforcingWrapper(raw_env(ruleset, render_mode))
