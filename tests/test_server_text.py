"""`skat play --text`: standard Skat in the terminal against computer players, driven by piped input."""

from __future__ import annotations

import io
import re
import subprocess
import sys

from skat.commands.play import play_text


class Person(io.StringIO):
    """Answers each prompt the way a person would: hold every bid, pick up, discard, declare, play."""

    def __init__(self, out: io.StringIO) -> None:
        super().__init__()
        self.out = out
        self.answers: list[str] = []

    def readline(self, *args) -> str:
        text = self.out.getvalue()
        prompt = text[text.rfind("\n") + 1:]
        if "hold or pass" in prompt:
            answer = "hold"
        elif "Your bid" in prompt:
            answer = "18" if "18" in prompt and "20" not in prompt else "pass"
        elif "pickup or hand" in prompt:
            answer = "pickup"
        elif "Two cards" in prompt:
            cards = re.findall(r"Your cards: (.*)", text)[-1].split()
            answer = f"{cards[-1]} {cards[-2]}"
        elif "Your game" in prompt:
            answer = "nonsense" if "nonsense" not in self.answers else "1"
        elif "Play a card" in prompt:
            answer = "99" if "99" not in self.answers else "1"
        elif "next deal" in prompt:
            answer = "quit"
        else:
            answer = ""
        self.answers.append(answer)
        return answer + "\n"


def test_a_full_deal_in_the_terminal():
    out = io.StringIO()
    person = Person(out)
    assert play_text(person, out, level="random", seed=7) == 0
    text = out.getvalue()
    assert "=== Deal 1" in text and "Result: " in text and "Score sheet:" in text
    assert "Goodbye." in text
    if "Your game" in text:  # the person won the auction: a bad declaration was refused with a reason
        assert "not possible" in text
    assert "choose a number from 1 to" in text or "Play a card" not in text


def test_piped_input_and_end_of_input():
    """`skat play --text` reads actions from a pipe; the end of the input ends the session cleanly."""
    proc = subprocess.run([sys.executable, "-m", "skat", "play", "--text", "--level", "random", "--seed", "3"],
                          input="help\npass\npass\n", capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0
    assert "Commands:" in proc.stdout and "Goodbye." in proc.stdout
