"""Walk-ins (当日参加): one entrant added from the dashboard on the day — the next free number
unless one is given, checked in at once by default on the day, audited, seated from the first
stage's next draw; a person who has entered already, or a taken number, is refused."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.test import Client
from django.utils import timezone

from tests.factories import EntryFactory, PlayerFactory, TournamentFactory, play_round_quickly
from tournaments import services
from tournaments.entrants import entrant_row
from tournaments.models import AuditEntry, Entry, Seat, Stage, Tournament
from tournaments.selectors import stage_participants

from .conftest import checked_in

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def test_a_walk_in_takes_the_next_free_number_checks_in_and_is_audited(
    tournament: Tournament, stage: Stage, organiser: User
) -> None:
    checked_in(tournament, 3)

    entry = services.add_walk_in(
        tournament, organiser, display_name="Ueda Sora", name_kana="うえだ そら"
    )

    assert entry.number == 4
    assert entry.status == Entry.Status.CHECKED_IN and entry.checked_in_at is not None
    assert entry in stage_participants(stage)
    audit = AuditEntry.objects.get(action=AuditEntry.Action.ENTRY_ADDED)
    assert audit.actor == organiser
    assert audit.data == {"entry": 4, "name": "Ueda Sora", "checked_in": True}


def test_a_walk_in_keeps_a_given_number_and_may_wait_to_check_in(
    tournament: Tournament, organiser: User
) -> None:
    entry = services.add_walk_in(
        tournament, organiser, display_name="Ueda Sora", number=40, check_in=False
    )

    assert (entry.number, entry.status) == (40, Entry.Status.REGISTERED)


def test_a_walk_in_after_round_one_is_seated_at_the_next_draw(
    tournament: Tournament, stage: Stage, organiser: User, head_referee: User
) -> None:
    Tournament.objects.filter(pk=tournament.pk).update(games_per_set=1, sets_per_round=1)
    checked_in(tournament, 8)
    first = services.draw_round(stage, organiser)
    services.publish_round(first, organiser)

    walk_in = services.add_walk_in(tournament, organiser, display_name="Late Comer")

    assert not Seat.objects.filter(round=first, entry=walk_in).exists()
    assert entrant_row(walk_in).day.joins_at == 2  # type: ignore[attr-defined]
    play_round_quickly(first, organiser, head_referee)
    services.complete_round(first, organiser)
    second = services.draw_round(stage, organiser)
    assert Seat.objects.filter(round=second, entry=walk_in).exists()


def test_the_same_person_or_a_taken_number_is_refused(
    tournament: Tournament, organiser: User
) -> None:
    services.add_walk_in(tournament, organiser, display_name="Aoki", email="aoki@example.org")
    services.add_walk_in(tournament, organiser, display_name="Baba")

    refusals = []
    for kwargs in (
        {"display_name": "Aoki Haruto", "email": "AOKI@example.org"},  # the same e-mail
        {"display_name": "Baba"},  # the same name, neither with an e-mail
        {"display_name": "Chiba", "number": 1},  # number 1 is Aoki's
        {"display_name": "  "},
    ):
        with pytest.raises(services.DomainError) as refused:
            services.add_walk_in(tournament, organiser, **kwargs)  # type: ignore[arg-type]
        refusals.append(refused.value.code)

    assert refusals == ["already_entered", "already_entered", "number_taken", "name_required"]
    assert tournament.entries.count() == 2
    # Another Baba with an e-mail is another person.
    services.add_walk_in(tournament, organiser, display_name="Baba", email="baba2@example.org")


def test_a_returning_player_is_recognised_by_e_mail(
    tournament: Tournament, organiser: User
) -> None:
    player = PlayerFactory(display_name="Doi Ren", email="doi@example.org")
    EntryFactory(tournament=TournamentFactory(), player=player)

    entry = services.add_walk_in(
        tournament, organiser, display_name="Doi R.", email="Doi@Example.org"
    )

    assert entry.player == player


def test_only_the_tournaments_organisers_add_walk_ins(tournament: Tournament) -> None:
    other = TournamentFactory()
    with pytest.raises(PermissionDenied):
        services.add_walk_in(other, User.objects.get(username="organiser-a"), display_name="X")


def test_no_walk_in_once_the_first_stage_has_advanced(
    tournament: Tournament, stage: Stage, organiser: User
) -> None:
    Stage.objects.filter(pk=stage.pk).update(advanced_at=timezone.now())

    with pytest.raises(services.DomainError) as refused:
        services.add_walk_in(tournament, organiser, display_name="Too Late")
    assert refused.value.code == "first_stage_over"


@pytest.fixture
def logged_in(client: Client, organiser: User) -> Client:
    client.force_login(organiser)
    return client


def test_the_dashboard_ticks_checked_in_now_on_the_tournament_day(
    logged_in: Client, tournament: Tournament
) -> None:
    tournament.starts_on = timezone.localdate()
    tournament.save()
    on_the_day = logged_in.get("/organiser/nagoya-open/").content.decode()
    tournament.starts_on = timezone.localdate() + datetime.timedelta(days=7)
    tournament.save()
    a_week_before = logged_in.get("/organiser/nagoya-open/").content.decode()

    assert 'name="check_in" id="id_walk_in_check_in" checked' in on_the_day
    assert 'name="check_in" id="id_walk_in_check_in" checked' not in a_week_before


def test_adding_a_walk_in_with_htmx_answers_the_entrants_section(
    logged_in: Client, tournament: Tournament
) -> None:
    url = "/organiser/nagoya-open/entries/add/"

    added = logged_in.post(url, {"display_name": "Ueda Sora", "check_in": "on"}, **HTMX)
    refused = logged_in.post(url, {"display_name": "Endo", "number": "1"}, **HTMX)

    assert added.status_code == 200
    assert added.content.decode().lstrip().startswith('<section id="entries">')
    assert "Added #1 Ueda Sora." in added.content.decode()
    assert refused.status_code == 422
    page = refused.content.decode()
    assert page.lstrip().startswith('<section id="entries">')  # the same hx-target
    assert "Number 1 is already taken by Ueda Sora." in page
    assert tournament.entries.get().status == Entry.Status.CHECKED_IN


def test_a_walk_in_without_htmx_redirects_to_the_dashboard(
    logged_in: Client, tournament: Tournament
) -> None:
    response = logged_in.post("/organiser/nagoya-open/entries/add/", {"display_name": "Ueda"})

    assert response.status_code == 302
    assert tournament.entries.get().status == Entry.Status.REGISTERED
