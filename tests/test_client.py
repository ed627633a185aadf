"""The browser client (src/skat/web/static) under its own tools, run from the Python test suite so the README's test
command covers it: the type check (``tsc --noEmit -p .`` over the JavaScript's JSDoc types, tsconfig.json: strict)
and the unit tests of its logic and catalogs (``node --test tests/js/``: state to words, card names and order,
texts with placeholders and plural forms, the keeper's entry form and a tournament's tables, every catalog with
every key, no words written into the scripts and pages outside the catalogs), and that the client's protocol types
(src/skat/web/static/protocol.generated.d.ts, which protocol.d.ts re-exports under the names the client uses) are
what ``npm run gen:protocol`` (tools/protocol_types.mjs) makes of the protocol's JSON Schema, docs/protocol.schema.json.

They need Node and the project's node_modules (``npm ci`` at the root: package.json, package-lock.json). Where
either is missing the tests are skipped with the reason, except under CI (``CI`` set, as ``.ci/run`` sets it),
where a missing tool is a failure: CI must run them."""

from __future__ import annotations

import difflib
import json
import re
import shutil
import subprocess
from pathlib import Path

from conftest import ROOT
from test_server_support import missing

STATIC = ROOT / "src" / "skat" / "web" / "static"
GENERATED = STATIC / "protocol.generated.d.ts"  # npm run gen:protocol
SCHEMA = ROOT / "docs" / "protocol.schema.json"


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


def _generator() -> list[str]:
    node = _node()
    if not (ROOT / "node_modules" / "json-schema-to-typescript" / "package.json").is_file():
        _missing("node_modules/json-schema-to-typescript")
    return [node, str(ROOT / "tools" / "protocol_types.mjs")]


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


def test_the_client_protocol_types_are_generated_from_the_schema(tmp_path: Path) -> None:
    fresh = tmp_path / "protocol.generated.d.ts"
    done = _run([*_generator(), "--out", str(fresh)], timeout=120)
    assert done.returncode == 0, f"tools/protocol_types.mjs failed:\n{done.stdout}{done.stderr}"
    want = fresh.read_text(encoding="utf-8")
    have = GENERATED.read_text(encoding="utf-8") if GENERATED.is_file() else ""
    if have != want:
        diff = "".join(difflib.unified_diff(have.splitlines(keepends=True), want.splitlines(keepends=True),
                                            "committed", "from the schema", n=1))
        raise AssertionError(f"{GENERATED.relative_to(ROOT)} differs from what {SCHEMA.relative_to(ROOT)} gives: "
                             f"run `npm run gen:protocol` (and commit it)\n{diff[:6000]}")


def test_every_definition_of_the_schema_is_a_named_client_type() -> None:
    """Without Node: the committed file names a type per ``$defs`` entry, the table socket's union has every message
    of the schema's, and protocol.d.ts takes them from there rather than writing its own."""
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    text = GENERATED.read_text(encoding="utf-8")
    declared = set(re.findall(r"^export (?:interface|type) (\w+)", text, flags=re.MULTILINE))
    assert set(schema["$defs"]) <= declared, sorted(set(schema["$defs"]) - declared)
    socket = schema["websockets"]["/ws/{table_id}"]
    for side in ("server", "client"):
        name = socket[side].rsplit("/", 1)[-1]
        union = re.search(rf"^export type {name} =([^;]*);", text, flags=re.MULTILINE)
        assert union, name
        members = {ref.rsplit("/", 1)[-1] for ref in schema["$defs"][name]["discriminator"]["mapping"].values()}
        assert members == set(re.findall(r"\w+", union.group(1))), (name, union.group(1))
    handwritten = (STATIC / "protocol.d.ts").read_text(encoding="utf-8")
    assert 'export type * from "./protocol.generated";' in handwritten
    own = set(re.findall(r"^export (?:interface|type) (\w+)", handwritten, flags=re.MULTILINE))
    assert not own & {socket["server"].rsplit("/", 1)[-1], socket["client"].rsplit("/", 1)[-1]}
