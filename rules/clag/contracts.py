"""Contracts: how many tricks a player says he will win, and the dealer's rule.

Contracts are stated from the dealer's left; the dealer speaks last. ``legal_contracts``
answers for any seat, so the same function serves the state machine, record checks and the
OpenSpiel comparison.
"""

from __future__ import annotations

from collections.abc import Sequence

from rules.clag.errors import ContractError
from rules.clag.ruleset import DealerRule


def legal_contracts(
    hand_size: int, earlier: Sequence[int], *, is_dealer: bool, dealer_rule: DealerRule
) -> tuple[int, ...]:
    """The contracts allowed to the next player, in ascending order.

    ``earlier`` are the contracts already stated this round. Anyone but the dealer may say
    0..hand size. The dealer under ``"exceed"`` must bring the total above the hand size
    (the hand size itself if nothing does); under ``"not_equal"`` the total may not equal it.
    """
    every = range(hand_size + 1)
    if not is_dealer:
        return tuple(every)
    others = sum(earlier)
    if dealer_rule == "not_equal":
        return tuple(c for c in every if others + c != hand_size)
    allowed = tuple(c for c in every if others + c > hand_size)
    return allowed or (hand_size,)


def check_contract(
    contract: object,
    hand_size: int,
    earlier: Sequence[int],
    *,
    is_dealer: bool,
    dealer_rule: DealerRule,
    seat: int,
) -> int:
    """``contract`` if allowed, else a :class:`ContractError` that says why."""
    if isinstance(contract, bool) or not isinstance(contract, int):
        raise ContractError(f"seat {seat}: contract {contract!r} is not a number of tricks")
    if not 0 <= contract <= hand_size:
        raise ContractError(
            f"seat {seat}: contract {contract} is outside 0..{hand_size} "
            f"(the hand has {hand_size} cards)"
        )
    allowed = legal_contracts(hand_size, earlier, is_dealer=is_dealer, dealer_rule=dealer_rule)
    if contract not in allowed:
        total = sum(earlier) + contract
        rule = (
            f"must make the total exceed {hand_size}"
            if dealer_rule == "exceed"
            else f"may not make the total equal {hand_size}"
        )
        raise ContractError(
            f"dealer (seat {seat}) contract {contract} breaks the dealer's rule "
            f"({dealer_rule}): the others said {sum(earlier)}, total {total}; the dealer {rule}; "
            f"allowed: {', '.join(map(str, allowed))}"
        )
    return contract
