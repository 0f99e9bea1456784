"""A whole small event run through the pages alone — never the Django admin, a shell or a
service call: the organiser creates the tournament from a preset, changes its settings, adds a
final, adds the officials and prints their PIN cards, imports entrants from a Shift_JIS file,
adds a walk-in, checks people in, draws, publishes and assigns referees; referees sign in on
their phones with the PIN cards and record quick results that players confirm with the table
card's PIN; the head referee confirms the other tables from the progress page; a late arrival
joins round 2; the qualifiers advance to the final, which is played and completed; the
tournament is marked finished and the public reads the standings. Screenshots (phone for the
referees, desktop for the organiser) go to test-artifacts/whole-event-*.png."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.utils import timezone
from playwright.sync_api import Browser, BrowserContext, Page, expect
from pytest_django.live_server_helper import LiveServer

from games.models import Game
from tournaments.models import AuditEntry, Round, Stage, Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
PASSWORD = "a long organiser password"
SLUG = "sendai-spring"
NAMES = [  # the nine entrants of the CSV file, as Japanese Excel saves it (Shift_JIS)
    ("青木 陽", "あおき はる"),
    ("馬場 凛", "ばば りん"),
    ("千葉 蓮", "ちば れん"),
    ("土井 葵", "どい あおい"),
    ("遠藤 湊", "えんどう みなと"),
    ("藤井 結衣", "ふじい ゆい"),
    ("後藤 陸", "ごとう りく"),
    ("原田 芽依", "はらだ めい"),
    ("石井 大和", "いしい やまと"),
]
REFEREES = {"Ito Hana": "Ito Hana (sendai-spring-1)", "Sato Ken": "Sato Ken (sendai-spring-2)"}
LATE = 9  # 石井 大和 is not there when round 1 is drawn


def shoot(page: Page, artifacts: Path, name: str) -> None:
    """The page as it is now, at its own size (phones stay phones, laptops laptops)."""
    page.screenshot(path=str(artifacts / f"whole-event-{name}.png"), full_page=True)


def log_in(page: Page, base: str, username: str) -> None:
    page.goto(f"{base}/accounts/login/")
    page.get_by_label("User name").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()


def sign_in_with_pin(page: Page, url: str, pin: str) -> None:
    """What a referee does with the PIN card: open the address printed on it, type the PIN."""
    page.goto(url)
    page.get_by_label("PIN (8 digits)").fill(pin)
    page.get_by_role("button", name="Sign in", exact=True).click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("My tables")


def record_quick_result(console: Page, while_in_play: Callable[[], None] | None = None) -> None:
    """Start the table's next game as a quick result and record it: seat order is the
    finishing order (the players called it at the table)."""
    console.get_by_label("Quick result", exact=True).check()
    console.get_by_role("button", name="Start game").click()
    if while_in_play:
        while_in_play()
    outcomes = console.locator("select[name^=outcome_]")
    expect(outcomes.first).to_be_visible()
    for seat in range(outcomes.count()):
        console.locator(f"select[name=outcome_{seat}]").select_option(f"clean-{seat + 1}")
    console.get_by_role("button", name="Record result").click()
    expect(console.get_by_test_id("placings")).to_be_visible()


def play_table_with_player_pins(
    console: Page, table_number: int, games: int, pin: str, artifacts: Path, shot: str = ""
) -> None:
    """A referee's table: each game recorded, then a seated player confirms it with the PIN
    printed on the table card; the confirm page leads back to the console."""
    for game in range(1, games + 1):
        record_quick_result(console)
        console.get_by_test_id("confirm-at-table").click()
        form = console.get_by_test_id("pin-form")
        form.locator("input[name=seat]").last.check()
        form.get_by_label("Table PIN").fill(pin)
        if shot and game == 1:
            shoot(console, artifacts, f"{shot}-confirm")
        form.get_by_role("button", name="Confirm as this player").click()
        expect(console.get_by_test_id("confirmed")).to_be_visible()
        if shot and game == games:
            shoot(console, artifacts, f"{shot}-table-done")
        console.get_by_test_id("back-to-console").click()
        expect(console.get_by_role("heading", level=1)).to_contain_text(f"Table {table_number}")


def assert_no_hands(page: Page) -> None:
    """No card of anyone's hand on a public page."""
    expect(page.locator(".hand")).to_have_count(0)
    expect(page.locator("span.card")).to_have_count(0)


def table_pins(page: Page, count: int) -> dict[int, str]:
    """Read each table's players' PIN from the printed table cards."""
    pins = {}
    for number in range(1, count + 1):
        digits = page.get_by_test_id(f"pin-{number}").locator(".pin-digits").inner_text()
        pins[number] = digits.strip()
    return pins


def test_a_whole_event_runs_through_the_pages_alone(
    page: Page, browser: Browser, live_server: LiveServer, artifacts: Path, tmp_path: Path
) -> None:
    base = live_server.url
    # The one account made outside the pages, as `createsuperuser` makes it.
    User.objects.create_superuser("kato", "kato@example.jp", PASSWORD, first_name="Kato Rin")
    contexts: list[BrowserContext] = []

    def phone() -> Page:
        context = browser.new_context(viewport=PHONE)
        context.set_default_timeout(10_000)
        contexts.append(context)
        return context.new_page()

    # ------------------------------------------------------------------ 1. The tournament
    page.set_viewport_size(DESKTOP)
    page.context.set_default_timeout(10_000)
    log_in(page, base, "kato")
    expect(page).to_have_url(f"{base}/organiser/")
    page.get_by_label("Name").fill("Sendai Spring Cup 仙台春の陣")
    page.get_by_label("Address").fill(SLUG)
    page.get_by_label("Starts on").fill(timezone.localdate().isoformat())
    shoot(page, artifacts, "01-organiser-home")
    page.get_by_role("button", name="Create tournament").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Sendai Spring Cup 仙台春の陣")

    page.get_by_test_id("settings-link").click()
    page.get_by_label("Venue").fill("Sendai Civic Hall 仙台市民会館")
    page.get_by_label("Sets a round").fill("1")
    page.get_by_label("Games a set").fill("2")
    page.get_by_label("Status").select_option("registration")
    page.get_by_role("button", name="Save settings").click()
    for saved in ("Venue", "Status", "Games a set", "Sets a round"):
        expect(page.get_by_role("status")).to_contain_text(saved)
    shoot(page, artifacts, "02-settings-saved")
    cup = Tournament.objects.get(slug=SLUG)
    assert (cup.sets_per_round, cup.games_per_set) == (1, 2)

    page.get_by_role("link", name="Sendai Spring Cup 仙台春の陣").first.click()
    page.get_by_test_id("stages-link").click()
    form = page.locator("#add-stage")
    form.get_by_label("Kind").select_option("final")
    form.get_by_label("Top N by total points").fill("4")
    form.get_by_role("button", name="Add stage").click()
    expect(page.locator("#stages-body .messages")).to_contain_text("added")
    shoot(page, artifacts, "03-stages")
    qualifying, final = Stage.objects.filter(tournament=cup).order_by("order")
    assert final.kind == Stage.Kind.FINAL
    assert Stage.objects.get(pk=qualifying.pk).advance_top_n == 4

    # ------------------------------------------------------------------ 2. Officials
    page.get_by_role("link", name="Sendai Spring Cup 仙台春の陣").first.click()
    page.get_by_test_id("officials-link").click()
    for name, role in (
        ("Ito Hana", "referee"),
        ("Sato Ken", "referee"),
        ("Endo Mai", "head_referee"),
    ):
        form = page.get_by_test_id("add-official")
        form.get_by_label("Name", exact=True).fill(name)
        form.get_by_label("Role").select_option(role)
        form.get_by_role("button", name="Add", exact=True).click()
        expect(page.get_by_test_id("officials-done")).to_contain_text(name)
    shoot(page, artifacts, "04-officials")
    with page.context.expect_page() as new_tab:
        page.get_by_test_id("print-pin-cards").get_by_role("button").click()
    cards_page = new_tab.value
    cards_page.wait_for_load_state()
    cards_page.set_viewport_size(DESKTOP)
    expect(cards_page.get_by_test_id("pin-card")).to_have_count(3)
    pin_cards = {}
    for card in cards_page.get_by_test_id("pin-card").all():
        name = card.locator(".pin-card-name").inner_text()
        pin_cards[name] = (
            card.locator(".pin-card-url").inner_text(),
            card.get_by_test_id("pin-card-pin").inner_text(),
        )
    shoot(cards_page, artifacts, "05-pin-cards")
    cards_page.close()

    # ------------------------------------------------------------------ 3. Entrants
    page.get_by_role("link", name="Sendai Spring Cup 仙台春の陣").first.click()
    csv_file = tmp_path / "entrants.csv"
    csv_file.write_bytes(
        ("display_name,name_kana\n" + "".join(f"{n},{k}\n" for n, k in NAMES)).encode("cp932")
    )
    page.get_by_label("CSV file").set_input_files(str(csv_file))
    page.get_by_role("button", name="Preview import").click()
    expect(page.get_by_test_id("csv-encoding")).to_have_text("Shift_JIS (CP932)")
    shoot(page, artifacts, "06-csv-preview")
    page.get_by_test_id("csv-preview").get_by_role("button", name="Import 9 entrants").click()
    expect(page.get_by_test_id("import-done")).to_have_text("Imported 9 entrants.")

    walk_in = page.get_by_test_id("walk-in")
    walk_in.get_by_text("Add a walk-in").click()
    walk_in.get_by_label(re.compile("^Name")).fill("上田 空")
    walk_in.get_by_label("Kana").fill("うえだ そら")
    expect(walk_in.get_by_label("Checked in now")).to_be_checked()
    walk_in.get_by_role("button", name="Add entrant").click()
    expect(page.get_by_test_id("entries-done")).to_contain_text("Added #10 上田 空")
    for number in range(1, 9):
        page.get_by_role("button", name=f"Check in #{number}", exact=True).click()
        expect(
            page.get_by_role("button", name=f"Undo check-in #{number}", exact=True)
        ).to_be_visible()
    stage_layout = page.get_by_test_id(f"draw-layout-{qualifying.pk}")
    summary = stage_layout.get_by_test_id("layout-summary")
    expect(summary).to_have_text("9 players → 3 tables of 3")
    stage_layout.get_by_text("change", exact=True).click()
    stage_layout.get_by_label("Some tables one seat short (e.g. tables of 3)").check()
    stage_layout.get_by_role("button", name="Save policy").click()
    expect(summary).to_have_text("9 players → 3 tables of 3")
    shoot(page, artifacts, "07-dashboard-before-draw")

    page.get_by_role("button", name="Draw next round").first.click()
    expect(page.get_by_role("heading", name="Table 3")).to_be_visible()
    page.get_by_role("link", name="Publish round…").click()
    page.get_by_role("button", name="Yes, Publish round").click()
    expect(page.get_by_text("Round published with its seed commitment.")).to_be_visible()
    round1 = Round.objects.get(stage=qualifying, number=1)
    assign = page.get_by_test_id("assign-referees")
    assign.get_by_test_id("bulk-referee").select_option(label="Ito Hana (sendai-spring-1)")
    assign.get_by_label("Table 1").check()
    assign.get_by_test_id("assign-referees-button").click()
    expect(page.get_by_text("Referee of table 1: Ito Hana")).to_be_visible()
    assign = page.get_by_test_id("assign-referees")
    assign.get_by_test_id("bulk-referee").select_option(label="Sato Ken (sendai-spring-2)")
    assign.get_by_label("Table 2").check()
    assign.get_by_label("Table 3").check()
    assign.get_by_test_id("assign-referees-button").click()
    expect(page.get_by_text("Referee of tables 2, 3: Sato Ken")).to_be_visible()
    shoot(page, artifacts, "08-round-1-published")
    page.get_by_role("link", name="Print table cards").click()
    pins = table_pins(page, 3)
    shoot(page, artifacts, "09-table-cards")
    page.get_by_role("link", name="Back to the round").click()
    page.get_by_test_id("progress-link").click()
    expect(page.get_by_test_id("summary")).to_contain_text("0 of 3 tables done")

    # ------------------------------------------------------------------ 4. Referee 1
    # Meanwhile a visitor follows the round from the public pages, on their phone.
    public = browser.new_context(viewport=PHONE)
    public.set_default_timeout(10_000)
    contexts.append(public)
    visitor = public.new_page()
    visitor.goto(f"{base}/")
    visitor.get_by_role("link", name="Sendai Spring Cup 仙台春の陣").click()
    visitor.get_by_role("link", name=re.compile("Qualifying 予選 · Round 1")).click()

    ito = phone()
    sign_in_with_pin(ito, *pin_cards["Ito Hana"])
    shoot(ito, artifacts, "10-referee-home-phone")
    ito.get_by_test_id("my-table").get_by_role("link").click()
    play_table_with_player_pins(ito, 1, 2, pins[1], artifacts, shot="11-referee-1-phone")

    # ------------------------------------------------------------------ 5. Referee 2, head
    sato = phone()
    sign_in_with_pin(sato, *pin_cards["Sato Ken"])

    def watch_table_2() -> None:
        """The visitor follows table 2 live while its first game is played: no hand shows."""
        visitor.get_by_test_id("live-2").click()
        expect(visitor.get_by_role("heading", level=1)).to_contain_text("Table 2")
        shoot(visitor, artifacts, "12-public-live-table-phone")
        assert_no_hands(visitor)

    for table_number in (2, 3):
        sato.get_by_role("link", name=re.compile(f"Table {table_number}")).click()
        for game in range(2):
            record_quick_result(sato, watch_table_2 if (table_number, game) == (2, 0) else None)
        shoot(sato, artifacts, f"12-referee-2-table-{table_number}-phone")
        sato.get_by_role("link", name="My tables").click()

    endo = phone()
    sign_in_with_pin(endo, *pin_cards["Endo Mai"])
    shoot(endo, artifacts, "13-head-referee-home-phone")
    endo.get_by_test_id("run-round-progress").click()
    for table_number in (2, 3):
        for game in (1, 2):
            endo.get_by_test_id(f"confirm-{table_number}-1-{game}").click()
            expect(endo.get_by_test_id(f"cell-{table_number}-1-{game}")).to_have_attribute(
                "data-state", "confirmed"
            )
    shoot(endo, artifacts, "14-head-referee-progress-phone")
    # The organiser's progress page, never reloaded, follows the round to its end.
    expect(page.get_by_test_id("summary")).to_contain_text("3 of 3 tables done", timeout=12_000)
    shoot(page, artifacts, "15-progress-round-1-done")
    assert Game.objects.filter(table__round=round1, status=Game.Status.CONFIRMED).count() == 6

    # ------------------------------------------------------------------ 6. Round 2, final
    # The late arrival comes in; the organiser completes round 1 and reveals its seed.
    page.get_by_role("link", name="Sendai Spring Cup 仙台春の陣").first.click()
    page.get_by_role("button", name=f"Check in #{LATE}", exact=True).click()
    expect(page.get_by_test_id(f"late-{LATE}")).to_contain_text("joins at round 2")
    page.locator(f"#stage-{qualifying.pk}").get_by_role("link", name="progress", exact=True).click()
    page.get_by_test_id("blockers").get_by_role("link", name=re.compile("Complete round")).click()
    page.get_by_test_id("confirm-complete").click()
    expect(page.get_by_test_id("round-status")).to_have_text("Complete")
    page.get_by_test_id("reveal").click()
    page.get_by_test_id("confirm-reveal").click()
    expect(page.get_by_test_id("round-status")).to_have_text("Seed revealed")
    shoot(page, artifacts, "16-round-1-revealed")

    page.get_by_role("link", name="Sendai Spring Cup 仙台春の陣").first.click()
    round2 = play_round(
        page, qualifying, 2, {"Ito Hana": [1], "Sato Ken": [2, 3]}, ito, sato, endo, artifacts
    )
    assert round2.tables.filter(seats__entry__number=LATE).exists()

    # Advance: ties at the cut line are ordered as the page asks (a lot typed in).
    page.get_by_role("link", name="Sendai Spring Cup 仙台春の陣").first.click()
    page.locator(f"#stage-{qualifying.pk}").get_by_role("link", name="Advance stage…").click()
    shoot(page, artifacts, "20-advance")
    tied = re.findall(r"#(\d+)", " ".join(page.locator("p.tie").all_inner_texts()))
    page.get_by_label(re.compile("Tie-break order")).fill(" ".join(tied))
    page.get_by_role("button", name="Advance", exact=True).click()
    expect(page.get_by_text("qualifiers moved to the next stage")).to_be_visible()
    assert Stage.objects.get(pk=qualifying.pk).advanced_at is not None

    final_round = play_round(page, final, 1, {"Ito Hana": [1]}, ito, sato, endo, artifacts)
    assert final_round.tables.get().seats.count() == 4

    # The tournament is over.
    page.get_by_role("link", name="Sendai Spring Cup 仙台春の陣").first.click()
    page.get_by_test_id("settings-link").click()
    page.get_by_label("Status").select_option("finished")
    page.get_by_role("button", name="Save settings").click()
    expect(page.get_by_role("status")).to_contain_text("Status")
    shoot(page, artifacts, "30-finished")
    assert Tournament.objects.get(pk=cup.pk).status == Tournament.Status.FINISHED

    # ------------------------------------------------------------------ 7. The public
    visitor.get_by_role("link", name="Tournaments").click()
    visitor.get_by_role("link", name="Sendai Spring Cup 仙台春の陣").click()
    expect(visitor.get_by_text("Sendai Civic Hall 仙台市民会館")).to_be_visible()
    assert_no_hands(visitor)
    visitor.get_by_test_id("standings-link").click()
    expect(visitor.get_by_role("heading", level=1)).to_contain_text("Sendai Spring Cup")
    expect(visitor.get_by_test_id("round-statuses")).to_contain_text("all complete")
    assert_no_hands(visitor)
    shoot(visitor, artifacts, "31-public-standings-phone")
    visitor.get_by_role("link", name="Final", exact=True).click()
    winner = final_round.tables.get().seats.get(position=1).entry.player.display_name
    expect(visitor.locator("tbody tr").first).to_contain_text(winner)
    shoot(visitor, artifacts, "32-public-final-standings-phone")
    visitor.set_viewport_size(DESKTOP)  # the print page is printed from a computer
    visitor.get_by_test_id("print-link").click()
    expect(visitor.locator("tbody tr").first).to_contain_text(winner)
    assert_no_hands(visitor)
    shoot(visitor, artifacts, "33-public-final-print")
    for context in contexts:
        context.close()
    assert AuditEntry.objects.filter(tournament=cup).exists()


def play_round(
    page: Page,
    stage: Stage,
    number: int,
    tables_of: dict[str, list[int]],
    ito: Page,
    sato: Page,
    endo: Page,
    artifacts: Path,
) -> Round:
    """Draw, publish, assign, play (Ito's table confirmed by players' PINs, Sato's by the
    head referee) and complete a round, all from the pages."""
    name = f"{stage.kind}-round-{number}"
    page.locator(f"#stage-{stage.pk}").get_by_role("button", name="Draw next round").click()
    page.get_by_role("link", name="Publish round…").click()
    page.get_by_role("button", name="Yes, Publish round").click()
    expect(page.get_by_text("Round published with its seed commitment.")).to_be_visible()
    round_ = Round.objects.get(stage=stage, number=number)
    for referee, numbers in tables_of.items():
        assign = page.get_by_test_id("assign-referees")
        assign.get_by_test_id("bulk-referee").select_option(label=REFEREES[referee])
        for table_number in numbers:
            assign.get_by_label(f"Table {table_number}").check()
        assign.get_by_test_id("assign-referees-button").click()
        expect(page.get_by_text(f": {referee}.")).to_be_visible()
    shoot(page, artifacts, f"{name}-published")
    page.get_by_role("link", name="Print table cards").click()
    pins = table_pins(page, round_.tables.count())
    page.get_by_role("link", name="Back to the round").click()
    page.get_by_test_id("progress-link").click()

    games = round_.stage.tournament.games_per_set
    ito.get_by_role("link", name="Referee", exact=True).click()  # the header, on every page
    for table_number in tables_of.get("Ito Hana", []):
        ito.get_by_role("link", name=re.compile(f"Table {table_number}")).click()
        play_table_with_player_pins(ito, table_number, games, pins[table_number], artifacts)
        ito.get_by_test_id("referee-home-link").click()
    shoot(ito, artifacts, f"{name}-referee-1-home-phone")
    sato.get_by_role("link", name="Referee", exact=True).click()
    for table_number in tables_of.get("Sato Ken", []):
        sato.get_by_role("link", name=re.compile(f"Table {table_number}")).click()
        for _ in range(games):
            record_quick_result(sato)
        sato.get_by_test_id("referee-home-link").click()
    if "Sato Ken" in tables_of:
        endo.get_by_role("link", name="Referee", exact=True).click()
        endo.get_by_test_id("run-round-progress").click()
        for table_number in tables_of["Sato Ken"]:
            for game in range(1, games + 1):
                endo.get_by_test_id(f"confirm-{table_number}-1-{game}").click()
                expect(endo.get_by_test_id(f"cell-{table_number}-1-{game}")).to_have_attribute(
                    "data-state", "confirmed"
                )
    count = round_.tables.count()
    expect(page.get_by_test_id("summary")).to_contain_text(
        f"{count} of {count} tables done", timeout=12_000
    )
    shoot(page, artifacts, f"{name}-progress-done")
    page.get_by_test_id("blockers").get_by_role("link", name=re.compile("Complete round")).click()
    page.get_by_test_id("confirm-complete").click()
    expect(page.get_by_test_id("round-status")).to_have_text("Complete")
    page.get_by_test_id("reveal").click()
    page.get_by_test_id("confirm-reveal").click()
    expect(page.get_by_test_id("round-status")).to_have_text("Seed revealed")
    shoot(page, artifacts, f"{name}-revealed")
    return round_
