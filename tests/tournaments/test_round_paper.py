"""The round's paper: score sheets (one page per table, an empty grid to fill by hand), the
results sheet for the wall (provisional until the round is complete) and the standings as a
print page — none of them ever shows a hand or a deal."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from games import services
from games.models import Game
from scoring.standings import recompute_tournament
from tests.factories import browser
from tests.games import conftest as games_conftest
from tests.games.conftest import Crew
from tournaments.models import Round

pytestmark = pytest.mark.django_db

crew = games_conftest.crew  # the referee crew fixture, shared

CARD = re.compile(r"\b(?:[3-9TJQKA2][SHDC]|JK)\b")


def login(crew: Crew) -> Client:
    client = browser()
    client.force_login(crew.organiser)
    return client


def no_hands(html: str, game: Game) -> None:
    for hand in game.hands:
        for card in hand or []:
            assert f'"{card}"' not in html and f">{card}<" not in html


def test_score_sheets_have_a_page_per_table_with_seats_grid_and_signatures(crew: Crew) -> None:
    crew.tournament.games_per_set = 4
    crew.tournament.sets_per_round = 3
    crew.tournament.save()
    game = services.start_game(crew.table, crew.referee, mode=Game.Mode.KNOWN_DEAL)
    url = reverse("organiser:score-sheets", args=[crew.tournament.slug, crew.table.round_id])
    html = login(crew).get(url).content.decode()
    assert 'data-testid="score-sheet-1"' in html
    for name in ("Aoki", "Baba", "Chiba", "Doi"):
        assert name in html
    assert "#1" in html and "#4" in html
    assert html.count('aria-label="Set ') == 3
    assert html.count("Game 4</th>") == 3
    for column in ("Place", "Title", "Foul finish", "Miyako-ochi", "Points"):
        assert column in html
    assert "都落ち" not in html and "署名" not in html
    assert html.count('class="signature"') == 5  # four players and the referee
    assert "ref-ito" in html
    assert not CARD.search(re.sub(r"<[^>]+>", " ", html).replace("#", " "))
    no_hands(html, game)
    results = (
        login(crew)
        .get(reverse("organiser:results-sheet", args=[crew.tournament.slug, crew.table.round_id]))
        .content.decode()
    )
    no_hands(results, game)
    assert not CARD.search(re.sub(r"<[^>]+>", " ", results).replace("#", " "))


def test_the_results_sheet_is_provisional_until_the_round_is_complete(crew: Crew) -> None:
    crew.tournament.games_per_set = 2
    crew.tournament.sets_per_round = 1
    crew.tournament.save()
    games = []
    for _ in range(2):
        game = services.start_game(crew.table, crew.referee, mode=Game.Mode.QUICK)
        services.record_quick_result(game, crew.referee, [0, 1, 2, 3])
        games.append(game)
    services.confirm_game(games[0], crew.head_referee)
    url = reverse("organiser:results-sheet", args=[crew.tournament.slug, crew.table.round_id])
    html = login(crew).get(url).content.decode()
    assert 'data-testid="provisional"' in html and "PROVISIONAL" in html
    assert "1 game not confirmed" in html
    points = crew.tournament.points_table["places"]
    first = games[0].results.get(place=1)
    assert f"{first.points}pt" in html
    total = sum(r.points for g in games for r in g.results.filter(seat=0))
    assert f"<strong>{total}</strong>" in html
    assert points  # the tournament's own points table gave these
    services.confirm_game(games[1], crew.head_referee)
    from tournaments import services as tournament_services

    tournament_services.complete_round(Round.objects.get(pk=crew.table.round_id), crew.organiser)
    html = login(crew).get(url).content.decode()
    assert 'data-testid="final"' in html and "PROVISIONAL" not in html


def test_the_paper_is_for_officials(crew: Crew) -> None:
    url = reverse("organiser:results-sheet", args=[crew.tournament.slug, crew.table.round_id])
    head = browser()
    head.force_login(crew.head_referee)
    assert head.get(url).status_code == 200
    referee = browser()
    referee.force_login(crew.referee)
    assert referee.get(url).status_code == 403
    outsider = browser()
    outsider.force_login(crew.outsider_organiser)
    assert outsider.get(url).status_code == 404


def test_standings_print_page_shows_provisional_marks_and_no_navigation_when_printed(
    crew: Crew,
) -> None:
    game = services.start_game(crew.table, crew.referee, mode=Game.Mode.KNOWN_DEAL)
    services.void_game(game, crew.head_referee, reason="misdeal", redeal=False)
    next_game = services.start_game(crew.table, crew.referee, mode=Game.Mode.QUICK)
    services.record_quick_result(next_game, crew.referee, [0, 1, 2, 3])
    recompute_tournament(crew.tournament.pk)
    html = (
        browser()
        .get(reverse("scoring:tournament_print", args=[crew.tournament.slug]))
        .content.decode()
    )
    assert "PROVISIONAL" in html
    assert "(1 provisional)" in html and "暫定" not in html
    assert "Aoki" in html
    japanese = (
        browser("ja")
        .get(reverse("scoring:tournament_print", args=[crew.tournament.slug]))
        .content.decode()
    )
    assert "暫定 — 未完了の回戦" in japanese and "(1 暫定)" in japanese
    assert "PROVISIONAL" not in japanese and "Printed" not in japanese
    assert 'class="no-print"' in html
    no_hands(html, game)
    stage = crew.table.round.stage
    stage_html = (
        browser()
        .get(reverse("scoring:stage_print", args=[crew.tournament.slug, stage.pk]))
        .content.decode()
    )
    assert "Aoki" in stage_html


def test_print_css_hides_the_navigation_and_sets_a4() -> None:
    from pathlib import Path

    css = (Path(__file__).resolve().parents[2] / "static/kakumei/site.css").read_text()
    assert "size: A4" in css
    assert ".site-header" in css.split("@media print")[1]
