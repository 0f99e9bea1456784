"""A quick result names only the seats at the table: a table of three has seats 1–3 (engine
seats 0–2). A form field for a fourth seat, an API seat beyond the table or below 0, a 掼蛋 seat
5 and an imported `match.previous` naming seat 8 are refused `quick_seat_not_at_table`, and
nothing is saved. (The API used to take any seat up to 4 and call a table of three's seat 3
"incomplete"; a seat 7 was a bare 400 `bad_request`.)"""

from __future__ import annotations

import pytest

from games.engine.guandan import next_match
from games.engine.record import replay
from games.imports import import_records
from games.models import Game
from tests.factories import (
    OfficialFactory,
    UserFactory,
    console_guandan_hand,
    console_guandan_table,
    guandan_engine_record,
    guandan_table,
)
from tests.games.quick_entry_points import (
    answer_of,
    api_correction,
    api_quick,
    console,
    correction_form,
    finished,
    offline_judge,
    quick_table,
    signed_in,
    snapshot,
)
from tournaments.models import Official

pytestmark = pytest.mark.django_db


def test_a_field_for_a_fourth_seat_is_refused_on_the_console_and_offline() -> None:
    at = quick_table()
    form = {"outcome_0": "clean-1", "outcome_1": "clean-2", "outcome_2": "clean-3"}
    form["outcome_3"] = "clean-3"
    before = snapshot(at.game)

    message, code = console(at, form)
    verdict = answer_of(offline_judge(at, form))

    assert (message, code) == (
        "この卓に4番席はありません（3人：1〜3番席）。保存していません。",
        "quick_seat_not_at_table",
    )
    assert (verdict.code, verdict.message_ja) == (code, message)
    assert verdict.message_en == (
        "There is no seat 4 at this table: it seats 3 (seats 1 to 3). Nothing was saved."
    )
    assert snapshot(at.game) == before


def test_the_correction_form_refuses_a_seat_not_at_the_table() -> None:
    at = finished(quick_table(), [2, 0, 1])
    before = snapshot(at.game)
    form = {"outcome_0": "clean-1", "outcome_1": "clean-2", "outcome_2": "clean-3"}

    assert correction_form(at, form | {"outcome_5": "clean-1"})[1] == "quick_seat_not_at_table"
    assert snapshot(at.game) == before


@pytest.mark.parametrize(
    ("body", "seat"),
    [
        ({"finishing_order": [0, 1, 3]}, 4),  # a table of three's "seat 3" (0-based)
        ({"finishing_order": [0, 1, 7]}, 8),
        ({"finishing_order": [0, 1], "fouls": [-1]}, 0),
        ({"finishing_order": [0, 1, 2], "miyako_ochi": 4}, 5),
    ],
)
def test_the_api_refuses_a_seat_not_at_the_table(body: dict[str, object], seat: int) -> None:
    at = quick_table()
    before = snapshot(at.game)

    status, answer = api_quick(at, **body)

    assert (status, answer.code) == (422, "quick_seat_not_at_table")
    assert answer.message_ja.startswith(f"この卓に{seat}番席（番号 {seat - 1}）はありません")
    assert f"There is no seat {seat} (seat index {seat - 1})" in answer.message_en
    assert snapshot(at.game) == before


def test_the_correction_api_refuses_a_seat_not_at_the_table() -> None:
    at = finished(quick_table(), [2, 0, 1])
    before = snapshot(at.game)

    assert api_correction(at, finishing_order=[2, 0, 3])[1].code == "quick_seat_not_at_table"
    status, answer = api_correction(at, "save", finishing_order=[2, 0, 9])

    assert (status, answer.code) == (400, "quick_seat_not_at_table")
    assert snapshot(at.game) == before


def test_a_guandan_hand_naming_a_fifth_seat_is_refused() -> None:
    referee = UserFactory(username="gd-seat-ref")
    table = console_guandan_table(referee, teams=("Team A", "Team B"))
    game = console_guandan_hand(table, mode="quick")
    before = snapshot(game)

    page = (
        signed_in(referee)
        .post(
            f"/referee/tables/{table.pk}/quick/",
            {"place_1": "0", "place_2": "4", "place_3": "1"},
            HTTP_HX_REQUEST="true",
        )
        .content.decode()
    )

    assert "quick_seat_not_at_table" in page and "この卓に5番席（番号 4）はありません" in page
    assert snapshot(game) == before


def test_an_imported_guandan_hand_whose_previous_order_names_seat_eight_is_refused() -> None:
    table = guandan_table(UserFactory(username="ref-gd-seat"))
    organiser = UserFactory(username="org-gd-seat")
    OfficialFactory(
        tournament=table.round.stage.tournament, user=organiser, role=Official.Role.ORGANISER
    )
    first = guandan_engine_record("hand 1")
    second = guandan_engine_record("hand 2", match=next_match(replay(first).state))
    second["match"]["previous"] = [*second["match"]["previous"][:3], 7]

    outcomes = import_records(table, organiser, [first, second])

    refused = outcomes[1].to_dict()
    assert (refused["code"], refused["key"]) == ("quick_seat_not_at_table", "match.previous")
    assert Game.objects.filter(table=table).count() == 1
