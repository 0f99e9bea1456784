"""Read-only queries for tournament pages and the API (scoped per user: list endpoints and
pages must never show what the user may not see)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from django.db.models import Count, Prefetch, Q, QuerySet, Sum

from games.models import Game
from tournaments.models import (
    Bye,
    Entry,
    Official,
    Round,
    Seat,
    Stage,
    StageEntrant,
    Table,
    Team,
    Tournament,
)
from tournaments.pairing import PairHistory, PairTeam
from tournaments.permissions import AnyUser
from tournaments.seating import BYES, History, Layout, PastTable, SeatingError, table_layout


def public_tournaments() -> QuerySet[Tournament]:
    """Tournaments the public may see (drafts stay with their organisers), with entry counts."""
    return (
        Tournament.objects.exclude(status=Tournament.Status.DRAFT)
        .annotate(entry_count=Count("entries", filter=~Q(entries__status=Entry.Status.DROPPED)))
        .order_by("-starts_on", "name")
    )


def tournament_entries(tournament: Tournament) -> QuerySet[Entry]:
    return tournament.entries.select_related("player", "team").order_by("number")


def organised_tournaments(user: AnyUser) -> QuerySet[Tournament]:
    """Tournaments `user` organises (every tournament for a superuser)."""
    if not user.is_authenticated:
        return Tournament.objects.none()
    if getattr(user, "is_superuser", False):
        return Tournament.objects.all()
    return Tournament.objects.filter(
        officials__user_id=user.pk, officials__role=Official.Role.ORGANISER
    ).distinct()


def officiated_tournaments(user: AnyUser) -> QuerySet[Tournament]:
    """Tournaments `user` organises or is the head referee (主審) of (every one for a
    superuser): who follows a round's progress and rules on its games."""
    if not user.is_authenticated:
        return Tournament.objects.none()
    if getattr(user, "is_superuser", False):
        return Tournament.objects.all()
    return Tournament.objects.filter(
        officials__user_id=user.pk,
        officials__role__in=[Official.Role.ORGANISER, Official.Role.HEAD_REFEREE],
    ).distinct()


def visible_tournaments(user: AnyUser) -> QuerySet[Tournament]:
    """Published tournaments plus the drafts `user` organises, with entry counts."""
    organised = organised_tournaments(user).values("pk")
    return (
        Tournament.objects.filter(~Q(status=Tournament.Status.DRAFT) | Q(pk__in=organised))
        .annotate(entry_count=Count("entries", filter=~Q(entries__status=Entry.Status.DROPPED)))
        .order_by("-starts_on", "name")
    )


def visible_rounds(user: AnyUser) -> QuerySet[Round]:
    """Published rounds of published tournaments, plus every round of the user's tournaments."""
    organised = organised_tournaments(user).values("pk")
    return (
        Round.objects.filter(
            (~Q(status=Round.Status.DRAFT) & ~Q(stage__tournament__status=Tournament.Status.DRAFT))
            | Q(stage__tournament__in=organised)
        )
        .select_related("stage__tournament")
        .order_by("stage__tournament", "stage__order", "number")
    )


def visible_tables(user: AnyUser) -> QuerySet[Table]:
    """Tables of visible rounds, plus a referee's own tables (even in a draft round)."""
    rounds = visible_rounds(user).values("pk")
    own = Q(referee_id=user.pk) if user.is_authenticated else Q(pk__in=[])
    return (
        Table.objects.filter(Q(round__in=rounds) | own)
        .select_related("round__stage__tournament", "referee")
        .prefetch_related(
            Prefetch("seats", Seat.objects.select_related("entry__player").order_by("position"))
        )
        .order_by("round", "number")
    )


def refereed_tables(user: AnyUser) -> QuerySet[Table]:
    """Tables `user` may open in the referee console."""
    if not user.is_authenticated:
        return Table.objects.none()
    if getattr(user, "is_superuser", False):
        return Table.objects.all()
    staff_tournaments = Official.objects.filter(
        user_id=user.pk, role__in=[Official.Role.ORGANISER, Official.Role.HEAD_REFEREE]
    ).values("tournament")
    return Table.objects.filter(
        Q(referee_id=user.pk) | Q(round__stage__tournament__in=staff_tournaments)
    )


def round_tables(round_: Round) -> QuerySet[Table]:
    return (
        round_.tables.select_related("referee")
        .prefetch_related(
            Prefetch(
                "seats",
                Seat.objects.select_related("entry__player", "entry__team").order_by("position"),
            )
        )
        .order_by("number")
    )


def main_stages(tournament: Tournament) -> QuerySet[Stage]:
    """The stages people advance through, in order: playoffs (順位決定戦) only break ties."""
    return tournament.stages.exclude(kind=Stage.Kind.PLAYOFF).order_by("order")


def first_stage(tournament: Tournament) -> Stage | None:
    return main_stages(tournament).first()


def next_stage(stage: Stage) -> Stage | None:
    """The stage `stage`'s qualifiers advance into (never a playoff; none after a playoff)."""
    if stage.kind == Stage.Kind.PLAYOFF:
        return None
    return main_stages(stage.tournament).filter(order__gt=stage.order).first()


def stage_participants(stage: Stage) -> list[Entry]:
    """Checked-in entries that play in `stage`.

    The first stage: every checked-in entry not seeded into a later stage. A later stage: the
    entries advanced or seeded into it (`StageEntrant`) that are still checked in.
    """
    return list(_participants(stage).select_related("player").order_by("number"))


def stage_participant_ids(stage: Stage) -> list[int]:
    """The ids of `stage_participants` (standings need no more of the entries)."""
    return list(_participants(stage).values_list("pk", flat=True))


def _participants(stage: Stage) -> QuerySet[Entry]:
    checked_in = stage.tournament.entries.filter(status=Entry.Status.CHECKED_IN)
    first = first_stage(stage.tournament)
    if first is not None and first.pk == stage.pk:
        return checked_in.filter(Q(seeded_into__isnull=True) | Q(seeded_into=stage))
    return checked_in.filter(stage_places__stage=stage)


def stage_totals(stage: Stage) -> dict[int, int]:
    """Total points per entry id in `stage` (with earlier stages if it carries totals over).

    Sums `GameResult.points` (games app) through the reverse relation `game_results`, by string
    lookups so tournaments never imports games; every participant appears, 0 without results.
    """
    stage_filter = Q(game_results__game__table__round__stage=stage)
    if stage.carry_over_totals:
        stage_filter |= Q(
            game_results__game__table__round__stage__tournament=stage.tournament,
            game_results__game__table__round__stage__order__lt=stage.order,
        ) & ~Q(game_results__game__table__round__stage__kind=Stage.Kind.PLAYOFF)  # tie-breaks only
    totals = {entry.pk: 0 for entry in stage_participants(stage)}
    summed = (
        Entry.objects.filter(tournament=stage.tournament)
        .annotate(total=Sum("game_results__points", filter=stage_filter))
        .filter(total__isnull=False)
        .values_list("pk", "total")
    )
    for entry_id, total in summed:
        totals[entry_id] = int(total)
    for entry_id, points in stage_bye_points(stage).items():
        totals[entry_id] = totals.get(entry_id, 0) + points
    return totals


def seating_history(tournament: Tournament, exclude_round: Round | None = None) -> History:
    """Every earlier table of the tournament, in seat order, for the re-seating cost model."""
    seats = (
        Seat.objects.filter(round__stage__tournament=tournament)
        .exclude(round__status=Round.Status.DRAFT)
        .select_related("table", "round__stage")
        .order_by("round__stage__order", "round__number", "table__number", "position")
    )
    if exclude_round is not None:
        seats = seats.exclude(round=exclude_round)
    tables: dict[int, tuple[str, list[int]]] = {}
    for seat in seats:
        label = f"{seat.round.stage.order}.{seat.round.number}"
        tables.setdefault(seat.table_id, (label, []))[1].append(seat.entry_id)
    byes = Bye.objects.filter(round__stage__tournament=tournament).exclude(
        round__status=Round.Status.DRAFT
    )
    if exclude_round is not None:
        byes = byes.exclude(round=exclude_round)
    return History(
        tables=tuple(PastTable(label, tuple(ids)) for label, ids in tables.values()),
        byes=tuple(byes.order_by("round_id", "entry_id").values_list("entry_id", flat=True)),
    )


def last_round_tables(stage: Stage) -> dict[int, list[int]]:
    """Entry ids per table number in the stage's last round (for top-K-per-table rules)."""
    last = stage.rounds.order_by("-number").first()
    if last is None:
        return {}
    tables: dict[int, list[int]] = {}
    for seat in Seat.objects.filter(round=last).select_related("table").order_by("position"):
        tables.setdefault(seat.table.number, []).append(seat.entry_id)
    return tables


def stage_entrants(stage: Stage) -> QuerySet[StageEntrant]:
    return stage.entrants.select_related("entry__player").order_by("entry__number")


@dataclass(frozen=True, slots=True)
class Blocker:
    """A game that keeps a round from completing, and why (bilingual, with a stable code)."""

    table: int
    set_number: int
    game_number: int
    code: str  # not_started | in_play | undo_pending | unconfirmed | redeal_pending
    game_id: int | None = None
    hand: bool = False  # a team match's hand (掼蛋): its tables play no sets of games

    MESSAGES: ClassVar[dict[str, tuple[str, str]]] = {
        "not_started": ("not started", "未開始"),
        "in_play": ("in play", "対局中"),
        "undo_pending": ("an undo waits for the head referee", "取り消しが主審の承認待ち"),
        "unconfirmed": ("finished, not confirmed", "終了・未確定"),
        "redeal_pending": ("voided, to be re-dealt", "無効・配り直し待ち"),
    }

    @property
    def message_en(self) -> str:
        where = f"Table {self.table}, set {self.set_number}, game {self.game_number}"
        if self.hand:
            where = f"Table {self.table}, hand {self.game_number}"
        return f"{where}: {self.MESSAGES[self.code][0]}"

    @property
    def message_ja(self) -> str:
        where = f"{self.table}卓 第{self.set_number}セット 第{self.game_number}ゲーム"
        if self.hand:
            where = f"{self.table}卓 第{self.game_number}局"
        return f"{where}：{self.MESSAGES[self.code][1]}"


def round_blockers(round_: Round) -> list[Blocker]:
    """Every game of the round that is not settled (confirmed, forfeited or void), table by
    table in play order — including games not started yet: a round is every table's
    `sets_per_round` × `games_per_set` games."""
    tournament = round_.stage.tournament
    slots = [
        (s, g)
        for s in range(1, tournament.sets_per_round + 1)
        for g in range(1, tournament.games_per_set + 1)
    ]
    games: dict[tuple[int, int, int], Game] = {}
    # Attempts in order, so the last one seen for a game is its latest attempt.
    for game in Game.objects.filter(table__round=round_).order_by("attempt"):
        games[(game.table_id, game.set_number, game.game_number)] = game
    if tournament.plays_in_teams:
        return _match_blockers(round_, games)
    blockers = []
    for table in round_.tables.order_by("number"):
        for set_number, game_number in slots:
            found = games.get((table.pk, set_number, game_number))
            code = "not_started" if found is None else _blocking_code(found)
            if code:
                game_id = found.pk if found is not None else None
                blockers.append(Blocker(table.number, set_number, game_number, code, game_id))
    return blockers


def _match_blockers(round_: Round, games: dict[tuple[int, int, int], Game]) -> list[Blocker]:
    """A team event's tables play a match, not a fixed number of games: a table blocks with
    its unsettled hands and, until its match is over (`games.matches.match_over`), with the
    next hand not started yet."""
    from games.matches import match_over, table_matches  # games reads tournaments; lazily

    tournament = round_.stage.tournament
    tables = list(round_.tables.order_by("number"))
    matches = table_matches(t.pk for t in tables)
    blockers = []
    for table in tables:
        played = sorted((key[1], key[2], game) for key, game in games.items() if key[0] == table.pk)
        for set_number, game_number, game in played:
            code = _blocking_code(game)
            if code:
                blockers.append(
                    Blocker(table.number, set_number, game_number, code, game.pk, hand=True)
                )
        if not match_over(tournament, matches[table.pk]) and not any(
            b.code in ("in_play", "undo_pending") and b.table == table.number for b in blockers
        ):
            last = played[-1][1] if played else 0
            blockers.append(Blocker(table.number, 1, last + 1, "not_started", hand=True))
    return blockers


def _blocking_code(game: Game) -> str:
    """Why a started game blocks its round ("" when it does not)."""
    if game.status == Game.Status.VOID:
        return "redeal_pending" if game.redeal else ""
    if game.status == Game.Status.IN_PLAY:
        return "undo_pending" if game.undo_pending_seq is not None else "in_play"
    return "" if game.is_settled else "unconfirmed"


# --- uneven fields: byes and the draw layout (issue #12, table sizes) -------------------------


def stage_bye_points(stage: Stage) -> dict[int, int]:
    """Bye points per entry id in `stage`'s published rounds (with earlier main stages' when it
    carries totals over); a draft's byes count for nobody until it is published."""
    stages = Q(round__stage=stage)
    if stage.carry_over_totals:
        stages |= Q(
            round__stage__tournament=stage.tournament, round__stage__order__lt=stage.order
        ) & ~Q(round__stage__kind=Stage.Kind.PLAYOFF)
    summed = (
        Bye.objects.filter(stages)
        .exclude(round__status=Round.Status.DRAFT)
        .values("entry_id")
        .annotate(points=Sum("points"))
        .values_list("entry_id", "points")
    )
    return {entry_id: int(points) for entry_id, points in summed}


def round_byes(round_: Round) -> QuerySet[Bye]:
    """The round's byes (不戦) with their entries, by entrant number."""
    return round_.byes.select_related("entry__player").order_by("entry__number")


def draw_layout(stage: Stage) -> Layout:
    """The tables and byes the next draw of `stage` gives for its checked-in participants
    under the tournament's uneven-tables policy: what the dashboard previews and what
    `services.draw_round` draws (it checks its draw against this). A team event counts teams:
    two a table, an odd one out with a bye (`TeamLayout`). Raises `seating.SeatingError` when
    no table can be formed."""
    tournament = stage.tournament
    if tournament.plays_in_teams:
        return team_layout(len(stage_teams(stage)))
    count = len(stage_participants(stage))
    if stage.kind == Stage.Kind.PLAYOFF:  # the tied entrants at one table (split past 5)
        return table_layout(count, playoff_table_size(count), Tournament.UnevenTables.SHORT)
    return table_layout(count, tournament.table_size, tournament.uneven_tables)


def playoff_table_size(count: int) -> int:
    """A playoff (順位決定戦) seats everyone tied at one table (3 to 5); more than 5 are split
    into as few tables as can be, as even as can be (6 → 3 + 3, 7 → 4 + 3, 11 → 4 + 4 + 3)."""
    if count <= 5:
        return max(count, 3)
    tables = -(-count // 5)
    return -(-count // tables)


# --- team events (掼蛋 Guandan): teams, their match points, who met whom ----------------------


@dataclass(frozen=True, slots=True)
class TeamLayout(Layout):
    """A team event's draw: `teams` teams, two at each table of 4, the odd one out with a bye
    (`byes` counts teams)."""

    teams: int = 0

    @property
    def summary_en(self) -> str:
        tables = f"{self.tables} table{'' if self.tables == 1 else 's'} of two teams"
        bye = " + 1 team with a bye" if self.byes else ""
        return f"{self.teams} team{'' if self.teams == 1 else 's'} → {tables}{bye}"

    @property
    def summary_ja(self) -> str:
        bye = " + 不戦 1チーム" if self.byes else ""
        return f"{self.teams}チーム → {self.tables}卓（2チームずつ）{bye}"


def team_layout(teams: int) -> TeamLayout:
    if teams < 2:
        raise SeatingError(f"at least 2 teams are needed for a table, not {teams}")
    tables, byes = divmod(teams, 2)
    return TeamLayout(
        count=teams * 2,
        table_size=4,
        policy=BYES,
        sizes=(4,) * tables,
        byes=byes,
        applied=BYES,
        teams=teams,
    )


def tournament_teams(tournament: Tournament) -> QuerySet[Team]:
    """The tournament's teams by number, with their members (by entrant number)."""
    return tournament.teams.prefetch_related(
        Prefetch("members", Entry.objects.select_related("player").order_by("number"))
    ).order_by("number")


def team_label(team: Team) -> str:
    """A team as the draw's explanations name it: "Team 3 Sakura"."""
    return f"Team {team.number} {team.name}"


def team_players(team: Team) -> list[Entry]:
    """The team's members who still play (members prefetched, by number): a withdrawn member
    stays on record, and their substitute (補欠) plays in their place."""
    return [m for m in team.members.all() if m.status != Entry.Status.DROPPED]


def stage_teams(stage: Stage) -> list[Team]:
    """The teams that play the next round of `stage`: all `team_size` of the team's players
    play in the stage (checked in, in the stage). A team short of a player is not paired."""
    size = stage.tournament.team_size or 0
    playing = set(_participants(stage).values_list("pk", flat=True))
    teams = []
    for team in tournament_teams(stage.tournament):
        players = [m.pk for m in team_players(team)]
        if len(players) == size and all(pk in playing for pk in players):
            teams.append(team)
    return teams


def team_match_totals(stage: Stage) -> dict[int, tuple[int, int]]:
    """(match points, level difference) per team id over the stage's published rounds: each
    table's match read by `games.matches` (a match not started counts nothing), and a bye
    once per round at its members' bye points."""
    from games.matches import match_points, table_matches  # games reads tournaments; lazily

    tournament = stage.tournament
    totals: dict[int, list[int]] = {}
    tables = Table.objects.filter(round__stage=stage).exclude(round__status=Round.Status.DRAFT)
    for match in table_matches(tables.values_list("pk", flat=True)).values():
        if match.hands == 0:
            continue
        points = match_points(tournament, match)
        for side, team_id in enumerate(match.teams):
            if team_id is None:
                continue
            total = totals.setdefault(team_id, [0, 0])
            total[0] += points[side]
            total[1] += match.level_difference(side)
    byes = (
        Bye.objects.filter(round__stage=stage, entry__team__isnull=False)
        .exclude(round__status=Round.Status.DRAFT)
        .values_list("round_id", "entry__team_id", "points")
    )
    counted: set[tuple[int, int]] = set()
    for round_id, team_id, bye_points in byes:
        if (round_id, team_id) not in counted:
            counted.add((round_id, team_id))
            totals.setdefault(team_id, [0, 0])[0] += bye_points
    return {team_id: (mp, levels) for team_id, (mp, levels) in totals.items()}


def team_history(tournament: Tournament) -> PairHistory:
    """The teams that met (at a table of a published round) anywhere in the tournament, and
    the teams that had a bye."""
    sides: dict[int, tuple[str, dict[int, int]]] = {}
    seats = (
        Seat.objects.filter(round__stage__tournament=tournament, entry__team__isnull=False)
        .exclude(round__status=Round.Status.DRAFT)
        .order_by("round__stage__order", "round__number", "table__number", "position")
        .values_list(
            "table_id", "round__stage__order", "round__number", "position", "entry__team_id"
        )
    )
    for table_id, order, number, position, team_id in seats:
        sides.setdefault(table_id, (f"{order}.{number}", {}))[1][(position - 1) % 2] = team_id
    meetings = tuple(
        (teams[0], teams[1], label)
        for label, teams in sides.values()
        if 0 in teams and 1 in teams and teams[0] != teams[1]
    )
    byes = (
        Bye.objects.filter(round__stage__tournament=tournament, entry__team__isnull=False)
        .exclude(round__status=Round.Status.DRAFT)
        .values_list("round_id", "entry__team_id")
        .distinct()
        .order_by("round_id", "entry__team_id")
    )
    return PairHistory(meetings=meetings, byes=tuple(team_id for _round, team_id in byes))


def pair_teams_of(stage: Stage) -> list[PairTeam]:
    """The stage's teams to pair, with their totals so far."""
    totals = team_match_totals(stage)
    return [
        PairTeam(
            team.pk,
            team_label(team),
            *totals.get(team.pk, (0, 0)),
            number=team.number,
            name=team.name,
        )
        for team in stage_teams(stage)
    ]


@dataclass(frozen=True, slots=True)
class TablePairing:
    """A table of a team event as pages show it: the two teams facing, their members."""

    first: Team | None
    second: Team | None
    first_members: tuple[Entry, ...]
    second_members: tuple[Entry, ...]


def table_pairing(table: Table) -> TablePairing:
    """The teams at `table` (seats prefetched with their entries): seats 1 and 3 are the
    first team, 2 and 4 the second."""
    sides: tuple[list[Entry], list[Entry]] = ([], [])
    for seat in table.seats.all():
        sides[(seat.position - 1) % 2].append(seat.entry)
    teams = [next((e.team for e in side if e.team is not None), None) for side in sides]
    return TablePairing(teams[0], teams[1], tuple(sides[0]), tuple(sides[1]))
