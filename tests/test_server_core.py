"""The table core (skat.server.core.TableCore) driven without a server: no socket, no database, no clock, no
event loop. Every variant a server table plays goes through it deal by deal (actions checked and applied as a
client's tokens), with the refusals, claims, stops, the resting all-computer table, hidden information in the
states, and a second core catching up from what the first one stored (replay and the notices of another
server process)."""

from __future__ import annotations

import json
import random

import pytest

from skat.deal.game import Game, Phase
from skat.rules.actions import CLAIM, CONCEDE
from skat.server.core import Seat, TableCore, TableError, hash_token
from skat.server.creation import build_seats, build_series, plan_table, table_rulesets
from skat.server.store import StoredDeal, StoredTable
from skat.variants.officers.options import VARIANTS as OFFICERS_VARIANTS


def make_core(variant: str = "standard", seats: tuple[str, ...] = ("human", "human", "human"), *,
              ruleset: str | None = None, officers_variant: str | None = None, seed: int | None = 7,
              options: dict | None = None, table_id: str = "core0001") -> TableCore:
    """A table as the server makes it (the same checks and settings), every person's seat taken."""
    plan = plan_table(table_id, seats=list(seats), ruleset=ruleset, variant=variant,
                      officers_variant=officers_variant, seed=seed, options=options, claim=None, public=True)
    built = build_seats(table_id, plan.settings, plan.rows)
    core = TableCore(id=table_id, name=plan.name, settings=plan.settings, seats=built,
                     series=build_series(plan.settings, len(built)), positions=tuple(range(min(3, len(built)))))
    for seat in core.seats:
        if seat.kind == "human":
            seat.token_hash, seat.name = hash_token(f"token-{seat.position}"), f"Player {seat.position}"
    return core


def start(core: TableCore) -> None:
    assert core.deal_due()
    core.enter(core.series.start_deal(), core.deal_no + 1)
    core.count_unwatched()


def tokens(game: Game, seat: int) -> list[str]:
    return [str(a) for a in game.legal_actions(seat)]


def play_deal(core: TableCore, rng: random.Random, *, side: float = 0.1) -> int:
    """Play the current deal to its end as clients would: a legal action's token (now and then a side action
    such as Kontra) from the position to move, checked by the core, then applied. Returns the actions."""
    game = core.game
    assert game is not None
    count = 0
    while not game.is_over:
        seat = game.to_move
        assert seat is not None
        position = core.positions[seat]
        extra = [str(a) for a in game.side_actions(seat) if str(a) not in ("resign", "claim")]
        token = rng.choice(extra) if extra and rng.random() < side else rng.choice(tokens(game, seat))
        checked_seat, action = core.check_action(position, token)
        assert checked_seat == seat and str(action) == token
        before = len(game.history)
        core.play(seat, action)
        assert len(game.history) == before + 1
        count += 1
    return count


STANDARD = [(name, 3) for name in table_rulesets()] + [("isko2018", 4), ("pub", 4)]
"""Every preset a server table plays (pub: Ramsch, Bock and Kontra; tournee; pirate), and tables of four."""


@pytest.mark.parametrize(("ruleset", "players"), STANDARD)
def test_every_skat_rule_set_plays_through_the_core(ruleset, players):
    core = make_core(seats=("human",) * players, ruleset=ruleset)
    rng = random.Random(f"{ruleset}-{players}")
    for deal_no in range(1, 5):
        start(core)
        assert core.deal_no == deal_no and core.status == "playing" and not core.ready
        if players == 4:  # the dealer sits out: no action of theirs is taken
            out = next(p for p in range(4) if core.seat_of(p) is None)
            with pytest.raises(TableError) as refused:
                core.check_action(out, "pass")
            assert refused.value.code == "sitting_out"
        play_deal(core, rng)
        assert core.game is not None and core.game.is_over
        assert core.pending_finish is not None and core.pending_finish[0] == deal_no  # its result is to be written
        assert core.sheet_changed and core.kept_record(deal_no)["table"]["deal_no"] == deal_no
        assert [r["deal_no"] for r in core.game_results()] == list(range(1, deal_no + 1))
        assert core.status == "between_deals" and not core.deal_due()  # nobody is ready yet
        for position in range(players - 1):
            core.ready.add(position)
            assert not core.deal_due()
        core.ready.add(players - 1)
        core.pending_finish = None
    assert core.deal_due()


@pytest.mark.parametrize("variant", OFFICERS_VARIANTS)
def test_every_officers_skat_variant_plays_through_the_core(variant):
    core = make_core("officers", ("human", "human"), officers_variant=variant)
    rng = random.Random(variant)
    for deal_no in range(1, 4):
        start(core)
        assert core.positions in ((0, 1), (1, 0)) and not core.hints_on
        play_deal(core, rng, side=0.2)
        state = core.state_for(0)
        assert state["view"] is not None and state["table"]["variant"] == "officers"
        assert state["table"]["ruleset"] is None and len(core.game_results()) == deal_no
        core.ready |= {0, 1}


def test_a_table_with_a_free_seat_waits():
    core = make_core()
    core.seats[2].token_hash = None
    assert core.status == "waiting" and not core.deal_due() and core.free_seats() == [2]
    core.seats[2].token_hash = hash_token("late")
    assert core.status == "starting" and core.deal_due()


@pytest.mark.parametrize(("position", "token", "code"), [
    (None, "pass", "not_a_player"),
    (0, "", "bad_action"),
    (0, 17, "bad_action"),
    (0, "x" * 500, "bad_action"),
    (0, "fly away", "bad_action"),
])
def test_an_action_is_refused_saying_why_and_nothing_changes(position, token, code):
    core = make_core()
    start(core)
    game = core.game
    assert game is not None
    history = list(game.history)
    with pytest.raises(TableError) as refused:
        core.check_action(position, token)
    assert refused.value.code == code and str(refused.value)
    assert game.history == history


def test_actions_out_of_turn_before_and_after_a_deal_are_refused():
    core = make_core()
    with pytest.raises(TableError, match="no deal is running") as refused:
        core.check_action(0, "pass")
    assert refused.value.code == "no_deal"
    start(core)
    game = core.game
    assert game is not None
    waiting = next(p for p in range(3) if core.seat_of(p) != game.to_move)
    with pytest.raises(TableError) as refused:
        core.check_action(waiting, tokens(game, game.to_move)[0])
    assert refused.value.code == "illegal_action"
    play_deal(core, random.Random(1))
    with pytest.raises(TableError) as refused:
        core.check_action(0, "pass")
    assert refused.value.code == "deal_over"
    with pytest.raises(TableError) as refused:
        core.hint_point(0)
    assert refused.value.code == "deal_over"


def test_the_hint_is_only_for_the_own_turn_in_the_card_play():
    core = make_core()
    start(core)
    game = core.game
    assert game is not None
    with pytest.raises(TableError) as refused:
        core.hint_point(0)
    assert refused.value.code == "not_in_play"
    rng = random.Random(3)
    while game.phase is not Phase.PLAY:
        seat = game.to_move
        core.play(seat, core.check_action(core.positions[seat], rng.choice(tokens(game, seat)))[1])
        if game.is_over:  # passed in: the next deal
            core.ready |= {0, 1, 2}
            start(core)
            game = core.game
    key, view = core.hint_point(core.positions[game.to_move])
    assert key == (core.deal_no, len(game.history), game.to_move) and view.seat == game.to_move
    other = next(p for p in range(3) if core.seat_of(p) != game.to_move)
    with pytest.raises(TableError) as refused:
        core.hint_point(other)
    assert refused.value.code == "not_your_turn"
    with pytest.raises(TableError) as refused:
        core.hint_point(None)
    assert refused.value.code == "not_a_player"
    core.settings["hints"] = False
    with pytest.raises(TableError) as refused:
        core.hint_point(core.positions[game.to_move])
    assert refused.value.code == "hints_off"


def declared_by_forehand(core: TableCore) -> Game:
    """The first deal, forehand the declarer of a grand hand: middlehand and rearhand pass."""
    start(core)
    game = core.game
    assert game is not None
    while game.phase is Phase.BIDDING:
        seat = game.to_move
        legal = tokens(game, seat)
        token = ("hold" if "hold" in legal else next(t for t in legal if t != "pass")) if seat == 0 else "pass"
        core.play(seat, core.check_action(core.positions[seat], token)[1])
    core.play(0, core.check_action(core.positions[0], "declare grand hand")[1])
    assert game.phase is Phase.PLAY and game.declarer == 0
    return game


def test_computer_defenders_owe_an_answer_to_a_claim_once():
    core = make_core(seats=("human", "random", "random"))
    game = declared_by_forehand(core)
    assert core.claim_answers_due() == [] and core.bot_to_move() is None  # forehand leads
    core.play(0, CLAIM)
    assert core.claim_answers_due() == [(1, 1), (2, 2)]
    core.claim_checked.add((core.deal_no, len(game.history), 1))  # the first defender judged it: plays on
    assert core.claim_answers_due() == [(2, 2)]
    core.play(2, CONCEDE)
    assert core.claim_answers_due() == [(1, 1)]  # a new point of the deal: asked again
    core.play(1, CONCEDE)
    assert game.is_over and game.result is not None and game.result.kind == "claimed"
    assert core.claim_answers_due() == [] and core.bot_to_move() is None


def test_the_computer_to_move_is_named_by_position_and_seat():
    core = make_core(seats=("human", "human", "random", "random"))
    start(core)
    game = core.game
    assert game is not None
    while not game.is_over:
        mover = core.bot_to_move()
        position = core.positions[game.to_move]
        assert mover == ((position, game.to_move) if core.seats[position].kind == "bot" else None)
        core.play(game.to_move, game.legal_actions(game.to_move)[0])


def test_a_stopped_table_takes_nothing_more():
    core = make_core()
    start(core)
    core.stop("the computer players failed 5 times")
    assert core.status == "stopped" and not core.deal_due()
    for refuse in (core.check_running, lambda: core.hint_point(0), lambda: core.check_ready(0)):
        with pytest.raises(TableError) as refused:
            refuse()
        assert refused.value.code == "table_stopped" and "failed 5 times" in str(refused.value)
    assert core.state_for(None)["stopped"] == "the computer players failed 5 times"
    assert core.apply_notice({"k": "stopped", "reason": "again"}) == ""  # stopped once


def test_a_closed_table_is_gone():
    core = make_core()
    core.closed = True
    with pytest.raises(TableError) as refused:
        core.check_running()
    assert refused.value.code == "no_table" and refused.value.status == 404


def test_an_all_computer_table_rests_after_its_unwatched_deals_until_somebody_watches():
    core = make_core(seats=("random", "random", "random"))
    core.robot_deals = 2
    rng = random.Random(5)
    for _ in range(2):
        start(core)
        play_deal(core, rng)
        assert core.ready == {0, 1, 2}  # nobody to wait for
    assert core.paused and core.status == "paused" and not core.deal_due()
    core.arrive(None)  # a spectator
    assert not core.paused and core.deal_due() and core.public_info()["spectators"] == 1
    start(core)
    assert core.unwatched_deals == 0
    core.leave(None)
    assert not core.watched and core.public_info()["spectators"] == 0


def test_who_is_connected_is_counted_per_position():
    core = make_core()
    core.arrive(1)
    core.arrive(1)
    core.arrive(None)
    connected = [s["connected"] for s in core.public_info()["seats"]]
    assert connected == [False, True, False] and core.public_info()["spectators"] == 1
    core.leave(1)
    assert core.public_info()["seats"][1]["connected"]  # a second connection of the same seat is still there
    core.leave(1)
    assert not core.public_info()["seats"][1]["connected"]


def test_each_state_shows_only_what_its_reader_may_know():
    core = make_core(seed=None)  # a secret table: its seed is drawn and never shown
    start(core)
    game = core.game
    assert game is not None
    for position in range(3):
        seat = core.seat_of(position)
        view = core.state_for(position)["view"]
        assert sorted(view["hand"]) == sorted(c.name for c in game.hand(seat))
        for other in range(3):
            if other != seat:
                assert not set(view["hand"]) & {c.name for c in game.hand(other)}
        assert "skat" not in view or not view["skat"]
    spectator = core.state_for(None)
    assert spectator["you"] == {"position": None, "seat": None, "role": "spectator"}
    assert not spectator["view"]["hand"] and spectator["hints"]["sorted"]["hand"] == []
    assert spectator["dealt"] is None and str(core.settings["seed"]) not in json.dumps(spectator)
    play_deal(core, random.Random(9))
    assert core.state_for(None)["dealt"]["skat"]  # every card may be shown once the deal is over
    assert core.kept_record(1)["seed"] is None  # a secret table's seed never leaves it


def test_seat_tokens_and_invites_are_checked_by_hash():
    core = make_core()
    assert core.position_for_token("token-2") == 2 and core.position_for_token(None) is None
    for bad in ("nope", "ü" * 3, "x" * 300):
        with pytest.raises(TableError) as refused:
            core.position_for_token(bad)
        assert refused.value.code == "bad_token"
    core.settings["public"] = False
    core.settings["invite_hash"] = hash_token("secret-invite")
    core.check_invite("secret-invite")
    core.admit(token="token-1")
    for invite, code in ((None, "invite_required"), ("guess", "bad_invite")):
        with pytest.raises(TableError) as refused:
            core.admit(invite=invite)
        assert refused.value.code == code


def stored(core: TableCore, history: dict[int, list[tuple[int, str]]], starts: dict[int, tuple]) -> StoredTable:
    """What the database holds of ``core``'s table: its seats and each deal's start and actions."""
    deals = [StoredDeal(deal_no=d, dealer=starts[d][0], positions=starts[d][1], start=starts[d][2],
                        finished=d in core.results, result=None, sheet_row=None, actions=list(actions))
             for d, actions in sorted(history.items())]
    seats = [{"position": s.position, "kind": s.kind, "name": s.name, "token_hash": s.token_hash} for s in core.seats]
    return StoredTable(id=core.id, name=core.name, created=0.0, settings=core.settings, seats=seats, deals=deals,
                       ready=sorted(core.ready) if core.game is not None and core.game.is_over else None)


@pytest.mark.parametrize(("variant", "seats", "ruleset"), [
    ("standard", ("human", "human", "human"), "isko2018"),
    ("standard", ("human",) * 4, "pub"),
    ("officers", ("human", "human"), None),
])
def test_a_second_core_catches_up_from_the_store_and_the_notices(variant, seats, ruleset):
    here = make_core(variant, seats, ruleset=ruleset)
    rng = random.Random(11)
    history: dict[int, list[tuple[int, str]]] = {}
    starts: dict[int, tuple] = {}
    notices: list[dict] = []

    def begin() -> None:
        start(here)
        assert here.game is not None
        record = here.game.to_record()
        record.pop("actions", None)
        record.pop("result", None)
        starts[here.deal_no] = (here.dealer, here.positions, record)
        history[here.deal_no] = []
        notices.append({"k": "deal", "d": here.deal_no})

    def step() -> None:
        game = here.game
        assert game is not None
        seat = game.to_move
        token = rng.choice(tokens(game, seat))
        notices.append({"k": "act", "d": here.deal_no, "s": len(game.history), "seat": seat, "a": token})
        here.play(seat, here.check_action(here.positions[seat], token)[1])
        history[here.deal_no].append((seat, token))

    begin()
    while not here.game.is_over:
        step()
    here.ready |= {s.position for s in here.seats}
    begin()
    for _ in range(4):
        step()

    there = make_core(variant, seats, ruleset=ruleset)  # built again from the stored settings
    there.replay(stored(here, history, starts))
    assert there.seen() == here.seen() and there.game.history == here.game.history
    assert there.game_results() == here.game_results()
    assert _without_now(there.state_for(0)) == _without_now(here.state_for(0))

    late = make_core(variant, seats, ruleset=ruleset)  # hears every notice, in order
    for notice in notices:
        assert late.apply_notice(notice) in ("changed", "person")
        if notice["k"] == "deal" and notice["d"] == 2:  # the people were ready (a notice each)
            pass
    assert late.seen()[:2] == here.seen()[:2] and late.game.history == here.game.history
    assert late.apply_notice(notices[-1]) == ""  # taken already
    gap = dict(notices[-1], s=notices[-1]["s"] + 3)
    assert late.apply_notice(gap) == "catch_up"  # one was missed: read the database
    assert late.apply_notice({"k": "seat", "pos": 0, "name": "Renamed"}) == "changed"
    assert late.seats[0].name == "Renamed"
    assert late.apply_notice({"k": "ready", "d": late.deal_no, "pos": 1}) == "changed" and 1 in late.ready
    assert late.apply_notice({"k": "unknown"}) == ""


def test_a_stored_deal_the_series_would_not_deal_is_refused():
    here = make_core()
    start(here)
    record = here.game.to_record()
    deal = StoredDeal(deal_no=1, dealer=0, positions=(2, 0, 1), start=record, finished=False, result=None,
                      sheet_row=None, actions=[])
    table = StoredTable(id=here.id, name=here.name, created=0.0, settings=here.settings, seats=[], deals=[deal])
    with pytest.raises(TableError) as refused:
        make_core().replay(table)
    assert refused.value.code == "bad_store"


def test_seats_show_computer_players_by_their_level():
    core = make_core(seats=("human", "random", "easy"))
    public = core.public_info()["seats"]
    assert [s["kind"] for s in public] == ["human", "bot", "bot"]
    assert public[1]["bot"] == "random" and public[1]["connected"] and "(random)" in public[1]["name"]
    assert isinstance(core.seats[0], Seat) and core.seats[0].taken


def test_a_table_between_two_deals_is_not_finished_while_the_next_deal_is_being_stored():
    """The table takes the series' next deal, then stores its start (an await) before it enters it: meanwhile the
    finished deal is still its game, and its status stays between deals (the lobby once said "finished")."""
    core = make_core(seats=("human", "human", "human"))
    start(core)
    play_deal(core, random.Random(3))
    assert core.status == "between_deals"
    core.series.start_deal()  # taken, not yet entered
    assert core.status == "between_deals"


def _without_now(state: dict) -> dict:
    """A state less its ``now`` (the server's clock as it was built: no fact of the table)."""
    return {k: v for k, v in state.items() if k != "now"}
