"""Duels of bidders on the corpus: real auctions, the corpus's outcomes scored at the bid reached."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from skat.deal.game import SeatView
from skat.players.arena import new_game
from skat.players.duel import (
    Auction,
    CorpusDeal,
    HeuristicCorpusBidder,
    LearnedCorpusBidder,
    _scores,
    auction,
    bidder_factory,
    duel,
    format_duel,
    read_corpus,
)
from skat.rules.actions import Action, Pass
from skat.rules.rulesets import get_ruleset

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tools"))
import bidding_duel  # noqa: E402

CORPUS = Path(__file__).resolve().parent.parent / "bench" / "data" / "corpus" / "bidding-2029.jsonl.gz"


@pytest.fixture(scope="module")
def deals() -> list[CorpusDeal]:
    return sorted(read_corpus(CORPUS), key=lambda d: d.deal)[:40]


class Passer:
    name = "passer"

    def bid(self, view: SeatView) -> Action:
        return Pass()

    def contract(self, view: SeatView) -> tuple[int, bool] | None:
        raise AssertionError("a passer never declares")

    def after_pickup(self, view: SeatView) -> Action:
        raise AssertionError("a passer never picks up")


def test_the_corpus_reads_with_every_played_contract_by_seat_and_game(deals):
    assert len(deals) == 40 and deals[0].deal == 0
    (seat, gt, hand_game), played = next(iter(deals[0].contracts.items()))
    assert played["seat"] == seat and played["gt"] == gt and played["hand_game"] == hand_game
    game = new_game(deals[0].seed, get_ruleset("isko2018"))
    assert game.view(seat).hand.mask == played["hand"] and game.initial_skat == played["skat"]


def test_an_auction_is_the_engines_and_all_passes_are_passed_in(deals):
    assert auction(deals[0], [Passer(), Passer(), Passer()]) == Auction(None)
    assert _scores(deals[0], Auction(None), "isko2018") == [0, 0, 0]
    found = 0
    for deal in deals:
        result = auction(deal, [HeuristicCorpusBidder(s) for s in range(3)])
        if result.declarer is None:
            continue
        found += 1
        assert result.bid >= 18 and 0 <= result.gt <= 5
        sf = _scores(deal, result, "isko2018")
        if sf is not None:
            played = deal.contracts[(result.declarer, result.gt, result.hand_game)]
            won = sf[result.declarer] > 0
            assert won <= played["won"]  # won at 18 may be lost overbid at a higher bid, never the other way
            if not won:
                assert all(sf[s] == 40 for s in range(3) if s != result.declarer)
    assert found >= 10


def test_a_bid_the_game_does_not_reach_loses_overbid(deals):
    deal = next(d for d in deals if any(c["won"] and c["gt"] < 4 for c in d.contracts.values()))
    (seat, gt, hand_game), played = next((k, c) for k, c in deal.contracts.items() if c["won"] and k[1] < 4)
    assert _scores(deal, Auction(seat, gt, hand_game, 18), "isko2018")[seat] == played["sf"]
    base = (9, 10, 11, 12)[gt]
    lost = _scores(deal, Auction(seat, gt, hand_game, 120), "isko2018")
    loss_value = base * -(-120 // base)
    assert lost[seat] == -2 * loss_value - 50 and all(lost[s] == 40 for s in range(3) if s != seat)
    unplayed = next(g for g in range(5) if (seat, g, True) not in deal.contracts)
    assert _scores(deal, Auction(seat, unplayed, True, 18), "isko2018") is None  # left out, not guessed


def test_a_bidder_against_itself_is_even_and_the_learned_one_duels(deals):
    same = duel(deals[:15], HeuristicCorpusBidder, HeuristicCorpusBidder)
    assert same["difference"]["mean"] == 0 and same["deals"] + same["missing"] == 15
    assert same["players"][0] == same["players"][1]
    summary = duel(deals, bidder_factory("learned"), bidder_factory("heuristic"))
    assert summary["deals"] + summary["missing"] == 40 and summary["missing"] <= 8
    low, high = summary["difference"]["ci95"]
    assert low <= summary["difference"]["mean"] <= high
    for p in summary["players"]:
        assert 0 < p["declare_rate"] < 0.6
    assert abs(sum(r["share"] for r in summary["by_role"]) - summary["difference"]["mean"]) < 1e-9
    assert "learned - heuristic" in format_duel(summary, ("learned", "heuristic"))


def test_the_learned_duel_bidder_picks_up_and_discards_by_the_model(deals):
    bidder = LearnedCorpusBidder(1)
    assert bidder.bidder.after_pickup
    planned = LearnedCorpusBidder(1, after_pickup=False)
    assert not planned.bidder.after_pickup
    for deal in deals:
        a = auction(deal, [LearnedCorpusBidder(s) for s in range(3)])
        b = auction(deal, [LearnedCorpusBidder(s, after_pickup=False) for s in range(3)])
        assert (a.declarer, a.bid, a.hand_game) == (b.declarer, b.bid, b.hand_game)  # the auction is the same


@pytest.mark.parametrize("spec", ["nobody", "learned:margin", "learned:margin=lots", "heuristic:margin=3"])
def test_a_bad_bidder_spec_is_refused_by_name(spec):
    with pytest.raises(ValueError, match="bidder"):
        bidder_factory(spec)


def test_the_tool_duels_and_tabulates_the_ablation(tmp_path, capsys):
    assert bidding_duel.main([str(CORPUS), "--held-out", "0.02", "--a", "learned:margin=5",
                              "--json", str(tmp_path / "d.json")]) == 0
    out = capsys.readouterr().out
    assert "deals judged" in out and "learned:margin=5 - heuristic" in out
    assert bidding_duel.main([str(CORPUS), "--held-out", "0.01", "--ablation"]) == 0
    out = capsys.readouterr().out
    assert "bids heard as features" in out and "after-pickup model" in out
    with pytest.raises(SystemExit):
        bidding_duel.main([str(CORPUS), "--held-out", "0"])
    with pytest.raises(SystemExit):
        bidding_duel.main([str(CORPUS), "--a", "magic"])
    assert "unknown duel bidder" in capsys.readouterr().err


def test_the_held_out_deals_are_the_last_share_in_deal_order(deals):
    from skat.players.duel import held_out

    shuffled = list(reversed(deals))
    assert [d.deal for d in held_out(shuffled)] == [d.deal for d in deals[32:]]
    assert held_out(deals, 1.0) == deals
    with pytest.raises(ValueError, match="held-out share"):
        held_out(deals, 0)
