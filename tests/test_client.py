"""The browser client (src/skat/web/static) under its own tools, run from the Python test suite so the README's test
command covers it: the type check (``tsc --noEmit -p .`` over the JavaScript's JSDoc types, tsconfig.json: strict)
and the unit tests of its logic and catalogs (``node --test tests/js/``: state to words, card names and order,
texts with placeholders and plural forms, the keeper's entry form and a tournament's tables, every catalog with
every key, no words written into the scripts and pages outside the catalogs).

They need Node and the project's node_modules (``npm ci`` at the root: package.json, package-lock.json). Where
either is missing the tests are skipped with the reason, except under CI (``CI`` set, as ``.ci/run`` sets it),
where a missing tool is a failure: CI must run them."""

from __future__ import annotations

import json
import shutil
import subprocess

from conftest import ROOT
from test_server_support import missing


def _missing(what: str) -> None:
    """Skip (elsewhere), or fail under CI (CI=true: .ci/run installs Node and runs `npm ci`), for lack of ``what``."""
    missing(f"{what} (Node 20+, then `npm ci` in the checkout)")


def _node() -> str:
    node = shutil.which("node")
    if node is None:
        _missing("node")
    return str(node)


def _tsc() -> list[str]:
    node = _node()
    tsc = ROOT / "node_modules" / "typescript" / "bin" / "tsc"
    if not tsc.is_file():
        _missing("node_modules/typescript")
    return [node, str(tsc)]


def _run(command: list[str], timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=timeout, check=False)


def test_the_client_type_checks_with_zero_errors() -> None:
    done = _run([*_tsc(), "--noEmit", "-p", str(ROOT)])
    assert done.returncode == 0, f"tsc found errors:\n{done.stdout}{done.stderr}"
    assert "error TS" not in done.stdout


def test_the_client_unit_tests_pass() -> None:
    done = _run([_node(), "--test", "tests/js/"])
    output = done.stdout + done.stderr
    assert done.returncode == 0, f"node --test tests/js/ failed:\n{output[-20000:]}"
    passed = [line for line in output.splitlines() if line.startswith("# pass ")]
    assert passed and int(passed[-1].split()[-1]) >= 50, output[-4000:]  # the tests ran, not none of them


def test_the_tsconfig_is_strict_over_the_client() -> None:
    config = json.loads((ROOT / "tsconfig.json").read_text(encoding="utf-8"))
    options = config["compilerOptions"]
    assert options["strict"] is True and options["checkJs"] is True and options["allowJs"] is True
    assert not {"noImplicitAny", "strictNullChecks"} & {name for name, on in options.items() if on is False}
    assert "src/skat/web/static/*.js" in config["include"]
