"""Duplicate matches between two players, with statistics that mean something.

Each deal is played six times: each of the two players sits alone in each of
the three seats against two copies of the other.  The cards are the same in all
six games, and the player in a seat gets the same random seed whichever player
it is (common random numbers), so the luck of the cards cancels out.

Scoring is Seeger-Fabian at a 3-table: the declarer scores his game points
(``game.result.scores``, lost games already doubled) plus 50 for a won game or
minus 50 for a lost one; when he loses, each other player gets 40.  A passed-in
deal scores nothing; a Ramsch (house rules) scores its score-sheet entries.  At a
table of four (``ArenaConfig.table``) the dealer sits out, the three at the deal play
it as at three, and each defender of a lost game gets 30 instead of 40: the same games
scored so (a checkpoint of a match at three can be summed up at four).

The statistics compare the *solo seats*: ``X_P(d, s)`` is the score of player
``P`` sitting alone in seat ``s`` of deal ``d``.  A player's points per game are
the mean of its ``X``; the paired difference of a deal is
``mean_s X_A(d, s) - mean_s X_B(d, s)`` and its 95 % confidence interval is
``mean +- 1.96 sd / sqrt(n)`` over the deals.  Declarer win rate and declare
frequency are counted over the solo seats as well; decision times and illegal
actions over every seat a player occupies.  ``by_role`` splits the difference by
what each player did alone in the same seat of a deal (declared, defended, no
declarer): the shares add up to the mean difference and show whether a player
gains in the bidding, as declarer or in defence.  An illegal action (or an exception
in ``choose``) is counted and replaced by the first legal action, so a match
always finishes.  Players with a ``side_action(view)`` method are offered
Kontra and Re during the first trick when the rule set allows them.

Long matches can keep a checkpoint (:class:`Checkpoint`, ``skat arena
--checkpoint FILE``): every finished deal is appended to a JSON-lines file, and
a later run with the same match resumes where the file ends.  Deals are
numbered and seeded from the match seed, so a resumed match plays exactly the
deals a single run would have played.
"""

from __future__ import annotations

import ast
import gzip
import hashlib
import importlib
import importlib.util
import json
import math
import multiprocessing
import os
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from skat.deal.game import Game, Phase, SeatView
from skat.players.cardmodel import LEARNED_MODEL, LEVEL_MODEL, SHIPPED_MODEL
from skat.players.registry import check_player_name, make_player
from skat.rules.actions import Action
from skat.rules.rulesets import SCHEMA, RuleSet, get_ruleset
from skat.variants.registry import variant_for_rules

__all__ = [
    "SEATINGS",
    "ArenaConfig",
    "seeger_fabian",
    "play_game",
    "checked_choice",
    "play_deal",
    "summarize",
    "mean_of",
    "sample_sd",
    "run_match",
    "plot_cumulative",
    "Checkpoint",
    "arena_player",
    "players_fingerprint",
    "run_deals",
    "null_hand_game",
    "declare_hand",
]

SEATINGS: tuple[tuple[int, int, int], ...] = tuple(
    tuple(solo if s == seat else 1 - solo for s in range(3))  # type: ignore[misc]
    for solo in (0, 1)
    for seat in range(3)
)
"""The six seatings of a duplicate deal: which player (0 = A, 1 = B) sits in seats 0, 1, 2."""

SF_OTHERS_AT = {3: 40, 4: 30, 5: 30}
"""Each defender's bonus for a lost game by the size of the table (docs/rules.md 5.2: 40 at three, 30 at four)."""
SF_WIN, SF_LOSS, SF_OTHERS = 50, -50, SF_OTHERS_AT[3]


STARTS: dict[str, str] = {
    "auction": "every deal bid for",
    "ramsch": "every deal a Ramsch",
    "null": "every deal a Null Hand",
}
"""How a match's deals can start (:attr:`ArenaConfig.start`) and how a report names it."""


@dataclass(frozen=True)
class ArenaConfig:
    """What a match plays: two player names, the number of deals, a seed and a rule set."""

    players: tuple[str, str]
    deals: int
    seed: int = 0
    ruleset: str = "isko2018"
    options: tuple[str, ...] = ()
    """Rule options changed on top of the preset, each ``OPTION=VALUE`` (``schieberamsch=true``), checked by
    :data:`skat.rules.rulesets.SCHEMA` as ``skat series --set`` does."""
    table: int = 3
    """The players at the table, for the scoring only (:data:`SF_OTHERS_AT`): the deal is played by three either way
    (the dealer of four sits out), so it changes the statistics, not the games or the checkpoint."""
    start: str = "auction"
    """How each deal starts (:data:`STARTS`): ``auction`` (bid for as usual), ``ramsch`` (every deal a Ramsch, as in a
    Ramsch round) or ``null`` (the seat whose hand suits Null best declares Null Hand after a bid of 18)."""

    def __post_init__(self) -> None:
        if len(self.players) != 2:
            raise ValueError(f"a duplicate match needs exactly two players, got {len(self.players)}")
        if self.deals < 1:
            raise ValueError(f"play at least one deal, got --deals {self.deals}")
        if self.table not in SF_OTHERS_AT:
            raise ValueError(f"a Skat table has 3, 4 or 5 players, not {self.table}")
        if self.start not in STARTS:
            raise ValueError(f"a match's deals start as one of {', '.join(STARTS)}, not {self.start!r}")
        rules = self.rules()
        if self.start == "ramsch" and not rules.ramsch_possible:
            raise ValueError(f"rule set {self.ruleset!r} plays no Ramsch; use pub (or --set all_pass=ramsch)")

    def rules(self) -> RuleSet:
        """The rule set of the match: the preset with :attr:`options` (RuleSetError, a ValueError, names a bad one)."""
        rules = get_ruleset(self.ruleset)
        changes = SCHEMA.parse_assignments(list(self.options))
        return rules.replace(**changes) if changes else rules

    @property
    def rules_label(self) -> str:
        """The rule set as a report names it: ``pub``, ``pub, schieberamsch=true, every deal a Ramsch``."""
        extra = [*self.options] + ([STARTS[self.start]] if self.start != "auction" else [])
        extra += [f"scored at a table of {self.table}"] if self.table != 3 else []
        return ", ".join([self.ruleset, *extra])


def arena_player(name: str, seed: int | None = None) -> Any:
    """A player for the arena: a built-in name (``strong``, ``heuristic``...) or a bot of your own.

    ``package.module:Factory`` or ``path/to/bot.py:Factory`` loads ``Factory`` (a class or a
    function) and calls it with the seed; what it returns needs a ``choose(view)`` method
    (:class:`skat.players.base.Player`).  Worker processes and Ray tasks load it the same way,
    so the module must be importable there too (the current directory is searched first).
    """
    check_player_name(name, own_bots=True)
    if ":" not in name:
        return make_player(name, seed)
    where, _, attr = name.rpartition(":")
    try:
        if where.endswith(".py"):
            path = Path(where).resolve()
            tag = hashlib.blake2b(str(path).encode(), digest_size=4).hexdigest()
            spec = importlib.util.spec_from_file_location(f"skat_arena_bot_{path.stem}_{tag}", path)
            if spec is None or spec.loader is None or not path.is_file():
                raise FileNotFoundError(f"no Python file {where}")
            module = sys.modules.get(spec.name)
            if module is None:
                module = importlib.util.module_from_spec(spec)
                sys.modules[spec.name] = module
                spec.loader.exec_module(module)
        else:
            if os.getcwd() not in sys.path:
                sys.path.insert(0, os.getcwd())
            module = importlib.import_module(where)
        factory = getattr(module, attr)
    except (ImportError, FileNotFoundError, AttributeError, SyntaxError) as exc:
        raise ValueError(f"cannot load player {name!r}: {exc}") from None
    player = factory(seed)
    if not callable(getattr(player, "choose", None)):
        raise ValueError(f"player {name!r} has no choose(view) method")
    return player


def derive_seed(*parts: object) -> int:
    """A stable 63-bit seed from any parts (the same on every machine and process)."""
    digest = hashlib.blake2b(":".join(map(str, parts)).encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


def seeger_fabian(declarer: int | None, won: bool | None, scores: Iterable[int], table: int = 3) -> list[int]:
    """Seeger-Fabian points of the three seats at the deal for one game (at a table of ``table`` players)."""
    sf = [0, 0, 0]
    if declarer is None:
        return [int(x) for x in scores]  # passed in (all 0) or a Ramsch: the score-sheet entries
    sf[declarer] = list(scores)[declarer] + (SF_WIN if won else SF_LOSS)
    if not won:
        for s in range(3):
            if s != declarer:
                sf[s] += SF_OTHERS_AT[table]
    return sf


def game_family(result: Any) -> str:
    """The kind of a finished game for the statistics: ``suit``, ``grand``, ``null``, ``ramsch`` or ``passed in``."""
    if result.contract is None:
        return "ramsch" if result.kind == "ramsch" else "passed in"
    if result.contract.is_null:
        return "null"
    return "grand" if result.contract.game_type.label == "grand" else "suit"


def _family_of(game: dict[str, Any]) -> str:
    """:func:`game_family` of a game record (records written before it was kept: from its contract and scores)."""
    kind = game.get("kind")
    if kind:
        return str(kind)
    contract = game.get("contract")
    if contract is None:
        return "ramsch" if any(game.get("scores") or ()) else "passed in"
    word = str(contract).split()[0]
    return word if word in ("null", "grand") else "suit"


@dataclass
class GameOutcome:
    """One game of a duplicate deal, as the statistics need it."""

    seating: tuple[int, int, int]
    declarer: int | None
    won: bool | None
    contract: str | None
    scores: tuple[int, int, int]
    sf: list[int]
    kind: str = "passed in"
    """The kind of game (:func:`game_family`): ``suit``, ``grand``, ``null``, ``ramsch`` or ``passed in``."""
    time_s: list[float] = field(default_factory=lambda: [0.0, 0.0])
    decisions: list[int] = field(default_factory=lambda: [0, 0])
    illegal: list[int] = field(default_factory=lambda: [0, 0])
    errors: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "seating": list(self.seating), "declarer": self.declarer, "won": self.won, "contract": self.contract,
            "scores": list(self.scores), "sf": self.sf, "kind": self.kind, "time_s": self.time_s, "decisions": self.decisions,
            "illegal": self.illegal, "errors": self.errors,
        }


def checked_choice(player: Any, view: SeatView, clock: Callable[[], float] = time.perf_counter
                   ) -> tuple[Action, float, str | None]:
    """The action ``player`` chooses in ``view``, the ``clock``'s seconds it took, and what went wrong: an illegal
    action, or an exception (a crashing bot loses the move, not the match), is replaced by the first legal action
    and said in the third item (None when the action was legal)."""
    started = clock()
    try:
        action = player.choose(view)
    except Exception as exc:
        spent = clock() - started
        return view.legal_actions[0], spent, f"{type(exc).__name__}: {exc}"
    spent = clock() - started
    if action not in view.legal_actions:
        return (view.legal_actions[0], spent,
                f"illegal action {action} by seat {view.seat} in phase {view.phase.value}")
    return action, spent, None


def play_game(game: Game, players: list, seating: tuple[int, int, int] = (0, 1, 2)) -> GameOutcome:
    """Play a game to the end; ``players[seat]`` decides for each seat, ``seating[seat]`` says
    which match player (0 or 1) that is, for the time and illegal-action counts."""
    n = max(seating) + 1
    time_s = [0.0] * n
    decisions = [0] * n
    illegal = [0] * n
    errors: list[str] = []
    clock = time.perf_counter
    while not game.is_over:
        if game.phase.value == "play" and not game.tricks:
            _offer_calls(game, players, seating, illegal, errors)
            if game.is_over:
                break
        seat = game.to_move
        assert seat is not None
        who = seating[seat]
        action, spent, error = checked_choice(players[seat], game.view(seat), clock)
        time_s[who] += spent
        decisions[who] += 1
        if error is not None:
            illegal[who] += 1
            errors.append(error)
        game.apply(action, seat)
    result = game.result
    assert result is not None
    return GameOutcome(
        seating=seating, declarer=result.declarer, won=result.won,
        contract=None if result.contract is None else str(result.contract), scores=result.scores,
        sf=seeger_fabian(result.declarer, result.won, result.scores), kind=game_family(result),
        time_s=time_s, decisions=decisions, illegal=illegal, errors=errors[:5],
    )


_CALLS = ("kontra", "re")


def _offer_calls(game: Game, players: list, seating: tuple[int, int, int], illegal: list[int],
                 errors: list[str]) -> None:
    """Offer Kontra and Re (house rules) to every player that has a ``side_action(view)`` method."""
    for seat in range(3):
        decide = getattr(players[seat], "side_action", None)
        if decide is None:
            continue
        calls = [a for a in game.side_actions(seat) if str(a) in _CALLS]
        if not calls:
            continue
        try:
            action = decide(game.view(seat))
        except Exception as exc:  # a crashing bot just says nothing
            errors.append(f"{type(exc).__name__} in side_action: {exc}")
            illegal[seating[seat]] += 1
            continue
        if action is None:
            continue
        if action in calls:
            game.apply(action, seat)
        else:
            illegal[seating[seat]] += 1
            errors.append(f"illegal call {action} by seat {seat}")


def new_game(seed: int, ruleset: RuleSet, start: str = "auction") -> Any:
    """A deal under a rule set, of the variant the rule set plays (:mod:`skat.variants`); ``start="ramsch"``: a
    Ramsch without an auction (a Ramsch round)."""
    if start == "ramsch":
        return Game(seed, ruleset=ruleset, start="ramsch")
    if start == "null":
        return null_hand_game(seed, ruleset)
    return variant_for_rules(ruleset).new_game(seed, ruleset)


NULL_RISK = 0.5
"""A Null Hand match plays only deals with a hand of at most this :func:`skat.players.heuristic.null_risk` (about one
deal in twenty): hands a player would declare Null with, so that the card play decides."""


def null_deal_seed(seed: int, deal: int, kind: str = "deal") -> int:
    """The seed of deal number ``deal`` of a Null Hand match: the first of the deal's seeds whose best hand for Null
    has a risk of at most :data:`NULL_RISK` (each deal on its own, so a resumed or parallel match plays the same);
    ``kind`` keeps the seeds of matches and corpora apart."""
    from skat.players.heuristic import null_risk
    from skat.rules.deal import deal_masks

    for attempt in range(10_000):
        candidate = derive_seed(kind, seed, deal, attempt)
        if min(null_risk(hand) for hand in deal_masks(candidate)[:3]) <= NULL_RISK:
            return candidate
    raise RuntimeError(f"no Null hand in 10,000 deals of seed {seed}")  # about 1 deal in 20 has one


def null_hand_game(seed: int, ruleset: RuleSet) -> Game:
    """A deal where the seat whose hand suits Null best (the least :func:`skat.players.heuristic.null_risk`, forehand
    first on a tie) has won the auction at 18 and declared Null Hand: the card play of Null alone, the same declarer in
    every seating of a duplicate deal."""
    from skat.players.heuristic import null_risk

    game = Game(seed, ruleset=ruleset)
    risks = [null_risk(game.view(seat).hand.mask) for seat in range(3)]
    return declare_hand(game, risks.index(min(risks)), "declare null hand")


def declare_hand(game: Game, declarer: int, declare: str) -> Game:
    """``game`` (new, in its auction) played on until the card play: ``declarer`` wins the auction at 18 (his first
    bid or hold; the others pass) and announces the hand game ``declare`` (an action as it is written, such as
    ``"declare null hand"``). Returns ``game``."""
    while game.phase is not Phase.PLAY:
        seat = game.to_move
        assert seat is not None
        legal = game.view(seat).legal_actions
        tokens = [str(a) for a in legal]
        if game.phase is Phase.BIDDING:
            wanted = "pass" if seat != declarer else ("18" if "18" in tokens else next(t for t in tokens if t != "pass"))
        else:
            wanted = declare
        if wanted not in tokens:
            raise ValueError(f"{wanted!r} is not a legal action of seat {seat} here: {', '.join(tokens)}")
        game.apply(legal[tokens.index(wanted)], seat)
    return game


def play_deal(config: ArenaConfig, deal: int) -> dict[str, Any]:
    """The six games of deal number ``deal`` (0-based) of a match."""
    ruleset = config.rules()
    start = config.start
    deal_seed = null_deal_seed(config.seed, deal) if start == "null" else derive_seed("deal", config.seed, deal)
    games = []
    for seating in SEATINGS:
        players = [arena_player(config.players[who], derive_seed("player", config.seed, deal, seat))
                   for seat, who in enumerate(seating)]
        game = new_game(deal_seed, ruleset, start)
        games.append(play_game(game, players, seating).to_json())
    return {"deal": deal, "seed": deal_seed, "games": games}


def _play_deals(config: ArenaConfig, deals: list[int]) -> list[dict[str, Any]]:
    return [play_deal(config, d) for d in deals]


# ------------------------------------------------------------------ statistics
def mean_of(xs: list[float]) -> float:
    """The mean of ``xs`` (0 for none)."""
    return sum(xs) / len(xs) if xs else 0.0


def sample_sd(xs: list[float]) -> float:
    """The sample standard deviation of ``xs`` (0 for fewer than two)."""
    if len(xs) < 2:
        return 0.0
    m = mean_of(xs)
    return math.sqrt(sum((x - m) ** 2 for x in xs) / (len(xs) - 1))


def _shares(groups: dict[tuple[str, str], list[float]], cases: int) -> list[dict[str, Any]]:
    """Rows of the split of the difference (``by_role``, ``by_game``), the largest share first."""
    return sorted(({"a": a, "b": b, "cases": len(v), "mean_difference": mean_of(v), "share": sum(v) / cases}
                   for (a, b), v in groups.items()), key=lambda r: -abs(r["share"]))


def summarize(config: ArenaConfig, deals: list[dict[str, Any]]) -> dict[str, Any]:
    """The match statistics (see the module docstring) from the output of :func:`play_deal`."""
    deals = sorted(deals, key=lambda d: d["deal"])
    names = list(config.players)
    table = config.table
    solo_sf: list[list[float]] = [[], []]
    declared = [0, 0]
    won = [0, 0]
    time_s = [0.0, 0.0]
    decisions = [0, 0]
    illegal = [0, 0]
    errors: list[str] = []
    passed_in = 0
    diffs: list[float] = []
    roles: dict[tuple[str, str], list[float]] = {}
    games_by: dict[tuple[str, str], list[float]] = {}
    for deal in deals:
        per_player: list[list[float]] = [[], []]
        solo: dict[tuple[int, int], tuple[str, float, str]] = {}
        for g in deal["games"]:
            seating = g["seating"]
            solo_seat = next(s for s in range(3) if seating.count(seating[s]) == 1)
            who = seating[solo_seat]
            sf = g["sf"] if table == 3 else seeger_fabian(g["declarer"], g["won"], g["scores"], table)
            per_player[who].append(sf[solo_seat])
            role = "no declarer" if g["declarer"] is None else (
                "declares" if g["declarer"] == solo_seat else "defends")
            family = _family_of(g)
            game_role = family if g["declarer"] is None else f"{role} {family}"
            solo[(who, solo_seat)] = (role, sf[solo_seat], game_role)
            if family == "passed in":
                passed_in += 1
            elif g["declarer"] == solo_seat:
                declared[who] += 1
                won[who] += bool(g["won"])
            for i in (0, 1):
                time_s[i] += g["time_s"][i]
                decisions[i] += g["decisions"][i]
                illegal[i] += g["illegal"][i]
            errors.extend(g["errors"])
        for i in (0, 1):
            solo_sf[i].extend(per_player[i])
        diffs.append(mean_of(per_player[0]) - mean_of(per_player[1]))
        for seat in range(3):
            if (0, seat) in solo and (1, seat) in solo:
                (role_a, sf_a, game_a), (role_b, sf_b, game_b) = solo[(0, seat)], solo[(1, seat)]
                roles.setdefault((role_a, role_b), []).append(sf_a - sf_b)
                games_by.setdefault((game_a, game_b), []).append(sf_a - sf_b)
    n = len(diffs)
    cases = sum(len(v) for v in roles.values())
    by_role, by_game = _shares(roles, cases), _shares(games_by, cases)
    mean, sd = mean_of(diffs), sample_sd(diffs)
    half = 1.96 * sd / math.sqrt(n) if n else 0.0
    solo_games = [len(solo_sf[0]), len(solo_sf[1])]
    per_player_stats = {}
    for i, name in enumerate(names):
        key = name if names[0] != names[1] else f"{name}#{i + 1}"
        per_player_stats[key] = {
            "sf_per_game": mean_of(solo_sf[i]),
            "declare_rate": declared[i] / solo_games[i] if solo_games[i] else 0.0,
            "declarer_win_rate": won[i] / declared[i] if declared[i] else None,
            "declared": declared[i],
            "avg_decision_ms": 1000 * time_s[i] / decisions[i] if decisions[i] else 0.0,
            "decisions": decisions[i],
            "illegal_actions": illegal[i],
        }
    return {
        "players": names,
        "deals": n,
        "games": 6 * n,
        "seed": config.seed,
        "ruleset": config.rules_label,
        "per_player": per_player_stats,
        "difference": {"mean": mean, "sd": sd, "ci95": [mean - half, mean + half], "n": n},
        "passed_in": passed_in,
        "illegal_actions": illegal[0] + illegal[1],
        "errors": errors[:20],
        "per_deal_difference": diffs,
        "by_role": by_role,
        "by_game": by_game,
    }


# ------------------------------------------------------------------ checkpoint
PLAYER_DATA = ("win_model.npz", SHIPPED_MODEL, LEVEL_MODEL, LEARNED_MODEL)
"""The files in ``skat/data`` that the players' decisions depend on (the learned bidder's and card-play models)."""

NOT_PLAYING = ("corpus", "playcorpus", "env", "calibration", "screen")
"""Modules of ``skat.players`` no match's play runs: the corpus generators, the PettingZoo environment, the
bidding model's calibration on match records and the role screens (whose checkpoints count their own module)."""

ARENA_REPORTING = frozenset({
    "mean_of", "sample_sd", "_shares", "summarize", "PLAYER_DATA", "NOT_PLAYING", "ARENA_REPORTING", "players_fingerprint",
    "_code_bytes", "_RUNTIME_ANNOTATIONS", "_CodeOnly", "Checkpoint", "_chunks", "run_match", "run_deals",
    "fill_checkpoint", "_chunk_size", "_run_local", "_run_ray", "_NoBar", "_progress_bar", "plot_cumulative",
    "format_summary", "write_json", "__all__"})
"""The top-level names of this module that count, store or print a match but never decide a deal: a change to
them leaves a match's checkpoint resumable (:func:`players_fingerprint` leaves them out)."""


def players_fingerprint(names: Iterable[str] = (), modules: Iterable[str] | None = None) -> str:
    """A short hash of the computer players' source code (``skat/players/*.py`` but :data:`NOT_PLAYING`, of this
    module only what plays a deal (not :data:`ARENA_REPORTING`), and the learned models they load,
    :data:`PLAYER_DATA`; or only the ``modules`` of that package named). Docstrings, comments and type
    annotations do not count (:func:`_code_bytes`).

    The source of a bot of your own among ``names`` (``module:Factory``) counts too.  A
    checkpoint remembers it, so results of a player whose code has changed since are never
    mixed into one match.
    """
    digest = hashlib.blake2b(digest_size=8)
    here = Path(__file__).parent
    files = ([path for path in sorted(here.glob("*.py")) if path.stem not in NOT_PLAYING]
             + [here.parent / "data" / name for name in PLAYER_DATA] if modules is None
             else [here / f"{m}.py" for m in sorted(modules)])
    for name in names:
        where = name.rpartition(":")[0]
        if where.endswith(".py"):
            files.append(Path(where))
        elif where:
            spec = importlib.util.find_spec(where)
            if spec is not None and spec.origin and Path(spec.origin).is_file():
                files.append(Path(spec.origin))
    for path in files:
        digest.update(path.name.encode())
        digest.update(_code_bytes(path, ARENA_REPORTING if path.resolve() == Path(__file__).resolve() else ()))
    return digest.hexdigest()


def _code_bytes(path: Path, leave_out: Iterable[str] = ()) -> bytes:
    """What of a file the players' behaviour depends on: a Python file's syntax tree without docstrings,
    comments and type annotations (:class:`_CodeOnly`: documentation and types can change without
    invalidating a checkpoint) and without the top-level definitions and assignments of the names in
    ``leave_out``; other files' bytes."""
    data = path.read_bytes()
    if path.suffix != ".py":
        return data
    tree = _CodeOnly().visit(ast.parse(data, filename=str(path)))
    skip = set(leave_out)
    if skip:
        tree.body = [node for node in tree.body if not _defines(node, skip)]
    return ast.dump(tree).encode()


def _defines(node: ast.stmt, names: set[str]) -> bool:
    """Whether a top-level statement defines (``def``, ``class``, an assignment) only names of ``names``."""
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return node.name in names
    targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, ast.AnnAssign) else []
    return bool(targets) and all(isinstance(t, ast.Name) and t.id in names for t in targets)


_RUNTIME_ANNOTATIONS = ("ClassVar", "InitVar", "KW_ONLY")
"""Words in a class attribute's annotation that change what the class does (which dataclass fields it has)."""


class _CodeOnly(ast.NodeTransformer):
    """Drops from a syntax tree what does not change what the code does:

    * every statement that is a bare string (docstrings of modules, classes, functions and attributes);
    * the annotations of function arguments and return values (kept where a decorator says ``register``, as
      :func:`functools.singledispatch`'s, which reads them);
    * a variable's annotation in a function or a module: ``x: T = v`` counts as ``x = v``, ``x: T`` alone not
      at all;
    * a variable's annotation in a class body, which stays as a placeholder (``x: T`` still makes a dataclass
      field) holding only the words of :data:`_RUNTIME_ANNOTATIONS` in it;
    * the body of ``if TYPE_CHECKING:`` (never run; its ``else`` stays).
    """

    def __init__(self) -> None:
        self._in_class = False

    def visit_Expr(self, node: ast.Expr) -> ast.Expr | None:
        if isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            return None
        return node

    def visit_FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> ast.AST:
        if not any("register" in ast.unparse(d) for d in node.decorator_list):
            node.returns = None
            a = node.args
            for arg in (*a.posonlyargs, *a.args, *a.kwonlyargs, a.vararg, a.kwarg):
                if arg is not None:
                    arg.annotation = None
        outer, self._in_class = self._in_class, False
        self.generic_visit(node)
        self._in_class = outer
        return node

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_ClassDef(self, node: ast.ClassDef) -> ast.AST:
        outer, self._in_class = self._in_class, True
        self.generic_visit(node)
        self._in_class = outer
        return node

    def visit_AnnAssign(self, node: ast.AnnAssign) -> ast.AST | None:
        if not self._in_class:
            if node.value is None:
                return None
            return ast.Assign(targets=[node.target], value=node.value, type_comment=None)
        text = ast.unparse(node.annotation)
        node.annotation = ast.Constant(" ".join(word for word in _RUNTIME_ANNOTATIONS if word in text))
        return node

    def visit_If(self, node: ast.If) -> ast.AST | list[ast.stmt]:
        test = node.test
        if (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING"
                or isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"):
            node.body = []
            self.generic_visit(node)
            return node.orelse
        self.generic_visit(node)
        return node


class Checkpoint:
    """A JSON-lines file of finished deals that lets a long match stop and resume.

    The first line describes the match (players, seed, rule set and the players'
    code fingerprint); each further line is one deal as :func:`play_deal` returns
    it.  Opening a file written for another match raises :class:`ValueError`; a
    last line cut short by a crash is dropped.  ``config`` is an :class:`ArenaConfig`, a role screen's
    (:class:`skat.players.screen.ScreenConfig`) or a corpus tool's: its ``players``, ``seed``, ``ruleset`` and
    ``deals``, and its ``options``, ``start``, ``role`` and ``fingerprint()`` where it has them.
    """

    def __init__(self, path: str | Path, config: Any) -> None:
        self.path = Path(path)
        code = config.fingerprint() if hasattr(config, "fingerprint") else players_fingerprint(config.players)
        self.header = {"skat_arena_checkpoint": 1, "players": list(config.players), "seed": config.seed,
                       "ruleset": config.ruleset, "players_code": code}
        if getattr(config, "options", ()):
            self.header["options"] = list(config.options)
        if getattr(config, "start", "auction") != "auction":
            self.header["start"] = config.start
        role = getattr(config, "role", None)  # a role screen's (skat.players.screen)
        if role is not None:
            self.header["role"] = role
        self.deals: dict[int, dict[str, Any]] = {}
        try:
            if self.path.exists() and self.path.stat().st_size:
                self._load(config)
            else:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                self.path.write_text(json.dumps(self.header) + "\n")
        except OSError as exc:
            raise ValueError(f"checkpoint {self.path}: {exc.strerror or exc}") from None

    def _load(self, config: Any) -> None:
        text = self.path.read_text()
        lines = text.split("\n")
        complete, cut = lines[:-1], lines[-1]
        if cut:  # the process died in the middle of a line: keep only whole deals
            self.path.write_text("".join(line + "\n" for line in complete))
        if not complete:
            raise ValueError(f"checkpoint {self.path}: no header line; delete the file to start afresh")
        try:
            header = json.loads(complete[0])
        except json.JSONDecodeError:
            header = None
        if not isinstance(header, dict) or header.get("skat_arena_checkpoint") != 1:
            raise ValueError(f"checkpoint {self.path} is not an arena checkpoint (bad first line)")
        for key in ("players", "seed", "ruleset", "options", "start", "role", "players_code"):
            if header.get(key) != self.header.get(key):
                what = "the players' code has changed since" if key == "players_code" else "another match"
                raise ValueError(
                    f"checkpoint {self.path} belongs to {what}: {key} is {header.get(key)!r} there, "
                    f"{self.header.get(key)!r} now; use another file or delete it to start afresh")
        for number, line in enumerate(complete[1:], start=2):
            try:
                deal = json.loads(line)
                index = int(deal["deal"])
            except (json.JSONDecodeError, KeyError, TypeError, ValueError):
                raise ValueError(f"checkpoint {self.path}, line {number}: not a deal record") from None
            if index < config.deals:
                self.deals[index] = deal

    def add(self, results: list[dict[str, Any]]) -> None:
        """Append finished deals (flushed at once, so a crash loses at most the deals in flight)."""
        with self.path.open("a") as f:
            for deal in results:
                self.deals[deal["deal"]] = deal
                f.write(json.dumps(deal, separators=(",", ":")) + "\n")


# --------------------------------------------------------------------- running
def _chunks(deals: list[int], size: int) -> Iterator[list[int]]:
    for start in range(0, len(deals), size):
        yield deals[start:start + size]


def run_match(
    config: ArenaConfig,
    *,
    workers: int | None = None,
    ray_address: str | None = None,
    progress: bool = True,
    on_deal: Callable[[int], None] | None = None,
    checkpoint: str | Path | None = None,
) -> dict[str, Any]:
    """Play a duplicate match and return :func:`summarize`'s statistics plus the wall time.

    Local processes by default (``workers`` defaults to all cores; 1 plays in this
    process), or Ray tasks on the cluster at ``ray_address`` (``local`` starts a
    local Ray instance).  With ``checkpoint`` (a file path) finished deals are
    saved as they come and the deals already in the file are not played again.
    """
    for name in config.players:  # fail fast on a bad name, before any process starts
        arena_player(name, 0)
    config.rules()
    saved = Checkpoint(checkpoint, config) if checkpoint is not None else None
    results: list[dict[str, Any]] = list(saved.deals.values()) if saved else []
    todo = [d for d in range(config.deals) if not saved or d not in saved.deals]
    started = time.perf_counter()
    bar = _progress_bar(config.deals, progress, initial=config.deals - len(todo))

    def finished(chunk: list[dict[str, Any]]) -> None:
        results.extend(chunk)
        if saved is not None:
            saved.add(chunk)
        bar.update(len(chunk))
        if on_deal is not None:
            on_deal(len(chunk))

    mode = run_deals(config, todo, finished, workers=workers, ray_address=ray_address)
    bar.close()
    summary = summarize(config, results)
    summary["wall_s"] = time.perf_counter() - started
    summary["execution"] = mode
    summary["resumed_deals"] = config.deals - len(todo)
    return summary


Work = Callable[[Any, list[int]], list[dict[str, Any]]]
"""A task: (the configuration, deal numbers) -> one record per deal, each with its ``"deal"`` number."""


def run_deals(config: Any, todo: list[int], finished: Callable[[list[dict[str, Any]]], None], *,
              work: Work | None = None, workers: int | None = None, ray_address: str | None = None) -> str:
    """Run ``work`` (a match's :func:`play_deal` by default) over the deal numbers ``todo`` in local
    processes (``workers``, all cores by default; 1 runs here) or as Ray tasks at ``ray_address``;
    ``finished`` gets each task's records as it ends. Returns how it ran (``processes:N``, ``ray:...``).
    ``work`` must be a module-level function, importable by the workers."""
    work = work or _play_deals
    if ray_address is not None:
        _run_ray(config, todo, ray_address, finished, work)
        return f"ray:{ray_address}"
    workers = workers or os.cpu_count() or 1
    _run_local(config, todo, workers, finished, work)
    return f"processes:{workers}"


def fill_checkpoint(config: Any, saved: Checkpoint, work: Work, *, workers: int | None = None,
                    ray_address: str | None = None, pack_to: Path | None = None) -> list[int]:
    """Play the deals of ``config`` that checkpoint ``saved`` lacks with ``work`` (a corpus tool's loop), printing the
    progress every 50 deals and, with ``pack_to``, writing the checkpoint gzipped there each time (the file to
    commit). Returns the deal numbers played."""
    todo = [d for d in range(config.deals) if d not in saved.deals]
    print(f"{len(saved.deals)} deals in {saved.path} already, {len(todo)} to play", flush=True)
    started = time.perf_counter()
    done = [0]

    def finished(chunk: list[dict[str, Any]]) -> None:
        saved.add(chunk)
        done[0] += len(chunk)
        if done[0] % 50 < len(chunk) or done[0] == len(todo):
            rate = done[0] / (time.perf_counter() - started)
            print(f"  {done[0]}/{len(todo)} deals, {rate:.2f} a second", flush=True)
            if pack_to is not None:
                pack_to.write_bytes(gzip.compress(saved.path.read_bytes(), 9, mtime=0))

    mode = run_deals(config, todo, finished, work=work, workers=workers, ray_address=ray_address)
    print(f"played {len(todo)} deals in {time.perf_counter() - started:.0f} s ({mode})")
    if pack_to is not None:
        pack_to.write_bytes(gzip.compress(saved.path.read_bytes(), 9, mtime=0))
        print(f"packed to {pack_to} ({pack_to.stat().st_size} bytes)")
    return todo


def _chunk_size(deals: int, workers: int) -> int:
    """Deals per task: small enough for a live progress bar and an even load, at least one."""
    return max(1, min(4, deals // (workers * 8)))


Finished = Callable[[list[dict[str, Any]]], None]


def _run_local(config: Any, todo: list[int], workers: int, finished: Finished, work: Work) -> None:
    if workers <= 1:
        for d in todo:
            finished(work(config, [d]))
        return
    size = _chunk_size(len(todo), workers)
    # forkserver, not fork: the caller may run threads (a server, a test runner), and a forked
    # child can inherit one of their locks held and hang
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(["skat.players.arena"])
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        pending = {pool.submit(work, config, chunk) for chunk in _chunks(todo, size)}
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for fut in done:
                finished(fut.result())


def _run_ray(config: Any, todo: list[int], address: str, finished: Finished, work: Work) -> None:
    try:
        import ray
    except ImportError:
        raise RuntimeError(
            "--ray needs Ray: install it with pip install 'skat[cluster]' (or pip install 'ray[default]')"
        ) from None
    started_here = not ray.is_initialized()
    if started_here:
        if address == "local":
            ray.init(include_dashboard=False, log_to_driver=False)
        else:
            ray.init(address=address, log_to_driver=False)
    try:
        remote = ray.remote(work)
        cpus = int(ray.cluster_resources().get("CPU", 1))
        size = _chunk_size(len(todo), cpus)
        pending = [remote.remote(config, chunk) for chunk in _chunks(todo, size)]
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for ref in done:
                finished(ray.get(ref))
    finally:
        if started_here:
            ray.shutdown()


class _NoBar:
    def update(self, k: int) -> None:
        pass

    def close(self) -> None:
        pass


def _progress_bar(total: int, enabled: bool, initial: int = 0):
    if not enabled:
        return _NoBar()
    from tqdm import tqdm  # type: ignore[import-untyped]  # its stubs (types-tqdm) are not a dependency

    return tqdm(total=total, initial=initial, unit="deal", desc="arena", smoothing=0.05)


# ----------------------------------------------------------------------- output
def plot_cumulative(summary: dict[str, Any], path: str | Path) -> Path:
    """Plot the cumulative paired difference (points per game, A minus B) over the deals."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    diffs = summary["per_deal_difference"]
    cum = []
    total = 0.0
    for x in diffs:
        total += x
        cum.append(total)
    a, b = summary["players"]
    fig, ax = plt.subplots(figsize=(8, 4.5), dpi=100)
    ax.plot(range(1, len(cum) + 1), cum, color="#1f5f8b", lw=1.4)
    ax.axhline(0, color="grey", lw=0.8)
    d = summary["difference"]
    ax.set_title(f"{a} vs {b}\n{d['mean']:+.1f} SF points/game "
                 f"(95% CI {d['ci95'][0]:+.1f} .. {d['ci95'][1]:+.1f}), {summary['deals']} duplicate deals",
                 fontsize=10)
    ax.set_xlabel("deal")
    ax.set_ylabel("sum of the per-deal differences\n(first minus second), SF points per game", fontsize=9)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    path = Path(path)
    fig.savefig(path)
    plt.close(fig)
    return path


def format_summary(summary: dict[str, Any]) -> str:
    """A short human-readable report of a match."""
    d = summary["difference"]
    lines = [f"{summary['deals']} duplicate deals ({summary['games']} games), ruleset {summary['ruleset']}, "
             f"seed {summary['seed']}, {summary.get('wall_s', 0):.1f} s"]
    if summary.get("resumed_deals"):
        lines[0] += f" ({summary['resumed_deals']} deals taken from the checkpoint)"
    width = max(14, *(len(name) + 2 for name in summary["per_player"]))  # a bot of one's own has a long name
    header = f"{'player':<{width}}{'SF/game':>9}{'declares':>10}{'decl. won':>11}{'ms/decision':>13}{'illegal':>9}"
    lines.append(header)
    for name, p in summary["per_player"].items():
        win = "-" if p["declarer_win_rate"] is None else f"{100 * p['declarer_win_rate']:.1f}%"
        lines.append(f"{name:<{width}}{p['sf_per_game']:>9.1f}{100 * p['declare_rate']:>9.1f}%{win:>11}"
                     f"{p['avg_decision_ms']:>13.2f}{p['illegal_actions']:>9}")
    a, b = summary["players"]
    solo = max(24, len(a) + 7, len(b) + 7)
    lines.append(f"difference {a} - {b}: {d['mean']:+.2f} SF points per game, "
                 f"95% CI [{d['ci95'][0]:+.2f}, {d['ci95'][1]:+.2f}] (sd {d['sd']:.1f} per deal)")
    lines.append(f"illegal actions: {summary['illegal_actions']}, passed in: {summary['passed_in']} games")

    def row(r: dict[str, Any]) -> str:
        return f"  {r['a']:<{solo}}{r['b']:<{solo}}{r['cases']:>7}{r['mean_difference']:>+11.1f}{r['share']:>+9.2f}"

    if summary.get("by_role"):
        lines.append(f"where the difference comes from (the same seat of a deal: {a} alone vs {b} alone):")
        lines.append(f"  {a + ' solo':<{solo}}{b + ' solo':<{solo}}{'cases':>7}{'diff/case':>11}{'share':>9}")
        lines += [row(r) for r in summary["by_role"]]
    if summary.get("by_game"):
        lines.append("by the kind of game (the ten largest shares):")
        lines += [row(r) for r in summary["by_game"][:10]]
    return "\n".join(lines)


def write_json(summary: dict[str, Any], path: str | Path) -> None:
    Path(path).write_text(json.dumps(summary, indent=1))
