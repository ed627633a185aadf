"""`skat deal`: a short readable record of one random deal, and the full JSON record with --json."""

from __future__ import annotations

import json
import random

import pytest

from skat.cli import main
from skat.deal.game import Game


def deal(capsys, *argv: str) -> str:
    assert main(["deal", *argv]) == 0
    return capsys.readouterr().out


def replayed(seed: int) -> Game:
    """The deal as the command plays it: random legal actions drawn with the same seed."""
    rng = random.Random(seed)
    game = Game(seed=seed)
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
    return game


def test_seed_1_reads_as_a_record(capsys):
    lines = deal(capsys, "--seed", "1").splitlines()
    assert len(lines) <= 25
    assert lines[0].startswith("deal --seed 1 (isko2018)")
    # hands sorted for the game played (grand: jacks first), cards in suit symbols
    assert lines[1] == "forehand    ♣J ♥J ♦J ♣10 ♣K ♣7 ♥9 ♥7 ♠Q ♦8"
    assert lines[3] == "rearhand    ♣Q ♣9 ♣8 ♥A ♥10 ♥8 ♠A ♠10 ♦A ♦9   (declarer)"
    assert lines[4] == "skat        ♠9 ♠8"
    text = "\n".join(lines)
    assert "auction     middlehand 55, forehand holds, middlehand 110" in text
    assert "middlehand passes" in text
    assert "game        rearhand plays grand hand schneider at 198" in text
    tricks = [ln for ln in lines if ln.startswith("trick ")]
    assert len(tricks) == 10
    assert tricks[0] == "trick  1    forehand    ♦J   ♠J   ♦9   middlehand takes 4"
    assert "result      lost, overbid: grand hand schneider without 4 is worth 192" in text
    assert "rearhand 50 card points (skat included), defenders 70; tricks 4:6" in text
    assert lines[-1] == "entry       rearhand -432"


@pytest.mark.parametrize("seed", [2, 5, 24, 99])
def test_every_deal_is_short_and_complete(capsys, seed):
    out = deal(capsys, "--seed", str(seed))
    lines = out.splitlines()
    assert len(lines) <= 25
    labels = [ln.split()[0] for ln in lines if ln and not ln.startswith(" ")]
    for label in ("deal", "forehand", "middlehand", "rearhand", "skat", "auction", "game", "result", "entry"):
        assert label in labels, (label, out)
    game = replayed(seed)
    assert sum(ln.startswith("trick ") for ln in lines) == len(game.tricks)
    assert game.result.explanation.split(";")[0] in out.replace("\n            ", " ")


def test_a_null_game_that_ends_early_says_so(capsys):
    game = replayed(24)
    assert game.result.contract.is_null and len(game.tricks) < 10
    out = deal(capsys, "--seed", "24")
    assert f"play ends after trick {len(game.tricks)}" in out
    assert "picks up the skat, discards" in out


@pytest.mark.parametrize("seed", [1, 24])
def test_json_is_the_full_record(capsys, seed):
    record = json.loads(deal(capsys, "--seed", str(seed), "--json"))
    assert record == replayed(seed).to_record()
    assert Game.from_record(record).to_record() == record


def test_without_a_seed_the_drawn_seed_is_printed(capsys):
    out = deal(capsys)
    seed = int(out.split()[2])
    assert deal(capsys, "--seed", str(seed)) == out
