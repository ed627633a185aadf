"""Chat at a table and in the lobby (docs/chat.md): ``chat_messages`` (the room, a table's id or ``lobby``, the
channel, the author's key and name, the text or a preset phrase's key, when, and whether the operator deleted it).

Revision ID: 0008
Revises: 0007
"""

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "chat_messages",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("room", sa.String(40), nullable=False),
        sa.Column("channel", sa.String(16), nullable=False),
        sa.Column("author", sa.String(80), nullable=False),
        sa.Column("name", sa.String(100), nullable=False),
        sa.Column("position", sa.Integer, nullable=True),
        sa.Column("text", sa.Text, nullable=True),
        sa.Column("phrase", sa.String(40), nullable=True),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("deleted", sa.Boolean, nullable=False, server_default=sa.false()),
    )
    op.create_index("ix_chat_messages_room_id", "chat_messages", ["room", "id"])
    op.create_index("ix_chat_messages_at", "chat_messages", ["at"])


def downgrade() -> None:
    op.drop_index("ix_chat_messages_at", table_name="chat_messages")
    op.drop_index("ix_chat_messages_room_id", table_name="chat_messages")
    op.drop_table("chat_messages")
