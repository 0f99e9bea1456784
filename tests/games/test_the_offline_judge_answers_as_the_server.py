"""The console's offline judge (games/offline.py, run in the browser under Pyodide) is the
server's: the seed the page carries replays to the server's game, a tap judged offline gets
the code and the words the server gives the same tap, and a legal one is stored as the same
move. Only the table's officials get the seed: it holds every hand."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client

from games import offline, services
from games.models import Game, RejectedSubmission
from games.offline_views import offline_seed
from games.state import rebuild
from tests.factories import OfficialFactory, UserFactory, seated_table

from .conftest import T17_HANDS, T17_MOVES, Crew

pytestmark = pytest.mark.django_db


def seed_of(client: Client, crew: Crew) -> dict[str, Any]:
    response = client.get(f"/referee/tables/{crew.table.pk}/offline/")
    assert response.status_code == 200
    seed: dict[str, Any] = response.json()
    return seed


def judge(seed: dict[str, Any], form: dict[str, list[str]], queued: list[Any] = ()) -> Any:  # type: ignore[assignment]
    return json.loads(
        offline.judge(json.dumps(seed["record"]), json.dumps(queued), json.dumps(form))
    )


def test_the_seed_replays_to_the_servers_game(client: Client, crew: Crew, t17_game: Game) -> None:
    for seq, move in enumerate(T17_MOVES[:3], start=1):
        assert services.submit_move(t17_game, move, seq, crew.referee).ok
    client.force_login(crew.referee)

    seed = seed_of(client, crew)
    view = json.loads(offline.state_view(json.dumps(seed["record"]), "[]"))

    server = rebuild(Game.objects.get(pk=t17_game.pk))
    assert seed["last_seq"] == 3 and seed["game"] == t17_game.pk
    assert view["turn"] == server.turn == 3
    assert view["counts"] == list(server.counts)
    assert [c["code"] for c in view["table"]["cards"]] == ["JK"]
    assert [s["name"] for s in seed["seats"]] == ["Aoki", "Baba", "Chiba", "Doi"]
    assert [line["seq"] for line in seed["log"]] == [1, 2, 3]


def test_an_undone_move_is_not_in_the_seed_but_its_number_is_taken(
    client: Client, crew: Crew, t17_game: Game
) -> None:
    assert services.submit_move(t17_game, T17_MOVES[0], 1, crew.referee).ok
    assert services.submit_move(t17_game, T17_MOVES[1], 2, crew.referee).ok
    services.request_undo(t17_game, crew.head_referee, "wrong card entered", seq=2)
    client.force_login(crew.referee)

    seed = seed_of(client, crew)

    assert seed["record"]["moves"] == [T17_MOVES[0]]
    assert seed["last_seq"] == 3  # the undo row is move 3: the phone's next move is 4


def test_an_illegal_tap_gets_the_servers_code_and_both_languages(
    client: Client, crew: Crew, t17_game: Game
) -> None:
    client.force_login(crew.referee)
    seed = seed_of(client, crew)
    out_of_turn = {"seq": ["1"], "seat": ["2"], "cards": ["JK"], "action": ["play"]}

    offline_answer = judge(seed, out_of_turn)
    client.post(f"/referee/tables/{crew.table.pk}/play/", out_of_turn, HTTP_HX_REQUEST="true")

    refused = RejectedSubmission.objects.get(game=t17_game)
    assert offline_answer["ok"] is False
    assert offline_answer["code"] == refused.code == "not_your_turn"
    assert offline_answer["message_ja"] == refused.message_ja
    assert offline_answer["message_en"] == refused.message_en


def test_a_legal_tap_is_stored_as_the_move_judged_offline(
    client: Client, crew: Crew, t17_game: Game
) -> None:
    client.force_login(crew.referee)
    seed = seed_of(client, crew)
    taps = [
        {"seq": ["1"], "seat": ["0"], "cards_text": ["♦5"], "action": ["play"]},
        {"seq": ["2"], "seat": ["1"], "action": ["pass"]},
    ]

    judged = []
    for tap in taps:
        answer = judge(seed, tap, [j["move"] for j in judged])
        assert answer["ok"], answer
        judged.append(answer)
        client.post(f"/referee/tables/{crew.table.pk}/play/", tap, HTTP_HX_REQUEST="true")

    stored = list(Game.objects.get(pk=t17_game.pk).moves.order_by("seq"))
    assert [row.payload for row in stored] == [j["move"] for j in judged]
    assert judged[0]["move"] == {"seat": 0, "play": ["5D"]}


def test_queued_moves_judged_again_on_a_game_that_moved_on(crew: Crew, t17_game: Game) -> None:
    """The phone queued 5D then 2C; meanwhile the server took 5D and 2C from another device
    and the joker on top: both queued moves are refused now, by name."""
    for seq, move in enumerate(T17_MOVES[:3], start=1):
        assert services.submit_move(t17_game, move, seq, crew.referee).ok
    game = Game.objects.get(pk=t17_game.pk)
    fresh = offline_seed(game, list(game.moves.order_by("seq")), [], crew.table.pk)

    verdicts = json.loads(
        offline.rebase(json.dumps(fresh["record"]), json.dumps([*T17_MOVES[:1], T17_MOVES[3]]))
    )

    assert [v["ok"] for v in verdicts] == [False, True]
    assert verdicts[0]["code"] == "not_your_turn"
    assert verdicts[1]["move"] == T17_MOVES[3]


@pytest.mark.parametrize("who", ["other_referee", "outsider_organiser"])
def test_only_the_tables_officials_get_the_seed(
    client: Client, crew: Crew, t17_game: Game, who: str
) -> None:
    client.force_login(getattr(crew, who))

    response = client.get(f"/referee/tables/{crew.table.pk}/offline/")

    assert response.status_code == 403
    assert T17_HANDS[0][0] not in response.content.decode()


def test_a_visitor_is_sent_to_log_in(client: Client, crew: Crew, t17_game: Game) -> None:
    response = client.get(f"/referee/tables/{crew.table.pk}/offline/")

    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_the_console_page_carries_the_seed(client: Client, crew: Crew, t17_game: Game) -> None:
    client.force_login(crew.referee)

    page = client.get(f"/referee/tables/{crew.table.pk}/").content.decode()

    assert 'id="offline-seed"' in page
    assert seed_of(client, crew)["record"]["hands"] == T17_HANDS


def test_a_quick_result_is_judged_offline_as_the_server_judges_it(
    client: Client, crew: Crew
) -> None:
    first = services.start_game(crew.table, crew.referee, mode=Game.Mode.QUICK)
    services.record_quick_result(first, crew.referee, [0, 1, 2, 3])
    second = services.start_game(crew.table, crew.referee, mode=Game.Mode.QUICK)
    client.force_login(crew.referee)
    seed = seed_of(client, crew)
    # Seat 1 went out first while seat 0, the 大富豪, still held cards: 都落ち must be marked.
    form = {"outcome_0": ["clean-4"], "outcome_1": ["clean-1"], "outcome_2": ["clean-2"],
            "outcome_3": ["clean-3"]}  # fmt: skip

    refused = json.loads(offline.judge_quick(json.dumps(seed["quick"]), json.dumps(form)))
    page = client.post(f"/referee/tables/{crew.table.pk}/quick/", form, HTTP_HX_REQUEST="true")

    assert seed["game"] == second.pk and seed["mode"] == "quick"
    assert refused["code"] == "quick_miyako_missing"
    assert refused["message_en"] in page.content.decode()
    form["outcome_0"] = ["miyako"]
    form["outcome_3"] = ["clean-3"]
    accepted = json.loads(offline.judge_quick(json.dumps(seed["quick"]), json.dumps(form)))
    assert accepted["result"] == {"finishing_order": [1, 2, 3], "fouls": [], "miyako_ochi": 0}
    client.post(f"/referee/tables/{crew.table.pk}/quick/", form, HTTP_HX_REQUEST="true")
    stored = {r.seat: r.place for r in Game.objects.get(pk=second.pk).results.all()}
    assert stored == {p["seat"]: p["place"] for p in accepted["placings"]}


def test_a_first_quick_game_at_a_table_of_three_is_judged_offline(client: Client) -> None:
    """A quick game needs no deal the engine can start (an open table, no leader named): its
    result is still judged on the phone."""
    referee = UserFactory(username="ref-three")
    table = seated_table(referee, names=("Aoki", "Baba", "Chiba"))
    OfficialFactory(tournament=table.round.stage.tournament, user=referee, role="referee")
    game = services.start_game(table, referee, mode=Game.Mode.QUICK)
    client.force_login(referee)

    seed = client.get(f"/referee/tables/{table.pk}/offline/").json()
    form = {"outcome_0": ["clean-2"], "outcome_1": ["clean-1"], "outcome_2": ["clean-3"]}
    answer = json.loads(offline.judge_quick(json.dumps(seed["quick"]), json.dumps(form)))

    assert seed["game"] == game.pk and seed["record"] is None
    assert answer["ok"] and answer["result"]["finishing_order"] == [1, 0, 2]
    incomplete = json.loads(offline.judge_quick(json.dumps(seed["quick"]), json.dumps({})))
    assert incomplete["code"] == "quick_missing_place"
