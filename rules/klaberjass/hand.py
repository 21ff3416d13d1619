"""One hand of Klaberjass (or Belote, or Jass-deux) as an immutable state fed by events.

``KlaberjassHand.new(dealer, upcard)`` is the state after the deal; ``hand.apply(event)``
returns the next state and never mutates; ``replay(start, log)`` is ``apply`` folded over a
log, so a hand *is* its event log. Hands are hidden: the engine learns each player's cards as
they are played. Impossible events (out of turn, a card played twice, a card lying on the
stock) raise a :class:`rules.errors.RulesError` that quotes them; a renege is recorded and
proven from the cards (:mod:`rules.klaberjass.reneges`).

Events: :class:`rules.events.Bid` (the auction, :mod:`rules.klaberjass.bidding`),
:class:`ExchangeDix`, :class:`rules.events.Play`, :class:`rules.events.Declare` (a run, in
``sequences="declared"``), :class:`rules.events.Announce` (``"bella"``),
:class:`rules.events.ClaimRenege`, :class:`rules.events.RefereeRenege`,
:class:`rules.events.ConfirmRenege`, :class:`rules.events.DismissRenege`,
:class:`rules.events.Misdeal`, and :class:`rules.events.Correct` in a log given to ``replay``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace

from rules.cards import Card, Rank, Suit
from rules.errors import CardAlreadyPlayed, CardNotInDeck, HandOver, IllegalEvent, OutOfTurn
from rules.events import (
    Announce,
    Bid,
    ClaimRenege,
    ConfirmRenege,
    Correct,
    Declare,
    DismissRenege,
    Misdeal,
    Play,
    RefereeRenege,
)
from rules.klaberjass.bidding import Auction
from rules.klaberjass.melds import Meld, run_points, runs
from rules.klaberjass.reneges import Renege, Suspect, prove
from rules.klaberjass.ruleset import KlaberjassRules
from rules.klaberjass.tables import DECK_SET, renege_witnesses, trick_winner


@dataclass(frozen=True, slots=True)
class ExchangeDix:
    """``seat`` exchanges the trump 7 (dix) for the trump candidate (rules.md Decision)."""

    seat: int


@dataclass(frozen=True, slots=True)
class Trick:
    """A trick: ``leader`` seat and the cards in play order; ``winner`` once complete."""

    leader: int
    cards: tuple[Card, ...]
    winner: int | None

    def seat_of(self, index: int, players: int) -> int:
        return (self.leader + index) % players


@dataclass(frozen=True, slots=True)
class KlaberjassHand:
    """The state of one hand. Build it with :meth:`new`; advance it with :meth:`apply`."""

    rules: KlaberjassRules
    dealer: int
    upcard: Card | None
    auction: Auction
    bottom: Card | None = None
    log: tuple[object, ...] = ()
    exchange: int | None = None
    plays: tuple[tuple[int, Card], ...] = ()
    suspects: tuple[Suspect, ...] = ()
    proven: tuple[Renege, ...] = ()
    declared: tuple[tuple[int, Meld], ...] = ()
    bella_announced: int | None = None
    claims: tuple[ClaimRenege, ...] = ()
    confirmed: frozenset[int] = field(default_factory=frozenset)
    dismissed: frozenset[int] = field(default_factory=frozenset)
    misdeal: bool = False

    @classmethod
    def new(
        cls,
        dealer: int,
        upcard: Card | None,
        rules: KlaberjassRules | None = None,
        *,
        bottom: Card | None = None,
    ) -> KlaberjassHand:
        """The hand after the deal: ``upcard`` is the trump candidate (optional in Jass-deux),
        ``bottom`` the stock's bottom card when it is shown (Klaberjass)."""
        rules = rules or KlaberjassRules()
        if not isinstance(dealer, int) or not 0 <= dealer < rules.players:
            raise IllegalEvent(f"dealer {dealer!r}: seats are 0..{rules.players - 1}")
        for name, c in (("upcard", upcard), ("bottom", bottom)):
            if c is not None and c not in DECK_SET:
                raise CardNotInDeck(f"{name} {c}: not in the 32-card deck (7 to A)")
        if upcard is None and rules.variant == "classic":
            raise IllegalEvent("upcard missing: classic Klaberjass turns a trump candidate")
        if bottom is not None and bottom == upcard:
            raise IllegalEvent(f"bottom {bottom}: it is the trump candidate")
        candidate = upcard.suit if upcard is not None else None
        return cls(rules, dealer, upcard, Auction(rules, dealer, candidate), bottom)

    # ---- what the state knows -------------------------------------------------------------

    @property
    def players(self) -> int:
        return self.rules.players

    @property
    def trump(self) -> Suit | None:
        return self.auction.trump

    @property
    def maker(self) -> int | None:
        return self.auction.maker

    @property
    def redeal(self) -> bool:
        """No score and a new deal: everyone passed, a schmeiss was agreed, or a misdeal."""
        return self.auction.redeal or self.misdeal

    @property
    def tricks(self) -> tuple[Trick, ...]:
        """Completed tricks, then the trick in progress (if any card of it is down)."""
        out: list[Trick] = []
        leader = (self.dealer + 1) % self.players
        n = self.players
        cards = [c for _, c in self.plays]
        trump = self.trump
        for start in range(0, len(cards), n):
            chunk = tuple(cards[start : start + n])
            if len(chunk) < n or trump is None:
                out.append(Trick(leader, chunk, None))
                break
            winner = (leader + trick_winner(chunk, trump)) % n
            out.append(Trick(leader, chunk, winner))
            leader = winner
        return tuple(out)

    @property
    def tricks_done(self) -> int:
        return len(self.plays) // self.players

    @property
    def is_over(self) -> bool:
        return self.redeal or self.tricks_done == self.rules.hand_size

    @property
    def to_play(self) -> int | None:
        """The seat to play next, ``None`` while bidding or once the hand is over."""
        if self.trump is None or self.is_over:
            return None
        if not self.plays:
            return (self.dealer + 1) % self.players
        last = self.tricks[-1]
        if last.winner is not None:
            return last.winner
        return last.seat_of(len(last.cards), self.players)

    def played_by(self, seat: int) -> tuple[Card, ...]:
        """The cards ``seat`` has shown by playing them, in order."""
        return tuple(c for s, c in self.plays if s == seat)

    def held_known(self, seat: int) -> frozenset[Card]:
        """Cards known to be in ``seat``'s hand and not yet played (the candidate he took)."""
        known: set[Card] = set()
        took = self.exchange == seat or (self.rules.maker_takes_candidate and seat == self.maker)
        if self.upcard is not None and self.trump is not None and took:
            known.add(self.upcard)
        return frozenset(known - set(self.played_by(seat)))

    def out_of_play(self) -> dict[Card, str]:
        """Cards known to be in no hand, with the reason: they can never be played."""
        out: dict[Card, str] = {}
        if self.bottom is not None:
            out[self.bottom] = "it is the bottom card of the stock"
        up = self.upcard
        on_table = not self.rules.maker_takes_candidate and self.exchange is None
        if up is not None and on_table and self.trump and not self._candidate_exchangeable():
            out[up] = "it is the trump candidate, which lies on the table"
        if up is not None and self.exchange is not None and self.trump is not None:
            out[Card(Rank.SEVEN, self.trump)] = f"seat {self.exchange} exchanged it for {up}"
        return out

    def _candidate_exchangeable(self) -> bool:
        up, trump = self.upcard, self.trump
        if not self.rules.dix_exchange or up is None or trump is None:
            return False
        dix = Card(Rank.SEVEN, trump)
        return up.suit == trump and up != dix and dix not in {c for _, c in self.plays}

    def runs_of(self, seat: int) -> tuple[Meld, ...]:
        """The runs that count for ``seat``: declared ones, or (auto) those in his cards."""
        if self.rules.sequences == "declared":
            return tuple(m for s, m in self.declared if s == seat)
        return runs(self.played_by(seat))

    # ---- events -------------------------------------------------------------------------

    def apply(self, event: object) -> KlaberjassHand:
        """The state after ``event``; raises a ``RulesError`` quoting an impossible event."""
        nxt = self._apply(event)
        return replace(nxt, log=(*self.log, event))

    def _apply(self, event: object) -> KlaberjassHand:
        if isinstance(event, Play):
            return self._play(event)
        if isinstance(event, Bid):
            self._seat(event.seat, event)
            if self.misdeal:
                raise HandOver(f"{event}: the deal was void (misdeal)")
            return replace(self, auction=self.auction.call(event.seat, event.call))
        if isinstance(event, ExchangeDix):
            return self._exchange(event)
        if isinstance(event, Declare):
            return self._declare(event)
        if isinstance(event, Announce):
            return self._announce(event)
        if isinstance(event, ClaimRenege):
            self._seat(event.seat, event)
            self._seat(event.accused, event)
            return replace(self, claims=(*self.claims, event))
        if isinstance(event, RefereeRenege):
            self._seat(event.seat, event)
            r = Renege(event.seat, event.rule, self.tricks_done, None, None, None, event.note)
            return replace(self, proven=(*self.proven, r))
        if isinstance(event, ConfirmRenege | DismissRenege):
            if not 0 <= event.index < len(self.proven):
                raise IllegalEvent(f"{event}: {len(self.proven)} renege(s) proven so far")
            if isinstance(event, ConfirmRenege):
                return replace(self, confirmed=self.confirmed | {event.index})
            return replace(self, dismissed=self.dismissed | {event.index})
        if isinstance(event, Misdeal):
            if self.plays:
                raise IllegalEvent(f"{event}: a misdeal is called before the first card is played")
            return replace(self, misdeal=True)
        if isinstance(event, Correct):
            raise IllegalEvent(f"{event}: a correction rewrites the log; use replay(start, log)")
        raise IllegalEvent(f"event {event!r} is not a Klaberjass event")

    def _seat(self, seat: object, event: object) -> None:
        if not isinstance(seat, int) or not 0 <= seat < self.players:
            raise IllegalEvent(f"{event}: seat {seat!r} does not exist (0..{self.players - 1})")

    def _exchange(self, event: ExchangeDix) -> KlaberjassHand:
        self._seat(event.seat, event)
        if self.trump is None or self.redeal:
            raise IllegalEvent(f"{event}: the dix is exchanged once trump is made")
        if self.exchange is not None:
            raise IllegalEvent(f"{event}: seat {self.exchange} already exchanged the dix")
        if self.plays:
            raise IllegalEvent(f"{event}: the dix is exchanged before the first lead")
        if not self._candidate_exchangeable() or self.rules.maker_takes_candidate:
            raise IllegalEvent(
                f"{event}: no exchange here (candidate {self.upcard}, trump {self.trump}, "
                f"dix_exchange={self.rules.dix_exchange})"
            )
        return replace(self, exchange=event.seat)

    def _declare(self, event: Declare) -> KlaberjassHand:
        self._seat(event.seat, event)
        if self.rules.sequences != "declared":
            raise IllegalEvent(f"{event}: runs are scored from the cards (sequences='auto')")
        if self.trump is None or self.redeal:
            raise IllegalEvent(f"{event}: runs are declared once trump is made")
        if self.played_by(event.seat):
            raise IllegalEvent(f"{event}: too late, runs are declared with the first card")
        found = runs(event.cards)
        if len(found) != 1 or len(found[0].cards) != len(event.cards):
            shown = " ".join(str(c) for c in event.cards)
            raise IllegalEvent(f"{event}: {shown!r} is not one run of 3+ cards in a suit")
        run = found[0]
        if any(set(run.cards) & set(m.cards) for s, m in self.declared if s == event.seat):
            raise IllegalEvent(f"{event}: overlaps a run seat {event.seat} already declared")
        return replace(self, declared=(*self.declared, (event.seat, run)))

    def _announce(self, event: Announce) -> KlaberjassHand:
        self._seat(event.seat, event)
        if event.what.strip().lower() != "bella":
            raise IllegalEvent(f"{event}: Klaberjass announces only 'bella'")
        trump = self.trump
        last = self.plays[-1] if self.plays else None
        if (
            trump is None
            or last is None
            or last[0] != event.seat
            or last[1] not in (Card(Rank.KING, trump), Card(Rank.QUEEN, trump))
        ):
            raise IllegalEvent(
                f"{event}: bella is announced right after the announcer plays the trump K or Q"
            )
        if self.bella_announced is not None:
            return self
        return replace(self, bella_announced=event.seat)

    def _play(self, event: Play) -> KlaberjassHand:
        self._seat(event.seat, event)
        seat, c = event.seat, event.card
        if self.redeal:
            raise HandOver(f"play {c} by seat {seat}: no play, the hand is to be redealt")
        if self.trump is None:
            raise IllegalEvent(
                f"play {c} by seat {seat}: trump is not made yet "
                f"(seat {self.auction.to_call} to call)"
            )
        if self.is_over:
            raise HandOver(f"play {c} by seat {seat}: all {self.tricks_done} tricks are played")
        if c not in DECK_SET:
            raise CardNotInDeck(f"play {c} by seat {seat}: not in the 32-card deck (7 to A)")
        for s, seen in self.plays:
            if seen == c:
                raise CardAlreadyPlayed(f"play {c} by seat {seat}: seat {s} already played it")
        if seat != self.to_play:
            raise OutOfTurn(f"play {c} by seat {seat}: it is seat {self.to_play}'s turn")
        gone = self.out_of_play()
        if c in gone:
            raise IllegalEvent(f"play {c} by seat {seat}: {gone[c]}")
        for other in range(self.players):
            if other != seat and c in self.held_known(other):
                raise IllegalEvent(f"play {c} by seat {seat}: seat {other} holds it")
        state = self
        if c == self.upcard and not self.rules.maker_takes_candidate and self.exchange is None:
            state = replace(state, exchange=seat)  # playing the candidate proves the exchange
        return state._record_play(seat, c)

    def _record_play(self, seat: int, c: Card) -> KlaberjassHand:
        trump = self.trump
        assert trump is not None
        current = self.tricks[-1] if self.plays and self.tricks[-1].winner is None else None
        trick_cards = current.cards if current is not None else ()
        trick_no = self.tricks_done
        proven = list(self.proven)
        pending: list[Suspect] = []
        for s in self.suspects:
            if s.seat == seat and c in s.witnesses:
                proven.append(prove(s, c, trick_no, trump))
            else:
                pending.append(s)
        partner = len(trick_cards) - 2 if self.players == 4 else None
        witnesses = renege_witnesses(
            c,
            trick_cards,
            trump,
            partner_index=partner,
            partner_master_exempt=self.rules.partner_master_exempt,
            must_overtrump=self.rules.must_overtrump,
        )
        if witnesses and trick_cards:
            suspect = Suspect(seat, trick_no, c, trick_cards[0].suit, witnesses)
            held = sorted(self.held_known(seat) & witnesses - {c}, key=str)
            if held:
                proven.append(prove(suspect, held[0], None, trump))
            else:
                pending.append(suspect)
        nxt = replace(self, plays=(*self.plays, (seat, c)), suspects=tuple(pending))
        proven.extend(nxt._false_declarations(seat, c))
        return replace(nxt, proven=tuple(proven))

    def _false_declarations(self, seat: int, c: Card) -> list[Renege]:
        """Declared runs the cards now show were not held (once per run)."""
        out: list[Renege] = []
        done = len(self.played_by(seat)) == self.rules.hand_size
        for s, run in self.declared:
            mine = set(self.played_by(s))
            if s != seat and c in run.cards:
                evidence: Card | None = c
            elif s == seat and done and not set(run.cards) <= mine:
                evidence = min(set(run.cards) - mine, key=str)
            else:
                continue
            out.append(
                Renege(
                    s,
                    f"declared a run of {run_points(len(run.cards))} not held",
                    self.tricks_done - (0 if len(self.plays) % self.players else 1),
                    None,
                    evidence,
                    None,
                    " ".join(str(x) for x in run.cards),
                )
            )
        return out

    # ---- reneges that count ---------------------------------------------------------------

    def applied_reneges(self) -> tuple[Renege, ...]:
        """Proven reneges that the score applies (all of them, or the referee-confirmed ones;
        a referee's own report always applies; dismissed ones never)."""
        out = []
        for i, r in enumerate(self.proven):
            if i in self.dismissed:
                continue
            by_referee = r.card is None and r.evidence is None
            if self.rules.renege_apply == "auto" or i in self.confirmed or by_referee:
                out.append(r)
        return tuple(out)


def replay(start: KlaberjassHand, log: Iterable[object]) -> KlaberjassHand:
    """``start`` with every event of ``log`` applied in order. :class:`rules.events.Correct`
    events rewrite the log (replace or remove an earlier event) before it is replayed."""
    events: list[object] = []
    for e in log:
        if isinstance(e, Correct):
            if not 0 <= e.index < len(events):
                raise IllegalEvent(f"{e}: the log holds {len(events)} event(s) before it")
            if e.event is None:
                del events[e.index]
            else:
                events[e.index] = e.event
        else:
            events.append(e)
    state = start
    for e in events:
        state = state.apply(e)
    return state
