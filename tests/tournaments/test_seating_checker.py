"""`check_draw` names every way a draw breaks the constraints."""

from __future__ import annotations

from tournaments.seating import Constraints, Draw, DrawnTable, check_draw

EIGHT = Constraints(frozenset(range(1, 9)), table_size=4, policy="short")


def codes(draw: Draw, constraints: Constraints = EIGHT) -> list[str]:
    return [v.code for v in check_draw(draw, constraints)]


def test_a_valid_hand_made_draw_passes() -> None:
    draw = Draw((DrawnTable(1, (1, 2, 3, 4)), DrawnTable(2, (5, 6, 7, 8))))

    assert check_draw(draw, EIGHT) == []


def test_a_player_seated_twice_is_reported() -> None:
    draw = Draw((DrawnTable(1, (1, 2, 3, 4)), DrawnTable(2, (4, 6, 7, 8))))

    assert "twice" in codes(draw)
    assert "missing" in codes(draw)  # and player 5 was left out


def test_a_stranger_is_reported() -> None:
    draw = Draw((DrawnTable(1, (1, 2, 3, 4)), DrawnTable(2, (5, 6, 7, 99))))

    assert {"unknown", "missing"} <= set(codes(draw))


def test_an_oversized_table_is_reported() -> None:
    draw = Draw((DrawnTable(1, (1, 2, 3, 4, 5)), DrawnTable(2, (6, 7, 8))))

    assert "oversize" in codes(draw)


def test_a_table_of_two_is_reported() -> None:
    draw = Draw((DrawnTable(1, (1, 2, 3, 4, 5, 6)), DrawnTable(2, (7, 8))))

    assert {"oversize", "undersize"} <= set(codes(draw))


def test_short_tables_are_refused_when_the_tournament_uses_byes() -> None:
    seven = Constraints(frozenset(range(1, 8)), table_size=4, policy="byes")
    draw = Draw((DrawnTable(1, (1, 2, 3, 4)), DrawnTable(2, (5, 6, 7))))

    assert {"short", "byes"} <= set(codes(draw, seven))


def test_unneeded_byes_are_reported() -> None:
    draw = Draw((DrawnTable(1, (1, 2, 3, 4)), DrawnTable(2, (5, 6, 7))), byes=(8,))

    assert "byes" in codes(draw)


def test_tables_must_be_numbered_from_one() -> None:
    draw = Draw((DrawnTable(2, (1, 2, 3, 4)), DrawnTable(3, (5, 6, 7, 8))))

    assert codes(draw) == ["numbering"]


def test_tables_of_five_pass_only_when_the_tournament_uses_them() -> None:
    nine = frozenset(range(1, 10))
    draw = Draw((DrawnTable(1, (1, 2, 3, 4, 5)), DrawnTable(2, (6, 7, 8, 9))))

    assert check_draw(draw, Constraints(nine, table_size=4, policy="long")) == []
    assert "oversize" in codes(draw, Constraints(nine, table_size=4, policy="short"))
    assert "oversize" in codes(draw, Constraints(nine, table_size=4, policy="byes"))


def test_a_short_table_is_reported_when_the_policy_gives_tables_of_five() -> None:
    nine = Constraints(frozenset(range(1, 10)), table_size=4, policy="long")
    draw = Draw((DrawnTable(1, (1, 2, 3)), DrawnTable(2, (4, 5, 6)), DrawnTable(3, (7, 8, 9))))

    assert "short" in codes(draw, nine)
