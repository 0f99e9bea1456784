"""Issue #35 §7: a game at a table of 3 or 5 (an uneven field) keeps its record like a table of
4. Its record's rules name the seat count (the `seats` override), so the game downloads,
imports as another table's game, replays to the same placings, and runs offline on the
referee's phone; the console offers offline mode exactly when it can provide it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.test import Client

from games import offline, services
from games.engine.family import ruleset_from_record
from games.imports import import_records
from games.models import Game
from games.offline_views import offline_seed
from games.records import game_record
from games.replay import replay_position
from tests.factories import (
    DAIZAIBATSU_SET,
    GameFactory,
    OfficialFactory,
    UserFactory,
    daizaibatsu_table,
    play_to_the_end,
    seated_table,
)
from tournaments.models import Official, Table, Tournament

pytestmark = pytest.mark.django_db

NAMES = ("Aoki", "Baba", "Chiba", "Doi", "Endo")


def table_of(seats: int, username: str, **kw: object) -> Table:
    """A table of `seats` players under jdf@1; `username` is its tournament's organiser."""
    organiser = UserFactory(username=username)
    table = seated_table(
        organiser,
        names=NAMES[:seats],
        stage__tournament__status=Tournament.Status.RUNNING,
        **kw,
    )
    OfficialFactory(
        tournament=table.round.stage.tournament, user=organiser, role=Official.Role.ORGANISER
    )
    return table


def cli_placings(record: dict[str, object], tmp_path: Path) -> dict[int, int]:
    """The placings `python -m games.engine replay` gives the record, in its own process, as
    a tool author replays a download."""
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "games.engine", "replay", str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    replayed = json.loads(done.stdout)
    assert replayed["finished"] is True
    return {p["seat"]: p["place"] for p in replayed["placings"]}


def placings(game: Game) -> dict[int, int]:
    return dict(game.results.values_list("seat", "place"))


@pytest.mark.parametrize("seats", [3, 5])
def test_a_game_exports_imports_and_replays_to_the_same_placings(
    seats: int, tmp_path: Path
) -> None:
    table = table_of(seats, f"org-{seats}")
    organiser = table.referee
    game = services.start_game(table, organiser)  # type: ignore[arg-type]
    play_to_the_end(game, organiser)
    game.refresh_from_db()
    played = placings(game)
    assert sorted(played.values()) == list(range(1, seats + 1))

    record = game_record(game, hands=True)
    assert record["seats"] == seats
    assert record["rules"] == {"preset": "jdf@1", "overrides": {"seats": seats}}
    assert ruleset_from_record(record["rules"]).seats == seats
    assert cli_placings(record, tmp_path) == played
    download = Client().get(f"/api/games/{game.pk}/record/")
    assert download.status_code == 200
    assert download.json()["rules"] == record["rules"]
    round_ = table.round
    page = Client().get(f"/tournaments/{round_.stage.tournament.slug}/rounds/{round_.pk}/")
    assert f"/games/{game.pk}/record.json" in page.content.decode()

    elsewhere = table_of(seats, f"org-elsewhere-{seats}")
    [outcome] = import_records(elsewhere, elsewhere.referee, [record])  # type: ignore[arg-type]
    assert outcome.status == "imported", (outcome.code, outcome.message_en)
    imported = Game.objects.get(pk=outcome.game.pk if outcome.game else None)
    assert imported.seats == seats
    assert placings(imported) == played
    position = replay_position(imported, imported.last_seq)
    assert position["number"] == position["total"] == imported.last_seq
    assert game_record(imported, hands=True)["rules"] == record["rules"]


@pytest.mark.parametrize("seats", [3, 5])
def test_a_record_for_another_seat_count_is_refused_by_the_table(seats: int) -> None:
    table = table_of(seats, f"org-{seats}")
    game = services.start_game(table, table.referee)  # type: ignore[arg-type]
    play_to_the_end(game, table.referee)
    record = game_record(game, hands=True)

    four = table_of(4, "org-four")
    [outcome] = import_records(four, four.referee, [record])  # type: ignore[arg-type]

    assert (outcome.status, outcome.code) == ("refused", "seats_mismatch")
    assert not Game.objects.filter(table=four).exists()


# Hand-made deals, every play a single rising one rank and changing suit (JDF locks a suit on
# the first match), no 8 (8切り), 2 or joker (反則あがり). Places follow from the rules alone:
# the order in which the hands run out, the last seat holding cards last.
SMALL = {
    3: {
        "hands": [["3D", "7S"], ["4H", "9D", "KC"], ["5C", "TH"]],
        # 3D 4H 5C, then 7S (seat 0 out), 9D, TH (seat 2 out): seat 1 is left with KC.
        "taps": [(0, "3D"), (1, "4H"), (2, "5C"), (0, "7S"), (1, "9D"), (2, "TH")],
        "places": {0: 1, 2: 2, 1: 3},
    },
    5: {
        "hands": [["3D", "9S"], ["4H", "TD"], ["5C", "JH"], ["6S", "QC"], ["7D", "KS"]],
        "taps": [
            (0, "3D"), (1, "4H"), (2, "5C"), (3, "6S"), (4, "7D"),
            (0, "9S"), (1, "TD"), (2, "JH"), (3, "QC"),
        ],
        "places": {0: 1, 1: 2, 2: 3, 3: 4, 4: 5},
    },
}  # fmt: skip


def judge(seed: dict[str, Any], form: dict[str, list[str]], queued: list[Any]) -> Any:
    return json.loads(
        offline.judge(json.dumps(seed["record"]), json.dumps(queued), json.dumps(form))
    )


@pytest.mark.parametrize("seats", [3, 5])
def test_the_console_of_a_table_of_three_or_five_runs_offline(seats: int, client: Client) -> None:
    deal = SMALL[seats]
    table = table_of(seats, f"org-{seats}")
    referee = table.referee
    game = GameFactory(table=table, seats=seats, hands=deal["hands"], leader=0)
    client.force_login(referee)

    response = client.get(f"/referee/tables/{table.pk}/offline/")
    seed = response.json()
    assert seed["supported"] is True
    assert seed["record"]["seats"] == seats
    assert seed["record"]["rules"] == {"preset": "jdf@1", "overrides": {"seats": seats}}
    assert "offline-seed" in client.get(table.get_referee_url()).content.decode()

    judged: list[Any] = []
    for number, (seat, card) in enumerate(deal["taps"], start=1):
        form = {"seq": [str(number)], "seat": [str(seat)], "cards": [card], "action": ["play"]}
        answer = judge(seed, form, [j["move"] for j in judged])
        assert answer["ok"], answer
        judged.append(answer)
    # The phone shows the end of the game, with the places the rules give.
    queued = json.dumps([j["move"] for j in judged])
    view = json.loads(offline.state_view(json.dumps(seed["record"]), queued))
    assert view["phase"] == "over"
    assert {p["seat"]: p["place"] for p in view["placings"]} == deal["places"]

    # The moves judged on the phone, sent when the network is back, end the server's game
    # with the places the rules give.
    for number, answer in enumerate(judged, start=1):
        assert services.submit_move(game, answer["move"], number, referee).ok  # type: ignore[arg-type]
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert placings(game) == deal["places"]


def test_the_console_offers_offline_mode_only_where_it_can_provide_it() -> None:
    table = table_of(3, "org-3")
    seats = [{"seat": s, "position": s + 1, "name": NAMES[s], "number": s + 1} for s in range(3)]
    playable = GameFactory(table=table, seats=3, hands=SMALL[3]["hands"], leader=0)
    seed = offline_seed(playable, [], seats, table.pk)
    assert (seed["supported"], seed["record"] is not None) == (True, True)

    # An open table with nobody named to lead: the engine cannot start it, so the phone could
    # not judge a tap; the console must not promise offline mode.
    unstartable = GameFactory(
        table=table, seats=3, mode=Game.Mode.OPEN_TABLE, hands=[None] * 3, counts=[17, 17, 18]
    )
    seed = offline_seed(unstartable, [], seats, table.pk)
    assert (seed["supported"], seed["record"]) == (False, None)

    # A quick result needs no record: it is judged on the rules alone.
    quick = GameFactory(
        table=table, seats=3, mode=Game.Mode.QUICK, hands=[None] * 3, counts=[17, 17, 18]
    )
    seed = offline_seed(quick, [], seats, table.pk)
    assert seed["supported"] is True


@pytest.mark.parametrize("seats", [3, 5])
def test_a_daizaibatsu_game_exports_imports_and_replays_to_the_same_placings(
    seats: int, tmp_path: Path
) -> None:
    organiser = UserFactory(username=f"zai-{seats}")
    table = daizaibatsu_table(organiser, names=NAMES[:seats])
    game = services.start_game(table, organiser)
    play_to_the_end(game, organiser)
    game.refresh_from_db()
    played = placings(game)

    record = game_record(game, hands=True)
    assert record["seats"] == seats
    assert record["rules"] == {
        "preset": "daizaibatsu@1",
        "overrides": {"seats": seats, **DAIZAIBATSU_SET},
    }
    assert cli_placings(record, tmp_path) == played

    elsewhere = daizaibatsu_table(names=NAMES[:seats])
    importer = UserFactory(username=f"zai-org-{seats}")
    OfficialFactory(
        tournament=elsewhere.round.stage.tournament, user=importer, role=Official.Role.ORGANISER
    )
    [outcome] = import_records(elsewhere, importer, [record])
    assert outcome.status == "imported", (outcome.code, outcome.message_en)
    imported = Game.objects.get(pk=outcome.game.pk if outcome.game else None)
    assert placings(imported) == played
    position = replay_position(imported, imported.last_seq)
    assert position["number"] == position["total"] == imported.last_seq
