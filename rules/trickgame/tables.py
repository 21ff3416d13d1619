"""A trick game's card tables: the deck, the trump and plain orders, the card points.

Clabber (24 cards) and the Klaberjass family (32 cards: Klaberjass, Belote, Jass-deux) rank
trumps J 9 A 10 K Q (8 7) and plain suits A 10 K Q J 9 (8 7), and count their points the same
way; they differ only in the deck. Each game builds one :class:`CardTables` from its rows of
rules.md and asks it every card question (points, who wins a trick, which trumps are higher),
so that no game repeats the arithmetic and a table is read in one place.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from rules.cards import SUITS, Card, Rank, Suit


def points_table(order: tuple[Rank, ...], points: tuple[int, ...]) -> dict[Rank, int]:
    """``{rank: points}`` from an order and its points, read side by side (high to low)."""
    if len(order) != len(points):
        raise ValueError(f"{len(order)} ranks but {len(points)} point values")
    return dict(zip(order, points, strict=True))


@dataclass(frozen=True, eq=False)
class CardTables:
    """One game's tables. Orders are high to low; ``*_points`` map a rank to its points.

    Derived once: ``trump_place`` / ``plain_place`` (1 for the lowest rank up to the number of
    ranks), the cards of each suit, and the cards of a suit above each place in the trump
    order.
    """

    deck: tuple[Card, ...]
    trump_order: tuple[Rank, ...]
    plain_order: tuple[Rank, ...]
    trump_points: dict[Rank, int]
    plain_points: dict[Rank, int]
    deck_set: frozenset[Card] = field(init=False)
    trump_place: dict[Rank, int] = field(init=False)
    plain_place: dict[Rank, int] = field(init=False)
    suit_cards: dict[Suit, frozenset[Card]] = field(init=False)
    text: dict[Card, str] = field(init=False, repr=False)
    _above: dict[tuple[Suit, int], frozenset[Card]] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        def setattr_(name: str, value: object) -> None:
            object.__setattr__(self, name, value)

        n = len(self.trump_order)
        setattr_("deck_set", frozenset(self.deck))
        setattr_("trump_place", {r: n - i for i, r in enumerate(self.trump_order)})
        setattr_(
            "plain_place", {r: len(self.plain_order) - i for i, r in enumerate(self.plain_order)}
        )
        setattr_("suit_cards", {s: frozenset(c for c in self.deck if c.suit == s) for s in SUITS})
        setattr_("text", {c: str(c) for c in self.deck})  # card codes, for evidence texts
        above = {
            (suit, place): frozenset(c for c in cards if self.trump_place[c.rank] > place)
            for suit, cards in self.suit_cards.items()
            for place in range(n + 1)
        }
        setattr_("_above", above)

    def card_points(self, card: Card, trump: Suit) -> int:
        """Points of ``card`` when ``trump`` is trump (a ``KeyError`` outside the deck's ranks)."""
        if card.suit == trump:
            return self.trump_points[card.rank]
        return self.plain_points[card.rank]

    def strength(self, card: Card, lead: Suit, trump: Suit) -> int:
        """How strongly ``card`` competes in a trick led in ``lead``: every trump above every
        card of the led suit, and 0 for a discard, which cannot win."""
        if card.suit == trump:
            return 100 + self.trump_place[card.rank]
        if card.suit == lead:
            return self.plain_place[card.rank]
        return 0

    def trick_winner(self, trick: Sequence[Card], trump: Suit) -> int:
        """The index in ``trick`` (play order, lead first) of the card that wins it: the
        highest trump, else the highest card of the suit led."""
        if not trick:
            raise ValueError("an empty trick has no winner")
        lead = trick[0].suit
        best = 0
        best_strength = self.strength(trick[0], lead, trump)
        for i in range(1, len(trick)):
            s = self.strength(trick[i], lead, trump)
            if s > best_strength:
                best, best_strength = i, s
        return best

    def trump_beats(self, a: Card, b: Card) -> bool:
        """Whether trump ``a`` ranks above trump ``b``."""
        return self.trump_place[a.rank] > self.trump_place[b.rank]

    def highest_trump(self, trick: Iterable[Card], trump: Suit) -> Card | None:
        """The highest trump in ``trick``, or ``None``."""
        best: Card | None = None
        for c in trick:
            if c.suit == trump and (best is None or self.trump_beats(c, best)):
                best = c
        return best

    def higher_trumps(self, top: Card) -> frozenset[Card]:
        """The cards of ``top``'s suit that rank above it in the trump order."""
        return self._above[(top.suit, self.trump_place[top.rank])]

    def cards_above(self, suit: Suit, place: int) -> frozenset[Card]:
        """The cards of ``suit`` whose place in the trump order is above ``place`` (0: the
        whole suit)."""
        return self._above[(suit, place)]

    def bella_in(self, hand: Iterable[Card], trump: Suit) -> tuple[Card, Card] | None:
        """The trump Q and K (in that order) if ``hand`` holds both: the bella."""
        held = frozenset(hand)
        queen, king = Card(Rank.QUEEN, trump), Card(Rank.KING, trump)
        return (queen, king) if queen in held and king in held else None

    def bella(self, trump: Suit | None) -> frozenset[Card]:
        """The K and Q of trump (bella, belote), or nothing while there is no trump."""
        if trump is None:
            return frozenset()
        return frozenset((Card(Rank.KING, trump), Card(Rank.QUEEN, trump)))
