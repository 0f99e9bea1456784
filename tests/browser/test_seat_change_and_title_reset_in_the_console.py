"""On a phone and on a desktop, the referee console announces UECda's seat change (席替え) and
title reset (階級リセット) before the game that starts them, shows who sits where while it is
played, and the public live page lists the new seating."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect
from pytest_django.live_server_helper import LiveServer

from games.seating import draw_seating
from tests.factories import UserFactory, cycling_table, play_quick_games

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
SEED = "ab" * 32  # seats 1 4 3 5 2 from game 4 on: Aoki, Doi, Chiba, Endo, Baba
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}


def log_in(page: Page, url: str, next_path: str) -> None:
    page.goto(f"{url}/accounts/login/?next={next_path}")
    page.locator("input[name=username]").fill("kimura")
    page.locator("input[name=password]").fill("correct horse battery")
    page.locator("input[name=password]").press("Enter")
    page.wait_for_url(f"{url}{next_path}")


def test_the_console_and_live_page_show_the_new_seating(
    page: Page, browser: Browser, live_server: LiveServer, artifacts: Path
) -> None:
    referee = UserFactory(username="kimura")
    table = cycling_table(referee, seed=SEED, title_reset_every=3, seat_change_every=3)
    play_quick_games(table, referee, 3)
    assert draw_seating(SEED, table=1, set_number=1, cycle=1, seats=5) == (1, 4, 3, 5, 2)
    console = f"/referee/tables/{table.pk}/"
    page.set_viewport_size(PHONE)

    log_in(page, live_server.url, console)
    expect(page.get_by_test_id("next-seat-change")).to_be_visible()
    expect(page.get_by_test_id("next-title-reset")).to_be_visible()
    expect(page.get_by_test_id("next-seating")).to_contain_text("Seat 2: Doi #4")
    page.screenshot(path=str(artifacts / "console-next-game-seat-change-390.png"), full_page=True)

    page.get_by_role("button", name="Start game").click()
    expect(page.get_by_test_id("seat-change")).to_be_visible()
    expect(page.get_by_test_id("title-reset")).to_be_visible()
    seats = page.get_by_test_id("console-seats")
    expect(seats.locator("tbody tr").nth(1)).to_contain_text("Doi")
    expect(seats.locator("tbody tr").nth(1)).to_contain_text("(drawn at seat 4)")
    page.screenshot(path=str(artifacts / "console-seat-change-390.png"), full_page=True)
    page.set_viewport_size(DESKTOP)
    page.screenshot(path=str(artifacts / "console-seat-change-desktop.png"), full_page=True)

    page.goto(f"{live_server.url}/tables/{table.pk}/live/")
    expect(page.get_by_test_id("live-seat-change")).to_be_visible()
    row = page.get_by_test_id("live-seats").locator("tbody tr").nth(1)
    expect(row).to_contain_text("Doi")
    expect(row).to_contain_text("(drawn at seat 4)")
    page.screenshot(path=str(artifacts / "live-seat-change-desktop.png"), full_page=True)
    page.set_viewport_size(PHONE)
    page.screenshot(path=str(artifacts / "live-seat-change-390.png"), full_page=True)

    japanese = browser.new_context(locale="ja-JP", viewport=PHONE)
    try:
        ja = japanese.new_page()
        log_in(ja, live_server.url, console)
        expect(ja.get_by_test_id("seat-change")).to_contain_text("席替え")
        expect(ja.get_by_test_id("title-reset")).to_contain_text("階級リセット")
        ja.screenshot(path=str(artifacts / "console-seat-change-ja-390.png"), full_page=True)
    finally:
        japanese.close()


def test_the_organiser_sets_the_cycles_and_the_public_page_shows_them(
    page: Page, live_server: LiveServer, artifacts: Path
) -> None:
    UserFactory(username="kimura", is_staff=True)
    from django.contrib.auth.models import User

    from tournaments import services
    from tournaments.models import Tournament

    cup = services.create_tournament_from_preset(
        actor=User.objects.get(username="kimura"), name="UECda 杯", slug="uecda-cup",
        ruleset="uecda@1", table_size=5, games_per_set=100, sets_per_round=1,
    )  # fmt: skip
    Tournament.objects.filter(pk=cup.pk).update(status=Tournament.Status.REGISTRATION)
    settings = f"/organiser/{cup.slug}/settings/"
    page.set_viewport_size(PHONE)

    log_in(page, live_server.url, settings)
    expect(page.locator("#id_title_reset_every")).to_have_value("100")
    expect(page.locator("#id_seat_change_every")).to_have_value("3")
    page.locator("#id_seat_change_every").fill("0")
    page.get_by_role("button", name="Save settings").click()
    error = page.locator("#field-seat_change_every .field-error")
    expect(error).to_contain_text("Seats change every: give a number of games from 1 to 1000")
    page.locator("#field-seat_change_every").scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / "settings-cycles-refused-390.png"))
    page.set_viewport_size(DESKTOP)
    page.locator("#field-seat_change_every").scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / "settings-cycles-refused-desktop.png"))

    page.goto(f"{live_server.url}/tournaments/{cup.slug}/")
    expect(page.get_by_test_id("cycles")).to_contain_text("titles reset every 100 games")
    expect(page.get_by_test_id("cycles")).to_contain_text("seats change every 3 games")
    page.screenshot(path=str(artifacts / "tournament-cycles-desktop.png"), full_page=True)
    page.set_viewport_size(PHONE)
    page.screenshot(path=str(artifacts / "tournament-cycles-390.png"), full_page=True)


def test_the_revealed_round_page_deals_game_4_to_its_new_seating(
    page: Page, live_server: LiveServer, artifacts: Path
) -> None:
    from games import services as games
    from tests.factories import OfficialFactory
    from tournaments import services
    from tournaments.models import Official

    referee = UserFactory(username="kimura")
    organiser = UserFactory(username="organiser-k")
    table = cycling_table(referee, seed=SEED, games_per_set=4)
    tournament = table.round.stage.tournament
    OfficialFactory(tournament=tournament, user=organiser, role=Official.Role.ORGANISER)
    for game in play_quick_games(table, referee, 4):
        games.confirm_game(game, organiser)  # type: ignore[arg-type]
    round_ = services.reveal_round_seed(table.round, organiser)
    url = f"{live_server.url}/tournaments/{tournament.slug}/rounds/{round_.pk}/"

    page.set_viewport_size(DESKTOP)
    page.goto(f"{url}?table=1&set_number=1&game=4")
    expect(page.get_by_test_id("seating-material")).to_contain_text("/table/1/set/1/seating/1")
    expect(page.locator("table.deal tbody tr").nth(1)).to_contain_text("Doi")
    page.locator("section.verify").scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / "round-verify-seating-desktop.png"), full_page=True)
    page.set_viewport_size(PHONE)
    page.screenshot(path=str(artifacts / "round-verify-seating-390.png"), full_page=True)
