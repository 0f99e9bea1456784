"""Where a finished game shows, it links to its replay: the public round page lists each table's
finished games, the live table page links its finished game, and the officials' game page links
it too. A game in play and a quick result (no moves) get no replay link."""

from __future__ import annotations

import pytest
from django.test import Client

from games import services
from games.models import Game
from tests.factories import play_to_the_end

from .conftest import Crew

pytestmark = pytest.mark.django_db


@pytest.fixture
def finished(crew: Crew) -> Game:
    game = services.start_game(crew.table, crew.referee)
    play_to_the_end(game, crew.referee)
    return game


def round_page(client: Client, crew: Crew) -> str:
    round_ = crew.table.round
    url = f"/tournaments/{crew.tournament.slug}/rounds/{round_.pk}/"
    return client.get(url).content.decode()


def test_the_round_page_lists_the_tables_replays(
    client: Client, crew: Crew, finished: Game
) -> None:
    page = round_page(client, crew)

    assert f'href="/games/{finished.pk}/replay/"' in page
    assert 'data-testid="games-1"' in page


def test_the_live_page_links_its_finished_game(client: Client, crew: Crew, finished: Game) -> None:
    page = client.get(f"/tables/{crew.table.pk}/live/").content.decode()

    assert f'href="/games/{finished.pk}/replay/"' in page


def test_the_officials_game_page_links_the_replay(
    client: Client, crew: Crew, finished: Game
) -> None:
    client.force_login(crew.head_referee)
    page = client.get(f"/referee/games/{finished.pk}/").content.decode()

    assert f'href="/games/{finished.pk}/replay/"' in page


def test_games_in_play_and_quick_results_get_no_link(client: Client, crew: Crew) -> None:
    quick = services.start_game(crew.table, crew.referee, mode=Game.Mode.QUICK)
    services.record_quick_result(quick, crew.referee, [0, 1, 2, 3])
    in_play = services.start_game(crew.table, crew.referee)

    page = round_page(client, crew) + client.get(f"/tables/{crew.table.pk}/live/").content.decode()

    assert "/replay/" not in page
    assert in_play.status == Game.Status.IN_PLAY
