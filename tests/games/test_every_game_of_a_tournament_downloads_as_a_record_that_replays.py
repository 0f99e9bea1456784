"""Issue #20: a whole tournament played move by move through the services comes out as one
JSON-lines file, a line per game that ended; once the round's seed is revealed each line's
record replays with `python -m games.engine replay` (a real subprocess, as a tool author runs
it) to the placings the service recorded, and each game's own download replays too."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from django.test import Client

from games.models import Game
from tests.factories import tournament_played_out
from tournaments import services as tournament_services

pytestmark = pytest.mark.django_db


def replay_file(path: Path) -> dict[str, object]:
    command = [sys.executable, "-m", "games.engine", "replay", str(path)]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def service_placings(game: Game) -> dict[int, int]:
    return dict(game.results.values_list("seat", "place"))


def test_every_record_of_a_revealed_round_replays_to_the_services_placings(
    tmp_path: Path,
) -> None:
    round_, _, organiser = tournament_played_out(tables=3, games_per_set=2)
    tournament_services.reveal_round_seed(round_, organiser)  # type: ignore[arg-type]
    slug = round_.stage.tournament.slug

    response = Client().get(f"/api/tournaments/{slug}/records.jsonl")

    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/x-ndjson")
    assert response["Content-Disposition"] == f'attachment; filename="kakumei-{slug}.jsonl"'
    lines = [json.loads(line) for line in b"".join(response.streaming_content).splitlines()]
    games = list(Game.objects.filter(table__round=round_).order_by("table__number", "game_number"))
    assert len(lines) == len(games) == 6
    assert [(line["game"]["table"], line["game"]["game"]) for line in lines] == [
        (g.table.number, g.game_number) for g in games
    ]
    for line, game in zip(lines, games, strict=True):
        assert line["game"]["id"] == game.pk
        assert line["game"]["hands"] is True and line["game"]["replays"] is True
        assert line["record"]["hands"] == game.hands
        path = tmp_path / f"{game.pk}.json"
        path.write_text(json.dumps(line["record"]), encoding="utf-8")
        replayed = replay_file(path)
        assert replayed["finished"] is True
        assert all(v["ok"] for v in replayed["moves"] + replayed.get("exchange", []))
        placings = {p["seat"]: p["place"] for p in replayed["placings"]}
        assert placings == service_placings(game)
        assert {p["place"] for p in line["game"]["results"]} == set(placings.values())
    # A second game of a set starts with the exchange, and its record carries it.
    assert any("exchange" in line["record"] for line in lines)


def test_a_games_own_download_is_a_file_the_engine_replays(tmp_path: Path) -> None:
    round_, _, organiser = tournament_played_out(tables=1, games_per_set=2)
    tournament_services.reveal_round_seed(round_, organiser)  # type: ignore[arg-type]
    game = Game.objects.get(table__round=round_, game_number=2)

    page = Client().get(f"/games/{game.pk}/record.json")
    api = Client().get(f"/api/games/{game.pk}/record/")

    assert page.status_code == 200 and api.status_code == 200
    slug = round_.stage.tournament.slug
    assert page["Content-Disposition"] == (
        f'attachment; filename="kakumei-{slug}-r{round_.number}-t1-s1-g2.json"'
    )
    assert json.loads(page.content) == api.json()
    path = tmp_path / "record.json"
    path.write_bytes(page.content)
    replayed = replay_file(path)
    assert {p["seat"]: p["place"] for p in replayed["placings"]} == service_placings(game)
