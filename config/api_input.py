"""Bounded request bodies for the REST API: JSON, JSON lines (NDJSON) and multipart uploads.

A body is read only once the view has checked who is asking (DRF parses lazily, on the first
`request.data`), and never whole when it is too large: the declared `Content-Length` is checked
before anything is read, and at most `API_MAX_BODY_BYTES` + 1 bytes are ever read. What is
read must be UTF-8, nested at most `API_MAX_JSON_DEPTH` levels (deeper JSON would exhaust the
parser's recursion) and free of unpaired surrogates (`"\\ud800"` is valid JSON escaping, but
no text: PostgreSQL, the engine's card names and every page would choke on it). A refusal is
one of the exceptions below, answered in the API's error shape (`config.api_errors`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django.utils.translation import gettext_lazy as _
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import authentication, status
from rest_framework.exceptions import APIException, ParseError
from rest_framework.parsers import BaseParser, MultiPartParser
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request

NDJSON = "application/x-ndjson"


class RequestRefused(APIException):
    """A refusal of the request's body, with `extra` data for the answer's `detail`."""

    def __init__(self, **extra: Any) -> None:
        super().__init__()
        self.extra = extra or None


class BodyTooLarge(RequestRefused):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_code = "body_too_large"
    default_detail = _("The request body is larger than this server accepts.")


class TooManyLines(RequestRefused):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_code = "too_many_lines"
    default_detail = _("The batch has more lines than this server accepts in one request.")


class InvalidJSON(RequestRefused, ParseError):
    default_code = "invalid_json"
    default_detail = _("The request body is not valid JSON.")


class InvalidUTF8(RequestRefused, ParseError):
    default_code = "invalid_utf8"
    default_detail = _("The request body is not valid UTF-8 text.")


class NestedTooDeep(RequestRefused, ParseError):
    default_code = "nested_too_deep"
    default_detail = _("The JSON is nested more deeply than this server accepts.")


class UnpairedSurrogate(RequestRefused, ParseError):
    default_code = "unpaired_surrogate"
    default_detail = _(
        "The JSON holds an unpaired surrogate escape (such as \\ud800), which is not text."
    )


def _declared_length(parser_context: Mapping[str, Any] | None) -> int | None:
    request = (parser_context or {}).get("request")
    if request is None:
        return None
    try:
        return int(request.META.get("CONTENT_LENGTH") or "")
    except ValueError:
        return None


def _refuse_declared_oversize(parser_context: Mapping[str, Any] | None) -> None:
    limit: int = settings.API_MAX_BODY_BYTES
    declared = _declared_length(parser_context)
    if declared is not None and declared > limit:
        raise BodyTooLarge(max_bytes=limit)


def read_bounded(stream: Any, parser_context: Mapping[str, Any] | None) -> bytes:
    """The body, refused (413) when its declared length is over the limit — before anything is
    read — or when more than the limit arrives (a length not declared, or declared wrongly)."""
    limit: int = settings.API_MAX_BODY_BYTES
    _refuse_declared_oversize(parser_context)
    raw: bytes = stream.read(limit + 1)
    if len(raw) > limit:
        raise BodyTooLarge(max_bytes=limit)
    return raw


def decode_utf8(raw: bytes, *, line: int | None = None) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise InvalidUTF8(**_where(line), position=error.start) from None


# A JSON string (escapes included) or a bracket: brackets inside strings are not nesting.
_STRINGS_AND_BRACKETS = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|[\[\]{}]')


def _nested_deeper_than(text: str, limit: int) -> bool:
    if text.count("[") + text.count("{") <= limit:
        return False  # the common case, at C speed: too few brackets to nest that deep
    depth = 0
    for token in _STRINGS_AND_BRACKETS.finditer(text):
        opening = token.group()[0]
        if opening in "[{":
            depth += 1
            if depth > limit:
                return True
        elif opening in "]}":
            depth -= 1
    return False


def _refuse_constant(name: str) -> None:
    raise ValueError(f"{name} is not JSON")  # NaN, Infinity: as DRF's strict JSON parser


def _where(line: int | None) -> dict[str, int]:
    return {} if line is None else {"line": line}


def load_json(text: str, *, line: int | None = None) -> Any:
    """`text` as JSON, within the depth limit and free of unpaired surrogates."""
    limit: int = settings.API_MAX_JSON_DEPTH
    if _nested_deeper_than(text, limit):
        raise NestedTooDeep(**_where(line), max_depth=limit)
    try:
        data = json.loads(text, parse_constant=_refuse_constant)
    except RecursionError:  # (a nesting the scan above did not see: never trust one check)
        raise NestedTooDeep(**_where(line), max_depth=limit) from None
    except ValueError as error:
        raise InvalidJSON(**_where(line), error=str(error)) from None
    # Surrogates can only come from \u escapes: text without one needs no second look.
    if "\\u" in text or "\\U" in text:
        try:
            json.dumps(data, ensure_ascii=False).encode("utf-8")
        except UnicodeEncodeError:
            raise UnpairedSurrogate(**_where(line)) from None
    return data


class JSONParser(BaseParser):
    """JSON bodies (every API view's default), bounded and checked as above."""

    media_type = "application/json"
    renderer_class = JSONRenderer

    def parse(
        self,
        stream: Any,
        media_type: str | None = None,
        parser_context: Mapping[str, Any] | None = None,
    ) -> Any:
        return load_json(decode_utf8(read_bounded(stream, parser_context)))


class NDJSONParser(BaseParser):
    """JSON lines: one JSON value per line (blank lines ignored), at most
    `API_MAX_NDJSON_LINES` of them; each line is checked as a JSON body is."""

    media_type = NDJSON

    def parse(
        self,
        stream: Any,
        media_type: str | None = None,
        parser_context: Mapping[str, Any] | None = None,
    ) -> Any:  # a list of lines, where DRF's stub expects a mapping
        most: int = settings.API_MAX_NDJSON_LINES
        lines: list[Any] = []
        for number, raw in enumerate(read_bounded(stream, parser_context).split(b"\n"), 1):
            if not raw.strip():
                continue
            if len(lines) == most:
                raise TooManyLines(max_lines=most)
            lines.append(load_json(decode_utf8(raw, line=number), line=number))
        return lines


class BoundedMultiPartParser(MultiPartParser):
    """File uploads (the entrants' CSV): refused unread when declared over the limit. (Django
    reads at most the declared length; a body sent without one reads as empty.)"""

    def parse(
        self,
        stream: Any,
        media_type: str | None = None,
        parser_context: Mapping[str, Any] | None = None,
    ) -> Any:
        _refuse_declared_oversize(parser_context)
        return super().parse(stream, media_type, parser_context)


class SessionAuthentication(authentication.SessionAuthentication):
    """DRF's session authentication, whose CSRF check leaves the body unread: DRF's own hands
    Django's check its Request, whose `POST` parses the body (before any permission check);
    Django's request reads only a form's body, which a JSON body is not."""

    def enforce_csrf(self, request: Request) -> None:
        super().enforce_csrf(request._request)  # type: ignore[arg-type]  # (any HttpRequest)


class SessionScheme(OpenApiAuthenticationExtension):  # type: ignore[no-untyped-call]
    """Documents the session above as drf-spectacular documents DRF's own (`cookieAuth`: the
    same cookie; a scheme's name may belong to one class only)."""

    target_class = "config.api_input.SessionAuthentication"
    name = "sessionCookie"

    def get_security_definition(self, auto_schema: Any) -> dict[str, str]:
        return {"type": "apiKey", "in": "cookie", "name": settings.SESSION_COOKIE_NAME}
