"""A substitute (補欠) mid-round takes the seat itself: games finished before the substitution
stay the original entrant's — also when such a game is corrected afterwards — while the game
in play at that moment and every later one count for the substitute
(docs/tournament-day.md, "Substitutes")."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from games import services as games
from games.models import Game, GameResult
from tests.factories import EntryFactory
from tournaments import services
from tournaments.models import AuditEntry, Entry, Round, Seat, Stage, Table, Tournament
from tournaments.selectors import stage_totals

from .conftest import checked_in

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(tournament: Tournament, stage: Stage, organiser: User) -> Table:
    """One table of four in a published round of one set of three games."""
    Tournament.objects.filter(pk=tournament.pk).update(games_per_set=3, sets_per_round=1)
    checked_in(tournament, 4)
    round_ = services.draw_round(stage, organiser)
    services.publish_round(round_, organiser)
    return round_.tables.get()


def seat_entry(table: Table, position: int) -> Entry:
    return Seat.objects.get(table=table, position=position).entry


def results_of(game: Game) -> dict[int, int]:
    """Entry id per seat index of the game's current results."""
    return dict(GameResult.objects.filter(game=game).values_list("seat", "entry_id"))


def test_games_before_stay_with_the_original_the_game_in_play_and_later_go_to_the_substitute(
    tournament: Tournament, stage: Stage, organiser: User, head_referee: User, table: Table
) -> None:
    original = seat_entry(table, 1)
    before = games.start_game(table, organiser, mode=Game.Mode.QUICK)
    games.record_quick_result(before, organiser, [0, 1, 2, 3])  # the original wins
    games.confirm_game(before, head_referee)
    in_play = games.start_game(table, organiser, mode=Game.Mode.QUICK)

    substitute = services.substitute_entry(
        original, organiser, display_name="Kato Hina", reason="Original felt unwell"
    )
    games.record_quick_result(in_play, organiser, [0, 1, 2, 3])
    later = games.start_game(table, organiser, mode=Game.Mode.QUICK)
    games.record_quick_result(later, organiser, [0, 1, 2, 3])

    seat = Seat.objects.get(table=table, position=1)
    assert (seat.entry, seat.substituted_entry) == (substitute, original)
    assert seat.substituted_at is not None
    assert results_of(before)[0] == original.pk
    assert results_of(in_play)[0] == substitute.pk
    assert results_of(later)[0] == substitute.pk
    totals = stage_totals(stage)
    assert totals[original.pk] == GameResult.objects.get(game=before, seat=0).points > 0
    assert totals[substitute.pk] == sum(
        GameResult.objects.filter(game__in=[in_play, later], seat=0).values_list(
            "points", flat=True
        )
    )
    original.refresh_from_db()
    assert original.status == Entry.Status.DROPPED
    assert substitute.substitute_for == original
    assert substitute.status == Entry.Status.CHECKED_IN
    audit = AuditEntry.objects.get(action=AuditEntry.Action.ENTRY_SUBSTITUTED)
    assert audit.round == table.round and audit.reason == "Original felt unwell"
    assert audit.data["seats"] == [{"round": 1, "table": 1, "position": 1}]


def test_correcting_a_game_finished_before_the_substitution_keeps_the_original(
    organiser: User, head_referee: User, table: Table
) -> None:
    original = seat_entry(table, 1)
    before = games.start_game(table, organiser, mode=Game.Mode.QUICK)
    games.record_quick_result(before, organiser, [0, 1, 2, 3])
    games.confirm_game(before, head_referee)
    seated_before = results_of(before)
    substitute = services.substitute_entry(original, organiser, display_name="Kato Hina")

    before.refresh_from_db()
    games.correct_result(
        before,
        head_referee,
        finishing_order=[3, 2, 1, 0],  # the original actually finished last
        reason="Scoresheet misread",
        based_on_version=before.result_version,
    )

    assert results_of(before) == seated_before
    last = GameResult.objects.get(game=before, seat=0)
    assert (last.entry_id, last.place) == (original.pk, 4)
    assert not GameResult.objects.filter(game=before, entry=substitute).exists()


def test_an_existing_entrant_not_seated_in_the_round_may_take_the_seat(
    tournament: Tournament, organiser: User, table: Table
) -> None:
    original = seat_entry(table, 2)
    reserve = EntryFactory(tournament=tournament, number=9, status=Entry.Status.CHECKED_IN)
    seated_elsewhere = seat_entry(table, 3)

    with pytest.raises(services.DomainError) as refused:
        services.substitute_entry(original, organiser, substitute=seated_elsewhere)
    substitute = services.substitute_entry(original, organiser, substitute=reserve, reason="ill")

    assert refused.value.code == "substitute_invalid"
    assert substitute == reserve
    assert Seat.objects.get(table=table, position=2).entry == reserve
    with pytest.raises(services.DomainError) as again:
        services.substitute_entry(original, organiser, display_name="Someone Else")
    assert again.value.code == "already_substituted"


def test_between_rounds_the_substitute_takes_the_place_from_the_next_draw(
    tournament: Tournament, organiser: User
) -> None:
    (entry,) = checked_in(tournament, 1)

    substitute = services.substitute_entry(entry, organiser, display_name="Kato Hina")

    assert not Round.objects.exists()
    assert not Seat.objects.filter(entry=substitute).exists()
    assert substitute.substitute_for == entry
    audit = AuditEntry.objects.get(action=AuditEntry.Action.ENTRY_SUBSTITUTED)
    assert audit.round is None and audit.data["seats"] == []


@pytest.fixture
def logged_in(client: Client, organiser: User) -> Client:
    client.force_login(organiser)
    return client


def test_the_pages_seat_a_substitute_and_show_it(
    logged_in: Client, organiser: User, table: Table
) -> None:
    original = seat_entry(table, 1)
    url = f"/organiser/nagoya-open/entries/{original.pk}/substitute/"

    form = logged_in.get(url, HTTP_HX_REQUEST="true").content.decode()
    neither = logged_in.post(url, {"reason": "ill"}, HTTP_HX_REQUEST="true")
    done = logged_in.post(
        url, {"display_name": "Kato Hina", "reason": "ill"}, HTTP_HX_REQUEST="true"
    )

    assert form.lstrip().startswith(f'<tr id="entry-{original.pk}"')
    assert "takes seat 1 at table 1 of round 1 now" in form
    assert neither.status_code == 422
    assert "Choose an existing entrant or enter a new person" in neither.content.decode()
    assert done.status_code == 200
    section = done.content.decode()
    assert f"substitutes for #{original.number} {original.player.display_name}" in section
    round_page = logged_in.get(f"/organiser/nagoya-open/rounds/{table.round_id}/")
    assert "Kato Hina" in round_page.content.decode()
    assert f"for #{original.number}" in round_page.content.decode()
