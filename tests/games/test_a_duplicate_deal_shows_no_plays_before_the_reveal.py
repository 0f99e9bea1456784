"""A duplicate deal is played at every table of its group (docs/duplicate.md), so the cards one
table plays would show the others theirs: before the round's seed is revealed the public sees
none of a duplicate game's plays — live page, live and moves API, replay, record — and once it
is revealed, all of them, as for any game."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from games import services as games
from games.models import Game
from tests.factories import (
    OfficialFactory,
    UserFactory,
    duplicate_round,
    play_legal_moves,
    play_to_the_end,
)
from tournaments.models import Official, Round
from tournaments.services import reveal_round_seed

pytestmark = pytest.mark.django_db


@pytest.fixture
def under_way() -> tuple[Round, Game, Game, User, User]:
    """An 8-player duplicate round (one group of two tables): table 1's game played out and
    confirmed, table 2's three moves into the same cards."""
    round_, organiser = duplicate_round(8)
    assert isinstance(organiser, User)
    head = UserFactory(username="dup-head-referee")
    OfficialFactory(tournament=round_.stage.tournament, user=head, role=Official.Role.HEAD_REFEREE)
    first, second = round_.tables.order_by("number")
    ended = games.start_game(first, organiser)
    play_to_the_end(ended, organiser)
    games.confirm_game(Game.objects.get(pk=ended.pk), head)
    playing = games.start_game(second, organiser)
    play_legal_moves(playing, organiser, 3)
    return round_, Game.objects.get(pk=ended.pk), playing, organiser, head


def test_the_public_sees_no_play_of_a_duplicate_game_before_the_reveal(
    under_way: tuple[Round, Game, Game, User, User], client: Client
) -> None:
    _round, ended, playing, _organiser, _head = under_way
    for game in (ended, playing):
        live = client.get(f"/api/tables/{game.table_id}/live/").json()
        assert live["game"]["state"] is None and live["game"]["recent"] == []
        assert client.get(f"/api/games/{game.pk}/moves/").json()["moves"] == []
        page = client.get(f"/tables/{game.table_id}/live/").content.decode()
        assert 'data-testid="live-duplicate"' in page

    replay = client.get(f"/games/{ended.pk}/replay/").content.decode()
    assert 'data-testid="replay-duplicate"' in replay
    assert 'data-testid="replay-at"' not in replay
    record = client.get(f"/games/{ended.pk}/record.json")
    assert record.status_code != 200


def test_the_tables_own_referee_still_reads_its_moves(
    under_way: tuple[Round, Game, Game, User, User], client: Client
) -> None:
    _round, _ended, playing, organiser, _head = under_way
    client.force_login(organiser)

    moves = client.get(f"/api/games/{playing.pk}/moves/").json()["moves"]

    assert len(moves) == 3


def test_everything_shows_once_the_seed_is_revealed(
    under_way: tuple[Round, Game, Game, User, User], client: Client
) -> None:
    round_, ended, playing, organiser, head = under_way
    play_to_the_end(playing, organiser)
    games.confirm_game(Game.objects.get(pk=playing.pk), head)
    reveal_round_seed(round_, organiser)

    replay = client.get(f"/games/{ended.pk}/replay/").content.decode()
    assert 'data-testid="replay-at"' in replay
    assert client.get(f"/games/{ended.pk}/record.json").status_code == 200
    assert client.get(f"/api/games/{ended.pk}/moves/").json()["moves"]
