"""Belote hand and match records (``trickcam score``), read like Clabber's.

    {"game": "belote", "dealer": 3, "upcard": "9H", "bidding": ["pass", "accept"],
     "tricks": [["JH", "9H", "AH", "10H"], ...]}

``bidding`` starts at the dealer's left: round 1 ``"accept"`` or ``"pass"``; after four passes,
round 2 names a suit letter or ``"pass"``; four more passes: redeal. ``tricks``: eight tricks
of four cards in play order, the dealer's left leading the first. The optional fields of a
Klaberjass record apply (``declared``, ``bella``, ``options`` - e.g.
``{"partner_master_exempt": true}``). The result is per team: team 0 is seats 0 and 2, team 1
seats 1 and 3. A match is ``{"game": "belote", "hands": [...]}`` to 500.
"""

from __future__ import annotations

from collections.abc import Mapping

from rules.belote import BeloteRules
from rules.klaberjass.hand import KlaberjassHand
from rules.klaberjass.records import format_sheet, hand_json, score_game_record
from rules.klaberjass.scoring import HandResult

GAME = "belote"
TEAMS = ((0, 2), (1, 3))


def _team_json(state: KlaberjassHand, result: HandResult, game: str) -> dict[str, object]:
    out = hand_json(state, result, game)
    out.pop("exchange", None)
    out["teams"] = [list(t) for t in TEAMS]
    out["maker_team"] = None if result.maker is None else result.maker % 2
    return out


def score_record(record: object) -> dict[str, object]:
    """Score a Belote hand or match record; scores are per team."""
    return score_game_record(record, GAME, BeloteRules(), _team_json)


def format_text(result: Mapping[str, object]) -> str:
    return format_sheet(result, "Belote", "seat", ("team 0-2", "team 1-3"))
