"""A record whose give or move the engine refuses is refused whole: the engine's code, its
English and Japanese messages and the number of the give or move (1-based) — and nothing of it
is kept, not a game, a move or an audit entry; the refusal itself is kept for officials. The
other records of the batch are imported."""

from __future__ import annotations

import pytest

from games.engine import IllegalMove, family_of, find_ruleset
from games.engine.record import load_record, replay
from games.imports import import_records
from games.models import Game, Move, RejectedSubmission
from tests.factories import engine_record, titles_after
from tournaments.models import AuditEntry

from .conftest import Crew

pytestmark = pytest.mark.django_db


def with_wrong_seat(record: dict[str, object], index: int) -> dict[str, object]:
    """The record with move `index` made by the seat after the one in turn."""
    moves = [dict(m) for m in record["moves"]]  # type: ignore[attr-defined]
    moves[index]["seat"] = (moves[index]["seat"] + 1) % 4
    return {**record, "moves": moves}


def test_the_illegal_move_is_named_by_its_number_and_nothing_is_written(crew: Crew) -> None:
    broken = with_wrong_seat(engine_record("broken"), 9)
    verdict = replay(broken).moves[9]
    assert not verdict.ok and verdict.error is not None  # the engine's own verdict

    [outcome] = import_records(crew.table, crew.organiser, [broken])

    assert (outcome.status, outcome.code, outcome.section, outcome.move_number) == (
        "refused",
        verdict.error.code,
        "moves",
        10,
    )
    assert outcome.message_en == verdict.error.message_en
    assert outcome.message_ja == verdict.error.message_ja
    assert not Game.objects.exists()
    assert not Move.objects.exists()
    assert not AuditEntry.objects.filter(action=AuditEntry.Action.GAME_IMPORTED).exists()
    kept = RejectedSubmission.objects.get(action="import_record")
    assert (kept.code, kept.seq, kept.table_id) == (verdict.error.code, 10, crew.table.pk)
    assert kept.message_ja.startswith("10手目")


def test_a_wrong_exchange_give_is_named_by_its_number(crew: Crew) -> None:
    first = engine_record("before the exchange")
    second = engine_record("exchange", titles=titles_after(first))
    gives = [dict(g) for g in second["exchange"]]
    # The 大貧民 keeps a stronger card than one it gives (脱税): its strongest swapped for 3D.
    loaded = load_record(second)
    low = next(i for i, g in enumerate(gives) if loaded.titles[g["seat"]] == "daihinmin")
    keeps = [c for c in second["hands"][gives[low]["seat"]] if c not in gives[low]["give"]]
    gives[low]["give"] = [gives[low]["give"][0], min(keeps, key=_strength)]
    cheating = {**second, "exchange": gives}
    rules = find_ruleset("jdf@1")
    family = family_of(rules)
    state = load_record(cheating).initial_state()
    for give in load_record(cheating).exchange[:low]:
        state, _ = family.apply(state, give)
    with pytest.raises(IllegalMove) as refused:
        family.apply(state, load_record(cheating).exchange[low])

    outcomes = import_records(crew.table, crew.organiser, [first, cheating])

    assert outcomes[0].status == "imported"
    assert (outcomes[1].status, outcomes[1].code, outcomes[1].section) == (
        "refused",
        refused.value.code,
        "exchange",
    )
    assert outcomes[1].move_number == low + 1
    assert Game.objects.count() == 1


def test_the_good_records_of_a_batch_are_imported_around_a_bad_one(crew: Crew) -> None:
    first = engine_record("one")
    second = with_wrong_seat(engine_record("two", titles=titles_after(first)), 3)

    outcomes = import_records(crew.table, crew.organiser, [first, second])

    assert [o.status for o in outcomes] == ["imported", "refused"]
    assert Game.objects.count() == 1


RANKS = "3456789TJQKA2"


def _strength(card: str) -> int:
    return 99 if card == "JK" else RANKS.index(card[0])
