"""Alembic's entry point: migrate the connection `ludoteca.web.migrations.upgrade` passes in."""

from __future__ import annotations

from alembic import context

from ludoteca.web.schema import metadata

connection = context.config.attributes.get("connection")
if connection is None:  # pragma: no cover - Ludoteca always passes its own connection
    raise RuntimeError("run migrations through ludoteca.web.migrations.upgrade")
context.configure(
    connection=connection,
    target_metadata=metadata,
    render_as_batch=True,
    transaction_per_migration=False,
)
context.run_migrations()
