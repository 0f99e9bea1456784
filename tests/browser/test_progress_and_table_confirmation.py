"""A referee finishes a quick-result game on a phone, a player at the table confirms it with
the table card's PIN on that phone, and the organiser's progress page — open on a laptop the
whole time — shows the game in play and then confirmed without being reloaded. Screenshots of
the progress page, the confirm page, the score sheet, the results sheet and a 403 page at
phone (390×844) and desktop (1280×900) size go to test-artifacts/."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect
from pytest_django.live_server_helper import LiveServer

from games.models import Game
from tests.browser.conftest import log_in
from tests.factories import EntryFactory, OfficialFactory, UserFactory
from tournaments import services
from tournaments.models import Entry, Official, Round, Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}


def shoot(page: Page, artifacts: Path, name: str) -> None:
    page.set_viewport_size(DESKTOP)
    page.screenshot(path=str(artifacts / f"{name}-desktop.png"), full_page=True)
    page.set_viewport_size(PHONE)
    page.screenshot(path=str(artifacts / f"{name}-phone.png"), full_page=True)


@pytest.fixture
def published_round() -> Round:
    organiser = UserFactory(username="kato", is_staff=True)
    referee = UserFactory(username="ito")
    head = UserFactory(username="endo")
    cup = services.create_tournament_from_preset(
        actor=organiser, name="Kobe Open 神戸オープン", slug="kobe", games_per_set=2,
        sets_per_round=1,
    )  # fmt: skip
    cup.status = Tournament.Status.REGISTRATION
    cup.save()
    OfficialFactory(tournament=cup, user=referee, role=Official.Role.REFEREE)
    OfficialFactory(tournament=cup, user=head, role=Official.Role.HEAD_REFEREE)
    for number, name in enumerate(("Aoki", "Baba", "Chiba", "Doi"), start=1):
        EntryFactory(tournament=cup, number=number, player__display_name=name,
                     status=Entry.Status.CHECKED_IN)  # fmt: skip
    round_ = services.draw_round(cup.stages.get(), organiser)
    services.publish_round(round_, organiser)
    services.assign_referee(round_.tables.get(), organiser, referee)
    return round_


def test_a_player_confirms_at_the_table_and_the_progress_page_follows(
    page: Page, browser: Browser, live_server: LiveServer, artifacts: Path,
    published_round: Round,
) -> None:  # fmt: skip
    base = live_server.url
    table = published_round.tables.get()
    progress_url = f"/organiser/kobe/rounds/{published_round.pk}/progress/"

    # The organiser opens the progress page on a laptop and leaves it open.
    page.set_viewport_size(DESKTOP)
    log_in(page, base, "kato", progress_url)
    first = page.get_by_test_id("cell-1-1-1")
    expect(first).to_have_attribute("data-state", "not_started")
    expect(page.get_by_test_id("summary")).to_contain_text("0 of 1 tables done")

    # The referee starts a quick-result game on a phone.
    phone_context = browser.new_context(viewport=PHONE)
    phone = phone_context.new_page()
    log_in(phone, base, "ito", table.get_referee_url())
    phone.get_by_label("Quick result", exact=True).check()
    phone.get_by_role("button", name="Start game").click()
    expect(phone.get_by_role("button", name="Record result")).to_be_visible()

    # The progress page follows without a reload.
    expect(first).to_have_attribute("data-state", "in_play", timeout=12_000)
    expect(page.get_by_test_id("summary")).to_contain_text("1 in play")

    for seat, outcome in enumerate(("clean-1", "clean-2", "clean-3", "clean-4")):
        phone.locator(f"select[name=outcome_{seat}]").select_option(outcome)
    phone.get_by_role("button", name="Record result").click()
    phone.get_by_test_id("confirm-at-table").click()

    # The recorder's own account cannot confirm; a player picks their name and types the PIN.
    form = phone.get_by_test_id("pin-form")
    expect(form).to_be_visible()
    expect(phone.get_by_role("button", name="Confirm with my own account")).to_have_count(0)
    expect(phone.get_by_test_id("next-step")).to_contain_text("Waiting for a player's PIN")
    shoot(phone, artifacts, "table-confirm")
    phone.set_viewport_size(PHONE)
    assert table.confirm_pin not in phone.content()
    form.get_by_label("Chiba").check()
    form.get_by_label("Table PIN").fill("000000" if table.confirm_pin != "000000" else "111111")
    form.get_by_role("button", name="Confirm as this player").click()
    expect(phone.get_by_test_id("confirm-error")).to_contain_text("Wrong PIN")
    shoot(phone, artifacts, "table-confirm-wrong-pin")
    phone.set_viewport_size(PHONE)
    form = phone.get_by_test_id("pin-form")
    form.get_by_label("Chiba").check()
    form.get_by_label("Table PIN").fill(table.confirm_pin)
    form.get_by_role("button", name="Confirm as this player").click()
    expect(phone.get_by_test_id("confirmed")).to_contain_text("Chiba")
    expect(phone.get_by_test_id("next-step")).to_contain_text("Next: set 1 game 2")
    shoot(phone, artifacts, "table-confirmed")
    game = Game.objects.get(table=table, game_number=1)
    chiba = table.seats.get(entry__player__display_name="Chiba")
    assert game.status == Game.Status.CONFIRMED
    assert game.confirmed_by_seat == chiba.position - 1

    # The organiser's page shows it confirmed, still without a reload.
    expect(first).to_have_attribute("data-state", "confirmed", timeout=12_000)
    expect(page.get_by_test_id("summary")).to_contain_text("0 in play, 0 waiting")
    expect(page.get_by_test_id("blockers")).to_contain_text("set 1, game 2: not started")
    shoot(page, artifacts, "round-progress")

    page.set_viewport_size(DESKTOP)
    page.goto(f"{base}/organiser/kobe/rounds/{published_round.pk}/score-sheets/")
    expect(page.get_by_test_id("score-sheet-1")).to_contain_text("Chiba")
    shoot(page, artifacts, "score-sheet")
    page.emulate_media(media="print")
    page.set_viewport_size(DESKTOP)
    page.screenshot(path=str(artifacts / "score-sheet-print.png"), full_page=True)
    expect(page.locator(".site-header")).to_be_hidden()
    page.emulate_media(media="screen")
    page.goto(f"{base}/organiser/kobe/rounds/{published_round.pk}/cards/")
    expect(page.get_by_test_id("pin-1")).to_contain_text(table.confirm_pin)
    shoot(page, artifacts, "table-card-with-pin")
    page.set_viewport_size(DESKTOP)
    page.goto(f"{base}/organiser/kobe/rounds/{published_round.pk}/results-sheet/")
    expect(page.get_by_test_id("provisional")).to_be_visible()
    shoot(page, artifacts, "results-sheet")
    page.set_viewport_size(DESKTOP)
    page.goto(f"{base}/standings/kobe/print/")
    shoot(page, artifacts, "standings-print")

    # A referee who opens the progress page is told whom to ask.
    phone.goto(f"{base}{progress_url}")
    expect(phone.get_by_test_id("error-403")).to_contain_text("ask the head referee")
    shoot(phone, artifacts, "error-403")
    phone_context.close()
