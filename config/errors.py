"""Error pages that say what to do next, in the page's language (handler403/404/500).

A `PermissionDenied` raised with a sentence for people (the referee console's "This table
belongs to another referee — ask the head referee …") is shown as it is; a bare one gets the
generic guidance. An htmx request gets a compact error partial instead of a whole page: the
global rule in base.html swaps 4xx answers into the request's target, so the message appears
where the person was looking. The 500 page is rendered without context processors or the
database (whatever failed may be the database); the language LocaleMiddleware activated for
the request is still active, so it speaks the page's language too.

A database that cannot be reached is not a bug: it answers 503 with `Retry-After` (a page that
says so, or for `/api/` the API's JSON error). Every answer under `/api/` is JSON in the API's
error shape (`config.api_errors`), whatever view or middleware failed.
"""

from __future__ import annotations

import sys

from django.http import HttpRequest, HttpResponse, HttpResponseServerError, JsonResponse
from django.shortcuts import render
from django.template import loader
from django.utils import translation
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy

from config.api_errors import DATABASE_RETRY_AFTER_SECONDS, coded_body, is_database_outage

GUIDANCE: dict[int, dict[str, Promise]] = {
    403: {
        "title": gettext_lazy("Not allowed here"),
        "next": gettext_lazy(
            "You are signed in as someone who may not do this. If you should be able to, ask "
            "the head referee or the organiser; or sign in with another account."
        ),
    },
    404: {
        "title": gettext_lazy("Page not found"),
        "next": gettext_lazy(
            "The address may be mistyped, the round may not be published yet, or the page "
            "belongs to another tournament. Go back, or start from the tournament list."
        ),
    },
}


def _human(message: str) -> str:
    """The exception's message when it was written for people (a sentence), else ""."""
    message = message.strip()
    if not message or len(message) > 400 or message.startswith(("<", "{", "[")):
        return ""
    return message


def _render(request: HttpRequest, status: int, message: str = "") -> HttpResponse:
    context = {"status": status, "message": message, **GUIDANCE[status]}
    if request.headers.get("HX-Request") == "true":
        return render(request, "partials/error.html", context, status=status)
    return render(request, f"{status}.html", context, status=status)


def _is_api(request: HttpRequest) -> bool:
    return request.path.startswith("/api/")


def _api_error(code: str, http: int) -> JsonResponse:
    return JsonResponse(coded_body(code), status=http, json_dumps_params={"ensure_ascii": False})


def permission_denied(request: HttpRequest, exception: Exception) -> HttpResponse:
    if _is_api(request):
        return _api_error("permission_denied", 403)
    return _render(request, 403, _human(str(exception)))


def page_not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    if _is_api(request):
        return _api_error("not_found", 404)
    # Http404 messages are for developers ("No Game matches the given query."): not shown.
    return _render(request, 404)


def server_error(request: HttpRequest) -> HttpResponse:
    # No request context (no context processors): the language is passed in by hand.
    language = translation.get_language() or "ja"
    if is_database_outage(sys.exc_info()[1]):
        if _is_api(request):
            response: HttpResponse = _api_error("database_unavailable", 503)
        else:
            page = loader.get_template("503.html").render({"LANGUAGE_CODE": language})
            response = HttpResponse(page, status=503)
        response["Retry-After"] = str(DATABASE_RETRY_AFTER_SECONDS)
        return response
    if _is_api(request):
        return _api_error("server_error", 500)
    template = loader.get_template("500.html")
    return HttpResponseServerError(template.render({"LANGUAGE_CODE": language}))
