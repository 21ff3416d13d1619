"""Clabber hand and match records: scoring, errors that name the field, and the real
``trickcam score`` command on good and bad input."""

from __future__ import annotations

import copy
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from clabber_deals import BASE_PLAYS, OVER_PLAYS

from rules.cards import cards
from rules.clabber.records import format_text, score_record
from rules.errors import RecordError
from tests.ci import need

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "datasets" / "samples" / "clabber_match.json"


def _tricks(plays: list[str]) -> list[list[str]]:
    return [plays[i : i + 4] for i in range(0, len(plays), 4)]


BASE = {
    "game": "clabber",
    "dealer": 3,
    "upcard": "9H",
    "bidding": ["play"],
    "tricks": _tricks(BASE_PLAYS),
}


def test_hand_record_result() -> None:
    r = score_record(BASE)
    assert (
        r["score"] == [128, 104] and r["set"] is False and r["makers"] == 0 and r["redeal"] is False
    )
    assert [t["winner"] for t in r["tricks"]] == [0, 0, 1, 0, 0, 2]  # type: ignore[union-attr]
    assert r["bella"] == [0, 20] and r["meld_winner"] == 1 and r["reneges"] == []
    assert r["melds"] == [[], [{"kind": "fifty", "cards": ["10C", "JC", "QC", "KC"], "points": 50}]]


def test_set_hand_record() -> None:
    r = score_record({**BASE, "bidding": ["pass", "play"]})
    assert r["set"] is True and r["score"] == [128, 0] and r["sheet"] == ["128", "XXX"]


def test_declared_option_and_declared_melds() -> None:
    auto = score_record({**BASE, "options": {"melds": "declared"}})
    assert auto["score"] == [128, 54]
    declared = score_record(
        {**BASE, "options": {"melds": "declared"}, "declared": {"3": [["10C", "JC", "QC", "KC"]]}}
    )
    assert declared["score"] == [128, 104]


def test_a_renege_may_end_the_record_early() -> None:
    """The follow renege of seat 1 (trick 3) is proven by AS in trick 4: the record may stop."""
    plays = ["JH", "QH", "10H", "9H", "AH", "KH", "JS", "9D", "10S", "10D", "QS", "10C", "KS", "AS"]
    r = score_record({**BASE, "tricks": _tricks(plays)})
    (renege,) = r["reneges"]  # type: ignore[misc]
    assert renege["rule"] == "follow" and renege["seat"] == 1 and renege["trick"] == 3
    assert renege["card"] == "10D" and renege["proof"] == "AS" and renege["proof_trick"] == 4
    assert r["score"] == [162, 0] and r["sheet"] == ["162", "--"] and r["end"] == "renege"


def test_cards_after_the_renege_are_read_but_ignored() -> None:
    plays = [
        "JH",
        "QH",
        "10H",
        "9H",
        "AH",
        "KH",
        "JS",
        "9D",
        "10S",
        "10D",
        "QS",
        "10C",
        "KS",
        "AS",
        "QD",
        "QC",
        "9C",
        "JD",
        "AC",
        "KC",
        "AD",
        "9S",
        "KD",
        "JC",
    ]
    r = score_record({**BASE, "tricks": _tricks(plays)})
    assert r["ignored_plays"] == 10 and r["score"] == [162, 0]


def test_overtrump_renege_at_the_last_card() -> None:
    r = score_record(
        {
            "game": "clabber",
            "dealer": 3,
            "upcard": "9H",
            "bidding": ["play"],
            "tricks": _tricks(OVER_PLAYS),
        }
    )
    assert r["reneges"][0]["rule"] == "overtrump" and r["score"] == [182, 0]  # type: ignore[index]


def _broken(path: str, value: object) -> dict[str, object]:
    rec = copy.deepcopy(BASE)
    target: object = rec
    keys = path.split(".")
    for key in keys[:-1]:
        target = target[int(key)] if isinstance(target, list) else target[key]  # type: ignore[index]
    last = keys[-1]
    if isinstance(target, list):
        target[int(last)] = value
    elif value is _DELETE:
        del target[last]  # type: ignore[attr-defined]
    else:
        target[last] = value  # type: ignore[index]
    return rec


_DELETE = object()

BAD = [
    ("unknown card", "tricks.1.2", "11H", "tricks[1][2]", "unknown card '11H'"),
    ("card outside the deck", "tricks.1.2", "7H", "tricks[1][2]", "9 10 J Q K A"),
    ("a trick of three cards", "tricks.2", ["10S", "AS", "QS"], "tricks[2]", "got 3"),
    ("card played twice", "tricks.3.0", "JH", "tricks[3][0]", "twice"),
    ("upcard played by another seat", "tricks.0.0", "9H", "tricks[0][0]", "upcard"),
    ("missing upcard", "upcard", _DELETE, "upcard", "missing"),
    ("unknown call", "bidding.0", "maybe", "bidding[0]", "'play' or 'pass'"),
    ("seat out of range", "dealer", 7, "dealer", "seat 0..3"),
    ("options of the wrong kind", "options", {"melds": "shouted"}, "options", "melds"),
    ("tricks missing", "tricks.5", _DELETE, "tricks", "6"),
]


@pytest.mark.parametrize(("case", "path", "value", "field", "words"), BAD, ids=[b[0] for b in BAD])
def test_bad_records_name_the_field_and_the_problem(
    case: str, path: str, value: object, field: str, words: str
) -> None:
    rec = (
        _broken(path, value)
        if value is not _DELETE or not path.startswith("tricks")
        else {**BASE, "tricks": BASE["tricks"][:5]}
    )  # type: ignore[index]
    with pytest.raises(RecordError) as info:
        score_record(rec)
    assert info.value.field == field
    assert words in info.value.problem


def test_incomplete_bidding_and_bids_after_the_end() -> None:
    with pytest.raises(RecordError) as info:
        score_record({**BASE, "bidding": ["pass"]})
    assert info.value.field == "bidding"
    with pytest.raises(RecordError) as info:
        score_record({**BASE, "bidding": ["play", "pass"]})
    assert info.value.field == "bidding[1]"


def test_eight_passes_is_a_redeal_record() -> None:
    r = score_record(
        {"game": "clabber", "dealer": 0, "upcard": "AS", "bidding": ["pass"] * 8, "tricks": []}
    )
    assert r["redeal"] is True and r["score"] == [0, 0]


# -- match records ----------------------------------------------------------------------------


def _sample() -> dict[str, object]:
    return json.loads(SAMPLE.read_text())


def test_sample_match_is_a_whole_game() -> None:
    r = score_record(_sample())
    hands = r["hands"]
    assert isinstance(hands, list)
    assert r["over"] is True and r["winner"] in (0, 1)
    totals = r["totals"]
    assert isinstance(totals, list) and max(totals) >= 500
    assert [h["running"] for h in hands][-1] == totals
    assert any(h["set"] for h in hands) and any(h["redeal"] for h in hands)
    assert any(sum(h["bella"]) for h in hands) and any(h["meld_winner"] is not None for h in hands)
    for prev, cur in zip(hands, hands[1:], strict=False):
        assert cur["dealer"] == (prev["dealer"] if prev["redeal"] else (prev["dealer"] + 1) % 4)


def test_match_dealer_that_breaks_the_rotation_is_an_error() -> None:
    match = _sample()
    hands = match["hands"]
    assert isinstance(hands, list)
    hands[1]["dealer"] = (hands[0]["dealer"] + 2) % 4
    with pytest.raises(RecordError) as info:
        score_record(match)
    assert info.value.field == "hands[1].dealer"


def test_match_hands_after_the_game_is_won_are_an_error() -> None:
    match = _sample()
    hands = match["hands"]
    assert isinstance(hands, list)
    hands.append(copy.deepcopy(hands[-1]))
    with pytest.raises(RecordError) as info:
        score_record(match)
    assert info.value.field == f"hands[{len(hands) - 1}]" and "already won" in info.value.problem


def test_match_of_two_hands_to_a_low_target() -> None:
    """Both teams past the target on the same hand: the higher total wins."""
    r = score_record({"game": "clabber", "options": {"game_target": 100}, "hands": [BASE]})
    assert r["winner"] == 0 and r["totals"] == [128, 104]


def test_format_text_sheet() -> None:
    text = format_text(score_record(_sample()))
    assert "XXX" in text and "wins" in text and "total" in text
    hand = format_text(score_record({**BASE, "bidding": ["pass", "play"]}))
    assert "XXX" in hand and "trick 6" in hand


# -- the real command ------------------------------------------------------------------------


def _cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "cli.main", "score", *args],
        cwd=ROOT, input=stdin, capture_output=True, text=True, timeout=60,
    )  # fmt: skip


def test_cli_scores_the_sample_match(tmp_path: Path) -> None:
    done = _cli(str(SAMPLE))
    assert done.returncode == 0, done.stderr
    (line,) = done.stdout.splitlines()
    result = json.loads(line)
    assert result["record"] == 1 and result["type"] == "match" and result["over"] is True


def test_cli_text_sheet() -> None:
    done = _cli("--format", "text", str(SAMPLE))
    assert done.returncode == 0 and "XXX" in done.stdout and "score sheet" in done.stdout


def test_cli_json_lines_batch_with_one_bad_record(tmp_path: Path) -> None:
    bad = {**BASE, "tricks": [*BASE["tricks"][:2], ["10S", "AS", "QS"], *BASE["tricks"][3:]]}  # type: ignore[index]
    lines = [json.dumps(BASE), json.dumps(bad), json.dumps({**BASE, "bidding": ["pass", "play"]})]
    path = tmp_path / "batch.jsonl"
    path.write_text("\n".join(lines) + "\n")
    done = _cli(str(path))
    assert done.returncode == 2
    results = [json.loads(x) for x in done.stdout.splitlines()]
    assert [r["record"] for r in results] == [1, 3]
    assert results[0]["score"] == [128, 104] and results[1]["sheet"] == ["128", "XXX"]
    (err,) = done.stderr.strip().splitlines()
    assert (
        "record 2" in err
        and "tricks[2]" in err
        and "got 3" in err
        and "Traceback" not in done.stderr
    )


@pytest.mark.parametrize(
    ("text", "words"),
    [("{not json", "invalid JSON"), (json.dumps({**BASE, "upcard": "ZZ"}), "upcard")],
    ids=["invalid JSON", "unknown upcard"],
)
def test_cli_bad_input_prints_one_line_and_exits_2(text: str, words: str) -> None:
    done = _cli("-", stdin=text)
    assert done.returncode == 2 and done.stdout == ""
    assert len(done.stderr.strip().splitlines()) == 1 and words in done.stderr


TEAM0_RENEGE = [
    str(c) for c in cards("JH QH 10H 9H  AH KH JS 9D  10S AS QS 10C  10D AC JC AD  KS 9S KD")
]


def test_cards_recorded_after_a_renege_show_the_innocent_teams_melds() -> None:
    """Seat 2 discards AC on a diamond lead (trick 4) and shows KD in trick 5. Stopping there,
    team 1 scores 162 + bella; recording the rest lays down seat 3's QC KC: + the fifty."""
    short = score_record({**BASE, "tricks": _tricks(TEAM0_RENEGE)})
    (renege,) = short["reneges"]  # type: ignore[misc]
    assert (renege["seat"], renege["trick"], renege["card"], renege["proof"]) == (2, 4, "AC", "KD")
    assert short["score"] == [0, 162 + 20]
    full = score_record({**BASE, "tricks": _tricks([*TEAM0_RENEGE, "QC", "9C", "JD", "QD", "KC"])})
    assert full["score"] == [0, 162 + 20 + 50] and full["ignored_plays"] == 5


def test_installed_trickcam_script_scores_the_sample() -> None:
    """The console script itself (``pip install -e .`` puts it beside the interpreter)."""
    script = shutil.which("trickcam", path=str(Path(sys.executable).parent))
    need(script, f"the trickcam console script beside {sys.executable} (pip install -e .)")
    done = subprocess.run(
        [script, "score", "--format", "text", str(SAMPLE)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert "XXX" in done.stdout and "wins" in done.stdout
