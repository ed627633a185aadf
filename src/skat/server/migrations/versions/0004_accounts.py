"""People's accounts (docs/accounts.md): ``accounts`` (name as typed, its key: NFKC and case folded, unique;
the Argon2id hash; disabled), ``account_sessions`` (the sha256 of each session token, never the token, with
its expiry), ``login_failures`` (wrong passwords by account and address, for throttling across processes),
and on ``skat_seats`` the seated person's ``account_id`` and ``guest_hash`` (a guest browser's id, hashed).

Revision ID: 0004
Revises: 0003
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "accounts",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("name_key", sa.String(200), nullable=False),
        sa.Column("password_hash", sa.String(200), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("disabled", sa.Boolean, nullable=False, server_default=sa.false()),
    )
    op.create_index("ix_accounts_name_key", "accounts", ["name_key"], unique=True)
    op.create_table(
        "account_sessions",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.String(32), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("last_seen", sa.Float, nullable=False),
        sa.Column("expires", sa.Float, nullable=False),
    )
    op.create_index("ix_account_sessions_account_id", "account_sessions", ["account_id"])
    op.create_table(
        "login_failures",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("key", sa.String(200), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("ix_login_failures_key", "login_failures", ["key"])
    # a database made before migrations gets its missing baseline tables from the code's schema (with these
    # columns and indexes already): add only what is not there
    inspector = sa.inspect(op.get_bind())
    columns = {c["name"] for c in inspector.get_columns("skat_seats")}
    indexes = {i["name"] for i in inspector.get_indexes("skat_seats")}
    for column, length in (("account_id", 32), ("guest_hash", 64)):
        if column not in columns:
            op.add_column("skat_seats", sa.Column(column, sa.String(length), nullable=True))
        if f"ix_skat_seats_{column}" not in indexes:
            op.create_index(f"ix_skat_seats_{column}", "skat_seats", [column])


def downgrade() -> None:
    op.drop_index("ix_skat_seats_guest_hash", "skat_seats")
    op.drop_index("ix_skat_seats_account_id", "skat_seats")
    with op.batch_alter_table("skat_seats") as batch:
        batch.drop_column("guest_hash")
        batch.drop_column("account_id")
    op.drop_index("ix_login_failures_key", "login_failures")
    op.drop_table("login_failures")
    op.drop_index("ix_account_sessions_account_id", "account_sessions")
    op.drop_table("account_sessions")
    op.drop_index("ix_accounts_name_key", "accounts")
    op.drop_table("accounts")
