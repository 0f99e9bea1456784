"""In Chromium, the replay viewer steps through a finished game with its links and with the
keyboard (→ forward, ← back, End last, Home first): each step swaps the board, puts the move in
the address bar (shareable) and marks the move in the list; a shared address opens at its move.
Screenshots at phone and desktop size land in test-artifacts/."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect
from pytest_django.live_server_helper import LiveServer

from games import services
from games.models import Game, Move
from tests.browser.conftest import shoot
from tests.factories import OfficialFactory, UserFactory, play_to_the_end, seated_table
from tournaments.models import Official

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def game() -> Game:
    referee = UserFactory(username="ref-replay")
    table = seated_table(referee, names=("青木", "馬場", "千葉", "土井"))
    OfficialFactory(
        tournament=table.round.stage.tournament, user=referee, role=Official.Role.REFEREE
    )
    game = services.start_game(table, referee)
    play_to_the_end(game, referee)
    return game


def test_links_and_arrow_keys_step_through_the_game(
    browser: Browser, live_server: LiveServer, game: Game, artifacts: Path
) -> None:
    total = game.moves.filter(kind=Move.Kind.ACTION).count()
    base = f"{live_server.url}/games/{game.pk}/replay/"
    page = browser.new_page(locale="ja-JP")
    board = page.locator("#replay")
    page.goto(base)
    expect(board).to_have_attribute("data-move", "0")
    expect(page.get_by_test_id("replay-at")).to_contain_text("配札")

    page.keyboard.press("ArrowRight")
    expect(board).to_have_attribute("data-move", "1")
    expect(page).to_have_url(f"{base}?move=1")
    expect(page.get_by_test_id("replay-at")).to_contain_text("1手目")
    expect(page.locator('.replay-moves a[aria-current="step"]')).to_have_attribute(
        "href", f"/games/{game.pk}/replay/?move=1"
    )
    page.keyboard.press("ArrowRight")
    expect(page).to_have_url(f"{base}?move=2")
    page.keyboard.press("ArrowLeft")
    expect(page).to_have_url(f"{base}?move=1")
    page.keyboard.press("End")
    expect(board).to_have_attribute("data-move", str(total))
    expect(page).to_have_url(f"{base}?move={total}")
    page.keyboard.press("Home")
    expect(page).to_have_url(f"{base}?move=0")

    page.locator('a[data-step="forward"]').click()
    expect(board).to_have_attribute("data-move", "1")
    page.locator('.replay-moves a[href$="?move=8"]').click()
    expect(page).to_have_url(f"{base}?move=8")
    expect(board).to_have_attribute("data-move", "8")
    shoot(page, artifacts, "replay-move-8")

    page.goto(f"{base}?move={total}")  # a shared address opens at its move
    expect(board).to_have_attribute("data-move", str(total))
    expect(page.get_by_test_id("replay-placings")).to_be_visible()
    shoot(page, artifacts, "replay-last-move")

    embed = browser.new_page(locale="ja-JP")
    embed.goto(f"{live_server.url}/embed/games/{game.pk}/replay/?move=3")
    embed.keyboard.press("ArrowRight")
    expect(embed).to_have_url(f"{live_server.url}/embed/games/{game.pk}/replay/?move=4")
    shoot(embed, artifacts, "replay-embed")
