"""The PettingZoo environment for bot authors (skat.players.env, docs/env.md): PettingZoo's own API test, every rule
set played to the end by random legal actions with no refused action, the rewards a list would book, the encoding
against hand-made positions, nothing hidden in an observation, and the documented training example."""

from __future__ import annotations

import re

import numpy as np
import pytest
from pettingzoo.test import api_test

from skat.deal.game import Game
from skat.players.arena import seeger_fabian
from skat.players.env import ACTION_INDEX, ACTIONS, AGENTS, LAYOUT, OBSERVATION_SIZE, action_mask, encode_view, env
from skat.rules.actions import parse_action
from test_server_support import ROOT

OFFSET = {}
_at = 0
for _name, _n in LAYOUT:
    OFFSET[_name] = (_at, _at + _n)
    _at += _n


def part(obs: np.ndarray, name: str) -> np.ndarray:
    a, b = OFFSET[name]
    return obs[a:b]


def cards_of(bits: np.ndarray) -> set[str]:
    return {ACTIONS[i] for i in np.flatnonzero(bits)}


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("ruleset", ["isko2018", "pub"])
def test_pettingzoos_api_test(ruleset):
    api_test(env(ruleset), num_cycles=600, verbose_progress=False)


@pytest.mark.parametrize("ruleset", ["isko2018", "pub", "tournee", "old_pre1999", "pirate"])
def test_every_rule_set_plays_to_the_end_with_the_lists_rewards(ruleset):
    e = env(ruleset)
    rng = np.random.default_rng(7)
    games = 0
    for episode in range(60):
        e.reset(seed=episode)
        total = dict.fromkeys(AGENTS, 0.0)
        for agent in e.agent_iter():
            obs, reward, terminated, truncated, info = e.last()
            total[agent] += reward
            if terminated or truncated:
                e.step(None)
                continue
            assert obs["observation"].shape == (OBSERVATION_SIZE,) and obs["observation"].dtype == np.float32
            legal = np.flatnonzero(obs["action_mask"])
            assert len(legal) > 0
            e.step(int(rng.choice(legal)))
        result = info["result"]
        expected = seeger_fabian(result["declarer"], result["won"], result["scores"])
        assert [total[a] for a in AGENTS] == expected
        games += result["declarer"] is not None
    assert games > 20  # most deals were played, not passed in


def test_an_action_outside_the_mask_is_refused_and_changes_nothing():
    e = env()
    e.reset(seed=3)
    agent = e.agent_selection
    obs = e.observe(agent)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.raises(ValueError, match="may not"):
        e.step(illegal)
    assert e.agent_selection == agent and np.array_equal(e.observe(agent)["action_mask"], obs["action_mask"])


HANDS = [["CJ", "SJ", "CA", "CT", "CK", "SA", "ST", "HA", "D7", "D8"],
         ["HJ", "DJ", "C7", "C8", "HT", "HK", "H7", "H8", "H9", "DA"],
         ["CQ", "C9", "SK", "SQ", "S9", "S7", "S8", "HQ", "DT", "DK"]]
SKAT = ["DQ", "D9"]


def played(actions: list[tuple[int, str]], hands=HANDS) -> Game:
    game = Game(hands=hands, skat=SKAT)
    for seat, token in actions:
        game.apply(parse_action(token), seat)
    return game


# forehand (seat 0) is declarer: the auction (middlehand bids, forehand holds), a grand hand, then a trick
AUCTION = [(1, "18"), (0, "hold"), (1, "pass"), (2, "pass"), (0, "declare grand hand")]


def test_the_encoding_of_a_hand_made_position():
    game = played([*AUCTION, (0, "CA"), (1, "C7"), (2, "C9"), (0, "SA"), (1, "H7")])
    assert game.phase.value == "play"
    obs = encode_view(game.view(2))  # rearhand, to move: the second trick's third card
    assert cards_of(part(obs, "hand")) == {"CQ", "SK", "SQ", "S9", "S7", "S8", "HQ", "DT", "DK"}
    # played cards by relative seat: me (rearhand), left (forehand), right (middlehand)
    played_bits = part(obs, "played").reshape(3, 32)
    assert cards_of(played_bits[0]) == {"C9"} and cards_of(played_bits[1]) == {"CA", "SA"}
    assert cards_of(played_bits[2]) == {"C7", "H7"}
    assert cards_of(part(obs, "trick").reshape(3, 32)[1]) == {"SA"}
    assert list(part(obs, "leader")) == [0, 1, 0]  # forehand, on my left, led the trick
    # middlehand did not follow spades: shown void in spades (the right seat's block: diamonds, hearts, spades, ...)
    assert list(part(obs, "void").reshape(2, 5)[1]) == [0, 0, 1, 0, 0]
    assert list(part(obs, "declarer")) == [0, 0, 1, 0]  # the declarer is on my left
    assert list(part(obs, "game")) == [0, 0, 0, 0, 1, 0, 0]  # grand
    assert list(part(obs, "levels")) == [1, 0, 0, 0]  # hand
    assert list(part(obs, "seat")) == [0, 0, 1]
    assert part(obs, "bid")[0] == pytest.approx(18 / 264)
    assert part(obs, "points")[1] == pytest.approx((11 + 0 + 0) / 120)  # forehand took the first trick: A, 7, 9
    mask = action_mask(game, 2)
    assert {ACTIONS[i] for i in np.flatnonzero(mask)} == {"SK", "SQ", "S9", "S7", "S8"}  # spades must be followed
    assert not action_mask(game, 0).any()  # not forehand's turn


def test_an_observation_holds_nothing_the_seat_may_not_know():
    # the same public play, the other two hands dealt differently (cards swapped between them, unplayed)
    other = [list(h) for h in HANDS]
    other[1][other[1].index("H9")], other[2][other[2].index("HQ")] = "HQ", "H9"
    actions = [*AUCTION, (0, "CA"), (1, "C7"), (2, "C9")]
    a = encode_view(played(actions).view(0))
    b = encode_view(played(actions, other).view(0))
    assert np.array_equal(a, b)
    # and the seat's own hidden skat: only the declarer who picked it up sees it
    picked = played([(1, "18"), (0, "hold"), (1, "pass"), (2, "pass"), (0, "pickup")])
    assert cards_of(part(encode_view(picked.view(0)), "skat")) == set(SKAT)
    assert not part(encode_view(picked.view(1)), "skat").any()


def test_a_seed_deals_the_same_deal():
    e1, e2 = env(), env()
    e1.reset(seed=42)
    e2.reset(seed=42)
    for agent in AGENTS:
        assert np.array_equal(e1.observe(agent)["observation"], e2.observe(agent)["observation"])


def test_the_documented_training_example_runs():
    text = (ROOT / "docs" / "env.md").read_text(encoding="utf-8")
    code = re.search(r"```python\n(.*?)```", text, re.S).group(1)
    namespace: dict = {}
    exec(compile(code.replace("EPISODES = 2000", "EPISODES = 40"), "docs/env.md", "exec"), namespace)
    assert namespace["episodes"] == 40 and np.isfinite(namespace["weights"]).all()
    assert "kontra" in ACTION_INDEX and len(ACTIONS) == len(set(ACTIONS))
