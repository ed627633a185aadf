"""Malformed JSON records: Game.from_record refuses them with a RecordError."""
import copy

import pytest

from skat import Game, RecordError
from test_records import RECORD


def _int_token(r): r["actions"][0][1] = 18
def _null_seat(r): r["actions"][0][0] = None
def _result_changed(r): r["result"]["scores"] = [999, 0, 0]
def _truncated(r): r["actions"] = r["actions"][:-3]
def _other_format(r): r["format"] = "chess-pgn"
def _future_version(r): r["version"] = 99

@pytest.mark.parametrize("mutate", [_int_token, _null_seat, _result_changed, _truncated, _other_format,
                                    _future_version], ids=lambda f: f.__name__)
def test_from_record_refuses(mutate):
    record = copy.deepcopy(RECORD)
    mutate(record)
    with pytest.raises(RecordError):
        Game.from_record(record)

@pytest.mark.parametrize("record", [None, [1, 2], "text"])
def test_from_record_refuses_a_record_that_is_not_an_object(record):
    with pytest.raises(RecordError):
        Game.from_record(record)
