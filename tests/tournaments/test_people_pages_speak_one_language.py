"""The organiser's pages about people (entrants, officials' devices, the audit record, the
organiser's home) and the sign-in pages speak one language: English to an English browser,
Japanese to a Japanese one. The audit record translates what it can at display time (the
action's label) and keeps what people typed (a reason) as they typed it."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from tournaments import services
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def test_the_entrants_section_speaks_the_readers_language(
    client: Client, client_ja: Client, organiser: User, tournament: Tournament
) -> None:
    services.add_walk_in(tournament, organiser, display_name="Aoki", check_in=False)
    client.force_login(organiser)
    client_ja.force_login(organiser)

    en = client.get("/organiser/nagoya-open/").content.decode()
    ja = client_ja.get("/organiser/nagoya-open/").content.decode()

    assert "Entrants (0 of 1 checked in)" in en and "<summary>Add a walk-in</summary>" in en
    assert "Check in #1" in en and ">Withdraw</a>" in en
    assert "参加者(受付済み 0 / 1名)" in ja and "<summary>当日参加を追加</summary>" in ja
    assert "#1を受付" in ja and ">棄権</a>" in ja and "未受付" in ja
    assert "Add a walk-in" not in ja and "Check in #1" not in ja and ">Withdraw<" not in ja
    assert "Import entrants from CSV" not in ja and "CSVから参加者を取り込む" in ja


def test_the_devices_page_speaks_the_readers_language(
    client: Client, client_ja: Client, organiser: User, tournament: Tournament
) -> None:
    client.force_login(organiser)
    client_ja.force_login(organiser)

    en = client.get("/organiser/nagoya-open/devices/").content.decode()
    ja = client_ja.get("/organiser/nagoya-open/devices/").content.decode()

    assert "<h1>Devices</h1>" in en and ">Issue token</button>" in en
    assert "No device token yet." in en
    assert (
        "<h1>端末</h1>" in ja and ">発行</button>" in ja and "端末トークンはまだありません。" in ja
    )
    assert "Issue token" not in ja and "No device token yet" not in ja
    assert 'placeholder="例: 伊藤さんのスマートフォン"' in ja


def test_the_audit_page_translates_labels_and_keeps_typed_reasons(
    client: Client, client_ja: Client, organiser: User, tournament: Tournament
) -> None:
    entry = services.add_walk_in(tournament, organiser, display_name="Aoki")
    services.withdraw_entry(entry, organiser, reason="Left early 早退")
    client.force_login(organiser)
    client_ja.force_login(organiser)

    en = client.get("/organiser/nagoya-open/audit/").content.decode()
    ja = client_ja.get("/organiser/nagoya-open/audit/").content.decode()

    assert "<h1>Audit</h1>" in en and "Entrant withdrawn" in en and "Left early 早退" in en
    assert "<h1>監査記録</h1>" in ja and "参加者が棄権" in ja and "Left early 早退" in ja
    assert "Entrant withdrawn" not in ja and "Official actions" not in ja
    assert "Nothing refused." in en and "却下なし" in ja


def test_the_organiser_home_and_login_speak_the_readers_language(
    client: Client, client_ja: Client, organiser: User, tournament: Tournament
) -> None:
    login_en = client.get("/accounts/login/").content.decode()
    login_ja = client_ja.get("/accounts/login/").content.decode()
    client.force_login(organiser)
    client_ja.force_login(organiser)
    home_en = client.get("/organiser/").content.decode()
    home_ja = client_ja.get("/organiser/").content.decode()

    assert ">User name</label>" in login_en and "sign in with a PIN card</a>" in login_en
    assert ">ユーザー名</label>" in login_ja and "PINカードでサインイン</a>" in login_ja
    assert "User name" not in login_ja and "Password" not in login_ja
    assert "<h2>My tournaments</h2>" in home_en and "games a set" in home_en
    assert "<h2>担当大会</h2>" in home_ja and "1セット" in home_ja
    assert "My tournaments" not in home_ja and "games a set" not in home_ja
