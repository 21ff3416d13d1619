"""The state is the replay of the stored log: random lawful (and unlawful) hands of every
game scored through the API as the engine scores them, games won and a new game begun,
the same state from a new app on the same database file, and export/replay round trips."""

from __future__ import annotations

import csv
import io
import random
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from svc_helpers import BASE_SCORE, ORGANISER_PIN, PLAYERS4, base_hand_events, to_json
from test_api_events import new_table, post

from rules.belote import BeloteRules
from rules.clabber import hand_result
from rules.clabber.simulate import simulate_hand as simulate_clabber
from rules.clag.simulate import random_game
from rules.klaberjass import KlaberjassRules, score_hand
from rules.klaberjass.simulate import simulate_hand as simulate_klaberjass
from service.app import create_app
from service.games import TableSession
from service.settings import Settings

Simulated = tuple[list[dict[str, Any]], list[int], bool, list[tuple[int, str]]]


def simulate(game: str, rng: random.Random, dealer: int, illegal_at: int | None) -> Simulated:
    """One random hand: its events as JSON, its score, whether it is a redeal, and the
    reneges the engine proved (seat, rule)."""
    if game == "clabber":
        sim = simulate_clabber(rng, dealer, illegal_at=illegal_at)
        result = hand_result(sim.state)
        reneges = [(r.evidence.seat, r.evidence.rule) for r in result.reneges]
        return [to_json(e) for e in sim.events], list(result.score), result.redeal, reneges
    rules = KlaberjassRules() if game == "klaberjass" else BeloteRules()
    ksim = simulate_klaberjass(rng, rules, dealer, illegal_at=illegal_at)
    kresult = score_hand(ksim.state)
    kreneges = [(r.evidence.seat, r.evidence.rule) for r in kresult.reneges]
    return [to_json(e) for e in ksim.events], list(kresult.scores), kresult.redeal, kreneges


@pytest.mark.parametrize("game", ["clabber", "klaberjass", "belote"])
def test_random_hands_are_scored_through_the_api_as_the_engine_scores_them(
    client: TestClient, game: str
) -> None:
    players = PLAYERS4[:2] if game == "klaberjass" else PLAYERS4
    table, auth = new_table(client, game, players)
    rng = random.Random(f"service-{game}-0")
    dealer, expected, reneges = 1, [], []
    for hand in range(6):
        illegal_at = rng.randrange(12) if hand else None  # an illegal play after the first hand
        events, score, redeal, proven = simulate(game, rng, dealer, illegal_at)
        for event in events:
            r = post(client, table, auth, event)
            assert r.status_code == 200, (hand, event, r.text)
        expected.append(score)
        reneges.append(proven)
        dealer = dealer if redeal else (dealer + 1) % len(players)
    state = client.get(f"/api/tables/{table}").json()
    assert [h["score"] for h in state["hands"]] == expected
    assert [[(r["seat"], r["rule"]) for r in h["reneges"]] for h in state["hands"]] == reneges
    assert any(reneges), "no renege was proven: pick another seed"


def test_a_won_game_counts_and_the_next_deal_begins_a_new_game(client: TestClient) -> None:
    table, auth = new_table(client, "klaberjass", PLAYERS4[:2], options={"target": 100})
    rng = random.Random("two games")
    dealer = 0
    while client.get(f"/api/tables/{table}").json()["games_won"] == [0, 0]:
        events, _score, redeal, _ = simulate("klaberjass", rng, dealer, None)
        for event in events:
            assert post(client, table, auth, event).status_code == 200
        dealer = dealer if redeal else (dealer + 1) % 2
    state = client.get(f"/api/tables/{table}").json()
    [game] = state["games"]
    assert game["over"] and max(game["totals"]) >= 100 and sum(state["games_won"]) == 1
    assert state["games_won"][game["winners"][0]] == 1
    assert state["totals"] == game["totals"]  # the final score, until the next deal
    events, *_ = simulate("klaberjass", rng, dealer, None)
    assert events[0]["dealer"] == dealer  # the deal keeps passing from game to game...
    del events[0]["dealer"]  # ... so the new game's first deal need not name the dealer
    after = post(client, table, auth, events[0]).json()
    assert [g["number"] for g in after["games"]] == [1, 2] and after["current"]["number"] == 1
    assert after["totals"] == [0, 0] and after["current"]["dealer"] == dealer
    assert len(after["hands"]) == len(state["hands"])  # the sheet runs across games


def test_a_clag_game_replays_through_the_adapter_as_the_engine_plays_it() -> None:
    """All 22 rounds (no trump, zero contracts, trump after contracts, contracts before the
    deal, wild twos, aces low, dealer's trump, no contracts) read from JSON events."""
    rounds = random_game(5, random.Random("clag adapter"))
    log: list[tuple[int, dict[str, Any]]] = []
    for r in rounds:
        for event in r.log:
            log.append((len(log) + 1, to_json(event, dealer=r.dealer)))
    session = TableSession.new("clag", ["a", "b", "c", "d", "e"], {}).replay(log)
    [game] = session.games
    assert game.finished
    rows = session.spec.rows(game)
    assert [row.score for row in rows] == [r.result().score for r in rounds]
    assert session.spec.winners(game) == [
        s for s in range(5) if game.totals()[s] == max(game.totals())
    ]


def test_clag_through_the_api(client: TestClient) -> None:
    table, auth = new_table(client, "clag", PLAYERS4)
    rounds = random_game(4, random.Random("clag api"))[:3]
    for r in rounds:
        for event in r.log:
            resp = post(client, table, auth, to_json(event, dealer=r.dealer))
            assert resp.status_code == 200, (event, resp.text)
    state = client.get(f"/api/tables/{table}").json()
    assert [h["score"] for h in state["hands"]] == [list(r.result().score) for r in rounds]
    assert [h["round"] for h in state["hands"]] == [1, 2, 3]
    assert state["sides"] == [[0], [1], [2], [3]]
    wrong = (rounds[-1].dealer + 2) % 4
    bad = post(client, table, auth, {"type": "deal", "dealer": wrong})
    assert bad.status_code == 409 and "deals this round" in bad.json()["detail"]
    assert post(client, table, auth, {"type": "trump", "card": "11H"}).status_code == 422
    assert (
        post(client, table, auth, {"type": "declare", "seat": 0, "cards": ["AS"]}).status_code
        == 422
    )


def test_a_new_app_on_the_same_file_gives_the_same_state(db_path: Path) -> None:
    with TestClient(create_app(Settings(organiser_pin=ORGANISER_PIN, db=str(db_path)))) as client:
        table, auth = new_table(client)
        for event in base_hand_events():
            assert post(client, table, auth, event).status_code == 200
        post(client, table, auth, {"type": "deal", "upcard": "9S"})
        post(client, table, auth, {"type": "bid", "seat": 1, "bid": "pass"})
        post(client, table, auth, {"type": "undo"})
        before = client.get(f"/api/tables/{table}").json()
    with TestClient(create_app(Settings(organiser_pin=ORGANISER_PIN, db=str(db_path)))) as client:
        after = client.get(f"/api/tables/{table}").json()
        assert after == before
        assert after["hands"][0]["score"] == BASE_SCORE and after["seq"] == 29
        # and the token still works (only its hash is stored)
        assert (
            post(client, table, auth, {"type": "bid", "seat": 1, "bid": "pass"}).status_code == 200
        )


def test_export_json_replays_to_the_same_state(client: TestClient) -> None:
    table, auth = new_table(client)
    for event in base_hand_events()[:12]:
        post(client, table, auth, event)
    post(client, table, auth, {"type": "undo"})
    post(
        client,
        table,
        auth,
        {"type": "correct", "seq": 2, "event": {"type": "bid", "seat": 0, "bid": "play"}},
    )
    exported = client.get(f"/api/tables/{table}/export?format=json")
    assert exported.status_code == 200 and exported.headers["content-type"].startswith(
        "application/json"
    )
    log = exported.json()
    assert log["format"] == "trickcam-table-log" and log["table"]["game"] == "clabber"
    assert [e["seq"] for e in log["events"]] == list(range(1, 15))
    copy, copy_auth = new_table(client, log["table"]["game"], log["table"]["players"])
    for record in log["events"]:
        assert post(client, copy, copy_auth, record["event"]).status_code == 200
    original = client.get(f"/api/tables/{table}").json()
    replayed = client.get(f"/api/tables/{copy}").json()
    for key in ("hands", "totals", "games_won", "current", "seq"):
        assert replayed[key] == original[key], key


def test_export_csv_is_the_score_sheet(client: TestClient) -> None:
    table, auth = new_table(client)
    for event in base_hand_events():
        post(client, table, auth, event)
    r = client.get(f"/api/tables/{table}/export?format=csv")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(r.text)))
    assert len(rows) == 1
    assert rows[0]["score Ann & Cy"] == str(BASE_SCORE[0]) and rows[0]["total Bob & Di"] == str(
        BASE_SCORE[1]
    )
    assert rows[0]["dealer"] == "Di" and rows[0]["set"] == ""
    assert client.get(f"/api/tables/{table}/export?format=xml").status_code == 422
