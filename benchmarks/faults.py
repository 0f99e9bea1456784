"""The fault suite: moves streamed from several devices while PostgreSQL restarts, Redis stops,
a gunicorn worker and the Celery worker are killed; afterwards nothing may be lost or doubled.

    python benchmarks/faults.py [--rounds 3] [--devices 4] [--json report.json]
    python benchmarks/faults.py --ci        # the short run tests/faults/ makes (about a minute)
    python benchmarks/faults.py --redis-with-throttles [--outage 10]   # issue #36's case

Everything runs on 127.0.0.1 and belongs to the run: its own PostgreSQL (Debian's `initdb` and
`pg_ctl` from /usr/lib/postgresql/<version>/bin, a temporary data directory, a spare port, run
as the `postgres` user when started as root) and its own Redis (a spare port, append-only file
on, as in docker-compose.yml) — the machine's shared services are never touched. Against them,
as in production: gunicorn (config/gunicorn.conf.py, several gthread workers), a Celery worker
and beat, Redis as the broker and the cache (`REDIS_URL`), a webhook endpoint for
`game.finished` pointing at a receiver of the run's own.

The tournament has a table per game, each game a legal random one (benchmarks/api.py's
`create_games`). Each device plays its games one after another, sending `POST
/api/games/<id>/moves/` `{seq, move}`; on a connection error or a 5xx it sends the same seq
again, as a real device does (a move already applied is answered as a replay). Meanwhile, in
turn, once per round:

1. PostgreSQL restarts (`pg_ctl restart -m fast`);
2. Redis stops (SIGTERM, as `docker stop` does) for a few seconds and starts again on its port;
3. a gunicorn worker is killed with SIGKILL (the master starts another);
4. the Celery worker is killed with SIGKILL and a new one started (the killed worker's
   unacknowledged task is redelivered after the visibility timeout, seconds here).

`--redis-with-throttles` runs one fault only, a longer Redis outage, with the API throttles at
their production rates (each device its own referee and token, at a referee's pace): the
throttles count in the cache, which must fail open (config/cache.py), so every move is still
accepted, and quickly.

Then, within a bounded time after the last fault, it checks and prints: each game's move log
equals what its device sent, seq by seq (nothing lost, nothing applied twice); each finished
game has its 4 results; the standings equal the independent recount (tests/scoring/oracle.py);
each finished game's `game.finished` webhook arrived (duplicates, by `X-Kakumei-Delivery`,
are counted: delivery is at least once); the outbox is empty; `/healthz/ready` answers 200
with every process back. Figures: moves per second, and per fault the errors, the moves
accepted while it lasted and the longest a move waited.
The exit status is 1 if any check failed; the processes' logs stay in test-artifacts/faults/
(`FAULTS_WORKER_LOG_LEVEL=DEBUG` logs the Celery worker's connection handling in full). A
Celery worker that exits by itself is started again, as Compose's restart policy does, and
the exit is reported.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import pwd
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import asdict, dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
LOGS = ROOT / "test-artifacts" / "faults"
DB_NAME = "kakumei_faults"
# A move's retries (a device keeps sending the same seq) are bounded in count and in time.
MOVE_ATTEMPTS = 400
MOVE_SECONDS = 60.0
RETRY_PAUSE = 0.15
GameMoves = list[tuple[int, list[dict[str, object]]]]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_for(check: Callable[[], bool], seconds: float, pause: float = 0.2) -> bool:
    """Poll `check` until it holds or `seconds` pass; whether it held."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            if check():
                return True
        except Exception:  # a service coming back up may refuse or reset a connection
            pass
        if time.monotonic() > deadline:
            return False
        time.sleep(pause)


def port_open(port: int) -> bool:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=0.3).close()
    except OSError:
        return False
    return True


# --- the run's own PostgreSQL and Redis ------------------------------------------------------


def postgres_bin(name: str) -> str:
    """Debian's PostgreSQL binaries (not on PATH), the newest version installed."""
    versions = sorted(
        Path("/usr/lib/postgresql").glob(f"*/bin/{name}"),
        key=lambda p: int(p.parts[-3]) if p.parts[-3].isdigit() else 0,
    )
    if not versions:
        raise SystemExit(f"{name} not found under /usr/lib/postgresql/<version>/bin")
    return str(versions[-1])


class Postgres:
    """A PostgreSQL cluster of the run's own in a temporary directory, on a spare port.
    initdb refuses to run as root: as root, the cluster belongs to the `postgres` user."""

    def __init__(self, base: Path) -> None:
        self.base = base / "postgres"
        self.base.mkdir()
        self.data = self.base / "data"
        self.port = free_port()
        self.prefix: list[str] = []
        if os.geteuid() == 0:
            owner = pwd.getpwnam("postgres")
            os.chown(self.base, owner.pw_uid, owner.pw_gid)
            self.prefix = ["runuser", "-u", "postgres", "--"]
        self.url = f"postgres://postgres@127.0.0.1:{self.port}/{DB_NAME}"

    def _run(self, *command: str) -> None:
        subprocess.run(
            [*self.prefix, *command], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
        )

    def pg_ctl(self, *args: str) -> None:
        self._run(postgres_bin("pg_ctl"), "-D", str(self.data), "-l", str(self.base / "log"),
                  "-w", "-t", "60", *args)  # fmt: skip

    def start(self) -> None:
        self._run(postgres_bin("initdb"), "-D", str(self.data), "-U", "postgres", "-A", "trust",
                  "--no-sync", "-E", "UTF8", "--locale", "C")  # fmt: skip
        with (self.data / "postgresql.conf").open("a") as conf:
            conf.write(
                f"port = {self.port}\nlisten_addresses = '127.0.0.1'\n"
                f"unix_socket_directories = '{self.base}'\n"
                # Not durable against the machine crashing (fsync off: the run's data is
                # throwaway), but durable against PostgreSQL's own crash, as in production: an
                # immediate restart must not lose a commit that was acknowledged.
                "fsync = off\nfull_page_writes = off\nsynchronous_commit = on\n"
            )
        self.pg_ctl("start")
        self._run(postgres_bin("createdb"), "-h", "127.0.0.1", "-p", str(self.port),
                  "-U", "postgres", DB_NAME)  # fmt: skip

    def restart(self, mode: str = "fast") -> None:
        self.pg_ctl("restart", "-m", mode)

    def stop(self) -> None:
        if (self.data / "postmaster.pid").exists():
            self.pg_ctl("stop", "-m", "immediate")


class Redis:
    """A redis-server of the run's own on a spare port, with its append-only file as in
    production, so a stop and start keeps what the broker holds."""

    def __init__(self, base: Path) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            raise SystemExit("redis-server is not installed")
        self.binary = binary
        self.dir = base / "redis"
        self.dir.mkdir()
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None

    def url(self, db: int) -> str:
        return f"redis://127.0.0.1:{self.port}/{db}"

    def start(self) -> None:
        with (LOGS / "redis.log").open("ab") as log:
            self.process = subprocess.Popen(
                [self.binary, "--port", str(self.port), "--bind", "127.0.0.1", "--dir",
                 str(self.dir), "--appendonly", "yes", "--save", ""],
                stdout=log, stderr=log,
            )  # fmt: skip
        if not wait_for(lambda: port_open(self.port), 10, 0.05):
            raise SystemExit("redis-server did not start")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()  # Redis writes its append-only file and exits
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


# --- the application's processes -------------------------------------------------------------


def children_of(pid: int) -> list[int]:
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.append(int(stat.parent.name))
    return found


def stop_process(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


class Stack:
    """gunicorn, a Celery worker and beat on the run's PostgreSQL and Redis."""

    def __init__(
        self, database_url: str, redis: Redis, web_workers: int, throttles: bool = False
    ) -> None:
        self.port = free_port()
        self.web_workers = web_workers
        self.env = {
            **os.environ,
            **django_environment(database_url, redis, throttles),
            "GUNICORN_BIND": f"127.0.0.1:{self.port}",
            "GUNICORN_WORKERS": str(web_workers),
            "GUNICORN_THREADS": "4",
            "REDIS_URL": redis.url(1),  # the cache and sessions, as docker-compose.yml has it
            "OUTBOX_SWEEP_SECONDS": "1",
            "HEARTBEAT_SECONDS": "1",
            # A killed worker's task comes back in seconds, not the production 15 minutes.
            "CELERY_VISIBILITY_TIMEOUT": "10",
            "CELERY_UNACKED_RESTORE_SECONDS": "1",
            # Likewise a webhook whose task was lost with a dying worker is sent again in
            # seconds, not the production two minutes.
            "WEBHOOK_RESEND_SECONDS": "2",
            "WEBHOOK_UNSENT_AFTER_SECONDS": "10",
        }
        self.web_env: dict[str, str] = {}  # the web's own, as Compose's `web` has DB_POOL
        self.web: subprocess.Popen[bytes] | None = None
        self.beat: subprocess.Popen[bytes] | None = None
        self.workers: list[subprocess.Popen[bytes]] = []
        # A supervisor, as in production (Compose's restart policy, systemd's Restart=always):
        # a worker that exits by itself is started again, and the exit is reported.
        self.worker_lock = threading.Lock()
        self.unexpected_exits: list[str] = []
        self.supervising = threading.Event()

    def _spawn(
        self, name: str, *args: str, env: dict[str, str] | None = None
    ) -> subprocess.Popen[bytes]:
        with (LOGS / f"{name}.log").open("ab") as log:
            return subprocess.Popen(
                [sys.executable, "-m", *args], cwd=ROOT, env={**self.env, **(env or {})},
                stdout=log, stderr=log,
            )  # fmt: skip

    def start(self) -> None:
        self.web = self._spawn("gunicorn", "gunicorn", "-c", "config/gunicorn.conf.py",
                               "config.wsgi", env=self.web_env)  # fmt: skip
        self.start_worker()
        self.beat = self._spawn("beat", "celery", "-A", "config", "beat", "--loglevel=INFO",
                                "--schedule", str(LOGS / "beat-schedule"))  # fmt: skip
        if not wait_for(lambda: self.get("/healthz/ready")[0] == 200, 60):
            raise SystemExit(f"gunicorn did not become ready; see {LOGS / 'gunicorn.log'}")
        if not wait_for(lambda: self.worker_seen_within(3), 60):
            raise SystemExit(f"the Celery worker did not report in; see {LOGS / 'worker.log'}")

    def supervise(self, clock: Callable[[], float]) -> None:
        self.supervising.set()

        def watch() -> None:
            while self.supervising.is_set():
                with self.worker_lock:
                    exited = self.workers[-1].poll()
                    if exited is not None:
                        self.unexpected_exits.append(
                            f"Celery worker pid {self.workers[-1].pid} exited by itself with "
                            f"status {exited} at {clock():.1f} s; restarted"
                        )
                        self.start_worker()
                time.sleep(0.5)

        threading.Thread(target=watch, daemon=True).start()

    def start_worker(self) -> None:
        node = f"faults-{len(self.workers) + 1}@localhost"
        self.workers.append(
            self._spawn("worker", "celery", "-A", "config", "worker", "--pool=solo", "-Q",
                        "default", "-n", node, "--without-gossip", "--without-mingle",
                        f"--loglevel={os.environ.get('FAULTS_WORKER_LOG_LEVEL', 'INFO')}")
        )  # fmt: skip

    def web_worker_pids(self) -> list[int]:
        return [] if self.web is None else children_of(self.web.pid)

    def stop(self) -> None:
        self.supervising.clear()
        for process in [self.beat, *self.workers, self.web]:
            if process is not None:
                stop_process(process)

    def get(self, path: str) -> tuple[int, Any]:
        try:
            conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
            conn.request("GET", path)
            answer = conn.getresponse()
            data = answer.read()
            conn.close()
            return answer.status, json.loads(data) if data else None
        except (OSError, http.client.HTTPException, ValueError):
            return 0, None

    def worker_seen_within(self, seconds: float) -> bool:
        status, body = self.get("/healthz/ready")
        seen = body.get("worker_last_seen_seconds_ago") if status == 200 else None
        return seen is not None and seen <= seconds


def django_environment(database_url: str, redis: Redis, throttles: bool = False) -> dict[str, str]:
    """What this process and the stack's processes share."""
    environment = {
        "DJANGO_SETTINGS_MODULE": "benchmarks.bench_settings",
        "DATABASE_URL": database_url,
        "SECRET_KEY": "faults-" + "x" * 50,
        "DEBUG": "False",
        "CELERY_BROKER_URL": redis.url(0),
        "CELERY_RESULT_BACKEND": redis.url(0),
        "CELERY_TASK_ALWAYS_EAGER": "False",
        "WEBHOOK_ALLOW_PRIVATE_ADDRESSES": "True",  # the receiver listens on 127.0.0.1
    }
    if throttles:  # the production rates: what the environment says, else the defaults
        return environment
    # Every device here is one referee's token at a rate no real table reaches: the API
    # throttles would answer 429 and measure themselves.
    return {**environment, "API_THROTTLE_USER": "off", "API_THROTTLE_ANON": "off"}


class Receiver:
    """An HTTP server on 127.0.0.1 taking webhooks: (delivery uuid, event, body) per POST."""

    def __init__(self) -> None:
        self.received: list[tuple[str, str, dict[str, Any]]] = []
        lock = threading.Lock()
        received = self.received

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers["Content-Length"]))
                with lock:
                    received.append(
                        (
                            self.headers["X-Kakumei-Delivery"],
                            self.headers["X-Kakumei-Event"],
                            json.loads(body),
                        )
                    )
                self.send_response(200)
                self.end_headers()

            def log_message(self, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hook"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def finished_games(self) -> tuple[set[int], int]:
        """The games whose `game.finished` arrived, and how many posts repeated a delivery."""
        seen: dict[str, int] = {}
        repeats = 0
        for delivery, event, body in list(self.received):
            if event != "game.finished":
                continue
            repeats += delivery in seen
            seen[delivery] = body["data"]["game"]["id"]
        return set(seen.values()), repeats

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


# --- the devices -----------------------------------------------------------------------------


@dataclass
class Traffic:
    """What the devices saw, with times in seconds since the traffic started."""

    started: float = field(default_factory=time.monotonic)
    sent: dict[int, list[dict[str, object]]] = field(default_factory=dict)
    finished: set[int] = field(default_factory=set)
    moves: list[tuple[float, float]] = field(default_factory=list)  # (first try, answered)
    errors: list[tuple[float, str]] = field(default_factory=list)  # (when, what)
    server_errors: list[str] = field(default_factory=list)  # 5xx other than 503, with bodies
    refused: list[str] = field(default_factory=list)
    gave_up: list[str] = field(default_factory=list)
    longest_request: float = 0.0  # seconds of the slowest single HTTP request, answered or not
    lock: threading.Lock = field(default_factory=threading.Lock)

    def now(self) -> float:
        return time.monotonic() - self.started


class Device(threading.Thread):
    """One table's device: plays its games in order, each move until it is acknowledged."""

    def __init__(
        self,
        port: int,
        token: str,
        games: GameMoves,
        traffic: Traffic,
        pace: float,
        stop: threading.Event,
        until: float,
    ) -> None:
        super().__init__(daemon=True)
        self.port, self.games, self.traffic, self.pace = port, games, traffic, pace
        self.stop, self.until = stop, until
        self.ran_out = False  # played every game before the traffic was to stop
        self.headers = {"Authorization": f"Token {token}", "Content-Type": "application/json"}
        self.conn: http.client.HTTPConnection | None = None

    def run(self) -> None:
        for game_id, moves in self.games:
            sent = self.traffic.sent.setdefault(game_id, [])
            for seq, move in enumerate(moves, start=1):
                if self.stop.is_set() or time.monotonic() >= self.until:
                    return
                answer = self.submit(game_id, seq, move)
                if answer is None:
                    return
                sent.append(move)
                if answer.get("game_over"):
                    with self.traffic.lock:
                        self.traffic.finished.add(game_id)
                time.sleep(self.pace)
        self.ran_out = True

    def post(self, path: str, body: bytes) -> tuple[int, bytes]:
        if self.conn is None:
            self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        self.conn.request("POST", path, body, self.headers)
        answer = self.conn.getresponse()
        return answer.status, answer.read()

    def submit(self, game_id: int, seq: int, move: dict[str, object]) -> dict[str, Any] | None:
        traffic, path = self.traffic, f"/api/games/{game_id}/moves/"
        body = json.dumps({"seq": seq, "move": move}).encode()
        first = traffic.now()
        deadline = time.monotonic() + MOVE_SECONDS
        for _ in range(MOVE_ATTEMPTS):
            sent_at = time.monotonic()
            try:
                status, data = self.post(path, body)
            except (OSError, http.client.HTTPException) as error:
                if self.conn is not None:
                    self.conn.close()
                self.conn = None
                what = f"connection ({type(error).__name__})"
            else:
                if status in (200, 201):
                    with traffic.lock:
                        traffic.moves.append((first, traffic.now()))
                    answer: dict[str, Any] = json.loads(data)
                    return answer
                what = f"HTTP {status}"
                if status < 500:
                    with traffic.lock:
                        traffic.refused.append(f"game {game_id} seq {seq}: {status} {data[:300]!r}")
                    return None
                if status != 503:  # 503 is the answer for a database outage; others are bugs
                    with traffic.lock:
                        traffic.server_errors.append(
                            f"game {game_id} seq {seq}: {status} {data[:300]!r}"
                        )
            finally:
                with traffic.lock:
                    took = time.monotonic() - sent_at
                    traffic.longest_request = max(traffic.longest_request, took)
            with traffic.lock:
                traffic.errors.append((traffic.now(), what))
            if time.monotonic() > deadline:
                break
            time.sleep(RETRY_PAUSE)
        with traffic.lock:
            traffic.gave_up.append(f"game {game_id} seq {seq}: not acknowledged")
        return None


# --- the faults ------------------------------------------------------------------------------


@dataclass
class FaultRecord:
    name: str
    at: float  # seconds since the traffic started
    took: float  # how long the fault itself lasted (an outage) or took (a restart)
    note: str = ""
    errors: dict[str, int] = field(default_factory=dict)  # what the devices saw meanwhile
    longest_move: float = 0.0  # seconds from a move's first try to its acknowledgement
    moves_accepted: int = 0  # acknowledged while the fault lasted (an outage: while it was down)


class Faults:
    def __init__(
        self, postgres: Postgres, redis: Redis, stack: Stack, outage: float, throttles: bool
    ) -> None:
        self.postgres, self.redis, self.stack, self.outage = postgres, redis, stack, outage
        self.throttles = throttles
        self.problems: list[str] = []

    def in_turn(self) -> list[tuple[str, Callable[[], str]]]:
        if self.throttles:  # issue #36: the throttles' counters live in the cache
            return [(f"Redis stopped for {self.outage:g} s, throttles on", self.stop_redis)]
        # The Celery worker first: killed in the middle of a standings recompute, it leaves the
        # tournament's running lock behind, and the recompute waits up to RUNNING_LOCK_SECONDS
        # (scoring.tasks) for it to expire; the other faults run meanwhile.
        return [
            ("Celery worker killed (SIGKILL), a new one started", self.kill_celery_worker),
            ("PostgreSQL restart (pg_ctl restart -m fast)", self.restart_postgres),
            (f"Redis stopped for {self.outage:g} s", self.stop_redis),
            ("gunicorn worker killed (SIGKILL)", self.kill_web_worker),
        ]

    def restart_postgres(self) -> str:
        self.postgres.restart()
        return "restarted"

    def stop_redis(self) -> str:
        self.redis.stop()
        time.sleep(self.outage)
        self.redis.start()
        return "stopped and started on the same port"

    def kill_web_worker(self) -> str:
        before = self.stack.web_worker_pids()
        if not before:
            self.problems.append("gunicorn had no worker to kill")
            return "no worker"
        os.kill(before[0], signal.SIGKILL)
        started = time.monotonic()
        replaced = wait_for(
            lambda: (
                len(set(self.stack.web_worker_pids()) - set(before)) >= 1
                and len(self.stack.web_worker_pids()) == self.stack.web_workers
            ),
            30,
            0.05,
        )
        if not replaced:
            self.problems.append(f"gunicorn did not replace its killed worker {before[0]}")
            return f"killed {before[0]}; not replaced"
        return f"killed pid {before[0]}; replaced in {time.monotonic() - started:.1f} s"

    def kill_celery_worker(self) -> str:
        with self.stack.worker_lock:
            worker = self.stack.workers[-1]
            worker.kill()
            worker.wait()
            time.sleep(1)
            self.stack.start_worker()
        return f"killed pid {worker.pid}; started pid {self.stack.workers[-1].pid}"


def inject(faults: Faults, traffic: Traffic, rounds: int, gap: float) -> list[FaultRecord]:
    records = []
    # Traffic first, until games end and the worker has standings and webhooks to handle.
    wait_for(lambda: len(traffic.finished) >= 2, 60, 0.1)
    for _ in range(rounds):
        for name, fault in faults.in_turn():
            at = traffic.now()
            note = fault()
            records.append(FaultRecord(name, round(at, 2), round(traffic.now() - at, 2), note))
            time.sleep(gap)
    return records


def attribute(records: list[FaultRecord], traffic: Traffic, end: float) -> None:
    """Each fault's window runs from its start to the next fault's: the errors the devices saw
    in it and the longest a move first tried in it waited for its acknowledgement."""
    for record, following in zip(records, [*records[1:], None], strict=True):
        until = end if following is None else following.at
        record.errors = dict(
            Counter(what for when, what in traffic.errors if record.at <= when < until)
        )
        waits = [done - first for first, done in traffic.moves if record.at - 1 <= first < until]
        record.longest_move = round(max(waits, default=0.0), 2)
        record.moves_accepted = sum(
            record.at <= done <= record.at + record.took for _, done in traffic.moves
        )


# --- setup and checks (Django, in this process) ----------------------------------------------


def setup_django(database_url: str, redis: Redis, throttles: bool) -> None:
    os.environ.update(django_environment(database_url, redis, throttles))
    os.environ["CONN_MAX_AGE"] = "0"  # this process's connections must not outlive a restart
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def create_tournament(
    tables: int, receiver_url: str, referees: int
) -> tuple[list[str], GameMoves, int]:
    """`tables` games with legal random moves (benchmarks/api.py), and a `game.finished`
    webhook endpoint for their tournament; returns a device token per referee (more than one:
    the tables dealt among them as the devices will play them, each its own user, as each
    referee's phone is), the games, the tournament's id."""
    from django.contrib.auth.models import User

    from benchmarks.api import create_games
    from games.auth import issue_device_token
    from games.models import Game
    from scoring import webhooks
    from tournaments.models import Official, Table

    token, games = create_games(tables)
    tournament = Game.objects.select_related("table__round__stage").get(pk=games[0][0])
    cup = tournament.table.round.stage.tournament
    organiser = User.objects.create_user(f"faults-organiser-{time.time_ns()}")
    Official.objects.create(tournament=cup, user=organiser, role="organiser")
    webhooks.create_endpoint(cup, organiser, receiver_url, ["game.finished"])
    tokens = [token]
    for n in range(1, referees):
        referee = User.objects.create_user(f"faults-referee-{n}-{time.time_ns()}")
        Official.objects.create(tournament=cup, user=referee, role="referee")
        mine = [game_id for game_id, _ in games[n::referees]]
        Table.objects.filter(games__pk__in=mine).update(referee=referee)
        tokens.append(issue_device_token(referee, f"faults-{n}")[1])
    return tokens, games, cup.pk


@dataclass
class Report:
    devices: int
    games: int
    moves: int = 0
    traffic_seconds: float = 0.0
    moves_per_second: float = 0.0
    faults: list[FaultRecord] = field(default_factory=list)
    games_finished: int = 0
    devices_out_of_games: int = 0  # fell silent before the last fault: give them more games
    lost_moves: int = 0
    extra_moves: int = 0
    mismatched_moves: int = 0
    results_missing: int = 0
    settled_seconds: float | None = None  # after the last fault: standings, webhooks, outbox
    standings_exact: bool = False
    webhooks_missing: int = 0
    webhook_repeats: int = 0
    webhook_events_doubled: int = 0
    worker_exits: list[str] = field(default_factory=list)  # restarted by the supervisor
    outbox_waiting: int = -1
    ready_status: int = 0
    ready: dict[str, Any] = field(default_factory=dict)
    server_errors: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


def compare_logs(traffic: Traffic, report: Report) -> None:
    """Seq by seq: the stored log of each game is exactly the moves its device had
    acknowledged."""
    from games.models import Move
    from games.state import fingerprint

    for game_id, sent in traffic.sent.items():
        stored = list(
            Move.objects.filter(game_id=game_id).order_by("seq").values_list("seq", "payload")
        )
        lost = max(len(sent) - len(stored), 0)
        extra = max(len(stored) - len(sent), 0)
        wrong = sum(
            seq != number or fingerprint(payload) != fingerprint(move)
            for number, ((seq, payload), move) in enumerate(
                zip(stored, sent, strict=False), start=1
            )
        )
        report.lost_moves += lost
        report.extra_moves += extra
        report.mismatched_moves += wrong
        if lost or extra or wrong:
            report.problems.append(
                f"game {game_id}: {len(sent)} moves acknowledged, {len(stored)} stored, "
                f"{wrong} differ"
            )


def count_results(traffic: Traffic, report: Report) -> None:
    from django.db.models import Count

    from games.models import Game

    finished = Game.objects.filter(pk__in=list(traffic.sent), status="finished")
    report.games_finished = finished.count()
    if report.games_finished != len(traffic.finished):
        report.problems.append(
            f"{report.games_finished} games finished, the devices saw {len(traffic.finished)} end"
        )
    for game_id, results in finished.annotate(n=Count("results")).values_list("pk", "n"):
        if results != 4:
            report.results_missing += 1
            report.problems.append(f"game {game_id} finished with {results} results, not 4")


def standings_exact(tournament_id: int) -> bool:
    from games.models import GameResult
    from scoring.standings import ScopeRef, standings
    from tests.scoring.oracle import as_lines, recount
    from tournaments.points import DEFAULT_TIE_BREAKS

    results = GameResult.objects.filter(entry__tournament_id=tournament_id).select_related(
        "game", "entry"
    )
    counted = as_lines(standings(ScopeRef.tournament(tournament_id)))
    return counted == recount(list(results), list(DEFAULT_TIE_BREAKS))


def settle(
    tournament_id: int, receiver: Receiver, finished: set[int], seconds: float
) -> float | None:
    """Seconds until the standings are exact, every finished game's webhook arrived and the
    outbox is empty (None: not within `seconds`)."""
    from django.db import connections

    from games.models import OutboxMessage

    started = time.monotonic()

    def settled() -> bool:
        connections.close_all()
        return (
            finished <= receiver.finished_games()[0]
            and not OutboxMessage.objects.exists()
            and standings_exact(tournament_id)
        )

    if wait_for(settled, seconds, 0.5):
        return round(time.monotonic() - started, 1)
    return None


def check(
    report: Report, traffic: Traffic, receiver: Receiver, stack: Stack, tournament_id: int
) -> None:
    from games.models import OutboxMessage

    compare_logs(traffic, report)
    count_results(traffic, report)
    report.standings_exact = standings_exact(tournament_id)
    if not report.standings_exact:
        report.problems.append("the standings differ from the independent recount")
    arrived, report.webhook_repeats = receiver.finished_games()
    report.webhooks_missing = len(traffic.finished - arrived)
    if report.webhooks_missing:
        report.problems.append(
            f"no game.finished webhook for games {sorted(traffic.finished - arrived)}"
        )
    per_game = Counter(
        body["data"]["game"]["id"]
        for _, body in {d: b for d, e, b in receiver.received if e == "game.finished"}.items()
    )
    report.webhook_events_doubled = sum(n > 1 for n in per_game.values())
    if report.webhook_events_doubled:
        report.problems.append(f"{report.webhook_events_doubled} games had two game.finished")
    report.outbox_waiting = OutboxMessage.objects.count()
    if report.outbox_waiting:
        report.problems.append(f"{report.outbox_waiting} tasks still wait in the outbox")
    wait_for(lambda: stack.worker_seen_within(3), 15)
    report.ready_status, report.ready = stack.get("/healthz/ready")
    if report.ready_status != 200 or report.ready.get("status") != "ok":
        report.problems.append(f"/healthz/ready: {report.ready_status} {report.ready}")
    if not stack.worker_seen_within(3):
        exited = stack.workers[-1].poll()
        report.problems.append(
            "the new Celery worker has not reported in"
            + ("" if exited is None else f": it exited with status {exited}")
        )
    if len(stack.web_worker_pids()) != stack.web_workers:
        report.problems.append("gunicorn does not have all its workers")
    for name, process in [("beat", stack.beat), ("gunicorn", stack.web)]:
        if process is None or process.poll() is not None:
            report.problems.append(f"{name} exited")
    report.server_errors = traffic.server_errors
    report.problems += [f"HTTP 5xx: {e}" for e in traffic.server_errors[:20]]
    report.problems += [f"refused: {e}" for e in traffic.refused[:20]]
    report.problems += [f"gave up: {e}" for e in traffic.gave_up[:20]]


# --- the run ---------------------------------------------------------------------------------


@contextmanager
def services(keep: bool) -> Iterator[tuple[Postgres, Redis]]:
    base = Path(tempfile.mkdtemp(prefix="kakumei-faults-"))
    os.chmod(base, 0o755)  # the postgres user passes through to its own directory
    postgres, redis = Postgres(base), Redis(base)
    with ExitStack() as cleanup:
        if not keep:
            cleanup.callback(shutil.rmtree, base, ignore_errors=True)
        cleanup.callback(postgres.stop)
        cleanup.callback(redis.stop)
        redis.start()
        postgres.start()
        yield postgres, redis


def run(args: argparse.Namespace) -> Report:
    if LOGS.exists():
        shutil.rmtree(LOGS)
    LOGS.mkdir(parents=True)
    with services(args.keep) as (postgres, redis), ExitStack() as cleanup:
        setup_django(postgres.url, redis, args.redis_with_throttles)
        receiver = Receiver()
        cleanup.callback(receiver.close)
        referees = args.devices if args.redis_with_throttles else 1
        tokens, games, tournament_id = create_tournament(
            args.devices * args.games, receiver.url, referees
        )
        from django.db import connections

        connections.close_all()
        stack = Stack(postgres.url, redis, args.web_workers, args.redis_with_throttles)
        cleanup.callback(stack.stop)
        stack.start()

        faults = Faults(postgres, redis, stack, args.outage, args.redis_with_throttles)
        traffic = Traffic()
        stack.supervise(traffic.now)
        stop = threading.Event()  # set once the last fault is over and traffic has followed
        until = time.monotonic() + args.rounds * 4 * (args.gap + args.outage + 30) + args.gap
        devices = [
            Device(
                stack.port,
                tokens[i % len(tokens)],
                games[i :: args.devices],
                traffic,
                args.pace,
                stop,
                until,
            )
            for i in range(args.devices)
        ]
        for device in devices:
            device.start()
        records = inject(faults, traffic, args.rounds, args.gap)
        last_fault = records[-1].at + records[-1].took
        stop.set()
        for device in devices:
            device.join(MOVE_SECONDS + 5)
        traffic_seconds = traffic.now()
        attribute(records, traffic, traffic_seconds)

        report = Report(devices=args.devices, games=len(games), faults=records)
        report.devices_out_of_games = sum(d.ran_out for d in devices)
        report.moves = len(traffic.moves)
        report.traffic_seconds = round(traffic_seconds, 1)
        report.moves_per_second = round(report.moves / traffic_seconds, 1)
        report.problems += faults.problems
        report.worker_exits = stack.unexpected_exits
        report.problems += [
            f"device {i} still running" for i, d in enumerate(devices) if d.is_alive()
        ]
        settled = settle(tournament_id, receiver, set(traffic.finished), args.settle)
        if settled is not None:
            report.settled_seconds = round(traffic.now() - last_fault, 1)
        else:
            report.problems.append(f"not settled within {args.settle:g} s of the traffic's end")
        check(report, traffic, receiver, stack, tournament_id)
        return report


def print_report(report: Report) -> None:
    print(f"{report.devices} devices, {report.games} games prepared, {report.games_finished} "
          f"finished; {report.moves} moves in {report.traffic_seconds} s "
          f"({report.moves_per_second} moves/s)")  # fmt: skip
    if report.devices_out_of_games:
        print(f"{report.devices_out_of_games} devices played all their games early (--games)")
    print(f"{'fault':<52} {'at s':>6} {'took s':>7} {'moves':>6} {'stall s':>8}  "
          "errors seen by devices")  # fmt: skip
    for f in report.faults:
        errors = ", ".join(f"{what} ×{n}" for what, n in sorted(f.errors.items())) or "none"
        print(f"{f.name:<52} {f.at:>6.1f} {f.took:>7.1f} {f.moves_accepted:>6} "
              f"{f.longest_move:>8.2f}  {errors}")  # fmt: skip
    print(f"moves lost {report.lost_moves}, applied twice or extra {report.extra_moves}, "
          f"differing {report.mismatched_moves}; finished games missing results "
          f"{report.results_missing}")  # fmt: skip
    print(f"standings exact: {report.standings_exact}; settled {report.settled_seconds} s after "
          f"the last fault")  # fmt: skip
    print(f"game.finished webhooks missing {report.webhooks_missing}, repeated posts "
          f"{report.webhook_repeats} (at least once), games announced twice "
          f"{report.webhook_events_doubled}")  # fmt: skip
    print(
        f"outbox waiting {report.outbox_waiting}; /healthz/ready {report.ready_status} "
        f"{report.ready.get('status')}; HTTP 5xx other than 503: {len(report.server_errors)}"
    )
    for exit_ in report.worker_exits:
        print(f"supervisor: {exit_}")
    print(f"logs: {LOGS}")
    if report.problems:
        print("FAILED:")
        for problem in report.problems:
            print(f"  - {problem}")
    else:
        print("OK: nothing lost, nothing doubled, standings exact, webhooks delivered")


# --- the PostgreSQL immediate restart ------------------------------------------------------
#
#     python benchmarks/faults.py --postgres-restart [--ci] [--rounds 3] [--down 0] [--json r.json]
#
# PostgreSQL killed and started again (`pg_ctl restart -m immediate`: no shutdown checkpoint,
# crash recovery on start — what a crashed host or an OOM-killed postmaster costs) while the
# devices stream moves and a load balancer asks `/healthz/ready` every READY_EVERY seconds on a
# connection of its own. The web runs as Compose's does, on psycopg's pool (`DB_POOL=True`).
# The run measures, per restart: how long PostgreSQL was down (from the kill to `pg_ctl`
# seeing it accept connections), how long after that readiness and moves still answered 503
# (the 503 window), the longest wait for a move's acknowledgement, and every readiness answer's
# time. It fails if a readiness answer took READY_BOUND or longer (or none came), if readiness
# said 503 while PostgreSQL was up (outside a restart and its window), if the 503 window
# outlasted WINDOW_BOUND, if any single request took REQUEST_BOUND or longer, or if a move was
# lost, doubled or answered a 5xx other than 503.

READY_EVERY = 0.2
READY_BOUND = 1.0
WINDOW_BOUND = 3.0
REQUEST_BOUND = 2.5


class ReadinessPoller(threading.Thread):
    """A load balancer's probe: GET /healthz/ready, a new connection each time, with a client
    timeout well past READY_BOUND so that a slow answer is measured, not cut short."""

    def __init__(self, port: int, traffic: Traffic) -> None:
        super().__init__(daemon=True)
        self.port, self.traffic = port, traffic
        self.polls: list[tuple[float, int, float]] = []  # (asked at, status or 0, seconds)
        self.halt = threading.Event()

    def run(self) -> None:
        while not self.halt.is_set():
            asked, started = self.traffic.now(), time.monotonic()
            try:
                conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
                conn.request("GET", "/healthz/ready")
                status = conn.getresponse().status
                conn.close()
            except (OSError, http.client.HTTPException):
                status = 0
            self.polls.append((asked, status, round(time.monotonic() - started, 3)))
            self.halt.wait(READY_EVERY)


@dataclass
class RestartRecord:
    down_at: float  # seconds since the traffic started
    back_at: float
    down_seconds: float = 0.0
    ready_503: int = 0  # readiness polls answered 503 (or not at all) in this restart's span
    ready_window_seconds: float = 0.0  # after back_at: the last poll asked that was not 200
    move_window_seconds: float = 0.0  # after back_at: the last move answered 503
    move_503: int = 0
    longest_move: float = 0.0  # first try to acknowledgement, for moves first tried in the span
    longest_ready_answer: float = 0.0


@dataclass
class RestartReport:
    devices: int
    moves: int = 0
    restarts: list[RestartRecord] = field(default_factory=list)
    ready_polls: int = 0
    ready_answer_seconds: dict[str, float] = field(default_factory=dict)  # median, p99, max
    ready_unanswered: int = 0
    ready_503_while_up: int = 0
    longest_request: float = 0.0
    longest_move: float = 0.0
    lost_moves: int = 0
    extra_moves: int = 0
    mismatched_moves: int = 0
    server_errors: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


def measure_restarts(
    restarts: list[RestartRecord], polls: list[tuple[float, int, float]], traffic: Traffic
) -> list[str]:
    """Fill in each restart's figures from what the poller and the devices saw (a restart's
    span runs from its kill to the next one's); the polls answered 503 outside any restart and
    its WINDOW_BOUND, as problems."""
    problems = []
    spans = zip(restarts, [r.down_at for r in restarts[1:]] + [float("inf")], strict=True)
    for restart, until in spans:
        restart.down_seconds = round(restart.back_at - restart.down_at, 2)
        mine = [p for p in polls if restart.down_at <= p[0] < until]
        unready = [asked for asked, status, _ in mine if status != 200]
        restart.ready_503 = len(unready)
        restart.ready_window_seconds = round(max([a - restart.back_at for a in unready] + [0]), 2)
        restart.longest_ready_answer = max((took for _, _, took in mine), default=0.0)
        moved_503 = [
            when
            for when, what in traffic.errors
            if what == "HTTP 503" and restart.down_at <= when < until
        ]
        restart.move_503 = len(moved_503)
        restart.move_window_seconds = round(max([w - restart.back_at for w in moved_503] + [0]), 2)
        waits = [
            done - first for first, done in traffic.moves if restart.down_at - 1 <= first < until
        ]
        restart.longest_move = round(max(waits, default=0.0), 2)
    for asked, status, _ in polls:
        inside = any(r.down_at <= asked <= r.back_at + WINDOW_BOUND for r in restarts)
        if status != 200 and not inside:
            problems.append(f"/healthz/ready answered {status or 'nothing'} at {asked:.1f} s, "
                            "with PostgreSQL up")  # fmt: skip
    return problems


def restart_run(args: argparse.Namespace) -> RestartReport:
    if LOGS.exists():
        shutil.rmtree(LOGS)
    LOGS.mkdir(parents=True)
    with services(args.keep) as (postgres, redis), ExitStack() as cleanup:
        setup_django(postgres.url, redis, throttles=False)
        receiver = Receiver()
        cleanup.callback(receiver.close)
        (token,), games, _ = create_tournament(args.devices * args.games, receiver.url, 1)
        from django.db import connections

        connections.close_all()
        stack = Stack(postgres.url, redis, args.web_workers)
        # On the pool, as Compose's web service (docker-compose.yml); or on persistent
        # connections checked before each request (CONN_MAX_AGE, the default without DB_POOL).
        pool = not args.without_pool
        stack.web_env.update(DB_POOL=str(pool), CONN_MAX_AGE="0" if pool else "60")
        cleanup.callback(stack.stop)
        stack.start()

        traffic = Traffic()
        poller = ReadinessPoller(stack.port, traffic)
        stop = threading.Event()
        until = time.monotonic() + args.rounds * (args.gap + 30) + 2 * args.gap
        devices = [
            Device(stack.port, token, games[i :: args.devices], traffic, args.pace, stop, until)
            for i in range(args.devices)
        ]
        poller.start()
        for device in devices:
            device.start()
        wait_for(lambda: len(traffic.moves) >= 20, 60, 0.1)
        time.sleep(args.gap)
        restarts = []
        for _ in range(args.rounds):
            down_at = traffic.now()
            if args.down:  # a slower recovery, a host that takes longer to come back
                postgres.pg_ctl("stop", "-m", "immediate")
                time.sleep(args.down)
                postgres.pg_ctl("start")
            else:
                postgres.restart("immediate")
            restarts.append(RestartRecord(round(down_at, 2), round(traffic.now(), 2)))
            time.sleep(args.gap)
        stop.set()
        for device in devices:
            device.join(MOVE_SECONDS + 5)
        poller.halt.set()
        poller.join(15)

        report = RestartReport(devices=args.devices, restarts=restarts)
        report.problems += measure_restarts(restarts, poller.polls, traffic)
        report.moves = len(traffic.moves)
        report.ready_polls = len(poller.polls)
        answers = sorted(took for _, status, took in poller.polls if status)
        if answers:
            report.ready_answer_seconds = {
                "median": answers[len(answers) // 2],
                "p99": answers[min(len(answers) - 1, int(len(answers) * 0.99))],
                "max": answers[-1],
            }
        report.ready_unanswered = sum(status == 0 for _, status, _ in poller.polls)
        report.ready_503_while_up = len(report.problems)
        report.longest_request = round(traffic.longest_request, 2)
        report.longest_move = max((r.longest_move for r in restarts), default=0.0)
        as_fault_report = Report(devices=args.devices, games=len(games))
        compare_logs(traffic, as_fault_report)
        report.lost_moves = as_fault_report.lost_moves
        report.extra_moves = as_fault_report.extra_moves
        report.mismatched_moves = as_fault_report.mismatched_moves
        report.problems += as_fault_report.problems
        report.server_errors = traffic.server_errors
        slow = [p for p in poller.polls if p[2] >= READY_BOUND]
        if report.ready_unanswered or slow:
            report.problems.append(
                f"/healthz/ready: {report.ready_unanswered} polls unanswered, {len(slow)} took "
                f"{READY_BOUND:g} s or more (slowest {max((p[2] for p in slow), default=0):.2f} s)"
            )
        for r in restarts:
            if max(r.ready_window_seconds, r.move_window_seconds) > WINDOW_BOUND:
                report.problems.append(
                    f"restart at {r.down_at:.1f} s: 503s went on {r.ready_window_seconds} s "
                    f"(readiness), {r.move_window_seconds} s (moves) after PostgreSQL was back"
                )
        if report.longest_request >= REQUEST_BOUND:
            report.problems.append(f"a request took {report.longest_request} s")
        if report.moves < 20 * (args.rounds + 1):
            report.problems.append(f"only {report.moves} moves were acknowledged")
        report.problems += [f"HTTP 5xx: {e}" for e in traffic.server_errors[:20]]
        report.problems += [f"refused: {e}" for e in traffic.refused[:20]]
        report.problems += [f"gave up: {e}" for e in traffic.gave_up[:20]]
        return report


def print_restart_report(report: RestartReport) -> None:
    print(f"{report.devices} devices, {report.moves} moves acknowledged; "
          f"{report.ready_polls} readiness polls")  # fmt: skip
    print(f"{'restart at s':>12} {'down s':>7} {'ready 503':>9} {'503 window s (ready/moves)':>27} "
          f"{'move 503':>8} {'longest move s':>14} {'slowest ready s':>15}")  # fmt: skip
    for r in report.restarts:
        print(f"{r.down_at:>12.1f} {r.down_seconds:>7.2f} {r.ready_503:>9} "
              f"{r.ready_window_seconds:>13.2f} / {r.move_window_seconds:<11.2f} {r.move_503:>8} "
              f"{r.longest_move:>14.2f} {r.longest_ready_answer:>15.3f}")  # fmt: skip
    print(
        f"readiness answer times: {report.ready_answer_seconds}; unanswered "
        f"{report.ready_unanswered}; 503 with PostgreSQL up {report.ready_503_while_up}"
    )
    print(f"longest single request {report.longest_request} s; moves lost {report.lost_moves}, "
          f"extra {report.extra_moves}, differing {report.mismatched_moves}; HTTP 5xx other "
          f"than 503: {len(report.server_errors)}")  # fmt: skip
    print(f"logs: {LOGS}")
    if report.problems:
        print("FAILED:")
        for problem in report.problems:
            print(f"  - {problem}")
    else:
        print(f"OK: readiness answered every poll within {READY_BOUND:g} s, 503 only while "
              f"PostgreSQL was down or at most {WINDOW_BOUND:g} s after, nothing lost")  # fmt: skip


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--ci", action="store_true", help="the short run tests/faults/ makes")
    parser.add_argument(
        "--postgres-restart",
        action="store_true",
        help="only PostgreSQL immediate restarts, measuring the 503 window",
    )
    parser.add_argument("--without-pool", action="store_true",
                        help="with --postgres-restart: the web on persistent connections, "
                        "not psycopg's pool")  # fmt: skip
    parser.add_argument("--down", type=float, default=0.0,
                        help="with --postgres-restart: seconds PostgreSQL stays down between "
                        "its immediate stop and its start (0: pg_ctl restart)")  # fmt: skip
    parser.add_argument("--redis-with-throttles", action="store_true",
                        help="a Redis outage alone, throttles on (issue #36)")  # fmt: skip
    parser.add_argument("--rounds", type=int, default=3, help="times each fault is injected")
    parser.add_argument("--devices", type=int, default=4)
    parser.add_argument("--games", type=int, default=12, help="games per device")
    parser.add_argument("--web-workers", type=int, default=3)
    parser.add_argument("--pace", type=float, help="seconds between a device's moves (0.02)")
    parser.add_argument("--gap", type=float, default=4.0, help="seconds of traffic between faults")
    parser.add_argument("--outage", type=float, help="seconds Redis stays down (3)")
    parser.add_argument("--settle", type=float, default=90.0,
                        help="seconds allowed, after the traffic, to converge")  # fmt: skip
    parser.add_argument("--json", type=Path, help="also write the report here")
    parser.add_argument("--keep", action="store_true", help="keep the data directories")
    args = parser.parse_args(argv)
    if args.ci:
        args.rounds, args.devices, args.games, args.gap, args.outage = 1, 4, 8, 3.0, 2.0
        if args.postgres_restart:
            args.rounds, args.devices = 2, 3
    if args.redis_with_throttles:
        # One outage, long enough to be felt; devices at a brisk referee's pace, which the
        # production rates allow (a move every 0.1 s is at most 600 a minute, under 1200).
        args.rounds = 1
        args.outage = 10.0 if args.outage is None else args.outage
        args.pace = 0.1 if args.pace is None else args.pace
    args.outage = 3.0 if args.outage is None else args.outage
    args.pace = 0.02 if args.pace is None else args.pace
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    if args.postgres_restart:
        restarts = restart_run(args)
        print_restart_report(restarts)
        if args.json:
            args.json.write_text(json.dumps(asdict(restarts), indent=2, ensure_ascii=False))
        return 1 if restarts.problems else 0
    report = run(args)
    print_report(report)
    if args.json:
        args.json.write_text(json.dumps(asdict(report), indent=2, ensure_ascii=False))
    return 1 if report.problems else 0


if __name__ == "__main__":
    sys.exit(main())
