"""`skat --help` and every command's help come at once: building a command's parser imports only that command's
module, and none of them loads the server (FastAPI, SQLAlchemy), the solver (its compiled kernels) or the plots
(matplotlib); those load where they are used. How long it takes is bench/start.py's figure (issue 32: at most
0.3 s); this test checks what is imported, in a fresh interpreter."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from skat.cli import COMMANDS

HEAVY = ("fastapi", "sqlalchemy", "matplotlib", "uvicorn", "skat.server.app", "skat.solver.kernels",
         "skat.solver.search", "skat.analysis", "numba")  # numba: no JIT compiler at start (the solver is Cython)


def loaded_after(code: str) -> list[str]:
    probe = (f"import sys\n{code}\n"
             f"import json; print(json.dumps(sorted(m for m in {HEAVY!r} if m in sys.modules)))")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_the_overall_help_imports_no_command():
    code = ("from skat.cli import build_parser\nbuild_parser(None).format_help()\n"
            "print(sorted(m for m in sys.modules if m.startswith('skat.commands.')))")
    probe = f"import sys\n{code}"
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"  # each command listed by its line of help, none of their modules loaded
    assert loaded_after("from skat.cli import build_parser\nbuild_parser(None).format_help()") == []


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_a_commands_help_loads_nothing_heavy(command):
    code = (f"import contextlib, io\nfrom skat.cli import build_parser\nparser = build_parser({command!r})\n"
            f"with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):\n"
            f"    parser.parse_args([{command!r}, '--help'])")
    assert loaded_after(code) == []


def test_the_server_package_loads_its_application_only_when_asked():
    assert loaded_after("import skat.server.bots") == []
    assert loaded_after("from skat.server import TableError") == []
    assert "fastapi" in loaded_after("from skat.server import create_app")


def test_the_overall_help_still_lists_every_command():
    done = subprocess.run([sys.executable, "-m", "skat", "--help"], capture_output=True, text=True, timeout=120,
                          check=False)
    assert done.returncode == 0
    for name, (_module, help_text) in COMMANDS.items():
        assert name in done.stdout and help_text.split()[0] in done.stdout
