"""Clag: 4 to 7 players, 52 cards, 22 rounds of contracts with eight special rounds.

Public API (the same meaning as the other games'):

* ``legal_plays(hand, trick, trump, *, round=None) -> frozenset[Card]``
* ``trick_winner(trick, trump, *, round=None) -> int`` (index of the winning entry)
* ``legal_names(hand, trick)``: what a wild two may name in round 12

``trick`` holds the cards already played, lead first. ``trump`` is ``None`` where the round has
none. Special rounds take the round as a keyword (``round=13`` aces low). In round 12 an entry
may be a :class:`WildTwo` (``WildTwo(card("2H"), card("AS"))``, or the text ``"2H=AS"``).

A round is a :class:`RoundState`, a game a :class:`GameState`, fed with events (:class:`Deal`, :class:`TurnTrump`,
:class:`ChooseTrump`, :class:`Contract`, ``rules.events.Play``, :class:`NameWild`; a
``rules.events.Correct`` replaces or removes a logged event); records are read by
:mod:`rules.clag.records`.
"""

from rules.clag.contracts import legal_contracts
from rules.clag.errors import ClagEventError, ContractError, WildTwoError
from rules.clag.events import (
    ChooseTrump,
    Contract,
    Correct,
    Deal,
    Event,
    NameWild,
    Play,
    TurnTrump,
)
from rules.clag.game import GameState
from rules.clag.ruleset import DEFAULT_RULESET, ClagRuleset
from rules.clag.schedule import NUM_ROUNDS, dealer_of_round, hand_size, round_rule, steps_of
from rules.clag.scoring import Standing, ranking, round_scores
from rules.clag.state import RoundResult, RoundState
from rules.clag.tricks import WildTwo, legal_names, legal_plays, parse_entry, trick_winner

__all__ = [
    "DEFAULT_RULESET",
    "NUM_ROUNDS",
    "ChooseTrump",
    "ClagEventError",
    "ClagRuleset",
    "Contract",
    "ContractError",
    "Correct",
    "Deal",
    "Event",
    "GameState",
    "NameWild",
    "Play",
    "RoundResult",
    "RoundState",
    "Standing",
    "TurnTrump",
    "WildTwo",
    "WildTwoError",
    "dealer_of_round",
    "hand_size",
    "legal_contracts",
    "legal_names",
    "legal_plays",
    "parse_entry",
    "ranking",
    "round_rule",
    "round_scores",
    "steps_of",
    "trick_winner",
]
