"""The organiser's new-tournament form labels its fields in English and Japanese, like the
settings page, and calls the slug the tournament's address."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_the_new_tournament_form_is_labelled_in_both_languages(client: Client) -> None:
    client.force_login(UserFactory(username="staff", is_staff=True))

    html = client.get("/organiser/").content.decode()

    for label in (
        "Name 大会名",
        "Address アドレス",
        "Games a set 1セットのゲーム数",
        "Sets a round 1回戦のセット数",
        "Table size 卓の人数",
        "Venue 会場",
        "Starts on 開始日",
        "Create tournament 大会を作成",
    ):
        assert label in html
    assert ">Slug:<" not in html
