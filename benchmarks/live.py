"""Referees streaming moves while live viewers watch: does watching cost the referees anything?

    python benchmarks/live.py [--viewers 0,100,1000] [--seconds 15] [--rate 50] [--referees 20]
                              [--repeats 3]

The production process layout (docs/live.md), all on 127.0.0.1:

- gunicorn with config/gunicorn.conf.py (4 workers × 4 threads): moves and the live page;
- the live process, uvicorn running config.asgi: the SSE streams;
- one Celery worker (concurrency 1): standings as games end;
- PostgreSQL, database `kakumei_bench_live` (created if missing, reused);
- Redis: database 12 the broker, database 13 the cache and the live channel — under a key
  prefix of this run's own; the run deletes its own keys and queue at the end, nothing else.

`--repeats` rounds go over the K levels in turn (0, 100, 1,000, 0, 100, …) and each K's
figures are the median of its runs (each run's in brackets): on a small shared machine one
run's p99 can be a single stall of the machine. For each K, a child process (asyncio) opens K
SSE streams (`/api/tables/<id>/events/`) and runs K/10 pollers of the public live page
(htmx-style, every 2 s, sending the version they show), spread over the tables in play. While
they watch:

1. throughput: `--referees` closed-loop referee clients stream moves for `--seconds`
   (each plays its own games to the end, then the next);
2. latency: moves at a fixed open-loop `--rate` for `--seconds`; p50/p99 measured from each
   move's scheduled send time (queueing included).

The phases start once every stream is open and has received its opening version (the time to
open them all is printed: a one-off cost, not what watching costs). Each viewer notes when a
table's new version is pushed to it; the delay from the move's answer (the referee's 201) to
the viewer seeing the version is reported, with the pollers' answers.
Targets (issue #14): with K = 1,000, throughput >= 80 % of K = 0's in the same run, p99 <=
100 ms at 50 moves/s, and viewers see a change within 1 s.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import http.client
import json
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
DB_NAME = "kakumei_bench_live"
DB_URL = f"postgres://postgres@127.0.0.1:5432/{DB_NAME}"
BROKER_URL = "redis://127.0.0.1:6379/12"
REDIS_URL = "redis://127.0.0.1:6379/13"
WEB_PORT = 8771
LIVE_PORT = 8772
PREFIX = f"bench-live-{os.getpid()}-{time.time_ns()}"
QUEUE = f"{PREFIX}-standings"


def environment() -> dict[str, str]:
    return {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "benchmarks.bench_settings",
        "DATABASE_URL": DB_URL,
        "SECRET_KEY": "bench-" + "x" * 50,
        "DEBUG": "False",
        "CONN_MAX_AGE": "600",
        "REDIS_URL": REDIS_URL,
        "CACHE_KEY_PREFIX": PREFIX,
        "CELERY_TASK_ALWAYS_EAGER": "False",
        "CELERY_BROKER_URL": BROKER_URL,
        "CELERY_RESULT_BACKEND": BROKER_URL,
        "CELERY_TASK_DEFAULT_QUEUE": QUEUE,
        "LIVE_FEED_SECONDS": "300",
        # Every viewer and the one device token come from 127.0.0.1, far past a venue's rates.
        "API_THROTTLE_USER": "off",
        "API_THROTTLE_ANON": "off",
        "GUNICORN_ACCESS_LOG": "/dev/null",
        "LOG_LEVEL": "WARNING",
    }


# --- set-up ------------------------------------------------------------------------------


def prepare() -> None:
    import psycopg

    with psycopg.connect("postgresql://postgres@127.0.0.1:5432/postgres", autocommit=True) as c:
        if not c.execute("SELECT 1 FROM pg_database WHERE datname = %s", [DB_NAME]).fetchone():
            c.execute(f"CREATE DATABASE {DB_NAME}")
    os.environ.update(environment())
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


Game = tuple[int, int, list[dict[str, object]]]  # game id, table id, its moves in order


def create_games(count: int) -> tuple[str, list[Game]]:
    """`count` tables with a started game each and a legal random game to play on each
    (benchmarks/api.py's set-up), with the table of each game."""
    from api import create_games as create_api_games

    from games.models import Game as GameRow

    token, games = create_api_games(count)
    tables = dict(GameRow.objects.filter(pk__in=[g for g, _ in games]).values_list("pk", "table"))
    return token, [(game_id, tables[game_id], moves) for game_id, moves in games]


# --- processes ---------------------------------------------------------------------------


def wait_for(port: int, path: str, proc: subprocess.Popen[bytes], name: str) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"{name} exited with {proc.returncode}")
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            conn.request("GET", path)
            conn.getresponse().read()
            return
        except OSError:
            time.sleep(0.2)
    proc.kill()
    raise SystemExit(f"{name} did not start")


def start_processes() -> list[subprocess.Popen[bytes]]:
    env = environment()
    venv = ROOT / ".venv/bin"
    web = subprocess.Popen(
        [str(venv / "gunicorn"), "-c", "config/gunicorn.conf.py", "-b", f"127.0.0.1:{WEB_PORT}",
         "--log-level", "warning", "config.wsgi"],
        cwd=ROOT, env=env,
    )  # fmt: skip
    live = subprocess.Popen(
        [str(venv / "uvicorn"), "config.asgi:application", "--host", "127.0.0.1",
         "--port", str(LIVE_PORT), "--log-level", "warning", "--no-access-log",
         "--timeout-graceful-shutdown", "1"],
        cwd=ROOT, env=env,
    )  # fmt: skip
    worker = subprocess.Popen(
        [str(venv / "celery"), "-A", "config", "worker", "-Q", QUEUE, "--concurrency", "1",
         "--loglevel", "WARNING", "--without-gossip", "--without-mingle", "-n", f"{PREFIX}@%h"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
    )  # fmt: skip
    processes = [web, live, worker]
    try:
        wait_for(WEB_PORT, "/healthz", web, "gunicorn")
        wait_for(LIVE_PORT, "/healthz", live, "uvicorn")
    except BaseException:
        stop_processes(processes)
        raise
    return processes


def stop_processes(processes: list[subprocess.Popen[bytes]]) -> None:
    for proc in processes:
        proc.terminate()
    for proc in processes:
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()


def delete_own_keys() -> None:
    """This run's cache keys and queue only: the Redis databases may hold others' data."""
    import redis

    cache = redis.Redis.from_url(REDIS_URL)
    for key in cache.scan_iter(f"{PREFIX}*"):
        cache.delete(key)
    broker = redis.Redis.from_url(BROKER_URL)
    for key in broker.scan_iter(f"*{QUEUE}*"):
        broker.delete(key)


# --- referees ----------------------------------------------------------------------------


class Referee:
    def __init__(self, token: str) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", WEB_PORT, timeout=30)
        self.headers = {"Authorization": f"Token {token}", "Content-Type": "application/json"}

    def move(self, game_id: int, seq: int, move: object) -> int:
        data = json.dumps({"seq": seq, "move": move})
        for attempt in range(2):
            try:
                self.conn.request("POST", f"/api/games/{game_id}/moves/", data, self.headers)
                response = self.conn.getresponse()
                response.read()
                return response.status
            except (http.client.HTTPException, OSError):
                self.conn.close()  # a kept-alive connection closed by the server: reconnect
                if attempt:
                    raise
        raise AssertionError


Acks = dict[tuple[int, int], float]  # (game id, seq) -> wall time of the 201


def saturate(token: str, referees: list[list[Game]], seconds: float, acks: Acks) -> dict[str, Any]:
    """Closed loop: each referee sends its next move as soon as the last is answered."""
    done = [0] * len(referees)
    refused = [0] * len(referees)
    stop = time.monotonic() + seconds

    def run(i: int) -> None:
        client = Referee(token)
        for game_id, _, moves in referees[i]:
            for seq, move in enumerate(moves, start=1):
                if time.monotonic() >= stop:
                    return
                status = client.move(game_id, seq, move)
                acks[(game_id, seq)] = time.time()
                done[i] += 1
                refused[i] += status != 201

    start = time.monotonic()
    with ThreadPoolExecutor(len(referees)) as pool:
        list(pool.map(run, range(len(referees))))
    elapsed = time.monotonic() - start
    return {"moves_per_s": sum(done) / elapsed, "moves": sum(done), "refused": sum(refused)}


def fixed_rate(
    token: str, games: list[Game], rate: float, seconds: float, acks: Acks
) -> dict[str, Any]:
    """Open loop at `rate` moves/s over `games` in turn; latency from the scheduled time."""
    total = int(rate * seconds)
    next_seq = dict.fromkeys((g for g, _, _ in games), 0)
    plan = []
    for i in range(total):
        game_id, _, moves = games[i % len(games)]
        if next_seq[game_id] < len(moves):
            plan.append((game_id, next_seq[game_id] + 1, moves[next_seq[game_id]]))
            next_seq[game_id] += 1
    latencies: list[float] = []
    refused = [0]
    lock = threading.Lock()
    local = threading.local()
    t0 = time.monotonic() + 0.2

    def send(i: int) -> None:
        game_id, seq, move = plan[i]
        due = t0 + i / rate
        delay = due - time.monotonic()
        if delay > 0:
            time.sleep(delay)
        if not hasattr(local, "client"):
            local.client = Referee(token)
        status = local.client.move(game_id, seq, move)
        acks[(game_id, seq)] = time.time()
        took = (time.monotonic() - due) * 1000
        with lock:
            latencies.append(took)
            refused[0] += status != 201

    with ThreadPoolExecutor(64) as pool:
        list(pool.map(send, range(len(plan))))
    latencies.sort()
    return {
        "achieved": len(plan) / (time.monotonic() - t0),
        "p50": statistics.median(latencies),
        "p99": latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))],
        "refused": refused[0],
    }


# --- viewers (the child process) ---------------------------------------------------------


async def _read_head(reader: asyncio.StreamReader) -> tuple[int, dict[str, str]]:
    status_line = await reader.readline()
    if not status_line:
        raise ConnectionError("closed")
    status = int(status_line.split()[1])
    headers = {}
    while (line := await reader.readline()) not in (b"\r\n", b"\n", b""):
        name, _, value = line.decode("latin-1").partition(":")
        headers[name.strip().lower()] = value.strip()
    return status, headers


async def _chunks(reader: asyncio.StreamReader, headers: dict[str, str]) -> Any:
    """The body's bytes as they arrive (chunked transfer encoding or until close)."""
    if headers.get("transfer-encoding", "").lower() == "chunked":
        while True:
            size = int((await reader.readline()).split(b";")[0], 16)
            if size == 0:
                await reader.readline()
                return
            data = await reader.readexactly(size)
            await reader.readline()
            yield data
    else:
        while data := await reader.read(65536):
            yield data


async def sse_viewer(
    table_id: int,
    events: list[tuple[int, str, float]],
    stop: asyncio.Event,
    connected: asyncio.Semaphore,
) -> None:
    """One EventSource: reconnects with the version it saw, as a browser does. The version a
    stream opens with is not a change it was told of: only the later ones go to `events`."""
    seen = ""
    first_time = True
    while not stop.is_set():
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", LIVE_PORT)
            query = f"?v={seen}" if seen else ""
            writer.write(
                f"GET /api/tables/{table_id}/events/{query} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                "Accept: text/event-stream\r\n\r\n".encode()
            )
            await writer.drain()
            status, headers = await _read_head(reader)
            if status != 200:
                raise ConnectionError(f"status {status}")
            buffer = b""
            kind = ""
            opening = True
            async for data in _chunks(reader, headers):
                buffer += data
                while b"\n" in buffer:
                    line, buffer = buffer.split(b"\n", 1)
                    text = line.decode().rstrip("\r")
                    if text.startswith("event:"):
                        kind = text[6:].strip()
                    elif text.startswith("data:") and kind == "table":
                        version = json.loads(text[5:])["version"]
                        seen = version
                        if opening:
                            opening = False
                            if first_time:
                                first_time = False
                                connected.release()
                        else:
                            events.append((table_id, version, time.time()))
                if stop.is_set():
                    break
            writer.close()
        except (OSError, ConnectionError, ValueError, asyncio.IncompleteReadError):
            await asyncio.sleep(0.5)


async def poller(
    table_id: int, answers: dict[str, int], latencies: list[float], stop: asyncio.Event
) -> None:
    """The live page's htmx poll: every 2 s, with the version it shows."""
    version = ""
    reader = writer = None
    await asyncio.sleep((table_id % 20) / 10)  # not all at the same instant
    while not stop.is_set():
        try:
            if writer is None:
                reader, writer = await asyncio.open_connection("127.0.0.1", WEB_PORT)
            assert reader is not None
            query = f"?v={version}" if version else ""
            started = time.monotonic()
            writer.write(
                f"GET /tables/{table_id}/live/{query} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                "HX-Request: true\r\nAccept-Language: ja\r\n\r\n".encode()
            )
            await writer.drain()
            status, headers = await _read_head(reader)
            body = b""
            if status != 204:
                body = await reader.readexactly(int(headers.get("content-length", "0")))
            latencies.append((time.monotonic() - started) * 1000)
            answers[str(status)] = answers.get(str(status), 0) + 1
            if status == 200:
                etag = headers.get("etag", "").strip('W/"')
                found = re.search(rb"[?&]v=([\w.\-]+)", body)
                version = etag or (found.group(1).decode() if found else "")
            if headers.get("connection", "").lower() == "close":
                writer.close()
                reader = writer = None
        except (OSError, ConnectionError, ValueError, asyncio.IncompleteReadError):
            if writer is not None:
                writer.close()
            reader = writer = None
        await asyncio.sleep(2)


async def watch(tables: list[int], viewers: int, pollers: int, out: str) -> None:
    stop = asyncio.Event()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
    events: list[tuple[int, str, float]] = []
    answers: dict[str, int] = {}
    latencies: list[float] = []
    connected = asyncio.Semaphore(0)
    started = time.monotonic()
    tasks = [asyncio.create_task(sse_viewer(tables[i % len(tables)], events, stop, connected))
             for i in range(viewers)]  # fmt: skip
    # Measured once every stream is open and has its first version: opening streams is a
    # one-off cost, not what watching costs the referees.
    with contextlib.suppress(TimeoutError):
        async with asyncio.timeout(120):
            for _ in range(viewers):
                await connected.acquire()
    print(f"ready {time.monotonic() - started:.2f}", flush=True)
    tasks += [asyncio.create_task(poller(tables[i % len(tables)], answers, latencies, stop))
              for i in range(pollers)]  # fmt: skip
    await stop.wait()
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    latencies.sort()
    Path(out).write_text(
        json.dumps(
            {
                "events": events,
                "answers": answers,
                "poll_p50": statistics.median(latencies) if latencies else None,
                "poll_p99": latencies[int(len(latencies) * 0.99)] if latencies else None,
            }
        )
    )


def child_main(args: argparse.Namespace) -> None:
    tables = [int(t) for t in args.child_tables.split(",")]
    try:
        import uvloop

        uvloop.install()
    except ImportError:
        pass
    asyncio.run(watch(tables, args.child_viewers, args.child_pollers, args.child_out))


def start_viewers(tables: list[int], viewers: int, out: str) -> subprocess.Popen[bytes] | None:
    if viewers == 0:
        return None
    child = subprocess.Popen(
        [sys.executable, __file__, "--child-tables", ",".join(map(str, tables)),
         "--child-viewers", str(viewers), "--child-pollers", str(viewers // 10),
         "--child-out", out],
        stdout=subprocess.PIPE, cwd=ROOT,
    )  # fmt: skip
    assert child.stdout is not None
    ready, _, took = child.stdout.readline().decode().partition(" ")
    if ready != "ready":
        raise SystemExit("the viewers did not start")
    print(f"K={viewers}: every stream open in {float(took):.1f} s", flush=True)
    time.sleep(2)  # the pollers' first answers
    return child


def stop_viewers(child: subprocess.Popen[bytes] | None, out: str) -> dict[str, Any]:
    if child is None:
        return {"events": [], "answers": {}, "poll_p50": None, "poll_p99": None}
    child.send_signal(signal.SIGTERM)
    child.wait(timeout=60)
    result: dict[str, Any] = json.loads(Path(out).read_text())
    return result


def seen_delays(events: list[list[Any]], games: dict[int, int], acks: Acks) -> list[float]:
    """For each version a viewer received: seconds from the move's 201 to its arrival. A
    table's version is "<game id>.<game version>" and each move adds one to the version."""
    delays = []
    for table_id, version, received in events:
        game_part, _, number = version.split("-")[0].partition(".")
        if not number or int(game_part) != games.get(table_id):
            continue
        acked = acks.get((int(game_part), int(number)))
        if acked is not None:
            delays.append(max(0.0, received - acked))
    return sorted(delays)


# --- the run -----------------------------------------------------------------------------


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--viewers", default="0,100,1000")
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--rate", type=float, default=50.0)
    parser.add_argument("--referees", type=int, default=20)
    parser.add_argument("--repeats", type=int, default=3, help="rounds over the K levels")
    parser.add_argument("--child-tables", help=argparse.SUPPRESS)
    parser.add_argument("--child-viewers", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--child-pollers", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--child-out", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child_tables:
        child_main(args)
        return

    levels = [int(k) for k in args.viewers.split(",")]
    per_referee = 4  # games each referee may play through in the throughput phase
    rate_games = 40  # the fixed-rate phase rotates over these (a game's moves ~0.8 s apart)
    per_level = args.referees * per_referee + rate_games
    warm = args.referees
    runs = [viewers for _ in range(args.repeats) for viewers in levels]
    prepare()
    token, games = create_games(warm + per_level * len(runs))
    game_of_table = {t: g for g, t, _ in games}
    from django.db import connections

    connections.close_all()
    processes = start_processes()
    results: dict[int, list[Run]] = {viewers: [] for viewers in levels}
    try:
        warm_acks: Acks = {}
        saturate(token, [[g] for g in games[:warm]], 3.0, warm_acks)
        for n, viewers in enumerate(runs):
            block = games[warm + n * per_level : warm + (n + 1) * per_level]
            sat_games, rate_set = block[:-rate_games], block[-rate_games:]
            referees = [sat_games[i :: args.referees] for i in range(args.referees)]
            out = tempfile.mktemp(prefix="kakumei-live-viewers-", suffix=".json")
            child = start_viewers([t for _, t, _ in block], viewers, out)
            acks: Acks = {}
            try:
                throughput = saturate(token, referees, args.seconds, acks)
                latency = fixed_rate(token, rate_set, args.rate, args.seconds, acks)
                time.sleep(1.5)  # the last versions reach the viewers
            finally:
                watched = stop_viewers(child, out)
            delays = seen_delays(watched["events"], game_of_table, acks)
            results[viewers].append(Run(throughput, latency, watched, delays))
            print(
                f"  run {n + 1}/{len(runs)}: K={viewers} {throughput['moves_per_s']:.1f} moves/s, "
                f"p99 {latency['p99']:.1f} ms at {args.rate:.0f}/s",
                flush=True,
            )
    finally:
        stop_processes(processes)
        delete_own_keys()
    report(args, levels, results)


class Run:
    def __init__(
        self,
        throughput: dict[str, Any],
        latency: dict[str, Any],
        watched: dict[str, Any],
        delays: list[float],
    ) -> None:
        self.throughput, self.latency, self.watched, self.delays = (
            throughput,
            latency,
            watched,
            delays,
        )


def report(args: argparse.Namespace, levels: list[int], results: dict[int, list[Run]]) -> None:
    """Per K, the median over the repeats (each repeat's figure in brackets): on a small
    shared machine one run's p99 can be one stall of the machine, not the viewers' doing."""
    print(
        f"gunicorn (config/gunicorn.conf.py: 4 workers x 4 threads) + uvicorn live process + "
        f"1 Celery worker, PostgreSQL {DB_NAME}, Redis; {args.referees} referees, "
        f"{args.seconds:.0f} s per phase, median of {args.repeats} repeat(s)"
    )

    def median(runs: list[Run], figure: Any) -> tuple[float, str]:
        values = [figure(r) for r in runs]
        return statistics.median(values), " ".join(f"{v:.1f}" for v in values)

    base, _ = median(results[levels[0]], lambda r: r.throughput["moves_per_s"])
    ok = True
    for viewers in levels:
        runs = results[viewers]
        moves, each_moves = median(runs, lambda r: r.throughput["moves_per_s"])
        p50, _ = median(runs, lambda r: r.latency["p50"])
        p99, each_p99 = median(runs, lambda r: r.latency["p99"])
        refused = sum(r.throughput["refused"] + r.latency["refused"] for r in runs)
        ratio = moves / base
        print(
            f"K={viewers:<5} throughput {moves:6.1f} moves/s [{each_moves}] ({ratio:6.1%} of "
            f"K={levels[0]})   at {args.rate:.0f}/s: p50 {p50:6.1f} ms, p99 {p99:6.1f} ms "
            f"[{each_p99}]; {refused} refused"
        )
        delays = sorted(d for r in runs for d in r.delays)
        if viewers:
            answers: dict[str, int] = {}
            for r in runs:
                for status, count in r.watched["answers"].items():
                    answers[status] = answers.get(status, 0) + count
            poll_p99, _ = median(runs, lambda r: r.watched["poll_p99"] or 0.0)
            seen = (
                f"p50 {statistics.median(delays) * 1000:6.1f} ms, "
                f"p99 {delays[int(len(delays) * 0.99)] * 1000:6.1f} ms, "
                f"max {delays[-1] * 1000:6.1f} ms over {len(delays)} deliveries"
                if delays
                else "no deliveries matched"
            )
            print(
                f"        {viewers} SSE viewers saw each change: {seen}; "
                f"{viewers // 10} pollers: {answers}, p99 {poll_p99:.1f} ms"
            )
        if viewers >= 1000:
            ok &= ratio >= 0.8 and p99 <= 100 and bool(delays) and delays[-1] <= 1.0
    if max(levels) < 1000:
        print("targets are for K = 1,000 viewers: not checked")
    else:
        print("targets met" if ok else "targets NOT met")


if __name__ == "__main__":
    main()
