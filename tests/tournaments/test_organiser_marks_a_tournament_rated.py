"""An organiser marks an individual tournament rated from the settings page (audited like
every setting); a team event (掼蛋) is never rated."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from tests.factories import OfficialFactory, UserFactory, guandan_tournament
from tournaments import services
from tournaments.models import AuditEntry, Official, Tournament

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def test_the_settings_page_marks_the_tournament_rated_and_the_audit_says_so(
    client: Client, organiser: User, tournament: Tournament
) -> None:
    client.force_login(organiser)
    url = f"/organiser/{tournament.slug}/settings/"
    page = client.get(url)
    assert 'name="rated"' in page.content.decode()
    data = {k: v for k, v in page.context["form"].initial.items() if v is not None}
    data["undo_requires_approval"] = ""
    data["rated"] = "on"

    saved = client.post(url, data, **HTMX)

    assert saved.status_code == 200
    tournament.refresh_from_db()
    assert tournament.rated
    audit = AuditEntry.objects.get(action=AuditEntry.Action.SETTINGS_CHANGED)
    assert audit.data["changed"]["rated"] == {"old": False, "new": True}


def test_a_team_event_is_never_rated() -> None:
    event = guandan_tournament()
    organiser = UserFactory()
    OfficialFactory(tournament=event, user=organiser, role=Official.Role.ORGANISER)
    with pytest.raises(services.SettingsRefused) as refused:
        services.update_tournament_settings(event, organiser, rated=True)
    error = refused.value.errors["rated"]
    assert error.code == "not_rateable" and error.message_ja
    event.refresh_from_db()
    assert not event.rated
