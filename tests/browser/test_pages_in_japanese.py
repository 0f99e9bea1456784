"""A Japanese phone or laptop sees the pages in Japanese (issue #13): no English left over.

A small event (an organiser, a head referee and a referee; 革命杯 with a revealed round and a
round in play: a game in progress, a confirmed one; a warning; a PIN-card official and a
table's device) is walked in Chromium set to Japanese (`locale="ja-JP"`, so Accept-Language
is ja) as the organiser, the referee and the public. Every page is photographed at phone and
desktop size (test-artifacts/ja/<page>-<phone|desktop>.png) and its visible text
(`document.body.innerText`) is checked against the English catalogue: a message of
locale/ja/LC_MESSAGES/django.po whose Japanese differs from its English must not show in
English. Every offending page and string is reported in one assertion message. The data is
Japanese (佐藤, 山本, 「革命杯」) so that only the pages' own words can offend.
"""

from __future__ import annotations

import datetime
import html
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

import polib
import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Browser, BrowserContext, Page
from pytest_django.fixtures import Settings
from pytest_django.live_server_helper import LiveServer

from games.devices import issue_device
from games.models import Game
from tests.factories import (
    EntryFactory,
    OfficialFactory,
    UserFactory,
    rounds_under_way,
)
from tournaments import services
from tournaments.models import Entry, Official, Penalty, Round, Tournament

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
CATALOGUE = ROOT / "locale" / "ja" / "LC_MESSAGES" / "django.po"
PASSWORD = "correct horse battery"  # UserFactory's
SIZES = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1280, "height": 800}}

# --- the checker ------------------------------------------------------------------------------

PLACEHOLDER = re.compile(r"%\([^)]*\)[-#0 +]*\d*(?:\.\d+)?[a-zA-Z]|%[sd]")
TAG = re.compile(r"<[^>]+>")
WORD = re.compile(r"[A-Za-z]+")
LONG_WORD = re.compile(r"[A-Za-z]{4,}")


@dataclass(frozen=True)
class Candidate:
    """A piece of English text from the catalogue that a Japanese page must not show."""

    text: str
    pattern: re.Pattern[str]


def _pieces(msgid: str, python_format: bool) -> list[str]:
    """The literal text of a message a reader could see in one run: the whole message, or
    for a python-format one the pieces between its placeholders that are long enough to be
    telling (two words or more, or eight letters or more). Markup splits pieces too."""
    text = msgid.replace("%%", "%") if python_format else msgid
    parts = TAG.split(PLACEHOLDER.sub("\0", text) if python_format else text)
    pieces = []
    for part in parts:
        for piece in part.split("\0"):
            piece = " ".join(html.unescape(piece).split())
            if not LONG_WORD.search(piece):
                continue
            words = WORD.findall(piece)
            whole = not python_format and len(parts) == 1
            if whole or len(words) >= 2 or sum(map(len, words)) >= 8:
                pieces.append(piece)
    return pieces


def _pattern(piece: str) -> re.Pattern[str]:
    """`piece` as a whole word (or words), case-sensitive, any whitespace between words."""
    body = r"\s+".join(re.escape(word) for word in piece.split())
    before = r"(?<![A-Za-z0-9_])" if piece[0].isalnum() else ""
    after = r"(?![A-Za-z0-9_])" if piece[-1].isalnum() else ""
    return re.compile(before + body + after)


def english_candidates(po: polib.POFile) -> list[Candidate]:
    """Every piece of English of the catalogue's messages whose Japanese differs from the
    English (an untranslated or fuzzy message shows its English too). A piece the Japanese
    of some message uses as it is (革命 Kakumei) is left out: the Japanese page shows it."""
    japanese = [e.msgstr for e in po] + [s for e in po for s in e.msgstr_plural.values()]
    found: dict[str, Candidate] = {}
    for entry in po:
        if entry.obsolete:
            continue
        translations = list(entry.msgstr_plural.values()) if entry.msgid_plural else [entry.msgstr]
        if all(t == entry.msgid for t in translations):
            continue  # the same in both languages (API)
        python_format = "python-format" in entry.flags
        for msgid in filter(None, (entry.msgid, entry.msgid_plural)):
            for piece in _pieces(msgid, python_format):
                if piece not in found:
                    found[piece] = Candidate(piece, _pattern(piece))
    return [c for c in found.values() if not any(c.pattern.search(j) for j in japanese)]


def english_in(text: str, candidates: Iterable[Candidate]) -> list[str]:
    """The candidates that `text` shows, longest first. A shorter one shown only inside a
    longer one's text ("Draw" in "Draw next round") is not reported again."""
    hits: list[str] = []
    claimed: list[tuple[int, int]] = []
    for candidate in sorted(candidates, key=lambda c: (-len(c.text), c.text)):
        spans = [m.span() for m in candidate.pattern.finditer(text)]
        if any(not any(a <= start and end <= b for a, b in claimed) for start, end in spans):
            hits.append(candidate.text)
        claimed += spans
    return hits


@pytest.fixture(scope="module")
def candidates() -> list[Candidate]:
    return english_candidates(polib.pofile(str(CATALOGUE)))


def _po(*entries: tuple[str, str]) -> polib.POFile:
    po = polib.POFile()
    for msgid, msgstr in entries:
        flags = ["python-format"] if "%(" in msgid else []
        po.append(polib.POEntry(msgid=msgid, msgstr=msgstr, flags=flags))
    return po


def test_the_checker_flags_english_left_on_a_japanese_page() -> None:
    checker = english_candidates(
        _po(
            ("Draw next round", "次の回戦を抽選"),
            ("Kakumei", "革命 Kakumei"),
            ("API", "API"),
            ("Referee of table %(numbers)s: %(name)s.", "%(numbers)s卓の審判:%(name)s。"),
            ("%(stage)s · Round %(number)s", "%(stage)s · 第%(number)s回戦"),
        )
    )
    texts = {c.text for c in checker}

    assert "Draw next round" in texts
    assert "Referee of table" in texts  # a piece of a message with placeholders
    assert "Kakumei" not in texts and "API" not in texts  # the Japanese shows them too
    assert "· Round" not in texts  # one short word between placeholders tells nothing
    assert english_in("大会\nDraw next round\n受付", checker) == ["Draw next round"]
    assert english_in("Referee of table 1, 2: 森.", checker) == ["Referee of table"]
    assert english_in("次の回戦を抽選 革命 Kakumei API 予選 · 第1回戦", checker) == []
    assert english_in("Draw next rounds", checker) == []  # whole words only
    assert english_in("draw next round", checker) == []  # case-sensitive
    assert english_in("Draw next round_count", checker) == []  # nor part of a name


def test_the_checker_reads_plural_messages_too() -> None:
    po = polib.POFile()
    po.append(
        polib.POEntry(
            msgid="%(counter)s game keeps the round from completing",
            msgid_plural="%(counter)s games keep the round from completing",
            msgstr_plural={0: "未確定のゲーム %(counter)s件"},
            flags=["python-format"],
        )
    )
    checker = english_candidates(po)

    assert english_in("2 games keep the round from completing", checker) == [
        "games keep the round from completing"
    ]
    assert english_in("未確定のゲーム 2件", checker) == []


def test_a_word_shown_only_inside_a_longer_message_is_reported_once() -> None:
    checker = english_candidates(_po(("Draw", "抽選"), ("Draw next round", "次の回戦を抽選")))

    assert english_in("Draw next round", checker) == ["Draw next round"]
    assert english_in("Draw next round · Draw", checker) == ["Draw next round", "Draw"]


def test_the_checker_reads_the_real_catalogue(candidates: list[Candidate]) -> None:
    texts = {c.text for c in candidates}

    assert len(texts) > 100
    assert "Draw next round" in texts
    assert english_in("次の回戦を抽選\nDraw next round", candidates) == ["Draw next round"]


# --- the event --------------------------------------------------------------------------------

NAMES = [
    ("佐藤 健", "さとう けん"),
    ("山本 陽", "やまもと はる"),
    ("鈴木 凛", "すずき りん"),
    ("高橋 蓮", "たかはし れん"),
    ("田中 葵", "たなか あおい"),
    ("渡辺 湊", "わたなべ みなと"),
    ("伊藤 結衣", "いとう ゆい"),
    ("中村 陸", "なかむら りく"),
]


@dataclass
class Event:
    organiser: User
    head: User
    referee: User
    cup: Tournament
    finished: Round
    live: Round
    in_play: Game


@pytest.fixture
def event() -> Event:
    organiser = UserFactory(username="kimura", first_name="木村", is_staff=True)
    head = UserFactory(username="hayashi", first_name="林")
    referee = UserFactory(username="mori", first_name="森")
    cup = services.create_tournament_from_preset(
        actor=organiser,
        name="革命杯",
        slug="kakumei-cup",
        games_per_set=2,
        sets_per_round=1,
        venue="公民館",
        starts_on=datetime.date(2026, 12, 20),
    )
    cup.status = Tournament.Status.REGISTRATION
    cup.save()
    stage = cup.stages.get()
    stage.name = "予選"  # the preset's bilingual name is data; this page data is Japanese
    stage.save()
    OfficialFactory(tournament=cup, user=head, role=Official.Role.HEAD_REFEREE)
    OfficialFactory(tournament=cup, user=referee, role=Official.Role.REFEREE)
    for number, (name, kana) in enumerate(NAMES, start=1):
        EntryFactory(
            tournament=cup,
            number=number,
            player__display_name=name,
            player__name_kana=kana,
            status=Entry.Status.CHECKED_IN,
        )

    # Round 1 revealed; round 2 in play (a game in progress, a confirmed one).
    finished, live, in_play, _confirmed = rounds_under_way(stage, organiser, referee, head)

    services.give_penalty(
        cup.entries.get(number=1), head, kind=Penalty.Kind.WARNING, reason="遅延行為", round_=live
    )
    helper = services.add_official_person(
        cup, organiser, display_name="中野", role=Official.Role.REFEREE
    )
    services.issue_pin_card(cup, organiser, helper.user)
    issue_device(cup, organiser, name="1番卓のタブレット", table_number=1)
    return Event(organiser, head, referee, cup, finished, live, in_play)


def organiser_pages(event: Event) -> dict[str, str]:
    slug, live, finished = event.cup.slug, event.live.pk, event.finished.pk
    entry = event.cup.entries.get(number=2)
    return {
        "organiser-home": "/organiser/",
        "organiser-dashboard": f"/organiser/{slug}/",
        # The entrants section, with an entrant's row open for editing.
        "organiser-entrants": f"/organiser/{slug}/entries/{entry.pk}/edit/",
        "organiser-officials": f"/organiser/{slug}/officials/",
        "organiser-devices": f"/organiser/{slug}/devices/",
        "organiser-settings": f"/organiser/{slug}/settings/",
        "organiser-stages": f"/organiser/{slug}/stages/",
        "organiser-round": f"/organiser/{slug}/rounds/{live}/",
        "organiser-finished-round": f"/organiser/{slug}/rounds/{finished}/",
        "organiser-progress": f"/organiser/{slug}/rounds/{live}/progress/",
        "organiser-results-sheet": f"/organiser/{slug}/rounds/{finished}/results-sheet/",
        "organiser-audit": f"/organiser/{slug}/audit/",
    }


def referee_pages(event: Event) -> dict[str, str]:
    return {
        "referee-home": "/referee/",
        "referee-console": f"/referee/tables/{event.in_play.table_id}/",
        "referee-game": f"/referee/games/{event.in_play.pk}/",
    }


def public_pages(event: Event) -> dict[str, str]:
    slug = event.cup.slug
    player = event.cup.entries.get(number=1).player_id
    return {
        "public-tournaments": "/",
        "public-tournament": f"/tournaments/{slug}/",
        "public-round": f"/tournaments/{slug}/rounds/{event.live.pk}/",
        "public-standings": f"/standings/{slug}/",
        "public-standings-print": f"/standings/{slug}/print/",
        "public-player": f"/players/{player}/",
        "public-live-table": f"/tables/{event.in_play.table_id}/live/",
        "public-login": "/accounts/login/",
    }


# --- the walk ---------------------------------------------------------------------------------

# The page's text without the language switch (each language is named in its own words) and
# without code (keys such as `daifugo` or `fewer_fouls` are typed as they are, in either
# language; a ruleset is `jdf@1`).
VISIBLE_TEXT = """() => {
  const hidden = [...document.querySelectorAll(
    '[data-testid="language-switch"], code, kbd, samp')];
  const before = hidden.map(element => element.style.display);
  hidden.forEach(element => { element.style.display = 'none'; });
  const text = document.body.innerText;
  hidden.forEach((element, i) => { element.style.display = before[i]; });
  return text;
}"""


def japanese_context(browser: Browser) -> BrowserContext:
    context = browser.new_context(locale="ja-JP", viewport=SIZES["desktop"])
    context.set_default_timeout(15_000)
    return context


def log_in(page: Page, base: str, user: User) -> None:
    """Through the log-in page, by its fields (their labels are in Japanese by now)."""
    page.goto(f"{base}/accounts/login/")
    page.locator("#id_username").fill(user.get_username())
    page.locator("#id_password").fill(PASSWORD)
    with page.expect_navigation():
        page.locator("form[action='/accounts/login/'] [type=submit]").click()
    assert "/accounts/login/" not in page.url, f"{user} could not sign in"


@dataclass
class Walk:
    base: str
    shots: Path
    candidates: list[Candidate]
    offences: dict[str, list[str]] = field(default_factory=dict)
    not_japanese: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)
    texts: dict[str, str] = field(default_factory=dict)  # page name -> its desktop text

    def visit(self, page: Page, name: str, path: str) -> None:
        """Open `path` at phone and desktop size: photograph it and check its words."""
        found: list[str] = []
        for size, viewport in SIZES.items():
            page.set_viewport_size(viewport)
            response = page.goto(self.base + path, wait_until="load")
            status = response.status if response else 0
            if status >= 400:
                self.failed.append(f"{name} ({path}): {status}")
            page.screenshot(path=str(self.shots / f"{name}-{size}.png"), full_page=True)
            lang = page.locator("html").get_attribute("lang")
            if lang != "ja":
                self.not_japanese.append(f"{name} ({path}) at {size} size: lang={lang!r}")
            text: str = page.evaluate(VISIBLE_TEXT)
            self.texts[name] = text
            found += [hit for hit in english_in(text, self.candidates) if hit not in found]
        if found:
            self.offences[f"{name} ({path})"] = found


@pytest.mark.django_db(transaction=True)
def test_every_page_speaks_japanese_to_a_japanese_browser(
    browser: Browser,
    live_server: LiveServer,
    event: Event,
    candidates: list[Candidate],
    artifacts: Path,
    settings: Settings,
) -> None:
    settings.LIVE_FEED_SECONDS = 0.2  # a table's event stream ends, so its page loads
    shots = artifacts / "ja"
    shots.mkdir(exist_ok=True)
    walk = Walk(live_server.url, shots, candidates)
    viewers = [
        (event.organiser, organiser_pages(event)),
        (event.referee, referee_pages(event)),
        (None, public_pages(event)),
    ]
    for user, pages in viewers:
        context = japanese_context(browser)
        try:
            page = context.new_page()
            if user is not None:
                log_in(page, live_server.url, user)
            for name, path in pages.items():
                walk.visit(page, name, path)
        finally:
            context.close()

    problems = [f"Did not open: {failed}" for failed in walk.failed]
    problems += [f"Not <html lang=ja>: {page}" for page in walk.not_japanese]
    for name in ("public-tournament", "public-tournaments"):  # dates the Japanese way
        if "2026年12月20日(日)" not in walk.texts.get(name, ""):
            problems.append(f"{name}: the date is not written 2026年12月20日(日)")
    problems += [
        f"{page}:\n" + "\n".join(f"    {text!r}" for text in texts)
        for page, texts in walk.offences.items()
    ]
    (shots / "problems.txt").write_text("\n".join(problems) + "\n", encoding="utf-8")
    assert not problems, (
        f"English on {len(walk.offences)} Japanese page(s) and {len(problems) - len(walk.offences)}"
        f" other problem(s) (screenshots in {shots}):\n" + "\n".join(problems)
    )
