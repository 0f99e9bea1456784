"""A team tournament's boards show its team standings first — rank, team, members, match
points, W-D-L, level difference, opponents' match points, the match in play — in Japanese and
English, on the live board, the stage board and the print sheet; the API and the team CSV give
the same lines; polls keep answering "unchanged" until a hand changes them."""

from __future__ import annotations

import csv
import io
import re
from typing import Any

import pytest

from scoring.selectors import team_board_rows
from scoring.standings import ScopeRef, recompute_tournament, standings_version
from tests.factories import (
    TournamentFactory,
    browser,
    guandan_hand,
    match_table,
    published_round,
    team_league,
)
from tournaments.models import Team, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def played() -> Tournament:
    """Round 1 of four teams: Team 1 won at A against Team 2 (one hand unconfirmed); Team 3
    and Team 4 are in their match, 5 to 2 after a hand."""
    tournament, stage, (t1, t2, t3, t4) = team_league()
    round_ = published_round(stage, 1)
    guandan_hand(match_table(round_, 1, t1, t2), 1, ("A", "8"), won=0, confirmed=False)
    guandan_hand(match_table(round_, 2, t4, t3), 1, ("5", "2"))
    recompute_tournament(tournament.pk)
    return tournament


def team_section(html: str) -> str:
    start = html.index('data-testid="team-standings"')
    return html[start : html.index("</section>", start)]


def test_the_japanese_board_shows_the_team_table_before_the_players(played: Tournament) -> None:
    html = browser("ja").get(f"/standings/{played.slug}/").content.decode()

    teams = team_section(html)
    for heading in ("チーム順位表", "勝点", "勝-分-負", "級差", "対戦相手勝点", "不戦", "対戦数"):
        assert heading in teams
    assert html.index("チーム順位表") < html.index("個人順位表")
    assert "Aoki A / Aoki B" in teams and "T1 Team 1" in teams
    assert "2卓で対戦中：5 対 2（T3）" in teams
    assert "(1 暫定)" in teams


def test_the_english_board_reads_the_lines_in_rank_order(played: Tournament) -> None:
    html = browser("en").get(f"/standings/{played.slug}/").content.decode()

    teams = team_section(html)
    assert "Team standings" in teams and "W-D-L" in teams and "Level diff." in teams
    order = re.findall(r'data-team="(\d+)"', teams)
    assert order[0] == "1" and order[-1] == "2"
    first = teams[teams.index('data-team="1"') :]
    assert "1-0-0" in first and "+7" in first
    last = teams[teams.index('data-team="2"') :]
    assert "0-0-1" in last and "\u22127" in last
    assert "in play at table 2: level 5 vs 2 (T3)" in teams
    # The players' table says what a player's tally is; the 大富豪 ranking words are not shown.
    assert "Each player's own tally" in html and "Ranked by" not in html


def test_the_stage_board_and_the_print_sheet_show_the_teams(played: Tournament) -> None:
    stage = played.stages.get()

    stage_html = browser("ja").get(f"/standings/{played.slug}/stage/{stage.pk}/").content
    print_html = browser("ja").get(f"/standings/{played.slug}/print/").content

    assert "T1 Team 1" in team_section(stage_html.decode())
    assert "T1 Team 1" in team_section(print_html.decode())


def test_a_board_poll_is_unchanged_until_a_hand_changes_the_team_lines(
    played: Tournament, django_capture_on_commit_callbacks: Any
) -> None:
    ref = ScopeRef.tournament(played.pk)
    version = standings_version(ref)
    poll = f"/standings/{played.slug}/?v={version}"

    assert browser().get(poll, headers={"HX-Request": "true"}).status_code == 204

    t3 = Team.objects.get(tournament=played, number=3)
    table = t3.members.order_by("number")[0].seats.get().table
    guandan_hand(table, 2, ("A", "2"), won=0)
    with django_capture_on_commit_callbacks(execute=True):  # publishes the new version
        recompute_tournament(played.pk)
    answer = browser().get(poll, headers={"HX-Request": "true"})

    assert standings_version(ref) == version + 1
    assert answer.status_code == 200
    assert "in play at table" not in answer.content.decode("utf-8-sig")


def test_the_api_gives_the_boards_team_lines(played: Tournament) -> None:
    ref = ScopeRef.tournament(played.pk)

    api = browser().get(f"/api/tournaments/{played.slug}/team-standings/").json()
    stage = browser().get(f"/api/stages/{played.stages.get().pk}/team-standings/").json()

    board = team_board_rows(ref)
    assert [(r["rank"], r["team"], r["match_points"]) for r in api["results"]] == [
        (r["rank"], r["team_number"], r["match_points"]) for r in board
    ]
    assert api["version"] == standings_version(ref) and api["count"] == 4
    assert api["tie_breaks"] == ["match_points", "level_difference", "opponents_strength"]
    assert api["any_provisional"] is True
    first = api["results"][0]
    assert first == {
        "rank": 1,
        "shared": False,
        "team": 1,
        "team_name": "Team 1",
        "members": ["Aoki A", "Aoki B"],
        "match_points": 2,
        "played": 1,
        "wins": 1,
        "draws": 0,
        "losses": 0,
        "byes": 0,
        "level_difference": 7,
        "opponents_strength": 0,
        "provisional": True,
        "provisional_matches": 1,
        "in_play": None,
    }
    playing = next(r for r in api["results"] if r["team"] == 4)
    assert playing["in_play"] == {
        "table": 2,
        "opponent": 3,
        "opponent_name": "Team 3",
        "levels": ["5", "2"],
        "hands": 1,
    }
    assert [r["team"] for r in stage["results"]] == [r["team"] for r in api["results"]]


def test_the_api_pages_and_refuses_drafts_and_tournaments_played_alone(
    played: Tournament,
) -> None:
    paged = browser().get(f"/api/tournaments/{played.slug}/team-standings/?limit=2").json()
    alone = TournamentFactory(status=Tournament.Status.RUNNING)
    Tournament.objects.filter(pk=played.pk).update(status=Tournament.Status.DRAFT)

    assert len(paged["results"]) == 2 and paged["next"] and paged["count"] == 4
    assert browser().get(f"/api/tournaments/{alone.slug}/team-standings/").status_code == 404
    assert browser().get(f"/api/tournaments/{played.slug}/team-standings/").status_code == 404


def test_the_team_csv_is_the_boards_lines_and_never_a_formula(played: Tournament) -> None:
    Team.objects.filter(tournament=played, number=2).update(name="=HYPERLINK(1)")
    recompute_tournament(played.pk)

    answer = browser("ja").get(f"/standings/{played.slug}/team-standings.csv")
    rows = list(csv.reader(io.StringIO(answer.content.decode("utf-8-sig"))))

    assert answer["Content-Type"].startswith("text/csv")
    assert rows[0][:6] == ["順位", "同順位", "チーム番号", "チーム名", "メンバー", "勝点"]
    assert rows[1][2] == "1"
    named = next(row for row in rows[1:] if row[2] == "2")
    assert named[3] == "'=HYPERLINK(1)"
    alone = TournamentFactory(status=Tournament.Status.RUNNING)
    assert browser().get(f"/standings/{alone.slug}/team-standings.csv").status_code == 404


def test_a_tournament_played_alone_shows_no_team_table() -> None:
    alone = TournamentFactory(status=Tournament.Status.RUNNING)
    recompute_tournament(alone.pk)

    html = browser("ja").get(f"/standings/{alone.slug}/").content.decode()

    assert 'data-testid="team-standings"' not in html and "個人順位表" not in html


def test_the_json_export_and_the_embed_carry_the_team_lines(played: Tournament) -> None:
    api = browser().get(f"/api/tournaments/{played.slug}/team-standings/").json()

    export = browser().get(f"/standings/{played.slug}/standings.json").json()
    embed = browser("ja").get(f"/embed/{played.slug}/").content.decode()

    assert export["team_standings"] == api["results"]
    assert "T1 Team 1" in embed and "勝点" in embed and "級差" in embed
