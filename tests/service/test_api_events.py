"""The table API through FastAPI's TestClient on a real SQLite file: tables, tokens, events
accepted (200), impossible (409), malformed (422), unauthorised (401/403), idempotency, undo
and corrections, and the score of a hand-checked Clabber hand."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from svc_helpers import BASE_SCORE, ORGANISER, PLAYERS4, base_hand_events


def new_table(
    client: TestClient, game: str = "clabber", players: list[str] | None = None, **extra: Any
) -> tuple[str, dict[str, str]]:
    r = client.post(
        "/api/tables",
        json={"game": game, "name": "Table 4", "players": players or PLAYERS4, **extra},
        headers=ORGANISER,
    )
    assert r.status_code == 201, r.text
    body = r.json()
    return body["id"], {"Authorization": f"Bearer {body['scorer_token']}"}


def post(
    client: TestClient, table: str, auth: dict[str, str], event: dict[str, Any], **headers: str
) -> Any:
    return client.post(f"/api/tables/{table}/events", json=event, headers={**auth, **headers})


def test_create_table_returns_id_and_token_and_an_empty_state(client: TestClient) -> None:
    r = client.post(
        "/api/tables",
        json={"game": "clabber", "name": "Table 4", "players": PLAYERS4},
        headers=ORGANISER,
    )
    assert r.status_code == 201
    body = r.json()
    assert body["id"] and len(body["scorer_token"]) >= 24
    state = client.get(f"/api/tables/{body['id']}").json()
    assert state["players"] == PLAYERS4 and state["name"] == "Table 4"
    assert state["hands"] == [] and state["seq"] == 0 and state["current"] is None
    assert state["sides"] == [[0, 2], [1, 3]] and state["totals"] == [0, 0]
    listed = client.get("/api/tables").json()
    assert [t["id"] for t in listed] == [body["id"]] and "scorer_token" not in listed[0]


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"game": "clabber", "name": "T", "players": ["a", "b", "c"]}, "players"),  # 4 play Clabber
        ({"game": "klaberjass", "name": "T", "players": PLAYERS4}, "players"),  # 2 play Klaberjass
        ({"game": "clag", "name": "T", "players": ["a", "b", "c"]}, "players"),  # Clag: 4 to 7
        ({"game": "whist", "name": "T", "players": PLAYERS4}, "game"),
        (
            {"game": "clabber", "name": "T", "players": PLAYERS4, "options": {"melds": "x"}},
            "options",
        ),
        ({"game": "clabber", "name": "T", "players": PLAYERS4, "options": {"bogus": 1}}, "options"),
        ({"game": "clabber", "players": PLAYERS4}, "name"),
    ],
)
def test_malformed_tables_are_422_naming_the_field(
    client: TestClient, body: dict[str, Any], field: str
) -> None:
    r = client.post("/api/tables", json=body, headers=ORGANISER)
    assert r.status_code == 422, r.text
    assert any(field in err["loc"] for err in r.json()["detail"]), r.json()


def test_unknown_table_is_404(client: TestClient) -> None:
    assert client.get("/api/tables/nope").status_code == 404
    assert client.post("/api/tables/nope/events", json={"type": "undo"}).status_code == 404


def test_posting_needs_the_scorer_token(client: TestClient) -> None:
    table, auth = new_table(client)
    other, other_auth = new_table(client)
    deal = {"type": "deal", "dealer": 0, "upcard": "9H"}
    assert client.post(f"/api/tables/{table}/events", json=deal).status_code == 401
    r = client.post(f"/api/tables/{table}/events", json=deal, headers={"Authorization": "Basic x"})
    assert r.status_code == 401 and r.headers["www-authenticate"] == "Bearer"
    assert post(client, table, {"Authorization": "Bearer wrong"}, deal).status_code == 403
    assert post(client, table, other_auth, deal).status_code == 403  # another table's token
    assert client.get(f"/api/tables/{table}").json()["seq"] == 0  # nothing was written
    assert post(client, table, auth, deal).status_code == 200


@pytest.mark.parametrize(
    ("event", "field"),
    [
        ({"type": "play", "seat": 1, "card": "11H"}, "card"),  # no such card
        ({"type": "play", "seat": 1}, "card"),  # missing card
        ({"type": "play", "card": "JH"}, "seat"),  # missing seat
        ({"type": "play", "seat": "one", "card": "JH"}, "seat"),
        ({"type": "play", "seat": 5, "card": "JH"}, "seat"),  # Clabber has seats 0..3
        ({"type": "bid", "seat": 1}, "bid"),
        ({"type": "bid", "seat": 1, "bid": "pass", "extra": 1}, "extra"),
        ({"type": "shout", "seat": 1}, "type"),  # not an event type at all
        ({"type": "trump", "card": "JH"}, "type"),  # a Clag event, not Clabber's
        ({"seat": 1, "card": "JH"}, "body"),  # no type
        ({"type": "correct", "seq": 0, "event": None}, "seq"),
    ],
)
def test_malformed_events_are_422_naming_the_field(
    client: TestClient, event: dict[str, Any], field: str
) -> None:
    table, auth = new_table(client)
    post(client, table, auth, {"type": "deal", "dealer": 0, "upcard": "9H"})
    r = post(client, table, auth, event)
    assert r.status_code == 422, r.text
    assert any(field in err["loc"] for err in r.json()["detail"]), r.json()
    assert client.get(f"/api/tables/{table}").json()["seq"] == 1


@pytest.mark.parametrize(
    ("before", "event", "words"),
    [
        ([], {"type": "bid", "seat": 1, "bid": "pass"}, "starts with a deal"),
        ([0], {"type": "bid", "seat": 2, "bid": "pass"}, "seat 1's turn"),  # out of turn
        ([0], {"type": "bid", "seat": 1, "bid": "S"}, "'play' or 'pass'"),  # round 1 calls
        ([0, 1, 2], {"type": "play", "seat": 2, "card": "JH"}, "already played"),  # a card twice
        ([0, 1], {"type": "play", "seat": 1, "card": "7H"}, "7H"),  # not in the 24-card deck
        ([0], {"type": "deal", "dealer": 0, "upcard": "9S"}, "not over"),
        ([], {"type": "undo"}, "nothing to undo"),
        ([0], {"type": "correct", "seq": 5, "event": None}, "event 5"),
    ],
)
def test_impossible_events_are_409_with_the_rules_reason(
    client: TestClient, before: list[int], event: dict[str, Any], words: str
) -> None:
    script = [
        {"type": "deal", "dealer": 0, "upcard": "9H"},
        {"type": "bid", "seat": 1, "bid": "play"},
        {"type": "play", "seat": 1, "card": "JH"},
    ]
    table, auth = new_table(client)
    for i in before:
        assert post(client, table, auth, script[i]).status_code == 200
    r = post(client, table, auth, event)
    assert r.status_code == 409, r.text
    assert words in r.json()["detail"], r.json()
    assert client.get(f"/api/tables/{table}").json()["seq"] == len(before)


def test_a_games_first_deal_must_name_the_dealer(client: TestClient) -> None:
    table, auth = new_table(client)
    r = post(client, table, auth, {"type": "deal", "upcard": "9H"})
    assert r.status_code == 422 and r.json()["detail"][0]["loc"] == ["body", "dealer"]


def test_a_full_clabber_hand_is_scored_as_the_rules_say(client: TestClient) -> None:
    table, auth = new_table(client)
    for event in base_hand_events():
        r = post(client, table, auth, event)
        assert r.status_code == 200, (event, r.text)
    state = client.get(f"/api/tables/{table}").json()
    assert state["seq"] == 26
    [hand] = state["hands"]
    assert hand["score"] == BASE_SCORE and hand["set"] is False and hand["reneges"] == []
    assert hand["dealer"] == 3 and hand["makers"] == 0 and hand["trump"] == "H"
    assert state["totals"] == BASE_SCORE and state["games_won"] == [0, 0]
    assert state["current"]["over"] and len(state["current"]["tricks"]) == 6
    # the deal passes left: seat 0 deals next, seat 3 may not
    bad = post(client, table, auth, {"type": "deal", "dealer": 3, "upcard": "9S"})
    assert bad.status_code == 409 and "seat 0 deals" in bad.json()["detail"]
    assert (
        post(client, table, auth, {"type": "deal", "upcard": "9S"}).json()["current"]["dealer"] == 0
    )


def test_a_renege_is_recorded_and_scored_not_refused(client: TestClient) -> None:
    """Seat 1 fails to follow clubs in trick 3 (plays 9D) and shows AC later: proven, the
    hand ends, the other team scores 162 plus its melds (rules.md Renege)."""
    table, auth = new_table(client)
    events = [
        {"type": "deal", "dealer": 3, "upcard": "9H"},
        {"type": "bid", "seat": 0, "bid": "play"},
        {"type": "play", "seat": 0, "card": "9C"},
        {"type": "play", "seat": 1, "card": "9D"},  # does not follow clubs (not refused)
        {"type": "play", "seat": 2, "card": "10C"},
        {"type": "play", "seat": 3, "card": "JC"},
        {"type": "play", "seat": 2, "card": "9S"},
        {"type": "play", "seat": 3, "card": "10S"},
        {"type": "play", "seat": 0, "card": "JS"},
        {"type": "play", "seat": 1, "card": "AC"},  # ... and shows a club: the proof
    ]
    for event in events:
        r = post(client, table, auth, event)
        assert r.status_code == 200, (event, r.text)
    state = r.json()
    [hand] = state["hands"]
    assert hand["end"] == "renege"
    [renege] = hand["reneges"]
    assert renege["seat"] == 1 and renege["card"] == "9D" and renege["proof"] == "AC"
    assert hand["score"][1] == 0 and hand["score"][0] >= 162


def test_idempotency_key_applies_once_and_answers_the_same(client: TestClient) -> None:
    table, auth = new_table(client)
    deal = {"type": "deal", "dealer": 0, "upcard": "9H"}
    first = post(client, table, auth, deal, **{"Idempotency-Key": "k1"})
    post(client, table, auth, {"type": "bid", "seat": 1, "bid": "pass"})
    again = post(client, table, auth, deal, **{"Idempotency-Key": "k1"})
    assert first.status_code == again.status_code == 200
    a, b = first.json(), again.json()
    assert b.pop("repeated") is True and a.pop("repeated") is False
    assert a == b  # the same state (as of that event) and the same accepted record
    assert client.get(f"/api/tables/{table}").json()["seq"] == 2  # applied once
    log = client.get(f"/api/tables/{table}/events").json()
    assert [e["event"]["type"] for e in log] == ["deal", "bid"]
    # the same key for a different event is refused, and nothing is written
    other = post(client, table, auth, {"type": "undo"}, **{"Idempotency-Key": "k1"})
    assert other.status_code == 422 and "Idempotency-Key" in other.json()["detail"][0]["loc"]
    # keys are per table
    table2, auth2 = new_table(client)
    assert (
        post(client, table2, auth2, deal, **{"Idempotency-Key": "k1"}).json()["repeated"] is False
    )


def test_undo_and_corrections_are_events_the_replay_honours(client: TestClient) -> None:
    table, auth = new_table(client)
    post(client, table, auth, {"type": "deal", "dealer": 0, "upcard": "9H"})
    post(client, table, auth, {"type": "bid", "seat": 1, "bid": "pass"})
    after_bid = post(client, table, auth, {"type": "bid", "seat": 2, "bid": "play"}).json()
    assert after_bid["current"]["maker"] == 2
    undone = post(client, table, auth, {"type": "undo"}).json()
    assert undone["current"]["maker"] is None and undone["current"]["to_move"] == 2
    assert undone["seq"] == 4
    # a correction replaces event 2 (seat 1's pass) by seat 1 making trump
    fixed = post(
        client,
        table,
        auth,
        {"type": "correct", "seq": 2, "event": {"type": "bid", "seat": 1, "bid": "play"}},
    ).json()
    assert fixed["current"]["maker"] == 1 and fixed["current"]["bids"] == [
        {"seat": 1, "bid": "play"}
    ]
    # a correction that makes the log impossible is refused
    bad = post(client, table, auth, {"type": "correct", "seq": 1, "event": None})
    assert bad.status_code == 409
    # undo reverses the correction; the audit trail keeps every row
    back = post(client, table, auth, {"type": "undo"}).json()
    assert back["current"]["bids"] == [{"seat": 1, "bid": "pass"}]
    log = client.get(f"/api/tables/{table}/events").json()
    assert [e["seq"] for e in log] == [1, 2, 3, 4, 5, 6]
    assert [e["event"]["type"] for e in log] == ["deal", "bid", "bid", "undo", "correct", "undo"]
    assert all(e["actor"] == "scorer" and e["at"] for e in log)
