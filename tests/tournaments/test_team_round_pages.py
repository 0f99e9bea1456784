"""A team event's round pages show each table as "Team A v Team B" with the members of each
side (partners facing) and why they were paired (in the page's language); the bye says which
team sat out and why; the public page never shows the seed before it is revealed."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from tests.factories import (
    GuandanTournamentFactory,
    OfficialFactory,
    StageFactory,
    checked_in_teams,
    finished_match,
)
from tournaments import services
from tournaments.models import Official, Round, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def drawn(organiser: User) -> Round:
    cup = GuandanTournamentFactory(name="Kansai Guandan Cup", slug="kansai-guandan")
    OfficialFactory(tournament=cup, user=organiser, role=Official.Role.ORGANISER)
    stage = StageFactory(tournament=cup, order=1, name="Swiss")
    checked_in_teams(cup, 5)
    return services.draw_round(stage, organiser, seed="page")


def pairing_line(body: str, number: int) -> str:
    start = body.index(f'data-testid="pairing-{number}"')
    return body[start : body.index("</p>", start)]


def test_the_organiser_sees_team_v_team_with_members_and_why(
    client: Client, organiser: User, drawn: Round
) -> None:
    tournament: Tournament = drawn.stage.tournament
    client.force_login(organiser)

    body = client.get(f"/organiser/{tournament.slug}/rounds/{drawn.pk}/").content.decode()

    for table in drawn.tables.all():
        line = pairing_line(body, table.number)
        assert line.count("Team ") == 2 and ">v<" in line
        assert "paired by lot (first round)" in table.explanation
        for seat in table.seats.select_related("entry__player"):
            assert f"#{seat.entry.number} {seat.entry.player.display_name}" in body
    assert body.count("Paired by lot (first round).") == drawn.tables.count()
    assert 'data-testid="bye-explanation"' in body and "had a bye: drawn by lot" in body


def test_a_swiss_rounds_tables_show_the_draws_own_reasons(
    client: Client, organiser: User, drawn: Round
) -> None:
    tournament: Tournament = drawn.stage.tournament
    services.publish_round(drawn, organiser)
    for table in drawn.tables.all():
        finished_match(table, levels=("A", "9"), winner=0, hands=2)
    services.complete_round(drawn, organiser)
    second = services.draw_round(drawn.stage, organiser, seed="two")
    client.force_login(organiser)

    body = client.get(
        f"/organiser/{tournament.slug}/rounds/{second.pk}/", HTTP_ACCEPT_LANGUAGE="ja"
    ).content.decode()

    assert "チームのスイス式組み合わせ" in body
    for table in second.tables.all():
        assert table.reason is not None
        assert table.explanation not in body  # said in the page's language instead
    assert "勝点2点グループ内で対戦" in body
    bye = second.byes.first()
    assert bye is not None and "lowest ranked without one" in bye.explanation
    assert "は不戦：不戦未経験のチームで最下位。" in body


def test_the_public_page_shows_the_pairings_once_published_without_the_seed(
    client: Client, organiser: User, drawn: Round
) -> None:
    tournament: Tournament = drawn.stage.tournament
    url = f"/tournaments/{tournament.slug}/rounds/{drawn.pk}/"
    services.publish_round(drawn, organiser)

    body = client.get(url, HTTP_ACCEPT_LANGUAGE="ja").content.decode()

    assert "チーム 1" in body or "チーム1" in body
    assert pairing_line(body, 1).count("チーム") == 2
    drawn.refresh_from_db()
    assert drawn.seed_secret not in body


def test_the_public_tournament_page_names_each_players_team(
    client: Client, organiser: User, drawn: Round
) -> None:
    tournament: Tournament = drawn.stage.tournament
    services.publish_round(drawn, organiser)

    body = client.get(f"/tournaments/{tournament.slug}/").content.decode()

    assert "Team event: two pairs a table, one match a round" in body
    assert "Team 1 Sakura" in body and "Team 5 Yama" in body


@pytest.mark.parametrize("page", ["cards", "score-sheets", "progress"])
def test_the_rounds_paper_and_progress_pages_open_for_a_team_event(
    client: Client, organiser: User, drawn: Round, page: str
) -> None:
    tournament: Tournament = drawn.stage.tournament
    services.publish_round(drawn, organiser)
    client.force_login(organiser)

    response = client.get(f"/organiser/{tournament.slug}/rounds/{drawn.pk}/{page}/")

    assert response.status_code == 200
