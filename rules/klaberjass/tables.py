"""Card orders, card points, trick winners and play duties of the Klaberjass family.

Klaberjass, Belote and Jass-deux share these tables (rules.md, "Klaberjass"): in trump the
jack (*jass*) and the nine (*menel*) rise to the top; the 32-card deck holds 152 card points.
They are read into :class:`~rules.trickgame.CardTables` (``TABLES``), which the shared
trick-game core asks every card question.

The play duties are rows (:data:`DUTIES`, with :data:`OVERTRUMP` under ``must_overtrump``),
written once for any number of players, so that Belote (four players, partners opposite)
reuses them with its two options. Every duty has the shape "if you hold a card of this kind
you must play one", so a play is illegal exactly when the player held one other card that
forbids it; :func:`renege_witnesses` lists those cards, and a renege is proven the moment the
player shows one of them. :mod:`rules.trickgame.duties` reads both from the same rows.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from rules.cards import DECK_32, Card, Rank, Suit
from rules.trickgame.duties import FOLLOW, TRUMP, Duty, DutyTable, partner_is_master
from rules.trickgame.tables import CardTables, points_table

TRUMP_ORDER: tuple[Rank, ...] = (
    Rank.JACK,
    Rank.NINE,
    Rank.ACE,
    Rank.TEN,
    Rank.KING,
    Rank.QUEEN,
    Rank.EIGHT,
    Rank.SEVEN,
)
"""Trump ranks, high to low: J (jass) 9 (menel) A 10 K Q 8 7."""

PLAIN_ORDER: tuple[Rank, ...] = (
    Rank.ACE,
    Rank.TEN,
    Rank.KING,
    Rank.QUEEN,
    Rank.JACK,
    Rank.NINE,
    Rank.EIGHT,
    Rank.SEVEN,
)
"""Non-trump ranks, high to low: A 10 K Q J 9 8 7."""

SEQUENCE_ORDER: tuple[Rank, ...] = (
    Rank.SEVEN,
    Rank.EIGHT,
    Rank.NINE,
    Rank.TEN,
    Rank.JACK,
    Rank.QUEEN,
    Rank.KING,
    Rank.ACE,
)
"""The order runs are counted in, in every suit: 7 8 9 10 J Q K A."""

TRUMP_POINTS: dict[Rank, int] = points_table(TRUMP_ORDER, (20, 14, 11, 10, 4, 3, 0, 0))
PLAIN_POINTS: dict[Rank, int] = points_table(PLAIN_ORDER, (11, 10, 4, 3, 2, 0, 0, 0))
LAST_TRICK_BONUS = 10
DECK: tuple[Card, ...] = DECK_32
DECK_SET: frozenset[Card] = frozenset(DECK_32)
CARD_POINTS_TOTAL = 152
HAND_TOTAL = CARD_POINTS_TOTAL + LAST_TRICK_BONUS  # 162
TABLES = CardTables(DECK, TRUMP_ORDER, PLAIN_ORDER, TRUMP_POINTS, PLAIN_POINTS)

HEAD = Duty(
    "head", "beat", "trump-lead",
    "seat {seat} played {card} under a higher trump to a trump lead in trick {number}",
)  # fmt: skip
"""When trump is led, play a trump higher than every trump in the trick if you can."""
OVERTRUMP = Duty(
    "overtrump", "beat", "plain-lead",
    "seat {seat} trumped with {card} under a higher trump in trick {number}", exemptible=True,
)  # fmt: skip
"""``must_overtrump``: trumping in over a trump, beat it if you can."""
DUTIES = DutyTable(TABLES, (FOLLOW, TRUMP, HEAD))
"""Follow suit; void in a plain lead, trump (Belote's exemption may lift it); head a trump lead."""
DUTIES_OVERTRUMP = DutyTable(TABLES, (FOLLOW, TRUMP, HEAD, OVERTRUMP))


def duties(must_overtrump: bool) -> DutyTable:
    return DUTIES_OVERTRUMP if must_overtrump else DUTIES


def card_points(card: Card, trump: Suit) -> int:
    """Points of ``card`` when ``trump`` is trump (a 32-card deck totals 152)."""
    try:
        return TABLES.card_points(card, trump)
    except KeyError:
        raise ValueError(f"card {card} is not in the 32-card Klaberjass deck") from None


def trump_strength(card: Card) -> int:
    """1 (the 7) .. 8 (the jass): a trump's place in the trump order."""
    return TABLES.trump_place[card.rank]


def trick_winner(trick: Sequence[Card], trump: Suit) -> int:
    """Index (in play order) of the card that wins ``trick``: the highest trump, else the
    highest card of the suit led."""
    return TABLES.trick_winner(trick, trump)


def legal_plays(
    hand: Iterable[Card],
    trick: Sequence[Card],
    trump: Suit,
    *,
    partner_index: int | None = None,
    partner_master_exempt: bool = False,
    must_overtrump: bool = False,
) -> frozenset[Card]:
    """The cards of ``hand`` that may be played to ``trick`` (cards already played, lead first).

    Klaberjass duties: follow suit; when trump is led, play a trump higher than every trump in
    the trick if you can (heading); when you cannot follow a plain lead, trump. Two options
    serve Belote: ``partner_master_exempt`` frees a player who cannot follow from trumping
    while the partner (the card at ``partner_index`` in ``trick``) is winning the trick;
    ``must_overtrump`` makes a player who trumps in over a trump beat it if he can.
    """
    exempt = partner_master_exempt and partner_is_master(TABLES, trick, trump, partner_index)
    return duties(must_overtrump).legal_plays(hand, trick, trump, exempt)


def renege_witnesses(
    played: Card,
    trick: Sequence[Card],
    trump: Suit,
    *,
    partner_index: int | None = None,
    partner_master_exempt: bool = False,
    must_overtrump: bool = False,
) -> frozenset[Card]:
    """Cards whose presence in the player's hand would have made ``played`` illegal on
    ``trick``. Showing any of them later proves the renege."""
    exempt = partner_master_exempt and partner_is_master(TABLES, trick, trump, partner_index)
    return duties(must_overtrump).witnesses(played, trick, trump, exempt)
