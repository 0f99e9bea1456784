"""Standings recompute benchmark: one tournament with 1,000,000 game results on PostgreSQL.

    python benchmarks/standings.py [--results 1000000] [--entries 2000] [--repeats 5]

Creates (or reuses) the database `kakumei_bench_standings` on 127.0.0.1 and migrates it, then
generates the tournament in SQL (`INSERT … SELECT generate_series`): entries, revealed rounds
of tables of four, confirmed games of 4 per set and 3 sets per table, four `GameResult` rows
per game (random places, titles by place, 3-2-1-0 points, ~2 % fouls) and a penalty for one
entry in 20 (warnings and deductions, some withdrawn). Timed in the same run, median
of `--repeats`:

1. baseline: ``SELECT entry_id, sum(points) … GROUP BY entry_id`` over the same rows;
2. recompute after a change: `recompute_scope` for the tournament (lock, delete, the one
   ``INSERT … SELECT`` with tie-break ranking, digest, version bump), one result altered
   before each run;
3. recompute with nothing changed (the same work, rolled back: no write, no version).

Target (issue #7): recompute ≤ 1 s.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
DB_NAME = "kakumei_bench_standings"
SERVER = os.environ.get("BENCH_PG", "postgres://postgres@127.0.0.1:5432")


def _create_database() -> None:
    """A fresh database each run (deleting a million rows through the ORM would take longer
    than generating them)."""
    import psycopg

    with psycopg.connect(f"{SERVER}/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{DB_NAME}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{DB_NAME}"')


def _setup_django() -> None:
    os.environ["DATABASE_URL"] = f"{SERVER}/{DB_NAME}"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ["CELERY_TASK_ALWAYS_EAGER"] = "True"
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def _insert_select(model: Any, values: dict[str, str], source: str) -> str:
    """``INSERT INTO <model> (every column) SELECT … FROM <source>``; columns not in `values`
    get NULL or their Python default (Django defaults are not database defaults)."""
    import json

    columns, exprs = [], []
    for f in model._meta.concrete_fields:
        if f.primary_key:
            continue
        columns.append(f.column)
        if f.column in values:
            exprs.append(values[f.column])
        elif getattr(f, "auto_now", False) or getattr(f, "auto_now_add", False):
            exprs.append("now()")
        elif f.null:
            exprs.append("NULL")
        else:
            default = f.get_default()
            literal = json.dumps(default) if f.get_internal_type() == "JSONField" else default
            if isinstance(literal, bool):
                exprs.append("TRUE" if literal else "FALSE")
            elif isinstance(literal, int | float):
                exprs.append(str(literal))
            else:
                exprs.append("'" + str(literal).replace("'", "''") + "'")
    return (
        f"INSERT INTO {model._meta.db_table} ({', '.join(columns)}) "
        f"SELECT {', '.join(exprs)} FROM {source}"
    )


def generate(results: int, entries: int) -> int:
    """A fresh benchmark tournament with `results` results; returns its id."""
    from django.db import connection, transaction

    from games.models import Game, GameResult
    from tournaments.models import Entry, Penalty, Player, Round, Stage, Table, Tournament

    games = results // 4
    per_round = entries // 4  # tables in a round
    games_per_table = 12  # 3 sets of 4
    tables = -(-games // games_per_table)
    rounds = -(-tables // per_round)
    started = time.perf_counter()
    with transaction.atomic():
        tournament = Tournament.objects.create(name="Bench", slug="bench", status="running")
        stage = Stage.objects.create(tournament=tournament, order=1, name="Bench")
        with connection.cursor() as c:
            c.execute("SELECT coalesce(max(id), 0) FROM tournaments_player")
            (p0,) = c.fetchone()
            c.execute(
                _insert_select(
                    Player, {"display_name": "'Bench ' || g"}, f"generate_series(1, {entries}) g"
                )
            )
            c.execute(
                _insert_select(
                    Entry,
                    {
                        "tournament_id": str(tournament.pk),
                        "player_id": "pl.id",
                        "number": "pl.g",
                        "status": "'checked_in'",
                    },
                    # Sequences may have gaps (earlier aborted runs): number the new players.
                    f"(SELECT id, row_number() OVER (ORDER BY id) AS g "
                    f"FROM {Player._meta.db_table} WHERE id > {p0}) pl",
                )
            )
            seed = "'" + "0" * 64 + "'"
            c.execute(
                _insert_select(
                    Round,
                    {
                        "stage_id": str(stage.pk),
                        "number": "g",
                        "status": "'revealed'",
                        "seed_secret": seed,
                        "seed_commitment": seed,
                        "published_at": "now()",
                        "completed_at": "now()",
                        "revealed_at": "now()",
                    },
                    f"generate_series(1, {rounds}) g",
                )
            )
            c.execute(
                _insert_select(
                    Table,
                    {"round_id": "r.id", "number": "g"},
                    f"{Round._meta.db_table} r, generate_series(1, {per_round}) g "
                    f"WHERE r.stage_id = {stage.pk}",
                )
            )
            # Game i: table i / 12 (in table id order), set (i % 12) / 4 + 1, game i % 4 + 1.
            c.execute(
                f"CREATE TEMP TABLE bench_tables AS SELECT t.id, t.number, r.number AS round, "
                f"row_number() OVER (ORDER BY r.number, t.number) - 1 AS idx "
                f"FROM {Table._meta.db_table} t JOIN {Round._meta.db_table} r "
                f"ON r.id = t.round_id WHERE r.stage_id = {stage.pk}"
            )
            c.execute(
                _insert_select(
                    Game,
                    {
                        "table_id": "bt.id",
                        "set_number": "(g.i % 12) / 4 + 1",
                        "game_number": "g.i % 4 + 1",
                        "ruleset_id": "'jdf'",
                        "ruleset_version": "1",
                        "mode": "'quick'",
                        "seats": "4",
                        # Revealed rounds hold settled games only: every one confirmed.
                        "status": "'confirmed'",
                        "finished_at": "now()",
                        "confirmed_at": "now()",
                        "created_at": "now()",
                    },
                    f"generate_series(0, {games - 1}) AS g(i) "
                    f"JOIN bench_tables bt ON bt.idx = g.i / {games_per_table}",
                )
            )
            # Four seats per game; the entry of seat k at table n of round r is a rotation
            # of 4(n-1)+k, so nobody sits twice in a round. Places: a random permutation.
            c.execute(
                f"CREATE TEMP TABLE bench_perm AS SELECT g.id AS game_id, bt.number, bt.round, "
                f"floor(random() * 6)::int AS perm "
                f"FROM {Game._meta.db_table} g JOIN bench_tables bt ON bt.id = g.table_id"
            )
            e0 = (
                Entry.objects.filter(tournament=tournament)
                .order_by("pk")
                .values_list("pk", flat=True)[0]
            )
            # Six permutations of 1..4, flattened; perm picks one, k the seat.
            place = (
                "(array[1,2,3,4, 2,1,4,3, 3,4,1,2, 4,3,2,1, 1,3,2,4, 2,4,3,1])[p.perm * 4 + k + 1]"
            )
            c.execute(
                _insert_select(
                    GameResult,
                    {
                        "game_id": "p.game_id",
                        "entry_id": (
                            f"{e0} + ((4 * (p.number - 1) + k + 7 * p.round) % {entries})"
                        ),
                        "seat": "k",
                        "place": place,
                        "title": (f"(array['daifugo','fugo','hinmin','daihinmin'])[{place}]"),
                        "foul": f"({place} = 4 AND random() < 0.08)",
                        "miyako_ochi": "FALSE",
                        "points": f"4 - {place}",
                    },
                    "bench_perm p, generate_series(0, 3) k",
                )
            )
            # A penalty for one entry in 20: warnings and 1-3 point deductions, one in seven
            # withdrawn (standings count the active deductions and warnings).
            c.execute(
                _insert_select(
                    Penalty,
                    {
                        "tournament_id": str(tournament.pk),
                        "entry_id": f"{e0} + (g * 19) % {entries}",
                        "round_id": (
                            f"(SELECT min(id) FROM {Round._meta.db_table} "
                            f"WHERE stage_id = {stage.pk})"
                        ),
                        "kind": "CASE WHEN g % 2 = 0 THEN 'deduction' ELSE 'warning' END",
                        "points": "CASE WHEN g % 2 = 0 THEN 1 + g % 3 ELSE 0 END",
                        "reason": "'bench'",
                        "withdrawn_at": "CASE WHEN g % 7 = 0 THEN now() END",
                    },
                    f"generate_series(1, {max(1, entries // 20)}) g",
                )
            )
            c.execute("DROP TABLE bench_tables; DROP TABLE bench_perm")
    with connection.cursor() as c:
        c.execute("ANALYZE")
        c.execute(
            f"SELECT count(*) FROM {GameResult._meta.db_table} r JOIN "
            f"{Entry._meta.db_table} e ON e.id = r.entry_id WHERE e.tournament_id = %s",
            [tournament.pk],
        )
        (count,) = c.fetchone()
    print(
        f"generated {count:,} results ({games:,} games, {entries:,} entries, {rounds} rounds) "
        f"in {time.perf_counter() - started:.1f} s"
    )
    return int(tournament.pk)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--results", type=int, default=1_000_000)
    parser.add_argument("--entries", type=int, default=2000)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    _create_database()
    _setup_django()
    from django.db import connection

    from games.models import GameResult
    from scoring.standings import ScopeRef, recompute_scope

    tournament_id = generate(args.results, args.entries)
    ref = ScopeRef.tournament(tournament_id)
    baseline_sql = (
        "SELECT r.entry_id, sum(r.points) FROM games_gameresult r JOIN tournaments_entry e "
        "ON e.id = r.entry_id WHERE e.tournament_id = %s GROUP BY r.entry_id"
    )

    def baseline() -> None:
        with connection.cursor() as c:
            c.execute(baseline_sql, [tournament_id])
            c.fetchall()

    def changed() -> None:
        outcome = recompute_scope(ref)
        assert outcome.changed, "a result was altered: the standings must change"

    def unchanged() -> None:
        outcome = recompute_scope(ref)
        assert not outcome.changed

    some = GameResult.objects.filter(entry__tournament_id=tournament_id).order_by("pk")[:1].get()
    bump = 0

    def alter() -> None:
        nonlocal bump
        bump += 1
        GameResult.objects.filter(pk=some.pk).update(points=100 + bump)

    timings: dict[str, list[float]] = {"baseline": [], "recompute": [], "unchanged": []}
    baseline()  # warm the cache for everyone alike
    recompute_scope(ref)
    for _ in range(args.repeats):
        for name, run, prepare in (
            ("baseline", baseline, None),
            ("recompute", changed, alter),
            ("unchanged", unchanged, None),
        ):
            if prepare is not None:
                prepare()
            start = time.perf_counter()
            run()
            timings[name].append(time.perf_counter() - start)
    base = statistics.median(timings["baseline"])
    print(f"{'':32} {'median s':>9} {'min s':>7} {'ratio':>6}")
    for name, label in (
        ("baseline", "baseline SELECT … GROUP BY"),
        ("recompute", "recompute (changed, written)"),
        ("unchanged", "recompute (unchanged, rolled back)"),
    ):
        median, low = statistics.median(timings[name]), min(timings[name])
        print(f"{label:32} {median:>9.3f} {low:>7.3f} {median / base:>5.1f}x")
    worst = max(statistics.median(timings["recompute"]), statistics.median(timings["unchanged"]))
    print(f"target ≤ 1 s: {'met' if worst <= 1.0 else 'NOT met'} ({worst:.3f} s)")


if __name__ == "__main__":
    main()
