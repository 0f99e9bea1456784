"""Every refused submission — an illegal move (from a device or the console), an undo without a
reason, a confirmation by whoever recorded the result — is kept apart from the game's log in
`RejectedSubmission` (code, actor, what was sent), and the log is left as it was. Officials read
them, with the audit entries, on the tournament's audit page: referees only those of their own
tables, in readable JSON."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied
from django.test import Client
from django.urls import reverse

from games.models import Game, RejectedSubmission
from games.services import (
    GameError,
    confirm_game,
    record_quick_result,
    request_undo,
    start_game,
    submit_move,
)
from tests.factories import TableFactory, browser
from tournaments.models import AuditEntry

from .conftest import T17_MOVES, Crew

pytestmark = pytest.mark.django_db

# Seat 0 holds 5D and 9C (T17): the king of spades is not in its hand.
ILLEGAL = {"seat": 0, "play": ["KS"]}


def log_of(game: Game) -> list[tuple[int, str, object]]:
    game.refresh_from_db()
    return [(m.seq, m.kind, m.payload) for m in game.moves.order_by("seq")]


def client_for(user: object) -> Client:
    client = browser()
    client.force_login(user)  # type: ignore[arg-type]
    return client


def test_an_illegal_move_from_a_device_is_kept_apart_from_the_log(
    crew: Crew, t17_game: Game
) -> None:
    assert submit_move(t17_game, T17_MOVES[0], 1, crew.referee).ok
    before = log_of(t17_game)

    outcome = submit_move(t17_game, {"seat": 1, "play": ["KS"]}, 2, crew.referee)

    assert not outcome.ok
    refusal = RejectedSubmission.objects.get(game=t17_game)
    assert (refusal.action, refusal.code, refusal.actor, refusal.seq) == (
        "move",
        outcome.code,
        crew.referee,
        2,
    )
    assert refusal.payload == {"seat": 1, "play": ["KS"]}
    assert refusal.http_status == outcome.http_status
    assert log_of(t17_game) == before


def test_an_illegal_move_from_the_console_is_kept_apart_from_the_log(
    crew: Crew, t17_game: Game
) -> None:
    before = log_of(t17_game)

    client_for(crew.referee).post(
        reverse("referee:play", args=[crew.table.pk]),
        {"seq": "1", "seat": "0", "cards": ["KS"], "action": "play"},
    )

    refusal = RejectedSubmission.objects.get(game=t17_game)
    assert (refusal.action, refusal.actor, refusal.payload) == ("move", crew.referee, ILLEGAL)
    assert refusal.code
    assert log_of(t17_game) == before


def test_an_undo_without_a_reason_is_refused_and_kept(crew: Crew, t17_game: Game) -> None:
    assert submit_move(t17_game, T17_MOVES[0], 1, crew.referee).ok
    before = log_of(t17_game)

    with pytest.raises(GameError):
        request_undo(t17_game, crew.referee, "   ")

    refusal = RejectedSubmission.objects.get(game=t17_game)
    assert (refusal.action, refusal.code, refusal.actor) == (
        "undo",
        "reason_required",
        crew.referee,
    )
    assert refusal.payload == {"args": ["   "]}
    assert log_of(t17_game) == before


def test_the_recorder_confirming_their_own_result_is_refused_and_kept(crew: Crew) -> None:
    game = start_game(crew.table, crew.referee, mode=Game.Mode.QUICK)
    record_quick_result(game, crew.referee, [0, 1, 2, 3])

    with pytest.raises(PermissionDenied):
        confirm_game(game, crew.referee)

    refusal = RejectedSubmission.objects.get(game=game)
    assert (refusal.action, refusal.code, refusal.actor) == ("confirm", "forbidden", crew.referee)
    game.refresh_from_db()
    assert (game.status, game.last_seq) == (Game.Status.FINISHED, 0)


# --- the tournament's audit page --------------------------------------------------------------


def refusals_at_two_tables(crew: Crew, t17_game: Game) -> None:
    """A refused move at the crew's table (ref-ito) and a refused start at table 2 (ref-ueda)."""
    submit_move(t17_game, ILLEGAL, 1, crew.referee)
    second = TableFactory(round=crew.table.round, number=2, referee=crew.other_referee)
    with pytest.raises(GameError):
        start_game(second, crew.other_referee)  # nobody is seated there yet


def test_officials_read_the_audit_and_referees_only_their_own_tables_refusals(
    crew: Crew, t17_game: Game
) -> None:
    refusals_at_two_tables(crew, t17_game)
    AuditEntry.objects.create(
        tournament=crew.tournament, action=AuditEntry.Action.DRAW_OVERRIDE, reason="late table"
    )
    url = reverse("organiser:audit", args=[crew.tournament.slug])

    pages = {
        who: client_for(getattr(crew, who)).get(url)
        for who in ("organiser", "head_referee", "referee", "other_referee")
    }

    assert {who: page.status_code for who, page in pages.items()} == dict.fromkeys(pages, 200)
    text = {who: page.content.decode() for who, page in pages.items()}
    for who in pages:
        assert "late table" in text[who]
        assert "Round drawn before the previous one was complete" in text[who]
    for who in ("organiser", "head_referee"):
        assert "no_seats" in text[who] and ILLEGAL_JSON in text[who]
    assert ILLEGAL_JSON in text["referee"] and "no_seats" not in text["referee"]
    assert "no_seats" in text["other_referee"] and ILLEGAL_JSON not in text["other_referee"]
    assert all("{&#x27;" not in page and "{'" not in page for page in text.values())


# The refused move's payload as the page shows it: indented JSON, escaped for HTML.
ILLEGAL_JSON = "&quot;play&quot;: [\n    &quot;KS&quot;\n  ]"


def test_the_audit_page_is_for_the_tournaments_officials_only(crew: Crew) -> None:
    url = reverse("organiser:audit", args=[crew.tournament.slug])

    assert client_for(crew.outsider_organiser).get(url).status_code == 404
    assert browser().get(url).status_code == 302  # to the login page


def test_the_audit_page_shows_a_hundred_entries_a_page_newest_first(crew: Crew) -> None:
    AuditEntry.objects.bulk_create(
        AuditEntry(tournament=crew.tournament, action="draw_override", reason=f"reason {n:03}")
        for n in range(101)
    )
    url = reverse("organiser:audit", args=[crew.tournament.slug])
    client = client_for(crew.organiser)

    first = client.get(url).content.decode()
    second = client.get(url, {"page": 2}).content.decode()

    assert first.count("Round drawn before the previous one was complete") == 100
    assert second.count("Round drawn before the previous one was complete") == 1
    assert "reason 100" in first and "reason 000" in second
