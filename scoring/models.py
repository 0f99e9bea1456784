"""Scoring: standings per scope, their versions, long recompute runs, webhooks, worker health.

Standings are derived data: `scoring.standings.recompute_scope` deletes and re-inserts a
scope's rows from `GameResult` in one SQL statement under a per-scope lock, never increments, so
rows can be rebuilt at any time (twice, concurrently, after a crash) and come out the same.

A *scope* is a tournament (every stage), a stage (with earlier stages when it carries totals
over) or a league season (every tournament of the season, per player).
"""

from __future__ import annotations

import secrets
from typing import ClassVar
from uuid import uuid4

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from scoring.ratings import display_rating, display_spread


class Scope(models.TextChoices):
    TOURNAMENT = "tournament", _("Tournament")
    STAGE = "stage", _("Stage")
    SEASON = "season", _("Season")


class Standing(models.Model):
    """One competitor's line in a scope's standings (順位表)."""

    scope = models.CharField(max_length=12, choices=Scope.choices)
    # No index of their own on tournament, stage, season and player: each leads one of the
    # indexes in Meta, and every recompute rewrites a scope's rows, paying for each index.
    tournament = models.ForeignKey(
        "tournaments.Tournament",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="standings",
        db_index=False,
    )
    stage = models.ForeignKey(
        "tournaments.Stage",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="+",
        db_index=False,
    )
    season = models.ForeignKey(
        "tournaments.Season",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="+",
        db_index=False,
    )
    # Tournament and stage standings are per entry; season standings per player (a player
    # has one entry per tournament).
    entry = models.ForeignKey(
        "tournaments.Entry", null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    player = models.ForeignKey(
        "tournaments.Player", on_delete=models.CASCADE, related_name="+", db_index=False
    )
    points = models.IntegerField()
    games = models.PositiveIntegerField()
    # The game family's metric counts by `Metric.key` (大富豪: titles, fouls, 都落ち), as the
    # family declares them (`scoring.standings.scope_metrics`); confirmed and provisional alike.
    metrics = models.JSONField(default=dict, blank=True)
    # The most points scored in one set (None: no game played yet).
    best_set = models.IntegerField(null=True, blank=True)
    # Points deducted by active penalties (減点) in the scope; `points` is already net of them.
    penalty_points = models.PositiveIntegerField(default=0)
    # Active warnings (警告) in the scope: shown, never deducted.
    warnings = models.PositiveIntegerField(default=0)
    # Games counted in `games` (and `points`) whose result is provisional (暫定): finished but
    # not yet confirmed by a second official.
    provisional_games = models.PositiveIntegerField(default=0)
    # Points from confirmed results only (confirmed, or ended by a forfeit), minus deductions:
    # what cut lines and stage advancement count.
    confirmed_points = models.IntegerField(default=0)
    # Duplicate Daifugo's par (docs/duplicate.md): the sum over the competitor's duplicate games
    # of their points minus the mean of the other holders of the same hand, and how many games
    # it counts. None where the scope has no duplicate game.
    duplicate_points = models.DecimalField(max_digits=10, decimal_places=2, null=True, blank=True)
    duplicate_games = models.PositiveIntegerField(default=0, db_default=0)
    # The latest stage the entrant took part in (到達, `scoring.standings.stages_reached`):
    # shown on every board; the tournament's rank orders by it first. None for a season's
    # rows and for an entrant who has played no stage yet.
    reached_stage = models.ForeignKey(
        "tournaments.Stage",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        db_index=False,
    )
    rank = models.PositiveIntegerField()
    # Equal on every tie-break key with someone else: the rank is shared (同順位).
    shared = models.BooleanField(default=False)
    # The rank by the same tie-breaks over confirmed results only (and its shared flag): the
    # order cut lines and advancement use, which a provisional result cannot move.
    confirmed_rank = models.PositiveIntegerField(default=1)
    confirmed_shared = models.BooleanField(default=False)
    computed_at = models.DateTimeField()
    # The scope's standings version (`StandingsVersion.version`) these rows belong to.
    results_version = models.PositiveIntegerField()
    # Not stored: `scoring.standings.standings` sets it on the rows whose place among entrants
    # level on every tie-break a settled playoff (順位決定戦) decided.
    decided_by_playoff: bool = False

    class Meta:
        ordering = ["scope", "tournament", "stage", "season", "rank", "player"]
        constraints = [
            models.CheckConstraint(
                condition=(
                    Q(
                        scope="tournament",
                        tournament__isnull=False,
                        stage__isnull=True,
                        season__isnull=True,
                        entry__isnull=False,
                    )
                    | Q(
                        scope="stage",
                        tournament__isnull=False,
                        stage__isnull=False,
                        season__isnull=True,
                        entry__isnull=False,
                    )
                    | Q(
                        scope="season",
                        tournament__isnull=True,
                        stage__isnull=True,
                        season__isnull=False,
                        entry__isnull=True,
                    )
                ),
                name="standing_scope_fields",
            ),
            models.UniqueConstraint(
                fields=["tournament", "entry"],
                condition=Q(scope="tournament"),
                name="standing_tournament_entry_once",
            ),
            models.UniqueConstraint(
                fields=["stage", "entry"], condition=Q(scope="stage"), name="standing_stage_once"
            ),
            models.UniqueConstraint(
                fields=["season", "player"],
                condition=Q(scope="season"),
                name="standing_season_player_once",
            ),
            models.CheckConstraint(condition=Q(rank__gte=1), name="standing_rank_positive"),
            models.CheckConstraint(
                condition=Q(confirmed_rank__gte=1), name="standing_confirmed_rank_positive"
            ),
            models.CheckConstraint(
                condition=Q(provisional_games__lte=models.F("games")),
                name="standing_provisional_within_games",
            ),
        ]
        indexes = [
            models.Index(fields=["tournament", "scope", "rank"], name="standing_tournament_idx"),
            models.Index(fields=["stage", "rank"], name="standing_stage_idx"),
            models.Index(fields=["season", "rank"], name="standing_season_idx"),
            models.Index(fields=["player"], name="standing_player_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.scope} #{self.rank}: {self.player_id} ({self.points})"


class TeamStanding(models.Model):
    """A team's line in a team tournament's standings (掼蛋 Guandan): its matches' results.

    Written by `scoring.team_standings.write_team_standings` in the same transaction, under
    the same lock and the same `StandingsVersion` as the scope's `Standing` rows. Tournament
    and stage scopes only: a league season ranks players, not partnerships.
    """

    scope = models.CharField(max_length=12, choices=Scope.choices)
    tournament = models.ForeignKey(
        "tournaments.Tournament",
        on_delete=models.CASCADE,
        related_name="team_standings",
        db_index=False,
    )
    stage = models.ForeignKey(
        "tournaments.Stage",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="+",
        db_index=False,
    )
    team = models.ForeignKey("tournaments.Team", on_delete=models.CASCADE, related_name="+")
    rank = models.PositiveIntegerField()
    # Level on match points, level difference and opponents' strength with another team.
    shared = models.BooleanField(default=False)
    # Bye points included.
    match_points = models.IntegerField()
    # Matches over (won at A, hands all played, or time up); a match still going is not one.
    played = models.PositiveIntegerField()
    wins = models.PositiveIntegerField()
    draws = models.PositiveIntegerField()
    losses = models.PositiveIntegerField()
    byes = models.PositiveIntegerField(default=0)
    # Over its matches played: its final level minus the opponents' (won at A: one past A).
    level_difference = models.IntegerField()
    # The match points of the teams it has played, summed (Buchholz).
    opponents_strength = models.IntegerField()
    # Matches counted in `played` with a hand not yet confirmed by a second official (暫定).
    provisional_matches = models.PositiveIntegerField(default=0)
    # The match it is playing now, not counted yet: {"table", "opponent" (team pk),
    # "levels": [its level, theirs] as players say them ("A", "10")}; None between matches.
    in_play = models.JSONField(null=True, blank=True)
    computed_at = models.DateTimeField()
    results_version = models.PositiveIntegerField()

    # A line's record, in the order boards, exports, the admin and the digest list it: one
    # list, so a column added here reaches all of them.
    RECORD_FIELDS: ClassVar[tuple[str, ...]] = (
        "match_points",
        "played",
        "wins",
        "draws",
        "losses",
        "byes",
        "level_difference",
        "opponents_strength",
        "provisional_matches",
    )

    class Meta:
        ordering = ["scope", "tournament", "stage", "rank", "team"]
        constraints = [
            models.CheckConstraint(
                condition=Q(scope="tournament", stage__isnull=True)
                | Q(scope="stage", stage__isnull=False),
                name="team_standing_scope_fields",
            ),
            models.UniqueConstraint(
                fields=["tournament", "team"],
                condition=Q(scope="tournament"),
                name="team_standing_tournament_once",
            ),
            models.UniqueConstraint(
                fields=["stage", "team"],
                condition=Q(scope="stage"),
                name="team_standing_stage_once",
            ),
            models.CheckConstraint(condition=Q(rank__gte=1), name="team_standing_rank_positive"),
            models.CheckConstraint(
                condition=Q(played=models.F("wins") + models.F("draws") + models.F("losses")),
                name="team_standing_results_add_up",
            ),
            models.CheckConstraint(
                condition=Q(provisional_matches__lte=models.F("played")),
                name="team_standing_provisional_within_played",
            ),
        ]
        indexes = [
            models.Index(fields=["tournament", "scope", "rank"], name="team_standing_t_idx"),
            models.Index(fields=["stage", "rank"], name="team_standing_stage_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.scope} #{self.rank}: team {self.team_id} ({self.match_points})"


class StandingsVersion(models.Model):
    """Per scope: a version bumped whenever its standings rows change, and their digest.

    Leaderboards poll with `?v=<version>` and get an empty answer while it is unchanged; the
    recompute compares digests so a run that changes nothing writes nothing.
    """

    key = models.CharField(max_length=40, unique=True)  # "tournament:12", "stage:5", …
    version = models.PositiveIntegerField(default=0)
    digest = models.CharField(max_length=64, blank=True)
    computed_at = models.DateTimeField(null=True, blank=True)
    checked_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"{self.key} v{self.version}"


class StandingsQueue(models.Model):
    """Per tournament: whether a standings recompute is queued, and who runs one until when —
    what makes recomputes coalesce (`scoring.tasks`). In the database, not the cache, so every
    process sees the same flags whatever the cache (per-process memory without ``REDIS_URL``)
    and a lost cache can never swallow a recompute.

    - `queued_at`: set by the first `request_standings_update` after the last run started;
      later requests see it and enqueue nothing. A run clears it as it starts, so a result
      committed after that start queues the next run.
    - `running_until` / `running_task`: the running lock. It expires, so a worker killed
      mid-run holds it for at most `scoring.tasks.RUNNING_LOCK_SECONDS`.
    """

    tournament = models.OneToOneField(
        "tournaments.Tournament", primary_key=True, on_delete=models.CASCADE, related_name="+"
    )
    queued_at = models.DateTimeField(null=True, blank=True)
    running_until = models.DateTimeField(null=True, blank=True)
    running_task = models.CharField(max_length=64, blank=True)

    def __str__(self) -> str:
        return f"standings of {self.tournament_id}: queued {self.queued_at}"


class RecomputeRun(models.Model):
    """A full recompute (beat, or an organiser's "recompute now"), with its progress."""

    class Status(models.TextChoices):
        RUNNING = "running", pgettext_lazy("recompute run", "Running")
        DONE = "done", _("Done")
        FAILED = "failed", _("Failed")
        ABANDONED = "abandoned", _("Abandoned (worker lost)")

    # Empty: every tournament; otherwise the one tournament an organiser asked for.
    tournament = models.ForeignKey(
        "tournaments.Tournament",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="recompute_runs",
    )
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.RUNNING)
    total = models.PositiveIntegerField(default=0)
    done = models.PositiveIntegerField(default=0)
    changed = models.PositiveIntegerField(default=0)
    task_id = models.CharField(max_length=64, blank=True)
    error = models.TextField(blank=True)
    started_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-started_at", "-pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(done__lte=models.F("total")), name="run_done_le_total"
            ),
            models.CheckConstraint(
                condition=Q(status="running") | Q(finished_at__isnull=False),
                name="run_finished_has_time",
            ),
        ]

    def __str__(self) -> str:
        return f"recompute {self.pk} {self.status} {self.done}/{self.total}"

    @property
    def percent(self) -> int:
        return 100 if not self.total else round(100 * self.done / self.total)


class WorkerHeartbeat(models.Model):
    """The last time each Celery worker ran the periodic heartbeat task.

    Written by `scoring.tasks.heartbeat` (scheduled by beat), read by `/healthz`, so an operator
    sees at once when standings would stop updating because no worker is consuming the queue.
    """

    hostname = models.CharField(max_length=255, unique=True)
    seen_at = models.DateTimeField()
    beats = models.PositiveBigIntegerField(default=0)

    class Meta:
        ordering = ["-seen_at"]

    def __str__(self) -> str:
        return f"{self.hostname} @ {self.seen_at:%Y-%m-%d %H:%M:%S}"


# --- webhooks --------------------------------------------------------------------------------


class WebhookEvent(models.TextChoices):
    GAME_FINISHED = "game.finished", "game.finished"
    STANDINGS_CHANGED = "standings.changed", "standings.changed"
    STAGE_CUT = "stage.cut", "stage.cut"


def new_webhook_secret() -> str:
    return secrets.token_hex(32)


class WebhookEndpoint(models.Model):
    """An organiser's URL that receives signed event payloads for one tournament."""

    tournament = models.ForeignKey(
        "tournaments.Tournament", on_delete=models.CASCADE, related_name="webhook_endpoints"
    )
    url = models.URLField(max_length=500)
    # HMAC-SHA256 key; the receiver checks `X-Kakumei-Signature` with it.
    secret = models.CharField(max_length=128, default=new_webhook_secret)
    events = models.JSONField(default=list)  # a list of WebhookEvent values
    active = models.BooleanField(default=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(url__startswith="http://") | Q(url__startswith="https://"),
                name="webhook_url_http",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.url} ({', '.join(self.events)})"


class WebhookDelivery(models.Model):
    """One event sent (or being sent) to one endpoint: the delivery log."""

    class Status(models.TextChoices):
        PENDING = "pending", _("Pending")
        DELIVERED = "delivered", _("Delivered")
        FAILED = "failed", _("Failed")

    endpoint = models.ForeignKey(
        WebhookEndpoint, on_delete=models.CASCADE, related_name="deliveries"
    )
    uuid = models.UUIDField(default=uuid4, unique=True, editable=False)
    event = models.CharField(max_length=40, choices=WebhookEvent.choices)
    # The exact bytes sent (and signed), kept so every retry sends the same signature.
    body = models.TextField()
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.PENDING)
    attempts = models.PositiveIntegerField(default=0)
    response_code = models.PositiveIntegerField(null=True, blank=True)
    last_error = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    last_attempt_at = models.DateTimeField(null=True, blank=True)
    delivered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name_plural = "webhook deliveries"
        constraints = [
            models.CheckConstraint(
                condition=~Q(status="delivered") | Q(delivered_at__isnull=False),
                name="delivery_delivered_has_time",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.event} → {self.endpoint.url}: {self.status}"


class DealStrength(models.Model):
    """What each seat's dealt hand was expected to score in one game (`scoring.deal_strength`),
    estimated once by a Celery task and read by every rating recompute. `expected` is by engine
    seat; empty when the game's hands are not all known (no adjustment)."""

    game = models.OneToOneField(
        "games.Game", on_delete=models.CASCADE, related_name="deal_strength"
    )
    expected = models.JSONField(default=list, blank=True)
    method = models.CharField(max_length=40)
    # The points table the estimate was scored with: a changed table means a new estimate.
    points_by_place = models.JSONField(default=list)
    computed_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"{self.game}: {self.expected}"


class Rating(models.Model):
    """A player's rating across every rated event (docs/ratings.md): openskill's μ and σ after
    the deal-adjusted replay, and the raw replay's (ranked by place) for comparison. Derived:
    `scoring.services.recompute_ratings` rewrites every row."""

    player = models.OneToOneField(
        "tournaments.Player", on_delete=models.CASCADE, related_name="rating"
    )
    mu = models.FloatField()
    sigma = models.FloatField()
    raw_mu = models.FloatField()
    raw_sigma = models.FloatField()
    games = models.PositiveIntegerField()
    updated_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=Q(sigma__gt=0, raw_sigma__gt=0), name="rating_sigma_positive"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player}: {self.mu:.1f} ± {self.sigma:.1f}"

    @property
    def display(self) -> int:
        """The rating people read (`scoring.ratings.display_rating`: 1500 + 40 × (μ − 3σ))."""
        return display_rating(self.mu, self.sigma)

    @property
    def display_spread(self) -> int:
        return display_spread(self.sigma)

    @property
    def raw_display(self) -> int:
        return display_rating(self.raw_mu, self.raw_sigma)


class RatingPoint(models.Model):
    """A player's rating right after one rated game: the history the player page charts."""

    player = models.ForeignKey(
        "tournaments.Player", on_delete=models.CASCADE, related_name="rating_points"
    )
    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="+")
    # Denormalised from the game, for the per-league and per-season leaderboards.
    tournament = models.ForeignKey(
        "tournaments.Tournament", on_delete=models.CASCADE, related_name="+"
    )
    # The replay's order (1, 2, …): the order the games were rated in.
    sequence = models.PositiveIntegerField()
    played_at = models.DateTimeField()
    mu = models.FloatField()
    sigma = models.FloatField()

    class Meta:
        ordering = ["player", "sequence"]
        constraints = [
            models.UniqueConstraint(fields=["player", "game"], name="rating_point_once_a_game"),
        ]
        indexes = [models.Index(fields=["tournament", "player"], name="rating_point_by_event")]

    def __str__(self) -> str:
        return f"{self.player} #{self.sequence}: {self.mu:.1f}"
