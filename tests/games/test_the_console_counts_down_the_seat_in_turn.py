"""The referee console shows the seat in turn's think time: the deadline (the server's time of
the log's latest row plus the tournament's limit) for static/kakumei/clock.js to tick down, a
time-fault button, and after an 8-cut the cutter's restored time in words. No clock where the
tournament has none."""

from __future__ import annotations

import datetime
import re

import pytest

from games.models import Game, Move
from games.services import submit_move
from tests.factories import EIGHT_CUT_HANDS, EIGHT_CUT_MOVES, GameFactory, browser
from tournaments.models import Tournament

from .conftest import Crew

# The clock fixture: every row is written at a known time, so each deadline is exact.
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("clock")]
TWENTY = datetime.timedelta(seconds=20)


@pytest.fixture
def game(crew: Crew) -> Game:
    made: Game = GameFactory(table=crew.table, game_number=1, hands=EIGHT_CUT_HANDS, leader=0)
    return made


def console(crew: Crew, language: str = "en") -> str:
    client = browser(language)
    client.force_login(crew.referee)
    response = client.get(f"/referee/tables/{crew.table.pk}/")
    assert response.status_code == 200
    return response.content.decode()


def deadline(page: str) -> datetime.datetime:
    found = re.search(r'id="think-clock"[^>]*data-deadline="([^"]+)"', page)
    assert found, page
    return datetime.datetime.fromisoformat(found.group(1))


def test_a_jdf_console_counts_20_seconds_from_the_last_move(crew: Crew, game: Game) -> None:
    assert submit_move(game, EIGHT_CUT_MOVES[0], 1, crew.referee).ok
    page = console(crew)

    last = Move.objects.get(game=game, seq=1)
    assert deadline(page) == last.created_at + TWENTY
    assert 'data-limit="20"' in page
    assert 'data-testid="time-fault"' in page
    assert "kakumei/clock.js" in page
    assert 'data-testid="clock-eight-cut"' not in page


def test_after_an_8_cut_the_cutter_is_told_its_time_is_back_in_words(
    crew: Crew, game: Game
) -> None:
    for seq, move in enumerate(EIGHT_CUT_MOVES, start=1):
        assert submit_move(game, move, seq, crew.referee).ok
    cut = Move.objects.get(game=game, seq=5)
    assert any(e["kind"] == "eight_cut" for e in cut.events)

    english, japanese = console(crew), console(crew, "ja")

    assert "8-cut: the think time is back to 20 s" in english
    assert "8切り: 持ち時間が20秒に戻りました" in japanese
    assert deadline(english) == cut.created_at + TWENTY


def test_a_preset_without_a_clock_shows_none_until_the_organiser_sets_one(
    crew: Crew, game: Game
) -> None:
    Game.objects.filter(pk=game.pk).update(ruleset_id="gekijo")
    Tournament.objects.filter(pk=crew.tournament.pk).update(ruleset_id="gekijo")
    assert 'id="think-clock"' not in console(crew)

    Tournament.objects.filter(pk=crew.tournament.pk).update(think_seconds=45)
    assert 'data-limit="45"' in console(crew)

    Tournament.objects.filter(pk=crew.tournament.pk).update(think_seconds=0, ruleset_id="jdf")
    assert 'id="think-clock"' not in console(crew)
