"""Command line: ``python -m games.engine replay FILE|-`` and ``conformance [DIR]``.

``replay`` prints the replay output of record-format.md as one JSON object (for a match
record, record-format.md §8: each game's verdicts and result, the levels, the winner); exit
status 0 when the record was read (whatever the verdicts), 2 when it is not a
valid record (message on stderr naming the key or card at fault).
``conformance`` runs conformance vectors and exits 1 if any fails.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from .errors import EngineError
from .record import CONFORMANCE_DIR, check_vector, load_vectors, replay_any


def _replay(path: str) -> int:
    try:
        text = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        print(f"error: cannot read {path}: {exc}", file=sys.stderr)
        return 2
    try:
        result = replay_any(text)
    except EngineError as exc:
        print(f"error: not a valid record: {exc}", file=sys.stderr)
        return 2
    json.dump(result.to_dict(), sys.stdout, ensure_ascii=False, indent=2)
    sys.stdout.write("\n")
    return 0


def _conformance(directory: str) -> int:
    failures = 0
    vectors = load_vectors(directory)
    for path, vector in vectors:
        try:
            problems = check_vector(vector)
        except EngineError as exc:
            problems = [f"invalid vector: {exc}"]
        status = "ok" if not problems else "FAIL"
        print(f"{status:4} {path}")
        for problem in problems:
            print(f"     {problem}")
        failures += bool(problems)
    print(f"{len(vectors) - failures}/{len(vectors)} vectors pass")
    return 1 if failures else 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m games.engine")
    sub = parser.add_subparsers(dest="command", required=True)
    p_replay = sub.add_parser(
        "replay",
        help="replay a kakumei-record/1 file (one game or a whole match) and print verdicts",
    )
    p_replay.add_argument("file", help="record file, or - for stdin")
    p_conf = sub.add_parser("conformance", help="run conformance vectors")
    p_conf.add_argument("directory", nargs="?", default=str(CONFORMANCE_DIR))
    args = parser.parse_args(argv)
    if args.command == "replay":
        return _replay(args.file)
    return _conformance(args.directory)


if __name__ == "__main__":
    sys.exit(main())
