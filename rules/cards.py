"""Cards, suits, ranks and the decks the games use.

Values are frozen and round-trip through their text form: ``Card.parse("10H")`` and
``str(card) == "10H"``. ``"TH"`` and ``"10♥"`` are accepted too.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum, StrEnum
from functools import total_ordering

from rules.errors import CardParseError


class Suit(StrEnum):
    """The four French suits; values are the one-letter codes."""

    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"
    CLUBS = "C"

    @property
    def symbol(self) -> str:
        return _SUIT_SYMBOLS[self]

    @property
    def is_red(self) -> bool:
        return self in (Suit.HEARTS, Suit.DIAMONDS)

    @classmethod
    def parse(cls, text: str) -> Suit:
        """A suit from ``"H"``, ``"h"``, ``"♥"`` or ``"hearts"``."""
        key = text.strip()
        found = _SUIT_ALIASES.get(key) or _SUIT_ALIASES.get(key.lower())
        if found is None:
            raise CardParseError(f"unknown suit {text!r}: expected one of S H D C")
        return found


_SUIT_SYMBOLS = {Suit.SPADES: "♠", Suit.HEARTS: "♥", Suit.DIAMONDS: "♦", Suit.CLUBS: "♣"}
_SUIT_ALIASES: dict[str, Suit] = {}
for _s in Suit:
    _SUIT_ALIASES[_s.value] = _s
    _SUIT_ALIASES[_s.value.lower()] = _s
    _SUIT_ALIASES[_s.name.lower()] = _s
    _SUIT_ALIASES[_SUIT_SYMBOLS[_s]] = _s
for _sym, _s in (("♤", Suit.SPADES), ("♡", Suit.HEARTS), ("♢", Suit.DIAMONDS), ("♧", Suit.CLUBS)):
    _SUIT_ALIASES[_sym] = _s

SUITS: tuple[Suit, ...] = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)


@total_ordering
class Rank(Enum):
    """Ranks 2..A. The natural order (``Rank.TWO < Rank.ACE``) is the plain A-high order;
    each game keeps its own trump and plain orders as tables."""

    TWO = "2"
    THREE = "3"
    FOUR = "4"
    FIVE = "5"
    SIX = "6"
    SEVEN = "7"
    EIGHT = "8"
    NINE = "9"
    TEN = "10"
    JACK = "J"
    QUEEN = "Q"
    KING = "K"
    ACE = "A"

    @property
    def index(self) -> int:
        """0 for TWO ... 12 for ACE."""
        return _RANK_INDEX[self]

    # Members are singletons compared by identity: an identity hash agrees with equality and
    # is a C call instead of Enum's Python-level ``hash(self._name_)`` (cards are hashed a lot).
    __hash__ = object.__hash__

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Rank):
            return NotImplemented
        return _RANK_INDEX[self] < _RANK_INDEX[other]

    def __str__(self) -> str:
        return self.value

    @classmethod
    def parse(cls, text: str) -> Rank:
        key = text.strip().upper()
        found = _RANK_ALIASES.get(key)
        if found is None:
            raise CardParseError(f"unknown rank {text!r}: expected 2-10, J, Q, K or A")
        return found


RANKS: tuple[Rank, ...] = tuple(Rank)
_RANK_INDEX = {r: i for i, r in enumerate(Rank)}
_RANK_ALIASES: dict[str, Rank] = {r.value: r for r in Rank}
_RANK_ALIASES["T"] = Rank.TEN
_RANK_ALIASES["1"] = Rank.ACE


@dataclass(frozen=True, slots=True)
class Card:
    """A playing card. ``str(Card.parse("10H")) == "10H"``."""

    rank: Rank
    suit: Suit

    def __hash__(self) -> int:
        # the same value the dataclass would compute, without the generated method's overhead
        return hash((self.rank, self.suit))

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read a card code: ``"10H"``, ``"TH"``, ``"10♥"``, ``"qs"``."""
        if not isinstance(text, str):
            raise CardParseError(f"card code must be text, got {text!r}")
        code = text.strip()
        if len(code) < 2:
            raise CardParseError(
                f"unknown card {text!r}: expected rank + suit such as '10H' or 'QS'"
            )
        rank_part, suit_part = code[:-1], code[-1]
        try:
            return _CARD_CACHE[(Rank.parse(rank_part), Suit.parse(suit_part))]
        except CardParseError:
            raise CardParseError(
                f"unknown card {text!r}: expected rank (2-10, J, Q, K, A) + suit (S, H, D, C)"
            ) from None

    def __str__(self) -> str:
        return f"{self.rank.value}{self.suit.value}"

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"

    def pretty(self) -> str:
        """``"10♥"``: for people, not for records."""
        return f"{self.rank.value}{self.suit.symbol}"


_CARD_CACHE: dict[tuple[Rank, Suit], Card] = {(r, s): Card(r, s) for s in SUITS for r in RANKS}


def card(text: str) -> Card:
    """Shorthand for :meth:`Card.parse`."""
    return Card.parse(text)


def cards(text: str) -> tuple[Card, ...]:
    """``cards("JH 9H AH")``: several card codes separated by spaces or commas."""
    return tuple(Card.parse(t) for t in text.replace(",", " ").split())


def _deck(ranks: tuple[Rank, ...]) -> tuple[Card, ...]:
    return tuple(_CARD_CACHE[(r, s)] for s in SUITS for r in ranks)


DECK_24: tuple[Card, ...] = _deck(RANKS[7:])  # 9 10 J Q K A: Evansville Clabber
DECK_32: tuple[Card, ...] = _deck(RANKS[5:])  # 7 .. A: Klaberjass, Belote
DECK_52: tuple[Card, ...] = _deck(RANKS)  # 2 .. A: Clag
