"""Standings (順位表) recomputed from game results, in SQL, idempotently.

`recompute_scope(ref)` rebuilds one scope's `Standing` rows in one transaction:

1. take the scope's lock — `pg_advisory_xact_lock` on PostgreSQL (on SQLite the write
   transaction itself serialises writers);
2. inside a savepoint, ``DELETE`` the scope's rows and re-``INSERT`` them with one
   ``INSERT … SELECT`` that aggregates `GameResult` per (competitor, table, set), then per
   competitor, and ranks with ``RANK() OVER (ORDER BY <tie-break keys>)``;
3. for a team tournament (掼蛋 Guandan), rebuild the scope's `TeamStanding` rows in the same
   savepoint (`scoring.team_standings`, in Python from `games.matches`);
4. digest the new rows (the team rows too); equal to the stored digest → roll the savepoint
   back (nothing is written, the version stays), else bump `StandingsVersion.version`.

It never increments anything from a previous value: the rows are a function of the results
(and penalties) alone, so a run repeated, run concurrently (the lock orders them, and each
statement of the later one sees the earlier one's commit) or redelivered after a worker died
converges on the same rows.

What the rows count:

- the generic figures of every game family (points, games, best set …) and `metrics`, the
  counts the scope's family declares (`Family.metrics`, e.g. 大富豪's titles, fouls and 都落ち)
  over its results' JSON `detail`: the SQL is generated from those metrics (`_detail_sql`), and
  their tie-break keys (`key` / `fewer_<key>`) rank like `points` and `best_set` do — no
  family's titles are written here;
- every current `GameResult` (a void game has none; a corrected one has its corrected rows);
  a result is *provisional* (暫定) while its game is finished but not confirmed by a second
  official, *confirmed* once confirmed or ended by a forfeit. `points` count both;
  `provisional_games` says how many of the games are provisional, `confirmed_points` and
  `confirmed_rank` count confirmed results only — what cut lines and advancement use;
- active penalties (`tournaments.Penalty`, not withdrawn): deductions are subtracted from
  `points` and `confirmed_points` (`penalty_points`), warnings counted (`warnings`). The
  tournament counts all of an entry's penalties; a stage those given in its rounds (or its
  carried-over stages' rounds) — a penalty given outside any round counts in the tournament
  only; a season sums a player's penalties over its tournaments;
- byes (`tournaments.Bye`, the uneven-tables policy ``byes``) of published rounds: their
  points are added to `points` and `confirmed_points` (a bye is ruled at the draw, so it is
  never provisional) in the scopes the round belongs to, like a game's; a bye is not a game —
  it adds nothing to `games`, the family's metrics (title counts…) or `best_set`.

Playoffs (順位決定戦): their games never count in any total. Once a playoff is settled, its
placings order the entrants it was played for — and only them — in the standings of the stage
it breaks a tie of, and (for the final, the last stage) in the tournament's standings: see
`playoff_ranks`. The rows it placed are flagged `decided_by_playoff` when read.

Duplicate rounds (docs/duplicate.md): after the INSERT, in the same savepoint, a small Python
pass over the scope's duplicate results fills `duplicate_points` and `duplicate_games`
(`duplicate_scores`, par against the other holders of the same cards); the digest covers them,
so another table's result that moves a par bumps the version.

The digest also covers the scope's rounds (status, games corrected after the reveal), so a
round completing or its seed being revealed bumps the version and live boards show it.
"""

from __future__ import annotations

import hashlib
import json
import logging
import re
from bisect import bisect_left
from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from functools import partial
from typing import Any

from django.db import connection, transaction
from django.db.models import IntegerField, Q, Value
from django.db.models.fields.json import KT
from django.db.models.functions import Cast, Coalesce
from django.dispatch import Signal
from django.utils import timezone
from django.utils.functional import Promise
from django.utils.translation import gettext, pgettext_lazy

from config import broadcast
from games.engine import Family, Metric, family_of
from games.engine.family import MORE
from games.models import Game, GameResult
from scoring.models import Scope, Standing, StandingsVersion
from scoring.team_standings import team_digest_lines, write_team_standings
from tournaments.models import (
    Bye,
    Entry,
    Penalty,
    Round,
    Season,
    Seat,
    Stage,
    StageEntrant,
    Table,
    Tournament,
)
from tournaments.points import DEFAULT_TIE_BREAKS, points_for, tie_breaks
from tournaments.rulesets import check_ruleset
from tournaments.selectors import main_stages, stage_participant_ids
from tournaments.services import playoff_order, settled_playoffs

log = logging.getLogger(__name__)

# Sent after commit when a scope's standings rows changed: ref (ScopeRef), version (int).
standings_changed = Signal()

# Tie-break keys every family has, as SQL orderings over the `field` CTE (best first), plain
# and over confirmed results only (its `c_*` columns). The family's metrics add theirs
# (`_order_sql`).
GENERIC_ORDER_SQL: dict[str, tuple[str, str]] = {
    "points": ("points DESC", "confirmed_points DESC"),
    # No game played yet ranks below any real set, even a negative one (+2/−2 tables).
    "best_set": (
        "COALESCE(best_set, -1000000000) DESC",
        "COALESCE(c_best_set, -1000000000) DESC",
    ),
}
# A metric's key names SQL columns (`m_<key>`) and JSON keys: plain identifiers only.
_METRIC_KEY = re.compile(r"[a-z][a-z0-9_]{0,40}")

# A result is provisional while its game is finished and awaits its second official (not
# confirmed, not ended by a forfeit, which is a ruling); every other result is confirmed.
PROVISIONAL_SQL = f"(g.status = '{Game.Status.FINISHED}' AND g.forfeit_seat IS NULL)"


def result_is_provisional(game: Game) -> bool:
    """The game's result is provisional (暫定): finished, not yet confirmed by a second
    official, and not ended by a forfeit (`PROVISIONAL_SQL`)."""
    return game.status == Game.Status.FINISHED and game.forfeit_seat is None


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
    # Active penalties of the scope: joins from `pe` (the penalty), filter, competitor column.
    penalty_joins: str
    penalty_where: str
    penalty_who: str
    columns: dict[str, str] = field(default_factory=dict)  # tournament/stage/season ids
    tie_break_keys: Sequence[str] = DEFAULT_TIE_BREAKS
    # What the scope's game family counts over its results' `detail` (`scope_metrics`).
    metrics: tuple[Metric, ...] = ()
    # Byes of the scope's published rounds: filter over `bz` (the bye), `brd` (its round),
    # `bst` (its stage), `be0` (its entry), and the competitor column.
    bye_where: str = "1 = 0"
    bye_who: str = "bz.entry_id"


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


def _stage_ids(stage: Stage) -> list[int]:
    """The stages whose results a stage's standings count: itself, and the earlier stages of
    its tournament when it carries totals over."""
    stages = [stage.pk]
    if stage.carry_over_totals:
        stages += (
            stage.tournament.stages.filter(order__lt=stage.order)
            .exclude(kind=Stage.Kind.PLAYOFF)  # a playoff only orders tied entrants
            .values_list("pk", flat=True)
        )
    return stages


def _without_playoffs(tournament_ids: list[int]) -> str:
    """SQL leaving out the games of playoff tables (順位決定戦): they only order tied entrants
    of their stage, never add to a tournament's or a season's totals ("" when there are none)."""
    tables = list(
        Table.objects.filter(
            round__stage__tournament_id__in=tournament_ids, round__stage__kind=Stage.Kind.PLAYOFF
        ).values_list("pk", flat=True)
    )
    return f" AND g.table_id NOT IN ({_ids(tables)})" if tables else ""


def _season_tournaments(season_id: int) -> list[int]:
    """The season's tournaments that count (drafts stay with their organisers)."""
    return list(
        Tournament.objects.filter(season_id=season_id)
        .exclude(status=Tournament.Status.DRAFT)
        .values_list("pk", flat=True)
    )


def tournament_families(tournament_ids: Iterable[int]) -> list[Family]:
    """The game families the tournaments are played in (each pins its ruleset), by name."""
    pinned = (
        Tournament.objects.filter(pk__in=list(tournament_ids))
        .values_list("ruleset_id", "ruleset_version")
        .distinct()
    )
    found = {}
    for ruleset_id, version in pinned:
        family = family_of(check_ruleset(ruleset_id, version))
        found[family.name] = family
    return [found[name] for name in sorted(found)]


def _scope_tournament_ids(ref: ScopeRef) -> list[int]:
    if ref.kind == Scope.TOURNAMENT:
        return [ref.id]
    if ref.kind == Scope.STAGE:
        return list(Stage.objects.filter(pk=ref.id).values_list("tournament_id", flat=True))
    if ref.kind == Scope.SEASON:
        return _season_tournaments(ref.id)
    raise ValueError(f"unknown scope {ref.kind!r}")


def scope_families(ref: ScopeRef) -> list[Family]:
    """The game families whose results the scope counts (one, unless a season mixes them)."""
    return tournament_families(_scope_tournament_ids(ref))


def scope_metrics(ref: ScopeRef) -> tuple[Metric, ...]:
    """The metrics the scope's standings count, as its families declare them (`Metric`;
    a key two families share is counted once, as the first declares it): the keys of
    `Standing.metrics` and of the metric tie-breaks."""
    return merged_metrics(scope_families(ref))


def merged_metrics(families: Iterable[Family]) -> tuple[Metric, ...]:
    seen: dict[str, Metric] = {}
    for family in families:
        for metric in family.metrics:
            if not _METRIC_KEY.fullmatch(metric.key):
                raise ValueError(f"metric key {metric.key!r} is not a plain identifier")
            seen.setdefault(metric.key, metric)
    return tuple(seen.values())


def metric_for_tie_break(key: str, metrics: Iterable[Metric]) -> Metric | None:
    """The metric a tie-break key compares (None: a generic key, or another family's)."""
    return next((m for m in metrics if m.tie_break == key), None)


def _order_sql(key: str, metrics: Sequence[Metric]) -> tuple[str, str] | None:
    """The SQL ordering of a tie-break key (plain, confirmed), best first; None for a key that
    names no metric of the scope's family (it cannot separate anyone there)."""
    if key in GENERIC_ORDER_SQL:
        return GENERIC_ORDER_SQL[key]
    metric = metric_for_tie_break(key, metrics)
    if metric is None:
        return None
    direction = "DESC" if metric.better == MORE else "ASC"
    return f"m_{metric.key} {direction}", f"c_m_{metric.key} {direction}"


def _sql_string(value: str) -> str:
    return "'" + value.replace("'", "''") + "'"


def _detail_sql(metric: Metric) -> str:
    """What one result (`r`) adds to `metric`, over its JSON `detail` (`Metric.value` in SQL)."""
    path = _sql_string(metric.field)
    if connection.vendor == "postgresql":
        if metric.equals is None:
            return (
                f"CASE WHEN jsonb_typeof(r.detail -> {path}) = 'number' "
                f"THEN CAST(r.detail ->> {path} AS BIGINT) ELSE 0 END"
            )
        # Compared as text (`->>`: JSON true reads 'true'): about twice as fast over a million
        # results as comparing jsonb values, and the same answer while a family keeps one
        # JSON type per detail field, as its metrics assume.
        equals = json.dumps(metric.equals) if isinstance(metric.equals, bool) else metric.equals
        return f"CASE WHEN r.detail ->> {path} = {_sql_string(equals)} THEN 1 ELSE 0 END"
    # SQLite's JSON1: json_type tells true from 1, json_extract gives the value.
    where = _sql_string(f"$.{metric.field}")
    if metric.equals is None:
        return (
            f"CASE WHEN json_type(r.detail, {where}) = 'integer' "
            f"THEN json_extract(r.detail, {where}) ELSE 0 END"
        )
    if isinstance(metric.equals, bool):
        kind = "true" if metric.equals else "false"
        return f"CASE WHEN json_type(r.detail, {where}) = '{kind}' THEN 1 ELSE 0 END"
    return (
        f"CASE WHEN json_extract(r.detail, {where}) = {_sql_string(metric.equals)} "
        "THEN 1 ELSE 0 END"
    )


def _metrics_json_sql(metrics: Sequence[Metric]) -> str:
    """The `Standing.metrics` object built from the `field` CTE's `m_*` columns."""
    build = "jsonb_build_object" if connection.vendor == "postgresql" else "json_object"
    pairs = ", ".join(f"'{m.key}', m_{m.key}" for m in metrics)
    return f"{build}({pairs})"


def _plan(ref: ScopeRef) -> _Plan:
    entry = _table(Entry)
    tbl, rnd = _table(Table), _table(Round)
    joins_entry = f"JOIN {entry} e0 ON e0.id = r.entry_id"
    if ref.kind == Scope.TOURNAMENT:
        tournament = Tournament.objects.get(pk=ref.id)
        return _Plan(
            result_joins=joins_entry,
            result_where=f"e0.tournament_id = {ref.id}{_without_playoffs([ref.id])}",
            who="r.entry_id",
            field_sql=(
                f"FROM {entry} e LEFT JOIN per_who p ON p.who = e.id "
                f"LEFT JOIN pen n ON n.who = e.id LEFT JOIN bye b ON b.who = e.id "
                f"WHERE e.tournament_id = {ref.id} "
                f"AND (p.who IS NOT NULL OR n.who IS NOT NULL OR b.who IS NOT NULL "
                f"OR e.status = '{Entry.Status.CHECKED_IN}')"
            ),
            penalty_joins="",
            penalty_where=f"pe.tournament_id = {ref.id}",
            penalty_who="pe.entry_id",
            columns={"tournament_id": str(ref.id), "stage_id": _NULL, "season_id": _NULL},
            tie_break_keys=tie_breaks(tournament.points_table),
            metrics=scope_metrics(ref),
            bye_where=f"bst.tournament_id = {ref.id}",
        )
    if ref.kind == Scope.STAGE:
        stage = Stage.objects.select_related("tournament").get(pk=ref.id)
        stages = _ids(_stage_ids(stage))
        participants = stage_participant_ids(stage)
        return _Plan(
            result_joins=(f"JOIN {tbl} t ON t.id = g.table_id JOIN {rnd} rd ON rd.id = t.round_id"),
            result_where=f"rd.stage_id IN ({stages})",
            who="r.entry_id",
            field_sql=(
                f"FROM {entry} e LEFT JOIN per_who p ON p.who = e.id "
                f"LEFT JOIN pen n ON n.who = e.id LEFT JOIN bye b ON b.who = e.id "
                f"WHERE e.tournament_id = {stage.tournament_id} "
                f"AND (p.who IS NOT NULL OR n.who IS NOT NULL OR b.who IS NOT NULL "
                f"OR e.id IN ({_ids(participants)}))"
            ),
            # Given in a round of the stage (named directly, or through the game it was
            # given in); a penalty outside any round counts in the tournament only.
            penalty_joins=(
                f"LEFT JOIN {_table(Game)} pg ON pg.id = pe.game_id "
                f"LEFT JOIN {tbl} pt ON pt.id = pg.table_id "
                f"JOIN {rnd} prd ON prd.id = COALESCE(pe.round_id, pt.round_id)"
            ),
            penalty_where=(
                f"pe.tournament_id = {stage.tournament_id} AND prd.stage_id IN ({stages})"
            ),
            penalty_who="pe.entry_id",
            columns={
                "tournament_id": str(stage.tournament_id),
                "stage_id": str(ref.id),
                "season_id": _NULL,
            },
            tie_break_keys=tie_breaks(stage.tournament.points_table),
            metrics=scope_metrics(ref),
            bye_where=f"brd.stage_id IN ({stages})",
        )
    if ref.kind == Scope.SEASON:
        tournaments = _ids(_season_tournaments(ref.id))
        return _Plan(
            result_joins=joins_entry,
            result_where=(
                f"e0.tournament_id IN ({tournaments})"
                f"{_without_playoffs(_season_tournaments(ref.id))}"
            ),
            who="e0.player_id",
            field_sql=(
                "FROM (SELECT who FROM per_who UNION SELECT who FROM pen "
                "UNION SELECT who FROM bye) w "
                "LEFT JOIN per_who p ON p.who = w.who LEFT JOIN pen n ON n.who = w.who "
                "LEFT JOIN bye b ON b.who = w.who"
            ),
            penalty_joins=f"JOIN {entry} pe0 ON pe0.id = pe.entry_id",
            penalty_where=f"pe.tournament_id IN ({tournaments})",
            penalty_who="pe0.player_id",
            columns={"tournament_id": _NULL, "stage_id": _NULL, "season_id": str(ref.id)},
            metrics=scope_metrics(ref),
            bye_where=f"bst.tournament_id IN ({tournaments})",
            bye_who="be0.player_id",
        )
    raise ValueError(f"unknown scope {ref.kind!r}")


def _counted(condition: str, value: str = "1") -> str:
    return f"SUM(CASE WHEN {condition} THEN {value} ELSE 0 END)"


# The columns written besides the metrics and the ranks, in the order of the INSERT.
WRITTEN = (
    "points",
    "games",
    "best_set",
    "penalty_points",
    "warnings",
    "provisional_games",
    "confirmed_points",
)


def standings_sql(ref: ScopeRef) -> tuple[str, _Plan]:
    """The statements that write a scope's rows, joined by ";\\n" (the last one takes the
    params computed_at, version): one ``INSERT … SELECT`` on SQLite; on PostgreSQL the same
    ranked SELECT into a temporary table first (see below).

    Results are summed per (competitor, table, set) — for the best set — then per
    competitor. The provisional results (usually few: the games awaiting confirmation) are
    summed the same way apart, from their games, and taken off to give the confirmed figures
    (`c_*`, only for the tie-break keys the scope ranks on): no per-result condition is added
    to the big aggregation. Active penalties are summed per competitor apart (`pen`) and
    subtracted.
    """
    plan = _plan(ref)
    metrics = plan.metrics
    orders = [o for o in (_order_sql(k, metrics) for k in plan.tie_break_keys) if o is not None]
    # Each metric is a column `m_<key>` through the CTEs, summed from the results' `detail`.
    counts = [f"m_{m.key}" for m in metrics]
    sums = "".join(f",\n    SUM({_detail_sql(m)}) AS m_{m.key}" for m in metrics)
    # Confirmed-only counts are summed only for the metrics the scope ranks on.
    ranked_on = [m for m in metrics if m.tie_break in plan.tie_break_keys]
    confirmed_counts = [f"m_{m.key}" for m in ranked_on]
    provisional_sums = "".join(f",\n    SUM({_detail_sql(m)}) AS m_{m.key}" for m in ranked_on)

    def confirmed(column: str) -> str:
        # The sums over `s` are the totals' own (computed once); `v` is mostly NULL.
        return f"SUM(s.{column}) - COALESCE(SUM(v.{column}), 0)"

    per_who_columns = ", ".join(
        [
            *(f"SUM(s.{c}) AS {c}" for c in counts),
            "COALESCE(SUM(v.games), 0) AS provisional",
            f"{confirmed('points')} AS c_points",
            *(f"{confirmed(c)} AS c_{c}" for c in confirmed_counts),
            # The best set counting its confirmed games only (none confirmed: no set).
            "MAX(CASE WHEN v.who IS NULL THEN s.points WHEN s.games > v.games "
            "THEN s.points - v.points END) AS c_best_set",
        ]
    )
    if plan.who == "r.entry_id":
        competitor = "e.id AS entry_id, e.player_id AS player_id"
    else:
        competitor = "CAST(NULL AS BIGINT) AS entry_id, w.who AS player_id"
    deducted = "COALESCE(n.penalty_points, 0)"
    byes = "COALESCE(b.points, 0)"
    field_columns = ", ".join(
        [
            f"COALESCE(p.points, 0) + {byes} - {deducted} AS points",
            "COALESCE(p.games, 0) AS games",
            *(f"COALESCE(p.{c}, 0) AS {c}" for c in counts),
            "p.best_set AS best_set",
            f"{deducted} AS penalty_points",
            "COALESCE(n.warnings, 0) AS warnings",
            "COALESCE(p.provisional, 0) AS provisional_games",
            f"COALESCE(p.c_points, 0) + {byes} - {deducted} AS confirmed_points",
            *(f"COALESCE(p.c_{c}, 0) AS c_{c}" for c in confirmed_counts),
            "p.c_best_set AS c_best_set",
        ]
    )
    order = ", ".join(plain for plain, _ in orders)
    partition = ", ".join(plain.rsplit(" ", 1)[0] for plain, _ in orders)
    c_order = ", ".join(confirmed for _, confirmed in orders)
    c_partition = ", ".join(confirmed.rsplit(" ", 1)[0] for _, confirmed in orders)
    columns = ", ".join((*WRITTEN, "metrics"))
    ranked = f"""
WITH per_set AS (
  SELECT {plan.who} AS who, g.table_id, g.set_number, SUM(r.points) AS points,
    COUNT(*) AS games{sums}
  FROM {_table(GameResult)} r
  JOIN {_table(Game)} g ON g.id = r.game_id
  {plan.result_joins}
  WHERE {plan.result_where}
  GROUP BY {plan.who}, g.table_id, g.set_number
), provisional AS (
  SELECT {plan.who} AS who, g.table_id, g.set_number, SUM(r.points) AS points,
    COUNT(*) AS games{provisional_sums}
  FROM {_table(Game)} g
  JOIN {_table(GameResult)} r ON r.game_id = g.id
  {plan.result_joins}
  WHERE {PROVISIONAL_SQL} AND {plan.result_where}
  GROUP BY {plan.who}, g.table_id, g.set_number
), per_who AS (
  SELECT s.who, SUM(s.points) AS points, SUM(s.games) AS games, {per_who_columns},
    MAX(s.points) AS best_set
  FROM per_set s LEFT JOIN provisional v
    ON v.who = s.who AND v.table_id = s.table_id AND v.set_number = s.set_number
  GROUP BY s.who
), pen AS (
  SELECT {plan.penalty_who} AS who,
    {_counted(f"pe.kind = '{Penalty.Kind.DEDUCTION}'", "pe.points")} AS penalty_points,
    {_counted(f"pe.kind = '{Penalty.Kind.WARNING}'")} AS warnings
  FROM {_table(Penalty)} pe
  {plan.penalty_joins}
  WHERE pe.withdrawn_at IS NULL AND {plan.penalty_where}
  GROUP BY {plan.penalty_who}
), bye AS (
  SELECT {plan.bye_who} AS who, SUM(bz.points) AS points
  FROM {_table(Bye)} bz
  JOIN {_table(Round)} brd ON brd.id = bz.round_id
  JOIN {_table(Stage)} bst ON bst.id = brd.stage_id
  JOIN {_table(Entry)} be0 ON be0.id = bz.entry_id
  WHERE brd.status <> '{Round.Status.DRAFT}' AND {plan.bye_where}
  GROUP BY {plan.bye_who}
), field AS (
  SELECT {competitor}, {field_columns}
  {plan.field_sql}
)
SELECT entry_id, player_id, {", ".join(WRITTEN)}, {_metrics_json_sql(metrics)} AS metrics,
  RANK() OVER (ORDER BY {order}) AS rank,
  COUNT(*) OVER (PARTITION BY {partition}) > 1 AS shared,
  RANK() OVER (ORDER BY {c_order}) AS confirmed_rank,
  COUNT(*) OVER (PARTITION BY {c_partition}) > 1 AS confirmed_shared
FROM field
"""
    insert = f"""
INSERT INTO {_table(Standing)} (scope, tournament_id, stage_id, season_id, entry_id,
  player_id, {columns}, rank, shared, confirmed_rank, confirmed_shared, computed_at,
  results_version)
SELECT '{ref.kind}', {plan.columns["tournament_id"]}, {plan.columns["stage_id"]},
  {plan.columns["season_id"]}, entry_id, player_id, {columns}, rank, shared, confirmed_rank,
  confirmed_shared, %s, %s
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


DIGEST_FIELDS = (
    "entry_id",
    "player_id",
    *WRITTEN,
    "metrics",
    "rank",
    "shared",
    "confirmed_rank",
    "confirmed_shared",
    "reached_stage_id",
    # Another table's result moves a player's par: live boards follow it.
    "duplicate_points",
    "duplicate_games",
)


def duplicate_scores(
    holders: Iterable[tuple[Hashable, Hashable, int]],
) -> dict[Hashable, tuple[Fraction, int]]:
    """Duplicate Daifugo's par (docs/duplicate.md) from (competitor, the cards held, points)
    per result: each result scores its points minus the mean of the other results that held
    the same cards (none yet: not counted). Per competitor: the exact sum and how many games
    it counts."""
    by_cards: dict[Hashable, list[tuple[Hashable, int]]] = {}
    for who, cards, points in holders:
        by_cards.setdefault(cards, []).append((who, points))
    totals: dict[Hashable, tuple[Fraction, int]] = {}
    for same in by_cards.values():
        if len(same) < 2:
            continue
        everyone = sum(points for _, points in same)
        for who, points in same:
            score = points - Fraction(everyone - points, len(same) - 1)
            total, games = totals.get(who, (Fraction(0), 0))
            totals[who] = (total + score, games + 1)
    return totals


def _to_hundredths(value: Fraction) -> Decimal:
    """A par total as shown, to 2 places, halves away from zero (as people round by hand)."""
    exact = Decimal(value.numerator) / Decimal(value.denominator)
    # Adding zero turns a rounded −0.00 into 0.00.
    return exact.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP) + 0


def _write_duplicate_points(ref: ScopeRef, plan: _Plan) -> None:
    """Fill the scope's `duplicate_points` / `duplicate_games` from its duplicate games'
    results (every current result: the same published points the totals count, never a
    hand). The cards a result held: its round, `Game.deal_key`, the seats and the dealt hand
    ``(seat - rotation) % seats``. Left NULL when the scope has no duplicate game."""
    if not Round.objects.filter(_scope_round_filter(ref), duplicate_deals=True).exists():
        # Most scopes have no duplicate round: no pass over their results.
        return
    sql = f"""
SELECT {plan.who}, dt.round_id, g.deal_key, g.seats,
  (r.seat + g.seats - g.deal_rotation) % g.seats, r.points
FROM {_table(GameResult)} r
JOIN {_table(Game)} g ON g.id = r.game_id
JOIN {_table(Table)} dt ON dt.id = g.table_id
{plan.result_joins}
WHERE {plan.result_where} AND g.deal_key <> ''
"""
    with connection.cursor() as cursor:
        cursor.execute(sql)
        rows = cursor.fetchall()
    if not rows:
        return
    totals = duplicate_scores((who, tuple(cards), points) for who, *cards, points in rows)
    standings = Standing.objects.filter(**scope_filter(ref))
    who_field = "entry_id" if plan.who == "r.entry_id" else "player_id"
    changed = []
    for row in standings.only("pk", who_field):
        total, games = totals.get(getattr(row, who_field), (Fraction(0), 0))
        row.duplicate_points, row.duplicate_games = _to_hundredths(total), games
        changed.append(row)
    Standing.objects.bulk_update(changed, ["duplicate_points", "duplicate_games"])


def _digest(ref: ScopeRef) -> tuple[str, int]:
    rows = Standing.objects.filter(**scope_filter(ref)).order_by("player_id")
    digest = hashlib.sha256()
    count = 0
    for row in rows.values_list(*DIGEST_FIELDS):
        # SQLite answers booleans as 0/1, PostgreSQL as bool: normalise before hashing.
        digest.update(repr(tuple(int(v) if isinstance(v, bool) else v for v in row)).encode())
        count += 1
    # The team standings of a team tournament belong to the same version.
    for text in team_digest_lines(ref.kind, ref.id):
        digest.update(text.encode())
    # So does how the tournament's rank is built, and the names of its stages (到達).
    if ref.kind != Scope.SEASON:
        for step in order_steps(_scope_tournament_ids(ref)[0]):
            digest.update(repr((step.stage_ids, step.names)).encode())
    # What the boards say about the scope's rounds belongs to the same version.
    for line in scope_rounds(ref):
        digest.update(repr((line.round_id, line.status, line.corrected)).encode())
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
    sql, plan = standings_sql(ref)
    # Before the scope's lock: reading a playoff's placings recomputes the playoff's scope.
    positions = playoff_positions(ref)
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
                _write_duplicate_points(ref, plan)
                if positions:
                    _apply_playoffs(ref, positions)
                _write_stage_reached(ref)
                # A team tournament's team rows: same transaction, lock and version.
                write_team_standings(ref.kind, ref.id, now, version.version + 1)
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
        # Polls read the new version from the cache (no query) as soon as it is committed.
        transaction.on_commit(partial(publish_standings_version, ref, version.version))
        # In the transaction: the `standings.changed` webhook commits with the new version.
        standings_changed.send(sender=Standing, ref=ref, version=version.version)
    return Outcome(ref, True, version.version, rows)


def tournament_scopes(tournament: Tournament) -> list[ScopeRef]:
    """Every scope a tournament's results feed: its stages (in order), itself, its season.
    The stages come first: the tournament's order reads their rows (`order_by_stage_reached`)."""
    refs = [
        ScopeRef.stage(pk)
        for pk in tournament.stages.order_by("order").values_list("pk", flat=True)
    ]
    refs.append(ScopeRef.tournament(tournament.pk))
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
    A seat that left mid-game keeps the tournament's `forfeit_leaver_points` when it has any
    (as `games.services` wrote it), not its place's points. A partnership's seat (掼蛋: `team`
    set) scores its team's level gain (`games.results.partnership_points`), which no points
    table changes: it is re-derived from the result's detail, never from its place.
    """
    table = tournament.points_table
    results = GameResult.objects.filter(game__table__round__stage__tournament=tournament)
    changed = 0
    with transaction.atomic():
        _lock(ScopeRef.tournament(tournament.pk))
        # `partnership_points` in SQL: the detail's level gain, 0 when it has none.
        gain = Coalesce(Cast(KT("detail__level_gain"), IntegerField()), Value(0))
        partnerships = results.filter(team__isnull=False)
        changed += partnerships.exclude(points=gain).update(points=gain)
        results = results.filter(team__isnull=True)
        leaver_points = tournament.forfeit_leaver_points
        if leaver_points is not None:
            leavers = results.filter(forfeit=True)
            changed += leavers.exclude(points=leaver_points).update(points=leaver_points)
            results = results.exclude(forfeit=True)
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


# --- the tournament's order: stage reached first (docs/formats.md) --------------------------


def stages_reached(tournament_id: int) -> dict[int, int]:
    """Entry id -> the latest stage (by `Stage.order`, playoffs never count) the entrant took
    part in: seated at a table of a published round of it (or replaced there by a
    substitute), given a bye in one, or placed in it (`StageEntrant`: advanced, seeded or
    started there). An entrant who took part in no stage has no entry. One aggregated query:
    a row per entrant, whatever the number of rounds."""
    by_order = dict(
        Stage.objects.filter(tournament_id=tournament_id)
        .exclude(kind=Stage.Kind.PLAYOFF)
        .values_list("order", "pk")
    )
    if not by_order:
        return {}
    stage, rnd = _table(Stage), _table(Round)
    main = f"st.tournament_id = {int(tournament_id)} AND st.kind <> '{Stage.Kind.PLAYOFF}'"
    published = f"JOIN {rnd} r ON r.id = x.round_id JOIN {stage} st ON st.id = r.stage_id"
    played = f"{main} AND r.status <> '{Round.Status.DRAFT}'"
    sql = f"""
SELECT who, MAX(o) FROM (
  SELECT x.entry_id AS who, st."order" AS o FROM {_table(Seat)} x {published} WHERE {played}
  UNION ALL
  SELECT x.substituted_entry_id, st."order" FROM {_table(Seat)} x {published}
  WHERE {played} AND x.substituted_entry_id IS NOT NULL
  UNION ALL
  SELECT x.entry_id, st."order" FROM {_table(Bye)} x {published} WHERE {played}
  UNION ALL
  SELECT x.entry_id, st."order" FROM {_table(StageEntrant)} x
  JOIN {stage} st ON st.id = x.stage_id WHERE {main}
) taken GROUP BY who
"""
    with connection.cursor() as cursor:
        cursor.execute(sql)
        return {int(who): by_order[order] for who, order in cursor.fetchall()}


@dataclass(frozen=True, slots=True)
class OrderStep:
    """One link of the tournament's order: the entrants whose latest stage is one of
    `stage_ids` (the latest first), ranked by that stage's standings — or, for several stages
    joined by `Stage.TournamentOrder.WITH_PREVIOUS`, together by the tournament's totals."""

    stage_ids: tuple[int, ...]
    names: tuple[str, ...]

    @property
    def by_totals(self) -> bool:
        return len(self.stage_ids) > 1

    @property
    def label(self) -> str:
        """The step in words, in the active language: 「決勝の順位」, 「決勝・準決勝の通算点」."""
        if self.by_totals:
            return gettext("total points of %(stages)s") % {"stages": "・".join(self.names)}
        return gettext("%(stage)s standings") % {"stage": self.names[0]}


def order_steps(tournament_id: int) -> list[OrderStep]:
    """The tournament's order, best first: one step per main stage, latest first, except that
    a stage set to `WITH_PREVIOUS` joins the stage before it (and so on down)."""
    steps: list[list[tuple[int, str]]] = []
    stages = (
        Stage.objects.filter(tournament_id=tournament_id)
        .exclude(kind=Stage.Kind.PLAYOFF)
        .order_by("order")
        .values_list("pk", "name", "tournament_order")
    )
    for pk, name, how in stages:
        if steps and how == Stage.TournamentOrder.WITH_PREVIOUS:
            steps[-1].insert(0, (pk, name))
        else:
            steps.append([(pk, name)])
    return [
        OrderStep(tuple(pk for pk, _ in step), tuple(name for _, name in step))
        for step in reversed(steps)
    ]


def order_caption(steps: Sequence[OrderStep]) -> str:
    """The order as the tournament board states it: 「決勝の順位 → 予選の順位」."""
    return " → ".join(step.label for step in steps)


@dataclass(frozen=True, slots=True)
class Placing:
    rank: int
    shared: bool
    confirmed_rank: int
    confirmed_shared: bool


def order_by_stage_reached(
    totals: Mapping[int, tuple[int, int]],
    reached: Mapping[int, int],
    steps: Sequence[OrderStep],
    stage_ranks: Mapping[int, Mapping[int, tuple[int, int]]],
) -> dict[int, Placing]:
    """The tournament's ranks (a pure function; previews may call it on figures of their own).

    `totals`: entry -> (rank, confirmed rank) by the tournament's totals, its final's playoffs
    applied — every entrant of the board; `reached`: entry -> its latest stage
    (`stages_reached`); `steps`: `order_steps`; `stage_ranks`: stage -> entry -> (rank,
    confirmed rank) of that stage's standings (its playoffs applied).

    Step by step, best first, each step's entrants take the next places, ranked among
    themselves by their stage's rank (a step of several stages: by the totals); entrants of
    no step (no stage yet) come last, by the totals. Two entrants share a place only when
    their deciding ranks are equal. An entrant missing from its stage's rows (not recomputed
    yet) follows that step's others, by the totals."""
    groups: list[tuple[OrderStep | None, list[int]]] = [(step, []) for step in steps]
    home = {stage: i for i, step in enumerate(steps) for stage in step.stage_ids}
    rest: list[int] = []
    for entry in totals:
        where = home.get(reached.get(entry, -1))
        (rest if where is None else groups[where][1]).append(entry)
    groups.append((None, rest))
    placed: dict[int, Placing] = {}
    before = 0
    for step, members in groups:

        def key(entry: int, which: int, step: OrderStep | None = step) -> tuple[int, int]:
            if step is not None and not step.by_totals:
                found = stage_ranks.get(step.stage_ids[0], {}).get(entry)
                if found is not None:
                    return (0, found[which])
            return (1, totals[entry][which])

        for which in (0, 1):
            keys = {entry: key(entry, which) for entry in members}
            ordered = sorted(keys.values())
            level = Counter(ordered)
            for entry, mine in keys.items():
                rank = before + 1 + bisect_left(ordered, mine)
                shared = level[mine] > 1
                if which == 0:
                    placed[entry] = Placing(rank, shared, 0, False)
                else:
                    placed[entry] = Placing(placed[entry].rank, placed[entry].shared, rank, shared)
        before += len(members)
    return placed


def tournament_ranking(
    tournament_id: int, totals: Mapping[int, tuple[int, int]] | None = None
) -> dict[int, Placing]:
    """The tournament's ranks by stage reached, from its stages' stored rows:
    `order_by_stage_reached` over `totals` (entry -> (rank, confirmed rank) by the
    tournament's totals; read from the tournament's stored rows when not given — call it on
    freshly written rows, as `recompute_scope` does, or give the totals of a preview)."""
    if totals is None:
        totals = {
            entry: (rank, confirmed)
            for entry, rank, confirmed in Standing.objects.filter(
                **scope_filter(ScopeRef.tournament(tournament_id))
            ).values_list("entry_id", "rank", "confirmed_rank")
        }
    steps = order_steps(tournament_id)
    single = [step.stage_ids[0] for step in steps if not step.by_totals]
    stage_ranks: dict[int, dict[int, tuple[int, int]]] = {}
    for stage, entry, rank, confirmed in Standing.objects.filter(
        scope=Scope.STAGE, stage_id__in=single
    ).values_list("stage_id", "entry_id", "rank", "confirmed_rank"):
        stage_ranks.setdefault(stage, {})[entry] = (rank, confirmed)
    return order_by_stage_reached(totals, stages_reached(tournament_id), steps, stage_ranks)


def _write_stage_reached(ref: ScopeRef) -> None:
    """Mark the freshly written rows of a tournament or stage with the stage each entrant
    reached, and rank a tournament's rows by it (`tournament_ranking`); only the rows whose
    rank moves are rewritten."""
    if ref.kind == Scope.SEASON:
        return
    tournament_id = _scope_tournament_ids(ref)[0]
    rows = Standing.objects.filter(**scope_filter(ref))
    by_stage: dict[int, list[int]] = {}
    for entry, stage in stages_reached(tournament_id).items():
        by_stage.setdefault(stage, []).append(entry)
    for stage, entries in by_stage.items():
        rows.filter(entry_id__in=entries).update(reached_stage_id=stage)
    if ref.kind != Scope.TOURNAMENT:
        return
    current = {
        entry: (pk, rank, shared, confirmed, confirmed_shared)
        for pk, entry, rank, shared, confirmed, confirmed_shared in rows.values_list(
            "pk", "entry_id", "rank", "shared", "confirmed_rank", "confirmed_shared"
        )
    }
    totals = {entry: (line[1], line[3]) for entry, line in current.items()}
    changed = []
    for entry, new in tournament_ranking(tournament_id, totals).items():
        pk, *now = current[entry]
        if tuple(now) != (new.rank, new.shared, new.confirmed_rank, new.confirmed_shared):
            changed.append(
                Standing(
                    pk=pk,
                    rank=new.rank,
                    shared=new.shared,
                    confirmed_rank=new.confirmed_rank,
                    confirmed_shared=new.confirmed_shared,
                )
            )
    Standing.objects.bulk_update(
        changed, ["rank", "shared", "confirmed_rank", "confirmed_shared"], batch_size=1000
    )


# --- the scope's rounds ----------------------------------------------------------------------

# A round's status as the public boards word it (in the page's language).
ROUND_STATUS_LABELS: dict[str, Promise] = {
    Round.Status.PUBLISHED: pgettext_lazy("round status", "not started"),
    Round.Status.IN_PLAY: pgettext_lazy("round status", "in play"),
    Round.Status.COMPLETE: pgettext_lazy("round status", "complete"),
    Round.Status.REVEALED: pgettext_lazy("round status", "complete, seed revealed"),
}


@dataclass(frozen=True, slots=True)
class RoundLine:
    """A round whose results a scope counts, as the boards list it: its status, and the games
    corrected after its seed was revealed (table, set, game), flagged publicly."""

    round_id: int
    tournament: str
    stage: str
    number: int
    status: str  # a Round.Status value (never draft: drafts are not public)
    corrected: tuple[tuple[int, int, int], ...] = ()

    @property
    def complete(self) -> bool:
        """Its results are final (but for an organiser's flagged correction)."""
        return self.status in Round.SETTLED

    @property
    def label(self) -> str:
        """Its status in words, in the active language."""
        return str(ROUND_STATUS_LABELS[self.status])

    def as_dict(self) -> dict[str, object]:
        return {
            "tournament": self.tournament,
            "stage": self.stage,
            "round": self.number,
            "status": self.status,
            "complete": self.complete,
            "corrected_after_reveal": [
                {"table": t, "set": s, "game": g} for t, s, g in self.corrected
            ],
        }


def _scope_round_filter(ref: ScopeRef) -> Q:
    if ref.kind == Scope.TOURNAMENT:
        return Q(stage__tournament_id=ref.id)
    if ref.kind == Scope.STAGE:
        stage = Stage.objects.select_related("tournament").get(pk=ref.id)
        return Q(stage_id__in=_stage_ids(stage))
    if ref.kind == Scope.SEASON:
        return Q(stage__tournament_id__in=_season_tournaments(ref.id))
    raise ValueError(f"unknown scope {ref.kind!r}")


def scope_rounds(ref: ScopeRef) -> list[RoundLine]:
    """The public rounds of the scope (every round its results come from), in playing order."""
    rounds = list(
        Round.objects.filter(_scope_round_filter(ref))
        .exclude(status=Round.Status.DRAFT)
        .order_by("stage__tournament__starts_on", "stage__tournament_id", "stage__order", "number")
        .values_list("pk", "stage__tournament__name", "stage__name", "number", "status")
    )
    corrected: dict[int, list[tuple[int, int, int]]] = {}
    flagged = (
        Game.objects.filter(table__round_id__in=[r[0] for r in rounds], corrected_after_reveal=True)
        .order_by("table__number", "set_number", "game_number")
        .values_list("table__round_id", "table__number", "set_number", "game_number")
    )
    for round_id, table, set_number, game_number in flagged:
        corrected.setdefault(round_id, []).append((table, set_number, game_number))
    return [
        RoundLine(pk, tournament, stage, number, status, tuple(corrected.get(pk, ())))
        for pk, tournament, stage, number, status in rounds
    ]


# --- reading ---------------------------------------------------------------------------------


def standings(ref: ScopeRef) -> list[Standing]:
    """The scope's rows in board order, those a settled playoff placed flagged
    (`Standing.decided_by_playoff`)."""
    rows = list(
        Standing.objects.filter(**scope_filter(ref))
        .select_related("player", "entry", "reached_stage")
        .order_by("rank", "player__display_name", "player_id")
    )
    decided = decided_by_playoff(ref, rows)
    for row in rows:
        row.decided_by_playoff = row.entry_id in decided
    return rows


def _broadcast_scope(ref: ScopeRef) -> str:
    return f"standings:{ref.key}"


def publish_standings_version(ref: ScopeRef, version: int) -> None:
    """Announce the scope's new version (after commit): stored for polls, sent to the live
    process (`config.broadcast.publish`)."""
    broadcast.publish(_broadcast_scope(ref), str(version))


def standings_version(ref: ScopeRef) -> int:
    """The scope's standings version (0 before its first recompute): from the cache, where
    each bump is published, so a poll costs no query; from the database when not cached."""

    def stored() -> str:
        found = (
            StandingsVersion.objects.filter(key=ref.key).values_list("version", flat=True).first()
        )
        return str(found or 0)

    return int(broadcast.current(_broadcast_scope(ref), stored))


def season_of(season_id: int) -> Season:
    return Season.objects.select_related("league").get(pk=season_id)


# --- playoffs (順位決定戦) --------------------------------------------------------------------

# The `Standing` columns the generic tie-break keys compare; a metric's key compares its count
# in `Standing.metrics` (`tie_break_value`).
KEY_COLUMN: dict[str, str] = {"points": "points", "best_set": "best_set"}
# What `tie_break_value` reads of every row of a scope.
TIE_BREAK_COLUMNS = (*KEY_COLUMN.values(), "metrics")


def tie_break_value(row: Mapping[str, Any] | Standing, key: str, metrics: Sequence[Metric]) -> Any:
    """A row's value for a tie-break key (a `Standing` or a dict of `TIE_BREAK_COLUMNS`):
    a generic column, or its count of the metric the key names (None: no such metric)."""

    def read(name: str) -> Any:
        return row[name] if isinstance(row, Mapping) else getattr(row, name)

    if key in KEY_COLUMN:
        return read(KEY_COLUMN[key])
    metric = metric_for_tie_break(key, metrics)
    return None if metric is None else (read("metrics") or {}).get(metric.key, 0)


def playoff_stage(ref: ScopeRef) -> Stage | None:
    """The stage whose settled playoffs order level entrants in the scope's standings: a
    stage's own (a cut's or a final's); for a tournament, its final's (the last stage that is
    not a playoff: the final decides the places). None for a season or a playoff."""
    if ref.kind == Scope.STAGE:
        stage = Stage.objects.select_related("tournament").get(pk=ref.id)
        return None if stage.kind == Stage.Kind.PLAYOFF else stage
    if ref.kind == Scope.TOURNAMENT:
        return main_stages(Tournament.objects.get(pk=ref.id)).last()
    return None


def playoff_positions(ref: ScopeRef) -> dict[int, int]:
    """Entry id -> its position in `tournaments.services.playoff_order` of the scope's
    playoff stage (0 = best; entrants level in their playoff share one); empty when no
    playoff of it is settled."""
    stage = playoff_stage(ref)
    if stage is None or not stage.playoffs.exists():
        return {}
    # A later playoff (among those still level after an earlier one) places them finer.
    return {entry: i for i, group in enumerate(playoff_order(stage)) for entry in group}


def playoff_covers(group: Sequence[int], members: Iterable[int]) -> bool:
    """The one rule for when a playoff breaks a tie in the standings: the entrants level on
    every tie-break key (`group`, a shared rank) are more than one and *every* one of them
    has a place in a settled playoff. A playoff is then the first key that separates them —
    and it never reaches anyone it was not played for (an entrant level with them after a
    correction keeps the whole group level)."""
    covered = set(members)
    return len(group) > 1 and all(entry in covered for entry in group)


def playoff_ranks(
    ranked: Iterable[tuple[int, int]], positions: Mapping[int, int]
) -> dict[int, tuple[int, bool]]:
    """New (rank, shared) for the entrants a settled playoff places: among each shared rank
    that `playoff_covers`, an entrant's rank goes down by one for each member with a better
    playoff position; those level in the playoff still share. `ranked`: (entry, rank)."""
    groups: dict[int, list[int]] = {}
    for entry, rank in ranked:
        groups.setdefault(rank, []).append(entry)
    placed: dict[int, tuple[int, bool]] = {}
    for rank, group in groups.items():
        if not playoff_covers(group, positions):
            continue
        for entry in group:
            better = sum(1 for other in group if positions[other] < positions[entry])
            level = sum(1 for other in group if positions[other] == positions[entry])
            placed[entry] = (rank + better, level > 1)
    return placed


def _apply_playoffs(ref: ScopeRef, positions: Mapping[int, int]) -> None:
    """Re-rank the freshly written rows of the scope by its settled playoffs, both the rank
    and the confirmed rank (what cuts use); totals are untouched."""
    rows = list(
        Standing.objects.filter(**scope_filter(ref)).values_list(
            "pk", "entry_id", "rank", "confirmed_rank"
        )
    )
    # Tournament and stage rows always name their entry (only seasons' do not).
    ranks = playoff_ranks(((e, r) for _, e, r, _ in rows), positions)
    confirmed = playoff_ranks(((e, c) for _, e, _, c in rows), positions)
    for pk, entry, _, _ in rows:
        changes: dict[str, object] = {}
        if entry in ranks:
            changes["rank"], changes["shared"] = ranks[entry]
        if entry in confirmed:
            changes["confirmed_rank"], changes["confirmed_shared"] = confirmed[entry]
        if changes:
            Standing.objects.filter(pk=pk).update(**changes)


def decided_by_playoff(ref: ScopeRef, rows: Sequence[Standing]) -> frozenset[int]:
    """The entry ids among `rows` whose place a settled playoff decided: level with others on
    every tie-break key, the group `playoff_covers`, and their ranks no longer all equal.

    On the tournament's board an entrant ranked by the stage it reached (`OrderStep`) is
    flagged when that stage's board flags it; the others (ranked by the totals) as before."""
    if ref.kind == Scope.TOURNAMENT:
        return _decided_in_tournament(ref, rows)
    return _decided_among(ref, rows)


def _decided_in_tournament(ref: ScopeRef, rows: Sequence[Standing]) -> frozenset[int]:
    by_stage = {step.stage_ids[0]: step for step in order_steps(ref.id) if not step.by_totals}
    stages = Stage.objects.filter(pk__in=list(by_stage))
    with_playoffs = [stage for stage in stages if settled_playoffs(stage)]
    if not with_playoffs:
        final = playoff_stage(ref)
        if final is None or final.pk in by_stage or not settled_playoffs(final):
            return frozenset()
    decided: set[int] = set()
    for stage in with_playoffs:
        stage_ref = ScopeRef.stage(stage.pk)
        stage_rows = list(
            Standing.objects.filter(**scope_filter(stage_ref)).only(
                "entry_id", "rank", *TIE_BREAK_COLUMNS
            )
        )
        here = {
            row.entry_id
            for row in rows
            if row.reached_stage_id == stage.pk and row.entry_id is not None
        }
        decided |= _decided_among(stage_ref, stage_rows) & here
    by_totals = [row for row in rows if row.reached_stage_id not in by_stage]
    if by_totals:
        decided |= _decided_among(ref, by_totals)
    return frozenset(decided)


def _decided_among(ref: ScopeRef, rows: Sequence[Standing]) -> frozenset[int]:
    stage = playoff_stage(ref)
    if stage is None:
        return frozenset()
    members = {
        entry
        for playoff in settled_playoffs(stage)
        for entry in playoff.entrants.values_list("entry_id", flat=True)
    }
    if not members:
        return frozenset()
    keys = tie_breaks(stage.tournament.points_table)
    metrics = scope_metrics(ref)
    groups: dict[tuple[object, ...], list[Standing]] = {}
    for row in rows:
        groups.setdefault(tuple(tie_break_value(row, k, metrics) for k in keys), []).append(row)
    decided: set[int] = set()
    for group in groups.values():
        entries = [row.entry_id for row in group if row.entry_id is not None]
        if playoff_covers(entries, members) and len({row.rank for row in group}) > 1:
            decided.update(entries)
    return frozenset(decided)
