"""On the referee console (in Japanese) the seat in turn's think time ticks down in the browser
after an 8-cut restored the cutter's time; at 0 it turns red and says 時間切れ; one tap on the
time-fault button records the fault (a warning here), and the clock keeps its state across the
htmx swap. Screenshots at phone and desktop size."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect
from pytest_django.live_server_helper import LiveServer

from games import services
from games.models import TimeFault
from tests.browser.conftest import shoot
from tests.factories import (
    EIGHT_CUT_HANDS,
    EIGHT_CUT_MOVES,
    GameFactory,
    OfficialFactory,
    UserFactory,
    seated_table,
)
from tournaments.models import Official, Penalty, Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_countdown_ticks_to_time_up_and_the_fault_is_one_tap(
    browser: Browser, live_server: LiveServer, artifacts: Path
) -> None:
    referee = UserFactory(username="ito")
    table = seated_table(referee)
    tournament = table.round.stage.tournament
    Tournament.objects.filter(pk=tournament.pk).update(think_seconds=6)
    OfficialFactory(tournament=tournament, user=referee, role=Official.Role.REFEREE)
    game = GameFactory(table=table, game_number=1, hands=EIGHT_CUT_HANDS, leader=0)
    for seq, move in enumerate(EIGHT_CUT_MOVES, 1):
        assert services.submit_move(game, move, seq, referee).ok
    context = browser.new_context(locale="ja-JP", viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.goto(f"{live_server.url}/accounts/login/?next=/referee/tables/{table.pk}/")
    page.locator("#id_username").fill("ito")
    page.locator("#id_password").fill("correct horse battery")
    page.locator("form[action='/accounts/login/'] [type=submit]").click()

    expect(page.get_by_test_id("clock-eight-cut")).to_have_text("8切り: 持ち時間が6秒に戻りました")
    left = page.get_by_test_id("clock-left")
    expect(left).not_to_have_text("0")
    shoot(page, artifacts, "console-clock-ticking")
    expect(left).to_have_text("0", timeout=10_000)
    expect(page.get_by_test_id("clock-out")).to_have_text("時間切れ")
    expect(page.locator("#think-clock")).to_have_class("countdown out")
    shoot(page, artifacts, "console-clock-time-up")

    page.get_by_test_id("time-fault").click()

    recorded = page.get_by_test_id("time-fault-recorded")
    expect(recorded).to_contain_text("時間切れ")
    expect(recorded).to_contain_text("警告")
    # The swapped-in console's clock is ticked at once: still out of time.
    expect(page.get_by_test_id("clock-out")).to_be_visible()
    expect(page.locator("#think-clock")).to_have_class("countdown out")
    shoot(page, artifacts, "console-clock-fault-recorded")
    context.close()
    fault = TimeFault.objects.get()
    assert (fault.seat, fault.rule, fault.due_seq) == (0, "warning", 5)
    assert Penalty.objects.get().kind == Penalty.Kind.WARNING
