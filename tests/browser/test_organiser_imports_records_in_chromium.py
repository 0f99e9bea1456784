"""An organiser imports a table's games played on paper, in Chromium set to Japanese: from the
round page's 「棋譜を取り込む」 on table 1, a .jsonl file of two records (the second with a move
out of turn) imports the first as 第1局 and refuses the second with its code, the engine's
message and 「N手目」; pasting the first again says it was imported already. Screenshots at
phone (390×844) and desktop size go to test-artifacts/import-records-*.png."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect
from pytest_django.live_server_helper import LiveServer

from games.engine.record import replay
from games.models import Game
from tests.browser.conftest import DESKTOP, shoot
from tests.factories import EntryFactory, UserFactory, engine_record, titles_after
from tournaments import services
from tournaments.models import Entry, Round, Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def published_round() -> Round:
    organiser = UserFactory(username="kato", is_staff=True)
    cup = services.create_tournament_from_preset(
        actor=organiser, name="紙の大会 Paper Cup", slug="paper", games_per_set=2,
        sets_per_round=1,
    )  # fmt: skip
    cup.status = Tournament.Status.REGISTRATION
    cup.save()
    for number, name in enumerate(("青木", "馬場", "千葉", "土井"), start=1):
        EntryFactory(tournament=cup, number=number, player__display_name=name,
                     status=Entry.Status.CHECKED_IN)  # fmt: skip
    round_ = services.draw_round(cup.stages.get(), organiser)
    return services.publish_round(round_, organiser)


def test_an_organiser_imports_a_file_of_records_on_the_round_page(
    browser: Browser, live_server: LiveServer, artifacts: Path, tmp_path: Path,
    published_round: Round,
) -> None:  # fmt: skip
    first = engine_record("paper game 1")
    second = engine_record("paper game 2", titles=titles_after(first))
    second["moves"][6] = {**second["moves"][6], "seat": (second["moves"][6]["seat"] + 1) % 4}
    refused = replay(second).moves[6].error
    assert refused is not None
    upload = tmp_path / "table-1.jsonl"
    upload.write_text("\n".join(json.dumps({"record": r}) for r in (first, second)) + "\n")

    context = browser.new_context(locale="ja-JP", viewport=DESKTOP)
    context.set_default_timeout(15_000)
    page = context.new_page()
    page.goto(f"{live_server.url}/accounts/login/")
    page.locator("#id_username").fill("kato")
    page.locator("#id_password").fill("correct horse battery")
    with page.expect_navigation():
        page.locator("form[action='/accounts/login/'] [type=submit]").click()
    page.goto(f"{live_server.url}/organiser/paper/rounds/{published_round.pk}/")

    page.get_by_test_id("import-records-1").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("棋譜を取り込む")
    expect(page.get_by_test_id("next-game")).to_contain_text("第1セット")
    shoot(page, artifacts, "import-records-form")

    page.locator("input[type=file]").set_input_files(str(upload))
    page.get_by_test_id("import-button").click()
    outcomes = page.get_by_test_id("import-outcome")
    expect(outcomes).to_have_count(2)
    expect(outcomes.nth(0)).to_contain_text("第1セット · 第1局として取り込みました")
    expect(outcomes.nth(1)).to_contain_text("7手目")
    expect(outcomes.nth(1)).to_contain_text(refused.message_ja)
    expect(outcomes.nth(1)).to_contain_text(refused.code)
    expect(page.get_by_test_id("import-summary")).to_contain_text("1局を取り込みました")
    expect(page.get_by_test_id("next-game")).to_contain_text("第2ゲーム")
    shoot(page, artifacts, "import-records-result")

    page.locator("textarea").fill(json.dumps(first, ensure_ascii=False))
    page.get_by_test_id("import-button").click()
    expect(outcomes).to_have_count(1)
    expect(outcomes.nth(0)).to_contain_text("取り込み済み")
    shoot(page, artifacts, "import-records-duplicate")

    outcomes.nth(0).get_by_role("link").click()
    expect(page.get_by_test_id("imported")).to_be_visible()
    shoot(page, artifacts, "import-records-game")
    game = Game.objects.get()
    assert game.is_imported and game.status == Game.Status.FINISHED
    context.close()
