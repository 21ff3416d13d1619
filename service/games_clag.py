"""The game spec for Clag: 4 to 7 players, each for himself, 22 rounds a game.

The engine's :class:`rules.clag.GameState` already runs a whole game (the dealer passing left,
the special rounds); this spec only reads the JSON events into its values, checks the dealer
a deal names, and lays out its rounds as score-sheet rows with one column per seat.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.clag import (
    ChooseTrump,
    ClagRuleset,
    Contract,
    Deal,
    GameState,
    NameWild,
    RoundState,
    TurnTrump,
    round_rule,
)
from rules.errors import OutOfTurn
from rules.events import Play
from service.game_spec import (
    JSON,
    SHARED_BUILDERS,
    Builder,
    FieldError,
    HandRow,
    card_of,
    hands_of,
    rules_from,
    seat_of,
    suit_of,
)

MIN_PLAYERS, MAX_PLAYERS = 4, 7


def _deal(p: Mapping[str, Any], n: int) -> Deal:
    if p.get("dealer") is not None:
        seat_of(p, n, "dealer")
    hands = hands_of(p, n)
    return Deal(None if hands is None else tuple(frozenset(h) for h in hands))


def _bid(p: Mapping[str, Any], n: int) -> Contract:
    value = p.get("bid")
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value.strip())
    if isinstance(value, bool) or not isinstance(value, int):
        raise FieldError("bid", f"a Clag contract is a number of tricks, got {value!r}")
    return Contract(seat_of(p, n), value)


def _choose(p: Mapping[str, Any], n: int) -> ChooseTrump:
    if "suit" not in p:
        raise FieldError("suit", "missing: the suit the dealer chooses (or null: no trump)")
    return ChooseTrump(suit_of(p))


BUILDERS: dict[str, Builder] = {
    "deal": _deal,
    "trump": lambda p, n: TurnTrump(card_of(p)),
    "choose_trump": _choose,
    "bid": _bid,
    "play": lambda p, n: Play(seat_of(p, n), card_of(p)),
    "name": lambda p, n: NameWild(seat_of(p, n), card_of(p)),
    "confirm_renege": SHARED_BUILDERS["confirm_renege"],
    "dismiss_renege": SHARED_BUILDERS["dismiss_renege"],
}


def _status(r: RoundState, index: int) -> str:
    if index in r.dismissed:
        return "dismissed"
    if index in r.confirmed:
        return "confirmed"
    return "applied" if r.ruleset.apply_reneges == "auto" else "pending"


def _reneges(r: RoundState) -> tuple[JSON, ...]:
    return tuple({**e.as_dict(), "status": _status(r, i)} for i, e in enumerate(r.reneges))


class ClagSpec:
    name = "clag"

    def seats(self, players: int, options: Mapping[str, Any]) -> int:
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise FieldError("players", f"clag is played by 4 to 7, got {players}")
        return players

    def sides(self, seats: int) -> list[list[int]]:
        return [[s] for s in range(seats)]

    def make_rules(self, options: Mapping[str, Any], seats: int) -> ClagRuleset:
        return rules_from(ClagRuleset, options)  # type: ignore[no-any-return]

    def builders(self) -> Mapping[str, Builder]:
        return BUILDERS

    def new_game(self, rules: Any, seats: int, event: object, payload: JSON) -> GameState:
        return GameState.start(seats, int(payload["dealer"]), rules).apply(event)  # type: ignore[arg-type]

    def apply(self, game: GameState, event: object, payload: JSON) -> GameState:
        dealer = payload.get("dealer") if payload.get("type") == "deal" else None
        if dealer is not None:
            cur = game.current
            expected = cur.dealer if cur.phase != "done" else (cur.dealer + 1) % game.players
            if dealer != expected:
                raise OutOfTurn(f"deal by seat {dealer}: seat {expected} deals this round")
        return game.apply(event)  # type: ignore[arg-type]

    def is_over(self, game: GameState) -> bool:
        return game.finished

    def winners(self, game: GameState) -> list[int]:
        return list(game.winners()) if game.finished else []

    def rows(self, game: GameState) -> list[HandRow]:
        rows = []
        for r in game.scored_rounds():
            res = r.result()
            rows.append(
                HandRow(
                    dealer=r.dealer,
                    score=res.score,
                    set=tuple(
                        c is not None and not done
                        for c, done in zip(res.contracts, res.completed, strict=True)
                    ),
                    redeal=False,
                    end="complete",
                    reneges=_reneges(r),
                    detail={
                        "round": r.round_no,
                        "rule": round_rule(r.round_no),
                        "trump": None if r.trump is None else r.trump.value,
                        "contracts": list(res.contracts),
                        "tricks_won": list(res.tricks_won),
                        "completed": list(res.completed),
                    },
                )
            )
        return rows

    def first_dealer_after(self, game: GameState) -> None:
        """A Clag game's first dealer is drawn (rules.md): the deal must name him."""
        return None

    def current(self, game: GameState) -> JSON:
        r = game.current
        leader = r.leaders[-1]
        return {
            "number": r.round_no,
            "round": r.round_no,
            "rule": round_rule(r.round_no),
            "hand_size": r.hand_size,
            "phase": r.phase,
            "over": r.phase == "done",
            "dealer": r.dealer,
            "to_move": r.to_act,
            "trump_card": None if r.trump_card is None else str(r.trump_card),
            "trump": None if r.trump is None else r.trump.value,
            "contracts": list(r.contracts),
            "tricks_won": list(r.tricks_won),
            "trick": [
                {"seat": (leader + i) % r.players, "card": str(e)} for i, e in enumerate(r.current)
            ],
            "awaiting_name": None if r.unnamed is None else str(r.unnamed),
            "tricks": [
                {
                    "number": i + 1,
                    "leader": r.leaders[i],
                    "cards": [str(e) for e in t],
                    "winner": r.leaders[i + 1],
                }
                for i, t in enumerate(r.tricks)
            ],
            "reneges": list(_reneges(r)),
        }


CLAG = ClagSpec()
