"""Names a club can tell apart, and keys that are keys (issue 14 item 12): a blank table or
tournament name, a blank or duplicate player (however spaced or cased), a blank or duplicate
entrant, a player in two entrants: 422 naming the field, nothing created. An empty
``Idempotency-Key:`` header is 422, not the key ``""``. Real app on SQLite and PostgreSQL."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from svc_helpers import ORGANISER, PLAYERS4


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"name": "   ", "players": PLAYERS4}, "name"),
        ({"name": "T", "players": ["Ann", "Ann", "Cy", "Di"]}, "players"),
        ({"name": "T", "players": ["Ann", "ann ", "Cy", "Di"]}, "players"),
        ({"name": "T", "players": ["Ann", "  ", "Cy", "Di"]}, "players"),
        ({"name": "T", "players": ["Ann", "Bob", "Cy", "\t"]}, "players"),
    ],
)
def test_blank_or_duplicate_names_make_no_table(
    client: TestClient, body: dict[str, Any], field: str
) -> None:
    r = client.post("/api/tables", json={"game": "clabber", **body}, headers=ORGANISER)
    assert r.status_code == 422, r.text
    assert any(field in e["loc"] for e in r.json()["detail"]), r.json()
    assert client.get("/api/tables").json() == []


def test_names_are_kept_without_their_surrounding_blanks(client: TestClient) -> None:
    body = {"game": "clabber", "name": " Table 4 ", "players": [" Ann", "Bob ", "Cy", "Di"]}
    made = client.post("/api/tables", json=body, headers=ORGANISER).json()
    assert made["name"] == "Table 4" and made["players"] == PLAYERS4[:2] + ["Cy", "Di"]


TEAM = {"name": "Aces", "players": ["Ann", "Al"]}


@pytest.mark.parametrize(
    "entrants",
    [
        [TEAM, {"name": " ", "players": ["Bob", "Bea"]}],
        [TEAM, {"name": "aces ", "players": ["Bob", "Bea"]}],
        [TEAM, {"name": "Kings", "players": ["Bob", "ann"]}],  # Ann plays for two teams
        [TEAM, {"name": "Kings", "players": ["Bob", "Bob"]}],
        [TEAM, {"name": "Kings", "players": ["Bob", ""]}],
    ],
)
def test_blank_or_duplicate_entrants_make_no_tournament(
    client: TestClient, entrants: list[dict[str, Any]]
) -> None:
    body = {"name": "Cup", "game": "clabber", "entrants": entrants}
    r = client.post("/api/tournaments", json=body, headers=ORGANISER)
    assert r.status_code == 422, r.text
    assert any("entrants" in e["loc"] for e in r.json()["detail"]), r.json()
    assert client.get("/api/tournaments").json() == []
    assert client.get("/api/tables").json() == []


@pytest.mark.parametrize("key", ["", "   "])
def test_an_empty_idempotency_key_is_422(client: TestClient, key: str) -> None:
    made = client.post(
        "/api/tables", json={"game": "clabber", "name": "T", "players": PLAYERS4}, headers=ORGANISER
    ).json()
    auth = {"Authorization": f"Bearer {made['scorer_token']}", "Idempotency-Key": key}
    deal = {"type": "deal", "dealer": 0, "upcard": "9H"}
    r = client.post(f"/api/tables/{made['id']}/events", json=deal, headers=auth)
    assert r.status_code == 422, r.text
    assert "idempotency-key" in r.text.lower()
    assert client.get(f"/api/tables/{made['id']}").json()["seq"] == 0
