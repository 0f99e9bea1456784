"""Public leaderboard benchmark: a board of 10,000 entrants, as the public reads it.

    python benchmarks/boards.py [--entrants 10000] [--repeats 5] [--before PATH]

Creates the database `kakumei_bench_boards` on 127.0.0.1 afresh (dropping the one an earlier
run left; no other database is touched) and fills it with one running tournament, its one
stage (a top-64 cut) and `--entrants` entrants whose `Standing` rows are written directly
(no games: the
rows are what the boards read), then times, through Django's test client with the
production middleware and the per-process memory cache (never a shared Redis), median of
`--repeats`:

1. the print page: every row rendered (the cost of showing the whole field, in this run);
2. page 1 of the tournament board, freshly rendered (the cache emptied before each run);
3. page 1 again for a second viewer of the same version (a cached hit);
4. the stage board's page 1, freshly rendered (its cut line is computed over the whole field),
   and then its page 2 (the whole field's figures are computed once per version);
5. a live poll with the current version (``HX-Request``, ``?v=``): the 204, with no query
   once the version is cached (the queries of each are counted and printed);
6. the CSV export, freshly built and then cached.

`--before PATH` measures the same URLs against another copy of the code (for instance the
tree before the boards were paginated, with `git worktree add PATH <commit>`) in a
subprocess, on the same database, and prints the ratios.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DB_NAME = "kakumei_bench_boards"
SERVER = os.environ.get("BENCH_PG", "postgres://postgres@127.0.0.1:5432")
SLUG = "bench-boards"


def _setup_django(tree: Path) -> None:
    sys.path.insert(0, str(tree))
    os.environ["DATABASE_URL"] = f"{SERVER}/{DB_NAME}"
    os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings"
    os.environ["REDIS_URL"] = ""  # the per-process cache: a benchmark never touches a shared one
    os.environ["DEBUG"] = "False"
    os.environ["SECRET_KEY"] = "benchmark-only"
    os.environ["ALLOWED_HOSTS"] = "testserver"
    os.environ["CELERY_TASK_ALWAYS_EAGER"] = "True"
    os.environ["SECURE_SSL_REDIRECT"] = "False"  # the test client speaks plain HTTP
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    import django

    import config.settings as production

    # Static files as in development: no collectstatic manifest is needed to render a page.
    production.STORAGES["staticfiles"] = {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
    }
    django.setup()


def _create_database() -> None:
    import psycopg

    with psycopg.connect(f"{SERVER}/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{DB_NAME}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{DB_NAME}"')


def generate(entrants: int) -> None:
    """The tournament, its stage and `entrants` entrants with their standings rows (tournament
    and stage scope), ranked by points with shared places, about one in ten provisional."""
    from django.core.management import call_command
    from django.db import transaction
    from django.utils import timezone

    from games.engine.daifugo import DAIFUGO
    from scoring.models import Standing, StandingsVersion
    from tournaments.models import Entry, Player, Stage, Tournament

    call_command("migrate", verbosity=0)
    metric_keys = [m.key for m in DAIFUGO.metrics]
    rng = random.Random(14)
    now = timezone.now()
    with transaction.atomic():
        tournament = Tournament.objects.create(name="Bench Open", slug=SLUG, status="running")
        stage = Stage.objects.create(
            tournament=tournament, order=1, name="Qualifying", advance_top_n=64
        )
        players = Player.objects.bulk_create(
            Player(display_name=f"Player {n:05d}") for n in range(1, entrants + 1)
        )
        entries = Entry.objects.bulk_create(
            Entry(tournament=tournament, player=p, number=n, status="checked_in")
            for n, p in enumerate(players, start=1)
        )
        # (entry, points, 大富豪 count: the tie-break, provisional games), best first.
        figures = [
            (entry, rng.randint(0, 36), rng.randint(0, 12), int(rng.random() < 0.1))
            for entry in entries
        ]
        figures.sort(key=lambda f: (-f[1], -f[2]))
        keys = [(f[1], f[2]) for f in figures]
        rows = []
        for scope, extra in (("tournament", {}), ("stage", {"stage": stage})):
            rank = 0
            for index, (entry, points, daifugo, provisional) in enumerate(figures, start=1):
                if index == 1 or keys[index - 2] != keys[index - 1]:
                    rank = index
                shared = keys[rank - 1 : index + 1].count(keys[index - 1]) > 1
                rows.append(
                    Standing(
                        scope=scope,
                        tournament=tournament,
                        entry=entry,
                        player_id=entry.player_id,
                        points=points,
                        games=12,
                        metrics={**dict.fromkeys(metric_keys, 0), "daifugo": daifugo},
                        best_set=min(points, 12),
                        provisional_games=provisional,
                        confirmed_points=points,
                        rank=rank,
                        shared=shared,
                        confirmed_rank=rank,
                        confirmed_shared=shared,
                        computed_at=now,
                        results_version=1,
                        **extra,
                    )
                )
        Standing.objects.bulk_create(rows, batch_size=2000)
        for key in (f"tournament:{tournament.pk}", f"stage:{stage.pk}"):
            StandingsVersion.objects.create(key=key, version=1, computed_at=now)


def _median_ms(
    run: Callable[[], Any], repeats: int, before: Callable[[], Any] = lambda: None
) -> float:
    times = []
    for _ in range(repeats):
        before()
        started = time.perf_counter()
        run()
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


def measure(repeats: int) -> dict[str, Any]:
    """Every figure of the module docstring, for the code this process imported."""
    from django.core.cache import cache
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from tournaments.models import Stage

    stage_id = Stage.objects.get(tournament__slug=SLUG).pk
    client = Client(headers={"accept-language": "ja"})
    board = f"/standings/{SLUG}/"
    stage_board = f"/standings/{SLUG}/stage/{stage_id}/"

    def get(url: str, **headers: str) -> Any:
        response = client.get(url, headers=headers)
        assert response.status_code in (200, 204), (url, response.status_code)
        return response

    def queries(url: str, **headers: str) -> int:
        with CaptureQueriesContext(connection) as captured:
            get(url, **headers)
        return len(captured)

    figures: dict[str, Any] = {}
    figures["print_ms"] = _median_ms(lambda: get(f"{board}print/"), repeats, cache.clear)
    figures["print_bytes"] = len(get(f"{board}print/").content)
    figures["page_ms"] = _median_ms(lambda: get(board), repeats, cache.clear)
    page = get(board)
    figures["page_bytes"] = len(page.content)
    figures["cached_ms"] = _median_ms(lambda: get(board), repeats)
    figures["cached_queries"] = queries(board)
    figures["stage_ms"] = _median_ms(lambda: get(stage_board), repeats, cache.clear)

    def first_page_only() -> None:  # the whole field's figures cached, page 2 not yet
        cache.clear()
        get(stage_board)

    figures["stage_next_ms"] = _median_ms(
        lambda: get(f"{stage_board}?page=2"), repeats, first_page_only
    )
    version = page.content.decode().split('data-version="', 1)[1].split('"', 1)[0]
    poll = f"{board}?v={version}"
    get(poll, hx_request="true")  # the version is cached by the first poll
    figures["poll_ms"] = _median_ms(lambda: get(poll, hx_request="true"), repeats * 20)
    figures["poll_queries"] = queries(poll, hx_request="true")
    figures["poll_status"] = get(poll, hx_request="true").status_code
    csv_url = f"{board}standings.csv"
    figures["csv_ms"] = _median_ms(lambda: get(csv_url), repeats, cache.clear)
    figures["csv_cached_ms"] = _median_ms(lambda: get(csv_url), repeats)
    return figures


def _measure_in(tree: Path, repeats: int) -> dict[str, Any]:
    output = subprocess.run(
        [
            sys.executable,
            __file__,
            "--measure-only",
            "--tree",
            str(tree),
            "--repeats",
            str(repeats),
        ],
        check=True,
        capture_output=True,
        text=True,
        cwd=tree,
    ).stdout
    return dict(json.loads(output.strip().splitlines()[-1]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--entrants", type=int, default=10_000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--before", type=Path, help="another copy of the code to compare with")
    parser.add_argument("--tree", type=Path, default=ROOT, help=argparse.SUPPRESS)
    parser.add_argument("--measure-only", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()

    if args.measure_only:
        _setup_django(args.tree)
        print(json.dumps(measure(args.repeats)))
        return
    _create_database()
    _setup_django(ROOT)
    started = time.perf_counter()
    generate(args.entrants)
    print(f"{args.entrants:,} entrants generated in {time.perf_counter() - started:.1f} s")
    after = _measure_in(ROOT, args.repeats)
    before = _measure_in(args.before, args.repeats) if args.before else None

    def line(label: str, key: str, unit: str = "ms") -> None:
        now = after[key]
        text = f"{label:<44} {now:>10.1f} {unit}"
        if before is not None and key in before:
            then = before[key]
            ratio = then / now if now else float("inf")
            text += f"   before {then:>10.1f} {unit}   ×{ratio:,.1f} faster"
        print(text)

    print(f"median of {args.repeats} (polls: {args.repeats * 20}); Japanese pages")
    line("print page, every row", "print_ms")
    print(f"{'':<44} {after['print_bytes'] / 1024:>10.0f} KiB")
    line("board page 1, rendered (cache empty)", "page_ms")
    print(f"{'':<44} {after['page_bytes'] / 1024:>10.0f} KiB", end="")
    if before is not None:
        print(f"   before {before['page_bytes'] / 1024:>10.0f} KiB (the whole board)", end="")
    print()
    line("board page 1, second viewer (cached)", "cached_ms")
    print(f"{'':<44} {after['cached_queries']:>10d} queries")
    line("stage board page 1 with its cut, rendered", "stage_ms")
    line("stage board page 2 of the same version", "stage_next_ms")
    line("poll with the current version (204)", "poll_ms")
    print(
        f"{'':<44} {after['poll_queries']:>10d} queries, status {after['poll_status']}"
        + (f"   before {before['poll_queries']} queries" if before else "")
    )
    line("CSV export, built", "csv_ms")
    line("CSV export, cached", "csv_cached_ms")
    page_vs_print = after["print_ms"] / after["page_ms"] if after["page_ms"] else float("inf")
    poll_vs_page = after["page_ms"] / after["poll_ms"] if after["poll_ms"] else float("inf")
    print(f"page 1 vs every row: ×{page_vs_print:,.1f}; a 204 poll vs page 1: ×{poll_vs_page:,.1f}")


if __name__ == "__main__":
    main()
