"""Valuing a game played with real cards from what the score keeper knows (docs/rules.md 4).

The person keeping score does not see every card: he knows the declared game, the matadors ("with 2",
"without 3", or the declarer's 12 cards), the declarer's card points or only "won"/"lost" (and whether
Schneider or Schwarz was made), the bid and Kontra/Re. :func:`value_game` turns that into the
engine's :class:`skat.rules.value.Outcome` through :func:`skat.rules.value.evaluate` (the one place of
the value rules), refusing a description no game can have with a reason a person can act on
(:class:`GameInputError`); :func:`explain` writes the arithmetic in words. ``skat value`` and the score
keeper (:mod:`skat.table.keeper`) both use it.

Messages name what the person gave: ``opt`` is the prefix of the names, ``"--"`` on the command line
(``--with 5 is impossible``) and ``""`` in a keeper's file (``with 5 is impossible``).
"""

from __future__ import annotations

from typing import Any

from skat.cards import CardNotationError, mask_of
from skat.errors import SkatError
from skat.rules.contract import Contract
from skat.rules.ranking import GameType
from skat.rules.rulesets import RuleSet
from skat.rules.value import Outcome, evaluate, matador_count, matador_sequence

__all__ = ["GameInputError", "holding_with", "check_matadors", "play_of", "value_game", "game_words", "explain", "reckoning", "level_terms",
           "check_bid", "cards_mask"]


class GameInputError(SkatError, ValueError):
    """A description that no game can have; the message says why (and ``code`` with ``params`` for the
    refusals a score keeper's page words in its own language)."""

    def __init__(self, message: str, code: str = "", **params: Any) -> None:
        super().__init__(message)
        self.code = code
        self.params = params


def holding_with(game_type: GameType, with_: bool, count: int) -> int:
    """Some 12 cards (a mask) that play ``with``/``without`` ``count`` matadors in ``game_type``."""
    seq = matador_sequence(game_type)
    if with_:
        held, barred = list(seq[:count]), set(seq[count:count + 1])
    else:
        held, barred = list(seq[count:count + 1]), set(seq[:count])
    spare = [c for c in range(32) if c not in seq] + list(seq[count + 1:])
    for c in spare:
        if len(held) == 12:
            break
        if c not in barred and c not in held:
            held.append(c)
    mask = sum(1 << c for c in held)
    assert matador_count(int(game_type), mask) == (with_, count), (game_type, with_, count)
    return mask


def check_matadors(gt: GameType, with_: int | None, without: int | None, opt: str = "--") -> tuple[bool, int] | None:
    """(with, count) from "with N" or "without N"; None for Null. Refuses what the game cannot have."""
    if with_ is not None and without is not None:
        raise GameInputError(f"give {opt}with or {opt}without, not both")
    if gt == GameType.NULL:
        if with_ is not None or without is not None:
            raise GameInputError(f"a Null game has no matadors: leave out {opt}with/{opt}without")
        return None
    if with_ is None and without is None:
        raise GameInputError(f"a {gt.label} game needs its matadors: {opt}with N or {opt}without N "
                             "(count them over the 12 cards of hand and skat)")
    holding, count = (True, with_) if with_ is not None else (False, without)
    top = len(matador_sequence(gt))
    word = "with" if holding else "without"
    if not isinstance(count, int) or isinstance(count, bool) or not 1 <= count <= top:
        what = "grand has 4 matadors at most (the jacks)" if gt == GameType.GRAND else \
            "a suit game has 11 matadors at most (4 jacks and 7 trumps)"
        raise GameInputError(f"{opt}{word} {count} is impossible: {what}; the count starts at 1")
    return holding, count


def check_bid(bid: int, rules: RuleSet) -> None:
    """A bid must be on the rule set's ladder (docs/rules.md 2.1); an overbid game is still scored (4.4)."""
    if bid not in rules.bid_values:
        low = [v for v in rules.bid_values if v < bid][-1:]
        high = [v for v in rules.bid_values if v > bid][:1]
        near = " or ".join(str(v) for v in low + high)
        raise GameInputError(f"{bid} is not a bid value (bids are possible game values: {near}?)")


def value_game(contract: Contract, rules: RuleSet, *, matadors: tuple[bool, int] | None = None,
               cards: int | None = None, points: int | None = None, won: bool | None = None,
               schneider: bool = False, schwarz: bool = False, bid: int | None = None, kontra: int = 0,
               opt: str = "--") -> Outcome:
    """The outcome of a game as the score keeper describes it.

    ``matadors`` is (with, count) (:func:`check_matadors`), or ``cards`` the declarer's 12 cards (hand and
    skat, a mask); ``points`` his card points with the skat, or ``won`` True/False; ``schneider`` and
    ``schwarz`` say they were made in play (by either side). Raises :class:`GameInputError`.
    """
    gt = contract.game_type
    if bid is not None:
        check_bid(bid, rules)
    if kontra and not rules.kontra:
        raise GameInputError(f"Kontra and Re are house rules, not part of {rules.name}: use the rule set pub "
                             "or set kontra")
    if kontra == 2 and not rules.kontra_re:
        raise GameInputError(f"the {rules.name} rules have no Re")
    if points is not None and not 0 <= points <= 120:
        raise GameInputError(f"{opt}points {points} is impossible: the declarer has 0 to 120 card points",
                             "points_range", points=points)
    if gt == GameType.NULL:
        if points is not None:
            raise GameInputError(f"card points do not count in a Null game: say {opt}won (no trick) or {opt}lost")
        if schneider or schwarz:
            raise GameInputError(f"a Null game has no Schneider or Schwarz: say {opt}won or {opt}lost")
        if won is None:
            raise GameInputError(f"say {opt}won (the declarer took no trick) or {opt}lost")
        return evaluate(contract, 0, None, 0 if won else 1, bid or 0, rules, kontra_level=kontra)
    if cards is None:
        if matadors is None:
            raise GameInputError(f"a {gt.label} game needs its matadors: {opt}with N or {opt}without N")
        cards = holding_with(gt, *matadors)
    points, tricks = play_of(contract, rules, points, won, schneider or schwarz, schwarz, opt)
    outcome = evaluate(contract, cards, points, tricks, bid or 0, rules, kontra_level=kontra)
    if won is True and not outcome.won and not outcome.overbid:
        raise GameInputError(f"{opt}won contradicts the rules: {_why_lost(contract, rules, points, tricks, opt)}")
    if won is False and outcome.won:
        raise GameInputError(f"{opt}lost contradicts {points} card points: they win {game_words(contract)}"
                             + ("" if bid else f" (give {opt}bid if it was overbid)"))
    return outcome


def play_of(contract: Contract, rules: RuleSet, points: int | None, won: bool | None, schneider: bool,
            schwarz: bool, opt: str = "--") -> tuple[int, int]:
    """The declarer's card points and tricks that the description gives (suit and grand games)."""
    sp = rules.schneider_points
    if schwarz:
        if points is None:
            if won is None:
                raise GameInputError(f"{opt}schwarz: say who took every trick: {opt}won (the declarer) or "
                                     f"{opt}lost (the defenders)")
            points = 120 if won else 0
        if points == 120:
            return 120, 10
        if points <= 22:
            return points, 0
        raise GameInputError(f"{opt}schwarz with {points} card points is impossible: a declarer who takes every "
                             "trick has all 120, one who takes none only the skat's (22 at most)")
    if won and contract.schwarz:
        # a won game with Schwarz announced (or ouvert) took every trick
        if points is not None and points != 120:
            raise GameInputError(f"{opt}won with {points} card points is impossible for {game_words(contract)}: "
                                 "Schwarz was announced, so the declarer must take every trick (all 120 card points)")
        return 120, 10
    if schneider:
        if points is None:
            if won is None:
                raise GameInputError(f"{opt}schneider: say {opt}won (the defenders have 30 or fewer) or {opt}lost "
                                     f"(the declarer has), or give {opt}points")
            points = sp if won else 30
        elif 30 < points < sp:
            raise GameInputError(f"{opt}schneider with {points} card points is impossible: Schneider means one side "
                                 f"has 30 or fewer, so the declarer {sp} or more, or 30 or fewer")
    elif points is None:
        if won is None:
            raise GameInputError(f"say how the game went: {opt}points N (the declarer's card points, skat included) "
                                 f"or {opt}won/{opt}lost")
        points = (sp if contract.schneider else 61) if won else 60
    return points, 5


def _why_lost(contract: Contract, rules: RuleSet, points: int, tricks: int, opt: str) -> str:
    if points <= 60:
        return f"{points} card points lose; the declarer needs 61"
    if contract.schwarz and tricks < 10:
        return f"{game_words(contract)} announces Schwarz: the declarer must take every trick (say {opt}schwarz)"
    return (f"{game_words(contract)} announces Schneider: the declarer needs {rules.schneider_points} card points, "
            f"not {points}")


def game_words(contract: Contract) -> str:
    """The declared game in words: ``grand hand``, ``spades hand schneider announced``, ``clubs ouvert``."""
    words = [contract.game_type.label]
    if contract.ouvert and not contract.is_null:
        return " ".join(words + ["ouvert"])
    if contract.hand:
        words.append("hand")
    if contract.ouvert:
        words.append("ouvert")
    elif contract.schwarz:
        words.append("schwarz announced")
    elif contract.schneider:
        words.append("schneider announced")
    return " ".join(words)


def level_terms(outcome: Outcome, rules: RuleSet) -> list[tuple[int, str]]:
    """The levels of a suit or grand game, one (count, level) each: (2, "matadors"), (1, "game"), (1, "hand"),
    ... in the order players count them (docs/rules.md 4.2); they add up to the multiplier."""
    c = outcome.contract
    old_ouvert = rules.grand_ouvert_base36 and c.game_type == GameType.GRAND and c.ouvert
    terms = [(outcome.matadors or 0, "matadors"), (1, "game")]
    for on, word in ((c.hand, "hand"), (outcome.schneider or c.schneider, "schneider"),
                     (c.schneider, "schneider_announced"), (outcome.schwarz or c.schwarz, "schwarz"),
                     (c.schwarz, "schwarz_announced"), (c.ouvert and not old_ouvert, "ouvert")):
        if on:
            terms.append((1, word))
    assert sum(n for n, _ in terms) == outcome.multiplier, (terms, outcome)
    return terms


def _levels(outcome: Outcome, rules: RuleSet) -> list[str]:
    """The levels in words, one term each: ``2``, ``1 game``, ``1 hand``, ``1 schneider announced``..."""
    return [str(n) if word == "matadors" else f"{n} {word.replace('_', ' ')}" for n, word in level_terms(outcome, rules)]


def reckoning(outcome: Outcome, rules: RuleSet, points: int | None, kontra: int = 0,
              won: bool | None = None) -> dict[str, Any]:
    """What :func:`explain` says, as data for a page that words it in its own language: the game (``kind``
    ``null`` or ``suit`` for suit and grand games), ``levels`` ([count, level], see :func:`level_terms`),
    ``base``, ``value``, how it ended (``won``, ``overbid`` and ``lost_at``, ``points``, ``made``: Schneider or
    Schwarz made in play, ``by_declarer``, ``missed``: an announcement not made), and the entry (``factor``
    for a lost game, ``kontra`` 0/1/2, ``score``)."""
    c = outcome.contract
    out: dict[str, Any] = {"kind": "null" if c.is_null else "suit", "value": outcome.game_value,
                           "won": outcome.won, "overbid": outcome.overbid, "bid": outcome.bid, "points": points,
                           "kontra": kontra, "score": outcome.score,
                           "factor": 1 if outcome.won else (rules.lost_hand_game_factor if c.hand
                                                            else rules.lost_game_factor)}
    if c.is_null:
        out["lost_at"] = outcome.game_value if outcome.overbid else None
        return out
    out.update(levels=[[n, w] for n, w in level_terms(outcome, rules)], base=outcome.base_value,
               matadors_with=outcome.matadors_with, matadors=outcome.matadors)
    made = [w for w, on in (("schneider", outcome.schneider), ("schwarz", outcome.schwarz)) if on]
    out["made"] = made
    out["by_declarer"] = bool(made) and outcome.declarer_points is not None and outcome.declarer_points > 30
    base = outcome.base_value or 1
    out["lost_at"] = base * -(-outcome.bid // base) if outcome.overbid else None
    out["played_won"] = bool(won) if outcome.overbid else None
    missed = None
    if not outcome.won and not outcome.overbid and (points is None or points >= 61) and (c.schneider or c.schwarz):
        missed = "schwarz" if c.schwarz else "schneider"
    out["missed"] = missed
    return out


def _entry(outcome: Outcome, rules: RuleSet, amount: int, kontra: int) -> str:
    """The score-sheet entry with its arithmetic: ``+96``, ``-2 × 48 = -96``, ``-2 × 27 × 2 (Kontra) = -108``."""
    if outcome.won:
        terms = f"+{amount}"
    else:
        factor = rules.lost_hand_game_factor if outcome.contract.hand else rules.lost_game_factor
        terms = f"-{factor} × {amount}" if factor > 1 else f"-{amount}"
    if kontra:
        terms += f" × {2 ** kontra} ({'Kontra' if kontra == 1 else 'Kontra and Re'})"
    return terms if terms == f"{outcome.score:+d}" else f"{terms} = {outcome.score:+d}"


def explain(outcome: Outcome, rules: RuleSet, points: int | None, kontra: int = 0, won: bool | None = None) -> str:
    """One line in words: the value with its levels, then how the game ended and the entry."""
    c = outcome.contract
    if c.is_null:
        head = f"{game_words(c)}: fixed value {outcome.game_value}"
        lost_at = outcome.game_value
        if outcome.overbid:
            return f"{head}, bid {outcome.bid}: overbid, lost: {_entry(outcome, rules, lost_at, kontra)}"
        how = "won (no trick)" if outcome.won else "lost (a trick)"
        return f"{head}, {how}: {_entry(outcome, rules, lost_at, kontra)}"
    word = "with" if outcome.matadors_with else "without"
    head = (f"{game_words(c)} {word} {outcome.matadors}: ({' + '.join(_levels(outcome, rules))}) × "
            f"{outcome.base_value} = {outcome.game_value}")
    played = "" if points is None else f" with {points} card points"
    made = " and ".join(w for w, on in (("Schneider", outcome.schneider), ("Schwarz", outcome.schwarz)) if on)
    if made:
        declarer_made = outcome.declarer_points is not None and outcome.declarer_points > 30
        played += f", {made}" if declarer_made else f", the declarer {made}"
    if outcome.overbid:
        base = outcome.base_value or 1
        lost_at = base * -(-outcome.bid // base)
        note = f" (played{played})" if played else " (won in play)" if won else ""
        tail = f", bid {outcome.bid}: overbid, lost at {lost_at // base} × {base} = {lost_at}{note}"
        return f"{head}{tail}: {_entry(outcome, rules, lost_at, kontra)}"
    if outcome.won:
        return f"{head}, won{played}: {_entry(outcome, rules, outcome.game_value, kontra)}"
    missed = ""
    if (points is None or points >= 61) and (c.schneider or c.schwarz):
        missed = ", Schwarz announced not made" if c.schwarz else ", Schneider announced not made"
    return f"{head}, lost{played}{missed}: {_entry(outcome, rules, outcome.game_value, kontra)}"


def cards_mask(cards: object, opt: str = "") -> int:
    """The declarer's 12 cards (hand and skat) as a mask, from a list or a string of card names."""
    if not isinstance(cards, (list, tuple, str)):
        raise GameInputError(f"{opt}cards must be a list of 12 cards such as [\"CJ\", \"SA\", ...]")
    try:
        mask = mask_of(cards)
    except (CardNotationError, ValueError) as exc:
        raise GameInputError(f"{opt}cards: {exc}") from None
    if mask.bit_count() != 12:
        raise GameInputError(f"{opt}cards must hold the declarer's 12 cards (hand plus skat or the two put away), "
                             f"got {mask.bit_count()}")
    return mask
