"""Error pages that say what to do next, in English and Japanese (handler403/404/500).

A `PermissionDenied` raised with a sentence for people (the referee console's "This table
belongs to another referee — ask the head referee …") is shown as it is; a bare one gets the
generic guidance. An htmx request gets a compact error partial instead of a whole page: the
global rule in base.html swaps 4xx answers into the request's target, so the message appears
where the person was looking. The 500 page is rendered without context processors or the
database (whatever failed may be the database).
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, HttpResponseServerError
from django.shortcuts import render
from django.template import loader

GUIDANCE = {
    403: {
        "title_en": "Not allowed here",
        "title_ja": "この操作は許可されていません",
        "next_en": "You are signed in as someone who may not do this. If you should be able "
        "to, ask the head referee or the organiser; or sign in with another account.",
        "next_ja": "このアカウントではこの操作はできません。"
        "必要な場合は主審または主催者に確認するか、別のアカウントでログインしてください。",
    },
    404: {
        "title_en": "Page not found",
        "title_ja": "ページが見つかりません",
        "next_en": "The address may be mistyped, the round may not be published yet, or the page "
        "belongs to another tournament. Go back, or start from the tournament list.",
        "next_ja": "アドレスの誤り、未公開の回戦、または別の大会のページかもしれません。"
        "前のページに戻るか、大会一覧から探してください。",
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


def permission_denied(request: HttpRequest, exception: Exception) -> HttpResponse:
    return _render(request, 403, _human(str(exception)))


def page_not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    # Http404 messages are for developers ("No Game matches the given query."): not shown.
    return _render(request, 404)


def server_error(request: HttpRequest) -> HttpResponse:
    template = loader.get_template("500.html")
    return HttpResponseServerError(template.render({}))
