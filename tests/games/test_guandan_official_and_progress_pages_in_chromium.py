"""In Chromium: the head referee corrects a finished 掼蛋 (Guandan) hand on the officials' game
page by its finishing order (preview, then save), and the organiser's progress page of a team
event shows each table's match — a match won at A in hand 5 as over, with its five hands, and a
match with a hand in play. Screenshots at phone (390×844) and desktop (1280×900) size go to
test-artifacts/."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from games.services import record_quick_result
from tests.browser.conftest import (  # noqa: F401 — artifacts and the Chromium set-up: fixtures
    DESKTOP,
    artifacts,
    browser_type_launch_args,
    log_in,
    shoot,
)
from tests.factories import (
    OfficialFactory,
    UserFactory,
    console_guandan_hand,
    console_guandan_table,
    guandan_hand,
    match_table,
    published_round,
    team_league,
)
from tournaments.models import Official, Table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def table() -> Table:
    """A Guandan table (Sakura v Momiji) refereed by gd-ref, with gd-head as head referee."""
    table = console_guandan_table(UserFactory(username="gd-ref"), teams=("Sakura", "Momiji"))
    OfficialFactory(
        tournament=table.round.stage.tournament,
        user=UserFactory(username="gd-head"),
        role=Official.Role.HEAD_REFEREE,
    )
    return table


def test_the_head_referee_corrects_a_guandan_hand_by_its_finishing_order(
    page: Page,
    live_server: LiveServer,
    artifacts: Path,  # noqa: F811 — the fixture imported above
    table: Table,
) -> None:
    game = console_guandan_hand(table, mode="quick")
    record_quick_result(game, table.referee, [0, 2])

    page.set_viewport_size(DESKTOP)
    log_in(page, live_server.url, "gd-head", f"/referee/games/{game.pk}/")
    form = page.get_by_test_id("correction-form")
    expect(form.get_by_test_id("place-1")).to_have_value("0")
    form.get_by_test_id("place-1").select_option("1")
    form.get_by_test_id("place-2").select_option("3")
    form.get_by_label("Reason").fill("teams swapped on the sheet")
    form.get_by_role("button", name="Preview").click()
    expect(page.get_by_test_id("correction-preview")).to_contain_text("Level 5")
    shoot(page, artifacts, "guandan-correction-preview")
    page.get_by_test_id("save-correction").click()

    expect(page.get_by_test_id("version-2")).to_be_visible()
    expect(page.get_by_test_id("current-result")).to_contain_text("Level 5")
    shoot(page, artifacts, "guandan-official-game-corrected")


def test_the_progress_page_shows_each_tables_match(
    page: Page,
    live_server: LiveServer,
    artifacts: Path,  # noqa: F811 — the fixture imported above
) -> None:
    tournament, stage, teams = team_league(4, games_per_set=30)
    round_ = published_round(stage, 1)
    won = match_table(round_, 1, teams[0], teams[1])
    for hand, level in enumerate(("5", "8", "J", "K"), start=1):
        guandan_hand(won, hand, (level, "3"))
    guandan_hand(won, 5, ("A", "3"), won=0)
    going = match_table(round_, 2, teams[2], teams[3])
    guandan_hand(going, 1, ("5", "2"))
    guandan_hand(going, 2, ("5", "2"), in_play=True)
    organiser = UserFactory(username="gd-org")
    OfficialFactory(tournament=tournament, user=organiser, role=Official.Role.ORGANISER)

    page.set_viewport_size(DESKTOP)
    log_in(
        page,
        live_server.url,
        "gd-org",
        f"/organiser/{tournament.slug}/rounds/{round_.pk}/progress/",
    )

    expect(page.get_by_test_id("match-1")).to_contain_text("Team 1 won at A")
    expect(page.get_by_test_id("match-2")).to_contain_text("in play")
    expect(page.get_by_test_id("cell-1-1-5")).to_be_visible()
    expect(page.get_by_test_id("cell-1-1-6")).to_have_count(0)
    shoot(page, artifacts, "guandan-progress")


def test_a_guandan_hand_in_play_offers_a_void_and_says_why_there_is_no_forfeit(
    page: Page,
    live_server: LiveServer,
    artifacts: Path,  # noqa: F811 — the fixture imported above
    table: Table,
) -> None:
    game = console_guandan_hand(table)

    page.set_viewport_size(DESKTOP)
    log_in(page, live_server.url, "gd-head", f"/referee/games/{game.pk}/")

    expect(page.get_by_test_id("no-team-forfeit")).to_contain_text("void the hand")
    expect(page.get_by_test_id("forfeit-form")).to_have_count(0)
    shoot(page, artifacts, "guandan-official-game-in-play")
    page.get_by_test_id("void-form").get_by_label("Reason").fill("misdeal")
    page.get_by_role("button", name="Void…").click()
    expect(page.get_by_test_id("void-confirm")).to_be_visible()
    shoot(page, artifacts, "guandan-official-game-void-confirm")
