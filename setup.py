"""Build hook: compile the engine's core (src/skat/deal/_core.py) and the rules kernel it calls
(src/skat/rules/kernel.py, with its C declarations in kernel.pxd) with Cython.

Everything else about the package is in pyproject.toml. Both are plain Python too, so an install
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
    # the rules kernel first: the core cimports it (src/skat/rules/kernel.pxd)
    kernel = Extension("skat.rules.kernel", ["src/skat/rules/kernel.py"], optional=True)
    core = Extension("skat.deal._core", ["src/skat/deal/_core.py"], optional=True)
    return cythonize(
        [kernel, core],
        compiler_directives={"language_level": 3, "boundscheck": False, "wraparound": False},
        quiet=True,
    )


setup(ext_modules=_ext_modules())
