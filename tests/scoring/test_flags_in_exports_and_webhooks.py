"""What machines are told: every standings row of the CSV/JSON exports (the standings API) and of
the `standings.changed` webhook says how much of it is provisional and what is confirmed, with
its deductions and warnings; the JSON and the webhook list the scope's rounds and whether each
is complete; `game.finished` says whether the result it carries is provisional."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable
from typing import Any

from django.test import Client

from games import services
from games.models import Game
from scoring import webhooks
from scoring.standings import recompute_tournament
from tests.factories import finished_game
from tests.games.conftest import Crew
from tests.scoring.conftest import Cup, Receiver, seat_round
from tournaments import services as tournament_services
from tournaments.models import Penalty, Tournament


def _played(cup: Cup) -> None:
    """Game 1 confirmed (Baba, Aoki, Chiba, Doi), game 2 provisional (Baba, Chiba, Aoki, Doi);
    Doi has a 1-point deduction and a warning."""
    (table,) = seat_round(cup.stage, cup.entries[:4])
    aoki, baba, chiba, doi = cup.entries[:4]
    finished_game(table, [baba, aoki, chiba, doi], game_number=1, confirmed=True)
    finished_game(table, [baba, chiba, aoki, doi], game_number=2)
    for kind, points in (("deduction", 1), ("warning", 0)):
        Penalty.objects.create(
            tournament=cup.tournament, entry=doi, kind=kind, points=points, reason="late"
        )
    recompute_tournament(cup.tournament.pk)


def test_json_rows_say_how_much_is_provisional(cup: Cup, client: Client) -> None:
    _played(cup)

    data = client.get("/standings/nagoya-open/standings.json").json()

    rows = {row["player"]: row for row in data["standings"]}
    assert {
        "points": 6,
        "provisional": True,
        "provisional_games": 1,
        "confirmed_points": 3,
    }.items() <= rows["Baba"].items()
    assert {
        "points": -1,
        "confirmed_points": -1,
        "penalty_points": 1,
        "warnings": 1,
    }.items() <= rows["Doi"].items()


def test_csv_rows_carry_the_same_columns(cup: Cup, client: Client) -> None:
    _played(cup)

    text = client.get("/standings/nagoya-open/standings.csv").content.decode("utf-8-sig")

    rows = {r["player"]: r for r in csv.DictReader(io.StringIO(text))}
    baba, doi = rows["Baba"], rows["Doi"]
    assert (baba["provisional_games"], baba["confirmed_points"], baba["confirmed_rank"]) == (
        "1",
        "3",
        "1",
    )
    assert (doi["points"], doi["penalty_points"], doi["warnings"]) == ("-1", "1", "1")


def test_the_json_export_lists_the_rounds_and_their_status(cup: Cup, client: Client) -> None:
    _played(cup)

    data = client.get("/standings/nagoya-open/standings.json").json()

    assert data["complete"] is False
    assert data["rounds"] == [
        {
            "tournament": "Nagoya Open 名古屋大会",
            "stage": "Qualifying 予選",
            "round": 1,
            "status": "published",
            "complete": False,
            "corrected_after_reveal": [],
        }
    ]


def _one_game_rounds(crew: Crew) -> None:
    Tournament.objects.filter(pk=crew.tournament.pk).update(sets_per_round=1, games_per_set=1)


def test_game_finished_says_whether_the_result_is_provisional(
    crew: Crew, receiver: Receiver, django_capture_on_commit_callbacks: Callable[..., Any]
) -> None:
    webhooks.create_endpoint(crew.tournament, crew.organiser, receiver.url, ["game.finished"])

    with django_capture_on_commit_callbacks(execute=True):
        game = services.start_game(crew.table, crew.referee, mode=Game.Mode.QUICK)
        services.record_quick_result(game, crew.referee, [1, 0, 2, 3])
    with django_capture_on_commit_callbacks(execute=True):
        services.correct_result(
            game,
            crew.head_referee,
            finishing_order=[0, 1, 2, 3],
            reason="score sheet misread 記入ミス",
            based_on_version=1,
        )

    recorded, corrected = (json.loads(body)["data"] for _, body in receiver.received)
    assert (recorded["provisional"], recorded["game"]["result_version"]) == (True, 1)
    assert recorded["game"]["round_status"] == "in_play"
    # A correction is a ruling: the corrected result counts as confirmed.
    assert (corrected["provisional"], corrected["game"]["result_version"]) == (False, 2)
    assert corrected["corrected_after_reveal"] is False
    assert [r["player"] for r in corrected["results"]][:2] == ["Aoki", "Baba"]


def test_standings_changed_carries_the_flags_and_the_rounds(
    crew: Crew, receiver: Receiver, django_capture_on_commit_callbacks: Callable[..., Any]
) -> None:
    _one_game_rounds(crew)
    webhooks.create_endpoint(crew.tournament, crew.organiser, receiver.url, ["standings.changed"])

    with django_capture_on_commit_callbacks(execute=True):
        game = services.start_game(crew.table, crew.referee, mode=Game.Mode.QUICK)
        services.record_quick_result(game, crew.referee, [1, 0, 2, 3])
    with django_capture_on_commit_callbacks(execute=True):
        services.confirm_game(game, crew.head_referee)
    with django_capture_on_commit_callbacks(execute=True):
        tournament_services.complete_round(crew.table.round, crew.organiser)

    events = [json.loads(body)["data"] for _, body in receiver.received]
    finished, confirmed, completed = (e for e in events if e["scope"]["kind"] == "tournament")
    assert _leader(finished) == ("Baba", 3, True, 1)
    assert _leader(confirmed) == ("Baba", 3, False, 0)
    assert [r["status"] for r in finished["rounds"]] == ["in_play"]
    assert [r["status"] for r in completed["rounds"]] == ["complete"]
    assert (finished["complete"], completed["complete"]) == (False, True)


def _leader(event: dict[str, Any]) -> tuple[object, ...]:
    row = event["standings"][0]
    return (row["player"], row["points"], row["provisional"], row["provisional_games"])
