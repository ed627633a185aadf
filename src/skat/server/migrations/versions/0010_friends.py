"""Friends (docs/friends.md): ``follows`` (a person follows another), ``blocks`` (a person blocks another),
``presence`` (when a person was last seen, at which table) and ``invitations`` (to a table, kept an hour).

Revision ID: 0010
Revises: 0009
"""

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "follows",
        sa.Column("follower", sa.String(32), primary_key=True),
        sa.Column("followed", sa.String(32), primary_key=True),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("ix_follows_followed", "follows", ["followed"])
    op.create_table(
        "blocks",
        sa.Column("blocker", sa.String(32), primary_key=True),
        sa.Column("blocked", sa.String(32), primary_key=True),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("ix_blocks_blocked", "blocks", ["blocked"])
    op.create_table(
        "presence",
        sa.Column("account_id", sa.String(32), primary_key=True),
        sa.Column("table_id", sa.String(32), nullable=True),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_table(
        "invitations",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("from_account", sa.String(32), nullable=False),
        sa.Column("to_account", sa.String(32), nullable=False),
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("invite", sa.String(64), nullable=True),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("ix_invitations_to_account", "invitations", ["to_account", "at"])


def downgrade() -> None:
    op.drop_index("ix_invitations_to_account", "invitations")
    op.drop_table("invitations")
    op.drop_table("presence")
    op.drop_index("ix_blocks_blocked", "blocks")
    op.drop_table("blocks")
    op.drop_index("ix_follows_followed", "follows")
    op.drop_table("follows")
