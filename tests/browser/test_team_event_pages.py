"""An organiser runs a 掼蛋 team event up to the draw in Chromium: sees the teams with their
members, adds a pair with the form, sets a time-limited match on the settings page, draws
round 1 and finds each table as "Team A v Team B" with both sides and the reason — at phone
and desktop size, with screenshots in test-artifacts/."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from tests.browser.conftest import DESKTOP, PHONE, shoot
from tests.factories import UserFactory, finished_match
from tournaments import services
from tournaments.models import Round, Tournament
from tournaments.services import TeamMember

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PAIRS = [
    ("桜 Sakura", "佐藤 葵", "鈴木 海斗"),
    ("富士 Fuji", "高橋 凛", "田中 悠斗"),
    ("風 Kaze", "伊藤 芽衣", "渡辺 陽"),
    ("海 Umi", "山本 空", "中村 恵美"),
    ("山 Yama", "小林 太郎", "吉田 奈々"),
]


@pytest.fixture
def event() -> Tournament:
    organiser = UserFactory(username="chen", is_staff=True)
    cup = services.create_tournament_from_preset(
        actor=organiser, name="関西掼蛋カップ", slug="kansai-guandan", ruleset="guandan-cn@1"
    )
    cup.status = Tournament.Status.RUNNING  # the tournament day: new pairs check in at once
    cup.save()
    for name, first, second in PAIRS:
        services.register_team(
            cup, organiser, name=name, members=[TeamMember(first), TeamMember(second)]
        )
    return cup


def test_the_organiser_adds_a_pair_sets_the_match_and_draws_round_one(
    page: Page, live_server: LiveServer, artifacts: Path, event: Tournament
) -> None:
    page.set_viewport_size(DESKTOP)
    page.goto(f"{live_server.url}/accounts/login/?next=/organiser/kansai-guandan/")
    page.get_by_label("User name").fill("chen")
    page.get_by_label("Password").fill("correct horse battery")
    page.get_by_role("button", name="Log in").click()

    teams = page.get_by_test_id("teams")
    expect(teams.locator("tbody tr")).to_have_count(5)
    expect(page.get_by_test_id("team-1")).to_contain_text("佐藤 葵")
    stage = event.stages.get()
    summary = page.get_by_test_id(f"draw-layout-{stage.pk}").get_by_test_id("layout-summary")
    expect(summary).to_have_text("5 teams → 2 tables of two teams + 1 team with a bye")

    # A sixth pair at the door: the add-team form (htmx) lists it and the preview follows.
    page.get_by_text("Add a team", exact=True).click()
    page.get_by_label("Team name").fill("花 Hana")
    page.get_by_label("Player 1: name").fill("山田 健太")
    page.get_by_label("Player 2: name").fill("佐々木 莉奈")
    page.get_by_role("button", name="Add team").click()
    expect(page.get_by_test_id("entries-done")).to_contain_text("Added team 6 花 Hana.")
    expect(teams.locator("tbody tr")).to_have_count(6)
    expect(summary).to_have_text("6 teams → 3 tables of two teams")
    page.get_by_test_id("teams").scroll_into_view_if_needed()
    shoot(page, artifacts, "team-event-entrants")
    page.set_viewport_size(PHONE)
    teams.screenshot(path=str(artifacts / "team-event-teams-block-phone.png"))
    page.set_viewport_size(DESKTOP)

    # The match: a time limit of 40 minutes.
    page.goto(f"{live_server.url}/organiser/kansai-guandan/settings/")
    expect(page.get_by_test_id("match-settings")).to_be_visible()
    expect(page.get_by_label("Titles reset every (games)")).to_have_count(0)
    page.get_by_label("A match lasts").select_option("time")
    page.get_by_role("button", name="Save settings").click()
    expect(page.locator("#field-match_minutes .field-error")).to_contain_text("needs its minutes")
    page.get_by_label("Time limit (minutes)").fill("40")
    page.get_by_role("button", name="Save settings").click()
    expect(page.locator(".success-box")).to_contain_text("Saved")
    shoot(page, artifacts, "team-event-settings")
    event.refresh_from_db()
    assert (event.match_length, event.match_minutes) == ("time", 40)

    # Round 1: three tables, each "Team A v Team B" with both sides and the reason.
    page.goto(f"{live_server.url}/organiser/kansai-guandan/")
    page.get_by_role("button", name="Draw next round").click()
    for number in (1, 2, 3):
        pairing = page.get_by_test_id(f"pairing-{number}")
        expect(pairing).to_contain_text(" v ")
        expect(page.locator(f"#table-{number} .team-sides li")).to_have_count(4)
        expect(page.locator(f"#table-{number} .explanation")).to_have_text(
            "Paired by lot (first round)."
        )
    shoot(page, artifacts, "team-event-round")
    round_ = Round.objects.get(stage=stage)
    services.publish_round(round_, event.officials.get().user)

    # The public round page, in Japanese.
    page.set_extra_http_headers({"Accept-Language": "ja"})
    page.context.clear_cookies()
    page.goto(f"{live_server.url}/tournaments/kansai-guandan/rounds/{round_.pk}/")
    expect(page.get_by_test_id("pairing-1")).to_contain_text("対")
    shoot(page, artifacts, "team-event-public-round")

    # Round 2 after the matches: winners meet winners, each table says why.
    organiser = event.officials.get().user
    for table in round_.tables.all():
        finished_match(table, levels=("A", "8"), winner=0, hands=4)
    services.complete_round(round_, organiser)
    page.set_extra_http_headers({"Accept-Language": "en"})
    page.goto(f"{live_server.url}/accounts/login/?next=/organiser/kansai-guandan/")
    page.get_by_label("User name").fill("chen")
    page.get_by_label("Password").fill("correct horse battery")
    page.get_by_role("button", name="Log in").click()
    page.get_by_role("button", name="Draw next round").click()
    expect(page.locator("#table-1 .explanation")).to_contain_text("paired in the 2-point group")
    expect(page.locator("#table-2 .explanation")).to_contain_text("floated down")
    shoot(page, artifacts, "team-event-round-2")
