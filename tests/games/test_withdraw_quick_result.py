"""A quick result entered by mistake is taken back before it is confirmed: the game is in play
again and the withdrawn result stays in the game's versions. Once confirmed, only a correction
changes it."""

from __future__ import annotations

import pytest
from django.test import Client

from games import services
from games.models import Game, ResultVersion
from tournaments.models import Round

from .conftest import Crew

pytestmark = pytest.mark.django_db


@pytest.fixture
def quick(crew: Crew) -> Game:
    game = services.start_game(crew.table, crew.referee, mode=Game.Mode.QUICK)
    services.record_quick_result(game, crew.referee, [3, 2, 1, 0])
    return game


def test_the_referee_withdraws_an_unconfirmed_quick_result_and_enters_it_again(
    crew: Crew, quick: Game
) -> None:
    services.withdraw_quick_result(quick, crew.referee, "seats 1 and 4 swapped on the sheet")
    quick.refresh_from_db()

    assert quick.status == Game.Status.IN_PLAY
    assert not quick.results.exists()
    services.record_quick_result(quick, crew.referee, [0, 1, 2, 3])
    kinds = list(ResultVersion.objects.filter(game=quick).values_list("kind", "reason"))
    assert kinds == [
        ("recorded", ""),
        ("reopened", "seats 1 and 4 swapped on the sheet"),
        ("recorded", ""),
    ]
    assert quick.results.get(place=1).seat == 0


def test_a_confirmed_quick_result_is_changed_only_by_a_correction(crew: Crew, quick: Game) -> None:
    services.confirm_game(quick, crew.head_referee)

    with pytest.raises(services.GameError) as refused:
        services.withdraw_quick_result(quick, crew.referee, "too late")

    assert refused.value.code == "not_withdrawable"
    assert "未確定" in refused.value.message_ja


def test_withdrawing_needs_the_head_referee_where_undos_need_approval(
    crew: Crew, quick: Game
) -> None:
    crew.tournament.undo_requires_approval = True
    crew.tournament.save()

    with pytest.raises(services.GameError) as refused:
        services.withdraw_quick_result(quick, crew.referee, "wrong order")
    services.withdraw_quick_result(quick, crew.head_referee, "wrong order")

    assert refused.value.code == "approval_required"
    quick.refresh_from_db()
    assert quick.status == Game.Status.IN_PLAY


def test_the_console_offers_the_withdrawal_and_carries_it_out(
    crew: Crew, quick: Game, client: Client
) -> None:
    client.force_login(crew.referee)
    url = f"/referee/tables/{crew.table.pk}/"

    page = client.get(url).content.decode()
    client.post(url + "undo/", {"reason": "wrong order", "result_version": 1})

    assert "Withdraw this result" in page and "結果を取り消す" not in page
    quick.refresh_from_db()
    assert quick.status == Game.Status.IN_PLAY
    assert Round.objects.get(pk=crew.table.round_id).status == Round.Status.IN_PLAY
