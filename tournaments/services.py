"""Tournament domain actions (verb_noun): each takes the acting user, checks that user's
per-object permission itself (raising `PermissionDenied`) and runs in one transaction, so
organiser pages, the API and admin actions behave the same.
"""

from __future__ import annotations

import csv
import datetime
import io
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from typing import ParamSpec, TypeVar

from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from games import refusals
from games.models import Game
from tournaments import seating
from tournaments.advancement import Rule, select_advancing
from tournaments.deals import commitment_for, new_seed
from tournaments.models import (
    AuditEntry,
    Entry,
    Official,
    Penalty,
    Player,
    Round,
    Seat,
    Stage,
    StageEntrant,
    Table,
    Tournament,
)
from tournaments.permissions import (
    AnyUser,
    can_create_tournament,
    is_head_referee,
    require_organiser,
)
from tournaments.points import preset_points_table, validate_points_table
from tournaments.rulesets import check_ruleset
from tournaments.selectors import (
    Blocker,
    last_round_tables,
    next_stage,
    round_blockers,
    seating_history,
    stage_participants,
    stage_totals,
)
from tournaments.signals import penalties_changed, round_status_changed, stage_advanced

P = ParamSpec("P")
R = TypeVar("R")


class DomainError(ValueError):
    """The organiser's request cannot be carried out as asked (shown to them as is): a
    stable `code` for machines and the message in English and Japanese."""

    def __init__(self, message_en: str, message_ja: str = "", code: str = "refused") -> None:
        super().__init__(message_en)
        self.code = code
        self.message_en = message_en
        self.message_ja = message_ja or message_en


def _where(target: Round | Stage) -> dict[str, int | None]:
    """The tournament (and round) an organiser's refused step belongs to."""
    if isinstance(target, Round):
        return {"tournament_id": target.stage.tournament_id, "round_id": target.pk}
    return {"tournament_id": target.tournament_id}


def refusals_recorded(action: str) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """Keep every refusal of a round step or draw (`service(round or stage, actor, …)`)."""
    return refusals.refusals_recorded(action, _where, (DomainError, PermissionDenied))


class RoundBlocked(DomainError):
    """The round still has games to settle: `blockers` lists every one of them."""

    def __init__(self, action_en: str, action_ja: str, blockers: Sequence[Blocker]) -> None:
        self.blockers = list(blockers)
        n = len(self.blockers)
        super().__init__(
            f"{action_en}: {n} game(s) of the round are not settled yet (confirmed, forfeited "
            "or void).",
            f"{action_ja}：未確定のゲームが {n} 件あります（確定・棄権・無効のいずれかが必要）。",
            code="round_not_settled",
        )


# ---------------------------------------------------------------------------------------------
# Tournaments and officials


def create_tournament_from_preset(
    *,
    actor: AnyUser,
    name: str,
    slug: str,
    ruleset: str = "jdf@1",
    points_preset: str = "3-2-1-0",
    games_per_set: int = 4,
    sets_per_round: int = 3,
    table_size: int = 4,
    allow_short_tables: bool = True,
    venue: str = "",
    starts_on: datetime.date | None = None,
) -> Tournament:
    """A draft tournament under an engine ruleset preset with the JDF format defaults, its
    first (qualifying) stage, and `actor` as its organiser."""
    if not can_create_tournament(actor) or not isinstance(actor, User):
        raise PermissionDenied("Only staff may create tournaments.")
    ruleset_id, _, version = ruleset.partition("@")
    rules = check_ruleset(ruleset_id, int(version or 1))
    tournament = Tournament(
        name=name,
        slug=slug,
        ruleset_id=rules.id,
        ruleset_version=rules.version,
        points_table=preset_points_table(points_preset),
        games_per_set=games_per_set,
        sets_per_round=sets_per_round,
        table_size=table_size,
        allow_short_tables=allow_short_tables,
        venue=venue,
        starts_on=starts_on,
    )
    tournament.full_clean()
    with transaction.atomic():
        tournament.save()
        Official.objects.create(tournament=tournament, user=actor, role=Official.Role.ORGANISER)
        Stage.objects.create(
            tournament=tournament, order=1, name="Qualifying 予選", kind=Stage.Kind.QUALIFYING
        )
    return tournament


def set_points_table(tournament: Tournament, actor: AnyUser, value: object) -> Tournament:
    require_organiser(actor, tournament)
    validate_points_table(value, tournament.table_size)
    tournament.points_table = value
    tournament.save(update_fields=["points_table"])
    return tournament


@transaction.atomic
def add_official(tournament: Tournament, actor: AnyUser, user: User, role: str) -> Official:
    require_organiser(actor, tournament)
    official, _ = Official.objects.get_or_create(tournament=tournament, user=user, role=role)
    return official


@transaction.atomic
def add_stage(
    tournament: Tournament,
    actor: AnyUser,
    *,
    name: str,
    kind: str = Stage.Kind.CUT,
    advance_top_n: int | None = None,
    advance_top_k_per_table: int | None = None,
    carry_over_totals: bool = False,
) -> Stage:
    require_organiser(actor, tournament)
    last = tournament.stages.aggregate(m=Max("order"))["m"] or 0
    return Stage.objects.create(
        tournament=tournament,
        order=last + 1,
        name=name,
        kind=kind,
        advance_top_n=advance_top_n,
        advance_top_k_per_table=advance_top_k_per_table,
        carry_over_totals=carry_over_totals,
    )


# ---------------------------------------------------------------------------------------------
# Entries


def _next_number(tournament: Tournament) -> int:
    return (tournament.entries.aggregate(m=Max("number"))["m"] or 0) + 1


@transaction.atomic
def register_entry(
    tournament: Tournament,
    actor: AnyUser,
    *,
    display_name: str,
    name_kana: str = "",
    number: int | None = None,
) -> Entry:
    require_organiser(actor, tournament)
    player = Player.objects.create(display_name=display_name, name_kana=name_kana)
    return Entry.objects.create(
        tournament=tournament, player=player, number=number or _next_number(tournament)
    )


@dataclass(frozen=True, slots=True)
class RowError:
    """One problem in a CSV file: `row` is the line number (the header is line 1)."""

    row: int
    column: str
    message: str
    message_ja: str = ""

    def __str__(self) -> str:
        where = f"row {self.row}" + (f", {self.column}" if self.column else "")
        return f"{where}: {self.message}"


class CsvImportError(DomainError):
    def __init__(self, errors: Sequence[RowError]) -> None:
        self.errors = list(errors)
        super().__init__("; ".join(str(e) for e in self.errors))


CSV_COLUMNS = ("number", "display_name", "name_kana", "email")
CSV_REQUIRED = ("display_name",)


def _decode(data: bytes | str) -> str:
    if isinstance(data, str):
        return data.removeprefix("\ufeff")
    try:
        return data.decode("utf-8-sig")  # Excel writes a BOM; tolerate it
    except UnicodeDecodeError as error:
        raise CsvImportError(
            [RowError(0, "", "The file is not UTF-8 text.", "UTF-8 で保存してください。")]
        ) from error


def import_entries_csv(tournament: Tournament, actor: AnyUser, data: bytes | str) -> list[Entry]:
    """Register every row of a CSV file as an entry, or none of them.

    Columns (header row required, any order): `display_name` (required), `number` (the entrant
    number; blank → the next free number), `name_kana`, `email` (recognises a returning player).
    Every problem is collected and raised together as `CsvImportError`; nothing is saved then.
    """
    require_organiser(actor, tournament)
    if tournament.status == Tournament.Status.FINISHED:
        raise DomainError("The tournament is finished; entries are closed.")
    text = _decode(data)
    reader = csv.DictReader(io.StringIO(text, newline=""))
    header = [h.strip() for h in reader.fieldnames or []]
    errors: list[RowError] = []
    if not header:
        raise CsvImportError([RowError(1, "", "The file is empty.", "ファイルが空です。")])
    unknown = [h for h in header if h not in CSV_COLUMNS]
    missing = [c for c in CSV_REQUIRED if c not in header]
    if unknown:
        errors.append(
            RowError(
                1,
                ", ".join(unknown),
                f"Unknown column(s); expected {', '.join(CSV_COLUMNS)}.",
                "不明な列があります。",
            )
        )
    if missing:
        errors.append(
            RowError(1, ", ".join(missing), "Required column missing.", "必須の列がありません。")
        )
    if errors:
        raise CsvImportError(errors)
    reader.fieldnames = header

    with transaction.atomic():
        # Lock the tournament so two imports cannot race for the same entrant numbers.
        Tournament.objects.select_for_update().get(pk=tournament.pk)
        taken = set(tournament.entries.values_list("number", flat=True))
        entered_players = set(tournament.entries.values_list("player_id", flat=True))
        rows: list[tuple[int, int | None, str, str, str]] = []
        numbers_seen: dict[int, int] = {}
        emails_seen: dict[str, int] = {}
        for line, raw in enumerate(reader, start=2):
            if None in raw:
                errors.append(
                    RowError(line, "", "More fields than columns.", "列より多い値があります。")
                )
                continue
            row = {k: (v or "").strip() for k, v in raw.items()}
            if not any(row.values()):
                continue  # blank lines are harmless
            name = row.get("display_name", "")
            kana = row.get("name_kana", "")
            email = row.get("email", "").lower()
            number: int | None = None
            if not name:
                errors.append(RowError(line, "display_name", "Required.", "名前は必須です。"))
            elif len(name) > 80:
                errors.append(
                    RowError(line, "display_name", "Longer than 80 characters.", "80文字以内。")
                )
            if len(kana) > 80:
                errors.append(
                    RowError(line, "name_kana", "Longer than 80 characters.", "80文字以内。")
                )
            raw_number = row.get("number", "")
            if raw_number:
                if not raw_number.isdigit() or int(raw_number) < 1:
                    errors.append(
                        RowError(
                            line,
                            "number",
                            f"{raw_number!r} is not a whole number of 1 or more.",
                            "番号は1以上の整数です。",
                        )
                    )
                else:
                    number = int(raw_number)
                    if number in taken:
                        errors.append(
                            RowError(
                                line,
                                "number",
                                f"Number {number} is already used in this tournament.",
                                "この番号は使用済みです。",
                            )
                        )
                    elif number in numbers_seen:
                        errors.append(
                            RowError(
                                line,
                                "number",
                                f"Number {number} is also on row {numbers_seen[number]}.",
                                "番号が重複しています。",
                            )
                        )
                    numbers_seen.setdefault(number, line)
            if email:
                try:
                    validate_email(email)
                except ValidationError:
                    errors.append(
                        RowError(
                            line, "email", f"{email!r} is not an e-mail address.", "メール形式。"
                        )
                    )
                else:
                    if email in emails_seen:
                        errors.append(
                            RowError(
                                line,
                                "email",
                                f"Also on row {emails_seen[email]}.",
                                "メールが重複しています。",
                            )
                        )
                    emails_seen.setdefault(email, line)
                    known = Player.objects.filter(email__iexact=email).first()
                    if known is not None and known.pk in entered_players:
                        errors.append(
                            RowError(
                                line,
                                "email",
                                f"{known.display_name} ({email}) has already entered.",
                                "既に登録済みです。",
                            )
                        )
            rows.append((line, number, name, kana, email))
        if not rows and not errors:
            errors.append(
                RowError(2, "", "No entrant rows below the header.", "データがありません。")
            )
        if errors:
            raise CsvImportError(errors)

        next_free = max([*taken, *numbers_seen, 0]) + 1
        created: list[Entry] = []
        for _line, number, name, kana, email in rows:
            player = Player.objects.filter(email__iexact=email).first() if email else None
            if player is None:
                player = Player.objects.create(display_name=name, name_kana=kana, email=email)
            if number is None:
                number, next_free = next_free, next_free + 1
            created.append(
                Entry.objects.create(tournament=tournament, player=player, number=number)
            )
    return created


@transaction.atomic
def check_in_entry(entry: Entry, actor: AnyUser, *, checked_in: bool = True) -> Entry:
    """Check an entrant in (受付) or undo it; dropped entrants must be reinstated first."""
    require_organiser(actor, entry.tournament)
    entry = Entry.objects.select_for_update().get(pk=entry.pk)
    if entry.status == Entry.Status.DROPPED:
        raise DomainError(f"{entry} has dropped; reinstate them before checking in.")
    if checked_in:
        entry.status = Entry.Status.CHECKED_IN
        entry.checked_in_at = entry.checked_in_at or timezone.now()
    else:
        entry.status = Entry.Status.REGISTERED
        entry.checked_in_at = None
    entry.save(update_fields=["status", "checked_in_at"])
    return entry


@transaction.atomic
def drop_entry(entry: Entry, actor: AnyUser) -> Entry:
    """The entrant leaves (棄権): later draws leave them out; earlier seats stay on record."""
    require_organiser(actor, entry.tournament)
    entry.status = Entry.Status.DROPPED
    entry.save(update_fields=["status"])
    return entry


@transaction.atomic
def substitute_entry(
    entry: Entry, actor: AnyUser, *, display_name: str, name_kana: str = ""
) -> Entry:
    """A substitute (補欠) takes a dropped or dropping entrant's place in every current stage."""
    require_organiser(actor, entry.tournament)
    if hasattr(entry, "substitute"):
        raise DomainError(f"{entry} already has a substitute.")
    drop_entry(entry, actor)
    player = Player.objects.create(display_name=display_name, name_kana=name_kana)
    substitute = Entry.objects.create(
        tournament=entry.tournament,
        player=player,
        number=_next_number(entry.tournament),
        status=Entry.Status.CHECKED_IN,
        checked_in_at=timezone.now(),
        substitute_for=entry,
        seeded_into=entry.seeded_into,
    )
    StageEntrant.objects.bulk_create(
        StageEntrant(
            stage=place.stage,
            entry=substitute,
            source=place.source,
            note=f"substitute for #{entry.number}",
        )
        for place in entry.stage_places.all()
    )
    return substitute


# ---------------------------------------------------------------------------------------------
# Rounds: draw, publish, reveal


def _entrant_label(entry: Entry) -> str:
    return f"#{entry.number} {entry.player.display_name}"


@refusals_recorded("draw")
@transaction.atomic
def draw_round(
    stage: Stage, actor: AnyUser, *, seed: str | None = None, override_reason: str = ""
) -> Round:
    """Draw the next round of `stage` as a draft (a preview the organiser can redraw).

    The first round of the tournament is a random draw; later rounds re-seat by score band
    (`tournaments.seating`). A still-unpublished draft of the stage is replaced. The previous
    round must be complete (its results final): re-seating by score on partial results is
    refused unless the organiser overrides with a reason, which is audited.
    """
    tournament = stage.tournament
    require_organiser(actor, tournament)
    stage = Stage.objects.select_for_update().get(pk=stage.pk)
    if stage.advanced_at is not None:
        raise DomainError(
            f"{stage.name} has already advanced to the next stage.",
            f"{stage.name} は次のステージへ進出済みです。",
            code="stage_advanced",
        )
    unfinished = list(stage.rounds.filter(status__in=Round.OPEN).order_by("number"))
    override_reason = override_reason.strip()
    if unfinished and not override_reason:
        numbers = ", ".join(str(r.number) for r in unfinished)
        raise DomainError(
            f"Round {numbers} of {stage.name} is not complete: complete it before drawing the "
            "next round, or override with a reason.",
            f"{stage.name} の第{numbers}回戦が完了していません。完了させるか、理由を付けて"
            "強行してください。",
            code="previous_round_not_complete",
        )
    stage.rounds.filter(status=Round.Status.DRAFT).delete()
    number = (stage.rounds.aggregate(m=Max("number"))["m"] or 0) + 1

    participants = stage_participants(stage)
    totals = stage_totals(stage)
    entrants = [seating.Entrant(e.pk, _entrant_label(e), totals.get(e.pk, 0)) for e in participants]
    history = seating_history(tournament)
    round_seed = new_seed()
    draw_seed = seed or round_seed  # the draw's lot is derived from the round's secret seed
    try:
        if history.tables:
            draw = seating.score_draw(
                entrants,
                seed=draw_seed,
                history=history,
                table_size=tournament.table_size,
                allow_short_tables=tournament.allow_short_tables,
            )
        else:
            draw = seating.random_draw(
                entrants,
                seed=draw_seed,
                table_size=tournament.table_size,
                allow_short_tables=tournament.allow_short_tables,
            )
    except seating.SeatingError as error:
        raise DomainError(str(error)) from error
    violations = seating.check_draw(
        draw,
        seating.Constraints(
            frozenset(e.id for e in entrants), tournament.table_size, tournament.allow_short_tables
        ),
    )
    if violations:  # never expected: the checker guards the generator
        raise AssertionError(f"invalid draw: {violations}")

    round_ = Round.objects.create(
        stage=stage,
        number=number,
        seed_secret=round_seed,
        seed_commitment=commitment_for(round_seed),
        draw_method=draw.method,
    )
    if unfinished:
        record_audit(
            tournament,
            actor,
            AuditEntry.Action.DRAW_OVERRIDE,
            round_=round_,
            reason=override_reason,
            data={"open_rounds": [r.number for r in unfinished]},
        )
    for drawn in draw.tables:
        # The explanation shows the seed only as "by lot": it must not leak before reveal.
        explanation = drawn.explanation.replace(f", seed {draw_seed}", "")
        table = Table.objects.create(round=round_, number=drawn.number, explanation=explanation)
        Seat.objects.bulk_create(
            Seat(table=table, round=round_, entry_id=entry_id, position=position)
            for position, entry_id in enumerate(drawn.seats, start=1)
        )
    return round_


def record_audit(
    tournament: Tournament,
    actor: AnyUser,
    action: str,
    *,
    round_: Round | None = None,
    game_id: int | None = None,
    reason: str = "",
    data: dict[str, object] | None = None,
) -> AuditEntry:
    """Record an official action, in the transaction of the change it describes."""
    return AuditEntry.objects.create(
        tournament=tournament,
        round=round_,
        game_id=game_id,
        action=action,
        actor=actor if actor.is_authenticated else None,
        reason=reason,
        data=data or {},
    )


def _status_changed(round_: Round) -> None:
    transaction.on_commit(
        partial(round_status_changed.send, sender=Round, round_id=round_.pk, status=round_.status)
    )


def _locked_round(round_: Round) -> Round:
    return (
        Round.objects.select_for_update(of=("self",))
        .select_related("stage__tournament")
        .get(pk=round_.pk)
    )


@refusals_recorded("publish")
@transaction.atomic
def publish_round(round_: Round, actor: AnyUser) -> Round:
    """Publish the draw and the seed's SHA-256 commitment (the seed itself stays secret)."""
    require_organiser(actor, round_.stage.tournament)
    round_ = _locked_round(round_)
    if round_.status != Round.Status.DRAFT:
        raise DomainError(
            f"{round_} is already published.", "この回戦は公開済みです。", code="not_draft"
        )
    round_.status = Round.Status.PUBLISHED
    round_.published_at = timezone.now()
    round_.save(update_fields=["status", "published_at"])
    _status_changed(round_)
    Tournament.objects.filter(
        pk=round_.stage.tournament_id,
        status__in=[Tournament.Status.DRAFT, Tournament.Status.REGISTRATION],
    ).update(status=Tournament.Status.RUNNING)
    return round_


def require_round_open(round_: Round) -> None:
    """Raise `DomainError` unless games of the round may start, be played and be recorded."""
    if round_.status == Round.Status.DRAFT:
        raise DomainError(
            "The round is not published yet.", "この回戦はまだ公開されていません。", "round_draft"
        )
    if not round_.is_open:
        raise DomainError(
            f"Round {round_.number} is {round_.get_status_display().lower()}: its results change "
            "only through a correction.",
            f"第{round_.number}回戦は{'公開済み' if round_.is_revealed else '完了'}です。"
            "結果の変更は訂正でのみ行えます。",
            "round_settled",
        )


def mark_round_in_play(round_: Round) -> None:
    """published → in_play, when a table starts its first game (the caller holds the round's
    lock and has checked it is open)."""
    if round_.status == Round.Status.PUBLISHED:
        round_.status = Round.Status.IN_PLAY
        round_.save(update_fields=["status"])
        _status_changed(round_)


def _settle(round_: Round, actor: AnyUser, action_en: str, action_ja: str) -> None:
    """published / in_play → complete, once no game blocks it (the round is locked)."""
    blockers = round_blockers(round_)
    if blockers:
        raise RoundBlocked(action_en, action_ja, blockers)
    round_.status = Round.Status.COMPLETE
    round_.completed_at = timezone.now()
    round_.save(update_fields=["status", "completed_at"])
    record_audit(round_.stage.tournament, actor, AuditEntry.Action.ROUND_COMPLETED, round_=round_)


@refusals_recorded("complete")
@transaction.atomic
def complete_round(round_: Round, actor: AnyUser) -> Round:
    """Declare the round's results final: every game confirmed, forfeited or void. From now on
    no move, game or result change is accepted but a correction; the next round may be drawn."""
    require_organiser(actor, round_.stage.tournament)
    round_ = _locked_round(round_)
    if not round_.is_open:
        raise DomainError(
            f"Round {round_.number} is {round_.get_status_display().lower()}, not in play.",
            f"第{round_.number}回戦は対局中ではありません。",
            code="round_not_in_play",
        )
    _settle(round_, actor, "Cannot complete the round", "回戦を完了できません")
    _status_changed(round_)
    return round_


@refusals_recorded("reveal")
@transaction.atomic
def reveal_round_seed(round_: Round, actor: AnyUser) -> Round:
    """Reveal the round's seed, so anyone can re-derive every deal — only once every game of
    the round is settled (a round still in play is completed first, in the same step)."""
    require_organiser(actor, round_.stage.tournament)
    round_ = _locked_round(round_)
    if round_.status == Round.Status.DRAFT:
        raise DomainError(
            "Publish and play the round before revealing its seed.",
            "公開・対局の後にシードを公開できます。",
            code="round_draft",
        )
    if round_.status == Round.Status.REVEALED:
        raise DomainError(
            "The seed is already revealed.", "シードは公開済みです。", code="already_revealed"
        )
    if round_.is_open:
        _settle(round_, actor, "Cannot reveal the seed", "シードを公開できません")
    round_.status = Round.Status.REVEALED
    round_.revealed_at = timezone.now()
    round_.save(update_fields=["status", "revealed_at"])
    record_audit(round_.stage.tournament, actor, AuditEntry.Action.SEED_REVEALED, round_=round_)
    _status_changed(round_)
    return round_


@refusals_recorded("close")
@transaction.atomic
def close_round(round_: Round, actor: AnyUser) -> Round:
    """After the reveal: no result of the round may change any more, not even by a correction."""
    require_organiser(actor, round_.stage.tournament)
    round_ = _locked_round(round_)
    if not round_.is_revealed:
        raise DomainError(
            "Reveal the round's seed before closing it.",
            "シード公開の後に締め切れます。",
            code="round_not_revealed",
        )
    if round_.is_closed:
        raise DomainError("The round is already closed.", "締め切り済みです。", "already_closed")
    round_.closed_at = timezone.now()
    round_.save(update_fields=["closed_at"])
    record_audit(round_.stage.tournament, actor, AuditEntry.Action.ROUND_CLOSED, round_=round_)
    _status_changed(round_)
    return round_


@transaction.atomic
def give_penalty(
    entry: Entry,
    actor: AnyUser,
    *,
    kind: str,
    reason: str,
    points: int = 0,
    round_: Round | None = None,
    game_id: int | None = None,
) -> Penalty:
    """A warning (警告) or a points deduction (減点) for an entrant, with a reason: the head
    referee's or an organiser's ruling, audited, and counted in every standing at once."""
    tournament = entry.tournament
    if not is_head_referee(actor, tournament):
        raise PermissionDenied("Only the head referee or an organiser gives penalties.")
    reason = reason.strip()
    if not reason:
        raise DomainError(
            "Give a reason for the penalty.", "罰則の理由が必要です。", "reason_required"
        )
    if kind == Penalty.Kind.WARNING:
        points = 0
    elif kind != Penalty.Kind.DEDUCTION or points < 1:
        raise DomainError(
            "A deduction takes away at least one point.",
            "減点は1点以上です。",
            code="penalty_points_invalid",
        )
    if round_ is not None and round_.stage.tournament_id != tournament.pk:
        raise DomainError("That round is not in this tournament.", "別の大会の回戦です。")
    if game_id is not None:
        games = Game.objects.filter(pk=game_id, table__seats__entry=entry)
        if round_ is not None:
            games = games.filter(table__round=round_)
        if not games.exists():
            raise DomainError(
                "The entrant did not play that game.",
                "その参加者はこのゲームに参加していません。",
                code="penalty_game_invalid",
            )
    penalty = Penalty.objects.create(
        tournament=tournament,
        entry=entry,
        round=round_,
        game_id=game_id,
        kind=kind,
        points=points,
        reason=reason,
        actor=actor if actor.is_authenticated else None,
    )
    record_audit(
        tournament,
        actor,
        AuditEntry.Action.PENALTY_GIVEN,
        round_=round_,
        game_id=game_id,
        reason=reason,
        data={"penalty": penalty.pk, "entry": entry.number, "kind": kind, "points": points},
    )
    transaction.on_commit(
        partial(penalties_changed.send, sender=Penalty, tournament_id=tournament.pk)
    )
    return penalty


@transaction.atomic
def withdraw_penalty(penalty: Penalty, actor: AnyUser, *, reason: str) -> Penalty:
    """Take a mistaken penalty back: it stays on record, no longer counted."""
    tournament = penalty.tournament
    if not is_head_referee(actor, tournament):
        raise PermissionDenied("Only the head referee or an organiser withdraws penalties.")
    penalty = Penalty.objects.select_for_update().get(pk=penalty.pk)
    reason = reason.strip()
    if not reason:
        raise DomainError("Give a reason.", "理由が必要です。", "reason_required")
    if penalty.withdrawn_at is not None:
        raise DomainError("Already withdrawn.", "取り消し済みです。", "already_withdrawn")
    penalty.withdrawn_at = timezone.now()
    penalty.withdrawn_reason = reason
    penalty.save(update_fields=["withdrawn_at", "withdrawn_reason"])
    record_audit(
        tournament,
        actor,
        AuditEntry.Action.PENALTY_WITHDRAWN,
        round_=penalty.round,
        game_id=penalty.game_id,
        reason=reason,
        data={"penalty": penalty.pk, "entry": penalty.entry.number},
    )
    transaction.on_commit(
        partial(penalties_changed.send, sender=Penalty, tournament_id=tournament.pk)
    )
    return penalty


@transaction.atomic
def assign_referee(table: Table, actor: AnyUser, referee: User | None) -> Table:
    """Put a referee (an official of the tournament) in charge of a table, or clear it."""
    tournament = table.round.stage.tournament
    require_organiser(actor, tournament)
    if (
        referee is not None
        and not Official.objects.filter(
            tournament=tournament,
            user_id=referee.pk,
            role__in=[Official.Role.REFEREE, Official.Role.HEAD_REFEREE],
        ).exists()
    ):
        raise DomainError(f"{referee} is not a referee of {tournament}.")
    table.referee_id = referee.pk if referee is not None else None
    table.save(update_fields=["referee"])
    return table


# ---------------------------------------------------------------------------------------------
# Stages


@transaction.atomic
def advance_stage(
    stage: Stage,
    actor: AnyUser,
    totals: Mapping[int, float],
    *,
    tie_break: Sequence[int] = (),
) -> list[StageEntrant]:
    """Move the qualifiers of `stage` (by its advancement rule) and the entries seeded into the
    next stage into that stage. Ties across a cut line raise `AdvancementTie` unless
    `tie_break` orders the tied entries (see `tournaments.advancement`)."""
    require_organiser(actor, stage.tournament)
    stage = Stage.objects.select_for_update().get(pk=stage.pk)
    target = next_stage(stage)
    if target is None:
        raise DomainError(f"{stage.name} is the last stage; nobody advances from it.")
    if stage.advanced_at is not None:
        raise DomainError(f"{stage.name} has already advanced.")
    if stage.rounds.exclude(status__in=Round.SETTLED).exists():
        raise DomainError(
            "Every round of the stage must be complete before advancing: advancement counts "
            "confirmed results only.",
            "進出判定は確定した結果のみで行います。ステージの全回戦を完了させてください。",
            code="stage_not_complete",
        )
    if not (stage.advance_top_n or stage.advance_top_k_per_table):
        raise DomainError(f"{stage.name} has no advancement rule.")
    playing = {e.pk for e in stage_participants(stage)}
    outcome = select_advancing(
        {entry: total for entry, total in totals.items() if entry in playing},
        Rule(top_n=stage.advance_top_n, top_k_per_table=stage.advance_top_k_per_table),
        tables=last_round_tables(stage),
        tie_break=tie_break,
    )
    places = [
        StageEntrant(
            stage=target,
            entry_id=entry,
            source=StageEntrant.Source.ADVANCED,
            note=outcome.reasons[entry],
        )
        for entry in outcome.advancing
    ]
    seeded = stage.tournament.entries.filter(seeded_into=target).exclude(
        status=Entry.Status.DROPPED
    )
    places += [
        StageEntrant(stage=target, entry=entry, source=StageEntrant.Source.SEEDED, note="seeded")
        for entry in seeded
        if entry.pk not in outcome.advancing
    ]
    created = StageEntrant.objects.bulk_create(places)
    stage.advanced_at = timezone.now()
    stage.save(update_fields=["advanced_at"])
    # After commit: scoring sends the `stage.cut` webhook and recomputes the next stage.
    transaction.on_commit(
        partial(
            stage_advanced.send,
            sender=Stage,
            stage_id=stage.pk,
            target_stage_id=target.pk,
            advancing=list(outcome.advancing),
        )
    )
    return created
