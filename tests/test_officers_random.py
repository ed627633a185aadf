"""Thousands of seeded random Officers' Skat games per variant: the invariants of docs/rules.md section 9.

16 tricks (15 plus the skat in Admiral's), 120 card points, only uncovered cards playable,
hidden cards never on the wire to a player who may not see them, Kontra/Re and scoring as
configured, illegal actions rejected without a trace.
"""

from __future__ import annotations

import json
import random
import re

import pytest

from skat.cards import Card, CardSet
from skat.errors import IllegalActionError
from skat.records.wire import view_to_json
from skat.rules.actions import Declare, Kontra, Play, Re
from skat.variants.officers import OfficersGame, Phase, score_admiral, score_game, score_ramsch

GAMES = 1000
CARD_RE = re.compile(r'"([CSHD][AKQJT987])"')

OPTION_SETS = {
    "classic": [{}, {"allow_null": True, "allow_ramsch": True}, {"kontra": False, "scoring": "points_234"},
                {"scoring": "full_matadors", "schneider_rule": "at_most_30", "schwarz_rule": "no_tricks"},
                {"scoring": "base", "schneider_on_loss": True, "allow_null": True}, {"scoring": "card_points"}],
    "passing": [{}, {"allow_ramsch": True, "allow_null": True, "null_value": 30}, {"scoring": "points_234"}],
    "harlequin": [{}, {"allow_null": True, "allow_ramsch": True, "scoring": "full_matadors"}],
    "half_open": [{}, {"kontra": False, "allow_null": True}],
    "admiral": [{}, {"all_pass": "passed_in"}, {"kontra": False}],
}


def secrets(game: OfficersGame, seat: int) -> set[int]:
    """Cards ``seat`` may not see now, worked out from the layout alone (not from the engine's faces)."""
    hidden: set[int] = set()
    v = game.variant
    for owner in (0, 1):
        for pile in game.piles[owner]:
            for i, c in enumerate(pile):
                covered = i > 0
                original_front = c in FRONTS[id(game)]
                if v in ("harlequin", "half_open"):
                    if original_front and owner != seat:
                        hidden.add(c)  # a card facing its owner
                    if covered and owner == seat:
                        hidden.add(c)  # a card behind it, facing the opponent
                elif covered:
                    hidden.add(c)  # a face-down card
        if owner != seat:
            hidden |= {c for c in range(32) if game.hands[owner] >> c & 1}
    if v == "admiral" and not (seat == game.chooser and game.skat_taken):
        played = {c for _, cs, _ in game.tricks for c in cs} | set(game.trick)
        hidden |= {c for c in range(32) if game.skat >> c & 1} - played
    return hidden


FRONTS: dict[int, set[int]] = {}


def wire_cards(game: OfficersGame, seat: int) -> set[int]:
    text = json.dumps(view_to_json(game.view(seat)))
    return {_NUMBER[m] for m in CARD_RE.findall(text)}


_NUMBER = {c.name: int(c) for c in Card}


def play_random(variant: str, seed: int, options: dict, check_views: bool) -> OfficersGame:
    rng = random.Random(seed)
    g = OfficersGame(variant, seed=seed, **options)
    FRONTS[id(g)] = {p[0] for s in (0, 1) for p in g.piles[s] if p}
    saw_kontra_phase = False
    while not g.is_over:
        seat = g.to_move
        legal = g.legal_actions()
        assert legal and g.legal_actions(1 - seat) == []
        if g.phase is Phase.KONTRA:
            saw_kontra_phase = True
        if g.phase is Phase.RE:
            assert g.kontra_level == 1
        if g.phase is Phase.PLAY:
            own_view = g.view(seat).visible_cards() if check_views else CardSet.from_mask(g.playable(seat))
            for a in legal:
                c = int(a.card)
                on_top = any(p and p[0] == c for p in g.piles[seat]) or g.hands[seat] >> c & 1
                assert on_top, f"{Card(c).name} is covered but listed as playable"
                assert c in own_view
            covered = [p[1] for p in g.piles[seat] if len(p) > 1]
            if covered and rng.random() < 0.05:
                before = json.dumps(g.to_record())
                with pytest.raises(IllegalActionError, match="covered"):
                    g.apply(Play(Card(covered[0])))
                assert json.dumps(g.to_record()) == before
        if check_views:
            for s in (0, 1):
                leaked = wire_cards(g, s) & secrets(g, s)
                assert not leaked, f"seat {s} sees {[Card(c).name for c in leaked]} in {variant} seed {seed}"
            if g.phase is Phase.PLAY and not g.trick and variant in ("classic", "passing"):
                tops = {p[0] for s in (0, 1) for p in g.piles[s] if p}
                assert tops <= wire_cards(g, 0) and tops <= wire_cards(g, 1)
        g.apply(rng.choice(legal))
    FRONTS.pop(id(g))
    assert saw_kontra_phase == (g.options.kontra and g.chooser is not None)
    return g


def check_result(g: OfficersGame) -> None:
    r = g.result
    assert r is not None
    if r.kind == "passed_in":
        assert g.variant == "admiral" and g.options.all_pass == "passed_in" and r.scores == (0, 0)
        return
    calls = [a for _, a in g.history if isinstance(a, (Kontra, Re))]
    assert r.kontra_level == len(calls) and (r.chooser is not None or not calls)
    if r.game == "null" and r.tricks[r.chooser] > 0:
        assert r.tricks[r.chooser] == 1 and g.tricks[-1][2] == r.chooser  # ended at his first trick
    else:
        assert len(g.tricks) == g.total_tricks
        assert sum(r.points) == 120
        assert sum(r.tricks) == g.total_tricks
    pts, tricks = r.points, r.tricks
    if r.game == "ramsch":
        plain = score_ramsch(pts, tricks, r.chooser, g.options)
    elif g.variant == "admiral":
        plain = score_admiral(r.contract, r.chooser, r.bid, g.initial_cards[r.chooser] | g.skat, pts, tricks)
    else:
        plain = score_game(r.game, r.chooser, g.initial_cards[r.chooser], pts, tricks, g.options)
    factor = 2 ** r.kontra_level
    assert r.scores == (plain.scores[0] * factor, plain.scores[1] * factor)
    if g.variant != "admiral" and r.game not in ("ramsch", None) and g.options.scoring == "matadors":
        opp = 1 - r.chooser
        assert r.scores[opp] == 0
        assert (r.scores[r.chooser] > 0) == (pts[r.chooser] >= 61 if r.game != "null" else tricks[r.chooser] == 0)


@pytest.mark.parametrize("variant", list(OPTION_SETS))
def test_random_games(variant):
    sets = OPTION_SETS[variant]
    games_seen = set()
    for seed in range(GAMES):
        options = sets[seed % len(sets)]
        g = play_random(variant, seed, options, check_views=seed % 10 == 0)
        check_result(g)
        games_seen.add(g.result.game)
        if seed % 50 == 0:
            again = OfficersGame.from_record(json.loads(json.dumps(g.to_record())))
            assert again.result == g.result
    expected = {"grand", "clubs", "spades", "hearts", "diamonds"}
    assert expected <= games_seen
    assert ("ramsch" in games_seen) == any(o.get("allow_ramsch") for o in sets) or variant in ("passing", "admiral")


def test_declare_in_random_games_follows_the_chooser():
    g = OfficersGame("classic", seed=3)
    g.apply(next(a for a in g.legal_actions() if isinstance(a, Declare)))
    assert g.chooser == 0
