"""The organiser's changes to tables and tournaments: rename, delete (a mark: the event log
is kept), reissue a lost scorer or referee token. Each is one transaction with its row in
``organiser_log`` (service/club.py), so the log says who changed what and when."""

from __future__ import annotations

from sqlalchemy import select, update

from service.club import Club, now
from service.db import write_transaction
from service.games import FieldError
from service.models import card_tables, tournament_tables, tournaments
from service.store import Store, TableMeta, hash_token, new_token
from service.tournament_store import TournamentMeta, TournamentStore


class Refused(ValueError):
    """The change cannot be made as asked (409, the message says why)."""


def rename_table(store: Store, meta: TableMeta, name: str) -> TableMeta:
    with write_transaction(store.engine) as conn:
        conn.execute(update(card_tables).where(card_tables.c.id == meta.id).values(name=name))
        Club.log(conn, "renamed", "table", meta.id, {"from": meta.name, "to": name})
    return _reread(store, meta.id)


def delete_table(store: Store, meta: TableMeta) -> TableMeta:
    """Mark the table deleted. A tournament's table goes with its tournament only."""
    with write_transaction(store.engine) as conn:
        owner = conn.execute(
            select(tournament_tables.c.tournament_id).where(tournament_tables.c.table_id == meta.id)
        ).scalar()
        if owner is not None:
            raise Refused(
                f"table {meta.id} is scheduled in tournament {owner}: delete the tournament "
                "(DELETE /api/tournaments/{id}) to delete its tables"
            )
        when = now()
        conn.execute(update(card_tables).where(card_tables.c.id == meta.id).values(deleted_at=when))
        Club.log(conn, "deleted", "table", meta.id, {"name": meta.name, "game": meta.game})
    return _reread(store, meta.id)


def reissue_scorer_token(store: Store, meta: TableMeta) -> tuple[TableMeta, str]:
    """A new scorer token for the table; the old one stops working at once."""
    token = new_token()
    with write_transaction(store.engine) as conn:
        conn.execute(
            update(card_tables)
            .where(card_tables.c.id == meta.id)
            .values(scorer_token_hash=hash_token(token))
        )
        Club.log(conn, "reissued", "table", meta.id, {"token": "scorer"})
    return _reread(store, meta.id), token


def _reread(store: Store, table_id: str) -> TableMeta:
    meta = store.meta(table_id, fresh=True)
    assert meta is not None
    return meta


def rename_tournament(tours: TournamentStore, meta: TournamentMeta, name: str) -> TournamentMeta:
    with write_transaction(tours.engine) as conn:
        conn.execute(update(tournaments).where(tournaments.c.id == meta.id).values(name=name))
        Club.log(conn, "renamed", "tournament", meta.id, {"from": meta.name, "to": name})
    return tours.reread(meta.id)


def delete_tournament(tours: TournamentStore, meta: TournamentMeta) -> None:
    """Mark the tournament and every table of its schedule deleted (their logs are kept)."""
    tables = [s.table_id for s in tours.seatings(meta.id)]
    when = now()
    with write_transaction(tours.engine) as conn:
        conn.execute(update(tournaments).where(tournaments.c.id == meta.id).values(deleted_at=when))
        if tables:
            conn.execute(
                update(card_tables).where(card_tables.c.id.in_(tables)).values(deleted_at=when)
            )
        Club.log(conn, "deleted", "tournament", meta.id, {"name": meta.name, "tables": len(tables)})
    tours.reread(meta.id)
    for table_id in tables:
        tours.store.meta(table_id, fresh=True)


def reissue_referee_token(tours: TournamentStore, meta: TournamentMeta) -> str:
    token = new_token()
    with write_transaction(tours.engine) as conn:
        conn.execute(
            update(tournaments)
            .where(tournaments.c.id == meta.id)
            .values(referee_token_hash=hash_token(token))
        )
        Club.log(conn, "reissued", "tournament", meta.id, {"token": "referee"})
    tours.reread(meta.id)
    return token


def check_name(name: str) -> str:
    """A name as stored: surrounding blanks removed, never blank."""
    name = name.strip()
    if not name:
        raise FieldError("name", "a blank name: give the table or tournament a name")
    return name
