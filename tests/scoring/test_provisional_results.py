"""A game's result is provisional (暫定) until a second official confirms it. The standings
count it in the points and say how many of the games are provisional; the confirmed points
leave it out. Confirming the game — or a ruling that ends it, such as a forfeit — makes it
confirmed, and the standings follow by themselves."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from games import services
from games.models import Game
from scoring.models import Standing
from scoring.standings import ScopeRef, recompute_tournament, standings
from tests.factories import finished_game
from tests.games.conftest import Crew
from tests.scoring.conftest import Cup, seat_round


def _board(tournament_id: int) -> dict[str, Standing]:
    return {row.player.display_name: row for row in standings(ScopeRef.tournament(tournament_id))}


def _quick_game(crew: Crew, order: list[int]) -> Game:
    game = services.start_game(crew.table, crew.referee, mode=Game.Mode.QUICK)
    services.record_quick_result(game, crew.referee, order)
    return game


def test_an_unconfirmed_game_counts_and_is_flagged_provisional(
    crew: Crew, django_capture_on_commit_callbacks: Callable[..., Any]
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        _quick_game(crew, [1, 0, 2, 3])

    baba = _board(crew.tournament.pk)["Baba"]
    assert (baba.points, baba.games, baba.provisional_games, baba.confirmed_points) == (3, 1, 1, 0)


def test_confirming_the_game_makes_it_count_as_confirmed(
    crew: Crew, django_capture_on_commit_callbacks: Callable[..., Any]
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        game = _quick_game(crew, [1, 0, 2, 3])

    with django_capture_on_commit_callbacks(execute=True):
        services.confirm_game(game, crew.head_referee)

    board = _board(crew.tournament.pk)
    assert [(n, r.provisional_games, r.confirmed_points) for n, r in board.items()] == [
        ("Baba", 0, 3),
        ("Aoki", 0, 2),
        ("Chiba", 0, 1),
        ("Doi", 0, 0),
    ]


def test_a_game_ended_by_a_forfeit_is_confirmed(
    crew: Crew, django_capture_on_commit_callbacks: Callable[..., Any]
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        game = services.start_game(crew.table, crew.referee, mode=Game.Mode.QUICK)

    with django_capture_on_commit_callbacks(execute=True):
        services.forfeit_seat(
            game, crew.head_referee, seat=3, reason="felt unwell 体調不良", order=[1, 0, 2]
        )

    doi, baba = _board(crew.tournament.pk)["Doi"], _board(crew.tournament.pk)["Baba"]
    assert (doi.games, doi.provisional_games) == (1, 0)
    assert (baba.points, baba.confirmed_points) == (3, 3)


def test_only_the_unconfirmed_games_of_a_player_are_provisional(cup: Cup) -> None:
    (table,) = seat_round(cup.stage, cup.entries[:4])
    aoki, baba, chiba, doi = cup.entries[:4]
    finished_game(table, [aoki, baba, chiba, doi], game_number=1, confirmed=True)
    finished_game(table, [baba, aoki, chiba, doi], game_number=2)
    finished_game(table, [baba, chiba, aoki, doi], game_number=3)

    recompute_tournament(cup.tournament.pk)

    board = _board(cup.tournament.pk)
    assert (board["Baba"].points, board["Baba"].confirmed_points) == (8, 2)
    assert (board["Aoki"].points, board["Aoki"].confirmed_points) == (6, 3)
    assert [board[n].provisional_games for n in ("Aoki", "Baba", "Chiba", "Doi")] == [2, 2, 2, 2]
    # Ranked on every result; on confirmed results only, Aoki leads.
    assert (board["Baba"].rank, board["Aoki"].rank) == (1, 2)
    assert (board["Aoki"].confirmed_rank, board["Baba"].confirmed_rank) == (1, 2)
