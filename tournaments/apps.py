from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = _("Tournaments")

    def ready(self) -> None:
        # Connects the receivers that bring a signed-in person's saved language back and count
        # failed sign-ins against the client's address.
        import config.language
        import config.lockout  # noqa: F401
