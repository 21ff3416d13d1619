"""Tournaments: the tournament (entrants, ranking, referee token), its scheduled tables (each a
real card table), and the camera's evidence per play (crops, plays in doubt, rulings).

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision: str | None = "0001"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "tournaments",
        sa.Column("id", sa.String(32), nullable=False),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("game", sa.String(20), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("rank_by", sa.String(10), nullable=False),
        sa.Column("entrants", sa.JSON(), nullable=False),
        sa.Column("referee_token_hash", sa.String(64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_tournaments"),
        sa.UniqueConstraint("referee_token_hash", name="uq_tournaments_referee_token_hash"),
    )
    op.create_table(
        "tournament_tables",
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("tournament_id", sa.String(32), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("entrants", sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(
            ["table_id"],
            ["card_tables.id"],
            name="fk_tournament_tables_table_id_card_tables",
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["tournament_id"],
            ["tournaments.id"],
            name="fk_tournament_tables_tournament_id_tournaments",
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("table_id", name="pk_tournament_tables"),
        sa.UniqueConstraint(
            "tournament_id", "round", "number", name="uq_tournament_tables_tournament_id_round"
        ),
    )
    op.create_table(
        "play_evidence",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("card", sa.String(4), nullable=False),
        sa.Column("candidates", sa.JSON(), nullable=False),
        sa.Column("confirm", sa.Boolean(), nullable=False),
        sa.Column("reason", sa.String(500), nullable=False),
        sa.Column("crop", sa.LargeBinary(), nullable=True),
        sa.Column("actor", sa.String(32), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("resolved_card", sa.String(4), nullable=True),
        sa.Column("resolved_by", sa.String(64), nullable=True),
        sa.Column("resolved_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["table_id"],
            ["card_tables.id"],
            name="fk_play_evidence_table_id_card_tables",
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name="pk_play_evidence"),
        sa.UniqueConstraint("table_id", "seq", name="uq_play_evidence_table_id_seq"),
    )


def downgrade() -> None:
    op.drop_table("play_evidence")
    op.drop_table("tournament_tables")
    op.drop_table("tournaments")
