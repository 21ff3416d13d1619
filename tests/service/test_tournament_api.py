"""Tournaments through the API (TestClient, a real SQLite file): the schedule as real tables
with scorer tokens, standings from the tables' finished games (rules.md "Tournaments": games
won with points as tie-break, or points alone), the live stream of standings, the schema's
migration."""

from __future__ import annotations

import contextlib
import json
import queue
import threading
from itertools import combinations
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import inspect
from svc_helpers import ORGANISER, ORGANISER_PIN, ThreadServer, base_hand_events

from service.app import create_app
from service.db import make_engine, migrate
from service.settings import Settings

TEAMS = [
    {"name": "Aces", "players": ["Ann", "Al"]},
    {"name": "Kings", "players": ["Bob", "Bea"]},
    {"name": "Queens", "players": ["Cy", "Cat"]},
    {"name": "Jacks", "players": ["Di", "Dan"]},
]
# a game to 100: the BASE hand (128 / 104) finishes it, won by seats 0 and 2 (the home team)
SHORT = {"game_target": 100}


def make(client: TestClient, entrants: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    body = {"name": "Club night", "game": "clabber", "entrants": entrants, **extra}
    r = client.post("/api/tournaments", json=body, headers=ORGANISER)
    assert r.status_code == 201, r.text
    made: dict[str, Any] = r.json()
    return made


def play_base_hand(client: TestClient, table: dict[str, Any]) -> dict[str, Any]:
    auth = {"Authorization": f"Bearer {table['scorer_token']}"}
    state: dict[str, Any] = {}
    for event in base_hand_events():
        r = client.post(f"/api/tables/{table['id']}/events", json=event, headers=auth)
        assert r.status_code == 200, r.text
        state = r.json()
    return state


def test_four_teams_get_three_rounds_of_two_real_tables(client: TestClient) -> None:
    made = make(client, TEAMS)
    assert made["referee_token"] and made["rank_by"] == "games"
    tables = made["tables"]
    assert sorted((t["round"], t["number"]) for t in tables) == [
        (r, n) for r in (1, 2, 3) for n in (1, 2)
    ]
    # every pair of teams meets once, and partners sit opposite each other
    assert sorted(tuple(sorted(t["entrants"])) for t in tables) == list(combinations(range(4), 2))
    for t in tables:
        home, away = (TEAMS[i]["players"] for i in t["entrants"])
        assert t["players"] == [home[0], away[0], home[1], away[1]]
        # a real table: readable, and its scorer token posts to it
        state = client.get(f"/api/tables/{t['id']}").json()
        assert state["players"] == t["players"] and state["seq"] == 0
    deal = {"type": "deal", "dealer": 0, "upcard": "9H"}
    first, second = tables[0], tables[1]
    wrong = {"Authorization": f"Bearer {second['scorer_token']}"}
    assert (
        client.post(f"/api/tables/{first['id']}/events", json=deal, headers=wrong).status_code
        == 403
    )
    view = client.get(f"/api/tournaments/{made['id']}").json()
    assert view["byes"] == [] and len(view["tables"]) == 6
    assert [t["id"] for t in client.get("/api/tournaments").json()] == [made["id"]]


def test_api_lists_the_byes_of_an_odd_count(client: TestClient) -> None:
    made = make(client, TEAMS[:3])
    view = client.get(f"/api/tournaments/{made['id']}").json()
    assert sorted(b["entrant"] for b in view["byes"]) == [0, 1, 2]
    assert sorted(b["round"] for b in view["byes"]) == [1, 2, 3]
    assert len(made["tables"]) == 3


def test_standings_follow_the_tables_finished_games(client: TestClient) -> None:
    made = make(client, TEAMS, options=SHORT)
    before = client.get(f"/api/tournaments/{made['id']}/standings").json()
    assert [s["place"] for s in before] == [1, 1, 1, 1]  # nobody has played: all level
    table = made["tables"][0]
    home, away = table["entrants"]
    state = play_base_hand(client, table)
    assert state["games"][0]["over"] and state["games"][0]["winners"] == [0]
    ranked = client.get(f"/api/tournaments/{made['id']}/standings").json()
    by = {s["entrant"]: s for s in ranked}
    assert ranked[0]["entrant"] == home and ranked[0]["place"] == 1
    assert (by[home]["won"], by[home]["points"], by[home]["points_against"]) == (1, 128, 104)
    assert (by[away]["lost"], by[away]["points"], by[away]["place"]) == (1, 104, 2)
    others = [e for e in range(4) if e not in (home, away)]
    assert {by[e]["place"] for e in others} == {3} and by[others[0]]["played"] == 0


def test_a_correction_at_a_table_changes_the_standings(client: TestClient) -> None:
    made = make(client, TEAMS, options=SHORT)
    table = made["tables"][0]
    play_base_hand(client, table)
    auth = {"Authorization": f"Bearer {table['scorer_token']}"}
    assert (
        client.post(
            f"/api/tables/{table['id']}/events", json={"type": "undo"}, headers=auth
        ).status_code
        == 200
    )
    ranked = client.get(f"/api/tournaments/{made['id']}/standings").json()
    assert all(s["played"] == 0 for s in ranked)


def rotated(events: list[dict[str, Any]], k: int) -> list[dict[str, Any]]:
    """The same hand dealt by the seat ``k`` places to the left: every seat moves ``k``."""
    out = []
    for e in events:
        e = dict(e)
        for key in ("seat", "dealer"):
            if key in e:
                e[key] = (e[key] + k) % 4
        out.append(e)
    return out


def post_all(
    client: TestClient,
    table: dict[str, Any],
    events: list[dict[str, Any]],
    referee: dict[str, str] | None = None,
) -> None:
    """Post ``events`` with the scorer's token; the rulings with the referee's (only the
    referee rules)."""
    auth = {"Authorization": f"Bearer {table['scorer_token']}"}
    for event in events:
        if event["type"] == "referee_renege" and referee is not None:
            r = client.post(
                f"/api/referee/tables/{table['id']}/events",
                json={"by": "Rita", "event": event},
                headers=referee,
            )
        else:
            r = client.post(f"/api/tables/{table['id']}/events", json=event, headers=auth)
        assert r.status_code == 200, r.text


def renege_hand(dealer: int) -> list[dict[str, Any]]:
    """A hand ended by the referee's renege against seat 1: 162 to seats 0 and 2, 0 to 1 and
    3."""
    return [
        {"type": "deal", "dealer": dealer, "upcard": "9H"},
        {"type": "bid", "seat": (dealer + 1) % 4, "bid": "play"},
        {"type": "referee_renege", "seat": 1, "rule": "coaching"},
    ]


@pytest.mark.parametrize(
    ("rank_by", "order"),
    # table 1: 360 beats 336 in three BASE hands; table 2: two reneges, 324 beat 0
    [("games", ["1 home", "2 home", "1 away", "2 away"]),
     ("points", ["1 home", "1 away", "2 home", "2 away"])],
)  # fmt: skip
def test_rank_by_games_or_by_points_alone(
    client: TestClient, rank_by: str, order: list[str]
) -> None:
    """rules.md: teams ranked by games won, ties broken by total game points; some events rank
    by game points alone. A loser with 336 points ranks below a winner with 324 by games, above
    him by points."""
    made = make(client, TEAMS, options={"game_target": 300}, rank_by=rank_by)
    one, two = (t for t in made["tables"] if t["round"] == 1)
    base = base_hand_events()
    post_all(client, one, base + rotated(base, 1) + rotated(base, 2))
    referee = {"Authorization": f"Bearer {made['referee_token']}"}
    post_all(client, two, renege_hand(3) + renege_hand(0), referee)
    names = {
        one["entrants"][0]: "1 home", one["entrants"][1]: "1 away",
        two["entrants"][0]: "2 home", two["entrants"][1]: "2 away",
    }  # fmt: skip
    ranked = client.get(f"/api/tournaments/{made['id']}/standings").json()
    assert [names[s["entrant"]] for s in ranked] == order, ranked
    assert [(s["won"], s["points"]) for s in ranked if names[s["entrant"]] == "1 away"] == [
        (0, 336)
    ]
    assert [s["place"] for s in ranked] == [1, 2, 3, 4]


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"game": "clabber", "entrants": [TEAMS[0]]}, "entrants"),
        (
            {"game": "clabber", "entrants": [TEAMS[0], {"name": "Solo", "players": ["X"]}]},
            "entrants",
        ),
        ({"game": "klaberjass", "entrants": TEAMS[:2]}, "entrants"),
        ({"game": "clabber", "entrants": [TEAMS[0], TEAMS[0]]}, "entrants"),
        ({"game": "clabber", "entrants": TEAMS, "options": {"nope": 1}}, "options"),
        ({"game": "clabber", "entrants": TEAMS, "rank_by": "luck"}, "rank_by"),
        ({"game": "clag", "entrants": [{"name": n, "players": [n]} for n in "ABC"]}, "entrants"),
    ],
)
def test_bad_tournaments_are_422_naming_the_field(
    client: TestClient, body: dict[str, Any], field: str
) -> None:
    r = client.post("/api/tournaments", json={"name": "T", **body}, headers=ORGANISER)
    assert r.status_code == 422, r.text
    assert any(field in d["loc"] for d in r.json()["detail"]), r.json()
    assert client.get("/api/tournaments").json() == []  # nothing half-made
    assert client.get("/api/tables").json() == []


def test_klaberjass_entrants_are_players_and_clag_seats_everyone_at_tables_of_4_to_7(
    client: TestClient,
) -> None:
    players = [{"name": n, "players": [n]} for n in ("Ann", "Bob", "Cy")]
    made = make(client, players, game="klaberjass")
    assert [t["players"] for t in made["tables"] if t["round"] == 1] == [
        [players[t["entrants"][0]]["name"], players[t["entrants"][1]]["name"]]
        for t in made["tables"]
        if t["round"] == 1
    ]
    nine = [{"name": f"P{i}", "players": [f"P{i}"]} for i in range(9)]
    clag = make(client, nine, game="clag", rank_by="points")
    sizes = sorted(len(t["players"]) for t in clag["tables"])
    assert sizes == [4, 5] and {t["round"] for t in clag["tables"]} == {1}
    seated = sorted(e for t in clag["tables"] for e in t["entrants"])
    assert seated == list(range(9))


def test_unknown_tournament_is_404(client: TestClient) -> None:
    assert client.get("/api/tournaments/nope").status_code == 404
    assert client.get("/api/tournaments/nope/standings").status_code == 404


def test_migration_0002_creates_the_tournament_tables(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'm.db'}")
    migrate(engine)
    names = set(inspect(engine).get_table_names())
    assert {"tournaments", "tournament_tables", "play_evidence"} <= names
    engine.dispose()


def test_tournament_stream_sends_standings_when_a_game_ends(tmp_path: Path) -> None:
    app = create_app(
        Settings(organiser_pin=ORGANISER_PIN, db=str(tmp_path / "live.db"), stream_heartbeat_s=15.0)
    )
    with ThreadServer(app) as server, httpx.Client(base_url=server.url, timeout=10) as http:
        made = http.post(
            "/api/tournaments",
            json={"name": "Live", "game": "clabber", "entrants": TEAMS, "options": SHORT},
            headers=ORGANISER,
        ).json()
        messages: queue.Queue[Any] = queue.Queue()

        def follow() -> None:
            stream = f"{server.url}/api/tournaments/{made['id']}/stream"
            # the server stops under it at the end
            with contextlib.suppress(httpx.TransportError), httpx.stream("GET", stream) as r:
                for line in r.iter_lines():
                    if line.startswith("data: "):
                        messages.put(json.loads(line[6:]))

        threading.Thread(target=follow, daemon=True).start()
        first = messages.get(timeout=10)
        assert first["kind"] == "tournament" and all(s["played"] == 0 for s in first["standings"])
        table = made["tables"][0]
        auth = {"Authorization": f"Bearer {table['scorer_token']}"}
        for event in base_hand_events():
            assert (
                http.post(f"/api/tables/{table['id']}/events", json=event, headers=auth).status_code
                == 200
            )
        while True:  # the changed table's row, the standings when they change
            message = messages.get(timeout=10)
            assert message["kind"] == "tables"
            assert [r["id"] for r in message["rows"]] == [table["id"]]
            if any(s["played"] for s in message.get("standings", ())):
                break
        [row] = message["rows"]
        assert row["over"] and row["games_won"] == [1, 0]
        top = message["standings"][0]
        assert (top["entrant"], top["won"], top["points"]) == (table["entrants"][0], 1, 128)
