"""An organiser of a 大財閥 (Daizaibatsu) tournament imports a finished game played elsewhere:
its hands and draw pile (山札) become the table's next game, its moves go into the log through
the one write path, its results are the engine's placings, and the game replays from its own
log — the pile renewed from the record's seed, not the round's. A record the engine refuses
names its move; one uploaded again is recognised; one that cannot be this table's game says
why."""

from __future__ import annotations

from typing import Any

import pytest

from games.engine.record import replay
from games.imports import import_records
from games.models import Game, GameResult, Move
from games.records import export_game
from games.state import family_for, fingerprint, rebuild
from tests.factories import (
    DAIZAIBATSU_SET,
    OfficialFactory,
    UserFactory,
    daizaibatsu_engine_record,
    daizaibatsu_table,
)
from tournaments.models import AuditEntry, Official, Table

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(db: None) -> Table:
    return daizaibatsu_table(UserFactory(username="ref-zai"))


@pytest.fixture
def organiser(table: Table) -> Any:
    user = UserFactory(username="org-zai")
    OfficialFactory(
        tournament=table.round.stage.tournament, user=user, role=Official.Role.ORGANISER
    )
    return user


def test_the_record_becomes_the_next_game_with_the_engines_placings(
    table: Table, organiser: Any
) -> None:
    record = daizaibatsu_engine_record("table 1, game 1")

    [outcome] = import_records(table, organiser, [record])

    assert outcome.status == "imported", outcome
    game = Game.objects.get(pk=outcome.game.pk if outcome.game else None)
    assert (game.set_number, game.game_number, game.mode, game.status) == (
        1,
        1,
        Game.Mode.KNOWN_DEAL,
        Game.Status.FINISHED,
    )
    assert game.is_imported
    assert (game.hands, game.pile, game.record_seed) == (
        record["hands"],
        record["pile"],
        record["seed"],
    )
    assert [m.payload for m in game.moves.order_by("seq")] == record["moves"]
    placings = replay(record).to_dict()["placings"]
    assert isinstance(placings, list)
    results = GameResult.objects.filter(game=game)
    assert {r.seat: r.place for r in results} == {p["seat"]: p["place"] for p in placings}
    # Replayed from its own log (no snapshot), the game ends as the record does, and its own
    # record is the one imported: the pile was renewed from the record's seed.
    assert family_for(game).is_over(rebuild(game, list(game.moves.order_by("seq"))))
    assert fingerprint(export_game(game, game.moves.order_by("seq"))) == game.record_fingerprint
    assert AuditEntry.objects.filter(action=AuditEntry.Action.GAME_IMPORTED).count() == 1


def test_the_next_record_is_the_sets_next_game(table: Table, organiser: Any) -> None:
    outcomes = import_records(
        table,
        organiser,
        [daizaibatsu_engine_record("first"), daizaibatsu_engine_record("second")],
    )

    assert [o.status for o in outcomes] == ["imported", "imported"]
    assert [(o.game.set_number, o.game.game_number) for o in outcomes if o.game] == [
        (1, 1),
        (1, 2),
    ]


def test_an_illegal_move_is_refused_with_its_number_and_nothing_is_written(
    table: Table, organiser: Any
) -> None:
    record = daizaibatsu_engine_record("broken")
    moves = [dict(m) for m in record["moves"]]
    moves[4]["seat"] = (moves[4]["seat"] + 1) % 4
    broken = {**record, "moves": moves}
    verdict = replay(broken).moves[4]
    assert not verdict.ok and verdict.error is not None

    [outcome] = import_records(table, organiser, [broken])

    assert (outcome.status, outcome.code, outcome.section, outcome.move_number) == (
        "refused",
        verdict.error.code,
        "moves",
        5,
    )
    assert outcome.message_ja == verdict.error.message_ja
    assert not Game.objects.exists() and not Move.objects.exists()


def test_the_same_record_again_is_a_duplicate(table: Table, organiser: Any) -> None:
    record = daizaibatsu_engine_record("twice")
    [first] = import_records(table, organiser, [record])
    moves = Move.objects.count()

    [again] = import_records(table, organiser, [dict(reversed(list(record.items())))])

    assert (again.status, again.game) == ("duplicate", first.game)
    assert Game.objects.count() == 1 and Move.objects.count() == moves


def test_a_record_under_other_switches_is_refused(table: Table, organiser: Any) -> None:
    other = {**DAIZAIBATSU_SET, "finish_kill_card": "7S"}
    record = daizaibatsu_engine_record("elsewhere", overrides=other)

    [outcome] = import_records(table, organiser, [record])

    assert (outcome.code, outcome.key) == ("ruleset_mismatch", "rules")
    assert "finish_kill_card" in outcome.message_en


def test_a_pile_short_of_the_undealt_cards_is_refused(table: Table, organiser: Any) -> None:
    record = daizaibatsu_engine_record("short pile")
    record["pile"] = record["pile"][:10]

    [outcome] = import_records(table, organiser, [record])

    assert (outcome.code, outcome.key) == ("pile_incomplete", "pile")
    assert not Game.objects.exists()


def test_an_unfinished_game_is_refused(table: Table, organiser: Any) -> None:
    [outcome] = import_records(table, organiser, [daizaibatsu_engine_record("half", stop_after=20)])

    assert outcome.code == "record_unfinished"


# The engine's game of this seed runs its pile out and renews it once.
RENEWING_SEED = "renew 294"


def test_a_pile_renewed_during_the_game_follows_the_records_seed(
    table: Table, organiser: Any
) -> None:
    record = daizaibatsu_engine_record(RENEWING_SEED)
    replayed = replay(record)
    assert replayed.family.observe(replayed.state, None)["renewals"] == 1

    [outcome] = import_records(table, organiser, [record])

    assert outcome.status == "imported", outcome
    game = outcome.game
    assert game is not None and game.record_seed == RENEWING_SEED
    rebuilt = rebuild(game, list(game.moves.order_by("seq")))
    assert family_for(game).observe(rebuilt, None) == replayed.family.observe(replayed.state, None)
    assert fingerprint(export_game(game, game.moves.order_by("seq"))) == game.record_fingerprint
