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
from skat.enums import GameType, Phase
from skat.players.arena import seeger_fabian
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

_PHASES = tuple(Phase)
_GAMES = (GameType.DIAMONDS, GameType.HEARTS, GameType.SPADES, GameType.CLUBS, GameType.GRAND, GameType.NULL)
LAYOUT: tuple[tuple[str, int], ...] = (
    ("hand", 32),  # own cards
    ("skat", 32),  # the skat this seat picked up or was shown
    ("discard", 32),  # the two cards this seat put away
    ("open", 32),  # cards shown open (an ouvert declarer's hand)
    ("played", 3 * 32),  # the cards each seat has played, by relative seat (me, left, right)
    ("trick", 3 * 32),  # the current trick's cards, by relative seat
    ("leader", 3),  # who led the current trick (relative seat)
    ("tricks_won", 3),  # tricks taken per relative seat, / 10
    ("points", 3),  # card points taken per relative seat, / 120
    ("void", 2 * 5),  # shown not to hold: each other seat's suits (diamonds, hearts, spades, clubs) and trump
    ("seat", 3),  # own seat: forehand, middlehand, rearhand
    ("declarer", 4),  # no declarer, me, left, right
    ("game", 7),  # diamonds ... grand, null; none
    ("levels", 4),  # hand, Schneider announced, Schwarz announced, ouvert
    ("phase", len(_PHASES)),
    ("bid", 1),  # the auction's value, / 264
    ("kontra", 2),  # Kontra, Re
    ("ramsch", 1),  # the deal is a Ramsch
)
"""The parts of the observation vector, in order, with their lengths."""
OBSERVATION_SIZE = sum(n for _, n in LAYOUT)
_OFFSET = dict(zip([name for name, _ in LAYOUT], itertools.accumulate([0, *[n for _, n in LAYOUT]]), strict=False))


def _effective_suit(card: Card, game: GameType | None) -> int:
    """0..3 the suit a card follows (diamonds, hearts, spades, clubs), 4 trump, under the game (None: grand's)."""
    if game is None or game in (GameType.GRAND,):
        return 4 if card.name[1] == "J" else "DHSC".index(card.name[0])
    if game == GameType.NULL:
        return "DHSC".index(card.name[0])
    trump = {GameType.DIAMONDS: "D", GameType.HEARTS: "H", GameType.SPADES: "S", GameType.CLUBS: "C"}[game]
    if card.name[1] == "J" or card.name[0] == trump:
        return 4
    return "DHSC".index(card.name[0])


def encode_view(view: Any) -> np.ndarray:
    """One seat's view (:class:`~skat.deal.game.SeatView`) as the observation vector: nothing the seat may not
    know is in it, because the view holds nothing else."""
    obs = np.zeros(OBSERVATION_SIZE, dtype=np.float32)
    me = view.seat

    def rel(seat: int) -> int:
        return (seat - me) % 3

    def cards(part: str, items: Any, block: int = 0) -> None:
        base = _OFFSET[part] + 32 * block
        for c in items:
            obs[base + int(c)] = 1.0

    cards("hand", view.hand)
    if view.skat:
        cards("skat", view.skat)
    if view.discard:
        cards("discard", view.discard)
    for shown in view.open_hands.values():
        cards("open", shown)
    game = view.contract.game_type if view.contract is not None else None
    ramsch = view.contract is None and view.phase in (Phase.PLAY, Phase.FINISHED) and view.declarer is None
    for leader, trick, _ in view.tricks:
        led = _effective_suit(trick[0], game)
        for i, card in enumerate(trick):
            seat = (leader + i) % 3
            cards("played", [card], rel(seat))
            if i and _effective_suit(card, game) != led and rel(seat):
                obs[_OFFSET["void"] + 5 * (rel(seat) - 1) + led] = 1.0
    if view.trick:
        led = _effective_suit(view.trick[0][1], game)
        obs[_OFFSET["leader"] + rel(view.trick[0][0])] = 1.0
        for i, (seat, card) in enumerate(view.trick):
            cards("trick", [card], rel(seat))
            cards("played", [card], rel(seat))
            if i and _effective_suit(card, game) != led and rel(seat):
                obs[_OFFSET["void"] + 5 * (rel(seat) - 1) + led] = 1.0
    for _, _, winner in view.tricks:
        obs[_OFFSET["tricks_won"] + rel(winner)] += 0.1
    for seat in range(3):
        obs[_OFFSET["points"] + rel(seat)] = view.trick_points[seat] / 120.0
    obs[_OFFSET["seat"] + me] = 1.0
    obs[_OFFSET["declarer"] + (0 if view.declarer is None else 1 + rel(view.declarer))] = 1.0
    obs[_OFFSET["game"] + (_GAMES.index(game) if game in _GAMES else 6)] = 1.0
    if view.contract is not None:
        c = view.contract
        for i, flag in enumerate((c.hand, c.schneider, c.schwarz, c.ouvert)):
            obs[_OFFSET["levels"] + i] = float(bool(flag))
    obs[_OFFSET["phase"] + _PHASES.index(view.phase)] = 1.0
    obs[_OFFSET["bid"]] = view.bid / 264.0
    if view.kontra_level >= 1:
        obs[_OFFSET["kontra"]] = 1.0
    if view.kontra_level >= 2:
        obs[_OFFSET["kontra"] + 1] = 1.0
    obs[_OFFSET["ramsch"]] = float(ramsch)
    return obs


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
