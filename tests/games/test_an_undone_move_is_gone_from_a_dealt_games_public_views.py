"""A move a referee undoes at a known deal is withdrawn from every public view: its cards went
back into a hand the public does not see, so the live page (plain, htmx, in Japanese), the live
API, the moves API and the event feed show nothing of it — not struck through, no 革命 — and the
undo's line gives no reason (the referee's note names the cards). Once the game has ended, its
replay and its record hold only the moves that stand.

What stands is computed here from the moves this test made, not by the code under test."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.test import Client, override_settings

from games.engine import legal_moves
from games.models import Game
from games.services import current_state, request_undo, submit_move
from games.state import canonical
from tests.factories import GameFactory, browser, streamed

from .conftest import Crew

pytestmark = pytest.mark.django_db

HANDS = [
    ["3D", "6S", "6H", "6D", "6C", "9C"],
    ["4H", "KS"],
    ["5S", "QD"],
    ["7H", "TD"],
]
BEFORE = [
    {"seat": 0, "play": ["3D"]},
    {"seat": 1, "pass": True},
    {"seat": 2, "pass": True},
    {"seat": 3, "pass": True},
]
# Seat 1 (Aoki) leads a new trick with four 6s: a revolution (REFERENCE.md, 革命).
REVOLUTION = {"seat": 0, "play": ["6S", "6H", "6D", "6C"]}
REASON = "誤入力: ♠6♥6♦6♣6 ではなく ♣9"
SIXES = ("6S", "6H", "6D", "6C")
SIX_LABELS = ("♠6", "♥6", "♦6", "♣6")


def submit(game: Game, crew: Crew, move: dict[str, Any]) -> None:
    game.refresh_from_db()
    outcome = submit_move(game, move, game.last_seq + 1, crew.referee)
    assert outcome.ok, (outcome.code, outcome.message_en)


@pytest.fixture
def undone(crew: Crew) -> Game:
    """The revolution played at move 5 and undone (move 6): the sixes are back in seat 1's
    hand."""
    game: Game = GameFactory(table=crew.table, game_number=1, hands=HANDS, leader=0)
    for move in BEFORE:
        submit(game, crew, move)
    submit(game, crew, REVOLUTION)
    game.refresh_from_db()
    assert current_state(game).revolution  # the play was a revolution before its undo
    request_undo(game, crew.referee, REASON, seq=game.last_seq)
    game.refresh_from_db()
    return game


def no_trace(text: str) -> list[str]:
    """What of the withdrawn play `text` shows: its cards (codes or labels), its revolution,
    the referee's note."""
    found = [code for code in SIXES if re.search(rf"(?<![A-Za-z0-9]){code}(?![A-Za-z0-9])", text)]
    found += [label for label in SIX_LABELS if label in text]
    found += [w for w in ("革命！", "革命中", "revolution!", "誤入力") if w in text]
    found += re.findall(r'"kind":\s*"revolution"', text)  # the engine's event
    return found


def public_outputs(client: Client, crew: Crew, game: Game) -> dict[str, str]:
    table = crew.table.pk
    with override_settings(LIVE_FEED_SECONDS=0.0):
        return {
            "live page": client.get(f"/tables/{table}/live/").content.decode(),
            "live fragment": client.get(
                f"/tables/{table}/live/", headers={"hx-request": "true"}
            ).content.decode(),
            "live API": client.get(f"/api/tables/{table}/live/").content.decode(),
            "moves API": client.get(f"/api/games/{game.pk}/moves/").content.decode(),
            "moves API since 4": client.get(
                f"/api/games/{game.pk}/moves/?since=4"
            ).content.decode(),
            "event feed": streamed(client.get(f"/api/tables/{table}/events/")),
        }


@pytest.mark.parametrize("language", ["ja", "en"])
def test_nothing_of_the_undone_revolution_reaches_the_public(
    crew: Crew, undone: Game, language: str
) -> None:
    outputs = public_outputs(browser(language), crew, undone)

    assert {name: no_trace(text) for name, text in outputs.items()} == {
        name: [] for name in outputs
    }


def test_the_public_log_lists_the_moves_that_stand_and_the_undo_without_its_reason(
    client: Client, crew: Crew, undone: Game
) -> None:
    moves = client.get(f"/api/games/{undone.pk}/moves/").json()["moves"]
    live = client.get(f"/api/tables/{crew.table.pk}/live/").json()["game"]

    assert [(m["seq"], m["kind"]) for m in moves] == [
        (1, "action"),
        (2, "action"),
        (3, "action"),
        (4, "action"),
        (6, "undo"),
    ]
    undo = moves[-1]
    assert (undo["ref_seq"], undo["reason"], "reason" in undo["move"]) == (5, "", False)
    assert not any(m["withdrawn"] for m in moves)
    assert [m["seq"] for m in live["recent"]] == [1, 2, 3, 4, 6]
    assert live["state"]["revolution"] is False
    assert live["state"]["counts"] == [5, 2, 2, 2]  # the sixes are back in seat 1's hand


def test_the_live_page_says_a_move_was_taken_back(crew: Crew, undone: Game) -> None:
    page = browser("ja").get(f"/tables/{crew.table.pk}/live/").content.decode()
    events = page[page.index('class="events"') :]

    assert "#6 取り消し<" in events
    assert "#5" not in events and "取り消し済み" not in events


def standing_after_undo(game: Game, crew: Crew) -> list[dict[str, Any]]:
    """Play the game to its end, never four cards at once (the sixes are played another way);
    returns the moves that stand, in order, as this test made them."""
    standing = list(BEFORE)
    for _ in range(100):
        game.refresh_from_db()
        if game.status != Game.Status.IN_PLAY:
            return standing
        legal = list(legal_moves(current_state(game)))
        payloads = [canonical(game, m) for m in legal]
        payload = next((p for p in payloads if 0 < len(p.get("play", [])) < 4), payloads[0])  # type: ignore[arg-type]
        submit(game, crew, payload)
        standing.append(payload)
    raise AssertionError("the game did not end")


def test_the_replay_and_the_record_hold_only_the_moves_that_stand(
    client: Client, crew: Crew, undone: Game
) -> None:
    standing = standing_after_undo(undone, crew)

    record = client.get(f"/api/games/{undone.pk}/record/").json()
    download = json.loads(client.get(f"/games/{undone.pk}/record.json").content)
    lines = streamed(client.get(f"/api/rounds/{crew.table.round_id}/records.jsonl"))
    line = json.loads(lines.splitlines()[0])
    replay = browser("ja").get(f"/games/{undone.pk}/replay/").content.decode()

    assert record["moves"] == standing
    assert download["moves"] == standing and line["record"]["moves"] == standing
    assert line["game"]["replays"] is True
    assert REVOLUTION not in record["moves"]
    # The replay steps over the moves that stand: as many positions, and no revolution.
    assert f"?move={len(standing)}" in replay and f"?move={len(standing) + 1}" not in replay
    assert "革命！" not in replay and "革命中" not in replay
