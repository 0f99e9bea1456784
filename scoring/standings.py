"""Standings (順位表) recomputed from game results, in SQL, idempotently.

`recompute_scope(ref)` rebuilds one scope's `Standing` rows in one transaction:

1. take the scope's lock — `pg_advisory_xact_lock` on PostgreSQL (on SQLite the write
   transaction itself serialises writers);
2. inside a savepoint, ``DELETE`` the scope's rows and re-``INSERT`` them with one
   ``INSERT … SELECT`` that aggregates `GameResult` per (competitor, table, set), then per
   competitor, and ranks with ``RANK() OVER (ORDER BY <tie-break keys>)``;
3. digest the new rows; equal to the stored digest → roll the savepoint back (nothing is
   written, the version stays), else bump `StandingsVersion.version`.

It never increments anything from a previous value: the rows are a function of the results
alone, so a run repeated, run concurrently (the lock orders them, and each statement of the
later one sees the earlier one's commit) or redelivered after a worker died converges on the
same rows.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import partial

from django.db import connection, transaction
from django.dispatch import Signal
from django.utils import timezone

from games.models import Game, GameResult
from scoring.models import Scope, Standing, StandingsVersion
from tournaments.models import Entry, Round, Season, Stage, Table, Tournament
from tournaments.points import DEFAULT_TIE_BREAKS, TIE_BREAK_KEYS, points_for, tie_breaks
from tournaments.selectors import stage_participants

log = logging.getLogger(__name__)

# Sent after commit when a scope's standings rows changed: ref (ScopeRef), version (int).
standings_changed = Signal()

TITLES = ("daifugo", "fugo", "heimin", "hinmin", "daihinmin")
COUNTS = (*TITLES, "fouls", "miyako_ochi")

# Tie-break key -> SQL ordering over the `field` CTE (best first).
ORDER_SQL: dict[str, str] = {
    "points": "points DESC",
    "daifugo": "daifugo DESC",
    "fugo": "fugo DESC",
    "heimin": "heimin DESC",
    "hinmin": "hinmin DESC",
    "fewer_daihinmin": "daihinmin ASC",
    "fewer_fouls": "fouls ASC",
    "fewer_miyako_ochi": "miyako_ochi ASC",
    # No game played yet ranks below any real set, even a negative one (+2/−2 tables).
    "best_set": "COALESCE(best_set, -1000000000) DESC",
}
assert set(ORDER_SQL) == set(TIE_BREAK_KEYS)

_NULL = "CAST(NULL AS BIGINT)"
_LOCK_NAMESPACE = {Scope.TOURNAMENT: 0x4B31, Scope.STAGE: 0x4B32, Scope.SEASON: 0x4B33}


@dataclass(frozen=True, slots=True)
class ScopeRef:
    kind: str  # a Scope value
    id: int

    @property
    def key(self) -> str:
        return f"{self.kind}:{self.id}"

    @classmethod
    def tournament(cls, tournament_id: int) -> ScopeRef:
        return cls(Scope.TOURNAMENT, int(tournament_id))

    @classmethod
    def stage(cls, stage_id: int) -> ScopeRef:
        return cls(Scope.STAGE, int(stage_id))

    @classmethod
    def season(cls, season_id: int) -> ScopeRef:
        return cls(Scope.SEASON, int(season_id))


@dataclass(frozen=True, slots=True)
class Outcome:
    ref: ScopeRef
    changed: bool
    version: int
    rows: int


@dataclass(slots=True)
class _Plan:
    """The pieces of SQL that differ between scopes."""

    result_joins: str
    result_where: str
    who: str  # competitor column: r.entry_id, or e0.player_id for seasons
    field_sql: str
    columns: dict[str, str] = field(default_factory=dict)  # tournament/stage/season ids
    tie_break_keys: Sequence[str] = DEFAULT_TIE_BREAKS


class _Unchanged(Exception):
    """Raised inside the savepoint to undo a rewrite that produced the same rows."""


def _table(model: type) -> str:
    return connection.ops.quote_name(model._meta.db_table)  # type: ignore[attr-defined]


def _ids(values: Iterable[int]) -> str:
    """An SQL list of integer ids (never empty: NULL matches nothing)."""
    text = ", ".join(str(int(v)) for v in values)
    return text or "NULL"


def scope_filter(ref: ScopeRef) -> dict[str, object]:
    """ORM filter for a scope's `Standing` rows."""
    column = {"tournament": "tournament_id", "stage": "stage_id", "season": "season_id"}[ref.kind]
    return {"scope": ref.kind, column: ref.id}


def _plan(ref: ScopeRef) -> _Plan:
    entry = _table(Entry)
    tbl, rnd = _table(Table), _table(Round)
    joins_entry = f"JOIN {entry} e0 ON e0.id = r.entry_id"
    if ref.kind == Scope.TOURNAMENT:
        tournament = Tournament.objects.get(pk=ref.id)
        return _Plan(
            result_joins=joins_entry,
            result_where=f"e0.tournament_id = {ref.id}",
            who="r.entry_id",
            field_sql=(
                f"FROM {entry} e LEFT JOIN per_who p ON p.who = e.id "
                f"WHERE e.tournament_id = {ref.id} "
                f"AND (p.who IS NOT NULL OR e.status = '{Entry.Status.CHECKED_IN}')"
            ),
            columns={"tournament_id": str(ref.id), "stage_id": _NULL, "season_id": _NULL},
            tie_break_keys=tie_breaks(tournament.points_table),
        )
    if ref.kind == Scope.STAGE:
        stage = Stage.objects.select_related("tournament").get(pk=ref.id)
        stages = [stage.pk]
        if stage.carry_over_totals:
            stages += stage.tournament.stages.filter(order__lt=stage.order).values_list(
                "pk", flat=True
            )
        participants = [e.pk for e in stage_participants(stage)]
        return _Plan(
            result_joins=(f"JOIN {tbl} t ON t.id = g.table_id JOIN {rnd} rd ON rd.id = t.round_id"),
            result_where=f"rd.stage_id IN ({_ids(stages)})",
            who="r.entry_id",
            field_sql=(
                f"FROM {entry} e LEFT JOIN per_who p ON p.who = e.id "
                f"WHERE e.tournament_id = {stage.tournament_id} "
                f"AND (p.who IS NOT NULL OR e.id IN ({_ids(participants)}))"
            ),
            columns={
                "tournament_id": str(stage.tournament_id),
                "stage_id": str(ref.id),
                "season_id": _NULL,
            },
            tie_break_keys=tie_breaks(stage.tournament.points_table),
        )
    if ref.kind == Scope.SEASON:
        tournaments = Tournament.objects.filter(season_id=ref.id).exclude(
            status=Tournament.Status.DRAFT
        )
        return _Plan(
            result_joins=joins_entry,
            result_where=f"e0.tournament_id IN ({_ids(tournaments.values_list('pk', flat=True))})",
            who="e0.player_id",
            field_sql="FROM per_who p",
            columns={"tournament_id": _NULL, "stage_id": _NULL, "season_id": str(ref.id)},
        )
    raise ValueError(f"unknown scope {ref.kind!r}")


def standings_sql(ref: ScopeRef) -> tuple[str, _Plan]:
    """The statements that write a scope's rows, joined by ";\\n" (the last one takes the
    params computed_at, version): one ``INSERT … SELECT`` on SQLite; on PostgreSQL the same
    ranked SELECT into a temporary table first (see below)."""
    plan = _plan(ref)
    titles = ",\n    ".join(
        f"SUM(CASE WHEN r.title = '{t}' THEN 1 ELSE 0 END) AS {t}" for t in TITLES
    )
    sums = ", ".join(f"SUM({c}) AS {c}" for c in COUNTS)
    if plan.who == "r.entry_id":
        competitor = "e.id AS entry_id, e.player_id AS player_id"
    else:
        competitor = "CAST(NULL AS BIGINT) AS entry_id, p.who AS player_id"
    coalesced = ", ".join(f"COALESCE(p.{c}, 0) AS {c}" for c in ("points", "games", *COUNTS))
    order = ", ".join(ORDER_SQL[k] for k in plan.tie_break_keys)
    partition = ", ".join(ORDER_SQL[k].rsplit(" ", 1)[0] for k in plan.tie_break_keys)
    columns = ", ".join(("points", "games", *COUNTS, "best_set"))
    ranked = f"""
WITH per_set AS (
  SELECT {plan.who} AS who, g.table_id, g.set_number, SUM(r.points) AS points,
    COUNT(*) AS games,
    {titles},
    SUM(CASE WHEN r.foul THEN 1 ELSE 0 END) AS fouls,
    SUM(CASE WHEN r.miyako_ochi THEN 1 ELSE 0 END) AS miyako_ochi
  FROM {_table(GameResult)} r
  JOIN {_table(Game)} g ON g.id = r.game_id
  {plan.result_joins}
  WHERE {plan.result_where}
  GROUP BY {plan.who}, g.table_id, g.set_number
), per_who AS (
  SELECT who, SUM(points) AS points, SUM(games) AS games, {sums}, MAX(points) AS best_set
  FROM per_set GROUP BY who
), field AS (
  SELECT {competitor}, {coalesced}, p.best_set AS best_set
  {plan.field_sql}
)
SELECT entry_id, player_id, {columns},
  RANK() OVER (ORDER BY {order}) AS rank,
  COUNT(*) OVER (PARTITION BY {partition}) > 1 AS shared
FROM field
"""
    insert = f"""
INSERT INTO {_table(Standing)} (scope, tournament_id, stage_id, season_id, entry_id,
  player_id, {columns}, rank, shared, computed_at, results_version)
SELECT '{ref.kind}', {plan.columns["tournament_id"]}, {plan.columns["stage_id"]},
  {plan.columns["season_id"]}, entry_id, player_id, {columns}, rank, shared, %s, %s
FROM {{source}}
"""
    if connection.vendor == "postgresql":
        # INSERT … SELECT never runs in parallel on PostgreSQL; CREATE TABLE AS may. The
        # aggregation over the results runs (in parallel) into a temporary table, and the few
        # ranked rows are then inserted from it.
        statements = [
            "DROP TABLE IF EXISTS pg_temp.scoring_ranked",
            f"CREATE TEMPORARY TABLE scoring_ranked ON COMMIT DROP AS {ranked}",
            insert.format(source="scoring_ranked"),
        ]
    else:
        statements = [insert.format(source=f"({ranked}) AS ranked")]
    sql = ";\n".join(statements)
    return sql, plan


DIGEST_FIELDS = ("entry_id", "player_id", "points", "games", *COUNTS, "best_set", "rank", "shared")


def _digest(ref: ScopeRef) -> tuple[str, int]:
    rows = Standing.objects.filter(**scope_filter(ref)).order_by("player_id")
    digest = hashlib.sha256()
    count = 0
    for row in rows.values_list(*DIGEST_FIELDS):
        # SQLite answers booleans as 0/1, PostgreSQL as bool: normalise before hashing.
        digest.update(repr(tuple(int(v) if isinstance(v, bool) else v for v in row)).encode())
        count += 1
    return digest.hexdigest(), count


def _lock(ref: ScopeRef) -> None:
    if connection.vendor == "postgresql":
        key = (_LOCK_NAMESPACE[Scope(ref.kind)] << 40) | ref.id
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [key])
            # For this transaction only: the aggregation's hash tables fit in memory instead
            # of spilling to disk, JIT compilation costs more than it saves on a query this
            # short, and parallel workers are worth starting for it.
            cursor.execute("SET LOCAL work_mem = '64MB'")
            cursor.execute("SET LOCAL jit = off")
            cursor.execute("SET LOCAL parallel_setup_cost = 100")
            cursor.execute("SET LOCAL parallel_tuple_cost = 0.001")


def recompute_scope(ref: ScopeRef) -> Outcome:
    """Rebuild one scope's standings from its results (idempotent; see the module docstring)."""
    sql, _ = standings_sql(ref)
    with transaction.atomic():
        _lock(ref)
        version, _ = StandingsVersion.objects.select_for_update().get_or_create(key=ref.key)
        now = timezone.now()
        try:
            with transaction.atomic():
                Standing.objects.filter(**scope_filter(ref)).delete()
                with connection.cursor() as cursor:
                    *prepare, insert = sql.split(";\n")
                    for statement in prepare:
                        cursor.execute(statement)
                    cursor.execute(insert, [now, version.version + 1])
                digest, rows = _digest(ref)
                if digest == version.digest:
                    raise _Unchanged
        except _Unchanged:
            StandingsVersion.objects.filter(pk=version.pk).update(checked_at=now)
            return Outcome(ref, False, version.version, rows)
        version.version += 1
        version.digest = digest
        version.computed_at = version.checked_at = now
        version.save(update_fields=["version", "digest", "computed_at", "checked_at"])
        transaction.on_commit(
            partial(standings_changed.send, sender=Standing, ref=ref, version=version.version)
        )
    return Outcome(ref, True, version.version, rows)


def tournament_scopes(tournament: Tournament) -> list[ScopeRef]:
    """Every scope a tournament's results feed: itself, its stages, its season."""
    refs = [ScopeRef.tournament(tournament.pk)]
    refs += [ScopeRef.stage(pk) for pk in tournament.stages.values_list("pk", flat=True)]
    if tournament.season_id is not None:
        refs.append(ScopeRef.season(tournament.season_id))
    return refs


def recompute_tournament(
    tournament_id: int, *, rescore: bool = False, after_each: Callable[[], None] | None = None
) -> list[Outcome]:
    """Recompute every scope of a tournament, one transaction per scope."""
    tournament = Tournament.objects.get(pk=tournament_id)
    if rescore:
        rescore_results(tournament)
    outcomes = []
    for ref in tournament_scopes(tournament):
        outcomes.append(recompute_scope(ref))
        if after_each is not None:
            after_each()
    return outcomes


def rescore_results(tournament: Tournament) -> int:
    """Re-derive `GameResult.points` from the tournament's current points table.

    `games.services._finish` writes points with the same `points_for` when a game ends; this
    catches up after the organiser changes the table. One conditional UPDATE per (table size,
    place, last game of a set or not): rows already right are not touched, so it is idempotent.
    """
    table = tournament.points_table
    results = GameResult.objects.filter(game__table__round__stage__tournament=tournament)
    changed = 0
    with transaction.atomic():
        _lock(ScopeRef.tournament(tournament.pk))
        for seats_key, places in table["places"].items():
            seats = int(seats_key)
            for place in range(1, len(places) + 1):
                for last in (False, True):
                    game_number = tournament.games_per_set if last else 0
                    points = points_for(
                        table,
                        place=place,
                        seats=seats,
                        game_number=game_number,
                        games_per_set=tournament.games_per_set,
                    )
                    subset = results.filter(game__seats=seats, place=place)
                    if last:
                        subset = subset.filter(game__game_number=tournament.games_per_set)
                    else:
                        subset = subset.exclude(game__game_number=tournament.games_per_set)
                    changed += subset.exclude(points=points).update(points=points)
    return changed


# --- reading ---------------------------------------------------------------------------------


def standings(ref: ScopeRef) -> list[Standing]:
    return list(
        Standing.objects.filter(**scope_filter(ref))
        .select_related("player", "entry")
        .order_by("rank", "player__display_name", "player_id")
    )


def standings_version(ref: ScopeRef) -> int:
    found = StandingsVersion.objects.filter(key=ref.key).values_list("version", flat=True).first()
    return int(found or 0)


def season_of(season_id: int) -> Season:
    return Season.objects.select_related("league").get(pk=season_id)
