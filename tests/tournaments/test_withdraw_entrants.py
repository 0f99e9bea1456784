"""Withdrawing an entrant (棄権) with a reason, after a confirmation step: later draws leave
them out, their earlier results stay, the withdrawal is audited; reinstating them (復帰) before
the next draw seats them again — unless a substitute has taken their place."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from games.models import GameResult
from tests.factories import play_round_quickly
from tournaments import services
from tournaments.models import AuditEntry, Entry, Round, Seat, Stage, Tournament
from tournaments.selectors import stage_totals

from .conftest import checked_in

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def first_round_played(
    tournament: Tournament, stage: Stage, organiser: User, head_referee: User
) -> Round:
    Tournament.objects.filter(pk=tournament.pk).update(games_per_set=1, sets_per_round=1)
    checked_in(tournament, 8)
    first = services.draw_round(stage, organiser)
    services.publish_round(first, organiser)
    play_round_quickly(first, organiser, head_referee)
    services.complete_round(first, organiser)
    return first


def test_a_withdrawn_entrant_is_not_seated_later_and_keeps_their_results(
    tournament: Tournament, stage: Stage, organiser: User, first_round_played: Round
) -> None:
    entry = tournament.entries.get(number=1)
    points = stage_totals(stage)[entry.pk]

    services.withdraw_entry(entry, organiser, reason="Feeling unwell 体調不良")
    second = services.draw_round(stage, organiser)

    entry.refresh_from_db()
    assert entry.status == Entry.Status.DROPPED
    assert not Seat.objects.filter(round=second, entry=entry).exists()
    assert Seat.objects.filter(round=first_round_played, entry=entry).exists()
    assert GameResult.objects.filter(entry=entry).exists()
    assert stage_totals(stage)[entry.pk] == points
    audit = AuditEntry.objects.get(action=AuditEntry.Action.ENTRY_WITHDRAWN)
    assert (audit.reason, audit.data) == ("Feeling unwell 体調不良", {"entry": 1, "seated": []})


def test_drop_entry_is_the_same_withdrawal(tournament: Tournament, organiser: User) -> None:
    assert services.drop_entry is services.withdraw_entry


def test_withdrawing_twice_is_refused(tournament: Tournament, organiser: User) -> None:
    (entry,) = checked_in(tournament, 1)
    services.withdraw_entry(entry, organiser, reason="left")

    with pytest.raises(services.DomainError) as refused:
        services.withdraw_entry(entry, organiser, reason="left")
    assert refused.value.code == "already_withdrawn"


def test_a_reinstated_entrant_is_seated_at_the_next_draw(
    tournament: Tournament, stage: Stage, organiser: User, first_round_played: Round
) -> None:
    entry = tournament.entries.get(number=1)
    services.withdraw_entry(entry, organiser, reason="phone call")

    services.reinstate_entry(entry, organiser, reason="back in time")
    second = services.draw_round(stage, organiser)

    entry.refresh_from_db()
    assert entry.status == Entry.Status.CHECKED_IN
    assert Seat.objects.filter(round=second, entry=entry).exists()
    audit = AuditEntry.objects.get(action=AuditEntry.Action.ENTRY_EDITED)
    assert audit.data["reinstated"] is True and audit.reason == "back in time"


def test_no_reinstating_once_a_substitute_took_the_place(
    tournament: Tournament, organiser: User
) -> None:
    (entry,) = checked_in(tournament, 1)
    services.substitute_entry(entry, organiser, display_name="Kato Hina", reason="ill")

    with pytest.raises(services.DomainError) as refused:
        services.reinstate_entry(entry, organiser)
    assert refused.value.code == "substituted"


@pytest.fixture
def logged_in(client: Client, organiser: User) -> Client:
    client.force_login(organiser)
    return client


def test_the_page_confirms_with_a_reason_before_withdrawing(
    logged_in: Client, tournament: Tournament
) -> None:
    (entry,) = checked_in(tournament, 1)
    url = f"/organiser/nagoya-open/entries/{entry.pk}/drop/"

    confirm = logged_in.get(url, **HTMX).content.decode()
    no_reason = logged_in.post(url, {"reason": ""}, **HTMX)
    entry.refresh_from_db()
    status_before = entry.status
    done = logged_in.post(url, {"reason": "Left the venue"}, **HTMX)

    assert confirm.lstrip().startswith(f'<tr id="entry-{entry.pk}"')
    assert "Withdraw #1</button>" in confirm and 'name="reason"' in confirm
    assert no_reason.status_code == 422
    assert no_reason.content.decode().lstrip().startswith('<section id="entries">')
    assert status_before == Entry.Status.CHECKED_IN
    assert done.status_code == 200
    assert "#1 Player 1 withdrew." in done.content.decode()
    assert ">Reinstate</button>" in done.content.decode()
    entry.refresh_from_db()
    assert entry.status == Entry.Status.DROPPED


def test_the_page_reinstates_with_htmx(
    logged_in: Client, tournament: Tournament, organiser: User
) -> None:
    entry = services.add_walk_in(tournament, organiser, display_name="Aoki")
    services.withdraw_entry(entry, organiser, reason="x")

    response = logged_in.post(f"/organiser/nagoya-open/entries/{entry.pk}/reinstate/", **HTMX)

    assert response.status_code == 200
    assert "is back: seated from the next draw" in response.content.decode()
    entry.refresh_from_db()
    assert entry.status == Entry.Status.CHECKED_IN


def test_without_htmx_the_withdrawal_redirects_or_rerenders_the_page(
    logged_in: Client, tournament: Tournament
) -> None:
    (entry,) = checked_in(tournament, 1)
    url = f"/organiser/nagoya-open/entries/{entry.pk}/drop/"

    missing = logged_in.post(url, {"reason": ""})
    done = logged_in.post(url, {"reason": "Left the venue"})

    assert missing.status_code == 422
    assert (
        "<html" in missing.content.decode() and "Withdraw #1</button>" in missing.content.decode()
    )
    assert (done.status_code, done["Location"]) == (302, "/organiser/nagoya-open/")


def test_the_withdrawal_speaks_japanese_to_a_japanese_browser(
    client_ja: Client, tournament: Tournament, organiser: User
) -> None:
    (entry,) = checked_in(tournament, 1)
    client_ja.force_login(organiser)
    url = f"/organiser/nagoya-open/entries/{entry.pk}/drop/"

    confirm = client_ja.get(url, **HTMX).content.decode()
    done = client_ja.post(url, {"reason": "体調不良"}, **HTMX).content.decode()

    assert "#1を棄権にする</button>" in confirm and "以後の抽選から外れます" in confirm
    assert "Withdraw #1" not in confirm and "Later draws" not in confirm
    assert "#1 Player 1さんは棄権しました。" in done and ">復帰</button>" in done
    assert "withdrew" not in done and ">Reinstate<" not in done
