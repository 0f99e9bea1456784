"""Which language a page speaks: a signed-in person's saved choice, else the language cookie
set by the header's switch, else the browser's Accept-Language, else Japanese.

Messages that come in pairs (the engine's and the services' refusals carry English and
Japanese, so the API can return both) are shown in the active language by `in_active_language`.
"""

from __future__ import annotations

from typing import Any, TypeGuard

from django.conf import settings
from django.contrib.auth.signals import user_logged_in
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse
from django.middleware.locale import LocaleMiddleware
from django.utils import translation
from django.views.decorators.http import require_POST
from django.views.i18n import set_language as django_set_language

SESSION_KEY = "kakumei_language"


def in_active_language(message_en: str, message_ja: str) -> str:
    """One of a message's two wordings, in the language of the page being rendered."""
    return message_ja if translation.get_language() == "ja" and message_ja else message_en


def is_supported(language: object) -> TypeGuard[str]:
    return isinstance(language, str) and language in dict(settings.LANGUAGES)


class LanguageMiddleware(LocaleMiddleware):
    """Django's LocaleMiddleware, with a signed-in person's saved language first."""

    def process_request(self, request: HttpRequest) -> None:
        saved = request.session.get(SESSION_KEY)
        if is_supported(saved):
            translation.activate(saved)
            request.LANGUAGE_CODE = saved
            return
        super().process_request(request)


@require_POST
def set_language(request: HttpRequest) -> HttpResponse:
    """The header's switch: Django's set_language (the cookie, then back to the page), and
    for a signed-in person the choice is saved with their account."""
    response = django_set_language(request)
    language = request.POST.get("language")
    if is_supported(language):
        if request.user.is_authenticated:
            from tournaments.models import LanguagePreference

            LanguagePreference.objects.update_or_create(
                user=request.user, defaults={"language": language}
            )
            request.session[SESSION_KEY] = language
        else:
            request.session.pop(SESSION_KEY, None)
    return response


@receiver(user_logged_in)
def restore_saved_language(sender: Any, request: HttpRequest | None, user: Any, **_: Any) -> None:
    if request is None:
        return
    from tournaments.models import LanguagePreference

    saved = LanguagePreference.objects.filter(user=user).values_list("language", flat=True).first()
    if saved:
        request.session[SESSION_KEY] = saved
