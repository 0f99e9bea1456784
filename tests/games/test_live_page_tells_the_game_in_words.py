"""The public live page tells the game in players' words: who played which cards (♦5, not
"5D"), fouls and titles in game words (反則あがり, 大富豪 on a Japanese page; "foul finish",
"Grand millionaire" in English), the game's status in words — never the engine's event names
(trick_cleared, foul_finish) or romaji title codes."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from games.models import Game
from games.services import submit_move
from tests.factories import browser

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
    assert "Baba: foul finish" in text
    assert "Trick cleared" in text
    assert "Doi — Grand millionaire" in text  # seat 4 went out first
    assert "Finished" in text
    for engine_word in ("trick_cleared", "foul_finish", "5D", "daifugo ·", "— daifugo"):
        assert engine_word not in text


def test_a_japanese_browser_reads_the_game_in_japanese_game_words(
    client_ja: Client, crew: Crew, t17_game: Game
) -> None:
    for seq, move in enumerate(T17_MOVES, start=1):
        submit_move(t17_game.pk, move, seq, crew.referee)

    text = live_text(client_ja, crew)

    assert "Aokiさんが♦5を出しました" in text
    assert "Babaさんが反則あがり" in text
    assert "場が流れました" in text
    assert "Doi — 大富豪" in text and "順位" in text and "経過" in text
    for english in ("played", "foul finish", "Trick cleared", "Grand millionaire", "Placings"):
        assert english not in text
    for engine_word in ("trick_cleared", "foul_finish", "5D", "— daifugo"):
        assert engine_word not in text


def test_a_game_in_play_shows_no_card_still_held(
    client: Client, crew: Crew, t17_game: Game
) -> None:
    submit_move(t17_game.pk, T17_MOVES[0], 1, crew.referee)

    text = live_text(client, crew)

    assert "Aoki played ♦5" in text and "In play" in text
    assert "♣9" not in text and "♣2" not in text  # still in Aoki's and Baba's hands


def test_the_player_page_names_titles_in_game_words(
    client: Client, crew: Crew, t17_game: Game
) -> None:
    for seq, move in enumerate(T17_MOVES, start=1):
        submit_move(t17_game.pk, move, seq, crew.referee)
    doi = t17_game.results.get(place=1).entry.player

    html = client.get(f"/players/{doi.pk}/").content.decode()

    assert "Grand millionaire" in html and ">daifugo<" not in html
    japanese = browser("ja").get(f"/players/{doi.pk}/").content.decode()
    assert "大富豪" in japanese and "Grand millionaire" not in japanese
