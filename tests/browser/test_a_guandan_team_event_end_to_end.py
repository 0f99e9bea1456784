"""A 2-round 掼蛋 (Guandan) team event run through the pages alone — never the Django admin, a
shell or a service call: the organiser creates the tournament from a Guandan preset and sets a
match of three hands with match points 2/1/0; imports three pairs from a Shift_JIS CSV file
with a チーム column and adds a fourth with the add-team form; adds two referees and prints their
PIN cards. Round 1 is drawn by lot ("Team A v Team B"), published and assigned; table 1's
first hand is played card by card on the Guandan console (whoever has the lead plays a whole
rank, everyone else passes), every other hand is a quick result (the finishing order); players
confirm each hand with the table card's PIN. The organiser completes the round; the public team
standings show the match points, W-D-L and level difference the finishing orders give. Round 2
pairs the two winners together and the two losers together, with reasons, and is played the
same way. Screenshots go to test-artifacts/guandan-event-*.png."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.utils import timezone
from playwright.sync_api import Browser, BrowserContext, Page, expect
from pytest_django.live_server_helper import LiveServer

from games.models import Game
from tournaments.models import Round, Table, Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
PASSWORD = "a long organiser password"
SLUG = "kobe-guandan"
NAME = "Kobe Guandan Cup 神戸グアンダン杯"
HANDS = 3
CSV_PAIRS = [  # three pairs from the entry form, as Japanese Excel saves it (Shift_JIS)
    ("桜 Sakura", ("青木 陽", "あおき はる"), ("馬場 凛", "ばば りん")),
    ("富士 Fuji", ("千葉 蓮", "ちば れん"), ("土井 葵", "どい あおい")),
    ("風 Kaze", ("遠藤 湊", "えんどう みなと"), ("藤井 結衣", "ふじい ゆい")),
]
DOOR_PAIR = ("海 Umi", "後藤 陸", "原田 芽依")  # added at the door with the add-team form
REFEREES = {"Ito Hana": "Ito Hana (kobe-guandan-1)", "Sato Ken": "Sato Ken (kobe-guandan-2)"}
# A hand's finish, by where the winner's partner went out: 1-2, 1-3 or 1-4.
GAINS = {2: 3, 3: 2, 4: 1}


def shoot(page: Page, artifacts: Path, name: str) -> None:
    """The page as it is now, at its own size (phones stay phones, laptops laptops)."""
    page.screenshot(path=str(artifacts / f"guandan-event-{name}.png"), full_page=True)


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


def assert_no_hands(page: Page) -> None:
    """No card of anyone's hand on a public page: the only cards shown are the wild (the ♥ of
    the level, public) and those played to the trick."""
    expect(page.locator(".hand")).to_have_count(0)
    expect(page.locator(".gd-hand")).to_have_count(0)
    expect(page.locator("label.card")).to_have_count(0)
    expect(page.locator("span.card:not(.wild):not([data-testid=live-trick] *)")).to_have_count(0)


@dataclass
class TeamLine:
    """What the team standings should say of a team, from the finishing orders entered."""

    match_points: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    level_difference: int = 0
    opponents: list[int] = field(default_factory=list)


@dataclass
class MatchPlayed:
    """A table's match as the test entered it: its two teams (engine team 0 at seats 1 and 3,
    team 1 at 2 and 4) and each side's level after its hands."""

    teams: tuple[int, int]  # team numbers
    levels: list[int] = field(default_factory=lambda: [2, 2])

    def record(self, winner: int, partner_place: int) -> None:
        self.levels[winner] += GAINS[partner_place]

    def score(self, lines: dict[int, TeamLine]) -> int | None:
        """Adds the match to the lines (2/1/0 by result); returns the winning team's number."""
        winner = None
        for side in (0, 1):
            mine = lines[self.teams[side]]
            difference = self.levels[side] - self.levels[1 - side]
            mine.level_difference += difference
            mine.opponents.append(self.teams[1 - side])
            if difference > 0:
                mine.wins += 1
                mine.match_points += 2
                winner = self.teams[side]
            elif difference == 0:
                mine.draws += 1
                mine.match_points += 1
            else:
                mine.losses += 1
        return winner


def finishing_order(winner: int, partner_place: int) -> list[int]:
    """Engine seats in the order they went out: seats `winner` and `winner + 2` are a team."""
    opponents = [1 - winner, 3 - winner]
    order = [winner, *opponents]
    order.insert(partner_place - 1, winner + 2)
    return order


def table_teams(round_: Round, number: int) -> tuple[int, int]:
    """The team numbers at a table as drawn: seat 1's team is engine team 0, seat 2's team 1."""
    table = Table.objects.get(round=round_, number=number)
    first, second = (
        table.seats.select_related("entry__team").get(position=p).entry.team for p in (1, 2)
    )
    assert first is not None and second is not None
    return (first.number, second.number)


def table_pins(page: Page, count: int) -> dict[int, str]:
    """Read each table's players' PIN from the printed table cards."""
    return {
        n: page.get_by_test_id(f"pin-{n}").locator(".pin-digits").inner_text().strip()
        for n in range(1, count + 1)
    }


def start_hand(console: Page, quick: bool) -> None:
    if quick:
        console.get_by_label("Quick result", exact=True).check()
    else:
        console.get_by_label("Known deal", exact=True).check()
    console.get_by_role("button", name="Start the hand").click()


def record_quick_hand(console: Page, order: list[int]) -> None:
    """A hand the players called at the table: who went out first, second, …"""
    start_hand(console, quick=True)
    form = console.get_by_test_id("quick-form")
    expect(form).to_be_visible()
    for place, seat in enumerate(order, start=1):
        form.get_by_test_id(f"place-{place}").select_option(str(seat))
    form.get_by_role("button", name="Record result").click()
    expect(console.get_by_test_id("placings")).to_be_visible()


def confirm_with_pin(console: Page, pin: str, table_number: int) -> None:
    """A seated player confirms the hand with the PIN printed on the table card."""
    console.get_by_test_id("confirm-at-table").click()
    form = console.get_by_test_id("pin-form")
    form.locator("input[name=seat]").last.check()
    form.get_by_label("Table PIN").fill(pin)
    form.get_by_role("button", name="Confirm as this player").click()
    expect(console.get_by_test_id("confirmed")).to_be_visible()
    console.get_by_test_id("back-to-console").click()
    expect(console.get_by_role("heading", level=1)).to_contain_text(f"Table {table_number}")


def test_a_guandan_team_event_runs_two_rounds_through_the_pages_alone(
    page: Page, browser: Browser, live_server: LiveServer, artifacts: Path, tmp_path: Path
) -> None:
    base = live_server.url
    # The one account made outside the pages, as `createsuperuser` makes it.
    User.objects.create_superuser("chen", "chen@example.jp", PASSWORD, first_name="Chen Wei")
    contexts: list[BrowserContext] = []

    def new_context(viewport: dict[str, int]) -> Page:
        context = browser.new_context(viewport=viewport)
        context.set_default_timeout(10_000)
        contexts.append(context)
        return context.new_page()

    # ------------------------------------------------------------------ 1. The tournament
    page.set_viewport_size(DESKTOP)
    page.context.set_default_timeout(10_000)
    log_in(page, base, "chen")
    expect(page).to_have_url(f"{base}/organiser/")
    page.get_by_label("Name").fill(NAME)
    page.get_by_label("Address").fill(SLUG)
    page.get_by_label("Ruleset preset").select_option("guandan-cn@1")
    page.get_by_label("Starts on").fill(timezone.localdate().isoformat())
    shoot(page, artifacts, "00-organiser-home-desktop")
    page.get_by_role("button", name="Create tournament").click()
    expect(page.get_by_role("heading", level=1)).to_have_text(NAME)

    page.get_by_test_id("settings-link").click()
    expect(page.get_by_test_id("match-settings")).to_be_visible()
    page.get_by_label("A match lasts").select_option("hands")
    page.get_by_label("Hands a match (at most)").fill(str(HANDS))
    page.locator("select[name=match_points_by]").select_option("result")
    page.get_by_label("Match points for a win").fill("2")
    page.get_by_label("Match points for a draw").fill("1")
    page.get_by_label("Match points for a loss").fill("0")
    page.get_by_label("Status").select_option("registration")
    page.get_by_role("button", name="Save settings").click()
    expect(page.locator(".success-box")).to_contain_text("Saved")
    shoot(page, artifacts, "01-settings-desktop")
    cup = Tournament.objects.get(slug=SLUG)
    assert (cup.match_length, cup.games_per_set, cup.plays_in_teams) == ("hands", HANDS, True)
    assert cup.match_points == {"win": 2, "draw": 1, "loss": 0}

    # ------------------------------------------------------------------ 2. Teams
    page.get_by_role("link", name=NAME).first.click()
    expect(page.get_by_test_id("team-format")).to_contain_text("match points 2/1/0")
    csv_file = tmp_path / "teams.csv"
    rows = "".join(
        f"{name},{kana},{team}\n" for team, *members in CSV_PAIRS for name, kana in members
    )
    csv_file.write_bytes(("display_name,name_kana,チーム\n" + rows).encode("cp932"))
    page.get_by_label("CSV file").set_input_files(str(csv_file))
    page.get_by_role("button", name="Preview import").click()
    expect(page.get_by_test_id("csv-encoding")).to_have_text("Shift_JIS (CP932)")
    expect(page.get_by_test_id("csv-teams").locator("tbody tr")).to_have_count(3)
    shoot(page, artifacts, "02-csv-preview-desktop")
    page.get_by_test_id("csv-preview").get_by_role("button", name="Import 6 entrants").click()
    expect(page.get_by_test_id("import-done")).to_have_text("Imported 6 entrants.")

    team_name, first, second = DOOR_PAIR
    page.get_by_text("Add a team", exact=True).click()
    page.get_by_label("Team name").fill(team_name)
    page.get_by_label("Player 1: name").fill(first)
    page.get_by_label("Player 2: name").fill(second)
    page.get_by_test_id("add-team").get_by_label("Checked in now").check()
    page.get_by_role("button", name="Add team").click()
    expect(page.get_by_test_id("entries-done")).to_contain_text(f"Added team 4 {team_name}.")
    teams = page.get_by_test_id("teams")
    expect(teams.locator("tbody tr")).to_have_count(4)
    for number, (name, *members) in enumerate([*CSV_PAIRS, DOOR_PAIR], start=1):
        row = page.get_by_test_id(f"team-{number}")
        expect(row).to_contain_text(name)
        for member in members:
            expect(row).to_contain_text(member[0] if isinstance(member, tuple) else member)
    for number in range(1, 7):  # a team is paired when both its players are checked in
        page.get_by_role("button", name=f"Check in #{number}", exact=True).click()
        expect(
            page.get_by_role("button", name=f"Undo check-in #{number}", exact=True)
        ).to_be_visible()
    stage = cup.stages.get()
    summary = page.get_by_test_id(f"draw-layout-{stage.pk}").get_by_test_id("layout-summary")
    expect(summary).to_have_text("4 teams → 2 tables of two teams")
    page.get_by_test_id("teams").scroll_into_view_if_needed()
    shoot(page, artifacts, "03-teams-desktop")

    # ------------------------------------------------------------------ 3. Officials
    page.get_by_test_id("officials-link").click()
    for name in REFEREES:
        form = page.get_by_test_id("add-official")
        form.get_by_label("Name", exact=True).fill(name)
        form.get_by_label("Role").select_option("referee")
        form.get_by_role("button", name="Add", exact=True).click()
        expect(page.get_by_test_id("officials-done")).to_contain_text(name)
    with page.context.expect_page() as new_tab:
        page.get_by_test_id("print-pin-cards").get_by_role("button").click()
    cards_page = new_tab.value
    cards_page.wait_for_load_state()
    expect(cards_page.get_by_test_id("pin-card")).to_have_count(2)
    pin_cards = {}
    for card in cards_page.get_by_test_id("pin-card").all():
        pin_cards[card.locator(".pin-card-name").inner_text()] = (
            card.locator(".pin-card-url").inner_text(),
            card.get_by_test_id("pin-card-pin").inner_text(),
        )
    cards_page.close()
    ito, sato = new_context(PHONE), new_context(PHONE)
    sign_in_with_pin(ito, *pin_cards["Ito Hana"])
    sign_in_with_pin(sato, *pin_cards["Sato Ken"])

    # A visitor follows the event on a phone, without an account.
    visitor = new_context(PHONE)

    # ------------------------------------------------------------------ 4. Round 1
    expected = {number: TeamLine() for number in range(1, 5)}
    page.get_by_role("link", name=NAME).first.click()
    round1 = draw_and_publish(page, stage.pk, 1, artifacts)
    for number in (1, 2):
        expect(page.locator(f"#table-{number} .explanation")).to_have_text(
            "Paired by lot (first round)."
        )
    matches = {n: MatchPlayed(table_teams(round1, n)) for n in (1, 2)}
    expect_pairings(page, matches)
    pins = print_table_cards(page)

    # Table 1: the first hand played card by card; the public live page shows no hand.
    console = open_table(ito, 1)
    start_hand(console, quick=False)
    expect(console.get_by_test_id("hand")).to_be_visible()
    shoot(console, artifacts, "10-console-first-hand-phone")
    visitor.goto(f"{base}/tournaments/{SLUG}/")
    visitor.get_by_role("link", name=re.compile("Round 1")).first.click()
    visitor.get_by_test_id("live-1").click()
    expect(visitor.get_by_test_id("live-turn")).to_be_visible()
    assert_no_hands(visitor)
    shoot(visitor, artifacts, "11-public-live-table-phone")
    leader = play_tapped_hand(console)
    matches[1].record(leader % 2, 2)
    shoot(console, artifacts, "12-console-hand-played-phone")
    expect(console.get_by_test_id("hand-result")).to_contain_text("(+3)")
    # The pair left holding cards after the 1-2 finish never went out: 双下, not "third out".
    expect(console.get_by_test_id("placings").get_by_text("not out (shuāngxià)")).to_have_count(2)
    tapped = Game.objects.get(table__round=round1, table__number=1, game_number=1)
    assert tapped.mode == Game.Mode.KNOWN_DEAL and tapped.last_seq > 20  # real plays and passes
    confirm_with_pin(console, pins[1], 1)
    # The rest as quick results: the hand-1 winner again 1-3, then the other side 1-4.
    play_quick_hands(console, matches[1], [(leader % 2, 3), (1 - leader % 2, 4)], pins[1], 1)
    shoot(console, artifacts, "13-console-match-over-phone")
    # Table 2: all quick; team 1 comes back from a 1-4 loss to win.
    play_quick_hands(open_table(sato, 2), matches[2], [(0, 4), (1, 2), (1, 3)], pins[2], 2)

    complete_round(page, artifacts, "14-round-1-complete-desktop")
    winners = [matches[n].score(expected) for n in (1, 2)]
    assert None not in winners
    check_public_standings(visitor, base, expected, artifacts, "15-public-standings-r1")

    # ------------------------------------------------------------------ 5. Round 2
    page.get_by_role("link", name=NAME).first.click()
    round2 = draw_and_publish(page, stage.pk, 2, artifacts)
    matches = {n: MatchPlayed(table_teams(round2, n)) for n in (1, 2)}
    assert set(matches[1].teams) == set(winners), "the two winners meet"
    for number in (1, 2):
        a, b = matches[number].teams
        assert b not in expected[a].opponents, "no repeat opponents"
    expect_pairings(page, matches)
    expect(page.locator("#table-1 .explanation")).to_contain_text("paired in the 2-point group")
    expect(page.locator("#table-2 .explanation")).to_contain_text("paired in the 0-point group")
    shoot(page, artifacts, "20-round-2-pairing-desktop")
    pins = print_table_cards(page)
    # The winners' table: team 0 ahead by 2; the losers' table: a draw at level 4.
    play_quick_hands(open_table(ito, 1), matches[1], [(0, 2), (1, 3), (0, 4)], pins[1], 1)
    play_quick_hands(open_table(sato, 2), matches[2], [(0, 3), (1, 4), (1, 4)], pins[2], 2)
    shoot(sato, artifacts, "21-console-round-2-phone")
    sato.get_by_role("button", name="日本語").click()
    expect(sato.locator("#console")).to_contain_text("試合は終了しました。全3局を終えました。")
    expect(sato.get_by_role("heading", level=1)).to_contain_text("グアンダン")
    shoot(sato, artifacts, "21-console-round-2-ja-phone")
    visitor.goto(f"{base}/tables/{Table.objects.get(round=round2, number=1).pk}/live/")
    assert_no_hands(visitor)
    complete_round(page, artifacts, "22-round-2-complete-desktop")
    for number in (1, 2):
        matches[number].score(expected)
    assert matches[2].levels == [4, 4]
    check_public_standings(visitor, base, expected, artifacts, "23-public-standings-final")
    visitor.set_viewport_size(DESKTOP)
    shoot(visitor, artifacts, "23-public-standings-final-desktop")

    # The standings in Japanese: the visitor switches the language.
    visitor.set_viewport_size(PHONE)
    visitor.get_by_role("button", name="日本語").click()
    expect(visitor.get_by_test_id("team-standings").get_by_role("heading")).to_have_text(
        "チーム順位表"
    )
    shoot(visitor, artifacts, "24-public-standings-ja-phone")
    assert Game.objects.filter(table__round__stage=stage, status=Game.Status.CONFIRMED).count() == (
        4 * HANDS
    )
    for context in contexts:
        context.close()


def expect_pairings(page: Page, matches: dict[int, MatchPlayed]) -> None:
    """Each table of the round page reads "Team 1 桜 Sakura v Team 4 海 Umi"."""
    names = {n: name for n, (name, *_) in enumerate([*CSV_PAIRS, DOOR_PAIR], start=1)}
    for number, match in matches.items():
        a, b = match.teams
        expect(page.get_by_test_id(f"pairing-{number}")).to_have_text(
            f"Team {a} {names[a]} v Team {b} {names[b]}"
        )


def draw_and_publish(page: Page, stage_pk: int, number: int, artifacts: Path) -> Round:
    """From the dashboard: draw the next round, publish it, give table 1 to Ito and table 2
    to Sato."""
    page.locator(f"#stage-{stage_pk}").get_by_role("button", name="Draw next round").click()
    for table in (1, 2):
        expect(page.get_by_test_id(f"pairing-{table}")).to_contain_text(" v ")
        expect(page.locator(f"#table-{table} .team-sides li")).to_have_count(4)
    if number == 1:
        shoot(page, artifacts, "04-round-1-draw-desktop")
    page.get_by_role("link", name="Publish round…").click()
    page.get_by_role("button", name="Yes, Publish round").click()
    expect(page.get_by_text("Round published with its seed commitment.")).to_be_visible()
    for table, referee in ((1, "Ito Hana"), (2, "Sato Ken")):
        assign = page.get_by_test_id("assign-referees")
        assign.get_by_test_id("bulk-referee").select_option(label=REFEREES[referee])
        assign.get_by_label(f"Table {table}").check()
        assign.get_by_test_id("assign-referees-button").click()
        expect(page.get_by_text(f"Referee of table {table}: {referee}")).to_be_visible()
    return Round.objects.get(stage_id=stage_pk, number=number)


def print_table_cards(page: Page) -> dict[int, str]:
    page.get_by_role("link", name="Print table cards").click()
    pins = table_pins(page, 2)
    page.get_by_role("link", name="Back to the round").click()
    return pins


def open_table(referee: Page, number: int) -> Page:
    referee.get_by_role("link", name="Referee", exact=True).click()  # the header, on every page
    referee.get_by_role("link", name=re.compile(f"Table {number}")).first.click()
    expect(referee.get_by_role("heading", level=1)).to_contain_text(f"Table {number}")
    return referee


def play_tapped_hand(console: Page) -> int:
    """A hand played card by card on the console: whoever has the lead plays their lowest rank
    whole (a single, pair, triple or bomb is always a legal lead), everyone else passes. The
    leader goes out first and, once the others pass, the partner takes the lead (接风) and goes
    out second: a 1-2 finish. Returns the engine seat that led first."""
    turn = re.search(r"seat (\d)", console.get_by_test_id("turn").inner_text())
    assert turn is not None
    first = int(turn[1]) - 1
    for _ in range(300):
        if console.get_by_test_id("placings").count():
            return first
        seq = console.locator(".gd-hand-form input[name=seq]").get_attribute("value")
        # The console is swapped in again with the next move's number, or the wild's picker.
        moved = f".gd-hand-form input[name=seq][value='{seq}']"
        if "Empty" in console.get_by_test_id("trick").inner_text():
            rank = console.get_by_test_id("hand").locator(".gd-rank").first
            for box in rank.locator("input[name=cards]").all():
                box.check()
            console.get_by_role("button", name="Play", exact=True).click()
            console.wait_for_function(
                f'() => !document.querySelector("{moved}")'
                " || document.querySelector('[data-testid=declaration-picker]')"
            )
            picker = console.get_by_test_id("declaration-picker")
            if picker.count():
                picker.get_by_test_id("reading").first.click()
        else:
            console.get_by_role("button", name="Pass", exact=True).click()
        expect(console.locator(moved)).to_have_count(0)
        expect(console.get_by_test_id("move-error")).to_have_count(0)
    raise AssertionError("the hand did not end")


def play_quick_hands(
    console: Page, match: MatchPlayed, hands: list[tuple[int, int]], pin: str, number: int
) -> None:
    """The table's remaining hands as quick results, each confirmed by a player's PIN, until
    the console says the match is over."""
    for winner, partner_place in hands:
        record_quick_hand(console, finishing_order(winner, partner_place))
        match.record(winner, partner_place)
        confirm_with_pin(console, pin, number)
    expect(console.locator("#console")).to_contain_text(
        f"The match is over: all its {HANDS} hands are played."
    )
    expect(console.get_by_role("button", name="Start the hand")).to_have_count(0)


def complete_round(page: Page, artifacts: Path, shot: str) -> None:
    page.get_by_test_id("progress-link").click()
    expect(page.get_by_test_id("summary")).to_contain_text("2 of 2 tables done", timeout=12_000)
    page.get_by_test_id("blockers").get_by_role("link", name=re.compile("Complete round")).click()
    page.get_by_test_id("confirm-complete").click()
    expect(page.get_by_test_id("round-status")).to_have_text("Complete")
    shoot(page, artifacts, shot)


def check_public_standings(
    visitor: Page, base: str, expected: dict[int, TeamLine], artifacts: Path, shot: str
) -> None:
    visitor.goto(f"{base}/tournaments/{SLUG}/")
    visitor.get_by_test_id("standings-link").click()
    board = visitor.get_by_test_id("team-standings")
    expect(board.locator("tbody tr")).to_have_count(4)
    for number, line in expected.items():
        cells = board.locator(f"#team-{number} td")
        expect(cells.nth(2)).to_have_text(str(line.match_points))
        expect(cells.nth(5)).to_have_text(f"{line.wins}-{line.draws}-{line.losses}")
        diff = line.level_difference
        expect(cells.nth(6)).to_have_text(f"+{diff}" if diff > 0 else f"−{-diff}" if diff else "0")
    # Best first: by match points, then level difference.
    shown = [int(n) for n in board.locator("tbody tr").evaluate_all(
        "rows => rows.map(r => r.dataset.team)"
    )]  # fmt: skip
    keys = [(expected[n].match_points, expected[n].level_difference) for n in shown]
    assert keys == sorted(keys, reverse=True)
    assert_no_hands(visitor)
    assert visitor.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    shoot(visitor, artifacts, f"{shot}-phone")
