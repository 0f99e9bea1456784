"""Seat UECda client programs at a tournament's all-bot tables (docs/bots.md).

    python manage.py uecda_bridge --tournament SLUG [--host 127.0.0.1] [--port 42485]
                                  [--rounds N] [--timeout 10]

The logic is `games.uecda_bridge`; this command only reads the options and logs to stderr.
"""

from __future__ import annotations

import logging
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.services import GameError
from games.uecda_bridge import serve
from tournaments.models import Tournament


class Command(BaseCommand):
    help = "Listen for UECda programs and play the tournament's tables whose seats are all bots."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--tournament", required=True, help="the tournament's slug")
        parser.add_argument("--host", default="127.0.0.1")
        parser.add_argument("--port", type=int, default=42485, help="0: any free port")
        parser.add_argument(
            "--rounds", type=int, default=None, help="stop once N rounds are played"
        )
        parser.add_argument(
            "--timeout",
            type=float,
            default=10.0,
            help="seconds a program has to answer before it loses its connection",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        logging.basicConfig(
            level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
        )
        tournament = Tournament.objects.filter(slug=options["tournament"]).first()
        if tournament is None:
            raise CommandError(f"No tournament {options['tournament']!r}.")
        try:
            serve(
                tournament,
                host=options["host"],
                port=options["port"],
                rounds=options["rounds"],
                timeout=options["timeout"],
            )
        except GameError as error:
            raise CommandError(error.message_en) from error
        except KeyboardInterrupt:
            return
