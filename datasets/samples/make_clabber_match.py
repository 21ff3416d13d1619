"""Regenerate ``clabber_match.json``: a full game of Evansville Clabber to 500, played by the
random-but-lawful simulator of :mod:`rules.clabber.simulate` from a fixed seed.

The seed is the first one (from 0) whose game shows what a demo should: a set ("XXX"), a bella,
a meld contest won, and a redeal after eight passes. Run from the repository root:
``.venv/bin/python datasets/samples/make_clabber_match.py``.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from rules.clabber.scoring import hand_result  # noqa: E402
from rules.clabber.simulate import hand_record, simulate_game  # noqa: E402

OUT = Path(__file__).with_name("clabber_match.json")


def wanted(seed: int) -> dict[str, object] | None:
    hands = simulate_game(random.Random(seed), dealer=seed % 4)
    results = [hand_result(h) for h in hands]
    if not (
        any(r.set for r in results)
        and any(r.set is False and sum(r.bella) and r.end == "complete" for r in results)
        and any(r.meld_winner is not None for r in results)
        and any(r.end == "passed" for r in results)
        and 6 <= len(hands) <= 12
    ):
        return None
    records = [hand_record(h) for h in hands]
    return {"game": "clabber", "seed": seed, "hands": records}


def main() -> None:
    for seed in range(10_000):
        match = wanted(seed)
        if match is not None:
            hands = match["hands"]
            assert isinstance(hands, list)
            lines = ",\n    ".join(json.dumps(h) for h in hands)
            OUT.write_text(f'{{"game": "clabber", "seed": {seed}, "hands": [\n    {lines}\n]}}\n')
            print(f"seed {seed}: {len(hands)} hands -> {OUT}")
            return
    raise SystemExit("no seed matched")


if __name__ == "__main__":
    main()
