"""A seated player confirms a finished game on the recorder's phone with the table's PIN; five
wrong PINs lock it until the head referee resets it; the recorder's own account never confirms
their recording; the PIN never appears on a referee or public page, or in the API."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied
from django.urls import reverse

from games import services
from games.models import Game, RejectedSubmission
from tests.factories import browser
from tests.games.conftest import Crew
from tournaments.models import AuditEntry, Table

pytestmark = pytest.mark.django_db


def finished_quick_game(crew: Crew) -> Game:
    game = services.start_game(crew.table, crew.referee, mode=Game.Mode.QUICK)
    services.record_quick_result(game, crew.referee, [0, 1, 2, 3])
    game.refresh_from_db()
    return game


def pin_of(crew: Crew) -> str:
    return Table.objects.get(pk=crew.table.pk).confirm_pin


def wrong_pin(crew: Crew) -> str:
    return "000000" if pin_of(crew) != "000000" else "111111"


def test_the_right_pin_confirms_the_game_for_the_seated_player_and_is_audited(crew: Crew) -> None:
    game = finished_quick_game(crew)
    services.confirm_game_by_player(game, crew.referee, 2, pin_of(crew))
    game.refresh_from_db()
    assert game.status == Game.Status.CONFIRMED
    assert game.confirmed_by_seat == 2
    assert game.confirmed_by == crew.referee
    entry = AuditEntry.objects.get(action=AuditEntry.Action.RESULT_CONFIRMED_BY_PLAYER)
    assert entry.game_id == game.pk
    assert entry.data["seat"] == 2 and entry.data["player"] == "Chiba"
    assert pin_of(crew) not in str(entry.data)


def test_a_wrong_pin_is_refused_counted_and_never_recorded(crew: Crew) -> None:
    game = finished_quick_game(crew)
    with pytest.raises(services.GameError) as refused:
        services.confirm_game_by_player(game, crew.referee, 0, wrong_pin(crew))
    assert refused.value.code == "wrong_pin"
    assert "卓カード" in refused.value.message_ja
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert Table.objects.get(pk=crew.table.pk).pin_failures == 1
    rejected = RejectedSubmission.objects.get(action="confirm_by_player")
    assert rejected.code == "wrong_pin"
    assert rejected.payload == {"seat": 0}


def test_five_wrong_pins_lock_the_table_until_the_head_referee_resets_it(crew: Crew) -> None:
    game = finished_quick_game(crew)
    codes = []
    for _ in range(services.PIN_ATTEMPTS):
        with pytest.raises(services.GameError) as refused:
            services.confirm_game_by_player(game, crew.referee, 0, wrong_pin(crew))
        codes.append(refused.value.code)
    assert codes == ["wrong_pin"] * 4 + ["pin_locked"]
    # Now even the right PIN no longer works.
    with pytest.raises(services.GameError) as locked:
        services.confirm_game_by_player(game, crew.referee, 0, pin_of(crew))
    assert locked.value.code == "pin_locked"
    assert "主審" in locked.value.message_ja
    # A referee may not reset it; the head referee does.
    with pytest.raises(PermissionDenied):
        services.reset_table_pin(crew.table, crew.referee)
    services.reset_table_pin(crew.table, crew.head_referee)
    assert Table.objects.get(pk=crew.table.pk).pin_failures == 0
    services.confirm_game_by_player(game, crew.referee, 0, pin_of(crew))
    game.refresh_from_db()
    assert game.status == Game.Status.CONFIRMED


def test_a_right_pin_resets_the_failures(crew: Crew) -> None:
    game = finished_quick_game(crew)
    with pytest.raises(services.GameError):
        services.confirm_game_by_player(game, crew.referee, 0, wrong_pin(crew))
    services.confirm_game_by_player(game, crew.referee, 0, pin_of(crew))
    assert Table.objects.get(pk=crew.table.pk).pin_failures == 0


def test_a_new_pin_replaces_the_old_one(crew: Crew) -> None:
    game = finished_quick_game(crew)
    old = pin_of(crew)
    for _ in range(10):  # a new random PIN may by chance equal the old one
        services.reset_table_pin(crew.table, crew.organiser, new_pin=True)
        if pin_of(crew) != old:
            break
    assert pin_of(crew) != old
    with pytest.raises(services.GameError):
        services.confirm_game_by_player(game, crew.referee, 0, old)
    audit = AuditEntry.objects.filter(data__new_pin=True).get()
    assert old not in str(audit.data) and pin_of(crew) not in str(audit.data)


def test_only_a_table_writer_submits_a_player_confirmation(crew: Crew) -> None:
    game = finished_quick_game(crew)
    with pytest.raises(PermissionDenied):
        services.confirm_game_by_player(game, crew.other_referee, 0, pin_of(crew))
    assert Table.objects.get(pk=crew.table.pk).pin_failures == 0


def test_a_seat_not_at_the_table_is_refused(crew: Crew) -> None:
    game = finished_quick_game(crew)
    with pytest.raises(services.GameError) as refused:
        services.confirm_game_by_player(game, crew.referee, 4, pin_of(crew))
    assert refused.value.code == "no_such_seat"


def test_the_recorder_cannot_confirm_their_own_recording_with_their_account(crew: Crew) -> None:
    game = finished_quick_game(crew)
    with pytest.raises(PermissionDenied):
        services.confirm_game(game, crew.referee)
    client = browser()
    client.force_login(crew.referee)
    page = client.get(reverse("referee:confirm", args=[game.pk])).content.decode()
    assert "Confirm with my own account" not in page
    assert "Confirm at the table" in page
    refused = client.post(reverse("referee:confirm", args=[game.pk]), {"by": "official"})
    assert refused.status_code == 403
    assert "a player at the table confirms with the PIN" in refused.content.decode()
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED


def test_the_confirm_page_takes_the_pin_and_says_what_is_next(crew: Crew) -> None:
    game = finished_quick_game(crew)
    client = browser()
    client.force_login(crew.referee)
    url = reverse("referee:confirm", args=[game.pk])
    page = client.get(url).content.decode()
    assert "Waiting for a player's PIN or the head referee" in page
    assert crew.table.get_referee_url() in page
    refused = client.post(url, {"by": "player", "seat": "1", "pin": wrong_pin(crew)})
    assert refused.status_code == 422
    assert "Wrong PIN" in refused.content.decode()
    response = client.post(url, {"by": "player", "seat": "1", "pin": pin_of(crew)}, follow=True)
    page = response.content.decode()
    assert "Confirmed" in page and "Baba" in page
    assert "Next: set 1 game 2" in page
    game.refresh_from_db()
    assert game.status == Game.Status.CONFIRMED and game.confirmed_by_seat == 1


def test_the_confirm_page_answers_htmx_with_its_partial(crew: Crew) -> None:
    game = finished_quick_game(crew)
    client = browser()
    client.force_login(crew.referee)
    response = client.post(
        reverse("referee:confirm", args=[game.pk]),
        {"by": "player", "seat": "0", "pin": pin_of(crew)},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert html.lstrip().startswith('<section id="confirm"')
    assert "<html" not in html


def test_the_pin_never_appears_on_referee_or_public_pages_or_the_api(crew: Crew) -> None:
    game = finished_quick_game(crew)
    pin = pin_of(crew)
    referee = browser()
    referee.force_login(crew.referee)
    head = browser()
    head.force_login(crew.head_referee)
    slug = crew.tournament.slug
    round_id = crew.table.round_id
    pages = [
        referee.get(crew.table.get_referee_url()),
        referee.get(reverse("referee:confirm", args=[game.pk])),
        referee.get(reverse("referee:game", args=[game.pk])),
        browser().get(reverse("games:live", args=[crew.table.pk])),
        referee.get(f"/api/tables/{crew.table.pk}/live/"),
        referee.get(f"/api/games/{game.pk}/moves/"),
        head.get(reverse("organiser:progress", args=[slug, round_id])),
        referee.post(
            f"/api/games/{game.pk}/confirm/",
            {"seat": 0, "pin": "000000"},
            content_type="application/json",
        ),
        referee.post(
            f"/api/games/{game.pk}/confirm/",
            {"seat": 0, "pin": pin},
            content_type="application/json",
        ),
    ]
    for response in pages:
        assert response.status_code < 500
        assert pin not in response.content.decode(), response.request["PATH_INFO"]


def test_the_confirm_page_speaks_japanese_to_a_japanese_browser(crew: Crew) -> None:
    game = finished_quick_game(crew)
    client = browser("ja")
    client.force_login(crew.referee)
    url = reverse("referee:confirm", args=[game.pk])

    page = client.get(url).content.decode()
    refused = client.post(url, {"by": "player", "seat": "1", "pin": wrong_pin(crew)})

    assert "結果の確認" in page and "卓で確認" in page and "選手として確認" in page
    assert "選手のPIN入力または主審の確定待ちです" in page
    for english in ("Confirm result", "Confirm at the table", "Confirm as this player", "Waiting"):
        assert english not in page
    assert "卓カード" in refused.content.decode()
    assert "Wrong PIN" not in refused.content.decode()
