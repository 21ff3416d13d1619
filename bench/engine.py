"""Clabber rules-engine throughput: random-play hands per second, scored.

Each run deals, bids and plays N random-but-lawful hands through the event-driven
:class:`rules.clabber.HandState` (hidden hands: the engine learns every card as it is played)
and scores each one; a second figure replays hand records through ``score_record``.
Then Klaberjass hands/s, and Clag random-play deals/s beside OpenSpiel's ``oh_hell`` on the
same deals with their ratio (``bench/engine_clag.py``). Prints the median of several runs.
Usage: ``.venv/bin/python bench/engine.py [--hands N] [--runs R]``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules.clabber.records import score_record  # noqa: E402
from rules.clabber.scoring import hand_result  # noqa: E402
from rules.clabber.simulate import hand_record, simulate_hand  # noqa: E402
from rules.klaberjass.scoring import score_hand as klaberjass_score  # noqa: E402
from rules.klaberjass.simulate import simulate_hand as klaberjass_hand  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
import engine_clag  # noqa: E402


def play_and_score(hands: int, seed: int, known: bool) -> float:
    rng = random.Random(seed)
    start = time.perf_counter()
    for i in range(hands):
        hand_result(simulate_hand(rng, i % 4, known_deal=known).state)
    return hands / (time.perf_counter() - start)


def klaberjass_play_and_score(hands: int, seed: int) -> float:
    rng = random.Random(seed)
    start = time.perf_counter()
    for i in range(hands):
        klaberjass_score(klaberjass_hand(rng, dealer=i % 2).state)
    return hands / (time.perf_counter() - start)


def score_records(records: list[dict[str, object]]) -> float:
    start = time.perf_counter()
    for rec in records:
        score_record(rec)
    return len(records) / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    hidden = [play_and_score(args.hands, run, known=False) for run in range(args.runs)]
    known = [play_and_score(args.hands, run, known=True) for run in range(args.runs)]
    rng = random.Random(1)
    records = [hand_record(simulate_hand(rng, i % 4).state) for i in range(args.hands)]
    recs = [score_records(records) for _ in range(args.runs)]
    print(
        f"clabber random play + scoring, hidden hands: {statistics.median(hidden):8.0f} hands/s (median of {args.runs})"
    )
    print(
        f"clabber random play + scoring, known deal:   {statistics.median(known):8.0f} hands/s (median of {args.runs})"
    )
    print(
        f"clabber score_record (hand records):         {statistics.median(recs):8.0f} hands/s (median of {args.runs})"
    )
    kj = [klaberjass_play_and_score(args.hands, run) for run in range(args.runs)]
    print(
        f"klaberjass random play + scoring:            {statistics.median(kj):8.0f} hands/s (median of {args.runs})"
    )
    engine_clag.run(print, repeats=args.runs)


if __name__ == "__main__":
    main()
