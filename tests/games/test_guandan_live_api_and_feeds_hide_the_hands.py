"""The live API `GET /api/tables/<id>/live/`, the event feed `/api/tables/<id>/events/` and the
live page's poll for a 掼蛋 (Guandan) table of a known deal: they answer while the hand is in
play and once it is over, with both teams' levels, the trick and the counts (above 10 only
"more than 10": null) — and never a card still in a hand, nor the card given back (还贡)."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client, override_settings

from games.engine.guandan import GUANDAN, Match, legal_moves, move_to_json, wild_card
from games.engine.multideck import multi_card_name, multi_names
from games.models import Game
from games.services import record_quick_result, submit_move
from games.state import rebuild
from tests.factories import (
    UserFactory,
    console_guandan_hand,
    console_guandan_table,
    play_guandan_hand,
    streamed,
)

pytestmark = pytest.mark.django_db


def second_hand_in_play() -> tuple[object, Game, set[str]]:
    """The match's second hand (levels 4 and 2) after the tribute, a card given back and a
    few plays: (referee, game, the cards still hidden in hands)."""
    referee = UserFactory(username="gd-live-ref")
    table = console_guandan_table(referee, teams=("Sakura", "Momiji"))
    game: Game = console_guandan_hand(table, match=Match(levels=(4, 2), previous=(0, 1, 2, 3)))
    for seq in range(1, 9):
        state = rebuild(game)
        back = [c for c in state.returned if c >= 0]
        move = next(m for m in legal_moves(state) if not any(c in m.cards for c in back))
        assert submit_move(game, move_to_json(move), seq, referee).ok
        game.refresh_from_db()
    state = rebuild(game)
    assert not GUANDAN.is_over(state)
    public = set(multi_names(state.played)) | {multi_card_name(wild_card(state.level))}
    public |= {multi_card_name(c) for c in state.paid if c >= 0}
    for row in game.moves.all():
        public |= set(row.payload.get("as", []))
    held = {code for hand in state.hands for code in multi_names(hand)}
    returned = {multi_card_name(c) for c in state.returned if c >= 0}
    assert returned and returned <= held - public
    return referee, game, held - public


def cards_named(text: str, cards: set[str]) -> set[str]:
    return {code for code in cards if re.search(rf"(?<![A-Za-z0-9]){code}(?![A-Za-z0-9])", text)}


def live_api(game: Game) -> tuple[int, str]:
    answer = Client().get(f"/api/tables/{game.table_id}/live/")
    return answer.status_code, answer.content.decode()


def test_the_live_api_shows_a_hand_in_play_without_a_hidden_card() -> None:
    _, game, hidden = second_hand_in_play()

    status, text = live_api(game)

    assert status == 200
    view = json.loads(text)["game"]
    assert view["status"] == "in_play" and view["family"] == "guandan"
    assert view["state"]["levels"] == ["4", "2"]
    assert None in view["state"]["counts"]  # more than 10 cards: not told
    assert "hand" not in view["state"] and "returns" not in view["state"]
    assert cards_named(text, hidden) == set()


def test_the_event_feed_and_the_live_poll_carry_no_card() -> None:
    _, game, hidden = second_hand_in_play()
    public = Client()

    with override_settings(LIVE_FEED_SECONDS=0.0):
        feed = public.get(f"/api/tables/{game.table_id}/events/")
        feed_text = streamed(feed)
    page = public.get(f"/tables/{game.table_id}/live/", HTTP_HX_REQUEST="true")

    assert feed.status_code == 200
    assert f'"version": "{game.pk}.{game.version}"' in feed_text
    assert cards_named(feed_text, hidden) == set()
    assert page.status_code == 200
    assert cards_named(page.content.decode(), hidden) == set()


def test_the_live_api_shows_a_finished_hand_with_its_levels() -> None:
    referee, game, _ = second_hand_in_play()
    play_guandan_hand(game, referee)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED

    status, text = live_api(game)

    assert status == 200
    view = json.loads(text)["game"]
    assert view["status"] == "finished"
    assert len(view["results"]) == 4
    assert {r["team"] for r in view["results"]} == {0, 1}
    assert all(r["team_level"] for r in view["results"])
    assert [r["place"] for r in view["results"]][:2] == [1, 2]


def test_the_live_api_shows_a_quick_hand_in_play_and_recorded() -> None:
    referee = UserFactory(username="gd-live-quick")
    table = console_guandan_table(referee, teams=("Sakura", "Momiji"))
    game: Game = console_guandan_hand(table, mode="quick")
    in_play = Client().get(f"/api/tables/{table.pk}/live/")
    record_quick_result(game, referee, [1, 3])

    finished = Client().get(f"/api/tables/{table.pk}/live/")

    assert in_play.status_code == 200 and json.loads(in_play.content)["game"]["state"] is None
    results = json.loads(finished.content)["game"]["results"]
    assert finished.status_code == 200
    assert [(r["seat"], r["place"], r["team_level"]) for r in results][:2] == [
        (1, 1, "5"),
        (3, 2, "5"),
    ]
