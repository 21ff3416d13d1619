"""Bad requests get a clear 4xx on SQLite and PostgreSQL alike (``client`` runs on both):
bodies over the size limit (413, with or without Content-Length, before the body is read),
unknown tables (404 on every table route), missing or wrong tokens (401/403), numbers the
database cannot hold and text PostgreSQL cannot store (422). Nothing is written by any."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from svc_helpers import ORGANISER, ORGANISER_PIN, PLAYERS4

from service.app import create_app
from service.settings import Settings

DEAL = {"type": "deal", "dealer": 0, "upcard": "9H"}


def new_table(client: TestClient) -> tuple[str, dict[str, str]]:
    body = client.post(
        "/api/tables", json={"game": "clabber", "name": "T", "players": PLAYERS4}, headers=ORGANISER
    ).json()
    return body["id"], {"Authorization": f"Bearer {body['scorer_token']}"}


@pytest.fixture
def small_client(database: str) -> Iterator[TestClient]:
    with TestClient(
        create_app(Settings(organiser_pin=ORGANISER_PIN, db=database, max_body_bytes=2_000))
    ) as c:
        yield c


def test_bodies_over_the_limit_are_413_and_nothing_is_written(small_client: TestClient) -> None:
    client = small_client
    table, auth = new_table(client)
    padded = {**DEAL, "hands": None, "pad": "x" * 3_000}
    r = client.post(f"/api/tables/{table}/events", json=padded, headers=auth)
    assert r.status_code == 413 and "2000 bytes" in r.json()["detail"]

    def chunks() -> Iterator[bytes]:  # no Content-Length: counted as it arrives
        yield b'{"type": "deal", "dealer": 0, "upcard": "9H", "x": "'
        for _ in range(10):
            yield b"y" * 500
        yield b'"}'

    r = client.post(
        f"/api/tables/{table}/events",
        content=chunks(),
        headers={**auth, "Content-Type": "application/json"},
    )
    assert r.status_code == 413
    big_table = {"game": "clabber", "name": "n" * 2_500, "players": PLAYERS4}
    assert client.post("/api/tables", json=big_table, headers=ORGANISER).status_code == 413
    assert len(client.get("/api/tables").json()) == 1
    assert client.get(f"/api/tables/{table}").json()["seq"] == 0
    # under the limit, all is as usual
    assert client.post(f"/api/tables/{table}/events", json=DEAL, headers=auth).status_code == 200


def test_the_default_limit_refuses_a_megabyte_event(client: TestClient) -> None:
    table, auth = new_table(client)
    r = client.post(
        f"/api/tables/{table}/events",
        content=b"{" + b" " * 1_000_000 + b"}",
        headers={**auth, "Content-Type": "application/json"},
    )
    assert r.status_code == 413


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("GET", "/api/tables/{t}"),
        ("GET", "/api/tables/{t}/events"),
        ("GET", "/api/tables/{t}/export"),
        ("GET", "/api/tables/{t}/stream"),
        ("POST", "/api/tables/{t}/events"),
        ("POST", "/api/tables/{t}/frames"),
    ],
)
@pytest.mark.parametrize("unknown", ["nosuchtable", "0" * 16, "a%00b", "%F0%9F%83%8F" * 40])
def test_unknown_tables_are_404_on_every_table_route(
    client: TestClient, method: str, path: str, unknown: str
) -> None:
    _table, auth = new_table(client)
    kwargs: dict[str, object] = {"headers": auth}
    if path.endswith("/events") and method == "POST":
        kwargs["json"] = DEAL
    if path.endswith("/frames"):
        kwargs["files"] = {"image": ("f.png", b"\x89PNG", "image/png")}
    r = client.request(method, path.format(t=unknown), **kwargs)  # type: ignore[arg-type]
    assert r.status_code == 404, r.text
    assert "no table" in r.json()["detail"]


@pytest.mark.parametrize(
    ("headers", "status"),
    [
        ({}, 401),
        ({"Authorization": ""}, 401),
        ({"Authorization": "Bearer"}, 401),
        ({"Authorization": "Bearer    "}, 401),
        ({"Authorization": "Token abc"}, 401),
        ({"Authorization": "Bearer wrong-token"}, 403),
        ({"Authorization": "Bearer " + "x" * 5_000}, 403),
    ],
)
def test_missing_or_wrong_tokens_are_401_or_403(
    client: TestClient, headers: dict[str, str], status: int
) -> None:
    table, _auth = new_table(client)
    for path, kwargs in (
        ("events", {"json": DEAL}),
        ("frames", {"files": {"image": ("f.png", b"\x89PNG", "image/png")}}),
    ):
        r = client.post(f"/api/tables/{table}/{path}", headers=headers, **kwargs)  # type: ignore[arg-type]
        assert r.status_code == status, (path, r.text)
        assert "scorer token" in r.json()["detail"]
    assert client.get(f"/api/tables/{table}").json()["seq"] == 0


def test_another_tables_token_is_403(client: TestClient) -> None:
    table, _ = new_table(client)
    _other, other_auth = new_table(client)
    r = client.post(f"/api/tables/{table}/events", json=DEAL, headers=other_auth)
    assert r.status_code == 403


@pytest.mark.parametrize("after", ["99999999999999999999999", "-1", "2147483648", "x"])
def test_event_numbers_the_database_cannot_hold_are_422(client: TestClient, after: str) -> None:
    table, _ = new_table(client)
    r = client.get(f"/api/tables/{table}/events", params={"after": after})
    assert r.status_code == 422 and r.json()["detail"][0]["loc"] == ["query", "after"]


@pytest.mark.parametrize(
    "body",
    [
        {"game": "clabber", "name": "a\x00b", "players": PLAYERS4},
        {"game": "clabber", "name": "T", "players": ["Ann", "Bob", "C\x00y", "Di"]},
    ],
)
def test_text_with_a_nul_character_is_422_on_every_database(
    client: TestClient, body: dict[str, object]
) -> None:
    r = client.post("/api/tables", json=body, headers=ORGANISER)
    assert r.status_code == 422 and "NUL" in r.text
    assert client.get("/api/tables").json() == []


def test_an_idempotency_key_with_a_nul_character_is_422(client: TestClient) -> None:
    table, auth = new_table(client)
    r = client.post(
        f"/api/tables/{table}/events", json=DEAL, headers={**auth, "Idempotency-Key": "k\x00"}
    )
    assert r.status_code == 422
    assert client.get(f"/api/tables/{table}").json()["seq"] == 0


ODD_EVENTS = [
    '{"type": "play", "seat": NaN, "card": "9H"}',
    '{"type": "play", "seat": Infinity, "card": "9H"}',
    '{"type": "play", "seat": -Infinity, "card": "9H"}',
    '{"type": "play", "seat": 0, "card": "\\ud800"}',
    '{"type": "bid", "seat": 1, "bid": "\\udfff"}',
    '{"type": "announce", "seat": 1, "what": "\\ud800x"}',
    '{"type": "deal", "dealer": 0, "upcard": "9H", "note\\ud800": 1}',
    '{"type": "misdeal", "reason": "\\ud83d"}',
]


@pytest.mark.parametrize("raw", ODD_EVENTS)
def test_nan_infinity_and_lone_surrogates_are_422_never_500(client: TestClient, raw: str) -> None:
    """Issue 14 item 6: the validation-error handler echoed input JSON cannot encode (a NaN,
    an Infinity, a lone surrogate) and answered 500. Now: 422, safely echoed, nothing written."""
    table, auth = new_table(client)
    r = client.post(
        f"/api/tables/{table}/events",
        content=raw.encode(),
        headers={**auth, "Content-Type": "application/json"},
    )
    assert r.status_code == 422, (r.status_code, r.text[:300])
    assert r.json()["detail"]  # valid JSON that says what is wrong
    assert client.get(f"/api/tables/{table}").json()["seq"] == 0


@pytest.mark.parametrize(
    "raw",
    [
        '{"game": "clabber", "name": "\\ud800", "players": ["A", "B", "C", "D"]}',
        '{"game": "clabber", "name": "T", "players": ["A", "B", "C", "\\udc00"]}',
        '{"game": "clabber", "name": "T", "players": ["A", "B", "C", "D"], "options": {"x": NaN}}',
        '{"game": "clabber", "name": NaN, "players": ["A", "B", "C", "D"]}',
    ],
)
def test_odd_numbers_and_text_in_a_new_table_are_422(client: TestClient, raw: str) -> None:
    r = client.post(
        "/api/tables",
        content=raw.encode(),
        headers={**ORGANISER, "Content-Type": "application/json"},
    )
    assert r.status_code == 422, (r.status_code, r.text[:300])
    assert r.json()["detail"]
    assert client.get("/api/tables").json() == []
