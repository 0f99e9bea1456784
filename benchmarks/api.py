"""Move-submission API benchmark against gunicorn + PostgreSQL, with a bare DRF baseline.

    python benchmarks/api.py [--workers 4] [--threads 4] [--seconds 5] [--rate 100]

Creates (or reuses) the database `kakumei_bench` on 127.0.0.1, migrates it, seats many tables
with a game each and a referee device token, and precomputes a legal random game per table
with the engine. Then, against gunicorn (gthread) on 127.0.0.1 in the same run, after warming
up both endpoints on every worker:

1. baseline: saturation throughput of `POST /bench/empty/` (authenticated APIView -> `{}`,
   bench-only URLconf) with `--clients` closed-loop clients;
2. moves: saturation throughput of `POST /api/games/<id>/moves/` (each client owns its games,
   so every move is the legal next one);
   1 and 2 alternate for `--rounds` rounds (fresh games each round) and the ratio reported
   is the median of the rounds' ratios, so a load change on the machine hits both sides;
3. moves at a fixed open-loop rate (`--rate` req/s for `--seconds`): p50/p99 latency measured
   from each request's scheduled send time (queueing included). Requests rotate over many
   games, so a game's consecutive moves are seconds apart.

Targets (issue #6): p99 <= 50 ms at 100 req/s; move throughput >= 60 % of the baseline.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
DB_NAME = "kakumei_bench"
DB_URL = f"postgres://postgres@127.0.0.1:5432/{DB_NAME}"
PORT = 8765
BROKER_URL = "redis://127.0.0.1:6379/9"


def prepare_database() -> None:
    import psycopg

    with psycopg.connect("postgresql://postgres@127.0.0.1:5432/postgres", autocommit=True) as c:
        if not c.execute("SELECT 1 FROM pg_database WHERE datname = %s", [DB_NAME]).fetchone():
            c.execute(f"CREATE DATABASE {DB_NAME}")


def setup_django() -> None:
    os.environ.update(
        DJANGO_SETTINGS_MODULE="benchmarks.bench_settings",
        DATABASE_URL=DB_URL,
        SECRET_KEY="bench-" + "x" * 50,
        DEBUG="False",
    )
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def create_games(count: int) -> tuple[str, list[tuple[int, list[dict[str, object]]]]]:
    """`count` tables with a started game each; returns the token and (game id, moves)."""
    from django.contrib.auth.models import User
    from django.utils import timezone

    from games.auth import issue_device_token
    from games.engine import apply, legal_moves
    from games.engine.daifugo import move_to_json
    from games.services import start_game
    from games.state import initial_state
    from tournaments.deals import commitment_for, new_seed
    from tournaments.models import (
        Entry,
        Official,
        Player,
        Round,
        Seat,
        Stage,
        Table,
        Tournament,
    )

    stamp = str(time.time_ns())
    referee = User.objects.create_user(f"bench-{stamp}")
    cup = Tournament.objects.create(name=f"Bench {stamp}", slug=f"bench-{stamp}", status="running")
    Official.objects.create(tournament=cup, user=referee, role="referee")
    stage = Stage.objects.create(tournament=cup, order=1, name="Bench")
    seed = new_seed()
    round_ = Round.objects.create(
        stage=stage,
        number=1,
        status="published",
        published_at=timezone.now(),
        seed_secret=seed,
        seed_commitment=commitment_for(seed),
    )
    players = Player.objects.bulk_create(Player(display_name=f"P{i}") for i in range(count * 4))
    entries = Entry.objects.bulk_create(
        Entry(tournament=cup, player=p, number=i + 1) for i, p in enumerate(players)
    )
    tables = Table.objects.bulk_create(
        Table(round=round_, number=n + 1, referee=referee) for n in range(count)
    )
    Seat.objects.bulk_create(
        Seat(table=t, round=round_, entry=entries[4 * n + k], position=k + 1)
        for n, t in enumerate(tables)
        for k in range(4)
    )
    rng = random.Random(6)
    games = []
    for table in tables:
        game = start_game(table, referee)
        state = initial_state(game)
        moves = []
        while not state.is_over:
            move = rng.choice(list(legal_moves(state)))
            state, _ = apply(state, move)
            moves.append(move_to_json(move))
        games.append((game.pk, moves))
    _, raw = issue_device_token(referee, "bench")
    return raw, games


def purge_queue() -> None:
    import redis

    redis.Redis.from_url(BROKER_URL).flushdb()


def start_server(workers: int, threads: int) -> subprocess.Popen[bytes]:
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "benchmarks.bench_settings",
        "DATABASE_URL": DB_URL,
        "CONN_MAX_AGE": "600",
        # As in production: a finished game's standings job goes to the broker for a worker,
        # not run inside the request (no worker consumes it here; the queue is purged after).
        "CELERY_TASK_ALWAYS_EAGER": "False",
        "CELERY_BROKER_URL": BROKER_URL,
        "CELERY_RESULT_BACKEND": BROKER_URL,
        # One device token sends every move (up to ~200 a second), far past a real referee's
        # rate: the API throttles would measure themselves, not the move path.
        "API_THROTTLE_USER": "off",
        "API_THROTTLE_ANON": "off",
    }
    server = subprocess.Popen(
        [str(ROOT / ".venv/bin/gunicorn"), "config.wsgi", "-b", f"127.0.0.1:{PORT}",
         "-w", str(workers), "-k", "gthread", "--threads", str(threads),
         "--log-level", "warning"],
        cwd=ROOT, env=env,
    )  # fmt: skip
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            conn = http.client.HTTPConnection("127.0.0.1", PORT, timeout=2)
            conn.request("GET", "/healthz")
            conn.getresponse().read()
            return server
        except OSError:
            time.sleep(0.2)
    server.kill()
    raise SystemExit("gunicorn did not start")


class Client:
    def __init__(self, token: str) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", PORT, timeout=30)
        self.headers = {"Authorization": f"Token {token}", "Content-Type": "application/json"}

    def post(self, path: str, body: object) -> int:
        data = json.dumps(body)
        for attempt in range(2):
            try:
                self.conn.request("POST", path, data, self.headers)
                response = self.conn.getresponse()
                response.read()
                return response.status
            except (http.client.HTTPException, OSError):
                self.conn.close()  # the server closed a kept-alive connection: reconnect
                if attempt:
                    raise
        raise AssertionError


def saturate(
    token: str, clients: int, seconds: float, jobs: list[Iterator[tuple[str, object]]]
) -> tuple[float, int]:
    """Closed loop: each client sends its next request as soon as the last returns."""
    done = [0] * clients
    errors = [0] * clients
    stop = time.monotonic() + seconds

    def run(i: int) -> None:
        client = Client(token)
        for path, body in jobs[i]:
            if time.monotonic() >= stop:
                break
            status = client.post(path, body)
            done[i] += 1
            errors[i] += status >= 300

    start = time.monotonic()
    with ThreadPoolExecutor(clients) as pool:
        list(pool.map(run, range(clients)))
    elapsed = time.monotonic() - start
    return sum(done) / elapsed, sum(errors)


def fixed_rate(
    token: str, rate: float, seconds: float, games: list[tuple[int, list[dict[str, object]]]]
) -> tuple[list[float], int, float]:
    """Open loop at `rate` req/s; latency from the scheduled send time."""
    total = int(rate * seconds)
    cursor = {gid: 0 for gid, _ in games}
    plan = []
    for i in range(total):
        gid, moves = games[i % len(games)]
        seq = cursor[gid]
        cursor[gid] += 1
        plan.append((gid, seq + 1, moves[seq]))
    latencies: list[float] = []
    errors = [0]
    lock = threading.Lock()
    local = threading.local()
    t0 = time.monotonic() + 0.2

    def send(i: int) -> None:
        gid, seq, move = plan[i]
        due = t0 + i / rate
        delay = due - time.monotonic()
        if delay > 0:
            time.sleep(delay)
        if not hasattr(local, "client"):
            local.client = Client(token)
        status = local.client.post(f"/api/games/{gid}/moves/", {"seq": seq, "move": move})
        took = time.monotonic() - due
        with lock:
            latencies.append(took * 1000)
            errors[0] += status != 201

    with ThreadPoolExecutor(64) as pool:
        list(pool.map(send, range(total)))
    achieved = total / (time.monotonic() - t0)
    return latencies, errors[0], achieved


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--threads", type=int, default=4)
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--rate", type=float, default=100.0)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()

    prepare_database()
    setup_django()
    per_client = 8
    rate_games = 200
    block = args.clients * per_client
    warm_games = args.clients * 2
    token, games = create_games(warm_games + args.rounds * block + rate_games)
    warm_set, games = games[:warm_games], games[warm_games:]
    rounds_games = [games[r * block : (r + 1) * block] for r in range(args.rounds)]
    rate_set = games[args.rounds * block :]
    min_moves = min(len(m) for _, m in rate_set)
    needed = int(args.rate * args.seconds / len(rate_set)) + 1
    if needed > min_moves:
        raise SystemExit(f"need {needed} moves per game, games have {min_moves}: add games")

    def move_jobs(
        saturation_games: list[Any], i: int, per_client: int
    ) -> Iterator[tuple[str, object]]:
        """Client `i`'s games (`per_client` of them), every move in order."""
        for gid, moves in saturation_games[i * per_client : (i + 1) * per_client]:
            for seq, move in enumerate(moves, start=1):
                yield f"/api/games/{gid}/moves/", {"seq": seq, "move": move}

    def empty_jobs() -> Iterator[tuple[str, object]]:
        while True:
            yield "/bench/empty/", {"seq": 1, "move": {"seat": 0, "pass": True}}

    from django.db import connections

    connections.close_all()
    server = start_server(args.workers, args.threads)
    try:
        # Warm up every worker and connection on both endpoints (lazy imports, PostgreSQL's
        # catalog caches, prepared statements, the broker's producer pool): steady state is
        # what is compared.
        saturate(token, args.clients, 1.0, [empty_jobs() for _ in range(args.clients)])
        saturate(token, args.clients, 2.0, [move_jobs(warm_set, i, 2) for i in range(args.clients)])
        rounds: list[tuple[float, int, float, int]] = []
        for round_games in rounds_games:
            base = saturate(
                token, args.clients, args.seconds, [empty_jobs() for _ in range(args.clients)]
            )
            moves = saturate(
                token,
                args.clients,
                args.seconds,
                [move_jobs(round_games, i, per_client) for i in range(args.clients)],
            )
            rounds.append((*base, *moves))
        latencies, rate_err, achieved = fixed_rate(token, args.rate, args.seconds, rate_set)
    finally:
        server.terminate()
        server.wait(timeout=20)
        purge_queue()

    latencies.sort()
    p50 = statistics.median(latencies)
    p99 = latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))]
    print(
        f"gunicorn gthread {args.workers}x{args.threads}, {args.clients} clients, "
        f"PostgreSQL {DB_NAME}, {args.rounds} alternating rounds of {args.seconds:.0f} s"
    )
    ratios = []
    for n, (base_rps, base_err, move_rps, move_err) in enumerate(rounds, start=1):
        ratios.append(move_rps / base_rps)
        print(
            f"round {n}   baseline {base_rps:7.1f} req/s ({base_err} errors)   "
            f"moves {move_rps:7.1f} req/s ({move_err} not 201)   ratio {ratios[-1]:6.1%}"
        )
    ratio = statistics.median(ratios)
    print(f"ratio     moves / baseline: {ratio:8.1%} median   (target >= 60%)")
    print(
        f"fixed rate {args.rate:.0f} req/s for {args.seconds:.0f} s: "
        f"achieved {achieved:.1f} req/s, "
        f"{len(latencies)} requests, {rate_err} not 201"
    )
    print(f"latency   p50 {p50:6.1f} ms   p99 {p99:6.1f} ms   (target p99 <= 50 ms)")
    move_errors = sum(r[3] for r in rounds)
    ok = ratio >= 0.6 and p99 <= 50 and rate_err == 0 and move_errors == 0
    print("targets met" if ok else "targets NOT met")


if __name__ == "__main__":
    main()
