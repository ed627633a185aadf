"""The bidding corpus: candidate contracts played out with hidden cards, reproducible and resumable."""

from __future__ import annotations

import json
import os
import sys

import pytest

from skat.cards import Card
from skat.players.corpus import CorpusConfig, candidate_contracts, corpus_deal, play_contract
from skat.rules.ranking import GameType

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tools"))
import bidding_corpus  # noqa: E402

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


@pytest.mark.parametrize("argv", [["--deals", "0", "--out", "x"], ["--deals", "1"]])
def test_the_tool_refuses_bad_arguments(argv):
    with pytest.raises(SystemExit):
        bidding_corpus.main(argv)
