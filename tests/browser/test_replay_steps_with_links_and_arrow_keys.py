"""In Chromium, the replay viewer steps through a finished game with its links and with the
keyboard (→ forward, ← back, End last, Home first): each step swaps the board, puts the move in
the address bar (shareable) and marks the move in the list; a shared address opens at its move.
Screenshots at phone and desktop size land in test-artifacts/, for 大富豪, 掼蛋 and 大財閥."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect
from pytest_django.live_server_helper import LiveServer

from games import services
from games.models import Game, Move
from tests.browser.conftest import shoot
from tests.factories import (
    OfficialFactory,
    UserFactory,
    console_guandan_hand,
    console_guandan_table,
    daizaibatsu_game,
    daizaibatsu_table,
    play_guandan_hand,
    play_to_the_end,
    reveal,
    seated_table,
)
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
    # Keys pressed before the step they follow has loaded are not lost: three quick → are three.
    for _ in range(3):
        page.keyboard.press("ArrowRight")
    expect(board).to_have_attribute("data-move", "3")
    expect(page).to_have_url(f"{base}?move=3")
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    expect(board).to_have_attribute("data-move", "1")
    page.keyboard.press("Home")
    expect(board).to_have_attribute("data-move", "0")

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


def test_guandan_and_daizaibatsu_replays_on_a_phone_and_a_desktop(
    browser: Browser, live_server: LiveServer, artifacts: Path
) -> None:
    referee = UserFactory(username="ref-replay-families")
    gd_table = console_guandan_table(referee, teams=("East", "South"))
    hand = console_guandan_hand(gd_table)
    play_guandan_hand(hand, referee)
    reveal(gd_table.round)  # every hand shows: the screenshots show the cards as drawn
    dz_table = daizaibatsu_table(referee, names=("Aoki", "Baba", "Chiba", "Doi"))
    dz_game = daizaibatsu_game(
        dz_table,
        [["9H", "2S", "5D", "6S", "7D"], ["JK", "6C", "KD"], ["8D", "TD", "QS"], ["3C", "AH"]],
        ["3H", "3S", "4S", "5H", "5C", "6D", "7S", "8S", "9S", "TS"],
        leader=0,
    )
    play_to_the_end(dz_game, referee)

    page = browser.new_page(locale="ja-JP")
    page.goto(f"{live_server.url}/games/{hand.pk}/replay/?move=6")
    expect(page.get_by_test_id("replay-levels")).to_be_visible()
    expect(page.get_by_test_id("replay-hand-1")).to_be_visible()
    shoot(page, artifacts, "replay-guandan")
    page.goto(f"{live_server.url}/games/{dz_game.pk}/replay/?move=2")
    expect(page.get_by_test_id("dz-pile")).to_be_visible()
    shoot(page, artifacts, "replay-daizaibatsu")
