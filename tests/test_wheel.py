"""The package as its users get it: ``python -m build`` makes an sdist and, from that sdist, a wheel
with the compiled core; the wheel, installed into a fresh virtual environment, runs the ``skat``
command and serves the browser table.

Building writes only what the README's install writes too, all ignored by git: Cython's C files
(``src/skat/deal/_core.c``, ``src/skat/rules/kernel.c``, ``src/skat/solver/kernels.c``,
``src/skat/players/dealing.c``) and
``src/skat.egg-info``. The build and the install fetch their packages as ``pip`` does (its index, its
cache), so they take about a minute and a half together.
"""

from __future__ import annotations

import email.parser
import json
import os
import re
import signal
import subprocess
import sys
import tarfile
import tomllib
import urllib.request
import venv
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
VERSION = PROJECT["version"]
BUILT = (".so", ".pyd", ".c", ".pyc")  # build outputs: never package sources


def _package_sources() -> list[str]:
    """Every source file of the package (modules, web pages, data), relative to ``src/``."""
    top = ROOT / "src"
    return sorted(
        path.relative_to(top).as_posix()
        for path in (top / "skat").rglob("*")
        if path.is_file() and "__pycache__" not in path.parts and path.suffix not in BUILT
    )


def _clean_env() -> dict[str, str]:
    """This environment without what would point a program at another Python than the fresh venv's."""
    drop = {"PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "SKAT_PURE_PYTHON"}
    return {key: value for key, value in os.environ.items() if key not in drop}


def _run(args: list[str | Path], *, cwd: Path, timeout: float) -> subprocess.CompletedProcess[str]:
    done = subprocess.run([str(a) for a in args], cwd=cwd, env=_clean_env(), capture_output=True, text=True,
                          timeout=timeout)
    assert done.returncode == 0, f"{args} failed ({done.returncode}):\n{done.stdout[-4000:]}\n{done.stderr[-4000:]}"
    return done


class Build:
    """``python -m build`` (the sdist, then the wheel from that sdist), then a fresh virtual environment (its own
    pip, nothing of ours) with the wheel and its dependencies. Each step runs when a test first needs it, in
    the test's own process and time (about a minute and a half together, most of it the compiler and pip), so
    it never runs beside other tests of the same worker."""

    def __init__(self, where: Path) -> None:
        self.out = where / "dist"
        self.env_dir = where / "wheel-venv"
        self._installed = False

    def dist(self) -> Path:
        if not any(self.out.glob("*.whl")):
            import build  # noqa: F401  (a test dependency: pip install -e '.[test]')

            self.out.mkdir(parents=True, exist_ok=True)
            _run([sys.executable, "-m", "build", "--outdir", self.out, ROOT], cwd=ROOT, timeout=480)
        return self.out

    def installed(self) -> Path:
        if not self._installed:
            venv.create(self.env_dir, with_pip=True, clear=True)
            _run([self.env_dir / "bin" / "python", "-m", "pip", "install", "-q", "--no-compile",
                  _one(self.dist(), f"skat-{VERSION}-*.whl")], cwd=self.env_dir, timeout=480)
            self._installed = True
        return self.env_dir


@pytest.fixture(scope="module")
def build(tmp_path_factory: pytest.TempPathFactory) -> Build:
    """The module's build (made step by step as its tests need it)."""
    return Build(tmp_path_factory.mktemp("build"))


@pytest.fixture(scope="module")
def dist(build: Build) -> Path:
    """The sdist and the wheel built from that sdist (so the sdist must hold it all)."""
    return build.dist()


def _one(folder: Path, pattern: str) -> Path:
    found = sorted(folder.glob(pattern))
    assert len(found) == 1, f"{pattern} in {folder}: {[p.name for p in folder.iterdir()]}"
    return found[0]


@pytest.fixture(scope="module")
def wheel(dist: Path) -> Path:
    return _one(dist, f"skat-{VERSION}-*.whl")


@pytest.fixture(scope="module")
def installed(build: Build) -> Path:
    """A fresh virtual environment (its own pip, nothing of ours) with the wheel and its dependencies."""
    return build.installed()


def test_sdist_holds_everything_to_build_and_test(dist: Path) -> None:
    sdist = _one(dist, f"skat-{VERSION}.tar.gz")
    with tarfile.open(sdist) as archive:
        names = {name.partition("/")[2] for name in archive.getnames()}
    tests = [p.relative_to(ROOT).as_posix() for p in (ROOT / "tests").rglob("*")
             if p.is_file() and "__pycache__" not in p.parts and (p.suffix == ".py" or "data" in p.parts)]
    needed = ["pyproject.toml", "setup.py", "MANIFEST.in", "README.md", "LICENSE", "src/skat/deal/_core.py",
              "src/skat/rules/kernel.py", "src/skat/rules/kernel.pxd", "src/skat/solver/kernels.py",
              "src/skat/solver/kernels.pxd", "src/skat/players/dealing.py",
              "src/skat/web/static/index.html", *(f"src/{name}" for name in _package_sources()), *tests]
    assert not [name for name in needed if name not in names]
    assert not [name for name in names if name.endswith(BUILT)]  # no _core.c, no compiled core


def test_wheel_holds_the_package_with_its_compiled_core_and_no_build_leftovers(wheel: Path) -> None:
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        metadata = email.parser.Parser().parsestr(archive.read(f"skat-{VERSION}.dist-info/METADATA").decode())
        entry_points = archive.read(f"skat-{VERSION}.dist-info/entry_points.txt").decode()
    assert not [name for name in _package_sources() if name not in names]  # modules, web/static, data
    assert {"skat/deal/_core.py", "skat/web/static/index.html", "skat/web/static/app.js"} <= names
    assert len([name for name in names if re.fullmatch(r"skat/deal/_core\..+\.(so|pyd)", name)]) == 1
    assert len([name for name in names if re.fullmatch(r"skat/rules/kernel\..+\.(so|pyd)", name)]) == 1
    assert len([name for name in names if re.fullmatch(r"skat/solver/kernels\..+\.(so|pyd)", name)]) == 1
    assert len([name for name in names if re.fullmatch(r"skat/players/dealing\..+\.(so|pyd)", name)]) == 1
    assert not [name for name in names if name.endswith((".c", ".pyc"))]
    assert not [name for name in names if name.split("/")[0] not in ("skat", f"skat-{VERSION}.dist-info")]
    assert f"skat-{VERSION}.dist-info/licenses/LICENSE" in names
    # the card faces' licence travels with them (GPL-2+: src/skat/web/static/cards/LICENSE.md)
    assert "skat/web/static/cards/LICENSE.md" in names and "skat/web/static/cards/french/HA.svg" in names
    assert f"skat-{VERSION}.dist-info/licenses/src/skat/web/static/cards/GPL-2.txt" in names
    assert "skat = skat.cli:main" in entry_points

    # the fonts the printed lists embed, with their licence (Bitstream Vera: src/skat/table/fonts/LICENSE)
    assert {"skat/table/fonts/DejaVuSans.ttf", "skat/table/fonts/DejaVuSans-Bold.ttf"} <= names
    assert f"skat-{VERSION}.dist-info/licenses/src/skat/table/fonts/LICENSE" in names
    # and their Hangul font, NanumSquare, with its licence (SIL Open Font License 1.1)
    assert {"skat/table/fonts/NanumSquareR.ttf", "skat/table/fonts/NanumSquareB.ttf"} <= names
    assert f"skat-{VERSION}.dist-info/licenses/src/skat/table/fonts/LICENSE-NanumSquare" in names
    assert metadata["License-Expression"] == "MIT AND GPL-2.0-or-later AND Bitstream-Vera AND OFL-1.1 AND Apache-2.0 AND BSD-3-Clause AND (Apache-2.0 OR MPL-2.0)"  # code, card faces, fonts, API docs page
    assert f"skat-{VERSION}.dist-info/licenses/src/skat/web/static/apidocs/LICENSE" in names
    assert metadata["Requires-Python"] == PROJECT["requires-python"]
    classifiers = metadata.get_all("Classifier")
    assert "Topic :: Games/Entertainment :: Board Games" in classifiers
    assert "Programming Language :: Python :: 3.11" in classifiers
    urls = dict(entry.split(", ", 1) for entry in metadata.get_all("Project-URL"))
    assert {"Homepage", "Documentation", "Issues"} <= set(urls)


def test_the_installed_wheel_plays(installed: Path, tmp_path: Path) -> None:
    skat = installed / "bin" / "skat"
    where = _run([installed / "bin" / "python", "-c",
                  "import skat, skat.deal.game; print(skat.__file__); print(skat.deal.game.COMPILED)"],
                 cwd=tmp_path, timeout=120).stdout.split()
    assert Path(where[0]).is_relative_to(installed)  # the installed package, not this checkout
    assert where[1] == "True"  # the compiled core came with the wheel
    # and the solver's compiled kernels: its first search compiles nothing (no numba, no JIT)
    solver = _run([installed / "bin" / "python", "-c",
                   "import importlib.util, skat.solver.search as S; S.warm_up(); "
                   "print(S.K.COMPILED, importlib.util.find_spec('numba') is None)"], cwd=tmp_path, timeout=120).stdout
    assert solver.split() == ["True", "True"]
    # and the players' compiled dealing of worlds
    dealing = _run([installed / "bin" / "python", "-c", "import skat.players.worlds as W; print(W._dealing.COMPILED)"],
                   cwd=tmp_path, timeout=120).stdout
    assert dealing.strip() == "True"

    assert _run([skat, "--version"], cwd=tmp_path, timeout=120).stdout.strip() == f"skat {VERSION}"
    shown = _run([skat, "deal", "--seed", "1"], cwd=tmp_path, timeout=120).stdout
    assert shown.startswith("deal --seed 1") and "trick 10" in shown and "result" in shown
    record = json.loads(_run([skat, "deal", "--seed", "1", "--json"], cwd=tmp_path, timeout=120).stdout)
    assert record["format"] == "skat-game"
    sheet = json.loads(_run([skat, "series", "--players", "3", "--games", "3", "--seed", "1", "--json"],
                            cwd=tmp_path, timeout=300).stdout)
    assert len(sheet["games"]) == 3 and sheet["players"] == ["P1", "P2", "P3"]


def test_the_installed_wheel_serves_the_browser_table(installed: Path, tmp_path: Path) -> None:
    """``skat play --no-browser`` prints the table's address; the page and its static files come from the wheel."""
    server = subprocess.Popen([installed / "bin" / "skat", "play", "--no-browser", "--level", "random",
                               "--db", f"sqlite:///{tmp_path / 'play.sqlite'}"],
                              cwd=tmp_path, env=_clean_env(), stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                              text=True, start_new_session=True)
    try:
        assert server.stdout is not None
        first = server.stdout.readline()
        found = re.search(r"(http://[^/\s]+)(/t/\S+)", first)
        assert found, f"no table address in {first!r}"
        base, table = found.groups()
        for path in (table.partition("#")[0], "/static/app.js", "/static/style.css", "/static/officers.js"):
            with urllib.request.urlopen(base + path, timeout=30) as response:
                assert response.status == 200 and response.read(), path
    finally:  # Ctrl+C for the server and its computer players' worker processes, as in a terminal
        os.killpg(server.pid, signal.SIGINT)
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
        try:  # whatever of it is left
            os.killpg(server.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
