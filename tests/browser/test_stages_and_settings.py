"""An organiser adds a cut, previews who would advance (a tie at the cut line flagged), changes
the settings (one change refused with its reason on the field) and creates a league and a
season, in a real browser at phone and desktop sizes."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from tests.factories import OfficialFactory, StageFactory, TournamentFactory, UserFactory
from tests.tournaments.conftest import checked_in
from tests.tournaments.stage_scenarios import play_stage, quick_format
from tournaments.models import League, Official, Stage, Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}


def test_stages_preview_settings_and_leagues(
    page: Page, live_server: LiveServer, artifacts: Path
) -> None:
    organiser = UserFactory(username="kato", is_staff=True)
    head = UserFactory(username="mori")
    cup = TournamentFactory(name="Nagoya Open 名古屋オープン", slug="nagoya-open")
    OfficialFactory(tournament=cup, user=organiser, role=Official.Role.ORGANISER)
    OfficialFactory(tournament=cup, user=head, role=Official.Role.HEAD_REFEREE)
    qualifying = StageFactory(tournament=cup, order=1, name="Qualifying 予選")
    quick_format(cup)
    checked_in(cup, 12)
    play_stage(qualifying, organiser, head)  # three tables finishing in seat order: ties

    page.set_viewport_size(PHONE)
    page.goto(f"{live_server.url}/accounts/login/?next=/organiser/nagoya-open/")
    page.get_by_label("User name").fill("kato")
    page.get_by_label("Password").fill("correct horse battery")
    page.get_by_role("button", name="Log in").click()
    page.get_by_test_id("stages-link").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Stages and cuts")

    # A cut taking everyone is refused on its field; top 5 is added, with the table warning.
    form = page.locator("#add-stage")
    form.get_by_label("Top N by total points").fill("12")
    form.get_by_role("button", name="Add stage").click()
    expect(page.locator("#add-stage")).to_contain_text("Top 12 is not a cut")
    page.locator("#add-stage").get_by_label("Top N by total points").fill("5")
    page.locator("#add-stage").get_by_role("button", name="Add stage").click()
    expect(page.locator("#stages-body .messages")).to_contain_text("added")
    expect(page.locator(f"#stage-row-{qualifying.pk}")).to_contain_text("top 5 by total points")
    expect(page.locator("[data-code=uneven_tables]").first).to_contain_text("5 players")
    assert Stage.objects.filter(tournament=cup, kind=Stage.Kind.CUT).exists()

    # Renaming the new cut through its edit form (htmx) puts the saved list back in place.
    cut = Stage.objects.get(tournament=cup, kind=Stage.Kind.CUT)
    page.locator(f"#stage-row-{cut.pk}").get_by_role("link", name="Edit").click()
    edit = page.locator("section#stage-edit")
    edit.get_by_label("Name").fill("Semi-final 準決勝")
    edit.get_by_role("button", name="Save").click()
    expect(page.locator(f"#stage-row-{cut.pk} h3")).to_contain_text("Semi-final 準決勝")
    expect(page.locator("#stages-body")).to_have_count(1)

    page.locator(f"#stage-row-{qualifying.pk}").get_by_role("link", name="Preview").click()
    expect(page.locator("#preview")).to_contain_text("Who would advance now")
    expect(page.locator("#preview")).to_contain_text("Semi-final 準決勝")
    expect(page.locator("#preview .tie")).to_contain_text("Tie for 2 places at the cut line")
    expect(page.locator("#preview .preview-tied")).to_have_count(3)
    page.screenshot(path=str(artifacts / "stages-preview-phone.png"), full_page=True)
    page.locator("#preview").screenshot(path=str(artifacts / "stages-preview-table-phone.png"))
    page.set_viewport_size(DESKTOP)
    page.screenshot(path=str(artifacts / "stages-preview-desktop.png"), full_page=True)

    # Settings: the table size is fixed once a round is drawn; the venue change is not saved
    # either (all or nothing) until the refused change is taken back.
    page.goto(f"{live_server.url}/organiser/nagoya-open/settings/")
    page.get_by_label("Venue").fill("Hall B 会場B")
    page.get_by_label("Table size").fill("5")
    page.get_by_role("button", name="Save settings").click()
    refusal = page.locator("#field-table_size .field-error")
    expect(refusal).to_contain_text("the table size can no longer change")
    expect(refusal).to_contain_text("round_drawn")
    page.screenshot(path=str(artifacts / "settings-refused-desktop.png"), full_page=True)
    page.set_viewport_size(PHONE)
    page.locator("#field-table_size").scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / "settings-refused-phone.png"))
    assert Tournament.objects.get(pk=cup.pk).venue == ""
    page.get_by_label("Table size").fill("4")
    page.get_by_role("button", name="Save settings").click()
    expect(page.get_by_role("status")).to_contain_text("Venue")
    assert Tournament.objects.get(pk=cup.pk).venue == "Hall B 会場B"

    # Leagues and seasons.
    page.goto(f"{live_server.url}/organiser/leagues/")
    new = page.locator("#new-league")
    new.get_by_label("Name").fill("JDF Cup 天下一")
    new.get_by_label("Address").fill("jdf-cup")
    new.get_by_role("button", name="Create league").click()
    expect(page.locator(".league h2")).to_contain_text("JDF Cup 天下一")
    season_form = page.locator(".new-season")
    season_form.get_by_label("Name").fill("2026")
    season_form.get_by_label("Address").fill("2026")
    season_form.get_by_role("button", name="Add season").click()
    expect(page.locator(".season h3")).to_contain_text("2026")
    season = League.objects.get(slug="jdf-cup").seasons.get()

    page.goto(f"{live_server.url}/organiser/nagoya-open/settings/")
    page.get_by_label("Season").select_option(str(season.pk))
    page.get_by_role("button", name="Save settings").click()
    expect(page.get_by_role("status")).to_contain_text("Season")
    page.goto(f"{live_server.url}/organiser/leagues/")
    expect(page.locator(".season")).to_contain_text("Nagoya Open")
    expect(page.get_by_role("link", name="Season standings")).to_be_visible()
    page.screenshot(path=str(artifacts / "leagues-phone.png"), full_page=True)
    page.set_viewport_size(DESKTOP)
    page.screenshot(path=str(artifacts / "leagues-desktop.png"), full_page=True)
