"""Officers' Skat in the terminal: a person against the computer opponent.

``play_text(variant="classic", seed=1)`` reads actions from ``input`` (one per line: a card
such as ``CJ``, ``declare hearts``, ``kontra``, ``pass``, or the number of a listed action)
and writes the table to ``output``. ``games`` > 1 plays a series with a score sheet.
"""

from __future__ import annotations

import sys
from typing import Any, TextIO

from skat.cards import Card
from skat.errors import IllegalActionError
from skat.players.officers import OfficersBot
from skat.rules.actions import Action, Discard, Pass
from skat.rules.ranking import display_order
from skat.table.officers import OfficersSeries, SeatPlayer
from skat.variants.officers.actions import parse_officers_action
from skat.variants.officers.game import OfficersGame, OfficersView, Phase

__all__ = ["play_text", "render_view"]

_PHASE_HELP = {
    Phase.CHOOSE: "choose the game: 'declare clubs' ... 'declare diamonds', 'declare grand'",
    Phase.KONTRA: "say 'kontra' (doubles the score) or 'pass'",
    Phase.RE: "answer 're' (doubles again) or 'pass'",
    Phase.BIDDING: "bid a value (18, 20, ...), 'hold' or 'pass'",
    Phase.SKAT: "'pickup' the skat, or declare a hand game ('declare spades hand')",
    Phase.DISCARD: "put two cards from your hand away: 'discard C7 D8'",
    Phase.DECLARE: "announce the game: 'declare hearts', 'declare grand', 'declare null'",
    Phase.PLAY: "play an uncovered card, e.g. 'CJ'",
}


def _card(c: Card | None) -> str:
    return "??" if c is None else c.name


def _piles(piles: list[list[Card | None]]) -> str:
    return " ".join("[" + "/".join(_card(c) for c in p) + "]" if p else "[  ]" for p in piles)


def render_view(view: OfficersView, names: tuple[str, str] = ("you", "computer")) -> str:
    """The table as one seat sees it: piles top card first, ``??`` for a card it cannot see."""
    assert view.seat is not None, "a seat's view, not a spectator's"
    me, other = names
    lines = [f"-- Officers' Skat ({view.variant}); {me}: {('forehand', 'dealer')[view.seat]} --"]
    if view.game:
        who = "-" if view.chooser is None else (me if view.chooser == view.seat else other)
        calls = ("", ", Kontra", ", Kontra and Re")[view.kontra_level]
        bid = f", bid {view.bid}" if view.variant == "admiral" and view.bid else ""
        lines.append(f"game: {view.game} chosen by {who}{bid}{calls}")
    elif view.auction:
        lines.append("auction: " + ", ".join(f"{me if s == view.seat else other} {t}" for s, t in view.auction))
    lines.append(f"{other:>9}: {_piles(view.opponent_piles)}"
                 + (f"  + {view.opponent_hand_size} in hand" if view.opponent_hand_size else ""))
    lines.append(f"{me:>9}: {_piles(view.own_piles)}")
    if view.hand:
        lines.append(f"{'hand':>9}: {' '.join(c.name for c in display_order(view.hand, view.game or None))}")
    if view.skat is not None:
        lines.append(f"{'skat':>9}: {view.skat}")
    if view.tricks:
        ld, cs, w = view.tricks[-1]
        lines.append(f"last trick: {cs[0].name} {cs[1].name} -> {me if w == view.seat else other}")
    if view.trick:
        lines.append("trick: " + " ".join(f"{c.name} ({me if s == view.seat else other})" for s, c in view.trick))
    if view.phase is not Phase.CHOOSE and view.phase is not Phase.BIDDING:
        mine, his = view.trick_points[view.seat], view.trick_points[1 - view.seat]
        lines.append(f"card points: {me} {mine}, {other} {his}; tricks {view.tricks_won[view.seat]}:"
                     f"{view.tricks_won[1 - view.seat]}")
    return "\n".join(lines)


class _Person:
    """The seat of the person at the terminal."""

    def __init__(self, inp: TextIO, out: TextIO) -> None:
        self.inp, self.out = inp, out

    def choose(self, view: OfficersView) -> Action:
        legal = view.legal_actions
        self.out.write(render_view(view) + "\n")
        self.out.write(_PHASE_HELP.get(view.phase, "") + "\n")
        listing = legal if len(legal) <= 24 else legal[:12]
        self.out.write("  ".join(f"{i + 1}) {a}" for i, a in enumerate(listing))
                       + ("  ..." if len(listing) < len(legal) else "") + "\n")
        while True:
            self.out.write("> ")
            self.out.flush()
            line = self.inp.readline()
            if not line:
                raise EOFError("no more input")
            text = line.strip()
            if not text:
                continue
            if text.lower() in ("quit", "exit", "q"):
                raise EOFError("quit")
            if text.isdigit() and 1 <= int(text) <= len(listing) and not (view.phase is Phase.BIDDING
                                                                            and int(text) >= 18):
                return listing[int(text) - 1]
            try:
                action = parse_officers_action(text)
            except IllegalActionError as exc:
                self.out.write(f"{exc}\n")
                continue
            if action in legal:
                return action
            self.out.write(f"'{text}' is not possible now. {_PHASE_HELP.get(view.phase, '')}\n")


def play_text(variant: str = "classic", seed: int | None = None, input: TextIO | None = None,  # noqa: A002
              output: TextIO | None = None, *, games: int = 1, opponent: SeatPlayer | None = None,
              **options: Any) -> OfficersSeries:
    """Play Officers' Skat against the computer in the terminal; returns the series with its score sheet.

    The person is player 0 (forehand in the first game); ``games`` games are played, or
    until the input ends or the person types ``quit``.
    """
    inp = input if input is not None else sys.stdin
    out = output if output is not None else sys.stdout
    series = OfficersSeries(variant, seed=seed, names=("you", "computer"), **options)
    person = _Person(inp, out)
    bot = opponent if opponent is not None else OfficersBot(seed=seed)
    for _ in range(games):
        game: OfficersGame = series.new_game()
        fh = series.forehand_player()
        seats: tuple[SeatPlayer, SeatPlayer] = (person, bot) if fh == 0 else (bot, person)
        my_seat = 0 if fh == 0 else 1
        try:
            while not game.is_over:
                s = game.to_move
                assert s is not None
                phase = game.phase
                action = seats[s].choose(game.view(s))
                if s != my_seat:
                    if isinstance(action, Discard):
                        said = "puts two cards away"  # the discard stays hidden from the person
                    elif isinstance(action, Pass):
                        said = {Phase.KONTRA: "no kontra", Phase.RE: "no re"}.get(phase, "pass")
                    else:
                        said = str(action)
                    out.write(f"computer: {said}\n")
                game.apply(action, s)
        except EOFError:
            out.write("game abandoned\n")
            break
        result = game.result
        assert result is not None
        out.write(render_view(game.view(my_seat)) + "\n")
        out.write(f"result: {result.explanation}\n")
        series.record(game)
        out.write(series.sheet() + "\n")
    return series
