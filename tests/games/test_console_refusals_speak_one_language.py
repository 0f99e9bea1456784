"""A move the engine refuses carries its message in English and Japanese (the API returns both);
the console shows the one in the reader's language, and the refused move changes nothing."""

from __future__ import annotations

import re

import pytest

from games.models import Game, RejectedSubmission
from tests.factories import browser

from .conftest import Crew

pytestmark = pytest.mark.django_db

# Seat 0 holds 5D and 9C (T17): the king of spades is not in its hand.
ILLEGAL = {"seq": "1", "seat": "0", "cards": ["KS"], "action": "play"}
ERROR = re.compile(r'<div class="error" role="alert" data-testid="move-error">(.*?)</div>', re.S)


def post_illegal(language: str, crew: Crew) -> str:
    client = browser(language)
    client.force_login(crew.referee)
    answer = client.post(f"/referee/tables/{crew.table.pk}/play/", ILLEGAL, HTTP_HX_REQUEST="true")
    assert answer.status_code == 200
    return answer.content.decode()


def test_the_same_illegal_move_reads_in_english_or_in_japanese(crew: Crew, t17_game: Game) -> None:
    version = t17_game.version

    english = post_illegal("en", crew)
    japanese = post_illegal("ja", crew)

    refusal = RejectedSubmission.objects.filter(game=t17_game).first()
    assert refusal is not None and refusal.message_en and refusal.message_ja
    shown_en, shown_ja = ERROR.search(english), ERROR.search(japanese)
    assert shown_en and shown_ja
    assert refusal.message_en in shown_en.group(1) and refusal.code in shown_en.group(1)
    assert refusal.message_ja not in english
    assert refusal.message_ja in shown_ja.group(1) and refusal.code in shown_ja.group(1)
    assert refusal.message_en not in japanese
    assert ">出す</button>" in japanese and ">Play</button>" in english
    t17_game.refresh_from_db()
    assert (t17_game.version, t17_game.last_seq) == (version, 0)  # the game is unchanged
    assert not t17_game.moves.exists()


def test_without_htmx_the_refusal_comes_back_as_a_message_in_the_readers_language(
    crew: Crew, t17_game: Game
) -> None:
    client = browser("ja")
    client.force_login(crew.referee)

    answer = client.post(f"/referee/tables/{crew.table.pk}/play/", ILLEGAL, follow=True)

    refusal = RejectedSubmission.objects.get(game=t17_game)
    page = answer.content.decode()
    assert refusal.message_ja in page and refusal.message_en not in page
    assert not t17_game.moves.exists()
