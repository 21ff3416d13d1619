"""Replay the plays of ``bench/watch.py --dump`` files as if the face's lean had weighed
another power (``vision.read.suits.SUIT_WEIGHT``): which plays would read otherwise.

    .venv/bin/python bench/leanreplay.py DUMP [DUMP ...] [--dumped 1.5] [--weight 0.5]

The watcher names a play from its index (the classifier over its views), weighs the suit its
whole face leans to (``with_lean``: each card's probability times its suit's share of the
face's lean raised to ``SUIT_WEIGHT``), and dumps, per play, the card named, its probability,
the runner-up and its probability, and the face's lean (``face``: S, H, D, C shares). A play
whose runner-up is the same rank in another suit is replayed exactly between the two: their
odds times (lean of the runner-up's suit / lean of the card's suit) ** (weight - dumped). Any
other play is left as read (its runner-up is another rank, or no card: the lean does not turn
it). It is an estimate of what the other weight would have named, for comparing two weights on
the same renders without rendering them again; re-watching the kept renders
(``bench/watch.py --keep DIR --reuse``) is the measurement.

Prints each play that would read otherwise (right made wrong, or wrong made right), and the
totals.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from vision.read.suits import SUITS  # noqa: E402


def replay(hand: dict, dumped: float, weight: float) -> list[tuple[str, str, str, float]]:
    """(true card, read as dumped, read at ``weight``, dumped probability) of each play of
    ``hand`` (one ``--dump`` entry) that would read otherwise."""
    true = {(m["trick"], m["seat"]): m["true"] for m in hand.get("misread", [])}
    out = []
    for p in hand.get("seen_plays", []):
        face, card, runner = p.get("face") or {}, p["card"], p.get("runner_up") or ""
        if not face.get("n") or len(runner) < 2 or runner[:-1] != card[:-1] or runner == card:
            continue
        if runner[-1] not in SUITS or card[-1] not in SUITS:
            continue
        own, other = max(face[card[-1]], 1e-3), max(face[runner[-1]], 1e-3)
        odds = p["runner_up_probability"] / max(p["probability"], 1e-12)
        if odds * (other / own) ** (weight - dumped) > 1.0:
            key = (p["trick"], p["seat"])
            out.append((true.get(key, card), card, runner, float(p["probability"])))
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument(
        "dumps", type=Path, nargs="+", metavar="DUMP", help="bench/watch.py --dump files"
    )
    ap.add_argument("--dumped", type=float, default=1.5, help="the weight the dumps were made with")
    ap.add_argument("--weight", type=float, default=0.5, help="the weight to replay them at")
    args = ap.parse_args()
    plays = right = wrong = 0
    for path in args.dumps:
        try:
            hands = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as exc:
            print(f"error: {path}: {exc}", file=sys.stderr)
            return 2
        for hand in hands:
            plays += len(hand.get("seen_plays", []))
            for true, was, now, prob in replay(hand, args.dumped, args.weight):
                where = f"{path.name} {hand.get('level')} {hand.get('game')}"
                if now == true:
                    right += 1
                    print(f"made right  {where}: {true} read {was} {prob:.2f} -> {now}")
                elif was == true:
                    wrong += 1
                    print(f"made wrong  {where}: {true} read {was} {prob:.2f} -> {now}")
    print(
        f"{plays} plays replayed from weight {args.dumped} at {args.weight}: "
        f"{right} made right, {wrong} made wrong"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
