"""Learn Skat: guided deals with chosen cards in which every step says what the rule is and why.

A lesson is one deal with fixed hands and skat, the learner at one seat and a *script*: the actions of the whole
deal as a good player would make them. The computer seats play the script while the deal follows it and a
computer player (``heuristic``, seeded) where the learner went another way; the learner may make any legal
action and is shown the script's one as a suggestion, with its reason.

:func:`step` is a pure function of the lesson and the learner's actions so far: it replays the deal (a few dozen
actions, well under a millisecond each) and returns what the learner may know (their :class:`SeatView`), every
event of the deal so far with its explanation, the learner's current decision with its rule, why each card the
learner may not play cannot be played, and at the end the game's value reckoned step by step. Nothing is stored:
the browser keeps the actions and sends them again (the server's ``POST /api/learn/{lesson}``).

Explanations are not prose but ``{"key": ..., "params": {...}}`` items that the page says in its language (the
``learn`` section of the catalogs). Every fact in them comes from the rule functions themselves:
:func:`skat.rules.ranking.legal_cards` (following suit), :func:`skat.rules.ranking.trick_winner`,
:func:`skat.rules.value.matadors` and :func:`skat.rules.value.evaluate` (the value), so a lesson can never teach
something the engine does not do. Params named ``card`` or ``cards`` are card names (``CJ``), ``suit`` a suit or
``trump``, ``game`` a game type's name, ``who`` a seat (0 forehand, 1 middlehand, 2 rearhand).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from skat.cards import Card, CardSet, card_points, mask_names
from skat.deal.game import Game, Phase, SeatView
from skat.enums import GameType
from skat.errors import IllegalActionError
from skat.players.heuristic import HeuristicPlayer
from skat.records.wire import seat_view_to_json
from skat.rules.actions import Action
from skat.rules.ranking import TRUMP_MASK, display_order, legal_cards, trick_winner
from skat.rules.value import matador_sequence, matadors, overbid_loss_value

__all__ = ["Lesson", "LESSONS", "LessonError", "step", "BID_LADDER"]

Explanation = dict[str, Any]

BID_LADDER = (18, 20, 22, 23, 24, 27, 30, 33, 35, 36, 40, 44, 45, 46, 48, 50, 54, 55, 59, 60)
"""The first bids of the ladder (every value a game can have, from the lowest up)."""

_SUITS = {GameType.DIAMONDS: "diamonds", GameType.HEARTS: "hearts", GameType.SPADES: "spades",
          GameType.CLUBS: "clubs"}
_SUIT_OF_CARD = ("diamonds", "hearts", "spades", "clubs")


class LessonError(ValueError):
    """An unknown lesson, or an action that is not the learner's to make (``index``: which of the actions)."""

    def __init__(self, code: str, message: str, index: int | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.index = index


@dataclass(frozen=True)
class Lesson:
    """One guided deal: the hands of forehand, middlehand and rearhand, the skat, the learner's seat, the script
    (every seat's action tokens in order) and the topics it teaches (keys of the catalogs' ``learn`` section)."""

    id: str
    hands: tuple[str, str, str]
    skat: str
    learner: int
    script: tuple[str, ...]
    topics: tuple[str, ...]

    def game(self) -> Game:
        """The deal at its start."""
        return Game(hands=list(self.hands), skat=self.skat)


LESSONS: dict[str, Lesson] = {lesson.id: lesson for lesson in (
    # The scripts' card play is the strong computer players' own (tools: play the script's start, then
    # ``make_player("strong", seed)`` at every seat), frozen here so that a lesson never changes with the players.
    Lesson(
        id="first-game",
        hands=("CJ SJ CA CT CK C8 HA HK SA D7", "HJ DJ DA DK DQ D9 D8 ST S9 H9",
               "CQ C9 SK SQ S8 S7 HT HQ H8 H7"),
        skat="DT C7", learner=0,
        script=("18", "hold", "20", "hold", "22", "hold", "23", "hold", "24", "hold", "27", "hold", "pass", "pass",
                "pickup", "discard D7 DT", "declare clubs",
                "SJ", "DJ", "C9", "CJ", "HJ", "CQ", "HA", "H9", "H7", "SA", "S9", "S7", "HK", "D8", "HT", "HQ",
                "C7", "D9", "C8", "DK", "H8", "CK", "DQ", "S8", "CT", "DA", "SQ", "CA", "ST", "SK"),
        topics=("topicAuction", "topicSkat", "topicFollow", "topicTrick", "topicValue", "topicSchneider")),
    Lesson(
        id="defending",
        hands=("SJ DJ SA SK SQ S9 S8 CA HK D7", "CJ HJ ST S7 HA HT CT C9 DA D8",
               "CK CQ C8 C7 HQ H9 H8 DT DK DQ"),
        skat="H7 D9", learner=1,
        script=("pass", "18", "hold", "20", "hold", "pass", "pickup", "discard D7 D9", "declare spades",
                "S8", "ST", "DT", "DA", "DK", "SQ", "S9", "HJ", "CK", "HA", "HQ", "H7", "CJ", "DQ", "DJ", "S7",
                "H8", "SK", "CA", "C9", "C7", "HK", "HT", "H9", "CT", "C8", "SA", "SJ", "D8", "CQ"),
        topics=("topicPartner", "topicFollow", "topicTrumps", "topicSmear", "topicCount")),
    Lesson(
        id="overbid",
        hands=("HJ CA CT CK C9 C8 HA HT SA D8", "DJ ST SK SQ S9 S8 S7 H9 H8 D7",
               "CJ CQ HK HQ H7 DA DT DK DQ D9"),
        skat="SJ C7", learner=0,
        script=("18", "hold", "20", "hold", "22", "hold", "23", "hold", "24", "hold", "27", "hold", "30", "hold",
                "33", "hold", "pass", "pass", "pickup", "discard D8 HT", "declare grand",
                "HA", "H8", "H7", "SA", "SK", "CJ", "HQ", "HJ", "H9", "SJ", "DJ", "D9", "CA", "D7", "CQ", "CT",
                "S7", "DQ", "CK", "S8", "DK", "C7", "S9", "HK", "C8", "SQ", "DT", "C9", "ST", "DA"),
        topics=("topicWithout", "topicOverbid", "topicGrand")),
)}
"""The lessons by id, in the order a newcomer takes them."""


def step(lesson_id: str, actions: Sequence[str]) -> dict[str, Any]:
    """The lesson after the learner's ``actions`` (action tokens, in order): see the module's description.

    Raises :class:`LessonError` for an unknown lesson (``unknown_lesson``), for more actions than the deal has
    room for (``not_your_turn``) and for an action that is not legal when it comes (``illegal_action``, with the
    rule that forbids it)."""
    lesson = LESSONS.get(lesson_id)
    if lesson is None:
        raise LessonError("unknown_lesson", f"there is no lesson {lesson_id!r}; the lessons are {', '.join(LESSONS)}")
    game = lesson.game()
    computers = {seat: HeuristicPlayer(seed=seat) for seat in range(3) if seat != lesson.learner}
    events: list[dict[str, Any]] = []
    done: list[str] = []  # every seat's tokens so far
    taken = 0
    while not game.is_over:
        seat = game.to_move
        assert seat is not None
        view = game.view(seat)
        on_script = len(done) < len(lesson.script) and done == list(lesson.script[:len(done)])
        scripted = lesson.script[len(done)] if on_script else None
        if seat == lesson.learner:
            if taken == len(actions):
                break
            action = _parse(game, actions[taken], taken)
            if action not in view.legal_actions:
                raise LessonError("illegal_action", _illegal_message(game, view, action), taken)
            taken += 1
        else:
            action = _scripted(game, view, scripted) or computers[seat].choose(view)
        before = _before(game)
        game.apply(action, seat)
        token = str(action)
        done.append(token)
        events.append({"seat": seat, "action": token, "explain": _explain_event(game, lesson, seat, action, before)})
    if taken < len(actions):
        raise LessonError("not_your_turn", f"action {taken + 1} ({actions[taken]!r}) comes after the deal is over "
                          "or out of turn", taken)
    view = game.view(lesson.learner)
    shown = seat_view_to_json(view)
    # the hand as the table shows it: trumps first, then suit by suit (the game's order once it is declared)
    shown["hand"] = [c.name for c in display_order(view.hand, view.contract.game_type if view.contract else None)]
    answer: dict[str, Any] = {
        "lesson": lesson.id, "lessons": list(LESSONS), "topics": list(lesson.topics), "seat": lesson.learner,
        "view": shown, "events": events, "over": game.is_over,
    }
    if game.is_over:
        answer["result"] = _explain_result(game, lesson)
    elif game.to_move == lesson.learner:
        on_script = len(done) < len(lesson.script) and done == list(lesson.script[:len(done)])
        answer["prompt"] = _explain_decision(game, view, lesson)
        answer["suggestion"] = _suggestion(game, view, lesson.script[len(done)] if on_script else None)
        answer["illegal"] = _illegal_cards(game, view)
    return answer


# ------------------------------------------------------------------ replaying
def _parse(game: Game, token: str, index: int) -> Action:
    if not isinstance(token, str):
        raise LessonError("bad_action", f"action {index + 1} must be an action token such as 18, hold or CJ", index)
    try:
        return game.parse_action(token)
    except IllegalActionError as exc:
        raise LessonError("bad_action", f"action {index + 1}: {exc}", index) from None


def _scripted(game: Game, view: SeatView, token: str | None) -> Action | None:
    """The script's action if it is legal now (the deal may have left the script)."""
    if token is None:
        return None
    try:
        action = game.parse_action(token)
    except IllegalActionError:
        return None
    return action if action in view.legal_actions else None


def _illegal_message(game: Game, view: SeatView, action: Action) -> str:
    card = getattr(action, "card", None)
    if card is not None and view.phase == Phase.PLAY and view.contract is not None and view.trick:
        lead = view.trick[0][1]
        follow = _follow_name(int(view.contract.game_type), int(lead))
        return f"{Card(card).name} may not be played: {Card(lead).name} was led and you have {follow} to follow with"
    return f"{action} is not one of your choices now"


# ------------------------------------------------------------------ explanations
def _e(key: str, **params: Any) -> Explanation:
    return {"key": key, "params": params}


def _follow_name(gt: int, card: int) -> str:
    """What a card asks to follow in game type ``gt``: ``trump`` or its suit's name."""
    if gt != GameType.NULL and TRUMP_MASK[gt] >> card & 1:
        return "trump"
    return _SUIT_OF_CARD[Card(card).suit]


def _before(game: Game) -> dict[str, Any]:
    """What an event's explanation needs of the deal before it (the bid, the trick on the table)."""
    view = game.view(game.to_move) if game.to_move is not None else None
    return {"bid": game.view(0).bid, "trick": list(view.trick) if view else [], "phase": view.phase if view else None}


def _explain_event(game: Game, lesson: Lesson, seat: int, action: Action, before: dict[str, Any]) -> list[Explanation]:
    token = str(action)
    phase = before["phase"]
    learner = seat == lesson.learner
    if phase == Phase.BIDDING:
        return _explain_bid(game, lesson, seat, token, before["bid"])
    if token == "pickup":
        view = game.view(seat)
        return [_e("pickedUp", who=seat, cards=mask_names(view.skat.mask) if learner and view.skat else [])]
    if token.startswith("discard"):
        cards = token.split()[1:]
        return [_e("discarded", who=seat, cards=cards if learner else [], points=card_points(cards) if learner else None)]
    if token.startswith("declare"):
        contract = game.view(seat).contract
        assert contract is not None
        out = [_e("declared", who=seat, game=contract.game_type.name.lower(), hand=contract.hand)]
        gt = int(contract.game_type)
        if gt in _SUITS:
            out.append(_e("trumpsSuit", suit=_SUITS[GameType(gt)]))
        elif gt == GameType.GRAND:
            out.append(_e("trumpsGrand"))
        elif gt == GameType.NULL:
            out.append(_e("trumpsNull"))
        return out
    card = getattr(action, "card", None)
    if card is not None:
        return _explain_card(game, seat, int(card), before["trick"])
    return []


def _explain_bid(game: Game, lesson: Lesson, seat: int, token: str, bid_before: int) -> list[Explanation]:
    if token == "pass":
        out = [_e("passes", who=seat)]
    elif token == "hold":
        out = [_e("holds", who=seat, v=bid_before)]
    else:
        out = [_e("bids", who=seat, v=int(token))]
        if bid_before == 0:
            out.append(_e("bidMeaning", v=int(token), ladder=" ".join(map(str, BID_LADDER[:10]))))
    view = game.view(lesson.learner)
    if view.phase != Phase.BIDDING and view.declarer is not None:
        out.append(_e("auctionWon", who=view.declarer, v=view.bid))
    elif view.phase != Phase.BIDDING and view.declarer is None:
        out.append(_e("allPassed"))
    return out


def _explain_card(game: Game, seat: int, card: int, trick_before: list[tuple[int, int]]) -> list[Explanation]:
    view = game.view(seat)
    contract = view.contract
    assert contract is not None
    gt = int(contract.game_type)
    out: list[Explanation] = []
    if trick_before:
        lead = int(trick_before[0][1])
        led, played = _follow_name(gt, lead), _follow_name(gt, card)
        if played != led:
            out.append(_e("couldNotFollow", who=seat, card=Card(card).name, suit=led,
                          trump=played == "trump"))
    if len(trick_before) == 2:  # the trick is complete: who takes it and why
        cards = [int(c) for _, c in trick_before] + [card]
        seats = [s for s, _ in trick_before] + [seat]
        w = trick_winner(GameType(gt), cards)
        out.append(_e("trickTaken", who=seats[w], card=Card(cards[w]).name, why=_why_winner(gt, cards, w),
                      points=card_points(cards), cards=[Card(c).name for c in cards]))
    return out


def _why_winner(gt: int, cards: list[int], w: int) -> str:
    """Why ``cards[w]`` takes the trick: the key of the reason."""
    names = [_follow_name(gt, c) for c in cards]
    led, won = names[0], names[w]
    if won == "trump" and led != "trump":
        return "whyTrumped" if sum(n == "trump" for n in names) == 1 else "whyHighestTrump"
    if won == "trump":
        return "whyHighestTrump"
    if sum(n == led for n in names) == 1:
        return "whyNobodyFollowed"
    return "whyHighestOfSuit"


def _explain_decision(game: Game, view: SeatView, lesson: Lesson) -> list[Explanation]:
    """What the learner decides now and the rule for it."""
    phase = view.phase
    if phase == Phase.BIDDING:
        out = []
        if view.bid == 0 and not any(t not in ("pass",) for _, t in view.auction):
            out.append(_e("decideFirstBid"))
        else:
            out.append(_e("decideBid", v=view.bid))
        out.append(_own_value(view))
        return out
    if phase == Phase.SKAT:
        return [_e("decideSkat")]
    if phase == Phase.DISCARD:
        return [_e("decideDiscard")]
    if phase == Phase.DECLARE:
        return [_e("decideDeclare", v=view.bid), _own_value(view)]
    if phase == Phase.PLAY and view.contract is not None:
        gt = int(view.contract.game_type)
        if not view.trick:
            return [_e("decideLead"), _e("cardPoints")] if not view.tricks else [_e("decideLead")]
        lead = int(view.trick[0][1])
        follow = _follow_name(gt, lead)
        legal = legal_cards(GameType(gt), view.hand, [c for _, c in view.trick])
        if all(_follow_name(gt, int(c)) != follow for c in legal):
            return [_e("decideCannotFollow", card=Card(lead).name, suit=follow)]
        return [_e("decideFollow", card=Card(lead).name, suit=follow, cards=mask_names(legal.mask))]
    return []


def _game_values(cards: CardSet, bid: int) -> list[dict[str, Any]]:
    """What each suit game and the grand would be worth with ``cards`` (the hand; after picking up, the hand and
    the skat: the twelve cards that decide the matadors) if won plainly: matadors with or without, levels
    (matadors + 1 for the game), the base value, the value, whether it reaches ``bid``, and its value with
    Schneider (one level more). Suit games with fewer than five trumps are left out, and grands without three jacks (or two jacks
    and three aces)."""
    out: list[dict[str, Any]] = []
    for gt in (GameType.CLUBS, GameType.SPADES, GameType.HEARTS, GameType.DIAMONDS, GameType.GRAND):
        with_, n = matadors(gt, cards)
        trumps = len(CardSet.from_mask(cards.mask & TRUMP_MASK[gt]))
        aces = sum(1 for c in cards if Card(c).rank == 7)
        if gt == GameType.GRAND and not (trumps >= 3 or (trumps == 2 and aces >= 3)):
            continue  # a rule of thumb: a grand wants three jacks, or two and three aces
        if gt != GameType.GRAND and trumps < 5:
            continue
        value = (n + 1) * gt.base_value
        out.append({"game": gt.name.lower(), "mat": n, "matWith": with_, "levels": n + 1, "base": gt.base_value,
                    "v": value, "enough": value >= bid, "schneider": value + gt.base_value})
    out.sort(key=lambda g: -g["v"])
    return out


def _own_value(view: SeatView) -> Explanation:
    """The learner's games and their values: while bidding by the ten cards in hand, when declaring by the twelve
    (the hand and the two cards put away), each against the bid."""
    cards = view.hand
    if view.phase == Phase.DECLARE and view.discard is not None:
        cards = cards | view.discard
    games = _game_values(cards, max(view.bid, 18))
    if not games:
        return _e("ownValueNone")
    return _e("ownValue" if view.phase == Phase.BIDDING else "ownValueNow", games=games, bid=view.bid)


def _suggestion(game: Game, view: SeatView, scripted: str | None) -> dict[str, Any]:
    """The action the lesson suggests (the script's, or a computer player's where the deal left the script)."""
    action = _scripted(game, view, scripted)
    source = "script"
    if action is None:
        action = HeuristicPlayer(seed=view.seat).choose(view)
        source = "computer"
    return {"action": str(action), "source": source, "why": _why_suggested(view, action, source)}


def _why_suggested(view: SeatView, action: Action, source: str) -> list[Explanation]:
    token = str(action)
    if source == "computer":
        return [_e("suggestComputer")]
    if view.phase == Phase.BIDDING:
        return [_e("suggestPass")] if token == "pass" else [_e("suggestHold")]
    if token == "pickup":
        return [_e("suggestPickup")]
    if token.startswith("discard"):
        cards = token.split()[1:]
        return [_e("suggestDiscard", cards=cards, points=card_points(cards))]
    if token.startswith("declare"):
        return [_e("suggestDeclare")]
    card = getattr(action, "card", None)
    if card is not None and view.contract is not None:
        gt = int(view.contract.game_type)
        if not view.trick and _follow_name(gt, int(card)) == "trump" and view.declarer == view.seat:
            return [_e("suggestDrawTrumps")]
        if view.trick:
            in_trick = [int(c) for _, c in view.trick] + [int(card)]
            w = trick_winner(GameType(gt), in_trick)
            winner_seat = [s for s, _ in view.trick][w] if w < len(view.trick) else view.seat
            partner = view.declarer is not None and view.seat != view.declarer and winner_seat != view.declarer
            if winner_seat == view.seat:
                return [_e("suggestTake")]
            if partner and Card(card).rank in (3, 7):  # a ten or an ace to the partner's trick
                return [_e("suggestSmear")]
            return [_e("suggestLow")]
        return [_e("suggestLead")]
    return []


def _illegal_cards(game: Game, view: SeatView) -> dict[str, list[Explanation]]:
    """Why each card of the learner's hand may not be played now (only while a trick is led to)."""
    if view.phase != Phase.PLAY or not view.trick or view.contract is None:
        return {}
    gt = int(view.contract.game_type)
    lead = int(view.trick[0][1])
    legal = legal_cards(GameType(gt), view.hand, [c for _, c in view.trick])
    follow = _follow_name(gt, lead)
    out = {}
    for c in view.hand:
        if int(c) in legal:
            continue
        key = "illegalJackIsTrump" if Card(c).rank == 4 and gt != GameType.NULL and follow != "trump" \
            else "illegalMustFollow"
        out[Card(c).name] = [_e(key, card=Card(c).name, led=Card(lead).name, suit=follow,
                                cards=mask_names(legal.mask))]
    return out


def _explain_result(game: Game, lesson: Lesson) -> list[Explanation]:
    """The game's value reckoned step by step, from the rule functions' own outcome."""
    view = game.view(lesson.learner)
    result = view.result
    if result is None or result.outcome is None:
        return [_e("resultPassed")]
    outcome = result.outcome
    contract = outcome.contract
    gt = contract.game_type
    out: list[Explanation] = []
    declarer = result.declarer
    if gt == GameType.NULL:
        out.append(_e("resultNull", who=declarer, won=outcome.won, tricks=outcome.declarer_tricks))
    else:
        out.append(_e("resultPoints", who=declarer, points=outcome.declarer_points, won=outcome.won,
                      defenders=120 - (outcome.declarer_points or 0)))
        top = [Card(c).name for c in matador_sequence(gt)]
        out.append(_e("resultMatadors", mat=outcome.matadors, matWith=outcome.matadors_with,
                      cards=top[:outcome.matadors]))
        levels = [_e("levelMatadors", n=outcome.matadors), _e("levelGame")]
        if contract.hand:
            levels.append(_e("levelHand"))
        if outcome.schneider:
            levels.append(_e("levelSchneider"))
        if contract.schneider:
            levels.append(_e("levelSchneiderAnnounced"))
        if outcome.schwarz:
            levels.append(_e("levelSchwarz"))
        if contract.schwarz:
            levels.append(_e("levelSchwarzAnnounced"))
        out.append(_e("resultLevels", levels=levels, total=outcome.multiplier))
    out.append(_e("resultValue", levels=outcome.multiplier, base=outcome.base_value, game=gt.name.lower(),
                  v=outcome.game_value))
    if outcome.overbid:
        lost_at = (outcome.game_value if gt == GameType.NULL
                   else overbid_loss_value(outcome.bid, outcome.base_value or gt.base_value))
        out.append(_e("resultOverbid", bid=outcome.bid, worth=outcome.game_value, base=outcome.base_value, v=lost_at))
    out.append(_e("resultScore", won=outcome.won, v=outcome.game_value, score=outcome.score))
    return out
