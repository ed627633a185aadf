"""House rules at the table (docs/rules.md sections 6, 7): Bock rounds and their queue, Ramsch rounds,
the pirate sequence, and full PUB/PIRATE series at 3, 4 and 5 players."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from skat.players import RandomPlayer
from skat.rules.contract import Contract
from skat.rules.rulesets import ISKO, PIRATE, PUB
from skat.table.series import Table, bock_events, round_score
from test_table import check_sheet, play_series


@pytest.mark.parametrize("n", [3, 4, 5])
@pytest.mark.parametrize("preset", [PUB, PIRATE, PIRATE.replace(pirate_threshold=30, pirate_repeat=True)],
                         ids=["pub", "pirate", "pirate-at-30"])
def test_house_series_to_the_end(preset, n):
    table, sheet, spies = play_series(preset, n, games=3 * n + 2, seed=n)
    assert table.is_over
    check_sheet(table, sheet, spies, n)


def _result(game="clubs", hand=False, ouvert=False, won=True, points=70, value=48):
    return SimpleNamespace(contract=Contract(game, hand=hand, ouvert=ouvert), won=won, declarer_points=points,
                           outcome=SimpleNamespace(game_value=value))


@pytest.mark.parametrize("trigger, result, kontra, before, after, fires", [
    ("lost_60", _result(won=False, points=60), 0, [0, 0, 0], [0, 0, 0], True),
    ("lost_60", _result(won=False, points=59), 0, [0, 0, 0], [0, 0, 0], False),
    ("grand_hand_won", _result("grand", hand=True), 0, [0, 0, 0], [0, 0, 0], True),
    ("grand_hand_won", _result("grand"), 0, [0, 0, 0], [0, 0, 0], False),
    ("null_ouvert_hand", _result("null", hand=True, ouvert=True, points=None), 0, [0, 0, 0], [0, 0, 0], True),
    ("kontra_lost", _result(won=False), 1, [0, 0, 0], [0, 0, 0], True),
    ("kontra_lost", _result(won=True), 1, [0, 0, 0], [0, 0, 0], False),
    ("re", _result(), 2, [0, 0, 0], [0, 0, 0], True),
    ("re", _result(), 1, [0, 0, 0], [0, 0, 0], False),
    ("hundred", _result(), 0, [52, 0, 0], [100, 0, 0], True),
    ("hundred", _result(), 0, [100, 0, 0], [100, 48, 0], False),
    ("repdigit", _result(), 0, [0, 63, 0], [0, 111, 0], True),
    ("value", _result(value=120), 0, [0, 0, 0], [0, 0, 0], True),
    ("value", _result(value=96), 0, [0, 0, 0], [0, 0, 0], False),
])
def test_each_bock_trigger(trigger, result, kontra, before, after, fires):
    rules = ISKO.replace(bock_triggers=(trigger,))
    assert (bock_events(result, kontra, before, after, rules) == [trigger]) == fires
    assert bock_events(result, kontra, before, after, ISKO) == []


def test_bock_value_threshold_option():
    rules = ISKO.replace(bock_triggers=("value",), bock_value_threshold=72)
    assert bock_events(_result(value=96), 0, [0] * 3, [0] * 3, rules) == ["value"]


def test_bock_round_doubles_every_score():
    assert round_score(48, won=True, hand=False, round_kind="bock", rules=ISKO) == 96
    assert round_score(-96, won=False, hand=True, round_kind="bock", rules=ISKO) == -192
    assert round_score(-50, won=None, hand=False, round_kind="bock", rules=ISKO) == -100  # Ramsch too
    assert round_score(48, won=True, hand=False, round_kind="normal", rules=ISKO) == 48


def test_pirate_lost_hand_game_option():
    """Q7: a lost hand game in the pirate Bock round: twice its value (seed), or four times."""
    assert round_score(-36, won=False, hand=True, round_kind="pirate_bock", rules=PIRATE) == -72
    four = PIRATE.replace(pirate_bock_lost_hand_factor=4)
    assert round_score(-36, won=False, hand=True, round_kind="pirate_bock", rules=four) == -144


class TimidPlayer(RandomPlayer):
    """Bids only as forehand alone (18), picks up the skat, declares the first game; plays at random."""

    def choose(self, view):
        tokens = [str(a) for a in view.legal_actions]
        if view.phase.value == "bidding":
            return view.legal_actions[0] if tokens == ["18", "pass"] else view.legal_actions[tokens.index("pass")]
        if "pickup" in tokens:
            return view.legal_actions[tokens.index("pickup")]
        return super().choose(view)


def _series(rules, n=3, games=12, seed=1, timid=False):
    table = Table(n, ruleset=rules, seed=seed, games=games)
    cls = TimidPlayer if timid else RandomPlayer
    table.play([cls(seed + i) for i in range(n)])
    return table


def test_bock_rounds_queue_up_and_double():
    rules = ISKO.replace(bock_triggers=("value",), bock_value_threshold=1)
    table = _series(rules, games=10)
    entries = table.sheet.entries
    declarer_games = [e for e in entries if e.declarer is not None]
    assert declarer_games, "random players should declare some game"
    first = declarer_games[0].number
    later = [e for e in entries if e.number > first]
    assert later and all(e.bock for e in later[:3])  # one full round of 3 games is Bock
    assert len(table.queued_rounds) >= 1  # triggers inside a Bock round queue further rounds
    for e, rec in zip(entries, table.records):
        seat_scores = rec["result"]["scores"]
        factor = 2 if e.bock else 1
        assert sorted(s for s in e.scores if s) == sorted(factor * s for s in seat_scores if s)


def test_bock_includes_trigger_option():
    base = ISKO.replace(bock_triggers=("value",), bock_value_threshold=1)
    plain = _series(base, games=4)
    doubled = _series(base.replace(bock_includes_trigger=True), games=4)
    first_plain = next(e for e in plain.sheet.entries if e.declarer is not None)
    first_doubled = next(e for e in doubled.sheet.entries if e.declarer is not None)
    assert first_doubled.scores == tuple(2 * s for s in first_plain.scores)


def test_ramsch_round_after_bock_round():
    rules = ISKO.replace(bock_triggers=("value",), bock_value_threshold=1, bock_ramsch_round=True)
    table = _series(rules, games=12)
    rounds = [e.round for e in table.sheet.entries]
    assert "ramsch" in rounds
    i = rounds.index("bock")
    assert rounds[i:i + 3] == ["bock"] * 3 and rounds[i + 3:i + 6] == ["ramsch"] * 3
    assert all(e.game in ("ramsch", "grand") for e in table.sheet.entries if e.round == "ramsch")


def test_pirate_sequence_bock_then_schieber_round():
    rules = PIRATE.replace(pirate_threshold=1)
    table = _series(rules, games=12, seed=3, timid=True)
    rounds = [e.round for e in table.sheet.entries]
    start = rounds.index("bock")
    assert rounds[start:start + 3] == ["bock"] * 3 and rounds[start + 3:start + 6] == ["schieber"] * 3
    assert all(e.game == "ramsch" for e in table.sheet.entries if e.round == "schieber")
    assert rounds[start + 6:] == ["normal"] * len(rounds[start + 6:])  # once only without pirate_repeat
    assert table.next_pirate_threshold is None  # once per series
    repeat = _series(rules.replace(pirate_threshold=20, pirate_repeat=True), games=8, seed=1, timid=True)
    assert [e.round for e in repeat.sheet.entries][1:7] == ["bock"] * 3 + ["schieber"] * 3
    assert repeat.next_pirate_threshold == 40  # the sequence comes again at 40


def test_grand_hand_instead_of_ramsch_keeps_the_dealer():
    table = Table(3, ruleset=PUB, seed=8, games=3)
    for game in table:
        for _ in range(3):
            game.apply("pass")
        if table.number == 1:
            game.apply("declare grand hand")  # forehand plays Grand Hand instead of Ramsch
        while not game.is_over:
            game.apply(game.legal_actions()[-1])
    dealers = [e.dealer for e in table.sheet.entries]
    assert dealers == [0, 0, 1]
    assert table.sheet.entries[0].game == "grand" and table.sheet.entries[1].game == "ramsch"
