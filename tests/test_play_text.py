"""`skat play --text` as a person reads it (issue 32): refusals name the players, never seat numbers; the choice
after winning the auction starts on its own line; the cards to play are numbered in the order the hand is shown."""

from __future__ import annotations

import io
import re

from skat.commands.play import play_text


class Person(io.StringIO):
    """Holds every bid, picks up the skat, puts the last two cards away, declares the first game offered; when it
    must follow suit it first tries a card that does not (once), then plays the first card offered."""

    def __init__(self, out: io.StringIO) -> None:
        super().__init__()
        self.out = out
        self.tried_wrong = ""

    def readline(self, *args) -> str:
        text = self.out.getvalue()
        prompt = text[text.rfind("\n") + 1:]
        if "hold or pass" in prompt:
            answer = "hold"
        elif "Your bid" in prompt:
            answer = "18" if "18" in prompt else "pass"
        elif "pickup or hand" in prompt:
            answer = "pickup"
        elif "Two cards" in prompt:
            cards = re.findall(r"Your cards: (.*)", text)[-1].split()
            answer = f"{cards[-1]} {cards[-2]}"
        elif "Your game" in prompt:
            answer = "1"
        elif "Play a card" in prompt:
            hand = re.findall(r"Your cards: (.*)", text)[-1].split()
            offered = re.findall(r"\d+:(\w\w)", prompt)
            wrong = [c for c in hand if c not in offered]
            if wrong and not self.tried_wrong:
                self.tried_wrong = answer = wrong[0]
            else:
                answer = "1"
        elif "next deal" in prompt:
            answer = "" if "Deal 3" not in text else "quit"
        else:
            answer = ""
        return answer + "\n"


def play(seed: int) -> tuple[str, Person]:
    out = io.StringIO()
    person = Person(out)
    assert play_text(person, out, level="random", seed=seed, deals=3) == 0
    return out.getvalue(), person


def test_the_terminal_game_reads_like_a_table_of_people():
    text, person = play(7)
    print(text)  # what the person saw, for the test's log

    # a card that does not follow suit: refused with the player's words, no seat numbers anywhere
    assert person.tried_wrong, "the deal never asked the person to follow suit"
    refusal = re.search(r"not possible: (.*)", text)
    assert refusal, text
    assert re.fullmatch(rf"{person.tried_wrong} does not follow suit: you must follow \w\w", refusal[1]), refusal[1]
    assert not re.search(r"\bseat \d", text), re.findall(r".*\bseat \d.*", text)

    # having won the auction: one line says so, the numbered choices follow each on its own line
    won = re.search(r"You won the auction at (\d+)\.\n  1: pick up the skat\n  2: ", text)
    assert won, text
    assert "  1: pick up the skat" not in text.replace("\n  1: pick up the skat", "")

    # every list of cards to play is numbered in the order the hand above it shows them
    prompts = re.findall(r"Your cards: (.*)\n(?:  .*\n)*Play a card \[(.*?)\]", text)
    assert len(prompts) >= 10
    for hand, listing in prompts:
        offered = [c.split(":")[1] for c in listing.split()]
        numbers = [int(c.split(":")[0]) for c in listing.split()]
        assert numbers == list(range(1, len(offered) + 1))
        assert offered == [c for c in hand.split() if c in offered], (hand, listing)


def test_names_stand_for_seats_in_every_refusal_the_person_can_meet():
    from skat.commands.play import _named

    names, positions = ["Carla", "Anna (random)", "Bernd (random)"], [1, 2, 0]  # Carla sits in rearhand (seat 2)
    assert _named("CT does not follow suit: seat 2 must follow HT", names, positions, 2) == \
        "CT does not follow suit: you must follow HT"
    assert _named("SA is not in seat 2's hand", names, positions, 2) == "SA is not in your hand"
    assert _named("seat 0 must answer the bid of 18: hold or pass", names, positions, 2) == \
        "Anna (random) must answer the bid of 18: hold or pass"
    assert _named("it is forehand's (seat 0) turn, not seat 2's", names, positions, 2) == \
        "it is forehand's (Anna (random)) turn, not yours"
