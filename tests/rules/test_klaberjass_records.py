"""Klaberjass, Jass-deux and Belote records through ``trickcam score`` (rules/records.py)."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from cli.main import main
from rules.belote import BeloteRules
from rules.errors import RecordError
from rules.klaberjass import KlaberjassMatch, KlaberjassRules, score_hand
from rules.klaberjass.simulate import hand_record, simulate_hand
from rules.records import format_text, score_record

TRICKS = [t.split() for t in
          ["AH KH", "10H 10D", "AS 7S", "KS 8S", "QS 9S", "JS AD", "9D KD", "7C QC", "QD 8C"]]  # fmt: skip
HAND: dict[str, Any] = {
    "game": "klaberjass",
    "dealer": 0,
    "upcard": "JD",
    "bidding": ["pass", "accept"],
    "tricks": TRICKS,
}


def test_hand_record_scores_the_sample_hand() -> None:
    result = score_record(HAND)
    assert result["score"] == [124, 46]
    assert result["bete"] is False and result["redeal"] is False
    assert result["trump"] == "D" and result["maker"] == 0
    seq = result["sequences"]
    assert isinstance(seq, dict) and seq["winner"] == 0
    assert {(r["seat"], r["points"]) for r in seq["runs"]} == {(0, 50), (1, 20)}
    assert result["bella"] == 0
    text = format_text(HAND, result)
    assert "Klaberjass" in text and "124" in text and "trump D made by seat 0" in text


RESULTS = [
    # (rule, changes to the sample record, expected score, bete, redeal)
    ("maker short: bete", {"bidding": ["accept"]}, [170, 0], True, False),
    ("schmeiss agreed: redeal", {"bidding": ["schmeiss", "agree"], "tricks": []}, [0, 0], False, True),
    ("schmeiss refused: proposer is maker", {"bidding": ["schmeiss", "refuse"]}, [170, 0], True, False),
    ("two rounds of passes: redeal", {"bidding": ["pass"] * 4, "tricks": []}, [0, 0], False, True),
    ("Jass-deux: bid reached", {"options": {"variant": "jass-deux"}, "bidding": ["pass", 120, "pass", "D"]},
     [124, 46], False, False),
    ("Jass-deux: bid as text, missed", {"options": {"variant": "jass-deux"},
                                         "bidding": ["pass", "125", "pass", "D"]}, [0, 170], True, False),
    ("bella announced by record", {"options": {"bella": "announced"}, "bella": 0}, [124, 46], False, False),
    ("bella not announced", {"options": {"bella": "announced"}}, [104, 46], False, False),
    ("declared runs", {"options": {"sequences": "declared"},
                       "declared": [{"seat": 1, "cards": ["7S", "8S", "9S"]}]}, [74, 66], False, False),
    ("renege ends the hand; later cards are ignored",
     {"tricks": [["AH", "QC"], ["10H", "KH"], ["AS", "7S"]]}, [0, 162], False, False),
]  # fmt: skip


@pytest.mark.parametrize(
    ("rule", "changes", "score", "bete", "redeal"), RESULTS, ids=[r[0] for r in RESULTS]
)
def test_hand_record_results(
    rule: str, changes: dict[str, Any], score: list[int], bete: bool, redeal: bool
) -> None:
    result = score_record({**HAND, **changes})
    assert (result["score"], result["bete"], result["redeal"]) == (score, bete, redeal)


def test_renege_record_names_the_evidence() -> None:
    result = score_record({**HAND, "tricks": [["AH", "QC"], ["10H", "KH"], ["AS", "7S"]]})
    assert result["end"] == "renege" and result["ignored_plays"] == 2
    reneges = result["reneges"]
    assert isinstance(reneges, list) and len(reneges) == 1
    r = reneges[0]
    assert (r["seat"], r["rule"], r["card"], r["proof"]) == (0, "follow", "QC", "KH")


def test_exchange_field_and_candidate_play() -> None:
    tricks = [["JD", "7H"]] + [["8S", "9S"]]
    rec = {**HAND, "bidding": ["accept"], "exchange": 1, "tricks": tricks}
    with pytest.raises(RecordError) as err:
        score_record(rec)
    assert err.value.field == "tricks"  # only two tricks: incomplete, but the exchange was read
    with pytest.raises(RecordError) as err2:
        score_record({**rec, "tricks": [["AH", "JD"]]})
    assert err2.value.field == "tricks[0][1]" and "seat 1" in str(err2.value)


ERRORS = [
    # (rule, changes, field, fragment)
    ("bad card code", {"tricks": [*TRICKS[:3], ["KS", "11S"], *TRICKS[4:]]}, "tricks[3][1]", "11S"),
    ("card outside the deck", {"tricks": [["6H", "KH"]]}, "tricks[0][0]", "6H"),
    ("card twice", {"tricks": [["AH", "KH"], ["10H", "AH"]]}, "tricks[1][1]", "twice"),
    ("round 2 names the refused suit", {"bidding": ["pass", "pass", "D"]}, "bidding[2]", "refused"),
    ("call after the bidding", {"bidding": ["accept", "pass"]}, "bidding[1]", "after"),
    ("incomplete bidding", {"bidding": ["pass"]}, "bidding", "incomplete"),
    ("too few tricks", {"tricks": TRICKS[:8]}, "tricks", "9"),
    ("trick of three cards", {"tricks": [["AH", "KH", "7S"]]}, "tricks[0]", "2 cards"),
    ("tricks after a redeal", {"bidding": ["pass"] * 4}, "tricks", "redeal"),
    ("unknown option", {"options": {"melds": "auto"}}, "options.melds", "unknown"),
    ("option of the wrong type", {"options": {"bella": True}}, "options.bella", "expected str"),
    ("bad option value", {"options": {"bella": "sometimes"}}, "options", "sometimes"),
    ("dealer out of range", {"dealer": 2}, "dealer", "0..1"),
    ("upcard missing in classic", {"upcard": None}, "upcard", "candidate"),
    ("bid too low in Jass-deux", {"options": {"variant": "jass-deux"}, "bidding": [80]}, "bidding[0]",
     "82"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("rule", "changes", "field", "fragment"), ERRORS, ids=[r[0] for r in ERRORS]
)
def test_record_errors_name_the_field(
    rule: str, changes: dict[str, Any], field: str, fragment: str
) -> None:
    with pytest.raises(RecordError) as err:
        score_record({**HAND, **changes})
    assert err.value.field == field
    assert fragment in str(err.value)


def _random_match(
    game: str, rules: KlaberjassRules, seed: int
) -> tuple[dict[str, Any], KlaberjassMatch]:
    rng = random.Random(seed)
    match = KlaberjassMatch(rules, dealer=0)
    hands: list[dict[str, object]] = []
    while not match.is_over:
        sim = simulate_hand(rng, rules, match.dealer)
        match = match.add(score_hand(sim.state), sim.state.dealer)
        rec = hand_record(sim.state, game)
        if hands:
            del rec["dealer"]  # later hands may leave the dealer to the rotation
        hands.append(rec)
    return {"game": game, "hands": hands}, match


@pytest.mark.parametrize(
    ("game", "rules"), [("klaberjass", KlaberjassRules()), ("belote", BeloteRules())]
)
def test_match_record_runs_to_500(game: str, rules: KlaberjassRules) -> None:
    record, match = _random_match(game, rules, 11)
    result = score_record(record)
    assert result["type"] == "match" and result["over"] is True
    assert result["totals"] == list(match.totals) and result["winner"] == match.winner
    hands = result["hands"]
    assert isinstance(hands, list)
    running = [0, 0]
    for h in hands:
        running = [running[0] + h["score"][0], running[1] + h["score"][1]]
        assert h["running"] == running
    assert max(running) >= 500
    text = format_text(record, result)
    assert "winner:" in text and f"hand {len(hands)}:" in text
    # a hand after the game was won is refused, naming it
    extra = {**record, "hands": [*record["hands"], record["hands"][-1]]}
    with pytest.raises(RecordError) as err:
        score_record(extra)
    assert err.value.field.startswith(f"hands[{len(hands)}]")


def test_match_dealer_rotation_is_checked() -> None:
    first = {**HAND}
    second = {**HAND, "dealer": 0}
    with pytest.raises(RecordError) as err:
        score_record({"game": "klaberjass", "hands": [first, second]})
    assert err.value.field == "hands[1].dealer"
    redeal = {**HAND, "bidding": ["pass"] * 4, "tricks": []}
    result = score_record({"game": "klaberjass", "hands": [redeal, second]})
    assert result["totals"] == [124, 46] and result["winner"] is None


def test_belote_record_is_per_team() -> None:
    rng = random.Random(2)
    while True:
        sim = simulate_hand(rng, BeloteRules(), 3)
        if not sim.state.redeal:
            break
    record = hand_record(sim.state, "belote")
    result = score_record(record)
    assert result["teams"] == [[0, 2], [1, 3]]
    assert result["score"] == list(score_hand(sim.state).scores)
    assert result["maker_team"] == sim.state.maker % 2  # type: ignore[operator]
    assert len(result["tricks"]) == 8  # type: ignore[arg-type]
    assert "team 0-2" in format_text(record, result)
    with pytest.raises(RecordError) as err:
        score_record({**record, "tricks": [["AH", "KH"]]})
    assert err.value.field == "tricks[0]"


def test_cli_scores_json_lines_and_reports_bad_records(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = {**HAND, "tricks": [["AH", "ZZ"]]}
    path = tmp_path / "hands.jsonl"
    path.write_text(json.dumps(HAND) + "\n" + json.dumps(bad) + "\n", encoding="utf-8")
    assert main(["score", str(path)]) == 2
    out, err = capsys.readouterr()
    assert json.loads(out.splitlines()[0])["score"] == [124, 46]
    assert "tricks[0][1]" in err and "ZZ" in err and len(err.strip().splitlines()) == 1
    assert main(["score", "--format", "text", str(tmp_path / "hands.jsonl")]) == 2
