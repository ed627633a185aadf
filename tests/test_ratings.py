"""skat.ratings: hand-made results, and a slice of the recorded arena games."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from skat.ratings import METHODS, BradleyTerry, MeanSF, PairedGlicko, PlackettLuceRating, ranks_of, standings

ARENA = Path(__file__).resolve().parents[1] / "bench" / "data" / "arena"


def _results() -> list[list[tuple[str, float]]]:
    """``ann`` always first, ``bob`` and ``cid`` share the rest evenly (each above the other half the time)."""
    out = []
    for k in range(40):
        b, c = (20.0, -10.0) if k % 2 else (-10.0, 20.0)
        out.append([("ann", 100.0), ("bob", b), ("cid", c)])
    return out


@pytest.mark.parametrize("name", list(METHODS))
def test_a_player_who_always_wins_rises(name):
    method = METHODS[name]()
    for seats in _results():
        method.update(seats)
    r = method.ratings()
    assert r["ann"].mu > r["bob"].mu and r["ann"].mu > r["cid"].mu
    assert standings(method)[0][0] == "ann"


@pytest.mark.parametrize("name", list(METHODS))
def test_symmetric_players_stay_level(name):
    method = METHODS[name]()
    for seats in _results():
        method.update(seats)
    r = method.ratings()
    assert r["bob"].mu == pytest.approx(r["cid"].mu, abs=0.05 * abs(r["ann"].mu - r["bob"].mu) + 1e-9)


@pytest.mark.parametrize("name", list(METHODS))
def test_a_three_way_tie_moves_nobody_apart(name):
    method = METHODS[name]()
    for _ in range(5):
        method.update([("ann", 0.0), ("bob", 0.0), ("cid", 0.0)])
    mus = [e.mu for e in method.ratings().values()]
    assert max(mus) - min(mus) == pytest.approx(0.0, abs=1e-9)


def test_ranks_tie_equal_points():
    assert ranks_of([90, 0, 0]) == [1, 2, 2]
    assert ranks_of([40, 40, -130]) == [1, 1, 3]
    assert ranks_of([0, 0, 0]) == [1, 1, 1]


def test_the_two_defenders_tie_in_plackett_luce():
    method = PlackettLuceRating()
    method.update([("ann", 98.0), ("bob", 0.0), ("cid", 0.0)])
    r = method.ratings()
    assert r["bob"] == r["cid"]
    assert r["ann"].mu > 25.0 > r["bob"].mu
    assert r["ann"].sigma < 25.0 / 3.0


def test_a_player_in_two_seats_gets_both_changes():
    """The arena's copies: ``bob`` holds two seats and loses both to ``ann``."""
    alone, copies = PlackettLuceRating(), PlackettLuceRating()
    alone.update([("ann", 90.0), ("bob", 0.0), ("cid", 0.0)])
    copies.update([("ann", 90.0), ("bob", 0.0), ("bob", 0.0)])
    step = 25.0 - alone.ratings()["bob"].mu
    assert 25.0 - copies.ratings()["bob"].mu == pytest.approx(2 * step)


@pytest.mark.parametrize("method", [BradleyTerry, MeanSF])
def test_batch_methods_do_not_depend_on_the_order(method):
    results = _results() + [[("ann", -50.0), ("bob", 60.0), ("dan", 0.0)]] * 3
    shuffled = list(results)
    random.Random(1).shuffle(shuffled)
    a, b = method(), method()
    for seats in results:
        a.update(seats)
    for seats in shuffled:
        b.update(seats)
    for player, e in a.ratings().items():
        assert b.ratings()[player].mu == pytest.approx(e.mu, abs=1e-6)
        assert b.ratings()[player].sigma == pytest.approx(e.sigma, abs=1e-6)


def test_paired_glicko_is_symmetric_within_a_result():
    """The seats' order inside one result does not matter: each result is one rating period."""
    a, b = PairedGlicko(), PairedGlicko()
    a.update([("ann", 60.0), ("bob", -20.0), ("cid", 0.0)])
    b.update([("cid", 0.0), ("ann", 60.0), ("bob", -20.0)])
    assert a.ratings() == b.ratings()


@pytest.mark.parametrize("name", list(METHODS))
def test_deterministic(name):
    a, b = METHODS[name](), METHODS[name]()
    for seats in _results()[:7]:
        a.update(seats, games=12)
        b.update(seats, games=12)
    assert a.ratings() == b.ratings()


def test_conservative_value_and_bad_input():
    method = MeanSF()
    method.update([("ann", 24.0), ("bob", 0.0), ("cid", 0.0)], games=2)
    e = method.ratings()["ann"]
    assert e.mu == 12.0 and e.conservative == e.mu - 3 * e.sigma
    with pytest.raises(ValueError):
        method.update([("ann", 1.0)])
    with pytest.raises(ValueError):
        method.update([("ann", 1.0), ("bob", 0.0)], games=0)


def _recorded(name: str, deals: int) -> list[list[tuple[str, float]]]:
    lines = (ARENA / name).read_text().splitlines()
    players = json.loads(lines[0])["players"]
    return [[(players[who], float(sf)) for who, sf in zip(game["seating"], game["sf"], strict=True)]
            for line in lines[1:deals + 1] for game in json.loads(line)["games"]]


@pytest.mark.parametrize("name", list(METHODS))
def test_recorded_games_put_strong_above_heuristic(name):
    """300 recorded deals (1,800 games) of strong against heuristic, in lists of 12 games of one seating."""
    games = _recorded("strong-heuristic-2032.jsonl", 300)
    method = METHODS[name]()
    for k in range(6):  # the deal's six seatings: game k of every deal
        seating = games[k::6]
        for start in range(0, len(seating), 12):
            chunk = seating[start:start + 12]
            method.update([(chunk[0][s][0], sum(g[s][1] for g in chunk)) for s in range(3)], games=len(chunk))
    r = method.ratings()
    assert r["strong"].mu > r["heuristic"].mu
