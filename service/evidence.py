"""What the camera saw of each play, kept for the referee: the card's crop, and for a play in
doubt the two candidate cards and why, until a person rules on it.

A row belongs to a play event of a table's log (its ``seq``); the card recorded is read from
the table's effective log, so a later correction shows. A ruling is stored on the row (who,
when, which card); when it names another card the referee's router also posts the correction
event to the table's log, so the state and the audit trail carry it as an event.

The camera's side (``POST /api/tables/{id}/frames``, or ``trickcam watch --post``) calls
:meth:`EvidenceStore.add` (directly, or through ``POST /api/tables/{id}/plays/{seq}/evidence``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Engine, insert, select, update
from sqlalchemy.exc import IntegrityError

from rules.errors import IllegalEvent
from service.db import read_transaction, write_transaction
from service.games import JSON
from service.models import play_evidence
from service.store import now


class EvidenceConflict(IllegalEvent):
    """Evidence for a play that already has some, or a ruling on a play not in doubt."""


@dataclass(frozen=True, slots=True)
class PlayEvidence:
    table_id: str
    seq: int
    seat: int
    card: str
    candidates: tuple[str, ...]
    confirm: bool
    reason: str
    has_crop: bool
    actor: str
    created_at: datetime
    resolved_card: str | None
    resolved_by: str | None
    resolved_at: datetime | None

    @property
    def awaiting(self) -> bool:
        return self.confirm and self.resolved_at is None

    def as_json(self) -> JSON:
        return {
            "table_id": self.table_id,
            "seq": self.seq,
            "seat": self.seat,
            "card": self.card,
            "candidates": list(self.candidates),
            "confirm": self.confirm,
            "awaiting": self.awaiting,
            "reason": self.reason,
            "crop_url": (
                f"/api/tables/{self.table_id}/plays/{self.seq}/crop" if self.has_crop else None
            ),
            "posted_by": self.actor,
            "at": self.created_at.isoformat(),
            "ruling": None
            if self.resolved_at is None
            else {
                "card": self.resolved_card,
                "by": self.resolved_by,
                "at": self.resolved_at.isoformat(),
            },
        }


_COLUMNS = [c for c in play_evidence.c if c.name != "crop"]


def _utc(value: datetime | None) -> datetime | None:
    if value is None or value.tzinfo is not None:
        return value
    return value.replace(tzinfo=UTC)


def _row(r: Any) -> PlayEvidence:
    created = _utc(r.created_at)
    assert created is not None
    return PlayEvidence(
        r.table_id, r.seq, r.seat, r.card, tuple(r.candidates), bool(r.confirm), r.reason,
        bool(r.has_crop), r.actor, created, r.resolved_card, r.resolved_by, _utc(r.resolved_at),
    )  # fmt: skip


class EvidenceStore:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def add(
        self,
        table_id: str,
        seq: int,
        seat: int,
        card: str,
        *,
        candidates: Sequence[str] = (),
        confirm: bool = False,
        reason: str = "",
        crop: bytes | None = None,
        actor: str = "camera",
    ) -> PlayEvidence:
        """Record what was seen of play ``seq`` (seat ``seat`` played ``card``); once a play."""
        try:
            with write_transaction(self.engine) as conn:
                conn.execute(
                    insert(play_evidence).values(
                        table_id=table_id, seq=seq, seat=seat, card=card,
                        candidates=list(candidates), confirm=confirm, reason=reason, crop=crop,
                        actor=actor, created_at=now(),
                    )
                )  # fmt: skip
        except IntegrityError:
            raise EvidenceConflict(
                f"play {seq} of table {table_id}: its evidence was already recorded"
            ) from None
        found = self.get(table_id, seq)
        assert found is not None
        return found

    def _select(self) -> Any:
        return select(*_COLUMNS, (play_evidence.c.crop.is_not(None)).label("has_crop"))

    def get(self, table_id: str, seq: int) -> PlayEvidence | None:
        with read_transaction(self.engine) as conn:
            row = conn.execute(
                self._select().where(
                    play_evidence.c.table_id == table_id, play_evidence.c.seq == seq
                )
            ).first()
        return None if row is None else _row(row)

    def for_tables(self, table_ids: Sequence[str]) -> list[PlayEvidence]:
        if not table_ids:
            return []
        with read_transaction(self.engine) as conn:
            rows = conn.execute(
                self._select()
                .where(play_evidence.c.table_id.in_(list(table_ids)))
                .order_by(play_evidence.c.table_id, play_evidence.c.seq)
            ).all()
        return [_row(r) for r in rows]

    def crop(self, table_id: str, seq: int) -> bytes | None:
        with read_transaction(self.engine) as conn:
            found = conn.execute(
                select(play_evidence.c.crop).where(
                    play_evidence.c.table_id == table_id, play_evidence.c.seq == seq
                )
            ).scalar()
        return None if found is None else bytes(found)

    def resolve(self, table_id: str, seq: int, card: str, by: str) -> PlayEvidence:
        """Record a person's ruling on play ``seq`` in doubt: it is ``card``."""
        with write_transaction(self.engine) as conn:
            done = conn.execute(
                update(play_evidence)
                .where(
                    play_evidence.c.table_id == table_id,
                    play_evidence.c.seq == seq,
                    play_evidence.c.confirm.is_(True),
                    play_evidence.c.resolved_at.is_(None),
                )
                .values(resolved_card=card, resolved_by=by, resolved_at=now())
            )
            if done.rowcount != 1:
                raise EvidenceConflict(
                    f"play {seq} of table {table_id}: no play in doubt awaits a ruling there"
                )
        found = self.get(table_id, seq)
        assert found is not None
        return found
