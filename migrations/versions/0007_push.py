"""Web Push: one subscription row per device and seat, and the server's VAPID key pair.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-02
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "push_subscriptions",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("table_id", sa.String(length=32), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("endpoint", sa.String(length=2048), nullable=False),
        sa.Column("endpoint_key", sa.String(length=64), nullable=False),
        sa.Column("p256dh", sa.String(length=100), nullable=False),
        sa.Column("auth", sa.String(length=40), nullable=False),
        sa.Column("lang", sa.String(length=8), nullable=False),
        sa.Column(
            "created_at",
            sa.DateTime(timezone=True),
            server_default=sa.func.now(),
            nullable=False,
        ),
        sa.ForeignKeyConstraint(
            ["table_id"],
            ["tables.id"],
            name=op.f("fk_push_subscriptions_table_id_tables"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_push_subscriptions")),
        sa.UniqueConstraint(
            "table_id", "seat", "endpoint_key", name="uq_push_subscriptions_device"
        ),
    )
    op.create_index(
        op.f("ix_push_subscriptions_table_id"), "push_subscriptions", ["table_id"], unique=False
    )
    op.create_table(
        "vapid_keys",
        sa.Column("id", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("private_key", sa.String(length=64), nullable=False),
        sa.Column("public_key", sa.String(length=100), nullable=False),
        sa.Column(
            "created_at",
            sa.DateTime(timezone=True),
            server_default=sa.func.now(),
            nullable=False,
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_vapid_keys")),
    )


def downgrade() -> None:
    op.drop_table("vapid_keys")
    op.drop_index(op.f("ix_push_subscriptions_table_id"), table_name="push_subscriptions")
    op.drop_table("push_subscriptions")
