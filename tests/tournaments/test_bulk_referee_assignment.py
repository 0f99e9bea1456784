"""Referees per round, in bulk: one referee for several ticked tables in one POST (audited);
only the tournament's referees can be given tables; the per-table select keeps working."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from tests.factories import OfficialFactory, RoundFactory, TableFactory, UserFactory
from tournaments import services
from tournaments.models import AuditEntry, Round, Stage, Table, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def round_(stage: Stage) -> Round:
    round_ = RoundFactory(stage=stage, status=Round.Status.PUBLISHED, published_at=timezone.now())
    for number in (1, 2, 3):
        TableFactory(round=round_, number=number)
    return round_


@pytest.fixture
def referee(tournament: Tournament) -> User:
    user = UserFactory(username="ref-ito", first_name="Ito Hana")
    OfficialFactory(tournament=tournament, user=user, role="referee")
    return user


def url(round_: Round) -> str:
    return f"/organiser/nagoya-open/rounds/{round_.pk}/referees/"


def referees_by_number(round_: Round) -> dict[int, int | None]:
    return dict(round_.tables.values_list("number", "referee_id"))


def test_one_post_gives_ticked_tables_to_one_referee(
    client: Client, organiser: User, round_: Round, referee: User
) -> None:
    client.force_login(organiser)
    tables = {t.number: t.pk for t in round_.tables.all()}

    page = client.get(f"/organiser/nagoya-open/rounds/{round_.pk}/")
    response = client.post(url(round_), {"referee": referee.pk, "tables": [tables[1], tables[3]]})

    assert 'data-testid="assign-referees"' in page.content.decode()
    assert "Ito Hana (ref-ito)" in page.content.decode()
    assert response.status_code == 302
    assert referees_by_number(round_) == {1: referee.pk, 2: None, 3: referee.pk}
    audit = AuditEntry.objects.get(action="referees_assigned")
    assert audit.round == round_ and audit.data == {"referee": "ref-ito", "tables": [1, 3]}
    shown = client.get(response["Location"]).content.decode()
    assert "Referee of tables 1, 3: Ito Hana" in shown
    assert "審判を割り当て" not in shown

    cleared = client.post(
        url(round_), {"referee": "", "tables": [tables[3]]}, HTTP_HX_REQUEST="true"
    )
    assert cleared["HX-Redirect"].startswith(f"/organiser/nagoya-open/rounds/{round_.pk}/")
    assert referees_by_number(round_) == {1: referee.pk, 2: None, 3: None}


def test_only_referees_of_the_tournament_can_be_given_tables(
    client: Client, organiser: User, round_: Round
) -> None:
    outsider = UserFactory(username="someone")
    OfficialFactory(user=outsider, role="referee")  # a referee of another tournament
    client.force_login(organiser)
    table = round_.tables.get(number=1)

    response = client.post(url(round_), {"referee": outsider.pk, "tables": [table.pk]}, follow=True)

    assert "is not a referee of" in response.content.decode()
    assert "この大会の審判ではありません" not in response.content.decode()
    assert referees_by_number(round_) == {1: None, 2: None, 3: None}
    assert not AuditEntry.objects.filter(action="referees_assigned").exists()


def test_tables_of_another_round_and_no_tables_are_refused(
    organiser: User, round_: Round, referee: User, stage: Stage
) -> None:
    other = TableFactory(round=RoundFactory(stage=stage), number=9)

    with pytest.raises(services.DomainError) as no_tables:
        services.assign_referees(round_, organiser, referee, [])
    with pytest.raises(services.DomainError) as foreign:
        services.assign_referees(round_, organiser, referee, [other])

    assert no_tables.value.code == foreign.value.code == "no_tables"
    assert Table.objects.get(pk=other.pk).referee_id is None


def test_a_referee_or_another_organiser_cannot_assign(
    client: Client, round_: Round, referee: User
) -> None:
    elsewhere = UserFactory(username="org-elsewhere")
    OfficialFactory(user=elsewhere, role="organiser")
    table = round_.tables.get(number=1)

    for user in (referee, elsewhere):
        client.force_login(user)
        response = client.post(url(round_), {"referee": referee.pk, "tables": [table.pk]})
        assert response.status_code == 404
    assert referees_by_number(round_)[1] is None


def test_the_per_table_select_still_works(
    client: Client, organiser: User, round_: Round, referee: User
) -> None:
    client.force_login(organiser)
    table = round_.tables.get(number=2)

    client.post(f"/organiser/nagoya-open/tables/{table.pk}/referee/", {"referee": referee.pk})

    assert referees_by_number(round_)[2] == referee.pk
