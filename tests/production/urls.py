"""config.urls, and `/parity/server-error/`, which fails as a bug in a view would."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.urls import path

from config.urls import *  # noqa: F403
from config.urls import urlpatterns as production_urlpatterns


def server_error(request: HttpRequest) -> HttpResponse:
    raise RuntimeError("the production-parity stage asked for a server error")


urlpatterns = [*production_urlpatterns, path("parity/server-error/", server_error)]
