"""The API documents itself: /docs serves, and the OpenAPI schema lists every route and every
event type a scorer may post."""

from __future__ import annotations

from fastapi.testclient import TestClient

EVENT_TYPES = {
    "deal", "bid", "play", "trump", "choose_trump", "name", "declare", "show", "announce",
    "exchange_dix", "claim_renege", "referee_renege", "confirm_renege", "dismiss_renege",
    "misdeal", "correct", "undo",
}  # fmt: skip


def test_docs_and_schema(client: TestClient) -> None:
    assert client.get("/docs").status_code == 200
    schema = client.get("/openapi.json").json()
    paths = schema["paths"]
    assert set(paths) >= {
        "/api/tables",
        "/api/tables/{table_id}",
        "/api/tables/{table_id}/events",
        "/api/tables/{table_id}/stream",
        "/api/tables/{table_id}/export",
    }
    post = paths["/api/tables/{table_id}/events"]["post"]
    assert {"200", "401", "403", "409", "422"} <= set(post["responses"])
    assert any(p["name"] == "idempotency-key" for p in post["parameters"])
    types: set[str] = set()
    for model in schema["components"]["schemas"].values():
        kind = model.get("properties", {}).get("type", {})
        types |= {kind["const"]} if "const" in kind else set(kind.get("enum", []))
    assert types >= EVENT_TYPES, EVENT_TYPES - types
