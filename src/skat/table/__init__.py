"""The table layer: a series at a table of 3, 4 or 5 (:mod:`skat.table.series`), its score sheet
(:mod:`skat.table.scoresheet`) and a series of Officers' Skat (:mod:`skat.table.officers`)."""

from skat.table.series import Table, TableError

__all__ = ["Table", "TableError"]
