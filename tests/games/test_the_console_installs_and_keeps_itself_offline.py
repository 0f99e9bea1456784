"""The 大富豪 console as an installable app that opens without a network (issue #19): the
service worker at /referee/sw.js (scope /referee/) keeps every file the offline console needs,
under a cache name that changes with them, and the manifest names the app in the reader's
language. Only the 大富豪 console page loads the offline script and links the manifest."""

from __future__ import annotations

import json
import re

import pytest
from django.contrib.staticfiles import finders
from django.templatetags.static import static
from django.test import Client
from django.urls import reverse

from games import offline_views
from tests.factories import GameFactory, OfficialFactory, UserFactory, seated_table
from tournaments.models import Official

pytestmark = pytest.mark.django_db


def worker(client: Client) -> tuple[str, dict[str, str]]:
    response = client.get(reverse("referee:service-worker"))
    assert response.status_code == 200
    return response.content.decode(), dict(response.headers)


def precached(source: str) -> list[str]:
    match = re.search(r"const PRECACHE = (\[.*?\]);", source)
    assert match, source[:400]
    return list(json.loads(match.group(1)))


def test_the_service_worker_is_served_fresh_from_the_referees_pages(client: Client) -> None:
    source, headers = worker(client)
    assert reverse("referee:service-worker") == "/referee/sw.js"
    assert headers["Content-Type"].startswith("application/javascript")
    assert headers["Cache-Control"] == "no-cache"
    assert "{%" not in source and "{{" not in source


def test_the_service_worker_keeps_every_file_the_offline_console_needs(client: Client) -> None:
    urls = precached(worker(client)[0])
    for name in ("site.css", "htmx-errors.js", "offline.js", "favicon.svg"):
        assert any(url.endswith(f"/kakumei/{name}") for url in urls), name
    assert any("htmx" in url and url.endswith(".js") and "kakumei" not in url for url in urls)
    for name in (*offline_views.PYODIDE_FILES, "pyodide.mjs"):
        assert any(url.endswith(f"/pyodide/{name}") for url in urls), name
    assert reverse("referee:offline-engine") in urls
    assert reverse("referee:manifest") in urls
    # Every one of them is there to be kept (a file missing here would be missing offline).
    static_url = static("")
    for url in urls:
        if url.startswith(static_url):
            assert finders.find(url.removeprefix(static_url)), url
        else:
            assert client.get(url).status_code == 200, url


def test_a_new_deploy_gets_a_new_cache(client: Client) -> None:
    urls = offline_views.precache_urls()
    assert offline_views.cache_version(urls) == offline_views.cache_version(list(urls))
    moved = [url.replace("site.css", "site.0123abcd.css") for url in urls]
    assert offline_views.cache_version(moved) != offline_views.cache_version(urls)
    assert f'"kakumei-offline-{offline_views.cache_version(urls)}"' in worker(client)[0]


def test_the_manifest_names_the_app_in_the_readers_language(client_ja: Client) -> None:
    response = client_ja.get(reverse("referee:manifest"))
    assert response.status_code == 200
    assert response.headers["Content-Type"] == "application/manifest+json"
    manifest = json.loads(response.content)
    assert manifest["name"] == "革命 審判"
    assert (manifest["start_url"], manifest["scope"]) == ("/referee/", "/referee/")
    assert manifest["display"] == "standalone"
    assert manifest["icons"][0]["sizes"] == "any"
    assert manifest["icons"][0]["type"] == "image/svg+xml"


def test_only_the_daifugo_console_loads_the_offline_mode(client: Client) -> None:
    referee = UserFactory(username="ito")
    table = seated_table(referee)
    OfficialFactory(
        tournament=table.round.stage.tournament, user=referee, role=Official.Role.REFEREE
    )
    GameFactory(table=table, game_number=1)
    client.force_login(referee)
    console = client.get(reverse("referee:table", args=[table.pk])).content.decode()
    assert f'<link rel="manifest" href="{reverse("referee:manifest")}">' in console
    assert "kakumei/offline.js" in console
    assert 'id="offline-seed"' in console
    home = client.get(reverse("referee:home")).content.decode()
    assert "kakumei/offline.js" not in home


def test_a_site_without_pyodide_still_serves_its_console_and_worker(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Production's manifest storage refuses to name a file it does not have: without npm's
    packages the console and the worker still answer, and the phone says the engine is
    unavailable offline."""
    served = offline_views.static

    def without_pyodide(path: str) -> str:
        if path.startswith("pyodide/"):
            raise ValueError(f"Missing staticfiles manifest entry for '{path}'")
        return served(path)

    monkeypatch.setattr(offline_views, "static", without_pyodide)
    urls = precached(worker(client)[0])
    assert not [url for url in urls if "/pyodide/" in url]
    assert reverse("referee:offline-engine") in urls
    referee = UserFactory(username="ito")
    table = seated_table(referee)
    OfficialFactory(
        tournament=table.round.stage.tournament, user=referee, role=Official.Role.REFEREE
    )
    GameFactory(table=table, game_number=1)
    client.force_login(referee)
    response = client.get(reverse("referee:table", args=[table.pk]))
    assert response.status_code == 200
    assert 'data-pyodide=""' in response.content.decode()
