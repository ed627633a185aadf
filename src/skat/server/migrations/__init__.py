"""Alembic migrations of the server's database (:mod:`skat.server.store` runs them when it opens one)."""
