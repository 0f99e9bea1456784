"""Tournament domain actions (verb_noun): each takes the acting user, checks that user's
per-object permission itself (raising `PermissionDenied`) and runs in one transaction, so
organiser pages, the API and admin actions behave the same.
"""

from __future__ import annotations

import csv
import datetime
import hashlib
import hmac
import io
import re
import secrets
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any, ParamSpec, TypeVar

from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.db.models import F, Max, Q, QuerySet
from django.utils import timezone

from games import refusals
from games.auth import forget_device_tokens
from games.engine.daifugo import DAIFUGO
from games.engine.errors import RulesError
from games.live import notify_seats_changed
from games.models import DeviceToken, Game
from tournaments import pairing, seating
from tournaments.advancement import (
    Rule,
    TieBreak,
    Where,
    playoff_tie_break,
    preview_advancing,
    select_advancing,
)
from tournaments.advancement_words import reason_words, tie_heading
from tournaments.deals import commitment_for, new_seed
from tournaments.impact import (
    CutChangeUnconfirmed,
    Impact,
    require_cut_confirmed,
    ruling_impact,
)
from tournaments.models import (
    MAX_CYCLE,
    MAX_GAMES_PER_SET,
    AuditEntry,
    Bye,
    Entry,
    League,
    Official,
    Penalty,
    Player,
    Round,
    Season,
    Seat,
    SignInCode,
    Stage,
    StageEntrant,
    Table,
    Team,
    Tournament,
    default_match_points,
)
from tournaments.permissions import (
    AnyUser,
    can_create_tournament,
    is_head_referee,
    require_organiser,
)
from tournaments.points import preset_points_table, validate_points_table
from tournaments.ranking import stage_ranking
from tournaments.rulesets import (
    DEFAULT_RULESET,
    FROM_RULESET,
    TABLE_DECIDES,
    FromRuleset,
    check_ruleset,
    cycle_defaults,
    event_rules,
    team_size,
    with_overrides,
)
from tournaments.selectors import (
    Blocker,
    draw_layout,
    last_round_tables,
    main_stages,
    next_stage,
    organised_tournaments,
    pair_teams_of,
    playoff_table_size,
    round_blockers,
    seating_history,
    stage_participants,
    stage_teams,
    stage_totals,
    team_history,
    team_players,
)
from tournaments.signals import (
    penalties_changed,
    round_status_changed,
    stage_advanced,
    tournament_settings_changed,
)
from tournaments.switch_words import in_both

P = ParamSpec("P")
R = TypeVar("R")
_T = TypeVar("_T")


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


@dataclass(frozen=True, slots=True)
class Format:
    games_per_set: int
    sets_per_round: int
    table_size: int
    uneven_tables: str


# The JDF's format: sets of 4 games, 3 sets a round, tables of 4 (one short when uneven).
JDF_FORMAT = Format(4, 3, 4, Tournament.UnevenTables.SHORT)
# The most hands a team match plays, whatever its length: "until a team wins at A" rarely
# needs 30 (a team climbs at most 3 levels a hand), and a fixed-length match sets its own.
TEAM_HAND_CAP = 30
# A team event (掼蛋 Guandan): two pairs a table, partners facing; one match a round (one set
# whose games are its hands); an odd team out has a bye (a table never seats three).
TEAM_FORMAT = Format(TEAM_HAND_CAP, 1, 4, Tournament.UnevenTables.BYES)
MAX_MATCH_MINUTES = 600


def _team_format_errors(values: Mapping[str, object]) -> dict[str, DomainError]:
    """The format a team event must keep: tables of two pairs, one match a round, byes."""
    errors: dict[str, DomainError] = {}
    if "table_size" in values and values["table_size"] != TEAM_FORMAT.table_size:
        errors["table_size"] = DomainError(
            "A team event seats two pairs at each table: tables of 4.",
            "チーム戦の卓は2ペア（4人）です。",
            "team_table_size",
        )
    if "uneven_tables" in values and values["uneven_tables"] != Tournament.UnevenTables.BYES:
        errors["uneven_tables"] = DomainError(
            "A team event gives an odd team out a bye: a table never seats three teams.",
            "チーム戦では余った1チームが不戦になります（3チームの卓はありません）。",
            "team_byes_only",
        )
    if "sets_per_round" in values and values["sets_per_round"] != 1:
        errors["sets_per_round"] = DomainError(
            "A team event plays one match a round (one set whose games are the hands).",
            "チーム戦は1回戦に1対戦（1セット）です。",
            "team_one_match",
        )
    return errors


def _match_errors(values: Mapping[str, object]) -> dict[str, DomainError]:
    """The match length and match points of a team event, as given (all four keys)."""
    errors: dict[str, DomainError] = {}
    length, minutes = values["match_length"], values["match_minutes"]
    if length not in Tournament.MatchLength.values:
        errors["match_length"] = DomainError(
            "Choose the match length: until A, a number of hands or a time limit.",
            "対戦の長さを選んでください（Aまで・局数・制限時間）。",
            "match_length_invalid",
        )
    if minutes is not None and (
        isinstance(minutes, bool)
        or not isinstance(minutes, int)
        or not 1 <= minutes <= MAX_MATCH_MINUTES
    ):
        errors["match_minutes"] = DomainError(
            f"A time limit is a whole number of minutes from 1 to {MAX_MATCH_MINUTES}.",
            f"制限時間は1〜{MAX_MATCH_MINUTES}分の整数です。",
            "match_minutes_invalid",
        )
    elif length == Tournament.MatchLength.TIME and minutes is None:
        errors["match_minutes"] = DomainError(
            "A time-limited match needs its minutes.",
            "時間制の対戦には制限時間（分）が必要です。",
            "match_minutes_required",
        )
    if values["match_points_by"] not in Tournament.MatchPointsBy.values:
        errors["match_points_by"] = DomainError(
            "Match points go by result or by level difference.",
            "勝点は勝敗か級の差で決めます。",
            "match_points_by_invalid",
        )
    points = values["match_points"]
    keys = ("win", "draw", "loss")
    if not (
        isinstance(points, Mapping)
        and set(points) == set(keys)
        and all(type(points[k]) is int and 0 <= points[k] <= 100 for k in keys)
        and points["win"] >= points["draw"] >= points["loss"]
    ):
        errors["match_points"] = DomainError(
            "Match points are whole numbers from 0 to 100 for a win, a draw and a loss, a "
            "win scoring at least a draw and a draw at least a loss.",
            "勝点は勝ち・引き分け・負けそれぞれ0〜100の整数で、勝ち≧引き分け≧負けです。",
            "match_points_invalid",
        )
    return errors


def create_tournament_from_preset(
    *,
    actor: AnyUser,
    name: str,
    slug: str,
    ruleset: str = DEFAULT_RULESET,
    points_preset: str = "3-2-1-0",
    games_per_set: int | None = None,
    sets_per_round: int | None = None,
    table_size: int | None = None,
    uneven_tables: str | None = None,
    bye_points: int | None = None,
    venue: str = "",
    starts_on: datetime.date | None = None,
    title_reset_every: int | FromRuleset | None = FROM_RULESET,
    seat_change_every: int | FromRuleset | None = FROM_RULESET,
    match_length: str = Tournament.MatchLength.TO_ACE,
    match_minutes: int | None = None,
    match_points_by: str = Tournament.MatchPointsBy.RESULT,
    match_points: Mapping[str, int] | None = None,
) -> Tournament:
    """A draft tournament under an engine ruleset preset, its first (qualifying) stage, and
    `actor` as its organiser. The format defaults to the JDF's (`JDF_FORMAT`) or, under a
    partnership ruleset (掼蛋 Guandan), to a team event (`TEAM_FORMAT`: tables of two pairs,
    one match a round whose hands are the set's games, up to `TEAM_HAND_CAP`; byes for an odd
    team out, scoring a win's match points). The title and seat cycles default to the
    ruleset's (`rulesets.CYCLE_DEFAULTS`: UECda resets titles every 100 games and changes seats
    every 3; the other presets never do within a set)."""
    if not can_create_tournament(actor) or not isinstance(actor, User):
        raise PermissionDenied("Only staff may create tournaments.")
    ruleset_id, _, version = ruleset.partition("@")
    rules = check_ruleset(ruleset_id, int(version or 1))
    cycles = cycle_defaults(rules.id)
    if isinstance(title_reset_every, FromRuleset):
        title_reset_every = cycles.title_reset_every
    if isinstance(seat_change_every, FromRuleset):
        seat_change_every = cycles.seat_change_every
    team = team_size(rules.id, rules.version) is not None
    defaults = TEAM_FORMAT if team else JDF_FORMAT
    points = dict(match_points) if match_points is not None else default_match_points()
    tournament = Tournament(
        match_length=match_length,
        match_minutes=match_minutes,
        match_points_by=match_points_by,
        match_points=points,
        name=name,
        slug=slug,
        ruleset_id=rules.id,
        ruleset_version=rules.version,
        points_table=preset_points_table(points_preset),
        games_per_set=defaults.games_per_set if games_per_set is None else games_per_set,
        sets_per_round=defaults.sets_per_round if sets_per_round is None else sets_per_round,
        table_size=defaults.table_size if table_size is None else table_size,
        uneven_tables=defaults.uneven_tables if uneven_tables is None else uneven_tables,
        bye_points=0 if bye_points is None else bye_points,
        venue=venue,
        starts_on=starts_on,
        title_reset_every=None if team else title_reset_every,
        seat_change_every=None if team else seat_change_every,
    )
    if team:
        refused = _team_format_errors(
            {f: getattr(tournament, f) for f in ("table_size", "uneven_tables", "sets_per_round")}
        ) | _match_errors(
            {
                "match_length": match_length,
                "match_minutes": match_minutes,
                "match_points_by": match_points_by,
                "match_points": points,
            }
        )
        if refused:
            raise ValidationError({f: e.message_en for f, e in refused.items()})
    tournament.full_clean()
    with transaction.atomic():
        tournament.save()
        Official.objects.create(tournament=tournament, user=actor, role=Official.Role.ORGANISER)
        Stage.objects.create(
            tournament=tournament, order=1, name="Qualifying 予選", kind=Stage.Kind.QUALIFYING
        )
    return tournament


def set_points_table(tournament: Tournament, actor: AnyUser, value: object) -> Tournament:
    """Change the points table: validated, audited, results rescored (it is one of the
    settings `update_tournament_settings` changes)."""
    update_tournament_settings(tournament, actor, points_table=value)
    tournament.refresh_from_db()
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
    name: str = "",
    kind: str = Stage.Kind.CUT,
    advance_top_n: int | None = None,
    advance_top_k_per_table: int | None = None,
    carry_over_totals: bool = False,
    tournament_order: str = Stage.TournamentOrder.STAGE_FIRST,
) -> Stage:
    """Add a cut (準決勝) or final (決勝) after the last stage, validated now rather than at
    draw time (`check_stage_rule`).

    `advance_top_n` / `advance_top_k_per_table` say who advances INTO the new stage; the rule
    is stored on the previous stage (the one people advance out of). Left out, the previous
    stage's current rule stays — it must have one. Audited as STAGE_CREATED."""
    require_organiser(actor, tournament)
    Tournament.objects.select_for_update().get(pk=tournament.pk)
    if kind not in (Stage.Kind.CUT, Stage.Kind.FINAL):
        raise StageRuleError(
            "A new stage is a cut (準決勝) or a final (決勝); a playoff is created from a tie.",
            "追加できるのは準決勝か決勝です。順位決定戦は同点から作成します。",
            code="stage_kind_invalid",
            field="kind",
        )
    # The kind's name in the organiser's language (a stored name stays as it was written).
    name = name.strip() or str(Stage.Kind(kind).label)
    previous = main_stages(tournament).last()
    _check_tournament_order(tournament_order, previous is None)
    data: dict[str, object] = {
        "name": name,
        "kind": kind,
        "carry_over_totals": carry_over_totals,
        "tournament_order": tournament_order,
    }
    if previous is not None:
        _refuse_stage_after(previous)
        top_n, top_k = previous.advance_top_n, previous.advance_top_k_per_table
        if advance_top_n is not None or advance_top_k_per_table is not None:
            top_n, top_k = advance_top_n, advance_top_k_per_table
        if top_n is None and top_k is None:
            raise StageRuleError(
                f"Say who advances from {previous.name} into {name}: the top N by total points "
                "and/or the top K of each table.",
                f"{previous.name} からの進出条件（総合上位N名・各卓上位K名）を指定してください。",
                code="rule_required",
                field="advance_top_n",
            )
        check_stage_rule(previous, top_n, top_k, target_kind=kind)
        if (top_n, top_k) != (previous.advance_top_n, previous.advance_top_k_per_table):
            data["rule_of"] = {
                "stage": previous.pk,
                "old": previous.advancement_label,
                "advance_top_n": top_n,
                "advance_top_k_per_table": top_k,
            }
            previous.advance_top_n, previous.advance_top_k_per_table = top_n, top_k
            previous.save(update_fields=["advance_top_n", "advance_top_k_per_table"])
    stage = Stage.objects.create(
        tournament=tournament,
        # After every stage, playoffs included: `next_stage` skips playoffs.
        order=(tournament.stages.aggregate(m=Max("order"))["m"] or 0) + 1,
        name=name,
        kind=kind,
        carry_over_totals=carry_over_totals,
        tournament_order=tournament_order,
    )
    record_audit(
        tournament, actor, AuditEntry.Action.STAGE_CREATED, data={"stage": stage.pk, **data}
    )
    return stage


def _check_tournament_order(value: str, first: bool) -> None:
    """`Stage.tournament_order` is one of its choices, and only a stage after the first (that
    is not a playoff) can rank with the stage before it."""
    if value not in Stage.TournamentOrder.values:
        raise StageRuleError(
            f"Unknown tournament order {value!r}: stage_first or with_previous.",
            f"大会全体の順位の決め方 {value!r} は選べません（stage_first か with_previous）。",
            code="tournament_order_invalid",
            field="tournament_order",
        )
    if first and value == Stage.TournamentOrder.WITH_PREVIOUS:
        raise StageRuleError(
            "Only a stage after the first (not a playoff) can be ranked together with the "
            "stage before it.",
            "前のステージと合わせて順位を付けられるのは、2番目以降のステージ（順位決定戦を除く）だけです。",
            code="no_previous_stage",
            field="tournament_order",
        )


# ---------------------------------------------------------------------------------------------
# Entries: registration and walk-ins, the CSV import (previewed first), check-in and late
# arrivals, edits, withdrawals (棄権) and reinstatement, substitutes (補欠) between rounds and
# mid-round. The rules are documented in docs/tournament-day.md ("Entrants on the day").


def _next_number(tournament: Tournament) -> int:
    return (tournament.entries.aggregate(m=Max("number"))["m"] or 0) + 1


def is_tournament_day(tournament: Tournament, today: datetime.date | None = None) -> bool:
    """The tournament is running, or today is one of its days: walk-ins check in at once."""
    if tournament.status == Tournament.Status.RUNNING:
        return True
    if tournament.starts_on is None:
        return False
    today = today or timezone.localdate()
    return tournament.starts_on <= today <= (tournament.ends_on or tournament.starts_on)


def _entries_open(tournament: Tournament) -> None:
    if tournament.status == Tournament.Status.FINISHED:
        raise DomainError(
            "The tournament is finished; entries are closed.",
            "大会は終了しました。参加者の追加・変更はできません。",
            code="tournament_finished",
        )


def _clean_person(display_name: str, name_kana: str, email: str) -> tuple[str, str, str]:
    display_name, name_kana, email = display_name.strip(), name_kana.strip(), email.strip().lower()
    if not display_name:
        raise DomainError("Enter the entrant's name.", "名前を入力してください。", "name_required")
    if len(display_name) > 80 or len(name_kana) > 80:
        raise DomainError(
            "A name is at most 80 characters.", "名前は80文字以内です。", "name_too_long"
        )
    if email:
        try:
            validate_email(email)
        except ValidationError as error:
            raise DomainError(
                f"{email!r} is not an e-mail address.",
                "メールアドレスの形式が正しくありません。",
                "email_invalid",
            ) from error
    return display_name, name_kana, email


def _require_number_free(
    tournament: Tournament, number: int, *, entry: Entry | None = None
) -> None:
    if number < 1:
        raise DomainError(
            "An entrant number is a whole number of 1 or more.",
            "参加番号は1以上の整数です。",
            "number_invalid",
        )
    taken = tournament.entries.select_related("player").filter(number=number)
    if entry is not None:
        taken = taken.exclude(pk=entry.pk)
    holder = taken.first()
    if holder is not None:
        raise DomainError(
            f"Number {number} is already taken by {holder.player.display_name}.",
            f"番号 {number} は {holder.player.display_name} さんが使用中です。",
            "number_taken",
        )


def _person_for(tournament: Tournament, display_name: str, name_kana: str, email: str) -> Player:
    """The player a new entry is for: the returning player with this e-mail, else a new one.
    Refused when that person has entered already: the same e-mail, or the same name where
    neither gives an e-mail."""
    if email:
        player = Player.objects.filter(email__iexact=email).first()
        if player is not None:
            entered = tournament.entries.filter(player=player).first()
            if entered is not None:
                raise DomainError(
                    f"{player.display_name} ({email}) has already entered as #{entered.number}.",
                    f"{player.display_name} さん（{email}）は #{entered.number} で登録済みです。",
                    "already_entered",
                )
            return player
    else:
        same = tournament.entries.filter(
            player__display_name=display_name, player__email=""
        ).first()
        if same is not None:
            raise DomainError(
                f"{display_name} has already entered as #{same.number}. If this is another "
                "person of the same name, give their e-mail to tell them apart.",
                f"{display_name} さんは #{same.number} で登録済みです。同名の別の方なら"
                "メールアドレスを入力してください。",
                "already_entered",
            )
    return Player.objects.create(display_name=display_name, name_kana=name_kana, email=email)


@transaction.atomic
def add_walk_in(
    tournament: Tournament,
    actor: AnyUser,
    *,
    display_name: str,
    name_kana: str = "",
    email: str = "",
    number: int | None = None,
    check_in: bool = True,
) -> Entry:
    """Add one entrant (a walk-in, 当日参加): the returning player with that e-mail or a new
    one, under `number` or the next free number, checked in at once when `check_in`. A
    checked-in entrant plays in the first stage from its next draw. Audited (ENTRY_ADDED)."""
    tournament = _open_to_newcomers(tournament, actor)
    display_name, name_kana, email = _clean_person(display_name, name_kana, email)
    if number is not None:
        _require_number_free(tournament, number)
    player = _person_for(tournament, display_name, name_kana, email)
    return _enter(tournament, actor, player, number, check_in=check_in)


def _open_to_newcomers(tournament: Tournament, actor: AnyUser) -> Tournament:
    """The tournament, locked, once the actor may add a newcomer to it: its organiser, entries
    open, and its first stage not over (after that a newcomer only comes in as a
    substitute)."""
    require_organiser(actor, tournament)
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    _entries_open(tournament)
    first = tournament.stages.order_by("order").first()
    if first is not None and first.advanced_at is not None:
        raise DomainError(
            f"{first.name} is over: a newcomer can only come in as a substitute now.",
            f"{first.name}は終了しました。新しい参加者は補欠としてのみ加われます。",
            "first_stage_over",
        )
    return tournament


def _enter(
    tournament: Tournament,
    actor: AnyUser,
    player: Player,
    number: int | None,
    *,
    check_in: bool,
    **audit: object,
) -> Entry:
    """The player's entry under `number` or the next free one, checked in when `check_in`;
    audited (ENTRY_ADDED) with `audit` added to what every entry records."""
    entry = Entry.objects.create(
        tournament=tournament,
        player=player,
        number=number or _next_number(tournament),
        status=Entry.Status.CHECKED_IN if check_in else Entry.Status.REGISTERED,
        checked_in_at=timezone.now() if check_in else None,
    )
    record_audit(
        tournament,
        actor,
        AuditEntry.Action.ENTRY_ADDED,
        data={
            "entry": entry.number,
            "name": player.display_name,
            "checked_in": check_in,
            **audit,
        },
    )
    return entry


def register_entry(
    tournament: Tournament,
    actor: AnyUser,
    *,
    display_name: str,
    name_kana: str = "",
    number: int | None = None,
) -> Entry:
    """Register an entrant ahead of the day (not checked in): a walk-in's path."""
    return add_walk_in(
        tournament,
        actor,
        display_name=display_name,
        name_kana=name_kana,
        number=number,
        check_in=False,
    )


BOT_NAME = re.compile(r"[!-~]{1,14}")
"""A UECda program's handshake name: 1–14 printable ASCII characters, no spaces."""


@transaction.atomic
def register_bot_entry(
    tournament: Tournament,
    actor: AnyUser,
    *,
    bot_name: str,
    display_name: str = "",
    number: int | None = None,
) -> Entry:
    """Enter a bot (a UECda client program, docs/bots.md), checked in at once: the bot player
    known by `bot_name` (the name its program sends in the handshake), created when new.
    Audited (ENTRY_ADDED) as any walk-in, and refused as one once the first stage is over."""
    tournament = _open_to_newcomers(tournament, actor)
    bot_name = bot_name.strip()
    if not BOT_NAME.fullmatch(bot_name):
        raise DomainError(
            "A bot's name is 1 to 14 ASCII letters, digits or signs, without spaces.",
            "ボット名は空白なしの半角英数字・記号で1〜14文字です。",
            "bot_name_invalid",
        )
    display_name = display_name.strip() or bot_name
    if len(display_name) > 80:
        raise DomainError(
            "A name is at most 80 characters.", "名前は80文字以内です。", "name_too_long"
        )
    if number is not None:
        _require_number_free(tournament, number)
    player, _created = Player.objects.get_or_create(
        bot_name=bot_name, defaults={"display_name": display_name}
    )
    entered = tournament.entries.filter(player=player).first()
    if entered is not None:
        raise DomainError(
            f"The bot {bot_name} has already entered as #{entered.number}.",
            f"ボット {bot_name} は #{entered.number} で登録済みです。",
            "already_entered",
        )
    return _enter(tournament, actor, player, number, check_in=True, bot=bot_name)


@transaction.atomic
def edit_entry(
    entry: Entry,
    actor: AnyUser,
    *,
    display_name: str,
    name_kana: str = "",
    email: str = "",
    number: int | None = None,
) -> Entry:
    """Correct an entrant's name, kana, e-mail or number (a number taken by another entrant,
    or an e-mail of another player, is refused). Audited (ENTRY_EDITED) when anything changed;
    the e-mail itself stays out of the audit record."""
    tournament = entry.tournament
    require_organiser(actor, tournament)
    Tournament.objects.select_for_update().get(pk=tournament.pk)
    entry = Entry.objects.select_related("player").get(pk=entry.pk)
    display_name, name_kana, email = _clean_person(display_name, name_kana, email)
    number = entry.number if number is None else number
    if number != entry.number:
        _require_number_free(tournament, number, entry=entry)
    player = entry.player
    if email and email != player.email.lower():
        other = Player.objects.filter(email__iexact=email).exclude(pk=player.pk).first()
        if other is not None:
            raise DomainError(
                f"That e-mail belongs to another player ({other.display_name}).",
                f"そのメールアドレスは別の方（{other.display_name}）のものです。",
                "email_in_use",
            )
    changes: dict[str, object] = {}
    for field, value in (("display_name", display_name), ("name_kana", name_kana)):
        if getattr(player, field) != value:
            changes[field] = [getattr(player, field), value]
            setattr(player, field, value)
    if player.email.lower() != email:
        changes["email"] = "changed"
        player.email = email
    if number != entry.number:
        changes["number"] = [entry.number, number]
        entry.number = number
        entry.save(update_fields=["number"])
    if not changes:
        return entry
    player.save(update_fields=["display_name", "name_kana", "email"])
    record_audit(
        tournament,
        actor,
        AuditEntry.Action.ENTRY_EDITED,
        data={"entry": entry.number, "changes": changes},
    )
    return entry


def _open_seats(entry: Entry) -> list[Seat]:
    """The entry's seats in rounds being played (published or in play), locked."""
    return list(
        Seat.objects.select_for_update(of=("self",))
        .filter(entry=entry, round__status__in=Round.OPEN)
        .select_related("table", "round")
        .order_by("round__stage__order", "round__number")
    )


@transaction.atomic
def withdraw_entry(entry: Entry, actor: AnyUser, *, reason: str = "") -> Entry:
    """The entrant withdraws (棄権): no later draw seats them; their earlier seats and results
    stay on record. A seat in a round being played stays theirs: the head referee forfeits
    their games there (途中棄権) or the organiser seats a substitute. Audited (ENTRY_WITHDRAWN)
    with the reason (the pages and the API require one)."""
    require_organiser(actor, entry.tournament)
    entry = Entry.objects.select_for_update().select_related("player").get(pk=entry.pk)
    if entry.status == Entry.Status.DROPPED:
        raise DomainError(
            f"{entry} has already withdrawn.",
            f"{entry} は既に棄権しています。",
            "already_withdrawn",
        )
    entry.status = Entry.Status.DROPPED
    entry.save(update_fields=["status"])
    seats = _open_seats(entry)
    record_audit(
        entry.tournament,
        actor,
        AuditEntry.Action.ENTRY_WITHDRAWN,
        round_=seats[0].round if seats else None,
        reason=reason.strip(),
        data={
            "entry": entry.number,
            "seated": [{"round": s.round.number, "table": s.table.number} for s in seats],
        },
    )
    return entry


# The first name of the one withdrawal path (admin actions and older callers).
drop_entry = withdraw_entry


@transaction.atomic
def reinstate_entry(entry: Entry, actor: AnyUser, *, reason: str = "") -> Entry:
    """Undo a withdrawal: the entrant is back (checked in again if they had checked in or
    played) and is seated from the next draw; the rounds they missed score nothing. Refused
    once a substitute has taken their place. Audited (ENTRY_EDITED, `reinstated`)."""
    require_organiser(actor, entry.tournament)
    entry = Entry.objects.select_for_update().select_related("player").get(pk=entry.pk)
    if entry.status != Entry.Status.DROPPED:
        raise DomainError(
            f"{entry} has not withdrawn.", f"{entry} は棄権していません。", "not_withdrawn"
        )
    substitute = Entry.objects.filter(substitute_for=entry).first()
    if substitute is not None:
        raise DomainError(
            f"Substitute #{substitute.number} has taken {entry}'s place.",
            f"補欠 #{substitute.number} が {entry} の代わりに出場しています。",
            "substituted",
        )
    # Checked in again if they had checked in (or played); else registered, as before.
    if entry.checked_in_at or entry.seats.exists():
        entry.status = Entry.Status.CHECKED_IN
        entry.checked_in_at = entry.checked_in_at or timezone.now()
    else:
        entry.status = Entry.Status.REGISTERED
    entry.save(update_fields=["status", "checked_in_at"])
    record_audit(
        entry.tournament,
        actor,
        AuditEntry.Action.ENTRY_EDITED,
        reason=reason.strip(),
        data={"entry": entry.number, "reinstated": True, "status": entry.status},
    )
    return entry


def _substitute_entrant(entry: Entry, substitute: Entry, seats: Sequence[Seat]) -> Entry:
    """Check an existing entrant may stand in for `entry` (locked)."""
    substitute = Entry.objects.select_for_update().select_related("player").get(pk=substitute.pk)
    problem = ""
    if substitute.tournament_id != entry.tournament_id:
        problem = "is not an entrant of this tournament"
    elif substitute.pk == entry.pk:
        problem = "cannot stand in for themselves"
    elif substitute.status == Entry.Status.DROPPED:
        problem = "has withdrawn"
    elif substitute.substitute_for_id is not None:
        problem = "already stands in for another entrant"
    elif Seat.objects.filter(entry=substitute, round__in=[s.round_id for s in seats]).exists():
        problem = "is seated in this round already"
    elif Bye.objects.filter(entry=substitute, round__in=[s.round_id for s in seats]).exists():
        problem = "has a bye in this round (seated and on a bye would score twice)"
    if problem:
        raise DomainError(
            f"{substitute} {problem}.",
            f"{substitute} は補欠になれません。",
            "substitute_invalid",
        )
    return substitute


@transaction.atomic
def substitute_entry(
    entry: Entry,
    actor: AnyUser,
    *,
    display_name: str = "",
    name_kana: str = "",
    email: str = "",
    substitute: Entry | None = None,
    reason: str = "",
) -> Entry:
    """A substitute (補欠) takes `entry`'s place: a new person (`display_name`…) or an existing
    entrant not seated in the round (`substitute`). The original withdraws; the substitute is
    checked in, takes the original's places in later stages and, in a round being played
    (published or in play), the original's seat itself: `Seat.entry` becomes the substitute,
    `Seat.substituted_entry` / `substituted_at` keep who held it and when. Results of games
    finished before that stay with the original (a correction keeps them there); the game in
    play and every later one count for the substitute. Audited (ENTRY_SUBSTITUTED)."""
    tournament = entry.tournament
    require_organiser(actor, tournament)
    Tournament.objects.select_for_update().get(pk=tournament.pk)
    _entries_open(tournament)
    entry = Entry.objects.select_for_update().select_related("player").get(pk=entry.pk)
    held = Entry.objects.filter(substitute_for=entry).first()
    if held is not None:
        raise DomainError(
            f"{entry} already has a substitute (#{held.number}).",
            f"{entry} には既に補欠（#{held.number}）がいます。",
            "already_substituted",
        )
    seats = _open_seats(entry)
    now = timezone.now()
    if substitute is not None:
        substitute = _substitute_entrant(entry, substitute, seats)
        substitute.substitute_for = entry
        substitute.status = Entry.Status.CHECKED_IN
        substitute.checked_in_at = substitute.checked_in_at or now
        substitute.save(update_fields=["substitute_for", "status", "checked_in_at"])
    else:
        display_name, name_kana, email = _clean_person(display_name, name_kana, email)
        player = _person_for(tournament, display_name, name_kana, email)
        substitute = Entry.objects.create(
            tournament=tournament,
            player=player,
            number=_next_number(tournament),
            status=Entry.Status.CHECKED_IN,
            checked_in_at=now,
            substitute_for=entry,
            seeded_into=entry.seeded_into,
        )
    if entry.team_id is not None:
        # A pair's substitute plays in the pair (the original stays a member on record).
        if substitute.team_id not in (None, entry.team_id):
            raise DomainError(
                f"{substitute} plays in another team: a substitute for a team member joins "
                "that member's team.",
                f"{substitute} は別のチームの一員です。補欠はメンバーのチームに入ります。",
                "substitute_in_other_team",
            )
        substitute.team_id = entry.team_id
        substitute.save(update_fields=["team"])
    if entry.status != Entry.Status.DROPPED:
        entry.status = Entry.Status.DROPPED
        entry.save(update_fields=["status"])
    own_places = set(substitute.stage_places.values_list("stage_id", flat=True))
    StageEntrant.objects.bulk_create(
        StageEntrant(
            stage_id=place.stage_id,
            entry=substitute,
            source=place.source,
            note=f"substitute for #{entry.number}",
        )
        for place in entry.stage_places.all()
        if place.stage_id not in own_places
    )
    for seat in seats:
        seat.substituted_entry = entry
        seat.entry = substitute
        seat.substituted_at = now
        seat.save(update_fields=["entry", "substituted_entry", "substituted_at"])
        # Live tables and consoles refetch (after commit) and show the substitute's name.
        transaction.on_commit(partial(notify_seats_changed, seat.table_id))
    record_audit(
        tournament,
        actor,
        AuditEntry.Action.ENTRY_SUBSTITUTED,
        round_=seats[0].round if seats else None,
        reason=reason.strip(),
        data={
            "entry": entry.number,
            "substitute": substitute.number,
            "seats": [
                {"round": s.round.number, "table": s.table.number, "position": s.position}
                for s in seats
            ],
            "at": now.isoformat(),
        },
    )
    return substitute


@transaction.atomic
def check_in_entry(entry: Entry, actor: AnyUser, *, checked_in: bool = True) -> Entry:
    """Check an entrant in (受付) or undo it; withdrawn entrants must be reinstated first. An
    entrant checked in after a round was drawn is seated from the next draw (late arrival);
    the rounds they missed score nothing."""
    require_organiser(actor, entry.tournament)
    entry = Entry.objects.select_for_update().select_related("player").get(pk=entry.pk)
    if entry.status == Entry.Status.DROPPED:
        raise DomainError(
            f"{entry} has withdrawn (dropped); reinstate them before checking in.",
            f"{entry} は棄権しています。受付の前に復帰させてください。",
            "entry_withdrawn",
        )
    if checked_in:
        entry.status = Entry.Status.CHECKED_IN
        entry.checked_in_at = entry.checked_in_at or timezone.now()
    else:
        entry.status = Entry.Status.REGISTERED
        entry.checked_in_at = None
    entry.save(update_fields=["status", "checked_in_at"])
    return entry


# --- the CSV import: decode, preview, import exactly what was previewed ---


@dataclass(frozen=True, slots=True)
class RowError:
    """One problem in a CSV file: `row` is the line number (the header is line 1; 0 is the
    file as a whole)."""

    row: int
    column: str
    message_en: str
    message_ja: str = ""

    def __str__(self) -> str:
        where = f"row {self.row}" + (f", {self.column}" if self.column else "")
        return f"{where}: {self.message_en}"


class CsvImportError(DomainError):
    def __init__(self, errors: Sequence[RowError], encoding: str = "") -> None:
        self.errors = list(errors)
        self.encoding = encoding
        super().__init__(
            "; ".join(str(e) for e in self.errors),
            "CSVに誤りがあります。取り込みは行われていません。",
            code="csv_invalid",
        )


CSV_COLUMNS = ("number", "display_name", "name_kana", "email", "team")
CSV_REQUIRED = ("display_name",)
# Headers as Japanese spreadsheets name the column, read as the column they stand for.
CSV_HEADER_ALIASES = {"チーム": "team", "チーム名": "team"}
UTF8, UTF8_BOM, CP932 = "UTF-8", "UTF-8 (BOM)", "Shift_JIS (CP932)"
_NOT_TEXT = re.compile("[\x00\ue000-\uf8ff]")


@dataclass(frozen=True, slots=True)
class CsvRow:
    """A row the import will create: its number (given, or the next free one) and the
    returning player its e-mail matches, if any."""

    line: int
    number: int
    number_given: bool
    display_name: str
    name_kana: str
    email: str
    player_id: int | None
    player_name: str = ""
    team: str = ""  # the team the row's entrant plays in (team events), "" for none


@dataclass(frozen=True, slots=True)
class CsvTeam:
    """A team the import forms from the rows naming it: its number and its members' lines."""

    name: str
    number: int
    lines: tuple[int, ...]
    members: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class CsvPreview:
    """What importing a file would do, row by row, and how the file was decoded."""

    encoding: str
    text: str
    rows: tuple[CsvRow, ...]
    teams: tuple[CsvTeam, ...] = ()

    @property
    def fingerprint(self) -> str:
        plan = [
            (r.line, r.number, r.display_name, r.name_kana, r.email, r.player_id, r.team)
            for r in self.rows
        ]
        teams = [(t.name, t.number) for t in self.teams]
        return hashlib.sha256(repr((plan, teams)).encode()).hexdigest()

    @property
    def returning(self) -> int:
        return sum(1 for r in self.rows if r.player_id is not None)


def _decode(data: bytes | str) -> tuple[str, str]:
    """The file's text and encoding: UTF-8 with or without a BOM (tried strictly first), else
    Shift_JIS as Windows writes it (CP932, what Japanese Excel saves as "CSV" by default)."""
    if isinstance(data, str):
        return data.removeprefix("\ufeff"), UTF8
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        pass
    else:
        return text, UTF8_BOM if data.startswith(b"\xef\xbb\xbf") else UTF8
    try:
        text = data.decode("cp932")
        # CP932 reads any byte: 0xFD–0xFF and the user-defined area (外字) come out as
        # private-use characters, and a UTF-16 file ("Unicode text") with NULs between its
        # letters — not a name anyone typed, so not a CP932 file either.
        if _NOT_TEXT.search(text):
            raise UnicodeDecodeError("cp932", data, 0, len(data), "not text")
    except UnicodeDecodeError as error:
        raise CsvImportError(
            [
                RowError(
                    0,
                    "",
                    "The file is neither UTF-8 nor Shift_JIS (CP932) text: save it as CSV and "
                    "try again.",
                    "UTF-8 でも Shift_JIS でもありません。CSV 形式で保存し直してください。",
                )
            ]
        ) from error
    return text, CP932


def _csv_preview(tournament: Tournament, text: str, encoding: str) -> CsvPreview:
    """Validate every row (all problems at once, as `CsvImportError`) and plan the entries."""
    reader = csv.DictReader(io.StringIO(text, newline=""))
    header = [h.strip() for h in reader.fieldnames or []]
    header = [CSV_HEADER_ALIASES.get(h, h) for h in header]
    errors: list[RowError] = []
    if not header:
        raise CsvImportError(
            [RowError(1, "", "The file is empty.", "ファイルが空です。")], encoding
        )
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
        raise CsvImportError(errors, encoding)
    reader.fieldnames = header

    taken = set(tournament.entries.values_list("number", flat=True))
    entered_players = set(tournament.entries.values_list("player_id", flat=True))
    rows: list[tuple[int, int | None, str, str, str, Player | None]] = []
    team_names: dict[int, str] = {}  # line → the team it names
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
        known: Player | None = None
        if not name:
            errors.append(RowError(line, "display_name", "Required.", "名前は必須です。"))
        elif len(name) > 80:
            errors.append(
                RowError(line, "display_name", "Longer than 80 characters.", "80文字以内。")
            )
        if len(kana) > 80:
            errors.append(RowError(line, "name_kana", "Longer than 80 characters.", "80文字以内。"))
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
                    RowError(line, "email", f"{email!r} is not an e-mail address.", "メール形式。")
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
        rows.append((line, number, name, kana, email, known))
        team_names[line] = " ".join(row.get("team", "").split())
    if not rows and not errors:
        errors.append(RowError(2, "", "No entrant rows below the header.", "データがありません。"))
    errors.extend(_csv_team_errors(tournament, team_names))
    if errors:
        raise CsvImportError(errors, encoding)

    next_free = max([*taken, *numbers_seen, 0]) + 1
    planned: list[CsvRow] = []
    for line, given, name, kana, email, known in rows:
        number = given
        if number is None:
            number, next_free = next_free, next_free + 1
        planned.append(
            CsvRow(
                line=line,
                number=number,
                number_given=given is not None,
                display_name=name,
                name_kana=kana,
                email=email,
                player_id=known.pk if known else None,
                player_name=known.display_name if known else "",
                team=team_names.get(line, ""),
            )
        )
    return CsvPreview(encoding, text, tuple(planned), _csv_teams(tournament, planned))


def _csv_team_errors(tournament: Tournament, names: Mapping[int, str]) -> list[RowError]:
    """Every problem with the `team` column: teams belong to team events, a team has exactly
    `team_size` rows, and a name already taken by a team with members is refused."""
    lines: dict[str, list[int]] = {}
    for line, name in names.items():
        if name:
            lines.setdefault(name, []).append(line)
    if not lines:
        return []
    size = tournament.team_size
    if size is None:
        return [
            RowError(
                found[0],
                "team",
                f"{tournament.name} is not a team event: leave the team column empty.",
                "チーム戦ではないため、チーム列は空にしてください。",
            )
            for found in lines.values()
        ]
    errors: list[RowError] = []
    taken = set(
        tournament.teams.filter(name__in=list(lines), members__isnull=False).values_list(
            "name", flat=True
        )
    )
    for name, found in lines.items():
        if len(name) > 120:
            errors.extend(
                RowError(line, "team", "A team name is at most 120 characters.", "120文字以内。")
                for line in found
            )
        elif name in taken:
            errors.extend(
                RowError(
                    line,
                    "team",
                    f"Team {name} already exists with members.",
                    f"チーム「{name}」は既にメンバーがいます。",
                )
                for line in found
            )
        elif len(found) != size:
            rows = ", ".join(str(line) for line in found)
            errors.extend(
                RowError(
                    line,
                    "team",
                    f"Team {name} has {len(found)} member(s) (rows {rows}); a team has exactly "
                    f"{size}.",
                    f"チーム「{name}」のメンバーが{len(found)}人です（{rows}行目）。"
                    f"チームはちょうど{size}人です。",
                )
                for line in found
            )
    return errors


def _csv_teams(tournament: Tournament, rows: Sequence[CsvRow]) -> tuple[CsvTeam, ...]:
    """The teams the rows form, numbered after the tournament's last team (a team of that name
    without members, e.g. made in the admin, keeps its number)."""
    grouped: dict[str, list[CsvRow]] = {}
    for row in rows:
        if row.team:
            grouped.setdefault(row.team, []).append(row)
    existing = dict(tournament.teams.filter(name__in=list(grouped)).values_list("name", "number"))
    next_number = (tournament.teams.aggregate(m=Max("number"))["m"] or 0) + 1
    teams = []
    for name, members in grouped.items():
        number = existing.get(name)
        if number is None:
            number, next_number = next_number, next_number + 1
        teams.append(
            CsvTeam(
                name,
                number,
                tuple(r.line for r in members),
                tuple(r.display_name for r in members),
            )
        )
    return tuple(teams)


def preview_entries_csv(tournament: Tournament, actor: AnyUser, data: bytes | str) -> CsvPreview:
    """What importing the file would create, row by row (nothing is saved); every problem is
    raised together as `CsvImportError` with the detected encoding."""
    require_organiser(actor, tournament)
    _entries_open(tournament)
    text, encoding = _decode(data)
    return _csv_preview(tournament, text, encoding)


def import_entries_csv(
    tournament: Tournament,
    actor: AnyUser,
    data: bytes | str,
    *,
    expected: str | None = None,
    encoding: str = "",
) -> list[Entry]:
    """Register every row of a CSV file as an entry, or none of them.

    Columns (header row required, any order): `display_name` (required), `number` (the entrant
    number; blank → the next free number), `name_kana`, `email` (recognises a returning player),
    `team` (also `チーム`; team events: the rows naming a team form it, exactly `team_size`
    of them, a name not already taken by a team with members).
    The file is UTF-8 (with or without BOM) or Shift_JIS (CP932). Every problem is collected and
    raised together as `CsvImportError`; nothing is saved then. With `expected` (a preview's
    fingerprint) the import is refused unless it creates exactly the previewed entries.
    Audited (ENTRY_ADDED, once for the file).
    """
    require_organiser(actor, tournament)
    _entries_open(tournament)
    text, detected = _decode(data)
    with transaction.atomic():
        # Lock the tournament so two imports cannot race for the same entrant numbers.
        Tournament.objects.select_for_update().get(pk=tournament.pk)
        preview = _csv_preview(tournament, text, encoding or detected)
        if expected is not None and preview.fingerprint != expected:
            raise DomainError(
                "The entrants changed since the preview (a number or an e-mail was taken "
                "meanwhile): preview the file again.",
                "プレビューの後に参加者が変わりました。もう一度プレビューしてください。",
                "preview_outdated",
            )
        teams = {
            planned.name: Team.objects.get_or_create(
                tournament=tournament, name=planned.name, defaults={"number": planned.number}
            )[0]
            for planned in preview.teams
        }
        created: list[Entry] = []
        for row in preview.rows:
            player = Player.objects.filter(pk=row.player_id).first() if row.player_id else None
            if player is None:
                player = Player.objects.create(
                    display_name=row.display_name, name_kana=row.name_kana, email=row.email
                )
            created.append(
                Entry.objects.create(
                    tournament=tournament,
                    player=player,
                    number=row.number,
                    team=teams.get(row.team),
                )
            )
        record_audit(
            tournament,
            actor,
            AuditEntry.Action.ENTRY_ADDED,
            data={
                "csv": True,
                "encoding": preview.encoding,
                "entries": [e.number for e in created],
            },
        )
        for team in teams.values():
            members = [e for e in created if e.team_id == team.pk]
            record_audit(
                tournament,
                actor,
                AuditEntry.Action.TEAM_REGISTERED,
                data={**_team_audit(team, members), "csv": True},
            )
    return created


CSV_PREVIEW_SALT = "kakumei.entries.csv-preview"
CSV_PREVIEW_MAX_AGE = 2 * 60 * 60  # seconds: a preview is imported within two hours


def sign_csv_preview(tournament: Tournament, preview: CsvPreview) -> str:
    """The previewed file as a signed value for the page (or API client) to send back."""
    from django.core import signing

    payload = {
        "tournament": tournament.pk,
        "text": preview.text,
        "encoding": preview.encoding,
        "fingerprint": preview.fingerprint,
    }
    return signing.dumps(payload, salt=CSV_PREVIEW_SALT, compress=True)


def import_previewed_csv(tournament: Tournament, actor: AnyUser, token: str) -> list[Entry]:
    """Import exactly what `sign_csv_preview` previewed (validated again, all or nothing)."""
    from django.core import signing

    require_organiser(actor, tournament)
    try:
        payload = signing.loads(token, salt=CSV_PREVIEW_SALT, max_age=CSV_PREVIEW_MAX_AGE)
    except signing.BadSignature as error:  # SignatureExpired is one too
        raise DomainError(
            "The preview has expired or is not valid: upload the file again.",
            "プレビューの有効期限が切れたか無効です。もう一度アップロードしてください。",
            "preview_invalid",
        ) from error
    if payload.get("tournament") != tournament.pk:
        raise DomainError(
            "That preview is of another tournament.",
            "別の大会のプレビューです。",
            "preview_invalid",
        )
    return import_entries_csv(
        tournament,
        actor,
        str(payload["text"]),
        expected=str(payload["fingerprint"]),
        encoding=str(payload["encoding"]),
    )


# ---------------------------------------------------------------------------------------------
# Teams (掼蛋 Guandan pairs): registered as a pair of new entrants, or formed from two entrants
# already registered; renamed; dissolved while they have not played. The rules are documented
# in docs/team-events.md.


@dataclass(frozen=True, slots=True)
class TeamMember:
    """A person registered as a member of a new team (an entrant as a walk-in is)."""

    display_name: str
    name_kana: str = ""
    email: str = ""


def _require_team_event(tournament: Tournament) -> int:
    """The tournament's team size; refused where everyone plays alone."""
    size = tournament.team_size
    if size is None:
        raise DomainError(
            f"{tournament.name} is not a team event: its players play alone.",
            f"{tournament.name} はチーム戦ではありません。",
            "not_a_team_event",
        )
    return size


def _clean_team_name(tournament: Tournament, name: str, *, team: Team | None = None) -> str:
    name = " ".join(name.split())
    if not name:
        raise DomainError(
            "Enter the team's name.", "チーム名を入力してください。", "team_name_required"
        )
    if len(name) > 120:
        raise DomainError(
            "A team name is at most 120 characters.",
            "チーム名は120文字以内です。",
            "team_name_too_long",
        )
    taken = tournament.teams.filter(name=name)
    if team is not None:
        taken = taken.exclude(pk=team.pk)
    holder = taken.first()
    if holder is not None:
        raise DomainError(
            f"Team {holder.number} is already called {name}.",
            f"チーム名「{name}」はチーム {holder.number} が使用中です。",
            "team_name_taken",
        )
    return name


def _team_number(tournament: Tournament, number: int | None) -> int:
    if number is None:
        return (tournament.teams.aggregate(m=Max("number"))["m"] or 0) + 1
    if number < 1:
        raise DomainError(
            "A team number is a whole number of 1 or more.",
            "チーム番号は1以上の整数です。",
            "team_number_invalid",
        )
    holder = tournament.teams.filter(number=number).first()
    if holder is not None:
        raise DomainError(
            f"Team number {number} is already {holder.name}.",
            f"チーム番号 {number} は「{holder.name}」が使用中です。",
            "team_number_taken",
        )
    return number


def _require_members(size: int, count: int) -> None:
    if count != size:
        raise DomainError(
            f"A team has exactly {size} members, not {count}.",
            f"チームはちょうど{size}人です（{count}人ではありません）。",
            "team_size",
        )


def _team_audit(team: Team, members: Sequence[Entry]) -> dict[str, object]:
    return {
        "team": team.number,
        "name": team.name,
        "entries": [m.number for m in members],
    }


@transaction.atomic
def register_team(
    tournament: Tournament,
    actor: AnyUser,
    *,
    name: str,
    members: Sequence[TeamMember],
    number: int | None = None,
    check_in: bool | None = None,
) -> Team:
    """Register a team of new entrants: each member is entered as a walk-in is (`add_walk_in`:
    the returning player with that e-mail or a new one, the next free entrant number; checked
    in at once on the tournament day unless `check_in` says otherwise), then the team is
    formed under `name` and the next free team number. All or nothing; audited (ENTRY_ADDED per
    member, TEAM_REGISTERED)."""
    require_organiser(actor, tournament)
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    size = _require_team_event(tournament)
    _entries_open(tournament)
    _require_members(size, len(members))
    name = _clean_team_name(tournament, name)
    number = _team_number(tournament, number)
    if check_in is None:
        check_in = is_tournament_day(tournament)
    entries = [
        add_walk_in(
            tournament,
            actor,
            display_name=member.display_name,
            name_kana=member.name_kana,
            email=member.email,
            check_in=check_in,
        )
        for member in members
    ]
    team = Team.objects.create(tournament=tournament, number=number, name=name)
    Entry.objects.filter(pk__in=[e.pk for e in entries]).update(team=team)
    record_audit(
        tournament, actor, AuditEntry.Action.TEAM_REGISTERED, data=_team_audit(team, entries)
    )
    return team


@transaction.atomic
def form_team(
    tournament: Tournament,
    actor: AnyUser,
    *,
    name: str,
    entries: Sequence[Entry],
    number: int | None = None,
) -> Team:
    """Pair entrants already registered into a team: each an entrant of this tournament, not
    withdrawn and in no other team. Audited (TEAM_REGISTERED)."""
    require_organiser(actor, tournament)
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    size = _require_team_event(tournament)
    _entries_open(tournament)
    ids = list(dict.fromkeys(e.pk for e in entries))
    _require_members(size, len(ids))
    found = {
        e.pk: e
        for e in Entry.objects.select_for_update(of=("self",))
        .select_related("player", "team")
        .filter(pk__in=ids)
    }
    members = [found[pk] for pk in ids if pk in found]
    for entry in members:
        if entry.tournament_id != tournament.pk:
            raise DomainError(
                f"{entry} is not an entrant of {tournament.name}.",
                f"{entry} は {tournament.name} の参加者ではありません。",
                "not_an_entrant",
            )
        if entry.team is not None:
            raise DomainError(
                f"{entry} already plays in team {entry.team.number} {entry.team.name}.",
                f"{entry} は既にチーム {entry.team.number}「{entry.team.name}」の一員です。",
                "already_in_team",
            )
        if entry.status == Entry.Status.DROPPED:
            raise DomainError(
                f"{entry} has withdrawn: reinstate them before forming a team.",
                f"{entry} は棄権しています。復帰させてからチームを組んでください。",
                "entry_withdrawn",
            )
    _require_members(size, len(members))
    name = _clean_team_name(tournament, name)
    team = Team.objects.create(
        tournament=tournament, number=_team_number(tournament, number), name=name
    )
    Entry.objects.filter(pk__in=ids).update(team=team)
    record_audit(
        tournament, actor, AuditEntry.Action.TEAM_REGISTERED, data=_team_audit(team, members)
    )
    return team


@transaction.atomic
def rename_team(team: Team, actor: AnyUser, *, name: str) -> Team:
    """Give the team another name (unique in the tournament). Audited (TEAM_RENAMED)."""
    tournament = team.tournament
    require_organiser(actor, tournament)
    Tournament.objects.select_for_update().get(pk=tournament.pk)
    team = Team.objects.get(pk=team.pk)
    name = _clean_team_name(tournament, name, team=team)
    if name == team.name:
        return team
    old, team.name = team.name, name
    team.save(update_fields=["name"])
    record_audit(
        tournament,
        actor,
        AuditEntry.Action.TEAM_RENAMED,
        data={"team": team.number, "name": [old, name]},
    )
    return team


@transaction.atomic
def dissolve_team(team: Team, actor: AnyUser) -> None:
    """Dissolve a team that has not played (no seat nor bye in a published round): its members
    stay entrants without a team. A draft draw that paired the team is discarded (it is only a
    preview; the organiser draws again). Audited (TEAM_DISSOLVED)."""
    tournament = team.tournament
    require_organiser(actor, tournament)
    Tournament.objects.select_for_update().get(pk=tournament.pk)
    team = Team.objects.get(pk=team.pk)
    members = list(team.members.order_by("number"))
    drawn = Round.objects.filter(
        Q(seats__entry__in=members) | Q(byes__entry__in=members)
    ).distinct()
    if drawn.exclude(status=Round.Status.DRAFT).exists():
        raise DomainError(
            f"Team {team.number} {team.name} has played (or had a bye): its record stays. "
            "Withdraw its members instead.",
            f"チーム {team.number}「{team.name}」は対戦済み（または不戦）のため解散できません。"
            "メンバーを棄権にしてください。",
            "team_has_played",
        )
    drafts = sorted(f"{r.stage.order}.{r.number}" for r in drawn.select_related("stage"))
    Round.objects.filter(pk__in=drawn.values("pk")).delete()
    team.members.update(team=None)
    record_audit(
        tournament,
        actor,
        AuditEntry.Action.TEAM_DISSOLVED,
        data={**_team_audit(team, members), "drafts_discarded": drafts},
    )
    team.delete()


# ---------------------------------------------------------------------------------------------
# Rounds: draw, publish, reveal


def _entrant_label(entry: Entry) -> str:
    return f"#{entry.number} {entry.player.display_name}"


@refusals_recorded("draw")
@transaction.atomic
def draw_round(
    stage: Stage,
    actor: AnyUser,
    *,
    seed: str | None = None,
    override_reason: str = "",
    duplicate_deals: bool = False,
) -> Round:
    """Draw the next round of `stage` as a draft (a preview the organiser can redraw).

    `duplicate_deals` makes it a duplicate round (docs/duplicate.md): 大富豪 only, never a
    playoff; publishing fixes it, a redraw of the draft may change it.

    The first round of the tournament is a random draw; later rounds re-seat by score band
    (`tournaments.seating`). A still-unpublished draft of the stage is replaced. The previous
    round must be complete (its results final): re-seating by score on partial results is
    refused unless the organiser overrides with a reason, which is audited.
    """
    tournament = stage.tournament
    require_organiser(actor, tournament)
    stage = Stage.objects.select_for_update().select_related("tournament").get(pk=stage.pk)
    tournament = stage.tournament  # as saved now: the uneven-tables policy may just have changed
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
    require_ruleset_complete(tournament)
    if duplicate_deals:
        _require_duplicate_allowed(stage)
    stage.rounds.filter(status=Round.Status.DRAFT).delete()
    number = (stage.rounds.aggregate(m=Max("number"))["m"] or 0) + 1

    if tournament.plays_in_teams:
        return _draw_team_round(
            stage,
            actor,
            number=number,
            seed=seed,
            unfinished=unfinished,
            override_reason=override_reason,
        )
    participants = stage_participants(stage)
    if stage.kind == Stage.Kind.PLAYOFF:  # the tied entrants at one table (split past 5)
        tournament = playoff_format(tournament, len(participants))
    totals = stage_totals(stage)
    entrants = [seating.Entrant(e.pk, _entrant_label(e), totals.get(e.pk, 0)) for e in participants]
    history = seating_history(tournament)
    round_seed = new_seed()
    draw_seed = seed or round_seed  # the draw's lot is derived from the round's secret seed
    policy = tournament.uneven_tables
    try:
        layout = draw_layout(stage)  # what the dashboard previewed: the draw must agree
        _require_points_for(tournament, layout.sizes)
        if history.tables:
            draw = seating.score_draw(
                entrants,
                seed=draw_seed,
                history=history,
                table_size=tournament.table_size,
                policy=policy,
            )
        else:
            draw = seating.random_draw(
                entrants,
                seed=draw_seed,
                history=history,
                table_size=tournament.table_size,
                policy=policy,
            )
    except seating.SeatingError as error:
        raise DomainError(str(error), code="cannot_seat") from error
    violations = seating.check_draw(
        draw,
        seating.Constraints(frozenset(e.id for e in entrants), tournament.table_size, policy),
    )
    seated = {entry_id for drawn in draw.tables for entry_id in drawn.seats}
    if seated & set(draw.byes):
        violations.append(seating.Violation("bye_and_seat", "an entry is seated and has a bye"))
    if [len(t.seats) for t in draw.tables] != list(layout.sizes) or len(draw.byes) != layout.byes:
        violations.append(seating.Violation("layout", f"the draw differs from {layout}"))
    if violations:  # never expected: the checker guards the generator
        raise AssertionError(f"invalid draw: {violations}")

    round_ = _new_round(
        stage,
        actor,
        number=number,
        round_seed=round_seed,
        draw_method=draw.method,
        unfinished=unfinished,
        override_reason=override_reason,
        duplicate_deals=duplicate_deals,
    )
    for drawn in draw.tables:
        # The explanation shows the seed only as "by lot": it must not leak before reveal.
        explanation = drawn.explanation.replace(f", seed {draw_seed}", "")
        table = Table.objects.create(round=round_, number=drawn.number, explanation=explanation)
        Seat.objects.bulk_create(
            Seat(table=table, round=round_, entry_id=entry_id, position=position)
            for position, entry_id in enumerate(drawn.seats, start=1)
        )
    # Byes score the tournament's bye points as they stand at the draw (a redraw of the draft
    # deletes the draft round, and its byes with it).
    Bye.objects.bulk_create(
        Bye(round=round_, entry_id=entry_id, points=tournament.bye_points) for entry_id in draw.byes
    )
    return round_


def _new_round(
    stage: Stage,
    actor: AnyUser,
    *,
    number: int,
    round_seed: str,
    draw_method: str,
    unfinished: Sequence[Round],
    override_reason: str,
    duplicate_deals: bool = False,
) -> Round:
    """The drawn round's row, committed to its secret seed; a draw over rounds still open is
    audited with the organiser's reason."""
    round_ = Round.objects.create(
        stage=stage,
        number=number,
        seed_secret=round_seed,
        seed_commitment=commitment_for(round_seed),
        draw_method=draw_method,
        duplicate_deals=duplicate_deals,
    )
    if unfinished:
        record_audit(
            stage.tournament,
            actor,
            AuditEntry.Action.DRAW_OVERRIDE,
            round_=round_,
            reason=override_reason,
            data={"open_rounds": [r.number for r in unfinished]},
        )
    return round_


def _require_duplicate_allowed(stage: Stage) -> None:
    """Duplicate deals need tables dealt alike from one set of cards: 大富豪's presets. A 掼蛋
    team match and a 大財閥 pile game are out of scope, and a playoff is one table."""
    tournament = stage.tournament
    family = check_ruleset(tournament.ruleset_id, tournament.ruleset_version).family
    if tournament.plays_in_teams or family != DAIFUGO.name:
        raise DomainError(
            "Duplicate deals are for Daifugo rounds only, not team matches or pile games.",
            "デュプリケートは大富豪の回戦のみです（掼蛋のチーム戦・大財閥は対象外）。",
            code="duplicate_not_supported",
        )
    if stage.kind == Stage.Kind.PLAYOFF:
        raise DomainError(
            "A playoff cannot have duplicate deals.",
            "順位決定戦はデュプリケートにできません。",
            code="duplicate_in_playoff",
        )


def team_bye_points(tournament: Tournament) -> int:
    """What a team's bye scores each member: a win's match points (by level difference, where
    a win has no fixed value: the tournament's bye points)."""
    if tournament.match_points_by == Tournament.MatchPointsBy.RESULT:
        return int(tournament.match_points["win"])
    return tournament.bye_points


def _draw_team_round(
    stage: Stage,
    actor: AnyUser,
    *,
    number: int,
    seed: str | None,
    unfinished: Sequence[Round],
    override_reason: str,
) -> Round:
    """`draw_round` for a team event: the Swiss pairing of the stage's teams
    (`tournaments.pairing`); each table seats the first team at positions 1 and 3 and the
    second at 2 and 4 (partners facing: engine team 0 and team 1); a team with a bye has a
    `Bye` row per member scoring `team_bye_points`. The caller holds the stage's lock."""
    tournament = stage.tournament
    teams = {team.pk: team for team in stage_teams(stage)}
    to_pair = pair_teams_of(stage)
    try:
        layout = draw_layout(stage)
    except seating.SeatingError as error:
        raise DomainError(
            f"At least 2 teams with every member checked in are needed for a draw, not "
            f"{len(teams)}.",
            f"抽選には全員が受付済みのチームが2つ以上必要です（現在 {len(teams)} チーム）。",
            code="cannot_seat",
        ) from error
    _require_points_for(tournament, layout.sizes)
    round_seed = new_seed()
    history = team_history(tournament)
    draw = pairing.swiss_pairing(to_pair, seed=seed or round_seed, history=history)
    violations = pairing.check_pairing(draw, frozenset(teams))
    if len(draw.tables) != layout.tables or int(draw.bye is not None) != layout.byes:
        violations.append(pairing.Violation("layout", f"the draw differs from {layout}"))
    if violations:  # never expected: the checker guards the pairing
        raise AssertionError(f"invalid pairing: {violations}")

    round_ = _new_round(
        stage,
        actor,
        number=number,
        round_seed=round_seed,
        draw_method=draw.method,
        unfinished=unfinished,
        override_reason=override_reason,
    )
    for paired in draw.tables:
        table = Table.objects.create(
            round=round_,
            number=paired.number,
            explanation=paired.explanation,
            reason=pairing.reason_record(paired.reason) if paired.reason else None,
        )
        first, second = (team_players(teams[t]) for t in paired.teams)
        Seat.objects.bulk_create(
            Seat(table=table, round=round_, entry=entry, position=position)
            for position, entry in zip((1, 3, 2, 4), (*first, *second), strict=True)
        )
    if draw.bye is not None:
        points = team_bye_points(tournament)
        bye_reason = pairing.reason_record(draw.bye_reason) if draw.bye_reason else None
        Bye.objects.bulk_create(
            Bye(
                round=round_,
                entry=entry,
                points=points,
                explanation=draw.bye_explanation,
                reason=bye_reason,
            )
            for entry in team_players(teams[draw.bye])
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
    # In the transaction, as every signal scoring listens to: scoring records its work (a
    # recompute) in the outbox, committed with the change or not at all.
    round_status_changed.send(sender=Round, round_id=round_.pk, status=round_.status)


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
    require_ruleset_complete(round_.stage.tournament)
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


def _penalty_checked(
    entry: Entry,
    actor: AnyUser,
    *,
    kind: str,
    reason: str,
    points: int,
    round_: Round | None,
    game_id: int | None,
) -> tuple[str, int]:
    """The reason and points of a penalty `give_penalty` may give, or its refusal."""
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
    return reason, points


def _measured(
    tournament: Tournament,
    write: Callable[[dict[str, Any]], _T],
    confirm_cut_change: bool,
) -> _T:
    """Save a ruling through its one `write` after measuring what it changes (the write run
    and rolled back, `tournaments.impact`): a change to who is above a stage's cut needs
    `confirm_cut_change` (`cut_change_unconfirmed`); the audit keeps the changes."""
    impact = ruling_impact(tournament, lambda: write({}))
    try:
        require_cut_confirmed(impact, confirm_cut_change)
    except CutChangeUnconfirmed as error:
        raise DomainError(error.message_en, error.message_ja, error.code) from error
    return write(impact.audit(confirm_cut_change))


def preview_penalty(
    entry: Entry,
    actor: AnyUser,
    *,
    kind: str,
    reason: str,
    points: int = 0,
    round_: Round | None = None,
    game_id: int | None = None,
) -> Impact:
    """What giving the penalty changes in the standings and at the cuts (nothing is saved);
    refused as `give_penalty` would refuse it."""
    with transaction.atomic():
        write = _penalty_ruling(entry, actor, kind, reason, points, round_, game_id)
        return ruling_impact(entry.tournament, lambda: write({}))


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
    confirm_cut_change: bool = False,
) -> Penalty:
    """A warning (警告) or a points deduction (減点) for an entrant, with a reason: the head
    referee's or an organiser's ruling, audited, and counted in every standing at once. One
    that changes who is above a stage's cut needs `confirm_cut_change`."""
    write = _penalty_ruling(entry, actor, kind, reason, points, round_, game_id)
    return _measured(entry.tournament, write, confirm_cut_change)


def _penalty_ruling(
    entry: Entry,
    actor: AnyUser,
    kind: str,
    reason: str,
    points: int,
    round_: Round | None,
    game_id: int | None,
) -> Callable[[dict[str, Any]], Penalty]:
    """The penalty's one write (taking its audit data), once it may be given: refused as
    `give_penalty` refuses it. Its preview and its saving both run it."""
    reason, points = _penalty_checked(
        entry, actor, kind=kind, reason=reason, points=points, round_=round_, game_id=game_id
    )
    return partial(_penalty_write, entry, actor, kind, reason, points, round_, game_id)


def _penalty_write(
    entry: Entry,
    actor: AnyUser,
    kind: str,
    reason: str,
    points: int,
    round_: Round | None,
    game_id: int | None,
    audit: dict[str, Any],
) -> Penalty:
    return record_penalty(
        entry,
        actor,
        kind=kind,
        reason=reason,
        points=points,
        round_=round_,
        game_id=game_id,
        audit=audit,
    )


def record_penalty(
    entry: Entry,
    actor: AnyUser,
    *,
    kind: str,
    reason: str,
    points: int,
    round_: Round | None,
    game_id: int | None,
    audit: Mapping[str, Any] | None = None,
) -> Penalty:
    """Store a penalty the caller has checked (who may give it, its points), audited and
    counted in the standings: `give_penalty`'s write, shared with a referee's time fault
    (`games.services.record_time_fault`, whose rule the organiser set beforehand). `audit`:
    what it changes in the standings, kept with its audit entry."""
    tournament = entry.tournament
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
        data={
            "penalty": penalty.pk,
            "entry": entry.number,
            "kind": kind,
            "points": points,
            **(audit or {}),
        },
    )
    penalties_changed.send(sender=Penalty, tournament_id=tournament.pk)
    return penalty


def _withdraw_checked(penalty: Penalty, actor: AnyUser, reason: str) -> tuple[Penalty, str]:
    if not is_head_referee(actor, penalty.tournament):
        raise PermissionDenied("Only the head referee or an organiser withdraws penalties.")
    penalty = Penalty.objects.select_for_update().get(pk=penalty.pk)
    reason = reason.strip()
    if not reason:
        raise DomainError("Give a reason.", "理由が必要です。", "reason_required")
    if penalty.withdrawn_at is not None:
        raise DomainError("Already withdrawn.", "取り消し済みです。", "already_withdrawn")
    return penalty, reason


def _withdraw_write(penalty_id: int, actor: AnyUser, reason: str, audit: dict[str, Any]) -> Penalty:
    """`withdraw_penalty`'s only write (the preview runs it, then rolls back)."""
    penalty = Penalty.objects.select_related("tournament", "entry", "round").get(pk=penalty_id)
    penalty.withdrawn_at = timezone.now()
    penalty.withdrawn_reason = reason
    penalty.save(update_fields=["withdrawn_at", "withdrawn_reason"])
    record_audit(
        penalty.tournament,
        actor,
        AuditEntry.Action.PENALTY_WITHDRAWN,
        round_=penalty.round,
        game_id=penalty.game_id,
        reason=reason,
        data={"penalty": penalty.pk, "entry": penalty.entry.number, **audit},
    )
    penalties_changed.send(sender=Penalty, tournament_id=penalty.tournament_id)
    return penalty


def preview_withdraw_penalty(penalty: Penalty, actor: AnyUser, *, reason: str) -> Impact:
    """What taking the penalty back changes in the standings and at the cuts (nothing is
    saved); refused as `withdraw_penalty` would refuse it."""
    with transaction.atomic():
        penalty, reason = _withdraw_checked(penalty, actor, reason)
        write = partial(_withdraw_write, penalty.pk, actor, reason)
        return ruling_impact(penalty.tournament, lambda: write({}))


@transaction.atomic
def withdraw_penalty(
    penalty: Penalty, actor: AnyUser, *, reason: str, confirm_cut_change: bool = False
) -> Penalty:
    """Take a mistaken penalty back: it stays on record, no longer counted. One whose
    withdrawal changes who is above a stage's cut needs `confirm_cut_change`."""
    penalty, reason = _withdraw_checked(penalty, actor, reason)
    write = partial(_withdraw_write, penalty.pk, actor, reason)
    return _measured(penalty.tournament, write, confirm_cut_change)


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
    tie_break: TieBreak = (),
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
            note=str(outcome.reasons[entry]),
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
    numbers = dict(stage.tournament.entries.values_list("pk", "number"))
    record_audit(
        stage.tournament,
        actor,
        AuditEntry.Action.STAGE_ADVANCED,
        data={
            "stage": stage.name,
            "to": target.name,
            "advanced": sorted(numbers[p.entry_id] for p in created),
            # The order an organiser typed for tied entrants (a playoff's or a lot's).
            "tie_break": [
                [numbers[e] for e in ([group] if isinstance(group, int) else group)]
                for group in tie_break
            ],
        },
    )
    # Scoring records the `stage.cut` webhook and the next stage's recompute in the outbox.
    stage_advanced.send(
        sender=Stage,
        stage_id=stage.pk,
        target_stage_id=target.pk,
        advancing=list(outcome.advancing),
    )
    return created


# ---------------------------------------------------------------------------------------------
# Officials, one-time sign-in codes and referee assignment (issue #12: officials and devices)

SIGN_IN_HOURS = 24
PIN_MAX_FAILURES = 5
OFFICIAL_ROLES = {value for value, _ in Official.Role.choices}
REFEREE_ROLES = (Official.Role.REFEREE, Official.Role.HEAD_REFEREE)


def _check_role(role: str) -> None:
    if role not in OFFICIAL_ROLES:
        raise DomainError(
            f"Unknown role {role!r}.", f"役割「{role}」はありません。", code="unknown_role"
        )


def _new_username(tournament: Tournament) -> str:
    """A readable sign-in name: the tournament's address and the next free number."""
    base = tournament.slug[:40].rstrip("-") or "official"
    taken = set(
        User.objects.filter(username__istartswith=f"{base}-").values_list("username", flat=True)
    )
    n = 1
    while f"{base}-{n}".lower() in {t.lower() for t in taken}:
        n += 1
    return f"{base}-{n}"


def _official_added(tournament: Tournament, actor: AnyUser, official: Official) -> None:
    record_audit(
        tournament,
        actor,
        AuditEntry.Action.OFFICIAL_ADDED,
        data={
            "user": official.user.get_username(),
            "name": official.user.get_full_name(),
            "role": official.role,
        },
    )


@transaction.atomic
def add_official_person(
    tournament: Tournament,
    actor: AnyUser,
    *,
    display_name: str,
    role: str,
    email: str = "",
) -> Official:
    """A new person as an official: a user without a password (they sign in with a link or a
    PIN card) whose sign-in name is made from the tournament's address and a number."""
    require_organiser(actor, tournament)
    _check_role(role)
    display_name = display_name.strip()
    if not display_name:
        raise DomainError("Give the official's name.", "名前を入力してください。", code="no_name")
    if email:
        try:
            validate_email(email)
        except ValidationError:
            raise DomainError(
                f"{email!r} is not an e-mail address.",
                f"「{email}」はメールアドレスではありません。",
                code="bad_email",
            ) from None
    user = User(username=_new_username(tournament), first_name=display_name[:150], email=email)
    user.set_unusable_password()
    user.save()
    official = Official.objects.create(tournament=tournament, user=user, role=role)
    _official_added(tournament, actor, official)
    return official


@transaction.atomic
def add_official_user(
    tournament: Tournament, actor: AnyUser, *, username: str, role: str
) -> Official:
    """An existing user (by sign-in name) as an official of `tournament`."""
    require_organiser(actor, tournament)
    _check_role(role)
    user = User.objects.filter(username__iexact=username.strip(), is_active=True).first()
    if user is None:
        raise DomainError(
            f"No user signs in as {username!r}.",
            f"サインイン名「{username}」の利用者はいません。",
            code="unknown_user",
        )
    if Official.objects.filter(tournament=tournament, user=user, role=role).exists():
        raise DomainError(
            f"{user.get_username()} already has this role.",
            f"{user.get_username()} はすでにこの役割です。",
            code="already_official",
        )
    official = Official.objects.create(tournament=tournament, user=user, role=role)
    _official_added(tournament, actor, official)
    return official


@transaction.atomic
def revoke_official(official: Official, actor: AnyUser) -> None:
    """Take one role away. Someone left without a referee's role stops refereeing the
    tournament's tables in rounds that are not complete; someone left without any role
    loses the tournament's device tokens and unused sign-in codes too. Audited."""
    tournament = official.tournament
    require_organiser(actor, tournament)
    if (
        official.role == Official.Role.ORGANISER
        and not tournament.officials.filter(role=Official.Role.ORGANISER)
        .exclude(pk=official.pk)
        .exists()
    ):
        raise DomainError(
            "A tournament keeps at least one organiser.",
            "主催者を全員外すことはできません。",
            code="last_organiser",
        )
    user = official.user
    official.delete()
    left = set(tournament.officials.filter(user=user).values_list("role", flat=True))
    now = timezone.now()
    cleared: list[int] = []
    if not left & set(REFEREE_ROLES):
        tables = Table.objects.filter(referee=user, round__stage__tournament=tournament).exclude(
            round__status__in=Round.SETTLED
        )
        cleared = list(tables.values_list("pk", flat=True))
        tables.update(referee=None)
    devices = codes = 0
    if not left:
        tokens = DeviceToken.objects.filter(
            user=user, tournament=tournament, revoked_at__isnull=True
        )
        forget_device_tokens(list(tokens.values_list("key_hash", flat=True)))
        devices = tokens.update(revoked_at=now)
        codes = SignInCode.objects.filter(
            user=user, tournament=tournament, used_at__isnull=True, revoked_at__isnull=True
        ).update(revoked_at=now)
    record_audit(
        tournament,
        actor,
        AuditEntry.Action.OFFICIAL_REVOKED,
        data={
            "user": user.get_username(),
            "role": official.role,
            "tables_cleared": cleared,
            "devices_revoked": devices,
            "sign_in_codes_revoked": codes,
        },
    )


def hash_sign_in_secret(secret: str, user_id: int | None = None) -> str:
    """SHA-256 of a link's secret, or of a PIN salted with its user (PINs are short, and two
    people may draw the same one)."""
    text = secret if user_id is None else f"pin:{user_id}:{secret}"
    return hashlib.sha256(text.encode()).hexdigest()


def _require_official_of(tournament: Tournament, user: User) -> None:
    if not tournament.officials.filter(user=user).exists():
        raise DomainError(
            f"{user.get_username()} is not an official of {tournament}.",
            f"{user.get_username()} はこの大会の役員ではありません。",
            code="not_official",
        )


def _require_sign_in_is_theirs_to_give(actor: AnyUser, user: User) -> None:
    """A sign-in code is a way into `user`'s account: an organiser may mint one only for a
    passwordless official whose every role is in tournaments the organiser runs — never for
    staff, someone with a password, a player's account, or another organiser's official."""
    foreign_roles = Official.objects.filter(user=user).exclude(
        tournament__in=organised_tournaments(actor)
    )
    if (
        user.is_staff
        or user.is_superuser
        or user.has_usable_password()
        or Player.objects.filter(user=user).exists()
        or foreign_roles.exists()
    ):
        raise DomainError(
            f"{user.get_username()} has their own way to sign in (a password, or roles in "
            "other tournaments): they sign in with it. Sign-in links and PIN cards are for "
            "officials added here without a password.",
            f"{user.get_username()} さんは自分のパスワード等でサインインします。サインインリンクと"
            "PINカードは、ここで追加したパスワードなしの役員のみに発行できます。",
            code="own_sign_in",
        )


def _issue_code(
    tournament: Tournament,
    actor: AnyUser,
    user: User,
    kind: str,
    *,
    hours: int,
    revoke_older: bool,
) -> tuple[SignInCode, str]:
    require_organiser(actor, tournament)
    _require_official_of(tournament, user)
    _require_sign_in_is_theirs_to_give(actor, user)
    if not 1 <= hours <= 24 * 7:
        raise DomainError(
            "A sign-in code lasts from 1 hour to 7 days.",
            "有効期間は1時間から7日までです。",
            code="bad_expiry",
        )
    now = timezone.now()
    if revoke_older:
        SignInCode.objects.filter(
            user=user, tournament=tournament, kind=kind, used_at__isnull=True,
            revoked_at__isnull=True,
        ).update(revoked_at=now)  # fmt: skip
    while True:
        if kind == SignInCode.Kind.PIN:
            secret = f"{secrets.randbelow(10**8):08d}"
            digest = hash_sign_in_secret(secret, user.pk)
        else:
            secret = secrets.token_urlsafe(32)
            digest = hash_sign_in_secret(secret)
        if not SignInCode.objects.filter(code_hash=digest).exists():
            break
    code = SignInCode.objects.create(
        user=user,
        tournament=tournament,
        kind=kind,
        code_hash=digest,
        expires_at=now + datetime.timedelta(hours=hours),
        created_by=actor if actor.is_authenticated else None,
    )
    record_audit(
        tournament,
        actor,
        AuditEntry.Action.SIGN_IN_ISSUED,
        data={"user": user.get_username(), "kind": kind, "expires_at": code.expires_at.isoformat()},
    )
    return code, secret


@transaction.atomic
def issue_sign_in_link(
    tournament: Tournament,
    actor: AnyUser,
    user: User,
    *,
    hours: int = SIGN_IN_HOURS,
    revoke_older: bool = True,
) -> tuple[SignInCode, str]:
    """A one-time sign-in link's secret for an official (returned once; only its SHA-256 is
    kept). Older unused links of theirs for the tournament stop working unless asked not to."""
    return _issue_code(
        tournament, actor, user, SignInCode.Kind.LINK, hours=hours, revoke_older=revoke_older
    )


@transaction.atomic
def issue_pin_card(
    tournament: Tournament,
    actor: AnyUser,
    user: User,
    *,
    hours: int = SIGN_IN_HOURS,
    revoke_older: bool = True,
) -> tuple[SignInCode, str]:
    """An 8-digit PIN for an official's printed card, entered with their sign-in name."""
    return _issue_code(
        tournament, actor, user, SignInCode.Kind.PIN, hours=hours, revoke_older=revoke_older
    )


class SignInRefused(DomainError):
    """One message for every failed sign-in: it never says whether the name exists."""

    def __init__(self) -> None:
        super().__init__(
            "This sign-in code is wrong, used or expired. Ask an organiser for a new one.",
            "サインインコードが正しくないか、使用済みまたは期限切れです。主催者に新しいコードを"
            "発行してもらってください。",
            code="sign_in_refused",
        )


def _usable_codes(kind: str) -> QuerySet[SignInCode]:
    return SignInCode.objects.filter(
        kind=kind,
        used_at__isnull=True,
        revoked_at__isnull=True,
        expires_at__gt=timezone.now(),
        failed_attempts__lt=PIN_MAX_FAILURES,
        user__is_active=True,
    ).select_related("user")


def sign_in_link_code(secret: str) -> SignInCode:
    """The usable link for `secret` (to show who it signs in), without using it."""
    code = _usable_codes(SignInCode.Kind.LINK).filter(code_hash=hash_sign_in_secret(secret)).first()
    if code is None:
        raise SignInRefused()
    return code


def sign_in_with_code(*, secret: str = "", username: str = "", pin: str = "") -> User:
    """The user a one-time code signs in (a link's `secret`, or a sign-in name and `pin`),
    marking the code used. A wrong PIN counts against each of the user's live PINs, which die
    after five; every refusal is the same `SignInRefused`."""
    user = _use_code(secret=secret, username=username, pin=pin)
    if user is None:  # raised outside the transaction, which keeps the failed attempt
        raise SignInRefused()
    return user


@transaction.atomic
def _use_code(*, secret: str, username: str, pin: str) -> User | None:
    if secret:
        code = (
            _usable_codes(SignInCode.Kind.LINK)
            .select_for_update(of=("self",))
            .filter(code_hash=hash_sign_in_secret(secret))
            .first()
        )
    else:
        user = User.objects.filter(username__iexact=username.strip(), is_active=True).first()
        pin = "".join(ch for ch in pin if ch.isdigit())
        # Hashed for an unknown name too: the same work, so timing tells no more than the
        # message does.
        digest = hash_sign_in_secret(pin, user.pk if user is not None else 0)
        if user is None:
            return None
        codes = _usable_codes(SignInCode.Kind.PIN).select_for_update(of=("self",)).filter(user=user)
        code = next((c for c in codes if hmac.compare_digest(c.code_hash, digest)), None)
        if code is None:
            codes.update(failed_attempts=F("failed_attempts") + 1)
    if code is None:
        return None
    code.used_at = timezone.now()
    code.save(update_fields=["used_at"])
    return code.user


@transaction.atomic
def assign_referees(
    round_: Round, actor: AnyUser, referee: User | None, tables: Sequence[Table]
) -> list[Table]:
    """Put one referee (a referee or head referee of the tournament) in charge of several
    tables of `round_` at once, or clear them (`referee=None`). Audited."""
    tournament = round_.stage.tournament
    require_organiser(actor, tournament)
    if round_.status in Round.SETTLED:
        raise DomainError(
            "The round is complete: its referees no longer change.",
            "この回戦は完了しています。審判は変更できません。",
            code="round_settled",
        )
    if (
        referee is not None
        and not tournament.officials.filter(user_id=referee.pk, role__in=REFEREE_ROLES).exists()
    ):
        raise DomainError(
            f"{referee.get_username()} is not a referee of {tournament}.",
            f"{referee.get_username()} はこの大会の審判ではありません。",
            code="not_referee",
        )
    chosen = [t for t in tables if t.round_id == round_.pk]
    if not chosen or len(chosen) != len(tables):
        raise DomainError(
            "Tick one or more tables of this round.",
            "この回戦の卓を1つ以上選んでください。",
            code="no_tables",
        )
    Table.objects.filter(pk__in=[t.pk for t in chosen]).update(
        referee_id=referee.pk if referee is not None else None
    )
    for table in chosen:
        table.referee_id = referee.pk if referee is not None else None
    record_audit(
        tournament,
        actor,
        AuditEntry.Action.REFEREES_ASSIGNED,
        round_=round_,
        data={
            "referee": referee.get_username() if referee is not None else None,
            "tables": sorted(t.number for t in chosen),
        },
    )
    return chosen


# ---------------------------------------------------------------------------------------------
# Uneven fields: tables of 3, tables of 5, byes (issue #12, table sizes)


def _require_points_for(tournament: Tournament, sizes: Sequence[int]) -> None:
    """Refuse a draw with a table size the points table does not score."""
    places = tournament.points_table.get("places", {})
    missing = sorted({n for n in sizes if str(n) not in places}, reverse=True)
    if missing:
        listed = ", ".join(str(n) for n in missing)
        raise DomainError(
            f"The points table has no points for tables of {listed}: add them before drawing.",
            f"順位点表に{listed}人卓の点がありません。抽選の前に追加してください。",
            code="points_table_missing_size",
        )


# ---------------------------------------------------------------------------------------------
# Stage set-up, playoffs (順位決定戦), tournament settings, leagues and seasons (issue #12)


@dataclass(frozen=True, slots=True)
class Notice:
    """A warning shown to the organiser: the change is allowed, but mind this."""

    code: str
    message_en: str
    message_ja: str


class StageRuleError(DomainError):
    """A stage or advancement rule refused at set-up time; `field` names the form field."""

    def __init__(self, message_en: str, message_ja: str, code: str, field: str = "") -> None:
        super().__init__(message_en, message_ja, code=code)
        self.field = field


def previous_stage(stage: Stage) -> Stage | None:
    if stage.kind == Stage.Kind.PLAYOFF:
        return None
    return main_stages(stage.tournament).filter(order__lt=stage.order).last()


def stage_field_size(stage: Stage) -> int | None:
    """How many play in `stage`: its participants once known; before that, for the first
    stage, the entries not dropped (registered or checked in) and not seeded further on; for a
    later stage, as many as its previous stage's rule sends, plus those seeded into it. None
    when it cannot be told yet (top K per table before the previous stage's field is known)."""
    participants = len(stage_participants(stage))
    if participants:
        return participants
    active = stage.tournament.entries.exclude(status=Entry.Status.DROPPED)
    previous = previous_stage(stage)
    if previous is None:
        if stage.kind == Stage.Kind.PLAYOFF:
            return stage.entrants.count()
        return active.filter(Q(seeded_into__isnull=True) | Q(seeded_into=stage)).count()
    seeded = active.filter(seeded_into=stage).count()
    sent = advancing_count(previous, previous.advance_top_n, previous.advance_top_k_per_table)
    return None if sent is None else sent + seeded


def advancing_count(source: Stage, top_n: int | None, top_k: int | None) -> int | None:
    """How many the rule (top N and/or top K per table) sends out of `source`."""
    count = top_n or 0
    if top_k:
        tables = len(last_round_tables(source))
        if not tables:
            size = stage_field_size(source)
            if size is None:
                return None
            try:
                layout = seating.table_layout(
                    size, source.tournament.table_size, source.tournament.uneven_tables
                )
            except seating.SeatingError:
                return None
            tables = layout.tables
        count = max(count, top_k * tables)
    return count


def uneven_notice(
    tournament: Tournament, count: int, where: str, where_ja: str = ""
) -> Notice | None:
    """What the uneven-table policy does with `count` players at `where`, when it does not
    divide by the table size (`seating.table_layout`, the draw's own rule)."""
    size = tournament.table_size
    if count % size == 0 or count < 3:
        return None
    policy = tournament.uneven_tables
    try:
        layout = seating.table_layout(count, size, policy)
    except seating.SeatingError as error:
        what_en, what_ja = f"no table can be formed ({error})", "卓が組めません"
    else:
        what_en, what_ja = layout.summary_en, layout.summary_ja
        if layout.byes:
            what_en += f" (a bye scores {tournament.bye_points})"
            what_ja += f"（不戦は{tournament.bye_points}点）"
    return Notice(
        "uneven_tables",
        f"{what_en} in {where}: {count} is not a multiple of the table size {size}, so the "
        f"uneven-table policy “{policy}” applies.",
        f"{where_ja or where}：{what_ja}（{size}人卓で割り切れないため）。",
    )


def _refuse_stage_after(previous: Stage) -> None:
    if previous.kind == Stage.Kind.FINAL:
        raise StageRuleError(
            f"Nothing comes after the final ({previous.name}).",
            f"決勝（{previous.name}）の後にステージは追加できません。",
            code="after_final",
            field="kind",
        )
    if previous.advanced_at is not None:
        raise StageRuleError(
            f"{previous.name} has already advanced its qualifiers: a stage added after it "
            "would have nobody in it.",
            f"{previous.name} は進出処理済みのため、後にステージを追加できません。",
            code="stage_advanced",
            field="kind",
        )


def check_stage_rule(
    source: Stage, top_n: int | None, top_k: int | None, *, target_kind: str | None = None
) -> list[Notice]:
    """Refuse (`StageRuleError`) an advancement rule out of `source` that cannot work, and
    list what to mind about one that can (`Notice`s). A rule is fixed once `source` has a
    round: its players are playing under it."""
    changed = (top_n, top_k) != (source.advance_top_n, source.advance_top_k_per_table)
    field = "advance_top_n" if top_n != source.advance_top_n else "advance_top_k_per_table"
    if (top_n or top_k) and source.kind in (Stage.Kind.FINAL, Stage.Kind.PLAYOFF):
        raise StageRuleError(
            f"{source.name} is a {source.get_kind_display()}: nobody advances out of it.",
            f"{source.name} からの進出はありません。",
            code="final_no_advancement",
            field=field,
        )
    had_rule = bool(source.advance_top_n or source.advance_top_k_per_table)
    if changed and had_rule and source.rounds.exists():
        # A missing rule may still be set (nobody was told of a cut); a set one is fixed.
        raise StageRuleError(
            f"{source.name} already has rounds: its advancement rule ({source.advancement_label}) "
            "is fixed, its players are playing under it.",
            f"{source.name} は回戦が始まっているため、進出条件（{source.advancement_label}）は"
            "変更できません。",
            code="stage_has_rounds",
            field=field,
        )
    if changed and source.advanced_at is not None:
        raise StageRuleError(
            f"{source.name} has already advanced its qualifiers.",
            f"{source.name} は進出処理済みです。",
            code="stage_advanced",
            field=field,
        )
    notices: list[Notice] = []
    tournament = source.tournament
    field_size = stage_field_size(source)
    if top_n is not None:
        if top_n < 1:
            raise StageRuleError(
                "Top N must be at least 1.",
                "上位N名は1以上です。",
                code="top_n_invalid",
                field="advance_top_n",
            )
        if changed and field_size and top_n >= field_size:
            raise StageRuleError(
                f"Top {top_n} is not a cut: {source.name} has {field_size} players. Take fewer "
                "than that.",
                f"{source.name} の参加者は {field_size} 名です。"
                "上位N名はそれより少なくしてください。",
                code="top_n_too_large",
                field="advance_top_n",
            )
    if top_k is not None:
        if not 1 <= top_k <= tournament.table_size:
            raise StageRuleError(
                f"Top K per table must be 1 to {tournament.table_size} (the table size).",
                f"各卓上位K名は1〜{tournament.table_size}名です。",
                code="top_k_invalid",
                field="advance_top_k_per_table",
            )
        if top_k == tournament.table_size:
            notices.append(
                Notice(
                    "top_k_everyone",
                    f"Top {top_k} per table is everyone at a full table.",
                    "各卓全員が進出します。",
                )
            )
    if not field_size:
        notices.append(
            Notice(
                "field_unknown",
                f"{source.name} has no entrants yet: the rule could not be checked against its "
                "field; it will be when its first round is drawn.",
                f"{source.name} の参加者がまだいないため、人数の確認はできません。",
            )
        )
    count = advancing_count(source, top_n, top_k)
    if count is not None and changed and count < 3:
        raise StageRuleError(
            f"Only {count} would advance: a table needs at least 3 players.",
            f"進出 {count} 名では卓が組めません（3名以上）。",
            code="too_few_advance",
            field=field,
        )
    if count and target_kind is not None:
        notice = uneven_notice(tournament, count, "the next stage", "次のステージ")
        if notice is not None:
            notices.append(notice)
    return notices


def stage_rule_notices(stage: Stage) -> list[Notice]:
    """What to mind about the rule out of `stage` as it stands (for the stages page)."""
    target = next_stage(stage)
    if target is None or not (stage.advance_top_n or stage.advance_top_k_per_table):
        return []
    try:
        return check_stage_rule(
            stage, stage.advance_top_n, stage.advance_top_k_per_table, target_kind=target.kind
        )
    except StageRuleError:  # unchanged rules are not refused; kept for safety
        return []


_UNSET: object = object()


@transaction.atomic
def seed_entries(stage: Stage, actor: AnyUser, numbers: Sequence[int]) -> list[Entry]:
    """Seed entrants straight into a later stage (e.g. last year's finalists into the final):
    they skip the stages before it and join it when the previous stage advances. `numbers` is
    the whole list of the stage's seeds (an empty list clears them). Refused for the first
    stage and playoffs (nothing to skip), and once the previous stage has advanced (the seeds
    would never be placed). Audited (STAGE_EDITED)."""
    tournament = stage.tournament
    require_organiser(actor, tournament)
    stage = Stage.objects.select_for_update().get(pk=stage.pk)
    previous = previous_stage(stage)
    if previous is None:
        raise DomainError(
            f"{stage.name} is where everyone starts: seed entrants into a later stage.",
            f"{stage.name} は最初のステージです。シードは後のステージに設定してください。",
            code="seed_first_stage",
        )
    if previous.advanced_at is not None:
        raise DomainError(
            f"{previous.name} has already advanced to {stage.name}: seeds can no longer join it.",
            f"{previous.name} は進出処理済みのため、{stage.name} にシードを追加できません。",
            code="stage_advanced",
        )
    wanted = sorted(set(numbers))
    entries = list(tournament.entries.filter(number__in=wanted))
    unknown = sorted(set(wanted) - {e.number for e in entries})
    dropped = sorted(e.number for e in entries if e.status == Entry.Status.DROPPED)
    if unknown or dropped:
        listed = ", ".join(f"#{n}" for n in unknown + dropped)
        raise DomainError(
            f"Not an entrant who can be seeded (unknown or withdrawn): {listed}.",
            f"シードにできない参加者番号です（存在しないか棄権）：{listed}。",
            code="seed_unknown_entry",
        )
    before = sorted(tournament.entries.filter(seeded_into=stage).values_list("number", flat=True))
    tournament.entries.filter(seeded_into=stage).exclude(number__in=wanted).update(seeded_into=None)
    tournament.entries.filter(number__in=wanted).update(seeded_into=stage)
    if before != wanted:
        record_audit(
            tournament,
            actor,
            AuditEntry.Action.STAGE_EDITED,
            data={"stage": stage.name, "seeded": {"old": before, "new": wanted}},
        )
    return list(tournament.entries.filter(seeded_into=stage).order_by("number"))


@transaction.atomic
def update_stage(
    stage: Stage,
    actor: AnyUser,
    *,
    name: str | None = None,
    kind: str | None = None,
    advance_top_n: object = _UNSET,
    advance_top_k_per_table: object = _UNSET,
    carry_over_totals: bool | None = None,
    tournament_order: str | None = None,
) -> dict[str, tuple[object, object]]:
    """Edit a stage: its name and `tournament_order` (how the tournament's order places its
    entrants) at any time; its kind (cut ↔ final), its rule out of it and
    `carry_over_totals` only before it has a round. Returns what changed (audited as
    STAGE_EDITED); a new name or order has the standings recomputed (the boards show both)."""
    tournament = stage.tournament
    require_organiser(actor, tournament)
    stage = Stage.objects.select_for_update().select_related("tournament").get(pk=stage.pk)
    new_n = stage.advance_top_n if advance_top_n is _UNSET else advance_top_n
    new_k = (
        stage.advance_top_k_per_table
        if advance_top_k_per_table is _UNSET
        else advance_top_k_per_table
    )
    assert new_n is None or isinstance(new_n, int)
    assert new_k is None or isinstance(new_k, int)
    changes: dict[str, tuple[object, object]] = {}
    if name is not None and name.strip() and name.strip() != stage.name:
        changes["name"] = (stage.name, name.strip())
    has_rounds = stage.rounds.exists()
    if kind is not None and kind != stage.kind:
        if stage.kind not in (Stage.Kind.CUT, Stage.Kind.FINAL) or kind not in (
            Stage.Kind.CUT,
            Stage.Kind.FINAL,
        ):
            raise StageRuleError(
                "Only a cut can become a final and a final a cut.",
                "種別は準決勝と決勝の間でのみ変更できます。",
                code="stage_kind_invalid",
                field="kind",
            )
        if has_rounds:
            raise StageRuleError(
                f"{stage.name} already has rounds: its kind is fixed.",
                f"{stage.name} は回戦があるため種別を変更できません。",
                code="stage_has_rounds",
                field="kind",
            )
        if kind == Stage.Kind.FINAL:
            if next_stage(stage) is not None:
                raise StageRuleError(
                    "Only the last stage can be the final: nothing comes after a final.",
                    "決勝は最後のステージのみです。",
                    code="after_final",
                    field="kind",
                )
            new_n = new_k = None
        changes["kind"] = (stage.kind, kind)
    target_kind = kind or stage.kind
    if (new_n, new_k) != (stage.advance_top_n, stage.advance_top_k_per_table):
        following = next_stage(stage)
        if (new_n or new_k) and (target_kind == Stage.Kind.FINAL or following is None):
            raise StageRuleError(
                f"Nobody advances out of {stage.name}: "
                + ("it is the final." if target_kind == Stage.Kind.FINAL else "no stage follows.")
                + " Add the next stage first.",
                f"{stage.name} からの進出先がありません。",
                code="final_no_advancement",
                field="advance_top_n",
            )
        check_stage_rule(stage, new_n, new_k, target_kind=following.kind if following else None)
        changes["advancement"] = (
            stage.advancement_label,
            Stage(advance_top_n=new_n, advance_top_k_per_table=new_k).advancement_label,
        )
    if carry_over_totals is not None and carry_over_totals != stage.carry_over_totals:
        if has_rounds:
            raise StageRuleError(
                f"{stage.name} already has rounds: whether it carries totals over is fixed.",
                f"{stage.name} は回戦があるため持ち越し設定を変更できません。",
                code="stage_has_rounds",
                field="carry_over_totals",
            )
        changes["carry_over_totals"] = (stage.carry_over_totals, carry_over_totals)
    if tournament_order is not None and tournament_order != stage.tournament_order:
        first = (
            stage.kind == Stage.Kind.PLAYOFF
            or not main_stages(tournament).filter(order__lt=stage.order).exists()
        )
        _check_tournament_order(tournament_order, first)
        changes["tournament_order"] = (stage.tournament_order, tournament_order)
    if not changes:
        return changes
    if "name" in changes:
        stage.name = str(changes["name"][1])
    if "kind" in changes:
        stage.kind = str(changes["kind"][1])
    stage.advance_top_n, stage.advance_top_k_per_table = new_n, new_k
    if carry_over_totals is not None:
        stage.carry_over_totals = carry_over_totals
    if "tournament_order" in changes:
        stage.tournament_order = str(changes["tournament_order"][1])
    stage.save()
    if {"name", "tournament_order"} & set(changes):
        # The boards name the stage each entrant reached and rank the tournament by it.
        tournament_settings_changed.send(sender=Tournament, tournament_id=tournament.pk)
    record_audit(
        tournament,
        actor,
        AuditEntry.Action.STAGE_EDITED,
        data={"stage": stage.pk, "changed": {k: [str(o), str(n)] for k, (o, n) in changes.items()}},
    )
    return changes


@transaction.atomic
def delete_stage(stage: Stage, actor: AnyUser) -> None:
    """Delete a stage nobody has played or entered yet (audited as STAGE_EDITED)."""
    tournament = stage.tournament
    require_organiser(actor, tournament)
    stage = Stage.objects.select_for_update().get(pk=stage.pk)
    reason: tuple[str, str, str] | None = None
    if stage.rounds.exists():
        reason = (
            f"{stage.name} has rounds: its results are on record.",
            f"{stage.name} には回戦があるため削除できません。",
            "stage_has_rounds",
        )
    elif stage.entrants.exists() and stage.kind != Stage.Kind.PLAYOFF:
        reason = (
            f"Entrants have already advanced into {stage.name}.",
            f"{stage.name} には進出者がいるため削除できません。",
            "stage_has_entrants",
        )
    elif stage.kind != Stage.Kind.PLAYOFF and next_stage(stage) is not None:
        reason = (
            "Delete the stages after it first.",
            "後のステージから削除してください。",
            "stage_not_last",
        )
    elif stage.kind != Stage.Kind.PLAYOFF and main_stages(tournament).count() == 1:
        reason = (
            "A tournament keeps at least one stage.",
            "ステージは最低1つ必要です。",
            "only_stage",
        )
    elif stage.seeded_entries.exists():
        reason = (
            f"Entries are seeded into {stage.name}.",
            f"{stage.name} にシードされた参加者がいます。",
            "stage_has_seeded",
        )
    elif stage.playoffs.exists():
        reason = (
            f"{stage.name} has a playoff.",
            f"{stage.name} には順位決定戦があります。",
            "stage_has_playoff",
        )
    if reason is not None:
        raise StageRuleError(reason[0], reason[1], code=reason[2])
    record_audit(
        tournament,
        actor,
        AuditEntry.Action.STAGE_EDITED,
        data={"stage": stage.pk, "deleted": stage.name, "kind": stage.kind},
    )
    stage.delete()


def _playoff_settled(playoff: Stage) -> bool:
    rounds = list(playoff.rounds.all())
    return bool(rounds) and all(r.status in Round.SETTLED for r in rounds)


def playoff_order(stage: Stage) -> list[tuple[int, ...]]:
    """The tie-break order the settled playoffs of `stage` give: each playoff's entrants by
    their playoff placings (playoff points, then the tournament's tie-break keys), those level
    in the playoff grouped together. Playoffs not settled yet give nothing."""
    order: list[tuple[int, ...]] = []
    for playoff in stage.playoffs.order_by("order"):
        if not _playoff_settled(playoff):
            continue
        members = set(playoff.entrants.values_list("entry_id", flat=True))
        keys = stage_ranking(playoff).keys
        order += playoff_tie_break({e: keys.get(e, 0.0) for e in members})
    return order


@dataclass(frozen=True, slots=True)
class PreviewRow:
    entry: Entry
    points: int
    place: int  # by the ranking and the playoff order (shared when tied)
    status: str  # in | tied | out | final (no rule: final places)
    reason: str
    playoff: bool  # placed among level entrants by a playoff


@dataclass(frozen=True, slots=True)
class Tie:
    entries: tuple[Entry, ...]
    places_left: int  # 0 for a tie in final places
    where: Where

    @property
    def heading(self) -> str:
        """ "Tie for 2 places at the cut line", in the page's language."""
        return tie_heading(self.where, self.places_left)

    @property
    def numbers(self) -> list[int]:
        return [e.number for e in self.entries]


@dataclass(frozen=True, slots=True)
class AdvancementPreview:
    stage: Stage
    target: Stage | None
    rule: str
    basis: str
    rows: tuple[PreviewRow, ...]
    ties: tuple[Tie, ...]
    notices: tuple[Notice, ...]
    playoffs: tuple[Stage, ...]
    tie_break: tuple[tuple[int, ...], ...]  # from settled playoffs

    @property
    def advancing(self) -> list[Entry]:
        return [row.entry for row in self.rows if row.status == "in"]

    @property
    def final_places(self) -> bool:
        return self.target is None


def preview_advancement(stage: Stage, actor: AnyUser) -> AdvancementPreview:
    """Who would advance out of `stage` now (its ranking on confirmed results, with the order
    of its settled playoffs), and every tie at a cut line; for the last stage (the final), the
    final places, ties flagged and placed by their playoff when there is one."""
    require_organiser(actor, stage.tournament)
    ranking = stage_ranking(stage)
    participants = {e.pk: e for e in stage_participants(stage)}
    keys = {pk: ranking.keys.get(pk, 0.0) for pk in participants}
    tie_break = playoff_order(stage)
    positions = {e: i for i, group in enumerate(tie_break) for e in group}
    target = next_stage(stage)
    has_rule = bool(stage.advance_top_n or stage.advance_top_k_per_table)

    def sort_key(pk: int) -> tuple[float, int]:
        return (-keys[pk], positions.get(pk, len(tie_break)))

    ordered = sorted(participants, key=lambda pk: (*sort_key(pk), participants[pk].number))
    places = {pk: 1 + sum(1 for o in ordered if sort_key(o) < sort_key(pk)) for pk in ordered}
    level: dict[tuple[float, int], list[int]] = {}
    for pk in ordered:
        level.setdefault(sort_key(pk), []).append(pk)
    by_playoff = {pk for pk in positions if len(level[sort_key(pk)]) == 1}
    ties: list[Tie] = []
    notices: list[Notice] = []
    status: dict[int, str] = {}
    reasons: dict[int, str] = {}
    if target is not None and has_rule:
        try:
            preview = preview_advancing(
                keys,
                Rule(top_n=stage.advance_top_n, top_k_per_table=stage.advance_top_k_per_table),
                tables=last_round_tables(stage) or None,
                tie_break=tie_break,
            )
        except ValueError:  # top K per table before any round
            notices.append(
                Notice(
                    "no_round_yet",
                    "Top K per table needs the stage's last round: draw it first.",
                    "各卓上位K名の判定には回戦が必要です。",
                )
            )
        else:
            for pk in participants:
                status[pk] = preview.status(pk)
                reasons[pk] = reason_words(preview.reasons.get(pk))
            ties = [
                Tie(tuple(participants[t] for t in tied if t in participants), left, where)
                for tied, left, where in preview.ties
            ]
            seeded = stage.tournament.entries.filter(seeded_into=target).exclude(
                status=Entry.Status.DROPPED
            )
            count = len(preview.advancing) + seeded.count()
            notice = uneven_notice(stage.tournament, count, target.name)
            if notice is not None:
                notices.append(notice)
    else:
        for pk in participants:
            tied_here = len(level[sort_key(pk)]) > 1 and bool(keys)
            status[pk] = "tied" if tied_here else "final"
        seen: set[tuple[float, int]] = set()
        for pk in ordered:
            group = level[sort_key(pk)]
            if len(group) > 1 and sort_key(pk) not in seen:
                seen.add(sort_key(pk))
                ties.append(Tie(tuple(participants[g] for g in group), 0, Where(place=places[pk])))
    rows = tuple(
        PreviewRow(
            entry=participants[pk],
            points=int(ranking.points.get(pk, 0)),
            place=places[pk],
            status=status.get(pk, "out"),
            reason=reasons.get(pk, ""),
            playoff=pk in by_playoff,
        )
        for pk in ordered
    )
    return AdvancementPreview(
        stage=stage,
        target=target,
        rule=stage.advancement_label,
        basis=ranking.basis,
        rows=rows,
        ties=tuple(ties),
        notices=tuple(notices),
        playoffs=tuple(stage.playoffs.order_by("order")),
        tie_break=tuple(tie_break),
    )


def playoff_format(tournament: Tournament, count: int) -> Tournament:
    """The tournament as a playoff round of `count` entrants is drawn: the same tournament
    (never saved) with the playoff's table size and tables one short when it does not divide."""
    copy = Tournament.objects.get(pk=tournament.pk)
    copy.table_size = playoff_table_size(count)
    copy.uneven_tables = Tournament.UnevenTables.SHORT
    return copy


@transaction.atomic
def create_playoff(
    stage: Stage, actor: AnyUser, entry_ids: Sequence[int], *, name: str = ""
) -> Stage:
    """A tie-break playoff (順位決定戦) for entrants of `stage` level on its ranking (and on
    any earlier playoff): a stage of kind playoff, `playoff_for` = `stage`, whose entrants are
    the tied entries, drawn as one table through `draw_round`. Its placings become the tie-break
    order (`playoff_order`). Audited as PLAYOFF_CREATED."""
    tournament = stage.tournament
    require_organiser(actor, tournament)
    stage = Stage.objects.select_for_update().select_related("tournament").get(pk=stage.pk)
    if stage.kind == Stage.Kind.PLAYOFF:
        raise DomainError(
            "A playoff is created for the stage whose entrants tie, not for a playoff.",
            "順位決定戦は元のステージに対して作成します。",
            code="playoff_of_playoff",
        )
    if stage.advanced_at is not None:
        raise DomainError(
            f"{stage.name} has already advanced its qualifiers.",
            f"{stage.name} は進出処理済みです。",
            code="stage_advanced",
        )
    rounds = list(stage.rounds.all())
    if not rounds or any(r.status not in Round.SETTLED for r in rounds):
        raise DomainError(
            "A playoff breaks ties on final results: complete every round of the stage first.",
            "順位決定戦はステージの全回戦の完了後に作成できます。",
            code="stage_not_complete",
        )
    if any(not _playoff_settled(p) for p in stage.playoffs.all()):
        raise DomainError(
            "A playoff of this stage is not finished yet: finish it first.",
            "このステージの順位決定戦が終わっていません。",
            code="playoff_open",
        )
    participants = {e.pk: e for e in stage_participants(stage)}
    ids = sorted(set(entry_ids))
    if any(pk not in participants for pk in ids):
        raise DomainError(
            "Every entrant of a playoff must be a checked-in entrant of the stage.",
            "順位決定戦の参加者はこのステージの参加者です。",
            code="playoff_entrants_invalid",
        )
    if len(ids) < 3:
        raise DomainError(
            "A playoff table needs at least 3 players (the smallest 大富豪 game). With 2 tied, "
            "decide by lot and type their order on the advance page.",
            "順位決定戦は3名以上が必要です。2名の同点は抽選で決め、順番を入力してください。",
            code="playoff_too_small",
        )
    keys = stage_ranking(stage).keys
    positions = {e: i for i, group in enumerate(playoff_order(stage)) for e in group}
    levels = {(keys.get(pk, 0.0), positions.get(pk, -1)) for pk in ids}
    if len(levels) != 1:
        raise DomainError(
            "These entrants are not tied: a playoff is only for entrants level on every tie-break.",
            "同点ではない参加者が含まれています。",
            code="playoff_not_tied",
        )
    number = stage.playoffs.count() + 1
    playoff = Stage.objects.create(
        tournament=tournament,
        order=(tournament.stages.aggregate(m=Max("order"))["m"] or 0) + 1,
        name=name.strip() or f"Playoff 順位決定戦 {number} · {stage.name}",
        kind=Stage.Kind.PLAYOFF,
        playoff_for=stage,
    )
    points = stage_ranking(stage).points
    StageEntrant.objects.bulk_create(
        StageEntrant(
            stage=playoff,
            entry_id=pk,
            source=StageEntrant.Source.ADVANCED,
            note=f"tied in {stage.name} ({points.get(pk, 0)} pts): playoff 順位決定戦",
        )
        for pk in ids
    )
    record_audit(
        tournament,
        actor,
        AuditEntry.Action.PLAYOFF_CREATED,
        data={
            "stage": stage.pk,
            "playoff": playoff.pk,
            "entries": sorted(participants[pk].number for pk in ids),
        },
    )
    return playoff


# Tournament settings -------------------------------------------------------------------------

SETTINGS_FIELDS = (
    "name",
    "starts_on",
    "ends_on",
    "venue",
    "season",
    "status",
    "points_table",
    "games_per_set",
    "sets_per_round",
    "title_reset_every",
    "seat_change_every",
    "table_size",
    "uneven_tables",
    "bye_points",
    "undo_requires_approval",
    "rated",
    "forfeit_others",
    "forfeit_leaver_points",
    "think_seconds",
    "time_fault_rule",
    "time_fault_points",
    "match_length",
    "match_minutes",
    "match_points_by",
    "match_points",
    "ruleset_overrides",
)
# The settings of a team match (掼蛋 Guandan): only team events have them.
MATCH_FIELDS = ("match_length", "match_minutes", "match_points_by", "match_points")

# Status moves an organiser may make (publishing a round moves draft/registration → running).
STATUS_MOVES: dict[str, tuple[str, ...]] = {
    Tournament.Status.DRAFT: (Tournament.Status.REGISTRATION, Tournament.Status.RUNNING),
    Tournament.Status.REGISTRATION: (Tournament.Status.DRAFT, Tournament.Status.RUNNING),
    Tournament.Status.RUNNING: (
        Tournament.Status.FINISHED,
        Tournament.Status.REGISTRATION,
        Tournament.Status.DRAFT,
    ),
    Tournament.Status.FINISHED: (),
}


class SettingsRefused(DomainError):
    """Some of the changes asked for are not safe any more: `errors` maps each refused field
    to why (nothing was changed)."""

    def __init__(self, errors: Mapping[str, DomainError]) -> None:
        self.errors = dict(errors)
        super().__init__(
            " ".join(e.message_en for e in self.errors.values()),
            " ".join(e.message_ja for e in self.errors.values()),
            code="settings_refused",
        )


@dataclass(frozen=True, slots=True)
class SettingsChange:
    changed: dict[str, tuple[object, object]]
    notices: tuple[Notice, ...]
    rescored: bool


def _plain(value: object) -> object:
    """A setting's value as JSON for the audit record."""
    if isinstance(value, datetime.date):
        return value.isoformat()
    if hasattr(value, "pk"):
        return {"id": value.pk, "name": str(value)}
    return value


# What each cycle setting is called in a refusal (English, Japanese).
CYCLE_WORDS = {
    "title_reset_every": ("Titles reset every", "階級リセットの間隔"),
    "seat_change_every": ("Seats change every", "席替えの間隔"),
}


def _cycle_setting(value: object, field: str) -> DomainError | None:
    """A title-reset or seat-change cycle: a number of games from 1, or None for never."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_CYCLE:
        en, ja = CYCLE_WORDS[field]
        return DomainError(
            f"{en}: give a number of games from 1 to {MAX_CYCLE}, or leave it blank for never "
            f"(not {value}).",
            f"{ja}：1〜{MAX_CYCLE}のゲーム数を指定してください（しない場合は空欄）。",
            code="invalid",
        )
    return None


def _int_setting(value: object, low: int, high: int, field: str) -> DomainError | None:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        return DomainError(
            f"{field.replace('_', ' ').capitalize()} must be a whole number from {low} to {high}.",
            f"{low}〜{high}の整数を指定してください。",
            code="invalid",
        )
    return None


def ruleset_overrides_checked(
    tournament: Tournament, value: object
) -> tuple[dict[str, object], dict[str, DomainError]]:
    """The event's switch values as they are kept (only those that differ from the preset, in
    the family's record form) and, instead, a refusal per switch at fault, keyed
    `ruleset_overrides.<switch>` (`ruleset_overrides` for the whole when it is not an object,
    or when switches fine alone do not go together)."""
    if not isinstance(value, dict) or not all(isinstance(k, str) for k in value):
        return {}, {
            "ruleset_overrides": DomainError(
                "The rules of the event are an object {switch: value}.",
                "大会のルール設定は {スイッチ: 値} の形で指定します。",
                code="invalid",
            )
        }
    preset = check_ruleset(tournament.ruleset_id, tournament.ruleset_version)
    known = {switch.name for switch in preset.describe_switches()}
    errors: dict[str, DomainError] = {}
    for name, switch_value in value.items():
        label_en, label_ja = in_both(name)
        if name not in known:
            errors[f"ruleset_overrides.{name}"] = DomainError(
                f"{preset.key} has no switch {name!r}.",
                f"{preset.key} には「{name}」というルール設定はありません。",
                code="unknown_switch",
            )
        elif name in TABLE_DECIDES:
            errors[f"ruleset_overrides.{name}"] = DomainError(
                f"{label_en} ({name}) is decided by each table's seats, not by the event.",
                f"{label_ja}（{name}）は卓ごとの人数で決まり、大会では指定できません。",
                code="switch_decided_by_table",
            )
        else:
            try:
                with_overrides(preset, {name: switch_value})
            except RulesError as error:
                errors[f"ruleset_overrides.{name}"] = DomainError(
                    f"{label_en} ({name}): {error}.",
                    f"{label_ja}（{name}）に {switch_value!r} は指定できません。",
                    code="switch_invalid",
                )
    if errors:
        return {}, errors
    try:
        rules = with_overrides(preset, value)
    except RulesError as error:
        return {}, {
            "ruleset_overrides": DomainError(
                f"These switch values do not go together: {error}.",
                f"このルール設定の組み合わせは使えません：{error}",
                code="switch_invalid",
            )
        }
    record = rules.to_record()
    return (dict(record["overrides"]) if isinstance(record, dict) else {}), {}


def unset_switches(tournament: Tournament) -> tuple[str, ...]:
    """The switches of the event's ruleset that still need a value (a family with switches
    that have no default, 大財閥): drawing and publishing wait for them."""
    rules = event_rules(
        tournament.ruleset_id, tournament.ruleset_version, tournament.ruleset_overrides
    )
    return tuple(rules.unset_switches())


def require_ruleset_complete(tournament: Tournament) -> None:
    """Refuse (`ruleset_incomplete`) while a switch of the event's ruleset has no value: no
    game can be played under it."""
    unset = unset_switches(tournament)
    if unset:
        names_en = ", ".join(f"{in_both(n)[0]} ({n})" for n in unset)
        names_ja = "、".join(f"{in_both(n)[1]}（{n}）" for n in unset)
        raise DomainError(
            f"The rules of the event are incomplete: set {names_en} in the settings before "
            "the first draw.",
            f"大会のルールが未設定です：最初の抽選の前に、設定で{names_ja}を指定してください。",
            code="ruleset_incomplete",
        )


@transaction.atomic
def update_tournament_settings(
    tournament: Tournament, actor: AnyUser, **changes: object
) -> SettingsChange:
    """Change the tournament's settings (`SETTINGS_FIELDS`), all or nothing. A change that is
    no longer safe is refused per field (`SettingsRefused`, e.g. the format once a round is
    published: games exist that were played under it); a points-table change after games were
    played is allowed, noticed, and every result is rescored. The ruleset is pinned. Returns
    what changed (old, new); audited as SETTINGS_CHANGED."""
    require_organiser(actor, tournament)
    current = Tournament.objects.select_for_update().get(pk=tournament.pk)
    rounds = Round.objects.filter(stage__tournament=current)
    drawn = rounds.exists()
    published = rounds.exclude(status=Round.Status.DRAFT).exists()
    played = Game.objects.filter(table__round__stage__tournament=current).exists()
    errors: dict[str, DomainError] = {}
    notices: list[Notice] = []
    changed: dict[str, tuple[object, object]] = {}
    if "ruleset_overrides" in changes:
        # Kept as the family writes it (preset values dropped), so an unchanged page is no
        # change and the audit shows only what differs from the preset.
        kept, refused = ruleset_overrides_checked(current, changes["ruleset_overrides"])
        errors.update(refused)
        changes = {**changes, "ruleset_overrides": kept}
        if refused:
            del changes["ruleset_overrides"]
    for field, value in changes.items():
        if field in ("ruleset", "ruleset_id", "ruleset_version"):
            errors[field] = DomainError(
                f"The ruleset is pinned ({current.ruleset_label}): games record the rules they "
                "were played under. Create a new tournament for other rules.",
                f"ルール（{current.ruleset_label}）は固定です。",
                code="ruleset_pinned",
            )
            continue
        if field not in SETTINGS_FIELDS:
            errors[field] = DomainError(
                f"{field} is not a setting.", f"{field} は設定項目ではありません。", "unknown"
            )
            continue
        if isinstance(value, str) and field in ("name", "venue"):
            value = value.strip()
        old = getattr(current, field)
        if value == old:
            continue
        changed[field] = (old, value)
    new = {f: changed[f][1] if f in changed else getattr(current, f) for f in SETTINGS_FIELDS}
    for field, (old, value) in changed.items():
        error: DomainError | None = None
        if field == "name" and not (isinstance(value, str) and 0 < len(value) <= 200):
            error = DomainError("Give the tournament a name.", "大会名が必要です。", "required")
        elif field == "venue" and not (isinstance(value, str) and len(value) <= 200):
            error = DomainError("At most 200 characters.", "200文字以内。", "invalid")
        elif field in ("starts_on", "ends_on"):
            if value is not None and not isinstance(value, datetime.date):
                error = DomainError("Not a date.", "日付ではありません。", "invalid")
        elif field == "season":
            if value is not None and not isinstance(value, Season):
                error = DomainError("Not a season.", "シーズンではありません。", "invalid")
        elif field == "status":
            if value not in Tournament.Status.values:
                error = DomainError("Unknown status.", "不明な状態です。", "invalid")
            elif old == Tournament.Status.FINISHED:
                error = DomainError(
                    "The tournament is finished: its status stays finished (results are final).",
                    "終了した大会の状態は戻せません。",
                    code="status_finished",
                )
            elif value not in STATUS_MOVES[str(old)]:
                error = DomainError(
                    f"A tournament goes from {old} to "
                    f"{' or '.join(STATUS_MOVES[str(old)]) or 'nowhere'}, not to {value}.",
                    "その状態には変更できません。",
                    code="status_move_invalid",
                )
            elif value in (Tournament.Status.DRAFT, Tournament.Status.REGISTRATION) and published:
                error = DomainError(
                    "Rounds are published: the tournament is running and cannot go back to "
                    f"{value}.",
                    "公開済みの回戦があるため、状態を戻せません。",
                    code="rounds_published",
                )
            elif (
                value == Tournament.Status.FINISHED
                and rounds.filter(status__in=Round.OPEN).exists()
            ):
                error = DomainError(
                    "A round is still in play: complete every round before finishing.",
                    "対局中の回戦があります。全回戦を完了してから終了してください。",
                    code="rounds_open",
                )
        elif field in ("games_per_set", "sets_per_round"):
            high = MAX_GAMES_PER_SET if field == "games_per_set" else 10
            error = _int_setting(value, 1, high, field)
            if error is None and published:
                what = "games a set" if field == "games_per_set" else "sets a round"
                error = DomainError(
                    f"A round is published: its games are played with {old} {what}. The "
                    "format can no longer change.",
                    "公開済みの回戦があるため、"
                    + ("1セットのゲーム数" if field == "games_per_set" else "1回戦のセット数")
                    + "は変更できません。",
                    code="round_published",
                )
        elif field in CYCLE_WORDS:
            error = _cycle_setting(value, field)
            if error is None and published:
                error = DomainError(
                    "A round is published: its games are played with these title and seat "
                    "cycles. They can no longer change.",
                    "公開済みの回戦があるため、" + CYCLE_WORDS[field][1] + "は変更できません。",
                    code="round_published",
                )
        elif field == "table_size":
            error = _int_setting(value, 3, 5, field)
            if error is None and drawn:
                error = DomainError(
                    f"A round is drawn at tables of {old}: the table size can no longer change.",
                    f"回戦の卓組が済んでいるため、卓の人数（{old}人）は変更できません。",
                    code="round_drawn",
                )
        elif field == "uneven_tables":
            if value not in Tournament.UnevenTables.values:
                error = DomainError("Unknown policy.", "不明な方式です。", "invalid")
            elif drawn:
                notices.append(
                    Notice(
                        "applies_to_next_draw",
                        "The uneven-table policy applies to rounds drawn from now on.",
                        "端数の扱いは次の抽選から適用されます。",
                    )
                )
        elif field in ("bye_points", "forfeit_leaver_points"):
            if not (
                (value is None and field == "forfeit_leaver_points")
                or (isinstance(value, int) and not isinstance(value, bool))
            ):
                error = DomainError("A whole number.", "整数を指定してください。", "invalid")
            elif played and field == "forfeit_leaver_points":
                notices.append(
                    Notice(
                        "rescored",
                        "Games were played: every result is rescored and all standings will be "
                        "recomputed.",
                        "対局済みのため、全結果を再計算します。",
                    )
                )
        elif field in ("undo_requires_approval", "rated"):
            if not isinstance(value, bool):
                error = DomainError("Yes or no.", "はい・いいえ。", "invalid")
            elif field == "rated" and value and current.plays_in_teams:
                error = DomainError(
                    "Ratings are individual: a team event (掼蛋) is never rated.",
                    "レーティングは個人戦のみです。チーム戦（掼蛋）は対象外です。",
                    code="not_rateable",
                )
        elif field == "think_seconds":
            if value is not None:
                error = _int_setting(value, 0, 600, field)
        elif field == "time_fault_rule" and value not in Tournament.TimeFaultRule.values:
            error = DomainError("Unknown rule.", "不明な方式です。", "invalid")
        elif field == "time_fault_points":
            error = _int_setting(value, 1, 100, field)
        elif field == "forfeit_others" and value not in Tournament.ForfeitOthers.values:
            error = DomainError("Unknown rule.", "不明な方式です。", "invalid")
        elif field == "ruleset_overrides" and published:
            error = DomainError(
                "A round is published: its games are played under these rules. The rules of "
                "the event can no longer change.",
                "公開済みの回戦があるため、大会のルール設定は変更できません。",
                code="round_published",
            )
        if error is not None:
            errors[field] = error
    match_changed = set(MATCH_FIELDS) & set(changed)
    if current.plays_in_teams:
        for field, error in _team_format_errors({f: v for f, (_old, v) in changed.items()}).items():
            errors.setdefault(field, error)
        if match_changed:
            for field, error in _match_errors({f: new[f] for f in MATCH_FIELDS}).items():
                if field in changed or field == "match_minutes":
                    errors.setdefault(field, error)
            if published and {"match_length", "match_minutes"} & match_changed:
                for field in {"match_length", "match_minutes"} & match_changed:
                    errors.setdefault(
                        field,
                        DomainError(
                            "A round is published: its matches are played to this length. "
                            "It can no longer change.",
                            "公開済みの回戦があるため、対戦の長さは変更できません。",
                            code="round_published",
                        ),
                    )
            if played and {"match_points_by", "match_points"} & match_changed:
                notices.append(
                    Notice(
                        "rescored",
                        "Matches were played: every team's match points and the standings are "
                        "recomputed.",
                        "対局済みのため、各チームの勝点と順位を再計算します。",
                    )
                )
    else:
        for field in match_changed:
            errors[field] = DomainError(
                "Match length and match points belong to team events (掼蛋); this tournament's "
                "players play alone.",
                "対戦の長さと勝点はチーム戦（掼蛋・グアンダン）の設定です。",
                code="not_a_team_event",
            )
    if "ends_on" not in errors and new["starts_on"] and new["ends_on"]:
        starts, ends = new["starts_on"], new["ends_on"]
        assert isinstance(starts, datetime.date) and isinstance(ends, datetime.date)
        if ends < starts:
            errors["ends_on"] = DomainError(
                "The tournament cannot end before it starts.",
                "終了日は開始日より後です。",
                code="ends_before_start",
            )
    if "points_table" in changed or ({"table_size", "uneven_tables"} & set(changed) and not errors):
        try:
            validate_points_table(
                new["points_table"], int(str(new["table_size"])), str(new["uneven_tables"])
            )
        except ValidationError as invalid:
            field = (
                "points_table"
                if "points_table" in changed
                else next(f for f in ("table_size", "uneven_tables") if f in changed)
            )
            errors.setdefault(
                field,
                DomainError(
                    " ".join(invalid.messages),
                    "順位点の表が不正です：" + " ".join(invalid.messages),
                    code="points_table_invalid",
                ),
            )
        else:
            if "points_table" in changed and played:
                notices.append(
                    Notice(
                        "rescored",
                        "Games were played: every result is rescored with the new table and all "
                        "standings will be recomputed.",
                        "対局済みのため、新しい順位点で全結果と順位を再計算します。",
                    )
                )
    if errors:
        raise SettingsRefused(errors)
    if not changed:
        return SettingsChange({}, (), False)
    for field, (_, value) in changed.items():
        setattr(current, field, value)
    current.save(update_fields=list(changed))
    record_audit(
        current,
        actor,
        AuditEntry.Action.SETTINGS_CHANGED,
        data={
            "changed": {
                f: {"old": _plain(old), "new": _plain(value)} for f, (old, value) in changed.items()
            }
        },
    )
    rescore = played and bool({"points_table", "forfeit_leaver_points"} & set(changed))
    # Scoring records a rescore (when asked) and a recompute of every standing in the outbox.
    tournament_settings_changed.send(sender=Tournament, tournament_id=current.pk, rescore=rescore)
    for field in changed:
        setattr(tournament, field, getattr(current, field))
    return SettingsChange(changed, tuple(notices), rescore)


# Leagues and seasons --------------------------------------------------------------------------


def _require_staff(actor: AnyUser) -> None:
    if not can_create_tournament(actor):
        raise PermissionDenied("Only staff may manage leagues and seasons.")


def _slug_taken(what: str) -> DomainError:
    return DomainError(
        f"A {what} already uses this address (slug).",
        "このアドレス（スラッグ）は使用済みです。",
        code="slug_taken",
    )


@transaction.atomic
def create_league(actor: AnyUser, *, name: str, slug: str) -> League:
    _require_staff(actor)
    if League.objects.filter(slug=slug).exists():
        raise _slug_taken("league")
    return League.objects.create(name=name.strip(), slug=slug)


@transaction.atomic
def update_league(
    league: League, actor: AnyUser, *, name: str | None = None, slug: str | None = None
) -> League:
    _require_staff(actor)
    if slug is not None and League.objects.filter(slug=slug).exclude(pk=league.pk).exists():
        raise _slug_taken("league")
    league.name = name.strip() if name else league.name
    league.slug = slug or league.slug
    league.save()
    return league


@transaction.atomic
def create_season(league: League, actor: AnyUser, *, name: str, slug: str) -> Season:
    _require_staff(actor)
    if league.seasons.filter(slug=slug).exists():
        raise _slug_taken("season of this league")
    return Season.objects.create(league=league, name=name.strip(), slug=slug)


@transaction.atomic
def update_season(
    season: Season, actor: AnyUser, *, name: str | None = None, slug: str | None = None
) -> Season:
    _require_staff(actor)
    if (
        slug is not None
        and Season.objects.filter(league_id=season.league_id, slug=slug)
        .exclude(pk=season.pk)
        .exists()
    ):
        raise _slug_taken("season of this league")
    season.name = name.strip() if name else season.name
    season.slug = slug or season.slug
    season.save()
    return season


# ---------------------------------------------------------------------------------------------
# Playoffs in the standings (issue #12): which settled playoffs order a board's level entrants


def settled_playoffs(stage: Stage) -> list[Stage]:
    """The playoffs (順位決定戦) of `stage` whose every round is settled — the ones whose
    placings `playoff_order` counts; a playoff still in play orders nobody."""
    return [p for p in stage.playoffs.order_by("order") if _playoff_settled(p)]
