"""Only an organiser of the tournament imports records: not the table's referee, not the head
referee, not another tournament's organiser, not the public — whether through the service, the
organiser page or the API. Nothing is written for them."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import PermissionDenied
from django.test import Client

from games.imports import import_records
from games.models import Game, RejectedSubmission
from tests.factories import engine_record

from .conftest import Crew

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("who", ["referee", "head_referee", "outsider_organiser", "public"])
def test_the_service_refuses_anyone_but_an_organiser(crew: Crew, who: str) -> None:
    actor = AnonymousUser() if who == "public" else getattr(crew, who)

    with pytest.raises(PermissionDenied):
        import_records(crew.table, actor, [engine_record("not yours")])

    assert not Game.objects.exists()
    assert RejectedSubmission.objects.get().code == "forbidden"


@pytest.mark.parametrize("who", ["referee", "head_referee", "outsider_organiser"])
def test_the_page_and_the_api_refuse_them_too(crew: Crew, who: str) -> None:
    client = Client()
    client.force_login(getattr(crew, who))
    round_ = crew.table.round
    page = f"/organiser/{crew.tournament.slug}/rounds/{round_.pk}/tables/{crew.table.pk}/import/"
    body = json.dumps(engine_record("not yours either"))

    assert client.get(page).status_code == 404
    assert client.post(page, {"text": body}).status_code == 404
    answer = client.post(
        f"/api/tables/{crew.table.pk}/records/", body, content_type="application/json"
    )
    assert answer.status_code in (403, 404)
    assert not Game.objects.exists()


def test_the_public_is_asked_to_sign_in(crew: Crew) -> None:
    answer = Client().post(
        f"/api/tables/{crew.table.pk}/records/",
        json.dumps(engine_record("anonymous")),
        content_type="application/json",
    )

    assert answer.status_code in (401, 403)
    assert not Game.objects.exists()
