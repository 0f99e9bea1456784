"""Tournaments and the players entered in them.

The first slice of the tournament domain (DESIGN §2): a tournament pins the ruleset it is played
under, and players enter it. Stages, rounds, tables and seats build on these.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.urls import reverse


class Player(models.Model):
    """A person who plays in tournaments; may or may not have a login."""

    display_name = models.CharField(max_length=80)
    # Japanese events list players in kana order as well as by name.
    name_kana = models.CharField("name (kana)", max_length=80, blank=True)
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["display_name", "pk"]

    def __str__(self) -> str:
        return self.display_name


class Tournament(models.Model):
    """An event played under one pinned ruleset (e.g. a 天下一大富豪大会 regional qualifier)."""

    class Status(models.TextChoices):
        DRAFT = "draft", "Draft"
        REGISTRATION = "registration", "Registration open"
        RUNNING = "running", "Running"
        FINISHED = "finished", "Finished"

    name = models.CharField(max_length=200)
    slug = models.SlugField(max_length=80, unique=True)
    # A game records the ruleset it was played under; changing a preset means a new version,
    # so a tournament pins both.
    ruleset_id = models.CharField(max_length=40, default="jdf")
    ruleset_version = models.PositiveIntegerField(default=1)
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.DRAFT)
    venue = models.CharField(max_length=200, blank=True)
    starts_on = models.DateField(null=True, blank=True)
    organisers = models.ManyToManyField(
        settings.AUTH_USER_MODEL, blank=True, related_name="organised_tournaments"
    )
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
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("tournaments:detail", kwargs={"slug": self.slug})

    @property
    def ruleset_label(self) -> str:
        return f"{self.ruleset_id}@{self.ruleset_version}"


class Entry(models.Model):
    """A player's registration in a tournament."""

    class Status(models.TextChoices):
        REGISTERED = "registered", "Registered"
        CHECKED_IN = "checked_in", "Checked in"
        DROPPED = "dropped", "Dropped"

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="entries")
    # The entrant number printed on score sheets and table cards.
    number = models.PositiveIntegerField()
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.REGISTERED)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "number"]
        verbose_name_plural = "entries"
        constraints = [
            models.UniqueConstraint(fields=["tournament", "player"], name="entry_player_once"),
            models.UniqueConstraint(fields=["tournament", "number"], name="entry_number_unique"),
            models.CheckConstraint(condition=models.Q(number__gte=1), name="entry_number_positive"),
        ]

    def __str__(self) -> str:
        return f"#{self.number} {self.player}"
