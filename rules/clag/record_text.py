"""Score sheets for Clag results, as a club keeps them on paper."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any


def _row(cells: Sequence[object], widths: Sequence[int]) -> str:
    return "  ".join(str(c).rjust(w) for c, w in zip(cells, widths, strict=True)).rstrip()


def _trump_text(result: Mapping[str, Any]) -> str:
    if result.get("trump_card"):
        return f"trump {result['trump']} (turned {result['trump_card']})"
    if result.get("trump"):
        return f"trump {result['trump']} (dealer's choice)"
    return "no trump"


def _round_text(result: Mapping[str, Any]) -> str:
    n = result["players"]
    lines = [
        f"Clag round {result['round']} ({result['rule']}): {n} players, "
        f"{result['hand_size']} card(s) each, dealer seat {result['dealer']}, {_trump_text(result)}"
    ]
    if result.get("options"):
        lines.append("options: " + ", ".join(f"{k}={v}" for k, v in result["options"].items()))
    widths = (4, 8, 6, 5, 9)
    lines.append(_row(("seat", "contract", "tricks", "score", "completed"), widths))
    contracts = result.get("contracts") or ["-"] * n
    for seat in range(n):
        lines.append(
            _row(
                (
                    seat,
                    "-" if contracts[seat] is None else contracts[seat],
                    result["tricks_won"][seat],
                    result["score"][seat],
                    "yes" if result["completed"][seat] else "",
                ),
                widths,
            )
        )
    for renege in result.get("reneges", []):
        lines.append(f"renege ({renege['rule']}): {renege['detail']}")
    return "\n".join(lines)


def _game_text(result: Mapping[str, Any]) -> str:
    n = result["players"]
    widths = (5, 5, 5) + (6,) * n
    head = ("round", "cards", "trump") + tuple(f"seat{s}" for s in range(n))
    lines = [f"Clag, {n} players: running totals", _row(head, widths)]
    for r in result["rounds"]:
        trump = r["trump"] or "-"
        lines.append(_row((r["round"], r["hand_size"], trump, *r["totals"]), widths))
        for renege in r.get("reneges", []):
            lines.append(f"      round {r['round']} renege: {renege['detail']}")
    title = "Final ranking" if result["finished"] else "Standing (game not finished)"
    lines.append(title + " (completed contracts beside the total):")
    for s in result["ranking"]:
        lines.append(
            f"  {s['place']}. seat {s['seat']}  {s['total']} points, {s['completed']} completed"
        )
    return "\n".join(lines)


def format_text(result: Mapping[str, Any]) -> str:
    """The score sheet of a round result or a game result from ``score_record``."""
    return _game_text(result) if "rounds" in result else _round_text(result)
