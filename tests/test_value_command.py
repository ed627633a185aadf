"""`skat value`: the game-value calculator, and its messages for bad input."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from skat.commands.value import InputError, compute

GOOD = {"game": "clubs", "declarer_cards": ["CJ", "SJ", "CA", "CT", "CK", "C9", "C8", "SA", "HA", "HK", "D7", "D8"],
        "hand": False, "schneider_announced": False, "schwarz_announced": False, "ouvert": False,
        "declarer_card_points": 72, "declarer_tricks": 6, "bid": 36}


def run(payload: str):
    return subprocess.run([sys.executable, "-m", "skat", "value"], input=payload, capture_output=True, text=True)


def test_prints_the_expected_fields():
    proc = run(json.dumps(GOOD))
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["game_value"] == 36 and out["score"] == 36 and out["matadors"] == {"with": True, "count": 2}


def test_kontra_doubles_the_score_not_the_value():
    """PAGAT: bid 20, diamonds with 1, 85 points, Kontra: overbid at 18, loses 2 x 27 x 2 = 108."""
    data = dict(GOOD, game="diamonds", bid=20, declarer_card_points=85, kontra_level=1,
                declarer_cards=["CJ", "DA", "DT", "DK", "DQ", "D9", "SA", "HA", "CA", "C7", "S7", "H7"])
    out = compute(data)
    assert out["game_value"] == 18 and out["overbid"] and out["score"] == -108


@pytest.mark.parametrize("payload, message", [
    ("not json", "not valid JSON"),
    ("[]", "expected a JSON object"),
    (json.dumps(dict(GOOD, game="chess")), "unknown game type"),
    (json.dumps(dict(GOOD, declarer_cards=["CJ"])), "exactly 12 cards"),
    (json.dumps(dict(GOOD, declarer_cards=["CJ", "CX"] + GOOD["declarer_cards"][2:])), "unknown card"),
    (json.dumps(dict(GOOD, declarer_card_points=130)), "0 to 120"),
    (json.dumps(dict(GOOD, schneider_announced=True)), "hand game"),
    (json.dumps({k: v for k, v in GOOD.items() if k != "bid"}), "missing field"),
    (json.dumps(dict(GOOD, hand="yes")), "true or false"),
])
def test_bad_input_gets_a_clear_message(payload, message):
    proc = run(payload)
    assert proc.returncode == 2
    assert message in proc.stderr and proc.stdout == ""


def test_compute_raises_input_error():
    with pytest.raises(InputError):
        compute({"game": "null"})


# --------------------------------------------------------------------------- a game in words

def words(capsys, *argv: str) -> tuple[int, str, str]:
    """Run ``skat value ARGV`` through the CLI: (exit status, stdout, stderr)."""
    from skat.cli import main

    rc = main(["value", *argv])
    out, err = capsys.readouterr()
    return rc, out, err


def value_and_entry(out: str) -> tuple[int, int]:
    lines = out.splitlines()
    assert lines[0].startswith("value: ") and lines[1].startswith("entry: ")
    return int(lines[0].split()[1]), int(lines[1].split()[1])


@pytest.mark.parametrize("argv, value, entry", [
    # grand hand with 2: levels 2 + 1 game + 1 hand = 4, x 24 = 96; 78 >= 61 wins: +96
    ("grand hand --with 2 --points 78", 96, 96),
    # clubs without 3: 3 + 1 game = 4, x 12 = 48; bid 30 <= 48, 55 < 61 loses: -2 x 48 = -96
    ("clubs --without 3 --points 55 --bid 30", 48, -96),
    # null ouvert (skat game) has the fixed value 46; lost: -2 x 46 = -92
    ("null ouvert --lost", 46, -92),
    # hearts hand schwarz announced with 1: 1 + game + hand + schneider + schneider announced + schwarz
    # + schwarz announced = 7 levels, x 10 = 70 (schwarz announced implies schneider announced)
    ("hearts hand schwarz announced --with 1 --won", 70, 70),
    # grand hand schneider announced with 1: 1 + game + hand + schneider + announced = 5, x 24 = 120
    ("grand hand schneider announced --with 1 --won", 120, 120),
    # the same with 80 card points misses the announced 90: lost at its full value, -2 x 120 = -240
    ("grand hand schneider announced --with 1 --points 80", 120, -240),
    # PAGAT: clubs hand with 1 = 3 x 12 = 36 < bid 46: overbid, lost at 4 x 12 = 48: -2 x 48 = -96 ...
    ("clubs hand --with 1 --points 74 --bid 46", 36, -96),
    # ... and with 95 card points Schneider adds a level: 4 x 12 = 48 >= 46: won +48
    ("clubs hand --with 1 --points 95 --bid 46", 48, 48),
    # PAGAT: diamonds with 1 = 2 x 9 = 18 < bid 20: lost at 3 x 9 = 27, -2 x 27 = -54, Kontra x 2 = -108
    ("diamonds --with 1 --points 85 --bid 20 --kontra --ruleset pub", 18, -108),
    # the same with Re: -54 x 4 = -216
    ("diamonds --with 1 --points 85 --bid 20 --re --ruleset pub", 18, -216),
    # ISkO 5.2.6: grand ouvert with 4 = (4 + 7) x 24 = 264; clubs ouvert with 2 = 9 x 12 = 108
    ("grand ouvert --with 4 --won", 264, 264),
    ("clubs ouvert --with 2 --won", 108, 108),
    # German names: Kreuz hand with 3 = 3 + game + hand + schneider (91 >= 90) = 6, x 12 = 72
    ("kreuz hand --with 3 --points 91", 72, 72),
    # the declarer himself schneider (20 <= 30): grand with 2 = 2 + game + schneider = 4, x 24 = 96; -192
    ("grand --with 2 --points 20", 96, -192),
    # the declarer took no trick: 2 + game + schneider + schwarz = 5, x 24 = 120; -2 x 120 = -240
    ("grand --with 2 --lost --schwarz", 120, -240),
    # --won alone: 61 card points, no extra level: spades without 4 = 5 x 11 = 55
    ("spades --without 4 --won", 55, 55),
    # with 11 (every trump) in diamonds: 11 + 1 game = 12 x 9 = 108; exactly 60 points lose: -216
    ("diamonds --with 11 --points 60", 108, -216),
    # null hand 35, won; lost it costs -2 x 35 = -70 under ISkO, but -35 before 1999 (docs/rules.md D1)
    ("null hand --won", 35, 35),
    ("null hand --lost", 35, -70),
    ("null hand --lost --ruleset old_pre1999", 35, -35),
    # a won null whose value is below the bid is overbid: null 23 < 24, lost at -2 x 23 = -46
    ("null --won --bid 24", 23, -46),
])
def test_a_game_in_words(capsys, argv, value, entry):
    rc, out, err = words(capsys, *argv.split())
    assert rc == 0, err
    assert value_and_entry(out) == (value, entry)
    assert len(out.splitlines()) == 3 and err == ""


@pytest.mark.parametrize("argv, line", [
    ("grand hand --with 2 --points 78",
     "grand hand with 2: (2 + 1 game + 1 hand) × 24 = 96, won with 78 card points: +96"),
    ("clubs --without 3 --points 55 --bid 30",
     "clubs without 3: (3 + 1 game) × 12 = 48, lost with 55 card points: -2 × 48 = -96"),
    ("null ouvert --lost", "null ouvert: fixed value 46, lost (a trick): -2 × 46 = -92"),
    ("clubs hand --with 1 --points 74 --bid 46",
     "clubs hand with 1: (1 + 1 game + 1 hand) × 12 = 36, bid 46: overbid, lost at 4 × 12 = 48 "
     "(played with 74 card points): -2 × 48 = -96"),
    ("diamonds --with 1 --points 85 --bid 20 --kontra --ruleset pub",
     "diamonds with 1: (1 + 1 game) × 9 = 18, bid 20: overbid, lost at 3 × 9 = 27 "
     "(played with 85 card points): -2 × 27 × 2 (Kontra) = -108"),
    ("grand hand schneider announced --with 1 --points 80",
     "grand hand schneider announced with 1: (1 + 1 game + 1 hand + 1 schneider + 1 schneider announced) × 24 "
     "= 120, lost with 80 card points, Schneider announced not made: -2 × 120 = -240"),
    ("grand --with 2 --lost --schwarz",
     "grand with 2: (2 + 1 game + 1 schneider + 1 schwarz) × 24 = 120, lost, the declarer Schneider and "
     "Schwarz: -2 × 120 = -240"),
])
def test_the_explanation_shows_the_arithmetic(capsys, argv, line):
    rc, out, _ = words(capsys, *argv.split())
    assert rc == 0 and out.splitlines()[2] == line


def test_seeger_fabian_entry(capsys):
    """docs/rules.md 5.2: +50 for a won game; -50 for a lost one, and the others +40 (3-table) or +30 (4-table)."""
    rc, out, _ = words(capsys, "grand", "hand", "--with", "2", "--points", "78", "--seeger")
    assert rc == 0 and out.splitlines()[3] == "Seeger-Fabian: +146 (+96 + 50)"  # 96 + 50
    rc, out, _ = words(capsys, "clubs", "--without", "3", "--points", "55", "--seeger")
    assert out.splitlines()[3] == ("Seeger-Fabian: -146 (-96 - 50); each other player +40 at a 3-table, "
                                   "+30 at a 4-table")  # -2 x 48 - 50
    rc, out, _ = words(capsys, "clubs", "--without", "3", "--points", "55", "--seeger", "--json")
    assert json.loads(out)["seeger_fabian"] == {"declarer": -146, "others_3": 40, "others_4": 30}


def test_words_with_json_equal_the_json_input(capsys):
    """GOOD is clubs with 2 (CJ SJ, no HJ), 72 card points, bid 36: the same game in words gives the same JSON."""
    rc, out, _ = words(capsys, "clubs", "--with", "2", "--points", "72", "--bid", "36", "--json")
    assert rc == 0 and json.loads(out) == compute(GOOD)
    rc, out, _ = words(capsys, "kreuz", "--with", "2", "--points", "72", "--bid", "36", "--json")
    assert json.loads(out) == compute(GOOD)


@pytest.mark.parametrize("extra", [[], ["--json"]])
def test_json_on_stdin_through_the_cli(capsys, monkeypatch, extra):
    import io

    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps(GOOD)))
    rc, out, _ = words(capsys, *extra)
    assert rc == 0 and json.loads(out) == compute(GOOD) and out.count("\n") == 1


def test_json_input_refuses_word_options(capsys, monkeypatch):
    import io

    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps(GOOD)))
    rc, out, err = words(capsys, "--points", "72")
    assert rc == 2 and out == "" and "name the game first" in err


@pytest.mark.parametrize("argv, reason", [
    # docs/rules.md 3: Schneider and Schwarz may be announced in hand games only
    ("spades schneider announced --with 1 --won", "only be announced in a hand game"),
    ("clubs schwarz announced --with 1 --won", "only be announced in a hand game"),
    # a bare 'schneider' could mean announced or made in play
    ("hearts hand schwarz --with 1 --won", "'schwarz' alone is unclear"),
    ("null hand schneider announced --won", "Null game has no Schneider"),
    ("null --won --schneider", "Null game has no Schneider"),
    # matadors: none in Null; one of --with/--without; grand at most 4, suits at most 11, from 1
    ("null --with 2 --won", "Null game has no matadors"),
    ("null --points 10 --won", "card points do not count in a Null game"),
    ("null ouvert", "say --won"),
    ("clubs --with 2 --without 1 --points 70", "--with or --without, not both"),
    ("grand --with 5 --points 70", "grand has 4 matadors at most"),
    ("clubs --without 12 --points 70", "11 matadors at most"),
    ("clubs --with 0 --points 70", "the count starts at 1"),
    ("hearts hand --points 70", "needs its matadors"),
    ("grand hand with 2 --points 78", "write --with N"),
    # card points
    ("clubs --with 1 --points 121", "0 to 120"),
    ("clubs --with 1 --points -1", "0 to 120"),
    ("clubs --with 1", "say how the game went"),
    # won and lost against the points and the rules
    ("clubs --with 1 --points 55 --won", "the declarer needs 61"),
    ("clubs --with 1 --points 60 --won", "the declarer needs 61"),  # 60:60 loses (docs/rules.md 4.3)
    ("clubs --with 1 --points 75 --lost", "--lost contradicts 75 card points"),
    ("clubs --with 1 --won --lost", "--won or --lost, not both"),
    ("grand hand schneider announced --with 1 --points 85 --won", "needs 90 card points"),
    ("grand ouvert --with 1 --won --points 100", "must take every trick"),
    ("clubs hand schwarz announced --with 1 --points 100 --won", "must take every trick"),
    # Schneider: one side has 30 or fewer; Schwarz: one side took every trick
    ("clubs --with 1 --points 50 --schneider", "Schneider means one side has 30 or fewer"),
    ("clubs --with 1 --points 60 --schwarz", "--schwarz with 60 card points is impossible"),
    ("clubs --with 1 --schwarz", "say who took every trick"),
    ("clubs --with 1 --schneider", "--schneider: say --won"),
    # the bid must be a bid value; Kontra and Re only where the rule set has them
    ("clubs --with 1 --points 70 --bid 19", "19 is not a bid value"),
    ("diamonds --with 1 --points 85 --kontra", "not part of isko2018"),
    ("diamonds --with 1 --points 85 --re", "not part of isko2018"),
    # game names and rule sets
    ("chess --with 1 --points 70", "unknown game 'chess'"),
    ("ramsch --points 70", "Ramsch has no declarer"),
    ("clubs --with 1 --points 70 --ruleset nope", "unknown rule set"),
    ("clubs --with 1 --points 70 --ruleset tournee", "games of their own"),
    ("clubs hand sideways --with 1 --points 70", "unknown word 'sideways'"),
])
def test_impossible_combinations_are_refused(capsys, argv, reason):
    rc, out, err = words(capsys, *argv.split())
    assert rc == 2 and out == ""
    assert err.startswith("skat value: ") and reason in err, err


def test_the_help_shows_the_grammar(capsys):
    from skat.cli import main

    with pytest.raises(SystemExit):
        main(["value", "--help"])
    out = capsys.readouterr().out
    assert "skat value GAME [hand] [ouvert] [schneider announced | schwarz announced]" in out
    assert "skat value grand hand --with 2 --points 78" in out


def test_won_in_play_but_overbid(capsys):
    """grand hand with 1 = 3 x 24 = 72 < bid 96: lost however it was played, at 4 x 24 = 96: -2 x 96 = -192."""
    rc, out, _ = words(capsys, "grand", "hand", "--with", "1", "--won", "--bid", "96")
    assert rc == 0 and value_and_entry(out) == (72, -192)
    assert out.splitlines()[2] == ("grand hand with 1: (1 + 1 game + 1 hand) × 24 = 72, bid 96: overbid, "
                                   "lost at 4 × 24 = 96 (won in play): -2 × 96 = -192")


def test_game_words_may_follow_the_flags(capsys):
    """A person types the flags where they come to mind: `grand --with 2 hand` is `grand hand --with 2`."""
    from skat.cli import main

    assert main(["value", "grand", "--with", "2", "hand", "--points", "78"]) == 0
    assert capsys.readouterr().out.splitlines()[:2] == ["value: 96", "entry: +96"]
    with pytest.raises(SystemExit) as info:
        main(["value", "grand", "--bogus"])
    assert info.value.code == 2 and "usage: skat value" in capsys.readouterr().err
