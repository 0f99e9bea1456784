"""Penalties (罰則): the head referee or an organiser gives a warning (警告, 0 points) or a
points deduction (減点) with a reason, from the officials' game page for a player seated at the
table (the game and round are recorded); a mistaken one is withdrawn with a reason and kept on
record. Both are audited. Plain referees do neither."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied
from django.test import Client
from django.urls import reverse

from games.models import Game
from games.services import start_game
from tests.factories import EntryFactory, browser
from tournaments.models import AuditEntry, Entry, Penalty
from tournaments.services import give_penalty, withdraw_penalty

from .conftest import Crew

pytestmark = pytest.mark.django_db


def seated(crew: Crew, position: int) -> Entry:
    return crew.table.seats.get(position=position).entry


def client_for(user: object) -> Client:
    client = browser()
    client.force_login(user)  # type: ignore[arg-type]
    return client


def test_a_deduction_is_given_with_a_reason_and_audited(crew: Crew) -> None:
    baba = seated(crew, 2)

    penalty = give_penalty(
        baba,
        crew.head_referee,
        kind=Penalty.Kind.DEDUCTION,
        points=2,
        reason="slow play after a warning",
        round_=crew.table.round,
    )

    assert (penalty.kind, penalty.points, penalty.is_active) == ("deduction", 2, True)
    audit = AuditEntry.objects.get(action=AuditEntry.Action.PENALTY_GIVEN)
    assert (audit.actor, audit.reason, audit.data["points"], audit.data["entry"]) == (
        crew.head_referee,
        "slow play after a warning",
        2,
        baba.number,
    )


def test_a_withdrawn_penalty_stays_on_record_no_longer_in_force(crew: Crew) -> None:
    penalty = give_penalty(
        seated(crew, 3), crew.organiser, kind=Penalty.Kind.DEDUCTION, points=1, reason="noise"
    )

    withdraw_penalty(penalty, crew.head_referee, reason="it was the next table")

    penalty.refresh_from_db()
    assert not penalty.is_active
    assert penalty.withdrawn_reason == "it was the next table"
    audit = AuditEntry.objects.get(action=AuditEntry.Action.PENALTY_WITHDRAWN)
    assert (audit.actor, audit.data["penalty"]) == (crew.head_referee, penalty.pk)


def test_a_warning_deducts_nothing(crew: Crew) -> None:
    penalty = give_penalty(
        seated(crew, 1), crew.head_referee, kind=Penalty.Kind.WARNING, points=5, reason="phone"
    )

    assert (penalty.kind, penalty.points) == ("warning", 0)


def test_plain_referees_neither_give_nor_withdraw_penalties(crew: Crew) -> None:
    entry = seated(crew, 1)
    given = give_penalty(entry, crew.head_referee, kind=Penalty.Kind.WARNING, reason="phone")

    with pytest.raises(PermissionDenied):
        give_penalty(entry, crew.referee, kind=Penalty.Kind.WARNING, reason="phone")
    with pytest.raises(PermissionDenied):
        withdraw_penalty(given, crew.referee, reason="mistake")

    given.refresh_from_db()
    assert given.is_active
    assert Penalty.objects.count() == 1


# --- from the officials' game page ------------------------------------------------------------


def test_the_game_page_gives_a_penalty_in_this_game_and_round(crew: Crew) -> None:
    game = start_game(crew.table, crew.referee, mode=Game.Mode.QUICK)
    doi = seated(crew, 4)

    asked = {"entry": doi.pk, "kind": "deduction", "points": "3", "reason": "looked at cards"}
    url = reverse("referee:penalty-give", args=[game.pk])
    head = client_for(crew.head_referee)
    step = head.post(url, asked)

    # First a confirmation step, with what it changes in the standings: nothing saved yet.
    assert step.status_code == 200
    assert 'data-testid="penalty-confirm"' in step.content.decode()
    assert not Penalty.objects.exists()
    answer = head.post(url, asked | {"confirmed": "yes"})
    assert answer.status_code == 302
    penalty = Penalty.objects.get()
    assert (penalty.entry, penalty.points, penalty.game_id, penalty.round_id) == (
        doi,
        3,
        game.pk,
        crew.table.round_id,
    )
    page = client_for(crew.head_referee).get(reverse("referee:game", args=[game.pk]))
    assert "looked at cards" in page.content.decode()
    assert AuditEntry.objects.get(action="penalty_given").game_id == game.pk


def test_the_game_page_penalises_only_players_seated_at_the_table(crew: Crew) -> None:
    game = start_game(crew.table, crew.referee, mode=Game.Mode.QUICK)
    elsewhere: Entry = EntryFactory(tournament=crew.tournament, number=99)

    answer = client_for(crew.head_referee).post(
        reverse("referee:penalty-give", args=[game.pk]),
        {"entry": elsewhere.pk, "kind": "warning", "reason": "wrong table"},
    )

    assert answer.status_code == 200
    assert "Choose a player seated at this table" in answer.content.decode()
    assert not Penalty.objects.exists()


def test_the_game_page_withdraws_with_a_reason_and_refuses_plain_referees(crew: Crew) -> None:
    game = start_game(crew.table, crew.referee, mode=Game.Mode.QUICK)
    penalty = give_penalty(
        seated(crew, 2), crew.head_referee, kind="deduction", points=1, reason="late"
    )
    url = reverse("referee:penalty-withdraw", args=[game.pk, penalty.pk])

    by_referee = client_for(crew.referee).post(url, {"reason": "mistake"})
    without_reason = client_for(crew.head_referee).post(url, {"reason": ""})
    penalty.refresh_from_db()
    assert penalty.is_active
    step = client_for(crew.head_referee).post(url, {"reason": "train delay, excused"})
    assert 'data-testid="withdraw-confirm"' in step.content.decode()
    penalty.refresh_from_db()
    assert penalty.is_active  # the confirmation step saves nothing
    withdrawn = client_for(crew.head_referee).post(
        url, {"reason": "train delay, excused", "confirmed": "yes"}
    )

    assert by_referee.status_code == 403
    assert without_reason.status_code == 200
    assert "reason_required" in without_reason.content.decode()
    assert withdrawn.status_code == 302
    penalty.refresh_from_db()
    assert (penalty.is_active, penalty.withdrawn_reason) == (False, "train delay, excused")


def test_plain_referees_see_penalties_but_no_penalty_forms(crew: Crew) -> None:
    game = start_game(crew.table, crew.referee, mode=Game.Mode.QUICK)
    give_penalty(seated(crew, 2), crew.head_referee, kind="warning", reason="phone rang")
    url = reverse("referee:game", args=[game.pk])

    as_referee = client_for(crew.referee).get(url).content.decode()
    as_head = client_for(crew.head_referee).get(url).content.decode()

    assert "phone rang" in as_referee
    assert 'data-testid="penalty-form"' not in as_referee
    assert ">Withdraw</button>" not in as_referee
    assert 'data-testid="penalty-form"' in as_head
    assert ">Withdraw</button>" in as_head
    refused = client_for(crew.referee).post(
        reverse("referee:penalty-give", args=[game.pk]),
        {"entry": seated(crew, 1).pk, "kind": "warning", "reason": "phone"},
    )
    assert refused.status_code == 403
