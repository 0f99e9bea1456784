"""Every relative link in the repository's Markdown resolves to a file inside the repository:
a clone never has a broken link, nor one that points outside it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SKIPPED = {".venv", ".git", "node_modules", "test-artifacts"}
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")


def markdown_files() -> list[Path]:
    return sorted(p for p in ROOT.rglob("*.md") if not SKIPPED & set(p.relative_to(ROOT).parts))


def relative_links(path: Path) -> list[str]:
    text = re.sub(r"```.*?```", "", path.read_text(encoding="utf-8"), flags=re.DOTALL)
    return [
        target
        for target in LINK.findall(text)
        if not re.match(r"^[a-z][a-z0-9+.-]*:", target) and not target.startswith("#")
    ]


@pytest.mark.parametrize("path", markdown_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_relative_links_resolve_inside_the_repository(path: Path) -> None:
    broken = []
    for target in relative_links(path):
        resolved = (path.parent / target.split("#", 1)[0]).resolve()
        if not resolved.is_relative_to(ROOT) or not resolved.exists():
            broken.append(target)
    assert broken == []


def test_the_readme_and_docs_are_checked() -> None:
    names = {str(p.relative_to(ROOT)) for p in markdown_files()}
    assert {"README.md", "docs/design.md", "docs/api.md"} <= names
