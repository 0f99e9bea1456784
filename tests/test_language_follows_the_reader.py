"""A page speaks its reader's language (issue #13): a signed-in person's saved choice, else the
choice made with the header's switch (the language cookie), else the browser's
Accept-Language, else Japanese. Dates are written the local way: 2026年12月20日(日) on a
Japanese page, Sun 20 Dec 2026 on an English one."""

from __future__ import annotations

import datetime
import re

import pytest
from django.conf import settings
from django.test import Client

from tests.factories import TournamentFactory, UserFactory, browser
from tournaments.models import LanguagePreference, Tournament

pytestmark = pytest.mark.django_db

PASSWORD = "correct horse battery"  # UserFactory's
LANG = re.compile(r'<html lang="([a-z-]+)">')


def language_of(client: Client, path: str = "/tournaments/") -> str:
    response = client.get(path)
    assert response.status_code == 200, (path, response.status_code)
    found = LANG.search(response.content.decode())
    assert found, f"{path} has no <html lang=…>"
    return found.group(1)


def log_in(client: Client, username: str) -> None:
    """Sign in through the log-in page, as a person does (the saved language is restored
    when they sign in)."""
    response = client.post("/accounts/login/", {"username": username, "password": PASSWORD})
    assert response.status_code == 302, response.content.decode()[:500]


def switch_language(client: Client, language: str, next_page: str) -> None:
    """The header's switch: a form POST to /language/ that comes back to the page."""
    response = client.post("/language/", {"language": language, "next": next_page})
    assert response.status_code == 302
    assert response["Location"] == next_page
    assert client.cookies[settings.LANGUAGE_COOKIE_NAME].value == language


# --- the browser's language -------------------------------------------------------------------


def test_a_browser_that_asks_for_nothing_gets_japanese() -> None:
    page = Client().get("/tournaments/").content.decode()

    assert '<html lang="ja">' in page
    assert "大会" in page


def test_a_browser_that_asks_for_english_gets_english() -> None:
    page = browser("en").get("/tournaments/").content.decode()

    assert '<html lang="en">' in page
    assert "<h1>Tournaments</h1>" in page


def test_a_japanese_phone_gets_japanese() -> None:
    phone = Client(headers={"accept-language": "ja-JP,ja;q=0.9"})

    assert language_of(phone) == "ja"


def test_a_browser_preferring_english_over_japanese_gets_english() -> None:
    laptop = Client(headers={"accept-language": "en-GB,en;q=0.9,ja;q=0.5"})

    assert language_of(laptop) == "en"


# --- the header's switch ----------------------------------------------------------------------


def test_the_switch_sets_the_cookie_and_outranks_the_browser() -> None:
    japanese_phone = browser("ja")
    assert language_of(japanese_phone) == "ja"

    switch_language(japanese_phone, "en", "/tournaments/")

    assert language_of(japanese_phone) == "en"
    assert language_of(japanese_phone, "/standings/") == "en"
    switch_language(japanese_phone, "ja", "/standings/")
    assert language_of(japanese_phone, "/standings/") == "ja"


def test_the_switch_works_the_other_way_for_an_english_browser() -> None:
    laptop = browser("en")

    switch_language(laptop, "ja", "/tournaments/")

    assert language_of(laptop) == "ja"


def test_every_page_offers_the_switch_naming_each_language_in_its_own_words() -> None:
    page = browser("en").get("/tournaments/").content.decode()

    assert 'data-testid="language-switch"' in page
    assert 'action="/language/"' in page
    assert 'name="next" value="/tournaments/"' in page
    for code, name in (("ja", "日本語"), ("en", "English")):
        assert re.search(rf'name="language" value="{code}" lang="{code}"[^>]*>{name}<', page)


def test_an_anonymous_switch_saves_no_preference() -> None:
    switch_language(browser("ja"), "en", "/tournaments/")

    assert not LanguagePreference.objects.exists()


def test_an_unknown_language_changes_nothing() -> None:
    phone = browser("ja")

    phone.post("/language/", {"language": "fr", "next": "/tournaments/"})

    assert language_of(phone) == "ja"
    assert not LanguagePreference.objects.exists()


# --- a signed-in person's choice follows them -------------------------------------------------


def test_a_signed_in_choice_follows_the_person_to_another_browser() -> None:
    UserFactory(username="sato")
    laptop = browser("ja")
    log_in(laptop, "sato")

    switch_language(laptop, "en", "/tournaments/")

    assert LanguagePreference.objects.get(user__username="sato").language == "en"
    assert language_of(laptop) == "en"
    # A new phone, set to Japanese, with no cookie: signing in brings the choice back.
    phone = browser("ja")
    assert language_of(phone) == "ja"
    log_in(phone, "sato")
    assert settings.LANGUAGE_COOKIE_NAME not in phone.cookies
    assert language_of(phone) == "en"
    assert language_of(phone, "/organiser/") == "en"


def test_choosing_again_while_signed_in_replaces_the_saved_choice() -> None:
    UserFactory(username="yamamoto")
    laptop = browser("en")
    log_in(laptop, "yamamoto")

    switch_language(laptop, "en", "/tournaments/")
    switch_language(laptop, "ja", "/tournaments/")

    assert LanguagePreference.objects.get(user__username="yamamoto").language == "ja"
    assert language_of(laptop) == "ja"
    english_laptop = browser("en")
    log_in(english_laptop, "yamamoto")
    assert language_of(english_laptop) == "ja"


def test_someone_who_never_chose_follows_their_browser_after_signing_in() -> None:
    UserFactory(username="suzuki")
    phone = browser("en")

    log_in(phone, "suzuki")

    assert language_of(phone) == "en"
    assert not LanguagePreference.objects.exists()


def test_signing_out_leaves_the_saved_choice_with_the_account() -> None:
    UserFactory(username="kimura")
    laptop = browser("ja")
    log_in(laptop, "kimura")
    switch_language(laptop, "en", "/tournaments/")

    laptop.post("/accounts/logout/")

    assert LanguagePreference.objects.get(user__username="kimura").language == "en"
    # The session went with the sign-out; the cookie of this browser still says English.
    assert language_of(laptop) == "en"
    assert language_of(browser("ja")) == "ja"


# --- dates, the local way ---------------------------------------------------------------------


@pytest.fixture
def cup() -> Tournament:
    return TournamentFactory(
        name="革命杯", slug="kakumei-cup", starts_on=datetime.date(2026, 12, 20)
    )


def test_a_tournament_date_in_japanese_has_the_weekday(cup: Tournament) -> None:
    page = browser("ja").get("/tournaments/kakumei-cup/").content.decode()

    assert "2026年12月20日(日)" in page
    assert "Dec" not in page


def test_a_tournament_date_in_english_reads_day_month_year(cup: Tournament) -> None:
    page = browser("en").get("/tournaments/kakumei-cup/").content.decode()

    assert "Sun 20 Dec 2026" in page
    assert "2026年" not in page


def test_the_tournament_list_dates_follow_the_language_too(cup: Tournament) -> None:
    assert "2026年12月20日(日)" in Client().get("/tournaments/").content.decode()
    assert "Sun 20 Dec 2026" in browser("en").get("/tournaments/").content.decode()
