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

    python benchmarks/standings.py --lag [--entries 10000] [--results 360000] [--seconds 60]

The coalesced recompute lag (issue #14): the database `kakumei_bench_lag` (dropped and created
by each run, nothing else touched) holds a tournament of `--entries` entrants in a league
season with `--results` results of earlier rounds (generated as above) and a round in play.
One real Celery worker process (prefork, concurrency 1) consumes the queue `bench-lag` on
Redis database 4 (`BENCH_LAG_REDIS`), which is also the cache under this run's own key prefix;
the run deletes its own keys at the end, nothing else. A feeder finishes a game every
`--interval` s for `--seconds` s as the service does (the game and its four provisional results
committed, then `results_changed` sent, whose receiver asks for a recompute), while a poller
reads each scope's `Standing` rows every 50 ms. For each result: the time from its commit until
the tournament's standings, and until every scope's (tournament, stage, season), include it;
p50 and max, and how many recomputes were queued for how many results.

Target (issue #14): 10,000 entrants and a result every second, standings at most 5 s behind.
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


LAG_DB_NAME = "kakumei_bench_lag"
LAG_REDIS = os.environ.get("BENCH_LAG_REDIS", "redis://127.0.0.1:6379/4")
LAG_QUEUE = "bench-lag"


def _create_database(name: str = DB_NAME) -> None:
    """A fresh database each run (deleting a million rows through the ORM would take longer
    than generating them)."""
    import psycopg

    with psycopg.connect(f"{SERVER}/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')


def _setup_django(name: str = DB_NAME, *, eager: bool = True) -> None:
    os.environ["DATABASE_URL"] = f"{SERVER}/{name}"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ["CELERY_TASK_ALWAYS_EAGER"] = str(eager)
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
                        # 大富豪's result detail (`SeatResult.detail`), as the service stores it.
                        "detail": (
                            "jsonb_build_object("
                            f"'title', (array['daifugo','fugo','hinmin','daihinmin'])[{place}], "
                            f"'foul', ({place} = 4 AND random() < 0.08), 'miyako_ochi', FALSE)"
                        ),
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
    parser.add_argument("--results", type=int, default=None)
    parser.add_argument("--entries", type=int, default=None)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--lag", action="store_true", help="the coalesced recompute lag")
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--interval", type=float, default=1.0)
    args = parser.parse_args()
    if args.lag:
        measure_lag(
            entries=args.entries or 10_000,
            results=args.results or 360_000,
            seconds=args.seconds,
            interval=args.interval,
        )
        return
    args.results = args.results or 1_000_000
    args.entries = args.entries or 2000
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


# --- the coalesced recompute lag (issue #14) -------------------------------------------------


def _live_round(tournament_id: int) -> list[Any]:
    """Put the tournament in a league season and start a round in play with every entrant
    seated four to a table; returns the round's tables (number order)."""
    from django.utils import timezone

    from tournaments.models import Entry, League, Round, Season, Seat, Stage, Table, Tournament

    league = League.objects.create(name="Bench league", slug="bench-league")
    season = Season.objects.create(league=league, name="Bench season", slug="bench-season")
    Tournament.objects.filter(pk=tournament_id).update(season=season)
    stage = Stage.objects.get(tournament_id=tournament_id)
    number = Round.objects.filter(stage=stage).count() + 1
    seed = "0" * 64
    round_ = Round.objects.create(
        stage=stage,
        number=number,
        status=Round.Status.IN_PLAY,
        seed_secret=seed,
        seed_commitment=seed,
        published_at=timezone.now(),
    )
    entries = list(
        Entry.objects.filter(tournament_id=tournament_id)
        .order_by("pk")
        .values_list("pk", flat=True)
    )
    tables = Table.objects.bulk_create(
        Table(round=round_, number=n) for n in range(1, len(entries) // 4 + 1)
    )
    Seat.objects.bulk_create(
        Seat(table=tables[i // 4], round=round_, entry_id=entry, position=i % 4 + 1)
        for i, entry in enumerate(entries[: len(tables) * 4])
    )
    return tables


def _finish_game(table: Any, index: int, rng: Any) -> int:
    """Game `index` of the feed ends at `table`: the game and its four provisional results
    committed, as `games.services` writes them; returns the game's id."""
    from django.db import transaction
    from django.utils import timezone

    from games.models import Game, GameResult

    seats = list(table.seats.order_by("position").values_list("entry_id", flat=True))
    rng.shuffle(seats)
    titles = ("daifugo", "fugo", "hinmin", "daihinmin")
    with transaction.atomic():
        game = Game.objects.create(
            table=table,
            set_number=1,
            game_number=index + 1,
            ruleset_id="jdf",
            ruleset_version=1,
            mode="quick",
            seats=4,
            status=Game.Status.FINISHED,
            finished_at=timezone.now(),
        )
        GameResult.objects.bulk_create(
            GameResult(
                game=game,
                entry_id=entry,
                seat=seat,
                place=seat + 1,
                detail={"title": titles[seat], "foul": False, "miyako_ochi": False},
                points=3 - seat,
            )
            for seat, entry in enumerate(seats)
        )
    return int(game.pk)


def _start_lag_worker(env: dict[str, str]) -> Any:
    import subprocess

    from config.celery import app

    node = f"bench-lag-{os.getpid()}@localhost"
    worker = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool=prefork",
         "--concurrency=1", "-Q", LAG_QUEUE, "-n", node, "--without-gossip",
         "--without-mingle", "--loglevel=WARNING"],
        cwd=ROOT, env=env,
    )  # fmt: skip
    deadline = time.monotonic() + 60
    while not app.control.ping(destination=[node], timeout=1.0):
        if worker.poll() is not None or time.monotonic() > deadline:
            worker.terminate()
            raise SystemExit("the Celery worker did not start")
    return worker


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def measure_lag(*, entries: int, results: int, seconds: float, interval: float) -> None:
    import random
    import threading

    prefix = f"bench-lag-{os.getpid()}"
    os.environ.update(
        CELERY_BROKER_URL=LAG_REDIS,
        CELERY_RESULT_BACKEND=LAG_REDIS,
        CELERY_TASK_DEFAULT_QUEUE=LAG_QUEUE,
        REDIS_URL=LAG_REDIS,
        CACHE_KEY_PREFIX=prefix,
        LOG_LEVEL="WARNING",
    )
    _create_database(LAG_DB_NAME)
    _setup_django(LAG_DB_NAME, eager=False)
    import redis
    from celery.signals import after_task_publish
    from django.db import connection
    from django.db.models import Sum

    from games.live import notify_results_changed
    from scoring.models import Standing, StandingsVersion
    from scoring.standings import recompute_scope, scope_filter, tournament_scopes
    from tournaments.models import Tournament

    tournament_id = generate(results, entries)
    tables = _live_round(tournament_id)
    refs = tournament_scopes(Tournament.objects.get(pk=tournament_id))
    for ref in refs:  # the standings as they stood before the feed, each scope timed
        started = time.perf_counter()
        recompute_scope(ref)
        print(f"recompute {ref.key:16} {time.perf_counter() - started:6.3f} s")
    versions_before = dict(StandingsVersion.objects.values_list("key", "version"))

    def counted() -> dict[str, int]:
        return {
            ref.key: int(
                Standing.objects.filter(**scope_filter(ref)).aggregate(n=Sum("games"))["n"] or 0
            )
            for ref in refs
        }

    base = counted()
    queued: list[str] = []

    def on_publish(sender: str | None = None, headers: Any = None, **kwargs: Any) -> None:
        if sender == "scoring.update_standings":
            queued.append(headers["id"])

    after_task_publish.connect(on_publish, weak=False)
    worker = _start_lag_worker(dict(os.environ))
    total = int(seconds / interval)
    committed: list[float] = []
    # scope key -> when each result (by index) was first seen in its standings
    seen: dict[str, list[float]] = {ref.key: [] for ref in refs}
    done = threading.Event()

    def poll() -> None:
        try:
            while not done.is_set():
                now = time.perf_counter()
                for key, games in counted().items():
                    included = (games - base[key]) // 4
                    while len(seen[key]) < included:
                        seen[key].append(now)
                if all(len(times) >= total for times in seen.values()):
                    return
                time.sleep(0.05)
        finally:
            connection.close()

    poller = threading.Thread(target=poll)
    poller.start()
    rng = random.Random(14)
    start = time.perf_counter()
    try:
        for index in range(total):
            time.sleep(max(0.0, start + index * interval - time.perf_counter()))
            game_id = _finish_game(tables[index % len(tables)], index // len(tables), rng)
            committed.append(time.perf_counter())
            notify_results_changed(game_id, tournament_id)  # after commit, as the service
        poller.join(timeout=120)
    finally:
        done.set()
        poller.join()
        worker.terminate()
        worker.wait(timeout=60)
        after_task_publish.disconnect(on_publish)
        client = redis.Redis.from_url(LAG_REDIS)
        # This run's own keys only: its cache prefix and its tasks' results.
        keys = list(client.scan_iter(f"{prefix}:*"))
        keys += [f"celery-task-meta-{task}" for task in queued]
        if keys:
            client.delete(*keys)

    versions = dict(StandingsVersion.objects.values_list("key", "version"))
    tournament_key = refs[0].key
    print(
        f"{total} results, one every {interval:g} s, {entries:,} entrants, "
        f"{results:,} earlier results; one worker (concurrency 1)"
    )
    print(
        f"recomputes queued: {len(queued)}; tournament standings rewritten "
        f"{versions[tournament_key] - versions_before[tournament_key]} times"
    )
    print(f"{'lag until … include the result':40} {'p50 s':>7} {'max s':>7} {'missed':>7}")
    every = [
        max(seen[key][i] for key in seen) if all(len(seen[k]) > i for k in seen) else None
        for i in range(total)
    ]
    worst = 0.0
    for label, times in (
        ("the tournament's standings", seen[tournament_key]),
        ("every scope's (tournament, stage, season)", every),
    ):
        lags = [t - c for t, c in zip(times, committed, strict=False) if t is not None]
        missed = total - len(lags)
        if lags:
            worst = max(worst, max(lags))
            print(f"{label:40} {_percentile(lags, 0.5):>7.2f} {max(lags):>7.2f} {missed:>7}")
        else:
            print(f"{label:40} {'-':>7} {'-':>7} {missed:>7}")
    met = worst <= 5.0 and all(len(times) >= total for times in seen.values())
    print(f"target ≤ 5 s behind: {'met' if met else 'NOT met'} ({worst:.2f} s)")


if __name__ == "__main__":
    main()
