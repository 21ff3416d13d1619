"""The Klaberjass family's ruleset: the options a club may choose, with rules.md's defaults.

One dataclass serves Klaberjass (two players), Jass-deux (``variant="jass-deux"``) and, with
other defaults, Belote (:class:`rules.belote.BeloteRules`, four players in two teams). Every
**Decision** of rules.md, and every point rules.md left open that this engine had to settle,
is a field here, so a club that reads the text differently changes a value, not the code.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from rules.errors import RulesError

Variant = Literal["classic", "jass-deux"]
MeldMode = Literal["auto", "declared"]
BellaMode = Literal["auto", "announced"]
RenegeApply = Literal["auto", "confirm"]
RenegePenalty = Literal["hand", "bete"]


@dataclass(frozen=True, slots=True)
class KlaberjassRules:
    """Options of a Klaberjass-family hand.

    - ``players``: 2 (Klaberjass) or 4 (Belote, partners opposite: seats 0+2 against 1+3).
    - ``variant``: ``"classic"`` (accept / pass / schmeiss, then naming a suit) or
      ``"jass-deux"`` (rules.md Decision: point bids of at least ``min_bid``, higher each
      time, or pass; the highest bidder names trump and must reach the bid - score at least
      that many points, runs and bella included - else he is bete).
    - ``schmeiss``: round 1 may propose a redeal (Klaberjass; Belote does not say so).
    - ``dix_exchange``: rules.md Decision: the holder of the trump 7 may exchange it for the
      trump candidate when the candidate's suit is trump.
    - ``maker_takes_candidate``: Belote: the maker takes the candidate into his hand.
    - ``sequences``: ``"auto"`` (default; a camera cannot hear announcements) scores every run
      a player held, found from his cards; ``"declared"`` scores only runs entered with a
      :class:`rules.events.Declare` before the player's first card, and a declared run his
      cards do not contain is a renege.
    - ``bella``: ``"auto"`` (default, same reason) scores bella whenever one hand held the trump
      K and Q; ``"announced"`` only when an ``Announce(seat, "bella")`` comes with the first or
      second of them (rules.md: announcing is optional).
    - ``partner_master_exempt`` (Belote Decision, default off): a player who cannot follow
      while his partner wins the trick need not trump.
    - ``must_overtrump`` (not in rules.md, default off: the Klaberjass duties only say "trump"):
      a player trumping in over a trump must beat it if he can.
    - ``renege_apply``: rules.md gives Klaberjass no renege rule; like Clabber, a proven renege
      ends the hand and applies automatically (``"auto"``) or once a referee confirms it
      (``"confirm"``: a ``ConfirmRenege``, or a ``ClaimRenege`` against the seat).
    - ``renege_penalty``: ``"hand"`` (default, Clabber's rule) - the reneging side scores 0, the
      other 162 plus all its runs and bella; ``"bete"`` - the reneging side is treated as bete.
    - ``target``: the game is won at 500.
    """

    players: int = 2
    variant: Variant = "classic"
    min_bid: int = 82
    schmeiss: bool = True
    dix_exchange: bool = True
    maker_takes_candidate: bool = False
    sequences: MeldMode = "auto"
    bella: BellaMode = "auto"
    partner_master_exempt: bool = False
    must_overtrump: bool = False
    renege_apply: RenegeApply = "auto"
    renege_penalty: RenegePenalty = "hand"
    target: int = 500

    def __post_init__(self) -> None:
        if self.players not in (2, 4):
            raise RulesError(f"players={self.players!r}: the Klaberjass family plays with 2 or 4")
        if self.variant not in ("classic", "jass-deux"):
            raise RulesError(f"variant={self.variant!r}: expected 'classic' or 'jass-deux'")
        for name, value, allowed in (
            ("sequences", self.sequences, ("auto", "declared")),
            ("bella", self.bella, ("auto", "announced")),
            ("renege_apply", self.renege_apply, ("auto", "confirm")),
            ("renege_penalty", self.renege_penalty, ("hand", "bete")),
        ):
            if value not in allowed:
                raise RulesError(f"{name}={value!r}: expected one of {', '.join(allowed)}")

    @property
    def hand_size(self) -> int:
        """Cards each player plays: 9 in Klaberjass (6 + 3), 8 in Belote (5 + 3)."""
        return 9 if self.players == 2 else 8

    @property
    def first_deal(self) -> int:
        """Cards each player holds while trump is made: 6 (3+3) or 5 (3+2)."""
        return 6 if self.players == 2 else 5

    def team(self, seat: int) -> int:
        """The side a seat plays for: the seat itself with two players, ``seat % 2`` with four."""
        return seat % 2

    def partner(self, seat: int) -> int | None:
        return (seat + 2) % 4 if self.players == 4 else None
