"""The organiser's stages, settings and leagues pages: htmx forms that answer a refusal with
422 and the explanation on the same target, and work as plain forms too."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from tests.factories import UserFactory
from tournaments import services
from tournaments.models import League, Seat, Stage, Tournament

from .conftest import checked_in
from .stage_scenarios import play_stage, tied_qualifying

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def logged_in(client: Client, organiser: User) -> Client:
    client.force_login(organiser)
    return client


def test_adding_a_cut_from_the_stages_page(
    logged_in: Client, tournament: Tournament, stage: Stage
) -> None:
    checked_in(tournament, 16)
    url = "/organiser/nagoya-open/stages/"

    refused = logged_in.post(url, {"kind": "cut", "advance_top_n": "16"}, **HTMX)
    added = logged_in.post(url, {"kind": "cut", "advance_top_n": "6"}, **HTMX)
    page = logged_in.get(url).content.decode()

    assert refused.status_code == 422
    assert "Top 16 is not a cut" in refused.content.decode()
    assert 'id="stages-body"' in refused.content.decode()
    assert added.status_code == 200
    assert "top 6 by total points" in page
    assert "2 tables of 3" in page  # 6 at tables of 4: the short-table policy, said


def test_editing_a_stage_with_rounds_is_refused_with_its_reason(
    logged_in: Client, tournament: Tournament, stage: Stage, organiser: User
) -> None:
    checked_in(tournament, 8)
    services.add_stage(tournament, organiser, advance_top_n=4)
    services.draw_round(stage, organiser)

    response = logged_in.post(
        f"/organiser/nagoya-open/stages/{stage.pk}/edit/",
        {"name": stage.name, "kind": "qualifying", "advance_top_n": "2"},
        **HTMX,
    )

    assert response.status_code == 422
    assert "already has rounds" in response.content.decode()


def test_the_preview_and_the_playoff_button(
    logged_in: Client,
    tournament: Tournament,
    stage: Stage,
    organiser: User,
    head_referee: User,
) -> None:
    seats = tied_qualifying(tournament, stage, organiser, head_referee)

    preview = logged_in.get(f"/organiser/nagoya-open/stages/{stage.pk}/preview/", **HTMX)
    html = preview.content.decode()
    assert "Tie for 1 place at the cut line" in html
    created = logged_in.post(
        f"/organiser/nagoya-open/stages/{stage.pk}/playoff/",
        {"entry": [e.pk for e in seats[2]]},
        **HTMX,
    )

    assert created.status_code == 200
    assert created["HX-Redirect"].startswith("/organiser/nagoya-open/")
    assert tournament.stages.filter(kind=Stage.Kind.PLAYOFF).count() == 1
    advance = logged_in.get(f"/organiser/nagoya-open/stages/{stage.pk}/advance/")
    assert "The playoff is not finished yet" in advance.content.decode()


def test_settings_page_refuses_per_field_and_saves_the_rest(
    logged_in: Client, tournament: Tournament, stage: Stage, organiser: User
) -> None:
    checked_in(tournament, 8)
    round_ = services.draw_round(stage, organiser)
    services.publish_round(round_, organiser)
    url = "/organiser/nagoya-open/settings/"
    form = logged_in.get(url).context["form"]
    data = {k: v for k, v in form.initial.items() if v is not None}
    data["undo_requires_approval"] = "on" if data.pop("undo_requires_approval") else ""

    refused = logged_in.post(url, {**data, "games_per_set": "2"}, **HTMX)
    saved = logged_in.post(url, {**data, "venue": "Hall B 会場B"})

    assert refused.status_code == 422
    body = refused.content.decode()
    assert "round_published" in body and "A round is published" in body
    assert "公開済みの回戦" not in body  # one language: the English page's
    assert saved.status_code == 200
    assert "Saved" in saved.content.decode()
    tournament.refresh_from_db()
    assert (tournament.venue, tournament.games_per_set) == ("Hall B 会場B", 4)


def test_staff_create_leagues_and_seasons(client: Client, tournament: Tournament) -> None:
    client.force_login(UserFactory(username="staff-a", is_staff=True))

    client.post("/organiser/leagues/new/", {"name": "JDF Cup", "slug": "jdf-cup"}, **HTMX)
    league = League.objects.get(slug="jdf-cup")
    client.post(
        f"/organiser/leagues/{league.pk}/seasons/",
        {f"league-{league.pk}-name": "2026", f"league-{league.pk}-slug": "2026"},
        **HTMX,
    )
    Tournament.objects.filter(pk=tournament.pk).update(season=league.seasons.get())
    page = client.get("/organiser/leagues/").content.decode()

    assert "JDF Cup" in page and "2026" in page and "Nagoya Open" in page
    assert f"/standings/season/{league.seasons.get().pk}/" in page


def test_leagues_are_for_staff(client: Client, organiser: User) -> None:
    client.force_login(organiser)

    assert client.get("/organiser/leagues/").status_code == 403


def test_advancing_with_the_playoff_result_from_the_advance_page(
    logged_in: Client,
    tournament: Tournament,
    stage: Stage,
    organiser: User,
    head_referee: User,
) -> None:
    seats = tied_qualifying(tournament, stage, organiser, head_referee)
    playoff = services.create_playoff(stage, organiser, [e.pk for e in seats[2]])
    dashboard = logged_in.get("/organiser/nagoya-open/").content.decode()
    assert f'id="stage-{playoff.pk}"' in dashboard and "its placings order the tied" in dashboard
    round_ = play_stage(playoff, organiser, head_referee)
    winner = Seat.objects.get(round=round_, position=1).entry

    page = logged_in.get(f"/organiser/nagoya-open/stages/{stage.pk}/advance/").content.decode()
    advanced = logged_in.post(
        f"/organiser/nagoya-open/stages/{stage.pk}/advance/", {"use_playoff": "1"}
    )

    assert "Advance using the playoff result" in page
    assert advanced.status_code == 302
    final = tournament.stages.get(kind=Stage.Kind.FINAL)
    assert set(final.entrants.values_list("entry_id", flat=True)) == {e.pk for e in seats[1]} | {
        winner.pk
    }


def test_a_custom_points_table_from_the_settings_page(
    logged_in: Client, tournament: Tournament
) -> None:
    url = "/organiser/nagoya-open/settings/"
    form = logged_in.get(url).context["form"]
    data = {k: v for k, v in form.initial.items() if v is not None}
    data.pop("undo_requires_approval")
    custom = {**data, "points_preset": "custom", "places_4": "5 3 1 0", "places_5": ""}

    missing = logged_in.post(url, {**custom, "places_3": ""}, **HTMX)
    saved = logged_in.post(
        url, {**custom, "places_3": "4 2 0", "last_game_bonus": "1:2", "tie_breaks": "points"}
    )

    assert missing.status_code == 422
    assert "points_table_invalid" in missing.content.decode()
    assert saved.status_code == 200
    tournament.refresh_from_db()
    assert tournament.points_table == {
        "preset": "custom",
        "places": {"3": [4, 2, 0], "4": [5, 3, 1, 0]},
        "last_game_bonus": {"1": 2},
        "tie_breaks": ["points"],
    }


def test_the_set_up_pages_speak_japanese_to_a_japanese_browser(
    client_ja: Client, tournament: Tournament, stage: Stage, organiser: User
) -> None:
    client_ja.force_login(organiser)
    checked_in(tournament, 8)

    stages = client_ja.get("/organiser/nagoya-open/stages/").content.decode()
    refused = client_ja.post(
        "/organiser/nagoya-open/stages/", {"kind": "cut", "advance_top_n": "8"}, **HTMX
    ).content.decode()
    settings = client_ja.get("/organiser/nagoya-open/settings/").content.decode()

    assert "ステージ・勝ち上がり" in stages and "ステージを追加" in stages
    assert "Stages and cuts" not in stages and "Add a stage" not in stages
    assert "総合上位N名" in stages and "Top N by total points" not in stages
    assert "参加者は 8 名です" in refused and "[top_n_too_large]" in refused
    assert "is not a cut" not in refused
    assert "<h1>設定</h1>" in settings and "大富豪の回数が多い" in settings
    assert "JDF公式ではありません" in settings and "not JDF" not in settings
    assert "1セットのゲーム数" in settings and "Games a set" not in settings
    assert "Save settings" not in settings and "Nothing changed" not in settings


def test_the_leagues_page_speaks_japanese_to_a_japanese_browser(client_ja: Client) -> None:
    client_ja.force_login(UserFactory(username="staff-j", is_staff=True))

    client_ja.post("/organiser/leagues/new/", {"name": "JDF Cup", "slug": "jdf-cup"})
    page = client_ja.get("/organiser/leagues/").content.decode()

    assert "リーグ・シーズン" in page and "リーグを作成" in page and "名前を変更" in page
    assert "Leagues and seasons" not in page and "New league" not in page
    assert "Rename" not in page and "Season standings" not in page
