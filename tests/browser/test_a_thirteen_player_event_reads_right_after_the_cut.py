"""The whole scenario of an official-style day, read where the public reads it: 13 players at
tables of 4, 4 and 5, a top-4 cut decided by a playoff, one game of the final — then the
organiser corrects a qualifying game after the advance, on a phone in Japanese (390×844).

The correction's preview warns that the set above the cut changes; saved with the box ticked,
it does not move anyone out of the final. The public board and the embed, read in Chromium at
phone size in Japanese, rank every finalist (by the final) above every eliminated qualifier (by
the qualifying stage, corrected), as an independent recount from the documented rule says
(tests/scoring/final_order_oracle.py). Screenshots: test-artifacts/thirteen-*.png."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect
from pytest_django.live_server_helper import LiveServer

from games.models import Game
from games.seating import positions_of
from scoring.standings import recompute_tournament
from tests.browser.conftest import PHONE
from tests.scoring import final_order_oracle as oracle
from tests.scoring.published_order import advance, new_event, play_round
from tests.tournaments.stage_scenarios import by_seat
from tournaments import services
from tournaments.models import AuditEntry, Entry, Seat, Stage

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SLUG = "thirteen-day"


def in_seat_order(game: Game, rng: random.Random) -> list[int]:
    return list(range(game.seats))


def board_rows(page: Page) -> list[tuple[str, str]]:
    """A board's rows, top to bottom: the player's name ("Player 05") and the stage the row
    marks as reached."""
    rows = page.locator("table.standings tbody tr")
    expect(rows.first).to_be_visible()
    out = []
    for i in range(rows.count()):
        row = rows.nth(i)
        name = re.search(r"Player \d+", row.locator("td").nth(1).inner_text())
        assert name is not None, row.inner_text()
        out.append((name.group(), row.get_by_test_id("reached-stage").inner_text().strip()))
    return out


def fits_the_phone(page: Page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], width


def test_the_board_and_embed_rank_finalists_first_after_a_correction_past_the_cut(
    browser: Browser, live_server: LiveServer, artifacts: Path
) -> None:
    # ------------------------------------------------------------ the day, through services
    event = new_event(
        SLUG, 13, rng=random.Random(13), uneven_tables="long", points_preset="plus2-minus2"
    )
    event.finish = in_seat_order
    tournament, organiser = event.tournament, event.organiser
    qualifying = tournament.stages.get(order=1)
    final = services.add_stage(
        tournament, organiser, name="決勝", kind=Stage.Kind.FINAL, advance_top_n=4
    )
    qualifying_round = play_round(event, qualifying)
    seats = by_seat(qualifying_round)
    assert sorted(len(t.seats.all()) for t in qualifying_round.tables.all()) == [4, 4, 5]
    advance(event, qualifying)  # the three table seconds tie for 4th: their playoff decides
    playoff_round = event.rounds[-1]
    s1, s2, s3 = (Seat.objects.get(round=playoff_round, position=p).entry for p in (1, 2, 3))
    winners = sorted(seats[1], key=lambda e: e.number)
    finalists = [*winners, s1]
    assert set(final.entrants.values_list("entry_id", flat=True)) == {e.pk for e in finalists}

    final_order = [winners[0].pk, winners[1].pk, s1.pk, winners[2].pk]

    def as_planned(game: Game, rng: random.Random) -> list[int]:
        at = {s.position: s.entry_id for s in game.table.seats.all()}
        entry_of = {seat: at[position] for seat, position in enumerate(positions_of(game))}
        return sorted(range(game.seats), key=lambda seat: final_order.index(entry_of[seat]))

    event.finish = as_planned
    play_round(event, final)
    recompute_tournament(tournament.pk)

    # The correction: at S2's qualifying table, S2 (2nd) actually went out first and the
    # table's winner (a finalist) second — S2 climbs above the cut after the advance.
    game = Game.objects.get(table__round=qualifying_round, table__seats__entry=s2)
    positions = positions_of(game)
    corrected_place = {1: 2, 2: 1}

    # ------------------------------------------------------------ the organiser's phone
    context = browser.new_context(locale="ja-JP", viewport=PHONE)
    context.set_default_timeout(15_000)
    phone = context.new_page()
    phone.goto(f"{live_server.url}/accounts/login/?next=/referee/games/{game.pk}/")
    phone.locator("input[name=username]").fill(organiser.username)
    phone.locator("input[name=password]").fill("correct horse battery")
    phone.locator("input[name=password]").press("Enter")
    form = phone.get_by_test_id("correction-form")
    for seat, position in enumerate(positions):
        place = corrected_place.get(position, position)
        form.locator(f"select[name=outcome_{seat}]").select_option(f"clean-{place}")
    form.locator("input[name=reason]").fill("記録用紙の読み違い")
    form.get_by_role("button", name="確認").click()

    warning = phone.locator("[data-cut-warning]")
    expect(warning).to_be_visible()
    expect(warning).to_contain_text("カット")
    expect(warning).to_contain_text(s2.player.display_name)
    expect(warning).to_contain_text("決勝")  # the stage the cut already advanced to
    fits_the_phone(phone)
    warning.scroll_into_view_if_needed()
    phone.screenshot(path=str(artifacts / "thirteen-correction-warning-phone.png"))
    phone.get_by_test_id("confirm-cut-change").check()
    phone.get_by_test_id("save-correction").click()
    expect(phone.get_by_test_id("correction-preview")).to_have_count(0)
    entry = AuditEntry.objects.get(action=AuditEntry.Action.RESULT_CORRECTED)
    assert (entry.reason, entry.data["cut_change_confirmed"]) == ("記録用紙の読み違い", True)
    # Nobody left the final: the officials decide what a changed cut means.
    assert set(final.entrants.values_list("entry_id", flat=True)) == {e.pk for e in finalists}

    # ------------------------------------------------------------ what the public reads
    recompute_tournament(tournament.pk)
    name_of = {e.pk: e.player.display_name for e in Entry.objects.select_related("player")}
    reached = {pk: stage.name for pk, stage in oracle.reached(tournament).items()}
    expected = [
        (name_of[place.entry], reached[place.entry])
        for place in oracle.tournament_board(tournament)
    ]
    # The rule itself, spelt out: the final's order, then the eliminated by qualifying.
    assert expected[:4] == [(name_of[pk], "決勝") for pk in final_order]
    assert expected[4:6] == [(e.player.display_name, qualifying.name) for e in (s2, s3)]

    viewer = browser.new_context(locale="ja-JP", viewport=PHONE)
    viewer.set_default_timeout(15_000)
    public = viewer.new_page()
    for name, url in (
        ("board", f"{live_server.url}/standings/{SLUG}/"),
        ("embed", f"{live_server.url}/embed/{SLUG}/"),
    ):
        public.goto(url)
        assert public.locator("html").get_attribute("lang") == "ja"
        assert board_rows(public) == expected, name
        fits_the_phone(public)
        public.screenshot(path=str(artifacts / f"thirteen-{name}-phone.png"), full_page=True)
    context.close()
    viewer.close()
