"""Hints for the person at the table, computed from that seat's own view only.

* :func:`bid_estimate`: how high the hand can go in the auction (the heuristic player's estimate).
* :func:`contract_values`: the value of every contract the declarer may announce now.
* :func:`auction_turn`: what the seat to move in the auction is asked (public: it follows from the bids said).
* :func:`card_hint`: the card the ``strong`` computer player would play in the seat's place, with a short reason
  (the ``hint`` message of docs/protocol.md).
* :func:`declarer_hint`: the declarer's choice the ``strong`` computer player would make in the seat's place: pick up
  the skat or play a hand game, the two cards to put away, the game to declare, with the chance its model gives.
* :func:`table_hint`: the hint for the seat's turn, whichever of these it is.
"""

from __future__ import annotations

import functools
import hashlib
import logging
from typing import Any

import orjson

from skat.cards import Card, CardSet, mask_points, suit_mask
from skat.cards import cards as card_set
from skat.deal.game import Phase, SeatView
from skat.rules.actions import Bid, Declare, Discard, Hold, Pass, PickUp, Play
from skat.rules.contract import Contract, null_value
from skat.rules.ranking import POWER, TRUMP_MASK, GameType, winner_index
from skat.rules.value import BASE_VALUES, matadors, multiplier

__all__ = ["bid_estimate", "contract_values", "contract_value", "auction_turn", "card_hint", "hint_reason",
           "declarer_hint", "declarer_hint_possible", "table_hint", "hint_possible", "HINT_LEVEL", "HINT_TEXTS"]

log = logging.getLogger("skat.server.hints")

HINT_LEVEL = "strong"
"""The computer player whose card a hint suggests (:data:`skat.players.levels.LEVELS`)."""


def bid_estimate(hand: CardSet) -> dict[str, Any]:
    """How high a 10-card hand can bid: the best game and its value by the heuristic player's judgment
    (:func:`skat.players.heuristic.best_game`: positive expected score, with the skat's expected help
    when picking up); ``value`` 0 means pass. A hand game is advised only when it promises more than
    picking up the skat. The reasons for one line: ``p`` (the chance to win, per cent), ``matadors``
    (``{"with", "count"}``; None for Null), ``trumps`` (None for Null), ``aces``, ``tens``."""
    return dict(_bid_estimate(hand.mask))


_ACES = card_set("CA SA HA DA").mask
_TENS = card_set("CT ST HT DT").mask


@functools.lru_cache(maxsize=4096)  # a hand is asked for at every bid of its auction (about 0.2 ms each)
def _bid_estimate(mask: int) -> dict[str, Any]:
    from skat.players.heuristic import best_game

    pickup = best_game(mask, hand_game=False, skat_bonus=0.7)
    hand = best_game(mask, hand_game=True, skat_bonus=0.0)
    best = hand if hand.score > pickup.score else pickup
    gt = best.contract.game_type
    reasons: dict[str, Any] = {"p": round(best.p * 100), "matadors": None, "trumps": None,
                               "aces": (mask & _ACES).bit_count(), "tens": (mask & _TENS).bit_count()}
    if not best.contract.is_null:
        with_, count = matadors(gt, mask)
        reasons |= {"matadors": {"with": with_, "count": count}, "trumps": (mask & TRUMP_MASK[int(gt)]).bit_count()}
    if best.score <= 0:
        return {"value": 0, "game": None, "hand": False, **reasons}
    return {"value": best.value, "game": gt.label, "hand": best.contract.hand, **reasons}


def contract_value(contract: Contract, known: int, exact: bool) -> dict[str, Any]:
    """The value of ``contract`` from the cards the declarer knows (``known``: hand plus skat
    or discard; for a hand game only the 10 cards, so the value is ``exact=False``)."""
    if contract.is_null:
        return {"token": "declare " + str(contract), "contract": contract.to_json(),
                "value": null_value(contract.hand, contract.ouvert), "exact": True, "matadors": None}
    gt = contract.game_type
    with_, count = matadors(gt, known)
    levels = multiplier(count, contract.hand, False, contract.schneider, False, contract.schwarz, contract.ouvert)
    return {
        "token": "declare " + str(contract),
        "contract": contract.to_json(),
        "value": levels * gt.base_value,
        "exact": exact,
        "matadors": {"with": with_, "count": count},
    }


def contract_values(view: SeatView) -> list[dict[str, Any]]:
    """Values of the declarable contracts in this view (declarer only, skat and declare phases)."""
    if view.phase not in (Phase.SKAT, Phase.DECLARE) or view.declarer != view.seat:
        return []
    known = view.hand.mask | (view.discard.mask if view.discard is not None else 0)
    exact = view.phase is Phase.DECLARE
    out = []
    for action in view.legal_actions:
        contract = getattr(action, "contract", None)
        if contract is not None:
            out.append(contract_value(contract, known, exact))
    return out


def auction_turn(game: Any, bid: int) -> dict[str, Any] | None:
    """What the seat to move in the auction is asked, for every seat and spectator to show: ``{"seat", "asks",
    "value"}`` with ``asks`` "hold" (answer ``value`` with yes or pass), "bid" (say ``value`` or more, or pass)
    or "play" (forehand after two passes: play at ``value``, the lowest bid, or pass it in); ``bid`` is the
    value said so far (the views' ``bid``). None outside the auction."""
    if game.phase is not Phase.BIDDING or game.to_move is None:
        return None
    seat = game.to_move
    legal = game.legal_actions(seat)
    if any(isinstance(a, Hold) for a in legal):
        return {"seat": seat, "asks": "hold", "value": bid}
    bids = [a.value for a in legal if isinstance(a, Bid)]
    if not bids:
        return None
    passes = sum(1 for _, a in game.history if isinstance(a, Pass))
    asks = "play" if len(bids) == 1 and passes >= 2 else "bid"
    return {"seat": seat, "asks": asks, "value": bids[0]}


# ------------------------------------------------------------------ the card-play hint
HINT_TEXTS: dict[str, str] = {
    "only": "the only card you may play",
    "take": "take the trick: {points} points in it",
    "smear": "smear points to your partner: the {card} adds {points}",
    "partner_takes": "your partner takes the trick",
    "lost": "lowest card: the trick is lost",
    "stay_under": "stay under: the {card} does not take the trick",
    "null_catch": "the declarer has to take this trick",
    "trump_out": "lead trump: draw the defenders' trumps ({n} still out)",
    "cash": "the {card} is the highest card left in its suit",
    "search_win": "wins the game in {k} of {n} sampled deals",
    "search_beat": "beats the game in {k} of {n} sampled deals",
    "search_avg": "the best card on average over {n} sampled deals",
    "search_equal": "every card does as well over {n} sampled deals",
    "rule_of_thumb": "the computer player's rule of thumb",
    "pickup": "pick up the skat, then play {contract} most likely",
    "pickup_only": "pick up the skat: no hand game is worth more",
    "hand_game": "play {contract} without the skat",
    "discard_for": "put these two away and play {contract}",
    "declare": "{contract} is the best game with these cards",
    "win_chance": "wins about {p}% of such deals",
    "overbid": "no game reaches the bid: this one loses least",
}
"""The English form of each part of a hint's reason (``why``: ``{"key", ...params}``; the page translates them)."""


def view_seed(view: SeatView) -> int:
    """A seed drawn from the view alone: the same view samples the same worlds, whatever the hidden cards are."""
    from skat.records.wire import seat_view_to_json

    digest = hashlib.sha256(orjson.dumps(seat_view_to_json(view), option=orjson.OPT_SORT_KEYS)).digest()
    return int.from_bytes(digest[:8], "big")


def card_hint(view: SeatView, seed: int | None = None, level: str = HINT_LEVEL) -> dict[str, Any]:
    """The card the ``level`` computer player plays in this seat's place, from the seat's own view only (the
    input a computer player in the seat gets): ``{"card", "reason", "why"}``, ``why`` the reason's parts
    (:data:`HINT_TEXTS` keys with their values), ``reason`` them in English. A search player's values per card
    (wins over the sampled deals) back the reason; ``seed`` (default: drawn from the view) fixes the sampling.
    Raises ValueError when the view is not this seat's turn in the card play."""
    from skat.players.levels import LEVELS
    from skat.players.pimc import PIMCPlayer

    plays = [a for a in view.legal_actions if isinstance(a, Play)]
    if view.phase is not Phase.PLAY or view.to_move != view.seat or not plays:
        raise ValueError("a card hint is for the seat whose turn it is in the card play")
    player = LEVELS[level](view_seed(view) if seed is None else seed)
    totals: dict[int, float] | None = None
    solved = 0
    if len(plays) == 1:
        action: Any = plays[0]
    elif (isinstance(player, PIMCPlayer) and view.contract is not None and view.declarer is not None
          and len(plays) == len(view.legal_actions)):
        try:
            action, totals, solved = player.rank_cards(view)
        except Exception:  # the search failed: the player's own fallback, as at the table
            log.exception("the card hint's search failed; the heuristic's card is suggested")
            action, totals = player.heuristic.choose(view), None
    else:  # a Ramsch: the strong player plays the heuristic's card
        action = player.choose(view)
    if not isinstance(action, Play) or action not in plays:
        action = plays[0]
    why = hint_reason(view, int(action.card), totals, solved, only=len(plays) == 1)
    return {"card": action.card.name, "reason": _english(why), "why": why}


def hint_in_worker(view: SeatView) -> dict[str, Any]:
    """:func:`table_hint` (the card, or the declarer's choice) in a worker process (the server's process pool)."""
    return table_hint(view)


def _english(why: list[dict[str, Any]]) -> str:
    parts = []
    for part in why:
        params = {k: (Card[v].symbol if k == "card" else _contract_english(v) if k == "contract" else v)
                  for k, v in part.items() if k != "key"}
        parts.append(HINT_TEXTS[part["key"]].format(**params))
    text = "; ".join(parts)
    return text[:1].upper() + text[1:]


def hint_reason(view: SeatView, card: int, totals: dict[int, float] | None, solved: int,
                only: bool = False) -> list[dict[str, Any]]:
    """Why ``card`` is suggested, in parts: what the card does in the trick when that is certain (it takes the
    trick, it smears points to the partner, the trick is lost anyway, ...) and what the search found (wins in k
    of n sampled deals). Each part is true of the view as it is; nothing is claimed the seat cannot know."""
    if only:
        return [{"key": "only"}]
    why = _situation(view, card)
    if totals and solved:
        why.append(_search_part(view, card, totals, solved))
    elif not why:
        why.append({"key": "rule_of_thumb"})
    return why


def _situation(view: SeatView, card: int) -> list[dict[str, Any]]:
    contract, seat, declarer = view.contract, view.seat, view.declarer
    assert seat is not None
    gt = int(GameType.GRAND) if contract is None else int(contract.game_type)  # a Ramsch: grand's trick rules
    null, ramsch = contract is not None and contract.is_null, contract is None
    legal = [int(a.card) for a in view.legal_actions if isinstance(a, Play)]
    trick = [(s, int(c)) for s, c in view.trick]

    def same_side(other: int) -> bool:
        return other == seat or (declarer is not None and seat != declarer and other != declarer)

    def winner(c: int) -> int:
        cards = [x for _s, x in trick] + [c]
        return (trick[0][0] + winner_index(gt, cards)) % 3

    if len(trick) == 2:  # the last card of the trick: its winner is certain
        won_by = winner(card)
        points = mask_points((1 << trick[0][1]) | (1 << trick[1][1]) | (1 << card))
        if ramsch or (null and seat == declarer):  # nobody wants the trick
            return [{"key": "stay_under", "card": Card(card).name}] if won_by != seat else []
        if null:
            return [{"key": "null_catch"}] if won_by == declarer else []
        if won_by == seat:
            return [{"key": "take", "points": points}]
        if same_side(won_by):
            own = Card(card).points
            return [{"key": "smear", "card": Card(card).name, "points": own}] if own else [{"key": "partner_takes"}]
        if not any(same_side(winner(c)) for c in legal) and Card(card).points == min(Card(c).points for c in legal):
            return [{"key": "lost"}]
        return []
    if trick or null or ramsch:
        return []
    # leading a trick of a suit or grand game
    trumps = TRUMP_MASK[gt]
    gone = _gone(view)
    if seat == declarer and (1 << card) & trumps:
        out = bin(trumps & ~gone & ~view.hand.mask).count("1")
        return [{"key": "trump_out", "n": out}] if out else []
    if not (1 << card) & trumps and Card(card).points >= 10:
        suit = suit_mask(card >> 3) & ~trumps
        higher = [c for c in range(32) if suit >> c & 1 and POWER[gt][c] > POWER[gt][card]]
        if all((gone | view.hand.mask) >> c & 1 for c in higher):
            return [{"key": "cash", "card": Card(card).name}]
    return []


def played_mask(view: SeatView) -> int:
    """The cards played so far in this deal (the closed tricks and the trick on the table), as a mask."""
    played = 0
    for _ld, cards, _w in view.tricks:
        for c in cards:
            played |= 1 << int(c)
    for _s, c in view.trick:
        played |= 1 << int(c)
    return played


def _gone(view: SeatView) -> int:
    """Cards out of play for this seat: played, and the declarer's own discard."""
    gone = played_mask(view)
    if view.seat == view.declarer and view.discard is not None:
        gone |= view.discard.mask
    return gone


def _search_part(view: SeatView, card: int, totals: dict[int, float], solved: int) -> dict[str, Any]:
    """What the search found for ``card``: how often it wins (or beats) the game over the sampled deals."""
    contract = view.contract
    assert contract is not None
    if len(set(round(v, 9) for v in totals.values())) == 1:
        return {"key": "search_equal", "n": solved}
    cards_left = sum(view.hand_sizes) + len(view.trick)
    exact = not contract.is_null and not contract.schwarz and -(-cards_left // 3) <= 5  # as card_values scores
    if exact:
        return {"key": "search_avg", "n": solved}
    wins = round(totals[card])
    if view.seat == view.declarer:
        return {"key": "search_win", "k": wins, "n": solved}
    return {"key": "search_beat", "k": solved - wins, "n": solved}


# ------------------------------------------------------------------ the declarer's hints
_DECLARER_PHASES = (Phase.SKAT, Phase.DISCARD, Phase.DECLARE)


def declarer_hint_possible(view: SeatView) -> bool:
    """Whether the seat's turn is a declarer's choice a hint is given for: pick up the skat or play a hand game,
    put two cards away, declare the game (standard Skat; not Tournee's turned card)."""
    if view.phase not in _DECLARER_PHASES or view.to_move != view.seat or view.declarer != view.seat:
        return False
    kinds: set[type] = {type(a) for a in view.legal_actions}
    choices: dict[Phase, set[type]] = {Phase.SKAT: {PickUp, Declare}, Phase.DISCARD: {Discard},
                                       Phase.DECLARE: {Declare}}
    wanted = choices[view.phase]
    if not kinds or not kinds <= wanted or (view.phase is Phase.SKAT and PickUp not in kinds):
        return False
    try:
        from skat.rules.rulesets import get_ruleset

        return get_ruleset(view.ruleset).variant == "standard"
    except (LookupError, ValueError):
        return True  # a rule set of its own name: its choices are the standard ones (checked above)


def hint_possible(view: SeatView) -> bool:
    """Whether :func:`table_hint` has a hint for this view: the seat's turn in the card play, or a declarer's
    choice (:func:`declarer_hint_possible`)."""
    if view.phase is Phase.PLAY:
        return view.to_move == view.seat and any(isinstance(a, Play) for a in view.legal_actions)
    return declarer_hint_possible(view)


def table_hint(view: SeatView) -> dict[str, Any]:
    """The hint for the seat's turn: the card to play (:func:`card_hint`) or the declarer's choice
    (:func:`declarer_hint`). Every hint names its ``action`` token."""
    if view.phase is Phase.PLAY:
        hint = card_hint(view)
        return {**hint, "action": hint["card"]}
    return declarer_hint(view)


def declarer_hint(view: SeatView, level: str = HINT_LEVEL) -> dict[str, Any]:
    """The declarer's choice the ``level`` computer player makes in this seat's place, from the seat's own view:
    ``{"action", "contract", "discard", "reason", "why"}``. In the skat phase it picks up (``contract``: the game it
    then most likely plays) or declares a hand game; in the discard the two cards it puts away (``discard``) for
    the game it means to play (``contract``); in the declaration the game. ``why`` has the chance its learned
    model gives the game (``win_chance``, ``p`` per cent). Raises ValueError when the view is no such choice."""
    from skat.players.learned import LearnedBidder, skat_family
    from skat.players.levels import LEVELS

    if not declarer_hint_possible(view):
        raise ValueError("a declarer's hint is for the declarer's turn to take the skat, discard or declare")
    player = LEVELS[level](view_seed(view))
    bidder = getattr(player, "bidder", None)
    contract: Contract | None = None
    discard: int | None = None
    why: list[dict[str, Any]] = []
    action: Any = None
    if isinstance(bidder, LearnedBidder):
        assert view.seat is not None
        heard, model, bid = bidder.heard(view), bidder.model, view.bid
        if view.phase is Phase.SKAT:
            action = player.choose(view)
            estimates = bidder.estimates(view)
            if isinstance(action, Declare):
                contract = action.contract
                why.append({"key": "hand_game", "contract": contract.to_json()})
                est = next((e for e in estimates if e.contract == contract), None)
                if est is not None:
                    why.append({"key": "win_chance", "p": round(est.p * 100)})
            else:
                reaching = [e for e in estimates if not e.contract.hand and e.value >= bid]
                if reaching:
                    best = max(reaching, key=lambda e: e.score)
                    contract = best.contract
                    why += [{"key": "pickup", "contract": contract.to_json()},
                            {"key": "win_chance", "p": round(best.p * 100)}]
                else:
                    why.append({"key": "pickup_only"})
        elif view.phase is Phase.DISCARD and bidder.after_pickup:
            twelve = view.hand.mask
            choice = bidder.skat_choice(twelve, view.seat, bid, heard)
            if choice is not None:
                discard, contract = choice[1], choice[2]
                action = Discard(CardSet.from_mask(discard))
                why.append({"key": "discard_for", "contract": contract.to_json()})
                if _game_value(contract, twelve) >= bid:
                    chance = model.win_probability_after_pickup(twelve & ~discard, discard,
                                                                int(contract.game_type), view.seat, heard)
                    why.append({"key": "win_chance", "p": round(chance * 100)})
                else:
                    why.append({"key": "overbid"})
        elif view.phase is Phase.DECLARE and view.discard is not None:
            ten, kept = view.hand.mask, view.discard.mask
            best_declare: tuple[float, Declare, float | None] | None = None
            for a in view.legal_actions:
                assert isinstance(a, Declare)
                c = a.contract
                gt = int(c.game_type)
                if c.hand or c.schneider or c.schwarz or c.ouvert or skat_family(gt) not in model.weights:
                    continue  # the games the player plans after the pickup (LearnedBidder.skat_choice)
                value = _game_value(c, ten | kept)
                p: float | None = None
                if value >= bid:
                    p = model.win_probability_after_pickup(ten, kept, gt, view.seat, heard)
                    score = _expected(p, value)
                else:  # lost overbid, by the next multiple of the base value at or above the bid
                    score = _expected(0.0, value if c.is_null else BASE_VALUES[gt] * -(-bid // BASE_VALUES[gt]))
                if best_declare is None or score > best_declare[0]:
                    best_declare = (score, a, p)
            if best_declare is not None:
                action, contract = best_declare[1], best_declare[1].contract
                why.append({"key": "declare", "contract": contract.to_json()})
                why.append({"key": "overbid"} if best_declare[2] is None
                           else {"key": "win_chance", "p": round(best_declare[2] * 100)})
    if action is None or action not in view.legal_actions:  # no learned choice: the player's own
        action = player.choose(view)
        contract = getattr(action, "contract", None)
        discard = action.cards.mask if isinstance(action, Discard) else None
        why = [{"key": "rule_of_thumb"}]
    return {"action": str(action), "card": None,
            "discard": None if discard is None else [c.name for c in CardSet.from_mask(discard)],
            "contract": None if contract is None else contract.to_json(), "reason": _english(why), "why": why}


def _game_value(contract: Contract, twelve: int) -> int:
    from skat.players.heuristic import game_value

    return game_value(contract, twelve)


def _expected(p: float, value: int) -> float:
    from skat.players.heuristic import expected_score

    return expected_score(p, value)


def _contract_english(contract: dict[str, Any]) -> str:
    """A contract (``Contract.to_json()``) in English words: ``grand hand``, ``clubs``."""
    words = [contract["game"]]
    words += [flag for flag in ("hand", "schneider", "schwarz", "ouvert") if contract.get(flag)]
    return " ".join(words)
