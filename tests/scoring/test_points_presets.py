"""Points presets (all labelled non-JDF), the last-game bonus, organiser tables, and that a
finished game's GameResult points come from the same function."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.utils import translation

from games.models import Game
from games.services import record_quick_result, start_game
from tests.games.conftest import Crew
from tournaments.models import Tournament
from tournaments.points import (
    PRESETS,
    custom_points_table,
    points_for,
    preset_points_table,
    tie_breaks,
    validate_points_table,
)


@pytest.mark.parametrize(
    ("preset", "four_seats"),
    [
        ("3-2-1-0", [3, 2, 1, 0]),
        ("plus2-minus2", [2, 1, -1, -2]),
        ("5-4-3-2-1", [4, 3, 2, 1]),
        ("50-30-20-10-last70", [50, 30, 20, 10]),
    ],
)
def test_each_preset_scores_a_table_of_four(preset: str, four_seats: list[int]) -> None:
    table = preset_points_table(preset)

    validate_points_table(table, table_size=4)
    assert [
        points_for(table, place=p, seats=4, game_number=1, games_per_set=4) for p in (1, 2, 3, 4)
    ] == four_seats


def test_every_preset_says_it_is_not_jdf() -> None:
    with translation.override("en"):  # the labels are lazy: read in English, whatever ran before
        assert all("not JDF" in str(label) for label, _ in PRESETS.values())


def test_the_last_game_of_a_set_pays_seventy_to_first_place_only() -> None:
    table = preset_points_table("50-30-20-10-last70")

    last = [
        points_for(table, place=p, seats=4, game_number=4, games_per_set=4) for p in (1, 2, 3, 4)
    ]
    third = [
        points_for(table, place=p, seats=4, game_number=3, games_per_set=4) for p in (1, 2, 3, 4)
    ]

    assert last == [70, 30, 20, 10]
    assert third == [50, 30, 20, 10]
    # Sets of three games (the DQX-style format): game 3 is the last one.
    assert points_for(table, place=1, seats=4, game_number=3, games_per_set=3) == 70


def test_an_organiser_table_with_its_own_bonus_and_tie_breaks() -> None:
    table = custom_points_table(
        {4: [10, 6, 3, 0]}, last_game_bonus={1: 5, 2: 2}, tie_break_keys=["points", "best_set"]
    )

    assert table["preset"] == "custom"
    assert points_for(table, place=2, seats=4, game_number=4, games_per_set=4) == 8
    assert tie_breaks(table) == ("points", "best_set")


@pytest.mark.parametrize(
    "extra",
    [
        {"last_game_bonus": {"6": 1}},
        {"last_game_bonus": {"1": "20"}},
        {"tie_breaks": ["points", "coin_toss"]},
        {"tie_breaks": ["points", "points"]},
    ],
)
def test_malformed_bonuses_and_tie_breaks_are_refused(extra: dict[str, object]) -> None:
    with pytest.raises(ValidationError):
        validate_points_table({"places": {"4": [3, 2, 1, 0]}, **extra})


def test_tie_breaks_always_start_with_points() -> None:
    assert tie_breaks({"tie_breaks": ["fewer_fouls"]}) == ("points", "fewer_fouls")
    assert tie_breaks({})[:3] == ("points", "daifugo", "fugo")


def test_a_quick_result_in_the_last_game_of_a_set_is_written_with_the_bonus(crew: Crew) -> None:
    Tournament.objects.filter(pk=crew.tournament.pk).update(
        points_table=preset_points_table("50-30-20-10-last70"), games_per_set=1
    )
    game = start_game(crew.table, crew.referee, mode=Game.Mode.QUICK)

    results = record_quick_result(game, crew.referee, [2, 0, 3, 1]).results

    assert [(r.seat, r.place, r.points) for r in results] == [
        (2, 1, 70),
        (0, 2, 30),
        (3, 3, 20),
        (1, 4, 10),
    ]
