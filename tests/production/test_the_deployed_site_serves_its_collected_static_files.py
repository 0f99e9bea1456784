"""Deployed (gunicorn, `DEBUG=False`, static files collected with the manifest storage and served
by WhiteNoise), pages name their static files by hashed names that load, compressed for a
browser that asks, cached for a year; the referee console's service worker and manifest answer,
and every file the worker keeps for offline use is there to be kept (it answered 500: issue #36).
"""

from __future__ import annotations

import gzip
import json
import re
import urllib.error
import urllib.request

import pytest

from tests.production.conftest import Production

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


def fetch(url: str, **headers: str) -> tuple[int, dict[str, str], bytes]:
    request = urllib.request.Request(url, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, dict(answer.headers), answer.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


def test_pages_name_hashed_static_files_that_load_compressed_and_long_cached(
    production: Production,
) -> None:
    status, _, body = fetch(production.origin + "/")
    assert status == 200
    html = body.decode()
    css = re.search(r'href="(/static/kakumei/site\.[0-9a-f]{12}\.css)"', html)
    assert css, "the home page does not name the hashed stylesheet"

    status, headers, compressed = fetch(production.origin + css.group(1), **{
        "Accept-Encoding": "gzip"})  # fmt: skip
    assert status == 200
    assert headers.get("Content-Encoding") == "gzip"
    assert "max-age=315360000" in headers["Cache-Control"]  # WhiteNoise: hashed, immutable
    status, _, plain = fetch(production.origin + css.group(1))
    assert status == 200 and gzip.decompress(compressed) == plain
    assert b"--" in plain  # a stylesheet, not an error page


def test_the_service_worker_and_manifest_answer_and_everything_kept_is_there(
    production: Production,
) -> None:
    status, headers, body = fetch(production.origin + "/referee/sw.js")
    assert status == 200, body[:2000]
    assert headers["Content-Type"].startswith("application/javascript")
    source = body.decode()
    prefix = re.search(r"const STATIC_PREFIX = (\".*?\");", source)
    assert prefix and json.loads(prefix.group(1)) == "/static/"
    kept = re.search(r"const PRECACHE = (\[.*?\]);", source)
    assert kept
    urls = json.loads(kept.group(1))
    # Hashed names for the site's own files, Pyodide's by the names it asks for.
    assert any(re.fullmatch(r"/static/kakumei/offline\.[0-9a-f]{12}\.js", u) for u in urls)
    assert "/static/pyodide/pyodide.asm.wasm" in urls
    for url in urls:
        status, _, content = fetch(production.origin + url)
        assert status == 200 and content, url

    status, headers, body = fetch(production.origin + "/referee/manifest.webmanifest")
    assert status == 200
    assert headers["Content-Type"] == "application/manifest+json"
    manifest = json.loads(body)
    assert manifest["name"] == "革命 審判"  # Japanese, to a browser that asks for nothing
    for icon in manifest["icons"]:
        assert fetch(production.origin + icon["src"])[0] == 200, icon
