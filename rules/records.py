"""Reading hand, round and match records of any game and scoring them.

A record is a JSON object with a ``"game"`` key. Each game keeps its own record reader in
``rules/<game>/records.py`` exposing ``score_record(record) -> dict`` (a hand, a round or a
whole match) and ``format_text(result) -> str`` (a score sheet a club would recognise).
This module only dispatches, so adding a game touches one line here.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any, cast

from rules.cards import Card
from rules.errors import RecordError, RulesError

GAME_RECORD_MODULES: dict[str, str] = {
    "clabber": "rules.clabber.records",
    "klaberjass": "rules.klaberjass.records",
    "belote": "rules.belote.records",
    "clag": "rules.clag.records",
}


def _module(record: object) -> Any:
    if not isinstance(record, Mapping):
        raise RecordError("record", f"expected a JSON object, got {type(record).__name__}")
    game = record.get("game")
    if game is None:
        raise RecordError("game", "missing; expected one of " + ", ".join(GAME_RECORD_MODULES))
    if game not in GAME_RECORD_MODULES:
        raise RecordError(
            "game", f"unknown game {game!r}; expected one of " + ", ".join(GAME_RECORD_MODULES)
        )
    try:
        return importlib.import_module(GAME_RECORD_MODULES[game])
    except ModuleNotFoundError:
        raise RecordError("game", f"game {game!r} is not implemented yet") from None


def record_card(value: object, field: str) -> Card:
    """A card code read from a record's ``field``; a :class:`RecordError` naming the field."""
    if not isinstance(value, str):
        raise RecordError(field, f"expected a card code such as '10H', got {value!r}")
    try:
        return Card.parse(value)
    except RulesError as exc:
        raise RecordError(field, str(exc)) from None


def score_record(record: object) -> dict[str, object]:
    """Score one record (hand, round or match) of any game; raises :class:`RecordError`."""
    scorer = cast(Callable[[object], dict[str, object]], _module(record).score_record)
    return scorer(record)


def format_text(record: object, result: Mapping[str, object]) -> str:
    """The score sheet for a result that :func:`score_record` returned for ``record``."""
    formatter = cast(Callable[[Mapping[str, object]], str], _module(record).format_text)
    return formatter(result)
