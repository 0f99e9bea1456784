"""Scoring's domain actions."""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import F, QuerySet
from django.utils import timezone

from games import outbox
from games.engine import DAIFUGO, EngineError, family_of
from games.models import Game, GameResult
from games.state import rules_for_game
from scoring import deal_strength
from scoring.models import DealStrength, Rating, RatingPoint, WorkerHeartbeat
from scoring.ratings import RatedGame, replay_ratings
from tournaments.models import Round, Tournament
from tournaments.points import points_for


def record_heartbeat(hostname: str) -> WorkerHeartbeat:
    """Note that the worker `hostname` is alive (an upsert, safe under concurrent workers)."""
    now = timezone.now()
    heartbeat, created = WorkerHeartbeat.objects.get_or_create(
        hostname=hostname, defaults={"seen_at": now, "beats": 1}
    )
    if not created:
        # Increment in SQL so two deliveries of the same beat never lose a count.
        WorkerHeartbeat.objects.filter(pk=heartbeat.pk).update(seen_at=now, beats=F("beats") + 1)
        heartbeat.refresh_from_db()
    return heartbeat


# Ratings across events (docs/ratings.md) -------------------------------------------------


def rated_games() -> QuerySet[Game]:
    """Every game that counts towards the ratings, in playing order: an individual rated
    tournament's games with current results in a settled round (complete or revealed), by the
    round's settling time, then table, set and game. A void game has no results; a corrected
    one counts as corrected."""
    team_events = [t.pk for t in Tournament.objects.filter(rated=True) if t.plays_in_teams]
    return (
        Game.objects.filter(
            table__round__stage__tournament__rated=True,
            table__round__status__in=Round.SETTLED,
            results__isnull=False,
        )
        .exclude(status=Game.Status.VOID)
        .exclude(table__round__stage__tournament_id__in=team_events)
        .distinct()
        .select_related("table__round__stage__tournament")
        .order_by(
            "table__round__completed_at",
            "table__round_id",
            "table__number",
            "set_number",
            "game_number",
            "attempt",
        )
    )


def _points_by_place(game: Game) -> list[int]:
    tournament = game.table.round.stage.tournament
    return [
        points_for(
            tournament.points_table,
            place=place,
            seats=game.seats,
            game_number=game.game_number,
            games_per_set=tournament.games_per_set,
        )
        for place in range(1, game.seats + 1)
    ]


def expected_by_seat(game: Game, points: Sequence[int]) -> list[float]:
    """What each seat's dealt hand was expected to score under the points `points` (by place),
    from the engine's baseline playouts (`scoring.deal_strength`). A game without every hand
    known, or of a family the baseline bot does not play (大財閥, 掼蛋), gets an empty estimate:
    no adjustment."""
    hands = list(game.hands or [])
    rules = rules_for_game(game)
    known = len(hands) == game.seats and all(h is not None for h in hands)
    if not (known and rules.family == DAIFUGO.name and game.match is None):
        return []
    family = family_of(rules)

    def start(by_seat: Sequence[Any]) -> Any:
        # The leader follows the rules (the opening card, or 大貧民 after the exchange), not
        # the seat that led in the game actually played.
        return family.new_game(rules, hands=list(by_seat), blind=game.blind, titles=game.titles)

    try:
        return list(
            deal_strength.expected_points(family, start, hands, points, seed=f"game-{game.pk}")
        )
    except EngineError:
        return []


def request_ratings_update() -> None:
    """Queue a ratings recompute after the writer's commit (`games.outbox`)."""
    outbox.enqueue("scoring.recompute_ratings")


@dataclass(frozen=True, slots=True)
class RatingsRecomputed:
    games: int
    players: int


def recompute_ratings() -> RatingsRecomputed:
    """Replay every rated game (`rated_games`, in playing order) through
    `scoring.ratings.replay_ratings`, adjusted and raw, and rewrite every `Rating` and
    `RatingPoint` in one transaction. Deterministic: the same games and results give the
    same rows, so running it twice, or concurrently with itself, converges."""
    games = list(rated_games())
    estimates = {s.game_id: s for s in DealStrength.objects.filter(game__in=games)}
    for game in games:
        by_place = _points_by_place(game)
        estimate = estimates.get(game.pk)
        # Estimated once: again only for another method, or a changed points table.
        if (
            estimate is None
            or estimate.method != deal_strength.METHOD
            or estimate.points_by_place != by_place
        ):
            estimates[game.pk], _ = DealStrength.objects.update_or_create(
                game=game,
                defaults={
                    "expected": expected_by_seat(game, by_place),
                    "method": deal_strength.METHOD,
                    "points_by_place": by_place,
                },
            )
    strengths = {game_id: estimate.expected for game_id, estimate in estimates.items()}
    results: dict[int, list[GameResult]] = {}
    for result in GameResult.objects.filter(game__in=games).select_related("entry"):
        results.setdefault(result.game_id, []).append(result)
    inputs: list[RatedGame[int]] = []
    for game in games:
        seats = sorted(results[game.pk], key=lambda r: r.seat)
        by_seat = strengths.get(game.pk) or []
        expected = (
            tuple(float(by_seat[r.seat]) for r in seats)
            if len(by_seat) == game.seats and all(r.seat < len(by_seat) for r in seats)
            else None
        )
        inputs.append(
            RatedGame(
                players=tuple(int(r.entry.player_id) for r in seats),
                points=tuple(float(r.points) for r in seats),
                places=tuple(r.place for r in seats),
                expected=expected,
            )
        )
    adjusted = replay_ratings(inputs, "adjusted")
    raw = replay_ratings(inputs, "raw")
    last_played: dict[int, datetime.datetime] = {}
    history: list[RatingPoint] = []
    for sequence, (game, after) in enumerate(zip(games, adjusted.history, strict=True), start=1):
        played_at = game.table.round.completed_at or game.created_at
        for player_id, (mu, sigma) in after.items():
            last_played[player_id] = played_at
            history.append(
                RatingPoint(
                    player_id=player_id,
                    game=game,
                    tournament_id=game.table.round.stage.tournament_id,
                    sequence=sequence,
                    played_at=played_at,
                    mu=mu,
                    sigma=sigma,
                )
            )
    ratings = [
        Rating(
            player_id=player_id,
            mu=rating.mu,
            sigma=rating.sigma,
            raw_mu=raw.ratings[player_id].mu,
            raw_sigma=raw.ratings[player_id].sigma,
            games=rating.games,
            updated_at=last_played[player_id],
        )
        for player_id, rating in sorted(adjusted.ratings.items())
    ]
    with transaction.atomic():
        RatingPoint.objects.all().delete()
        Rating.objects.all().delete()
        Rating.objects.bulk_create(ratings)
        RatingPoint.objects.bulk_create(history)
    return RatingsRecomputed(games=len(games), players=len(ratings))
