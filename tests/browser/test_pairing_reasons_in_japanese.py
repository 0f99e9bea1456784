"""A reader in Japanese finds a 掼蛋 event's round-2 reasons in Japanese on the public round page
and the organiser's: the point group, the team that floated down, the bye — at phone and
desktop size, with screenshots in test-artifacts/."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from tests.factories import UserFactory, finished_match
from tournaments import services
from tournaments.models import Round, Tournament
from tournaments.services import TeamMember

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
PAIRS = [
    ("桜 Sakura", "佐藤 葵", "鈴木 海斗"),
    ("富士 Fuji", "高橋 凛", "田中 悠斗"),
    ("風 Kaze", "伊藤 芽衣", "渡辺 陽"),
    ("海 Umi", "山本 空", "中村 恵美"),
    ("山 Yama", "小林 太郎", "吉田 奈々"),
]


@pytest.fixture
def second_round() -> Round:
    organiser = UserFactory(username="chen", is_staff=True)
    cup = services.create_tournament_from_preset(
        actor=organiser, name="関西掼蛋カップ", slug="kansai-guandan", ruleset="guandan-cn@1"
    )
    cup.status = Tournament.Status.RUNNING
    cup.save()
    for name, first, second in PAIRS:
        services.register_team(
            cup, organiser, name=name, members=[TeamMember(first), TeamMember(second)]
        )
    stage = cup.stages.get()
    first_round = services.draw_round(stage, organiser, seed="one")
    services.publish_round(first_round, organiser)
    for table in first_round.tables.all():
        finished_match(table, levels=("A", "8"), winner=0, hands=4)
    services.complete_round(first_round, organiser)
    second = services.draw_round(stage, organiser, seed="two")
    services.publish_round(second, organiser)
    return second


def test_round_two_reasons_read_in_japanese(
    page: Page, live_server: LiveServer, artifacts: Path, second_round: Round
) -> None:
    page.set_extra_http_headers({"Accept-Language": "ja"})
    page.set_viewport_size(PHONE)
    page.goto(f"{live_server.url}/tournaments/kansai-guandan/rounds/{second_round.pk}/")

    reasons = page.locator(".table-card-preview .explanation")
    expect(reasons).to_have_count(second_round.tables.count())
    expect(reasons.first).to_contain_text("勝点")
    expect(page.get_by_test_id("bye-explanation")).to_contain_text("は不戦")
    text = page.locator("main").inner_text()
    assert "MP)" not in text and "floated down" not in text and "had a bye" not in text
    assert "下位グループへ" in text
    page.screenshot(path=str(artifacts / "pairing-reasons-ja-public-phone.png"), full_page=True)
    page.set_viewport_size(DESKTOP)
    page.screenshot(path=str(artifacts / "pairing-reasons-ja-public-desktop.png"), full_page=True)

    page.goto(f"{live_server.url}/accounts/login/?next=/organiser/kansai-guandan/")
    page.locator("input[name=username]").fill("chen")
    page.locator("input[name=password]").fill("correct horse battery")
    page.locator("form button[type=submit]").last.click()
    page.goto(f"{live_server.url}/organiser/kansai-guandan/rounds/{second_round.pk}/")
    expect(page.locator("#table-1 .explanation")).to_contain_text("勝点")
    assert "floated down" not in page.locator("main").inner_text()
    page.set_viewport_size(PHONE)
    page.screenshot(path=str(artifacts / "pairing-reasons-ja-organiser-phone.png"), full_page=True)
