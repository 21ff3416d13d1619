"""Who may post what to a table's log (issue 14: only the referee rules).

Actors, as the log records them: ``scorer`` (the table's scorer token), ``camera`` (the
server's camera, fed with that token), ``referee:<name>`` (the tournament's referee token),
``organiser`` (the club's organiser, who directs tables outside a tournament as a referee
would). The scorer and the camera are the table's own side.

* Rulings are the referee's: ``referee_renege`` (ends the hand at once), ``confirm_renege``
  and ``dismiss_renege``, directly or inside a correction.
* The table's side may undo or correct only what its own side did: the latest action (for an
  ``undo``) or the entry an event ``seq`` holds now (for a ``correct``) must not be a
  referee's or the organiser's.

The check reads the raw log with each event's actor; it runs only for rulings, undos and
corrections, so a play costs nothing more.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from service.games import JSON

TABLE_SIDE = ("scorer", "camera")
RULINGS = ("referee_renege", "confirm_renege", "dismiss_renege")


class NotAllowed(Exception):
    """This actor may not post this event (answered 403 with the reason)."""


def table_side(actor: str) -> bool:
    return actor in TABLE_SIDE


@dataclass(frozen=True, slots=True)
class Owners:
    """For the log as it stands: who set each counting entry, and the actions an ``undo``
    would reverse, latest last (each with its actor)."""

    entry: dict[int, str]
    actions: list[tuple[int, str, str]]  # (target seq, what it was, actor)


def owners(rows: Iterable[tuple[int, JSON, str]]) -> Owners:
    """Replay ``(seq, payload, actor)`` rows as :func:`service.games.effective_log` does,
    keeping who did what (rows that log refuses are skipped: they were never stored)."""
    entry: dict[int, str] = {}
    undo: list[tuple[int, str | None, bool]] = []  # (target, previous owner, was an add)
    actions: list[tuple[int, str, str]] = []
    for seq, payload, actor in rows:
        kind = payload.get("type")
        if kind == "undo":
            if not undo:
                continue
            target, previous, added = undo.pop()
            actions.pop()
            if added or previous is None:
                entry.pop(target, None)
            else:
                entry[target] = previous
        elif kind == "correct":
            target = int(payload.get("seq") or 0)
            undo.append((target, entry.get(target), False))
            actions.append((target, "correction", actor))
            entry[target] = actor
        else:
            entry[seq] = actor
            undo.append((seq, None, True))
            actions.append((seq, str(kind), actor))
    return Owners(entry, actions)


def needs_check(payload: JSON, actor: str) -> bool:
    return table_side(actor) and payload.get("type") in (*RULINGS, "undo", "correct")


def check(payload: JSON, actor: str, rows: Iterable[tuple[int, JSON, str]]) -> None:
    """Raise :class:`NotAllowed` when ``actor`` may not post ``payload`` to a table whose raw
    log is ``rows``."""
    if not table_side(actor):
        return
    kind = payload.get("type")
    inner = payload.get("event") if kind == "correct" else None
    ruling = kind if kind in RULINGS else (inner or {}).get("type") if inner else None
    if ruling in RULINGS:
        raise NotAllowed(
            f"{ruling!r}: only the referee rules on reneges (POST "
            "/api/referee/tables/{id}/events with the referee token); a scorer may post a "
            "'claim_renege'"
        )
    if kind not in ("undo", "correct"):
        return
    found = owners(rows)
    if kind == "undo":
        if not found.actions:
            return  # nothing to undo: the rules engine says so
        target, what, who = found.actions[-1]
        if not table_side(who):
            raise NotAllowed(
                f"undo: the latest action is {who}'s ({what} of event {target}); only they "
                "can undo it"
            )
        return
    target = int(payload.get("seq") or 0)
    who = found.entry.get(target)
    if who is not None and not table_side(who):
        raise NotAllowed(
            f"correction of event {target}: it stands as {who} set it; only they can change it"
        )
