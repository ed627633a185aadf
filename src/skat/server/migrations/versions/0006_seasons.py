"""A club's season across its tournament evenings (docs/season.md): ``seasons`` (its rule, members, links and
evenings as ``Season.to_json()`` without the evenings' results, which are read from the tournaments).

Revision ID: 0006
Revises: 0005
"""

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "seasons",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("updated", sa.Float, nullable=False),
        sa.Column("key_hash", sa.String(64), nullable=False),
        sa.Column("data", sa.Text, nullable=False),
        sa.Column("seq", sa.Integer, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("seasons")
