"""Duplicate deals (tournaments/deals.py, docs/duplicate.md): how a round's tables are cut into
groups, each table's rotation, and the group's deal played from every seat."""

from __future__ import annotations

import hashlib

from games.engine.deal import deal
from games.engine.rules import find_ruleset
from tournaments.deals import (
    DuplicatePlace,
    dealt_hand,
    derive_deal,
    duplicate_groups,
    duplicate_material,
    rotate_deal,
)

SEED = hashlib.sha256(b"duplicate").hexdigest()


def test_tables_of_four_are_cut_into_groups_of_four_in_table_order() -> None:
    places = duplicate_groups([(n, 4) for n in range(8, 0, -1)])

    assert [places[n].first_table for n in range(1, 9)] == [1, 1, 1, 1, 5, 5, 5, 5]
    assert [places[n].rotation for n in range(1, 9)] == [0, 1, 2, 3, 0, 1, 2, 3]


def test_a_single_leftover_table_joins_the_previous_group_of_its_size() -> None:
    places = duplicate_groups([(n, 4) for n in range(1, 10)])

    assert places[9] == DuplicatePlace(first_table=5, index=4, rotation=0)
    assert {places[n].first_table for n in range(5, 10)} == {5}


def test_a_larger_leftover_is_a_group_of_its_own() -> None:
    places = duplicate_groups([(n, 4) for n in range(1, 7)])

    assert [places[n].first_table for n in (5, 6)] == [5, 5]
    assert [places[n].rotation for n in (5, 6)] == [0, 1]


def test_tables_of_another_size_form_their_own_groups() -> None:
    # 2 tables of 4 then 3 tables of 3 (uneven field): sizes never mix in a group.
    places = duplicate_groups([(1, 4), (2, 4), (3, 3), (4, 3), (5, 3)])

    assert [(places[n].first_table, places[n].rotation) for n in range(1, 6)] == [
        (1, 0),
        (1, 1),
        (3, 0),
        (3, 1),
        (3, 2),
    ]


def test_the_material_names_the_group_seats_set_and_game() -> None:
    assert duplicate_material(SEED, 5, 4, 2, 3) == f"{SEED}/duplicate/5/seats/4/set/2/game/3"


def test_every_hand_of_a_group_of_four_is_played_from_every_seat() -> None:
    places = duplicate_groups([(n, 4) for n in range(1, 5)])
    jdf = find_ruleset("jdf")
    plain = deal(duplicate_material(SEED, 1, 4, 1, 1), jdf)
    seats_of_hand: dict[int, set[int]] = {h: set() for h in range(4)}
    for number in range(1, 5):
        dealt = derive_deal(
            SEED,
            ruleset_id="jdf",
            ruleset_version=1,
            seats=4,
            table=number,
            set_number=1,
            game=1,
            duplicate=places[number],
        )
        assert dealt.blind == plain.blind
        for seat, hand in enumerate(dealt.hands):
            held = dealt_hand(seat, places[number].rotation, 4)
            assert hand == plain.hands[held]
            seats_of_hand[held].add(seat)

    assert seats_of_hand == {h: {0, 1, 2, 3} for h in range(4)}


def test_rotation_moves_hand_h_to_seat_h_plus_rotation() -> None:
    plain = deal("any material", find_ruleset("jdf"))

    rotated = rotate_deal(plain, 1)

    assert rotated.hands == (plain.hands[3], plain.hands[0], plain.hands[1], plain.hands[2])
