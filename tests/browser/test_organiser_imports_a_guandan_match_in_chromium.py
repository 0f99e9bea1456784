"""An organiser imports a 掼蛋 (Guandan) match played on paper, in Chromium set to Japanese: the
table's import page explains a hand's `match`; a match record whose second hand has a move out
of turn is refused naming 「第2局 4手目」 and nothing is kept; the corrected match record imports
as the table's hands 1–2. Screenshots at phone (390×844) and desktop size go to
test-artifacts/import-guandan-*.png."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, expect
from pytest_django.live_server_helper import LiveServer

from games.engine.guandan import next_match
from games.engine.record import export_match_record, load_record, replay
from games.models import Game
from tests.browser.conftest import DESKTOP, shoot
from tests.factories import OfficialFactory, UserFactory, guandan_engine_record, guandan_table
from tournaments.models import Official

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def a_match() -> tuple[dict[str, Any], dict[str, Any]]:
    """A two-hand match record, and the same with a move out of turn in its second hand."""
    first = guandan_engine_record("paper match hand 1")
    second = guandan_engine_record("paper match hand 2", match=next_match(replay(first).state))
    record = export_match_record(
        (loaded.initial_state(), loaded.moves) for loaded in map(load_record, (first, second))
    )
    broken = json.loads(json.dumps(record))
    move = broken["games"][1]["moves"][3]
    move["seat"] = (move["seat"] + 1) % 4
    return record, broken


def test_an_organiser_imports_a_guandan_match_record(
    browser: Browser, live_server: LiveServer, artifacts: Path
) -> None:
    table = guandan_table(None, names=("青木", "馬場", "千葉", "土井"))
    OfficialFactory(
        tournament=table.round.stage.tournament,
        user=UserFactory(username="kato"),
        role=Official.Role.ORGANISER,
    )
    slug = table.round.stage.tournament.slug
    record, broken = a_match()

    context = browser.new_context(locale="ja-JP", viewport=DESKTOP)
    context.set_default_timeout(15_000)
    page = context.new_page()
    page.goto(f"{live_server.url}/accounts/login/")
    page.locator("#id_username").fill("kato")
    page.locator("#id_password").fill("correct horse battery")
    with page.expect_navigation():
        page.locator("form[action='/accounts/login/'] [type=submit]").click()
    page.goto(f"{live_server.url}/organiser/{slug}/rounds/{table.round_id}/")

    page.get_by_test_id(f"import-records-{table.number}").click()
    expect(page.get_by_test_id("import-match-help")).to_contain_text("match")
    shoot(page, artifacts, "import-guandan-form")

    page.locator("textarea").fill(json.dumps(broken, ensure_ascii=False))
    page.get_by_test_id("import-button").click()
    outcomes = page.get_by_test_id("import-outcome")
    expect(outcomes).to_have_count(1)
    expect(outcomes.nth(0)).to_contain_text("第2局 4手目")
    assert not Game.objects.filter(table=table).exists()
    shoot(page, artifacts, "import-guandan-refused")

    page.locator("textarea").fill(json.dumps(record, ensure_ascii=False))
    page.get_by_test_id("import-button").click()
    expect(outcomes.nth(0)).to_contain_text("試合の第1局〜第2局として取り込みました")
    expect(page.get_by_test_id("import-summary")).to_contain_text("2局を取り込みました")
    expect(page.get_by_test_id("next-game")).to_contain_text("第3")
    shoot(page, artifacts, "import-guandan-imported")
    assert Game.objects.filter(table=table, status=Game.Status.FINISHED).count() == 2
    context.close()
