"""Games, their append-only moves and results, and device tokens (issue #6).

A game's state is never stored as the truth: it is rebuilt by replaying its `Move` rows through
the engine (`games.state.rebuild`). `Move` rows are append-only — a correction is a new row of
kind `undo` (and, when the tournament wants it, a head referee's `decision` row), never an
UPDATE or DELETE. `GameResult` rows are derived from the moves (or from a quick result) when a
game ends and are what scoring sums.
"""

from __future__ import annotations

import hashlib

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

# A table's games, latest first: by set, game and re-deal attempt.
LATEST_FIRST = ("-set_number", "-game_number", "-attempt")


class Game(models.Model):
    """One game (局) of a set at a table, played under the tournament's pinned ruleset."""

    class Mode(models.TextChoices):
        KNOWN_DEAL = "known_deal", _("Known deal")
        OPEN_TABLE = "open_table", _("Open table")
        QUICK = "quick", _("Quick result")

    class Status(models.TextChoices):
        IN_PLAY = "in_play", _("In play")
        FINISHED = "finished", _("Finished")
        CONFIRMED = "confirmed", _("Confirmed")
        VOID = "void", _("Void")

    table = models.ForeignKey("tournaments.Table", on_delete=models.PROTECT, related_name="games")
    set_number = models.PositiveSmallIntegerField()
    game_number = models.PositiveSmallIntegerField()
    # A voided game may be re-dealt: the same game again with a new deal (attempt 2, 3…).
    attempt = models.PositiveSmallIntegerField(default=1)
    ruleset_id = models.CharField(max_length=40)
    ruleset_version = models.PositiveIntegerField()
    # Switches that differ from the pinned preset (RuleSet.with_overrides), usually {}.
    ruleset_overrides = models.JSONField(default=dict, blank=True)
    mode = models.CharField(max_length=20, choices=Mode.choices)
    seats = models.PositiveSmallIntegerField()
    # A duplicate round's deal (docs/duplicate.md): its material without the seed (the games of
    # a round with the same key were dealt the same cards) and the rotation that put hand h at
    # engine seat (h + rotation) % seats. Blank for an ordinary deal, a re-deal included.
    deal_key = models.CharField(max_length=80, blank=True, default="")
    deal_rotation = models.PositiveSmallIntegerField(default=0)
    # Known deal: card names per seat (secret until the game ends). Open table: all null.
    hands = models.JSONField(default=list, blank=True)
    counts = models.JSONField(default=list, blank=True)
    blind = models.JSONField(null=True, blank=True)
    # A family with a draw pile (大財閥 山札): its card names, top first, as dealt (secret until
    # the game ends). None: no pile, or an open table (the pile is unknown).
    pile = models.JSONField(null=True, blank=True)
    # An imported 大財閥 record's `seed` (games.imports): its pile was renewed from that seed,
    # not from the round's, so the game replays as it was played. Empty: the record had none
    # (renewed in card order); unused for a game played at the console.
    record_seed = models.TextField(blank=True, default="")
    # Titles from the previous game of the set, per seat (None: first game, no exchange).
    titles = models.JSONField(null=True, blank=True)
    # Who sits at each engine seat: the table position (`Seat.position`, 1-based) whose
    # player plays engine seat i, e.g. [3, 1, 4, 2]. Positions rather than entries, so a
    # substitute who takes a seat mid-round plays on in it. None: engine seat i is position
    # i + 1 (games started before seat changes existed); read it through games.seating.
    seating = models.JSONField(null=True, blank=True)
    # What a partnership family's match carries into this hand (掼蛋: each team's level,
    # failures at A, the previous hand's finishing order), in the record's `match` form;
    # derived from the table's previous hand when the hand starts. None: not a match game.
    match = models.JSONField(null=True, blank=True)
    leader = models.PositiveSmallIntegerField(null=True, blank=True)
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.IN_PLAY)
    # The highest seq written; the next move must carry last_seq + 1 (checked under row lock).
    last_seq = models.PositiveIntegerField(default=0)
    # When the row at last_seq was written: the decision now in play became due then (the
    # think-time clock, games.clock). Kept beside last_seq so timing a move reads no other row.
    last_logged_at = models.DateTimeField(null=True, blank=True)
    # Bumped by every change the public can see; live feeds compare it (ping, then refetch).
    version = models.PositiveIntegerField(default=0)
    # The seq of an undo waiting for the head referee (no move is accepted meanwhile). Kept on
    # the game row, read under the same lock as `last_seq`, so a move never scans the log.
    undo_pending_seq = models.PositiveIntegerField(null=True, blank=True)
    # The engine state after the latest move (`games.engine.snapshot`) and the version it
    # describes: a cache that spares replaying the log, never the truth — a snapshot whose
    # version is not the game's, or that no longer restores, is ignored and the log replayed.
    state_snapshot = models.JSONField(null=True, blank=True, editable=False)
    snapshot_version = models.PositiveIntegerField(null=True, blank=True, editable=False)
    started_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    finished_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    finished_at = models.DateTimeField(null=True, blank=True)
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    confirmed_at = models.DateTimeField(null=True, blank=True)
    # A seated player who confirmed at the table with the table's PIN (engine seat), when the
    # confirmation came that way rather than from an official's account.
    confirmed_by_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    # The seat that left mid-game (途中棄権), when the game ended by a forfeit.
    forfeit_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    # Void (misdeal, wrong cards): the game counts for nothing; `redeal` plays it again.
    void_reason = models.CharField(max_length=300, blank=True)
    voided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    voided_at = models.DateTimeField(null=True, blank=True)
    redeal = models.BooleanField(default=False)
    # The number of the `ResultVersion` that `results` show (0: no result yet).
    result_version = models.PositiveIntegerField(default=0)
    # Corrected by the organiser after the round's seed was revealed: flagged publicly.
    corrected_after_reveal = models.BooleanField(default=False)
    # Imported by an organiser from a `kakumei-record/1` played elsewhere (games.imports): the
    # SHA-256 of the canonical record, so the same record uploaded again is recognised. Empty:
    # played at the console (or entered as a quick result).
    record_fingerprint = models.CharField(max_length=64, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["table", "set_number", "game_number", "attempt"]
        constraints = [
            # A record counts once at a table (a voided import may be imported again).
            models.UniqueConstraint(
                fields=["table", "record_fingerprint"],
                condition=~models.Q(record_fingerprint="") & ~models.Q(status="void"),
                name="game_record_imported_once",
            ),
            models.UniqueConstraint(
                fields=["table", "set_number", "game_number", "attempt"],
                name="game_attempt_unique",
            ),
            # Of a game's attempts, only one is not void: the one that counts.
            models.UniqueConstraint(
                fields=["table", "set_number", "game_number"],
                condition=~models.Q(status="void"),
                name="game_number_unique",
            ),
            models.CheckConstraint(
                condition=models.Q(attempt__gte=1), name="game_attempt_positive"
            ),
            models.CheckConstraint(
                condition=models.Q(status="void", voided_at__isnull=False)
                | (~models.Q(status="void") & models.Q(voided_at__isnull=True)),
                name="game_void_iff_voided_at",
            ),
            models.CheckConstraint(
                condition=models.Q(forfeit_seat__isnull=True) | models.Q(forfeit_seat__lte=4),
                name="game_forfeit_seat_0_to_4",
            ),
            models.CheckConstraint(
                condition=models.Q(set_number__gte=1, game_number__gte=1),
                name="game_numbers_positive",
            ),
            models.CheckConstraint(
                condition=models.Q(mode__in=["known_deal", "open_table", "quick"]),
                name="game_mode_valid",
            ),
            models.CheckConstraint(
                condition=models.Q(status__in=["in_play", "finished", "confirmed", "void"]),
                name="game_status_valid",
            ),
            models.CheckConstraint(
                condition=models.Q(seats__gte=3, seats__lte=5), name="game_seats_3_to_5"
            ),
            models.CheckConstraint(
                # A game voided while in play never finished.
                condition=models.Q(status__in=["in_play", "void"])
                | models.Q(finished_at__isnull=False),
                name="game_finished_has_time",
            ),
            models.CheckConstraint(
                condition=~models.Q(status="confirmed") | models.Q(confirmed_at__isnull=False),
                name="game_confirmed_has_time",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table} · set {self.set_number} game {self.game_number}"

    @property
    def is_over(self) -> bool:
        return self.status != self.Status.IN_PLAY

    @property
    def is_settled(self) -> bool:
        """Nothing more to do at the table: confirmed, ended by a forfeit, or void."""
        return self.status in (self.Status.CONFIRMED, self.Status.VOID) or (
            self.status == self.Status.FINISHED and self.forfeit_seat is not None
        )

    @property
    def is_imported(self) -> bool:
        """Imported from a record played elsewhere, not played at the console."""
        return bool(self.record_fingerprint)

    @property
    def tournament_id(self) -> int:
        return int(self.table.round.stage.tournament_id)


class Move(models.Model):
    """One row of a game's append-only log.

    - `action`: a play, pass or exchange give; `payload` is the record-format move object
      (`{"seat": 0, "play": ["3S"]}`, `{"seat": 1, "pass": true}`, `{"seat": 3, "give": […]}`);
    - `undo`: takes back the latest effective action (`ref_seq`), with a `reason`; when the
      tournament requires approval it waits for a `decision` row;
    - `decision`: a head referee's approval or refusal of the undo at `ref_seq`.

    Rejected submissions never consume a seq: they are kept apart, in `RejectedSubmission`.
    """

    class Kind(models.TextChoices):
        ACTION = "action", _("Action")
        UNDO = "undo", _("Undo")
        DECISION = "decision", _("Decision")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="moves")
    seq = models.PositiveIntegerField()
    kind = models.CharField(max_length=10, choices=Kind.choices, default=Kind.ACTION)
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    payload = models.JSONField()
    # Engine events of an action (full: they may name exchanged cards; serialise publicly
    # through games.public, never as is).
    events = models.JSONField(default=list)
    ref_seq = models.PositiveIntegerField(null=True, blank=True)
    reason = models.CharField(max_length=300, blank=True)
    approved = models.BooleanField(null=True, blank=True)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    # SHA-256 of the canonical payload: an identical resubmission is answered idempotently.
    fingerprint = models.CharField(max_length=64)
    created_at = models.DateTimeField(default=timezone.now)
    # An action's think time: server milliseconds from when its decision became due (the
    # log's previous row, or the game's start) to its arrival. The clock runs per decision
    # (JDF: 20 s each, games.clock), so each action carries its own. None: undo and decision
    # rows, and actions stored before the clock existed.
    think_ms = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["game", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seq"], name="move_seq_unique"),
            models.CheckConstraint(condition=models.Q(seq__gte=1), name="move_seq_positive"),
            models.CheckConstraint(
                condition=models.Q(kind__in=["action", "undo", "decision"]),
                name="move_kind_valid",
            ),
            # An action names its seat; undo and decision rows name the row they act on.
            models.CheckConstraint(
                condition=(models.Q(kind="action") & models.Q(seat__isnull=False))
                | (~models.Q(kind="action") & models.Q(ref_seq__isnull=False)),
                name="move_kind_fields",
            ),
            models.CheckConstraint(
                condition=~models.Q(kind="undo") | ~models.Q(reason=""),
                name="move_undo_has_reason",
            ),
            models.CheckConstraint(
                condition=~models.Q(kind="decision") | models.Q(approved__isnull=False),
                name="move_decision_has_verdict",
            ),
            models.CheckConstraint(
                condition=models.Q(ref_seq__isnull=True) | models.Q(ref_seq__lt=models.F("seq")),
                name="move_refers_backwards",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game} #{self.seq} {self.kind}"


class GameResult(models.Model):
    """A seat's result in a finished game, in terms every game family shares: place, team,
    points, and the family's own `detail` (its `SeatResult.detail`: for 大富豪 the title and
    the foul / 都落ち flags). Standings count `detail` through the family's declared metrics,
    so no column here belongs to one family."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="results")
    entry = models.ForeignKey(
        "tournaments.Entry", on_delete=models.PROTECT, related_name="game_results"
    )
    seat = models.PositiveSmallIntegerField()  # engine seat, 0 = table position 1
    place = models.PositiveSmallIntegerField()
    # The partnership the seat played in (Guandan's teams); None where every seat plays alone.
    team = models.PositiveSmallIntegerField(null=True, blank=True)
    # The family's `SeatResult.detail` (大富豪: {"title", "foul", "miyako_ochi"}).
    detail = models.JSONField(default=dict, blank=True)
    # The seat that left mid-game (途中棄権): placed last by the forfeit rule.
    forfeit = models.BooleanField(default=False)
    points = models.IntegerField()

    class Meta:
        ordering = ["game", "place"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seat"], name="result_seat_once"),
            # After a 1-2 finish Guandan's two losers share third place: places are unique
            # only where every seat plays alone.
            models.UniqueConstraint(
                fields=["game", "place"],
                condition=models.Q(team__isnull=True),
                name="result_place_once",
            ),
            models.UniqueConstraint(fields=["game", "entry"], name="result_entry_once"),
            models.CheckConstraint(
                condition=models.Q(place__gte=1, place__lte=5), name="result_place_1_to_5"
            ),
            models.CheckConstraint(condition=models.Q(seat__lte=4), name="result_seat_0_to_4"),
        ]

    def __str__(self) -> str:
        return f"{self.game}: {self.place}. {self.entry}"


class ResultVersion(models.Model):
    """Every version of a game's result, kept for ever (officials see the history).

    `GameResult` rows are the current version's placings, what scoring sums; each write of them
    (the game's end, a correction, a forfeit, a void, an undo that reopens the game) appends a
    version here with the placings as they became (`placings`: [] when the game has none)."""

    class Kind(models.TextChoices):
        RECORDED = "recorded", _("Recorded")
        CORRECTION = "correction", _("Correction")
        FORFEIT = "forfeit", _("Forfeit")
        REOPENED = "reopened", _("Reopened by an undo")
        VOID = "void", _("Void")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="result_versions")
    number = models.PositiveIntegerField()
    kind = models.CharField(max_length=20, choices=Kind.choices)
    # [{seat, entry, place, team, detail, forfeit, points}] (`GameResult`'s), first place first.
    placings = models.JSONField(default=list)
    reason = models.CharField(max_length=300, blank=True)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    # Made after the round's seed was revealed (only an organiser may; shown publicly).
    after_reveal = models.BooleanField(default=False)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["game", "number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="result_version_once"),
            models.CheckConstraint(
                condition=models.Q(number__gte=1), name="result_version_positive"
            ),
            models.CheckConstraint(
                condition=models.Q(
                    kind__in=["recorded", "correction", "forfeit", "reopened", "void"]
                ),
                name="result_version_kind_valid",
            ),
            models.CheckConstraint(
                condition=~models.Q(kind="correction") | ~models.Q(reason=""),
                name="result_correction_has_reason",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game} v{self.number} {self.kind}"


class RejectedSubmission(models.Model):
    """A refused move or action (an audit for officials, outside the game's log): what was
    sent, by whom, when, and the code it was refused with. Never consumes a seq.

    A table's refusals name the table (and the game); an organiser's refused round step or draw
    names the round or only the tournament."""

    tournament = models.ForeignKey(
        "tournaments.Tournament", on_delete=models.CASCADE, related_name="rejected_submissions"
    )
    round = models.ForeignKey(
        "tournaments.Round",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="rejected_submissions",
    )
    table = models.ForeignKey(
        "tournaments.Table",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="rejected_submissions",
    )
    game = models.ForeignKey(
        Game, null=True, blank=True, on_delete=models.CASCADE, related_name="rejected_submissions"
    )
    # move, undo, decide_undo, quick_result, confirm, start, correct, void, forfeit, draw,
    # publish, complete, reveal, close…
    action = models.CharField(max_length=30)
    seq = models.IntegerField(null=True, blank=True)
    payload = models.JSONField(null=True, blank=True)
    code = models.CharField(max_length=60)
    message_en = models.CharField(max_length=500, blank=True)
    message_ja = models.CharField(max_length=500, blank=True)
    http_status = models.PositiveSmallIntegerField(null=True, blank=True)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-created_at", "-pk"]
        indexes = [models.Index(fields=["table", "-created_at"], name="rejected_by_table")]

    def __str__(self) -> str:
        return f"{self.created_at:%H:%M:%S} {self.action} {self.code}"


def hash_token(raw: str) -> str:
    return hashlib.sha256(raw.encode()).hexdigest()


class DeviceToken(models.Model):
    """An API token for one referee's device; only its SHA-256 is stored, revocable."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="device_tokens"
    )
    name = models.CharField(max_length=80)
    # The first characters of the raw token, so a referee can tell their devices apart.
    prefix = models.CharField(max_length=8)
    key_hash = models.CharField(max_length=64, unique=True)
    # Scope: a token may do what its user may do, narrowed to one tournament and, for a
    # table's scorer device, to the table of that number in each of the tournament's rounds
    # (the physical table keeps its device all day). Enforced by `games.auth.require_scope`.
    tournament = models.ForeignKey(
        "tournaments.Tournament",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="device_tokens",
    )
    table_number = models.PositiveSmallIntegerField(null=True, blank=True)
    issued_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["user", "-created_at"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(table_number__isnull=True)
                | models.Q(tournament__isnull=False, table_number__gte=1),
                name="device_token_table_needs_tournament",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} · {self.name} ({self.prefix}…)"


class OutboxMessage(models.Model):
    """A Celery task a write asked for, recorded in the write's own transaction
    (`games.outbox`): it reaches the broker after commit, or later if the broker is away, and
    is deleted once handed over. Tasks are idempotent, so a message handed over twice (a crash
    between the broker's acceptance and the delete) converges on the same rows."""

    task = models.CharField(max_length=100)
    kwargs = models.JSONField(default=dict)
    created_at = models.DateTimeField(auto_now_add=True)
    attempts = models.PositiveIntegerField(default=0)
    last_error = models.TextField(blank=True)
    last_attempt_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["pk"]

    def __str__(self) -> str:
        return f"{self.task}({self.kwargs})"


class TimeFault(models.Model):
    """A referee's 時間切れ: the seat in turn overran its think time (games.clock). One per
    decision: `due_seq` is the log's last seq when the fault was called, so a second tap on the
    same decision finds this row; a new decision (a move, an undo) has a new `due_seq`.

    `rule` is what was applied, which may differ from the tournament's rule: a forced pass the
    engine refuses (the seat leads a fresh trick) is recorded as a warning, `refused_code`
    saying why."""

    class Rule(models.TextChoices):
        WARNING = "warning", _("Warning")
        FORCED_PASS = "forced_pass", _("Forced pass")
        PENALTY = "penalty", _("Points deduction")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="time_faults")
    due_seq = models.PositiveIntegerField()
    seat = models.PositiveSmallIntegerField()
    rule = models.CharField(max_length=20, choices=Rule.choices)
    # The tournament's rule was forced_pass but the engine refused the pass (its code).
    refused_code = models.CharField(max_length=60, blank=True)
    # Milliseconds the decision had run when the fault was called.
    think_ms = models.PositiveIntegerField()
    # The forced pass's seq in the log (forced_pass only).
    pass_seq = models.PositiveIntegerField(null=True, blank=True)
    # The warning or deduction given (warning, penalty; and a refused forced pass).
    penalty = models.ForeignKey(
        "tournaments.Penalty",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="time_faults",
    )
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["game", "due_seq"]
        constraints = [
            models.UniqueConstraint(fields=["game", "due_seq"], name="time_fault_once_a_decision"),
            models.CheckConstraint(
                condition=models.Q(rule__in=["warning", "forced_pass", "penalty"]),
                name="time_fault_rule_valid",
            ),
            models.CheckConstraint(condition=models.Q(seat__lte=4), name="time_fault_seat_0_to_4"),
            # A forced pass names its move; the other rules name their penalty.
            models.CheckConstraint(
                condition=(models.Q(rule="forced_pass") & models.Q(pass_seq__isnull=False))
                | (~models.Q(rule="forced_pass") & models.Q(penalty__isnull=False)),
                name="time_fault_names_its_effect",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game} seat {self.seat} after #{self.due_seq}: {self.rule}"
