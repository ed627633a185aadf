"""The README's two commands: Play makes and uses a virtual environment, Test is `bash .ci/run`, which
installs into a virtual environment of its own and never into the system Python."""

from __future__ import annotations

import re

from conftest import ROOT

README = (ROOT / "README.md").read_text(encoding="utf-8")
CI = (ROOT / ".ci" / "run").read_text(encoding="utf-8")


def _command(section: str) -> str:
    body = README.split(f"## {section}\n", 1)[1].split("\n## ", 1)[0]
    lines = [line.strip() for line in body.splitlines() if line.startswith("    ")]
    assert len(lines) == 1, f"the README's {section} section gives one command"
    return lines[0]


def test_play_makes_and_uses_a_virtual_environment():
    steps = [s.strip() for s in _command("Play").split("&&")]
    assert steps == ["python3 -m venv .venv", ". .venv/bin/activate", "pip install -e .", "skat play"]


def test_test_is_the_ci_script():
    assert _command("Test") == "bash .ci/run"


def test_the_ci_script_installs_only_into_its_own_environment():
    installs = [line.strip() for line in CI.splitlines() if re.search(r"\bpip3?\b.*\binstall\b", line)]
    assert installs and all(line.startswith('"$PY" -m pip install') for line in installs), installs
    assert 'PY="$VENV/bin/python"' in CI and 'VENV="${SKAT_VENV:-$ROOT/.venv}"' in CI
    # the README's test command runs with that environment's python
    assert re.search(r'"\$PY" -m pytest -q -p no:cacheprovider -n 2 --dist loadfile tests', CI)
