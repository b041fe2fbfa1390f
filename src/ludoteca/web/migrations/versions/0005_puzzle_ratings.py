"""Puzzle ratings: each puzzle's and each player's Glicko-2 rating, and who answered what.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def _rating_columns() -> list[sa.Column[object]]:
    return [
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("deviation", sa.Float, nullable=False),
        sa.Column("volatility", sa.Float, nullable=False),
        sa.Column("rated", sa.Integer, nullable=False, server_default="0"),
        sa.Column("solved", sa.Integer, nullable=False, server_default="0"),
        sa.Column("updated", sa.String, nullable=False),
    ]


def upgrade() -> None:
    """Add ``puzzle_ratings``, ``puzzle_players`` and ``puzzle_attempts``."""
    op.create_table(
        "puzzle_ratings",
        sa.Column("puzzle_id", sa.String, primary_key=True),
        sa.Column("game", sa.String, nullable=False),
        *_rating_columns(),
    )
    op.create_table(
        "puzzle_players",
        sa.Column("session", sa.String, primary_key=True),
        sa.Column("game", sa.String, primary_key=True),
        *_rating_columns(),
    )
    op.create_table(
        "puzzle_attempts",
        sa.Column("session", sa.String, primary_key=True),
        sa.Column("puzzle_id", sa.String, primary_key=True),
        sa.Column("game", sa.String, nullable=False),
        sa.Column("first_right", sa.Boolean, nullable=False),
        sa.Column("solved", sa.Boolean, nullable=False),
        sa.Column("tries", sa.Integer, nullable=False),
        sa.Column("updated", sa.String, nullable=False),
    )
    op.create_index("puzzle_attempts_by_game", "puzzle_attempts", ["session", "game"])


def downgrade() -> None:
    """Remove what `upgrade` added."""
    op.drop_index("puzzle_attempts_by_game", table_name="puzzle_attempts")
    op.drop_table("puzzle_attempts")
    op.drop_table("puzzle_players")
    op.drop_table("puzzle_ratings")
