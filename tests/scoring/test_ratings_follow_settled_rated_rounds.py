"""The ratings job: a rated tournament's settled round rates its players (the Celery job runs
after commit), an unrated one does not count, and a correction in a settled round changes the
ratings."""

from __future__ import annotations

from typing import Any

import pytest

from games import services as game_services
from games.models import Game
from scoring.models import DealStrength, Rating, RatingPoint
from scoring.services import recompute_ratings
from tests.factories import tournament_played_out
from tournaments import services
from tournaments.models import Player
from tournaments.points import preset_points_table

pytestmark = pytest.mark.django_db


def test_completing_a_rated_round_rates_every_player_of_it(
    django_capture_on_commit_callbacks: Any,
) -> None:
    round_, _referee, organiser = tournament_played_out(tables=2, games_per_set=2, rated=True)
    assert not Rating.objects.exists()  # the round is not settled yet
    with django_capture_on_commit_callbacks(execute=True):
        services.complete_round(round_, organiser)
    games = Game.objects.filter(table__round=round_)
    assert Rating.objects.count() == 8
    assert all(r.games == 2 for r in Rating.objects.all())
    # Every known deal has its estimate: one expectation per seat, in the points table's range.
    strengths = DealStrength.objects.filter(game__in=games)
    assert strengths.count() == games.count() == 4
    for strength in strengths:
        assert len(strength.expected) == 4
        assert all(0 <= e <= 3 for e in strength.expected)
    assert RatingPoint.objects.count() == 16
    # A player's history follows the games in playing order.
    player = Player.objects.filter(rating__isnull=False).first()
    assert player is not None
    sequences = list(player.rating_points.values_list("sequence", flat=True))
    assert sequences == sorted(sequences) and len(sequences) == 2


def test_an_unrated_tournament_moves_no_rating(django_capture_on_commit_callbacks: Any) -> None:
    round_, _referee, organiser = tournament_played_out(tables=1, games_per_set=1)
    with django_capture_on_commit_callbacks(execute=True):
        services.complete_round(round_, organiser)
    recompute_ratings()
    assert not Rating.objects.exists()
    assert not RatingPoint.objects.exists()


def test_the_recompute_is_idempotent() -> None:
    round_, _referee, organiser = tournament_played_out(tables=1, games_per_set=2, rated=True)
    services.complete_round(round_, organiser)
    recompute_ratings()
    first = list(Rating.objects.order_by("player").values_list("player", "mu", "sigma", "games"))
    recompute_ratings()
    again = list(Rating.objects.order_by("player").values_list("player", "mu", "sigma", "games"))
    assert first == again and len(first) == 4


def test_a_corrected_result_in_a_settled_round_changes_the_ratings(
    django_capture_on_commit_callbacks: Any,
) -> None:
    round_, _referee, organiser = tournament_played_out(tables=1, games_per_set=1, rated=True)
    with django_capture_on_commit_callbacks(execute=True):
        services.complete_round(round_, organiser)
    game = Game.objects.get(table__round=round_)
    winner = game.results.get(place=1)
    before = Rating.objects.get(player=winner.entry.player).mu
    # The winner finishes last instead.
    order = [r.seat for r in game.results.order_by("place")]
    corrected = [*order[1:], order[0]]
    with django_capture_on_commit_callbacks(execute=True):
        game_services.correct_result(
            game,
            organiser,
            finishing_order=corrected,
            reason="scorer swapped the sheets",
            based_on_version=game.result_version,
        )
    assert Rating.objects.get(player=winner.entry.player).mu < before


def test_toggling_rated_off_takes_the_games_out(django_capture_on_commit_callbacks: Any) -> None:
    round_, _referee, organiser = tournament_played_out(tables=1, games_per_set=1, rated=True)
    with django_capture_on_commit_callbacks(execute=True):
        services.complete_round(round_, organiser)
    assert Rating.objects.count() == 4
    tournament = round_.stage.tournament
    with django_capture_on_commit_callbacks(execute=True):
        services.update_tournament_settings(tournament, organiser, rated=False)
    assert not Rating.objects.exists()


def test_a_new_points_table_re_estimates_the_deals(django_capture_on_commit_callbacks: Any) -> None:
    round_, _referee, organiser = tournament_played_out(tables=1, games_per_set=1, rated=True)
    with django_capture_on_commit_callbacks(execute=True):
        services.complete_round(round_, organiser)
    strength = DealStrength.objects.get(game__table__round=round_)
    assert strength.points_by_place == [3, 2, 1, 0]
    with django_capture_on_commit_callbacks(execute=True):
        services.update_tournament_settings(
            round_.stage.tournament, organiser, points_table=preset_points_table("5-4-3-2-1")
        )
    strength.refresh_from_db()
    assert strength.points_by_place == [4, 3, 2, 1]
    assert all(1 <= e <= 4 for e in strength.expected)
