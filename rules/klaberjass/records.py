"""Klaberjass and Jass-deux hand and match records, read and scored (``trickcam score``).

A hand record (seats 0 and 1; the non-dealer calls first and leads the first trick)::

    {"game": "klaberjass", "dealer": 0, "upcard": "JD", "bidding": ["pass", "accept"],
     "tricks": [["7H", "AH"], ...]}

- ``bidding``: round 1 ``"accept"``, ``"pass"`` or ``"schmeiss"`` followed by the other
  player's answer ``"agree"`` (redeal) or ``"refuse"`` (the proposer has accepted); round 2 a
  suit letter or ``"pass"``. A hand that ends in a redeal has no ``tricks``.
- ``tricks``: nine tricks of two cards in play order (the winner of a trick leads the next).
- optional ``bottom`` (the stock's bottom card, shown), ``exchange`` (the seat that exchanged
  the dix for the candidate; playing the candidate also shows it), ``declared``
  (``[{"seat": 0, "cards": ["7S", "8S", "9S"]}]`` with ``options.sequences = "declared"``),
  ``bella`` (the seat that announced bella, with ``options.bella = "announced"``), and
  ``options`` (any field of :class:`rules.klaberjass.ruleset.KlaberjassRules`).

Jass-deux is the same record with ``"options": {"variant": "jass-deux"}`` and point bids:
``"bidding": [90, "pass", "H"]`` - numbers (or numeric strings) of at least 82, each higher
than the last, or ``"pass"``, alternating from the non-dealer; once the other player has
passed after a bid, the highest bidder's suit letter names trump. ``upcard`` is optional there
(when given and its suit is named, the dix exchange applies). The result adds ``bid``.

A match: ``{"game": "klaberjass", "hands": [hand, hand, ...]}`` to 500; a hand may leave out
``dealer`` (the deal alternates, a redeal keeps it; one naming another dealer is an error).
``options`` belong to the match record, not to its hands. A hand after the game was won is an
error. The result has every hand's score, the running totals and the winner (``null`` while
no one has 500; both over 500 on one hand: the higher total; equal: play on).

Seats, replaying into the state, trick cards and trick results are read as every trick game
reads them (:mod:`rules.trickgame.records`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import fields
from typing import Any

from rules.cards import Card
from rules.errors import RecordError, RulesError
from rules.events import Announce, Bid, Declare, Play
from rules.klaberjass.events import ExchangeDix
from rules.klaberjass.hand import KlaberjassHand
from rules.klaberjass.match import KlaberjassMatch
from rules.klaberjass.ruleset import KlaberjassRules
from rules.klaberjass.scoring import HandResult, score_hand
from rules.records import record_card as _card
from rules.trickgame.records import record_seat, record_step, record_trick_card, trick_json

GAME = "klaberjass"
_RULE_FIELDS = {f.name: f for f in fields(KlaberjassRules) if f.name != "players"}


def read_rules(raw: object, base: KlaberjassRules, where: str = "options") -> KlaberjassRules:
    """``base`` with the record's ``options`` object applied; unknown names are errors."""
    if raw is None:
        return base
    if not isinstance(raw, Mapping):
        raise RecordError(where, f"expected an object of ruleset options, got {raw!r}")
    values: dict[str, Any] = {}
    for key, value in raw.items():
        f = _RULE_FIELDS.get(key)
        if f is None:
            raise RecordError(
                f"{where}.{key}", f"unknown option; expected one of {', '.join(_RULE_FIELDS)}"
            )
        current = getattr(base, key)
        if type(value) is not type(current):
            raise RecordError(f"{where}.{key}", f"expected {type(current).__name__}, got {value!r}")
        values[key] = value
    try:
        return type(base)(**{**{f: getattr(base, f) for f in _RULE_FIELDS}, **values,
                                  "players": base.players})  # fmt: skip
    except RulesError as exc:
        raise RecordError(where, str(exc)) from None


def _list(raw: object, where: str) -> list[object]:
    if not isinstance(raw, list):
        raise RecordError(where, f"expected a list, got {raw!r}")
    return raw


def read_hand(
    record: Mapping[str, object], base: KlaberjassRules, dealer: int | None = None
) -> tuple[KlaberjassHand, int]:
    """Replay a hand record into a finished :class:`KlaberjassHand`; returns it and the number
    of recorded cards ignored after a renege ended the hand (they are still read and checked:
    known codes, none twice). Raises :class:`RecordError` naming the field."""
    rules = read_rules(record.get("options"), base)
    n = rules.players
    raw_dealer = record.get("dealer", dealer)
    if raw_dealer is None:
        raise RecordError("dealer", f"missing; expected a seat 0..{n - 1}")
    d = record_seat(raw_dealer, "dealer", n)
    if dealer is not None and d != dealer:
        raise RecordError("dealer", f"seat {d} cannot deal: the deal rotation gives seat {dealer}")
    up_raw = record.get("upcard")
    upcard = None if up_raw is None else _card(up_raw, "upcard")
    bottom_raw = record.get("bottom")
    bottom = None if bottom_raw is None else _card(bottom_raw, "bottom")
    try:
        state = KlaberjassHand.new(d, upcard, rules, bottom=bottom)
    except RulesError as exc:
        raise RecordError("bottom" if "bottom" in str(exc) else "upcard", str(exc)) from None
    for i, call in enumerate(_list(record.get("bidding", []), "bidding")):
        if isinstance(call, int) and not isinstance(call, bool):
            call = str(call)
        if not isinstance(call, str):
            raise RecordError(f"bidding[{i}]", f"expected a call (text or a number), got {call!r}")
        seat = state.to_move
        if state.phase != "bidding" or seat is None:
            raise RecordError(f"bidding[{i}]", f"call {call!r} after the bidding ended")
        state = record_step(state, Bid(seat, call), f"bidding[{i}]")
    tricks = _list(record.get("tricks", []), "tricks")
    if state.phase == "bidding":
        raise RecordError("bidding", f"incomplete: seat {state.to_move} has not called")
    if state.redeal:
        if tricks:
            raise RecordError("tricks", "the bidding ended in a redeal; no tricks are played")
        return state, 0
    if record.get("exchange") is not None:
        seat = record_seat(record["exchange"], "exchange", n)
        state = record_step(state, ExchangeDix(seat), "exchange")
    for i, raw in enumerate(_list(record.get("declared", []), "declared")):
        where = f"declared[{i}]"
        if not isinstance(raw, Mapping):
            raise RecordError(where, f"expected {{'seat': 0, 'cards': [...]}}, got {raw!r}")
        seat = record_seat(raw.get("seat"), f"{where}.seat", n)
        cards = tuple(
            _card(c, f"{where}.cards[{j}]")
            for j, c in enumerate(_list(raw.get("cards"), f"{where}.cards"))
        )
        state = record_step(state, Declare(seat, cards), where)
    bella_seat = record.get("bella")
    if bella_seat is not None:
        bella_seat = record_seat(bella_seat, "bella", n)
    ignored = 0
    seen: dict[Card, str] = {}
    for t, trick in enumerate(tricks):
        cards_raw = _list(trick, f"tricks[{t}]")
        if t >= rules.hand_size:
            raise RecordError(f"tricks[{t}]", f"a hand has {rules.hand_size} tricks")
        short = len(cards_raw) < n and not (t == len(tricks) - 1 and state.end != "complete")
        if len(cards_raw) > n or short:
            raise RecordError(f"tricks[{t}]", f"a trick has {n} cards, got {len(cards_raw)}")
        for j, raw_card in enumerate(cards_raw):
            where = f"tricks[{t}][{j}]"
            c = record_trick_card(raw_card, where, seen)
            if state.end == "renege":
                ignored += 1
                continue
            seat = state.to_move
            if seat is None:
                raise RecordError(where, f"play {c}: the hand is over ({state.end})")
            state = record_step(state, Play(seat, c), where)
            if (
                bella_seat == seat
                and state.bella_announced is None
                and c.suit == state.trump
                and c.rank.value in ("K", "Q")
            ):
                state = record_step(state, Announce(seat, "bella"), "bella")
        if len(cards_raw) < n and state.end != "renege":
            raise RecordError(f"tricks[{t}]", f"a trick has {n} cards, got {len(cards_raw)}")
    if not state.is_over:
        raise RecordError(
            "tricks",
            f"{len(state.tricks)} complete tricks: a hand has {rules.hand_size} "
            "unless a renege ends it",
        )
    return state, ignored


def hand_json(state: KlaberjassHand, result: HandResult, game: str) -> dict[str, object]:
    """The JSON result of one hand."""
    out: dict[str, object] = {
        "game": game,
        "type": "hand",
        "dealer": state.dealer,
        "upcard": None if state.upcard is None else str(state.upcard),
        "variant": state.rules.variant,
        "trump": None if result.trump is None else result.trump.value,
        "maker": result.maker,
    }
    if state.rules.variant == "jass-deux":
        out["bid"] = result.bid
    out.update(
        {
            "score": list(result.scores),
            "totals": [t.to_json() for t in result.totals],
            "bete": result.bete,
            "redeal": result.redeal,
            "end": result.end,
            "sequences": {
                "winner": result.sequence_winner,
                "runs": [{"seat": s, **m.to_json()} for s, m in result.runs],
            },
            "bella": result.bella,
            "exchange": state.exchange,
            "tricks": [trick_json(t) for t in result.tricks],
            "reneges": [{**r.evidence.as_dict(), "status": r.status} for r in result.reneges],
        }
    )
    return out


def score_game_record(
    record: object,
    game: str,
    base: KlaberjassRules,
    hand_json_fn: Callable[[KlaberjassHand, HandResult, str], dict[str, object]] = hand_json,
) -> dict[str, object]:
    """Score a hand or match record of a Klaberjass-family ``game``."""
    if not isinstance(record, Mapping):
        raise RecordError("record", f"expected a JSON object, got {type(record).__name__}")
    if record.get("game") != game:
        raise RecordError("game", f"expected {game!r}, got {record.get('game')!r}")
    if "hands" not in record:
        state, ignored = read_hand(record, base)
        out = hand_json_fn(state, _score(state, ""), game)
        return {**out, "ignored_plays": ignored} if ignored else out
    hands = _list(record["hands"], "hands")
    if not hands:
        raise RecordError("hands", "empty: a match has at least one hand")
    rules = read_rules(record.get("options"), base)
    match: KlaberjassMatch | None = None
    out_hands: list[dict[str, object]] = []
    for i, raw in enumerate(hands):
        where = f"hands[{i}]"
        if not isinstance(raw, Mapping):
            raise RecordError(where, f"expected a hand record object, got {raw!r}")
        if raw.get("game", game) != game:
            raise RecordError(f"{where}.game", f"expected {game!r}, got {raw.get('game')!r}")
        if "options" in raw:
            raise RecordError(f"{where}.options", "options belong to the match record")
        dealer = None if match is None else match.dealer
        try:
            state, ignored = read_hand({**raw, "options": None}, rules, dealer)
        except RecordError as exc:
            raise RecordError(f"{where}.{exc.field}", exc.problem) from None
        if match is None:
            match = KlaberjassMatch(rules, state.dealer)
        result = _score(state, where)
        try:
            match = match.add(result, state.dealer)
        except RulesError as exc:
            raise RecordError(
                f"{where}.dealer" if "dealt" in str(exc) else where, str(exc)
            ) from None
        entry = hand_json_fn(state, result, game)
        if ignored:
            entry["ignored_plays"] = ignored
        out_hands.append({**entry, "running": list(match.totals)})
    assert match is not None
    return {
        "game": game,
        "type": "match",
        "hands": out_hands,
        "totals": list(match.totals),
        "winner": match.winner,
        "over": match.is_over,
        "target": rules.target,
    }


def _score(state: KlaberjassHand, where: str) -> HandResult:
    try:
        return score_hand(state)
    except RulesError as exc:
        raise RecordError(where or "tricks", str(exc)) from None


def score_record(record: object) -> dict[str, object]:
    """Score a Klaberjass (or Jass-deux) hand or match record."""
    return score_game_record(record, GAME, KlaberjassRules())


def _hand_lines(result: Mapping[str, Any], side: str) -> list[str]:
    trump = result.get("trump")
    head = f"dealer {side} {result.get('dealer')}, "
    if result.get("redeal"):
        return [head + "redeal: no score"]
    made = f"trump {trump} made by seat {result.get('maker')}"
    if result.get("bid") is not None:
        made += f" for {result['bid']}"
    lines = [head + made]
    totals = result.get("totals", [])
    for key in ("cards", "last_trick", "runs", "bella", "total"):
        vals = "".join(f"{t.get(key, 0):>9}" for t in totals)
        lines.append(f"  {key.replace('_', ' '):<11}{vals}")
    score = "".join(f"{s:>9}" for s in result.get("score", []))
    note = "  (maker bete)" if result.get("bete") else ""
    lines.append(f"  {'score':<11}{score}{note}")
    for r in result.get("reneges", []):
        lines.append(f"  renege ({r.get('status')}): {r.get('detail')}")
    return lines


def format_sheet(result: Mapping[str, Any], title: str, side: str, sides: tuple[str, str]) -> str:
    """A score sheet: one block per hand, running totals and the winner for a match."""
    header = f"  {'':<11}" + "".join(f"{s:>9}" for s in sides)
    if "hands" not in result:
        return "\n".join([title, header, *_hand_lines(result, side)])
    lines = [title + " match", header]
    for i, h in enumerate(result["hands"], 1):
        lines.append(f"hand {i}: " + _hand_lines(h, side)[0])
        lines.extend(_hand_lines(h, side)[1:])
        lines.append(f"  {'running':<11}" + "".join(f"{t:>9}" for t in h.get("running", [])))
    winner = result.get("winner")
    totals = " - ".join(str(t) for t in result.get("totals", []))
    lines.append(
        f"winner: {sides[winner]} ({totals})" if winner is not None else f"no winner yet ({totals})"
    )
    return "\n".join(lines)


def format_text(result: Mapping[str, object]) -> str:
    """A Klaberjass score sheet for a :func:`score_record` result."""
    return format_sheet(result, "Klaberjass", "seat", ("seat 0", "seat 1"))
