"""The wire form (skat.records.wire): seat views and actions to and from JSON, and the spectator's public view.

Over thousands of seeded random states of every variant (tests/wire_states.py): the JSON is exactly
what the server sent before this module existed (a copy of the old encoders below, and the golden
file tests/data/wire_golden.json written by them), every view comes back from its JSON field by
field, every action from its token, and no view holds a card its receiver may not know.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import fields
from typing import Any

import pytest

from conftest import DATA
from skat.cards import Card, CardSet
from skat.deal.game import Game, Phase, SeatView
from skat.errors import IllegalActionError
from skat.records.wire import (
    PUBLIC_FACTS,
    PUBLIC_OFFICERS_FACTS,
    action_token,
    officers_view_from_json,
    officers_view_to_json,
    parse_token,
    public_view,
    result_from_json,
    seat_view_from_json,
    seat_view_to_json,
    view_from_json,
    view_to_json,
)
from skat.rules.actions import KONTRA, RE
from skat.variants.officers import OfficersGame, OfficersView
from skat.variants.officers.actions import RAMSCH
from skat.variants.officers.game import Phase as OfficersPhase
from skat.variants.tournee import TourneeGame
from test_officers_random import FRONTS, secrets
from wire_states import OFFICERS_VARIANTS, SKAT_VARIANTS, VARIANTS, seats, states

GAMES = {**{v: 160 for v in SKAT_VARIANTS}, "tournee": 80, **{v: 70 for v in OFFICERS_VARIANTS}}
"""Random games per variant: some 2,000 to 4,000 states each."""
GOLDEN = DATA / "wire_golden.json"
CARD_RE = re.compile(r"\b([CSHD][789TJQKA])\b")
ALL = set(range(32))


def dumps(data: Any) -> str:
    """The bytes the server sends (it encodes with these separators, keys in their order)."""
    return json.dumps(data, separators=(",", ":"))


def cards_in(data: Any) -> set[int]:
    """Every card named anywhere in a JSON value (in card lists and inside action tokens alike)."""
    return {int(Card.parse(c)) for c in CARD_RE.findall(json.dumps(data))}


def token_variant(game: Any) -> str:
    if isinstance(game, OfficersGame):
        return "officers"
    return "tournee" if isinstance(game, TourneeGame) else "standard"


# --------------------------------------------------------- the old encoders
# Copied from SeatView.to_json and OfficersView.to_json and from the server's public_view as they were
# before skat.records.wire: the protocol did not change, so the new encoders must write exactly this.
def old_seat_view_json(self: SeatView) -> dict[str, Any]:
    return {
        "kontra_level": self.kontra_level,
        "seat": self.seat,
        "phase": self.phase.value,
        "to_move": self.to_move,
        "hand": [c.name for c in self.hand],
        "legal_actions": [str(a) for a in self.legal_actions],
        "side_actions": [str(a) for a in self.side_actions],
        "auction": [[s, t] for s, t in self.auction],
        "bid": self.bid,
        "declarer": self.declarer,
        "contract": None if self.contract is None else self.contract.to_json(),
        "skat": None if self.skat is None else [c.name for c in self.skat],
        "discard": None if self.discard is None else [c.name for c in self.discard],
        "open_hands": {str(s): [c.name for c in h] for s, h in self.open_hands.items()},
        "trick": [[s, c.name] for s, c in self.trick],
        "tricks": [[ld, [c.name for c in cs], w] for ld, cs, w in self.tricks],
        "trick_points": list(self.trick_points),
        "hand_sizes": list(self.hand_sizes),
        "result": None if self.result is None else self.result.to_json(),
        "ruleset": self.ruleset,
    }


def old_officers_view_json(self: OfficersView) -> dict[str, Any]:
    def pile_json(piles: list[list[Card | None]]) -> list[list[str | None]]:
        return [[None if c is None else c.name for c in p] for p in piles]

    return {
        "seat": self.seat, "variant": self.variant, "phase": self.phase.value, "to_move": self.to_move,
        "legal_actions": [str(a) for a in self.legal_actions], "chooser": self.chooser, "game": self.game,
        "contract": None if self.contract is None else self.contract.to_json(),
        "kontra_level": self.kontra_level, "bid": self.bid, "auction": [[s, t] for s, t in self.auction],
        "own_piles": pile_json(self.own_piles), "opponent_piles": pile_json(self.opponent_piles),
        "hand": [c.name for c in self.hand], "opponent_hand_size": self.opponent_hand_size,
        "opponent_hand": None if self.opponent_hand is None else [c.name for c in self.opponent_hand],
        "skat": None if self.skat is None else [c.name for c in self.skat],
        "discard": None if self.discard is None else [c.name for c in self.discard],
        "skat_size": self.skat_size, "trick": [[s, c.name] for s, c in self.trick],
        "tricks": [[ld, [c.name for c in cs], w] for ld, cs, w in self.tricks],
        "trick_points": list(self.trick_points), "tricks_won": list(self.tricks_won),
        "result": None if self.result is None else self.result.to_json(), "options": dict(self.options),
    }


def old_public_view(game: Any) -> dict[str, Any]:
    """The server's spectator view before skat.records.wire: a defender's view with its secrets blanked."""
    view_json = old_seat_view_json(game.view(0 if game.declarer is None else (game.declarer + 1) % 3))
    out = dict(view_json)
    out.update(seat=None, hand=[], legal_actions=[], side_actions=[], discard=None)
    if view_json.get("declarer") is None:
        out["skat"] = None
    return out


def old_json(view: Any) -> dict[str, Any]:
    return old_officers_view_json(view) if isinstance(view, OfficersView) else old_seat_view_json(view)


def every_state(variant: str):
    for seed in range(GAMES[variant]):
        yield from states(variant, seed)


# ------------------------------------------------------- the JSON as before
@pytest.mark.parametrize("variant", list(VARIANTS))
def test_the_json_is_what_the_server_sent_before(variant):
    n = 0
    for game in every_state(variant):
        n += 1
        for seat in seats(game):
            view = game.view(seat)
            assert dumps(view_to_json(view)) == dumps(old_json(view))
        if variant in SKAT_VARIANTS:
            assert dumps(seat_view_to_json(public_view(game))) == dumps(old_public_view(game)), \
                f"the spectator's view differs from the old one in phase {game.phase}"
    assert n >= 2000


def golden_payload(games: int, samples: bool) -> dict[str, Any]:
    """Digests of every view's JSON (and the spectator's) of the first ``games`` games of each variant,
    and the views at the first state of each phase (the format of tests/data/wire_golden.json)."""
    out: dict[str, Any] = {"games_per_variant": games, "digests": {}, "samples": []}
    for variant in VARIANTS:
        officers = variant in OFFICERS_VARIANTS
        seat_hash, public_hash, n, phases = hashlib.sha256(), hashlib.sha256(), 0, set()
        for seed in range(games):
            for step, game in enumerate(states(variant, seed)):
                n += 1
                for seat in seats(game):
                    seat_hash.update(dumps(view_to_json(game.view(seat))).encode() + b"\n")
                if not officers:
                    public_hash.update(dumps(view_to_json(public_view(game))).encode() + b"\n")
                if samples and str(game.phase) not in phases:
                    phases.add(str(game.phase))
                    seat = game.to_move if game.to_move is not None else 0
                    sample = {"variant": variant, "seed": seed, "step": step, "seat": seat,
                              "view": view_to_json(game.view(seat))}
                    if not officers:
                        sample["public"] = view_to_json(public_view(game))
                    out["samples"].append(sample)
        out["digests"][variant] = {"states": n, "seats": seat_hash.hexdigest(),
                                   **({} if officers else {"public": public_hash.hexdigest()})}
    return out


def test_the_golden_views_are_sent_unchanged():
    golden = json.loads(GOLDEN.read_text())
    now = golden_payload(golden["games_per_variant"], samples=True)
    assert [dumps(s) for s in now["samples"]] == [dumps(s) for s in golden["samples"]]
    assert now["digests"] == golden["digests"]


# ------------------------------------------------------------ round trips
def same_fields(back: Any, view: Any, where: str) -> None:
    assert type(back) is type(view), where
    for f in fields(view):
        a, b = getattr(back, f.name), getattr(view, f.name)
        assert a == b, f"{where}: {f.name} comes back as {a!r}, not {b!r}"
        assert type(a) is type(b), f"{where}: {f.name} comes back as a {type(a).__name__}"
    if view.result is not None:
        assert type(back.result) is type(view.result)
        assert back.result.to_json() == view.result.to_json()


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_a_view_and_its_actions_come_back_from_the_wire(variant):
    n = 0
    for game in every_state(variant):
        n += 1
        where = f"{variant} phase {game.phase}"
        for seat in seats(game):
            view = game.view(seat)
            back = view_from_json(json.loads(dumps(view_to_json(view))))
            same_fields(back, view, where)
            for action in [*view.legal_actions, *getattr(view, "side_actions", [])]:
                token = action_token(action)
                assert token == str(action)
                assert parse_token(token, token_variant(game)) == action, f"{where}: {token!r}"
        public = public_view(game)
        same_fields(view_from_json(json.loads(dumps(view_to_json(public)))), public, f"{where} (public)")
    assert n >= 2000


def test_the_kinds_of_view_and_result_have_their_own_readers():
    game = Game(seed=3)
    view = game.view(0)
    assert seat_view_from_json(seat_view_to_json(view)) == view
    officers = OfficersGame("classic", seed=3)
    assert officers_view_from_json(officers_view_to_json(officers.view(1))) == officers.view(1)
    assert result_from_json(None) is None
    while not game.is_over:
        game.apply(game.legal_actions()[-1])
    assert result_from_json(json.loads(json.dumps(game.result.to_json()))) == game.result


def test_tokens_are_read_per_variant():
    assert parse_token("ramsch", "officers") is RAMSCH
    for token in ("kontra", "contra"):  # Officers' Skat says the standard Kontra and Re
        assert parse_token(token, "officers") is KONTRA and parse_token(token) is KONTRA
    for token in ("re", "rekontra"):
        assert parse_token(token, "officers") is RE and parse_token(token) is RE
    assert str(parse_token("passt mir nicht", "tournee")) == "reject"
    for token in ("18", "hold", "pass", "pickup", "discard DT CT", "declare grand hand", "CJ", "claim", "push"):
        assert action_token(parse_token(token)) == token
    with pytest.raises(IllegalActionError):
        parse_token("ramsch")  # not an action of standard Skat
    with pytest.raises(ValueError, match="unknown variant"):
        parse_token("pass", "doppelkopf")


# ------------------------------------------------------ hidden information
def public_cards(game: Any) -> set[int]:
    """The cards everybody at a Skat table has seen, worked out from the table itself: played cards,
    the hand of an ouvert or claiming declarer, Tournee's turned cards; every card once it is over."""
    if game.phase is Phase.FINISHED:
        return set(ALL)
    shown = {c for _, cs, _ in game.tricks for c in cs} | {int(c) for c in game.trick}
    if game.contract is not None and (game.contract.ouvert or getattr(game, "claimed", False)):
        shown |= {int(c) for c in game.hand(game.declarer)}
    return shown | set(getattr(game, "turned", ()))


@pytest.mark.parametrize("variant", list(SKAT_VARIANTS))
def test_the_public_view_shows_only_public_facts(variant):
    """The spectator's view holds only public cards; every seat's only what that seat has held or
    seen laid open; the public facts are the same in every seat's view."""
    n = 0
    for seed in range(GAMES[variant]):
        public: set[int] = set()
        known: list[set[int]] = [set(), set(), set()]
        for game in states(variant, seed):
            n += 1
            public |= public_cards(game)
            views = [game.view(s) for s in range(3)]
            for fact in PUBLIC_FACTS:
                assert getattr(views[0], fact) == getattr(views[1], fact) == getattr(views[2], fact), fact
            spectator = public_view(game)
            shown = cards_in(seat_view_to_json(spectator))
            assert shown <= public, f"{variant} seed {seed} phase {game.phase}: spectators see " \
                                    f"{CardSet.from_mask(sum(1 << c for c in shown - public))}"
            assert spectator.seat is None and not spectator.hand and spectator.discard is None
            assert spectator.legal_actions == [] and spectator.side_actions == []
            turned = set(getattr(game, "turned", ()))
            assert (spectator.skat is None and not turned) or {int(c) for c in spectator.skat} == turned
            for seat, view in enumerate(views):
                known[seat] |= {int(c) for c in game.hand(seat)} | public
                leaked = cards_in(seat_view_to_json(view)) - known[seat]
                assert not leaked, f"{variant} seed {seed} phase {game.phase}: seat {seat} sees " \
                                   f"{CardSet.from_mask(sum(1 << c for c in leaked))}"
    assert n >= 2000


@pytest.mark.parametrize("variant", list(OFFICERS_VARIANTS))
def test_the_public_officers_view_shows_only_what_faces_both(variant):
    n = 0
    for seed in range(GAMES[variant]):
        for step, game in enumerate(states(variant, seed)):
            n += 1
            if step == 0:
                FRONTS[id(game)] = {p[0] for s in (0, 1) for p in game.piles[s] if p}
            first, second = game.view(0), game.view(1)
            for fact in PUBLIC_OFFICERS_FACTS:
                assert getattr(first, fact) == getattr(second, fact), fact
            over = game.phase is OfficersPhase.FINISHED
            dealt = {c for c in ALL if game.dealt >> c & 1}
            both = ALL if over else dealt - secrets(game, 0) - secrets(game, 1)
            spectator = public_view(game)
            assert spectator.seat is None and spectator.legal_actions == []
            leaked = cards_in(officers_view_to_json(spectator)) - both
            assert not leaked, f"{variant} seed {seed} phase {game.phase}: spectators see {sorted(leaked)}"
            for seat, view in ((0, first), (1, second)):
                if not over:
                    leaked = cards_in(officers_view_to_json(view)) & secrets(game, seat)
                    assert not leaked, f"{variant} seed {seed} phase {game.phase}: seat {seat} sees {sorted(leaked)}"
            if game.is_over:
                FRONTS.pop(id(game))
    assert n >= 2000


if __name__ == "__main__":  # PYTHONPATH=src python tests/test_wire.py: write the golden file anew, only when
    # the protocol changes on purpose or the engine plays these random games differently
    payload = golden_payload(12, samples=True)
    lines = [",\n".join(f"  {json.dumps(k)}: {json.dumps(v)}" for k, v in payload["digests"].items()),
             ",\n".join("  " + dumps(s) for s in payload["samples"])]
    GOLDEN.write_text(f'{{"games_per_variant": 12,\n "digests": {{\n{lines[0]}\n }},\n "samples": [\n{lines[1]}\n ]}}\n')
