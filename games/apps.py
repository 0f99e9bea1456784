from __future__ import annotations

from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Games"

    def ready(self) -> None:
        from games.auth import connect_token_cache

        connect_token_cache()
