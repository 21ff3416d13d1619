"""Clabber hand and match records: read them, replay them, score them.

A hand record::

    {"game": "clabber", "dealer": 3, "upcard": "9H", "bidding": ["pass", "pass", "play"],
     "tricks": [["JH", "9H", "AH", "10H"], ...], "declared": {"1": [["JS", "QS", "KS"]]},
     "options": {"melds": "auto"}}

``bidding`` lists the calls from the dealer's left: ``play``/``pass`` in round 1, a suit letter
or ``pass`` in round 2. Each trick lists its cards in play order: the first trick is led by the
dealer's left, later ones by the previous winner (a record cannot show a play out of turn).
``declared`` (optional) lists, per seat, the melds that seat declared before its first card and
showed before its second; they score with ``"options": {"melds": "declared"}``.

Decisions:

- A hand that a renege ends early may stop where the renege is proven: the remaining tricks
  may be absent, or incomplete. Cards recorded after that point are not played (the hand is
  over; the result counts them in ``ignored_plays``) but they are read, checked (known cards,
  none twice, none from another known hand) and laid down as the cards of the seats the
  recorded order gives them to: "162 plus its melds" then counts the melds they show. A hand
  that is not ended by a renege must have all six tricks.
- A match record ``{"game": "clabber", "hands": [...]}`` is one game to 500. The first hand
  names its dealer; later hands may omit ``dealer`` (the deal passes left after every scored
  hand and stays after a redeal) and one that names a different dealer is an error. A hand
  after the game has been won is an error: a match record holds one game, a new game is a new
  record (JSON Lines hold several).

Seats, replaying into the state, trick cards and trick results are read as every trick game
reads them (:mod:`rules.trickgame.records`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rules.cards import Card
from rules.clabber.events import Deal
from rules.clabber.hand import HandState
from rules.clabber.match import game_winner
from rules.clabber.play import trick_winner
from rules.clabber.ruleset import DEFAULT_RULES, SEATS, ClabberRules
from rules.clabber.scoring import HandResult, hand_result
from rules.clabber.sheet import format_text
from rules.errors import RecordError, RulesError
from rules.events import Bid, Declare, Play, Show
from rules.records import record_card as _card
from rules.trickgame.match import next_dealer
from rules.trickgame.records import record_seat, record_step, record_trick_card, trick_json

__all__ = ["format_text", "hand_events", "score_hand", "score_match", "score_record"]


def score_record(record: object) -> dict[str, object]:
    """Score a hand record or a match record (see the module docstring)."""
    if not isinstance(record, Mapping):
        raise RecordError("record", f"expected a JSON object, got {type(record).__name__}")
    rules = _rules(record.get("options"), "options")
    if "hands" in record:
        return score_match(record, rules)
    return score_hand(record, rules)


def _rules(options: object, field: str, base: ClabberRules = DEFAULT_RULES) -> ClabberRules:
    if options is None:
        return base
    if not isinstance(options, Mapping):
        raise RecordError(field, f"expected an object of options, got {options!r}")
    merged = {**base.as_dict(), **options}
    try:
        return ClabberRules.from_options(merged)
    except (RulesError, TypeError) as exc:
        raise RecordError(field, str(exc)) from None


def _list(record: Mapping[str, Any], key: str, prefix: str) -> Sequence[Any]:
    value = record.get(key)
    if value is None:
        raise RecordError(prefix + key, "missing")
    if not isinstance(value, list):
        raise RecordError(prefix + key, f"expected a list, got {type(value).__name__}")
    return value


def _seat(value: object, field: str) -> int:
    return record_seat(value, field, SEATS)


def _declared(record: Mapping[str, Any], prefix: str) -> dict[int, list[tuple[Card, ...]]]:
    raw = record.get("declared")
    if raw is None:
        return {}
    field = prefix + "declared"
    items: list[tuple[object, object]]
    if isinstance(raw, Mapping):
        items = list(raw.items())
    elif isinstance(raw, list) and len(raw) == SEATS:
        items = list(enumerate(raw))
    else:
        raise RecordError(
            field, "expected an object {seat: [[cards...], ...]} or a list of 4 lists"
        )
    out: dict[int, list[tuple[Card, ...]]] = {}
    for key, melds in items:
        try:
            seat = int(str(key))
        except ValueError:
            raise RecordError(f"{field}.{key}", "expected a seat number 0..3") from None
        _seat(seat, f"{field}.{key}")
        if not isinstance(melds, list):
            raise RecordError(f"{field}.{key}", "expected a list of melds (lists of cards)")
        for j, meld in enumerate(melds):
            if not isinstance(meld, list):
                raise RecordError(f"{field}.{key}[{j}]", "expected a list of card codes")
            out.setdefault(seat, []).append(
                tuple(_card(c, f"{field}.{key}[{j}][{k}]") for k, c in enumerate(meld))
            )
    return out


def hand_events(
    record: Mapping[str, Any], rules: ClabberRules, dealer: int | None, prefix: str = ""
) -> tuple[HandState, int]:
    """Replay a hand record into a finished :class:`HandState`; returns it and the number of
    recorded cards ignored after a renege ended the hand. ``dealer``: the dealer expected by
    the rotation (``None``: the record must name one)."""
    given = record.get("dealer")
    if given is None:
        if dealer is None:
            raise RecordError(prefix + "dealer", "missing")
        given = dealer
    seat = _seat(given, prefix + "dealer")
    if dealer is not None and seat != dealer:
        raise RecordError(
            prefix + "dealer", f"seat {seat} cannot deal: the deal rotation gives seat {dealer}"
        )
    if "upcard" not in record:
        raise RecordError(prefix + "upcard", "missing")
    upcard = _card(record["upcard"], prefix + "upcard")
    state = record_step(HandState(rules=rules), Deal(seat, upcard), prefix + "upcard")
    for i, call in enumerate(_list(record, "bidding", prefix)):
        field = f"{prefix}bidding[{i}]"
        if not isinstance(call, str):
            raise RecordError(field, f"expected 'play', 'pass' or a suit letter, got {call!r}")
        if state.phase not in ("bid1", "bid2"):
            raise RecordError(field, f"the bidding is already over ({len(state.bids)} calls)")
        who = state.to_move
        assert who is not None
        state = record_step(state, Bid(who, call), field)
    tricks = record.get("tricks", [])
    if not isinstance(tricks, list):
        raise RecordError(
            prefix + "tricks", f"expected a list of tricks, got {type(tricks).__name__}"
        )
    if state.phase in ("bid1", "bid2"):
        raise RecordError(
            prefix + "bidding", f"incomplete: {len(state.bids)} calls and no trump made"
        )
    if state.end == "passed" and tricks:
        raise RecordError(prefix + "tricks", "all eight calls were passes: no cards are played")
    declared = _declared(record, prefix)
    if declared and state.end == "passed":
        raise RecordError(prefix + "declared", "all eight calls were passes: nothing was declared")
    ignored = 0
    laid: list[tuple[str, Card]] = []  # cards recorded after a renege ended the hand
    seen: dict[Card, str] = {}
    for t, trick in enumerate(tricks):
        tfield = f"{prefix}tricks[{t}]"
        if not isinstance(trick, list):
            raise RecordError(tfield, f"expected a list of 4 cards, got {type(trick).__name__}")
        if len(trick) > SEATS:
            raise RecordError(tfield, f"a trick has {SEATS} cards, got {len(trick)}")
        if t >= 6:
            raise RecordError(tfield, "a hand has 6 tricks")
        for k, code in enumerate(trick):
            field = f"{tfield}[{k}]"
            card = record_trick_card(code, field, seen)
            if state.over:
                if state.end != "renege":
                    raise RecordError(field, "the hand is already over")
                ignored += 1
                laid.append((field, card))
                continue
            if t == 0 and declared:
                state = _declare(state, declared, prefix)
            who = state.to_move
            assert who is not None
            state = record_step(state, Play(who, card), field)
        if len(trick) < SEATS and not (state.over and state.end == "renege"):
            raise RecordError(tfield, f"a trick has {SEATS} cards, got {len(trick)}")
    if not state.over:
        raise RecordError(
            prefix + "tricks",
            f"{len(state.tricks)} complete tricks: a hand has 6 unless a renege ends it",
        )
    if laid:
        state = _lay_down(state, laid)
    return state, ignored


def _lay_down(state: HandState, laid: list[tuple[str, Card]]) -> HandState:
    """Attribute the cards recorded after a renege ended the hand to their seats (following the
    recorded order: the leader, then clockwise; a trick's winner leads the next) and show them,
    so that the innocent team's melds are known."""
    trump = state.trump
    if trump is None:
        return state
    current = list(state.current)
    if current:
        leader = current[0][0]
    elif state.tricks:
        leader = state.tricks[-1].winner
    else:
        leader = (state.dealer + 1) % SEATS
    by_seat: dict[int, list[tuple[str, Card]]] = {}
    for field, card in laid:
        seat = (leader + len(current)) % SEATS
        current.append((seat, card))
        by_seat.setdefault(seat, []).append((field, card))
        if len(current) == SEATS:
            leader = current[trick_winner([c for _, c in current], trump)][0]
            current = []
    for seat, shown in sorted(by_seat.items()):
        state = record_step(state, Show(seat, tuple(c for _, c in shown)), shown[0][0])
    return state


def _declare(
    state: HandState, declared: dict[int, list[tuple[Card, ...]]], prefix: str
) -> HandState:
    """Declare and show the melds of the seat about to play its first card."""
    who = state.to_move
    if who is None or state.played_count(who) != 0 or who not in declared:
        return state
    for j, meld in enumerate(declared[who]):
        field = f"{prefix}declared.{who}[{j}]"
        state = record_step(state, Declare(who, meld), field)
        state = record_step(state, Show(who, meld), field)
    return state


def hand_dict(state: HandState, result: HandResult, ignored: int) -> dict[str, object]:
    trump = state.trump
    out: dict[str, object] = {
        "type": "hand",
        "dealer": state.dealer,
        "upcard": str(state.upcard),
        "trump": None if trump is None else trump.value,
        "maker": result.maker,
        "makers": result.makers,
        "score": list(result.score),
        "set": result.set,
        "redeal": result.redeal,
        "end": result.end,
        "sheet": sheet_marks(result),
        "trick_points": list(result.trick_points),
        "last_trick": result.last_trick,
        "melds": [[m.as_dict() for m in team] for team in result.melds],
        "meld_winner": result.meld_winner,
        "meld_points": list(result.meld_points),
        "bella": list(result.bella),
        "totals": list(result.totals),
        "tricks": [trick_json(t) for t in result.tricks],
        "reneges": [
            {**r.evidence.as_dict(), "team": r.team, "status": r.status} for r in result.reneges
        ],
        "options": state.rules.as_dict(),
    }
    if ignored:
        out["ignored_plays"] = ignored
    return out


def sheet_marks(result: HandResult) -> list[str]:
    """How a club writes each team's score for the hand: "XXX" set, "--" zero, else points;
    nothing for a hand dealt again."""
    if result.redeal:
        return ["", ""]
    marks = []
    for team in (0, 1):
        if result.set and team == result.makers:
            marks.append("XXX")
        elif result.score[team] == 0:
            marks.append("--")
        else:
            marks.append(str(result.score[team]))
    return marks


def score_hand(record: Mapping[str, Any], rules: ClabberRules = DEFAULT_RULES) -> dict[str, object]:
    state, ignored = hand_events(record, rules, None)
    return hand_dict(state, hand_result(state), ignored)


def score_match(
    record: Mapping[str, Any], rules: ClabberRules = DEFAULT_RULES
) -> dict[str, object]:
    hands = _list(record, "hands", "")
    if not hands:
        raise RecordError("hands", "empty: a match record holds at least one hand")
    out_hands: list[dict[str, object]] = []
    totals = (0, 0)
    dealer: int | None = None
    winner: int | None = None
    for i, hand in enumerate(hands):
        prefix = f"hands[{i}]."
        if not isinstance(hand, Mapping):
            raise RecordError(
                f"hands[{i}]", f"expected a hand record object, got {type(hand).__name__}"
            )
        if winner is not None:
            raise RecordError(
                f"hands[{i}]",
                f"the game was already won by team {winner} after hand {i} ({totals[0]}-{totals[1]}); "
                "a match record holds one game",
            )
        game = hand.get("game", "clabber")
        if game != "clabber":
            raise RecordError(prefix + "game", f"expected 'clabber', got {game!r}")
        hand_rules = _rules(hand.get("options"), prefix + "options", rules)
        state, ignored = hand_events(hand, hand_rules, dealer, prefix)
        result = hand_result(state)
        totals = (totals[0] + result.score[0], totals[1] + result.score[1])
        entry = hand_dict(state, result, ignored)
        entry["running"] = list(totals)
        out_hands.append(entry)
        dealer = next_dealer(state.dealer, result.redeal, SEATS)
        winner = game_winner(totals, rules.game_target)
    return {
        "type": "match",
        "hands": out_hands,
        "totals": list(totals),
        "winner": winner,
        "over": winner is not None,
        "target": rules.game_target,
    }
