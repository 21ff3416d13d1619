"""The API's pydantic schemas, kept apart from the engine's values.

Inbound events are one discriminated union on ``type``: pydantic answers a malformed event
(an unknown card code, a missing seat, a field the event does not have) with 422 naming the
field, before the game sees it. Cards are normalised to their codes (``"10h"`` -> ``"10H"``)
so that the stored log reads the same however the scorer typed it. Whether the event is
possible is the engine's question (409), and whether it exists in this game the adapter's
(:mod:`service.games`, 422).
"""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    StrictStr,
    WithJsonSchema,
)

from rules.cards import Card, Suit
from rules.errors import RulesError

# what the schema promises and validation holds to (a subset of what Card.parse reads, so
# that the OpenAPI schema tells the truth: schemathesis checks it both ways)
CARD_PATTERN = "^(10|[2-9TtJjQqKkAa])[SHDCshdc\u2660\u2665\u2666\u2663]$"
SUIT_PATTERN = "^[SHDCshdc\u2660\u2665\u2666\u2663]$"


def _card(text: str) -> str:
    if not re.match(CARD_PATTERN, text):
        raise ValueError(
            f"{text[:20]!r} is not a card: a rank (2-10, J, Q, K, A) then a suit (S, H, D, C), "
            "e.g. 10H or 9s"
        )
    try:
        return str(Card.parse(text))
    except RulesError as exc:
        raise ValueError(str(exc)) from None


def _suit(text: str) -> str:
    if not re.match(SUIT_PATTERN, text):
        raise ValueError(f"{text[:20]!r} is not a suit: S, H, D or C")
    try:
        return Suit.parse(text).value
    except RulesError as exc:
        raise ValueError(str(exc)) from None


CardCode = Annotated[
    StrictStr, AfterValidator(_card), WithJsonSchema({"type": "string", "pattern": CARD_PATTERN})
]
SuitCode = Annotated[
    StrictStr, AfterValidator(_suit), WithJsonSchema({"type": "string", "pattern": SUIT_PATTERN})
]


def _whole(value: object) -> object:
    """A JSON number that is a whole number (``3`` or ``3.0``, as JSON Schema's "integer"
    means), never a string or a boolean."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ValueError("expected a whole number")
    if isinstance(value, float):
        if not value.is_integer():
            raise ValueError(f"{value!r}: expected a whole number")
        return int(value)
    return value


WholeNumber = Annotated[int, BeforeValidator(_whole)]
Seat = Annotated[
    int, Field(ge=0, le=6, description="seat number, clockwise from 0"), BeforeValidator(_whole)
]


class _Event(BaseModel):
    model_config = ConfigDict(extra="forbid")


class DealIn(_Event):
    """A deal. ``dealer`` is required for a game's first deal (later ones are checked)."""

    type: Literal["deal"]
    dealer: Seat | None = None
    upcard: CardCode | None = Field(
        None, description="Clabber: the dealer's upcard; Klaberjass/Belote: the trump candidate"
    )
    bottom: CardCode | None = Field(
        None, description="Klaberjass: the stock's bottom card, when shown"
    )
    hands: list[Annotated[list[CardCode], Field(max_length=13)]] | None = Field(
        None, max_length=7, description="the whole deal by seat, when known"
    )


class BidIn(_Event):
    """A call: ``play``/``pass``/a suit letter (Clabber), ``accept``/``schmeiss``/... (Klaberjass),
    a number of tricks (Clag)."""

    type: Literal["bid"]
    seat: Seat
    bid: StrictStr | WholeNumber


class PlayIn(_Event):
    type: Literal["play"]
    seat: Seat
    card: CardCode


class TrumpIn(_Event):
    """Clag: the dealer turns the trump card."""

    type: Literal["trump"]
    card: CardCode


class ChooseTrumpIn(_Event):
    """Clag round 14: the dealer chooses trump (null: no trump, where the ruleset allows it)."""

    type: Literal["choose_trump"]
    suit: SuitCode | None


class NameIn(_Event):
    """Clag round 12: the player who just played a two names the card it stands for."""

    type: Literal["name"]
    seat: Seat
    card: CardCode


class DeclareIn(_Event):
    type: Literal["declare", "show"]
    seat: Seat
    cards: list[CardCode] = Field(min_length=1, max_length=9)


class AnnounceIn(_Event):
    type: Literal["announce"]
    seat: Seat
    what: StrictStr = Field(min_length=1, max_length=40)


class ExchangeDixIn(_Event):
    type: Literal["exchange_dix"]
    seat: Seat


class ClaimRenegeIn(_Event):
    type: Literal["claim_renege"]
    seat: Seat
    accused: Seat
    rule: StrictStr = Field("", max_length=80)


class RefereeRenegeIn(_Event):
    type: Literal["referee_renege"]
    seat: Seat
    rule: StrictStr = Field(min_length=1, max_length=80)
    note: StrictStr = Field("", max_length=500)


class RenegeRulingIn(_Event):
    """Confirm or dismiss the proven renege number ``index`` (0-based) of the hand."""

    type: Literal["confirm_renege", "dismiss_renege"]
    index: Annotated[int, Field(ge=0, le=2**31 - 1), BeforeValidator(_whole)]


class MisdealIn(_Event):
    type: Literal["misdeal"]
    reason: StrictStr = Field("", max_length=500)


GameEventIn = Annotated[
    DealIn
    | BidIn
    | PlayIn
    | TrumpIn
    | ChooseTrumpIn
    | NameIn
    | DeclareIn
    | AnnounceIn
    | ExchangeDixIn
    | ClaimRenegeIn
    | RefereeRenegeIn
    | RenegeRulingIn
    | MisdealIn,
    Field(discriminator="type"),
]


class CorrectIn(_Event):
    """Replace event ``seq`` by ``event``, or remove it (``event`` null). Never deletes rows:
    the correction is itself an event, and the state is the replay of the corrected log."""

    type: Literal["correct"]
    seq: Annotated[int, Field(ge=1, le=2**31 - 1), BeforeValidator(_whole)]
    event: GameEventIn | None


class UndoIn(_Event):
    """Reverse the latest event or correction not yet undone."""

    type: Literal["undo"]


EventIn = Annotated[GameEventIn | CorrectIn | UndoIn, Field(discriminator="type")]


def not_blank(text: str) -> str:
    """Surrounding blanks removed; a blank name is no name."""
    text = text.strip()
    if not text:
        raise ValueError("blank: a name needs at least one visible character")
    return text


def distinct(names: list[str], what: str) -> list[str]:
    """``names`` unless two are the same name however cased (ValueError naming them)."""
    seen: dict[str, str] = {}
    for name in names:
        key = name.casefold()
        if key in seen:
            raise ValueError(f"{seen[key]!r} and {name!r}: {what} must have different names")
        seen[key] = name
    return names


# a person's, table's or team's name: text a club can read and tell apart
Name = Annotated[StrictStr, Field(min_length=1, max_length=100), AfterValidator(not_blank)]
TableName = Annotated[StrictStr, Field(min_length=1, max_length=200), AfterValidator(not_blank)]


class TableCreate(BaseModel):
    model_config = ConfigDict(extra="forbid")

    game: Literal["clabber", "klaberjass", "belote", "clag"]
    name: TableName
    players: Annotated[
        list[Name],
        Field(min_length=2, max_length=7),
        AfterValidator(lambda names: distinct(names, "the players at a table")),
    ]
    options: dict[str, Any] = Field(default_factory=dict, description="the game's ruleset options")


class TableCreated(BaseModel):
    id: str
    name: str
    game: str
    players: list[str]
    options: dict[str, Any]
    created_at: str
    scorer_token: str = Field(description="shown once: the bearer token that posts events")


class TableSummary(BaseModel):
    id: str
    name: str
    game: str
    players: list[str]
    options: dict[str, Any]
    created_at: str


class HandOut(BaseModel):
    """One scored hand (a Clag round). ``set``: the makers were set (bete) in the two-sided
    games; per seat "missed the contract" in Clag. Game-specific fields follow."""

    model_config = ConfigDict(extra="allow")

    number: int
    game: int
    hand: int
    dealer: int
    score: list[int]
    running: list[int]
    set: bool | list[bool]
    redeal: bool
    end: str
    reneges: list[dict[str, Any]]


class TableStateOut(BaseModel):
    id: str
    name: str
    game: str
    players: list[str]
    options: dict[str, Any]
    sides: list[list[int]] = Field(description="the seats scoring together, per side")
    seq: int = Field(description="the last event's sequence number")
    hands: list[HandOut]
    totals: list[int] = Field(
        description="running totals per side of the latest game (final once it is won)"
    )
    games_won: list[int]
    games: list[dict[str, Any]]
    current: dict[str, Any] | None = Field(description="the hand in play (or just finished)")
    awaiting_confirmation: list[dict[str, Any]] = Field(
        default_factory=list,
        description="plays a camera read in doubt (candidates, reason, crop) until a person rules"
        " (GET /api/tables/{id} only)",
    )


class EventRecordOut(BaseModel):
    seq: int
    event: dict[str, Any]
    actor: str
    at: str


class EventAccepted(TableStateOut):
    accepted: EventRecordOut
    repeated: bool = Field(
        description="true when an earlier POST with this Idempotency-Key applied it"
    )


class Rename(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: TableName


class Deleted(BaseModel):
    id: str
    name: str
    deleted_at: str


class TokenReissued(BaseModel):
    id: str
    name: str
    token: str = Field(description="shown once: the new bearer token; the old one no longer works")
