"""The Clabber score sheet as a club keeps it: one line a hand, each team's points for the
hand and its running total; "XXX" for a set team, "--" for a zero."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}


def _note(hand: Mapping[str, Any]) -> str:
    notes: list[str] = []
    end = hand.get("end")
    if end == "passed":
        notes.append("all passed: same dealer deals again")
    elif end == "misdeal":
        notes.append("misdeal: same dealer deals again")
    applied = [r for r in hand.get("reneges", []) if r.get("status") in ("applied", "confirmed")]
    for r in applied:
        where = f"trick {r['trick']}" if r.get("trick") else "bidding"
        proof = f", proved by {r['proof']}" if r.get("proof") else ""
        notes.append(f"renege seat {r['seat']} ({r['rule']}, {where}{proof})")
    if end == "renege" and hand.get("redeal"):
        notes.append("both teams reneged: same dealer deals again")
    if hand.get("set"):
        notes.append("makers set")
    melds = hand.get("melds", [[], []])
    winner = hand.get("meld_winner")
    for team in (0, 1):
        scored = winner == team or (end == "renege" and hand.get("meld_points", [0, 0])[team])
        if melds[team] and scored:
            kinds = ", ".join(f"{m['kind']} {m['points']}" for m in melds[team])
            notes.append(f"T{team} melds {kinds}")
    for team in (0, 1):
        if hand.get("bella", [0, 0])[team]:
            lost = (hand.get("set") and team == hand.get("makers")) or (
                end == "renege" and not hand.get("score", [0, 0])[team]
            )
            notes.append(f"T{team} bella" + (" (lost)" if lost else ""))
    return "; ".join(notes)


def _row(number: int, hand: Mapping[str, Any], running: Sequence[int]) -> str:
    trump = hand.get("trump") or "-"
    maker = hand.get("maker")
    made = f"seat {maker}" if maker is not None else "-"
    marks = hand.get("sheet", ["--", "--"])
    return (
        f"{number:>3}  {hand.get('dealer', '-'):>6}  {hand.get('upcard', ''):>6}  {trump:>5}  {made:>7}  "
        f"{marks[0]:>5} {running[0]:>5}   {marks[1]:>5} {running[1]:>5}  {_note(hand)}"
    ).rstrip()


HEADER = (
    "  #  dealer  upcard  trump  made by   T0 (seats 0+2)  T1 (seats 1+3)  notes\n"
    "---  ------  ------  -----  -------  ----- -----   ----- -----  -----"
)


def format_text(result: Mapping[str, Any]) -> str:
    """A score sheet for a hand or match result of :func:`rules.clabber.records.score_record`."""
    lines = ["Evansville Clabber score sheet", HEADER]
    if result.get("type") == "match":
        for i, hand in enumerate(result.get("hands", []), 1):
            lines.append(_row(i, hand, hand.get("running", hand.get("score", [0, 0]))))
        totals = result.get("totals", [0, 0])
        lines.append(f"{'total':>37}  {'':>5} {totals[0]:>5}   {'':>5} {totals[1]:>5}")
        winner = result.get("winner")
        if winner is None:
            lines.append(f"game not finished (to {result.get('target', 500)})")
        else:
            lines.append(
                f"team {winner} (seats {winner} and {winner + 2}) wins {totals[0]}-{totals[1]}"
            )
        return "\n".join(lines)
    lines.append(_row(1, result, result.get("score", [0, 0])))
    for t in result.get("tricks", []):
        lines.append(
            f"     trick {t['number']}: {' '.join(t['cards'])}  led by seat {t['leader']}, won by seat {t['winner']}"
        )
    tp = result.get("trick_points", [0, 0])
    lines.append(f"     trick points (last trick included): T0 {tp[0]}, T1 {tp[1]}")
    return "\n".join(lines)
