"""An organiser pins 11-back as a choice (11バック) on the settings page of a JDF event, where
11-back is off; the next game a referee starts at an open table is played under it, and the
console offers the call up 上 / down 下 with a set of Js — at phone and desktop sizes."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from games.models import Game, Move
from tests.browser.conftest import DESKTOP, PHONE, log_in, shoot
from tests.factories import (
    OfficialFactory,
    StageFactory,
    TournamentFactory,
    UserFactory,
    seated_table,
)
from tournaments.models import Official

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_11_back_pinned_by_the_organiser_is_offered_on_a_j(
    page: Page, live_server: LiveServer, artifacts: Path
) -> None:
    organiser = UserFactory(username="kato")
    referee = UserFactory(username="ito")
    cup = TournamentFactory(name="House League 月例会", slug="house-league")
    OfficialFactory(tournament=cup, user=organiser, role=Official.Role.ORGANISER)
    OfficialFactory(tournament=cup, user=referee, role=Official.Role.REFEREE)
    stage = StageFactory(tournament=cup, order=1, name="League")

    page.set_viewport_size(PHONE)
    log_in(page, live_server.url, "kato", "/organiser/house-league/settings/")
    rules = page.get_by_test_id("event-rules")
    expect(rules).to_contain_text("Rules of this event")
    expect(rules).to_contain_text("Every rule is as the preset has it.")
    rules.locator("summary").click()  # the long list is folded away
    rules.get_by_label("11-back (11バック)").select_option(label="the player chooses up or down")
    shoot(page, artifacts, "event-rules-chosen")
    page.get_by_role("button", name="Save settings").click()

    expect(page.get_by_role("status")).to_contain_text("Rules of this event")
    expect(page.get_by_test_id("rules-changed")).to_contain_text("11-back (11バック)")
    expect(page.locator("[data-switch=eleven_back] [data-testid=switch-changed]")).to_contain_text(
        "preset: off"
    )
    page.get_by_test_id("event-rules").locator("summary").click()
    shoot(page, artifacts, "event-rules-saved")
    page.set_viewport_size(PHONE)
    section = page.get_by_test_id("event-rules")
    section.screenshot(path=str(artifacts / "event-rules-section-phone.png"))
    page.locator("[data-switch=eleven_back]").screenshot(
        path=str(artifacts / "event-rules-eleven-back-phone.png")
    )
    page.goto(f"{live_server.url}/organiser/house-league/")
    expect(page.get_by_test_id("rules-changed-link")).to_contain_text("1 rule changed")

    # The round is published; the referee starts the table's first game at an open table.
    table = seated_table(referee, stage=stage)
    page.context.clear_cookies()
    page.set_viewport_size(PHONE)
    log_in(page, live_server.url, "ito", f"/referee/tables/{table.pk}/")
    page.get_by_label("Open table", exact=True).check()
    page.get_by_label("Open table: who leads (holds the opening card)").select_option(label="Baba")
    page.get_by_role("button", name="Start game").click()

    calls = page.get_by_test_id("eleven-back")
    expect(calls).to_be_visible()
    page.get_by_label("Cards played").fill("JS JH")
    calls.get_by_label("Down").check()
    shoot(page, artifacts, "event-rules-console-call")
    page.get_by_role("button", name="Play", exact=True).click()
    expect(page.get_by_test_id("trick")).to_contain_text("♠J")

    game = Game.objects.get(table=table)
    assert game.ruleset_overrides == {"eleven_back": "choice"}
    move = Move.objects.get(game=game, seq=1)
    assert move.payload == {"seat": 1, "play": ["JS", "JH"], "choice": "down"}
    assert {"kind": "eleven_back", "seat": 1, "order": "down"} in move.events
    page.set_viewport_size(DESKTOP)
