"""Every word a person reads on a page goes through a translation tag: text between HTML tags
and the attributes people read (title, placeholder, aria-label, alt, hx-confirm) may hold
only template variables, tags, numbers and punctuation outside {% translate %} and
{% blocktranslate %}. Names and values come from variables, so they are not checked here."""

from __future__ import annotations

import unicodedata
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.template.base import Lexer, TokenType

TEMPLATES = Path(__file__).resolve().parent.parent / "templates"
READ_ATTRIBUTES = {"title", "placeholder", "aria-label", "alt", "hx-confirm", "data-confirm"}
HOLE = "\x00"  # where a template tag or variable stood
# Templates that are not pages of ours: Redoc's page shell (its text is the API schema's).
NOT_OURS = {"drf_spectacular/redoc.html"}


def skeleton(source: str) -> str:
    """The template's text with every tag, variable and translated block replaced by HOLE."""
    parts: list[str] = []
    skipping: str | None = None
    for token in Lexer(source).tokenize():
        if token.token_type == TokenType.BLOCK:
            name = token.contents.split()[0] if token.contents else ""
            if skipping:
                if name == skipping:
                    skipping = None
                continue
            if name in {"blocktranslate", "blocktrans"}:
                skipping = "end" + name
            elif name == "comment":
                skipping = "endcomment"
            parts.append(HOLE)
        elif token.token_type == TokenType.TEXT and not skipping:
            parts.append(token.contents)
        elif not skipping:
            parts.append(HOLE)
    return "".join(parts)


def has_words(text: str) -> bool:
    return any(unicodedata.category(ch).startswith("L") for ch in text.replace(HOLE, ""))


class UntranslatedText(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[str] = []
        self._raw = 0  # inside <script> or <style>

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in {"script", "style"}:
            self._raw += 1
        for name, value in attrs:
            if name in READ_ATTRIBUTES and value and has_words(value):
                self.found.append(f'<{tag} {name}="{value.strip()}">')

    def handle_endtag(self, tag: str) -> None:
        if tag in {"script", "style"}:
            self._raw -= 1

    def handle_data(self, data: str) -> None:
        if not self._raw and has_words(data):
            self.found.append(" ".join(data.replace(HOLE, "…").split()))


def untranslated(source: str) -> list[str]:
    parser = UntranslatedText()
    parser.feed(skeleton(source))
    parser.close()
    return parser.found


PAGES = sorted(
    str(p.relative_to(TEMPLATES))
    for p in TEMPLATES.rglob("*.html")
    if str(p.relative_to(TEMPLATES)) not in NOT_OURS
)


@pytest.mark.parametrize("template", PAGES)
def test_every_word_on_the_page_is_in_a_translation_tag(template: str) -> None:
    assert untranslated((TEMPLATES / template).read_text(encoding="utf-8")) == []


def test_the_check_finds_text_and_attributes_left_outside_the_tags() -> None:
    source = (
        '{% load i18n %}<p title="Seat">{% translate "Round" %} {{ n }}</p>'
        "<button>Draw next round</button>{% blocktranslate %}Table {{ n }}{% endblocktranslate %}"
        "<script>const words = 'not a page text';</script>"
    )
    assert untranslated(source) == ['<p title="Seat">', "Draw next round"]
