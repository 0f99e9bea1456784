"""A table of n has places 1…n and at most n − 1 fouls (someone is left holding cards, and that
player has not fouled: REFERENCE §1.1 rules 18–19). A place beyond the table's size, or a value
the form does not offer, is refused `quick_place_out_of_range` on the console, offline and in
the correction form, and nothing is saved; the form offers no such place."""

from __future__ import annotations

import pytest
from django.utils import translation

from games.official_views import quick_outcome_choices
from games.offline import place_words
from tests.games.quick_entry_points import (
    answer_of,
    console,
    correction_form,
    finished,
    offline_judge,
    quick_table,
    snapshot,
)

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("beyond", ["clean-4", "foul-3", "clean-0", "second"])
def test_a_place_beyond_a_table_of_three_is_refused(beyond: str) -> None:
    at = quick_table()
    form = {"outcome_0": "clean-1", "outcome_1": beyond, "outcome_2": "clean-2"}
    before = snapshot(at.game)

    message, code = console(at, form)
    verdict = answer_of(offline_judge(at, form))

    assert code == "quick_place_out_of_range"
    assert message == (
        f"2番席（Baba）の「{beyond}」は3人の卓の順位ではありません。"
        "1. あがり〜3. あがり、反則、都落ちから選んでください。"
    )
    assert (verdict.code, verdict.message_ja) == (code, message)
    assert snapshot(at.game) == before


def test_the_correction_form_refuses_a_place_beyond_the_table() -> None:
    at = finished(quick_table(), [2, 0, 1])
    before = snapshot(at.game)
    form = {"outcome_0": "clean-1", "outcome_1": "clean-4", "outcome_2": "clean-2"}

    assert correction_form(at, form)[1] == "quick_place_out_of_range"
    assert correction_form(at, form, "save")[1] == "quick_place_out_of_range"
    assert snapshot(at.game) == before


@pytest.mark.parametrize("seats", [3, 4, 5])
def test_the_form_offers_places_one_to_n_and_fouls_one_to_n_minus_one(seats: int) -> None:
    values = [value for value, _ in quick_outcome_choices(seats)]

    assert values == [
        "",
        *[f"clean-{n}" for n in range(1, seats + 1)],
        *[f"foul-{n}" for n in range(1, seats)],
        "miyako",
    ]


@pytest.mark.parametrize("language", ["ja", "en"])
def test_refusals_name_the_places_in_the_forms_own_words(language: str) -> None:
    with translation.override(language):
        shown = {value: str(label) for value, label in quick_outcome_choices(4) if value}
    index = 1 if language == "ja" else 0

    assert {value: place_words(value, 4)[index] for value in shown} == shown
