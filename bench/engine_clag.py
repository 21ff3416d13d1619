"""Clag engine speed: random-play deals per second beside OpenSpiel's ``oh_hell``.

Both sides play the same kind of deal: 4-7 players, 1-7 cards, a turned trump, contracts with
the not-equal dealer rule, random legal moves (OpenSpiel's chance nodes sampled at random).
Clag runs through the immutable state machine with known hands (``rules.clag.simulate``);
OpenSpiel through its Python bindings. Also reports whole 22-round Clag games per second.

    .venv/bin/python bench/engine_clag.py [--deals 300] [--repeats 5]

``run(report)`` returns the figures and calls ``report(line)`` for each printed line, so
``bench/engine.py`` can include it.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules.clag import ClagRuleset  # noqa: E402
from rules.clag.simulate import random_game, random_round  # noqa: E402

NOT_EQUAL = ClagRuleset(dealer_rule="not_equal")


def _deals(n: int, seed: int) -> list[tuple[int, int, int]]:
    rng = random.Random(seed)
    return [(rng.randint(4, 7), rng.randint(1, 7), rng.randrange(4)) for _ in range(n)]


def clag_deals(deals: list[tuple[int, int, int]], seed: int) -> float:
    rng = random.Random(seed)
    start = time.perf_counter()
    for players, size, dealer in deals:
        random_round(players, size, dealer % players, rng, NOT_EQUAL)
    return len(deals) / (time.perf_counter() - start)


def openspiel_deals(deals: list[tuple[int, int, int]], seed: int) -> float | None:
    try:
        import pyspiel  # type: ignore[import-not-found,import-untyped,unused-ignore]
    except ImportError:
        return None
    games = {
        (p, k): pyspiel.load_game("oh_hell", {"players": p, "num_tricks_fixed": k})
        for p in range(4, 8)
        for k in range(1, 8)
    }
    rng = random.Random(seed)
    start = time.perf_counter()
    for players, size, _ in deals:
        state = games[(players, size)].new_initial_state()
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
        state.returns()
    return len(deals) / (time.perf_counter() - start)


def clag_games(n: int, seed: int) -> float:
    rng = random.Random(seed)
    start = time.perf_counter()
    for i in range(n):
        random_game(4 + i % 4, rng)
    return n / (time.perf_counter() - start)


def run(
    report: Callable[[str], None] = print, deals: int = 300, repeats: int = 5, games: int = 10
) -> dict[str, Any]:
    """Median rates over ``repeats`` runs; returns them and reports one line each."""
    plan = _deals(deals, 1)
    clag = statistics.median(clag_deals(plan, r) for r in range(repeats))
    spiel_runs = [openspiel_deals(plan, r) for r in range(repeats)]
    spiel = None if None in spiel_runs else statistics.median(x for x in spiel_runs if x)
    whole = statistics.median(clag_games(games, r) for r in range(repeats))
    report(f"clag random-play deals/s (4-7 players, 1-7 cards): {clag:,.0f}")
    if spiel is None:
        report("openspiel oh_hell deals/s: pyspiel not installed")
    else:
        report(f"openspiel oh_hell deals/s (same deals):           {spiel:,.0f}")
        report(f"ratio clag/openspiel: {clag / spiel:.2f}")
    report(f"clag random-play whole games/s (22 rounds): {whole:,.1f}")
    return {"clag_deals_per_s": clag, "oh_hell_deals_per_s": spiel, "clag_games_per_s": whole}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=300)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    run(deals=args.deals, repeats=args.repeats)


if __name__ == "__main__":
    main()
