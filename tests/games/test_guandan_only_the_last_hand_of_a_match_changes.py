"""Later hands of a Guandan match start from the hand before (its levels, its tribute): an
earlier hand's result can no longer be corrected, withdrawn or voided; the last hand's can,
by its finishing order, and a hand voided and re-dealt carries the same match."""

from __future__ import annotations

import pytest

from games import services
from games.models import Game
from tests.factories import OfficialFactory, UserFactory, guandan_table, play_guandan_hand
from tournaments.models import Official

pytestmark = pytest.mark.django_db

QUICK = Game.Mode.QUICK


@pytest.fixture
def officials() -> tuple[object, object, object]:
    referee = UserFactory()
    table = guandan_table(referee)
    head = UserFactory()
    OfficialFactory(
        tournament=table.round.stage.tournament, user=head, role=Official.Role.HEAD_REFEREE
    )
    return table, referee, head


def test_a_correction_of_an_earlier_hand_is_refused(officials: tuple) -> None:  # type: ignore[type-arg]
    table, referee, head = officials
    first = services.start_game(table, referee, mode=QUICK)
    services.record_quick_result(first, referee, [0, 2])
    second = services.start_game(table, referee, mode=QUICK)
    services.record_quick_result(second, referee, [1, 3])
    first.refresh_from_db()

    with pytest.raises(services.GameError) as refused:
        services.correct_result(
            first,
            head,
            finishing_order=[1, 3],
            reason="wrong team entered",
            based_on_version=first.result_version,
        )
    assert refused.value.code == "later_hands_follow"
    assert refused.value.message_ja
    with pytest.raises(services.GameError) as withdrawn:
        services.withdraw_quick_result(first, head, "typo")
    assert withdrawn.value.code == "later_hands_follow"
    with pytest.raises(services.GameError) as voided:
        services.void_game(first, head, reason="misdeal", redeal=False)
    assert voided.value.code == "not_latest_game"
    assert first.results.get(seat=0).detail["team_level"] == "5"


def test_the_last_hand_is_corrected_by_its_finishing_order(officials: tuple) -> None:  # type: ignore[type-arg]
    table, referee, head = officials
    first = services.start_game(table, referee, mode=QUICK)
    services.record_quick_result(first, referee, [0, 2])
    first.refresh_from_db()

    preview = services.preview_correction(first, head, [0, 1, 2])
    assert preview.changes_anything
    services.correct_result(
        first,
        head,
        finishing_order=[0, 1, 2],
        reason="seat 1 went out second",
        based_on_version=preview.based_on_version,
    )

    rows = {r.seat: r for r in first.results.all()}
    assert rows[0].detail["finish"] == "1-3" and rows[0].detail["team_level"] == "4"
    assert [rows[s].place for s in range(4)] == [1, 2, 3, 4]
    assert rows[0].points == 2 and rows[1].points == 0
    following = services.start_game(table, referee, mode=QUICK)
    assert following.match == {"levels": ["4", "2"], "failures": [0, 0], "previous": [0, 1, 2, 3]}


def test_a_hand_voided_and_re_dealt_carries_the_same_match(officials: tuple) -> None:  # type: ignore[type-arg]
    table, referee, head = officials
    first = services.start_game(table, referee, mode=QUICK)
    services.record_quick_result(first, referee, [1, 3])
    second = services.start_game(table, referee)

    services.void_game(second, head, reason="a card was exposed", redeal=True)
    again = services.start_game(table, referee)

    assert (again.game_number, again.attempt) == (2, 2)
    assert again.match == second.match
    assert again.match is not None and again.match["levels"] == ["2", "5"]
    assert again.hands != second.hands


def test_a_team_hand_is_not_forfeited_seat_by_seat(officials: tuple) -> None:  # type: ignore[type-arg]
    table, referee, head = officials
    game = services.start_game(table, referee)
    with pytest.raises(services.GameError) as refused:
        services.forfeit_seat(game, head, seat=1, reason="left the venue")
    assert refused.value.code == "forfeit_not_in_team_match"


def test_an_earlier_hands_last_move_is_not_undone(officials: tuple) -> None:  # type: ignore[type-arg]
    table, referee, head = officials
    first = services.start_game(table, referee)
    play_guandan_hand(first, referee)
    services.start_game(table, referee)
    first.refresh_from_db()

    with pytest.raises(services.GameError) as refused:
        services.request_undo(first, head, "misread the last play", seq=first.last_seq)

    assert refused.value.code == "later_hands_follow"
    first.refresh_from_db()
    assert first.status == Game.Status.FINISHED


def test_a_hand_played_out_and_corrected_passes_on_the_corrected_result(officials: tuple) -> None:  # type: ignore[type-arg]
    table, referee, head = officials
    first = services.start_game(table, referee)
    play_guandan_hand(first, referee, favoured=1)  # team 1 finishes 1-2: 2 → 5
    first.refresh_from_db()
    winner = first.results.get(place=1).seat
    loser = (winner + 1) % 4

    services.correct_result(
        first,
        head,
        finishing_order=[winner, loser, (winner + 2) % 4],  # a 1-3 after all: 2 → 4
        reason="the scorer missed a finish",
        based_on_version=first.result_version,
    )
    following = services.start_game(table, referee, mode=QUICK)

    assert following.match is not None
    assert following.match["levels"] == ["2", "4"]
    assert following.match["previous"][:3] == [winner, loser, (winner + 2) % 4]
