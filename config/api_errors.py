"""One error shape for the whole REST API:

    {"code": "...", "message_en": "...", "message_ja": "...", "detail": ...}

(a 429 adds `message`, the request's own language of the two).
`code` is stable (clients branch on it), the two messages are meant to be shown to a person as
they are, and `detail` carries field errors or data a client can act on (the limit that was
exceeded, the line of a batch), or null. Some answers keep keys of their own beside these four
(a move's `rule` and `expected_seq`, a round's `blockers`).

Views answer their refusals with `api_error`; everything raised instead — DRF's own exceptions
(401, 403, 404, 405, 415, 429…), a body refused by `config.api_input` (400, 413), Django's
`Http404` and `PermissionDenied` — goes through `exception_handler` (DRF's `EXCEPTION_HANDLER`).
A database that cannot be reached is 503 with `Retry-After`, never a 500: from a DRF view here,
from anywhere else through `config.errors.server_error`.
"""

from __future__ import annotations

import logging
import math
from typing import Any

from django.conf import settings
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import RequestDataTooBig
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import DataError, InterfaceError, OperationalError
from django.http import Http404
from django.utils import translation
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from rest_framework import exceptions, serializers, status
from rest_framework.response import Response
from rest_framework.serializers import as_serializer_error
from rest_framework.views import set_rollback

from config.api_input import BodyTooLarge, RequestRefused
from config.language import in_active_language

log = logging.getLogger(__name__)

# How long a client should wait before retrying while the database is unreachable (a restart,
# a failover): long enough not to hammer it, short enough for a table to carry on.
DATABASE_RETRY_AFTER_SECONDS = 5

# The two languages of each code raised as an exception (`config.api_input`'s refusals carry
# their own). An exception raised with a sentence of its own keeps it as `message_en`.
MESSAGES: dict[str, Promise] = {
    "bad_request": _("The request is not what this endpoint takes: detail names the problem."),
    "parse_error": _("The request body could not be read."),
    "not_authenticated": _("Sign in, or send a device token (Authorization: Token <key>)."),
    "authentication_failed": _("These credentials are not valid: a mistyped or revoked token?"),
    "permission_denied": _("You may not do this."),
    "not_found": _("No such object, or not one you may see."),
    "method_not_allowed": _("This method is not allowed here."),
    "not_acceptable": _("This server answers in JSON: ask for application/json."),
    "unsupported_media_type": _("This content type is not accepted here: send JSON."),
    "throttled": _("Too many requests: wait the seconds in Retry-After, then try again."),
    "invalid_value": _("A value is beyond what the server can store (a number too large?)."),
    "database_unavailable": _("The database cannot be reached just now: try again in a moment."),
    "server_error": _("The server could not finish this request; the error has been logged."),
}


class ApiErrorSerializer(serializers.Serializer[Any]):
    """Every error answer of the API (documented as the `ApiError` component)."""

    code = serializers.CharField(help_text="Stable code, e.g. permission_denied, seq_conflict.")
    message_en = serializers.CharField()
    message_ja = serializers.CharField()
    detail = serializers.JSONField(
        allow_null=True, help_text="Field errors or data to act on (a limit, a line), or null."
    )
    message = serializers.CharField(
        required=False, help_text="On a 429: the request's own language of the two messages."
    )


class ApiError(exceptions.APIException):
    """A refusal raised rather than returned (from a helper deep in a view): answered as
    `api_error(code, message_en, message_ja, status_code, detail=detail)`."""

    def __init__(
        self, code: str, message_en: str, message_ja: str, http: int = 400, detail: object = None
    ) -> None:
        super().__init__(message_en, code)
        self.status_code = http
        self.body = error_body(code, message_en, message_ja, detail)


def in_both_languages(message: str | Promise) -> tuple[str, str]:
    with translation.override("en"):
        english = str(message)
    with translation.override("ja"):
        return english, str(message)


def error_body(
    code: str, message_en: str, message_ja: str, detail: object = None, **extra: Any
) -> dict[str, Any]:
    return {
        "code": code,
        "message_en": message_en,
        "message_ja": message_ja,
        "detail": detail,
        **extra,
    }


def api_error(
    code: str,
    message_en: str,
    message_ja: str,
    http: int,
    *,
    detail: object = None,
    headers: dict[str, str] | None = None,
    **extra: Any,
) -> Response:
    """An error answer; `extra` keys stand beside the four (a move's `expected_seq`)."""
    return Response(
        error_body(code, message_en, message_ja, detail, **extra), status=http, headers=headers
    )


def coded_body(code: str, detail: object = None) -> dict[str, Any]:
    """The error body of a code whose messages are its own (`MESSAGES`)."""
    return error_body(code, *in_both_languages(MESSAGES[code]), detail)


def bad_request(errors: object) -> Response:
    """400 for a body its serializer refused, the field errors in `detail`."""
    return Response(coded_body("bad_request", errors), status=status.HTTP_400_BAD_REQUEST)


def is_database_outage(error: BaseException | None) -> bool:
    return isinstance(error, OperationalError | InterfaceError)


def _as_api_exception(exc: Exception) -> exceptions.APIException | None:
    if isinstance(exc, exceptions.APIException):
        return exc
    if isinstance(exc, Http404):
        return exceptions.NotFound(*exc.args)
    if isinstance(exc, DjangoPermissionDenied):
        return exceptions.PermissionDenied(*exc.args)
    if isinstance(exc, RequestDataTooBig):  # a form body over DATA_UPLOAD_MAX_MEMORY_SIZE
        return BodyTooLarge(max_bytes=settings.DATA_UPLOAD_MAX_MEMORY_SIZE)
    if isinstance(exc, DjangoValidationError):  # a model's own check reached the view
        return exceptions.ValidationError(as_serializer_error(exc))
    return None


def _messages(exc: exceptions.APIException, code: str) -> tuple[str, str]:
    default = exc.default_detail if isinstance(exc, RequestRefused) else MESSAGES.get(code)
    if default is None:
        default = exc.default_detail
    english, japanese = in_both_languages(default if isinstance(default, Promise) else str(default))
    if isinstance(exc, exceptions.ValidationError | RequestRefused):
        return english, japanese
    own = str(exc.detail) if isinstance(exc.detail, str) else ""
    if isinstance(exc, exceptions.Throttled) and own.startswith(str(exc.default_detail)):
        own = ""  # DRF's "Request was throttled. Expected available in n seconds.", in the
        # request's language: not English, and the wait is in Retry-After and detail anyway
    if own and own != str(exc.default_detail):
        english = own  # the raiser's own sentence ("This device's token is limited to …")
    return english, japanese


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """DRF's `EXCEPTION_HANDLER`: every exception a view raises, in the one error shape."""
    if is_database_outage(exc):
        log.error("database unavailable: %s", exc)
        return Response(
            coded_body("database_unavailable"),
            status=status.HTTP_503_SERVICE_UNAVAILABLE,
            headers={"Retry-After": str(DATABASE_RETRY_AFTER_SECONDS)},
        )
    if isinstance(exc, DataError):  # input that got past its serializer: still the client's
        log.warning("value refused by the database: %s", exc)
        return Response(coded_body("invalid_value"), status=status.HTTP_400_BAD_REQUEST)
    if isinstance(exc, ApiError):
        set_rollback()
        return Response(exc.body, status=exc.status_code)
    api_exc = _as_api_exception(exc)
    if api_exc is None:
        return None  # a bug: Django's 500 (config.errors.server_error)
    headers: dict[str, str] = {}
    if getattr(api_exc, "auth_header", None):
        headers["WWW-Authenticate"] = api_exc.auth_header  # type: ignore[attr-defined]
    detail: object = None
    if isinstance(api_exc, exceptions.ValidationError):
        code = "bad_request"
        detail = api_exc.detail
    else:
        code = str(api_exc.default_code)
    if isinstance(api_exc, RequestRefused):
        detail = api_exc.extra
    wait = getattr(api_exc, "wait", None)
    if wait:
        headers["Retry-After"] = str(math.ceil(wait))
        detail = {"retry_after_seconds": math.ceil(wait)}
    set_rollback()
    english, japanese = _messages(api_exc, code)
    extra: dict[str, str] = {}
    if isinstance(api_exc, exceptions.Throttled):
        # A 429 is often shown as it is by a script or an app that knows no codes: the
        # request's own language beside the pair.
        extra["message"] = in_active_language(english, japanese)
    return api_error(
        code, english, japanese, api_exc.status_code, detail=detail, headers=headers, **extra
    )


# --- the OpenAPI schema (drf-spectacular postprocessing hook) ---------------------------------

ERROR_COMPONENT = "ApiError"
_ANSWERS = {
    "400": "bad_request (field errors in detail), invalid_json, invalid_utf8, nested_too_deep, "
    "unpaired_surrogate.",
    "401": "not_authenticated or authentication_failed (WWW-Authenticate: Token).",
    "403": "permission_denied: not yours to do (or the device token's scope is elsewhere).",
    "404": "not_found: no such object, or one you may not see.",
    "413": "body_too_large (API_MAX_BODY_BYTES) or, for JSON lines, too_many_lines.",
    "429": "throttled: wait the seconds in Retry-After.",
    "503": "database_unavailable: try again after the seconds in Retry-After.",
}


# The component as drf-spectacular would write ApiErrorSerializer (used where no view names it).
ERROR_SCHEMA: dict[str, Any] = {
    "type": "object",
    "description": "Every error answer of the API.",
    "properties": {
        "code": {"type": "string", "description": "Stable code, e.g. permission_denied."},
        "message_en": {"type": "string"},
        "message_ja": {"type": "string"},
        "detail": {
            "nullable": True,
            "description": "Field errors or data to act on (a limit, a line), or null.",
        },
        "message": {
            "type": "string",
            "description": "On a 429: the request's own language of the two messages.",
        },
    },
    "required": ["code", "detail", "message_en", "message_ja"],
}


def _answers_of(path: str, method: str, operation: dict[str, Any]) -> list[str]:
    codes = ["429", "503"]
    if "requestBody" in operation:
        codes += ["400", "413"]
    if method != "get":
        codes += ["401", "403"]
    if "{" in path:
        codes.append("404")
    return codes


def document_error_answers(
    result: dict[str, Any], generator: Any, request: Any, public: bool
) -> dict[str, Any]:
    """Every operation lists the error answers that apply to it, in the ApiError shape: those
    its view documents itself are kept, an answer documented without a body gets one."""
    error_ref = {"$ref": f"#/components/schemas/{ERROR_COMPONENT}"}
    error_content = {"application/json": {"schema": error_ref}}
    schemas = result.setdefault("components", {}).setdefault("schemas", {})
    schemas.setdefault(ERROR_COMPONENT, ERROR_SCHEMA)
    # The views' own error shapes (a move's, a table's: the four keys and some of their own).
    for schema in schemas.values():
        fields = schema.get("properties", {})
        if {"code", "message_en", "message_ja"} <= fields.keys() and "detail" not in fields:
            fields["detail"] = ERROR_SCHEMA["properties"]["detail"]
    for path, operations in result.get("paths", {}).items():
        for method, operation in operations.items():
            responses = operation.setdefault("responses", {})
            for http in _answers_of(path, method, operation):
                answer = responses.setdefault(http, {"description": _ANSWERS[http]})
                answer.setdefault("content", error_content)
            for http, answer in responses.items():
                if http.startswith(("4", "5")) and "content" not in answer:
                    answer["content"] = error_content
    return result
