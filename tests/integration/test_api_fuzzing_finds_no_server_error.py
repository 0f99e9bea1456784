"""Fuzzing the API from its own OpenAPI schema finds no server error.

schemathesis reads /api/schema/ from gunicorn serving the test database and sends every
operation, as an organiser's device, the schema's examples, the edges of every field (the
coverage phase) and random requests (fuzzing): wrong types, missing fields, huge numbers,
strange Unicode. Every answer must be something other than a 5xx.

Random ids in paths would only meet 404s, so the database holds a tournament in mid-event
(a round revealed, a round in play with a known-deal game three moves in, a confirmed and a
provisional quick result, a penalty, officials, a device, a season of a league) and the run's
schemathesis.toml binds each path parameter to one of them; the test then checks, from the
requests sent, that the run reached most operations for real rather than stopping at 404.

The command line's output and its JSON report are saved in test-artifacts/api-fuzzing/. The
budget is short by default (about 75 s of requests); FUZZ_SECONDS, FUZZ_EXAMPLES and
FUZZ_PHASES run the same fuzzing longer (docs/api.md, "Fuzzed from the schema").
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from games import services as games
from games.auth import issue_device_token
from games.devices import issue_device
from games.models import Game
from tests.conftest import ROOT, Stack
from tests.factories import EntryFactory, OfficialFactory, UserFactory, rounds_under_way
from tournaments import services
from tournaments.models import Entry, Official, Penalty, Stage, Tournament

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

ARTIFACTS = ROOT / "test-artifacts" / "api-fuzzing"
SEED = 20250611
# The whole run's budget (fuzzing stops when it is spent), examples per operation and phase.
MAX_SECONDS = int(os.environ.get("FUZZ_SECONDS", "75"))
MAX_EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "6"))
PHASES = os.environ.get("FUZZ_PHASES", "examples,coverage,fuzzing")


@dataclass
class Scene:
    """A tournament in mid-event, with the identifiers the fuzzer's paths need."""

    token: str
    ids: dict[str, int | str]


@pytest.fixture
def scene() -> Scene:
    organiser = UserFactory(username="kimura", is_staff=True)  # staff: leagues and seasons
    head = UserFactory(username="hayashi")
    referee = UserFactory(username="mori")
    league = services.create_league(organiser, name="Kanto League 関東リーグ", slug="kanto")
    season = services.create_season(league, organiser, name="2025", slug="2025")
    cup = services.create_tournament_from_preset(
        actor=organiser, name="Fuzz Open 検証杯", slug="fuzz-open", games_per_set=2,
        sets_per_round=1, venue="Community hall 公民館",
    )  # fmt: skip
    cup.status = Tournament.Status.REGISTRATION
    cup.season = season
    cup.save()
    OfficialFactory(tournament=cup, user=head, role=Official.Role.HEAD_REFEREE)
    OfficialFactory(tournament=cup, user=referee, role=Official.Role.REFEREE)
    names = ("Aoki", "Baba", "Chiba", "Doi", "Endo", "Fujii", "Goto", "Hara", "Ishii")
    for number, name in enumerate(names, start=1):
        EntryFactory(
            tournament=cup,
            number=number,
            player__display_name=name,
            status=Entry.Status.CHECKED_IN if number <= 8 else Entry.Status.REGISTERED,
        )
    stage = cup.stages.get()
    _revealed, live, in_play, confirmed = rounds_under_way(stage, organiser, referee, head)
    assert isinstance(in_play, Game) and isinstance(confirmed, Game)
    provisional = games.start_game(confirmed.table, head, mode=Game.Mode.QUICK)
    games.record_quick_result(provisional, head, [0, 2, 1, 3])
    cut = services.add_stage(cup, organiser, name="Semi-final 準決勝", kind=Stage.Kind.CUT,
                             advance_top_n=4)  # fmt: skip
    deletable = services.add_stage(cup, organiser, name="Final 決勝", kind=Stage.Kind.FINAL,
                                   advance_top_n=3)  # fmt: skip
    penalty = services.give_penalty(
        cup.entries.get(number=1), head, kind=Penalty.Kind.WARNING, reason="slow play 遅延",
        round_=live,
    )  # fmt: skip
    # People the fuzzer may revoke, or issue sign-in cards for, without locking itself out.
    card_holder = services.add_official_person(
        cup, organiser, display_name="Nakano 中野", role=Official.Role.REFEREE
    )
    revocable = services.add_official_person(
        cup, organiser, display_name="Ono 小野", role=Official.Role.REFEREE
    )
    tablet, _ = issue_device(cup, organiser, name="Table 1 tablet", table_number=1)
    _, token = issue_device_token(organiser, "fuzzing")
    return Scene(
        token=token,
        ids={
            "slug": cup.slug,
            "stage": stage.pk,
            "cut": cut.pk,
            "deletable": deletable.pk,
            "round": live.pk,
            "table": in_play.table_id,
            "in_play": in_play.pk,
            "provisional": provisional.pk,
            "confirmed": confirmed.pk,
            "entry": cup.entries.get(number=9).pk,
            "penalty": penalty.pk,
            "card_holder": card_holder.pk,
            "revocable": revocable.pk,
            "tablet": tablet.pk,
            "league": league.pk,
            "season": season.pk,
            "player": cup.entries.get(number=1).player_id,
        },
    )


def schemathesis_toml(scene: Scene) -> str:
    """Every path parameter bound to a real object of the scene. Operations that end or remove
    something (revoking an official or a device, deleting a stage, a forfeit, a void, a
    confirmation) get objects of their own, so the rest of the run still finds what it needs."""
    ids = scene.ids

    def operation(match: str, **parameters: int | str) -> str:
        """`match` is a path regex ("^/api/…"), or names ("GET /api/…") to match exactly (a
        block's filters are alternatives: a path and a method would match every operation of
        that method)."""
        bound = ", ".join(f'"path.{name}" = {json.dumps(v)}' for name, v in parameters.items())
        if match.startswith(("^", "/")):
            include = f"include-path-regex = '{match}'"
        else:
            include = f"include-name = {json.dumps(match.split(', '))}"
        return f"[[operations]]\n{include}\nparameters = {{ {bound} }}\n"

    by_id = [
        operation("DELETE /api/stages/{id}/", id=ids["deletable"]),
        operation("GET /api/stages/{id}/, PATCH /api/stages/{id}/", id=ids["cut"]),
        operation(r"^/api/stages/\{id\}/.+", id=ids["stage"]),
        operation("^/api/rounds/", id=ids["round"]),
        operation("^/api/tables/", id=ids["table"]),
        operation("^/api/entries/", id=ids["entry"]),
        operation("^/api/leagues/", id=ids["league"]),
        operation("^/api/seasons/", id=ids["season"]),
        operation(
            r"^/api/games/\{game_id\}/(confirm|quick-result|forfeit)/",
            game_id=ids["provisional"],
        ),
        operation(
            r"^/api/games/\{game_id\}/(correction|corrections|void)",
            game_id=ids["confirmed"],
        ),
        operation(r"/officials/\{official_id\}/revoke/$", official_id=ids["revocable"]),
    ]
    operations = "\n".join(by_id)
    return f"""\
seed = {SEED}
max-time = {MAX_SECONDS}

[headers]
Authorization = "Token {scene.token}"

[generation]
max-examples = {MAX_EXAMPLES}

[parameters]
"path.slug" = "{ids["slug"]}"
"path.stage_id" = {ids["stage"]}
"path.round_id" = {ids["round"]}
"path.table_id" = {ids["table"]}
"path.game_id" = {ids["in_play"]}
"path.season_id" = {ids["season"]}
"path.official_id" = {ids["card_holder"]}
"path.penalty_id" = {ids["penalty"]}
"path.token_id" = {ids["tablet"]}
"path.player_id" = {ids["player"]}

{operations}"""


@pytest.fixture
def stack() -> Iterator[Stack]:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    running = Stack(
        ARTIFACTS,
        "api-fuzzing",
        {
            "CELERY_TASK_ALWAYS_EAGER": "True",
            "API_THROTTLE_ANON": "off",
            "API_THROTTLE_USER": "off",
            "API_THROTTLE_CREDENTIALS": "off",
            "API_THROTTLE_TABLE_PIN": "off",
            "API_THROTTLE_FAILED_CREDENTIALS": "off",
        },
    )
    try:
        running.start(worker=False, beat=False)
        yield running
    finally:
        running.stop()


def answers_by_operation(har: Path, operations: set[str]) -> dict[str, set[int]]:
    """The statuses each operation ("METHOD /path/{param}/") answered, from the HAR report.
    A path is matched to the template with the fewest parameters (/api/entries/csv-import/
    before /api/entries/{id}/); methods the schema does not list (the coverage phase tries
    some) are left out."""
    paths = sorted({name.split(" ", 1)[1] for name in operations}, key=lambda p: p.count("{"))
    templates = [(re.compile("^" + re.sub(r"\{[^}]+\}", "[^/]+", p) + "$"), p) for p in paths]
    answered: dict[str, set[int]] = defaultdict(set)
    for entry in json.loads(har.read_text())["log"]["entries"]:
        path = urlsplit(entry["request"]["url"]).path
        template = next((p for pattern, p in templates if pattern.match(path)), None)
        name = f"{entry['request']['method']} {template}"
        if name in operations:
            answered[name].add(entry["response"]["status"])
    return answered


def test_fuzzing_every_operation_finds_no_server_error(
    scene: Scene, stack: Stack, tmp_path: Path
) -> None:
    config = tmp_path / "schemathesis.toml"
    config.write_text(schemathesis_toml(scene))
    (ARTIFACTS / "schemathesis.toml").write_text(
        config.read_text().replace(scene.token, "[the test's device token]")
    )
    st = Path(sys.executable).parent / "st"
    command = [
        str(st), "--config-file", str(config), "--no-color", "run",
        f"{stack.origin}/api/schema/", "--checks", "not_a_server_error",
        "--phases", PHASES,
        "--report", "json,har", "--report-dir", str(tmp_path),
        "--report-json-path", str(ARTIFACTS / "report.json"),
        "--report-har-path", str(tmp_path / "requests.har"),
    ]  # fmt: skip
    run = subprocess.run(
        command, cwd=tmp_path, capture_output=True, text=True, timeout=MAX_SECONDS + 300
    )
    (ARTIFACTS / "output.txt").write_text(run.stdout + run.stderr)

    report = json.loads((ARTIFACTS / "report.json").read_text())
    assert run.returncode == 0, f"see {ARTIFACTS / 'output.txt'}:\n{run.stdout[-4000:]}"
    assert report["failures"] == [] and report["errors"] == []
    assert report["operations"]["tested"] == report["operations"]["total"]

    # It reached the API for real: every operation was sent requests, and nearly all of them
    # answered something other than 404 (a real object found: a 2xx, or a refusal of the
    # request's body or of the object's state).
    schema = stack.request("GET", "/api/schema/?format=json")[1]
    operations = {
        f"{method.upper()} {path}"
        for path, item in schema["paths"].items()
        for method in item
        if method in ("get", "post", "put", "patch", "delete")
    }
    answered = answers_by_operation(tmp_path / "requests.har", operations)
    assert set(answered) == operations
    found = {name for name, statuses in answered.items() if statuses - {404}}
    succeeded = {name for name, statuses in answered.items() if any(s < 300 for s in statuses)}
    assert len(found) >= 0.9 * len(operations), sorted(operations - found)
    assert len(succeeded) >= 0.5 * len(operations), sorted(operations - succeeded)
