"""The Officers' Skat computer opponent, the terminal front end and the series score sheet."""

from __future__ import annotations

import io
import json
import random

import pytest

from skat.cards import CardSet
from skat.commands.play_officers import play_text, render_view
from skat.players.base import RandomPlayer
from skat.players.officers import OfficersBot, choose_game, sample_world
from skat.records.wire import view_to_json
from skat.rules.actions import PASS, Declare
from skat.rules.contract import Contract
from skat.table.officers import OfficersSeries
from skat.variants.officers import OfficersGame, Phase
from test_officers import CLASSIC_DECK, deck_for

VARIANT_OPTIONS = [("classic", {"allow_null": True, "allow_ramsch": True}), ("passing", {}),
                   ("harlequin", {}), ("half_open", {"allow_null": True}), ("admiral", {})]


def play(game: OfficersGame, players: dict) -> OfficersGame:
    while not game.is_over:
        s = game.to_move
        action = players[s].choose(game.view(s))
        assert action in game.legal_actions(s)
        game.apply(action, s)
    return game


@pytest.mark.parametrize("variant,options", VARIANT_OPTIONS)
def test_bot_plays_legal_actions_in_every_variant(variant, options):
    for seed in range(3):
        g = play(OfficersGame(variant, seed=seed, **options), {0: OfficersBot(seed=seed, samples=3),
                                                               1: OfficersBot(seed=seed + 1, samples=3)})
        assert g.result is not None


def test_bot_beats_random_in_the_classic_game():
    wins = 0
    for i in range(20):
        bot_seat = i % 2
        g = play(OfficersGame("classic", seed=500 + i), {bot_seat: OfficersBot(seed=i, samples=4),
                                                           1 - bot_seat: RandomPlayer(seed=i)})
        wins += g.result.scores[bot_seat] > g.result.scores[1 - bot_seat]
    assert wins >= 14  # random play would win about half


def test_trump_choice_heuristic():
    g = OfficersGame("classic", deck=CLASSIC_DECK)  # forehand shows CJ SJ HA HT
    assert choose_game(g.view(0), g.legal_actions()) == Declare(Contract.parse("hearts"))
    assert str(OfficersBot(seed=1).choose(g.view(0))) == "declare hearts"
    weak = deck_for(f_up="C7 S8 D9 H8 DA DT CA CT", f_down="H7 CJ H9 HK D7 D8 SQ DK",
                    d_up="HJ DJ SA ST S7 SJ S9 SK", d_down="C9 C8 HA CK CQ HT HQ DQ")
    g = OfficersGame("passing", deck=weak)
    assert OfficersBot(seed=1).choose(g.view(0)) == PASS


def test_the_bot_decides_on_the_view_alone():
    # Two deals that differ only in the dealer's face-down cards look the same to forehand.
    a = deck_for(f_up="CJ SJ HA HT DA DT CA CT", f_down="H7 H8 H9 HK D7 D8 D9 DK",
                 d_up="HJ DJ SA ST S7 S8 S9 SK", d_down="C7 C8 C9 CK CQ SQ HQ DQ")
    b = deck_for(f_up="CJ SJ HA HT DA DT CA CT", f_down="H7 H8 H9 HK D7 D8 D9 DK",
                 d_up="HJ DJ SA ST S7 S8 S9 SK", d_down="DQ HQ SQ CQ CK C9 C8 C7")
    games = [OfficersGame("classic", deck=d) for d in (a, b)]
    for g in games:
        g.apply(Declare(Contract.parse("hearts")))
        g.apply(PASS)
    views = [g.view(0) for g in games]
    assert view_to_json(views[0]) == view_to_json(views[1])
    choices = [OfficersBot(seed=7).choose(v) for v in views]
    assert choices[0] == choices[1]


@pytest.mark.parametrize("variant", ["classic", "harlequin", "half_open", "admiral"])
def test_sampled_worlds_keep_what_the_seat_sees(variant):
    g = OfficersGame(variant, seed=8)
    rng = random.Random(1)
    while g.phase is not Phase.PLAY:
        g.apply(rng.choice(g.legal_actions()))
    for _ in range(5):
        g.apply(rng.choice(g.legal_actions()))
    for seat in (0, 1):
        view = g.view(seat)
        world = sample_world(view, rng)
        cards = [c for s in (0, 1) for p in world.piles[s] for c in p]
        cards += [c for s in (0, 1) for c in CardSet.from_mask(world.hands[s])]
        assert len(cards) == len(set(cards))
        for s, piles in ((seat, view.own_piles), (1 - seat, view.opponent_piles)):
            for shown, sampled in zip(piles, world.piles[s]):
                assert all(c is None or int(c) == x for c, x in zip(shown, sampled))
        assert world.hands[seat] == view.hand.mask
        assert not set(cards) & set(int(c) for _, cs, _ in view.tricks for c in cs)


def test_play_text_plays_a_series_against_the_computer():
    out = io.StringIO()
    series = play_text("classic", seed=4, input=io.StringIO("nonsense\n" + "1\n" * 400), output=out, games=2)
    text = out.getvalue()
    assert "unknown action 'nonsense'" in text
    assert "result:" in text and "computer:" in text
    assert len(series.rows) == 2 and series.rows[0].forehand == 0 and series.rows[1].forehand == 1
    assert series.sheet() in text


def test_play_text_never_prints_the_computers_discard():
    out = io.StringIO()
    # Forehand passes at once, so the computer (dealer) declares and puts two cards away.
    play_text("admiral", seed=5, input=io.StringIO("pass\npass\n"), output=out)
    text = out.getvalue()
    assert "computer: 18" in text and "puts two cards away" in text and "discard" not in text


def test_play_text_stops_cleanly_when_input_ends():
    out = io.StringIO()
    series = play_text("admiral", seed=2, input=io.StringIO("pass\n"), output=out)
    assert "game abandoned" in out.getvalue() and series.rows == []


def test_render_view_hides_what_the_seat_cannot_see():
    g = OfficersGame("classic", deck=CLASSIC_DECK)
    text = render_view(g.view(1))
    assert "CJ" in text and "H7" not in text and "??" in text


def test_series_score_sheet():
    s = OfficersSeries("classic", seed=3, names=("Anna", "Ben"))
    totals = s.play((OfficersBot(seed=1, samples=2), RandomPlayer(seed=2)), games=4)
    assert [r.forehand for r in s.rows] == [0, 1, 0, 1]
    assert totals == (sum(r.scores[0] for r in s.rows), sum(r.scores[1] for r in s.rows))
    assert len(s.sheet().splitlines()) == 5 and "Anna" in s.sheet()
    data = json.loads(json.dumps(s.to_json()))
    for rec, row in zip(data["games"], s.rows):
        replay = OfficersGame.from_record(rec)
        fh = row.forehand
        assert replay.result.scores == (row.scores if fh == 0 else row.scores[::-1])
    with pytest.raises(ValueError, match="finished"):
        s.record(OfficersGame("classic", seed=1))
