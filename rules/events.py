"""Event values shared by every game's state machine.

A hand (or a whole match) is its event log: the state is what replaying the log gives. The
events here are the ones every trick-taking game in trickcam shares; a game keeps its own
events (Clabber's ``Deal`` with its upcard, for instance) in its package.

Seats are numbered clockwise from 0. Every event is a frozen value, so a log is a tuple of
hashable, comparable values that can be stored, exported and replayed.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.cards import Card


@dataclass(frozen=True, slots=True)
class Play:
    """``seat`` put ``card`` on the table (as the camera or the record saw it, in that order)."""

    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class Bid:
    """A call in the auction. ``call`` is the game's own word: ``"pass"``, ``"play"``, a suit
    letter ``"H"``, a number ``"100"``..."""

    seat: int
    call: str


@dataclass(frozen=True, slots=True)
class Declare:
    """``seat`` declares a meld made of ``cards`` (games that declare melds aloud)."""

    seat: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class Show:
    """``seat`` shows ``cards`` from the hand (a declared meld, or cards laid down). Shown cards
    are known to be in that hand from now on."""

    seat: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class Announce:
    """``seat`` announces something aloud, e.g. ``"bella"``."""

    seat: int
    what: str


@dataclass(frozen=True, slots=True)
class ClaimRenege:
    """``seat`` claims that ``accused`` reneged. A claim that is never proved is itself a
    renege by the claimant (in the games that say so)."""

    seat: int
    accused: int
    rule: str = ""


@dataclass(frozen=True, slots=True)
class RefereeRenege:
    """A renege the referee saw that the cards cannot show (coaching a partner, looking at a
    turned trick, an exposed card...)."""

    seat: int
    rule: str
    note: str = ""


@dataclass(frozen=True, slots=True)
class ConfirmRenege:
    """A referee confirms the proven renege number ``index`` (0-based, in the order proven)
    when the ruleset applies reneges only on confirmation."""

    index: int


@dataclass(frozen=True, slots=True)
class DismissRenege:
    """A referee dismisses the proven renege number ``index``; it will not be applied."""

    index: int


@dataclass(frozen=True, slots=True)
class Misdeal:
    """The deal is void (a card exposed during the deal, a deal out of turn noticed in time):
    nothing is scored and the game's misdeal rule says who deals again."""

    reason: str = ""


@dataclass(frozen=True, slots=True)
class Correct:
    """A correction of the log: event number ``index`` (0-based) is replaced by ``event``, or
    removed when ``event`` is ``None``. The corrected state is the replay of the corrected log."""

    index: int
    event: object | None


TableEvent = Play | Bid | Declare | Show | Announce | ClaimRenege | RefereeRenege | Misdeal
RefereeEvent = ConfirmRenege | DismissRenege | Correct
