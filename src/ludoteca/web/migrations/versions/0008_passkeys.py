"""Passkeys: ``account_passkeys`` and the WebAuthn challenges given to browser sessions.

Revision ID: 0008
Revises: 0006
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``account_passkeys`` and ``webauthn_challenges``."""
    op.create_table(
        "account_passkeys",
        sa.Column("id", sa.String, primary_key=True),
        sa.Column("account_id", sa.String, nullable=False),
        sa.Column("credential_id", sa.String, nullable=False, unique=True),
        sa.Column("public_key", sa.Text, nullable=False),
        sa.Column("sign_count", sa.Integer, nullable=False, server_default="0"),
        sa.Column("name", sa.String, nullable=False),
        sa.Column("created", sa.String, nullable=False),
        sa.Column("used", sa.String),
    )
    op.create_index("account_passkeys_by_account", "account_passkeys", ["account_id"])
    op.create_table(
        "webauthn_challenges",
        sa.Column("session", sa.String, primary_key=True),
        sa.Column("purpose", sa.String, primary_key=True),
        sa.Column("challenge", sa.String, nullable=False),
        sa.Column("account_id", sa.String),
        sa.Column("expires", sa.Float, nullable=False),
    )


def downgrade() -> None:
    """Remove what `upgrade` added."""
    op.drop_table("webauthn_challenges")
    op.drop_index("account_passkeys_by_account", table_name="account_passkeys")
    op.drop_table("account_passkeys")
