"""A scorer device runs a table through the REST API alone, with one device token scoped to
table 1: it reads the table, starts a known-deal game and records it move by move, starts the
next game as a quick result and records it; an official confirms through the API; anyone reads
the standings. The same token is refused on table 2, and no answer shows a hand before the
game ends."""

from __future__ import annotations

import json
from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any

import pytest
from django.test import Client

from games import services as games
from games.auth import issue_device_token
from games.engine import card_names, legal_moves
from games.models import Game
from games.state import canonical
from tests.factories import EntryFactory, OfficialFactory, UserFactory, browser
from tournaments import services
from tournaments.models import Entry, Official, Tournament

pytestmark = pytest.mark.django_db

Capture = Callable[..., AbstractContextManager[list[Callable[[], None]]]]


def held_cards(game: Game) -> set[str]:
    """The codes of cards still held — but the joker: the deck has two, so "JK" in a read may
    be the other one, played already."""
    state = games.current_state(game)
    held = {code for seat in range(game.seats) for code in card_names(state.hands[seat])}
    return held - {"JK"}


def test_a_scorer_device_runs_table_one_end_to_end(
    client: Client, django_capture_on_commit_callbacks: Capture
) -> None:
    organiser = UserFactory(username="org-api", is_staff=True)
    cup = services.create_tournament_from_preset(
        actor=organiser, name="API Cup", slug="api-cup", games_per_set=2
    )
    cup.status = Tournament.Status.REGISTRATION
    cup.save()
    for number in range(1, 9):
        EntryFactory(tournament=cup, number=number, status=Entry.Status.CHECKED_IN)
    head = UserFactory(username="head-api")
    referee1 = UserFactory(username="ref-api-1")
    referee2 = UserFactory(username="ref-api-2")
    OfficialFactory(tournament=cup, user=head, role=Official.Role.HEAD_REFEREE)
    OfficialFactory(tournament=cup, user=referee1, role=Official.Role.REFEREE)
    OfficialFactory(tournament=cup, user=referee2, role=Official.Role.REFEREE)
    with django_capture_on_commit_callbacks(execute=True):  # committed, as on the day
        round_ = services.publish_round(services.draw_round(cup.stages.get(), organiser), organiser)
    table1, table2 = round_.tables.order_by("number")
    services.assign_referee(table1, organiser, referee1)
    services.assign_referee(table2, organiser, referee2)

    _, raw = issue_device_token(referee1, "scorer", tournament=cup, table_number=1)
    device = Client(HTTP_AUTHORIZATION=f"Token {raw}")

    def post(url: str, body: dict[str, Any]) -> Any:
        with django_capture_on_commit_callbacks(execute=True):
            return device.post(url, body, content_type="application/json")

    # 1. The table: its seats, nothing played yet, game 1 of set 1 next.
    table = device.get(f"/api/tables/{table1.pk}/").json()
    assert [s["position"] for s in table["seats"]] == [1, 2, 3, 4]
    board = device.get(f"/api/tables/{table1.pk}/games/").json()
    assert board["games"] == [] and board["current_game"] is None
    assert board["next_game"] == {
        "set_number": 1,
        "game_number": 1,
        "attempt": 1,
        "seating": [1, 2, 3, 4],
        "seat_change": False,
        "title_reset": False,
    }

    # 2. Start game 1 as a known deal; starting again while it is in play is a 409 with its id.
    started = post(f"/api/tables/{table1.pk}/games/", {"mode": "known_deal"})
    assert started.status_code == 201, started.content
    game_id = started.json()["id"]
    assert (started.json()["set_number"], started.json()["game_number"]) == (1, 1)
    again = post(f"/api/tables/{table1.pk}/games/", {"mode": "known_deal"})
    assert again.status_code == 409
    assert again.json()["code"] == "game_in_play" and again.json()["game_id"] == game_id

    # 3. Moves until the game ends (the scorer sees the real cards; the test asks the engine).
    game = Game.objects.get(pk=game_id)
    hidden_checked = False
    over = False
    for _ in range(400):
        state = games.current_state(game)
        moves = list(legal_moves(state))
        move = next((m for m in moves if not m.is_pass), moves[0])
        answer = post(
            f"/api/games/{game_id}/moves/",
            {"seq": game.last_seq + 1, "move": canonical(game, move)},
        )
        assert answer.status_code == 201, answer.content
        game.refresh_from_db()
        if not hidden_checked and game.last_seq == 5:
            # Mid-game: no read of this API shows a card still held.
            held = held_cards(game)
            reads = "".join(
                device.get(url).content.decode()
                for url in (
                    f"/api/tables/{table1.pk}/",
                    f"/api/tables/{table1.pk}/games/",
                    f"/api/tables/{table1.pk}/live/",
                    f"/api/games/{game_id}/moves/",
                )
            )
            assert held and not any(f'"{code}"' in reads for code in held)
            hidden_checked = True
        if answer.json()["game_over"]:
            over = True
            break
    assert over and hidden_checked

    board = device.get(f"/api/tables/{table1.pk}/games/").json()
    first = board["current_game"]
    assert first["id"] == game_id and first["status"] == "finished" and first["provisional"]
    assert sorted(r["place"] for r in first["results"]) == [1, 2, 3, 4]
    assert board["next_game"] == {
        "set_number": 1,
        "game_number": 2,
        "attempt": 1,
        "seating": [1, 2, 3, 4],
        "seat_change": False,
        "title_reset": False,
    }

    # 4. Game 2 as a quick result: the 大富豪 of game 1 finishes first again (no 都落ち).
    quick = post(f"/api/tables/{table1.pk}/games/", {"mode": "quick"})
    assert quick.status_code == 201, quick.content
    quick_id = quick.json()["id"]
    assert quick.json()["mode"] == "quick" and quick.json()["game_number"] == 2
    order = [r["seat"] for r in first["results"]]
    recorded = post(f"/api/games/{quick_id}/quick-result/", {"finishing_order": order})
    assert recorded.status_code == 201, recorded.content
    assert [r["seat"] for r in recorded.json()["results"]] == order
    # Each result: the family-neutral team and detail, and detail's values as fields of their
    # own, as clients of 大富豪-only results read them.
    winner = recorded.json()["results"][0]
    assert winner["team"] is None
    assert winner["detail"] == {"title": "daifugo", "foul": False, "miyako_ochi": False}
    assert (winner["title"], winner["foul"], winner["miyako_ochi"]) == ("daifugo", False, False)

    # 5. The head referee confirms both results through the API (their own session).
    official = browser()
    official.force_login(head)
    for confirmed_id in (game_id, quick_id):
        with django_capture_on_commit_callbacks(execute=True):
            confirmed = official.post(
                f"/api/games/{confirmed_id}/confirm/", {}, content_type="application/json"
            )
        assert confirmed.status_code == 200, confirmed.content
        assert confirmed.json()["status"] == "confirmed"

    # 6. The standings count both games of table 1's players, nothing provisional.
    standings = browser().get(f"/api/tournaments/{cup.slug}/standings/").json()
    seated = {s["entry_number"] for s in table["seats"]}
    rows = {row["entry"]: row for row in standings["results"]}
    assert {n for n, row in rows.items() if row["games"] == 2} == seated
    assert not any(row["provisional"] for row in standings["results"])
    first_points = {r["entry_number"]: r["points"] for r in first["results"]}
    quick_points = {r["entry_number"]: r["points"] for r in recorded.json()["results"]}
    assert {n: rows[n]["points"] for n in seated} == {
        n: first_points[n] + quick_points[n] for n in seated
    }
    # The metrics 大富豪 declares, as one object and as fields of their own.
    assert all(row["metrics"]["daifugo"] == row["daifugo"] for row in standings["results"])
    assert sum(row["metrics"]["daifugo"] for row in standings["results"]) == 2
    ranks = [row["rank"] for row in standings["results"]]
    assert ranks == sorted(ranks) and ranks[0] == 1

    # 7. The same token is refused at table 2 (403), which stays untouched.
    refused = post(f"/api/tables/{table2.pk}/games/", {"mode": "quick"})
    assert refused.status_code == 403
    assert refused.json()["code"] == "permission_denied"
    assert not table2.games.exists()
    assert json.loads(device.get(f"/api/tables/{table2.pk}/games/").content)["games"] == []
