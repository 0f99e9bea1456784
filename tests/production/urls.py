"""config.urls, and `/parity/server-error/`, which fails as a bug in a view would."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.urls import path

from config.urls import *  # noqa: F403
from config.urls import urlpatterns as production_urlpatterns

PURPOSEFUL_ERROR = "the production-parity stage asked for a server error"
SERVER_ERROR_PATH = "/parity/server-error/"


def server_error(request: HttpRequest) -> HttpResponse:
    raise RuntimeError(PURPOSEFUL_ERROR)


urlpatterns = [*production_urlpatterns, path(SERVER_ERROR_PATH.lstrip("/"), server_error)]
