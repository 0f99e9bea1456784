"""Play a whole tournament through the real services with seeded random legal moves.

    python manage.py simulate_tournament --players 16 --rounds 2 [--sets 1] [--seed 7] [--rated]
        [--season LEAGUE/SEASON]
    python manage.py simulate_tournament --tournament demo-cup --rounds 1

Every game goes through `games.services.start_game` / `submit_move` (the engine referees; the
move is drawn from `legal_moves` with a seeded generator), so results, the `results_changed`
signal and the standings recompute all take the path a real referee's moves take. A second
official (the simulator's head referee) confirms each result, and rounds are drawn, published
and their seeds revealed with the tournament services. Deals come from each
round's fresh secret seed, so only the move choices repeat for a given `--seed`.
"""

from __future__ import annotations

import random
import time
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction

from games.engine import legal_moves
from games.models import Game
from games.services import GameError, confirm_game, current_state, start_game, submit_move
from games.state import canonical
from tournaments import services
from tournaments.models import Entry, Player, Season, Tournament
from tournaments.selectors import first_stage, round_tables

SIMULATOR = "simulator"
# Confirms the simulator's results: confirming is a second pair of eyes, never the recorder.
CONFIRMER = "simulator-head-referee"


def simulator_user(username: str = SIMULATOR) -> User:
    user, created = get_user_model().objects.get_or_create(
        username=username, defaults={"is_staff": True}
    )
    if created:
        user.set_unusable_password()
        user.save(update_fields=["password"])
    return user


def play_game(game: Game, actor: User, rng: random.Random, max_moves: int = 2000) -> int:
    """Play `game` to its end with random legal moves; returns the number of moves."""
    seq = game.last_seq
    for _ in range(max_moves):
        state = current_state(game)
        if state.is_over:
            return seq
        moves = list(legal_moves(state))
        plays = [m for m in moves if not m.is_pass]
        # Mostly play when one can: all-pass games are legal but take long to finish.
        pool = plays if plays and rng.random() < 0.8 else moves
        move = rng.choice(pool)
        seq += 1
        outcome = submit_move(game, canonical(game, move), seq, actor)
        if not outcome.ok:
            raise CommandError(f"engine refused its own legal move: {outcome.error_body()}")
        game.refresh_from_db()
        if outcome.game_over:
            return seq
    raise CommandError(f"{game} did not end within {max_moves} moves")


def play_table(table: Any, actor: User, rng: random.Random, confirmer: User) -> int:
    games = 0
    while True:
        try:
            game = start_game(table, actor)
        except GameError as error:
            if error.code == "round_complete":
                return games
            raise
        play_game(game, actor, rng)
        confirm_game(game, confirmer)
        games += 1


class Command(BaseCommand):
    help = "Simulate a tournament: N players × M rounds of seeded random legal games."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--players", type=int, default=8)
        parser.add_argument("--rounds", type=int, default=1)
        parser.add_argument("--sets", type=int, default=1, help="sets per round (new tournament)")
        parser.add_argument("--games-per-set", type=int, default=4)
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--tournament", help="slug of an existing tournament to play")
        parser.add_argument("--slug", help="slug for the new tournament")
        parser.add_argument("--points", default="3-2-1-0", help="points preset (new tournament)")
        parser.add_argument(
            "--rated",
            action="store_true",
            help="the new tournament counts towards the players' ratings (docs/ratings.md)",
        )
        parser.add_argument(
            "--season",
            metavar="LEAGUE/SEASON",
            help="slugs of the league season the new tournament belongs to (e.g. demo-league/2026)",
        )
        parser.add_argument(
            "--skip-existing",
            action="store_true",
            help="do nothing when the --slug tournament exists (for ./dev serve)",
        )

    # One transaction: an interrupted run (Ctrl-C during ./dev serve, which runs this while it
    # already serves) leaves nothing half-played behind for --skip-existing to skip for ever.
    @transaction.atomic
    def handle(self, *args: Any, **options: Any) -> None:
        started = time.monotonic()
        rng = random.Random(options["seed"])
        actor = simulator_user()
        if options["tournament"]:
            tournament = Tournament.objects.filter(slug=options["tournament"]).first()
            if tournament is None:
                raise CommandError(f"No tournament {options['tournament']!r}.")
            services.add_official(tournament, _superuser_or(actor, tournament), actor, "organiser")
        else:
            slug = options["slug"] or f"simulated-{options['seed']}"
            if Tournament.objects.filter(slug=slug).exists():
                if options["skip_existing"]:
                    self.stdout.write(f"{slug} exists; nothing simulated.")
                    return
                raise CommandError(f"Tournament {slug!r} exists; pass --tournament {slug}.")
            tournament = services.create_tournament_from_preset(
                actor=actor,
                name=f"Simulated Cup {options['seed']} (シミュレーション)",
                slug=slug,
                points_preset=options["points"],
                games_per_set=options["games_per_set"],
                sets_per_round=options["sets"],
            )
            tournament.status = Tournament.Status.REGISTRATION
            tournament.rated = options["rated"]
            tournament.season = _season(options["season"])
            tournament.save(update_fields=["status", "rated", "season"])
            for number in range(1, options["players"] + 1):
                player = Player.objects.create(display_name=f"Sim {options['seed']}-{number:03d}")
                Entry.objects.create(
                    tournament=tournament,
                    player=player,
                    number=number,
                    status=Entry.Status.CHECKED_IN,
                )
        confirmer = simulator_user(CONFIRMER)
        services.add_official(
            tournament, _superuser_or(actor, tournament), confirmer, "head_referee"
        )
        stage = first_stage(tournament)
        if stage is None:
            raise CommandError(f"{tournament} has no stage.")
        games = 0
        for _ in range(options["rounds"]):
            round_ = services.draw_round(stage, actor, seed=f"sim-{rng.random()}")
            services.publish_round(round_, actor)
            for table in round_tables(round_):
                games += play_table(table, actor, rng, confirmer)
            services.reveal_round_seed(round_, actor)
        self.stdout.write(
            self.style.SUCCESS(
                f"Simulated {tournament.slug}: {options['rounds']} round(s), {games} games "
                f"in {time.monotonic() - started:.1f} s"
            )
        )


def _superuser_or(actor: User, tournament: Tournament) -> User:
    """Who may add the simulator as an organiser of an existing tournament."""
    if tournament.officials.filter(user=actor, role="organiser").exists():
        return actor
    boss = get_user_model().objects.filter(is_superuser=True).first()
    if boss is None:
        raise CommandError("Adding the simulator to an existing tournament needs a superuser.")
    return boss


def _season(slugs: str | None) -> Season | None:
    """The season named ``LEAGUE/SEASON`` (slugs), or None when not asked for."""
    if not slugs:
        return None
    league, _, season = slugs.partition("/")
    found = Season.objects.filter(league__slug=league, slug=season).first()
    if found is None:
        raise CommandError(f"No season {slugs!r} (LEAGUE/SEASON slugs).")
    return found
