"""Officers' Skat (docs/rules.md section 9): vectors os-01..os-09, layout and deal, variants, options,
seat views, records and illegal actions."""

from __future__ import annotations

import json

import pytest

from conftest import vectors
from skat.cards import Card, CardSet
from skat.errors import IllegalActionError, OutOfTurnError, RecordError, WrongPhaseError
from skat.records.wire import view_to_json
from skat.rules.actions import KONTRA, PASS, PICKUP, RE, Bid, Declare, Discard, Hold, Pass, Play
from skat.rules.contract import Contract
from skat.variants.officers import (
    OfficersGame,
    OfficersOptions,
    Phase,
    parse_officers_action,
    score_admiral,
    score_game,
    score_ramsch,
)
from skat.variants.officers.actions import RAMSCH

CASES = {c["id"]: c for c in vectors("officers_skat")}


def deck_for(f_up: str, f_down: str, d_up: str, d_down: str) -> list[str]:
    """A classic deck in dealing order from the four rows (8 cards each; row one is the first four)."""
    fu, fd, du, dd = (s.split() for s in (f_up, f_down, d_up, d_down))
    return fd[:4] + dd[:4] + fu[:4] + du[:4] + fd[4:] + dd[4:] + fu[4:] + du[4:]


def declare(game: str) -> Declare:
    return Declare(Contract.parse(game))


def snapshot(g: OfficersGame) -> str:
    return json.dumps([g.to_record(), view_to_json(g.view(0)), view_to_json(g.view(1))], sort_keys=True)


# ---------------------------------------------------------------------------------- vectors
def test_all_officers_vectors_are_known():
    assert sorted(CASES) == [f"os-0{i}" for i in range(1, 10)]


@pytest.mark.parametrize("cid", ["os-01", "os-02", "os-03", "os-04", "os-05", "os-06", "os-08"])
def test_vector_scores(cid):
    case = CASES[cid]
    inp, exp = case["input"], case["expected"]
    options = OfficersOptions(scoring="full_matadors") if inp.get("variant") == "extra_matadors_as_in_skat" \
        else OfficersOptions()
    opp_tricks = inp["opponent_tricks"]
    kontra = 1 if "kontra" in inp.get("calls", []) else 0
    o = score_game(inp["trump"], 0, inp["declarer_cards"], (inp["declarer_card_points"],
                   inp["opponent_card_points"]), (16 - opp_tricks, opp_tricks), options, kontra)
    assert o.scores[0] == exp["score"]
    assert o.scores[1] == 0
    if "matadors" in exp:
        assert o.matadors == exp["matadors"] and o.matadors_with
    if "game_value" in exp:
        assert o.game_value == exp["game_value"]
    if "won" in exp:
        assert o.won is exp["won"]
    for level in ("schneider", "schwarz"):
        if level in exp:
            assert getattr(o, level) is exp[level]
    if "score_if_re" in exp:
        o2 = score_game(inp["trump"], 0, inp["declarer_cards"], (inp["declarer_card_points"],
                        inp["opponent_card_points"]), (16 - opp_tricks, opp_tricks), options, 2)
        assert o2.scores[0] == exp["score_if_re"]


def test_vector_os07_points_234():
    exp = CASES["os-07"]["expected"]["points"]
    opts = OfficersOptions(scoring="points_234")
    cards = "CJ SJ HJ DA DT DK D9 D8 CA CT SA ST HA HT C7 S7"
    assert score_game("diamonds", 0, cards, (70, 50), (9, 7), opts).scores == (exp["simple_win"], 0)
    assert score_game("diamonds", 0, cards, (95, 25), (11, 5), opts).scores == (exp["schneider"], 0)
    assert score_game("diamonds", 0, cards, (120, 0), (16, 0), opts).scores == (exp["schwarz"], 0)
    assert exp["tie_60_60"] == "1 each"
    assert score_game("diamonds", 0, cards, (60, 60), (8, 8), opts).scores == (1, 1)
    # the opponent who beats the chooser scores the points, too
    assert score_game("diamonds", 0, cards, (40, 80), (6, 10), opts).scores == (0, 2)


def test_vector_os09_only_uncovered_cards_follow():
    case = CASES["os-09"]
    # The dealer shows S7 HJ DA (and no other spade) face up, with S8 and C9 face down under them.
    deck = deck_for(f_up="SA CA HA DT CT HT D7 C8", f_down="SK SQ H9 CK CQ HQ HK H8",
                    d_up="S7 HJ DA D8 D9 C7 H7 DQ", d_down="S8 C9 SJ S9 ST DJ CJ DK")
    g = OfficersGame("classic", deck=deck)
    assert case["input"]["trump"] == "hearts"
    g.apply(declare("hearts"))
    g.apply(PASS)  # no Kontra
    g.apply(Play(Card.SA))
    legal = sorted(str(a) for a in g.legal_actions())
    assert legal == case["expected"]["legal"]
    with pytest.raises(IllegalActionError, match="covered"):
        g.apply(Play(Card.S8))


# ------------------------------------------------------------------------------ layout/deal
CLASSIC_DECK = deck_for(f_up="CJ SJ HA HT DA DT CA CT", f_down="H7 H8 H9 HK D7 D8 D9 DK",
                        d_up="HJ DJ SA ST S7 S8 S9 SK", d_down="C7 C8 C9 CK CQ SQ HQ DQ")


def test_forehand_chooses_after_seeing_only_his_first_face_up_row():
    g = OfficersGame("classic", deck=CLASSIC_DECK)
    assert g.phase is Phase.CHOOSE and g.to_move == 0
    v = g.view(0)
    assert v.visible_cards() == CardSet("CJ SJ HA HT")
    assert [len(p) for p in v.own_piles] == [2, 2, 2, 2, 0, 0, 0, 0]
    assert [len(p) for p in v.opponent_piles] == [1, 1, 1, 1, 0, 0, 0, 0]
    assert g.view(1).visible_cards() == CardSet("CJ SJ HA HT")
    assert {str(a) for a in g.legal_actions()} == {"declare clubs", "declare spades", "declare hearts",
                                                   "declare diamonds", "declare grand"}


def test_dealer_may_say_kontra_after_his_first_row_and_forehand_re_after_his_second():
    g = OfficersGame("classic", deck=CLASSIC_DECK)
    g.apply(declare("hearts"))
    assert g.phase is Phase.KONTRA and g.to_move == 1
    assert g.view(1).visible_cards() == CardSet("CJ SJ HA HT HJ DJ SA ST")
    assert g.legal_actions() == [KONTRA, PASS]
    g.apply(KONTRA)
    assert g.phase is Phase.RE and g.to_move == 0
    assert len(g.view(0).visible_cards()) == 16  # both face-up rows of both players
    g.apply(RE)
    assert g.kontra_level == 2 and g.phase is Phase.PLAY
    assert g.to_move == 0  # the chooser leads
    assert {int(a.card) for a in g.legal_actions()} == set(CardSet("CJ SJ HA HT DA DT CA CT"))


def test_no_re_without_kontra():
    g = OfficersGame("classic", deck=CLASSIC_DECK)
    g.apply(declare("hearts"))
    g.apply(PASS)
    assert g.phase is Phase.PLAY and g.kontra_level == 0
    with pytest.raises(WrongPhaseError):
        g.apply(RE)


def test_a_face_down_card_turns_up_after_the_trick():
    g = OfficersGame("classic", deck=CLASSIC_DECK)
    g.apply(declare("hearts"))
    g.apply(PASS)
    g.apply(Play(Card.CA))  # row two: CA over D9
    assert Card.D9 not in g.view(1).visible_cards()  # the trick is not over yet
    g.apply(Play(Card.S7))  # the dealer cannot follow clubs with face-up cards
    assert Card.D9 in g.view(1).visible_cards() and Card.D9 in g.view(0).visible_cards()
    assert Play(Card.D9) in g.legal_actions(0)


def test_passing_variant_dealer_chooses_then_both_pass_ramsch():
    g = OfficersGame("passing", deck=CLASSIC_DECK)
    assert PASS in g.legal_actions()
    g.apply(PASS)
    assert g.phase is Phase.CHOOSE and g.to_move == 1
    assert g.view(1).visible_cards() == CardSet("CJ SJ HA HT HJ DJ SA ST")  # both first face-up rows
    g2 = g.copy()
    g.apply(declare("spades"))
    assert g.chooser == 1 and g.phase is Phase.KONTRA and g.to_move == 0
    g.apply(PASS)
    assert g.phase is Phase.PLAY and g.to_move == 1
    g2.apply(PASS)
    assert g2.game == "ramsch" and g2.chooser is None and g2.phase is Phase.PLAY and g2.to_move == 0


def test_passing_is_not_allowed_in_the_classic_game():
    g = OfficersGame("classic", deck=CLASSIC_DECK)
    before = snapshot(g)
    with pytest.raises(IllegalActionError, match="passing"):
        g.apply(PASS)
    assert snapshot(g) == before


@pytest.mark.parametrize("variant,own_first,other_first,own_all,other_all",
                         [("harlequin", 4, 4, 8, 8), ("half_open", 4, 4, 12, 4)])
def test_harlequin_each_sees_half_of_his_cards_and_half_of_the_others(variant, own_first, other_first, own_all,
                                                                     other_all):
    g = OfficersGame(variant, seed=11)
    for seat in (0, 1):
        mine = g.initial_cards[seat]
        visible = g.view(seat).visible_cards().mask
        assert (visible & mine).bit_count() == own_first
        assert (visible & ~mine).bit_count() == other_first
    g.apply(declare("grand"))
    g.apply(PASS)
    assert g.phase is Phase.PLAY
    for seat in (0, 1):
        mine = g.initial_cards[seat]
        visible = g.view(seat).visible_cards().mask
        assert (visible & mine).bit_count() == own_all
        assert (visible & ~mine).bit_count() == other_all
        # the cards facing a player are exactly the ones his opponent cannot see
        other_view = g.view(1 - seat).visible_cards().mask
        assert visible & mine & other_view == 0


def test_harlequin_back_card_turns_to_its_owner_when_the_front_card_is_played():
    g = OfficersGame("harlequin", seed=5)
    g.apply(declare("clubs"))
    g.apply(PASS)
    front = g.piles[0][0][0]
    back = g.piles[0][0][1]
    assert back not in g.view(0).visible_cards() and back in g.view(1).visible_cards()
    g.apply(Play(Card(front)))
    g.apply(g.legal_actions()[0])
    assert back in g.view(0).visible_cards() and back in g.view(1).visible_cards()


def test_admiral_layout_auction_skat_and_fifteen_tricks():
    g = OfficersGame("admiral", seed=3)
    v = g.view(0)
    assert len(v.hand) == 5 and v.opponent_hand_size == 5 and v.skat_size == 2
    assert [len(p) for p in v.own_piles] == [2] * 5
    assert len(v.visible_cards()) == 15  # own hand, own and opponent's face-up rows
    assert g.phase is Phase.BIDDING and g.to_move == 1  # the dealer bids to forehand
    g.apply(Bid(18))
    assert g.to_move == 0 and g.legal_actions() == [Hold(), Pass()]
    g.apply(Hold())
    g.apply(Bid(20))
    g.apply(PASS)  # forehand passes: the dealer declares at 20
    assert g.chooser == 1 and g.phase is Phase.SKAT and g.bid == 20
    g.apply(PICKUP)
    assert len(g.view(1).hand) == 7 and g.view(1).skat is not None and g.view(0).skat is None
    hand = list(g.view(1).hand)
    with pytest.raises(IllegalActionError, match="only cards in the hand"):
        g.apply(Discard(CardSet([hand[0], next(iter(g.view(1).own_piles[0]))])))
    g.apply(Discard(CardSet(hand[:2])))
    assert Declare(Contract.parse("null")) in g.legal_actions()  # 23 reaches 20
    g.apply(declare("grand"))
    assert g.phase is Phase.KONTRA and g.to_move == 0
    g.apply(PASS)
    assert g.to_move == 1  # the declarer leads
    while not g.is_over:
        g.apply(g.legal_actions()[0])
    assert len(g.tricks) == 15
    r = g.result
    assert sum(r.points) == 120  # the skat counts for the declarer
    assert r.points[1] == g.trick_points[1] + CardSet(hand[:2]).points


def test_admiral_auction_errors_and_forehand_alone():
    g = OfficersGame("admiral", seed=4)
    with pytest.raises(IllegalActionError, match="not a possible bid"):
        g.apply(Bid(19))
    with pytest.raises(IllegalActionError, match="no bid to hold"):
        g.apply(Hold())
    g.apply(PASS)  # the dealer passes without a bid
    assert g.to_move == 0 and g.legal_actions() == [Bid(18), PASS]
    with pytest.raises(IllegalActionError):
        g.apply(Bid(20))
    g.apply(Bid(18))
    assert g.chooser == 0 and g.bid == 18


@pytest.mark.parametrize("all_pass,kind", [("ramsch", "played"), ("passed_in", "passed_in")])
def test_admiral_all_pass_option(all_pass, kind):
    g = OfficersGame("admiral", seed=4, all_pass=all_pass)
    g.apply(PASS)
    g.apply(PASS)
    if kind == "played":
        assert g.game == "ramsch" and g.to_move == 0
        while not g.is_over:
            g.apply(g.legal_actions()[-1])
        assert sum(g.result.points) == 120 and len(g.tricks) == 15
    assert g.result is None or g.result.kind == kind
    if kind == "passed_in":
        assert g.result.scores == (0, 0)


def test_admiral_hand_game_must_be_able_to_reach_the_bid():
    g = OfficersGame("admiral", seed=9)
    g.apply(Bid(120))
    g.apply(Hold())
    g.apply(PASS)
    legal = g.legal_actions()
    assert PICKUP in legal
    assert Declare(Contract.parse("diamonds hand")) not in legal  # at most (4 + 3 + 1) x 9 = 72 < 120
    with pytest.raises(IllegalActionError, match="cannot reach the bid"):
        g.apply(declare("diamonds hand"))


# ----------------------------------------------------------------------------------- scoring
CARDS = "CJ SJ HJ DA DT DK D9 D8 CA CT SA ST HA HT C7 S7"  # with 3 in diamonds: value 36


def test_schneider_rule_option():
    assert score_game("diamonds", 0, CARDS, (90, 30), (10, 6)).scores == (36, 0)
    assert score_game("diamonds", 0, CARDS, (90, 30), (10, 6),
                      OfficersOptions(schneider_rule="at_most_30")).scores == (72, 0)


def test_schwarz_rule_option():
    # The opponent took two tricks of sevens and eights: no card points, but tricks.
    assert score_game("diamonds", 0, CARDS, (120, 0), (14, 2)).scores == (144, 0)
    o = score_game("diamonds", 0, CARDS, (120, 0), (14, 2), OfficersOptions(schwarz_rule="no_tricks"))
    assert o.scores == (72, 0) and o.schneider and not o.schwarz


def test_schneider_on_loss_option():
    assert score_game("diamonds", 0, CARDS, (20, 100), (3, 13)).scores == (-72, 0)
    assert score_game("diamonds", 0, CARDS, (20, 100), (3, 13),
                      OfficersOptions(schneider_on_loss=True)).scores == (-144, 0)


def test_base_and_card_point_scoring():
    base = OfficersOptions(scoring="base")
    assert score_game("diamonds", 0, CARDS, (70, 50), (9, 7), base).scores == (9, 0)
    assert score_game("diamonds", 0, CARDS, (95, 25), (9, 7), base).scores == (18, 0)
    assert score_game("clubs", 1, CARDS, (70, 50), (9, 7), base).scores == (12, 0)  # the opponent won
    cp = OfficersOptions(scoring="card_points")
    assert score_game("diamonds", 0, CARDS, (70, 50), (9, 7), cp).scores == (70, 0)
    assert score_game("diamonds", 0, CARDS, (60, 60), (9, 7), cp).scores == (0, 60)


def test_grand_and_without_matadors():
    assert score_game("grand", 1, "SJ HJ DJ CA CT CK SA ST SK HA HT HK DA DT DK D7", (40, 80), (6, 10)
                      ).scores == (0, 2 * 24)
    o = score_game("hearts", 0, "HA HT HK HQ H9 H8 H7 DA DT DK SA ST SK CA CT CK", (61, 59), (8, 8))
    assert (o.matadors_with, o.matadors, o.scores) == (False, 4, (50, 0))


def test_null_scoring_and_null_value_option():
    assert score_game("null", 0, CARDS, (0, 120), (0, 16)).scores == (23, 0)
    assert score_game("null", 0, CARDS, (10, 110), (1, 15)).scores == (-46, 0)
    assert score_game("null", 0, CARDS, (10, 110), (1, 15), OfficersOptions(null_value=30)).scores == (-60, 0)
    assert score_game("null", 1, CARDS, (0, 0), (0, 0), OfficersOptions(scoring="points_234")).scores == (0, 2)


def test_ramsch_scoring():
    assert score_ramsch((70, 50), (9, 7), None).scores == (-70, 0)
    assert score_ramsch((60, 60), (9, 7), None).scores == (0, 0)
    assert score_ramsch((60, 60), (9, 7), 0).scores == (-60, 0)  # the chooser loses the tie
    assert score_ramsch((120, 0), (16, 0), None).scores == (120, 0)  # Durchmarsch
    assert score_ramsch((40, 80), (7, 9), 1, kontra_level=1).scores == (0, -160)
    assert score_ramsch((70, 50), (9, 7), None, OfficersOptions(scoring="points_234")).scores == (0, 2)


def test_admiral_valuation_is_skat():
    hearts = Contract.parse("hearts")
    cards = "CJ SJ HA HT HK HQ H9 H8 H7 DA DT DK SA ST SK CA CT"  # with 2, 17 cards
    assert score_admiral(hearts, 0, 30, cards, (70, 50), (8, 7)).scores == (30, 0)
    assert score_admiral(hearts, 0, 30, cards, (95, 25), (10, 5)).scores == (40, 0)
    assert score_admiral(hearts, 0, 40, cards, (70, 50), (8, 7)).scores == (-80, 0)  # overbid: 2 x 40
    assert score_admiral(Contract.parse("null hand"), 1, 30, cards, (0, 0), (15, 0)).scores == (0, 35)
    announced = Contract.parse("hearts hand schneider")  # with 2, game, hand, Schneider, announced: 6 x 10
    assert score_admiral(announced, 0, 30, cards, (95, 25), (10, 5)).scores == (60, 0)
    assert score_admiral(announced, 0, 30, cards, (70, 50), (10, 5)).scores == (-120, 0)


def test_kontra_and_re_double_the_played_score():
    deck = CLASSIC_DECK
    results = {}
    for calls in ((), (KONTRA,), (KONTRA, RE)):
        g = OfficersGame("classic", deck=deck)
        g.apply(declare("hearts"))
        for a in calls:
            g.apply(a)
        if g.phase is not Phase.PLAY:
            g.apply(PASS)
        while not g.is_over:
            g.apply(g.legal_actions()[0])
        results[len(calls)] = g.result.scores[0]
    assert results[0] != 0
    assert results[1] == 2 * results[0] and results[2] == 4 * results[0]


def test_kontra_option_off_skips_the_calls():
    g = OfficersGame("classic", deck=CLASSIC_DECK, kontra=False)
    g.apply(declare("hearts"))
    assert g.phase is Phase.PLAY and len(g.view(0).visible_cards()) == 16


def test_null_and_ramsch_only_by_agreement():
    g = OfficersGame("classic", deck=CLASSIC_DECK)
    for action in (RAMSCH, declare("null")):
        with pytest.raises(IllegalActionError, match="agreement"):
            g.apply(action)
    g = OfficersGame("classic", deck=CLASSIC_DECK, allow_null=True, allow_ramsch=True)
    assert RAMSCH in g.legal_actions() and declare("null") in g.legal_actions()


def test_null_ends_when_the_chooser_takes_a_trick():
    g = OfficersGame("classic", deck=CLASSIC_DECK, allow_null=True, kontra=False)
    g.apply(declare("null"))
    g.apply(Play(Card.CA))  # the dealer has no club face up and must take nothing
    g.apply(Play(Card.S7))
    assert g.is_over and g.result.scores == (-46, 0) and len(g.tricks) == 1


def test_chosen_ramsch_is_led_by_the_chooser_with_grand_trick_rules():
    g = OfficersGame("classic", deck=CLASSIC_DECK, allow_ramsch=True, kontra=False)
    g.apply(RAMSCH)
    assert g.game == "ramsch" and g.chooser == 0 and g.to_move == 0
    g.apply(Play(Card.HA))
    # The dealer shows HJ DJ and six spades: the heart jack is a trump, not a heart, so he need not play it.
    assert len(g.legal_actions()) == 8


# ---------------------------------------------------------------------------- options/errors
def test_unknown_or_misplaced_options_are_rejected():
    with pytest.raises(ValueError, match="unknown option"):
        OfficersGame("classic", seed=1, bock=True)
    with pytest.raises(ValueError, match="scoring"):
        OfficersGame("classic", seed=1, scoring="golf")
    with pytest.raises(ValueError, match="do not apply to the admiral"):
        OfficersGame("admiral", seed=1, scoring="base")
    with pytest.raises(ValueError, match="do not apply to the classic"):
        OfficersGame("classic", seed=1, all_pass="passed_in")
    with pytest.raises(ValueError, match="variant"):
        OfficersGame("chess", seed=1)
    with pytest.raises(ValueError, match="32 cards"):
        OfficersGame("classic", deck=CLASSIC_DECK[:31])


def test_illegal_actions_raise_and_leave_the_state_unchanged():
    g = OfficersGame("classic", deck=CLASSIC_DECK)
    cases = [
        (Play(Card.CJ), WrongPhaseError),
        (declare("hearts hand"), IllegalActionError),
        (KONTRA, WrongPhaseError),
    ]
    for action, error in cases:
        before = snapshot(g)
        with pytest.raises(error):
            g.apply(action)
        assert snapshot(g) == before
    with pytest.raises(OutOfTurnError):
        g.apply(declare("hearts"), seat=1)
    g.apply(declare("hearts"))
    g.apply(PASS)
    for action, error, match in [(Play(Card.H7), IllegalActionError, "covered"),
                                 (Play(Card.HJ), IllegalActionError, "not among"),
                                 (Play(Card.CJ), OutOfTurnError, "turn")]:
        before = snapshot(g)
        with pytest.raises(error, match=match):
            g.apply(action, seat=1 if action.card == Card.CJ else None)
        assert snapshot(g) == before
    g.apply(Play(Card.HA))
    before = snapshot(g)
    with pytest.raises(IllegalActionError, match="follow"):
        g.apply(Play(Card.SA))  # the dealer must follow with HJ or DJ (trumps)
    assert snapshot(g) == before


def test_action_tokens_parse_back():
    for token in ("ramsch", "kontra", "re", "pass", "declare grand", "CJ", "18", "hold", "pickup", "discard D7 C7"):
        assert str(parse_officers_action(token)).lower() == token.lower()
    with pytest.raises(IllegalActionError, match="kontra"):
        parse_officers_action("double")


def test_records_replay_and_reject_tampering():
    g = OfficersGame("passing", seed=21, allow_null=True)
    g.apply(PASS)
    g.apply(declare("clubs"))
    g.apply(KONTRA)
    g.apply(RE)
    while not g.is_over:
        g.apply(g.legal_actions()[-1])
    rec = json.loads(json.dumps(g.to_record()))
    again = OfficersGame.from_record(rec)
    assert again.result == g.result and snapshot(again) == snapshot(g)
    rec["actions"][-1][1] = "declare grand"
    with pytest.raises(RecordError, match="does not replay"):
        OfficersGame.from_record(rec)
    with pytest.raises(RecordError):
        OfficersGame.from_record({"format": "skat-game"})


def test_copy_is_independent():
    g = OfficersGame("half_open", seed=2)
    g.apply(declare("spades"))
    g.apply(PASS)
    c = g.copy()
    c.apply(c.legal_actions()[0])
    assert len(g.history) == 2 and len(c.history) == 3 and g.trick == [] and c.trick


def test_the_end_shows_everything():
    g = OfficersGame("half_open", seed=6, allow_null=True, kontra=False)
    g.apply(declare("null"))
    while not g.is_over:
        g.apply(g.legal_actions()[0])
    for seat in (0, 1):
        v = g.view(seat)
        assert v.opponent_hand is not None
        assert len(v.visible_cards()) == 32
    running = OfficersGame("half_open", seed=6)
    assert running.view(0).opponent_hand is None and view_to_json(running.view(0))["opponent_hand"] is None


def test_variant_aliases():
    assert OfficersGame("officers", seed=1).variant == "classic"
    assert OfficersGame("Harlekin", seed=1).variant == "harlequin"
    assert OfficersGame("half-open", seed=1).variant == "half_open"


def test_public_api():
    """The game from the package; the computer player, the series and the terminal game from the
    modules of their layers (the package's __init__ re-exports no higher layer)."""
    import skat.commands.play_officers
    import skat.players.officers
    import skat.table.officers
    import skat.variants.officers as officers

    for name in ("OfficersGame", "OfficersOptions", "VARIANTS"):
        assert hasattr(officers, name)
    assert skat.players.officers.OfficersBot and skat.table.officers.OfficersSeries and skat.commands.play_officers.play_text
