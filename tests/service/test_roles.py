"""Only the referee rules (issue 14 item 3): a scorer's token cannot post a ruling on a renege
(``referee_renege`` ends a hand at once, with no evidence; ``confirm_renege``,
``dismiss_renege``), directly or inside a correction, and a scorer's undo or correction cannot
remove or change what the referee did. The audit trail says who did each thing. Real app, on
SQLite and PostgreSQL (``client``)."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from test_referee import RENEGE_HAND, post_events, tournament


def scorer_post(client: TestClient, table: dict[str, Any], event: dict[str, Any]) -> Any:
    auth = {"Authorization": f"Bearer {table['scorer_token']}"}
    return client.post(f"/api/tables/{table['id']}/events", json=event, headers=auth)


def referee_post(
    client: TestClient, table: dict[str, Any], referee: dict[str, str], event: dict[str, Any]
) -> Any:
    body = {"by": "Rita", "event": event}
    return client.post(f"/api/referee/tables/{table['id']}/events", json=body, headers=referee)


@pytest.mark.parametrize(
    "ruling",
    [
        {"type": "referee_renege", "seat": 1, "rule": "coaching"},
        {"type": "confirm_renege", "index": 0},
        {"type": "dismiss_renege", "index": 0},
    ],
)
def test_a_scorer_cannot_rule_on_a_renege(client: TestClient, ruling: dict[str, Any]) -> None:
    made, referee = tournament(client, renege_apply="confirm")
    table = made["tables"][0]
    post_events(client, table, RENEGE_HAND)  # seat 1 reneged; the renege is proven
    r = scorer_post(client, table, ruling)
    assert r.status_code == 403, r.text
    assert "referee" in r.json()["detail"]
    # nor by correcting an event into a ruling
    fix = {"type": "correct", "seq": 10, "event": ruling}
    assert scorer_post(client, table, fix).status_code == 403
    log = client.get(f"/api/tables/{table['id']}/events").json()
    assert len(log) == len(RENEGE_HAND)  # nothing written
    # the referee may
    r = referee_post(client, table, referee, ruling)
    assert r.status_code == 200, r.text
    assert r.json()["accepted"]["actor"] == "referee:Rita"


def test_a_scorer_cannot_undo_or_change_the_referees_ruling(client: TestClient) -> None:
    made, referee = tournament(client, renege_apply="confirm")
    table = made["tables"][0]
    post_events(client, table, RENEGE_HAND)
    r = referee_post(client, table, referee, {"type": "confirm_renege", "index": 0})
    assert r.status_code == 200 and r.json()["hands"][0]["end"] == "renege"
    ruling_seq = r.json()["accepted"]["seq"]
    r = scorer_post(client, table, {"type": "undo"})
    assert r.status_code == 403, r.text
    assert "referee:Rita" in r.json()["detail"]
    r = scorer_post(client, table, {"type": "correct", "seq": ruling_seq, "event": None})
    assert r.status_code == 403, r.text
    state = client.get(f"/api/tables/{table['id']}").json()
    assert state["hands"][0]["end"] == "renege" and state["seq"] == ruling_seq
    # the referee can undo the ruling
    assert referee_post(client, table, referee, {"type": "undo"}).status_code == 200
    assert client.get(f"/api/tables/{table['id']}").json()["hands"] == []


def test_a_scorer_cannot_undo_or_overwrite_the_referees_correction(client: TestClient) -> None:
    made, referee = tournament(client)
    table = made["tables"][0]
    seqs = post_events(client, table, RENEGE_HAND[:3])
    fixed = {"type": "play", "seat": 0, "card": "9S"}
    r = referee_post(client, table, referee, {"type": "correct", "seq": seqs[2], "event": fixed})
    assert r.status_code == 200, r.text
    assert scorer_post(client, table, {"type": "undo"}).status_code == 403
    back = {"type": "correct", "seq": seqs[2], "event": {**fixed, "card": "9C"}}
    r = scorer_post(client, table, back)
    assert r.status_code == 403 and "referee:Rita" in r.json()["detail"], r.text
    assert client.get(f"/api/tables/{table['id']}").json()["current"]["trick"] == [
        {"seat": 0, "card": "9S"}
    ]
    # after the referee's correction the scorer goes on, and may undo its own events
    assert scorer_post(client, table, RENEGE_HAND[3]).status_code == 200
    assert scorer_post(client, table, {"type": "undo"}).status_code == 200
    # ... but not past the referee's correction
    assert scorer_post(client, table, {"type": "undo"}).status_code == 403


def test_a_scorer_still_undoes_and_corrects_its_own_events(client: TestClient) -> None:
    made, _referee = tournament(client)
    table = made["tables"][0]
    seqs = post_events(client, table, RENEGE_HAND[:3])
    fixed = {"type": "play", "seat": 0, "card": "9S"}
    r = scorer_post(client, table, {"type": "correct", "seq": seqs[2], "event": fixed})
    assert r.status_code == 200, r.text
    # its own correction, corrected again and undone
    assert (
        scorer_post(client, table, {"type": "correct", "seq": seqs[2], "event": None}).status_code
        == 200
    )
    assert scorer_post(client, table, {"type": "undo"}).status_code == 200
    assert scorer_post(client, table, {"type": "undo"}).status_code == 200
    assert scorer_post(
        client, table, {"type": "claim_renege", "seat": 1, "accused": 0}
    ).status_code in (200, 409)
    trail = client.get(f"/api/tables/{table['id']}/events").json()
    assert {e["actor"] for e in trail} == {"scorer"}
