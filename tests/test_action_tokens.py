"""Action tokens (docs/protocol.md): anything a client sends is an action or an IllegalActionError."""

from __future__ import annotations

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from skat.errors import IllegalActionError
from skat.rules.actions import Bid, parse_action
from skat.variants.officers.actions import parse_officers_action
from skat.variants.tournee import parse_tournee_action

PARSERS = [parse_action, parse_tournee_action, parse_officers_action]
WORDS = ["18", "hold", "pass", "pickup", "discard", "declare", "grand", "hand", "null", "ouvert", "clubs", "CJ",
         "♥10", "Kreuz-Bube", "kontra", "re", "ramsch", "turn", "passt", "mir", "nicht", "²", "١٨", "１８", "0",
         "+", ".", " ", "\t", "K", "İ"]
TOKENS = st.one_of(st.text(max_size=40), st.lists(st.sampled_from(WORDS), max_size=5).map(" ".join),
                   st.from_regex(r"\A[0-9+\-. ]{0,12}\Z"))


@pytest.mark.parametrize("parse", PARSERS)
@pytest.mark.parametrize("token", ["²", "١٨", "１８", "18.0", "+18", "-18", "1e2", "9" * 5000, "9" * 80, "", "   ",
                                   None, 18, 18.0, b"18", ["18"], "declare", "declare moon", "discard CJ CJ",
                                   "discard XX", "18 pass"])
def test_tokens_that_are_no_action(parse, token):
    with pytest.raises(IllegalActionError) as info:
        parse(token)
    assert 20 < len(str(info.value)) < 400  # says what is expected, briefly


@pytest.mark.parametrize("parse", PARSERS)
def test_bid_values_are_ascii_digits(parse):
    assert parse("18") == Bid(18) and parse(" 18 ") == Bid(18) and parse("0018") == Bid(18)
    with pytest.raises(IllegalActionError, match="digits 0-9"):
        parse("１８")


@pytest.mark.parametrize("parse", PARSERS)
@settings(max_examples=300, deadline=None)
@given(token=TOKENS)
@example(token="discard CJ SJ")
@example(token="declare grand hand")
@example(token="passt mir nicht")
def test_any_text_is_an_action_or_illegal(parse, token):
    try:
        action = parse(token)
    except IllegalActionError:
        return
    assert parse(str(action)) == action
    assert str(action).isascii()
