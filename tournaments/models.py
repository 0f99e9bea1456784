"""The tournament domain: leagues, seasons, tournaments, stages, rounds, tables, seats, entries.

A tournament pins the ruleset it is played under and its format (JDF: tables of 4, sets of
`games_per_set` games in which titles carry over, `sets_per_round` sets a round). It runs in
stages (qualifying → cut → final); each stage has rounds, each round tables with seats. Officials
(organiser, head referee, referee) hold per-tournament roles; referees are assigned to tables.

Models own the invariants the database can check (`Meta.constraints`); workflows (draw,
publish, reveal, advance) live in `tournaments.services`.
"""

from __future__ import annotations

import secrets
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from tournaments.advancement_words import rule_words
from tournaments.points import DEFAULT_PRESET, preset_points_table, validate_points_table


def default_match_points() -> dict[str, int]:
    """A team match's points by result: win 2, draw 1, loss 0."""
    return {"win": 2, "draw": 1, "loss": 0}


HEX64 = r"^[0-9a-f]{64}$"

# The most games a set may have, as the settings check it: a set may be a whole UECda match,
# a long series at one table (its reference server plays 100 games).
MAX_GAMES_PER_SET = 200
# The longest title-reset or seat-change cycle: one longer than any set never comes round, so
# the cap only keeps typing slips out.
MAX_CYCLE = 1000


def default_points_table() -> dict[str, Any]:
    return preset_points_table(DEFAULT_PRESET)


class League(models.Model):
    """A series of seasons run by one body (e.g. 天下一大富豪大会 or a club league)."""

    name = models.CharField(max_length=200)
    slug = models.SlugField(max_length=80, unique=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class Season(models.Model):
    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="seasons")
    name = models.CharField(max_length=120)
    slug = models.SlugField(max_length=80)

    class Meta:
        ordering = ["league", "-slug"]
        constraints = [
            models.UniqueConstraint(fields=["league", "slug"], name="season_slug_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.league} {self.name}"


class Player(models.Model):
    """A person who plays in tournaments; may or may not have a login."""

    display_name = models.CharField(max_length=80)
    # Japanese events list players in kana order as well as by name.
    name_kana = models.CharField("name (kana)", max_length=80, blank=True)
    # Optional; lets a CSV import recognise a returning player. Never shown publicly.
    email = models.EmailField(blank=True)
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    # A bot entrant (a UECda client program) is known by the name its program sends in the
    # protocol's handshake: at most 14 ASCII characters. Blank for people.
    bot_name = models.CharField(max_length=14, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["display_name", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["bot_name"], condition=~models.Q(bot_name=""), name="player_bot_name_unique"
            ),
            models.CheckConstraint(
                condition=models.Q(bot_name__regex=r"^[!-~]{0,14}$"), name="player_bot_name_ascii"
            ),
        ]

    def __str__(self) -> str:
        return self.display_name

    @property
    def is_bot(self) -> bool:
        return bool(self.bot_name)


class Tournament(models.Model):
    """An event played under one pinned ruleset (e.g. a 天下一大富豪大会 regional qualifier)."""

    class Status(models.TextChoices):
        DRAFT = "draft", _("Draft")
        REGISTRATION = "registration", _("Registration open")
        RUNNING = "running", _("Running")
        FINISHED = "finished", _("Finished")

    name = models.CharField(max_length=200)
    slug = models.SlugField(max_length=80, unique=True)
    season = models.ForeignKey(
        Season, null=True, blank=True, on_delete=models.SET_NULL, related_name="tournaments"
    )
    # A game records the ruleset it was played under; changing a preset means a new version,
    # so a tournament pins both.
    ruleset_id = models.CharField(max_length=40, default="jdf")
    ruleset_version = models.PositiveIntegerField(default=1)
    # The event's switch values that differ from the preset (the family's record form
    # `{"preset", "overrides"}`), fixed once a round is published; every game copies them.
    ruleset_overrides = models.JSONField(default=dict, blank=True)
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.DRAFT)
    venue = models.CharField(max_length=200, blank=True)
    starts_on = models.DateField(null=True, blank=True)
    ends_on = models.DateField(null=True, blank=True)
    # Format (REFERENCE §1.2): titles carry over within a set; 3 sets make a round.
    points_table = models.JSONField(default=default_points_table)
    games_per_set = models.PositiveSmallIntegerField(default=4)
    sets_per_round = models.PositiveSmallIntegerField(default=3)
    table_size = models.PositiveSmallIntegerField(default=4)
    # UECda plays long series at one table: titles reset every `title_reset_every` games of a
    # set (that game is played like a set's first: no titles, no exchange) and the players
    # change seats every `seat_change_every` games (a seating drawn from the round's seed,
    # games.seating). None: never within a set, as JDF and the other presets play.
    title_reset_every = models.PositiveSmallIntegerField(null=True, blank=True)
    seat_change_every = models.PositiveSmallIntegerField(null=True, blank=True)

    class UnevenTables(models.TextChoices):
        SHORT = "short", _("Some tables one seat short (e.g. tables of 3)")
        LONG = "long", _("Some tables one seat larger (e.g. tables of 5)")
        BYES = "byes", _("Byes for the players left over")

    # The policy when the field is not a multiple of table_size (tournaments.seating).
    uneven_tables = models.CharField(
        max_length=10, choices=UnevenTables.choices, default=UnevenTables.SHORT
    )
    # Points a player with a bye scores for the round.
    bye_points = models.IntegerField(default=0)
    # A referee's undo (取り消し) waits for a head referee's approval when set.
    undo_requires_approval = models.BooleanField(default=False)

    class ForfeitOthers(models.TextChoices):
        CARDS_LEFT = "cards_left", _("By cards left (fewest first)")
        REFEREE_ORDER = "referee_order", _("In the order the referee enters")

    # A player who leaves mid-game (途中棄権) is placed last; the others still in play finish
    # by this rule, after those already out.
    forfeit_others = models.CharField(
        max_length=20, choices=ForfeitOthers.choices, default=ForfeitOthers.CARDS_LEFT
    )
    # Points for the leaver instead of last place's (e.g. 0, or negative as a penalty).
    forfeit_leaver_points = models.IntegerField(null=True, blank=True)

    class TimeFaultRule(models.TextChoices):
        WARNING = "warning", _("A warning")
        FORCED_PASS = "forced_pass", _("A forced pass")
        PENALTY = "penalty", _("A points deduction")

    # The think-time clock (games.clock): seconds per decision. None: the preset's default
    # (JDF 20 s, others off); 0: off. The referee calls time faults; nothing is automatic.
    think_seconds = models.PositiveSmallIntegerField(null=True, blank=True)
    time_fault_rule = models.CharField(
        max_length=20, choices=TimeFaultRule.choices, default=TimeFaultRule.WARNING
    )
    # Points a time fault deducts under the `penalty` rule.
    time_fault_points = models.PositiveSmallIntegerField(default=1)

    class MatchLength(models.TextChoices):
        TO_ACE = "to_ace", _("Until a team wins at A")
        HANDS = "hands", _("A fixed number of hands")
        TIME = "time", _("A time limit (the hand in play is finished)")

    # Partnership families (掼蛋 Guandan) play a team match at each table: one set whose games
    # are the match's hands. It ends when a team wins at A, after `games_per_set` hands (the
    # cap of every length), or — with a time limit — with the first hand to end after
    # `match_minutes` from the match's first hand.
    match_length = models.CharField(
        max_length=10, choices=MatchLength.choices, default=MatchLength.TO_ACE
    )
    match_minutes = models.PositiveSmallIntegerField(null=True, blank=True)

    class MatchPointsBy(models.TextChoices):
        RESULT = "result", _("By result (win, draw, loss)")
        LEVELS = "levels", _("By level difference")

    # A team match scores match points by its result (`match_points`: {"win", "draw", "loss"},
    # e.g. 2/1/0) or by the level difference the winner finished ahead by.
    match_points_by = models.CharField(
        max_length=10, choices=MatchPointsBy.choices, default=MatchPointsBy.RESULT
    )
    match_points = models.JSONField(default=default_match_points)
    # Counts towards the players' ratings across events (scoring.ratings): the organiser
    # opts in, so a friendly or experimental event never moves anyone's rating.
    rated = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-starts_on", "name"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(ruleset_version__gte=1),
                name="tournament_ruleset_version_positive",
            ),
            models.CheckConstraint(
                condition=~models.Q(ruleset_id=""), name="tournament_ruleset_id_not_empty"
            ),
            models.CheckConstraint(
                condition=models.Q(time_fault_rule__in=["warning", "forced_pass", "penalty"]),
                name="tournament_time_fault_rule_valid",
            ),
            models.CheckConstraint(
                condition=models.Q(time_fault_points__gte=1),
                name="tournament_time_fault_points_positive",
            ),
            models.CheckConstraint(
                condition=models.Q(table_size__gte=3, table_size__lte=5),
                name="tournament_table_size_3_to_5",
            ),
            models.CheckConstraint(
                condition=models.Q(games_per_set__gte=1), name="tournament_games_per_set_positive"
            ),
            models.CheckConstraint(
                condition=models.Q(sets_per_round__gte=1),
                name="tournament_sets_per_round_positive",
            ),
            models.CheckConstraint(
                condition=models.Q(title_reset_every__isnull=True)
                | models.Q(title_reset_every__gte=1),
                name="tournament_title_reset_every_positive",
                violation_error_message=_(
                    "Titles reset every 1 game or more, or never (leave it blank)."
                ),
            ),
            models.CheckConstraint(
                condition=models.Q(seat_change_every__isnull=True)
                | models.Q(seat_change_every__gte=1),
                name="tournament_seat_change_every_positive",
                violation_error_message=_(
                    "Seats change every 1 game or more, or never (leave it blank)."
                ),
            ),
            models.CheckConstraint(
                condition=models.Q(points_table__has_key="places"),
                name="tournament_points_table_has_places",
            ),
            models.CheckConstraint(
                condition=models.Q(forfeit_others__in=["cards_left", "referee_order"]),
                name="tournament_forfeit_others_valid",
            ),
            models.CheckConstraint(
                condition=models.Q(match_length__in=["to_ace", "hands", "time"]),
                name="tournament_match_length_valid",
            ),
            models.CheckConstraint(
                condition=~models.Q(match_length="time") | models.Q(match_minutes__gte=1),
                name="tournament_time_limit_has_minutes",
                violation_error_message=_("A time-limited match needs its minutes."),
            ),
            models.CheckConstraint(
                condition=models.Q(match_points_by__in=["result", "levels"]),
                name="tournament_match_points_by_valid",
            ),
            models.CheckConstraint(
                condition=models.Q(match_points__has_keys=["win", "draw", "loss"]),
                name="tournament_match_points_has_results",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("tournaments:detail", kwargs={"slug": self.slug})

    @property
    def ruleset_label(self) -> str:
        return f"{self.ruleset_id}@{self.ruleset_version}"

    @property
    def team_size(self) -> int | None:
        """Players per team (掼蛋 Guandan: 2, partners facing); None where everyone plays
        alone."""
        from tournaments.rulesets import team_size  # the engine registry, imported lazily

        return team_size(self.ruleset_id, self.ruleset_version)

    @property
    def plays_in_teams(self) -> bool:
        return self.team_size is not None

    def clean(self) -> None:
        super().clean()
        try:
            validate_points_table(self.points_table, self.table_size, self.uneven_tables)
        except ValidationError as error:
            raise ValidationError({"points_table": error.messages}) from error
        from games.engine.errors import RulesError
        from tournaments.rulesets import event_rules  # the engine registry, imported lazily

        try:
            event_rules(self.ruleset_id, self.ruleset_version, self.ruleset_overrides)
        except RulesError as error:
            raise ValidationError({"ruleset_overrides": str(error)}) from error


class Official(models.Model):
    """A per-tournament role: organiser, head referee (主審) or referee (審判)."""

    class Role(models.TextChoices):
        ORGANISER = "organiser", _("Organiser")
        HEAD_REFEREE = "head_referee", _("Head referee")
        REFEREE = "referee", _("Referee")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="officials")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="official_roles"
    )
    role = models.CharField(max_length=20, choices=Role.choices)

    class Meta:
        ordering = ["tournament", "role", "user"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "user", "role"], name="official_role_once"
            ),
            models.CheckConstraint(
                condition=models.Q(role__in=["organiser", "head_referee", "referee"]),
                name="official_role_valid",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} — {self.get_role_display()} ({self.tournament})"


class Stage(models.Model):
    """A phase of a tournament: qualifying rounds, a cut, the final table.

    Advancement to the next stage: the top `advance_top_n` by total points and/or the top
    `advance_top_k_per_table` of each table of the stage's last round (see
    `tournaments.advancement`), plus entries seeded straight into the next stage.
    """

    class Kind(models.TextChoices):
        QUALIFYING = "qualifying", _("Qualifying")
        CUT = "cut", _("Cut")
        FINAL = "final", _("Final")
        # A tie-break table for entrants tied for places at a cut or the final (順位決定戦).
        PLAYOFF = "playoff", _("Playoff")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="stages")
    order = models.PositiveSmallIntegerField()
    name = models.CharField(max_length=120)
    kind = models.CharField(max_length=20, choices=Kind.choices, default=Kind.QUALIFYING)
    advance_top_n = models.PositiveIntegerField(null=True, blank=True)
    advance_top_k_per_table = models.PositiveSmallIntegerField(null=True, blank=True)

    class TournamentOrder(models.TextChoices):
        """How the tournament-wide order (大会全体の順位) places this stage's entrants against
        those who stopped at the stage before it (docs/formats.md, "The tournament's order")."""

        # Everyone who took part in this stage ranks above everyone who stopped before it,
        # in this stage's order (its standings and playoffs).
        STAGE_FIRST = "stage_first", _("Stage reached first")
        # This stage's entrants and those who stopped at the stage before it are ranked
        # together by their tournament totals.
        WITH_PREVIOUS = "with_previous", _("Together with the previous stage, by total points")

    # 2024 final: "one more round added to carried-over points" — totals span earlier stages.
    carry_over_totals = models.BooleanField(default=False)
    tournament_order = models.CharField(
        max_length=20, choices=TournamentOrder.choices, default=TournamentOrder.STAGE_FIRST
    )
    advanced_at = models.DateTimeField(null=True, blank=True)
    # A playoff decides the order of tied entrants of this stage; it never feeds a next stage.
    playoff_for = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.CASCADE, related_name="playoffs"
    )

    class Meta:
        ordering = ["tournament", "order"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "order"], name="stage_order_unique"),
            models.CheckConstraint(condition=models.Q(order__gte=1), name="stage_order_positive"),
            models.CheckConstraint(
                condition=models.Q(advance_top_n__isnull=True) | models.Q(advance_top_n__gte=1),
                name="stage_top_n_positive",
            ),
            models.CheckConstraint(
                condition=models.Q(advance_top_k_per_table__isnull=True)
                | models.Q(advance_top_k_per_table__gte=1, advance_top_k_per_table__lte=5),
                name="stage_top_k_1_to_5",
            ),
            # Nobody advances out of the final table.
            models.CheckConstraint(
                condition=~models.Q(kind="final")
                | models.Q(advance_top_n__isnull=True, advance_top_k_per_table__isnull=True),
                name="stage_final_has_no_advancement",
            ),
            models.CheckConstraint(
                condition=models.Q(kind="playoff", playoff_for__isnull=False)
                | (~models.Q(kind="playoff") & models.Q(playoff_for__isnull=True)),
                name="stage_playoff_iff_playoff_for",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} · {self.name}"

    @property
    def advancement_label(self) -> str:
        """The advancement rule in the active language: "top 2 per table + top 4 by total
        points" (各卓上位2名＋総合上位4名)."""
        return rule_words(self.advance_top_n, self.advance_top_k_per_table)


class Team(models.Model):
    """A fixed partnership registered for a tournament (掼蛋 Guandan's pairs): its members are
    the entries naming it, two for a pair; a table seats two teams, partners facing."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="teams")
    # The team number printed on pairings and standings.
    number = models.PositiveIntegerField()
    name = models.CharField(max_length=120)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="team_number_unique"),
            models.UniqueConstraint(fields=["tournament", "name"], name="team_name_unique"),
            models.CheckConstraint(condition=models.Q(number__gte=1), name="team_number_positive"),
            models.CheckConstraint(condition=~models.Q(name=""), name="team_has_name"),
        ]

    def __str__(self) -> str:
        return f"T{self.number} {self.name}"


class Entry(models.Model):
    """A player's registration in a tournament."""

    class Status(models.TextChoices):
        REGISTERED = "registered", _("Registered")
        CHECKED_IN = "checked_in", _("Checked in")
        DROPPED = "dropped", _("Dropped")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="entries")
    # The entrant number printed on score sheets and table cards.
    number = models.PositiveIntegerField()
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.REGISTERED)
    checked_in_at = models.DateTimeField(null=True, blank=True)
    # A substitute takes a dropped entrant's place (and carries on their results).
    substitute_for = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="substitute"
    )
    # Seeded entrants (e.g. previous finalists) skip earlier stages and join this one.
    seeded_into = models.ForeignKey(
        Stage, null=True, blank=True, on_delete=models.SET_NULL, related_name="seeded_entries"
    )
    # The partnership this entry plays in (team tournaments); None where everyone plays alone.
    team = models.ForeignKey(
        Team, null=True, blank=True, on_delete=models.PROTECT, related_name="members"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "number"]
        verbose_name_plural = "entries"
        constraints = [
            models.UniqueConstraint(fields=["tournament", "player"], name="entry_player_once"),
            models.UniqueConstraint(fields=["tournament", "number"], name="entry_number_unique"),
            models.CheckConstraint(condition=models.Q(number__gte=1), name="entry_number_positive"),
            models.CheckConstraint(
                condition=~models.Q(substitute_for=models.F("pk")),
                name="entry_not_own_substitute",
            ),
            models.CheckConstraint(
                condition=models.Q(status__in=["registered", "checked_in", "dropped"]),
                name="entry_status_valid",
            ),
        ]

    def __str__(self) -> str:
        return f"#{self.number} {self.player}"


class StageEntrant(models.Model):
    """An entry playing in a stage: from the start, by advancement, or seeded."""

    class Source(models.TextChoices):
        START = "start", _("Started here")
        ADVANCED = "advanced", _("Advanced")
        SEEDED = "seeded", _("Seeded")

    stage = models.ForeignKey(Stage, on_delete=models.CASCADE, related_name="entrants")
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="stage_places")
    source = models.CharField(max_length=20, choices=Source.choices)
    note = models.CharField(max_length=300, blank=True)

    class Meta:
        ordering = ["stage", "entry__number"]
        constraints = [
            models.UniqueConstraint(fields=["stage", "entry"], name="stage_entrant_once"),
        ]

    def __str__(self) -> str:
        return f"{self.entry} in {self.stage.name}"


class Round(models.Model):
    """A round, as a state machine (services move it; the database refuses inconsistent rows):

    draft → published → in_play → complete → revealed

    - draft: a draw preview the organiser may redraw;
    - published: tables and the seed's SHA-256 commitment are public, no game started yet;
    - in_play: the first game has started;
    - complete: every game is settled (confirmed, forfeited or void); no move, new game or
      result change is accepted except a correction;
    - revealed: the seed is public, so anyone can re-derive every deal. Only the organiser may
      still correct a result (flagged on the public pages) until they close the round.

    `seed_secret` never leaves the server before `revealed_at`; `seed_commitment` is
    SHA-256(seed_secret as ASCII hex) and is public from publication on.
    """

    class Status(models.TextChoices):
        DRAFT = "draft", _("Draft (draw preview)")
        PUBLISHED = "published", _("Published")
        IN_PLAY = "in_play", _("In play")
        COMPLETE = "complete", _("Complete")
        REVEALED = "revealed", _("Seed revealed")

    # Rounds whose games may still be played or change.
    OPEN = (Status.PUBLISHED, Status.IN_PLAY)
    # Rounds whose results are final but for corrections.
    SETTLED = (Status.COMPLETE, Status.REVEALED)

    stage = models.ForeignKey(Stage, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.DRAFT)
    seed_secret = models.CharField(max_length=64)
    seed_commitment = models.CharField(max_length=64)
    draw_method = models.CharField(max_length=20, blank=True)
    # Duplicate Daifugo (docs/duplicate.md): each group of tables plays the same deals with
    # the seats rotated. Chosen at the draw, fixed from publication on.
    duplicate_deals = models.BooleanField(default=False)
    published_at = models.DateTimeField(null=True, blank=True)
    completed_at = models.DateTimeField(null=True, blank=True)
    revealed_at = models.DateTimeField(null=True, blank=True)
    # After closing, not even the organiser may correct a result of the round.
    closed_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["stage", "number"]
        constraints = [
            models.UniqueConstraint(fields=["stage", "number"], name="round_number_unique"),
            models.CheckConstraint(condition=models.Q(number__gte=1), name="round_number_positive"),
            models.CheckConstraint(
                condition=models.Q(seed_secret__regex=HEX64, seed_commitment__regex=HEX64),
                name="round_seed_is_hex64",
            ),
            models.CheckConstraint(
                condition=models.Q(
                    status__in=["draft", "published", "in_play", "complete", "revealed"]
                ),
                name="round_status_valid",
            ),
            models.CheckConstraint(
                condition=models.Q(status="draft") | models.Q(published_at__isnull=False),
                name="round_published_has_time",
            ),
            # Complete exactly from completion on.
            models.CheckConstraint(
                condition=models.Q(status__in=["complete", "revealed"], completed_at__isnull=False)
                | (
                    ~models.Q(status__in=["complete", "revealed"])
                    & models.Q(completed_at__isnull=True)
                ),
                name="round_complete_iff_completed_at",
            ),
            # The seed is public exactly when the round is revealed.
            models.CheckConstraint(
                condition=models.Q(status="revealed", revealed_at__isnull=False)
                | (~models.Q(status="revealed") & models.Q(revealed_at__isnull=True)),
                name="round_revealed_iff_revealed_at",
            ),
            models.CheckConstraint(
                condition=models.Q(closed_at__isnull=True) | models.Q(status="revealed"),
                name="round_closed_only_when_revealed",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.stage} · Round {self.number}"

    @property
    def tournament(self) -> Tournament:
        return self.stage.tournament

    @property
    def is_open(self) -> bool:
        """Games may start, be played and have their results recorded."""
        return self.status in self.OPEN

    @property
    def is_settled(self) -> bool:
        return self.status in self.SETTLED

    @property
    def is_revealed(self) -> bool:
        return self.status == self.Status.REVEALED

    @property
    def is_closed(self) -> bool:
        return self.closed_at is not None

    @property
    def revealed_seed(self) -> str | None:
        """The seed once revealed, else None: the only accessor pages and the API use."""
        return self.seed_secret if self.is_revealed else None

    @property
    def public_commitment(self) -> str | None:
        return None if self.status == self.Status.DRAFT else self.seed_commitment


def new_table_pin() -> str:
    """A 6-digit PIN printed on the table card: seated players confirm results with it."""
    return f"{secrets.randbelow(10**6):06d}"


class Table(models.Model):
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField()
    referee = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="refereed_tables",
    )
    # Why the draw formed this table (seating.py's explanation), shown to organisers.
    explanation = models.TextField(blank=True)
    # A team event's pairing reason as facts (`pairing.reason_record` of a `TableReason`), so
    # pages say it in the reader's language; null for 大富豪 tables and older rows, which show
    # `explanation`.
    reason = models.JSONField(null=True, blank=True)
    # Printed on the table card (not on the referee's screen): a seated player types it on the
    # referee's phone to confirm a result without an account.
    confirm_pin = models.CharField(max_length=6, default=new_table_pin)
    # Wrong PINs in a row; the PIN stops working after too many (a head referee confirms then).
    pin_failures = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["round", "number"]
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="table_number_unique"),
            models.CheckConstraint(condition=models.Q(number__gte=1), name="table_number_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.round} · Table {self.number}"

    def get_referee_url(self) -> str:
        return reverse("referee:table", kwargs={"table_id": self.pk})


class Seat(models.Model):
    """An entry's seat at a table. `round` repeats `table.round` so the database can refuse
    seating an entry twice in one round."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="seats")
    entry = models.ForeignKey(Entry, on_delete=models.PROTECT, related_name="seats")
    position = models.PositiveSmallIntegerField()
    # A mid-round substitution: who held the seat before the substitute took it, and when.
    substituted_entry = models.ForeignKey(
        Entry, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    substituted_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["table", "position"]
        constraints = [
            models.UniqueConstraint(fields=["table", "position"], name="seat_position_unique"),
            models.UniqueConstraint(fields=["round", "entry"], name="seat_entry_once_per_round"),
            models.CheckConstraint(
                condition=models.Q(position__gte=1, position__lte=5), name="seat_position_1_to_5"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table} seat {self.position}: {self.entry}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        # Keep the denormalised round in step with the table, whoever creates the seat.
        self.round_id = self.table.round_id
        super().save(*args, **kwargs)


class Penalty(models.Model):
    """A head referee's or organiser's penalty (罰則): a warning, or points deducted from the
    entry's totals. Never deleted; a mistaken one is withdrawn (kept, no longer counted)."""

    class Kind(models.TextChoices):
        WARNING = "warning", _("Warning")
        DEDUCTION = "deduction", _("Points deduction")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="penalties")
    entry = models.ForeignKey(Entry, on_delete=models.PROTECT, related_name="penalties")
    # The round (and game) it was given in, when it was: stage standings count it there.
    round = models.ForeignKey(
        Round, null=True, blank=True, on_delete=models.PROTECT, related_name="penalties"
    )
    game = models.ForeignKey(
        "games.Game", null=True, blank=True, on_delete=models.PROTECT, related_name="penalties"
    )
    kind = models.CharField(max_length=20, choices=Kind.choices)
    points = models.PositiveIntegerField(default=0)
    reason = models.CharField(max_length=300)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    withdrawn_at = models.DateTimeField(null=True, blank=True)
    withdrawn_reason = models.CharField(max_length=300, blank=True)

    class Meta:
        ordering = ["tournament", "created_at"]
        verbose_name_plural = "penalties"
        constraints = [
            models.CheckConstraint(
                condition=models.Q(kind__in=["warning", "deduction"]), name="penalty_kind_valid"
            ),
            # A warning deducts nothing; a deduction deducts something.
            models.CheckConstraint(
                condition=models.Q(kind="warning", points=0)
                | models.Q(kind="deduction", points__gte=1),
                name="penalty_points_match_kind",
            ),
            models.CheckConstraint(condition=~models.Q(reason=""), name="penalty_has_reason"),
        ]

    def __str__(self) -> str:
        return f"{self.entry}: {self.get_kind_display()} {self.points or ''}".strip()

    @property
    def is_active(self) -> bool:
        return self.withdrawn_at is None


class AuditEntry(models.Model):
    """One official action that changes a tournament's record or bends its rules: a round
    transition, a draw override, a correction, a void, a re-deal, a forfeit, a penalty.

    Append-only: written by the services in the same transaction as the change it records."""

    class Action(models.TextChoices):
        ROUND_COMPLETED = "round_completed", _("Round completed")
        SEED_REVEALED = "seed_revealed", _("Seed revealed")
        ROUND_CLOSED = "round_closed", _("Round closed")
        DRAW_OVERRIDE = "draw_override", _("Round drawn before the previous one was complete")
        RESULT_CORRECTED = "result_corrected", _("Result corrected")
        GAME_VOIDED = "game_voided", _("Game voided")
        SEAT_FORFEITED = "seat_forfeited", _("Seat forfeited")
        PENALTY_GIVEN = "penalty_given", _("Penalty given")
        PENALTY_WITHDRAWN = "penalty_withdrawn", _("Penalty withdrawn")
        SETTINGS_CHANGED = "settings_changed", _("Tournament settings changed")
        OFFICIAL_ADDED = "official_added", _("Official added")
        OFFICIAL_REVOKED = "official_revoked", _("Official revoked")
        REFEREES_ASSIGNED = "referees_assigned", _("Referees assigned")
        SIGN_IN_ISSUED = "sign_in_issued", _("Sign-in link or PIN card issued")
        DEVICE_ISSUED = "device_issued", _("Device token issued")
        DEVICE_REVOKED = "device_revoked", _("Device token revoked")
        ENTRY_ADDED = "entry_added", _("Entrant added")
        ENTRY_EDITED = "entry_edited", _("Entrant edited")
        ENTRY_WITHDRAWN = "entry_withdrawn", _("Entrant withdrawn")
        ENTRY_SUBSTITUTED = "entry_substituted", _("Substitute seated")
        STAGE_CREATED = "stage_created", _("Stage created")
        STAGE_EDITED = "stage_edited", _("Stage edited")
        PLAYOFF_CREATED = "playoff_created", _("Playoff table created")
        STAGE_ADVANCED = "stage_advanced", _("Qualifiers advanced to the next stage")
        RESULT_CONFIRMED_BY_PLAYER = "result_confirmed_by_player", _("Result confirmed by a player")
        TEAM_REGISTERED = "team_registered", _("Team registered")
        TEAM_RENAMED = "team_renamed", _("Team renamed")
        TEAM_DISSOLVED = "team_dissolved", _("Team dissolved")
        GAME_IMPORTED = "game_imported", _("Game imported from a record")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="audit")
    round = models.ForeignKey(
        Round, null=True, blank=True, on_delete=models.SET_NULL, related_name="audit"
    )
    game = models.ForeignKey(
        "games.Game", null=True, blank=True, on_delete=models.SET_NULL, related_name="audit"
    )
    action = models.CharField(max_length=30, choices=Action.choices)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    reason = models.CharField(max_length=300, blank=True)
    # What changed, for the record (e.g. old and new placings); never hidden cards.
    data = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "-created_at", "-pk"]
        verbose_name_plural = "audit entries"

    def __str__(self) -> str:
        return f"{self.created_at:%Y-%m-%d %H:%M} {self.get_action_display()}"


class SignInCode(models.Model):
    """A one-time way in for an official without a password: a sign-in link (sent or shown as
    a QR code) or a PIN printed on a card with the user's sign-in name. Only the SHA-256 of
    the secret is stored; it works once, until it expires, and a PIN dies after a few wrong
    tries."""

    class Kind(models.TextChoices):
        LINK = "link", _("Sign-in link")
        PIN = "pin", _("PIN card")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="sign_in_codes"
    )
    tournament = models.ForeignKey(
        Tournament, null=True, blank=True, on_delete=models.CASCADE, related_name="sign_in_codes"
    )
    kind = models.CharField(max_length=10, choices=Kind.choices)
    code_hash = models.CharField(max_length=64, unique=True)
    expires_at = models.DateTimeField()
    used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)
    failed_attempts = models.PositiveSmallIntegerField(default=0)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(kind__in=["link", "pin"]), name="sign_in_code_kind_valid"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} for {self.user}"


class Bye(models.Model):
    """An entry the draw left out of a round's tables (不戦, the uneven-tables policy `byes`):
    it scores `points` (the tournament's `bye_points` when drawn) in the round's stage totals
    and standings, but plays no game (no games played, no titles). In a team event (掼蛋) a
    team with a bye has one row per member, each scoring the match points of a win. A redraw of
    the draft replaces the round's byes; `draw_round` never seats an entry that has a bye."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="byes")
    entry = models.ForeignKey(Entry, on_delete=models.PROTECT, related_name="byes")
    points = models.IntegerField(default=0)
    # Why the draw left this entry out (a team event's Swiss pairing says which team sat out
    # and why); stored as the draw wrote it, like `Table.explanation`.
    explanation = models.TextField(blank=True)
    # The same as facts (`pairing.reason_record` of a `ByeReason`), like `Table.reason`.
    reason = models.JSONField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["round", "entry__number"]
        constraints = [
            models.UniqueConstraint(fields=["round", "entry"], name="bye_entry_once_per_round"),
        ]

    def __str__(self) -> str:
        return f"{self.round}: bye for {self.entry}"


class LanguagePreference(models.Model):
    """The language a signed-in person chose with the header's switch: it follows them to
    another phone or browser (the cookie alone stays on one device)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="language_preference"
    )
    language = models.CharField(max_length=8, choices=settings.LANGUAGES)

    def __str__(self) -> str:
        return f"{self.user}: {self.language}"
