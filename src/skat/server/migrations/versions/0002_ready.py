"""``skat_ready``: the people ready for a table's next deal, so that every server process of a table knows
who pressed "next deal" (one row per person and deal; a second press changes nothing).

Revision ID: 0002
Revises: 0001
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "skat_ready",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("deal_no", sa.Integer, primary_key=True),
        sa.Column("position", sa.Integer, primary_key=True),
    )


def downgrade() -> None:
    op.drop_table("skat_ready")
