"""What the public pages say: points that include provisional results carry a marker
("6 pts (1 provisional 暫定)"); deductions and warnings have their columns; the board lists
the scope's rounds with their status (in play 対局中 / complete 完了 / seed revealed) and
refreshes when one changes; a result the organiser corrected after the seed reveal is flagged
(公開後訂正) on the board and the player's page."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client

from games import services
from games.models import Game
from scoring.standings import ScopeRef, recompute_tournament, standings_version
from tests.factories import finished_game
from tests.games.conftest import Crew
from tests.scoring.conftest import Cup, seat_round
from tournaments import services as tournament_services
from tournaments.models import Penalty, Tournament


def test_points_with_provisional_results_are_marked(cup: Cup, client: Client) -> None:
    (table,) = seat_round(cup.stage, cup.entries[:4])
    aoki, baba, chiba, doi = cup.entries[:4]
    finished_game(table, [baba, aoki, chiba, doi], game_number=1, confirmed=True)
    finished_game(table, [baba, chiba, aoki, doi], game_number=2)
    recompute_tournament(cup.tournament.pk)

    board = client.get("/standings/nagoya-open/").content.decode()
    embed = client.get("/embed/nagoya-open/").content.decode()

    assert "6 pts</span> <small" in board and "(1 provisional 暫定)" in board
    assert "includes provisional results 暫定結果を含む" in board
    assert "(1 provisional 暫定)" in embed


def test_deductions_and_warnings_have_their_columns(cup: Cup, client: Client) -> None:
    (table,) = seat_round(cup.stage, cup.entries[:4])
    doi = cup.entries[3]
    finished_game(table, cup.entries[:4], confirmed=True)
    for kind, points in (("deduction", 2), ("warning", 0)):
        Penalty.objects.create(
            tournament=cup.tournament, entry=doi, kind=kind, points=points, reason="late"
        )
    recompute_tournament(cup.tournament.pk)

    html = client.get("/standings/nagoya-open/").content.decode()

    assert 'Deduction <span lang="ja">減点</span>' in html
    assert 'Warnings <span lang="ja">警告</span>' in html
    doi_row = html.split(">Doi</a>", 1)[1].split("</tr>", 1)[0]
    assert "−2" in doi_row and "-2 pts" in doi_row


@pytest.fixture
def short_rounds(crew: Crew) -> Tournament:
    """The crew's tournament with one game per round, so a round is quickly played."""
    Tournament.objects.filter(pk=crew.tournament.pk).update(sets_per_round=1, games_per_set=1)
    crew.tournament.refresh_from_db()
    return crew.tournament


def _statuses(html: str) -> list[str]:
    return [part.split('"', 1)[0] for part in html.split('class="round-status" data-status="')[1:]]


def test_the_board_lists_the_rounds_and_refreshes_when_one_completes(
    crew: Crew,
    short_rounds: Tournament,
    client: Client,
    django_capture_on_commit_callbacks: Callable[..., Any],
) -> None:
    url = f"/standings/{short_rounds.slug}/"
    with django_capture_on_commit_callbacks(execute=True):
        game = services.start_game(crew.table, crew.referee, mode=Game.Mode.QUICK)
        services.record_quick_result(game, crew.referee, [1, 0, 2, 3])
    in_play = client.get(url).content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        services.confirm_game(game, crew.head_referee)
    seen = standings_version(ScopeRef.tournament(short_rounds.pk))

    with django_capture_on_commit_callbacks(execute=True):
        tournament_services.complete_round(crew.table.round, crew.organiser)
    poll = client.get(f"{url}?v={seen}", headers={"HX-Request": "true"})
    with django_capture_on_commit_callbacks(execute=True):
        tournament_services.reveal_round_seed(crew.table.round, crew.organiser)
    revealed = client.get(url).content.decode()

    assert _statuses(in_play) == ["in_play"]
    assert 'in play <span lang="ja">対局中</span>' in in_play
    # Completing the round changes no points, yet the polling board is sent again.
    assert poll.status_code == 200
    assert _statuses(poll.content.decode()) == ["complete"]
    assert 'complete <span lang="ja">完了</span>' in poll.content.decode()
    assert "all complete 全回戦完了" in poll.content.decode()
    assert _statuses(revealed) == ["revealed"]
    assert "seed revealed" in revealed


def test_a_result_corrected_after_the_reveal_is_flagged(
    crew: Crew,
    short_rounds: Tournament,
    client: Client,
    django_capture_on_commit_callbacks: Callable[..., Any],
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        game = services.start_game(crew.table, crew.referee, mode=Game.Mode.QUICK)
        services.record_quick_result(game, crew.referee, [1, 0, 2, 3])
        services.confirm_game(game, crew.head_referee)
        tournament_services.reveal_round_seed(crew.table.round, crew.organiser)
    before = client.get(f"/standings/{short_rounds.slug}/").content.decode()

    with django_capture_on_commit_callbacks(execute=True):
        services.correct_result(
            game,
            crew.organiser,
            finishing_order=[0, 1, 2, 3],
            reason="score sheet misread 記入ミス",
            based_on_version=1,
        )
    board = client.get(f"/standings/{short_rounds.slug}/").content.decode()
    embed = client.get(f"/embed/{short_rounds.slug}/").content.decode()
    aoki = crew.table.seats.get(position=1).entry.player
    player = client.get(f"/players/{aoki.pk}/").content.decode()

    assert "公開後訂正" not in before
    assert 'Corrected after the seed reveal <span lang="ja">公開後訂正</span>' in board
    assert "table 1, set 1, game 1" in board
    assert "公開後訂正" in embed
    assert "corrected after reveal 公開後訂正" in player


def test_the_player_page_marks_provisional_results_and_deductions(cup: Cup, client: Client) -> None:
    (table,) = seat_round(cup.stage, cup.entries[:4])
    aoki, baba, chiba, doi = cup.entries[:4]
    finished_game(table, [baba, aoki, chiba, doi], game_number=1, confirmed=True)
    finished_game(table, [baba, chiba, aoki, doi], game_number=2)
    Penalty.objects.create(
        tournament=cup.tournament, entry=baba, kind="deduction", points=1, reason="late"
    )

    html = client.get(f"/players/{baba.player_id}/").content.decode()

    assert "5 points (1 provisional 暫定)" in html
    assert "Deduction 減点: −1 point(s)" in html
    assert html.count('<span class="badge" title="not confirmed by a second official yet">') == 1
