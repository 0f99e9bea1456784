"""Venues are often offline: no page loads anything from another host — no web font, script,
stylesheet, image, feed or API documentation asset (issue #13).

A tournament with data in every state (a revealed round with computed standings; a published
round with a game in play, a confirmed game and a provisional one; officials with a sign-in
PIN and a device; a penalty; a league season) is crawled in Chromium as the public, as a
referee and as an organiser. Every request is routed: the live server's own requests pass,
any other host's is aborted and recorded with the page that made it. The crawl starts from
every URL pattern of the project (filled with the scene's ids, the way
tests/test_no_hand_leaks_anywhere.py finds its surfaces; those that answer the viewer with a
page, asked of Django first), plus the pages no link leads to (the API docs and schema, the
health check, the embed, live and print pages, the API's and the admin's index), and follows
same-host links (GET navigation only, bounded; never a form, never log-out). It also fails on
a missing static file or any other failed subresource, a console error, an uncaught script
error and any 5xx answer.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urldefrag, urlsplit

import pytest
from django.contrib.auth.models import User
from django.urls import get_resolver
from playwright.sync_api import (
    Browser,
    BrowserContext,
    ConsoleMessage,
    Error,
    Page,
    Request,
    Response,
    Route,
    WebSocket,
    expect,
)
from pytest_django.fixtures import Settings
from pytest_django.live_server_helper import LiveServer

from games import services as games
from games.devices import issue_device
from games.models import Game
from tests.factories import (
    EntryFactory,
    OfficialFactory,
    UserFactory,
    browser,
    rounds_under_way,
)
from tests.test_no_hand_leaks_anywhere import PARAM, routes
from tournaments import services
from tournaments.models import Entry, Official, Penalty, Round, Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "correct horse battery"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
# Followed links per viewer, on top of the start pages: enough for every page reachable from
# the navigation, bounded so that a paginated list cannot make the crawl endless.
FOLLOW_LIMIT = 150
# Log-out ends the crawl's session, a sign-in link would start another; the admin is
# Django's own and every API page is the same browsable-API template (their index pages are
# visited); exports download rather than display; `next=` and `format=` repeat a page.
NOT_FOLLOWED = re.compile(
    r"^/(accounts/logout/|accounts/link/|admin/.|api/)|\.csv(\?|$)|[?&](next|format)="
)
# Pages a script fills in after `load` (Redoc fetches the schema, then renders): the crawl
# waits for their network to fall quiet.
SCRIPTED = {"/api/docs/"}
# Error pages of one status look alike: a few of each are enough.
SAME_ERROR_PAGES = 2


@dataclass
class Venue:
    organiser: User
    head: User
    referee: User
    tournament: Tournament
    revealed: Round
    live: Round
    in_play: Game
    confirmed: Game
    provisional: Game
    ids: dict[str, list[str]] = field(default_factory=dict)


@pytest.fixture
def venue() -> Venue:
    organiser = UserFactory(username="kimura", is_staff=True)
    head = UserFactory(username="hayashi")
    referee = UserFactory(username="mori")
    league = services.create_league(organiser, name="Kanto League 関東リーグ", slug="kanto")
    season = services.create_season(league, organiser, name="2025", slug="2025")
    cup = services.create_tournament_from_preset(
        actor=organiser,
        name="Offline Open オフライン杯",
        slug="offline-open",
        games_per_set=2,
        sets_per_round=1,
        venue="Community hall 公民館",
    )
    cup.status = Tournament.Status.REGISTRATION
    cup.season = season
    cup.save()
    # Another tournament, still taking entries: the lists have more than one row.
    services.create_tournament_from_preset(actor=organiser, name="Spring Cup 春杯", slug="spring")
    OfficialFactory(tournament=cup, user=head, role=Official.Role.HEAD_REFEREE)
    OfficialFactory(tournament=cup, user=referee, role=Official.Role.REFEREE)
    names = ("Aoki", "Baba", "Chiba", "Doi", "Endo", "Fujii", "Goto", "Hara", "Ishii")
    for number, name in enumerate(names, start=1):
        EntryFactory(
            tournament=cup,
            number=number,
            player__display_name=name,
            status=Entry.Status.CHECKED_IN if number <= 8 else Entry.Status.REGISTERED,
        )
    stage = cup.stages.get()

    # Round 1 revealed (the standings are computed from it); round 2 in play: table 1's game
    # in progress, table 2 one game confirmed and the next finished but not confirmed yet.
    revealed, live, in_play, confirmed = rounds_under_way(stage, organiser, referee, head)
    assert isinstance(in_play, Game) and isinstance(confirmed, Game)
    table1, table2 = in_play.table, confirmed.table
    provisional = games.start_game(table2, head, mode=Game.Mode.QUICK)
    games.record_quick_result(provisional, head, [0, 2, 1, 3])

    entry = cup.entries.get(number=1)
    penalty = services.give_penalty(
        entry, head, kind=Penalty.Kind.WARNING, reason="slow play 遅延", round_=live
    )
    official = cup.officials.get(user=referee)
    # A second referee, added without a password, holds a printed PIN card.
    helper = services.add_official_person(
        cup, organiser, display_name="Nakano 中野", role=Official.Role.REFEREE
    )
    services.issue_pin_card(cup, organiser, helper.user)
    token, _ = issue_device(cup, organiser, name="Table 1 tablet", table_number=1)

    scene = Venue(organiser, head, referee, cup, revealed, live, in_play, confirmed, provisional)
    scene.ids = {
        "slug": [cup.slug],
        "round_id": [str(revealed.pk), str(live.pk)],
        "stage_id": [str(stage.pk)],
        "table_id": [str(table1.pk), str(table2.pk)],
        "game_id": [str(in_play.pk), str(confirmed.pk), str(provisional.pk)],
        "player_id": [str(entry.player_id)],
        "entry_id": [str(entry.pk)],
        "season_id": [str(season.pk)],
        "league_id": [str(league.pk)],
        "official_id": [str(official.pk)],
        "token_id": [str(token.pk)],
        "penalty_id": [str(penalty.pk)],
        "fmt": ["json"],
    }
    return scene


ROUTER_IDS = {
    "tournaments": "slug",
    "stages": "stage_id",
    "rounds": "round_id",
    "tables": "table_id",
    "entries": "entry_id",
    "games": "game_id",
    "leagues": "league_id",
    "seasons": "season_id",
}


def every_pattern(scene: Venue) -> list[str]:
    """Every URL pattern of the project with the scene's ids put in (one URL per id)."""
    found = []
    for route in sorted(set(routes(get_resolver().url_patterns))):
        filled = [route]
        for match in PARAM.finditer(route):
            name = match.group(1) or match.group(2)
            if name == "pk":
                name = ROUTER_IDS.get(route[: match.start()].rstrip("/").rsplit("/", 1)[-1], "")
            filled = [PARAM.sub(v, url, count=1) for url in filled for v in scene.ids.get(name, [])]
        found += ["/" + url for url in filled if not NOT_FOLLOWED.search("/" + url)]
    return found


def unlinked_pages(scene: Venue) -> list[str]:
    """Pages no link may lead to, or that `every_pattern` leaves out: visited by name."""
    live_table = scene.live.tables.order_by("number").first()
    assert live_table is not None
    slug, stage, live = scene.tournament.slug, scene.live.stage_id, scene.live.pk
    return [
        "/",
        "/api/docs/",
        "/api/schema/",
        "/api/",
        f"/api/tournaments/{slug}/",
        f"/api/rounds/{live}/",
        "/healthz",
        "/admin/",
        "/accounts/login/",
        "/accounts/pin/",
        "/no-such-page/",
        f"/embed/{slug}/",
        f"/tables/{live_table.pk}/live/",
        f"/standings/{slug}/print/",
        f"/standings/{slug}/stage/{stage}/print/",
        f"/organiser/{slug}/rounds/{live}/cards/",
        f"/organiser/{slug}/rounds/{live}/score-sheets/",
        f"/organiser/{slug}/rounds/{scene.revealed.pk}/results-sheet/",
    ]


def pages_among(urls: Iterable[str], user: User | None) -> list[str]:
    """The URLs that answer `user`'s GET with a page (HTML), asked of Django directly: a
    redirect (to the log-in page, visited anyway) and a POST-only URL's 405 are no page to
    look at, and one 403 or 404 page looks like the next. A 5xx is kept, for the browser to
    report."""
    client = browser()
    if user is not None:
        client.force_login(user)
    kept, errors = [], Counter[int]()
    for url in urls:
        response = client.get(url)
        response.close()
        status, html = (
            response.status_code,
            response.get("Content-Type", "").startswith("text/html"),
        )
        if (status < 300 and html) or status >= 500:
            kept.append(url)
        elif 400 <= status < 500 and status != 405 and html:
            errors[status] += 1
            if errors[status] <= SAME_ERROR_PAGES:
                kept.append(url)
    return kept


@dataclass
class Crawl:
    """What one viewer's crawl saw; every list names the page that was being visited."""

    origin: str
    current: str = ""
    visited: dict[str, int] = field(default_factory=dict)  # path -> status of the page
    outside: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)
    console: list[str] = field(default_factory=list)
    server_errors: list[str] = field(default_factory=list)

    def is_ours(self, url: str) -> bool:
        parts = urlsplit(url)
        if parts.scheme in ("data", "blob", "about"):
            return True
        return f"{parts.scheme}://{parts.netloc}" == self.origin

    def route(self, route: Route) -> None:
        if self.is_ours(route.request.url):
            route.continue_()
        else:
            self.outside.append(f"{self.current} loaded {route.request.url}")
            route.abort("blockedbyclient")

    def websocket(self, socket: WebSocket) -> None:
        if not self.is_ours(socket.url.replace("ws", "http", 1)):
            self.outside.append(f"{self.current} opened {socket.url}")

    def response(self, response: Response) -> None:
        if not self.is_ours(response.url):
            return
        if response.status >= 500:
            self.server_errors.append(f"{self.current}: {response.status} for {response.url}")
        elif response.status >= 400 and not response.request.is_navigation_request():
            self.failed.append(f"{self.current}: {response.status} for {response.url}")

    def request_failed(self, request: Request) -> None:
        # Aborted outside requests are recorded by `route`; a navigation away cancels the
        # page's pending polls (net::ERR_ABORTED), which is no fault of the page.
        error = request.failure or ""
        if self.is_ours(request.url) and "ERR_ABORTED" not in error:
            self.failed.append(f"{self.current}: {request.url} failed ({error})")

    def console_message(self, message: ConsoleMessage) -> None:
        if message.type != "error":
            return
        where = message.location.get("url", "")
        document = urldefrag(where)[0] == urldefrag(self.origin + self.current)[0]
        if document and message.text.startswith("Failed to load resource"):
            return  # the page's own 4xx status (a refusal, a missing page)
        if "ERR_BLOCKED_BY_CLIENT" in message.text:
            return  # an outside request, aborted and recorded by `route`
        self.console.append(f"{self.current}: {message.text} ({where})")

    def page_error(self, error: Error) -> None:
        self.console.append(f"{self.current}: uncaught {error.message}")

    def faults(self) -> list[str]:
        return self.outside + self.failed + self.console + self.server_errors


def open_context(browser: Browser, crawl: Crawl) -> tuple[BrowserContext, Page]:
    # A service worker's requests would escape the routing: none may register.
    context = browser.new_context(viewport=DESKTOP, service_workers="block")
    context.set_default_timeout(15_000)
    context.route("**/*", crawl.route)
    page = context.new_page()
    page.on("websocket", crawl.websocket)
    page.on("response", crawl.response)
    page.on("requestfailed", crawl.request_failed)
    page.on("console", crawl.console_message)
    page.on("pageerror", crawl.page_error)
    return context, page


def log_in(page: Page, crawl: Crawl, user: User) -> None:
    crawl.current = "/accounts/login/"
    page.goto(crawl.origin + "/accounts/login/")
    page.get_by_label("User name").fill(user.get_username())
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("button", name=re.compile(r"^Log out"))).to_be_visible()


def visit(page: Page, crawl: Crawl, path: str) -> list[str]:
    """Open `path` and return the same-host paths its links lead to."""
    crawl.current = path
    try:
        response = page.goto(crawl.origin + path, wait_until="load")
    except Error as error:
        if "Download is starting" in error.message:
            crawl.visited[path] = 200  # an export or the schema: a file, not a page
            return []
        if "ERR_HTTP_RESPONSE_CODE_FAILURE" in error.message:
            crawl.visited[path] = 400  # an error answer without a body
            return []
        raise
    crawl.visited[path] = response.status if response else 0
    if path in SCRIPTED:
        page.wait_for_load_state("networkidle")
    hrefs: list[str] = page.eval_on_selector_all("a[href]", "links => links.map(a => a.href)")
    paths = []
    for href in hrefs:
        href = urldefrag(href)[0]
        parts = urlsplit(href)
        if parts.scheme in ("http", "https") and crawl.is_ours(href):
            paths.append(parts.path + (f"?{parts.query}" if parts.query else ""))
    return paths


def crawl_as(browser: Browser, origin: str, user: User | None, start: list[str]) -> Crawl:
    """Visit `start`, then the same-host links found on the way (GET navigation only)."""
    crawl = Crawl(origin=origin)
    context, page = open_context(browser, crawl)
    try:
        if user is not None:
            log_in(page, crawl, user)
        queue = list(dict.fromkeys(start))
        seen = set(queue)
        followed = 0
        while queue:
            for link in visit(page, crawl, queue.pop(0)):
                if link in seen or NOT_FOLLOWED.search(link) or followed >= FOLLOW_LIMIT:
                    continue
                seen.add(link)
                queue.append(link)
                followed += 1
    finally:
        context.close()
    return crawl


def test_no_page_loads_anything_from_another_host(
    browser: Browser, live_server: LiveServer, venue: Venue, settings: Settings
) -> None:
    settings.LIVE_FEED_SECONDS = 0.2  # a table's event stream ends, so a page of it loads
    crawl_the_venue(browser, live_server.url, venue, VIEWERS)


VIEWERS = ("public", "referee", "organiser")


def crawl_the_venue(browser: Browser, origin: str, venue: Venue, viewers: Iterable[str]) -> None:
    """`viewers`' crawls of the site at `origin` (the test's live server, or the deployed stack
    of tests/production) find no fault, and see the pages that matter."""
    patterns = every_pattern(venue)
    users = {"public": None, "referee": venue.referee, "organiser": venue.organiser}

    crawls = {
        who: crawl_as(
            browser,
            origin,
            users[who],
            unlinked_pages(venue) + pages_among(patterns, users[who]),
        )
        for who in viewers
    }

    report = [f"{who}: {fault}" for who, crawl in crawls.items() for fault in crawl.faults()]
    assert not report, "\n".join(["Outside requests and failures:", *report])
    # The crawl did see the pages that matter (as pages: no error status).
    ok = {who: {p for p, status in c.visited.items() if status < 400} for who, c in crawls.items()}
    slug, live, table = venue.tournament.slug, venue.live.pk, venue.in_play.table_id
    expected = {
        "public": [
            "/",
            "/api/docs/",
            f"/embed/{slug}/",
            f"/standings/{slug}/",
            f"/tables/{table}/live/",
        ],
        "referee": [f"/referee/tables/{table}/", f"/referee/games/{venue.in_play.pk}/"],
        "organiser": [
            f"/organiser/{slug}/",
            f"/organiser/{slug}/rounds/{live}/",
            f"/organiser/{slug}/rounds/{live}/progress/",
            f"/organiser/{slug}/rounds/{live}/cards/",
            f"/organiser/{slug}/officials/",
            f"/organiser/{slug}/devices/",
            f"/organiser/{slug}/scoring/",
            f"/referee/games/{venue.provisional.pk}/",
            "/organiser/leagues/",
            "/admin/",
        ],
    }
    for who in viewers:
        for path in expected[who]:
            assert path in ok[who], (who, path)
    if "public" in viewers:
        assert any(path.startswith("/players/") for path in ok["public"])  # followed from a board


def test_the_api_docs_render_offline(page: Page, live_server: LiveServer, artifacts: Path) -> None:
    """Redoc (served from here, with the system fonts) renders the API documentation."""
    crawl = Crawl(origin=live_server.url, current="/api/docs/")
    page.context.route("**/*", crawl.route)
    page.on("console", crawl.console_message)
    page.set_viewport_size(DESKTOP)

    page.goto(live_server.url + "/api/docs/")

    # Redoc shows "Loading ..." until the schema is generated and parsed: seconds on a loaded
    # 2-core machine (CI has seen it past the default 5 s), not a sign of anything missing.
    heading = page.get_by_role("heading", name=re.compile("Kakumei API"))
    expect(heading).to_be_visible(timeout=30_000)
    expect(page.get_by_text("API docs by Redocly")).to_be_visible()
    page.wait_for_load_state("networkidle")
    assert crawl.faults() == []
    page.screenshot(path=str(artifacts / "offline-api-docs-desktop.png"))
    page.set_viewport_size(PHONE)
    page.screenshot(path=str(artifacts / "offline-api-docs-phone.png"))
