"""The officials' game page `/referee/games/<id>/` for a 掼蛋 (Guandan) hand, in play, finished
and confirmed: every page and action answers (never a 500) for the head referee and for an
organiser. A team hand is never forfeited seat by seat (the service refuses it), so no forfeit
form is offered, and the page says why; a finished hand is corrected by its finishing order,
as the Guandan quick form enters it, with the preview first."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from games.engine.guandan import legal_moves, move_to_json
from games.models import Game, GameResult
from games.services import confirm_game, record_quick_result, request_undo, submit_move
from games.state import rebuild
from tests.factories import (
    OfficialFactory,
    UserFactory,
    browser,
    console_guandan_hand,
    console_guandan_table,
)
from tournaments.models import Official, Table

pytestmark = pytest.mark.django_db


@dataclass
class GuandanCrew:
    table: Table
    referee: User
    head_referee: User
    organiser: User


@pytest.fixture
def gd_crew() -> GuandanCrew:
    referee = UserFactory(username="gd-ref")
    table = console_guandan_table(referee, teams=("Team A", "Team B"))
    tournament = table.round.stage.tournament
    head = UserFactory(username="gd-head")
    organiser = UserFactory(username="gd-org")
    OfficialFactory(tournament=tournament, user=head, role=Official.Role.HEAD_REFEREE)
    OfficialFactory(tournament=tournament, user=organiser, role=Official.Role.ORGANISER)
    return GuandanCrew(table, referee, head, organiser)


def signed_in(user: User) -> Client:
    client = browser()
    client.force_login(user)
    return client


def hand(crew: GuandanCrew, state: str) -> Game:
    """A hand of the match: `in_play` (dealt, played move by move), `finished` (a 1-2 finish
    entered quickly) or `confirmed`."""
    if state == "in_play":
        game: Game = console_guandan_hand(crew.table)
        return game
    game = console_guandan_hand(crew.table, mode="quick")
    record_quick_result(game, crew.referee, [0, 2])
    if state == "confirmed":
        confirm_game(game, crew.head_referee)
    game.refresh_from_db()
    return game


def every_official_request(game: Game) -> list[tuple[str, dict[str, str]]]:
    """Each page and action of the officials' game page, with a plausible form."""
    gid = [game.pk]
    finishing = {"place_1": "1", "place_2": "3", "reason": "wrong order"}
    return [
        (reverse("referee:game", args=gid), {}),
        (reverse("referee:confirm", args=gid), {}),
        (reverse("referee:confirm", args=gid), {"by": "official"}),
        (reverse("referee:correction-preview", args=gid), finishing),
        (
            reverse("referee:correction-save", args=gid),
            finishing | {"based_on_version": str(game.result_version)},
        ),
        (reverse("referee:void", args=gid), {"reason": "misdeal", "redeal": "1"}),
        (reverse("referee:forfeit", args=gid), {"seat": "1", "reason": "ill"}),
        (
            reverse("referee:penalty-give", args=gid),
            {"entry": "0", "kind": "warning", "reason": "slow"},
        ),
    ]


@pytest.mark.parametrize("state", ["in_play", "finished", "confirmed"])
@pytest.mark.parametrize("who", ["head_referee", "organiser"])
def test_every_page_and_action_answers_for_a_guandan_hand(
    gd_crew: GuandanCrew, state: str, who: str
) -> None:
    user = getattr(gd_crew, who)
    for url, form in every_official_request(hand(gd_crew, state)):
        client = signed_in(user)
        answer = client.get(url) if not form else client.post(url, form)
        assert answer.status_code < 500, (url, answer.status_code)
        if not form:
            assert answer.status_code == 200
        # Each action again, as htmx posts it (its section only).
        if form:
            again = client.post(url, form, HTTP_HX_REQUEST="true")
            assert again.status_code < 500, (url, again.status_code)


def test_the_head_referee_decides_an_undo_in_a_guandan_hand(gd_crew: GuandanCrew) -> None:
    tournament = gd_crew.table.round.stage.tournament
    tournament.undo_requires_approval = True
    tournament.save(update_fields=["undo_requires_approval"])
    game = hand(gd_crew, "in_play")
    move = next(iter(legal_moves(rebuild(game))))
    assert submit_move(game, move_to_json(move), 1, gd_crew.referee).ok
    request_undo(game, gd_crew.referee, "wrong card", as_referee=True)
    game.refresh_from_db()
    assert game.undo_pending_seq is not None
    client = signed_in(gd_crew.head_referee)

    before = client.get(reverse("referee:game", args=[game.pk]))
    decided = client.post(
        reverse("referee:decide", args=[gd_crew.table.pk]),
        {"approve": "yes", "seq": str(game.undo_pending_seq)},
    )
    after = client.get(reverse("referee:game", args=[game.pk]))

    # Without htmx the console's forms answer with a redirect back to the console.
    assert (before.status_code, decided.status_code, after.status_code) == (200, 302, 200)
    game.refresh_from_db()
    assert game.undo_pending_seq is None
    assert [len(cards) for cards in rebuild(game).hands] == [27, 27, 27, 27]  # move undone


def test_a_hand_in_play_offers_no_forfeit_and_says_why(gd_crew: GuandanCrew) -> None:
    game = hand(gd_crew, "in_play")

    page = signed_in(gd_crew.head_referee).get(reverse("referee:game", args=[game.pk]))

    html = page.content.decode()
    assert page.status_code == 200
    assert 'data-testid="forfeit-form"' not in html
    assert 'data-testid="no-team-forfeit"' in html
    assert 'data-testid="void-form"' in html


def test_a_hand_in_play_can_be_voided_and_dealt_again(gd_crew: GuandanCrew) -> None:
    game = hand(gd_crew, "in_play")
    client = signed_in(gd_crew.head_referee)
    url = reverse("referee:void", args=[game.pk])
    form = {"reason": "misdeal", "redeal": "1", "version": str(game.version)}

    asked = client.post(url, form)
    done = client.post(url, form | {"confirmed": "yes"})

    assert 'data-testid="void-confirm"' in asked.content.decode()
    assert done.status_code == 302
    game.refresh_from_db()
    assert game.status == Game.Status.VOID


def test_the_correction_form_asks_for_the_finishing_order(gd_crew: GuandanCrew) -> None:
    game = hand(gd_crew, "finished")

    html = signed_in(gd_crew.head_referee).get(reverse("referee:game", args=[game.pk]))

    page = html.content.decode()
    assert 'data-testid="correction-form"' in page
    for n in (1, 2, 3, 4):
        assert f'name="place_{n}"' in page
    assert 'name="outcome_0"' not in page
    # The recorded finish is the form's starting point.
    assert '<option value="0" selected>' in page


def test_a_finished_hand_is_corrected_by_its_finishing_order_after_a_preview(
    gd_crew: GuandanCrew,
) -> None:
    game = hand(gd_crew, "finished")
    client = signed_in(gd_crew.head_referee)
    # Team B (engine seats 1 and 3) went out first and second, not team A.
    form = {"place_1": "1", "place_2": "3", "reason": "teams swapped"}

    preview = client.post(reverse("referee:correction-preview", args=[game.pk]), form)
    html = preview.content.decode()
    assert 'data-testid="correction-preview"' in html
    assert 'name="place_1" value="1"' in html and 'name="place_2" value="3"' in html

    saved = client.post(
        reverse("referee:correction-save", args=[game.pk]),
        form | {"based_on_version": str(game.result_version)},
    )

    assert saved.status_code == 302
    game.refresh_from_db()
    winners = sorted(r.seat for r in game.results.filter(place__lte=2))
    assert winners == [1, 3]
    assert game.result_version == 2


def test_a_bad_finishing_order_is_refused_with_its_code(gd_crew: GuandanCrew) -> None:
    game = hand(gd_crew, "finished")

    preview = signed_in(gd_crew.head_referee).post(
        reverse("referee:correction-preview", args=[game.pk]),
        {"place_1": "1", "place_2": "1", "reason": "typo"},
    )

    assert "quick_duplicate_place" in preview.content.decode()
    game.refresh_from_db()
    assert game.result_version == 1


def test_an_earlier_hand_says_only_the_last_hand_is_corrected(gd_crew: GuandanCrew) -> None:
    first = hand(gd_crew, "confirmed")
    console_guandan_hand(gd_crew.table, mode="quick", game_number=2)

    preview = signed_in(gd_crew.head_referee).post(
        reverse("referee:correction-preview", args=[first.pk]),
        {"place_1": "1", "place_2": "3", "reason": "teams swapped"},
    )

    assert "later_hands_follow" in preview.content.decode()


def test_the_page_speaks_japanese_and_marks_the_hand_that_won_the_match() -> None:
    referee = UserFactory(username="gd-ja-ref")
    table = console_guandan_table(referee, teams=("桜", "紅葉"))
    head = UserFactory(username="gd-ja-head")
    OfficialFactory(
        tournament=table.round.stage.tournament, user=head, role=Official.Role.HEAD_REFEREE
    )
    game = console_guandan_hand(table, mode="quick")
    record_quick_result(game, referee, [0, 2])
    GameResult.objects.filter(game=game, team=0).update(
        detail={"finish": "1-2", "team_level": "A", "match_won": True, "level_gain": 0}
    )
    client = browser("ja")
    client.force_login(head)

    page = client.get(reverse("referee:game", args=[game.pk])).content.decode()

    assert "上がり順を入力します" in page
    assert "A級" in page and "A級で勝ち抜け、試合に勝利" in page
