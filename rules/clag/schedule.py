"""The 22-round schedule of Clag: hand sizes, dealers and which rounds are special.

Rounds are numbered 1..22 as the rule book numbers them. Rounds 8-15 each change one rule
(see :data:`SPECIAL_ROUNDS`); the others are *normal* rounds.
"""

from __future__ import annotations

from rules.clag.errors import ClagEventError

NUM_ROUNDS = 22
MIN_PLAYERS = 4
MAX_PLAYERS = 7

NO_TRUMP_ROUND = 8
ZERO_CONTRACT_ROUND = 9
TRUMP_AFTER_CONTRACTS_ROUND = 10
CONTRACTS_BEFORE_DEAL_ROUND = 11
WILD_TWOS_ROUND = 12
ACES_LOW_ROUND = 13
DEALER_CHOOSES_TRUMP_ROUND = 14
NO_CONTRACT_ROUND = 15

SPECIAL_ROUNDS: dict[int, str] = {
    NO_TRUMP_ROUND: "no trump",
    ZERO_CONTRACT_ROUND: "everyone's contract is 0",
    TRUMP_AFTER_CONTRACTS_ROUND: "trump is turned after the contracts",
    CONTRACTS_BEFORE_DEAL_ROUND: "contracts are made before the deal",
    WILD_TWOS_ROUND: "twos are wild",
    ACES_LOW_ROUND: "aces are low",
    DEALER_CHOOSES_TRUMP_ROUND: "the dealer chooses trump",
    NO_CONTRACT_ROUND: "no contracts: most tricks scores 10",
}


def check_round(round_no: object) -> int:
    """``round_no`` itself if it is a round number 1..22, else a :class:`ClagEventError`."""
    if isinstance(round_no, bool) or not isinstance(round_no, int) or not 1 <= round_no <= 22:
        raise ClagEventError(f"round {round_no!r} does not exist: Clag has rounds 1 to 22")
    return round_no


def check_players(players: object) -> int:
    """``players`` itself if 4..7, else a :class:`ClagEventError`."""
    if isinstance(players, bool) or not isinstance(players, int):
        raise ClagEventError(f"players {players!r} is not a number of players (4 to 7)")
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ClagEventError(f"Clag is for 4 to 7 players, not {players}")
    return players


def hand_size(round_no: int) -> int:
    """Cards dealt to each player: 1..7 in rounds 1-7, 7 until round 16, then 6..1."""
    check_round(round_no)
    if round_no <= 7:
        return round_no
    if round_no <= 16:
        return 7
    return 23 - round_no


def dealer_of_round(first_dealer: int, round_no: int, players: int) -> int:
    """The dealer of ``round_no`` when ``first_dealer`` dealt round 1 (the deal passes left)."""
    return (first_dealer + check_round(round_no) - 1) % check_players(players)


def has_turned_trump(round_no: int) -> bool:
    """Whether a card is turned for trump (all rounds but 8 and 14)."""
    return round_no not in (NO_TRUMP_ROUND, DEALER_CHOOSES_TRUMP_ROUND)


def has_contracts(round_no: int) -> bool:
    """Whether players state contracts (not in round 9, where all are 0, nor in round 15)."""
    return round_no not in (ZERO_CONTRACT_ROUND, NO_CONTRACT_ROUND)


HAND_SIZES: dict[int, int] = {r: hand_size(r) for r in range(1, NUM_ROUNDS + 1)}


def steps_of(round_no: int) -> tuple[str, ...]:
    """The phases of a round in order: ``deal``, ``trump``, ``choose``, ``contracts``, ``play``."""
    if round_no == NO_TRUMP_ROUND:
        return ("deal", "contracts", "play")
    if round_no in (ZERO_CONTRACT_ROUND, NO_CONTRACT_ROUND):
        return ("deal", "trump", "play")
    if round_no == TRUMP_AFTER_CONTRACTS_ROUND:
        return ("deal", "contracts", "trump", "play")
    if round_no == CONTRACTS_BEFORE_DEAL_ROUND:
        return ("contracts", "deal", "trump", "play")
    if round_no == DEALER_CHOOSES_TRUMP_ROUND:
        return ("deal", "choose", "contracts", "play")
    return ("deal", "trump", "contracts", "play")


_STEPS: dict[int, tuple[str, ...]] = {r: steps_of(r) for r in range(1, NUM_ROUNDS + 1)}


def phase_of(round_no: int, step: int, naming: bool) -> str:
    """The phase after ``step`` steps of the round (``done`` after the last); ``name`` while
    a wild two awaits its name (``naming``)."""
    steps = _STEPS[round_no]
    if step >= len(steps):
        return "done"
    return "name" if naming else steps[step]


def round_rule(round_no: int) -> str:
    """A short description of the round's rule, ``"normal"`` for a normal round."""
    return SPECIAL_ROUNDS.get(check_round(round_no), "normal")
