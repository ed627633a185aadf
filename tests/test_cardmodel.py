"""The learned card-play model (skat.players.cardmodel), its corpus (skat.players.playcorpus, tools/cardplay_corpus.py)
and its training (tools/train_cardplay.py): the input against hand-made positions, the policy only ever giving legal
cards weight, a labelled deal replaying to its positions, the corpus resuming, the training writing a model that
loads and plays."""

from __future__ import annotations

import gzip
import json
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skat.cards import Card
from skat.deal.game import Phase
from skat.players.arena import new_game
from skat.players.cardmodel import INPUT_SIZE, CardModel, features
from skat.players.encoding import OBSERVATION_SIZE, OFFSET, encode_view, legal_cards
from skat.players.playcorpus import PlayCorpusConfig, labelled_deal, positions
from skat.rules.actions import Play
from skat.rules.rulesets import get_ruleset
from test_server_support import ROOT


def random_model(seed: int = 0, hidden: tuple[int, ...] = (64, 32)) -> CardModel:
    rng = np.random.default_rng(seed)
    weights, width = {}, INPUT_SIZE
    for i, h in enumerate(hidden):
        weights[f"w{i}"], weights[f"b{i}"] = rng.normal(0, 0.3, (width, h)), rng.normal(0, 0.1, h)
        width = h
    weights.update(policy_w=rng.normal(0, 1.0, (width, 32)), policy_b=rng.normal(0, 1.0, 32),
                   value_w=rng.normal(0, 0.3, (width, 2)), value_b=np.zeros(2))
    return CardModel(weights, {"test": True})


def play_to(seed: int, ruleset: str, steps: int):
    """A deal played by random legal actions for ``steps`` actions (or to its end); the game."""
    game = new_game(seed, get_ruleset(ruleset))
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        if game.is_over:
            break
        seat = game.to_move
        legal = game.legal_actions(seat)
        game.apply(legal[int(rng.integers(len(legal)))], seat)
    return game


def first_trick_view(min_legal: int):
    """The view of the seat to move in the first trick of a suit, grand or Null game with at least ``min_legal``
    legal cards, from the first such deal of :func:`play_to`."""
    for seed in range(60):
        game = play_to(seed, "isko2018", 12)
        if (game.phase is Phase.PLAY and game.contract is not None and not game.tricks
                and len(game.legal_actions(game.to_move)) >= min_legal):
            return game.view(game.to_move)
    raise AssertionError(f"no first trick with {min_legal} legal cards in 60 deals")


def test_the_input_is_the_observation_then_the_legal_cards():
    game = play_to(3, "isko2018", 200)
    game = None
    for seed in range(40):  # a deal in its card play, a trick under way
        g = play_to(seed, "isko2018", 12)
        if g.phase is Phase.PLAY and g.trick:
            game = g
            break
    assert game is not None
    view = game.view(game.to_move)
    x = features(view)
    assert x.shape == (INPUT_SIZE,) and x.dtype == np.float32
    assert np.array_equal(x[:OBSERVATION_SIZE], encode_view(view))
    plays = {int(a.card) for a in view.legal_actions if isinstance(a, Play)}
    assert set(np.flatnonzero(x[OBSERVATION_SIZE:])) == plays
    hand = set(np.flatnonzero(x[OFFSET["hand"]:OFFSET["hand"] + 32]))
    assert plays <= hand == {int(c) for c in view.hand}
    # outside the card play no card is legal
    assert not legal_cards(new_game(1, get_ruleset("isko2018")).view(0)).any()


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 40), ruleset=st.sampled_from(["isko2018", "pub"]))
def test_the_policy_gives_weight_to_legal_cards_only(seed, steps, ruleset):
    game = play_to(seed, ruleset, steps)
    if game.is_over:
        return
    view = game.view(game.to_move)
    model = random_model(seed % 5)
    legal = legal_cards(view)
    for p in (model.policy(view), model.symmetric_policy(view)):
        assert p.shape == (32,)
        assert np.all(p[~legal] == 0.0)
        if legal.any():
            assert np.all(p[legal] > 0.0) and abs(p.sum() - 1.0) < 1e-5
        else:
            assert p.sum() == 0.0


def test_the_symmetric_policy_is_the_same_for_a_deal_told_with_other_suits():
    """Hearts and spades swapped in a clubs game (the jacks stay): the same position, the same policy per card."""
    from skat.cards import Card
    from skat.deal.game import Game
    from skat.players.arena import declare_hand

    swap = {"H": "S", "S": "H"}

    def relabel(card: Card) -> Card:
        name = card.name
        return card if name[1] == "J" or name[0] not in swap else Card.parse(swap[name[0]] + name[1])

    dealt = new_game(7, get_ruleset("isko2018"))
    hands = [list(dealt.view(s).hand) for s in range(3)]
    skat = [Card(c) for c in range(32) if all(Card(c) not in h for h in hands)]
    twins = []
    for f in (lambda c: c, relabel):
        game = Game(hands=[[f(c) for c in h] for h in hands], skat=[f(c) for c in skat])
        twins.append(declare_hand(game, 0, "declare clubs hand"))  # forehand plays clubs hand at 18
    model = random_model(3)
    p, q = (model.symmetric_policy(g.view(0)) for g in twins)
    for card in range(32):
        assert abs(p[card] - q[int(relabel(Card(card)))]) < 1e-5
    plain = [model.policy(g.view(0)) for g in twins]
    assert max(abs(plain[0][c] - plain[1][int(relabel(Card(c)))]) for c in range(32)) > 1e-6  # the plain one: not so


def test_a_model_is_saved_and_loaded_and_refuses_another_encoding(tmp_path):
    model = random_model(1)
    path = tmp_path / "m.npz"
    model.save(path)
    back = CardModel.load(path)
    assert back.meta == {"test": True}
    game = play_to(5, "isko2018", 14)
    x = features(game.view(game.to_move))[None, :]
    assert np.allclose(model.policies(x), back.policies(x), atol=2e-2)  # float16 on disk
    assert back.size_bytes == model.size_bytes < 10_000_000
    weights = {"w0": np.zeros((INPUT_SIZE - 1, 4)), "b0": np.zeros(4), "policy_w": np.zeros((4, 32)),
               "policy_b": np.zeros(32), "value_w": np.zeros((4, 2)), "value_b": np.zeros(2)}
    with pytest.raises(ValueError, match="another encoding"):
        CardModel(weights)


def test_a_labelled_deal_replays_to_its_positions():
    record = labelled_deal(PlayCorpusConfig(deals=1, player="medium"), 0)
    json.dumps(record)  # a JSON line as it is
    assert record["labels"] and record["declarer"] is not None
    found = list(positions(record))
    assert len(found) == len(record["labels"])
    for pos in found:
        legal = {int(a.card) for a in pos.view.legal_actions if isinstance(a, Play)}
        assert set(pos.values) == legal and len(legal) > 1
        assert pos.played in legal
        assert pos.worlds >= 4
        assert all(-0.5 <= v <= 2.0 for v in pos.values.values())
    # the search played one of its best cards (for the mover's side) where it labelled
    declarer = record["declarer"]
    best_played = [max(p.values.values()) - p.values[p.played] < 1e-9 if p.view.seat == declarer
                   else p.values[p.played] - min(p.values.values()) < 1e-9 for p in found]
    assert sum(best_played) >= 0.9 * len(found)


def test_a_null_hand_corpus_labels_the_card_play_of_null():
    config = PlayCorpusConfig(deals=2, player="medium", start="null")
    record = labelled_deal(config, 1)
    assert record["contract"] == "null hand" and record["labels"]
    found = list(positions(record))
    assert len(found) == len(record["labels"])
    assert all(p.view.contract.is_null and p.declarer == record["declarer"] for p in found)
    assert any(p.view.seat == record["declarer"] for p in found) and any(p.view.seat != record["declarer"] for p in found)
    with pytest.raises(ValueError, match="'auction' or as 'null'"):
        PlayCorpusConfig(deals=1, start="ramsch")


def test_the_corpus_tool_resumes_where_its_file_ends(tmp_path):
    out = tmp_path / "play.jsonl"
    tool = [sys.executable, str(ROOT / "tools" / "cardplay_corpus.py"), "--player", "medium", "--workers", "1",
            "--out", str(out)]
    first = subprocess.run([*tool, "--deals", "1"], capture_output=True, text=True, timeout=300)
    assert first.returncode == 0, first.stderr
    second = subprocess.run([*tool, "--deals", "2", "--pack"], capture_output=True, text=True, timeout=300)
    assert second.returncode == 0, second.stderr
    assert "1 deals in" in second.stdout and "1 to play" in second.stdout
    lines = out.read_text().splitlines()
    assert len(lines) == 3 and json.loads(lines[0])["players"] == ["medium"]
    assert gzip.decompress((tmp_path / "play.jsonl.gz").read_bytes()).decode() == out.read_text()
    other = subprocess.run([*tool[:3], "strong", *tool[4:], "--deals", "2"], capture_output=True, text=True,
                           timeout=300)
    assert other.returncode == 2 and "another match" in other.stderr


def test_training_writes_a_model_that_loads_and_agrees_with_the_search_more_than_chance(tmp_path):
    pytest.importorskip("torch")
    corpus = tmp_path / "play.jsonl"
    lines = [json.dumps({"skat_arena_checkpoint": 1, "players": ["medium"], "seed": 7, "ruleset": "isko2018"})]
    records = [labelled_deal(PlayCorpusConfig(deals=12, seed=7, player="medium"), d) for d in range(12)]
    lines += [json.dumps(r) for r in records]
    corpus.write_text("\n".join(lines) + "\n")
    other = tmp_path / "other.jsonl"  # a second corpus (the same deals): each is split and reported on its own
    other.write_text(corpus.read_text())
    model_path, report = tmp_path / "m.npz", tmp_path / "report"
    done = subprocess.run([sys.executable, str(ROOT / "tools" / "train_cardplay.py"), str(corpus), str(other),
                           "--epochs", "8",
                           "--hidden", "64", "--model", str(model_path), "--report", str(report),
                           "--ablations", "declarer x3", "--baseline", str(ROOT / "src/skat/data/card_model.npz")],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    model = CardModel.load(model_path)
    # the first four fifths of the deals trained it (those with a game played: a deal passed in has no positions)
    assert model.meta["setup"]["hidden"] == [64] and model.meta["train_deals"] == 2 * sum(bool(r["labels"])
                                                                                           for r in records[:9])
    results = json.loads((report / "report.json").read_text())["results"]
    assert set(results) == {"model", "declarer x3", "baseline"}
    figures = results["model"]
    assert results["baseline"]["positions"] == figures["positions"]  # the same held-out positions
    assert "baseline" in (report / "report.txt").read_text() and "by corpus" in (report / "report.txt").read_text()
    by_corpus = results["baseline"]["by_corpus"]
    assert set(by_corpus) == {"play", "other"} and by_corpus["play"] == by_corpus["other"]
    assert sum(c["positions"] for c in results["model"]["by_corpus"].values()) == figures["positions"]
    assert figures["regret"] <= figures["random_card_regret"]
    parts = figures["regret_by_part"]
    assert {"suit declarer", "suit defenders"} <= set(parts)
    held = sum(p["positions"] for p in parts.values())
    assert held == figures["positions"]
    assert "value lost a decision by role and game" in (report / "report.txt").read_text()
    assert (report / "calibration.png").stat().st_size > 1000 and (report / "accuracy.png").exists()
    view = play_to(2, "isko2018", 13)
    assert Card(int(np.argmax(model.policy(view.view(view.to_move))))) is not None
    missing = subprocess.run([sys.executable, str(ROOT / "tools" / "train_cardplay.py"), str(corpus), "--epochs", "1",
                              "--baseline", str(tmp_path / "none.npz")], capture_output=True, text=True, timeout=600)
    assert missing.returncode == 2 and "cannot read the baseline model" in missing.stderr


def test_the_cut_measurement_counts_each_threshold_on_the_held_out_positions(tmp_path):
    """tools/cardplay_cuts.py: a stricter threshold cuts fewer positions, each figure is what its rows give."""
    report = tmp_path / "cuts"
    done = subprocess.run([sys.executable, str(ROOT / "tools" / "cardplay_cuts.py"),
                           str(ROOT / "bench" / "data" / "corpus" / "play-2042.jsonl.gz"), "--tricks", "4",
                           "--report", str(report)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    figures = json.loads((report / "cuts.json").read_text())
    assert figures["tricks"] == 4 and figures["positions"] > 500
    for kind in ("policy", "value"):
        rows = figures[kind]
        shares = [row["share_cut"] for row in rows]
        assert shares == sorted(shares, reverse=True) and 0 < shares[0] < 1
        for row in rows:
            assert row["positions_cut"] == round(row["share_cut"] * figures["positions"])
            if row["positions_cut"]:
                assert abs(row["loss_per_decision"] - row["share_cut"] * row["policy_loss_where_cut"]) < 1e-9
                assert 0 <= row["policy_loss_where_cut"] <= row["cards_differ_where_cut"]
    assert all(0.5 <= row["verdict_right"] <= 1 for row in figures["value"] if row["positions_cut"])
    assert "policy sure >= 0.90" in (report / "cuts.txt").read_text()
    bad = subprocess.run([sys.executable, str(ROOT / "tools" / "cardplay_cuts.py"), "x.jsonl", "--tricks", "11"],
                         capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and "--tricks is 1 to 10" in bad.stderr


def shown_void_position():
    """A card decision after a seat other than the mover failed to follow suit (with the true hands)."""
    from skat.rules.ranking import FOLLOW_MASK

    for seed in range(200):
        game = new_game(seed, get_ruleset("isko2018"))
        rng = np.random.default_rng(seed)
        while not game.is_over:
            seat = game.to_move
            if game.phase is Phase.PLAY and game.contract is not None and game.tricks:
                gt = int(game.contract.game_type)
                view = game.view(seat)
                for leader, cards, _w in view.tricks:
                    for k in (1, 2):
                        s = (leader + k) % 3
                        follow = FOLLOW_MASK[gt][int(cards[0])]
                        hand_now = game.view(s).hand.mask
                        holder = [o for o in range(3) if o not in (s, seat) and game.view(o).hand.mask & follow]
                        if s != seat and not (1 << int(cards[k])) & follow and gt <= 4 and hand_now and holder:
                            return game, view, s, follow
            legal = game.legal_actions(seat)
            game.apply(legal[int(rng.integers(len(legal)))], seat)
    raise AssertionError("no deal with a shown void")


def test_the_policy_likelihood_is_consistent_with_every_shown_void():
    from skat.players.inference import PolicyLikelihood
    from skat.players.worlds import Knowledge, World, sample_worlds

    game, view, void_seat, follow = shown_void_position()
    know = Knowledge.from_view(view)
    likelihood = PolicyLikelihood(random_model(3), weight=1.0, max_events=None)
    prepared = likelihood.prepare(view, know)
    hands = [game.view(s).hand.mask for s in range(3)]
    pool = sample_worlds(know, 30, __import__("random").Random(4))
    true = World(tuple(hands), pool[0].skat)
    # a world where the seat that showed the void holds a card of that suit after all
    other = next(s for s in range(3) if s not in (void_seat, view.seat) and hands[s] & follow)
    weights = likelihood.log_weights(prepared, [*pool, true])
    assert all(w > PolicyLikelihood.IMPOSSIBLE for w in weights)  # consistent worlds: a real chance
    assert weights == pytest.approx([likelihood.log_weight(prepared, w) for w in [*pool, true]], abs=1e-4)
    bad = hands[other] & follow & -(hands[other] & follow)  # one card of the suit
    give = hands[void_seat] & -hands[void_seat]
    broken = list(hands)
    broken[other] = (hands[other] & ~bad) | give
    broken[void_seat] = (hands[void_seat] & ~give) | bad
    assert likelihood.log_weight(prepared, World(tuple(broken), pool[0].skat)) <= PolicyLikelihood.IMPOSSIBLE
    # nobody else has played: every world alike
    fresh = play_to(9, "isko2018", 0)
    assert likelihood.prepare(fresh.view(0), Knowledge.from_view(fresh.view(0))) is None
    assert likelihood.log_weights(None, pool) == [0.0] * len(pool)


@pytest.mark.parametrize("hidden", [(64, 32), ()])
def test_the_policy_likelihood_equals_the_full_forward_pass_of_each_world(hidden):
    """The likelihood multiplies the input all worlds share once and each world's cards by their rows alone: the same
    log-likelihoods as the model's forward pass over each world's whole input (a declarer's discard included)."""
    from skat.players.encoding import mask_bits as _bits
    from skat.players.inference import PolicyLikelihood
    from skat.players.worlds import Knowledge, sample_worlds

    model = random_model(7, hidden)
    likelihood = PolicyLikelihood(model, max_events=None)
    checked = discards = 0
    for seed in range(40):
        game = play_to(seed, "isko2018", 22)
        if game.phase is not Phase.PLAY or game.contract is None or game.to_move is None:
            continue
        view = game.view(game.to_move)
        know = Knowledge.from_view(view)
        ev = likelihood.prepare(view, know)
        if ev is None:
            continue
        worlds = sample_worlds(know, 12, __import__("random").Random(seed))
        hands = np.array([w.hands for w in worlds], dtype=np.int64)[:, ev.seats] | np.array(ev.later, dtype=np.int64)
        follow = np.array(ev.follow, dtype=np.int64)
        legal = np.where((follow != 0) & (hands & follow != 0), hands & follow, hands)
        x = np.broadcast_to(ev.base, (len(worlds), *ev.base.shape)).copy()
        x[:, :, :32], x[:, :, -32:] = _bits(hands), _bits(legal)
        x[:, ev.discarded, 64:96] = _bits(np.array([w.skat for w in worlds], dtype=np.int64))[:, None, :]
        logits = model.policy_logits(x.reshape(-1, x.shape[-1])).reshape(len(worlds), len(ev.seats), 32)
        log_total = np.log(np.exp(logits - logits.max(axis=2, keepdims=True)).sum(axis=2)) + logits.max(axis=2)
        chosen = np.take_along_axis(logits, ev.cards[None, :, None], axis=2)[:, :, 0]
        expected = np.where(np.isfinite(chosen), chosen - log_total, PolicyLikelihood.IMPOSSIBLE).sum(axis=1)
        assert likelihood.log_weights(ev, worlds) == pytest.approx(expected.tolist(), abs=1e-4)
        checked += 1
        discards += bool(ev.discarded.any())
    assert checked >= 10 and discards >= 3


def test_the_learned_player_plays_every_game_with_no_illegal_action():
    from skat.players.arena import ArenaConfig, run_match
    from skat.players.registry import make_player

    player = make_player("learned", 1)
    assert player.name == "learned" and player.model.size_bytes < 10_000_000
    out = run_match(ArenaConfig(("learned", "heuristic"), deals=4, seed=3), workers=1, progress=False)
    assert out["deals"] == 4 and out["illegal_actions"] == 0 and not out["errors"]
    pub = run_match(ArenaConfig(("learned", "random"), deals=3, seed=4, ruleset="pub"), workers=1, progress=False)
    assert pub["illegal_actions"] == 0 and not pub["errors"]
    # in the card play it plays the policy's card
    game = None
    for seed in range(30):
        game = play_to(seed, "isko2018", 13)
        if game.phase is Phase.PLAY and len(game.legal_actions(game.to_move)) > 1 and game.contract is not None:
            break
    view = game.view(game.to_move)
    assert int(player.choose(view).card) == int(np.argmax(player.model.policy(view)))


def test_the_search_keeps_to_the_policys_best_cards_when_told_to_prune():
    from skat.players.cardmodel import shipped_card_model
    from skat.players.pimc import PIMCPlayer

    view = first_trick_view(4)
    p = shipped_card_model().policy(view)
    legal = [int(a.card) for a in view.legal_actions]
    pruned = PIMCPlayer(1, worlds=6, min_worlds=2, time_budget=0.5, bidding=False, policy_prune=2)
    card, totals, solved = pruned.rank_cards(view)
    assert sorted(totals) == sorted(sorted(legal, key=lambda c: -p[c])[:2]) and int(card.card) in totals
    whole = PIMCPlayer(1, worlds=6, min_worlds=2, time_budget=0.5, bidding=False)
    assert sorted(whole.rank_cards(view)[1]) == sorted(legal)


def test_the_symmetric_pruning_keeps_to_the_symmetric_policys_best_cards():
    from skat.players.ablation import strong_symmetric_prune
    from skat.players.cardmodel import shipped_card_model

    model = shipped_card_model()
    for seed in range(200):
        game = play_to(seed, "isko2018", 12)
        if game.phase is not Phase.PLAY or game.contract is None or game.tricks:
            continue
        view = game.view(game.to_move)
        legal = [int(a.card) for a in view.legal_actions]
        plain, symmetric = model.policy(view), model.symmetric_policy(view)
        best = sorted(legal, key=lambda c: -symmetric[c])[:3]
        if len(legal) > 3 and best != sorted(legal, key=lambda c: -plain[c])[:3]:
            break  # a position where the two prunings differ
    else:
        raise AssertionError("no position where the symmetric policy prunes otherwise")
    player = strong_symmetric_prune(1)
    player.worlds, player.min_worlds = 6, 2
    assert player.name == "strong-symmetric-prune" and player.policy_symmetric
    assert sorted(player._pruned(view)) == sorted(best)


def test_ties_of_the_search_go_to_the_policys_favourite_when_told():
    from skat.players.ablation import strong_policy_ties
    from skat.players.cardmodel import shipped_card_model
    from skat.players.levels import make_level

    model = shipped_card_model()
    player, plain = strong_policy_ties(1), make_level("strong", 1)
    assert player.name == "strong-policy-ties" and player.policy_ties and not plain.policy_ties
    found = 0
    for seed in range(80):
        game = play_to(seed, "isko2018", 14)
        if game.phase is not Phase.PLAY or game.contract is None or len(game.legal_actions(game.to_move)) < 3:
            continue
        view = game.view(game.to_move)
        legal = [int(a.card) for a in view.legal_actions]
        p = model.policy(view)
        favourite = max(legal, key=lambda c: p[c])
        hint = plain.heuristic.choose(view)
        if int(hint.card) == favourite:
            continue  # the two tie-breaks agree here
        sign = 1.0 if view.seat == view.declarer else -1.0
        tied = {c: 0.0 for c in legal}  # every card as good as every other: the tie-break decides
        assert int(player._pick(view, tied).card) == favourite
        assert int(plain._pick(view, tied).card) == int(hint.card)
        better = {**tied, min(legal): sign}  # one card better than the rest: no tie to break
        assert int(player._pick(view, better).card) == min(legal)
        found += 1
        if found == 3:
            break
    assert found == 3


def test_exact_ties_is_strong_with_both_changes_and_nothing_else():
    from skat.players.ablation import strong_exact_early, strong_exact_ties, strong_policy_ties, strong_solver

    both, plain = strong_exact_ties(1), strong_solver(1)
    assert both.name == "strong-exact-ties"
    assert (both.points_from_tricks_left, both.policy_ties) == (7, True)
    assert (strong_exact_early(1).points_from_tricks_left, strong_policy_ties(1).policy_ties) == (7, True)
    same = {k: v for k, v in vars(plain).items() if isinstance(v, (int, float, bool, str)) and k != "name"}
    changed = {k for k, v in same.items() if getattr(both, k) != v}
    assert changed == {"points_from_tricks_left", "policy_ties"}


def test_the_next_candidates_are_the_levels_with_the_three_changes_and_more_draws():
    from skat.players.ablation import (
        expert_drawn_exact_ties,
        expert_solver,
        strong_drawn_exact_ties,
        strong_drawn_exact_ties_80,
        strong_solver,
    )
    from skat.players.inference import DRAW_POWER

    plain = strong_solver(1)
    for candidate, worlds in ((strong_drawn_exact_ties(1), 60), (strong_drawn_exact_ties_80(1), 80)):
        assert (candidate.draw_power, candidate.points_from_tricks_left, candidate.policy_ties) == (DRAW_POWER, 7, True)
        assert candidate.worlds == worlds and candidate.worlds * candidate.pool == 240  # the same pool of worlds
        same = {k: v for k, v in vars(plain).items() if isinstance(v, (int, float, bool, str)) and k != "name"}
        changed = {k for k, v in same.items() if getattr(candidate, k) != v}
        assert changed == {"points_from_tricks_left", "policy_ties"} | ({"worlds", "pool"} if worlds == 80 else set())
    assert plain.draw_power is None
    expert, drawn = expert_solver(1), expert_drawn_exact_ties(1)
    same = {k: v for k, v in vars(expert).items() if isinstance(v, (int, float, bool, str)) and k != "name"}
    assert {k for k, v in same.items() if getattr(drawn, k) != v} == {"points_from_tricks_left", "policy_ties", "worlds"}
    assert (drawn.draw_power, drawn.worlds * drawn.pool) == (DRAW_POWER, 800)


def test_a_searching_player_prunes_by_the_model_it_is_given():
    from skat.players.ablation import strong_solver

    player = strong_solver(1)
    view = first_trick_view(5)
    legal = [int(a.card) for a in view.legal_actions]
    shipped = sorted(player._pruned(view))
    other = random_model(5)
    player.card_model = other
    assert player.model() is other
    p = other.policy(view)
    assert sorted(player._pruned(view)) == sorted(sorted(legal, key=lambda c: -p[c])[:3])
    player.card_model = None
    assert sorted(player._pruned(view)) == shipped


def test_the_selfplay_ablation_prunes_and_infers_with_its_own_model():
    from skat.players.ablation import SELFPLAY_MODEL, strong_selfplay_model
    from skat.players.cardmodel import packaged_card_model, shipped_card_model
    from skat.players.inference import PolicyLikelihood

    player, model = strong_selfplay_model(1), packaged_card_model(SELFPLAY_MODEL)
    assert player.name == "strong-selfplay-model" and model is not shipped_card_model()
    assert player.model() is model
    likelihoods = [part for part in player.inference.parts if isinstance(part, PolicyLikelihood)]
    assert len(likelihoods) == 1 and likelihoods[0].model is model
    view = first_trick_view(3)
    assert not np.allclose(model.policy(view), shipped_card_model().policy(view))
    with pytest.raises(FileNotFoundError, match="train one with tools/train_cardplay.py"):
        packaged_card_model("no_such_model.npz")


@pytest.mark.parametrize("round_", [1, 2])
def test_the_playout_model_ablation_is_strong_with_that_model_in_the_playouts_and_the_inference(round_):
    from skat.players import ablation
    from skat.players.cardmodel import packaged_card_model, shipped_card_model
    from skat.players.inference import AuctionLikelihood, PolicyLikelihood
    from skat.players.registry import make_player

    make, name, label = {1: (ablation.strong_playout_model, ablation.PLAYOUT_MODEL, "strong-playout-model"),
                         2: (ablation.strong_playout_model_2, ablation.PLAYOUT_MODEL_2, "strong-playout-model-2")}[round_]
    player, model = make(1), packaged_card_model(name)
    assert player.name == label and model is not shipped_card_model()
    assert player.model() is model  # the model the playouts play with
    likelihoods = [part for part in player.inference.parts if isinstance(part, PolicyLikelihood)]
    assert len(likelihoods) == 1 and likelihoods[0].model is model
    assert [type(part) for part in player.inference.parts] == [AuctionLikelihood, PolicyLikelihood]
    strong = make_player("strong", 1)
    settings = ("worlds", "min_worlds", "time_budget", "pool", "playouts", "policy_prune", "ramsch_search")
    assert [getattr(player, s) for s in settings] == [getattr(strong, s) for s in settings]
    assert (strong.model() is model) == (round_ == 2)  # the second round's model is the levels' since 6 December
    view = first_trick_view(3)
    assert not np.allclose(model.policy(view), shipped_card_model().policy(view))
    assert round_ == 1 or not np.allclose(model.policy(view), packaged_card_model(ablation.PLAYOUT_MODEL).policy(view))
    assert model.size_bytes <= 10_000_000


def test_the_playout_models_defence_alone_defends_with_it_and_does_the_rest_as_strong():
    from dataclasses import replace

    from skat.players.ablation import PLAYOUT_MODEL, strong_playout_model_defence
    from skat.players.cardmodel import packaged_card_model, shipped_card_model

    player = strong_playout_model_defence(1)
    assert player.name == "strong-playout-model-defence"
    assert player.defender.model() is packaged_card_model(PLAYOUT_MODEL)
    assert player.main.model() is shipped_card_model() and player.main.name == "strong"
    asked: list[str] = []
    player.main.choose = lambda view: asked.append("main") or view.legal_actions[0]
    player.defender.choose = lambda view: asked.append("defender") or view.legal_actions[0]
    view = first_trick_view(2)
    defender = next(s for s in range(3) if s != view.declarer)
    player.choose(replace(view, seat=defender))
    player.choose(replace(view, seat=view.declarer))
    auction = new_game(1, get_ruleset("isko2018"))
    player.choose(auction.view(auction.to_move))
    assert asked == ["defender", "main", "main"]


@pytest.mark.parametrize("level", ["strong", "expert"])
def test_the_levels_search_and_infer_with_the_level_model_and_their_predecessors_with_the_shipped_one(level):
    from skat.players import ablation
    from skat.players.cardmodel import LEVEL_MODEL, level_card_model, packaged_card_model, shipped_card_model
    from skat.players.inference import AuctionLikelihood, PolicyLikelihood
    from skat.players.registry import make_player

    player = make_player(level, 1)
    assert player.name == level and player.model() is level_card_model() is packaged_card_model(LEVEL_MODEL)
    assert level_card_model() is not shipped_card_model()
    assert [type(part) for part in player.inference.parts] == [AuctionLikelihood, PolicyLikelihood]
    assert player.inference.parts[1].model is level_card_model()
    before = {"strong": ablation.strong_2026_12_06, "expert": ablation.expert_2026_12_06}[level](1)
    assert before.name == f"{level}-2026-12-06" and before.model() is shipped_card_model()
    assert before.inference.parts[1].model is shipped_card_model()
    settings = ("worlds", "min_worlds", "time_budget", "max_time", "pool", "playouts", "policy_prune",
                "policy_prune_tricks", "ramsch_search", "draw_power")
    assert [getattr(before, s) for s in settings] == [getattr(player, s) for s in settings]
    # an ablation of the days before stays on the shipped model
    assert ablation.strong_solver(1).model() is shipped_card_model()
    assert ablation.strong_playout_model(1).model() is packaged_card_model(ablation.PLAYOUT_MODEL)
    third = ablation.strong_playout_model_3(1)  # the third round's model in today's strong
    assert third.model() is packaged_card_model(ablation.PLAYOUT_MODEL_3) is not level_card_model()
    assert third.inference.parts[1].model is third.model()
    strong = make_player("strong", 1)
    assert [getattr(third, s) for s in settings] == [getattr(strong, s) for s in settings]


def test_learned_with_the_level_model_plays_its_policy():
    from skat.players.ablation import PLAYOUT_MODEL_3, learned_2026_12, learned_level_model, learned_playout_model_3
    from skat.players.cardmodel import (
        LEARNED_MODEL,
        learned_card_model,
        level_card_model,
        packaged_card_model,
        shipped_card_model,
    )
    from skat.players.registry import make_player
    from skat.rules.actions import Play

    player = learned_level_model(1)
    assert player.name == "learned-level-model" and player.model is level_card_model()
    # learned's model since 7 December: the third round's
    assert make_player("learned", 1).model is learned_card_model() is packaged_card_model(LEARNED_MODEL)
    assert learned_card_model() is not level_card_model() and PLAYOUT_MODEL_3 == LEARNED_MODEL
    assert learned_playout_model_3(1).model is learned_card_model()
    assert learned_2026_12(1).model is shipped_card_model() and learned_2026_12(1).name == "learned-2026-12"
    view = first_trick_view(3)
    p = level_card_model().symmetric_policy(view)
    assert player.choose(view) == Play(Card(int(np.argmax(p))))


def test_learned_plays_a_null_game_by_the_shipped_model_and_the_others_by_its_own():
    from skat.players.arena import null_hand_game
    from skat.players.cardmodel import learned_card_model, shipped_card_model
    from skat.players.registry import make_player
    from skat.rules.actions import Play

    player = make_player("learned", 1)
    level, shipped = learned_card_model(), shipped_card_model()
    kinds: set[bool] = set()
    for seed in range(400):
        if seed % 2:  # a Null Hand played on by random cards
            game = null_hand_game(seed, get_ruleset("isko2018"))
            rng = np.random.default_rng(seed)
            for _ in range(seed % 12):
                legal = game.legal_actions(game.to_move)
                if game.is_over or not legal:
                    break
                game.apply(legal[int(rng.integers(len(legal)))], game.to_move)
        else:
            game = play_to(seed, "isko2018", 14 + seed % 20)
        if game.phase is not Phase.PLAY or game.contract is None or len(game.legal_actions(game.to_move)) < 3:
            continue
        view = game.view(game.to_move)
        best = {m: int(np.argmax(m.symmetric_policy(view))) for m in (level, shipped)}
        if best[level] == best[shipped]:
            continue
        null = view.contract.is_null
        assert player.choose(view) == Play(Card(best[shipped if null else level])), (seed, view.contract)
        kinds.add(null)
        if kinds == {True, False}:
            return
    raise AssertionError(f"no Null and suit or grand positions where the models differ: {kinds}")
