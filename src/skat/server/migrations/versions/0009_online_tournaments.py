"""Online tournaments (docs/online-tournaments.md): ``online_tournaments`` (id, name, created, updated, the start time,
the status, the director key's hash, the settings, players, rounds and ranking as JSON, and a change count).

Revision ID: 0009
Revises: 0008
"""

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "online_tournaments",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("updated", sa.Float, nullable=False),
        sa.Column("starts_at", sa.Float, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("key_hash", sa.String(64), nullable=False),
        sa.Column("data", sa.Text, nullable=False),
        sa.Column("seq", sa.Integer, nullable=False),
    )
    op.create_index("ix_online_tournaments_status_starts", "online_tournaments", ["status", "starts_at"])


def downgrade() -> None:
    op.drop_index("ix_online_tournaments_status_starts", table_name="online_tournaments")
    op.drop_table("online_tournaments")
