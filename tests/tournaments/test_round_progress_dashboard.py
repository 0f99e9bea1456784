"""The round progress dashboard: every table's games set by set with their state, for the
organisers and the head referee (a referee is told whom to ask, another organiser finds
nothing); polled as an htmx partial in a number of queries that does not grow with the round."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from pytest_django import DjangoAssertNumQueries

from games import services
from games.models import Game
from tests.factories import OfficialFactory, SeatFactory, TableFactory, UserFactory, browser
from tests.games import conftest as games_conftest
from tests.games.conftest import Crew
from tournaments.models import Round, Table

pytestmark = pytest.mark.django_db

crew = games_conftest.crew  # the referee crew fixture, shared


def url(crew: Crew) -> str:
    return reverse("organiser:progress", args=[crew.tournament.slug, crew.table.round_id])


def login(user: User) -> Client:
    client = browser()
    client.force_login(user)
    return client


def quick(crew: Crew, table: Table | None = None, *, confirm: bool = False) -> Game:
    table = table or crew.table
    game = services.start_game(table, crew.head_referee, mode=Game.Mode.QUICK)
    services.record_quick_result(game, crew.head_referee, [0, 1, 2, 3])
    if confirm:
        services.confirm_game(game, crew.organiser)
    return game


def cell(html: str, table: int, set_number: int, game_number: int) -> str:
    marker = f'data-testid="cell-{table}-{set_number}-{game_number}" data-state="'
    start = html.index(marker) + len(marker)
    return html[start : html.index('"', start)]


def test_each_game_shows_its_state(crew: Crew) -> None:
    crew.tournament.games_per_set = 3
    crew.tournament.sets_per_round = 2
    crew.tournament.save()
    quick(crew, confirm=True)  # S1 G1 confirmed
    quick(crew)  # S1 G2 finished, waiting
    third = services.start_game(crew.table, crew.head_referee, mode=Game.Mode.QUICK)
    services.void_game(third, crew.head_referee, reason="misdeal", redeal=True)
    html = login(crew.head_referee).get(url(crew)).content.decode()
    assert cell(html, 1, 1, 1) == "confirmed"
    assert cell(html, 1, 1, 2) == "finished"
    assert cell(html, 1, 1, 3) == "redeal_pending"
    assert cell(html, 1, 2, 1) == "not_started"
    assert "waiting for confirmation" in html
    assert "0 of 1 tables done, 0 in play, 1 waiting for confirmation" in html
    assert "ref-ito" in html  # the table's referee
    assert crew.table.get_referee_url() in html
    assert reverse("games:live", args=[crew.table.pk]) in html
    # The re-deal is played: the cell shows the new attempt and the voided one.
    redeal = services.start_game(crew.table, crew.head_referee, mode=Game.Mode.QUICK)
    assert redeal.attempt == 2
    html = login(crew.head_referee).get(url(crew)).content.decode()
    assert cell(html, 1, 1, 3) == "in_play"
    assert "1 voided" in html and "attempt 2" in html
    assert "0 moves" in html
    # What blocks completing the round is listed.
    assert "Table 1, set 1, game 2: finished, not confirmed" in html


def test_a_forfeit_and_a_move_count_show(crew: Crew) -> None:
    game = services.start_game(crew.table, crew.referee, mode=Game.Mode.KNOWN_DEAL)
    html = login(crew.organiser).get(url(crew)).content.decode()
    assert cell(html, 1, 1, 1) == "in_play"
    services.forfeit_seat(game, crew.head_referee, seat=0, reason="left the hall")
    html = login(crew.organiser).get(url(crew)).content.decode()
    assert cell(html, 1, 1, 1) == "forfeit"


def test_the_head_referee_confirms_from_the_dashboard_but_not_their_own_recording(
    crew: Crew,
) -> None:
    mine = quick(crew)  # recorded by the head referee
    client = login(crew.head_referee)
    confirm = reverse(
        "organiser:progress-confirm", args=[crew.tournament.slug, crew.table.round_id, mine.pk]
    )
    refused = client.post(confirm, HTTP_HX_REQUEST="true")
    assert refused.status_code == 422
    assert "You recorded this result" in refused.content.decode()
    mine.refresh_from_db()
    assert mine.status == Game.Status.FINISHED
    done = login(crew.organiser).post(confirm, HTTP_HX_REQUEST="true")
    assert done.status_code == 200
    assert 'id="progress"' in done.content.decode()
    mine.refresh_from_db()
    assert mine.status == Game.Status.CONFIRMED


def test_the_head_referee_unlocks_a_locked_pin(crew: Crew) -> None:
    Table.objects.filter(pk=crew.table.pk).update(pin_failures=5)
    client = login(crew.head_referee)
    html = client.get(url(crew)).content.decode()
    assert "PIN locked" in html
    pin_url = reverse(
        "organiser:progress-pin", args=[crew.tournament.slug, crew.table.round_id, crew.table.pk]
    )
    response = client.post(pin_url, {"action": "unlock"})
    assert response.status_code == 302
    assert Table.objects.get(pk=crew.table.pk).pin_failures == 0


def test_who_may_see_it(crew: Crew) -> None:
    assert login(crew.head_referee).get(url(crew)).status_code == 200
    assert login(crew.organiser).get(url(crew)).status_code == 200
    refused = login(crew.referee).get(url(crew))
    assert refused.status_code == 403
    assert "ask the head referee" in refused.content.decode()
    assert login(crew.outsider_organiser).get(url(crew)).status_code == 404
    anonymous = browser().get(url(crew))
    assert anonymous.status_code == 302


def test_the_polled_partial_is_only_the_grid(crew: Crew) -> None:
    quick(crew)
    response = login(crew.head_referee).get(url(crew), HTTP_HX_REQUEST="true")
    html = response.content.decode()
    assert html.lstrip().startswith('<section id="progress"')
    assert "<html" not in html
    assert 'hx-trigger="every 5s' in html
    assert f'hx-get="{url(crew)}"' in html
    full = login(crew.head_referee).get(url(crew)).content.decode()
    assert 'hx-trigger="every 5s' in full and "<html" in full


def add_tables(crew: Crew, count: int) -> None:
    round_: Round = crew.table.round
    for number in range(2, 2 + count):
        table = TableFactory(round=round_, number=number, referee=UserFactory())
        for position in range(1, 5):
            SeatFactory(table=table, position=position,
                        entry__tournament=crew.tournament,
                        entry__number=number * 10 + position)  # fmt: skip
        game = services.start_game(table, crew.head_referee, mode=Game.Mode.QUICK)
        if number % 2:
            services.record_quick_result(game, crew.head_referee, [0, 1, 2, 3])


def polled_queries(crew: Crew, assert_max: DjangoAssertNumQueries) -> int:
    client = login(crew.head_referee)
    client.get(url(crew), HTTP_HX_REQUEST="true")  # warm the session
    with assert_max(14) as context:
        response = client.get(url(crew), HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    return len(context.captured_queries)


def test_polling_costs_the_same_few_queries_for_any_number_of_tables(
    crew: Crew, django_assert_max_num_queries: DjangoAssertNumQueries
) -> None:
    quick(crew)
    few = polled_queries(crew, django_assert_max_num_queries)
    add_tables(crew, 8)
    many = polled_queries(crew, django_assert_max_num_queries)
    assert many == few


def test_links_from_the_round_page_and_the_dashboard(crew: Crew) -> None:
    client = login(crew.organiser)
    round_page = client.get(
        reverse("organiser:round", args=[crew.tournament.slug, crew.table.round_id])
    ).content.decode()
    assert url(crew) in round_page
    dashboard = client.get(reverse("organiser:dashboard", args=[crew.tournament.slug]))
    assert url(crew) in dashboard.content.decode()


def test_a_head_referee_only_tournament_is_officiated(crew: Crew) -> None:
    from tournaments.selectors import officiated_tournaments

    assert list(officiated_tournaments(crew.head_referee)) == [crew.tournament]
    assert list(officiated_tournaments(crew.referee)) == []
    other = OfficialFactory(user=crew.head_referee, role="referee").tournament
    assert other not in officiated_tournaments(crew.head_referee)


def test_the_pin_lockout_threshold_is_the_services_one() -> None:
    from tournaments import progress

    assert progress.PIN_ATTEMPTS == services.PIN_ATTEMPTS
