"""What an organiser uploads or pastes is read as records whatever its shape: one record, a
JSON array, `{"records": [...]}` or JSON lines (blank lines skipped, a byte-order mark
ignored); a downloaded line's wrapper (`{"game": …, "record": {…}}`) gives its record; a line
that is not JSON is kept as unreadable, by its line number, without hiding the others."""

from __future__ import annotations

import json

from games.imports import Unreadable, read_records

A = {"format": "kakumei-record/1", "hands": [["3S"], ["4S"], ["5S"], ["6S"]]}
B = {**A, "leader": 1}


def test_one_record() -> None:
    assert read_records(json.dumps(A)) == [A]


def test_an_array_and_a_records_object() -> None:
    assert read_records(json.dumps([A, B])) == [A, B]
    assert read_records(json.dumps({"records": [A, B]})) == [A, B]


def test_json_lines_with_wrapped_records_and_a_byte_order_mark() -> None:
    text = "\ufeff" + json.dumps({"game": {"id": 7}, "record": A}) + "\n\n" + json.dumps(B) + "\n"

    assert read_records(text) == [A, B]


def test_a_line_that_is_not_json_is_named_by_its_number() -> None:
    text = json.dumps(A) + "\n{oops\n" + json.dumps(B)

    found = read_records(text)

    assert found[0] == A and found[2] == B
    assert isinstance(found[1], Unreadable) and found[1].line == 2


def test_nothing_is_no_records() -> None:
    assert read_records("  \n ") == []
