"""What the public pages say: points that include provisional results carry a marker
("6 pts (1 provisional)" / 「6点 (1 暫定)」); deductions and warnings have their columns; the
board lists the scope's rounds with their status (in play / complete / seed revealed) and
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
from tests.factories import browser, finished_game
from tests.games.conftest import Crew
from tests.scoring.conftest import Cup, seat_round
from tournaments import services as tournament_services
from tournaments.models import Penalty, Tournament


def test_points_with_provisional_results_are_marked(
    cup: Cup, client: Client, client_ja: Client
) -> None:
    (table,) = seat_round(cup.stage, cup.entries[:4])
    aoki, baba, chiba, doi = cup.entries[:4]
    finished_game(table, [baba, aoki, chiba, doi], game_number=1, confirmed=True)
    finished_game(table, [baba, chiba, aoki, doi], game_number=2)
    recompute_tournament(cup.tournament.pk)

    board = client.get("/standings/nagoya-open/").content.decode()
    embed = client.get("/embed/nagoya-open/").content.decode()

    assert "6 pts</span> <small" in board and "(1 provisional)" in board
    assert "includes provisional results" in board and "暫定" not in board
    assert "(1 provisional)" in embed
    board_ja = client_ja.get("/standings/nagoya-open/").content.decode()
    embed_ja = client_ja.get("/embed/nagoya-open/").content.decode()
    assert "6点</span> <small" in board_ja and "(1 暫定)" in board_ja
    assert "暫定結果を含む" in board_ja and "includes provisional results" not in board_ja
    assert "(1 暫定)" in embed_ja and "provisional)" not in embed_ja


def test_deductions_and_warnings_have_their_columns(
    cup: Cup, client: Client, client_ja: Client
) -> None:
    (table,) = seat_round(cup.stage, cup.entries[:4])
    doi = cup.entries[3]
    finished_game(table, cup.entries[:4], confirmed=True)
    for kind, points in (("deduction", 2), ("warning", 0)):
        Penalty.objects.create(
            tournament=cup.tournament, entry=doi, kind=kind, points=points, reason="late"
        )
    recompute_tournament(cup.tournament.pk)

    html = client.get("/standings/nagoya-open/").content.decode()

    assert ">Deduction</th>" in html and ">Warnings</th>" in html
    doi_row = html.split(">Doi</a>", 1)[1].split("</tr>", 1)[0]
    assert "−2" in doi_row and "-2 pts" in doi_row
    japanese = client_ja.get("/standings/nagoya-open/").content.decode()
    assert ">減点</th>" in japanese and ">警告</th>" in japanese
    assert ">大富豪</th>" in japanese and ">富豪</th>" in japanese
    assert "Deduction" not in japanese and "Warnings" not in japanese


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
    assert '<span class="badge round-in_play">in play</span>' in in_play
    # Completing the round changes no points, yet the polling board is sent again.
    assert poll.status_code == 200
    assert _statuses(poll.content.decode()) == ["complete"]
    assert '<span class="badge round-complete">complete</span>' in poll.content.decode()
    assert ">all complete</span>" in poll.content.decode()
    assert _statuses(revealed) == ["revealed"]
    assert "seed revealed" in revealed
    japanese = browser("ja").get(url).content.decode()
    assert '<span class="badge round-revealed">完了・シード公開</span>' in japanese
    assert "seed revealed" not in japanese


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

    assert "Corrected after the seed reveal" not in before
    assert "Corrected after the seed reveal:" in board
    assert "table 1, set 1, game 1" in board
    assert "Corrected after the seed reveal:" in embed
    assert ">corrected after reveal</span>" in player
    japanese = browser("ja")
    board_ja = japanese.get(f"/standings/{short_rounds.slug}/").content.decode()
    player_ja = japanese.get(f"/players/{aoki.pk}/").content.decode()
    assert "公開後訂正" in board_ja and "1卓 第1セット 第1ゲーム" in board_ja
    assert "Corrected after the seed reveal" not in board_ja
    assert ">公開後訂正</span>" in player_ja and "corrected after reveal" not in player_ja


def test_the_player_page_marks_provisional_results_and_deductions(
    cup: Cup, client: Client, client_ja: Client
) -> None:
    (table,) = seat_round(cup.stage, cup.entries[:4])
    aoki, baba, chiba, doi = cup.entries[:4]
    finished_game(table, [baba, aoki, chiba, doi], game_number=1, confirmed=True)
    finished_game(table, [baba, chiba, aoki, doi], game_number=2)
    Penalty.objects.create(
        tournament=cup.tournament, entry=baba, kind="deduction", points=1, reason="late"
    )

    html = client.get(f"/players/{baba.player_id}/").content.decode()

    assert "5 points (1 provisional)" in html
    assert "Deduction: −1 point" in html
    assert html.count('<span class="badge" title="not confirmed by a second official yet">') == 1
    japanese = client_ja.get(f"/players/{baba.player_id}/").content.decode()
    assert "5点(1 暫定)" in japanese and "減点：−1点" in japanese
    assert ">大富豪<" in japanese and "Grand millionaire" not in japanese
    assert "provisional)" not in japanese and "Deduction" not in japanese
