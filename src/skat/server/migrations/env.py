"""Alembic's entry point: :func:`skat.server.store.migrate` hands it an open connection."""

from alembic import context

from skat.server.store import metadata

connection = context.config.attributes.get("connection")
if connection is None:  # pragma: no cover - the project never runs alembic without a connection
    raise RuntimeError("run the migrations through skat.server.store.migrate(engine)")
context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
