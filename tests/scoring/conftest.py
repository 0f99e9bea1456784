"""Shared scoring fixtures: an organiser's published tournament with seated tables."""

from __future__ import annotations

import random
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from tests.factories import (
    EntryFactory,
    OfficialFactory,
    RoundFactory,
    SeatFactory,
    StageFactory,
    TableFactory,
    TournamentFactory,
    UserFactory,
    finished_game,
)
from tests.games.conftest import crew  # noqa: F401 — the referee crew fixture, shared here
from tournaments.models import Entry, Official, Round, Stage, Table, Tournament


@dataclass
class Cup:
    tournament: Tournament
    organiser: User
    stage: Stage
    entries: list[Entry]


def seat_round(stage: Stage, entries: list[Entry], number: int = 1) -> list[Table]:
    """A published round of `stage` with `entries` seated four to a table, in order."""
    round_ = RoundFactory(
        stage=stage, number=number, status=Round.Status.PUBLISHED, published_at=timezone.now()
    )
    tables = []
    for index in range(0, len(entries), 4):
        table = TableFactory(round=round_, number=index // 4 + 1)
        for position, entry in enumerate(entries[index : index + 4], start=1):
            SeatFactory(table=table, position=position, entry=entry)
        tables.append(table)
    return tables


@pytest.fixture
def cup(db: None) -> Cup:
    organiser = UserFactory(username="org-sato")
    tournament = TournamentFactory(
        name="Nagoya Open 名古屋大会", slug="nagoya-open", status=Tournament.Status.RUNNING
    )
    OfficialFactory(tournament=tournament, user=organiser, role=Official.Role.ORGANISER)
    stage = StageFactory(tournament=tournament, order=1, name="Qualifying 予選")
    names = ["Aoki", "Baba", "Chiba", "Doi", "Endo", "Fujii", "Goto", "Hara"]
    entries = [
        EntryFactory(
            tournament=tournament,
            number=n,
            player__display_name=name,
            status=Entry.Status.CHECKED_IN,
        )
        for n, name in enumerate(names, start=1)
    ]
    return Cup(tournament, organiser, stage, entries)


def play_random_sets(
    tables: list[Table],
    rng: random.Random,
    *,
    sets: int = 2,
    games: int = 4,
    confirmed: float = 0.6,
) -> None:
    """Random finishing orders (with the odd foul and 都落ち) at every table; about a share
    `confirmed` of the games are confirmed, the others left provisional."""
    for table in tables:
        seated = [s.entry for s in table.seats.order_by("position")]
        for set_number in range(1, sets + 1):
            for game_number in range(1, games + 1):
                order = seated[:]
                rng.shuffle(order)
                finished_game(
                    table,
                    order,
                    set_number=set_number,
                    game_number=game_number,
                    points=(3, 2, 1, 0) if rng.random() < 0.7 else (5, 3, 1, -1),
                    fouls=(4,) if rng.random() < 0.2 else (),
                    miyako_ochi=4 if rng.random() < 0.1 else None,
                    confirmed=rng.random() < confirmed,
                )


@dataclass
class Receiver:
    url: str
    statuses: list[int]  # answers to give, in order; then 200
    received: list[tuple[dict[str, str], bytes]] = field(default_factory=list)


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    state = Receiver(url="", statuses=[])

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers["Content-Length"]))
            state.received.append(({k.lower(): v for k, v in self.headers.items()}, body))
            status = state.statuses.pop(0) if state.statuses else 200
            self.send_response(status)
            self.end_headers()

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    state.url = f"http://127.0.0.1:{server.server_address[1]}/hook"
    try:
        yield state
    finally:
        server.shutdown()
        server.server_close()
