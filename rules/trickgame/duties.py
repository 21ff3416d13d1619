"""The play duties of a trick game as a table, and the two things read from it.

Every duty of these games reads "if you hold a card of this kind, play one": follow the suit
led; trump when you cannot follow a plain lead; beat the highest trump in the trick. A game is
an ordered tuple of :class:`Duty` rows (Clabber: follow, trump, overtrump always; Klaberjass:
follow, trump, head a trump lead, and with ``must_overtrump`` overtrump a trump-in; Belote may
exempt a player whose partner is master), held with the game's card tables in a
:class:`DutyTable`. From that one table:

- :meth:`DutyTable.legal_plays`: each duty in turn narrows the cards still allowed to those
  that fulfil it, when the hand holds one;
- :meth:`DutyTable.breaches`: for a card played, each duty it did not fulfil says which cards
  the player cannot have held (the duty's cards among those the earlier duties still
  allowed); :meth:`DutyTable.obligations` opens each as a :class:`~rules.knowledge.MustNotHold`,
  and the table proves the renege when one of those cards turns up in that hand;
  :meth:`DutyTable.witnesses` is their union.

Written once, the two cannot disagree: a hand played only with legal plays never proves a
renege (issue 14 was such a disagreement). What a duty asks for is always "the cards of one
suit above a place in the trump order" (place 0: the whole suit), so the engine works with
that pair and turns it into cards only for an obligation's evidence.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from rules.cards import Card, Suit
from rules.knowledge import MustNotHold, RenegeEvidence, TableKnowledge
from rules.trickgame.tables import CardTables

DutyKind = Literal["follow", "trump", "beat"]
When = Literal["always", "trump-lead", "plain-lead"]
Need = tuple[Suit, int]  # the cards of a suit above a place in the trump order (0: all of it)


@dataclass(frozen=True, slots=True)
class Duty:
    """One duty. ``kind``: ``"follow"`` (play the suit led), ``"trump"`` (play a trump) or
    ``"beat"`` (play a trump above the highest trump in the trick); ``when``: on every lead,
    only on a trump lead or only on a plain lead; ``rule``: the name a renege of it carries;
    ``detail``: its evidence, a template over ``seat``, ``card``, ``lead``, ``top`` and
    ``number`` (the trick); ``exemptible``: lifted while the partner is master (Belote's
    ``partner_master_exempt``)."""

    rule: str
    kind: DutyKind
    when: When
    detail: str
    exemptible: bool = False


# the two duties every game here shares (the Klaberjass family may lift the second)
FOLLOW = Duty(
    "follow", "follow", "always", "seat {seat} played {card} to a {lead} lead in trick {number}"
)
TRUMP = Duty(
    "trump", "trump", "plain-lead",
    "seat {seat} discarded {card} instead of trumping in trick {number}", exemptible=True,
)  # fmt: skip


class DutyTable:
    """A game's duty rows in order, read against its card tables. The rows that apply to
    each kind of trick (a trump lead or a plain one, with the exemption or without) are
    worked out once. ``exempt`` below: the partner is master and the exemptible rows are
    lifted."""

    __slots__ = ("_follow_first", "_plans", "rows", "tables")

    def __init__(self, tables: CardTables, rows: tuple[Duty, ...]) -> None:
        self.tables = tables
        self.rows = rows
        # following a plain lead then fulfils every duty that could bind the card
        self._follow_first = bool(rows) and rows[0] == FOLLOW
        self._plans: tuple[tuple[Duty, ...], ...] = tuple(
            tuple(
                d
                for d in rows
                if not (exempt and d.exemptible)
                and d.when in ("always", "trump-lead" if trump_lead else "plain-lead")
            )
            for trump_lead in (False, True)
            for exempt in (False, True)
        )

    def __repr__(self) -> str:
        return f"DutyTable({', '.join(d.rule for d in self.rows)})"

    def plan(self, trump_lead: bool, exempt: bool) -> tuple[Duty, ...]:
        """The rows that apply, in order."""
        return self._plans[2 * trump_lead + exempt]

    def legal_plays(
        self, hand: Iterable[Card], trick: Sequence[Card], trump: Suit, exempt: bool = False
    ) -> frozenset[Card]:
        """The cards of ``hand`` that may be played to ``trick`` (lead first)."""
        cards = frozenset(hand)
        if not trick:
            return cards
        lead, place = trick[0].suit, self.tables.trump_place
        legal = list(cards)
        narrowed_any = False
        for duty in self.plan(lead == trump, exempt):
            kind = duty.kind
            if kind == "beat":
                top = self.tables.highest_trump(trick, trump)
                if top is None:
                    continue
                above = place[top.rank]
                narrowed = [c for c in legal if c.suit == trump and place[c.rank] > above]
            else:
                suit = lead if kind == "follow" else trump
                narrowed = [c for c in legal if c.suit == suit]
            if narrowed and len(narrowed) < len(legal):
                legal, narrowed_any = narrowed, True
        return frozenset(legal) if narrowed_any else cards

    def breaches(
        self, card: Card, trick: Sequence[Card], trump: Suit, exempt: bool = False
    ) -> list[tuple[Duty, frozenset[Card]]]:
        """Each duty the play of ``card`` to the started ``trick`` did not fulfil, with the
        cards the player cannot have held for the play to be legal: the duty's cards among
        those the duties it did fulfil narrowed the hand to. A duty to beat binds a trump
        played (a card of another suit either follows a plain lead or already broke a duty
        that forbids every trump); under the highest trump its set is empty and can never
        be broken."""
        if not trick:  # a lead is free
            return []
        top = self.tables.highest_trump(trick, trump)
        return self._breaches(card, trick[0].suit, trump, top, exempt)

    def _breaches(
        self, card: Card, lead: Suit, trump: Suit, top: Card | None, exempt: bool
    ) -> list[tuple[Duty, frozenset[Card]]]:
        tables = self.tables
        allowed: Need | None = None  # what the duties the card fulfilled narrowed the hand to
        found: list[tuple[Duty, frozenset[Card]]] = []
        for duty in self.plan(lead == trump, exempt):
            kind = duty.kind
            if kind == "beat":
                if top is None:
                    continue
                suit, above = trump, tables.trump_place[top.rank]
                fulfilled = card.suit == trump and tables.trump_place[card.rank] > above
            else:
                suit, above = (lead if kind == "follow" else trump), 0
                fulfilled = card.suit == suit
            if fulfilled:
                allowed = (suit, above) if allowed is None else (suit, max(above, allowed[1]))
                continue
            if allowed is None:
                forbidden = tables.cards_above(suit, above)
            elif allowed[0] == suit:
                forbidden = tables.cards_above(suit, max(above, allowed[1]))
            else:
                continue  # nothing the hand was still allowed: a plain follower and the trumps
            if (card.suit == trump) if kind == "beat" else bool(forbidden):
                found.append((duty, forbidden))
        return found

    def witnesses(
        self, card: Card, trick: Sequence[Card], trump: Suit, exempt: bool = False
    ) -> frozenset[Card]:
        """The cards whose presence in the hand would have made ``card`` illegal on
        ``trick``: showing any of them later proves the renege."""
        out: frozenset[Card] = frozenset()
        for _, forbidden in self.breaches(card, trick, trump, exempt):
            out |= forbidden
        return out

    def obligations(
        self,
        knowledge: TableKnowledge,
        seat: int,
        card: Card,
        number: int,
        trick: Sequence[Card],
        trump: Suit,
        exempt: bool = False,
    ) -> tuple[TableKnowledge, list[RenegeEvidence]]:
        """The obligations ``seat``'s play of ``card`` to the started ``trick`` (trick
        ``number``) leaves open, one per :meth:`breaches` row, and the reneges they already
        prove (with a known deal). A duty of a whole suit also marks the seat void in it."""
        lead = trick[0].suit
        found: list[RenegeEvidence] = []
        if card.suit == lead and lead != trump and self._follow_first:
            return knowledge, found  # the commonest play, and it obliges nothing
        tables = self.tables
        top = tables.highest_trump(trick, trump)
        obligations: list[MustNotHold] = []
        for duty, forbidden in self._breaches(card, lead, trump, top, exempt):
            text = duty.detail.format(
                seat=seat,
                card=tables.text[card],
                lead=_NAMES[lead],
                top=None if top is None else tables.text[top],
                number=number,
            )
            obligations.append(MustNotHold(seat, number, duty.rule, card, forbidden, text))
            if duty.kind != "beat":  # a duty of a whole suit: the seat is void in it
                knowledge = knowledge.mark_void(seat, lead if duty.kind == "follow" else trump)
        for ob in obligations:
            knowledge, proven = knowledge.expect(ob)
            found.extend(proven)
        return knowledge, found


def partner_is_master(
    tables: CardTables, trick: Sequence[Card], trump: Suit, partner_index: int | None
) -> bool:
    """Whether the card at ``partner_index`` in ``trick`` is winning it."""
    return (
        partner_index is not None
        and 0 <= partner_index < len(trick)
        and tables.trick_winner(trick, trump) == partner_index
    )


_NAMES: dict[Suit, str] = {s: s.name.lower() for s in Suit}
