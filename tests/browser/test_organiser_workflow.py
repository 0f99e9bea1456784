"""An organiser imports entrants, checks them in, draws and publishes a round and prints the
table cards, in a real browser."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from tests.factories import OfficialFactory, StageFactory, TournamentFactory, UserFactory
from tournaments.models import Official, Round

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

CSV = "number,display_name,name_kana\n" + "".join(
    f"{n},Player {n},ぷれいやー{n}\n" for n in range(1, 9)
)


def test_organiser_imports_checks_in_draws_publishes_and_prints(
    page: Page, live_server: LiveServer, artifacts: Path, tmp_path: Path
) -> None:
    organiser = UserFactory(username="kato")
    cup = TournamentFactory(name="Nagoya Open 名古屋オープン", slug="nagoya-open")
    OfficialFactory(tournament=cup, user=organiser, role=Official.Role.ORGANISER)
    StageFactory(tournament=cup, order=1, name="Qualifying 予選")
    csv_file = tmp_path / "entrants.csv"
    csv_file.write_text(CSV, encoding="utf-8-sig")

    page.goto(f"{live_server.url}/accounts/login/?next=/organiser/nagoya-open/")
    page.get_by_label("User name").fill("kato")
    page.get_by_label("Password").fill("correct horse battery")
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Nagoya Open 名古屋オープン")

    page.get_by_label("CSV file").set_input_files(str(csv_file))
    page.get_by_role("button", name="Import").click()
    page.get_by_role("button", name="Import 8 entrants").click()
    expect(page.get_by_test_id("import-done")).to_have_text("Imported 8 entrants.")

    for number in range(1, 9):
        page.get_by_role("button", name=f"Check in #{number}", exact=True).click()
        expect(page.get_by_role("button", name=f"Undo check-in #{number}")).to_be_visible()

    page.get_by_role("button", name="Draw next round").click()
    expect(page.get_by_role("heading", name="Table 1")).to_be_visible()
    expect(page.get_by_text("Table 1: random draw by lot.").first).to_be_visible()
    page.get_by_role("link", name="Publish round…").click()
    expect(page.get_by_test_id("confirm-step")).to_contain_text("can no longer be redrawn")
    page.get_by_role("button", name="Yes, Publish round").click()
    expect(page.get_by_text("Round published with its seed commitment.")).to_be_visible()
    assert Round.objects.get().status == Round.Status.PUBLISHED

    page.get_by_role("link", name="Print table cards").click()
    expect(page.locator("article.table-card")).to_have_count(2)
    expect(page.locator("article.table-card svg")).to_have_count(2)
    page.screenshot(path=str(artifacts / "organiser-table-cards.png"), full_page=True)
    page.emulate_media(media="print")
    expect(page.locator(".site-header")).to_be_hidden()
