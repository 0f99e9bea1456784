"""Two officials have the same console open in Japanese; one undoes the last move, the other
then taps undo on their unchanged page: nothing more is undone, and the message saying the move
was already undone shows beside the undo form they tapped (phone and desktop screenshots)."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect
from pytest_django.live_server_helper import LiveServer

from games import services
from games.models import Game, Move
from tests.factories import GameFactory, OfficialFactory, UserFactory, seated_table
from tournaments.models import Official

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

HANDS = [["5D", "9C"], ["2C"], ["JK"], ["6H"]]
SIZES = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1280, "height": 900}}


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_second_undo_from_the_same_page_is_refused_beside_its_form(
    browser: Browser, live_server: LiveServer, artifacts: Path, size: str
) -> None:
    referee, head = UserFactory(username="ito"), UserFactory(username="endo")
    table = seated_table(referee)
    tournament = table.round.stage.tournament
    OfficialFactory(tournament=tournament, user=referee, role=Official.Role.REFEREE)
    OfficialFactory(tournament=tournament, user=head, role=Official.Role.HEAD_REFEREE)
    game = GameFactory(table=table, game_number=1, hands=HANDS, leader=0)
    for seq, move in enumerate([{"seat": 0, "play": ["5D"]}, {"seat": 1, "play": ["2C"]}], 1):
        assert services.submit_move(game, move, seq, referee).ok
    context = browser.new_context(locale="ja-JP", viewport=SIZES[size])
    page = context.new_page()
    page.goto(f"{live_server.url}/accounts/login/?next=/referee/tables/{table.pk}/")
    page.locator("#id_username").fill("ito")
    page.locator("#id_password").fill("correct horse battery")
    page.locator("form[action='/accounts/login/'] [type=submit]").click()
    undo = page.get_by_test_id("undo-form")
    expect(undo).to_be_visible()

    services.request_undo(game, head, "2の入力ミス", seq=2)  # the head referee, on their own page
    undo.locator("input[name=reason]").fill("2の入力ミス")
    undo.get_by_role("button").click()

    refusal = page.get_by_test_id("undo-error")
    expect(refusal).to_contain_text("手番号 2 はすでに取り消されています")
    expect(refusal).to_contain_text("already_undone")
    page.screenshot(path=str(artifacts / f"console-stale-undo-{size}.png"), full_page=True)
    context.close()
    assert Move.objects.filter(game=game, kind=Move.Kind.UNDO).count() == 1
    game.refresh_from_db()
    assert (game.status, game.last_seq) == (Game.Status.IN_PLAY, 3)
