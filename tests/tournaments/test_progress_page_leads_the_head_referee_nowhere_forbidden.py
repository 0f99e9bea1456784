"""The head referee follows a round on the progress page like an organiser, but the organiser
pages (the dashboard, the round page, completing the round) are not theirs: the progress page
and its printable sheets link them back to /referee/ and say an organiser completes the round,
instead of offering links that answer 404."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from games import services
from games.models import Game
from tests.factories import browser
from tests.games import conftest as games_conftest
from tests.games.conftest import Crew

pytestmark = pytest.mark.django_db

crew = games_conftest.crew  # the referee crew fixture, shared


def page(user: User, name: str, crew: Crew) -> tuple[str, Client]:
    client = browser()
    client.force_login(user)
    url = reverse(f"organiser:{name}", args=[crew.tournament.slug, crew.table.round_id])
    return client.get(url).content.decode(), client


@pytest.fixture
def settled(crew: Crew) -> Crew:
    """The round's one game is played and confirmed: it may be completed."""
    crew.tournament.games_per_set = 1
    crew.tournament.sets_per_round = 1
    crew.tournament.save()
    game = services.start_game(crew.table, crew.referee, mode=Game.Mode.QUICK)
    services.record_quick_result(game, crew.referee, [0, 1, 2, 3])
    services.confirm_game(game, crew.head_referee)
    return crew


def test_the_head_referee_is_led_back_to_their_page_not_to_organiser_pages(
    settled: Crew,
) -> None:
    round_url = reverse("organiser:round", args=[settled.tournament.slug, settled.table.round_id])
    dashboard = reverse("organiser:dashboard", args=[settled.tournament.slug])

    html, client = page(settled.head_referee, "progress", settled)

    for forbidden in (round_url, f"{round_url}?confirm=complete", dashboard):
        assert f'href="{forbidden}"' not in html
    assert 'href="/referee/" data-testid="referee-home-link"' in html
    assert "An organiser completes the round." in html
    assert client.get(round_url).status_code == 404  # why the links are gone
    for sheet in ("score-sheets", "results-sheet"):
        sheet_html, _ = page(settled.head_referee, sheet, settled)
        assert f'href="{round_url}"' not in sheet_html


def test_an_organiser_still_gets_the_round_page_and_the_complete_button(settled: Crew) -> None:
    round_url = reverse("organiser:round", args=[settled.tournament.slug, settled.table.round_id])

    html, _ = page(settled.organiser, "progress", settled)

    assert f'href="{round_url}?confirm=complete"' in html
    assert f'href="{round_url}">Round page' in html
    assert "An organiser completes the round." not in html
