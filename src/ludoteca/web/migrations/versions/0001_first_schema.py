"""The first schema: games, their seats and their moves.

Revision ID: 0001
Revises:
Create Date: 2026-11-24
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create the three tables of the first Ludoteca server."""
    op.create_table(
        "games",
        sa.Column("id", sa.String, primary_key=True),
        sa.Column("game", sa.String, nullable=False),
        sa.Column("options", sa.Text, nullable=False),
        sa.Column("start", sa.Text),
        sa.Column("resigned", sa.Integer),
        sa.Column("created", sa.String, nullable=False),
        sa.Column("updated", sa.String, nullable=False),
    )
    op.create_table(
        "seats",
        sa.Column("game_id", sa.String, sa.ForeignKey("games.id", ondelete="CASCADE")),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("kind", sa.String, nullable=False),
        sa.Column("agent", sa.String),
        sa.Column("token", sa.String),
        sa.PrimaryKeyConstraint("game_id", "seat"),
    )
    op.create_table(
        "moves",
        sa.Column("game_id", sa.String, sa.ForeignKey("games.id", ondelete="CASCADE")),
        sa.Column("number", sa.Integer, nullable=False),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("played", sa.String, nullable=False),
        sa.PrimaryKeyConstraint("game_id", "number"),
    )


def downgrade() -> None:
    """Drop everything."""
    op.drop_table("moves")
    op.drop_table("seats")
    op.drop_table("games")
