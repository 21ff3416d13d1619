"""Lawful play never proves a renege, in every game and under every combination of options.

Each game's own random player (``rules/*/simulate.py``) chooses only among ``legal_plays``;
the engine records, for every play, the cards the player may not have held (the duties the
play relied on) and proves a renege when one turns up. If ``legal_plays`` and those duties
ever disagree, a lawful hand proves a false renege (issue 14: Belote with
``partner_master_exempt`` and ``must_overtrump``). The option space is read from each
ruleset's fields: every ``Literal`` and ``bool`` option takes each of its values; numbers
(targets, the Jass-deux minimum bid, the number of players, which is the game itself) keep
their defaults, since they only change what a hand is worth. Hands are played both hidden
(the engine learns each card as it is played) and with a known deal.
"""

from __future__ import annotations

import dataclasses
import itertools
import random
import typing
from typing import Any, Literal

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.belote import BeloteRules
from rules.clabber import ClabberRules
from rules.clabber.simulate import simulate_hand as clabber_hand
from rules.clag import ClagRuleset, Deal, RoundState
from rules.clag.schedule import NUM_ROUNDS
from rules.clag.simulate import random_round
from rules.klaberjass import KlaberjassRules
from rules.klaberjass.simulate import simulate_hand as klaberjass_hand


def option_space(ruleset: Any, **fixed: object) -> list[Any]:
    """Every ruleset whose ``Literal`` and ``bool`` options take each of their values (the
    ``fixed`` ones aside); other fields keep their defaults."""
    hints = typing.get_type_hints(ruleset)
    names: list[str] = []
    values: list[tuple[object, ...]] = []
    for f in dataclasses.fields(ruleset):
        hint = hints[f.name]
        if f.name in fixed:
            continue
        if typing.get_origin(hint) is Literal:
            names.append(f.name)
            values.append(typing.get_args(hint))
        elif hint is bool:
            names.append(f.name)
            values.append((False, True))
    return [
        ruleset(**fixed, **dict(zip(names, combo, strict=True)))
        for combo in itertools.product(*values)
    ]


CLABBER = option_space(ClabberRules)
KLABERJASS = option_space(KlaberjassRules)  # two players; variant covers Jass-deux
# four players hold all 32 cards, so the maker must take the candidate: the one option value
# that cannot be dealt at a Belote table
BELOTE = option_space(BeloteRules, maker_takes_candidate=True)
CLAG = option_space(ClagRuleset)


def test_the_option_spaces_are_complete() -> None:
    assert len(CLABBER) == 2**4
    assert len(KLABERJASS) == 2**10
    assert {r.variant for r in KLABERJASS} == {"classic", "jass-deux"}
    assert len(BELOTE) == 2**9 and all(r.players == 4 for r in BELOTE)
    assert any(r.partner_master_exempt and r.must_overtrump for r in BELOTE)
    assert len(CLAG) == 2**4


def _renege_free(state: Any, game: str, rules: object, seed: int) -> None:
    assert state.reneges == (), f"{game} {rules} seed {seed}: lawful play proved {state.reneges}"


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), known=st.booleans())
def test_lawful_clabber_proves_no_renege(seed: int, known: bool) -> None:
    rng = random.Random(seed)
    for rules in CLABBER:
        state = clabber_hand(rng, rng.randrange(4), rules=rules, known_deal=known).state
        _renege_free(state, "clabber", rules, seed)
        assert state.end in ("complete", "passed")


@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), known=st.booleans())
def test_lawful_klaberjass_and_jass_deux_prove_no_renege(seed: int, known: bool) -> None:
    rng = random.Random(seed)
    for rules in KLABERJASS:
        state = klaberjass_hand(rng, rules, rng.randrange(2), known_deal=known).state
        _renege_free(state, "klaberjass", rules, seed)
        assert state.end in ("complete", "redeal")


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), known=st.booleans())
def test_lawful_belote_proves_no_renege(seed: int, known: bool) -> None:
    rng = random.Random(seed)
    for rules in BELOTE:
        state = klaberjass_hand(rng, rules, rng.randrange(4), known_deal=known).state
        _renege_free(state, "belote", rules, seed)
        assert state.end in ("complete", "redeal")


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(4, 7))
def test_lawful_clag_proves_no_renege_in_any_round(seed: int, players: int) -> None:
    """Every round, special ones included, dealt known and replayed hidden (``Deal(None)``)."""
    rng = random.Random(seed)
    for ruleset in CLAG:
        for round_no in range(1, NUM_ROUNDS + 1):
            dealer = rng.randrange(players)
            state = random_round(players, round_no, dealer, rng, ruleset)
            _renege_free(state, f"clag round {round_no}", ruleset, seed)
            hidden = tuple(Deal(None) if isinstance(e, Deal) else e for e in state.log)
            replayed = RoundState.replay(players, round_no, dealer, hidden, ruleset)
            _renege_free(replayed, f"clag round {round_no} (hidden)", ruleset, seed)
            assert replayed.phase == "done"
