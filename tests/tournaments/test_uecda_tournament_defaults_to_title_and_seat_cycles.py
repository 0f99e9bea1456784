"""A tournament created under the UECda preset resets titles every 100 games and changes seats
every 3 (the reference server's constants); every other preset never does within a set. The
organiser sees and edits both settings, the API and the public page show them."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.factories import UserFactory, browser
from tournaments import services
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db
JSON = "application/json"


def create(ruleset: str, slug: str, **settings: int | None) -> Tournament:
    staff = UserFactory(username="staff-organiser", is_staff=True)
    return services.create_tournament_from_preset(
        actor=staff, name=f"{ruleset} cup", slug=slug, ruleset=ruleset, **settings
    )


def test_a_uecda_tournament_resets_titles_every_100_games_and_changes_seats_every_3() -> None:
    cup = create("uecda@1", "uecda-cup")

    assert (cup.title_reset_every, cup.seat_change_every) == (100, 3)


@pytest.mark.parametrize("ruleset", ["jdf@1", "gekijo@1", "local@1"])
def test_other_presets_never_reset_titles_nor_change_seats(ruleset: str) -> None:
    cup = create(ruleset, "other-cup")

    assert (cup.title_reset_every, cup.seat_change_every) == (None, None)


def test_the_organiser_may_create_a_uecda_tournament_with_other_cycles() -> None:
    cup = create("uecda@1", "uecda-short", title_reset_every=None, seat_change_every=5)

    assert (cup.title_reset_every, cup.seat_change_every) == (None, 5)


def test_a_uecda_match_of_100_games_a_set_is_possible() -> None:
    cup = create("uecda@1", "uecda-long", games_per_set=100)
    staff = cup.officials.get().user

    changed = services.update_tournament_settings(cup, staff, games_per_set=200)

    assert cup.games_per_set == 200 and "games_per_set" in changed.changed


def test_the_settings_page_shows_and_saves_both_cycles(client: Client) -> None:
    cup = create("uecda@1", "uecda-page")
    client.force_login(cup.officials.get().user)
    url = f"/organiser/{cup.slug}/settings/"
    page = client.get(url, headers={"accept-language": "en"})
    form = page.context["form"]
    data = {k: v for k, v in form.initial.items() if v is not None}
    data["undo_requires_approval"] = "on" if data.pop("undo_requires_approval") else ""

    saved = client.post(url, {**data, "title_reset_every": "", "seat_change_every": "4"})

    assert form.initial["title_reset_every"] == 100 and form.initial["seat_change_every"] == 3
    assert "Titles reset every (games)" in page.content.decode()
    assert saved.status_code == 200
    cup.refresh_from_db()
    assert (cup.title_reset_every, cup.seat_change_every) == (None, 4)


def test_the_api_shows_and_changes_both_cycles(client: Client) -> None:
    cup = create("uecda@1", "uecda-api")
    client.force_login(cup.officials.get().user)

    shown = client.get(f"/api/tournaments/{cup.slug}/").json()
    changed = client.patch(f"/api/tournaments/{cup.slug}/", {"seat_change_every": None}, JSON)

    assert (shown["title_reset_every"], shown["seat_change_every"]) == (100, 3)
    assert changed.status_code == 200
    assert changed.json()["changed"]["seat_change_every"] == {"old": 3, "new": None}


def test_the_public_page_says_when_titles_reset_and_seats_change() -> None:
    cup = create("uecda@1", "uecda-public")
    Tournament.objects.filter(pk=cup.pk).update(status=Tournament.Status.REGISTRATION)

    english = browser("en").get(f"/tournaments/{cup.slug}/").content.decode()
    japanese = browser("ja").get(f"/tournaments/{cup.slug}/").content.decode()

    assert "titles reset every 100 games (階級リセット)" in english
    assert "seats change every 3 games (席替え)" in english
    assert "100ゲームごとに階級リセット" in japanese and "3ゲームごとに席替え" in japanese
