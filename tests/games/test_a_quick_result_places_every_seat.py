"""A quick result places every seat, and its places run 1, 2, … with none skipped (REFERENCE
§1.1 rule 19): a seat left blank, a seat the API leaves out and a place nobody took are refused
`quick_missing_place` from every entry point, and nothing is saved. The player left holding
cards may be given the form's last place ("N. out / left with cards") even when fouls took
places below: that is no gap."""

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
    post_console,
    quick_table,
    signed_in,
    snapshot,
)
from tournaments.models import Official

pytestmark = pytest.mark.django_db

FOUR = ("Aoki", "Baba", "Chiba", "Doi")


def test_a_seat_left_blank_is_refused_on_the_console_and_offline_alike() -> None:
    at = quick_table()
    form = {"outcome_0": "clean-1", "outcome_1": "clean-2", "outcome_2": ""}
    before = snapshot(at.game)

    message, code = console(at, form)
    verdict = answer_of(offline_judge(at, form))

    assert (message, code) == (
        "3番席（Chiba）の結果が選ばれていません。全員の結果を選んでください。保存していません。",
        "quick_missing_place",
    )
    assert (verdict.code, verdict.message_ja) == (code, message)
    assert verdict.message_en == (
        "seat 3 (Chiba): no outcome chosen. Give every player's outcome. Nothing was saved."
    )
    assert snapshot(at.game) == before


@pytest.mark.parametrize(
    ("form", "missing"),
    [
        # Two clean finishers numbered 2 and 3: nobody went out first.
        ({"outcome_0": "clean-2", "outcome_1": "clean-3", "outcome_2": "foul-1"}, "1. あがり"),
        # A third clean finisher, but nobody second.
        (
            {"outcome_0": "clean-1", "outcome_1": "clean-3", "outcome_2": "clean-4"}
            | {"outcome_3": "foul-1"},
            "2. あがり",
        ),
        # The second foul without a first.
        (
            {"outcome_0": "clean-1", "outcome_1": "clean-2", "outcome_2": "foul-2"}
            | {"outcome_3": "clean-3"},
            "反則1",
        ),
    ],
)
def test_a_place_nobody_took_is_refused(form: dict[str, str], missing: str) -> None:
    at = quick_table(FOUR if "outcome_3" in form else ("Aoki", "Baba", "Chiba"))

    message, code = console(at, form)

    assert code == "quick_missing_place"
    assert message.startswith(f"「{missing}」の人がいません。")
    assert answer_of(offline_judge(at, form)).message_ja == message
    assert at.game.results.count() == 0


@pytest.mark.parametrize("left", ["clean-3", "clean-4"])
def test_the_player_left_holding_cards_may_take_the_last_place_after_a_foul(left: str) -> None:
    # Chiba fouled (placed last); Doi went out first, Aoki second; Baba was left with cards —
    # chosen as "3. out" or as the form's "4. out / left with cards".
    at = quick_table(FOUR)
    form = {"outcome_0": "clean-2", "outcome_1": left, "outcome_2": "foul-1"}
    form["outcome_3"] = "clean-1"

    verdict = offline_judge(at, form)
    post_console(at, form)

    assert verdict["result"] == {"finishing_order": [3, 0, 1], "fouls": [2], "miyako_ochi": None}
    assert {r.seat: r.place for r in at.game.results.all()} == {3: 1, 0: 2, 1: 3, 2: 4}


def test_the_correction_form_refuses_a_blank_seat_and_keeps_the_result() -> None:
    at = finished(quick_table(), [2, 0, 1])
    before = snapshot(at.game)

    message, code = correction_form(at, {"outcome_0": "clean-1", "outcome_2": "clean-2"})

    assert code == "quick_missing_place"
    assert message.startswith("2番席（Baba）の結果が選ばれていません")
    assert snapshot(at.game) == before


def test_the_api_refuses_a_result_that_leaves_a_seat_out() -> None:
    at = quick_table(FOUR)
    before = snapshot(at.game)

    status, answer = api_quick(at, finishing_order=[0, 1])

    assert (status, answer.code) == (422, "quick_missing_place")
    assert answer.message_ja.startswith("3番席（Chiba）と4番席（Doi）の順位がありません")
    assert answer.message_en.startswith("seat 3 (Chiba) and seat 4 (Doi): no place given")
    assert snapshot(at.game) == before


def test_the_correction_api_refuses_a_result_that_leaves_a_seat_out() -> None:
    at = finished(quick_table(), [2, 0, 1])
    before = snapshot(at.game)

    assert api_correction(at, finishing_order=[2, 0])[1].code == "quick_missing_place"
    status, answer = api_correction(at, "save", finishing_order=[2, 0])

    assert (status, answer.code) == (400, "quick_missing_place")
    assert snapshot(at.game) == before


def test_a_guandan_hand_with_a_place_skipped_is_refused() -> None:
    # Seats 0 and 2 (partners) first and third, second left blank: once read as a 1-2 finish.
    referee = UserFactory(username="gd-gap-ref")
    table = console_guandan_table(referee, teams=("Team A", "Team B"))
    game = console_guandan_hand(table, mode="quick")
    before = snapshot(game)

    page = (
        signed_in(referee)
        .post(
            f"/referee/tables/{table.pk}/quick/",
            {"place_1": "0", "place_2": "", "place_3": "2"},
            HTTP_HX_REQUEST="true",
        )
        .content.decode()
    )

    assert "quick_missing_place" in page and "2位が空いています" in page
    assert snapshot(game) == before


def test_an_imported_guandan_hand_whose_previous_order_leaves_a_seat_out_is_refused() -> None:
    table = guandan_table(UserFactory(username="ref-gd-gap"))
    organiser = UserFactory(username="org-gd-gap")
    OfficialFactory(
        tournament=table.round.stage.tournament, user=organiser, role=Official.Role.ORGANISER
    )
    first = guandan_engine_record("hand 1")
    second = guandan_engine_record("hand 2", match=next_match(replay(first).state))
    second["match"]["previous"] = second["match"]["previous"][:3]

    outcomes = import_records(table, organiser, [first, second])

    refused = outcomes[1].to_dict()
    assert (refused["code"], refused["key"]) == ("quick_missing_place", "match.previous")
    assert Game.objects.filter(table=table).count() == 1
