"""A 掼蛋 (Guandan) match record — the whole match, hand by hand — imports as the table's next
hands, in order, in one go: all of them or none. Only its first hand's match must be the
table's (a table with no hand yet: a new match); each later hand's is the engine's derivation
from the hand before. A refused hand is named with its move, and nothing of the match is
kept; the same match uploaded again is recognised."""

from __future__ import annotations

from typing import Any

import pytest

from games import matches
from games.engine.guandan import next_match
from games.engine.record import export_match_record, load_record, replay
from games.imports import import_records
from games.models import Game, Move
from tests.factories import OfficialFactory, UserFactory, guandan_engine_record, guandan_table
from tournaments.models import AuditEntry, Official, Table

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(db: None) -> Table:
    return guandan_table(UserFactory(username="ref-match"))


@pytest.fixture
def organiser(table: Table) -> Any:
    user = UserFactory(username="org-match")
    OfficialFactory(
        tournament=table.round.stage.tournament, user=user, role=Official.Role.ORGANISER
    )
    return user


def two_hands() -> list[dict[str, Any]]:
    """A match's first two hands, played by the engine, the second from the first's end."""
    first = guandan_engine_record("match hand 1")
    second = guandan_engine_record(
        "match hand 2", match=next_match(replay(first).state), favoured=1
    )
    return [first, second]


def as_match_record(hands: list[dict[str, Any]]) -> dict[str, object]:
    loaded = [load_record(hand) for hand in hands]
    return export_match_record((hand.initial_state(), hand.moves) for hand in loaded)


def test_a_match_record_imports_as_the_tables_hands_in_order(table: Table, organiser: Any) -> None:
    hands = two_hands()

    [outcome] = import_records(table, organiser, [as_match_record(hands)])

    assert outcome.status == "imported", outcome
    assert [g.game_number for g in outcome.games] == [1, 2]
    assert outcome.to_dict()["games"] == [g.pk for g in outcome.games]
    for game, hand in zip(outcome.games, hands, strict=True):
        game.refresh_from_db()
        assert game.status == Game.Status.FINISHED and game.is_imported
        assert game.match == hand["match"]
        assert [m.payload for m in game.moves.order_by("seq")] == hand["moves"]
    assert matches.match_for_next_hand(table.pk, 1) == next_match(replay(hands[1]).state)
    assert AuditEntry.objects.filter(action=AuditEntry.Action.GAME_IMPORTED).count() == 2


def test_a_refused_move_names_its_hand_and_nothing_of_the_match_is_kept(
    table: Table, organiser: Any
) -> None:
    hands = two_hands()
    moves = [dict(m) for m in hands[1]["moves"]]
    moves[3]["seat"] = (moves[3]["seat"] + 1) % 4
    verdict = replay({**hands[1], "moves": moves}).moves[3]
    assert not verdict.ok and verdict.error is not None
    record = as_match_record(hands)
    record["games"][1]["moves"] = moves  # type: ignore[index]

    [outcome] = import_records(table, organiser, [record])

    assert (outcome.status, outcome.code, outcome.hand, outcome.move_number) == (
        "refused",
        verdict.error.code,
        2,
        4,
    )
    assert outcome.to_dict()["hand"] == 2
    assert not Game.objects.exists() and not Move.objects.exists()


def test_the_same_match_again_is_a_duplicate(table: Table, organiser: Any) -> None:
    record = as_match_record(two_hands())
    [first] = import_records(table, organiser, [record])

    [again] = import_records(table, organiser, [record])

    assert (again.status, again.game) == ("duplicate", first.game)
    assert Game.objects.count() == 2


def test_a_match_record_from_the_start_is_refused_once_the_table_has_a_hand(
    table: Table, organiser: Any
) -> None:
    import_records(table, organiser, [guandan_engine_record("played here first")])

    [outcome] = import_records(table, organiser, [as_match_record(two_hands())])

    assert (outcome.code, outcome.hand, outcome.key) == (
        "match_mismatch",
        1,
        "games[0].match.levels",
    )
    assert Game.objects.count() == 1
