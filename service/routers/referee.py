"""The referee's API (``/api/referee``, the tournament's referee token) and the camera's
evidence of each play (``/api/tables/{id}/plays/{seq}``, the table's scorer token).

The referee token alone names its tournament. The referee sees every table's proven reneges
with their evidence (the trick, the cards, the camera's crops), the plays awaiting
confirmation with their two candidate cards, and each table's audit trail; a correction or a
ruling is an event in the table's log recorded as ``referee:<name>`` with its time.
"""

from __future__ import annotations

import base64
import binascii
from typing import Annotated, Any

from fastapi import APIRouter, Body, Depends, Header, HTTPException, Path
from fastapi.responses import JSONResponse, Response
from starlette.concurrency import run_in_threadpool

from service.evidence import EvidenceConflict, EvidenceStore
from service.games import JSON, FieldError
from service.live import Broker
from service.routers.deps import SCORER_ANSWERS, BrokerDep, ScorerTableDep, StoreDep, TableDep
from service.routers.tournaments import TournamentsDep
from service.store import Snapshot, Store, TableMeta
from service.strict_json import StrictJSONRoute
from service.tournament_schemas import PlayEvidenceIn, PlayRulingIn, RefereeEventIn
from service.tournament_store import TournamentMeta

# An event's sequence number in a table's log: bounded so that no path reaches the database
# with a number its INTEGER column cannot hold (schemathesis found 2**63 answering 500).
Seq = Annotated[int, Path(ge=0, le=2**62, description="the event's number in the table's log")]

router = APIRouter(tags=["referee"], route_class=StrictJSONRoute)
REFEREE: dict[int | str, dict[str, Any]] = {
    401: {"description": "no bearer token"},
    403: {"description": "not a tournament's referee token"},
}
REFEREE_TABLE: dict[int | str, dict[str, Any]] = {
    **REFEREE,
    404: {"description": "no such table in the referee's tournament"},
}
RULING: dict[int | str, dict[str, Any]] = {
    **REFEREE_TABLE,
    409: {"description": "impossible now (the reason in `detail`)"},
}
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def evidence_store(store: StoreDep) -> EvidenceStore:
    return EvidenceStore(store.engine)


EvidenceDep = Annotated[EvidenceStore, Depends(evidence_store)]


async def referee_tournament(
    tournaments: TournamentsDep, authorization: Annotated[str | None, Header()] = None
) -> TournamentMeta:
    """The tournament whose referee token the request carries (401 none, 403 unknown)."""
    scheme, _, token = (authorization or "").partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise HTTPException(
            401,
            "this needs the tournament's referee token: Authorization: Bearer <referee_token>",
            headers={"WWW-Authenticate": "Bearer"},
        )
    meta = await run_in_threadpool(tournaments.by_token, token.strip())
    if meta is None:
        raise HTTPException(403, "that token is no tournament's referee token")
    return meta


RefereeDep = Annotated[TournamentMeta, Depends(referee_tournament)]


# -- reading a table's log: plays by hand --------------------------------------------------------


def plays_by_hand(snap: Snapshot) -> list[list[tuple[int, JSON]]]:
    """The effective play events of each hand (a deal starts one), as ``(seq, payload)``."""
    hands: list[list[tuple[int, JSON]]] = []
    for seq, payload in snap.effective:
        if payload.get("type") == "deal":
            hands.append([])
        elif payload.get("type") == "play" and hands:
            hands[-1].append((seq, payload))
    return hands


def _find_play(plays: list[tuple[int, JSON]], seat: int, card: str | None) -> int | None:
    for seq, p in plays:
        if card is not None and p.get("seat") == seat and p.get("card") == card:
            return seq
    return None


def reneges_of(snap: Snapshot, seating: JSON, evidence: dict[tuple[str, int], JSON]) -> list[JSON]:
    """Every proven renege at the table, with the trick's cards and the plays that prove it."""
    state = snap.state
    seats = len(state["players"])
    hands = plays_by_hand(snap)
    found: list[tuple[int, bool, list[JSON]]] = [
        (h["number"], False, h["reneges"]) for h in state["hands"]
    ]
    current = state["current"]
    if current is not None and not current.get("over"):
        found.append((len(state["hands"]) + 1, True, current.get("reneges") or []))
    out: list[JSON] = []
    for number, in_play, reneges in found:
        plays = hands[number - 1] if 0 < number <= len(hands) else []
        for index, r in enumerate(reneges):
            trick = int(r.get("trick") or 0)
            trick_plays = plays[(trick - 1) * seats : trick * seats] if trick > 0 else []
            shown = []
            for role, card in (("card", r.get("card")), ("proof", r.get("proof"))):
                seq = _find_play(plays, int(r["seat"]), card)
                if seq is not None:
                    ev = evidence.get((snap.meta.id, seq))
                    shown.append(
                        {
                            "role": role,
                            "seq": seq,
                            "card": card,
                            "crop_url": None if ev is None else ev["crop_url"],
                        }
                    )
            out.append(
                {
                    **seating,
                    "hand": number,
                    "in_play": in_play,
                    "index": index,
                    "player": state["players"][int(r["seat"])],
                    **r,
                    "trick_cards": [{"seq": s, **p} for s, p in trick_plays],
                    "plays": shown,
                }
            )
    return out


async def _tables(tournaments: TournamentsDep, store: Store, meta: TournamentMeta) -> list[JSON]:
    seatings = await run_in_threadpool(tournaments.seatings, meta.id)
    out = []
    for s in seatings:
        table = store.cached_meta(s.table_id) or await run_in_threadpool(store.meta, s.table_id)
        if table is not None:
            out.append({"table_id": table.id, "table": table.name, "meta": table})
    return out


# -- the referee -------------------------------------------------------------------------------


@router.get("/api/referee", responses=REFEREE)
async def referee_home(tournament: RefereeDep, tournaments: TournamentsDep) -> JSONResponse:
    """The tournament this referee token belongs to (as ``GET /api/tournaments/{id}``)."""
    return JSONResponse(await run_in_threadpool(tournaments.view, tournament))


@router.get("/api/referee/reneges", responses=REFEREE)
async def referee_reneges(
    tournament: RefereeDep, tournaments: TournamentsDep, store: StoreDep, evidence: EvidenceDep
) -> list[dict[str, Any]]:
    """Every proven renege at the tournament's tables, with its evidence: the rule, the card
    played and the card that proves it (with the camera's crops when a camera fed the
    table), the trick's cards, its status (``pending`` awaits the referee's ruling)."""
    tables = await _tables(tournaments, store, tournament)
    seen = await run_in_threadpool(evidence.for_tables, [t["table_id"] for t in tables])
    by_play = {(e.table_id, e.seq): e.as_json() for e in seen}
    out: list[dict[str, Any]] = []
    for t in tables:
        snap = await run_in_threadpool(store.snapshot, t["meta"])
        seating = {"table_id": t["table_id"], "table": t["table"]}
        out.extend(reneges_of(snap, seating, by_play))
    return out


@router.get("/api/referee/confirmations", responses=REFEREE)
async def referee_confirmations(
    tournament: RefereeDep, tournaments: TournamentsDep, store: StoreDep, evidence: EvidenceDep
) -> list[dict[str, Any]]:
    """Plays awaiting confirmation: the card recorded, the two candidate cards, why, and the
    crop."""
    tables = {t["table_id"]: t for t in await _tables(tournaments, store, tournament)}
    seen = await run_in_threadpool(evidence.for_tables, list(tables))
    return [
        {
            **e.as_json(),
            "table": tables[e.table_id]["table"],
            "player": tables[e.table_id]["meta"].players[e.seat],
        }
        for e in seen
        if e.awaiting
    ]


async def _tournament_table(
    table_id: str, tournament: TournamentMeta, tournaments: TournamentsDep, store: Store
) -> TableMeta:
    owner = await run_in_threadpool(tournaments.tournament_of, table_id)
    table = await run_in_threadpool(store.meta, table_id)
    if owner != tournament.id or table is None:
        raise HTTPException(404, f"no table {table_id!r} in tournament {tournament.id}")
    return table


def _actor(by: str) -> str:
    return ("referee:" + by.strip())[:32]


async def _append(
    store: Store, broker: Broker, table: TableMeta, payload: JSON, actor: str
) -> JSON:
    done = await run_in_threadpool(store.append, table, payload, actor, None)
    record = done.record.as_json()
    broker.publish(
        table.id, {"kind": "event", "seq": done.record.seq, "event": record, "state": done.state}
    )
    return {**done.state, "accepted": record, "repeated": False}


@router.post("/api/referee/tables/{table_id}/events", responses=RULING)
async def referee_event(
    table_id: str,
    body: RefereeEventIn,
    tournament: RefereeDep,
    tournaments: TournamentsDep,
    store: StoreDep,
    broker: BrokerDep,
) -> JSONResponse:
    """The referee adds an event to a table: a correction (``correct``), a ruling on a proven
    renege (``confirm_renege``/``dismiss_renege``), an ``undo``... It is recorded with who
    (``referee:<by>``) and when, and broadcast like any other."""
    table = await _tournament_table(table_id, tournament, tournaments, store)
    payload = body.model_dump(mode="json", exclude_unset=True)["event"]
    return JSONResponse(await _append(store, broker, table, payload, _actor(body.by)))


@router.post("/api/referee/tables/{table_id}/plays/{seq}/ruling", responses=RULING)
async def referee_play_ruling(
    table_id: str,
    seq: Seq,
    body: PlayRulingIn,
    tournament: RefereeDep,
    tournaments: TournamentsDep,
    store: StoreDep,
    broker: BrokerDep,
    evidence: EvidenceDep,
) -> JSONResponse:
    """Rule on a play in doubt: it is ``card``. When that is not the card recorded, the play is
    corrected by a ``correct`` event in the table's log (recorded as the referee's)."""
    table = await _tournament_table(table_id, tournament, tournaments, store)
    found = await run_in_threadpool(evidence.get, table_id, seq)
    if found is None or not found.awaiting:
        raise EvidenceConflict(f"play {seq} of table {table_id}: no play in doubt awaits a ruling")
    snap = await run_in_threadpool(store.snapshot, table)
    play = dict(snap.effective).get(seq)
    if play is None or play.get("type") != "play":
        raise EvidenceConflict(f"event {seq} of table {table_id} is no longer a play that counts")
    state: JSON | None = None
    if play["card"] != body.card:
        fix = {"type": "correct", "seq": seq, "event": {**play, "card": body.card}}
        state = await _append(store, broker, table, fix, _actor(body.by))
    ruled = await run_in_threadpool(evidence.resolve, table_id, seq, body.card, _actor(body.by))
    return JSONResponse({"ruling": ruled.as_json(), "corrected": state is not None, "state": state})


@router.get("/api/referee/tables/{table_id}/audit", responses=REFEREE_TABLE)
async def referee_audit(
    table_id: str,
    tournament: RefereeDep,
    tournaments: TournamentsDep,
    store: StoreDep,
    evidence: EvidenceDep,
) -> JSONResponse:
    """A table's full audit trail: every event as posted (corrections, undos and rulings
    included) with who posted it and when, and the camera's evidence of each play with any
    ruling on it."""
    table = await _tournament_table(table_id, tournament, tournaments, store)
    records = await run_in_threadpool(store.records, table.id)
    seen = await run_in_threadpool(evidence.for_tables, [table.id])
    return JSONResponse(
        {
            "table": table.as_json(),
            "events": [r.as_json() for r in records],
            "plays": [e.as_json() for e in seen],
        }
    )


# -- the camera's evidence ------------------------------------------------------------------------


@router.post(
    "/api/tables/{table_id}/plays/{seq}/evidence",
    status_code=201,
    tags=["events"],
    responses={
        **SCORER_ANSWERS,
        404: {"description": "no such table, or no play that counts at that seq"},
        409: {"description": "that play's evidence is already recorded"},
    },
)
async def post_play_evidence(
    seq: Seq,
    table: ScorerTableDep,
    store: StoreDep,
    broker: BrokerDep,
    evidence: EvidenceDep,
    body: Annotated[PlayEvidenceIn, Body()],
) -> dict[str, Any]:
    """What the camera saw of play ``seq``: its crop, and when the reading is in doubt the two
    candidate cards (``confirm``: the referee is asked to rule)."""
    crop = None
    if body.crop_png is not None:  # the schema's pattern admits only a PNG's base64
        try:
            crop = base64.b64decode(body.crop_png, validate=True)
        except (binascii.Error, ValueError):
            crop = b""
        if not crop.startswith(PNG_MAGIC):
            raise FieldError("crop_png", "not a PNG image in base64")
    snap = await run_in_threadpool(store.snapshot, table)
    play = dict(snap.effective).get(seq)
    if play is None or play.get("type") != "play":
        raise HTTPException(404, f"table {table.id} has no play that counts at event {seq}")
    made = await run_in_threadpool(
        lambda: evidence.add(
            table.id,
            seq,
            int(play["seat"]),
            str(play["card"]),
            candidates=body.candidates,
            confirm=body.confirm,
            reason=body.reason,
            crop=crop,
        )  # fmt: skip
    )
    # tournament streams tell the referee's page (table streams skip it: it has no seq)
    broker.publish(table.id, {"kind": "evidence", "play": seq})
    return made.as_json()


@router.get(
    "/api/tables/{table_id}/plays/{seq}/crop",
    response_class=Response,
    responses={200: {"content": {"image/png": {}}}, 404: {"description": "no crop"}},
    tags=["events"],
)
async def play_crop(seq: Seq, table: TableDep, evidence: EvidenceDep) -> Response:
    """The camera's crop of play ``seq`` (PNG)."""
    crop = await run_in_threadpool(evidence.crop, table.id, seq)
    if crop is None:
        raise HTTPException(404, f"table {table.id} has no crop of play {seq}")
    return Response(crop, media_type="image/png", headers={"Cache-Control": "max-age=3600"})
