"""An organiser of a 掼蛋 (Guandan) team tournament imports hands played elsewhere, one by one:
a hand becomes the table's next hand only when its record's `match` is exactly what the table's
match carries into that hand (the levels, the failures at A, the previous finishing order, no
declaring team of its own) — else it is refused `match_mismatch`, naming the field that
differs. An imported hand counts for the match like one played at the console; a move the
engine refuses is named by its number; a hand uploaded again is recognised."""

from __future__ import annotations

from typing import Any

import pytest

from games import matches
from games.engine.guandan import Match, next_match
from games.engine.record import replay
from games.imports import import_records
from games.models import Game, GameResult, Move
from games.state import family_for, rebuild
from tests.factories import OfficialFactory, UserFactory, guandan_engine_record, guandan_table
from tournaments.models import Official, Table

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(db: None) -> Table:
    return guandan_table(UserFactory(username="ref-guan"))


@pytest.fixture
def organiser(table: Table) -> Any:
    user = UserFactory(username="org-guan")
    OfficialFactory(
        tournament=table.round.stage.tournament, user=user, role=Official.Role.ORGANISER
    )
    return user


def after(record: dict[str, Any]) -> Match:
    """The match the engine carries out of a finished hand's record."""
    return next_match(replay(record).state)


def test_a_matchs_first_hand_imports_with_the_engines_placings(
    table: Table, organiser: Any
) -> None:
    record = guandan_engine_record("hand 1", leader=2)

    [outcome] = import_records(table, organiser, [record])

    assert outcome.status == "imported", outcome
    game = outcome.game
    assert game is not None and game.status == Game.Status.FINISHED and game.is_imported
    assert (game.game_number, game.match, game.leader) == (1, record["match"], 2)
    assert [m.payload for m in game.moves.order_by("seq")] == record["moves"]
    placings = replay(record).to_dict()["placings"]
    assert isinstance(placings, list)
    assert {r.seat: r.place for r in GameResult.objects.filter(game=game)} == {
        p["seat"]: p["place"] for p in placings
    }
    assert family_for(game).is_over(rebuild(game, list(game.moves.order_by("seq"))))
    # The table's match goes on from the imported hand, as from one played at the console.
    assert matches.match_for_next_hand(table.pk, 1) == after(record)


def test_the_next_hand_imports_when_its_match_is_the_tables(table: Table, organiser: Any) -> None:
    first = guandan_engine_record("hand 1")
    second = guandan_engine_record("hand 2", match=after(first), favoured=1)

    outcomes = import_records(table, organiser, [first, second])

    assert [o.status for o in outcomes] == ["imported", "imported"], outcomes
    game = outcomes[1].game
    assert game is not None and (game.game_number, game.match) == (2, second["match"])
    assert matches.match_for_next_hand(table.pk, 1) == after(second)


def test_a_hand_whose_levels_differ_is_refused_naming_them(table: Table, organiser: Any) -> None:
    first = guandan_engine_record("hand 1")
    import_records(table, organiser, [first])
    expected = after(first)
    wrong = Match((2, 2), expected.failures, expected.previous)
    record = guandan_engine_record("hand 2", match=wrong)

    [outcome] = import_records(table, organiser, [record])

    assert (outcome.status, outcome.code, outcome.key) == (
        "refused",
        "match_mismatch",
        "match.levels",
    )
    assert "hand 2" in outcome.message_en and "match.levels" in outcome.message_en
    assert '["2", "2"]' in outcome.message_en and "第2局" in outcome.message_ja
    assert Game.objects.count() == 1


def test_a_first_hand_that_names_a_declaring_team_is_refused(table: Table, organiser: Any) -> None:
    record = guandan_engine_record("taken up part way", match=Match(declaring=1), leader=0)

    [outcome] = import_records(table, organiser, [record])

    assert (outcome.code, outcome.key) == ("match_mismatch", "match.declarer")
    assert not Game.objects.exists()


def test_after_a_one_two_finish_the_losers_may_come_in_either_order(
    table: Table, organiser: Any
) -> None:
    first = guandan_engine_record("hand 1")
    expected = after(first)
    assert expected.previous is not None and expected.previous[1] == (expected.previous[0] + 2) % 4
    winners, losers = expected.previous[:2], expected.previous[2:]
    swapped = Match(expected.levels, expected.failures, (*winners, *reversed(losers)))
    second = guandan_engine_record("hand 2", match=swapped)

    outcomes = import_records(table, organiser, [first, second])

    assert [o.status for o in outcomes] == ["imported", "imported"], outcomes


def test_an_illegal_move_is_refused_with_its_number(table: Table, organiser: Any) -> None:
    record = guandan_engine_record("broken")
    moves = [dict(m) for m in record["moves"]]
    moves[2]["seat"] = (moves[2]["seat"] + 1) % 4
    broken = {**record, "moves": moves}
    verdict = replay(broken).moves[2]
    assert not verdict.ok and verdict.error is not None

    [outcome] = import_records(table, organiser, [broken])

    assert (outcome.code, outcome.section, outcome.move_number) == (
        verdict.error.code,
        "moves",
        3,
    )
    assert not Game.objects.exists() and not Move.objects.exists()


def test_the_same_hand_again_is_a_duplicate(table: Table, organiser: Any) -> None:
    record = guandan_engine_record("twice")
    [first] = import_records(table, organiser, [record])

    [again] = import_records(table, organiser, [record])

    assert (again.status, again.game) == ("duplicate", first.game)
    assert Game.objects.count() == 1
