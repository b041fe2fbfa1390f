"""Game reviews: one per game, its progress while it runs and its result once done.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-24
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the ``reviews`` table."""
    op.create_table(
        "reviews",
        sa.Column("game_id", sa.String, primary_key=True),
        sa.Column("status", sa.String, nullable=False),
        sa.Column("done", sa.Integer, nullable=False, server_default="0"),
        sa.Column("total", sa.Integer, nullable=False, server_default="0"),
        sa.Column("budget", sa.Text),
        sa.Column("seed", sa.Integer, nullable=False, server_default="0"),
        sa.Column("owner", sa.String),
        sa.Column("heartbeat", sa.Float, nullable=False, server_default="0"),
        sa.Column("review", sa.Text),
        sa.Column("paths", sa.Text),
        sa.Column("error", sa.Text),
        sa.Column("moves", sa.Integer, nullable=False, server_default="0"),
        sa.Column("started", sa.String, nullable=False),
        sa.Column("updated", sa.String, nullable=False),
        sa.Column("finished", sa.String),
    )


def downgrade() -> None:
    """Remove what `upgrade` added."""
    op.drop_table("reviews")
