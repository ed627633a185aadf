"""Property tests over thousands of random complete games (hypothesis)."""

from __future__ import annotations

import json
import random
import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from skat import Card, Game, IllegalActionError, Phase
from skat.cards import CardSet
from skat.records.wire import view_to_json
from skat.rules.actions import CLAIM, CONCEDE, PLAY, RESIGN, Bid, Discard

CARD_RE = re.compile(r"\b[CSHD][789TJQKA]\b")
SETTINGS = settings(max_examples=2000, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def play_random(seed: int, choice_seed: int, early_ends: bool = False) -> Game:
    game = Game(seed=seed)
    rng = random.Random(choice_seed)
    while not game.is_over:
        actions = game.legal_actions()
        assert actions, f"no legal action in phase {game.phase}"
        if early_ends and game.phase is Phase.PLAY and rng.random() < 0.03:
            seat = rng.randrange(3)
            side = game.side_actions(seat)
            if side:
                game.apply(rng.choice(side), seat=seat)
                continue
        game.apply(rng.choice(actions))
    return game


def hidden_from(game: Game, seat: int) -> int:
    """Cards seat may not know now: other players' concealed hands, the skat and the discard."""
    hidden = 0
    view_open = game.view(seat).open_hands
    for other in range(3):
        if other != seat and other not in view_open:
            hidden |= game.hand(other).mask
    if not (seat == game.declarer and game.skat_taken):
        hidden |= game.initial_skat
    if game.discard is not None and seat != game.declarer:
        hidden |= game.discard
    played = 0
    for _, cards, _ in game.tricks:
        for c in cards:
            played |= 1 << c
    for c in game.trick:
        played |= 1 << c
    shown = 0
    for hand in view_open.values():
        shown |= hand.mask
    return hidden & ~played & ~shown


@SETTINGS
@given(seed=st.integers(0, 2**63), choice_seed=st.integers(0, 2**32))
def test_complete_games_keep_the_invariants(seed, choice_seed):
    game = play_random(seed, choice_seed)
    r = game.result
    assert r is not None and game.phase is Phase.FINISHED
    if r.kind == "passed_in":
        assert r.scores == (0, 0, 0)
        return
    assert sum(1 for s in r.scores if s) <= 1 and r.scores[r.declarer] == r.score
    null_or_schwarz_end = r.contract.is_null or r.contract.schwarz
    if not null_or_schwarz_end:
        assert len(game.tricks) == 10
        assert r.declarer_points + r.defender_points == 120
        taken = sum(game.trick_points)
        assert taken == 120 - CardSet.from_mask(game.discard if game.skat_taken else game.initial_skat).points
    else:
        assert 1 <= len(game.tricks) <= 10
    assert (r.score > 0) == r.won
    # the record replays to the same result
    replay = Game.from_record(json.loads(json.dumps(game.to_record())))
    assert replay.result == r


@SETTINGS
@given(seed=st.integers(0, 2**63), choice_seed=st.integers(0, 2**32))
def test_early_ends_account_for_every_card(seed, choice_seed):
    game = play_random(seed, choice_seed, early_ends=True)
    r = game.result
    if r.kind in ("conceded", "claimed", "resigned") and not r.contract.is_null:
        assert r.declarer_points + r.defender_points == 120
    if r.kind == "resigned" and not r.contract.is_null:
        # the game ends with the tricks each side has (ISkO 2018 4.4.6): the rest goes to the defenders
        kept = game.discard if game.skat_taken else game.initial_skat
        assert r.declarer_points == game.trick_points[r.declarer] + CardSet.from_mask(kept).points
    assert Game.from_record(game.to_record()).result == r


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**63), choice_seed=st.integers(0, 2**32))
def test_a_seat_view_never_holds_another_seats_hidden_cards(seed, choice_seed):
    game = Game(seed=seed)
    rng = random.Random(choice_seed)
    while True:
        for seat in range(3):
            if game.is_over:
                break
            view = game.view(seat)
            assert view.hand == game.hand(seat)
            wire = json.dumps(view_to_json(view))
            shown = {Card[c].value for c in CARD_RE.findall(wire)}
            leaked = hidden_from(game, seat) & sum(1 << c for c in shown)
            assert not leaked, f"seat {seat} sees {CardSet.from_mask(leaked)} in phase {game.phase}"
        if game.is_over:
            break
        game.apply(rng.choice(game.legal_actions()))


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 2**63), choice_seed=st.integers(0, 2**32), steps=st.integers(0, 45))
def test_every_illegal_action_raises_and_changes_nothing(seed, choice_seed, steps):
    game = Game(seed=seed)
    rng = random.Random(choice_seed)
    for _ in range(steps):
        if game.is_over:
            break
        game.apply(rng.choice(game.legal_actions()))
    legal = set(game.legal_actions())
    candidates = [*PLAY, Bid(18), Bid(264), Bid(19), CLAIM, CONCEDE, RESIGN,
                  Discard(CardSet.from_mask(0b11)), Discard(CardSet.from_mask(0b111))]
    record_before = json.dumps(game.to_record())
    for action in candidates:
        for seat in range(3):
            if (action in legal and seat == game.to_move) or action in game.side_actions(seat):
                continue
            try:
                game.apply(action, seat=seat)
            except IllegalActionError:
                pass
            else:
                raise AssertionError(f"{action} by seat {seat} was accepted in phase {game.phase}")
            assert json.dumps(game.to_record()) == record_before
