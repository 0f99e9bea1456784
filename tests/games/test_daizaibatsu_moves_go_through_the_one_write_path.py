"""Every kind of 大財閥 move goes through the one write path (`submit_move`): plays (with a
joker named by `as`), passes, the decisions the effects ask for (a 2's target, a 7's gift, a
10's discard, a K's destruction, an A's take-back, the 倍返し answer, the cards drawn from an
unknown pile) and out-of-turn answers to an 8-cut. A referee writes for any seat of their own
table, since a decision is owed by a seat other than the one in turn; a refused move changes
nothing."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied

from games.engine.daizaibatsu_combos import names
from games.models import Game
from games.models import Move as MoveRow
from games.services import submit_move
from games.state import rebuild
from tests.factories import OfficialFactory, UserFactory, daizaibatsu_game, daizaibatsu_table
from tournaments.models import Official, Table

pytestmark = pytest.mark.django_db

PILE = ["3H", "3S", "4S", "5H", "5C", "6D", "6H", "7D", "7H", "8C", "8H", "9D", "9S", "TC"]


@pytest.fixture
def referee() -> User:
    return UserFactory(username="ref-sato")


@pytest.fixture
def table(referee: User) -> Table:
    table = daizaibatsu_table(referee)
    return table


def play_all(game: Game, referee: User, moves: list[dict[str, object]]) -> None:
    for seq, move in enumerate(moves, start=1):
        outcome = submit_move(game, move, seq, referee)
        assert outcome.ok, (move, outcome.code, outcome.message_en)


def held(game: Game, seat: int) -> list[str]:
    hand = rebuild(Game.objects.get(pk=game.pk)).hands[seat]
    assert hand is not None
    return names(hand)


def test_a_seven_gives_to_the_next_player_and_a_two_names_who_draws(
    table: Table, referee: User
) -> None:
    game = daizaibatsu_game(
        table,
        [["7C", "KS", "2S", "5D", "8S"], ["JK", "9H", "6C", "3D"], ["8D", "TD"], ["3C", "AH"]],
        PILE,
        leader=0,
    )

    play_all(
        game,
        referee,
        [
            {"seat": 0, "play": ["7C"]},
            {"seat": 0, "give": ["KS"]},  # rule 7: to the next player, seat 1
            {"seat": 1, "play": ["9H"]},  # rule 9: the direction reverses, back to seat 0
            {"seat": 0, "play": ["2S"]},
            {"seat": 0, "choice": {"target": 1}},  # rule 15: seat 1 is to draw 2
            # Seat 1 holds a joker: 倍返し, seat 0 draws 4 instead (F13).
            {"seat": 1, "choice": "double_back"},
        ],
    )

    assert "KS" in held(game, 1) and "JK" not in held(game, 1)
    # Seat 0 kept 5D 8S and drew the pile's top four.
    assert held(game, 0) == ["3S", "3H", "4S", "5H", "5D", "8S"]
    assert list(game.moves.values_list("seq", "seat")) == [
        (1, 0), (2, 0), (3, 1), (4, 0), (5, 0), (6, 1)
    ]  # fmt: skip


def test_the_target_of_a_two_may_accept_the_draw(table: Table, referee: User) -> None:
    game = daizaibatsu_game(
        table, [["2S", "5D"], ["JK", "6C"], ["8D", "TD"], ["3C", "AH"]], PILE, leader=0
    )

    play_all(
        game,
        referee,
        [
            {"seat": 0, "play": ["2S"]},
            {"seat": 0, "choice": {"target": 1}},
            {"seat": 1, "choice": "accept"},
        ],
    )

    assert held(game, 1) == ["3S", "3H", "6C", "JK"]


def test_a_ten_discards_a_king_destroys_and_an_ace_takes_back(table: Table, referee: User) -> None:
    game = daizaibatsu_game(
        table,
        [["TC", "5D", "6D", "9S"], ["KH", "4C", "7S", "8C"], ["AS", "3S", "QC", "9D"], ["JH"]],
        PILE,
        leader=0,
    )

    play_all(
        game,
        referee,
        [
            {"seat": 0, "play": ["TC"]},
            {"seat": 0, "discard": ["5D"]},  # rule 10
            {"seat": 1, "play": ["KH"]},
            {"seat": 1, "destroy": ["QC"]},  # rule 13: from the next player, seat 2
            {"seat": 2, "play": ["AS"]},
            {"seat": 2, "take": ["QC"]},  # rule 14: the cards destroyed just before
        ],
    )

    assert held(game, 0) == ["6D", "9S"]
    assert held(game, 2) == ["3S", "9D", "QC"]


def test_a_joker_is_named_by_as(table: Table, referee: User) -> None:
    game = daizaibatsu_game(
        table, [["9C", "JK", "5D"], ["TS", "6C"], ["QS", "7H"], ["4C", "5H"]], PILE, leader=0
    )

    play_all(game, referee, [{"seat": 0, "play": ["9C", "JK"], "as": ["9D"]}])

    row = game.moves.get()
    assert row.payload == {"seat": 0, "play": ["9C", "JK"], "as": ["9D"]}
    assert rebuild(Game.objects.get(pk=game.pk)).table is not None


def test_an_eight_cut_is_answered_out_of_turn_with_a_sandstorm(table: Table, referee: User) -> None:
    game = daizaibatsu_game(
        table,
        [["8S", "9C", "JK"], ["3C", "3H", "3D", "5S"], ["QS", "6D"], ["4C", "5H"]],
        PILE,
        leader=0,
    )

    play_all(
        game,
        referee,
        [
            {"seat": 0, "play": ["8S"]},
            {"seat": 1, "play": ["3C", "3H", "3D"], "respond": True},  # F3, rule 3: 砂嵐
        ],
    )

    state = rebuild(Game.objects.get(pk=game.pk))
    assert state.turn == 1  # the 砂嵐 clears the trick and its player leads


def test_a_draw_from_an_unknown_pile_is_named_by_the_referee(table: Table, referee: User) -> None:
    game = daizaibatsu_game(
        table, [["4S", "9C"], ["TS", "6C"], ["QS", "7H"], ["4C", "5H"]], None, leader=0
    )

    play_all(
        game,
        referee,
        [
            {"seat": 0, "play": ["4S"]},  # rule 4: seat 0 draws 4
            {"seat": 0, "drew": ["3H", "3S", "KD", "JK"]},
        ],
    )

    assert held(game, 0) == ["3S", "3H", "9C", "KD", "JK"]


def test_a_duplicate_is_replayed_and_a_stale_move_is_a_conflict(
    table: Table, referee: User
) -> None:
    game = daizaibatsu_game(
        table, [["7C", "KS", "5D"], ["9H", "6C"], ["8D", "TD"], ["3C", "AH"]], PILE, leader=0
    )
    play_all(game, referee, [{"seat": 0, "play": ["7C"]}, {"seat": 0, "give": ["KS"]}])

    again = submit_move(game, {"seat": 0, "give": ["KS"]}, 2, referee)
    other = submit_move(game, {"seat": 0, "give": ["5D"]}, 2, referee)

    assert again.status == "replayed"
    assert other.status == "conflict" and other.expected_seq == 3
    assert game.moves.count() == 2


def test_a_refused_decision_says_why_in_both_languages_and_changes_nothing(
    table: Table, referee: User
) -> None:
    game = daizaibatsu_game(
        table, [["7C", "KS", "5D"], ["9H", "6C"], ["8D", "TD"], ["3C", "AH"]], PILE, leader=0
    )
    play_all(game, referee, [{"seat": 0, "play": ["7C"]}])
    before = Game.objects.get(pk=game.pk)

    # Rule 7 gives n cards for n sevens: one, not two.
    outcome = submit_move(game, {"seat": 0, "give": ["KS", "5D"]}, 2, referee)

    assert outcome.status == "rejected"
    assert outcome.code == "wrong_count"
    assert outcome.message_en and outcome.message_ja and outcome.message_en != outcome.message_ja
    after = Game.objects.get(pk=game.pk)
    assert (after.version, after.last_seq) == (before.version, before.last_seq)
    assert MoveRow.objects.filter(game=game).count() == 1


def test_a_referee_of_another_table_cannot_decide(table: Table, referee: User) -> None:
    game = daizaibatsu_game(
        table, [["7C", "KS", "5D"], ["9H", "6C"], ["8D", "TD"], ["3C", "AH"]], PILE, leader=0
    )
    play_all(game, referee, [{"seat": 0, "play": ["7C"]}])
    stranger = UserFactory(username="ref-elsewhere")
    OfficialFactory(user=stranger, role=Official.Role.REFEREE)

    with pytest.raises(PermissionDenied):
        submit_move(game, {"seat": 0, "give": ["KS"]}, 2, stranger)

    assert game.moves.count() == 1
