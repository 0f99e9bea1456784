"""CSV files people open in a spreadsheet: the one writer every CSV answer of the service uses.

Encoding. Excel on Japanese Windows reads a CSV without a byte-order mark as Shift_JIS, so a
UTF-8 file without one shows mojibake: the files are UTF-8 *with* a BOM by default, which every
Excel since 2007 (and LibreOffice, Numbers, Google Sheets) reads as UTF-8. Older tools that only
read Shift_JIS get `?encoding=cp932` (also `shift_jis`, `sjis`, `windows-31j`): Windows'
Shift_JIS. A name CP932 cannot hold (𠮷, an emoji, the card suits ♠♥♦♣, or a character CP932
would read back as another one, such as 〜 WAVE DASH) is refused with
`csv_encoding_unrepresentable`, naming the character, the row and the cell, rather than dropped
or replaced: the UTF-8 file holds every character. Lines end in CRLF, as Excel writes them.

Cells. True/False are written as words in the reader's language (はい/いいえ, Yes/No), None as
an empty cell. A spreadsheet runs a cell that starts with `=`, `+`, `-` or `@` (and some read a
leading tab or carriage return the same way) as a formula: a player who registers as
`=HYPERLINK("http://…","…")` would put a live link, or worse, into the organiser's sheet.
OWASP's advice (CSV injection) is to start such a cell with `'`, which spreadsheets show as
text. Numbers are left alone: a negative points figure (`-3`) must stay a number.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any
from urllib.parse import quote

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from config.api_errors import error_body, in_both_languages
from config.language import in_active_language

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
PLAIN_NUMBER = re.compile(r"[+-]?\d+(\.\d+)?")
YES = pgettext_lazy("CSV cell", "Yes")
NO = pgettext_lazy("CSV cell", "No")
# Cells named in a refusal's `detail` (the message names the first).
REFUSAL_CELLS = 20


def spreadsheet_cell(value: object) -> object:
    """`value` as a CSV cell that no spreadsheet runs as a formula: text starting with a
    formula character gets a leading `'`; numbers (and text that is just a number) pass."""
    if isinstance(value, int | float | Decimal) or not isinstance(value, str):
        return value
    if value.startswith(FORMULA_STARTS) and not PLAIN_NUMBER.fullmatch(value):
        return "'" + value
    return value


def cell_text(value: object) -> str:
    """The text of one cell: a flag as a word in the active language, None empty, everything
    else through `spreadsheet_cell`."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return str(YES if value else NO)
    return str(spreadsheet_cell(value))


@dataclass(frozen=True, slots=True)
class CsvEncoding:
    """How a CSV file is written: `key` names it in cache keys and ETags, `codec` is Python's,
    `charset` the Content-Type's."""

    key: str
    codec: str
    charset: str
    bom: bytes = b""


UTF8_BOM = CsvEncoding("utf-8", "utf-8", "utf-8", b"\xef\xbb\xbf")
CP932 = CsvEncoding("cp932", "cp932", "Shift_JIS")
# What `?encoding=` takes (case and `_`/`-` ignored); absent or empty: UTF-8 with a BOM.
ENCODINGS = {
    "utf8": UTF8_BOM,
    "cp932": CP932,
    "shiftjis": CP932,
    "sjis": CP932,
    "windows31j": CP932,
    "ms932": CP932,
}


class CsvRefused(Exception):
    """A CSV that cannot be written as asked: a stable `code`, the message in English and
    Japanese, the HTTP status and the data to act on (`detail`)."""

    def __init__(
        self, code: str, message_en: str, message_ja: str, status: int, detail: object = None
    ) -> None:
        super().__init__(message_en)
        self.code = code
        self.message_en = message_en
        self.message_ja = message_ja
        self.status = status
        self.detail = detail


UNKNOWN_ENCODING = _(
    "This CSV can be downloaded in UTF-8 (the default, for Excel) or Shift_JIS "
    "(?encoding=cp932); “%(name)s” is neither."
)
UNREPRESENTABLE = _(
    "This CSV cannot be written in Shift_JIS (CP932) without changing a name: the character "
    "“%(character)s” (%(codepoint)s) in row %(row)s (%(column)s: “%(value)s”) has no "
    "Shift_JIS code; %(count)s cell(s) in all. Nothing was dropped or replaced: download the "
    "UTF-8 CSV (for Excel) instead, which holds every character."
)


def csv_encoding(name: str | None) -> CsvEncoding:
    """The encoding `?encoding=` names (UTF-8 with a BOM when absent), or `CsvRefused`
    (400 `csv_encoding_unknown`)."""
    if not name:
        return UTF8_BOM
    found = ENCODINGS.get(name.strip().lower().replace("-", "").replace("_", ""))
    if found is None:
        shown = name[:40]
        english, japanese = in_both_languages(UNKNOWN_ENCODING)
        raise CsvRefused(
            "csv_encoding_unknown",
            english % {"name": shown},
            japanese % {"name": shown},
            400,
            {"encoding": shown, "accepted": ["utf-8", "cp932", "shift_jis", "sjis"]},
        )
    return found


def csv_text(header: Sequence[object], rows: Iterable[Sequence[object]]) -> list[list[str]]:
    """The table a CSV file holds: the header row, then every row, each cell as `cell_text`."""
    return [[cell_text(c) for c in header], *([cell_text(c) for c in row] for row in rows)]


def _holds(character: str, encoding: CsvEncoding) -> bool:
    """Whether the encoding writes `character` so that it reads back as itself."""
    try:
        return character.encode(encoding.codec).decode(encoding.codec) == character
    except UnicodeError:
        return False


def _unrepresentable(table: list[list[str]], encoding: CsvEncoding) -> list[dict[str, Any]]:
    """Every cell holding a character `encoding` cannot write as itself: its row (the header
    is row 1, as a spreadsheet numbers it), its column's header, its text and the characters."""
    found = []
    header = table[0]
    for number, row in enumerate(table, start=1):
        for index, cell in enumerate(row):
            missing = sorted({c for c in cell if not c.isascii() and not _holds(c, encoding)})
            if missing:
                column = header[index] if index < len(header) else str(index + 1)
                found.append(
                    {"row": number, "column": column, "value": cell, "characters": missing}
                )
    return found


def csv_bytes(table: list[list[str]], encoding: CsvEncoding) -> bytes:
    """The file: `table` (`csv_text`) with CRLF line endings in `encoding`, or `CsvRefused`
    (422 `csv_encoding_unrepresentable`) naming every cell it cannot hold — never a dropped
    or replaced character."""
    out = io.StringIO(newline="")
    csv.writer(out, lineterminator="\r\n").writerows(table)
    text = out.getvalue()
    try:
        data = text.encode(encoding.codec)
        if data.decode(encoding.codec) == text:
            return encoding.bom + data
    except UnicodeError:
        pass
    cells = _unrepresentable(table, encoding)
    first = cells[0]
    character = first["characters"][0]
    values = {
        "character": character,
        "codepoint": f"U+{ord(character):04X}",
        "row": first["row"],
        "column": first["column"],
        "value": first["value"],
        "count": len(cells),
    }
    english, japanese = in_both_languages(UNREPRESENTABLE)
    raise CsvRefused(
        "csv_encoding_unrepresentable",
        english % values,
        japanese % values,
        422,
        {"encoding": encoding.key, "cells": cells[:REFUSAL_CELLS], "count": len(cells)},
    )


def _ascii_name(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "-", name).strip("-") or "export.csv"


def csv_response(data: bytes, encoding: CsvEncoding, filename: str, fallback: str) -> HttpResponse:
    """The download: `text/csv` with the encoding's charset, as an attachment named
    `filename` (RFC 5987 `filename*`, for a Japanese name) and `fallback` (ASCII) for old
    clients."""
    response = HttpResponse(data, content_type=f"text/csv; charset={encoding.charset}")
    response["Content-Disposition"] = (
        f'attachment; filename="{_ascii_name(fallback)}"; '
        f"filename*=UTF-8''{quote(filename, safe='')}"
    )
    return response


def csv_refusal(request: HttpRequest, error: CsvRefused, utf8_url: str = "") -> HttpResponse:
    """The refusal: for a browser, a page in its language with the UTF-8 download offered;
    for anything else, the API's error shape (code, message_en, message_ja, detail)."""
    if request.get_preferred_type(["application/json", "text/html"]) == "text/html":
        detail = error.detail if isinstance(error.detail, dict) else {}
        context = {
            "error": error,
            "message": in_active_language(error.message_en, error.message_ja),
            "cells": detail.get("cells", []),
            "utf8_url": utf8_url,
        }
        return render(request, "csv_refused.html", context, status=error.status)
    return JsonResponse(
        error_body(error.code, error.message_en, error.message_ja, error.detail),
        status=error.status,
        json_dumps_params={"ensure_ascii": False},
    )
