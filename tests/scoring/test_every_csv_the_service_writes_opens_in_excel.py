"""Every CSV the service writes goes through the one writer (`config.spreadsheet`): each URL
answering a CSV — found by walking the URL configuration, so a new one is covered too — is
UTF-8 with a BOM and CRLF lines by default and Shift_JIS with `?encoding=cp932`, the same
cells in both, its flags as words, a Japanese name kept; the bytes are built once per version,
language and encoding, and each encoding has an ETag of its own. No other module writes CSV."""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from scoring.standings import recompute_tournament
from tests.factories import browser, guandan_hand, match_table, published_round, team_league
from tournaments.models import League, Player, Season, Stage, Team, Tournament

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
# The CSV downloads there are now; the walk below must find at least these.
KNOWN = {
    "scoring:tournament_export",
    "scoring:stage_export",
    "scoring:season_export",
    "scoring:tournament_team_export",
    "scoring:stage_team_export",
}


def csv_routes() -> Iterator[tuple[str, list[str]]]:
    """(URL name, its arguments) of every route that answers CSV: a `.csv` path, or an export
    whose format is a part of the path."""

    def walk(patterns: list[object], namespace: str) -> Iterator[tuple[str, list[str]]]:
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                inner = f"{namespace}{pattern.namespace}:" if pattern.namespace else namespace
                yield from walk(pattern.url_patterns, inner)
            elif isinstance(pattern, URLPattern) and pattern.name:
                route = str(pattern.pattern)
                if ".csv" in route or "<fmt:fmt>" in route:
                    yield f"{namespace}{pattern.name}", re.findall(r"<(?:\w+:)?(\w+)>", route)

    yield from walk(get_resolver().url_patterns, "")


@pytest.fixture
def event() -> tuple[Tournament, Stage, Season]:
    """A 掼蛋 team event in a league season, one match played; team 1 and its first member
    have Japanese names."""
    tournament, stage, (t1, t2, t3, t4) = team_league(slug="gd-excel")
    season = Season.objects.create(
        league=League.objects.create(name="関西リーグ", slug="kansai"), name="2026", slug="2026"
    )
    Tournament.objects.filter(pk=tournament.pk).update(season=season)
    Team.objects.filter(pk=t1.pk).update(name="髙橋組")
    Player.objects.filter(entries__team=t1, display_name="Aoki A").update(display_name="髙橋 一郎")
    round_ = published_round(stage, 1)
    guandan_hand(match_table(round_, 1, t1, t2), 1, ("A", "8"), won=0)
    guandan_hand(match_table(round_, 2, t3, t4), 1, ("5", "2"), won=0)
    recompute_tournament(tournament.pk)
    return tournament, stage, season


def urls(event: tuple[Tournament, Stage, Season]) -> dict[str, str]:
    tournament, stage, season = event
    values = {"slug": tournament.slug, "stage_id": stage.pk, "season_id": season.pk, "fmt": "csv"}
    return {name: reverse(name, kwargs={a: values[a] for a in args}) for name, args in csv_routes()}


def cells(data: bytes, codec: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(data.decode(codec), newline="")))


def test_the_walk_finds_every_csv_download(event: tuple[Tournament, Stage, Season]) -> None:
    assert set(urls(event)) >= KNOWN


def test_each_is_utf8_with_a_bom_and_shift_jis_on_request(
    event: tuple[Tournament, Stage, Season],
) -> None:
    reader = browser("ja")
    for name, url in urls(event).items():
        utf8 = reader.get(url)
        sjis = reader.get(f"{url}?encoding=cp932")

        assert (utf8.status_code, sjis.status_code) == (200, 200), name
        assert utf8["Content-Type"] == "text/csv; charset=utf-8", name
        assert not sjis.content.startswith(b"\xef\xbb\xbf"), name
        assert sjis["Content-Type"] == "text/csv; charset=Shift_JIS", name
        assert utf8.content.startswith(b"\xef\xbb\xbf"), name
        for data in (utf8.content, sjis.content):
            assert data.count(b"\n") == data.count(b"\r\n") > 1, name
        table = cells(utf8.content, "utf-8-sig")
        assert cells(sjis.content, "cp932") == table, name
        assert table[0][:2] == ["順位", "同順位"], name
        flat = [cell for row in table[1:] for cell in row]
        assert "はい" in flat or "いいえ" in flat, name
        assert not {"True", "False"} & set(flat), name
        assert any("髙橋" in cell for cell in flat), name
        assert utf8["Content-Disposition"].startswith('attachment; filename="'), name
        assert "filename*=UTF-8''" in utf8["Content-Disposition"], name
        assert utf8["ETag"] != sjis["ETag"], name


def test_each_encoding_is_built_once_per_version_and_language(
    event: tuple[Tournament, Stage, Season],
) -> None:
    for name, url in urls(event).items():
        for language in ("ja", "en"):
            for query in ("", "?encoding=cp932"):
                first = browser(language).get(url + query)

                with CaptureQueriesContext(connection) as queries:
                    again = browser(language).get(url + query)

                assert again.content == first.content, (name, language, query)
                assert not any("standing" in q["sql"] for q in queries), (name, language, query)


def test_no_other_module_writes_csv() -> None:
    writers = [
        str(path.relative_to(ROOT))
        for folder in ("config", "games", "tournaments", "scoring")
        for path in (ROOT / folder).rglob("*.py")
        if re.search(r"csv\.(writer|DictWriter)\(|text/csv", path.read_text())
    ]
    assert writers == ["config/spreadsheet.py"]
