"""Evansville Clabber as data: the deck, the card orders and points, and the club options.

The orders and points are rules.md's table, read into :class:`~rules.trickgame.CardTables`
(``TABLES``) that the shared trick-game core asks every card question.

Every **Decision** of ``rules.md`` is a named option of :class:`ClabberRules` with the stated
default, so a club that reads the rule another way changes a value, not the code.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from rules.cards import DECK_24, Card, Rank, Suit
from rules.errors import RulesError
from rules.trickgame.tables import CardTables, points_table

SEATS = 4
HAND_SIZE = 6
TRICKS = 6
DECK: tuple[Card, ...] = DECK_24
DECK_SET: frozenset[Card] = frozenset(DECK_24)
LAST_TRICK_BONUS = 10
HAND_TOTAL = 162  # 152 card points + 10 for the last trick

# high -> low
TRUMP_ORDER: tuple[Rank, ...] = (Rank.JACK, Rank.NINE, Rank.ACE, Rank.TEN, Rank.KING, Rank.QUEEN)
PLAIN_ORDER: tuple[Rank, ...] = (Rank.ACE, Rank.TEN, Rank.KING, Rank.QUEEN, Rank.JACK, Rank.NINE)
TRUMP_POINTS: dict[Rank, int] = points_table(TRUMP_ORDER, (20, 14, 11, 10, 4, 3))
PLAIN_POINTS: dict[Rank, int] = points_table(PLAIN_ORDER, (11, 10, 4, 3, 2, 0))
TABLES = CardTables(DECK, TRUMP_ORDER, PLAIN_ORDER, TRUMP_POINTS, PLAIN_POINTS)
# strength: higher is better; trump strengths all above plain ones
TRUMP_STRENGTH: dict[Rank, int] = {r: 100 + p for r, p in TABLES.trump_place.items()}
PLAIN_STRENGTH: dict[Rank, int] = dict(TABLES.plain_place)
# sequences use 9 10 J Q K A in every suit
SEQUENCE_ORDER: tuple[Rank, ...] = (Rank.NINE, Rank.TEN, Rank.JACK, Rank.QUEEN, Rank.KING, Rank.ACE)
SEQUENCE_INDEX: dict[Rank, int] = {r: i for i, r in enumerate(SEQUENCE_ORDER)}

MeldMode = Literal["auto", "declared"]
RenegeApply = Literal["auto", "confirm"]
PenaltyMelds = Literal["all", "none"]

# how the bids of Clabber read
PASS = "pass"
PLAY = "play"


@dataclass(frozen=True, slots=True)
class ClabberRules:
    """The club options (defaults: rules.md).

    ``melds``: ``"auto"`` scores every meld a player held, found from the cards he played (a
    camera cannot hear declarations); ``"declared"`` scores only melds declared before the
    player's first card and shown before his second; a declared meld his cards do not hold
    is a renege.
    ``renege_apply``: ``"auto"`` ends the hand as soon as a renege is proven; ``"confirm"``
    records it and applies it only when a referee confirms it (``ConfirmRenege``).
    ``renege_melds``: what "162 plus its melds" means for the side that did not renege:
    ``"all"`` every meld and bella it holds without a meld contest (the Decision), ``"none"``
    162 flat.
    ``game_target``: the total that wins the game (500).
    ``out_of_turn_last_trick``: whether playing out of turn in the last trick is a renege
    (the league's rule 11 says it is not: ``False``).
    """

    melds: MeldMode = "auto"
    renege_apply: RenegeApply = "auto"
    renege_melds: PenaltyMelds = "all"
    game_target: int = 500
    out_of_turn_last_trick: bool = False

    def __post_init__(self) -> None:
        if self.melds not in ("auto", "declared"):
            raise RulesError(f"melds option {self.melds!r}: expected 'auto' or 'declared'")
        if self.renege_apply not in ("auto", "confirm"):
            raise RulesError(
                f"renege_apply option {self.renege_apply!r}: expected 'auto' or 'confirm'"
            )
        if self.renege_melds not in ("all", "none"):
            raise RulesError(f"renege_melds option {self.renege_melds!r}: expected 'all' or 'none'")
        if not isinstance(self.game_target, int) or self.game_target <= 0:
            raise RulesError(
                f"game_target option {self.game_target!r}: expected a positive whole number"
            )

    @classmethod
    def from_options(cls, options: dict[str, object]) -> ClabberRules:
        """Build from a record's ``"options"`` object; unknown names are an error."""
        known = {"melds", "renege_apply", "renege_melds", "game_target", "out_of_turn_last_trick"}
        unknown = sorted(set(options) - known)
        if unknown:
            raise RulesError(
                f"unknown option {unknown[0]!r}; expected one of {', '.join(sorted(known))}"
            )
        return cls(**options)  # type: ignore[arg-type]

    def as_dict(self) -> dict[str, object]:
        return {
            "melds": self.melds,
            "renege_apply": self.renege_apply,
            "renege_melds": self.renege_melds,
            "game_target": self.game_target,
            "out_of_turn_last_trick": self.out_of_turn_last_trick,
        }


DEFAULT_RULES = ClabberRules()


def team_of(seat: int) -> int:
    """Team 0 is seats 0 and 2, team 1 seats 1 and 3."""
    return seat % 2


def parse_suit_call(call: str) -> Suit | None:
    """A round-2 call: a suit letter (or name) or ``None`` for pass."""
    text = call.strip().lower()
    if text == PASS:
        return None
    return Suit.parse(text)
