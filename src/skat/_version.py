"""The package's version (also in pyproject.toml), readable without importing the package's whole API."""

__version__ = "0.1.0"
