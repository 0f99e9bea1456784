"""The replay viewer replays finished games only: a game still in play answers with a page that
points to the live table and shows nothing of the game (no card, no move); a void game says it
is void; a quick result (no moves) says there is nothing to replay."""

from __future__ import annotations

import pytest
from django.test import Client

from games import services
from games.engine import card_names
from games.models import Game
from games.offline import card_face
from tests.factories import play_legal_moves

from .conftest import Crew

pytestmark = pytest.mark.django_db


def test_a_game_in_play_points_to_the_live_page_and_shows_nothing(
    client: Client, crew: Crew
) -> None:
    game = services.start_game(crew.table, crew.referee)
    play_legal_moves(game, crew.referee, 5)

    response = client.get(f"/games/{game.pk}/replay/?move=3")
    html = response.content.decode()

    assert response.status_code == 200
    assert 'data-testid="replay-in-play"' in html
    assert f'href="/tables/{crew.table.pk}/live/"' in html
    assert 'data-testid="replay-seats"' not in html and 'data-testid="replay-moves"' not in html
    for hand in game.hands:
        for name in hand:
            assert card_face(name)["label"] not in html, name
    for code in card_names(sum(1 << c for c in range(54))):
        assert f">{card_face(code)['label']}<" not in html  # no card drawn at all


def test_a_void_game_says_so(client: Client, crew: Crew) -> None:
    game = services.start_game(crew.table, crew.referee)
    play_legal_moves(game, crew.referee, 2)
    services.void_game(game, crew.head_referee, reason="misdeal", redeal=False)

    html = client.get(f"/games/{game.pk}/replay/").content.decode()

    assert 'data-testid="replay-void"' in html and 'data-testid="replay-seats"' not in html


def test_a_quick_result_has_nothing_to_replay(client: Client, crew: Crew) -> None:
    game = services.start_game(crew.table, crew.referee, mode=Game.Mode.QUICK)
    services.record_quick_result(game, crew.referee, [0, 1, 2, 3])

    html = client.get(f"/games/{game.pk}/replay/").content.decode()

    assert 'data-testid="replay-quick"' in html and 'data-testid="replay-seats"' not in html


def test_a_game_of_a_draft_round_is_not_found(client: Client, crew: Crew) -> None:
    game = services.start_game(crew.table, crew.referee)
    crew.table.round.status = crew.table.round.Status.DRAFT
    crew.table.round.save(update_fields=["status"])

    assert client.get(f"/games/{game.pk}/replay/").status_code == 404
