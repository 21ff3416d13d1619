"""Clag records: reading, checking (errors name the field), scoring, sheets and the CLI."""

from __future__ import annotations

import copy
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from rules.clag.records import format_text, game_record, round_record
from rules.clag.simulate import random_game
from rules.errors import RecordError
from rules.records import score_record

ROOT = Path(__file__).resolve().parents[2]

# Round 3, 4 players, dealer 3: seat 0 leads. Trump hearts (7H turned).
ROUND3: dict[str, Any] = {
    "game": "clag",
    "players": 4,
    "round": 3,
    "dealer": 3,
    "trump_card": "7H",
    "contracts": [1, 0, 2, 1],
    "tricks": [
        ["AS", "KS", "2H", "3S"],  # seats 0 1 2 3: seat 2 trumps and wins
        ["4D", "5D", "AD", "6D"],  # seats 2 3 0 1: seat 0 wins with AD
        ["9C", "10C", "JC", "QC"],  # seats 0 1 2 3: seat 3 wins with QC
    ],
}


def test_a_normal_round_scores_tricks_and_exact_contracts() -> None:
    res = score_record(ROUND3)
    assert res["winners"] == [2, 0, 3]
    assert res["tricks_won"] == [1, 0, 1, 1]
    assert res["score"] == [11, 10, 1, 11]
    assert res["completed"] == [True, True, False, True]
    assert res["reneges"] == []


def _with(**changes: Any) -> dict[str, Any]:
    rec = copy.deepcopy(ROUND3)
    for key, value in changes.items():
        if value is None:
            rec.pop(key, None)
        else:
            rec[key] = value
    return rec


BAD = [
    (
        "contract breaking the dealer rule",
        _with(contracts=[1, 0, 1, 1]),
        "contracts[3]",
        "dealer's rule",
    ),
    ("contract above the hand size", _with(contracts=[4, 0, 2, 1]), "contracts[0]", "outside 0..3"),
    ("wrong number of contracts", _with(contracts=[1, 0, 2]), "contracts", "expected 4"),
    (
        "wrong hand size for the round",
        _with(tricks=ROUND3["tricks"][:2]),
        "tricks",
        "expected 3 tricks",
    ),
    (
        "wrong trick length",
        _with(tricks=[["AS", "KS", "2H"], *ROUND3["tricks"][1:]]),
        "tricks[0]",
        "expected 4 cards",
    ),
    (
        "card twice",
        _with(tricks=[ROUND3["tricks"][0], ["4D", "5D", "AD", "AS"], ROUND3["tricks"][2]]),
        "tricks[1][3]",
        "AS",
    ),
    (
        "unknown card",
        _with(tricks=[["AS", "KS", "2X", "3S"], *ROUND3["tricks"][1:]]),
        "tricks[0][2]",
        "2X",
    ),
    (
        "the turned card played",
        _with(tricks=[["AS", "KS", "7H", "3S"], *ROUND3["tricks"][1:]]),
        "tricks[0][2]",
        "turned trump",
    ),
    ("missing trump card", _with(trump_card=None), "trump_card", "missing"),
    (
        "wild two outside round 12",
        _with(tricks=[["AS", "KS", "2H=AS", "3S"], *ROUND3["tricks"][1:]]),
        "tricks[0][2]",
        "only in round 12",
    ),
    ("round out of range", _with(round=23), "round", "1 to 22"),
    ("too few players", _with(players=3), "players", "4 to 7"),
    ("dealer not a seat", _with(dealer=4), "dealer", "not a seat"),
    ("unknown option", _with(options={"dealer_rul": "exceed"}), "options", "dealer_rul"),
    ("bad option value", _with(options={"dealer_rule": "equal"}), "options", "'equal'"),
]


@pytest.mark.parametrize(("rule", "record", "field", "says"), BAD, ids=[b[0] for b in BAD])
def test_bad_round_records_name_the_field(
    rule: str, record: dict[str, Any], field: str, says: str
) -> None:
    with pytest.raises(RecordError) as err:
        score_record(record)
    assert err.value.field == field
    assert says in err.value.problem


def test_round_9_contracts_must_all_be_0_and_round_15_has_none() -> None:
    r9 = {
        "game": "clag",
        "players": 4,
        "round": 9,
        "dealer": 0,
        "trump_card": "7H",
        "contracts": [0, 1, 0, 0],
        "tricks": [],
    }
    with pytest.raises(RecordError, match=r"^contracts: every contract in round 9 is 0"):
        score_record(r9)
    r15 = {**r9, "round": 15, "contracts": [0, 0, 0, 0]}
    with pytest.raises(RecordError, match=r"^contracts: round 15 has no contracts"):
        score_record(r15)


def test_round_12_two_must_be_named_and_round_14_gives_trump() -> None:
    rng = random.Random(7)
    game = random_game(4, rng)
    r12 = round_record(game[11])
    twos = [(i, j) for i, t in enumerate(r12["tricks"]) for j, e in enumerate(t) if "=" in e]
    if twos:
        i, j = twos[0]
        r12["tricks"][i][j] = r12["tricks"][i][j].split("=")[0]
        with pytest.raises(
            RecordError, match=rf"^tricks\[{i}\]\[{j}\]: .*twos are wild in round 12"
        ):
            score_record(r12)
    r14 = round_record(game[13])
    assert r14["trump"] in "SHDC" and "trump_card" not in r14
    del r14["trump"]
    with pytest.raises(RecordError, match=r"^trump: missing"):
        score_record(r14)


def test_a_renege_in_a_record_is_reported_with_its_evidence_and_scores_0() -> None:
    rec = _with(
        contracts=[1, 0, 2, 1],
        tricks=[["AS", "2C", "2H", "3S"], ["4D", "5D", "AD", "6D"], ["9C", "KS", "JC", "10C"]],
    )
    res = score_record(rec)
    (r,) = res["reneges"]
    # seat 1 played 2C on a spade lead and later showed KS
    assert (r["seat"], r["trick"], r["card"], r["proof"], r["proof_trick"]) == (1, 1, "2C", "KS", 3)
    assert res["score"][1] == 0
    assert "renege (follow suit)" in format_text(res)


def test_random_games_round_trip_through_records() -> None:
    rng = random.Random(2026)
    for players in (4, 7):
        rounds = random_game(players, rng)
        rec = json.loads(json.dumps(game_record(rounds)))
        res = score_record(rec)
        totals = [sum(s.result().score[p] for s in rounds) for p in range(players)]
        assert res["totals"] == totals and res["finished"]
        assert [r["score"] for r in res["rounds"]] == [list(s.result().score) for s in rounds]
        assert res["ranking"][0]["total"] == max(totals)
        assert sum(res["completed_contracts"]) == sum(sum(s.result().completed) for s in rounds)
        sheet = format_text(res)
        assert "Final ranking" in sheet and f"{max(totals)} points" in sheet


def test_a_game_checks_the_dealer_sequence_and_round_numbers() -> None:
    rec = game_record(random_game(5, random.Random(1))[:4])
    ok = score_record(rec)
    assert not ok["finished"] and len(ok["rounds"]) == 4
    bad = copy.deepcopy(rec)
    bad["rounds"][2]["dealer"] = (bad["rounds"][2]["dealer"] + 1) % 5
    with pytest.raises(RecordError, match=r"^rounds\[2\]\.dealer: .*the deal passes left"):
        score_record(bad)
    bad = copy.deepcopy(rec)
    bad["rounds"][1]["round"] = 3
    with pytest.raises(RecordError, match=r"^rounds\[1\]\.round: 3 but the game implies 2"):
        score_record(bad)
    bad = copy.deepcopy(rec)
    bad["rounds"][3]["tricks"][1][0] = "ZZ"
    with pytest.raises(RecordError, match=r"^rounds\[3\]\.tricks\[1\]\[0\]: "):
        score_record(bad)


def test_the_cli_scores_single_rounds_games_and_json_lines(tmp_path: Path) -> None:
    rounds = random_game(6, random.Random(5))
    lines = [round_record(rounds[0]), game_record(rounds), {**ROUND3, "contracts": [1, 0, 1, 1]}]
    path = tmp_path / "clag.jsonl"
    path.write_text("\n".join(json.dumps(x) for x in lines) + "\n")
    run = subprocess.run(
        [sys.executable, "-m", "cli.main", "score", str(path)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert run.returncode == 2
    out = [json.loads(line) for line in run.stdout.splitlines()]
    assert [o["record"] for o in out] == [1, 2]
    assert out[0]["score"] == list(rounds[0].result().score)
    assert "record 3 (line 3): contracts[3]:" in run.stderr and "Traceback" not in run.stderr
