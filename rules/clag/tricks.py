"""Cards in a Clag trick: following suit, wild twos (round 12), aces low (round 13), winners.

A trick is the sequence of cards already played, lead first. In round 12 an entry may be a
:class:`WildTwo` (a two and the card it names), written ``"2H=AS"`` in records; every other
round takes plain :class:`~rules.cards.Card` entries. Text entries are parsed, so
``trick_winner(["2H=AS", "AS"], None, round=12)`` works.

Round 12, as this engine reads the rule book: a two has no suit of its own; *holding the led
suit* means holding a card of it that is not a two. A player who holds the led suit may play
one of those cards or a two naming a card of the led suit; otherwise any card, and a two may
name any card. Two wild twos in one trick may not name the same card. The copy ranks just
above the real card of the same name.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from rules.cards import DECK_52, Card, Rank, Suit
from rules.clag.errors import ClagEventError, WildTwoError
from rules.clag.schedule import ACES_LOW_ROUND, NO_TRUMP_ROUND, WILD_TWOS_ROUND


@dataclass(frozen=True, slots=True)
class WildTwo:
    """A two played in round 12 as a copy of ``named``: ``str(WildTwo(2H, AS)) == "2H=AS"``."""

    card: Card
    named: Card

    def __post_init__(self) -> None:
        if self.card.rank is not Rank.TWO:
            raise WildTwoError(f"{self.card}={self.named}: only a two can be wild")

    @classmethod
    def parse(cls, text: str) -> WildTwo:
        """Read ``"2H=AS"``."""
        if not isinstance(text, str) or text.count("=") != 1:
            raise WildTwoError(f"wild two {text!r}: expected a two and the card it names, '2H=AS'")
        left, right = text.split("=")
        return cls(Card.parse(left), Card.parse(right))

    def __str__(self) -> str:
        return f"{self.card}={self.named}"


Entry = Card | WildTwo


def parse_entry(text: str | Card | WildTwo) -> Entry:
    """A trick entry from ``"AS"``, ``"2H=AS"`` or an already parsed value."""
    if isinstance(text, Card | WildTwo):
        return text
    return WildTwo.parse(text) if isinstance(text, str) and "=" in text else Card.parse(text)


def physical(entry: Entry) -> Card:
    """The card that lies on the table (the two itself for a wild two)."""
    return entry.card if isinstance(entry, WildTwo) else entry


def effective(entry: Entry) -> Card:
    """The card an entry counts as (the named card for a wild two)."""
    return entry.named if isinstance(entry, WildTwo) else entry


def _check_entries(trick: Sequence[str | Entry], round_no: int | None) -> list[Entry]:
    entries = [parse_entry(e) for e in trick]
    for e in entries:
        if round_no == WILD_TWOS_ROUND:
            if isinstance(e, Card) and e.rank is Rank.TWO:
                raise WildTwoError(f"{e} in round 12: a two is wild and names a card, as '{e}=AS'")
        elif isinstance(e, WildTwo):
            raise WildTwoError(f"{e}: twos are wild only in round 12, not round {round_no}")
    return entries


def rank_strength(rank: Rank, round_no: int | None) -> int:
    """Higher wins. A high (2=0 ... A=12); in round 13 aces are low (A=-1)."""
    if round_no == ACES_LOW_ROUND and rank is Rank.ACE:
        return -1
    return rank.index


# Twice the rank strength, so that a wild two's copy (one more) ranks just above the real card.
# Keyed by Rank, whose hash is an identity hash: looked up once per card of every trick.
_STRENGTH: dict[Rank, int] = {r: 2 * rank_strength(r, None) for r in Rank}
_STRENGTH_ACES_LOW: dict[Rank, int] = {r: 2 * rank_strength(r, ACES_LOW_ROUND) for r in Rank}


def winning_index(entries: Sequence[Entry], trump: Suit | None, round_no: int | None) -> int:
    """:func:`trick_winner` for entries already checked (the engine's own tricks): the index
    of the highest trump, else of the highest card of the led suit."""
    strength = _STRENGTH_ACES_LOW if round_no == ACES_LOW_ROUND else _STRENGTH
    first = entries[0]
    top = first.named if isinstance(first, WildTwo) else first
    top_strength = strength[top.rank] + (1 if isinstance(first, WildTwo) else 0)
    best = 0
    for i in range(1, len(entries)):
        e = entries[i]
        if isinstance(e, WildTwo):
            card, value = e.named, strength[e.named.rank] + 1
        else:
            card, value = e, strength[e.rank]
        # the best is always of the led suit or trump
        if (card.suit is top.suit and value > top_strength) or (
            card.suit is trump and top.suit is not trump
        ):
            best, top, top_strength = i, card, value
    return best


def trick_winner(
    trick: Sequence[str | Entry], trump: Suit | None, *, round: int | None = None
) -> int:
    """Index in ``trick`` of the winning entry: the highest trump, else the highest of the
    led suit. ``trump`` is ``None`` in a round without trump; ``round`` selects the special
    rules of rounds 12 (wild twos) and 13 (aces low)."""
    entries = _check_entries(trick, round)
    if not entries:
        raise ClagEventError("trick_winner: the trick is empty")
    if round == NO_TRUMP_ROUND and trump is not None:
        raise ClagEventError(f"trick_winner: round 8 has no trump, got trump {trump.value!r}")
    return winning_index(entries, trump, round)


_SUIT_CARDS: dict[Suit, frozenset[Card]] = {
    s: frozenset(c for c in DECK_52 if c.suit is s) for s in Suit
}
_TWOS: frozenset[Card] = frozenset(c for c in DECK_52 if c.rank is Rank.TWO)


def following_cards(led: Suit, round_no: int | None) -> frozenset[Card]:
    """The cards that count as holding ``led``: its cards, but for its two in round 12. A
    player who fails to follow says he holds none of them."""
    cards = _SUIT_CARDS[led]
    return cards - _TWOS if round_no == WILD_TWOS_ROUND else cards


_FOLLOWING: dict[tuple[Suit, bool], frozenset[Card]] = {
    (s, wild): following_cards(s, WILD_TWOS_ROUND if wild else None)
    for s in Suit
    for wild in (False, True)
}


def holds_led_suit(hand: Iterable[Card], led: Suit, round_no: int | None) -> bool:
    """Whether ``hand`` can follow ``led`` (in round 12 a two does not count)."""
    return not _FOLLOWING[(led, round_no == WILD_TWOS_ROUND)].isdisjoint(hand)


def led_suit(trick: Sequence[str | Entry]) -> Suit | None:
    """The suit led (the named card's suit for a wild two), ``None`` for an empty trick."""
    return effective(parse_entry(trick[0])).suit if trick else None


def playable(hand: frozenset[Card], led: Suit | None, round_no: int | None) -> frozenset[Card]:
    """:func:`legal_plays` for a hand and led suit already checked (the engine's own state):
    follow suit if you can, otherwise any card; in round 12 a two is always playable."""
    if led is None:
        return hand
    wild = round_no == WILD_TWOS_ROUND
    follow = hand & _FOLLOWING[(led, wild)]
    if not follow:
        return hand
    return follow | (hand & _TWOS) if wild else follow


def legal_plays(
    hand: Iterable[str | Card],
    trick: Sequence[str | Entry],
    trump: Suit | None,
    *,
    round: int | None = None,
) -> frozenset[Card]:
    """The cards of ``hand`` that may be played to ``trick``: follow suit if you can,
    otherwise any card. In round 12 a two is always playable (see :func:`legal_names` for
    what it may name). ``trump`` does not restrict plays in Clag; it is taken for the
    same signature as the other games."""
    del trump
    cards = frozenset(Card.parse(c) if isinstance(c, str) else c for c in hand)
    entries = _check_entries(trick, round)
    return playable(cards, effective(entries[0]).suit if entries else None, round)


def legal_names(hand: Iterable[str | Card], trick: Sequence[str | Entry]) -> frozenset[Card]:
    """What a wild two played now (round 12) may name: a card of the led suit if the hand
    holds that suit, else any card; never a card another two in this trick already named."""
    cards = [Card.parse(c) if isinstance(c, str) else c for c in hand]
    entries = _check_entries(trick, WILD_TWOS_ROUND)
    taken = {e.named for e in entries if isinstance(e, WildTwo)}
    if entries:
        led = effective(entries[0]).suit
        if holds_led_suit(cards, led, WILD_TWOS_ROUND):
            return frozenset(c for c in DECK_52 if c.suit == led and c not in taken)
    return frozenset(c for c in DECK_52 if c not in taken)
