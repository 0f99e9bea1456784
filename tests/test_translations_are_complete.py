"""The Japanese catalogue is complete and current: every message the code and templates mark
for translation is in locale/ja/LC_MESSAGES/django.po, none is left empty or fuzzy, and its
placeholders match (msgfmt --check-format, which compilemessages runs, would refuse them)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import polib
import pytest

ROOT = Path(__file__).resolve().parent.parent
CATALOGUE = ROOT / "locale" / "ja" / "LC_MESSAGES" / "django.po"
SOURCES = ["manage.py", "config", "games", "tournaments", "scoring", "templates", "locale"]


def keys(po: polib.POFile) -> set[tuple[str | None, str]]:
    return {(entry.msgctxt, entry.msgid) for entry in po if not entry.obsolete}


def test_every_message_has_a_japanese_translation() -> None:
    po = polib.pofile(str(CATALOGUE))
    assert [e.msgid for e in po.untranslated_entries()] == []


def test_no_translation_is_fuzzy() -> None:
    po = polib.pofile(str(CATALOGUE))
    assert [e.msgid for e in po.fuzzy_entries()] == []


def test_placeholders_in_each_translation_match_the_english() -> None:
    subprocess.run(
        ["msgfmt", "--check-format", "--output-file=/dev/null", str(CATALOGUE)],
        check=True,
        capture_output=True,
    )


@pytest.fixture(scope="module")
def fresh_catalogue(tmp_path_factory: pytest.TempPathFactory) -> polib.POFile:
    """The catalogue makemessages makes from the sources now, in a copy of the project."""
    copy = tmp_path_factory.mktemp("project")
    for name in SOURCES:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, copy / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(source, copy / name)
    subprocess.run(
        [sys.executable, "manage.py", "makemessages", "-l", "ja", "--no-obsolete", "-v0"],
        cwd=copy,
        check=True,
        capture_output=True,
    )
    return polib.pofile(str(copy / "locale" / "ja" / "LC_MESSAGES" / "django.po"))


def test_the_catalogue_holds_every_message_in_the_sources(fresh_catalogue: polib.POFile) -> None:
    missing = keys(fresh_catalogue) - keys(polib.pofile(str(CATALOGUE)))
    assert not missing, f"run ./dev messages and translate: {sorted(missing, key=str)}"


def test_the_catalogue_holds_no_message_the_sources_dropped(
    fresh_catalogue: polib.POFile,
) -> None:
    stale = keys(polib.pofile(str(CATALOGUE))) - keys(fresh_catalogue)
    assert not stale, f"run ./dev messages: {sorted(stale, key=str)}"
