"""The organiser's new-tournament form labels its fields in English and Japanese, like the
settings page, and calls the slug the tournament's address."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_the_new_tournament_form_is_labelled_in_both_languages(
    client: Client, client_ja: Client
) -> None:
    staff = UserFactory(username="staff", is_staff=True)
    client.force_login(staff)
    client_ja.force_login(staff)

    html = client.get("/organiser/").content.decode()
    html_ja = client_ja.get("/organiser/").content.decode()

    english = ("Name", "Address", "Games a set", "Sets a round", "Table size", "Venue", "Starts on")
    japanese = (
        "大会名",
        "アドレス",
        "1セットのゲーム数",
        "1回戦のセット数",
        "卓の人数",
        "会場",
        "開始日",
    )
    for label in english:
        assert f">{label}:</label>" in html
    for label in japanese:
        assert f">{label}" in html_ja
    assert ">Create tournament</button>" in html and ">大会を作成</button>" in html_ja
    assert "<h1>Organiser</h1>" in html and "<h1>主催</h1>" in html_ja
    assert "Create tournament" not in html_ja and "Games a set" not in html_ja
    assert ">Slug:<" not in html
    # The ruleset presets and points tables are named in the page's language too.
    assert "JDF official rules" in html and "日本大富豪連盟" not in html
    assert "日本大富豪連盟 公式ルール" in html_ja and "JDF公式ではありません" in html_ja
    assert "JDF official rules" not in html_ja and "not JDF" not in html_ja
