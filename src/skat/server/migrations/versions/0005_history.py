"""Players' histories, statistics and ratings (docs/history.md): ``player_deals`` (a row per finished deal and
table position), ``player_stats`` (counters kept up to date as deals finish), ``player_days`` (per day, for the
last 30 days' leaderboard), ``ratings`` and ``rating_history``. The deals stored before are written into them
(:func:`skat.server.history.rebuild`), so an existing database comes with its players' histories.

Revision ID: 0005
Revises: 0004
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "player_deals",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("player", sa.String(80), nullable=False),
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("deal_no", sa.Integer, nullable=False),
        sa.Column("position", sa.Integer, nullable=False),
        sa.Column("game_no", sa.Integer, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("variant", sa.String(20), nullable=False),
        sa.Column("ruleset", sa.String(40), nullable=False),
        sa.Column("game", sa.String(20), nullable=False),
        sa.Column("contract", sa.String(80), nullable=False),
        sa.Column("role", sa.String(10), nullable=False),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("bid", sa.Integer, nullable=False),
        sa.Column("won", sa.Boolean, nullable=True),
        sa.Column("score", sa.Integer, nullable=False),
        sa.Column("sf", sa.Integer, nullable=False),
        sa.Column("kontra", sa.Integer, nullable=False),
        sa.Column("overbid", sa.Boolean, nullable=False),
    )
    op.create_index("ix_player_deals_player_at", "player_deals", ["player", "at"])
    op.create_index("ix_player_deals_deal", "player_deals", ["table_id", "deal_no", "position"], unique=True)
    op.create_table(
        "player_stats",
        sa.Column("player", sa.String(80), primary_key=True),
        sa.Column("scope", sa.String(80), primary_key=True),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("data", sa.Text, nullable=False),
        sa.Column("updated", sa.Float, nullable=False),
    )
    op.create_index("ix_player_stats_scope", "player_stats", ["scope"])
    op.create_table(
        "player_days",
        sa.Column("player", sa.String(80), primary_key=True),
        sa.Column("day", sa.Integer, primary_key=True),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("sf", sa.Integer, nullable=False),
        sa.Column("score", sa.Integer, nullable=False),
    )
    op.create_index("ix_player_days_day", "player_days", ["day"])
    op.create_table(
        "ratings",
        sa.Column("player", sa.String(80), primary_key=True),
        sa.Column("kind", sa.String(10), nullable=False),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("conservative", sa.Float, nullable=False),
        sa.Column("lists", sa.Integer, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("updated", sa.Float, nullable=False),
    )
    op.create_index("ix_ratings_kind_conservative", "ratings", ["kind", "conservative"])
    op.create_table(
        "rating_history",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("player", sa.String(80), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("first_game", sa.Integer, nullable=False),
        sa.Column("last_game", sa.Integer, nullable=False),
        sa.Column("sf", sa.Integer, nullable=False),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
    )
    op.create_index("ix_rating_history_player_at", "rating_history", ["player", "at"])
    from skat.server.history import rebuild

    rebuild(op.get_bind(), stand_in_column=False)  # the stand-in's marks come with 0007


def downgrade() -> None:
    op.drop_index("ix_rating_history_player_at", "rating_history")
    op.drop_table("rating_history")
    op.drop_index("ix_ratings_kind_conservative", "ratings")
    op.drop_table("ratings")
    op.drop_index("ix_player_days_day", "player_days")
    op.drop_table("player_days")
    op.drop_index("ix_player_stats_scope", "player_stats")
    op.drop_table("player_stats")
    op.drop_index("ix_player_deals_deal", "player_deals")
    op.drop_index("ix_player_deals_player_at", "player_deals")
    op.drop_table("player_deals")
