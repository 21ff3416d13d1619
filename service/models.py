"""The database schema: tables and their append-only event logs (SQLAlchemy Core).

A table's state is never stored: it is the rules engine's replay of the table's events. An
event row is written once and never updated or deleted; an undo or a correction is itself an
event that the replay honours. ``seq`` numbers a table's events from 1 without gaps and is
unique per table, so two writers racing for the same table cannot both commit (the loser
retries). An ``Idempotency-Key`` is unique per table, so a retried POST cannot apply twice.

Schema changes go through Alembic (``service/migrations``); this module is what the latest
migration creates and what the queries use.
"""

from __future__ import annotations

from sqlalchemy import (
    JSON,
    Boolean,
    Column,
    DateTime,
    ForeignKey,
    Integer,
    LargeBinary,
    MetaData,
    String,
    Table,
    UniqueConstraint,
)

metadata = MetaData(
    naming_convention={
        "ix": "ix_%(column_0_label)s",
        "uq": "uq_%(table_name)s_%(column_0_name)s_%(column_1_name)s",
        "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
        "pk": "pk_%(table_name)s",
    }
)

card_tables = Table(
    "card_tables",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("name", String(200), nullable=False),
    Column("game", String(20), nullable=False),
    Column("players", JSON, nullable=False),
    Column("options", JSON, nullable=False),
    # sha256 of the scorer token: a leaked database does not let anyone post to a table
    Column("scorer_token_hash", String(64), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    # set when the organiser deletes the table: its log is kept, it is no longer shown
    Column("deleted_at", DateTime(timezone=True), nullable=True),
)

events = Table(
    "events",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column(
        "table_id",
        String(32),
        ForeignKey("card_tables.id", ondelete="CASCADE"),
        nullable=False,
    ),
    Column("seq", Integer, nullable=False),
    Column("type", String(32), nullable=False),
    # the event as the API accepted it (normalised JSON): what export and replay read
    Column("payload", JSON, nullable=False),
    # who posted it ("scorer", "referee", ...) and when: the audit trail
    Column("actor", String(32), nullable=False),
    Column("idempotency_key", String(200), nullable=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
    UniqueConstraint("table_id", "seq"),
    UniqueConstraint("table_id", "idempotency_key"),
)

# -- tournaments (migration 0002) -------------------------------------------------------------

tournaments = Table(
    "tournaments",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("name", String(200), nullable=False),
    Column("game", String(20), nullable=False),
    Column("options", JSON, nullable=False),
    # "games": by games won, game points break ties; "points": by game points alone
    Column("rank_by", String(10), nullable=False),
    # [{"name": ..., "players": [...]}, ...]: an entrant is a team, or a player (Klaberjass, Clag)
    Column("entrants", JSON, nullable=False),
    # sha256 of the referee token; unique: the token alone names its tournament
    Column("referee_token_hash", String(64), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("deleted_at", DateTime(timezone=True), nullable=True),  # as card_tables.deleted_at
    UniqueConstraint("referee_token_hash", name="uq_tournaments_referee_token_hash"),
)

tournament_tables = Table(
    "tournament_tables",
    metadata,
    # a scheduled match is a real card table (its own event log and scorer token)
    Column(
        "table_id",
        String(32),
        ForeignKey("card_tables.id", ondelete="CASCADE"),
        primary_key=True,
    ),
    Column(
        "tournament_id",
        String(32),
        ForeignKey("tournaments.id", ondelete="CASCADE"),
        nullable=False,
    ),
    Column("round", Integer, nullable=False),
    Column("number", Integer, nullable=False),
    # the entrant (index into tournaments.entrants) scoring as each side of the table
    Column("entrants", JSON, nullable=False),
    UniqueConstraint("tournament_id", "round", "number"),
)

play_evidence = Table(
    "play_evidence",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column(
        "table_id",
        String(32),
        ForeignKey("card_tables.id", ondelete="CASCADE"),
        nullable=False,
    ),
    # the play event (its seq in the table's log) this evidence is about
    Column("seq", Integer, nullable=False),
    Column("seat", Integer, nullable=False),
    Column("card", String(4), nullable=False),
    # the two readings in doubt (best first) when ``confirm``; else empty
    Column("candidates", JSON, nullable=False),
    Column("confirm", Boolean, nullable=False),
    Column("reason", String(500), nullable=False),
    # the camera's upright crop of the card (PNG), when a camera fed the table
    Column("crop", LargeBinary, nullable=True),
    Column("actor", String(32), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    # a person's ruling on a play in doubt: the card, who, when (null while awaiting it)
    Column("resolved_card", String(4), nullable=True),
    Column("resolved_by", String(64), nullable=True),
    Column("resolved_at", DateTime(timezone=True), nullable=True),
    UniqueConstraint("table_id", "seq"),
)

# -- the club's organiser (migration 0003) ----------------------------------------------------

club = Table(
    "club",
    metadata,
    # "organiser_pin": the PIN's salted PBKDF2 hash; "big_screen": what "/" shows
    Column("key", String(64), primary_key=True),
    Column("value", JSON, nullable=True),
    Column("updated_at", DateTime(timezone=True), nullable=False),
)

organiser_log = Table(
    "organiser_log",
    metadata,
    # what the organiser did (created, renamed, deleted, reissued a token, chose the screen)
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("at", DateTime(timezone=True), nullable=False),
    Column("action", String(32), nullable=False),
    Column("kind", String(16), nullable=False),  # "table", "tournament", "screen", "pin"
    Column("target", String(32), nullable=True),
    Column("detail", JSON, nullable=False),
)
