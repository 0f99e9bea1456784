"""An organiser tries to reveal a round's seed while games are open, sees exactly which games
block it, gets them settled, corrects one result, and then reveals — in Chromium, at desktop
and phone size, with screenshots of each step in test-artifacts/."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from games import services as games
from games.models import Game, ResultVersion
from tests.browser.conftest import DESKTOP, shoot
from tests.factories import EntryFactory, OfficialFactory, UserFactory
from tournaments import services
from tournaments.models import AuditEntry, Entry, Official, Round, Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def round_in_play() -> Round:
    """One table of four, one set of three games: game 1 confirmed, game 2 finished but not
    confirmed, game 3 not started."""
    organiser = UserFactory(username="kato", is_staff=True)
    referee = UserFactory(username="ito")
    head = UserFactory(username="endo")
    cup = services.create_tournament_from_preset(
        actor=organiser,
        name="Sendai Open 仙台オープン",
        slug="sendai",
        games_per_set=3,
        sets_per_round=1,
    )
    cup.status = Tournament.Status.REGISTRATION
    cup.save()
    OfficialFactory(tournament=cup, user=referee, role=Official.Role.REFEREE)
    OfficialFactory(tournament=cup, user=head, role=Official.Role.HEAD_REFEREE)
    for number, name in enumerate(("Aoki", "Baba", "Chiba", "Doi"), start=1):
        EntryFactory(
            tournament=cup,
            number=number,
            player__display_name=name,
            status=Entry.Status.CHECKED_IN,
        )
    round_ = services.draw_round(cup.stages.get(), organiser)
    services.publish_round(round_, organiser)
    table = round_.tables.get()
    services.assign_referee(table, organiser, referee)
    first = games.start_game(table, referee, mode=Game.Mode.QUICK)
    games.record_quick_result(first, referee, [0, 1, 2, 3])
    games.confirm_game(first, head)
    second = games.start_game(table, referee, mode=Game.Mode.QUICK)
    games.record_quick_result(second, referee, [0, 1, 2, 3])
    return round_


def test_the_organiser_cannot_reveal_early_settles_the_round_corrects_a_result_and_reveals(
    page: Page, live_server: LiveServer, artifacts: Path, round_in_play: Round
) -> None:
    round_url = f"{live_server.url}/organiser/sendai/rounds/{round_in_play.pk}/"
    page.set_viewport_size(DESKTOP)
    page.goto(
        f"{live_server.url}/accounts/login/?next=/organiser/sendai/rounds/{round_in_play.pk}/"
    )
    page.get_by_label("User name").fill("kato")
    page.get_by_label("Password").fill("correct horse battery")
    page.get_by_role("button", name="Log in").click()

    # 1. Reveal too early: the confirmation says what revealing does, the refusal names the
    # blocking games, and the seed stays secret.
    expect(page.get_by_test_id("round-status")).to_have_text("In play")
    page.get_by_test_id("reveal").click()
    expect(page.get_by_test_id("confirm-step")).to_contain_text("re-derive every deal")
    shoot(page, artifacts, "round-reveal-confirm")
    page.get_by_test_id("confirm-reveal").click()
    expect(page.get_by_text("Cannot reveal the seed")).to_be_visible()
    blockers = page.get_by_test_id("blockers")
    expect(blockers).to_contain_text("Table 1, set 1, game 2: finished, not confirmed")
    expect(blockers).to_contain_text("Table 1, set 1, game 3: not started")
    expect(blockers.locator("li")).to_have_count(2)
    shoot(page, artifacts, "round-reveal-refused")
    assert Round.objects.get(pk=round_in_play.pk).revealed_seed is None

    # The public board meanwhile says game 2's result is provisional and the round in play.
    page.goto(f"{live_server.url}/standings/sendai/")
    expect(page.get_by_text("(1 provisional)").first).to_be_visible()
    shoot(page, artifacts, "standings-provisional")
    page.goto(round_url)
    blockers = page.get_by_test_id("blockers")

    # 2. Settle them: confirm game 2 (the organiser did not record it) and have the table
    # play game 3.
    blockers.get_by_role("link", name="Table 1, set 1, game 2: finished, not confirmed").click()
    expect(page.get_by_test_id("provisional")).to_be_visible()
    page.get_by_role("link", name="Confirm page").click()
    page.get_by_role("button", name="Confirm with my own account").click()
    expect(page.get_by_text("Result confirmed.")).to_be_visible()
    table = round_in_play.tables.get()
    third = games.start_game(table, table.referee, mode=Game.Mode.QUICK)  # type: ignore[arg-type]
    games.record_quick_result(third, table.referee, [0, 1, 2, 3])  # type: ignore[arg-type]
    games.confirm_game(third, Official.objects.get(role="head_referee").user)

    page.goto(round_url)
    expect(page.get_by_test_id("blockers")).to_contain_text("Every game is settled")

    # 3. Correct game 1 after a player's complaint: Baba and Chiba finished the other way
    # round. The preview shows both results side by side before anything is saved.
    page.get_by_role("link", name="Set 1 · game 1").click()
    form = page.get_by_test_id("correction-form")
    for seat, outcome in enumerate(("clean-1", "clean-3", "clean-2", "clean-4")):
        form.locator(f"select[name=outcome_{seat}]").select_option(outcome)
    form.get_by_label("Reason").fill("Score sheet swapped seats 2 and 3")
    form.get_by_role("button", name="Preview", exact=True).click()
    preview = page.get_by_test_id("correction-preview")
    expect(preview.locator("tr.changed")).to_have_count(2)
    expect(preview).to_contain_text("standings are recomputed")
    shoot(page, artifacts, "correction-preview")
    game1 = Game.objects.get(table=table, game_number=1)
    assert game1.result_version == 1  # nothing saved by the preview
    page.get_by_test_id("save-correction").click()
    # Saved once the page is drawn again without the preview (which quotes the reason too).
    expect(page.get_by_test_id("correction-preview")).to_have_count(0)
    expect(page.get_by_text("Score sheet swapped seats 2 and 3").first).to_be_visible()
    shoot(page, artifacts, "correction-saved")
    versions = list(ResultVersion.objects.filter(game=game1).order_by("number"))
    assert [v.kind for v in versions] == ["recorded", "correction"]
    places = {p["seat"]: p["place"] for p in versions[1].placings}
    assert (places[1], places[2]) == (3, 2)

    # 4. Reveal: the round completes and its seed becomes public.
    page.goto(round_url)
    page.get_by_test_id("reveal").click()
    page.get_by_test_id("confirm-reveal").click()
    expect(page.get_by_text("Seed revealed: every deal of the round")).to_be_visible()
    expect(page.get_by_test_id("round-status")).to_have_text("Seed revealed")
    revealed = Round.objects.get(pk=round_in_play.pk)
    expect(page.locator("code.hash").nth(1)).to_have_text(revealed.seed_secret)
    shoot(page, artifacts, "round-revealed")
    assert set(AuditEntry.objects.values_list("action", flat=True)) == {
        "result_corrected",
        "round_completed",
        "seed_revealed",
    }

    page.goto(f"{live_server.url}/organiser/sendai/audit/")
    expect(page.get_by_text("Score sheet swapped seats 2 and 3").first).to_be_visible()
    shoot(page, artifacts, "audit-record")

    page.goto(f"{live_server.url}/tournaments/sendai/rounds/{round_in_play.pk}/")
    expect(page.get_by_text("its SHA-256 equals the commitment")).to_be_visible()
    shoot(page, artifacts, "round-public-verify")
