"""Build hook: compile the engine's core (src/skat/_core.py) with Cython.

Everything else about the package is in pyproject.toml. The core is plain Python too, so an install
without Cython or without a C compiler still works, only slower; ``SKAT_PURE_PYTHON=1`` at install
time skips the compiled build.
"""

import os

from setuptools import Extension, setup


def _ext_modules() -> list:
    if os.environ.get("SKAT_PURE_PYTHON"):
        return []
    try:
        from Cython.Build import cythonize
    except ImportError:
        return []
    core = Extension("skat._core", ["src/skat/_core.py"], optional=True)
    return cythonize(
        [core],
        compiler_directives={"language_level": 3, "boundscheck": False, "wraparound": False},
        quiet=True,
    )


setup(ext_modules=_ext_modules())
