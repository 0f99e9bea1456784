"""`/embed/games/<id>/replay/` is the replay without the site's header and footer, made to be
framed by club and venue sites: no `X-Frame-Options: DENY`, and its step and move links stay
on the embed address."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from games import services
from games.models import Game
from tests.factories import play_to_the_end

from .conftest import Crew

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(crew: Crew) -> Game:
    game = services.start_game(crew.table, crew.referee)
    play_to_the_end(game, crew.referee)
    return game


def test_the_embed_may_be_framed_and_keeps_its_links_inside(client: Client, game: Game) -> None:
    response = client.get(f"/embed/games/{game.pk}/replay/?move=2")
    html = response.content.decode()

    assert response.status_code == 200
    assert "X-Frame-Options" not in response.headers
    assert 'class="site-header"' not in html
    steps = re.findall(r'<a href="([^"]+)" data-step="(\w+)"', html)
    assert {step for _, step in steps} == {"first", "back", "forward", "last"}
    moves = re.findall(r'<li value="\d+"><a href="([^"]+)"', html)
    for url in [u for u, _ in steps] + moves:
        assert url.startswith(f"/embed/games/{game.pk}/replay/?move="), url


def test_the_full_page_may_not_be_framed(client: Client, game: Game) -> None:
    response = client.get(f"/games/{game.pk}/replay/")

    assert response.headers["X-Frame-Options"] == "DENY"


def test_an_htmx_step_answers_with_the_board_alone(client: Client, game: Game) -> None:
    html = client.get(f"/games/{game.pk}/replay/?move=3", HTTP_HX_REQUEST="true").content.decode()

    assert html.lstrip().startswith('<section id="replay"')
    assert "<html" not in html and "Move 3 of" in html
