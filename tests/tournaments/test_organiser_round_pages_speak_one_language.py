"""The organiser's round pages (dashboard, round, progress, advance, paper, table and PIN cards)
speak the page's language only: Japanese to a Japanese browser, English to an English one,
never both side by side; refusals that carry both wordings show the page's one."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from games import services as game_services
from games.models import Game
from tests.factories import UserFactory
from tournaments import services
from tournaments.models import Official, Round, Stage, Tournament

from .conftest import checked_in

pytestmark = pytest.mark.django_db


@pytest.fixture
def drawn(tournament: Tournament, stage: Stage, organiser: User) -> Round:
    """A published round of two tables, a referee at the first, one quick result recorded."""
    checked_in(tournament, 8)
    round_ = services.draw_round(stage, organiser)
    services.publish_round(round_, organiser)
    referee = UserFactory(username="ref-ito", first_name="Ito Hana")
    services.add_official_user(tournament, organiser, username="ref-ito", role="referee")
    table = round_.tables.get(number=1)
    services.assign_referee(table, organiser, referee)
    game = game_services.start_game(table, referee, mode=Game.Mode.QUICK)
    game_services.record_quick_result(game, referee, [0, 1, 2, 3])
    return round_


def page(client: Client, organiser: User, url: str) -> str:
    client.force_login(organiser)
    response = client.get(url)
    assert response.status_code == 200
    return response.content.decode()


def test_dashboard_in_japanese(client_ja: Client, organiser: User, drawn: Round) -> None:
    html = page(client_ja, organiser, "/organiser/nagoya-open/")
    assert "ステージと回戦" in html and "次の回戦を抽選" in html and "第1回戦" in html
    assert "Stages and rounds" not in html and "Draw next round" not in html


def test_dashboard_in_english(client: Client, organiser: User, drawn: Round) -> None:
    html = page(client, organiser, "/organiser/nagoya-open/")
    assert "Stages and rounds" in html and "Draw next round" in html and "Round 1" in html
    assert "ステージと回戦" not in html and "次の回戦を抽選" not in html
    assert "未完了のまま抽選" not in html and "Draw before round 1 is complete" in html


def test_the_format_counts_games_and_sets_in_words(
    client: Client, client_ja: Client, organiser: User, tournament: Tournament
) -> None:
    tournament.games_per_set, tournament.sets_per_round = 4, 1
    tournament.save()

    english = page(client, organiser, "/organiser/nagoya-open/")
    assert "4 games a set · 1 set a round" in english and "1 sets" not in english
    japanese = page(client_ja, organiser, "/organiser/nagoya-open/")
    assert "1セット4ゲーム · 1回戦1セット" in japanese


def test_round_page_in_japanese(client_ja: Client, organiser: User, drawn: Round) -> None:
    html = page(client_ja, organiser, f"/organiser/nagoya-open/rounds/{drawn.pk}/")
    assert "未確定のゲーム" in html and "卓カードを印刷" in html and "1卓" in html
    assert "1卓 第1セット 第1ゲーム：終了・未確定" in html  # the blocker, in Japanese only
    assert "1卓:抽選による組み合わせ。" in html and "random draw" not in html
    assert "Games to settle" not in html and "Print table cards" not in html
    assert "Table 1, set 1, game 1" not in html
    url = f"/organiser/nagoya-open/rounds/{drawn.pk}/?confirm=complete"
    confirm = page(client_ja, organiser, url)
    assert "この回戦を完了しますか" in confirm and "はい、完了します" in confirm
    assert "Yes, complete round" not in confirm


def test_round_page_in_english_asks_before_each_step(
    client: Client, organiser: User, drawn: Round
) -> None:
    html = page(client, organiser, f"/organiser/nagoya-open/rounds/{drawn.pk}/?confirm=reveal")
    assert "Reveal the seed?" in html and "Yes, reveal seed" in html
    assert "Table 1, set 1, game 1: finished, not confirmed" in html
    assert "シード" not in html and "未確定" not in html


def test_round_step_refusal_is_in_the_page_language(
    client_ja: Client, organiser: User, drawn: Round
) -> None:
    client_ja.force_login(organiser)
    url = f"/organiser/nagoya-open/rounds/{drawn.pk}/complete/"
    html = client_ja.post(url, follow=True).content.decode()
    assert "未確定のゲームが" in html
    assert "not settled yet" not in html


def test_progress_in_japanese(client_ja: Client, organiser: User, drawn: Round) -> None:
    html = page(client_ja, organiser, f"/organiser/nagoya-open/rounds/{drawn.pk}/progress/")
    assert "全2卓中 0卓終了・0卓対局中・1卓確認待ち" in html
    assert "確認待ち" in html and "未開始" in html and ">確定</button>" in html
    assert "tables done" not in html and "not started" not in html
    assert "Confirm</button>" not in html


def test_progress_confirm_says_so_in_the_page_language(
    client_ja: Client, organiser: User, drawn: Round
) -> None:
    client_ja.force_login(organiser)
    game = Game.objects.get(table__round=drawn, table__number=1)
    url = f"/organiser/nagoya-open/rounds/{drawn.pk}/progress/games/{game.pk}/confirm/"
    html = client_ja.post(url, HTTP_HX_REQUEST="true").content.decode()
    assert "1卓 第1セット第1ゲームを確定しました。" in html
    assert "confirmed." not in html


def test_paper_and_cards_in_japanese(client_ja: Client, organiser: User, drawn: Round) -> None:
    base = f"/organiser/nagoya-open/rounds/{drawn.pk}"
    sheets = page(client_ja, organiser, f"{base}/score-sheets/")
    assert "記録用紙" in sheets and "第1セット" in sheets and "反則あがり" in sheets
    assert "Score sheets" not in sheets and "Foul finish" not in sheets
    results = page(client_ja, organiser, f"{base}/results-sheet/")
    assert "暫定" in results and "1位" in results and "未確定 1件" in results
    assert "PROVISIONAL" not in results and "1st" not in results
    cards = page(client_ja, organiser, f"{base}/cards/")
    assert "卓カード" in cards and "選手用" in cards and "回戦に戻る" in cards
    assert "Table cards" not in cards and "Back to the round" not in cards


def test_results_sheet_in_english(client: Client, organiser: User, drawn: Round) -> None:
    html = page(client, organiser, f"/organiser/nagoya-open/rounds/{drawn.pk}/results-sheet/")
    assert "PROVISIONAL" in html and "1st" in html and "1 game not confirmed" in html
    assert "暫定" not in html and "1位" not in html


def test_advance_page_in_japanese(
    client_ja: Client, organiser: User, tournament: Tournament, stage: Stage
) -> None:
    stage.advance_top_n = 2
    stage.save()
    services.add_stage(tournament, organiser, name="Final", kind=Stage.Kind.FINAL)
    checked_in(tournament, 4)
    html = page(client_ja, organiser, f"/organiser/nagoya-open/stages/{stage.pk}/advance/")
    assert "進出処理" in html and "同点順位" in html and "通過ラインで残り2枠に同点" in html
    assert "Tie for 2 places" not in html and "Tie-break order" not in html
    english = page(Client(headers={"accept-language": "en"}), organiser,
                   f"/organiser/nagoya-open/stages/{stage.pk}/advance/")  # fmt: skip
    assert "Tie for 2 places at the cut line" in english and "進出処理" not in english


def test_pin_cards_in_japanese(client_ja: Client, organiser: User, tournament: Tournament) -> None:
    services.add_official_person(tournament, organiser, display_name="Ueda Ken", role="referee")
    assert tournament.officials.filter(role=Official.Role.REFEREE).exists()
    client_ja.force_login(organiser)
    response = client_ja.post("/organiser/nagoya-open/officials/pin-cards/", {"hours": "72"})
    html = response.content.decode()
    assert "PINカード" in html and "今すぐ印刷してください" in html and "サインイン名" in html
    assert "Print now" not in html and "Sign-in name" not in html
