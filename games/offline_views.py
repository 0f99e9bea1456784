"""The referee console's offline mode, the server's side (issue #19, docs/offline.md): the
service worker that keeps the console on the phone, and the web app manifest that lets a
referee install it.

The service worker is a template rendered here, not a static file, so that it can name the
static files by their deployed (hashed) URLs and carry a cache version that changes whenever
one of them does: a deploy then replaces the phone's old copies when the new worker activates.
"""

from __future__ import annotations

import hashlib
import json
import re

from django.contrib.staticfiles import finders
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET
from django_htmx.jinja import htmx_script

# The site's own files every console page loads, and the offline console's script.
SITE_ASSETS = (
    "kakumei/site.css",
    "kakumei/htmx-errors.js",
    "kakumei/offline.js",
    "kakumei/favicon.svg",
)
# What Pyodide fetches to start (beside pyodide.mjs), by these exact names from its index URL.
PYODIDE_FILES = (
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)
# The colour of a phone's status bar around the installed console: site.css's accent.
THEME_COLOUR = "#b3122e"


def pyodide_index_url() -> str:
    """The directory Pyodide loads its files from: where the served pyodide.mjs is. Pyodide
    asks for its other files by their plain names there, so those are cached by those names."""
    return static("pyodide/pyodide.mjs").rsplit("/", 1)[0] + "/"


def htmx_urls() -> list[str]:
    """The script URLs base.html's ``{% htmx_script %}`` writes, read from the same tag."""
    return re.findall(r'src="([^"]+)"', str(htmx_script()))


def precache_urls() -> list[str]:
    """Everything the offline console needs to open and to judge a move with no network."""
    index = pyodide_index_url()
    return [
        *(static(name) for name in SITE_ASSETS),
        *htmx_urls(),
        reverse("referee:manifest"),
        static("pyodide/pyodide.mjs"),
        *(index + name for name in PYODIDE_FILES),
        reverse("referee:offline-engine"),
    ]


def cache_version(urls: list[str]) -> str:
    """Changes when a precached file may have changed: the URL list (hashed names in
    production) and, for a checkout that serves unhashed names, the small files' bytes."""
    digest = hashlib.sha256("\n".join(urls).encode())
    for name in (*SITE_ASSETS, "pyodide/package.json"):
        found = finders.find(name)
        if isinstance(found, str):
            with open(found, "rb") as source:
                digest.update(source.read())
    return digest.hexdigest()[:16]


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    """``/referee/sw.js``: served from /referee/ so that its scope is the referee's pages."""
    urls = precache_urls()
    context = {
        "version": cache_version(urls),
        "precache": json.dumps(urls),
        "static_prefix": json.dumps(static("")),
        "engine": json.dumps(reverse("referee:offline-engine")),
        "consoles": json.dumps(reverse("referee:home") + "tables/"),
    }
    response = render(
        request, "games/sw.js", context, content_type="application/javascript; charset=utf-8"
    )
    # The browser checks for a new worker on every visit; it must never keep an old one.
    response["Cache-Control"] = "no-cache"
    return response


@require_GET
def manifest(request: HttpRequest) -> HttpResponse:
    """``/referee/manifest.webmanifest``: the console installs as an app (in the page's
    language) that opens on the referee's tables."""
    home = reverse("referee:home")
    body = {
        "name": _("Kakumei referee"),
        "short_name": _("Referee"),
        "start_url": home,
        "scope": home,
        "display": "standalone",
        "theme_color": THEME_COLOUR,
        "background_color": "#ffffff",
        "icons": [{"src": static("kakumei/favicon.svg"), "sizes": "any", "type": "image/svg+xml"}],
    }
    response = HttpResponse(
        json.dumps(body, ensure_ascii=False), content_type="application/manifest+json"
    )
    response["Cache-Control"] = "no-cache"
    return response
