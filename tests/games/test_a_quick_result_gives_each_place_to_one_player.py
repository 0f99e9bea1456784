"""A place of a quick result goes to one player (REFERENCE §1.1 rule 19: places 1…n, each
once). Issue #35: on a table of three, choosing places 3, 3, 1 was saved as 2, 3, 1 with no
error. Two seats on one place — or one seat named twice — is now refused `quick_duplicate_place`
from every entry point, in the reader's language, and nothing is saved."""

from __future__ import annotations

import pytest

from games import services
from games.engine.guandan import next_match
from games.engine.record import replay
from games.imports import import_records
from games.models import Game
from tests.factories import (
    OfficialFactory,
    UserFactory,
    console_guandan_hand,
    console_guandan_table,
    daizaibatsu_table,
    guandan_engine_record,
    guandan_table,
)
from tests.games.quick_entry_points import (
    QuickTable,
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

# The bug as reported: Aoki and Baba both chose "3. out / left with cards", Chiba "1. out".
THREE_THREE_ONE = {"outcome_0": "clean-3", "outcome_1": "clean-3", "outcome_2": "clean-1"}
# Written from the rule and the form's own words (3. あがり／残り), seats numbered from 1.
JA = (
    "1番席（Aoki）と2番席（Baba）が同じ「3. あがり／残り」になっています。順位は一人ずつです。"
    "保存していません。"
)
EN = (
    "seat 1 (Aoki) and seat 2 (Baba) both chose “3. out / left with cards”: each place goes "
    "to one player. Nothing was saved."
)


def test_three_three_one_is_refused_on_the_console_in_japanese_and_nothing_is_saved() -> None:
    at = quick_table()
    before = snapshot(at.game)

    assert console(at, THREE_THREE_ONE) == (JA, "quick_duplicate_place")
    assert snapshot(at.game) == before
    assert at.game.results.count() == 0


def test_the_offline_judge_refuses_it_with_the_same_code_and_message_before_queueing() -> None:
    at = quick_table()

    verdict = answer_of(offline_judge(at, THREE_THREE_ONE))

    assert (verdict.code, verdict.message_en, verdict.message_ja) == (
        "quick_duplicate_place",
        EN,
        JA,
    )
    # The same form on the console answers the same words.
    assert console(at, THREE_THREE_ONE) == (verdict.message_ja, verdict.code)


def test_two_fouls_numbered_alike_are_refused_too() -> None:
    at = quick_table(("Aoki", "Baba", "Chiba", "Doi"))
    form = {"outcome_0": "clean-1", "outcome_1": "clean-2", "outcome_2": "foul-1"}
    form["outcome_3"] = "foul-1"

    message, code = console(at, form)

    assert code == "quick_duplicate_place"
    assert message.startswith("3番席（Chiba）と4番席（Doi）が同じ「反則1」")
    assert answer_of(offline_judge(at, form)).message_ja == message
    assert at.game.results.count() == 0


def test_the_correction_form_refuses_three_three_one_and_keeps_the_result() -> None:
    at = finished(quick_table(), [2, 0, 1])
    before = snapshot(at.game)

    assert correction_form(at, THREE_THREE_ONE) == (JA, "quick_duplicate_place")
    assert correction_form(at, THREE_THREE_ONE, "save") == (JA, "quick_duplicate_place")
    assert snapshot(at.game) == before


@pytest.mark.parametrize(
    "body",
    [
        {"finishing_order": [2, 0, 0]},  # seat 1 twice, seat 2 never
        {"finishing_order": [2, 0], "fouls": [2]},  # seat 3 clean and fouled
    ],
)
def test_the_api_refuses_a_seat_named_twice(body: dict[str, list[int]]) -> None:
    at = quick_table()
    before = snapshot(at.game)

    status, answer = api_quick(at, **body)

    assert (status, answer.code) == (422, "quick_duplicate_place")
    assert "順位は一人に一つです" in answer.message_ja and "Nothing was saved" in answer.message_en
    assert snapshot(at.game) == before


def test_the_correction_api_refuses_a_seat_named_twice() -> None:
    at = finished(quick_table(), [2, 0, 1])
    before = snapshot(at.game)

    assert api_correction(at, finishing_order=[1, 1, 0])[0] == 422
    status, answer = api_correction(at, "save", finishing_order=[1, 1, 0])

    assert (status, answer.code) == (400, "quick_duplicate_place")
    assert answer.message_ja.startswith("2番席（Baba）に複数の順位がついています")
    assert snapshot(at.game) == before


def test_a_daizaibatsu_quick_result_refuses_two_players_on_one_place() -> None:
    referee = UserFactory(username="dz-dup-ref")
    table = daizaibatsu_table(referee, names=("Aoki", "Baba", "Chiba", "Doi"))
    at = QuickTable(services.start_game(table, referee, mode=Game.Mode.QUICK), referee, referee)
    form = {"outcome_0": "clean-4", "outcome_1": "clean-4", "outcome_2": "clean-1"}
    form["outcome_3"] = "clean-2"
    before = snapshot(at.game)

    message, code = console(at, form)

    assert code == "quick_duplicate_place"
    assert message.startswith("1番席（Aoki）と2番席（Baba）が同じ「4. あがり／残り」")
    assert snapshot(at.game) == before


def test_a_guandan_hand_refuses_one_seat_in_two_places_on_the_console() -> None:
    referee = UserFactory(username="gd-dup-ref")
    table = console_guandan_table(referee, teams=("Team A", "Team B"))
    game = console_guandan_hand(table, mode="quick")
    before = snapshot(game)

    page = signed_in(referee).post(
        f"/referee/tables/{table.pk}/quick/",
        {"place_1": "0", "place_2": "0", "place_3": "1"},
        HTTP_HX_REQUEST="true",
    )

    assert "quick_duplicate_place" in page.content.decode()
    assert snapshot(game) == before


def test_an_imported_guandan_hand_whose_previous_order_repeats_a_seat_is_refused() -> None:
    table = guandan_table(UserFactory(username="ref-gd-import"))
    organiser = UserFactory(username="org-gd-import")
    OfficialFactory(
        tournament=table.round.stage.tournament, user=organiser, role=Official.Role.ORGANISER
    )
    first = guandan_engine_record("hand 1")
    second = guandan_engine_record("hand 2", match=next_match(replay(first).state))
    second["match"]["previous"] = [0, 0, 1, 2]

    outcomes = import_records(table, organiser, [first, second])

    assert [o.status for o in outcomes] == ["imported", "refused"]
    refused = outcomes[1].to_dict()
    assert (refused["code"], refused["key"]) == ("quick_duplicate_place", "match.previous")
    assert "1番席に複数の順位がついています" in refused["message_ja"]
    assert Game.objects.filter(table=table).count() == 1


def test_a_place_chosen_once_each_is_still_accepted() -> None:
    at = quick_table()
    form = {"outcome_0": "clean-3", "outcome_1": "clean-2", "outcome_2": "clean-1"}

    verdict = offline_judge(at, form)
    post_console(at, form)

    assert verdict["ok"] and verdict["result"]["finishing_order"] == [2, 1, 0]
    assert {r.seat: r.place for r in at.game.results.all()} == {2: 1, 1: 2, 0: 3}
