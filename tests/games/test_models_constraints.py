"""The database refuses what the log must never hold."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction

from games.models import Game, Move
from tests.factories import GameFactory

from .conftest import Crew

pytestmark = pytest.mark.django_db


def make(game: Game, **fields: object) -> None:
    defaults: dict[str, object] = {
        "game": game, "seq": 1, "kind": "action", "seat": 0,
        "payload": {"seat": 0, "pass": True}, "fingerprint": "x",
    }  # fmt: skip
    with transaction.atomic():
        Move.objects.create(**(defaults | fields))


def test_a_seq_is_used_once_per_game(crew: Crew, t17_game: Game) -> None:
    make(t17_game)
    with pytest.raises(IntegrityError):
        make(t17_game)


@pytest.mark.parametrize(
    "fields",
    [
        {"seq": 0},
        {"kind": "shout"},
        {"seat": None},  # an action names its seat
        {"kind": "undo", "seat": None, "ref_seq": 1, "seq": 2, "reason": ""},  # reason required
        {"kind": "undo", "seat": None, "ref_seq": 3, "seq": 2, "reason": "x"},  # refers ahead
        {"kind": "decision", "seat": None, "ref_seq": 1, "seq": 2, "approved": None},
    ],
)
def test_malformed_log_rows_are_refused(
    crew: Crew, t17_game: Game, fields: dict[str, object]
) -> None:
    with pytest.raises(IntegrityError):
        make(t17_game, **fields)


def test_a_game_number_is_used_once_per_set_and_table(crew: Crew) -> None:
    GameFactory(table=crew.table, set_number=1, game_number=1)
    with pytest.raises(IntegrityError), transaction.atomic():
        GameFactory(table=crew.table, set_number=1, game_number=1)


def test_a_finished_game_has_a_finishing_time(crew: Crew) -> None:
    with pytest.raises(IntegrityError), transaction.atomic():
        GameFactory(table=crew.table, status=Game.Status.FINISHED)
