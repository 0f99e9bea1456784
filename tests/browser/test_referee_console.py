"""A referee plays a whole short game through the console on a phone-sized Chromium, sees an
illegal move's message in Japanese and English, finishes and sees the placings."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from games.engine import JDF, IllegalMove, Move, apply, new_game
from games.models import Game
from tests.factories import GameFactory, OfficialFactory, UserFactory, seated_table
from tournaments.models import Official

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# JDF-T17 (REFERENCE §1.4): Baba fouls with a 2, Chiba with a joker, Doi wins.
HANDS = [["5D", "9C"], ["2C"], ["JK"], ["6H"]]


def expected_not_stronger() -> IllegalMove:
    """The engine's message for 6H on a joker: the console must show it, in both languages."""
    state = new_game(JDF, HANDS, leader=0)
    for move in (Move.play(0, "5D"), Move.play(1, "2C"), Move.play(2, "JK")):
        state, _ = apply(state, move)
    with pytest.raises(IllegalMove) as caught:
        apply(state, Move.play(3, "6H"))
    return caught.value


def test_a_referee_plays_a_short_game_in_the_console(
    page: Page, live_server: LiveServer, artifacts: Path
) -> None:
    referee = UserFactory(username="ito")
    table = seated_table(referee)
    OfficialFactory(
        tournament=table.round.stage.tournament, user=referee, role=Official.Role.REFEREE
    )
    game = GameFactory(table=table, game_number=1, hands=HANDS, leader=0)
    page.set_viewport_size({"width": 390, "height": 844})

    page.goto(f"{live_server.url}/accounts/login/?next=/referee/tables/{table.pk}/")
    page.get_by_label("User name").fill("ito")
    page.get_by_label("Password").fill("correct horse battery")
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text(f"Table {table.number}")

    def tap(*codes: str) -> None:
        for code in codes:
            page.locator(f"label.card:has(input[value='{code}'])").click()

    def turn(name: str) -> None:
        expect(page.get_by_test_id("turn")).to_contain_text(name)

    turn("Aoki")
    tap("5D")
    page.get_by_role("button", name="Play", exact=True).click()
    turn("Baba")
    expect(page.get_by_test_id("trick")).to_contain_text("♦5")
    tap("2C")
    page.get_by_role("button", name="Play", exact=True).click()
    turn("Chiba")
    tap("JK")
    page.get_by_role("button", name="Play", exact=True).click()
    turn("Doi")

    tap("6H")  # too weak on a joker
    page.get_by_role("button", name="Play", exact=True).click()
    error = expected_not_stronger()
    alert = page.get_by_role("alert")
    expect(alert).to_contain_text(error.message_en)  # Chromium reads English here
    expect(alert).not_to_contain_text(error.message_ja)
    expect(alert).to_contain_text("not_stronger")
    page.screenshot(path=str(artifacts / "referee-console-illegal-move.png"), full_page=True)

    page.get_by_role("button", name="Pass", exact=True).click()
    turn("Aoki")
    page.get_by_role("button", name="Pass", exact=True).click()
    turn("Doi")
    expect(page.get_by_test_id("trick")).to_contain_text("Empty")
    tap("6H")
    page.get_by_role("button", name="Play", exact=True).click()

    placings = page.get_by_test_id("placings")
    expect(placings.locator("li")).to_have_count(4)
    expect(placings.locator("li").nth(0)).to_contain_text("Doi")
    expect(placings.locator("li").nth(0)).to_contain_text("Grand millionaire")
    expect(placings.locator("li").nth(3)).to_contain_text("Baba")
    page.screenshot(path=str(artifacts / "referee-console-finished.png"), full_page=True)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert game.last_seq == 6  # the illegal attempt took no seq
