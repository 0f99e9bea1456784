"""Tables of 5 (the uneven-tables policy ``long``) and of 3 (``short``) play whole games through
`start_game` and a quick result, and score by the points for their own table size: a 5-player
table's 平民 in the middle scores the 5-player table's middle points."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from games.models import Game
from games.services import record_quick_result, start_game
from tests.factories import OfficialFactory, UserFactory, seated_table
from tournaments.models import Official, Table
from tournaments.points import preset_points_table

pytestmark = pytest.mark.django_db

FIVE = ("Aoki", "Baba", "Chiba", "Doi", "Endo")


def table_of(names: tuple[str, ...], preset: str) -> tuple[Table, User]:
    referee = UserFactory(username="ref-five")
    table = seated_table(referee, names=names)
    tournament = table.round.stage.tournament
    tournament.points_table = preset_points_table(preset)
    tournament.uneven_tables = "long" if len(names) == 5 else "short"
    tournament.save()
    OfficialFactory(tournament=tournament, user=referee, role=Official.Role.REFEREE)
    return table, referee


def results(game: Game) -> list[tuple[int, int, str, int]]:
    return [(r.seat, r.place, r.detail["title"], r.points) for r in game.results.order_by("place")]


def test_a_table_of_five_plays_a_set_and_scores_with_the_five_player_points() -> None:
    table, referee = table_of(FIVE, "plus2-minus2")  # 5 seats: 2, 1, 0, −1, −2

    first = start_game(table, referee, mode=Game.Mode.QUICK)
    assert first.seats == 5 and len(first.counts) == 5
    assert sum(first.counts) == 52  # 54 cards less the JDF's 2 blind cards, dealt to five
    record_quick_result(first, referee, finishing_order=[3, 1, 4, 0, 2])

    assert results(first) == [
        (3, 1, "daifugo", 2),
        (1, 2, "fugo", 1),
        (4, 3, "heimin", 0),  # 平民 in the middle
        (0, 4, "hinmin", -1),
        (2, 5, "daihinmin", -2),
    ]
    second = start_game(table, referee, mode=Game.Mode.QUICK)
    # The titles carry over within the set, 平民 included (it gives and gets no cards).
    assert second.game_number == 2
    assert second.titles == ["hinmin", "fugo", "daihinmin", "daifugo", "heimin"]
    record_quick_result(second, referee, finishing_order=[3, 0, 1, 2, 4])  # 大富豪 stays
    assert [r.points for r in second.results.order_by("seat")] == [1, 0, -1, 2, -2]


def test_a_known_deal_at_a_table_of_five_deals_every_seat() -> None:
    table, referee = table_of(FIVE, "3-2-1-0")

    game = start_game(table, referee)

    assert game.seats == 5
    assert [len(hand) for hand in game.hands] == game.counts
    assert sorted(game.counts) == [10, 10, 10, 11, 11]


def test_a_table_of_three_scores_with_the_three_player_points() -> None:
    table, referee = table_of(FIVE[:3], "5-4-3-2-1")  # 3 seats: 3, 2, 1

    game = start_game(table, referee, mode=Game.Mode.QUICK)
    record_quick_result(game, referee, finishing_order=[2, 0, 1])

    assert [(r.seat, r.place, r.points) for r in game.results.order_by("place")] == [
        (2, 1, 3),
        (0, 2, 2),
        (1, 3, 1),
    ]


def test_the_referee_console_shows_all_five_seats(client: Client) -> None:
    table, referee = table_of(FIVE, "3-2-1-0")
    start_game(table, referee, mode=Game.Mode.QUICK)
    client.force_login(referee)

    page = client.get(table.get_referee_url()).content.decode()

    assert all(name in page for name in FIVE)


def test_a_table_of_three_reads_its_placings_without_empty_titles(client: Client) -> None:
    # No titles at a table of 3: a placing reads "Chiba · 3 pt", never "Chiba — · 3 pt".
    table, referee = table_of(FIVE[:3], "5-4-3-2-1")
    game = start_game(table, referee, mode=Game.Mode.QUICK)
    record_quick_result(game, referee, finishing_order=[2, 0, 1])
    client.force_login(referee)

    for url in (table.get_referee_url(), f"/referee/games/{game.pk}/confirm/"):
        page = client.get(url).content.decode()
        assert "Chiba · 3 pt" in page, url
        assert "— ·" not in page, url
