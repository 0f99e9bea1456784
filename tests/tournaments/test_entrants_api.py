"""API parity for entrants on the day: add (walk-in), edit, withdraw with a reason, reinstate,
substitute mid-round, and the CSV preview → import of exactly the preview — organisers only,
refusals as {code, message_en, message_ja}."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from tests.factories import UserFactory
from tournaments import services
from tournaments.models import AuditEntry, Entry, Seat, Stage, Tournament

from .conftest import checked_in

pytestmark = pytest.mark.django_db

JSON = "application/json"


@pytest.fixture
def api(client: Client, organiser: User) -> Client:
    client.force_login(organiser)
    return client


def test_a_walk_in_is_added_checked_in_and_a_taken_number_refused(
    api: Client, tournament: Tournament
) -> None:
    body = {"tournament": "nagoya-open", "display_name": "Ueda Sora", "checked_in": True}

    added = api.post("/api/entries/", body, JSON)
    taken = api.post("/api/entries/", {**body, "display_name": "Endo", "number": 1}, JSON)

    assert added.status_code == 201
    assert (added.json()["number"], added.json()["status"]) == (1, "checked_in")
    assert taken.status_code == 400
    assert taken.json()["code"] == "number_taken"
    assert taken.json()["message_ja"].startswith("番号 1 は")
    assert AuditEntry.objects.filter(action=AuditEntry.Action.ENTRY_ADDED).count() == 1


def test_an_entrant_is_edited_with_patch(
    api: Client, tournament: Tournament, organiser: User
) -> None:
    entry = services.add_walk_in(tournament, organiser, display_name="Aoki", number=3)

    edited = api.patch(f"/api/entries/{entry.pk}/", {"display_name": "Aoki Haruto"}, JSON)
    renumbered = api.patch(f"/api/entries/{entry.pk}/", {"number": 9}, JSON)

    assert edited.status_code == 200
    assert (edited.json()["player"], edited.json()["number"]) == ("Aoki Haruto", 3)
    assert renumbered.json()["number"] == 9


def test_withdraw_needs_a_reason_and_reinstate_undoes_it(
    api: Client, tournament: Tournament, organiser: User
) -> None:
    entry = services.add_walk_in(tournament, organiser, display_name="Aoki")

    no_reason = api.post(f"/api/entries/{entry.pk}/withdraw/", {}, JSON)
    withdrawn = api.post(f"/api/entries/{entry.pk}/withdraw/", {"reason": "left"}, JSON)
    again = api.post(f"/api/entries/{entry.pk}/withdraw/", {"reason": "left"}, JSON)
    back = api.post(f"/api/entries/{entry.pk}/reinstate/", {}, JSON)

    assert no_reason.status_code == 400
    assert withdrawn.json()["status"] == "dropped"
    assert (again.status_code, again.json()["code"]) == (400, "already_withdrawn")
    assert back.json()["status"] == "checked_in"


def test_a_substitute_takes_the_seat_mid_round(
    api: Client, tournament: Tournament, stage: Stage, organiser: User
) -> None:
    checked_in(tournament, 4)
    reserve = services.add_walk_in(
        tournament, organiser, display_name="Reserve", number=9, check_in=False
    )
    round_ = services.draw_round(stage, organiser)
    services.publish_round(round_, organiser)
    seat = Seat.objects.filter(round=round_).exclude(entry=reserve).first()
    assert seat is not None
    original = seat.entry

    response = api.post(
        f"/api/entries/{original.pk}/substitute/",
        {"substitute_number": 9, "reason": "unwell"},
        JSON,
    )

    assert response.status_code == 201
    assert (response.json()["number"], response.json()["substitute_for"]) == (
        9,
        original.number,
    )
    seat.refresh_from_db()
    assert (seat.entry, seat.substituted_entry) == (reserve, original)


def test_the_csv_is_previewed_then_exactly_that_imported(
    api: Client, tournament: Tournament
) -> None:
    data = "display_name,name_kana\n大富豪 太郎,だいふごう たろう\n".encode("cp932")

    preview = api.post(
        "/api/entries/csv-preview/",
        {"tournament": "nagoya-open", "file": SimpleUploadedFile("e.csv", data)},
    )
    assert not tournament.entries.exists()
    imported = api.post(
        "/api/entries/csv-import/",
        {"tournament": "nagoya-open", "token": preview.json()["token"]},
        JSON,
    )

    assert preview.status_code == 200
    assert preview.json()["encoding"] == "Shift_JIS (CP932)"
    assert preview.json()["rows"][0]["display_name"] == "大富豪 太郎"
    assert imported.status_code == 201
    assert [e["player"] for e in imported.json()] == ["大富豪 太郎"]


def test_csv_errors_come_back_by_row_and_column(api: Client, tournament: Tournament) -> None:
    response = api.post(
        "/api/entries/csv-preview/",
        {"tournament": "nagoya-open", "text": "number,display_name\nx,Aoki\n"},
        JSON,
    )

    assert response.status_code == 400
    body = response.json()
    assert (body["code"], body["encoding"]) == ("csv_invalid", "UTF-8")
    assert [(e["row"], e["column"]) for e in body["errors"]] == [(2, "number")]
    assert body["errors"][0]["message_ja"] == "番号は1以上の整数です。"


def test_only_the_tournaments_organisers_write(
    client: Client, tournament: Tournament, organiser: User
) -> None:
    entry = services.add_walk_in(tournament, organiser, display_name="Aoki")
    client.force_login(UserFactory(username="someone-else"))

    assert (
        client.post(f"/api/entries/{entry.pk}/withdraw/", {"reason": "x"}, JSON).status_code == 403
    )
    assert client.patch(f"/api/entries/{entry.pk}/", {"number": 5}, JSON).status_code == 403
    assert (
        client.post(
            "/api/entries/csv-preview/",
            {"tournament": "nagoya-open", "text": "display_name\nX\n"},
            JSON,
        ).status_code
        == 404
    )
    entry.refresh_from_db()
    assert (entry.status, entry.number) == (Entry.Status.CHECKED_IN, 1)
