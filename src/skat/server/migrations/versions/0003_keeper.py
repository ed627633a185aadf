"""The score keeper's lists of real tables and club tournaments (docs/keeper-server.md): ``keeper_lists``
(each list as ``ScoreKeeper.to_json()`` with its change count and, for a tournament table, its tournament,
series and table), ``keeper_changes`` (the ids of accepted changes with their answers) and ``tournaments``.

Revision ID: 0003
Revises: 0002
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "keeper_lists",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("updated", sa.Float, nullable=False),
        sa.Column("key_hash", sa.String(64), nullable=False),
        sa.Column("data", sa.Text, nullable=False),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("tournament_id", sa.String(32), nullable=True),
        sa.Column("series", sa.Integer, nullable=True),
        sa.Column("table_no", sa.Integer, nullable=True),
    )
    op.create_index("ix_keeper_lists_tournament_id", "keeper_lists", ["tournament_id"])
    op.create_table(
        "keeper_changes",
        sa.Column("list_id", sa.String(32), primary_key=True),
        sa.Column("change_id", sa.String(64), primary_key=True),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("answer", sa.Text, nullable=False),
    )
    op.create_table(
        "tournaments",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("updated", sa.Float, nullable=False),
        sa.Column("key_hash", sa.String(64), nullable=False),
        sa.Column("data", sa.Text, nullable=False),
        sa.Column("seq", sa.Integer, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("tournaments")
    op.drop_table("keeper_changes")
    op.drop_index("ix_keeper_lists_tournament_id", "keeper_lists")
    op.drop_table("keeper_lists")
