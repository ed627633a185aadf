"""ISS records: parsing, replay through the engine, recomputed results against R[...],
timeouts and players leaving, writing records and reading them back."""

from __future__ import annotations

import os
import random
import re
import subprocess
import sys
from datetime import datetime
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import skat
from conftest import ISS_SAMPLE
from skat import CardSet, Contract, Game, GameType, RecordError
from skat.cards import mask_points
from skat.cli import main
from skat.deal.game import Phase
from skat.records.iss import (
    IssResult,
    MoveKind,
    format_contract,
    parse_contract,
    parse_iss,
    read_iss_file,
    replay,
    result_of_game,
    to_iss,
    verify,
)
from skat.rules.value import matadors

SAMPLE = ISS_SAMPLE
RECORDS = read_iss_file(SAMPLE)
BY_ID = {r.id: r for r in RECORDS}


def random_game(seed: int, side_rate: float = 0.05) -> Game:
    """A game played with random legal actions; now and then a seat claims, concedes or resigns."""
    rng = random.Random(seed)
    game = Game(seed=seed)
    while not game.is_over:
        if game.phase is Phase.PLAY and rng.random() < side_rate:
            seat = rng.randrange(3)
            side = game.side_actions(seat)
            if side:
                game.apply(rng.choice(side), seat)
                continue
        game.apply(rng.choice(game.legal_actions()))
    return game


def mv_line(record_id: str, deal: str, moves: str, result: str = "d:-1 penalty") -> str:
    return f"(;GM[Skat]PC[test]ID[{record_id}]P0[a]P1[b]P2[c]MV[w {deal} {moves} ]R[{result}] ;)"


# ------------------------------------------------------------------------------- reading


def test_sample_holds_29_records_unique_by_server_and_id():
    assert len(RECORDS) == 29
    assert len({(r.properties["PC"], r.id) for r in RECORDS}) == 29
    assert [r.line for r in RECORDS] == list(range(1, 30))


def test_header_properties_players_and_deal():
    rec = BY_ID["1707755"]
    assert rec.properties["PC"] == "ISS2"
    assert rec.properties["SE"] == "142961"
    assert rec.properties["DT"] == "2022-03-26/16:04:59/UTC"
    assert rec.players == ("xskat", "xskat:2", "@iI4t7tt")
    assert rec.properties["R2"] == "1148.2"
    assert rec.hands[0] == CardSet("DK DA S7 H8 CT ST C9 C7 SK CA")
    assert rec.skat == CardSet("H7 C8")
    assert rec.result.declarer == 2 and rec.result.won is True and rec.result.value == 72
    assert rec.label == "ISS record ID 1707755 (line 1)"


def test_auction_moves_bids_hold_pass():
    kinds = [(m.seat, m.kind, m.value) for m in BY_ID["135521"].moves[:9]]
    assert kinds == [
        (1, MoveKind.PASS, None), (2, MoveKind.BID, 18), (0, MoveKind.HOLD, None), (2, MoveKind.BID, 20),
        (0, MoveKind.HOLD, None), (2, MoveKind.BID, 22), (0, MoveKind.HOLD, None), (2, MoveKind.PASS, None),
        (0, MoveKind.DECLARE, None),
    ]
    assert BY_ID["135521"].moves[8].contract == Contract(GameType.DIAMONDS, hand=True, schneider=True)


def test_pickup_skat_and_declaration_with_discard():
    moves = BY_ID["541932"].moves
    pick, skat, declare = moves[3], moves[4], moves[5]
    assert (pick.seat, pick.kind) == (2, MoveKind.PICKUP)
    assert (skat.seat, skat.kind, CardSet(skat.cards)) == (None, MoveKind.SKAT, CardSet("H8 CK"))
    assert declare.kind is MoveKind.DECLARE and declare.contract == Contract(GameType.DIAMONDS)
    assert CardSet(declare.cards) == CardSet("ST H8")


def test_discard_as_a_separate_move():
    moves = BY_ID["596891"].moves
    i = next(i for i, m in enumerate(moves) if m.kind is MoveKind.DECLARE)
    assert moves[i].text == "D" and moves[i].cards == ()
    assert moves[i + 1].kind is MoveKind.DISCARD and CardSet(moves[i + 1].cards) == CardSet("D9 DQ")


def test_null_ouvert_after_pickup_names_the_discard():
    declare = next(m for m in BY_ID["1390253"].moves if m.kind is MoveKind.DECLARE)
    assert declare.contract == Contract(GameType.NULL, ouvert=True)
    assert CardSet(declare.cards) == CardSet("HA HQ") and declare.open_cards == ()


def test_early_end_and_incident_moves():
    assert [m.kind for m in BY_ID["727"].moves[3:]] == [
        MoveKind.DECLARE, MoveKind.CARD, MoveKind.SHOW, MoveKind.RESIGN, MoveKind.CARD, MoveKind.RESIGN]
    assert BY_ID["727"].moves[3].contract == Contract(GameType.GRAND, ouvert=True)
    last = BY_ID["18358"].moves[-2:]
    assert [(m.seat, m.kind, m.value) for m in last] == [(0, MoveKind.UNKNOWN_CARD, None), (None, MoveKind.LEAVE, 1)]
    assert (BY_ID["8"].moves[-1].kind, BY_ID["8"].moves[-1].value) == (MoveKind.TIMEOUT, 2)


def test_result_fields():
    r = BY_ID["10330141"].result
    assert r.fields == {"d": 1, "result": "loss", "v": -288, "m": -11, "bid": "bidok", "p": 11, "t": 0, "s": 0,
                        "z": 0, "p0": 0, "p1": 0, "p2": 0, "l": -1, "to": 1, "r": 0}
    assert BY_ID["756788"].result.passed
    assert "r" not in BY_ID["30"].result.fields  # older records lack the resignation flag
    for rec in RECORDS:
        assert IssResult.parse(rec.result.text()) == rec.result
        assert rec.result.text() == rec.properties["R"]


@pytest.mark.parametrize(("code", "contract"), [
    ("G", Contract(GameType.GRAND)),
    ("D", Contract(GameType.DIAMONDS)),
    ("DHS", Contract(GameType.DIAMONDS, hand=True, schneider=True)),
    ("CH", Contract(GameType.CLUBS, hand=True)),
    ("CHZ", Contract(GameType.CLUBS, hand=True, schwarz=True)),
    ("GO", Contract(GameType.GRAND, ouvert=True)),
    ("SOH", Contract(GameType.SPADES, ouvert=True)),
    ("N", Contract(GameType.NULL)),
    ("NO", Contract(GameType.NULL, ouvert=True)),
    ("NH", Contract(GameType.NULL, hand=True)),
    ("NOH", Contract(GameType.NULL, hand=True, ouvert=True)),
])
def test_game_codes(code, contract):
    assert parse_contract(code) == contract
    assert parse_contract(format_contract(contract)) == contract


def test_every_contract_round_trips_through_its_code():
    for gt in GameType:
        if gt is GameType.RAMSCH:
            continue
        for flags in [{}, {"hand": True}, {"hand": True, "schneider": True}, {"hand": True, "schwarz": True},
                      {"ouvert": True}, {"hand": True, "ouvert": True}]:
            if gt is GameType.NULL and ("schneider" in flags or "schwarz" in flags):
                continue
            contract = Contract(gt, **flags)
            assert parse_contract(format_contract(contract)) == contract


@pytest.mark.parametrize(("code", "why"), [
    ("X", "unknown game code"), ("GX", "unknown game code"), ("NS", "not a valid declaration"),
    ("DS", "not a valid declaration"), ("DHH", "repeats a modifier"),
])
def test_bad_game_codes(code, why):
    with pytest.raises(RecordError, match=why):
        parse_contract(code)


# ---------------------------------------------------------------------- malformed records

GOOD = RECORDS[3].properties  # ID 541932
GOOD_LINE = SAMPLE.read_text().splitlines()[3]


def _mutate(old: str, new: str) -> str:
    assert old in GOOD_LINE
    return GOOD_LINE.replace(old, new, 1)


@pytest.mark.parametrize(("line", "why"), [
    (GOOD_LINE[2:], r"starts with '\(;'"),
    (GOOD_LINE[:-2], r"ends with ';\)'"),
    (_mutate("GM[Skat]", "GM[Chess]"), r"not a Skat game record"),
    (_mutate("R[d:2 loss", "X[d:2 loss"), r"has no R\[\.\.\.\]"),
    (_mutate("ID[541932]", "ID[541932]ID[1]"), r"ID appears twice"),
    (_mutate("CO[]", "CO[] junk"), r"expected KEY\[value\] at column"),
    (_mutate("w HA.SK", "w HA.HA"), r"a card is named twice"),
    (_mutate("w HA.SK", "w HA.XX"), r"'XX' is not a card"),
    (_mutate("w HA.SK.", "w "), r"the deal must name 32 cards"),
    (_mutate("w HA.SK", "w ??.SK"), r"hides cards"),
    (_mutate("1 p 2 18", "1 p 2"), r"must be \(actor, action\) pairs"),
    (_mutate("1 p 2 18", "7 p 2 18"), r"unknown actor '7'"),
    (_mutate("1 p 2 18", "1 hello 2 18"), r"unknown move"),
    (_mutate("w H8.CK", "w H8.CK.D7"), r"unknown server move"),
    (_mutate("2 D.ST.H8", "2 D.ST"), r"two discarded cards"),
    (_mutate("2 D.ST.H8", "2 DS.ST.H8"), r"not a valid declaration"),
    (_mutate("2 D.ST.H8", "2 DH.ST.H8"), r"hand game that is not ouvert shows no cards"),
    (_mutate("d:2 loss", "d:2 lost"), r"unknown result flag 'lost'"),
    (_mutate("v:-54", "v:x"), r"needs an integer"),
    (_mutate("R[d:2 loss v:-54", "R[v:-54"), r"lacks the declarer"),
], ids=lambda v: v if len(v) < 60 else "")
def test_malformed_records_name_the_record_and_the_fault(line, why):
    with pytest.raises(RecordError, match=why) as err:
        parse_iss(line, 4)
    assert "(line 4)" in str(err.value)


@pytest.mark.parametrize(("line", "why"), [
    (_mutate("0 SA 1 S7", "0 SA 1 HA"), r"move 9 \(1 HA\) does not replay: HA is not in seat 1's hand"),
    (_mutate("1 p 2 18", "2 18 1 p"), r"move 2 \(2 18\) does not replay"),
    (_mutate("w H8.CK", "w H8.CA"), r"not the dealt skat"),
    (_mutate("2 D.ST.H8", "2 D.ST.CA"), r"cannot discard CA"),
    (_mutate("2 D.ST.H8", "2 D"), r"move 8 \(0 SA\) does not replay: .*the discard of 2 D is missing"),
    (_mutate("0 HA 1 SQ 0 SK 1 DK 2 HT ]", "0 HA ]"), r"moves end before the game does \(phase play, seat 1"),
    (_mutate("0 SA 1 S7", "0 ?? 1 S7"), r"follows the unknown card"),
    (_mutate("0 SA 1 S7", "0 SA 1 SC"), r"only the declarer can lay down"),
], ids=lambda v: v if len(v) < 60 else "")
def test_records_that_do_not_replay(line, why):
    record = parse_iss(line, 4)
    with pytest.raises(RecordError, match=why) as err:
        replay(record)
    assert str(err.value).startswith("ISS record ID 541932 (line 4): ")


def _sample_line(record_id: str) -> str:
    return SAMPLE.read_text().splitlines()[BY_ID[record_id].line - 1]


def test_discard_may_come_before_the_bare_declaration():
    line = _sample_line("596891").replace("2 D 2 D9.DQ", "2 D9.DQ 2 D")
    assert verify(parse_iss(line)) == []
    game = replay(parse_iss(line))[0]
    assert game.discard == CardSet("D9 DQ").mask


def test_ouvert_declaration_may_show_the_hand():
    shown = "0 GO.HJ.HA.DJ.HQ.SA.H7.CA.CJ.HT.H8"
    assert verify(parse_iss(_sample_line("727").replace("0 GO", shown))) == []
    with pytest.raises(RecordError, match="the ouvert cards"):
        replay(parse_iss(_sample_line("727").replace("0 GO", shown.replace("H8", "S8"))))
    # null ouvert after the pickup: the discard, then the ten cards shown
    line = _sample_line("1390253").replace("1 NO.HA.HQ", "1 NO.HA.HQ.CJ.DK.D7.C8.DA.DT.D9.C7.DJ.D8")
    assert verify(parse_iss(line)) == []


def test_hidden_skat_of_a_live_broadcast():
    line = _sample_line("541932").replace("w H8.CK", "w ??.??")
    assert verify(parse_iss(line)) == []


def test_moves_after_a_timeout_are_not_applied():
    line = _sample_line("10330141").replace("w TI.1 ]", "w TI.1 w LE.1 ]")
    computed = replay(parse_iss(line))[1]
    assert [str(m) for m in computed.ignored_moves] == ["w LE.1"]
    assert computed.differences(BY_ID["10330141"].result) == []


def test_sc_may_show_the_declarers_hand():
    line = _sample_line("1039093")
    game = replay(parse_iss(line))[0]
    hand = (game.hand(1) | CardSet("HJ")).iss().replace(" ", ".")
    assert verify(parse_iss(line.replace("1 SC 1 HJ", f"1 SC.{hand} 1 HJ"))) == []


def test_sc_with_cards_must_show_the_declarers_hand():
    rec = BY_ID["1039093"]
    line = SAMPLE.read_text().splitlines()[rec.line - 1]
    good = line.replace("1 SC 1 HJ", "1 SC.HJ.HA.HQ.H9.ST.S9 1 HJ")
    # after the declarer's HJ lead is pending, his hand is HJ HA ... ; name the wrong cards
    with pytest.raises(RecordError, match="cards shown with SC"):
        replay(parse_iss(good))


# ----------------------------------------------------------------- replay and R fields


@pytest.mark.parametrize("record", RECORDS, ids=[r.id for r in RECORDS])
def test_sample_record_reproduces_its_result(record):
    assert verify(record) == []


def test_sample_results_by_how_the_game_ended():
    ended = {r.id: replay(r)[1].ended_by for r in RECORDS}
    assert ended["756788"] == "passed_in"
    assert ended["1039093"] == "claimed" and ended["727"] == "claimed"
    assert ended["1390253"] == "conceded"
    assert ended["10330141"] == "timeout" and ended["8"] == "timeout"
    assert ended["30"] == "left" and ended["18358"] == "left"
    assert sum(e == "played" for e in ended.values()) == 21


def test_replayed_game_matches_the_record():
    game, computed = replay(BY_ID["684159"])
    assert game.declarer == 2 and game.bid == 27
    assert game.contract == Contract(GameType.GRAND)
    assert game.discard == CardSet("S8 C9").mask
    assert len(game.tricks) == 10 and computed.game_result is game.result


def test_claim_then_both_defenders_concede_gives_the_rest_to_the_declarer():
    game, computed = replay(BY_ID["1039093"])
    assert game.result.kind == "claimed"
    assert computed.fields["t"] == 5 and computed.fields["p"] == 84 and computed.fields["r"] == 1


def test_declaration_waiting_for_its_discard_then_declarer_times_out():
    game, computed = replay(BY_ID["10330141"])
    assert game.phase is Phase.DISCARD and game.contract is None  # the discard never came
    assert computed.fields["to"] == 1 and computed.fields["m"] == -11
    assert "lost einfach" in computed.explanation


def test_differences_name_the_field_ours_and_theirs():
    line = SAMPLE.read_text().splitlines()[0].replace("v:72 m:3", "v:99 m:-3")
    assert verify(parse_iss(line)) == ["v ours 72, theirs 99", "m ours 3, theirs -3"]
    passed = SAMPLE.read_text().splitlines()[6].replace("R[passed]", "R[d:0 win v:18]")
    assert verify(parse_iss(passed)) == ["result ours passed, theirs win"]


def test_moves_after_the_engine_ended_a_null_game_are_not_applied():
    # null: the declarer (rearhand) takes the first trick; ISS-style play running on is ignored
    deal = ".".join(["D7", "D8", "D9", "DT", "DQ", "DK", "DA", "H7", "H8", "H9",
                     "S7", "S8", "S9", "ST", "SQ", "SK", "SA", "HT", "HQ", "HK",
                     "CA", "CK", "CQ", "CT", "C9", "C8", "C7", "HA", "SJ", "HJ",
                     "CJ", "DJ"])
    line = mv_line("1", deal, "1 p 2 18 0 p 2 NH 0 C9 1 S7 2 CA 2 CK 0 D7 1 S8", "d:2 loss v:-70")
    with pytest.raises(RecordError, match="not in seat 0's hand"):
        replay(parse_iss(line))  # C9 is rearhand's card: the replay checks every move
    line = mv_line("1", deal, "1 p 2 18 0 p 2 NH 0 H7 1 HT 2 HA 2 CK 0 D8 1 S8", "d:2 loss v:-70")
    game, computed = replay(parse_iss(line))
    assert game.is_over and len(game.tricks) == 1
    assert [m.text for m in computed.ignored_moves] == ["CK", "D8", "S8"]
    assert computed.fields["result"] == "loss" and computed.fields["v"] == -70 and computed.fields["t"] == 1


# ------------------------------------------------------------- timeouts and leaving: the rule


def _cut_record(game: Game, keep: int, fault: str) -> str:
    """The game's ISS record cut after ``keep`` moves, ended by a server move such as ``TI.1``."""
    full = parse_iss(to_iss(game))
    moves = " ".join(str(m) for m in full.moves[:keep])
    deal = to_iss(game).split("MV[w ")[1].split(" ")[0]
    return mv_line("cut", deal, f"{moves} w {fault}")


def _fault_cases(n_games: int):
    rng = random.Random(99)
    for seed in range(n_games):
        game = random_game(seed, side_rate=0)
        if game.declarer is None:
            continue
        n = len(parse_iss(to_iss(game)).moves)
        for keep in sorted({rng.randrange(n) for _ in range(4)}):
            for kind in ("TI", "LE"):
                yield game, keep, f"{kind}.{rng.randrange(3)}"


def test_fault_rule_over_many_cut_points():
    checked = {"penalty": 0, "defender": 0, "declarer": 0}
    for game, keep, fault in _fault_cases(150):
        line = _cut_record(game, keep, fault)
        cut_game, r = replay(parse_iss(line))
        f = r.fields
        seat = int(fault[-1])
        assert f["to" if fault.startswith("TI") else "l"] == seat
        contract = cut_game.contract or game.contract
        declared = cut_game.contract is not None or any(
            m.kind is MoveKind.DECLARE for m in parse_iss(line).moves)
        if not declared:
            # before a game is declared: a penalty, nobody declares, the seat at fault gets a penalty point
            assert f["d"] == -1 and f["result"] == "penalty" and f["v"] == 0
            assert [f["p0"], f["p1"], f["p2"]] == [int(s == seat) for s in range(3)]
            checked["penalty"] += 1
            continue
        declarer = game.declarer
        assert f["d"] == declarer and [f["p0"], f["p1"], f["p2"]] == [0, 0, 0]
        if seat != declarer and cut_game.phase is Phase.PLAY:
            # a defender at fault: the same as both defenders conceding in the engine
            ref = cut_game.copy()
            for d in range(3):
                if d != declarer and not ref.conceded[d]:
                    ref.apply("concede", d)
            expected = result_of_game(ref).fields
            for key in ("d", "result", "v", "m", "bid", "p", "t", "s", "z"):
                assert f[key] == expected[key], (line, key)
            checked["defender"] += 1
        elif seat == declarer:
            # the declarer at fault: lost einfach, his hand forfeit
            kept = CardSet.from_mask(cut_game.discard if cut_game.discard is not None else cut_game.initial_skat)
            for _leader, cards, winner in cut_game.tricks:
                if winner == declarer:
                    kept = kept | CardSet(cards)
            assert f["result"] == "loss" and f["v"] < 0 and f["s"] == 0 and f["z"] == 0
            assert f["p"] == mask_points(kept.mask)
            assert f["t"] == sum(w == declarer for _l, _c, w in cut_game.tricks)
            if not contract.is_null:
                with_, count = matadors(contract.game_type, kept.mask)
                assert f["m"] == (count if with_ else -count)
                base = contract.game_type.base_value
                assert -f["v"] % (2 * base) == 0 and -f["v"] >= 2 * game.bid
            checked["declarer"] += 1
    assert min(checked.values()) >= 20, checked


def test_defender_leaving_mid_play_gives_the_declarer_every_remaining_trick():
    game, r = replay(BY_ID["18358"])
    assert len(game.tricks) == 0 and r.fields["t"] == 10 and r.fields["p"] == 120 and r.fields["z"] == 1


def test_timeout_while_the_declarer_still_decides_is_a_penalty():
    rec = BY_ID["135521"]  # forehand wins the auction at 22 and then declares DHS
    deal = ".".join(c.name for h in (*rec.hands, rec.skat) for c in h)
    line = mv_line("x", deal, "1 p 2 18 0 y 2 20 0 y 2 22 0 y 2 p w TI.0")
    r = replay(parse_iss(line))[1]
    assert (r.fields["d"], r.fields["result"], r.fields["p0"], r.fields["to"]) == (-1, "penalty", 1, 0)


# ---------------------------------------------------------------------------- writing


def test_written_sample_games_keep_their_result():
    for rec in RECORDS:
        game, computed = replay(rec)
        if not game.is_over:
            continue  # ended by a timeout or a player leaving: not an engine game
        line = to_iss(game, rec.players, game_id=rec.id, server=rec.properties["PC"])
        again = parse_iss(line)
        assert again.players == rec.players and again.id == rec.id
        assert again.result.text() == computed.text()
        assert verify(again) == [] and verify(rec) == []


def test_written_record_layout():
    game = replay(BY_ID["541932"])[0]
    line = to_iss(game, ("zoot", "kermit", "foo"), game_id=541932, server="International Skat Server",
                  series=24072, date=datetime(2010, 12, 6, 18, 59, 24))
    assert line.startswith("(;GM[Skat]PC[International Skat Server]CO[]SE[24072]ID[541932]"
                           "DT[2010-12-06/18:59:24/UTC]P0[zoot]P1[kermit]P2[foo]R0[]R1[]R2[]MV[w ")
    again = parse_iss(line)
    assert (again.hands, again.skat) == (BY_ID["541932"].hands, BY_ID["541932"].skat)
    assert " 1 p 2 18 0 p 2 s w H8.CK 2 D." in line
    assert line.endswith(" 2 HT ]R[d:2 loss v:-54 m:-2 bidok p:59 t:4 s:0 z:0 p0:0 p1:0 p2:0 l:-1 to:-1 r:0] ;)")
    assert re.search(r"2 D\.(ST\.H8|H8\.ST) ", line)


def test_writing_needs_a_finished_game_and_plain_names():
    with pytest.raises(ValueError, match="finished"):
        to_iss(Game(seed=1))
    game = random_game(1)
    with pytest.raises(ValueError, match="']'"):
        to_iss(game, ("a]", "b", "c"))
    with pytest.raises(ValueError, match="three player names"):
        to_iss(game, ("a", "b"))


def test_a_ramsch_is_not_written():
    import dataclasses

    from skat.rules.rulesets import ISKO

    game = Game(seed=3, ruleset=dataclasses.replace(ISKO, all_pass="ramsch"))
    rng = random.Random(1)
    for _ in range(3):
        game.apply("pass")
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
    assert game.result.kind == "ramsch"
    with pytest.raises(ValueError, match="Ramsch"):
        to_iss(game)


def test_deal_may_end_each_hand_with_a_bar_as_iss_sends_it_live():
    line = _sample_line("541932")
    deal = line.split("MV[w ", 1)[1].split(" ", 1)[0]
    cards = deal.split(".")
    live = ".".join(cards[:10]) + "|" + ".".join(cards[10:20]) + "|" + ".".join(cards[20:30]) + "|" + ".".join(cards[30:])
    rec = parse_iss(line.replace(deal, live))
    assert (rec.hands, rec.skat) == (BY_ID["541932"].hands, BY_ID["541932"].skat)
    assert verify(rec) == []


def test_passed_in_game_round_trip():
    game = Game(seed=5)
    for _ in range(3):
        game.apply("pass")
    line = to_iss(game)
    assert "MV[w " in line and " 1 p 2 p 0 p ]R[passed] ;)" in line
    again, r = replay(parse_iss(line))
    assert r.passed and again.result.kind == "passed_in"


def _assert_round_trip(game: Game) -> None:
    line = to_iss(game, ("alice", "bob", "carol"), game_id=7)
    record = parse_iss(line)
    again, computed = replay(record)
    assert (again.initial_hands, again.initial_skat) == (game.initial_hands, game.initial_skat)
    assert again.history == game.history
    assert again.result.to_json() == game.result.to_json()
    assert computed.differences(record.result) == [] and not computed.ignored_moves
    assert to_iss(again, ("alice", "bob", "carol"), game_id=7) == line


def test_round_trip_over_many_seeded_random_games():
    kinds = set()
    for seed in range(600):
        game = random_game(seed, side_rate=0.04)
        _assert_round_trip(game)
        kinds.add(game.result.kind)
    assert {"played", "claimed", "conceded", "resigned"} <= kinds


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), side=st.sampled_from([0.0, 0.03, 0.2]))
def test_round_trip_property(seed, side):
    _assert_round_trip(random_game(seed, side))


# -------------------------------------------------------------------------------- command


def test_verify_command_on_the_sample(capsys):
    assert main(["iss", "verify", str(SAMPLE)]) == 0
    assert capsys.readouterr().out == "29 records, 29 agree\n"


def test_verify_command_reports_each_differing_record(tmp_path, capsys):
    lines = SAMPLE.read_text().splitlines()[:3]
    lines[1] = lines[1].replace("p:83", "p:80")
    lines[2] = lines[2].replace("1 DHS", "1 DHX")
    path = tmp_path / "games.sgf"
    path.write_text("\n".join(lines) + "\n\n")
    assert main(["iss", "verify", str(path)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "ISS record ID 135521 (line 2): p ours 83, theirs 80"
    assert out[1].startswith("ISS record ID 462690 (line 3): move ") and "unknown" in out[1]
    assert out[-1] == "3 records, 1 agree"


def test_show_command_explains_a_record(capsys):
    assert main(["iss", "show", str(SAMPLE), "--id", "10330141"]) == 0
    out = capsys.readouterr().out
    assert "ISS record ID 10330141 (line 23): kermit / SkatAI / theCount" in out
    assert "ended: timeout; lost einfach" in out


def test_verify_command_missing_file(tmp_path, capsys):
    assert main(["iss", "verify", str(tmp_path / "none.sgf")]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_show_into_a_closed_pipe_ends_quietly(tmp_path):
    # `skat iss show FILE | head -n 1`: head leaves after one line; more output than a pipe holds
    # must not be reported as a fault of FILE, and the command ends with 0
    path = tmp_path / "many.sgf"
    path.write_text(SAMPLE.read_text() * 8)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [str(Path(skat.__file__).resolve().parent.parent), os.environ.get("PYTHONPATH", "")]))
    show = subprocess.Popen([sys.executable, "-m", "skat", "iss", "show", str(path)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    head = subprocess.Popen(["head", "-n", "1"], stdin=show.stdout, stdout=subprocess.PIPE)
    assert show.stdout is not None and show.stderr is not None
    show.stdout.close()  # head alone reads the pipe now
    first, _ = head.communicate(timeout=120)
    err = show.stderr.read().decode()
    show.stderr.close()
    assert show.wait(timeout=120) == 0, err
    assert first.decode() == "ISS record ID 1707755 (line 1): xskat / xskat:2 / @iI4t7tt\n"
    assert err == ""


def test_a_file_that_cannot_be_read_is_still_named(tmp_path, capsys):
    assert main(["iss", "show", str(tmp_path)]) == 2  # a folder, not a file
    assert f"skat iss: cannot read {tmp_path}: " in capsys.readouterr().err
