"""Load a small demo: one published tournament with 8 checked-in players, a 掼蛋 (Guandan) team
event of 8 pairs with its first round drawn and published, and a demo organiser.

Idempotent: running it twice changes nothing. Refuses to create the demo login (a known
password) unless DEBUG is on or --allow-demo-login is given.
"""

from __future__ import annotations

import datetime
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction

from tournaments import services
from tournaments.models import Entry, League, Official, Player, Season, Stage, Team, Tournament

DEMO_SLUG = "demo-cup"
DEMO_LEAGUE = "demo-league"
DEMO_SEASON = "2026"
DEMO_USERNAME = "organiser"
DEMO_PASSWORD = "kakumei-demo"
DEMO_PLAYERS = [
    ("Aoki Haruto", "あおき はると"),
    ("Ishikawa Yui", "いしかわ ゆい"),
    ("Ueda Sota", "うえだ そうた"),
    ("Endo Mio", "えんどう みお"),
    ("Okada Ren", "おかだ れん"),
    ("Kato Hina", "かとう ひな"),
    ("Kimura Riku", "きむら りく"),
    ("Kudo Sakura", "くどう さくら"),
]
GUANDAN_SLUG = "demo-guandan"
# Eight pairs: (team name, (player, kana), (player, kana)).
GUANDAN_TEAMS = [
    ("桜 Sakura", ("Sato Aoi", "さとう あおい"), ("Suzuki Kaito", "すずき かいと")),
    ("富士 Fuji", ("Takahashi Rin", "たかはし りん"), ("Tanaka Yuto", "たなか ゆうと")),
    ("風 Kaze", ("Ito Mei", "いとう めい"), ("Watanabe Haru", "わたなべ はる")),
    ("海 Umi", ("Yamamoto Sora", "やまもと そら"), ("Nakamura Emi", "なかむら えみ")),
    ("山 Yama", ("Kobayashi Taro", "こばやし たろう"), ("Yoshida Nana", "よしだ なな")),
    ("花 Hana", ("Yamada Kenta", "やまだ けんた"), ("Sasaki Rina", "ささき りな")),
    ("空 Sora", ("Matsumoto Yu", "まつもと ゆう"), ("Inoue Mao", "いのうえ まお")),
    ("月 Tsuki", ("Kimura Daichi", "きむら だいち"), ("Hayashi Saki", "はやし さき")),
]


class Command(BaseCommand):
    help = "Load the demo tournament (8 players) and a demo organiser login."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--allow-demo-login",
            action="store_true",
            help="create the demo organiser login even when DEBUG is off",
        )

    @transaction.atomic
    def handle(self, *args: Any, **options: Any) -> None:
        if not (settings.DEBUG or options["allow_demo_login"]):
            raise CommandError(
                "Refusing to create a login with a published password while DEBUG is off "
                "(pass --allow-demo-login to insist)."
            )
        user_model = get_user_model()
        organiser, created = user_model.objects.get_or_create(
            username=DEMO_USERNAME,
            defaults={"is_staff": True, "is_superuser": True, "email": "organiser@example.com"},
        )
        if created:
            organiser.set_password(DEMO_PASSWORD)
            organiser.save(update_fields=["password"])

        # A league season for the demo's rated events: its standings and rating leaderboard.
        league, _ = League.objects.get_or_create(
            slug=DEMO_LEAGUE, defaults={"name": "Kakumei Demo League 革命リーグ"}
        )
        season, _ = Season.objects.get_or_create(
            league=league, slug=DEMO_SEASON, defaults={"name": DEMO_SEASON}
        )
        tournament, _ = Tournament.objects.get_or_create(
            slug=DEMO_SLUG,
            defaults={
                "season": season,
                "name": "Kakumei Demo Cup 革命杯",
                "status": Tournament.Status.REGISTRATION,
                "ruleset_id": "jdf",
                "ruleset_version": 1,
                "venue": "Community Hall, Nagoya",
                "starts_on": datetime.date(2026, 12, 5),
                # Its games count towards the players' ratings (docs/ratings.md).
                "rated": True,
            },
        )
        Official.objects.get_or_create(
            tournament=tournament, user=organiser, role=Official.Role.ORGANISER
        )
        Stage.objects.get_or_create(
            tournament=tournament,
            order=1,
            defaults={"name": "Qualifying 予選", "kind": Stage.Kind.QUALIFYING},
        )

        for number, (name, kana) in enumerate(DEMO_PLAYERS, start=1):
            player, _ = Player.objects.get_or_create(
                display_name=name, defaults={"name_kana": kana}
            )
            Entry.objects.get_or_create(
                tournament=tournament,
                player=player,
                defaults={"number": number, "status": Entry.Status.CHECKED_IN},
            )

        guandan = self._guandan(organiser)

        self.stdout.write(
            self.style.SUCCESS(
                f"Demo loaded: {tournament.name} with {tournament.entries.count()} players, "
                f"{guandan.name} with {guandan.teams.count()} teams; "
                f"log in as {DEMO_USERNAME} / {DEMO_PASSWORD}"
            )
        )

    def _guandan(self, organiser: Any) -> Tournament:
        """The team event: 8 checked-in pairs, round 1 drawn (Swiss pairing by lot) and
        published, as an organiser would leave it just before play."""
        tournament, _ = Tournament.objects.get_or_create(
            slug=GUANDAN_SLUG,
            defaults={
                "name": "Guandan Demo Team Cup グアンダン",
                "status": Tournament.Status.REGISTRATION,
                "ruleset_id": "guandan-cn",
                "ruleset_version": 1,
                "games_per_set": services.TEAM_FORMAT.games_per_set,
                "sets_per_round": services.TEAM_FORMAT.sets_per_round,
                "table_size": services.TEAM_FORMAT.table_size,
                "uneven_tables": services.TEAM_FORMAT.uneven_tables,
                "venue": "Community Hall, Nagoya",
                "starts_on": datetime.date(2026, 12, 6),
            },
        )
        Official.objects.get_or_create(
            tournament=tournament, user=organiser, role=Official.Role.ORGANISER
        )
        stage, _ = Stage.objects.get_or_create(
            tournament=tournament,
            order=1,
            defaults={"name": "Swiss スイス式", "kind": Stage.Kind.QUALIFYING},
        )
        for index, (team_name, *members) in enumerate(GUANDAN_TEAMS, start=1):
            team, _ = Team.objects.get_or_create(
                tournament=tournament, number=index, defaults={"name": team_name}
            )
            for offset, (name, kana) in enumerate(members):
                player, _ = Player.objects.get_or_create(
                    display_name=name, defaults={"name_kana": kana}
                )
                Entry.objects.get_or_create(
                    tournament=tournament,
                    player=player,
                    defaults={
                        "number": 2 * index - 1 + offset,
                        "status": Entry.Status.CHECKED_IN,
                        "team": team,
                    },
                )
        if not stage.rounds.exists():
            services.publish_round(services.draw_round(stage, organiser), organiser)
        return tournament
