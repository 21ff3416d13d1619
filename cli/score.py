"""``trickcam score``: score hand, round and match records of any game."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from pathlib import Path

from rules.errors import RecordError, RulesError
from rules.records import format_text, score_record

HELP = """\
Score hand, round or match records (JSON) and print one result per record.

FILE holds one record (a JSON object, pretty-printed or not), a JSON array of records, or JSON
Lines (one record per line). '-' reads standard input. A record names its game:
  {"game": "clabber", "dealer": 3, "upcard": "9H", "bidding": ["pass", "pass", "play"],
   "tricks": [["JH", "9H", "AH", "10H"], ...]}
  {"game": "clabber", "hands": [ ...hand records... ]}       a match to 500

Each result is one JSON line with "record" (its 1-based number). A record that cannot be read
prints one line on stderr naming the record, the field and the problem; the others are still
scored and the exit code is 2.
"""


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "score",
        help="score hand/match records (JSON or JSON Lines)",
        description=HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("file", metavar="FILE", help="record file, or '-' for standard input")
    p.add_argument(
        "--format",
        choices=("json", "text"),
        default="json",
        help="json: one JSON line per record (default); text: a score sheet",
    )
    p.set_defaults(func=run)


def _records(text: str) -> Iterator[tuple[str, object | RecordError]]:
    """Yield (label, record or the error reading it) for every record in ``text``."""
    stripped = text.strip()
    if not stripped:
        yield "input", RecordError("input", "empty: expected a JSON record")
        return
    try:
        whole = json.loads(stripped)
    except json.JSONDecodeError:
        whole = None
        lines = [(n, line) for n, line in enumerate(text.splitlines(), 1) if line.strip()]
        if len(lines) == 1:
            try:
                json.loads(lines[0][1])
            except json.JSONDecodeError as exc:
                yield (
                    "input",
                    RecordError("input", f"invalid JSON: {exc.msg} at column {exc.colno}"),
                )
                return
        for n, line in lines:
            try:
                yield f"line {n}", json.loads(line)
            except json.JSONDecodeError as exc:
                yield (
                    f"line {n}",
                    RecordError("json", f"invalid JSON: {exc.msg} at column {exc.colno}"),
                )
        return
    if isinstance(whole, list):
        for i, rec in enumerate(whole, 1):
            yield f"item {i}", rec
    else:
        yield "input", whole


def run(args: argparse.Namespace) -> int:
    if args.file == "-":
        text = sys.stdin.read()
        source = "<stdin>"
    else:
        path = Path(args.file)
        source = args.file
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            print(f"trickcam score: {source}: no such file", file=sys.stderr)
            return 2
        except (OSError, UnicodeDecodeError) as exc:
            print(f"trickcam score: {source}: cannot read: {exc}", file=sys.stderr)
            return 2
    failed = False
    for number, (label, rec) in enumerate(_records(text), 1):
        try:
            if isinstance(rec, RecordError):
                raise rec
            result = score_record(rec)
        except RulesError as exc:
            failed = True
            print(f"trickcam score: {source}: record {number} ({label}): {exc}", file=sys.stderr)
            continue
        if args.format == "text":
            print(f"== record {number} ({label}) ==")
            print(format_text(rec, result))
        else:
            print(json.dumps({"record": number, **result}, ensure_ascii=False))
    return 2 if failed else 0
