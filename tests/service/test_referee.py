"""The referee's API: the tournament's referee token, proven reneges with their evidence (the
trick, the cards, the camera's crops), plays in doubt with the two candidate cards, rulings and
corrections recorded as events with who made them and when, a table's audit trail."""

from __future__ import annotations

import base64
from typing import Any

import cv2
import numpy as np
import pytest
from fastapi.testclient import TestClient
from svc_helpers import ORGANISER

TEAMS = [
    {"name": "Aces", "players": ["Ann", "Al"]},
    {"name": "Kings", "players": ["Bob", "Bea"]},
]
# test_api_events.py: seat 1 fails to follow clubs in trick 1 (9D) and shows AC in trick 2
RENEGE_HAND = [
    {"type": "deal", "dealer": 3, "upcard": "9H"},
    {"type": "bid", "seat": 0, "bid": "play"},
    {"type": "play", "seat": 0, "card": "9C"},
    {"type": "play", "seat": 1, "card": "9D"},
    {"type": "play", "seat": 2, "card": "10C"},
    {"type": "play", "seat": 3, "card": "JC"},
    {"type": "play", "seat": 2, "card": "9S"},
    {"type": "play", "seat": 3, "card": "10S"},
    {"type": "play", "seat": 0, "card": "JS"},
    {"type": "play", "seat": 1, "card": "AC"},
]


def png(shade: int) -> bytes:
    ok, data = cv2.imencode(".png", np.full((40, 28, 3), shade, np.uint8))
    assert ok
    return bytes(data)


def tournament(client: TestClient, **options: Any) -> tuple[dict[str, Any], dict[str, str]]:
    r = client.post(
        "/api/tournaments",
        json={"name": "Cup", "game": "clabber", "entrants": TEAMS, "options": options},
        headers=ORGANISER,
    )
    assert r.status_code == 201, r.text
    made: dict[str, Any] = r.json()
    return made, {"Authorization": f"Bearer {made['referee_token']}"}


def post_events(
    client: TestClient, table: dict[str, Any], events: list[dict[str, Any]]
) -> list[int]:
    auth = {"Authorization": f"Bearer {table['scorer_token']}"}
    seqs = []
    for event in events:
        r = client.post(f"/api/tables/{table['id']}/events", json=event, headers=auth)
        assert r.status_code == 200, r.text
        seqs.append(r.json()["seq"])
    return seqs


def evidence(client: TestClient, table: dict[str, Any], seq: int, **body: Any) -> Any:
    auth = {"Authorization": f"Bearer {table['scorer_token']}"}
    return client.post(f"/api/tables/{table['id']}/plays/{seq}/evidence", json=body, headers=auth)


def test_the_referee_token_names_its_tournament(client: TestClient) -> None:
    made, referee = tournament(client)
    other, _ = tournament(client)
    assert client.get("/api/referee", headers=referee).json()["id"] == made["id"]
    assert client.get("/api/referee").status_code == 401
    scorer = {"Authorization": f"Bearer {made['tables'][0]['scorer_token']}"}
    assert client.get("/api/referee", headers=scorer).status_code == 403
    # a table of another tournament is not this referee's
    body = {"by": "Rita", "event": {"type": "undo"}}
    r = client.post(
        f"/api/referee/tables/{other['tables'][0]['id']}/events", json=body, headers=referee
    )
    assert r.status_code == 404


def test_a_proven_renege_comes_with_the_trick_the_cards_and_the_crops(client: TestClient) -> None:
    """rules.md Renege, with the club's choice that a proven renege applies only when the
    referee confirms it (renege_apply = "confirm")."""
    made, referee = tournament(client, renege_apply="confirm")
    table = made["tables"][0]
    seqs = post_events(client, table, RENEGE_HAND)
    crops = {seq: png(40 + 20 * i) for i, seq in enumerate(seqs[2:])}
    for seq, data in crops.items():
        assert (
            evidence(client, table, seq, crop_png=base64.b64encode(data).decode()).status_code
            == 201
        )

    [renege] = client.get("/api/referee/reneges", headers=referee).json()
    assert (renege["table_id"], renege["player"], renege["seat"]) == (table["id"], "Bob", 1)
    assert (renege["card"], renege["proof"], renege["trick"]) == ("9D", "AC", 1)
    assert renege["status"] == "pending" and renege["in_play"] and renege["index"] == 0
    assert [p["card"] for p in renege["trick_cards"]] == ["9C", "9D", "10C", "JC"]
    shown = {p["role"]: p for p in renege["plays"]}
    assert shown["card"]["seq"] == seqs[3] and shown["proof"]["seq"] == seqs[9]
    assert client.get(shown["proof"]["crop_url"]).content == crops[seqs[9]]
    assert client.get(shown["card"]["crop_url"]).headers["content-type"] == "image/png"

    ruling = {"by": "Rita", "event": {"type": "confirm_renege", "index": 0}}
    r = client.post(f"/api/referee/tables/{table['id']}/events", json=ruling, headers=referee)
    assert r.status_code == 200, r.text
    assert r.json()["accepted"]["actor"] == "referee:Rita"
    [hand] = r.json()["hands"]
    assert hand["end"] == "renege" and hand["score"][1] == 0 and hand["score"][0] >= 162
    [after] = client.get("/api/referee/reneges", headers=referee).json()
    assert after["status"] == "confirmed" and not after["in_play"]
    trail = client.get(f"/api/referee/tables/{table['id']}/audit", headers=referee).json()
    last = trail["events"][-1]
    assert last["event"] == ruling["event"] and last["actor"] == "referee:Rita" and last["at"]
    assert {e["actor"] for e in trail["events"][:-1]} == {"scorer"}


def test_a_play_in_doubt_awaits_the_referee_who_corrects_it(client: TestClient) -> None:
    made, referee = tournament(client)
    table = made["tables"][0]
    seqs = post_events(client, table, RENEGE_HAND[:3])  # seat 0 leads: the camera read 9C
    r = evidence(
        client, table, seqs[2], candidates=["9C", "9S"], confirm=True, reason="9C and 9S are close"
    )
    assert r.status_code == 201, r.text
    [waiting] = client.get("/api/referee/confirmations", headers=referee).json()
    assert (waiting["seq"], waiting["card"], waiting["candidates"]) == (seqs[2], "9C", ["9C", "9S"])
    assert waiting["reason"] == "9C and 9S are close" and waiting["table"] == table["name"]
    assert waiting["player"] == "Ann" and waiting["awaiting"] and waiting["ruling"] is None
    [shown] = client.get(f"/api/tables/{table['id']}").json()["awaiting_confirmation"]
    assert (shown["seq"], shown["card"], shown["candidates"]) == (seqs[2], "9C", ["9C", "9S"])

    url = f"/api/referee/tables/{table['id']}/plays/{seqs[2]}/ruling"
    r = client.post(url, json={"by": "Rita", "card": "9s"}, headers=referee)
    assert r.status_code == 200, r.text
    assert r.json()["corrected"] and r.json()["state"]["current"]["trick"] == [
        {"seat": 0, "card": "9S"}
    ]
    assert client.get("/api/referee/confirmations", headers=referee).json() == []
    assert client.get(f"/api/tables/{table['id']}").json()["awaiting_confirmation"] == []
    assert client.post(url, json={"by": "Rita", "card": "9S"}, headers=referee).status_code == 409

    trail = client.get(f"/api/referee/tables/{table['id']}/audit", headers=referee).json()
    fix = trail["events"][-1]
    assert fix["actor"] == "referee:Rita"
    assert fix["event"] == {
        "type": "correct",
        "seq": seqs[2],
        "event": {"type": "play", "seat": 0, "card": "9S"},
    }
    [play] = trail["plays"]
    assert play["ruling"]["card"] == "9S" and play["ruling"]["by"] == "referee:Rita"


def test_confirming_the_card_recorded_posts_no_correction(client: TestClient) -> None:
    made, referee = tournament(client)
    table = made["tables"][0]
    seqs = post_events(client, table, RENEGE_HAND[:3])
    evidence(client, table, seqs[2], candidates=["9C", "9S"], confirm=True)
    url = f"/api/referee/tables/{table['id']}/plays/{seqs[2]}/ruling"
    r = client.post(url, json={"by": "Rita", "card": "9C"}, headers=referee)
    assert r.status_code == 200 and not r.json()["corrected"]
    assert len(client.get(f"/api/tables/{table['id']}/events").json()) == 3


def test_a_referee_correction_is_an_event_and_the_state_is_the_replay(client: TestClient) -> None:
    made, referee = tournament(client)
    table = made["tables"][0]
    seqs = post_events(client, table, RENEGE_HAND[:2])
    fix = {"type": "correct", "seq": seqs[1], "event": {"type": "bid", "seat": 0, "bid": "pass"}}
    r = client.post(
        f"/api/referee/tables/{table['id']}/events",
        json={"by": "Rita", "event": fix},
        headers=referee,
    )
    assert r.status_code == 200 and r.json()["current"]["maker"] is None
    assert client.get(f"/api/tables/{table['id']}/events").json()[-1]["actor"] == "referee:Rita"
    # the rules still apply to the referee's events: an impossible one is refused
    bad = {"by": "Rita", "event": {"type": "correct", "seq": 99, "event": None}}
    assert (
        client.post(
            f"/api/referee/tables/{table['id']}/events", json=bad, headers=referee
        ).status_code
        == 409
    )


@pytest.mark.parametrize(
    ("body", "status"),
    [
        ({"confirm": True, "candidates": []}, 422),  # a doubt names the cards to choose from
        ({"confirm": True}, 422),
        ({"confirm": True, "candidates": ["9C", "9S", "9D"]}, 422),  # at most the two in doubt
        ({"confirm": True, "candidates": ["9C"]}, 201),  # a play never seen, named by the deck
        ({"crop_png": base64.b64encode(b"GIF89a").decode()}, 422),  # not a PNG
        ({"crop_png": "%%%"}, 422),  # not base64
        ({"candidates": ["ZZ"]}, 422),  # not a card
    ],
)
def test_bad_evidence_is_refused(client: TestClient, body: dict[str, Any], status: int) -> None:
    made, _ = tournament(client)
    table = made["tables"][0]
    seqs = post_events(client, table, RENEGE_HAND[:3])
    assert evidence(client, table, seqs[2], **body).status_code == status


def test_evidence_is_for_a_play_once(client: TestClient) -> None:
    made, _ = tournament(client)
    table = made["tables"][0]
    seqs = post_events(client, table, RENEGE_HAND[:3])
    assert evidence(client, table, seqs[1]).status_code == 404  # a bid, not a play
    assert evidence(client, table, seqs[2]).status_code == 201
    assert evidence(client, table, seqs[2]).status_code == 409
    assert client.get(f"/api/tables/{table['id']}/plays/{seqs[2]}/crop").status_code == 404
    anyone = {"Authorization": "Bearer nope"}
    r = client.post(f"/api/tables/{table['id']}/plays/{seqs[2]}/evidence", json={}, headers=anyone)
    assert r.status_code == 403
