"""An organiser imports a finished game played elsewhere: the record becomes the table's next
game, its moves go into the log, its results are the engine's placings of the record, the
standings count them as for a game played at the console, and the game says it was imported."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager

import pytest

from games.engine.record import replay
from games.imports import import_records
from games.models import Game, GameResult, Move
from games.state import family_for, rebuild
from scoring.models import Standing
from tests.factories import engine_record, titles_after
from tournaments.models import AuditEntry, Round

from .conftest import Crew

pytestmark = pytest.mark.django_db

Capture = Callable[..., AbstractContextManager[list[Callable[[], None]]]]


def test_the_imported_game_has_the_records_moves_and_the_engines_placings(
    crew: Crew, django_capture_on_commit_callbacks: Capture
) -> None:
    record = engine_record("table 1, game 1")

    with django_capture_on_commit_callbacks(execute=True):
        [outcome] = import_records(crew.table, crew.organiser, [record])

    assert outcome.status == "imported"
    game = Game.objects.get(pk=outcome.game.pk if outcome.game else None)
    assert (game.set_number, game.game_number, game.mode, game.status) == (
        1,
        1,
        Game.Mode.KNOWN_DEAL,
        Game.Status.FINISHED,
    )
    assert game.is_imported
    assert Move.objects.filter(game=game).count() == len(record["moves"]) == game.last_seq
    assert [m.payload for m in game.moves.order_by("seq")] == record["moves"]
    expected = {p["seat"]: p for p in replay(record).to_dict()["placings"]}  # type: ignore[union-attr]
    results = {r.seat: r for r in GameResult.objects.filter(game=game)}
    assert {seat: r.place for seat, r in results.items()} == {
        seat: p["place"] for seat, p in expected.items()
    }
    assert {seat: r.detail["title"] for seat, r in results.items()} == {
        seat: p["title"] for seat, p in expected.items()
    }
    # The stored game replays to the same end as the record, from its own log.
    assert family_for(game).is_over(rebuild(game, list(game.moves.order_by("seq"))))
    crew.table.round.refresh_from_db()
    assert crew.table.round.status == Round.Status.IN_PLAY
    audit = AuditEntry.objects.get(action=AuditEntry.Action.GAME_IMPORTED)
    assert (audit.game_id, audit.actor) == (game.pk, crew.organiser)


def test_the_standings_count_the_imported_result(
    crew: Crew, django_capture_on_commit_callbacks: Capture
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        [outcome] = import_records(crew.table, crew.organiser, [engine_record("standings")])

    results = GameResult.objects.filter(game=outcome.game).select_related("entry")
    standings = {
        s.entry_id: s
        for s in Standing.objects.filter(scope="tournament", tournament=crew.tournament)
    }
    assert {r.entry_id: r.points for r in results} == {
        entry: s.points for entry, s in standings.items()
    }
    assert all(s.games == 1 for s in standings.values())


def test_the_next_record_of_the_set_carries_the_titles_and_its_exchange(crew: Crew) -> None:
    first = engine_record("first")
    second = engine_record("second", titles=titles_after(first))

    outcomes = import_records(crew.table, crew.organiser, [first, second])

    assert [o.status for o in outcomes] == ["imported", "imported"]
    game = outcomes[1].game
    assert game is not None and (game.set_number, game.game_number) == (1, 2)
    assert game.titles == titles_after(first)
    gives = [m.payload for m in game.moves.order_by("seq")][: len(second["exchange"])]
    assert gives == second["exchange"]


def test_an_open_table_record_imports_without_hands(crew: Crew) -> None:
    record = engine_record("open table")
    record["counts"] = [len(hand) for hand in record["hands"]]
    record["hands"] = [None] * 4
    record["leader"] = record["moves"][0]["seat"]

    [outcome] = import_records(crew.table, crew.organiser, [record])

    assert outcome.status == "imported", outcome
    assert outcome.game is not None and outcome.game.mode == Game.Mode.OPEN_TABLE
    assert outcome.game.hands == [None] * 4
