"""While a round is being played, its public page links each table to the table's live view
(hands hidden there until the game ends); once the round is complete the links go."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tests.factories import seated_table
from tournaments.models import Round

pytestmark = pytest.mark.django_db


def test_an_open_round_links_its_live_tables_and_a_complete_one_does_not(client: Client) -> None:
    table = seated_table()
    round_ = table.round
    url = reverse("tournaments:round", args=[round_.stage.tournament.slug, round_.pk])
    live = reverse("games:live", args=[table.pk])

    assert f'href="{live}"' in client.get(url).content.decode()
    assert client.get(live).status_code == 200

    Round.objects.filter(pk=round_.pk).update(
        status=Round.Status.COMPLETE, completed_at=timezone.now()
    )
    assert f'href="{live}"' not in client.get(url).content.decode()
