"""On the tournament day an organiser adds a walk-in, corrects a name, imports a Shift_JIS CSV
file (sees its error in the page, fixes it, previews it, imports it) and seats a substitute
in a round being played — in Chromium, with screenshots at phone and desktop size."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from games import services as games
from games.models import Game, GameResult
from tests.factories import EntryFactory, OfficialFactory, UserFactory
from tournaments import services
from tournaments.models import Entry, Official, Round, Seat, Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}


def shoot(page: Page, artifacts: Path, name: str) -> None:
    page.set_viewport_size(DESKTOP)
    page.screenshot(path=str(artifacts / f"{name}-desktop.png"), full_page=True)
    page.set_viewport_size(PHONE)
    page.screenshot(path=str(artifacts / f"{name}-phone.png"), full_page=True)
    section = page.locator("#entries")
    if section.count():  # the entrants section alone, readable at phone size
        section.screenshot(path=str(artifacts / f"{name}-phone-entrants.png"))
    page.set_viewport_size(DESKTOP)


@pytest.fixture
def round_in_play() -> Round:
    """Tournament day: four entrants at one table, game 1 of 2 finished and confirmed."""
    organiser = UserFactory(username="kato", is_staff=True)
    head = UserFactory(username="endo")
    cup = services.create_tournament_from_preset(
        actor=organiser,
        name="Kyoto Open 京都オープン",
        slug="kyoto",
        games_per_set=2,
        sets_per_round=1,
        starts_on=timezone.localdate(),
    )
    cup.status = Tournament.Status.REGISTRATION
    cup.save()
    OfficialFactory(tournament=cup, user=head, role=Official.Role.HEAD_REFEREE)
    for number, name in enumerate(("Aoki", "Baba", "Chiba", "Doi"), start=1):
        EntryFactory(
            tournament=cup,
            number=number,
            player__display_name=name,
            status=Entry.Status.CHECKED_IN,
            checked_in_at=timezone.now(),
        )
    round_ = services.draw_round(cup.stages.get(), organiser)
    services.publish_round(round_, organiser)
    first = games.start_game(round_.tables.get(), organiser, mode=Game.Mode.QUICK)
    games.record_quick_result(first, organiser, [0, 1, 2, 3])
    games.confirm_game(first, head)
    return round_


def test_walk_in_edit_shift_jis_import_and_a_substitute_mid_round(
    page: Page, live_server: LiveServer, artifacts: Path, tmp_path: Path, round_in_play: Round
) -> None:
    page.set_viewport_size(DESKTOP)
    page.goto(f"{live_server.url}/accounts/login/?next=/organiser/kyoto/")
    page.get_by_label("User name").fill("kato")
    page.get_by_label("Password").fill("correct horse battery")
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Kyoto Open 京都オープン")

    # 1. A walk-in: "checked in now" is ticked on the tournament's day.
    walk_in = page.get_by_test_id("walk-in")
    walk_in.get_by_text("Add a walk-in").click()  # opens the form
    expect(walk_in.get_by_label("Checked in now")).to_be_checked()
    walk_in.get_by_label(re.compile("^Name")).fill("Ueda Sora")
    walk_in.get_by_label("Kana").fill("うえだ そら")
    walk_in.get_by_role("button", name="Add entrant").click()
    expect(page.get_by_test_id("entries-done")).to_contain_text("Added #5 Ueda Sora.")
    expect(page.get_by_test_id("late-5")).to_have_text("late — joins at round 2")
    shoot(page, artifacts, "entrants-walk-in")

    # 2. Correct the walk-in's name in their row.
    page.get_by_role("link", name="Edit #5").click()
    row = page.locator("tr.entry-form-row")
    row.get_by_label("Name").fill("Ueda Sorato")
    row.get_by_label("Entrant No.").fill("1")  # taken by Aoki: refused in the row
    row.get_by_role("button", name="Save").click()
    expect(page.locator("tr.entry-form-row")).to_contain_text("Number 1 is already taken")
    shoot(page, artifacts, "entrants-edit-refused")
    page.locator("tr.entry-form-row").get_by_label("Entrant No.").fill("5")
    page.locator("tr.entry-form-row").get_by_role("button", name="Save").click()
    expect(page.locator("tr.entry-form-row")).to_have_count(0)
    expect(page.get_by_role("cell", name="Ueda Sorato うえだ そら")).to_be_visible()

    # 3. A Shift_JIS file (as Japanese Excel saves it) with a mistake: nothing is imported,
    # the error table shows in the page.
    bad = tmp_path / "entrants-sjis.csv"
    bad.write_bytes(
        "number,display_name,name_kana\nx,大富豪 太郎,だいふごう たろう\n,革命 花子,\n".encode(
            "cp932"
        )
    )
    page.get_by_label("CSV file").set_input_files(str(bad))
    page.get_by_role("button", name="Preview import").click()
    errors = page.get_by_test_id("import-errors")
    expect(errors).to_contain_text("Nothing was imported")
    expect(errors).to_contain_text("Shift_JIS (CP932)")
    expect(errors).to_contain_text("'x' is not a whole number of 1 or more.")
    shoot(page, artifacts, "entrants-csv-errors")

    good = tmp_path / "entrants-sjis-fixed.csv"
    good.write_bytes(
        "number,display_name,name_kana\n,大富豪 太郎,だいふごう たろう\n,革命 花子,\n".encode(
            "cp932"
        )
    )
    page.get_by_label("CSV file").set_input_files(str(good))
    page.get_by_role("button", name="Preview import").click()
    preview = page.get_by_test_id("csv-preview")
    expect(preview).to_contain_text("大富豪 太郎")
    expect(page.get_by_test_id("csv-encoding")).to_have_text("Shift_JIS (CP932)")
    assert Entry.objects.count() == 5  # nothing saved by the preview
    shoot(page, artifacts, "entrants-csv-preview")
    preview.get_by_role("button", name="Import 2 entrants").click()
    expect(page.get_by_test_id("import-done")).to_have_text("Imported 2 entrants.")
    expect(page.get_by_role("cell", name="大富豪 太郎 だいふごう たろう")).to_be_visible()

    # 4. Aoki (seat 1) falls ill during game 2: a substitute takes the seat.
    aoki = Entry.objects.get(player__display_name="Aoki")
    seat = Seat.objects.get(entry=aoki)
    table = seat.table
    second = games.start_game(table, UserFactory(username="kato"), mode=Game.Mode.QUICK)
    page.reload()
    page.get_by_role("link", name=f"Substitute for #{aoki.number}").click()
    form = page.locator("tr.entry-form-row")
    expect(form).to_contain_text(f"takes seat {seat.position} at table 1 of round 1 now")
    form.get_by_label("…or a new person: name").fill("Kato Hina")
    form.get_by_label("Reason").fill("Aoki felt unwell 体調不良")
    shoot(page, artifacts, "entrants-substitute-form")
    form.get_by_role("button", name="Seat the substitute").click()
    expect(page.get_by_test_id("substitutions")).to_contain_text(
        f"Kato Hina substitutes for #{aoki.number} Aoki"
    )
    shoot(page, artifacts, "entrants-substituted")
    substitute = Entry.objects.get(player__display_name="Kato Hina")
    seat.refresh_from_db()
    assert (seat.entry, seat.substituted_entry) == (substitute, aoki)

    # Game 2 was in play: it counts for the substitute; game 1 stays Aoki's.
    games.record_quick_result(second, UserFactory(username="kato"), [0, 1, 2, 3])
    position = seat.position - 1
    assert GameResult.objects.get(game=second, seat=position).entry == substitute
    assert GameResult.objects.get(game__game_number=1, seat=position).entry == aoki
    page.goto(f"{live_server.url}/organiser/kyoto/rounds/{round_in_play.pk}/")
    expect(page.locator("#table-1")).to_contain_text(
        f"Kato Hina substitute for #{aoki.number} Aoki"
    )
    shoot(page, artifacts, "round-with-substitute")
