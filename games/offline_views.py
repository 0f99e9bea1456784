"""What the 大富豪 console's offline mode needs from the server (docs/offline.md).

The *seed* is the game as the console's phone must keep it to go on without the network: the
server's record of it (set-up and effective moves, `kakumei-record/1`), the seats, the log in
words and where to send moves when the network is back. It is embedded in every rendering of
the console (so it is as fresh as the page) and answered alone by `games.views.offline_seed`
(after a conflicting sync the phone asks for the game as it is now). Only the table's
officials see it: the record holds every hand, as the console page itself shows them.

It also serves the service worker that keeps the console on the phone and the web app manifest
that lets a referee install it. The worker is a template rendered here, not a static file, so
that it can name the static files by their deployed (hashed) URLs and carry a cache version
that changes whenever one of them does: a deploy then replaces the phone's old copies when the
new worker activates.
"""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any

from django.contrib.staticfiles import finders
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.templatetags.static import PrefixNode, static
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET
from django_htmx.jinja import htmx_script

from games.display import log_line
from games.engine.daifugo import DAIFUGO
from games.engine.errors import EngineError
from games.engine.family import family_of
from games.engine.rules import RuleSet
from games.models import Game
from games.models import Move as MoveRow
from games.official_views import quick_outcome_choices
from games.records import export_game
from games.seating import seat_names
from games.state import rules_for_game


def offline_seed(
    game: Game | None, rows: list[MoveRow], seats: list[dict[str, Any]], table_id: int
) -> dict[str, Any]:
    """The seed of `table_id`'s console: its current `game` (with its log `rows`) and its
    `seats` (the console's seat rows, in engine seat order)."""
    seed: dict[str, Any] = {
        "table": table_id,
        "game": None,
        "seats": [{k: s[k] for k in ("seat", "position", "name", "number")} for s in seats],
        "urls": {"seed": reverse("referee:offline-seed", args=[table_id])},
    }
    if game is None:
        return seed
    rules = rules_for_game(game)
    family = family_of(rules).name
    record = _record(game, rules, rows) if family == DAIFUGO.name else None
    seed |= {
        "game": game.pk,
        "version": game.version,
        "status": game.status,
        "mode": game.mode,
        "family": family,
        # The one answer to "can this console go on offline?": the console offers offline
        # mode (the banner's promise) exactly when the phone can judge the game there.
        "supported": offline_capable(family, game.mode, record),
        "last_seq": game.last_seq,
        "record": record,
        # What a quick result is judged on (`games.offline.judge_quick`).
        "quick": {
            "rules": rules.to_record(),
            "seats": game.seats,
            "titles": game.titles,
            "names": seat_names(game),
        },
        "quick_choices": quick_outcome_choices(game.seats),
        "log": [{"seq": r.seq, "text": str(log_line(r.seq, r.kind, r.payload))} for r in rows],
    }
    seed["urls"] |= {
        "moves": reverse("api-game-moves", args=[game.pk]),
        "quick": reverse("api-game-quick-result", args=[game.pk]),
    }
    return seed


def offline_capable(family: str, mode: str, record: dict[str, object] | None) -> bool:
    """Whether the phone can go on with the game offline: a 大富豪 game whose record the
    engine replays (moves are judged on it), or one whose result is entered quick (judged
    by `games.offline.judge_quick` on the rules alone). Any seat count: a record names it."""
    return family == DAIFUGO.name and (mode == Game.Mode.QUICK or record is not None)


def _record(game: Game, rules: RuleSet, rows: list[MoveRow]) -> dict[str, object] | None:
    """The game as the engine replays it: its set-up and the moves still in force. None when
    the engine cannot start it (the console says why, online only)."""
    try:
        return export_game(game, rows, rules)
    except EngineError:
        return None


# The site's own files every console page loads, and the offline console's script.
SITE_ASSETS = (
    "kakumei/site.css",
    "kakumei/htmx-errors.js",
    "kakumei/offline.js",
    "kakumei/clock.js",
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


def pyodide_module_url() -> str:
    """Pyodide's module as this site serves it, or "" when it serves none (npm's packages not
    installed: the manifest storage of production refuses to name a missing file); the console
    then says the rules engine is unavailable offline."""
    try:
        return static("pyodide/pyodide.mjs")
    except ValueError:
        return ""


def pyodide_index_url() -> str:
    """The directory Pyodide loads its files from: where the served pyodide.mjs is. Pyodide
    asks for its other files by their plain names there, so those are cached by those names."""
    return pyodide_module_url().rsplit("/", 1)[0] + "/"


def htmx_urls() -> list[str]:
    """The script URLs base.html's ``{% htmx_script %}`` writes, read from the same tag."""
    return re.findall(r'src="([^"]+)"', str(htmx_script()))


def precache_urls() -> list[str]:
    """Everything the offline console needs to open and to judge a move with no network."""
    module = pyodide_module_url()
    pyodide = [module, *(pyodide_index_url() + name for name in PYODIDE_FILES)] if module else []
    return [
        *(static(name) for name in SITE_ASSETS),
        *htmx_urls(),
        reverse("referee:manifest"),
        *pyodide,
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
        # The prefix itself, not `static("")`: the manifest storage of production names files
        # only, and refuses "" (the worker answered 500 with DEBUG=False).
        "static_prefix": json.dumps(PrefixNode.handle_simple("STATIC_URL")),
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
