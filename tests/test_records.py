"""JSON game records: Game.to_record() / Game.from_record() round trips, and malformed records."""

from __future__ import annotations

import copy
import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skat import Game, RecordError
from skat.deal.game import Phase
from skat.records.wire import view_to_json
from skat.rules.rulesets import ISKO, OLD_PRE1999


def play(game: Game, rng: random.Random, side_rate: float = 0.05, limit: int | None = None) -> Game:
    """Random legal actions (now and then a claim, concession or resignation), at most ``limit`` of them."""
    done = 0
    while not game.is_over and (limit is None or done < limit):
        done += 1
        if game.phase is Phase.PLAY and rng.random() < side_rate:
            seat = rng.randrange(3)
            side = game.side_actions(seat)
            if side:
                game.apply(rng.choice(side), seat)
                continue
        game.apply(rng.choice(game.legal_actions()))
    return game


def assert_same_game(a: Game, b: Game) -> None:
    assert a.history == b.history
    assert (a.phase, a.to_move, a.declarer, a.bid, a.contract) == (b.phase, b.to_move, b.declarer, b.bid, b.contract)
    assert [a.hand(s) for s in range(3)] == [b.hand(s) for s in range(3)]
    assert [view_to_json(a.view(s)) for s in range(3)] == [view_to_json(b.view(s)) for s in range(3)]
    assert (a.result is None) == (b.result is None)
    if a.result is not None:
        assert a.result.to_json() == b.result.to_json()
    assert a.to_record() == b.to_record()


def round_trip(game: Game) -> Game:
    text = json.dumps(game.to_record())
    return Game.from_record(json.loads(text))


# ---------------------------------------------------------------------------- round trips


@settings(max_examples=300, deadline=None)
@given(seed=st.integers(0, 2**64 - 1), side=st.sampled_from([0.0, 0.02, 0.1, 0.5]))
def test_finished_game_round_trips(seed, side):
    game = play(Game(seed=seed), random.Random(seed), side)
    again = round_trip(game)
    assert again.is_over
    assert_same_game(game, again)


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), cut=st.integers(0, 60))
def test_unfinished_game_round_trips_and_plays_on_alike(seed, cut):
    game = play(Game(seed=seed), random.Random(seed), 0.05, limit=cut)
    again = round_trip(game)
    assert_same_game(game, again)
    # both continue identically from the restored state
    play(game, random.Random(cut), 0.05)
    play(again, random.Random(cut), 0.05)
    assert_same_game(game, again)


def test_many_seeded_games_round_trip_with_every_ending():
    kinds = set()
    for seed in range(400):
        game = play(Game(seed=seed), random.Random(seed), 0.04)
        assert_same_game(game, round_trip(game))
        kinds.add(game.result.kind)
    assert {"played", "claimed", "conceded", "resigned"} <= kinds


def test_passed_in_game_round_trips():
    game = Game(seed=11)
    for _ in range(3):
        game.apply("pass")
    again = round_trip(game)
    assert again.result.kind == "passed_in"
    assert_same_game(game, again)


def test_explicit_deal_round_trips():
    hands = ["CJ SJ HJ DJ CA CT CK CQ C9 C8", "SA ST SK SQ S9 S8 S7 HA HT HK", "HQ H9 H8 H7 DA DT DK DQ D9 D8"]
    game = play(Game(hands=hands, skat="C7 D7"), random.Random(3))
    record = game.to_record()
    assert record["seed"] is None and record["skat"] == ["D7", "C7"]
    assert_same_game(game, round_trip(game))


def test_rule_set_travels_with_the_record():
    game = Game(seed=21, ruleset=OLD_PRE1999)
    play(game, random.Random(21))
    again = round_trip(game)
    assert again.ruleset == OLD_PRE1999 and again.ruleset != ISKO
    assert_same_game(game, again)


# ------------------------------------------------------------------------ malformed records


def _finished_record(seed: int) -> dict:
    game = play(Game(seed=seed), random.Random(seed), 0.0)
    assert game.contract is not None and game.discard is not None and len(game.tricks) == 10
    return game.to_record()


SEED = 5  # a game with a skat pickup, played to the tenth trick
RECORD = _finished_record(SEED)


def _first_play(record: dict) -> int:
    """Index of the first card played in the record's actions."""
    return next(i for i, (_s, t) in enumerate(record["actions"]) if len(t) == 2 and t[1] in "AKQJT987")


def _card_not_in_hand(record: dict, seat: int) -> str:
    held = set(record["hands"][seat])
    return next(c for h in record["hands"] for c in h if c not in held)


def _without(key):
    def f(r):
        del r[key]
    return f


def _deal_card_twice(r):
    r["hands"][0][0] = r["hands"][1][0]


def _skat_card_twice(r):
    r["skat"][0] = r["hands"][2][3]


def _bad_card(r):
    r["hands"][1][4] = "XX"


def _nine_cards(r):
    r["hands"][0] = r["hands"][0][:9]


def _card_not_held(r):
    i = _first_play(r)
    seat = r["actions"][i][0]
    r["actions"][i][1] = _card_not_in_hand(r, seat)


def _card_played_twice(r):
    i = _first_play(r)
    # the same card again as the leader's next lead: the card is gone from his hand
    r["actions"][i + 3] = [r["actions"][i][0], r["actions"][i][1]]


def _card_in_the_auction(r):
    r["actions"][0][1] = r["hands"][r["actions"][0][0]][0]


def _bid_too_low(r):
    r["actions"].insert(0, [1, "18"])
    r["actions"].insert(1, [0, "hold"])
    r["actions"].insert(2, [1, "18"])


def _out_of_turn(r):
    r["actions"][0][0] = (r["actions"][0][0] + 1) % 3


def _no_such_seat(r):
    r["actions"][0][0] = 5


def _after_the_end(r):
    r["actions"].append([0, "CJ"])


def _unknown_token(r):
    r["actions"][0][1] = "double"


def _half_pair(r):
    r["actions"][0] = [1]


def _bad_rule(r):
    r["ruleset"] = {"lost_game_factor_typo": 3}


def _actions_not_a_list(r):
    r["actions"] = None


@pytest.mark.parametrize(("mutate", "why"), [
    (_without("hands"), r"hands"),
    (_without("skat"), r"skat"),
    (_without("actions"), r"actions"),
    (_deal_card_twice, r"each of the 32 cards exactly once"),
    (_skat_card_twice, r"each of the 32 cards exactly once"),
    (_bad_card, r"unknown card 'XX'"),
    (_nine_cards, r"10 cards each"),
    (_card_not_held, r"action \d+ \(\d '[CSHD][AKQJT987]'\) does not replay: .* not in seat \d's hand"),
    (_card_played_twice, r"does not replay: .*(not in seat \d's hand|turn)"),
    (_card_in_the_auction, r"action 1 .* does not replay: the auction is running"),
    (_bid_too_low, r"action 3 \(1 '18'\) does not replay: a bid must be higher than 18"),
    (_out_of_turn, r"action 1 .* does not replay: .*turn"),
    (_no_such_seat, r"action 1 \(5 .*seat 5"),
    (_after_the_end, r"does not replay: the game is over"),
    (_unknown_token, r"unknown action 'double'"),
    (_half_pair, r"record|action"),
    (_bad_rule, r"unknown rule option\(s\) lost_game_factor_typo"),
    (_actions_not_a_list, r"record|action"),
], ids=lambda v: getattr(v, "__name__", ""))
def test_malformed_record_raises_record_error_and_builds_no_game(mutate, why):
    record = copy.deepcopy(RECORD)
    mutate(record)
    before = copy.deepcopy(record)
    built = None
    with pytest.raises(RecordError, match=why):
        built = Game.from_record(record)
    assert built is None
    assert record == before  # the caller's record is left as it was


def test_record_is_plain_json():
    record = RECORD
    assert json.loads(json.dumps(record)) == record
    assert record["format"] == "skat-game" and record["version"] == 1
    assert len(record["hands"]) == 3 and all(len(h) == 10 for h in record["hands"]) and len(record["skat"]) == 2
    assert all(isinstance(s, int) and isinstance(t, str) for s, t in record["actions"])
    assert record["result"]["declarer"] is not None
