"""A spectator downloads records from the public pages in Chromium set to Japanese: each
table's finished games as 「棋譜」 links on the round page, the round's JSON lines and the
tournament's; the downloaded game file replays with the engine's command to the game's
placings. Screenshots at phone and desktop size in test-artifacts/."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect
from pytest_django.live_server_helper import LiveServer

from games.models import Game
from tests.browser.conftest import DESKTOP, shoot
from tests.factories import tournament_played_out
from tournaments import services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_spectator_downloads_a_game_and_the_whole_round(
    browser: Browser, live_server: LiveServer, artifacts: Path, tmp_path: Path
) -> None:
    round_, _, organiser = tournament_played_out(tables=2, games_per_set=2)
    services.reveal_round_seed(round_, organiser)  # type: ignore[arg-type]
    tournament = round_.stage.tournament
    game = Game.objects.get(table__round=round_, table__number=2, game_number=2)

    context = browser.new_context(locale="ja-JP", viewport=DESKTOP, accept_downloads=True)
    page = context.new_page()
    page.goto(f"{live_server.url}/tournaments/{tournament.slug}/rounds/{round_.pk}/")

    expect(page.get_by_test_id("round-records")).to_have_text("この回戦の全棋譜 (JSON Lines)")
    table_two = page.get_by_test_id("games-2")
    expect(table_two.get_by_role("link", name="棋譜 (JSON)")).to_have_count(2)
    expect(table_two.get_by_role("link", name="再生")).to_have_count(2)
    shoot(page, artifacts, "records-round-page")

    with page.expect_download() as download:
        page.get_by_test_id(f"game-{game.pk}").get_by_role("link", name="棋譜 (JSON)").click()
    saved = tmp_path / download.value.suggested_filename
    download.value.save_as(saved)
    assert saved.name.endswith("-t2-s1-g2.json")
    command = [sys.executable, "-m", "games.engine", "replay", str(saved)]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    placings = {p["seat"]: p["place"] for p in json.loads(done.stdout)["placings"]}
    assert placings == dict(game.results.values_list("seat", "place"))

    with page.expect_download() as whole_round:
        page.get_by_test_id("round-records").click()
    lines = Path(whole_round.value.path()).read_text(encoding="utf-8").splitlines()
    assert len(lines) == 4

    page.goto(f"{live_server.url}/tournaments/{tournament.slug}/")
    expect(page.get_by_test_id("tournament-records")).to_contain_text("大会の全棋譜")
    shoot(page, artifacts, "records-tournament-page")
    context.close()
