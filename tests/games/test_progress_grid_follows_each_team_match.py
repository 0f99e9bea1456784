"""The organiser's progress page for a team event (掼蛋 Guandan): each table plays one match of
up to `games_per_set` hands, so its row shows the match — the hands played (each a cell), both
teams' levels, in play or over and why (won at A, every hand played, time up) — and, while the
match goes on between hands, one slot for the next hand; never the cap's empty slots."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import (
    Clock,
    OfficialFactory,
    UserFactory,
    browser,
    guandan_hand,
    match_table,
    published_round,
    team_league,
)
from tournaments.models import Official, Round, Tournament
from tournaments.progress import round_progress

pytestmark = pytest.mark.django_db


def league(**fields: object) -> tuple[Tournament, Round, list[object]]:
    tournament, stage, teams = team_league(4, games_per_set=30, **fields)
    return tournament, published_round(stage, 1), teams


def test_a_match_won_at_a_in_hand_five_is_over_with_five_cells() -> None:
    _, round_, teams = league()
    table = match_table(round_, 1, teams[0], teams[1])
    for hand in range(1, 5):
        guandan_hand(table, hand, (str(hand + 9 if hand < 4 else 14), "3"))
    guandan_hand(table, 5, ("A", "3"), won=0)

    (row,) = round_progress(round_).tables

    assert len(row.cells) == 5
    assert row.match is not None
    assert (row.match.over, row.match.hands, row.match.levels) == ("won_at_a", 5, ("A", "3"))
    assert row.done and not row.in_play


def test_a_match_between_hands_shows_one_slot_for_the_next_hand() -> None:
    _, round_, teams = league()
    table = match_table(round_, 1, teams[0], teams[1])
    guandan_hand(table, 1, ("5", "2"))
    guandan_hand(table, 2, ("5", "4"))

    (row,) = round_progress(round_).tables

    assert [c.state for c in row.cells] == ["confirmed", "confirmed", "not_started"]
    assert row.cells[-1].game_number == 3
    assert row.match is not None and row.match.over is None and not row.match.in_play
    assert not row.done


def test_a_match_with_a_hand_in_play_shows_that_hand_and_no_other() -> None:
    _, round_, teams = league()
    table = match_table(round_, 1, teams[0], teams[1])
    guandan_hand(table, 1, ("5", "2"))
    guandan_hand(table, 2, ("5", "2"), in_play=True)

    (row,) = round_progress(round_).tables

    assert [c.state for c in row.cells] == ["confirmed", "in_play"]
    assert row.match is not None and row.match.in_play and row.in_play


def test_a_match_whose_time_is_up_is_over(clock: Clock) -> None:
    _, round_, teams = league(match_length=Tournament.MatchLength.TIME, match_minutes=60)
    table = match_table(round_, 1, teams[0], teams[1])
    guandan_hand(table, 1, ("5", "2"))
    clock.advance(61 * 60)  # the match began with its first hand, 61 minutes ago

    (row,) = round_progress(round_).tables

    assert row.match is not None and row.match.over == "time_up"
    assert [c.state for c in row.cells] == ["confirmed"]
    assert row.done


def test_the_page_tells_each_match_in_words() -> None:
    tournament, round_, teams = league()
    won = match_table(round_, 1, teams[0], teams[1])
    for hand in range(1, 5):
        guandan_hand(won, hand, ("K", "3"))
    guandan_hand(won, 5, ("A", "3"), won=0)
    going = match_table(round_, 2, teams[2], teams[3])
    guandan_hand(going, 1, ("5", "2"))
    guandan_hand(going, 2, ("5", "2"), in_play=True)
    organiser = UserFactory(username="gd-progress-org")
    OfficialFactory(tournament=tournament, user=organiser, role=Official.Role.ORGANISER)
    client = browser()
    client.force_login(organiser)

    page = client.get(reverse("organiser:progress", args=[tournament.slug, round_.pk]))

    html = page.content.decode()
    assert page.status_code == 200
    assert 'data-testid="cell-1-1-5"' in html and 'data-testid="cell-1-1-6"' not in html
    assert "Team 1 won at A" in html and "5 hands played" in html
    assert "levels A–3" in html
    assert 'data-testid="cell-2-1-3"' not in html
    assert "in play" in html and "levels 5–2" in html
