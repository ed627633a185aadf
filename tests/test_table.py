"""Series at a 3-, 4- or 5-player table (docs/rules.md section 1): seats, dealer rotation, sitting out,
reproducible deals, and a score sheet that follows from its entries."""

from __future__ import annotations

from fractions import Fraction

import pytest

from skat import Game
from skat.players import RandomPlayer
from skat.rules.rulesets import ISKO, PIRATE, PUB, TOURNEE
from skat.table.series import Table, TableError, seats_for, sitting_out

PRESETS = {"isko": ISKO, "pub": PUB, "pirate": PIRATE, "tournee": TOURNEE}


class SpyPlayer(RandomPlayer):
    """A random player that notes in which games it was asked to act."""

    def __init__(self, seed, table, index):
        super().__init__(seed)
        self.table, self.index, self.games_seen = table, index, set()

    def choose(self, view):
        assert self.table.seats[view.seat] == self.index, "a player got another seat's view"
        self.games_seen.add(self.table.number)
        return super().choose(view)


def play_series(rules, n, games, seed=11):
    table = Table([f"p{i}" for i in range(n)], ruleset=rules, seed=seed, games=games)
    spies = [SpyPlayer(seed * 10 + i, table, i) for i in range(n)]
    sheet = table.play(spies)
    return table, sheet, spies


def check_sheet(table, sheet, spies, n):
    data = sheet.to_json()
    games = data["games"]
    assert [g["number"] for g in games] == list(range(1, table.games + 1))
    # entries add up to the totals
    assert data["totals"] == [sum(g["scores"][i] for g in games) for i in range(n)]
    # Seeger-Fabian follows from the entries
    bonus = {3: 40, 4: 30, 5: 30}[n]
    sf = [0] * n
    for g in games:
        for i in range(n):
            sf[i] += g["scores"][i]
        if g["declarer"] is not None and g["won"] is not None:
            d = data["players"].index(g["declarer"])
            sf[d] += 50 if g["won"] else -50
            if not g["won"]:
                for i in range(n):
                    if i != d:
                        sf[i] += bonus
    assert data["seeger_fabian"] == sf
    # settlement against the average
    avg = Fraction(sum(data["totals"]), n)
    assert [Fraction(s).limit_denominator(100) for s in data["settlement"]] == [
        Fraction(round(float(t - avg), 2)).limit_denominator(100) for t in data["totals"]]
    # the dealer rotates (after a Grand Hand instead of Ramsch the same dealer deals again)
    for prev, cur, entry in zip(games, games[1:], sheet.entries):
        step = 0 if entry.details.get("same_dealer") else 1
        assert data["players"].index(cur["dealer"]) == (data["players"].index(prev["dealer"]) + step) % n
    # sitting-out players never receive cards and are never asked to act
    for entry in sheet.entries:
        out = set(range(n)) - set(entry.seats)
        assert out == set(sitting_out(entry.dealer, n))
        if n >= 4:
            assert entry.dealer in out
        for p in out:
            assert entry.number not in spies[p].games_seen
            assert entry.scores[p] == 0  # a player who sits out scores nothing on the classic list
    # only the declarer is written in declarer games
    for entry in sheet.entries:
        if entry.declarer is not None:
            assert all(s == 0 for i, s in enumerate(entry.scores) if i != entry.declarer)


@pytest.mark.parametrize("n", [3, 4, 5])
@pytest.mark.parametrize("preset", ["isko", "tournee"])
def test_series_to_the_end(preset, n):
    table, sheet, spies = play_series(PRESETS[preset], n, games=2 * n + 1)
    assert table.is_over and table.next_game() is None
    check_sheet(table, sheet, spies, n)
    assert len(table.records) >= table.games


def test_seats_at_each_table_size():
    assert seats_for(0, 3) == (1, 2, 0)  # the dealer is rearhand
    assert seats_for(0, 4) == (1, 2, 3) and sitting_out(0, 4) == (0,)
    assert seats_for(0, 5) == (1, 2, 4) and sitting_out(0, 5) == (0, 3)  # "es spielen immer 1, 2, 4"
    assert seats_for(4, 5) == (0, 1, 3) and sitting_out(4, 5) == (2, 4)


def test_same_seed_same_deals_whatever_the_players():
    a = Table(4, seed=5, games=6)
    b = Table(["W", "X", "Y", "Z"], seed=5, games=6)
    a.play([RandomPlayer(i) for i in range(4)])
    b.play([RandomPlayer(100 + i) for i in range(4)])
    deals_a = [(r["hands"], r["skat"]) for r in a.records]
    deals_b = [(r["hands"], r["skat"]) for r in b.records]
    assert deals_a == deals_b
    assert len({str(d) for d in deals_a}) == 6
    c = Table(4, seed=6, games=6)
    c.play([RandomPlayer(i) for i in range(4)])
    assert [(r["hands"], r["skat"]) for r in c.records] != deals_a


def test_iterating_yields_games_and_refuses_unfinished_ones():
    table = Table(3, seed=1, games=2)
    game = table.next_game()
    assert isinstance(game, Game) and table.number == 1
    with pytest.raises(TableError, match="not finished"):
        table.next_game()
    rng = RandomPlayer(0)
    count = 0
    while game is not None:
        while not game.is_over:
            game.apply(rng.choose(game.view(game.to_move)), game.to_move)
        count += 1
        game = table.next_game()
    assert count == 2 and len(table.sheet.entries) == 2


def test_passed_in_games_count_and_the_deal_moves_on():
    table = Table(3, seed=2, games=3)
    for game in table:
        while not game.is_over:
            game.apply("pass")
    assert [e.game for e in table.sheet.entries] == ["passed"] * 3
    assert [e.dealer for e in table.sheet.entries] == [0, 1, 2]
    assert table.sheet.totals == [0, 0, 0]


def test_redeal_option_deals_again_without_counting():
    table = Table(3, ruleset=ISKO.replace(all_pass="redeal"), seed=2, games=2)
    passes = 0
    for game in table:
        while not game.is_over:
            legal = game.legal_actions()
            if passes < 3:
                game.apply("pass")
                passes += 1
            else:
                game.apply(legal[0])
    assert len(table.sheet.entries) == 2 and len(table.records) == 3
    assert table.sheet.entries[0].details["redeals"] == 1
    assert table.records[0]["hands"] != table.records[1]["hands"]


def test_bad_tables_are_refused():
    with pytest.raises(TableError, match="3, 4 or 5"):
        Table(6)
    with pytest.raises(TableError, match="differ"):
        Table(["A", "A", "B"])
    with pytest.raises(TableError, match="at least one game"):
        Table(3, games=0)
    with pytest.raises(TableError, match="give 3 players"):
        Table(3, games=1).play([RandomPlayer(0)])


def test_close_game_writes_the_sheet_before_the_next_deal():
    table = Table(3, ruleset=ISKO.replace(all_pass="redeal"), seed=2, games=2)
    with pytest.raises(TableError, match="no game to close"):
        table.close_game()
    game = table.next_game()
    for _ in range(3):
        game.apply("pass")
    assert table.close_game() is None  # all passed: the same deal number is dealt again
    assert table.sheet.entries == [] and not table.is_over
    with pytest.raises(TableError, match="no game to close"):
        table.close_game()
    again = table.next_game()
    assert again is not game and table.number == 1
    rng = RandomPlayer(3)
    while not again.is_over:
        again.apply(rng.choose(again.view(again.to_move)), again.to_move)
    entry = table.close_game()
    assert entry is table.sheet.entries[-1] and entry.number == 1 and entry.details["redeals"] == 1
    game = table.next_game()  # the sheet already has game 1: it is not written twice
    assert table.number == 2 and len(table.sheet.entries) == 1
    while not game.is_over:
        game.apply(rng.choose(game.view(game.to_move)), game.to_move)
    table.close_game()
    assert table.is_over and table.next_game() is None and len(table.sheet.entries) == 2


def test_a_stored_deal_is_dealt_when_it_differs_from_the_shuffle():
    kept = Table(3, seed=5, games=1).next_game().to_record()
    table = Table(3, seed=6, games=2)
    game = table.next_game(stored=kept)  # kept under another seed: its cards are dealt
    assert game.to_record()["hands"] == kept["hands"] and game.to_record()["skat"] == kept["skat"]
    for _ in range(3):
        game.apply("pass")
    own = Table(3, seed=6, games=2)
    first = own.next_game()
    for _ in range(3):
        first.apply("pass")
    expected = own.next_game().to_record()
    same = table.next_game(stored=expected)  # the shuffle equals the stored deal: nothing changes
    assert same.to_record() == expected
