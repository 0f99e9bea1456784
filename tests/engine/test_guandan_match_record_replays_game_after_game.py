"""A Guandan match record replays hand after hand: each hand's verdicts and result, the
levels after it and the match's winner (record-format.md §8, "Match records")."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from games.engine.record import replay_any, replay_match

from .guandan_match_helpers import match_record

ROOT = Path(__file__).resolve().parents[2]


def test_each_hand_starts_from_the_end_of_the_one_before() -> None:
    output = replay_match(match_record("m01-match-won-at-ace")).to_dict()

    games = output["games"]
    assert isinstance(games, list) and len(games) == 2
    assert games[0]["result"]["levels"] == ["A", "2"]
    assert games[1]["match"] == {"levels": ["A", "2"], "failures": [0, 0], "previous": [0, 2, 3, 1]}


def test_the_output_names_the_match_winner_and_the_levels() -> None:
    output = replay_match(match_record("m01-match-won-at-ace")).to_dict()

    assert output["finished"] is True
    assert output["winner"] == 0
    assert output["levels"] == ["A", "2"]
    assert output["games"][1]["result"]["match_won"] is True  # type: ignore[index]


def test_a_match_in_progress_has_no_winner_and_its_last_hand_no_result() -> None:
    output = replay_match(match_record("m03-tribute-carried-into-the-next-hand")).to_dict()

    assert output["finished"] is False
    assert output["winner"] is None
    assert output["games"][1]["result"] is None  # type: ignore[index]
    assert output["levels"] == ["2", "4"]


def test_the_same_replay_for_text_and_for_a_decoded_record() -> None:
    record = match_record("m02-third-failure-at-ace-demotes")

    assert replay_any(json.dumps(record)).to_dict() == replay_match(record).to_dict()


def test_the_replay_command_prints_a_whole_match(tmp_path: Path) -> None:
    path = tmp_path / "match.json"
    path.write_text(json.dumps(match_record("m01-match-won-at-ace")), encoding="utf-8")

    done = subprocess.run(
        [sys.executable, "-m", "games.engine", "replay", str(path)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        check=False,
    )

    assert done.returncode == 0, done.stderr
    output = json.loads(done.stdout)
    assert [g["result"]["finish"] for g in output["games"]] == ["1-2", "1-2"]
    assert output["winner"] == 0
