"""The bidding corpus: candidate contracts played out with hidden cards, reproducible and resumable."""

from __future__ import annotations

import json
import os
import sys

import pytest

from skat.cards import Card
from skat.players.corpus import CorpusConfig, candidate_contracts, corpus_deal, play_contract
from skat.players.learned import FEATURES, WinModel, contract_features
from skat.rules.ranking import GameType

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tools"))
import bidding_corpus  # noqa: E402
import train_bidding  # noqa: E402

QUICK = CorpusConfig(deals=2, seed=5, card_player="heuristic")


def mask(text: str) -> int:
    return sum(1 << int(Card.parse(name)) for name in text.split())


def test_a_strong_trump_hand_plays_its_suit_both_ways_and_a_hopeless_one_little():
    clubs = candidate_contracts(mask("CJ SJ HJ CA CT CK CQ HA HT SA"))
    assert (int(GameType.CLUBS), False) in clubs and (int(GameType.CLUBS), True) in clubs
    assert (int(GameType.GRAND), True) in clubs
    weak = candidate_contracts(mask("D7 D8 H9 HQ S7 S8 SK C7 C9 DQ"))
    assert len(weak) < len(clubs) and all(gt == int(GameType.NULL) for gt, _ in weak)


def test_a_played_contract_is_the_seats_own_with_its_discard_and_score():
    deal = corpus_deal(QUICK, 0)
    assert deal["contracts"], "some seat of the deal has a game worth playing"
    for c in deal["contracts"]:
        assert c["hand"].bit_count() == 10 and c["skat"].bit_count() == 2 and not c["hand"] & c["skat"]
        if c["hand_game"]:
            assert c["discard"] == 0
        else:
            assert c["discard"].bit_count() == 2 and not c["discard"] & ~(c["hand"] | c["skat"])
        assert (c["score"] > 0) == c["won"] and c["sf"] == c["score"] + (50 if c["won"] else -50)
        if c["gt"] != int(GameType.NULL):
            assert 0 <= c["declarer_points"] <= 120 and c["won"] == (c["declarer_points"] > 60) or c["tricks"] == 10


def test_the_corpus_is_reproducible():
    assert corpus_deal(QUICK, 1) == corpus_deal(QUICK, 1)
    one = corpus_deal(QUICK, 1)["contracts"][0]
    again = play_contract(corpus_deal(QUICK, 1)["seed"], one["seat"], one["gt"], one["hand_game"], "heuristic", 7)
    assert {k: again[k] for k in ("seat", "hand", "skat", "gt", "hand_game", "discard")} == \
        {k: one[k] for k in ("seat", "hand", "skat", "gt", "hand_game", "discard")}


def test_the_tool_writes_resumes_and_refuses_another_corpus(tmp_path, capsys):
    out = tmp_path / "corpus.jsonl"
    args = ["--deals", "2", "--seed", "5", "--card-player", "heuristic", "--workers", "1", "--out", str(out)]
    assert bidding_corpus.main(args) == 0
    lines = out.read_text().splitlines()
    assert len(lines) == 3 and json.loads(lines[1])["deal"] == 0
    assert json.loads(lines[1]) == corpus_deal(QUICK, 0)
    assert bidding_corpus.main([*args[:1], "3", *args[2:]]) == 0  # one more deal: only that one is played
    assert "2 deals in" in capsys.readouterr().out and len(out.read_text().splitlines()) == 4
    assert bidding_corpus.main([*args[:2], "--seed", "6", *args[4:]]) == 2  # another corpus in the same file
    assert "another match" in capsys.readouterr().err
    assert bidding_corpus.main([*args, "--pack"]) == 0  # the file to commit
    packed = out.with_name(out.name + ".gz")
    kept = out.read_text()
    out.unlink()
    assert bidding_corpus.main([*args[:1], "4", *args[2:]]) == 0  # goes on from the packed corpus
    assert "unpacked" in capsys.readouterr().out and out.read_text().startswith(kept) and packed.exists()


def test_a_corpus_is_restamped_only_for_its_own_parameters(tmp_path, capsys):
    out = tmp_path / "corpus.jsonl"
    args = ["--deals", "1", "--seed", "5", "--card-player", "heuristic", "--workers", "1", "--out", str(out)]
    assert bidding_corpus.main(args) == 0
    header, _, deals = out.read_text().partition("\n")
    out.write_text(header.replace(json.loads(header)["players_code"], "0123456789abcdef") + "\n" + deals)
    assert bidding_corpus.main(args) == 2 and "code has changed" in capsys.readouterr().err
    assert bidding_corpus.main([*args[:2], "--seed", "6", *args[4:], "--restamp"]) == 2
    assert "another corpus" in capsys.readouterr().err
    assert bidding_corpus.main([*args, "--restamp", "--pack"]) == 0
    assert "0123456789abcdef ->" in capsys.readouterr().out and out.read_text().endswith(deals)
    assert out.with_name(out.name + ".gz").exists()
    assert bidding_corpus.main(args) == 0 and "1 deals in" in capsys.readouterr().out  # resumes again
    assert bidding_corpus.main(["--deals", "1", "--out", str(tmp_path / "none.jsonl"), "--restamp"]) == 2


@pytest.mark.parametrize("argv", [["--deals", "0", "--out", "x"], ["--deals", "1"]])
def test_the_tool_refuses_bad_arguments(argv):
    with pytest.raises(SystemExit):
        bidding_corpus.main(argv)


def test_features_describe_the_contract_the_model_predicts_and_round_trips(tmp_path, capsys):
    strong = mask("CJ SJ HJ CA CT CK CQ HA HT SA")
    x = dict(zip(FEATURES["trump"], contract_features(strong, int(GameType.CLUBS), 0)))
    assert x["jack_clubs"] == x["jack_spades"] == x["jack_hearts"] == 1 and x["jack_diamonds"] == 0
    assert x["matadors"] == 3 and x["trumps"] == 7 and x["trump_ace"] == x["trump_ten"] == 1
    assert x["side_aces"] == 2 and x["bare_tens"] == 0 and x["voids"] == 1 and x["forehand"] == 1
    without = dict(zip(FEATURES["trump"], contract_features(mask("SJ HJ DJ CA CT CK CQ HA HT SA"), 3, 2)))
    assert without["matadors"] == -1 and without["forehand"] == without["middlehand"] == 0
    null = dict(zip(FEATURES["null"], contract_features(mask("C7 C8 S7 S9 H7 H8 H9 D7 D8 DT"), 5, 1)))
    assert null["sevens"] == 4 and null["highs"] == 0 and null["voids"] == 0 and null["middlehand"] == 1

    corpus = tmp_path / "corpus.jsonl"
    assert bidding_corpus.main(["--deals", "40", "--seed", "9", "--card-player", "heuristic", "--workers", "1",
                                "--out", str(corpus)]) == 0
    model = tmp_path / "win.npz"
    assert train_bidding.main([str(corpus), "--model", str(model), "--json", str(tmp_path / "r.json")]) == 0
    report = json.loads((tmp_path / "r.json").read_text())
    fitted = [r for r in report["families"].values() if "log_loss" in r]
    assert fitted and all(0 < r["log_loss"] < 1.5 and r["train"] + r["test"] == r["contracts"] for r in fitted)
    loaded = WinModel.load(model)
    name = "suit"
    if name in loaded.weights:
        p = loaded.win_probability(strong, int(GameType.CLUBS), False, 0)
        weak = loaded.win_probability(mask("DJ C7 C8 C9 H7 H8 S7 S8 D7 D8"), int(GameType.CLUBS), False, 0)
        assert 0 < weak < p < 1
        assert loaded.expected_sf(strong, int(GameType.CLUBS), False, 0) > loaded.expected_sf(
            mask("DJ C7 C8 C9 H7 H8 S7 S8 D7 D8"), int(GameType.CLUBS), False, 0)
    assert all("sf_rmse_score_model" in r for r in fitted)
    assert "log loss" in capsys.readouterr().out
