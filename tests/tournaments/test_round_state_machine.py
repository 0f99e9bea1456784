"""A round is a state machine: draft → published → in play → complete → revealed (→ closed).

Each step is taken only when it may be, and every refusal says why in English and Japanese,
with a stable code; a refused step changes nothing.
"""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.test import Client

from games import services as games
from games.models import Game
from tests.factories import play_round_quickly
from tournaments import services
from tournaments.models import AuditEntry, Round, Stage, Tournament
from tournaments.selectors import round_blockers

from .conftest import checked_in

pytestmark = pytest.mark.django_db


@pytest.fixture
def one_game_a_round(tournament: Tournament) -> Tournament:
    """One set of two games a round keeps every table's games few."""
    tournament.games_per_set, tournament.sets_per_round = 2, 1
    tournament.save()
    return tournament


@pytest.fixture
def published(one_game_a_round: Tournament, stage: Stage, organiser: User) -> Round:
    checked_in(one_game_a_round, 8)  # two tables of four
    return services.publish_round(services.draw_round(stage, organiser), organiser)


def status_of(round_: Round) -> str:
    return Round.objects.values_list("status", flat=True).get(pk=round_.pk)


def test_the_first_game_started_puts_a_published_round_in_play(
    published: Round, organiser: User
) -> None:
    assert status_of(published) == "published"

    games.start_game(published.tables.get(number=1), organiser, mode=Game.Mode.QUICK)

    assert status_of(published) == "in_play"


def test_the_seed_cannot_be_revealed_while_a_game_blocks_the_round_and_each_blocker_is_named(
    published: Round, organiser: User, head_referee: User
) -> None:
    table1 = published.tables.get(number=1)
    finished = games.start_game(table1, organiser, mode=Game.Mode.QUICK)
    games.record_quick_result(finished, organiser, [0, 1, 2, 3])  # not confirmed
    games.start_game(table1, organiser, mode=Game.Mode.QUICK)  # in play
    # Table 2 has not started.

    with pytest.raises(services.RoundBlocked) as refused:
        services.reveal_round_seed(published, organiser)

    blockers = [(b.table, b.set_number, b.game_number, b.code) for b in refused.value.blockers]
    assert blockers == [
        (1, 1, 1, "unconfirmed"),
        (1, 1, 2, "in_play"),
        (2, 1, 1, "not_started"),
        (2, 1, 2, "not_started"),
    ]
    assert refused.value.code == "round_not_settled"
    assert "4 game(s)" in refused.value.message_en
    assert "未確定のゲームが 4 件" in refused.value.message_ja
    assert "Table 1, set 1, game 2: in play" in [b.message_en for b in refused.value.blockers]
    assert status_of(published) == "in_play"
    assert Round.objects.get(pk=published.pk).revealed_seed is None
    assert not AuditEntry.objects.filter(action=AuditEntry.Action.SEED_REVEALED).exists()


def test_a_pending_undo_and_a_void_awaiting_its_redeal_block_the_round(
    published: Round, organiser: User, head_referee: User
) -> None:
    published.stage.tournament.undo_requires_approval = True
    published.stage.tournament.save()
    referee = User.objects.create(username="floor-referee")
    services.add_official(published.stage.tournament, organiser, referee, "referee")
    table1, table2 = published.tables.order_by("number")
    table1.referee = referee
    table1.save()
    game = games.start_game(table1, referee, mode=Game.Mode.KNOWN_DEAL)
    state = games.current_state(game)
    from games.engine import legal_moves
    from games.state import canonical

    games.submit_move(game, canonical(game, next(iter(legal_moves(state)))), 1, referee)
    games.request_undo(game, referee, "wrong card tapped")
    misdealt = games.start_game(table2, organiser, mode=Game.Mode.QUICK)
    games.void_game(misdealt, head_referee, reason="misdeal", redeal=True)

    codes = {(b.table, b.game_number): b.code for b in round_blockers(published)}

    assert codes[(1, 1)] == "undo_pending"
    assert codes[(2, 1)] == "redeal_pending"


def test_a_round_whose_games_are_all_settled_completes_then_reveals(
    published: Round, organiser: User, head_referee: User
) -> None:
    play_round_quickly(published, organiser, head_referee)

    services.complete_round(published, organiser)
    assert status_of(published) == "complete"
    assert Round.objects.get(pk=published.pk).revealed_seed is None

    services.reveal_round_seed(published, organiser)
    revealed = Round.objects.get(pk=published.pk)
    assert revealed.status == "revealed"
    assert revealed.revealed_seed == published.seed_secret
    assert revealed.completed_at is not None and revealed.revealed_at is not None
    assert list(AuditEntry.objects.filter(round=published).values_list("action", flat=True)) == [
        "seed_revealed",
        "round_completed",
    ]


def test_revealing_a_round_in_play_whose_games_are_settled_completes_it_on_the_way(
    published: Round, organiser: User, head_referee: User
) -> None:
    play_round_quickly(published, organiser, head_referee)

    services.reveal_round_seed(published, organiser)

    revealed = Round.objects.get(pk=published.pk)
    assert (revealed.status, revealed.completed_at is not None) == ("revealed", True)


def test_a_complete_round_accepts_no_new_game_no_move_and_no_result_change(
    published: Round, organiser: User, head_referee: User
) -> None:
    played = play_round_quickly(published, organiser, head_referee)
    services.complete_round(published, organiser)
    table = published.tables.get(number=1)
    last = Game.objects.get(pk=played[-1].pk)  # type: ignore[attr-defined]

    with pytest.raises(games.GameError) as no_game:
        games.start_game(table, organiser)
    with pytest.raises(games.GameError) as no_undo:
        games.request_undo(last, organiser, "changed my mind")
    with pytest.raises(games.GameError) as no_void:
        games.void_game(last, head_referee, reason="late complaint", redeal=True)
    outcome = games.submit_move(last, {"seat": 0, "pass": True}, last.last_seq + 1, organiser)

    assert no_game.value.code == "round_settled"
    assert "correction" in no_game.value.message_en and "訂正" in no_game.value.message_ja
    assert no_undo.value.code == "game_confirmed"
    assert no_void.value.code == "round_settled"
    assert not outcome.ok
    assert Game.objects.filter(table__round=published).count() == len(played)


def test_complete_and_reveal_are_the_organisers_steps(
    published: Round, organiser: User, head_referee: User
) -> None:
    play_round_quickly(published, organiser, head_referee)

    with pytest.raises(PermissionDenied):
        services.complete_round(published, head_referee)
    with pytest.raises(PermissionDenied):
        services.reveal_round_seed(published, head_referee)
    assert status_of(published) == "in_play"


def test_only_a_revealed_round_closes_and_only_once(
    published: Round, organiser: User, head_referee: User
) -> None:
    play_round_quickly(published, organiser, head_referee)
    services.complete_round(published, organiser)

    with pytest.raises(services.DomainError) as too_early:
        services.close_round(published, organiser)
    services.reveal_round_seed(published, organiser)
    services.close_round(published, organiser)
    with pytest.raises(services.DomainError) as twice:
        services.close_round(published, organiser)

    assert too_early.value.code == "round_not_revealed"
    assert twice.value.code == "already_closed"
    assert Round.objects.get(pk=published.pk).is_closed


def test_steps_out_of_order_are_refused_with_a_code(
    one_game_a_round: Tournament, stage: Stage, organiser: User, head_referee: User
) -> None:
    checked_in(one_game_a_round, 4)
    draft = services.draw_round(stage, organiser)

    with pytest.raises(services.DomainError) as reveal_draft:
        services.reveal_round_seed(draft, organiser)
    with pytest.raises(services.DomainError) as complete_draft:
        services.complete_round(draft, organiser)
    with pytest.raises(games.GameError) as play_draft:
        games.start_game(draft.tables.get(), organiser)
    services.publish_round(draft, organiser)
    play_round_quickly(draft, organiser, head_referee)
    services.reveal_round_seed(draft, organiser)
    with pytest.raises(services.DomainError) as reveal_twice:
        services.reveal_round_seed(draft, organiser)
    with pytest.raises(services.DomainError) as complete_revealed:
        services.complete_round(draft, organiser)

    assert reveal_draft.value.code == "round_draft"
    assert complete_draft.value.code == "round_not_in_play"
    assert play_draft.value.code == "round_draft"
    assert reveal_twice.value.code == "already_revealed"
    assert complete_revealed.value.code == "round_not_in_play"


def test_the_next_round_is_drawn_only_after_the_previous_one_is_complete(
    published: Round, organiser: User, head_referee: User
) -> None:
    stage = published.stage
    with pytest.raises(services.DomainError) as refused:
        services.draw_round(stage, organiser)
    assert refused.value.code == "previous_round_not_complete"

    play_round_quickly(published, organiser, head_referee)
    services.complete_round(published, organiser)
    second = services.draw_round(stage, organiser)

    assert second.number == 2
    assert not AuditEntry.objects.filter(action=AuditEntry.Action.DRAW_OVERRIDE).exists()


def test_drawing_over_an_open_round_takes_an_audited_reason(
    published: Round, organiser: User
) -> None:
    with pytest.raises(services.DomainError):
        services.draw_round(published.stage, organiser, override_reason="   ")

    second = services.draw_round(
        published.stage, organiser, override_reason="table 2 disputed; hall booked until 17:00"
    )

    override = AuditEntry.objects.get(action=AuditEntry.Action.DRAW_OVERRIDE)
    assert (override.round, override.actor) == (second, organiser)
    assert override.reason == "table 2 disputed; hall booked until 17:00"
    assert override.data == {"open_rounds": [1]}


def test_the_api_refuses_an_early_reveal_with_the_blocking_games(
    published: Round, organiser: User, client: Client
) -> None:
    client.force_login(organiser)

    response = client.post(f"/api/rounds/{published.pk}/reveal/")

    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "round_not_settled"
    assert body["message_ja"].startswith("シードを公開できません")
    assert [(b["table"], b["game_number"], b["code"]) for b in body["blockers"]] == [
        (1, 1, "not_started"),
        (1, 2, "not_started"),
        (2, 1, "not_started"),
        (2, 2, "not_started"),
    ]
    assert client.get(f"/api/rounds/{published.pk}/").json()["seed"] is None


def test_a_refused_round_step_is_kept_for_the_officials(
    published: Round, organiser: User, head_referee: User, client: Client
) -> None:
    from games.models import RejectedSubmission

    with pytest.raises(services.RoundBlocked):
        services.reveal_round_seed(published, organiser)
    with pytest.raises(PermissionDenied):
        services.complete_round(published, head_referee)
    with pytest.raises(services.DomainError):
        services.draw_round(published.stage, organiser)

    kept = list(
        RejectedSubmission.objects.order_by("pk").values_list("action", "code", "actor__username")
    )
    assert kept == [
        ("reveal", "round_not_settled", "organiser-a"),
        ("complete", "forbidden", "head-referee-a"),
        ("draw", "previous_round_not_complete", "organiser-a"),
    ]
    reveal = RejectedSubmission.objects.get(action="reveal")
    assert (reveal.round, reveal.table, reveal.tournament) == (
        published,
        None,
        published.stage.tournament,
    )
    assert "シードを公開できません" in reveal.message_ja
    client.force_login(head_referee)
    page = client.get(f"/organiser/{published.stage.tournament.slug}/audit/").content.decode()
    assert "round_not_settled" in page and "previous_round_not_complete" in page


def test_the_admin_takes_the_same_steps_through_the_same_services(
    published: Round, organiser: User, head_referee: User, admin_client: Client
) -> None:
    url = "/admin/tournaments/round/"

    refused = admin_client.post(
        url,
        {"action": "complete_round", "_selected_action": [published.pk]},
        follow=True,
        headers={"accept-language": "en"},
    )
    assert "not settled yet" in refused.content.decode()
    assert status_of(published) == "published"

    play_round_quickly(published, organiser, head_referee)
    admin_client.post(url, {"action": "complete_round", "_selected_action": [published.pk]})
    admin_client.post(url, {"action": "reveal_round_seed", "_selected_action": [published.pk]})
    admin_client.post(url, {"action": "close_round", "_selected_action": [published.pk]})

    closed = Round.objects.get(pk=published.pk)
    assert (closed.status, closed.is_closed) == ("revealed", True)
