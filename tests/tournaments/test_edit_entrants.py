"""Editing an entrant (name, kana, e-mail, number) in their row: audited, a taken number or
another player's e-mail refused, errors answered as the row's form with status 422."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from tests.factories import OfficialFactory, PlayerFactory, TournamentFactory, UserFactory
from tournaments import services
from tournaments.models import AuditEntry, Tournament

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def test_an_edit_changes_the_entrant_and_is_audited_without_the_address(
    tournament: Tournament, organiser: User
) -> None:
    entry = services.add_walk_in(tournament, organiser, display_name="Aoki", number=3)

    services.edit_entry(
        entry,
        organiser,
        display_name="Aoki Haruto",
        name_kana="あおき はると",
        email="aoki@example.org",
        number=7,
    )

    entry.refresh_from_db()
    assert (entry.number, entry.player.display_name, entry.player.name_kana) == (
        7, "Aoki Haruto", "あおき はると",
    )  # fmt: skip
    assert entry.player.email == "aoki@example.org"
    audit = AuditEntry.objects.get(action=AuditEntry.Action.ENTRY_EDITED)
    assert audit.data == {
        "entry": 7,
        "changes": {
            "display_name": ["Aoki", "Aoki Haruto"],
            "name_kana": ["", "あおき はると"],
            "email": "changed",
            "number": [3, 7],
        },
    }


def test_an_edit_that_changes_nothing_records_nothing(
    tournament: Tournament, organiser: User
) -> None:
    entry = services.add_walk_in(tournament, organiser, display_name="Aoki")

    services.edit_entry(entry, organiser, display_name="Aoki")

    assert not AuditEntry.objects.filter(action=AuditEntry.Action.ENTRY_EDITED).exists()


def test_a_taken_number_or_another_players_e_mail_is_refused(
    tournament: Tournament, organiser: User
) -> None:
    aoki = services.add_walk_in(tournament, organiser, display_name="Aoki", number=1)
    services.add_walk_in(tournament, organiser, display_name="Baba", number=2)
    PlayerFactory(display_name="Chiba", email="chiba@example.org")

    with pytest.raises(services.DomainError) as taken:
        services.edit_entry(aoki, organiser, display_name="Aoki", number=2)
    with pytest.raises(services.DomainError) as theirs:
        services.edit_entry(aoki, organiser, display_name="Aoki", email="CHIBA@example.org")

    assert (taken.value.code, theirs.value.code) == ("number_taken", "email_in_use")
    aoki.refresh_from_db()
    assert (aoki.number, aoki.player.email) == (1, "")


@pytest.fixture
def logged_in(client: Client, organiser: User) -> Client:
    client.force_login(organiser)
    return client


def test_the_row_turns_into_a_form_and_back_with_htmx(
    logged_in: Client, tournament: Tournament, organiser: User
) -> None:
    entry = services.add_walk_in(tournament, organiser, display_name="Aoki", number=1)
    services.add_walk_in(tournament, organiser, display_name="Baba", number=2)
    url = f"/organiser/nagoya-open/entries/{entry.pk}/edit/"

    form = logged_in.get(url, **HTMX).content.decode()
    refused = logged_in.post(url, {"display_name": "Aoki", "number": "2"}, **HTMX)
    saved = logged_in.post(url, {"display_name": "Aoki Haruto", "number": "5"}, **HTMX)

    assert form.lstrip().startswith(f'<tr id="entry-{entry.pk}"')
    assert 'name="display_name"' in form and 'value="Aoki"' in form
    assert refused.status_code == 422
    assert refused.content.decode().lstrip().startswith(f'<tr id="entry-{entry.pk}"')
    assert "Number 2 is already taken by Baba." in refused.content.decode()
    assert saved.status_code == 200
    row = saved.content.decode()
    assert row.lstrip().startswith(f'<tr id="entry-{entry.pk}"')
    assert "Aoki Haruto" in row and 'name="display_name"' not in row
    entry.refresh_from_db()
    assert entry.number == 5


def test_an_invalid_e_mail_is_a_field_error_in_the_row(
    logged_in: Client, tournament: Tournament, organiser: User
) -> None:
    entry = services.add_walk_in(tournament, organiser, display_name="Aoki")

    response = logged_in.post(
        f"/organiser/nagoya-open/entries/{entry.pk}/edit/",
        {"display_name": "Aoki", "email": "not-an-address"},
        **HTMX,
    )

    assert response.status_code == 422
    assert "Enter a valid email address." in response.content.decode()


def test_another_tournaments_organiser_cannot_touch_the_entrant(
    client: Client, tournament: Tournament, organiser: User
) -> None:
    entry = services.add_walk_in(tournament, organiser, display_name="Aoki")
    stranger = UserFactory(username="organiser-b")
    OfficialFactory(tournament=TournamentFactory(slug="osaka"), user=stranger)
    client.force_login(stranger)

    for url in ("edit", "drop", "substitute"):
        path = f"/organiser/nagoya-open/entries/{entry.pk}/{url}/"
        assert client.post(path, {"display_name": "X", "reason": "x"}).status_code == 404
    assert (
        client.post("/organiser/nagoya-open/entries/add/", {"display_name": "X"}).status_code == 404
    )
    entry.refresh_from_db()
    assert entry.player.display_name == "Aoki"
