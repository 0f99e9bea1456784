"""UECda 席替え: every `seat_change_every` games of a set the players move to a new seating, a
permutation drawn from the round's seed (`kakumei-seating/1`), so anyone can check it once the
seed is revealed. Results, titles and names follow the players to their new seats."""

from __future__ import annotations

import hashlib

import pytest
from django.contrib.auth.models import User

from games.models import Game
from games.public import live_table
from games.seating import draw_seating, positions_of
from tests.factories import UserFactory, browser, cycling_table, play_quick_games

pytestmark = pytest.mark.django_db
SEED = "ab" * 32


def seating_by_the_documented_recipe(seed: str, table: int, set_number: int, cycle: int) -> list:
    """games/seating.py's docstring, followed by hand: what a spectator runs after the reveal."""
    material = f"{seed}/table/{table}/set/{set_number}/seating/{cycle}".encode()
    key = hashlib.sha256(b"kakumei-seating/1\x00" + material).digest()
    stream = b"".join(hashlib.sha256(key + i.to_bytes(8, "big")).digest() for i in range(4))
    words = [int.from_bytes(stream[i : i + 8], "big") for i in range(0, len(stream), 8)]
    positions = [1, 2, 3, 4, 5]
    for i in range(len(positions) - 1, 0, -1):
        m = i + 1
        while words[0] >= (1 << 64) - (1 << 64) % m:
            words.pop(0)
        j = words.pop(0) % m
        positions[i], positions[j] = positions[j], positions[i]
    return positions


@pytest.fixture
def referee(db: None) -> User:
    return UserFactory(username="ref-uecda")


def test_game_4_is_played_in_a_new_seating_drawn_from_the_seed(referee: User) -> None:
    table = cycling_table(referee, seed=SEED)

    games = play_quick_games(table, referee, 4)

    drawn = draw_seating(SEED, table=1, set_number=1, cycle=1, seats=5)
    assert [g.seating for g in games[:3]] == [[1, 2, 3, 4, 5]] * 3
    assert games[3].seating == list(drawn)
    assert drawn != (1, 2, 3, 4, 5)


def test_the_seating_is_reproducible_from_the_revealed_seed(referee: User) -> None:
    table = cycling_table(referee, seed=SEED, games_per_set=7)

    games = play_quick_games(table, referee, 7)

    for cycle, game in zip([0, 0, 0, 1, 1, 1, 2], games, strict=True):
        expected = seating_by_the_documented_recipe(SEED, 1, 1, cycle) if cycle else [1, 2, 3, 4, 5]
        assert game.seating == expected, game.game_number


def test_the_seating_keeps_the_seed_secret(referee: User) -> None:
    # Another seed, another draw: the seating depends on the secret, not only on the table.
    other = "cd" * 32

    assert draw_seating(SEED, table=1, set_number=1, cycle=1, seats=5) != draw_seating(
        other, table=1, set_number=1, cycle=1, seats=5
    )
    assert SEED not in str(draw_seating(SEED, table=1, set_number=1, cycle=1, seats=5))


def test_results_titles_and_names_follow_the_players_to_their_new_seats(referee: User) -> None:
    table = cycling_table(referee, seed=SEED)
    names = dict(table.seats.values_list("position", "entry__player__display_name"))

    games = play_quick_games(table, referee, 4)

    game4 = Game.objects.get(pk=games[3].pk)
    positions = positions_of(game4)
    # The player drawn at position p always finished p-th: the entry follows them, not the seat.
    for result in game4.results.select_related("entry"):
        assert result.entry.number == positions[result.seat]
        assert result.place == positions[result.seat]
    # Titles of game 3 carried into game 4 by player: position 1 is still the 大富豪.
    assert game4.titles is not None
    assert game4.titles[positions.index(1)] == "daifugo"
    assert game4.titles[positions.index(5)] == "daihinmin"
    live = live_table(table.pk)
    assert [(s["seat"], s["player"]) for s in live["seats"]] == [
        (seat, names[p]) for seat, p in enumerate(positions)
    ]


def test_the_console_announces_the_seat_change_before_game_4(referee: User) -> None:
    table = cycling_table(referee, seed=SEED)
    play_quick_games(table, referee, 3)
    client = browser("en")
    client.force_login(referee)

    before = client.get(f"/referee/tables/{table.pk}/").content.decode()
    play_quick_games(table, referee, 1)
    during = client.get(f"/referee/tables/{table.pk}/").content.decode()
    live = browser("ja").get(f"/tables/{table.pk}/live/").content.decode()

    assert 'data-testid="next-seat-change"' in before
    assert "Seat 1: Aoki #1" in before and "Seat 2: Doi #4" in before
    assert 'data-testid="seat-change"' in during
    assert "(drawn at seat 4)" in during
    assert "席替え" in live and "2番席：Doi" in live


def test_the_api_tells_a_device_the_next_seating_and_each_games(referee: User) -> None:
    table = cycling_table(referee, seed=SEED)
    play_quick_games(table, referee, 3)
    client = browser("en")
    client.force_login(referee)

    before = client.get(f"/api/tables/{table.pk}/games/").json()
    play_quick_games(table, referee, 1)
    after = client.get(f"/api/tables/{table.pk}/games/").json()

    drawn = list(draw_seating(SEED, table=1, set_number=1, cycle=1, seats=5))
    assert before["next_game"]["seat_change"] is True
    assert before["next_game"]["title_reset"] is False
    assert before["next_game"]["seating"] == drawn
    assert [g["seating"] for g in after["games"]] == [[1, 2, 3, 4, 5]] * 3 + [drawn]
    assert [s["position"] for s in after["seats"]] == drawn  # in the current game's seat order
    assert after["next_game"]["seat_change"] is False
