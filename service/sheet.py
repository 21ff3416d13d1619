"""What a table shows: its state (players, every scored hand, totals, games won, the hand in
play) as JSON, and its score sheet as CSV. Both are read from a replayed
:class:`~service.games.TableSession`; nothing here is stored.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping, Sequence
from typing import Any

from service.games import JSON, TableSession


def hand_rows(session: TableSession) -> list[JSON]:
    """Every scored hand at the table in order, across games, with running totals per game."""
    out: list[JSON] = []
    number = 0
    for game_no, game in enumerate(session.games, 1):
        running = [0] * len(session.spec.sides(session.seats))
        for hand_no, row in enumerate(session.spec.rows(game), 1):
            number += 1
            running = [a + b for a, b in zip(running, row.score, strict=True)]
            out.append(
                {
                    "number": number,
                    "game": game_no,
                    "hand": hand_no,
                    "dealer": row.dealer,
                    "score": list(row.score),
                    "running": list(running),
                    "set": row.set if isinstance(row.set, bool) else list(row.set),
                    "redeal": row.redeal,
                    "end": row.end,
                    "reneges": list(row.reneges),
                    **row.detail,
                }
            )
    return out


def table_state(meta: Mapping[str, Any], session: TableSession, seq: int) -> JSON:
    """The table's state as the API returns it (``GET /api/tables/{id}``)."""
    spec = session.spec
    sides = spec.sides(session.seats)
    hands = hand_rows(session)
    games_won = [0] * len(sides)
    games: list[JSON] = []
    for number, game in enumerate(session.games, 1):
        over = spec.is_over(game)
        winners = spec.winners(game) if over else []
        for side in winners:
            games_won[side] += 1
        game_hands = [h for h in hands if h["game"] == number]
        totals = game_hands[-1]["running"] if game_hands else [0] * len(sides)
        games.append({"number": number, "over": over, "winners": winners, "totals": totals})
    return {
        "id": meta["id"],
        "name": meta["name"],
        "game": meta["game"],
        "players": list(meta["players"]),
        "options": dict(meta["options"]),
        "sides": sides,
        "seq": seq,
        "hands": hands,
        # the latest game's totals: final once it is won, until the next game's first deal
        "totals": games[-1]["totals"] if games else [0] * len(sides),
        "games_won": games_won,
        "games": games,
        "current": spec.current(session.games[-1]) if session.games else None,
    }


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def cell(value: object) -> object:
    """A CSV cell a spreadsheet reads as what it is: text that would start a formula (a
    player named ``=HYPERLINK(...)``) gets a leading apostrophe; numbers stay numbers."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def score_sheet_csv(state: Mapping[str, Any]) -> str:
    """The score sheet: one line per scored hand, a score and a running total per side.
    Every text cell is neutralised (:func:`cell`): names come from whoever opened the table."""
    players: Sequence[str] = state["players"]
    labels = [" & ".join(players[s] for s in side) for side in state["sides"]]
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")

    def write(row: list[Any]) -> None:
        writer.writerow([cell(v) for v in row])

    write(
        ["hand", "game", "hand_in_game", "dealer"]
        + [f"score {label}" for label in labels]
        + [f"total {label}" for label in labels]
        + ["set", "end", "reneges"]
    )
    for h in state["hands"]:
        flag = h["set"]
        set_text = (
            ("yes" if flag else "")
            if isinstance(flag, bool)
            else " ".join(labels[i] for i, s in enumerate(flag) if s)
        )
        write(
            [h["number"], h["game"], h["hand"], players[h["dealer"]]]
            + h["score"]
            + h["running"]
            + [set_text, h["end"], "; ".join(r["detail"] for r in h["reneges"])]
        )
    return buf.getvalue()
