"""The compiled engine core (skat.deal._core built by Cython) plays exactly like the same core run as Python.

The pure-Python engine runs in a subprocess with ``SKAT_PURE_PYTHON=1``; both play the same seeded
random games under four rule sets (house rules and real-table revokes included), with early ends,
Kontra, illegal actions and string actions mixed in, and fingerprint everything a program can
observe: every list of legal and side actions, the seat to move, seat views, the errors of illegal
actions, copies, pickles and the final records and results. Tournee Skat and the five variants of
Officers' Skat run on the same base (:class:`skat.deal._core.DealState`) and are fingerprinted the same
way (:func:`variant_fingerprint`).
"""

from __future__ import annotations

import copy
import hashlib
import json
import os
import pickle
import random
import subprocess
import sys
from pathlib import Path

import skat
from skat.deal.game import COMPILED
from skat.records.wire import view_to_json
from skat.rules.rulesets import ISKO, PIRATE, PUB, TOURNEE
from skat.variants.officers.game import OfficersGame
from skat.variants.tournee import TourneeGame

GAMES = 2000
VARIANT_GAMES = 400
"""Games of Tournee Skat and of Officers' Skat (the five variants in turn) on top of the standard ones."""
_OFFICERS = ("classic", "passing", "harlequin", "half_open", "admiral")


def fingerprint(games: int) -> str:
    """A hash over everything observable in ``games`` seeded random games."""
    digest = hashlib.sha256()

    def note(*items: object) -> None:
        digest.update(repr(items).encode())

    rulesets = (ISKO, PUB, PIRATE, ISKO.replace(real_table=True))
    for number in range(games):
        rng = random.Random(number)
        game = skat.Game(seed=number * 7919, ruleset=rulesets[number % 4])
        step = 0
        while not game.is_over:
            legal = game.legal_actions()
            note(game.phase, game.to_move, game.bid, game.declarer, [str(a) for a in legal],
                 [[str(a) for a in game.legal_actions(seat)] for seat in range(3)],
                 [[str(a) for a in game.side_actions(seat)] for seat in range(3)])
            if step % 11 == 1:
                note(json.dumps(view_to_json(game.view(step % 3)), sort_keys=True))
            if step % 5 == 2:
                held = game.hand(game.to_move) if game.to_move is not None else skat.cards("")
                revoke = [c for c in held if skat.Play(c) not in legal]  # not following suit
                trials = ((skat.Bid(17), None), (skat.parse_action("CJ"), (game.to_move or 0) + 1),
                          (skat.parse_action("pass"), None), (skat.Bid(264), game.to_move),
                          (legal[0], (game.to_move or 0) + 2), ("discard CJ SJ", None),
                          ("declare grand hand", None), (skat.parse_action("hold"), None),
                          (skat.Play(revoke[0]) if revoke else skat.PickUp(), None))
                action, seat = trials[step % 9]
                trial = game.copy()
                try:
                    trial.apply(action, None if seat is None else seat % 3)
                    note("applied", str(action), trial.history, trial._hands, trial.trick, trial.phase)
                except skat.IllegalActionError as exc:
                    note(type(exc).__name__, str(exc), trial.history == game.history, trial._hands == game._hands)
            if step == 5 + number % 20:
                again = pickle.loads(pickle.dumps(game)) if number % 40 < 20 else copy.deepcopy(game)
                note(again.history == game.history, again._hands == game._hands, again.trick == game.trick,
                     [str(a) for a in again.legal_actions()])
                game = again if number % 3 else game.copy()
            sides = [(seat, a) for seat in range(3) for a in game.side_actions(seat)]
            if sides and rng.random() < 0.03:
                seat, action = rng.choice(sides)
                game.apply(action, seat)
            else:
                action = rng.choice(legal)
                game.apply(str(action) if rng.random() < 0.1 else action,
                           game.to_move if rng.random() < 0.5 else None)
            step += 1
        record = game.to_record()
        note(json.dumps(record, sort_keys=True), game.result)
        assert skat.Game.from_record(record).result == game.result
    variant_fingerprint(games * VARIANT_GAMES // GAMES, note)
    return digest.hexdigest()


def variant_fingerprint(games: int, note: object) -> None:
    """Seeded random games of Tournee Skat and Officers' Skat, noting what a program can observe:
    legal actions per seat, the seat to move, views, the errors of foreign actions tried on copies,
    copies and pickles, records and results."""
    for number in range(games):
        rng = random.Random(number)
        game: object
        if number % 2:
            game = TourneeGame(seed=number * 104729, ruleset=TOURNEE)
            seats, cls = 3, TourneeGame
        else:
            variant = _OFFICERS[number // 2 % 5]
            options = {} if variant == "admiral" else {"allow_null": number % 4 == 0, "allow_ramsch": number % 8 == 0}
            game = OfficersGame(variant, seed=number * 15485863, **options)
            seats, cls = 2, OfficersGame
        step = 0
        foreign = ["CJ", "pass", "hold", "18", "pickup", "declare grand hand", "turn", "accept", "kontra",
                   "discard CJ SJ", "ramsch", "re", "HA"]
        while not game.is_over:
            legal = game.legal_actions()
            note(cls.__name__, game.phase, game.to_move, [str(a) for a in legal],
                 [[str(a) for a in game.legal_actions(seat)] for seat in range(seats)])
            if step % 7 == 3:
                note(json.dumps(view_to_json(game.view(step % seats)), sort_keys=True))
            if step % 3 == 1:
                trial = game.copy()
                token = foreign[step % len(foreign)]
                seat = (game.to_move + step) % (seats + 1)
                try:
                    trial.apply(token, seat)
                    note("applied", token, trial.history, trial.phase, trial.trick)
                except skat.IllegalActionError as exc:
                    note(type(exc).__name__, str(exc), trial.history == game.history, trial._hands == game._hands)
            if step == 4 + number % 9:
                again = pickle.loads(pickle.dumps(game)) if number % 3 else game.copy()
                note(again.history == game.history, again._hands == game._hands,
                     [str(a) for a in again.legal_actions()])
                game = again
            action = rng.choice(legal)
            game.apply(str(action) if rng.random() < 0.2 else action)
            step += 1
        record = game.to_record()
        note(json.dumps(record, sort_keys=True), repr(game.result))
        assert cls.from_record(record).result == game.result


def test_the_core_is_compiled_unless_pure_python_was_asked_for():
    # setup.py compiles skat/deal/_core.py; without it the engine still works, at a fraction of its speed
    assert COMPILED or os.environ.get("SKAT_PURE_PYTHON")


def test_the_core_calls_the_compiled_rules_kernel():
    """Following suit and the trick winner are the rules layer's (skat.rules.kernel); compiled, the
    core calls that same compiled kernel, and pure Python runs both as source."""
    import skat.deal.game
    import skat.rules.kernel
    import skat.rules.ranking

    assert skat.rules.ranking.legal_mask is skat.rules.kernel.legal_mask
    assert skat.deal.game._kernel is skat.rules.kernel
    assert skat.deal.game._core.COMPILED == skat.rules.kernel.COMPILED == COMPILED


def test_a_core_without_its_compiled_kernel_runs_as_python(tmp_path):
    """A compiled core whose kernel did not compile gives way to the plain Python engine: slower, not broken."""
    import shutil

    import skat.rules.kernel

    if not skat.rules.kernel.COMPILED:
        return  # nothing compiled here: the plain engine is what runs anyway (the test above holds)
    package = Path(skat.__file__).parent
    shutil.copytree(package, tmp_path / "skat", ignore=shutil.ignore_patterns("__pycache__"))
    for built in (tmp_path / "skat" / "rules").glob("kernel.*.so"):
        built.unlink()
    code = ("import random, skat, skat.deal.game as g\n"
            "game = skat.Game(seed=1); rng = random.Random(0)\n"
            "while not game.is_over: game.apply(rng.choice(game.legal_actions()))\n"
            "print(g.COMPILED, g._core.COMPILED, game.result.score)")
    env = {k: v for k, v in os.environ.items() if k != "SKAT_PURE_PYTHON"}
    out = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env={**env, "PYTHONPATH": str(tmp_path)},
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    compiled, core, _ = out.stdout.split()
    assert (compiled, core) == ("False", "False")


def test_the_compiled_and_the_pure_python_engine_play_alike():
    env = {**os.environ, "SKAT_PURE_PYTHON": "1"}
    with subprocess.Popen([sys.executable, __file__, str(GAMES)], env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True) as pure:
        here = fingerprint(GAMES)
        out, err = pure.communicate(timeout=600)
    assert pure.returncode == 0, err
    assert out.split() == ["pure", here]


if __name__ == "__main__":
    print("compiled" if COMPILED else "pure", fingerprint(int(sys.argv[1])))
