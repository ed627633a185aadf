"""The move clock's computer stand-in (docs/clock.md): ``skat_actions.stand_in`` marks an action a computer player
made for a person whose time ran out (or who was away), ``player_deals.stand_in`` counts a position's such
decisions in a finished deal. No table is added.

Revision ID: 0007
Revises: 0006
"""

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    inspector = sa.inspect(op.get_bind())
    if "stand_in" not in {c["name"] for c in inspector.get_columns("skat_actions")}:
        op.add_column("skat_actions", sa.Column("stand_in", sa.Boolean, nullable=False, server_default=sa.false()))
    if "stand_in" not in {c["name"] for c in inspector.get_columns("player_deals")}:
        op.add_column("player_deals", sa.Column("stand_in", sa.Integer, nullable=False, server_default="0"))


def downgrade() -> None:
    with op.batch_alter_table("player_deals") as batch:
        batch.drop_column("stand_in")
    with op.batch_alter_table("skat_actions") as batch:
        batch.drop_column("stand_in")
