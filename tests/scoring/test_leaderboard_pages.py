"""Public leaderboards, their live polling, exports, the embed and player pages."""

from __future__ import annotations

import csv
import io

from django.test import Client

from scoring.models import RecomputeRun
from scoring.standings import recompute_tournament
from tests.factories import browser, finished_game
from tests.scoring.conftest import Cup, seat_round
from tournaments.models import League, Season, Stage, Tournament


def _played(cup: Cup) -> None:
    (table,) = seat_round(cup.stage, cup.entries[:4])
    aoki, baba, chiba, doi = cup.entries[:4]
    finished_game(table, [baba, aoki, chiba, doi], game_number=1, confirmed=True)
    finished_game(table, [baba, chiba, aoki, doi], game_number=2, confirmed=True)
    recompute_tournament(cup.tournament.pk)


def test_the_tournament_board_lists_ranks_and_points(cup: Cup, client: Client) -> None:
    _played(cup)

    page = client.get("/standings/nagoya-open/")

    assert page.status_code == 200
    html = page.content.decode()
    # Baba 6, Aoki and Chiba 3 each (one 富豪, one 貧民, best set 3: shared), Doi 0.
    assert html.index("Baba") < html.index("Aoki") < html.index("Chiba") < html.index("Doi")
    assert "hx-trigger=\"every 5s [document.visibilityState === 'visible']\"" in html
    assert "?v=1" in html


def test_a_poll_with_the_current_version_gets_an_empty_answer(cup: Cup, client: Client) -> None:
    _played(cup)

    same = client.get("/standings/nagoya-open/?v=1", headers={"HX-Request": "true"})
    stale = client.get("/standings/nagoya-open/?v=0", headers={"HX-Request": "true"})

    assert (same.status_code, same.content) == (204, b"")
    assert stale.status_code == 200
    assert b'id="board"' in stale.content and b"<html" not in stale.content


def test_a_draft_tournament_has_no_public_board(cup: Cup, client: Client) -> None:
    Tournament.objects.filter(pk=cup.tournament.pk).update(status="draft")

    for url in (
        "/standings/nagoya-open/",
        "/standings/nagoya-open/standings.csv",
        "/embed/nagoya-open/",
    ):
        assert client.get(url).status_code == 404


def test_csv_and_json_exports(cup: Cup, client: Client) -> None:
    _played(cup)

    text = client.get("/standings/nagoya-open/standings.csv").content.decode("utf-8-sig")
    data = client.get("/standings/nagoya-open/standings.json").json()

    rows = list(csv.DictReader(io.StringIO(text)))
    assert [(r["rank"], r["shared"], r["player"], r["points"]) for r in rows[:4]] == [
        ("1", "No", "Baba", "6"),
        ("2", "Yes", "Aoki", "3"),
        ("2", "Yes", "Chiba", "3"),
        ("4", "No", "Doi", "0"),
    ]
    assert data["version"] == 1
    assert {"player": "Baba", "daifugo": 2, "best_set": 6}.items() <= data["standings"][0].items()


def test_the_stage_board_shows_the_cut_line(cup: Cup, client: Client) -> None:
    Stage.objects.filter(pk=cup.stage.pk).update(advance_top_n=1)
    _played(cup)

    html = client.get(f"/standings/nagoya-open/stage/{cup.stage.pk}/").content.decode()

    assert "top 1 by total points" in html
    assert html.count('class="advancing cut-line"') == 1
    japanese = browser("ja").get(f"/standings/nagoya-open/stage/{cup.stage.pk}/").content.decode()
    assert "カット：総合上位1名" in japanese and "top 1 by total points" not in japanese


def test_the_embed_can_be_framed_and_has_no_site_chrome(cup: Cup, client: Client) -> None:
    _played(cup)

    embed = client.get("/embed/nagoya-open/")
    board = client.get("/standings/nagoya-open/")

    assert "X-Frame-Options" not in embed.headers
    assert board.headers["X-Frame-Options"] == "DENY"
    assert b"site-header" not in embed.content and b"Baba" in embed.content


def test_the_player_page_has_history_and_an_svg_chart(cup: Cup, client: Client) -> None:
    _played(cup)
    baba = cup.entries[1].player

    html = client.get(f"/players/{baba.pk}/").content.decode()

    assert "<svg" in html and "<polyline" in html
    assert "6 points after 2 games" in html
    japanese = browser("ja").get(f"/players/{baba.pk}/").content.decode()
    assert "2ゲーム終了時点で6点" in japanese and "points after" not in japanese
    assert ">得点推移</figcaption>" in japanese and "Points progression" not in japanese


def test_the_csv_headers_are_in_the_pages_language(cup: Cup, client_ja: Client) -> None:
    _played(cup)

    text = client_ja.get("/standings/nagoya-open/standings.csv").content.decode("utf-8-sig")

    header = next(csv.reader(io.StringIO(text)))
    assert header[:4] == ["順位", "同順位", "参加番号", "選手"]
    assert "rank" not in header and "points" not in header


def test_the_index_and_embed_speak_japanese_to_a_japanese_browser(
    cup: Cup, client_ja: Client
) -> None:
    _played(cup)

    index = client_ja.get("/standings/").content.decode()
    embed = client_ja.get("/embed/nagoya-open/").content.decode()

    assert "<h1>順位</h1>" in index and "<h1>Standings</h1>" not in index
    assert '<html lang="ja">' in embed and "<th>選手</th>" in embed
    assert "<th>Player</th>" not in embed and "full standings" not in embed


def test_the_season_board(cup: Cup, client: Client) -> None:
    season = Season.objects.create(
        league=League.objects.create(name="Chubu", slug="chubu"), name="2026", slug="2026"
    )
    Tournament.objects.filter(pk=cup.tournament.pk).update(season=season)
    _played(cup)

    data = client.get(f"/standings/season/{season.pk}/standings.json").json()

    assert [(r["player"], r["points"]) for r in data["standings"]] == [
        ("Baba", 6),
        ("Aoki", 3),
        ("Chiba", 3),
        ("Doi", 0),
    ]


def test_organisers_see_recompute_progress_and_start_one(
    cup: Cup, client: Client, django_capture_on_commit_callbacks
) -> None:
    _played(cup)
    client.force_login(cup.organiser)

    with django_capture_on_commit_callbacks(execute=True):
        client.post("/organiser/nagoya-open/scoring/recompute/")
    page = client.get("/organiser/nagoya-open/scoring/")

    run = RecomputeRun.objects.get()
    # Tournament and its one stage: two scopes, both already up to date.
    assert (run.status, run.done, run.total, run.changed) == ("done", 2, 2, 0)
    assert b"2/2" in page.content
    assert b'<button type="submit">Recompute now</button>' in page.content
    japanese = browser("ja")
    japanese.force_login(cup.organiser)
    html = japanese.get("/organiser/nagoya-open/scoring/").content.decode()
    assert '<button type="submit">今すぐ再集計</button>' in html and "Recompute now" not in html
    assert "<legend>Webhookを追加</legend>" in html and "Add a webhook" not in html


def test_other_organisers_do_not_find_the_scoring_page(cup: Cup, client: Client) -> None:
    from tests.factories import OfficialFactory, UserFactory

    stranger = UserFactory(username="org-elsewhere")
    OfficialFactory(user=stranger)
    client.force_login(stranger)

    assert client.get("/organiser/nagoya-open/scoring/").status_code == 404
    assert client.post("/organiser/nagoya-open/scoring/recompute/").status_code == 404
