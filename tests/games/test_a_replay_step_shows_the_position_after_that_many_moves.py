"""The replay viewer at `?move=N` shows the position after the game's first N effective moves:
whose turn, the trick and who played it, each seat's card count — the same position as the
engine's own replay of the stored deal and moves; the move list links every position and marks
the current one."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from games import services
from games.engine import PHASE_PLAY, card_names, find_ruleset
from games.engine.daifugo import DAIFUGO
from games.models import Game, Move
from games.offline import card_face
from tests.factories import play_to_the_end

from .conftest import Crew

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(crew: Crew) -> Game:
    game = services.start_game(crew.table, crew.referee)
    play_to_the_end(game, crew.referee)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    return game


def engine_position(game: Game, n: int) -> Any:
    """The engine's state after `n` moves, replayed here from the stored deal and payloads."""
    rules = find_ruleset(f"{game.ruleset_id}@{game.ruleset_version}")
    state = DAIFUGO.new_game(rules, hands=game.hands, leader=game.leader, titles=game.titles)
    payloads = [m.payload for m in game.moves.filter(kind=Move.Kind.ACTION).order_by("seq")]
    for payload in payloads[:n]:
        state, _ = DAIFUGO.apply(state, DAIFUGO.move_from_json(payload, "move", game.seats))
    return state


def block(html: str, testid: str, end: str) -> str:
    """The text of the element `testid`, up to its closing `end` tag (none nested inside)."""
    found = re.search(rf'data-testid="{testid}"[^>]*>(.*?)</{end}>', html, re.S)
    assert found, testid
    return re.sub(r"<[^>]+>", " ", found.group(1))


def test_each_step_shows_the_engines_position(client: Client, game: Game) -> None:
    total = game.moves.filter(kind=Move.Kind.ACTION).count()
    for n in (0, 1, 5, total // 2, total):
        html = client.get(f"/games/{game.pk}/replay/?move={n}").content.decode()
        state = engine_position(game, n)

        for seat, count in enumerate(state.counts):
            text = block(html, f"replay-seat-{seat + 1}", "li")
            assert re.search(rf"(?<!\d){count} cards?\b", text), (n, seat, text)
        turn = block(html, "replay-turn", "strong").strip()
        if state.phase == PHASE_PLAY:
            assert turn == ("Aoki", "Baba", "Chiba", "Doi")[state.turn], (n, turn)
        trick = block(html, "replay-trick", "dd")
        if state.table is None:
            assert "empty" in trick
        else:
            for name in card_names(state.table.cards):
                assert card_face(name)["label"] in trick, (n, trick)
        assert f"Move {n} of {total}" in html if n else "The deal" in html
        current = re.findall(r'href="[^"]*\?move=(\d+)"[^>]*aria-current="step"', html)
        assert current == [str(n)]


def test_a_step_past_the_end_shows_the_last_position_and_links_every_move(
    client: Client, game: Game
) -> None:
    total = game.moves.filter(kind=Move.Kind.ACTION).count()
    html = client.get(f"/games/{game.pk}/replay/?move=9999").content.decode()

    assert f"Move {total} of {total}" in html
    for n in range(total + 1):
        assert f'href="/games/{game.pk}/replay/?move={n}"' in html
    assert 'data-step="forward"' not in html and 'data-step="back"' in html
