"""Per-object roles: an organiser of one tournament cannot touch another (services, pages, API);
the public sees published data only; a referee sees only their own tables."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.test import Client

from tests.factories import OfficialFactory, StageFactory, TournamentFactory, UserFactory
from tournaments import services
from tournaments.models import Official, Round, Stage, Table, Tournament

from .conftest import checked_in

pytestmark = pytest.mark.django_db


@pytest.fixture
def other_tournament() -> Tournament:
    """Tournament B, organised by someone else, with a drawn (draft) round."""
    cup = TournamentFactory(name="Osaka Cup", slug="osaka-cup")
    owner = UserFactory(username="organiser-b")
    OfficialFactory(tournament=cup, user=owner, role=Official.Role.ORGANISER)
    stage = StageFactory(tournament=cup, order=1)
    checked_in(cup, 8)
    services.draw_round(stage, owner)
    return cup


@pytest.fixture
def b_round(other_tournament: Tournament) -> Round:
    return Round.objects.get(stage__tournament=other_tournament)


def test_services_refuse_an_organiser_of_another_tournament(
    organiser: User, tournament: Tournament, other_tournament: Tournament, b_round: Round
) -> None:
    b_stage = other_tournament.stages.get()
    b_entry = other_tournament.entries.first()
    assert b_entry is not None
    calls = [
        lambda: services.import_entries_csv(other_tournament, organiser, "display_name\nX\n"),
        lambda: services.check_in_entry(b_entry, organiser),
        lambda: services.drop_entry(b_entry, organiser),
        lambda: services.register_entry(other_tournament, organiser, display_name="X"),
        lambda: services.draw_round(b_stage, organiser),
        lambda: services.publish_round(b_round, organiser),
        lambda: services.reveal_round_seed(b_round, organiser),
        lambda: services.advance_stage(b_stage, organiser, {}),
        lambda: services.add_official(other_tournament, organiser, organiser, "organiser"),
        lambda: services.assign_referee(b_round.tables.first(), organiser, None),  # type: ignore[arg-type]
    ]
    for call in calls:
        with pytest.raises(PermissionDenied):
            call()
    b_round.refresh_from_db()
    assert b_round.status == Round.Status.DRAFT


def test_organiser_pages_of_another_tournament_are_not_found(
    client: Client, organiser: User, tournament: Tournament, b_round: Round
) -> None:
    client.force_login(organiser)
    b_stage_id = b_round.stage_id
    entry_id = b_round.stage.tournament.entries.values_list("pk", flat=True).first()

    assert client.get("/organiser/nagoya-open/").status_code == 200
    for method, url in [
        ("get", "/organiser/osaka-cup/"),
        ("post", "/organiser/osaka-cup/import/"),
        ("post", f"/organiser/osaka-cup/entries/{entry_id}/check-in/"),
        ("post", f"/organiser/osaka-cup/stages/{b_stage_id}/draw/"),
        ("get", f"/organiser/osaka-cup/rounds/{b_round.pk}/"),
        ("post", f"/organiser/osaka-cup/rounds/{b_round.pk}/publish/"),
        ("get", f"/organiser/osaka-cup/rounds/{b_round.pk}/cards/"),
        ("post", f"/organiser/osaka-cup/stages/{b_stage_id}/advance/"),
        # B's round through A's address is not found either.
        ("get", f"/organiser/nagoya-open/rounds/{b_round.pk}/"),
        ("post", f"/organiser/nagoya-open/rounds/{b_round.pk}/publish/"),
    ]:
        assert getattr(client, method)(url).status_code == 404, url
    b_round.refresh_from_db()
    assert b_round.status == Round.Status.DRAFT


def test_organiser_pages_need_a_login(client: Client, tournament: Tournament) -> None:
    response = client.get("/organiser/nagoya-open/")

    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/")


def test_api_writes_to_another_tournament_are_refused(
    client: Client, organiser: User, tournament: Tournament, b_round: Round
) -> None:
    client.force_login(organiser)
    services.publish_round(b_round, b_round.stage.tournament.officials.get().user)
    entry_id = b_round.stage.tournament.entries.values_list("pk", flat=True).first()

    assert client.post(f"/api/rounds/{b_round.pk}/reveal/").status_code == 403
    assert client.post(f"/api/entries/{entry_id}/check-in/").status_code == 403
    assert client.post(f"/api/stages/{b_round.stage_id}/draw/").status_code == 403
    created = client.post("/api/entries/", {"tournament": "osaka-cup", "display_name": "Intruder"})
    assert created.status_code == 404
    b_round.refresh_from_db()
    assert b_round.status == Round.Status.PUBLISHED


def test_the_public_sees_neither_drafts_nor_draft_rounds(client: Client, b_round: Round) -> None:
    TournamentFactory(slug="secret", status=Tournament.Status.DRAFT)

    assert client.get("/api/rounds/").json()["results"] == []
    assert client.get("/api/tables/").json()["results"] == []
    assert client.get(f"/tournaments/osaka-cup/rounds/{b_round.pk}/").status_code == 404
    assert "secret" not in [t["slug"] for t in client.get("/api/tournaments/").json()["results"]]


@pytest.fixture
def refereed(tournament: Tournament, stage: Stage, organiser: User) -> tuple[User, Table, Table]:
    checked_in(tournament, 8)
    round_ = services.draw_round(stage, organiser)
    referee = UserFactory(username="referee-r")
    services.add_official(tournament, organiser, referee, Official.Role.REFEREE)
    mine, theirs = round_.tables.order_by("number")
    services.assign_referee(mine, organiser, referee)
    return referee, mine, theirs


def test_a_referee_sees_only_their_own_table(
    client: Client, refereed: tuple[User, Table, Table]
) -> None:
    referee, mine, theirs = refereed
    client.force_login(referee)

    page = client.get(f"/referee/tables/{mine.pk}/")

    assert page.status_code == 200
    for seat in mine.seats.select_related("entry__player"):
        assert seat.entry.player.display_name in page.content.decode()
    assert client.get(f"/referee/tables/{theirs.pk}/").status_code == 403
    assert [t["id"] for t in client.get("/api/tables/").json()["results"]] == [mine.pk]


def test_head_referee_and_organiser_see_every_table_of_their_tournament(
    client: Client, organiser: User, tournament: Tournament, refereed: tuple[User, Table, Table]
) -> None:
    _, _, theirs = refereed
    head = UserFactory(username="head")
    services.add_official(tournament, organiser, head, Official.Role.HEAD_REFEREE)

    for user in (head, organiser):
        client.force_login(user)
        assert client.get(f"/referee/tables/{theirs.pk}/").status_code == 200


def test_a_referee_of_another_tournament_cannot_open_the_table(
    client: Client, refereed: tuple[User, Table, Table]
) -> None:
    _, mine, _ = refereed
    outsider = UserFactory(username="outsider")
    OfficialFactory(user=outsider, role=Official.Role.HEAD_REFEREE)  # of some other tournament
    client.force_login(outsider)

    assert client.get(f"/referee/tables/{mine.pk}/").status_code == 403
    client.logout()
    assert client.get(f"/referee/tables/{mine.pk}/").status_code == 302  # to the login page


def test_only_a_referee_of_the_tournament_can_be_assigned(
    organiser: User, refereed: tuple[User, Table, Table]
) -> None:
    _, mine, _ = refereed

    with pytest.raises(services.DomainError):
        services.assign_referee(mine, organiser, UserFactory(username="not-an-official"))
