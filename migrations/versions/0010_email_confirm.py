"""E-mail double opt-in: a seat's address is confirmed through a link before any notice goes
to it, and every address has an hourly budget of mails.

Addresses set before this revision were never confirmed: they wait for a confirmation like a
new one (the player sends the link from the table page), and get no notice until then.

Revision ID: 0010
Revises: 0008
Create Date: 2026-12-06
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0010"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("email_confirmed_at", sa.Float(), nullable=True))
        batch.add_column(sa.Column("email_token_hash", sa.String(64), nullable=True))
        batch.add_column(sa.Column("email_token_until", sa.Float(), nullable=True))
        batch.add_column(sa.Column("email_links", sa.Integer(), nullable=False, server_default="0"))
        batch.create_index("ix_seats_email_token_hash", ["email_token_hash"], unique=True)
    op.create_table(
        "mail_budget",
        sa.Column("address_key", sa.String(64), nullable=False),
        sa.Column("hour", sa.Integer(), nullable=False),
        sa.Column("sent", sa.Integer(), nullable=False, server_default="0"),
        sa.PrimaryKeyConstraint("address_key", "hour", name="pk_mail_budget"),
    )


def downgrade() -> None:
    op.drop_table("mail_budget")
    with op.batch_alter_table("seats") as batch:
        batch.drop_index("ix_seats_email_token_hash")
        batch.drop_column("email_links")
        batch.drop_column("email_token_until")
        batch.drop_column("email_token_hash")
        batch.drop_column("email_confirmed_at")
