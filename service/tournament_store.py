"""Tournaments in the database: entrants, the schedule laid out as real card tables, standings.

A tournament is created in one transaction with every table of its schedule (circle method,
:mod:`service.tournament`); each table is an ordinary card table with its own event log and
scorer token, linked to the tournament by round, table number and the entrant at each side.
Standings are never stored: they are read from the tables' finished games (a replay, cached
per table by :class:`~service.store.Store`), so a correction at a table changes them too.

Clag is every player for himself at tables of 4 to 7: its tournament seats the players in one
round at as few tables as the limit of 7 allows, split evenly.
"""

from __future__ import annotations

import secrets
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Engine, func, insert, select

from service.club import CACHE_S, Club
from service.db import read_transaction, write_transaction
from service.games import JSON, FieldError, TableSession
from service.models import card_tables, events, tournament_tables, tournaments
from service.store import Store, TableMeta, hash_token, new_token, now
from service.tournament import RankBy, TableResult, schedule, standings

TEAM_GAMES = {"clabber": 2, "belote": 2, "klaberjass": 1, "clag": 1}
CLAG_MAX_SEATS = 7
CLAG_MIN_SEATS = 4


@dataclass(frozen=True, slots=True)
class TournamentMeta:
    id: str
    name: str
    game: str
    options: JSON
    rank_by: RankBy
    entrants: tuple[JSON, ...]
    token_hash: str
    created_at: datetime
    deleted: bool = False

    def as_json(self) -> JSON:
        return {
            "id": self.id,
            "name": self.name,
            "game": self.game,
            "options": dict(self.options),
            "rank_by": self.rank_by,
            "entrants": [dict(e) for e in self.entrants],
            "created_at": self.created_at.isoformat(),
        }


@dataclass(frozen=True, slots=True)
class Seating:
    """One scheduled table: its round, number, and the entrant at each side."""

    table_id: str
    round: int
    number: int
    entrants: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Created:
    meta: TournamentMeta
    referee_token: str
    tables: tuple[tuple[Seating, TableMeta, str], ...]  # (seating, table, scorer token)


def seatings_plan(game: str, n: int) -> list[tuple[int, int, tuple[int, ...]]]:
    """(round, table number, entrants by side) for ``n`` entrants of ``game``."""
    if game == "clag":
        if n < CLAG_MIN_SEATS:
            raise FieldError("entrants", f"a Clag tournament needs at least 4 players, got {n}")
        count = -(-n // CLAG_MAX_SEATS)
        sizes = [n // count + (1 if i < n % count else 0) for i in range(count)]
        out: list[tuple[int, int, tuple[int, ...]]] = []
        start = 0
        for number, size in enumerate(sizes, 1):
            out.append((1, number, tuple(range(start, start + size))))
            start += size
        return out
    if n < 2:
        raise FieldError("entrants", f"a round robin needs at least 2 entrants, got {n}")
    matches, _byes = schedule(n)
    return [(m.round, m.table, (m.home, m.away)) for m in matches]


def table_players(game: str, entrants: list[JSON], sides: tuple[int, ...]) -> list[str]:
    """The table's players in seat order: partners sit opposite (seats 0 and 2, 1 and 3)."""
    if TEAM_GAMES[game] == 2:
        home, away = (entrants[i]["players"] for i in sides)
        return [home[0], away[0], home[1], away[1]]
    return [entrants[i]["players"][0] for i in sides]


def check_entrants(game: str, entrants: list[JSON]) -> None:
    per = TEAM_GAMES.get(game)
    if per is None:
        raise FieldError("game", f"unknown game {game!r}: expected one of {', '.join(TEAM_GAMES)}")
    names = [e["name"] for e in entrants]
    if len(set(names)) != len(names):
        raise FieldError("entrants", f"entrant names must differ: {names!r}")
    for e in entrants:
        if len(e["players"]) != per:
            what = "a team of 2 players" if per == 2 else "one player"
            raise FieldError(
                "entrants",
                f"entrant {e['name']!r} has players {e['players']!r}: {game} needs {what}",
            )


class TournamentStore:
    def __init__(self, engine: Engine, store: Store) -> None:
        self.engine = engine
        self.store = store
        self._metas: dict[str, TournamentMeta] = {}
        self._meta_at: dict[str, float] = {}
        self._seatings: dict[str, tuple[Seating, ...]] = {}
        # the last view of each tournament, keyed on its tables' latest seqs: every open
        # stream asks for the view after each event, and one query tells it is unchanged
        self._views: dict[str, tuple[Any, JSON]] = {}

    def create(
        self, name: str, game: str, options: JSON, rank_by: RankBy, entrants: list[JSON]
    ) -> Created:
        """A tournament, its tables and tokens (shown once: only their hashes are stored);
        the organiser's log records it."""
        check_entrants(game, entrants)
        plan = seatings_plan(game, len(entrants))
        token = new_token()
        created = now()
        meta = TournamentMeta(
            secrets.token_hex(8), name, game, dict(options), rank_by,
            tuple(dict(e) for e in entrants), hash_token(token), created,
        )  # fmt: skip
        tables: list[tuple[Seating, TableMeta, str]] = []
        for rnd, number, sides in plan:
            players = table_players(game, entrants, sides)
            TableSession.new(game, players, options)  # the options and seats are checked here
            scorer = new_token()
            table = TableMeta(
                secrets.token_hex(8), f"{name} - round {rnd}, table {number}", game,
                tuple(players), dict(options), hash_token(scorer), created,
            )  # fmt: skip
            tables.append((Seating(table.id, rnd, number, sides), table, scorer))
        with write_transaction(self.engine) as conn:
            conn.execute(
                insert(tournaments).values(
                    id=meta.id, name=name, game=game, options=meta.options, rank_by=rank_by,
                    entrants=list(meta.entrants), referee_token_hash=meta.token_hash,
                    created_at=created,
                )
            )  # fmt: skip
            for seating, table, _ in tables:
                conn.execute(
                    insert(card_tables).values(
                        id=table.id, name=table.name, game=game, players=list(table.players),
                        options=table.options, scorer_token_hash=table.token_hash,
                        created_at=created,
                    )
                )  # fmt: skip
                conn.execute(
                    insert(tournament_tables).values(
                        table_id=table.id, tournament_id=meta.id, round=seating.round,
                        number=seating.number, entrants=list(seating.entrants),
                    )
                )  # fmt: skip
            Club.log(conn, "created", "tournament", meta.id, {"name": name, "tables": len(tables)})
        self._metas[meta.id] = meta
        self._meta_at[meta.id] = time.monotonic()
        self._seatings[meta.id] = tuple(s for s, _, _ in tables)
        return Created(meta, token, tuple(tables))

    # -- reading ---------------------------------------------------------------------------

    def meta(self, tournament_id: str) -> TournamentMeta | None:
        """The tournament, unless there is none or the organiser deleted it."""
        found = self._metas.get(tournament_id)
        if found is not None and time.monotonic() - self._meta_at[tournament_id] < CACHE_S:
            return None if found.deleted else found
        return self.reread(tournament_id, missing_ok=True)

    def reread(self, tournament_id: str, missing_ok: bool = False) -> Any:
        """The tournament as the database has it now (None: none, or deleted)."""
        if "\x00" in tournament_id:
            return None
        with read_transaction(self.engine) as conn:
            row = conn.execute(select(tournaments).where(tournaments.c.id == tournament_id)).first()
        if row is None:
            return None
        meta = self._remember(row)
        return None if meta.deleted else meta

    def by_token(self, token: str) -> TournamentMeta | None:
        """The tournament whose referee token this is (the token alone names it)."""
        with read_transaction(self.engine) as conn:
            row = conn.execute(
                select(tournaments).where(
                    tournaments.c.referee_token_hash == hash_token(token),
                    tournaments.c.deleted_at.is_(None),
                )
            ).first()
        return None if row is None else self._remember(row)

    def list(self) -> list[TournamentMeta]:
        """The tournaments not deleted, oldest first."""
        with read_transaction(self.engine) as conn:
            rows = conn.execute(
                select(tournaments)
                .where(tournaments.c.deleted_at.is_(None))
                .order_by(tournaments.c.created_at)
            ).all()
        return [self._remember(r) for r in rows]

    def _remember(self, row: Any) -> TournamentMeta:
        created = row.created_at if row.created_at.tzinfo else row.created_at.replace(tzinfo=UTC)
        meta = TournamentMeta(
            row.id, row.name, row.game, dict(row.options), row.rank_by,
            tuple(row.entrants), row.referee_token_hash, created, row.deleted_at is not None,
        )  # fmt: skip
        self._metas[meta.id] = meta
        self._meta_at[meta.id] = time.monotonic()
        return meta

    def seatings(self, tournament_id: str) -> tuple[Seating, ...]:
        """The tournament's tables (a schedule never changes once made: cached)."""
        found = self._seatings.get(tournament_id)
        if found is not None:
            return found
        with read_transaction(self.engine) as conn:
            rows = conn.execute(
                select(tournament_tables)
                .where(tournament_tables.c.tournament_id == tournament_id)
                .order_by(tournament_tables.c.round, tournament_tables.c.number)
            ).all()
        seats = tuple(Seating(r.table_id, r.round, r.number, tuple(r.entrants)) for r in rows)
        self._seatings[tournament_id] = seats
        return seats

    def tournament_of(self, table_id: str) -> str | None:
        with read_transaction(self.engine) as conn:
            found = conn.execute(
                select(tournament_tables.c.tournament_id).where(
                    tournament_tables.c.table_id == table_id
                )
            ).scalar()
        return None if found is None else str(found)

    def latest_seqs(self, tournament_id: str) -> tuple[tuple[str, int], ...]:
        """Each of the tournament's tables with its latest event's seq (0: none yet)."""
        ids = [s.table_id for s in self.seatings(tournament_id)]
        with read_transaction(self.engine) as conn:
            rows = conn.execute(
                select(events.c.table_id, func.max(events.c.seq))
                .where(events.c.table_id.in_(ids))
                .group_by(events.c.table_id)
            ).all()
        latest = {str(t): int(s) for t, s in rows}
        return tuple((t, latest.get(t, 0)) for t in ids)

    def view(self, meta: TournamentMeta) -> JSON:
        """The tournament as its pages show it: every table's progress and the standings."""
        key = (self.latest_seqs(meta.id), meta)  # the organiser may rename it
        cached = self._views.get(meta.id)
        if cached is not None and cached[0] == key:
            return cached[1]
        view = self._view(meta)
        self._views[meta.id] = (key, view)
        return view

    def export(self, meta: TournamentMeta) -> JSON:
        """The whole tournament as one document: entrants, standings, and every table with
        its seating and its full event log (undos and corrections included, who and when),
        each replayable as ``GET /api/tables/{id}/export`` is."""
        view = self.view(meta)
        tables = []
        for seating in self.seatings(meta.id):
            table = self.store.meta(seating.table_id)
            if table is None:
                continue
            tables.append(
                {
                    "table": table.as_json(),
                    "round": seating.round,
                    "number": seating.number,
                    "entrants": list(seating.entrants),
                    "events": [r.as_json() for r in self.store.records(table.id)],
                }
            )
        return {
            "format": "trickcam-tournament",
            "version": 1,
            "tournament": meta.as_json(),
            "standings": view["standings"],
            "tables": tables,
        }

    def _view(self, meta: TournamentMeta) -> JSON:
        entrants = list(meta.entrants)
        tables: list[JSON] = []
        results: list[TableResult] = []
        for seating in self.seatings(meta.id):
            table = self.store.meta(seating.table_id)
            if table is None:
                continue
            state = self.store.snapshot(table).state
            results.extend(table_results(seating, state))
            tables.append(table_row(seating, entrants, state))
        byes = [] if meta.game == "clag" else schedule(len(entrants))[1]
        return {
            **meta.as_json(),
            "tables": tables,
            "byes": [{"round": b.round, "entrant": b.entrant} for b in byes],
            "standings": standings_json(meta, results),
        }


def table_results(seating: Seating, state: JSON) -> list[TableResult]:
    """The finished games of one table, as the standings count them."""
    out = []
    for game in state["games"]:
        if game["over"]:
            winners = tuple(seating.entrants[s] for s in game["winners"])
            out.append(TableResult(seating.entrants, tuple(game["totals"]), winners))
    return out


def table_row(seating: Seating, entrants: list[JSON], state: JSON) -> JSON:
    """One table as the tournament's pages show it (from its state)."""
    current = state["current"]
    return {
        "id": seating.table_id,
        "round": seating.round,
        "number": seating.number,
        "entrants": list(seating.entrants),
        "names": [entrants[i]["name"] for i in seating.entrants],
        "seq": state["seq"],
        "totals": state["totals"],
        "games_won": state["games_won"],
        "over": bool(state["games"]) and bool(state["games"][-1]["over"]),
        "trump": None if current is None else current.get("trump"),
    }


def standings_json(meta: TournamentMeta, results: list[TableResult]) -> list[JSON]:
    entrants = list(meta.entrants)
    return [
        {
            "place": s.place,
            "entrant": s.entrant,
            "name": entrants[s.entrant]["name"],
            "players": entrants[s.entrant]["players"],
            "played": s.played,
            "won": s.won,
            "lost": s.lost,
            "points": s.points,
            "points_against": s.points_against,
        }
        for s in standings(len(entrants), results, meta.rank_by)
    ]
