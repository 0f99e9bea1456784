"""A record becomes the table's next game only if it fits it: as many players as the table
seats (`seats_mismatch`), a full deal (`deal_incomplete`), every hand or none
(`deal_partly_known`), the titles the table's previous game gave (`titles_mismatch`), the
tournament's own game (`ruleset_mismatch`: a 掼蛋 match record is not a 大富豪 game), a valid
record (the engine's `invalid_record`, naming the key)."""

from __future__ import annotations

import pytest

from games.engine.record import export_match_record, load_record
from games.imports import import_records, read_records
from games.models import Game
from tests.factories import engine_record, guandan_engine_record, seated_table, titles_after

from .conftest import Crew

pytestmark = pytest.mark.django_db


def refusal(crew: Crew, record: object) -> tuple[str, str]:
    [outcome] = import_records(crew.table, crew.organiser, [record])
    assert outcome.status == "refused"
    assert not Game.objects.filter(table=crew.table).exists()
    return outcome.code, outcome.key


def test_a_table_of_five_refuses_a_record_of_four(crew: Crew) -> None:
    table = seated_table(names=("A", "B", "C", "D", "E"))
    table.round.stage.tournament.officials.create(user=crew.organiser, role="organiser")

    [outcome] = import_records(table, crew.organiser, [engine_record("four")])

    assert (outcome.code, outcome.key) == ("seats_mismatch", "seats")


def test_a_few_cards_each_is_not_a_tournament_game(crew: Crew) -> None:
    puzzle = {
        "format": "kakumei-record/1",
        "rules": "jdf@1",
        "hands": [["3S", "9D"], ["4H"], ["5C", "2D"], ["6D"]],
        "moves": [
            {"seat": 0, "play": ["3S"]},
            {"seat": 1, "play": ["4H"]},
            {"seat": 2, "play": ["2D"]},
            {"seat": 3, "pass": True},
            {"seat": 0, "pass": True},
            {"seat": 2, "play": ["5C"]},
            {"seat": 3, "play": ["6D"]},
        ],
    }

    assert refusal(crew, puzzle) == ("deal_incomplete", "hands")


def test_some_hands_known_and_some_not_is_refused(crew: Crew) -> None:
    record = engine_record("half known")
    record["counts"] = [len(hand) for hand in record["hands"]]
    record["hands"] = [record["hands"][0], None, None, None]
    record["leader"] = record["moves"][0]["seat"]

    assert refusal(crew, record) == ("deal_partly_known", "hands")


def test_a_first_game_of_a_set_has_no_titles(crew: Crew) -> None:
    earlier = engine_record("earlier")
    later = engine_record("later", titles=titles_after(earlier))

    assert refusal(crew, later) == ("titles_mismatch", "titles")


def test_the_second_game_carries_the_first_games_titles(crew: Crew) -> None:
    first = engine_record("first")
    wrong = engine_record("second", titles=list(reversed(titles_after(first))))

    outcomes = import_records(crew.table, crew.organiser, [first, wrong])

    assert [(o.status, o.code) for o in outcomes] == [
        ("imported", ""),
        ("refused", "titles_mismatch"),
    ]


def test_a_record_the_engine_cannot_read_names_the_key_at_fault(crew: Crew) -> None:
    record = engine_record("typo")
    record["moves"][0] = {**record["moves"][0], "play": ["ZZ"]}

    code, key = refusal(crew, record)

    assert code == "unknown_card" and key.startswith("moves[0]")


def test_a_line_that_is_not_json_is_refused_by_its_line(crew: Crew) -> None:
    [unreadable] = read_records('{"format": "kakumei-record/1"\nnot json either')[:1]

    assert refusal(crew, unreadable)[0] == "not_json"


def test_a_guandan_match_record_is_not_a_daifugo_tables_game(crew: Crew) -> None:
    hand = load_record(guandan_engine_record("a hand of another game"))
    match = export_match_record([(hand.initial_state(), hand.moves)])

    assert refusal(crew, match) == ("ruleset_mismatch", "games[0].rules")


def test_a_match_record_without_hands_is_not_valid(crew: Crew) -> None:
    match = {"format": "kakumei-record/1", "rules": "guandan-cn@1", "games": []}

    assert refusal(crew, match) == ("invalid_record", "games")
