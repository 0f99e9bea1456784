"""An organiser enters a bot (a UECda program, docs/bots.md) from the walk-in form: its bot
name is the one its program sends in the handshake, it is checked in at once and audited; a
name the protocol cannot carry, or a bot already entered, is refused and nothing is lost."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from tests.factories import StageFactory
from tournaments.models import AuditEntry, Entry, Player, Tournament

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
URL = "/organiser/nagoya-open/entries/add/"


@pytest.fixture
def logged_in(client: Client, organiser: User) -> Client:
    client.force_login(organiser)
    return client


def test_a_bot_entered_from_the_walk_in_form_is_checked_in(
    logged_in: Client, tournament: Tournament
) -> None:
    form = logged_in.get("/organiser/nagoya-open/").content.decode()
    added = logged_in.post(URL, {"display_name": "Kakumei Bot", "bot_name": "kbot"}, **HTMX)

    assert 'name="bot_name"' in form
    assert added.status_code == 200
    entry = tournament.entries.get()
    assert entry.player.bot_name == "kbot" and entry.player.display_name == "Kakumei Bot"
    assert entry.status == Entry.Status.CHECKED_IN
    # The entrant list marks it as a bot.
    assert 'data-testid="bot-marker"' in added.content.decode()
    audit = AuditEntry.objects.get(action=AuditEntry.Action.ENTRY_ADDED)
    assert audit.data["bot"] == "kbot"


def test_a_name_with_a_space_or_a_bot_entered_twice_is_refused(
    logged_in: Client, tournament: Tournament
) -> None:
    spaced = logged_in.post(URL, {"display_name": "Bot", "bot_name": "my bot"}, **HTMX)
    logged_in.post(URL, {"display_name": "Bot", "bot_name": "kbot"}, **HTMX)
    again = logged_in.post(URL, {"display_name": "Bot again", "bot_name": "kbot"}, **HTMX)

    assert spaced.status_code == 422
    assert "without spaces" in spaced.content.decode()
    assert 'value="my bot"' in spaced.content.decode()  # the organiser's input is kept
    assert again.status_code == 422
    assert "has already entered as #1" in again.content.decode()
    assert list(Player.objects.exclude(bot_name="").values_list("bot_name", flat=True)) == ["kbot"]


def test_a_bot_is_a_newcomer_too_once_the_first_stage_is_over(
    logged_in: Client, tournament: Tournament
) -> None:
    StageFactory(tournament=tournament, order=1, advanced_at=timezone.now())

    late = logged_in.post(URL, {"display_name": "Late bot", "bot_name": "latebot"}, **HTMX)

    assert late.status_code == 422
    assert "can only come in as a substitute" in late.content.decode()
    assert not tournament.entries.exists()
