"""The officials' game page `/referee/games/<id>/`: for the table's referee, the head referee and
organisers. It shows the game, its current result, every version of it, its audit and refused
submissions (as readable text, never a Python repr), and offers each ruling only to those who
may make it: a correction (preview side by side, then save), a void, a forfeit — each
irreversible step confirmed first."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Game
from games.services import (
    confirm_game,
    correct_result,
    record_quick_result,
    start_game,
    submit_move,
)
from tests.factories import browser, play_round_quickly
from tournaments.models import Tournament
from tournaments.services import reveal_round_seed

from .conftest import Crew

pytestmark = pytest.mark.django_db

CORRECTION_FORM = 'data-testid="correction-form"'


def client_for(user: object) -> Client:
    client = browser()
    client.force_login(user)  # type: ignore[arg-type]
    return client


def finished_quick_game(crew: Crew) -> Game:
    game = start_game(crew.table, crew.referee, mode=Game.Mode.QUICK)
    record_quick_result(game, crew.referee, [0, 1, 2, 3])
    game.refresh_from_db()
    return game


def page(user: object, game: Game, language: str = "en") -> str:
    client = browser(language)
    client.force_login(user)  # type: ignore[arg-type]
    answer = client.get(reverse("referee:game", args=[game.pk]))
    assert answer.status_code == 200
    return answer.content.decode()


def test_the_page_is_for_the_tables_referee_the_head_referee_and_organisers(crew: Crew) -> None:
    game = finished_quick_game(crew)
    url = reverse("referee:game", args=[game.pk])

    allowed = [client_for(u).get(url).status_code for u in (crew.referee, crew.head_referee)]
    allowed.append(client_for(crew.organiser).get(url).status_code)

    assert allowed == [200, 200, 200]
    assert client_for(crew.other_referee).get(url).status_code == 403
    assert client_for(crew.outsider_organiser).get(url).status_code == 403
    assert browser().get(url).status_code == 302  # to the login page
    missing = reverse("referee:game", args=[game.pk + 1000])
    assert client_for(crew.organiser).get(missing).status_code == 404


def test_an_unconfirmed_result_is_shown_as_provisional(crew: Crew) -> None:
    game = finished_quick_game(crew)

    before = page(crew.referee, game)
    confirm_game(game, crew.head_referee)
    after = page(crew.referee, game)

    assert 'data-testid="provisional">provisional<' in before
    assert 'data-testid="provisional"' not in after
    for text in ("Quick result", "Attempt", "Aoki", "Grand millionaire"):
        assert text in before
    assert "暫定" not in before and "現在の結果" not in before


def test_the_page_speaks_japanese_to_a_japanese_browser(crew: Crew) -> None:
    game = finished_quick_game(crew)

    html = page(crew.head_referee, game, "ja")

    assert 'data-testid="provisional">暫定<' in html
    for japanese in (
        "現在の結果",
        "結果のみ",
        "回目",
        "大富豪",
        "結果の訂正",
        "罰則",
        "理由",
        "却下なし",
    ):
        assert japanese in html
    for english in ("Current result", "Quick result", "Attempt", "Grand millionaire", "Penalties"):
        assert english not in html


def test_the_history_audit_and_refusals_read_as_text_not_python(crew: Crew) -> None:
    game = finished_quick_game(crew)
    submit_move(game, {"seat": 0, "pass": True}, 1, crew.referee)  # refused: a quick game
    correct_result(
        game,
        crew.head_referee,
        finishing_order=[1, 0, 2, 3],
        reason="score sheet misread",
        based_on_version=1,
    )

    html = page(crew.referee, game)

    assert 'data-testid="version-1"' in html and 'data-testid="version-2"' in html
    assert "Correction" in html and "score sheet misread" in html
    assert "Result corrected" in html  # the audit entry
    assert "This game records only its result." in html  # the refusal, in the page's language
    assert "このゲームは結果のみを記録します" not in html
    assert "quick_game" in html  # the refusal, with what was sent as JSON
    assert "&quot;pass&quot;: true" in html
    assert "{'" not in html and "{&#x27;" not in html and "True" not in html


def test_only_those_allowed_are_offered_a_correction(crew: Crew) -> None:
    game = finished_quick_game(crew)

    assert CORRECTION_FORM not in page(crew.referee, game)
    assert CORRECTION_FORM in page(crew.head_referee, game)
    assert CORRECTION_FORM in page(crew.organiser, game)


def test_after_the_reveal_only_the_organiser_is_offered_a_correction_with_a_warning(
    crew: Crew,
) -> None:
    play_round_quickly(crew.table.round, crew.referee, crew.head_referee)
    reveal_round_seed(crew.table.round, crew.organiser)
    game = crew.table.games.get(set_number=1, game_number=1)

    as_head = page(crew.head_referee, game)
    as_organiser = page(crew.organiser, game)

    assert CORRECTION_FORM not in as_head
    assert CORRECTION_FORM in as_organiser
    assert "flagged publicly" in as_organiser


def test_the_preview_shows_before_and_after_then_the_save_makes_a_new_version(
    crew: Crew,
) -> None:
    game = finished_quick_game(crew)
    head = client_for(crew.head_referee)
    chosen = {
        "outcome_0": "clean-2",
        "outcome_1": "clean-1",
        "outcome_2": "clean-3",
        "outcome_3": "clean-4",
        "reason": "score sheet misread",
    }

    preview = head.post(reverse("referee:correction-preview", args=[game.pk]), chosen)

    html = preview.content.decode()
    assert preview.status_code == 200
    assert 'data-testid="correction-preview"' in html
    assert html.count('class="changed" data-testid="preview-row"') == 2  # Aoki and Baba swap
    assert html.count('data-testid="preview-row"') == 4
    assert '<input type="hidden" name="based_on_version" value="1">' in html
    assert '<input type="hidden" name="outcome_1" value="clean-1">' in html
    assert "a new version of the result" in html and "standings are recomputed" in html
    game.refresh_from_db()
    assert game.result_version == 1  # nothing saved yet

    saved = head.post(
        reverse("referee:correction-save", args=[game.pk]), chosen | {"based_on_version": "1"}
    )

    assert saved.status_code == 302
    game.refresh_from_db()
    assert (game.result_version, game.results.get(place=1).seat) == (2, 1)


def test_with_htmx_the_preview_answers_its_section_only(crew: Crew) -> None:
    game = finished_quick_game(crew)

    answer = client_for(crew.organiser).post(
        reverse("referee:correction-preview", args=[game.pk]),
        {f"outcome_{s}": f"clean-{s + 1}" for s in range(4)} | {"reason": "check"},
        HTTP_HX_REQUEST="true",
    )

    html = answer.content.decode()
    assert html.lstrip().startswith('<section id="correction"')
    assert "Nothing changes" in html  # the same result: no save button
    assert 'data-testid="save-correction"' not in html


def test_a_correction_without_a_reason_is_not_previewed(crew: Crew) -> None:
    game = finished_quick_game(crew)

    answer = client_for(crew.head_referee).post(
        reverse("referee:correction-preview", args=[game.pk]),
        {"outcome_0": "clean-2", "outcome_1": "clean-1", "outcome_2": "clean-3"}
        | {"outcome_3": "clean-4", "reason": " "},
    )

    html = answer.content.decode()
    assert "reason_required" in html
    assert 'data-testid="correction-preview"' not in html


def test_voiding_is_confirmed_first_and_says_what_will_happen(crew: Crew) -> None:
    game = start_game(crew.table, crew.referee)
    head = client_for(crew.head_referee)
    url = reverse("referee:void", args=[game.pk])
    assert 'data-testid="void-form"' in page(crew.head_referee, game)
    assert 'data-testid="void-form"' not in page(crew.referee, game)

    step = head.post(url, {"reason": "cards exposed", "redeal": "1", "version": game.version})

    html = step.content.decode()
    assert 'data-testid="void-confirm"' in html
    assert "new deal" in html and "cannot be undone" in html
    game.refresh_from_db()
    assert game.status == Game.Status.IN_PLAY

    done = head.post(
        url,
        {"reason": "cards exposed", "redeal": "1", "version": game.version, "confirmed": "yes"},
    )

    assert done.status_code == 302
    game.refresh_from_db()
    assert (game.status, game.redeal, game.void_reason) == ("void", True, "cards exposed")


def test_a_plain_referee_is_not_asked_to_confirm_a_void(crew: Crew) -> None:
    game = start_game(crew.table, crew.referee)

    answer = client_for(crew.referee).post(
        reverse("referee:void", args=[game.pk]), {"reason": "misdeal", "redeal": "1"}
    )

    assert answer.status_code == 403


def test_a_forfeit_under_referee_order_asks_the_order_then_confirms(crew: Crew) -> None:
    Tournament.objects.filter(pk=crew.tournament.pk).update(forfeit_others="referee_order")
    game = start_game(crew.table, crew.referee, mode=Game.Mode.KNOWN_DEAL)
    organiser = client_for(crew.organiser)
    url = reverse("referee:forfeit", args=[game.pk])

    form = page(crew.organiser, game)
    order = {"order_0": "2", "order_1": "", "order_2": "1", "order_3": "3"}
    seen = {"version": game.version}
    step = organiser.post(url, {"seat": "1", "reason": "left the venue"} | order | seen)

    assert 'name="order_0"' in form and 'data-testid="forfeit-form"' in form
    html = step.content.decode()
    assert 'data-testid="forfeit-confirm"' in html
    assert "1. Chiba, 2. Aoki, 3. Doi" in html and "cannot be undone" in html
    game.refresh_from_db()
    assert game.status == Game.Status.IN_PLAY

    done = organiser.post(
        url, {"seat": "1", "reason": "left the venue", "confirmed": "yes"} | order | seen
    )

    assert done.status_code == 302
    game.refresh_from_db()
    assert (game.forfeit_seat, game.status) == (1, Game.Status.FINISHED)
    assert [r.seat for r in game.results.order_by("place")] == [2, 0, 3, 1]
    assert "<small>forfeit</small>" in page(crew.referee, game)
    assert "<small>途中棄権</small>" in page(crew.referee, game, "ja")
