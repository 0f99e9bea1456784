"""The public live page tells the game in players' words: who played which cards (♦5, not
"5D"), fouls and titles in Japanese game words (反則あがり, 大富豪), the game's status in words —
never the engine's event names (trick_cleared, foul_finish) or romaji title codes."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from games.models import Game
from games.services import submit_move

from .conftest import T17_MOVES, Crew

pytestmark = pytest.mark.django_db


def live_text(client: Client, crew: Crew) -> str:
    html = client.get(f"/tables/{crew.table.pk}/live/").content.decode()
    return re.sub(r"<[^>]+>", " ", html)


def test_moves_and_the_result_read_as_sentences(client: Client, crew: Crew, t17_game: Game) -> None:
    for seq, move in enumerate(T17_MOVES, start=1):
        submit_move(t17_game.pk, move, seq, crew.referee)

    text = live_text(client, crew)

    assert "Aoki played ♦5" in text
    assert "Baba 反則あがり foul finish" in text
    assert "trick cleared 場が流れました" in text
    assert "Doi — 大富豪 Daifugō" in text  # seat 4 went out first
    assert "finished 終了" in text
    for engine_word in ("trick_cleared", "foul_finish", "5D", "daifugo ·", "— daifugo"):
        assert engine_word not in text


def test_a_game_in_play_shows_no_card_still_held(
    client: Client, crew: Crew, t17_game: Game
) -> None:
    submit_move(t17_game.pk, T17_MOVES[0], 1, crew.referee)

    text = live_text(client, crew)

    assert "Aoki played ♦5" in text and "in play 対局中" in text
    assert "♣9" not in text and "♣2" not in text  # still in Aoki's and Baba's hands


def test_the_player_page_names_titles_in_game_words(
    client: Client, crew: Crew, t17_game: Game
) -> None:
    for seq, move in enumerate(T17_MOVES, start=1):
        submit_move(t17_game.pk, move, seq, crew.referee)
    doi = t17_game.results.get(place=1).entry.player

    html = client.get(f"/players/{doi.pk}/").content.decode()

    assert "大富豪 Daifugō" in html and ">daifugo<" not in html
