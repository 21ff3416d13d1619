"""Clag records: one round, or a whole game, read, checked, replayed and scored.

A round record::

    {"game": "clag", "players": 5, "round": 3, "dealer": 2, "trump_card": "7H",
     "contracts": [1, 0, 2, 0, 1], "tricks": [["9H", "2H", "KH", "4H", "JH"], ...],
     "options": {"dealer_rule": "not_equal"}}

``contracts`` are indexed by seat; each trick lists its cards in the order played, lead first
(the dealer's left leads the first trick, each winner the next). Round 14 gives ``"trump":
"S"`` (the dealer's choice) instead of ``trump_card``; round 8 gives neither; rounds 9 and 15
may leave out ``contracts`` (round 9's must be all 0 if given, round 15 has none). In round 12
a two is written with the card it names: ``"2H=AS"``.

A game record is ``{"game": "clag", "players": N, "rounds": [...], "options": {...}}``: its
rounds are round records in order (``round`` and ``players`` may be left out), the dealer
passing left each round. The result carries running totals and the ranking (final after
round 22). A round is replayed through :class:`~rules.clag.state.RoundState`; every
``RulesError`` is reported as a :class:`~rules.errors.RecordError` naming the field.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rules.cards import Card, Suit
from rules.clag import tricks as T
from rules.clag.events import ChooseTrump, Contract, Deal, NameWild, Play, TurnTrump
from rules.clag.record_text import format_text
from rules.clag.ruleset import ClagRuleset
from rules.clag.schedule import (
    DEALER_CHOOSES_TRUMP_ROUND,
    NO_CONTRACT_ROUND,
    NUM_ROUNDS,
    WILD_TWOS_ROUND,
    ZERO_CONTRACT_ROUND,
    check_players,
    check_round,
    hand_size,
    has_contracts,
    has_turned_trump,
    round_rule,
)
from rules.clag.scoring import ranking
from rules.clag.state import RoundState
from rules.errors import RecordError, RulesError
from rules.records import record_card as _card

__all__ = ["format_text", "game_record", "round_record", "score_record", "score_round"]


def _field(prefix: str, name: str) -> str:
    return f"{prefix}.{name}" if prefix else name


def _int(record: Mapping[str, Any], name: str, prefix: str) -> int:
    if name not in record:
        raise RecordError(_field(prefix, name), "missing")
    value = record[name]
    if isinstance(value, bool) or not isinstance(value, int):
        raise RecordError(_field(prefix, name), f"expected a whole number, got {value!r}")
    return value


def _ruleset(options: object, where: str) -> ClagRuleset:
    if options is None:
        return ClagRuleset()
    if not isinstance(options, Mapping):
        raise RecordError(where, f"expected an object of options, got {options!r}")
    try:
        return ClagRuleset.from_options(options)
    except RulesError as exc:
        raise RecordError(where, str(exc)) from None


def _trump_events(record: Mapping[str, Any], round_no: int, p: str) -> list[object]:
    card_text, suit_text = record.get("trump_card"), record.get("trump")
    if round_no == DEALER_CHOOSES_TRUMP_ROUND:
        if card_text is not None:
            raise RecordError(_field(p, "trump_card"), "round 14 turns no card: give 'trump'")
        if "trump" not in record:
            raise RecordError(_field(p, "trump"), "missing: the suit the dealer chose (S H D C)")
        if suit_text is None or str(suit_text).lower() == "none":
            return [ChooseTrump(None)]
        try:
            return [ChooseTrump(Suit.parse(str(suit_text)))]
        except RulesError as exc:
            raise RecordError(_field(p, "trump"), str(exc)) from None
    if not has_turned_trump(round_no):  # round 8
        for name in ("trump_card", "trump"):
            if record.get(name) is not None:
                raise RecordError(_field(p, name), f"round 8 has no trump, got {record[name]!r}")
        return []
    if card_text is None:
        raise RecordError(_field(p, "trump_card"), f"missing: round {round_no} turns a trump card")
    turned = _card(card_text, _field(p, "trump_card"))
    if suit_text is not None and str(suit_text) != turned.suit.value:
        raise RecordError(_field(p, "trump"), f"{suit_text!r} is not the suit of {turned}")
    return [TurnTrump(turned)]


def _contract_events(
    record: Mapping[str, Any], round_no: int, players: int, dealer: int, p: str
) -> list[Contract]:
    where = _field(p, "contracts")
    given = record.get("contracts")
    if round_no == NO_CONTRACT_ROUND:
        if given is not None:
            raise RecordError(where, f"round 15 has no contracts, got {given!r}")
        return []
    if round_no == ZERO_CONTRACT_ROUND:
        if given is not None and (not isinstance(given, list) or any(c != 0 for c in given)):
            raise RecordError(where, f"every contract in round 9 is 0, got {given!r}")
        if given is not None and len(given) != players:
            raise RecordError(where, f"expected {players} zeros, got {len(given)}")
        return []
    if not isinstance(given, list):
        raise RecordError(where, f"expected a list of {players} contracts by seat, got {given!r}")
    if len(given) != players:
        raise RecordError(where, f"expected {players} contracts (one per seat), got {len(given)}")
    order = [(dealer + 1 + k) % players for k in range(players)]
    return [Contract(seat, given[seat]) for seat in order]


def _plays(trick: object, players: int, round_no: int, where: str) -> list[T.Entry]:
    if not isinstance(trick, list):
        raise RecordError(where, f"expected a list of {players} cards, got {trick!r}")
    if len(trick) != players:
        raise RecordError(where, f"expected {players} cards (one per player), got {len(trick)}")
    entries: list[T.Entry] = []
    for j, text in enumerate(trick):
        at = f"{where}[{j}]"
        if not isinstance(text, str):
            raise RecordError(at, f"expected a card code, got {text!r}")
        try:
            entry = T.parse_entry(text)
        except RulesError as exc:
            raise RecordError(at, str(exc)) from None
        if round_no == WILD_TWOS_ROUND and isinstance(entry, Card) and entry.rank.value == "2":
            raise RecordError(at, f"{text!r}: twos are wild in round 12; write e.g. '{text}=AS'")
        if round_no != WILD_TWOS_ROUND and isinstance(entry, T.WildTwo):
            raise RecordError(at, f"{text!r}: twos are wild only in round 12")
        entries.append(entry)
    return entries


def _apply(state: RoundState, event: object, where: str) -> RoundState:
    try:
        return state.apply(event)  # type: ignore[arg-type]
    except RulesError as exc:
        raise RecordError(where, str(exc)) from None


def replay_round(
    record: Mapping[str, Any],
    players: int,
    round_no: int,
    dealer: int,
    ruleset: ClagRuleset,
    p: str,
) -> RoundState:
    """The finished :class:`RoundState` the record describes (events built from its fields)."""
    state = RoundState.start(players, round_no, dealer, ruleset)
    contracts = _contract_events(record, round_no, players, dealer, p)
    trump = _trump_events(record, round_no, p)
    while state.phase != "play":
        phase = state.phase
        if phase == "deal":
            state = _apply(state, Deal(), _field(p, "round"))
        elif phase in ("trump", "choose"):
            field = "trump" if round_no == DEALER_CHOOSES_TRUMP_ROUND else "trump_card"
            state = _apply(state, trump[0], _field(p, field))
        elif phase == "contracts":
            for c in contracts:
                state = _apply(state, c, f"{_field(p, 'contracts')}[{c.seat}]")
    tricks = record.get("tricks")
    where = _field(p, "tricks")
    size = hand_size(round_no)
    if not isinstance(tricks, list):
        raise RecordError(where, f"expected a list of {size} tricks, got {tricks!r}")
    if len(tricks) != size:
        raise RecordError(
            where,
            f"round {round_no} deals {size} card(s) each: expected {size} tricks, got {len(tricks)}",
        )
    for i, trick in enumerate(tricks):
        for j, entry in enumerate(_plays(trick, players, round_no, f"{where}[{i}]")):
            seat = state.to_act
            assert seat is not None
            at = f"{where}[{i}][{j}]"
            state = _apply(state, Play(seat, T.physical(entry)), at)
            if isinstance(entry, T.WildTwo):
                state = _apply(state, NameWild(seat, entry.named), at)
    return state


def score_round(
    record: Mapping[str, Any],
    *,
    prefix: str = "",
    players: int | None = None,
    round_no: int | None = None,
    dealer: int | None = None,
    ruleset: ClagRuleset | None = None,
) -> dict[str, Any]:
    """Score one round record; ``players``, ``round_no``, ``dealer`` and ``ruleset`` come
    from the game when the round is part of one (the record may repeat them, equal)."""
    p = prefix
    if not isinstance(record, Mapping):
        raise RecordError(p or "record", f"expected a round object, got {record!r}")
    if record.get("game", "clag") != "clag":
        raise RecordError(_field(p, "game"), f"expected 'clag', got {record.get('game')!r}")
    checks = (("players", players, check_players), ("round", round_no, check_round))
    values: dict[str, int] = {}
    for name, implied, check in checks:
        if name in record or implied is None:
            value = _int(record, name, p)
            if implied is not None and value != implied:
                raise RecordError(_field(p, name), f"{value} but the game implies {implied}")
            try:
                check(value)
            except RulesError as exc:
                raise RecordError(_field(p, name), str(exc)) from None
            values[name] = value
        else:
            values[name] = implied
    n, r = values["players"], values["round"]
    if "dealer" in record or dealer is None:
        d = _int(record, "dealer", p)
        if not 0 <= d < n:
            raise RecordError(_field(p, "dealer"), f"{d} is not a seat 0..{n - 1}")
        if dealer is not None and d != dealer:
            raise RecordError(
                _field(p, "dealer"),
                f"seat {d}, but the deal passes left: seat {dealer} deals round {r}",
            )
    else:
        d = dealer
    if "options" in record or ruleset is None:
        rs = _ruleset(record.get("options"), _field(p, "options"))
        if ruleset is not None and rs != ruleset:
            raise RecordError(_field(p, "options"), "differ from the game's options")
    else:
        rs = ruleset
    state = replay_round(record, n, r, d, rs, p)
    result = state.result()
    return {
        "game": "clag",
        "players": n,
        "round": r,
        "rule": round_rule(r),
        "hand_size": hand_size(r),
        "dealer": d,
        "trump": None if state.trump is None else state.trump.value,
        "trump_card": None if state.trump_card is None else str(state.trump_card),
        "contracts": list(result.contracts)
        if has_contracts(r) or r == ZERO_CONTRACT_ROUND
        else None,
        "tricks_won": list(result.tricks_won),
        "winners": list(state.winners()),
        "completed": list(result.completed),
        "score": list(result.score),
        "reneges": [rg.as_dict() for rg in result.reneges],
        "options": rs.options(),
    }


def score_game(record: Mapping[str, Any]) -> dict[str, Any]:
    n = _int(record, "players", "")
    try:
        check_players(n)
    except RulesError as exc:
        raise RecordError("players", str(exc)) from None
    rounds = record.get("rounds")
    if not isinstance(rounds, list) or not rounds:
        raise RecordError(
            "rounds", f"expected a list of 1 to {NUM_ROUNDS} round records, got {rounds!r}"
        )
    if len(rounds) > NUM_ROUNDS:
        raise RecordError("rounds", f"a game has {NUM_ROUNDS} rounds, got {len(rounds)}")
    rs = _ruleset(record.get("options"), "options")
    totals, done = [0] * n, [0] * n
    results: list[dict[str, Any]] = []
    dealer: int | None = None
    for i, rnd in enumerate(rounds):
        res = score_round(
            rnd, prefix=f"rounds[{i}]", players=n, round_no=i + 1, dealer=dealer, ruleset=rs
        )
        dealer = (res["dealer"] + 1) % n
        totals = [t + s for t, s in zip(totals, res["score"], strict=True)]
        done = [c + int(x) for c, x in zip(done, res["completed"], strict=True)]
        results.append({**res, "totals": list(totals), "completed_contracts": list(done)})
    return {
        "game": "clag",
        "players": n,
        "rounds": results,
        "totals": totals,
        "completed_contracts": done,
        "finished": len(rounds) == NUM_ROUNDS,
        "ranking": [
            {"place": s.place, "seat": s.seat, "total": s.total, "completed": s.completed}
            for s in ranking(totals, done)
        ],
        "options": rs.options(),
    }


def score_record(record: object) -> dict[str, Any]:
    """Score a Clag round record or game record (see the module docstring)."""
    if not isinstance(record, Mapping):
        raise RecordError("record", f"expected a JSON object, got {type(record).__name__}")
    if "rounds" in record:
        return score_game(record)
    return score_round(record)


def round_record(state: RoundState) -> dict[str, Any]:
    """The record of a finished round (what a score keeper writes down): the inverse of
    :func:`score_record` on a round."""
    record: dict[str, Any] = {
        "game": "clag",
        "players": state.players,
        "round": state.round_no,
        "dealer": state.dealer,
    }
    if state.trump_card is not None:
        record["trump_card"] = str(state.trump_card)
    elif state.round_no == DEALER_CHOOSES_TRUMP_ROUND:
        record["trump"] = None if state.trump is None else state.trump.value
    if has_contracts(state.round_no):
        record["contracts"] = list(state.contracts)
    record["tricks"] = [[str(e) for e in trick] for trick in state.tricks]
    if state.ruleset.options():
        record["options"] = state.ruleset.options()
    return record


def game_record(rounds: Sequence[RoundState]) -> dict[str, Any]:
    """The record of a game (its rounds in order)."""
    records = [round_record(s) for s in rounds]
    game: dict[str, Any] = {"game": "clag", "players": rounds[0].players, "rounds": records}
    options = rounds[0].ruleset.options()
    for r in records:
        del r["game"], r["players"]
        r.pop("options", None)
    if options:
        game["options"] = options
    return game
