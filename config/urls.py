from __future__ import annotations

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView
from rest_framework.routers import DefaultRouter

from config import health
from config.language import set_language
from config.lockout import refuse_failing_addresses
from tournaments.api import (
    EntryViewSet,
    RoundViewSet,
    StageViewSet,
    TableViewSet,
    TournamentViewSet,
)
from tournaments.setup_api import LeagueViewSet, SeasonViewSet
from tournaments.views import tournament_list

router = DefaultRouter()
router.register("tournaments", TournamentViewSet, basename="tournament")
router.register("stages", StageViewSet, basename="stage")
router.register("rounds", RoundViewSet, basename="round")
router.register("tables", TableViewSet, basename="table")
router.register("entries", EntryViewSet, basename="entry")
router.register("leagues", LeagueViewSet, basename="league")
router.register("seasons", SeasonViewSet, basename="season")

urlpatterns = [
    path("", tournament_list, name="home"),
    path("tournaments/", include("tournaments.urls")),
    path("organiser/<slug:slug>/scoring/", include("scoring.urls_organiser")),
    path("organiser/", include("tournaments.urls_organiser")),
    path("referee/", include("games.urls_referee")),
    path("", include("games.urls")),
    path("", include("scoring.urls")),
    # Readiness (`/healthz` is kept for the proxies and checks already pointed at it) and
    # liveness: config/health.py.
    path("healthz", health.ready, name="healthz"),
    path("healthz/ready", health.ready, name="healthz-ready"),
    path("healthz/live", health.live, name="healthz-live"),
    path("language/", set_language, name="set_language"),
    # Sign-in pages refuse an address past the failed-sign-in rate (config/lockout.py).
    path(
        "accounts/login/",
        refuse_failing_addresses(auth_views.LoginView.as_view()),
        name="login",
    ),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    # Sign-in links, PIN cards and the after-sign-in landing page (issue #12).
    path("accounts/", include("tournaments.urls_signin")),
    path("admin/login/", refuse_failing_addresses(admin.site.login)),
    path("admin/", admin.site.urls),
    path("api/", include("games.urls_api")),
    # Officials, referee assignment and device tokens (issue #12).
    path("api/", include("tournaments.api_officials")),
    path("api/", include("games.api_devices")),
    path("api/", include("scoring.urls_api")),
    path("api/", include(router.urls)),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularRedocView.as_view(url_name="schema"), name="api-docs"),
]

# Error pages that say what to do next (and a compact partial for htmx requests).
handler403 = "config.errors.permission_denied"
handler404 = "config.errors.page_not_found"
handler500 = "config.errors.server_error"
