"""The learned bidder's chances measured on match records, the Platt correction, and the screen of bidders."""

from __future__ import annotations

import json
import os
import random
import sys
from pathlib import Path

import numpy as np
import pytest

from skat.players import ablation
from skat.players.arena import ArenaConfig
from skat.players.calibration import Declared, fit_platt, log_loss, recalibrated, replay_declared
from skat.players.learned import FAMILIES, WinModel, _linear, contract_features, shipped_model
from skat.players.levels import make_level

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tools"))
import bidding_screen  # noqa: E402
import calibrate_bidding  # noqa: E402

MATCH = Path(__file__).resolve().parent.parent / "bench" / "data" / "arena" / "2026-12-05c" / "strong-2026-12-2051.jsonl"


@pytest.fixture(scope="module")
def first_deals(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The first 25 deals of a committed match between two players that bid alike (``strong`` variants)."""
    path = tmp_path_factory.mktemp("match") / "strong-2026-12-2051.jsonl"
    path.write_text("\n".join(MATCH.read_text().splitlines()[:26]) + "\n")
    return path


def test_the_replayed_auctions_are_the_ones_the_match_played(first_deals: Path) -> None:
    rows, left_out = replay_declared(first_deals)
    assert left_out == 0  # every replayed declarer and contract is among the recorded games
    assert 15 <= len(rows) <= 25  # a deal without a declarer (all passed) has no row
    records = {json.loads(line)["deal"]: json.loads(line) for line in first_deals.read_text().splitlines()[1:]}
    for row in rows:
        assert 0.0 < row.planned_p < 1.0 and row.value >= 18 and 0 <= row.won <= row.games <= 6
        assert bin(row.hand).count("1") == 10 and row.family in FAMILIES
        declared = [g for g in records[row.deal]["games"] if g["declarer"] == row.seat]
        assert sum(g["won"] for g in declared if g["kind"] != "passed in") >= row.won


def test_the_arena_measure_counts_the_defenders_bonus(first_deals: Path) -> None:
    rows, _ = replay_declared(first_deals)
    table = calibrate_bidding.calibration_table(rows)
    assert sum(b["deals"] for b in table) == len(rows)
    for b in table:
        assert b["bin"][0] <= b["chance"] < b["bin"][1] + 1e-9
        assert b["arena"] == pytest.approx(b["true"] - (1 - b["won"]) * calibrate_bidding.ARENA_LOSS)


def _synthetic(model: WinModel, name: str, a: float, b: float, n: int, seed: int) -> list[Declared]:
    """Deals of family ``name`` whose six games are won with the chance ``a * z + b`` of the model's logit z."""
    rng = random.Random(seed)
    gt, hand_game = {"suit hand": (3, True), "grand": (4, False)}[name]
    rows = []
    for i in range(n):
        hand = sum(1 << c for c in rng.sample(range(32), 10))
        seat, heard = rng.randrange(3), rng.choice((0, 18, 20, 23))
        z = _linear(model.weights[name], contract_features(hand, gt, seat, heard))
        p = 1 / (1 + np.exp(-(a * z + b)))
        won = sum(rng.random() < p for _ in range(6))
        rows.append(Declared("synthetic", i, seat, hand, heard, hand_game, gt, gt, float(p), 24, won, 6))
    return rows


def test_platt_finds_a_known_correction() -> None:
    model = shipped_model()
    rows = _synthetic(model, "suit hand", 1.3, -0.4, 3000, 1)
    a, b = fit_platt(model, rows)
    assert a == pytest.approx(1.3, abs=0.12) and b == pytest.approx(-0.4, abs=0.12)
    assert log_loss(model, rows, (a, b)) < log_loss(model, rows)
    identity = fit_platt(model, _synthetic(model, "grand", 1.0, 0.0, 3000, 2))
    assert identity[0] == pytest.approx(1.0, abs=0.12) and identity[1] == pytest.approx(0.0, abs=0.12)


def test_a_correction_folds_into_the_weights(tmp_path: Path) -> None:
    model = shipped_model()
    corrected = recalibrated(model, {"suit hand": (1.2, -0.5)})
    corrected.save(tmp_path / "m.npz")
    loaded = WinModel.load(tmp_path / "m.npz")
    rng = random.Random(3)
    for _ in range(50):
        hand = sum(1 << c for c in rng.sample(range(32), 10))
        z = _linear(model.weights["suit hand"], contract_features(hand, 2, 1, 18))
        assert loaded.win_probability(hand, 2, True, 1, 18) == pytest.approx(1 / (1 + np.exp(-(1.2 * z - 0.5))))
        assert loaded.win_probability(hand, 2, False, 1, 18) == model.win_probability(hand, 2, False, 1, 18)
        assert loaded.win_probability(hand, 4, True, 0) == model.win_probability(hand, 4, True, 0)


def test_the_calibrated_bidder_changes_only_suit_hand_games() -> None:
    player = ablation.strong_calibrated_bidding(7)
    shipped, calibrated = shipped_model(), player.bidder.model
    assert set(calibrated.weights) == set(shipped.weights)
    for name in shipped.weights:
        same = all(np.array_equal(x, y) for x, y in zip(shipped.weights[name][:3], calibrated.weights[name][:3],
                                                        strict=True))
        assert same == (name != "suit hand"), name


def test_the_screen_finds_the_deals_where_bidding_differs() -> None:
    config = ArenaConfig(("skat.players.ablation:strong_calibrated_bidding", "strong"), 100, 2069)
    assert [d for d in (12, 32, 35, 48) if bidding_screen.differs(config, d)] == [12, 32]
    alike = ArenaConfig(("strong", "strong"), 10, 2069)
    assert not any(bidding_screen.differs(alike, d) for d in range(3))


def test_the_screen_counts_the_deals_alike_as_zero(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert bidding_screen.main(["heuristic", "heuristic", "--deals", "6", "--check", "2", "--workers", "1",
                                "--data", str(tmp_path)]) == 0
    summary = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert summary["differing"] == 0 and summary["diff"] == 0.0 and summary["checked"] == 2
    assert summary["checked_nonzero"] == 0 and summary["illegal"] == 0
    assert len((tmp_path / "heuristic-heuristic-2069-screen.jsonl").read_text().splitlines()) == 3  # header + 2


def test_the_tool_reports_and_writes_a_corrected_model(first_deals: Path, tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "model.npz"
    assert calibrate_bidding.main([str(first_deals), "--write", str(out), "--families", "suit",
                                   "--json", str(tmp_path / "fit.json")]) == 0
    printed = capsys.readouterr().out
    assert "pickup games" in printed and "hand games" in printed and f"wrote {out}" in printed
    fit = json.loads((tmp_path / "fit.json").read_text())
    (a, b), = fit["written"]["families"].values()
    rows = [r for r in replay_declared(first_deals)[0] if r.family == "suit"]
    assert (a, b) == pytest.approx(fit_platt(shipped_model(), rows))
    written = WinModel.load(out)
    assert not np.array_equal(written.weights["suit"][2], shipped_model().weights["suit"][2])
    with pytest.raises(SystemExit):
        calibrate_bidding.main([str(first_deals), "--families", "suits"])  # no such family
    assert "unknown families" in capsys.readouterr().err


def test_the_margin_ablations_bid_as_their_margin_says() -> None:
    from skat.players.arena import derive_seed, new_game

    bidders = [factory(7).bidder for factory in (ablation.strong_margin_minus_10, ablation.strong_margin_0,
                                                 ablation.strong_margin_10)]
    assert [b.margin for b in bidders] == [-10.0, 0.0, 10.0]
    candidate, four = ablation.strong_prune_four_margin_0(7), ablation.strong_prune_four(7)
    assert (candidate.policy_prune, candidate.bidder.margin) == (4, 0.0) and four.bidder.margin == 5.0
    # on today's strong: the same card play (the playouts), only the margin differs
    playouts, strong = ablation.strong_playouts_margin_0(7), make_level("strong", 7)
    assert (playouts.playouts, playouts.policy_prune, playouts.bidder.margin) == ("all", 0, 0.0)
    assert type(playouts.bidder) is type(strong.bidder) and strong.bidder.margin == 5.0
    assert (playouts.bidder.worlds, playouts.bidder.time_budget) == (strong.bidder.worlds, strong.bidder.time_budget)
    strict = 0
    for deal in range(40):
        game = new_game(derive_seed("deal", 2073, deal), ArenaConfig(("strong", "strong"), 1, 2073).rules(), "auction")
        for seat in range(3):
            view = game.view(seat)
            limits = [b.bid_limit(view) for b in bidders]
            assert limits == sorted(limits, reverse=True), (deal, seat, limits)  # a lower margin bids at least as high
            strict += limits[0] > limits[2]
    assert strict > 0
