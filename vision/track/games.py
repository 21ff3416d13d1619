"""What the watcher needs to know of each game: seats, deck, trump, who leads, who wins a trick.

Why not drive each game's state machine live: the watcher must keep going through anything
the camera throws at it (a misread, a play out of turn), while the engines rightly refuse
impossible events. So the watcher sequences plays with these few facts, taken from the engines'
own tables and trick-winner functions, and the finished record is scored by the engine
(``rules.records.score_record``), exactly as ``trickcam score`` does.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rules.cards import DECK_24, DECK_32, DECK_52, Card, Rank, Suit
from rules.clag.schedule import WILD_TWOS_ROUND
from rules.clag.tricks import WildTwo, effective, physical, winning_index
from rules.errors import RulesError

GAMES = ("clabber", "klaberjass", "belote", "clag")


class GameSetupError(RulesError):
    """Game options that do not describe a hand (quoted in the message)."""


@dataclass(frozen=True)
class GameSpec:
    """One hand (or Clag round) as the watcher sees it."""

    game: str
    players: int
    deck: frozenset[Card]
    trump: Suit | None
    dealer: int
    tricks: int
    """Tricks in the hand: every player plays this many cards."""
    winner: Callable[[Sequence[Card | WildTwo]], int]
    """Index of the winning card of a complete trick (play order). With wild twos an entry
    is a :class:`WildTwo` once named; a two not yet named counts as a low card of its suit,
    provisionally (the record is not scored until every two is named)."""
    must_trump: bool
    """Not following a plain lead shows the seat is out of trump too (Clabber, Klaberjass)."""
    points: Callable[[Sequence[Card | WildTwo]], int]
    """What a trick is worth to its winner for the live score (card points, or 1 a trick)."""
    teams: bool
    """Partnerships: seats 0+2 and 1+3 score together."""
    header: dict[str, object]
    """The record's fields besides ``tricks`` (dealer, upcard, bidding, contracts...)."""
    fixtures: tuple[Card, ...] = ()
    """Cards lying face up before the first lead that are not plays (upcard, trump card)."""
    elsewhere: frozenset[Card] = field(default_factory=frozenset)
    """Cards in no hand (Clag's turned trump card): never a play."""
    wild_twos: bool = False
    """Clag round 12: a two may be played at any time and counts as the card its player
    names aloud (a :class:`rules.clag.tricks.WildTwo`, written ``"2H=AS"``), which the camera
    cannot see: a person enters it (``--name``)."""

    @property
    def first_leader(self) -> int:
        return (self.dealer + 1) % self.players

    def voids(self, card: Card | WildTwo, trick: Sequence[Card | WildTwo]) -> frozenset[Suit]:
        """Suits a seat shows it is out of by playing ``card`` to ``trick`` (lead first).
        With wild twos a two shows nothing (it may be played at any time), and a trick led
        by a two not yet named has no known led suit."""
        if not trick:
            return frozenset()
        if self.wild_twos:
            first = trick[0]
            if isinstance(card, WildTwo) or card.rank is Rank.TWO:
                return frozenset()
            if not isinstance(first, WildTwo) and first.rank is Rank.TWO:
                return frozenset()  # the lead is a two not yet named
        lead = effective(trick[0]).suit
        card = effective(card)
        if card.suit == lead:
            return frozenset()
        out = {lead}
        if (
            self.must_trump
            and self.trump is not None
            and lead != self.trump
            and card.suit != self.trump
        ):
            out.add(self.trump)
        return frozenset(out)

    def record(self, tricks: Sequence[Sequence[Card | WildTwo | str]]) -> dict[str, object]:
        """The hand record ``trickcam score`` reads (an entry may be a written card already,
        e.g. ``"?"`` for a play the camera missed)."""
        return {"game": self.game, **self.header, "tricks": [[str(c) for c in t] for t in tricks]}

    def score_keys(self) -> int:
        """How many running-score columns: teams (2) or seats."""
        return 2 if self.teams else self.players


def _card(text: str, what: str) -> Card:
    try:
        return Card.parse(text)
    except RulesError:
        raise GameSetupError(
            f"{what} {text!r}: expected a card code such as '9H' or '10S'"
        ) from None


def _calls(bidding: str | Sequence[str]) -> list[str]:
    if isinstance(bidding, str):
        return [c.strip().lower() for c in bidding.split(",") if c.strip()]
    return [str(c).strip().lower() for c in bidding]


def _plain(cards: Sequence[Card | WildTwo]) -> list[Card]:
    """The cards of a trick where no two is wild (every game but Clag round 12)."""
    return [physical(c) for c in cards]


def _seat(dealer: int, players: int) -> int:
    if not 0 <= dealer < players:
        raise GameSetupError(f"dealer {dealer}: expected a seat 0..{players - 1}")
    return dealer


def clabber(dealer: int, upcard: str, bidding: str | Sequence[str]) -> GameSpec:
    from rules.clabber.events import Deal
    from rules.clabber.hand import HandState
    from rules.clabber.play import card_points, trick_winner
    from rules.events import Bid

    up = _card(upcard, "upcard")
    calls = _calls(bidding)
    state = HandState().apply(Deal(_seat(dealer, 4), up))
    for call in calls:
        if state.phase not in ("bid1", "bid2"):
            raise GameSetupError(f"bidding {','.join(calls)!r}: too many calls")
        who = state.to_move
        assert who is not None
        state = state.apply(Bid(who, call))
    trump = state.trump
    if trump is None:
        raise GameSetupError(f"bidding {','.join(calls)!r}: no trump was made")
    return GameSpec(
        game="clabber",
        players=4,
        deck=frozenset(DECK_24),
        trump=trump,
        dealer=dealer,
        tricks=6,
        winner=lambda cards: trick_winner(_plain(cards), trump),
        must_trump=True,
        points=lambda cards: sum(card_points(c, trump) for c in _plain(cards)),
        teams=True,
        header={"dealer": dealer, "upcard": str(up), "bidding": calls},
        fixtures=(up,),
    )


def klaberjass(
    dealer: int,
    upcard: str,
    bidding: str | Sequence[str],
    game: str = "klaberjass",
    exchange: int | None = None,
) -> GameSpec:
    """``exchange``: the seat that exchanged the trump 7 (dix) for the candidate, which may
    then be played; the dix takes its place face up on the stock."""
    from rules.events import Bid
    from rules.klaberjass import tables
    from rules.klaberjass.hand import KlaberjassHand

    players = 4 if game == "belote" else 2
    up = _card(upcard, "upcard")
    calls = _calls(bidding)
    if game == "belote":
        from rules.belote import new_hand

        state = new_hand(_seat(dealer, players), up)
    else:
        state = KlaberjassHand.new(_seat(dealer, players), up)
    for call in calls:
        who = state.to_move
        if state.phase != "bidding" or who is None:
            raise GameSetupError(f"bidding {','.join(calls)!r}: too many calls")
        state = state.apply(Bid(who, call))
    trump = state.trump
    if trump is None:
        raise GameSetupError(f"bidding {','.join(calls)!r}: no trump was made")
    header: dict[str, object] = {"dealer": dealer, "upcard": str(up), "bidding": calls}
    fixtures: tuple[Card, ...] = (up,)
    elsewhere = frozenset() if game == "belote" else frozenset({up})
    if exchange is not None:
        if game == "belote" or up.suit != trump:
            raise GameSetupError(
                f"--exchange {exchange}: the dix is exchanged only when the candidate's suit is trump, in Klaberjass"
            )
        dix = Card.parse("7" + trump.value)
        header["exchange"] = _seat(exchange, players)
        fixtures, elsewhere = (up, dix), frozenset({dix})
    return GameSpec(
        game=game,
        players=players,
        deck=frozenset(DECK_32),
        trump=trump,
        dealer=dealer,
        tricks=8 if game == "belote" else 9,
        winner=lambda cards: tables.trick_winner(_plain(cards), trump),
        must_trump=True,
        points=lambda cards: sum(tables.card_points(c, trump) for c in _plain(cards)),
        teams=game == "belote",
        header=header,
        fixtures=fixtures,
        # the candidate stays on the stock unless the maker takes it (Belote) or the dix
        # exchange brings it into a hand (then the dix is out of play instead)
        elsewhere=elsewhere,
    )


def clag(
    players: int,
    round_no: int,
    dealer: int,
    trump_card: str | None,
    trump: str | None,
    contracts: str | Sequence[int] | None,
) -> GameSpec:
    from rules.clag.schedule import (
        DEALER_CHOOSES_TRUMP_ROUND,
        check_players,
        check_round,
        hand_size,
        has_contracts,
        has_turned_trump,
    )

    try:
        players = check_players(players)
        round_no = check_round(round_no)
    except RulesError as exc:
        raise GameSetupError(str(exc)) from None
    header: dict[str, object] = {
        "players": players,
        "round": round_no,
        "dealer": _seat(dealer, players),
    }
    turned: Card | None = None
    suit: Suit | None = None
    if round_no == DEALER_CHOOSES_TRUMP_ROUND:
        if trump is None:
            raise GameSetupError("round 14: give --trump, the suit the dealer chose")
        suit = None if trump.lower() == "none" else Suit.parse(trump)
        header["trump"] = None if suit is None else suit.value
    elif has_turned_trump(round_no):
        if trump_card is None:
            raise GameSetupError(f"round {round_no} turns a trump card: give --trump-card")
        turned = _card(trump_card, "trump card")
        suit = turned.suit
        header["trump_card"] = str(turned)
    if has_contracts(round_no) and round_no != 9:
        if contracts is None:
            raise GameSetupError(f"round {round_no}: give --contracts, one per seat")
        values = (
            [int(c) for c in contracts.split(",") if c.strip()]
            if isinstance(contracts, str)
            else [int(c) for c in contracts]
        )
        if len(values) != players:
            raise GameSetupError(f"contracts {values}: expected {players}, one per seat")
        header["contracts"] = values
    trump_suit = suit
    return GameSpec(
        game="clag",
        players=players,
        deck=frozenset(DECK_52),
        trump=trump_suit,
        dealer=dealer,
        tricks=hand_size(round_no),
        # winning_index, not trick_winner: a round-12 two not yet named is taken as it lies
        winner=lambda cards: winning_index(list(cards), trump_suit, round_no),
        must_trump=False,
        points=lambda cards: 1,
        teams=False,
        header=header,
        fixtures=() if turned is None else (turned,),
        elsewhere=frozenset() if turned is None else frozenset({turned}),
        wild_twos=round_no == WILD_TWOS_ROUND,
    )


def from_watch_args(game: str, args: Mapping[str, Any]) -> GameSpec:
    """The spec of ``game`` from the options ``trickcam watch`` takes for it (a rendered
    hand's truth keeps them as ``watch_args``: dealer, upcard and bidding; Clag's players,
    round, dealer, trump card, trump and contracts)."""
    if game == "clabber":
        return clabber(args["dealer"], args["upcard"], args["bidding"])
    if game in ("klaberjass", "belote", "jass-deux"):
        return klaberjass(args["dealer"], args["upcard"], args["bidding"], game)
    if game == "clag":
        return clag(
            args["players"],
            args["round"],
            args["dealer"],
            args.get("trump_card"),
            args.get("trump"),
            args.get("contracts"),
        )
    raise ValueError(f"game {game!r}: expected clabber, klaberjass, belote, jass-deux or clag")
