"""The tournament and referee API's pydantic schemas (apart from the tables' own)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictStr,
    model_validator,
)

from service.schemas import CardCode, EventIn, Name, distinct, not_blank


class EntrantIn(BaseModel):
    """A team (two partners: Clabber, Belote) or a player (Klaberjass, Clag)."""

    model_config = ConfigDict(extra="forbid")

    name: Name
    players: Annotated[
        list[Name],
        Field(min_length=1, max_length=2),
        AfterValidator(lambda names: distinct(names, "partners")),
    ]


def _entrants(entrants: list[EntrantIn]) -> list[EntrantIn]:
    """Entrants a standings table can tell apart: different names, nobody in two of them."""
    distinct([e.name for e in entrants], "entrants")
    distinct([p for e in entrants for p in e.players], "players (one entrant each)")
    return entrants


class TournamentCreate(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: Annotated[StrictStr, Field(min_length=1, max_length=150), AfterValidator(not_blank)]
    game: Literal["clabber", "klaberjass", "belote", "clag"]
    options: dict[str, Any] = Field(
        default_factory=dict, description="the game's ruleset options, the same at every table"
    )
    rank_by: Literal["games", "points"] = Field(
        "games", description="games: games won, game points break ties; points: points alone"
    )
    entrants: Annotated[
        list[EntrantIn], Field(min_length=2, max_length=64), AfterValidator(_entrants)
    ]


class ScheduledTable(BaseModel):
    id: str
    name: str
    round: int
    number: int
    entrants: list[int] = Field(description="the entrant (index) at each side of the table")
    players: list[str] = Field(description="the table's players in seat order")
    scorer_token: str = Field(description="shown once: the bearer token that posts its events")


class TournamentCreated(BaseModel):
    id: str
    name: str
    game: str
    options: dict[str, Any]
    rank_by: str
    entrants: list[EntrantIn]
    created_at: str
    referee_token: str = Field(description="shown once: the referee's bearer token")
    tables: list[ScheduledTable]


class StandingOut(BaseModel):
    place: int
    entrant: int
    name: str
    players: list[str]
    played: int
    won: int
    lost: int
    points: int
    points_against: int


class TournamentSummary(BaseModel):
    id: str
    name: str
    game: str
    options: dict[str, Any]
    rank_by: str
    entrants: list[EntrantIn]
    created_at: str


class RefereeEventIn(BaseModel):
    """An event the referee posts to a table (a correction, a ruling on a renege, an undo),
    recorded with who made it."""

    model_config = ConfigDict(extra="forbid")

    by: Name = Field(description="who makes it (the referee's name), kept in the audit trail")
    event: EventIn


class PlayRulingIn(BaseModel):
    """The referee's reading of a play in doubt: the card it is (a correction when it differs
    from the card recorded)."""

    model_config = ConfigDict(extra="forbid")

    by: Name
    card: CardCode


# base64 of a PNG: its first 11 characters are the PNG signature's, and whole groups of 4
PNG_BASE64 = (
    "^iVBORw0KGgo[A-Za-z0-9+/](?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$"
)


class PlayEvidenceIn(BaseModel):
    """What the camera saw of one play: the readings in doubt and the card's crop. A play in
    doubt (``confirm``) names the cards to choose between: the two in doubt, or the card
    alone (a play the camera never saw, named by the deck)."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "if": {"properties": {"confirm": {"const": True}}, "required": ["confirm"]},
            "then": {"properties": {"candidates": {"minItems": 1}}, "required": ["candidates"]},
        },
    )

    candidates: list[CardCode] = Field(
        default_factory=list,
        max_length=2,
        description="the cards to choose between, best first: the two in doubt, or the card"
        " alone (a play never seen, named by the deck)",
    )
    confirm: StrictBool = Field(False, description="a person should confirm this play")
    reason: StrictStr = Field("", max_length=500)
    crop_png: StrictStr | None = Field(
        None,
        max_length=2_000_000,
        pattern=PNG_BASE64,
        description="the card's upright crop, PNG in base64",
    )

    @model_validator(mode="after")
    def _doubt_names_its_cards(self) -> PlayEvidenceIn:
        if self.confirm and not self.candidates:
            raise ValueError("candidates: a play in doubt names the cards to choose between")
        return self
