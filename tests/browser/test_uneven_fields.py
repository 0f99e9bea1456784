"""An organiser with 18 checked-in players sees the next draw previewed on the dashboard,
switches the uneven-field policy to tables of 5, watches the preview follow a check-in change,
draws, and finds two tables of 5 on the round page — in Chromium, at desktop and phone size,
with screenshots in test-artifacts/."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page, Route, expect
from pytest_django.live_server_helper import LiveServer

from tests.browser.conftest import DESKTOP, PHONE, shoot
from tests.factories import EntryFactory, UserFactory
from tournaments import services
from tournaments.models import Entry, Round, Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = [
    "Aoki",
    "Baba",
    "Chiba",
    "Doi",
    "Endo",
    "Fujita",
    "Goto",
    "Hara",
    "Ishii",
    "Jinbo",
    "Kato",
    "Mori",
    "Noda",
    "Ono",
    "Sato",
    "Tani",
    "Ueda",
    "Wada",
]


@pytest.fixture
def eighteen() -> Tournament:
    organiser = UserFactory(username="kato", is_staff=True)
    cup = services.create_tournament_from_preset(
        actor=organiser, name="Kobe Open 神戸オープン", slug="kobe"
    )
    cup.status = Tournament.Status.REGISTRATION
    cup.save()
    for number, name in enumerate(NAMES, start=1):
        EntryFactory(
            tournament=cup, number=number, player__display_name=name, status=Entry.Status.CHECKED_IN
        )
    return cup


def test_the_organiser_chooses_tables_of_five_sees_the_preview_and_draws_them(
    page: Page, live_server: LiveServer, artifacts: Path, eighteen: Tournament
) -> None:
    stage = eighteen.stages.get()
    page.set_viewport_size(DESKTOP)
    page.goto(f"{live_server.url}/accounts/login/?next=/organiser/kobe/")
    page.get_by_label("User name").fill("kato")
    page.get_by_label("Password").fill("correct horse battery")
    page.get_by_role("button", name="Log in").click()

    preview = page.get_by_test_id(f"draw-layout-{stage.pk}")
    summary = preview.get_by_test_id("layout-summary")
    expect(summary).to_have_text("18 players → 3 tables of 4 + 2 tables of 3")

    # Choose tables of 5 right next to the draw button: the preview follows (htmx).
    preview.get_by_text("change", exact=True).click()
    preview.get_by_label("Some tables one seat larger (e.g. tables of 5)").check()
    shoot(page, artifacts, "uneven-fields-policy-form")
    page.set_viewport_size(PHONE)
    preview.screenshot(path=str(artifacts / "uneven-fields-policy-form-block-phone.png"))
    page.set_viewport_size(DESKTOP)
    preview.get_by_role("button", name="Save policy").click()
    expect(summary).to_have_text("18 players → 2 tables of 5 + 2 tables of 4")
    expect(page.get_by_test_id(f"draw-layout-{stage.pk}")).not_to_contain_text("人卓")
    shoot(page, artifacts, "uneven-fields-preview")
    page.set_viewport_size(PHONE)
    preview.screenshot(path=str(artifacts / "uneven-fields-preview-block-phone.png"))
    page.set_viewport_size(DESKTOP)

    # A late check-out changes the count: the preview follows without a reload.
    page.get_by_role("button", name="Undo check-in #18").click()
    expect(summary).to_have_text("17 players → 1 table of 5 + 3 tables of 4")
    page.get_by_role("button", name="Check in #18").click()
    expect(summary).to_have_text("18 players → 2 tables of 5 + 2 tables of 4")

    page.get_by_role("button", name="Draw next round").click()
    expect(page.locator("#table-1 ol.seats li")).to_have_count(5)
    expect(page.locator("#table-2 ol.seats li")).to_have_count(5)
    expect(page.locator("#table-3 ol.seats li")).to_have_count(4)
    expect(page.locator("#table-4 ol.seats li")).to_have_count(4)
    expect(page.locator("#table-5")).to_have_count(0)
    shoot(page, artifacts, "uneven-fields-round")
    round_ = Round.objects.get(stage=stage)
    assert sorted(t.seats.count() for t in round_.tables.all()) == [4, 4, 5, 5]
    assert not round_.byes.exists()


def test_a_check_out_answered_just_as_the_preview_refreshes_still_shows(
    page: Page, live_server: LiveServer, eighteen: Tournament
) -> None:
    """The preview refreshes after every POST that finishes on the page. When one finishes in the
    same moment as the preview's previous refresh is swapped in, the block just swapped in must
    already be listening, or that change never shows (seen in CI as '3 teams' after the fourth
    pair had checked in)."""
    stage = eighteen.stages.get()
    page.set_viewport_size(DESKTOP)
    page.goto(f"{live_server.url}/accounts/login/?next=/organiser/kobe/")
    page.get_by_label("User name").fill("kato")
    page.get_by_label("Password").fill("correct horse battery")
    page.get_by_role("button", name="Log in").click()
    summary = page.get_by_test_id(f"draw-layout-{stage.pk}").get_by_test_id("layout-summary")
    expect(summary).to_have_text("18 players → 3 tables of 4 + 2 tables of 3")

    held = []  # the first refresh's answer, computed while 18 were checked in, held back

    def hold_first_refresh(route: Route) -> None:
        if held:
            route.continue_()
        else:
            held.append((route, route.fetch()))

    page.route(f"**/organiser/kobe/stages/{stage.pk}/layout/", hold_first_refresh)
    post_finished = """() => htmx.trigger(document.body, 'htmx:afterRequest',
        {requestConfig: {verb: 'post'}, elt: document.body})"""
    page.evaluate(post_finished)  # some POST on the page finished: the preview asks again
    for _ in range(100):  # the route handler runs while Playwright waits
        if held:
            break
        page.wait_for_timeout(50)
    assert held, "the preview did not ask for a refresh"
    # Meanwhile a player checks out at the desk; that check-out's POST finishes right as the
    # held refresh is swapped in.
    organiser = User.objects.get(username="kato")
    services.check_in_entry(eighteen.entries.get(number=18), organiser, checked_in=False)
    page.evaluate(
        """(postFinished) => document.body.addEventListener('htmx:afterSwap', (event) => {
            if (event.detail.elt.classList.contains('draw-layout'))
                setTimeout(eval(postFinished), 0);
        }, {once: true})""",
        post_finished,
    )
    route, answer = held[0]
    route.fulfill(response=answer)
    expect(summary).to_have_text("17 players → 2 tables of 4 + 3 tables of 3")
