"""Shared factories: the smallest valid objects, overridable per test."""

from __future__ import annotations

import datetime
import hashlib
import secrets
from dataclasses import dataclass
from typing import Any

import factory
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone

from tournaments.models import Entry, Official, Player, Round, Seat, Stage, Table, Tournament


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)

    username = factory.Sequence(lambda n: f"user{n}")
    password = factory.django.Password("correct horse battery")


class TournamentFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Tournament

    name = factory.Sequence(lambda n: f"Open {n}")
    slug = factory.Sequence(lambda n: f"open-{n}")
    status = Tournament.Status.REGISTRATION


class PlayerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Player

    display_name = factory.Sequence(lambda n: f"Player {n}")


class EntryFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Entry

    tournament = factory.SubFactory(TournamentFactory)
    player = factory.SubFactory(PlayerFactory)
    number = factory.Sequence(lambda n: n + 1)


# --- tournament domain (issue #5) -------------------------------------------------------------


class OfficialFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Official

    tournament = factory.SubFactory(TournamentFactory)
    user = factory.SubFactory(UserFactory)
    role = Official.Role.ORGANISER


class StageFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Stage

    tournament = factory.SubFactory(TournamentFactory)
    order = factory.Sequence(lambda n: n + 1)
    name = factory.LazyAttribute(lambda o: f"Stage {o.order}")
    kind = Stage.Kind.QUALIFYING


def _seed() -> str:
    return secrets.token_bytes(32).hex()


class RoundFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Round

    stage = factory.SubFactory(StageFactory)
    number = factory.Sequence(lambda n: n + 1)
    seed_secret = factory.LazyFunction(_seed)
    seed_commitment = factory.LazyAttribute(
        lambda o: hashlib.sha256(o.seed_secret.encode()).hexdigest()
    )


class TableFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Table

    round = factory.SubFactory(RoundFactory)
    number = factory.Sequence(lambda n: n + 1)


class SeatFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Seat

    table = factory.SubFactory(TableFactory)
    round = factory.SelfAttribute("table.round")
    entry = factory.SubFactory(
        EntryFactory, tournament=factory.SelfAttribute("..table.round.stage.tournament")
    )
    position = factory.Sequence(lambda n: n % 4 + 1)


# --- games (issue #6) -------------------------------------------------------------------------


class GameFactory(factory.django.DjangoModelFactory):
    """A known-deal game; pass `hands` (card names per seat) for a small hand-made deal."""

    class Meta:
        model = "games.Game"

    table = factory.SubFactory(TableFactory)
    set_number = 1
    game_number = factory.Sequence(lambda n: n + 1)
    ruleset_id = "jdf"
    ruleset_version = 1
    mode = "known_deal"
    seats = 4
    hands = factory.LazyFunction(lambda: [["3S", "5D"], ["4H", "6C"], ["7S", "9D"], ["8H", "TD"]])
    counts = factory.LazyAttribute(lambda o: [len(h) if h else 0 for h in o.hands])
    blind = None


def seated_table(
    referee: object = None,
    *,
    names: tuple[str, ...] = ("Aoki", "Baba", "Chiba", "Doi"),
    **kw: object,
) -> Table:
    """A table of a published round with one seat per name (position 1 first)."""
    round_ = RoundFactory(status=Round.Status.PUBLISHED, published_at=timezone.now(), **kw)
    table = TableFactory(round=round_, number=1, referee=referee)
    for position, name in enumerate(names, start=1):
        SeatFactory(
            table=table,
            position=position,
            entry__number=position,
            entry__player__display_name=name,
        )
    return table


def cycling_table(
    referee: object,
    *,
    ruleset_id: str = "uecda",
    title_reset_every: int | None = 100,
    seat_change_every: int | None = 3,
    games_per_set: int = 8,
    seed: str | None = None,
    names: tuple[str, ...] = ("Aoki", "Baba", "Chiba", "Doi", "Endo"),
) -> Table:
    """A published table (one seat per name, entry n at position n) of a tournament with
    UECda's title and seat cycles (or none, given None), `referee` its referee; `seed`: the
    round's seed (64 hex characters), random when not given."""
    seeded: dict[str, object] = {} if seed is None else {"seed_secret": seed}
    table = seated_table(
        referee,
        names=names,
        stage__tournament__ruleset_id=ruleset_id,
        stage__tournament__title_reset_every=title_reset_every,
        stage__tournament__seat_change_every=seat_change_every,
        stage__tournament__games_per_set=games_per_set,
        stage__tournament__sets_per_round=1,
        stage__tournament__table_size=len(names),
        **seeded,
    )
    OfficialFactory(
        tournament=table.round.stage.tournament, user=referee, role=Official.Role.REFEREE
    )
    return table


def play_quick_games(table: Table, referee: object, count: int) -> list[object]:
    """Start and record `count` quick-mode games at `table` through the services: in each, the
    players finish in the order of their drawn table position (position 1 first), wherever
    the game seats them — so each keeps one title from the second game on, and no 都落ち."""
    from games import services
    from games.models import Game
    from games.seating import positions_of

    games = []
    for _ in range(count):
        game = services.start_game(table, referee, mode=Game.Mode.QUICK)  # type: ignore[arg-type]
        positions = positions_of(game)
        order = sorted(range(game.seats), key=lambda seat: positions[seat])
        services.record_quick_result(game, referee, order)  # type: ignore[arg-type]
        games.append(game)
    return games


# --- scoring (issue #7) -----------------------------------------------------------------------


class GameResultFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = "games.GameResult"

    game = factory.SubFactory(GameFactory)
    entry = factory.SubFactory(EntryFactory)
    seat = 0
    place = 1
    detail = factory.LazyFunction(lambda: {"title": None, "foul": False, "miyako_ochi": False})
    points = 0


TITLES_BY_PLACE = {4: ("daifugo", "fugo", "hinmin", "daihinmin")}


def finished_game(
    table: Table,
    order: list[object],
    *,
    set_number: int = 1,
    game_number: int = 1,
    points: tuple[int, ...] = (3, 2, 1, 0),
    fouls: tuple[int, ...] = (),
    miyako_ochi: int | None = None,
    confirmed: bool = False,
) -> object:
    """A finished game at `table` whose results are `order` (entries, first place first).

    Titles follow the place (table of four); `fouls` and `miyako_ochi` name places (1-based)
    to flag. Written directly, without the services: for hand-built scoring scenarios. The
    result is provisional (finished) unless `confirmed`.
    """
    from games.models import Game, GameResult

    now = timezone.now()
    game = GameFactory(
        table=table,
        set_number=set_number,
        game_number=game_number,
        status=Game.Status.CONFIRMED if confirmed else Game.Status.FINISHED,
        finished_at=now,
        confirmed_at=now if confirmed else None,
        seats=len(order),
    )
    titles = TITLES_BY_PLACE.get(len(order), ("",) * len(order))
    for place, entry in enumerate(order, start=1):
        GameResult.objects.create(
            game=game,
            entry=entry,
            seat=place - 1,
            place=place,
            # 大富豪's result detail, as `family.outcome` gives it (no title: None).
            detail={
                "title": titles[place - 1] or None,
                "foul": place in fouls,
                "miyako_ochi": place == miyako_ochi,
            },
            points=points[place - 1],
        )
    return game


# --- round lifecycle (issue #11) --------------------------------------------------------------


def play_round_quickly(round_: Round, referee: object, confirmer: object) -> list[object]:
    """Play every game of every table of a published round in quick mode, through the
    services: the seats finish in seat order (so the 大富豪 keeps finishing first and no 都落ち
    happens), `referee` records and `confirmer` (another official) confirms each result."""
    from games import services
    from games.models import Game

    games = []
    for table in round_.tables.order_by("number"):
        while True:
            try:
                game = services.start_game(table, referee, mode=Game.Mode.QUICK)  # type: ignore[arg-type]
            except services.GameError as error:
                if error.code == "round_complete":
                    break
                raise
            services.record_quick_result(game, referee, list(range(game.seats)))  # type: ignore[arg-type]
            services.confirm_game(game, confirmer)  # type: ignore[arg-type]
            games.append(game)
    return games


def play_legal_moves(game: object, referee: object, moves: int) -> None:
    """Play `moves` legal moves of a known-deal game in play (a play where there is one:
    some deals leave a seat nothing that beats the trick, and then it passes)."""
    from games import services
    from games.engine import legal_moves
    from games.models import Game
    from games.state import canonical

    assert isinstance(game, Game)
    for _ in range(moves):
        legal = list(legal_moves(services.current_state(game)))
        move = next((m for m in legal if not m.is_pass), legal[0])
        assert services.submit_move(game, canonical(game, move), game.last_seq + 1, referee).ok  # type: ignore[arg-type]
        game.refresh_from_db()


def browser(language: str = "en") -> Client:
    """A fresh browser that asks for `language` (Accept-Language). Most tests read the English
    pages; the site's default, for a browser that asks for nothing, is Japanese."""
    return Client(headers={"accept-language": language})


class DeviceApi:
    """A scorer device: the API with a device token of `user`'s."""

    def __init__(self, user: Any) -> None:
        from games.auth import issue_device_token

        _, raw = issue_device_token(user, "phone")
        self.client = Client(HTTP_AUTHORIZATION=f"Token {raw}")

    def post(self, url: str, body: dict[str, Any] | None = None) -> Any:
        return self.client.post(f"/api/{url}", body or {}, content_type="application/json")

    def get(self, url: str) -> Any:
        return self.client.get(f"/api/{url}")


def rounds_under_way(
    stage: Stage, organiser: object, referee: object, head: object
) -> tuple[Round, Round, object, object]:
    """A stage in mid-event, through the services: round 1 played, confirmed and its seed
    revealed (`referee` records, `head` confirms); round 2 published and in play, with a
    known-deal game three moves in at table 1 (`referee`'s) and a quick result confirmed by
    the organiser at table 2 (`head`'s). Returns (round 1, round 2, the game in play, the
    confirmed game)."""
    from games import services as games
    from games.models import Game
    from tournaments import services

    revealed = services.publish_round(services.draw_round(stage, organiser), organiser)  # type: ignore[arg-type]
    for table in revealed.tables.all():
        services.assign_referee(table, organiser, referee)  # type: ignore[arg-type]
    play_round_quickly(revealed, referee, head)
    revealed = services.reveal_round_seed(revealed, organiser)  # type: ignore[arg-type]

    live = services.publish_round(services.draw_round(stage, organiser), organiser)  # type: ignore[arg-type]
    table1, table2 = live.tables.order_by("number")
    services.assign_referee(table1, organiser, referee)  # type: ignore[arg-type]
    services.assign_referee(table2, organiser, head)  # type: ignore[arg-type]
    in_play = games.start_game(table1, referee)  # type: ignore[arg-type]
    play_legal_moves(in_play, referee, 3)
    confirmed = games.start_game(table2, head, mode=Game.Mode.QUICK)  # type: ignore[arg-type]
    games.record_quick_result(confirmed, head, [0, 1, 2, 3])  # type: ignore[arg-type]
    games.confirm_game(confirmed, organiser)  # type: ignore[arg-type]
    return revealed, live, in_play, confirmed


def standings_field(
    tournament: Tournament, count: int, *, stage: Stage | None = None, name: str = "Entrant"
) -> list[Entry]:
    """`count` checked-in entrants of `tournament` with their standings rows written directly
    (no games: what the public boards read), for the tournament and, given one, `stage`:
    entry n has 1000 − n points (all confirmed), so it is ranked n and named "<name> 00n".
    Both scopes are at version 1."""
    from scoring.models import Standing, StandingsVersion

    players = Player.objects.bulk_create(
        Player(display_name=f"{name} {n:03d}") for n in range(1, count + 1)
    )
    entries = Entry.objects.bulk_create(
        Entry(tournament=tournament, player=p, number=n, status=Entry.Status.CHECKED_IN)
        for n, p in enumerate(players, start=1)
    )
    scopes: list[tuple[str, Stage | None]] = [("tournament", None)]
    if stage is not None:
        scopes.append(("stage", stage))
    now = timezone.now()
    Standing.objects.bulk_create(
        Standing(
            scope=scope,
            tournament=tournament,
            stage=scope_stage,
            entry=entry,
            player=entry.player,
            points=1000 - entry.number,
            games=4,
            metrics={
                "daifugo": 1,
                "fugo": 1,
                "heimin": 1,
                "hinmin": 1,
                "daihinmin": 0,
                "fouls": 0,
                "miyako_ochi": 0,
            },
            best_set=6,
            confirmed_points=1000 - entry.number,
            rank=entry.number,
            confirmed_rank=entry.number,
            computed_at=now,
            results_version=1,
        )
        for scope, scope_stage in scopes
        for entry in entries
    )
    for scope, scope_stage in scopes:
        scope_id = tournament.pk if scope_stage is None else scope_stage.pk
        StandingsVersion.objects.update_or_create(
            key=f"{scope}:{scope_id}", defaults={"version": 1, "computed_at": now}
        )
    return entries


def streamed(response: Any) -> str:
    """The whole body of a streaming response, sync or async (the live feed streams from an
    async view), as text."""
    from asgiref.sync import async_to_sync

    if not response.is_async:
        return b"".join(response.streaming_content).decode(errors="replace")

    async def collect() -> bytes:
        return b"".join([part async for part in response.streaming_content])

    return async_to_sync(collect)().decode(errors="replace")


# --- Guandan team events ------------------------------------------------------------------


class TeamFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = "tournaments.Team"

    tournament = factory.SubFactory(TournamentFactory)
    number = factory.Sequence(lambda n: n + 1)
    name = factory.LazyAttribute(lambda o: f"Team {o.number}")


def guandan_table(
    referee: object,
    *,
    ruleset_id: str = "guandan-cn",
    games_per_set: int = 20,
    seed: str | None = None,
    names: tuple[str, ...] = ("Aoki", "Baba", "Chiba", "Doi"),
    **tournament: object,
) -> Table:
    """A published table of a Guandan team tournament (one set a round, `games_per_set` the
    cap on a match's hands; `tournament`: more Tournament fields, e.g. match_length), seating
    two teams of two entries partners facing: team "East" at positions 1 and 3 (engine team
    0), team "South" at 2 and 4 (engine team 1). `referee` runs the table; `seed`: the round's
    seed (64 hex characters), random when not given."""
    seeded: dict[str, object] = {} if seed is None else {"seed_secret": seed}
    table = seated_table(
        referee,
        names=names,
        stage__tournament__ruleset_id=ruleset_id,
        stage__tournament__ruleset_version=1,
        stage__tournament__games_per_set=games_per_set,
        stage__tournament__sets_per_round=1,
        stage__tournament__table_size=4,
        **{f"stage__tournament__{k}": v for k, v in tournament.items()},
        **seeded,
    )
    event = table.round.stage.tournament
    teams = (
        TeamFactory(tournament=event, name="East"),
        TeamFactory(tournament=event, name="South"),
    )
    for seat in Seat.objects.filter(table=table).select_related("entry"):
        seat.entry.team = teams[(seat.position - 1) % 2]
        seat.entry.save(update_fields=["team"])
    if referee is not None:
        OfficialFactory(tournament=event, user=referee, role=Official.Role.REFEREE)
    return table


def guandan_move_for(state: Any, favoured: int) -> Any:
    """The move `play_guandan_hand` makes in a 掼蛋 `state`, so that engine team `favoured`
    finishes first and second (a 1-2): its players never beat their partner and play their
    biggest combination, the other team plays only when it must lead (its smallest). Tribute
    decisions: the first legal one."""
    from games.engine.guandan import PASS, PLAY, legal_moves

    legal = list(legal_moves(state))
    plays = [m for m in legal if m.action == PLAY]
    passes = [m for m in legal if m.action == PASS]
    if not plays and not passes:
        return legal[0]  # a tribute decision
    if legal[0].seat % 2 == favoured:
        partner_on_table = state.last == (legal[0].seat + 2) % 4
        if passes and (partner_on_table or not plays):
            return passes[0]
        return max(plays, key=lambda m: (len(m.cards), -len(m.wild_as)))
    return passes[0] if passes else min(plays, key=lambda m: len(m.cards))


def play_guandan_hand(game: object, referee: object, *, favoured: int = 0) -> int:
    """Play a known-deal Guandan hand to its end through `submit_move`, with moves from the
    engine's `legal_moves`, so that engine team `favoured` finishes first and second (a 1-2):
    its players never beat their partner and play their biggest combination, the other
    team plays only when it must lead (its smallest). Tribute decisions: the first legal one.
    Returns the number of moves played."""
    from games import services
    from games.models import Game
    from games.state import canonical

    assert isinstance(game, Game)
    played = 0
    while True:
        game.refresh_from_db()
        if game.status != Game.Status.IN_PLAY:
            return played
        state = services.current_state(game)
        move = guandan_move_for(state, favoured)
        outcome = services.submit_move(game, canonical(game, move), game.last_seq + 1, referee)  # type: ignore[arg-type]
        assert outcome.ok, (outcome.code, outcome.message_en)
        played += 1


def guandan_tournament(**fields: Any) -> Tournament:
    """A running 掼蛋 team tournament (pairs), one match per round of at most 12 hands,
    match points 2/1/0 unless `fields` say otherwise."""
    defaults: dict[str, Any] = {
        "ruleset_id": "guandan-cn",
        "ruleset_version": 1,
        "status": Tournament.Status.RUNNING,
        "sets_per_round": 1,
        "games_per_set": 12,
    }
    return TournamentFactory(**{**defaults, **fields})  # type: ignore[no-any-return]


def pair(tournament: Tournament, number: int, name: str, players: tuple[str, str]) -> Any:
    """A registered team of two checked-in entries (numbered 2n−1 and 2n)."""
    team = TeamFactory(tournament=tournament, number=number, name=name)
    for offset, player in enumerate(players):
        EntryFactory(
            tournament=tournament,
            number=2 * number - 1 + offset,
            player__display_name=player,
            status=Entry.Status.CHECKED_IN,
            team=team,
        )
    return team


def match_table(round_: Round, number: int, first: Any, second: Any) -> Table:
    """A table of `round_` where team `first` plays as engine team 0 (positions 1 and 3) and
    `second` as team 1 (positions 2 and 4), partners facing."""
    table = TableFactory(round=round_, number=number)
    a1, a2 = first.members.order_by("number")
    b1, b2 = second.members.order_by("number")
    for position, entry in enumerate((a1, b1, a2, b2), start=1):
        SeatFactory(table=table, position=position, entry=entry)
    return table


def guandan_hand(
    table: Table,
    hand: int,
    levels: tuple[str, str],
    *,
    won: int | None = None,
    confirmed: bool = True,
    in_play: bool = False,
) -> object:
    """Hand `hand` of the match at `table`, as `games.matches` reads it: finished (confirmed
    unless told otherwise) with each engine team's level after it (`levels`, as players say
    them: "A", "10"), `won` the team that won the match at A; or still `in_play` (no
    results). Written directly, without the services."""
    from games.models import Game, GameResult

    now = timezone.now()
    status = Game.Status.IN_PLAY
    if not in_play:
        status = Game.Status.CONFIRMED if confirmed else Game.Status.FINISHED
    game = GameFactory(
        table=table,
        set_number=1,
        game_number=hand,
        ruleset_id="guandan-cn",
        status=status,
        finished_at=None if in_play else now,
        confirmed_at=now if status == Game.Status.CONFIRMED else None,
    )
    if in_play:
        return game
    seats = {s.position: s.entry for s in table.seats.all()}
    # The hand's winners (the match's winner, else team 0) take 1st and 2nd; the losers
    # share 3rd.
    winners = [p for p in sorted(seats) if (p - 1) % 2 == (won or 0)]
    for position, entry in sorted(seats.items()):
        team = (position - 1) % 2
        GameResult.objects.create(
            game=game,
            entry=entry,
            seat=position - 1,
            team=team,
            place=winners.index(position) + 1 if position in winners else 3,
            detail={
                "finish": "1-2",
                "team_level": levels[team],
                "match_won": won == team,
                "level_gain": 0,
            },
            points=0,
        )
    return game


def team_league(
    count: int = 4, *, slug: str = "gd-open", **fields: Any
) -> tuple[Tournament, Stage, list[Any]]:
    """A running 掼蛋 team tournament of `count` pairs ("Team n", members "<name> A/B") in
    one stage, matches of at most 3 hands unless `fields` say otherwise."""
    tournament = guandan_tournament(
        **{"games_per_set": 3, "name": "Guandan Open 大会", "slug": slug, **fields}
    )
    stage = StageFactory(tournament=tournament, order=1, name="Swiss スイス")
    names = ["Aoki", "Baba", "Chiba", "Doi", "Endo", "Fujii", "Goto", "Hara", "Ito", "Jo"]
    teams = [
        pair(tournament, n, f"Team {n}", (f"{names[n - 1]} A", f"{names[n - 1]} B"))
        for n in range(1, count + 1)
    ]
    return tournament, stage, teams


def published_round(stage: Stage, number: int) -> Round:
    return RoundFactory(  # type: ignore[no-any-return]
        stage=stage, number=number, status=Round.Status.PUBLISHED, published_at=timezone.now()
    )


# --- Guandan team events (gd-console) ---------------------------------------------------------


def console_guandan_table(
    referee: object = None,
    *,
    names: tuple[str, ...] = ("Aoki", "Baba", "Chiba", "Doi"),
    teams: tuple[str, str] | None = None,
    ruleset_id: str = "guandan-cn",
) -> Table:
    """A published table of a 掼蛋 tournament (one set a round, its games the match's hands),
    `referee` its referee; `teams`: the names of the two registered teams (positions 1 and 3,
    2 and 4), or None for entries without a team."""
    from tournaments.models import Team

    table = seated_table(
        referee,
        names=names,
        stage__tournament__ruleset_id=ruleset_id,
        stage__tournament__sets_per_round=1,
        stage__tournament__games_per_set=20,
    )
    tournament = table.round.stage.tournament
    if referee is not None:
        OfficialFactory(tournament=tournament, user=referee, role=Official.Role.REFEREE)
    if teams is not None:
        registered = [
            Team.objects.create(tournament=tournament, number=n + 1, name=name)
            for n, name in enumerate(teams)
        ]
        for seat in table.seats.select_related("entry"):
            seat.entry.team = registered[(seat.position - 1) % 2]
            seat.entry.save(update_fields=["team"])
    return table


def console_guandan_hand(
    table: Table,
    *,
    seed: str = "gd-console",
    hands: list[list[str]] | None = None,
    match: object = None,
    leader: int | None = 0,
    game_number: int = 1,
    mode: str = "known_deal",
    ruleset_id: str = "guandan-cn",
) -> Any:
    """A hand of the table's match, stored as the games service stores one: dealt from `seed`
    (`deal_hands`) unless `hands` are given (a smaller position for a test), starting from
    `match` (an engine `Match`; the match's first hand by default). After a first hand the
    tribute decides who leads, so `leader` is dropped."""
    from games.engine.guandan import Match, deal_hands, find_guandan
    from games.engine.multideck import multi_names
    from games.models import Game

    if hands is None:
        hands = [multi_names(h) for h in deal_hands(seed, find_guandan(ruleset_id))]
    carried = match if isinstance(match, Match) else Match()
    quick = mode == "quick"
    return Game.objects.create(
        table=table,
        ruleset_id=ruleset_id,
        ruleset_version=1,
        seats=4,
        mode=mode,
        hands=[] if quick else hands,
        counts=[27] * 4 if quick else [len(h) for h in hands],
        match=carried.to_record(),
        leader=leader if carried.previous is None else None,
        seating=[1, 2, 3, 4],
        set_number=1,
        game_number=game_number,
    )


# A small known position for console tests, level 2 (♥2 wild), seat 1 (engine 0) leads: ♥2 with
# ♠5 ♦6 ♣7 ♥8 reads as a straight 4–8 or 5–9 (the referee must declare), ♣3 ♦3 is a plain pair.
GUANDAN_SMALL_HANDS = [
    ["2H", "5S", "6D", "7C", "8H", "3C", "3D", "KS", "KS"],
    ["4S", "4D", "QS", "AH"],
    ["6S", "6H", "9D", "TD"],
    ["7S", "7D", "JC", "JD"],
]


def guandan_console(
    *, teams: tuple[str, str] | None = None, ruleset_id: str = "guandan-cn", **hand: Any
) -> tuple[Any, Table, Any, Client]:
    """A referee signed in (English pages) at a Guandan table with a hand in play: (referee,
    table, game, client). `hand`: `console_guandan_hand`'s options."""
    referee = UserFactory(username="gd-referee")
    table = console_guandan_table(referee, teams=teams, ruleset_id=ruleset_id)
    game = console_guandan_hand(table, ruleset_id=ruleset_id, **hand)
    client = browser()
    client.force_login(referee)
    return referee, table, game, client


# --- Guandan team events (gd-teams) ---


class GuandanTournamentFactory(TournamentFactory):
    """A 掼蛋 team event in the format `create_tournament_from_preset` gives a Guandan preset."""

    ruleset_id = "guandan-cn"
    ruleset_version = 1
    games_per_set = 30
    sets_per_round = 1
    table_size = 4
    uneven_tables = Tournament.UnevenTables.BYES


TEAM_NAMES = ("Sakura", "Fuji", "Kaze", "Umi", "Yama", "Hana", "Sora", "Tsuki", "Kumo", "Yuki")


def checked_in_teams(tournament: Tournament, count: int) -> list[object]:
    """`count` teams of two checked-in entrants (entrants 2n-1 and 2n form team n)."""
    from tournaments.models import Team

    teams = []
    for n in range(1, count + 1):
        name = TEAM_NAMES[n - 1] if n <= len(TEAM_NAMES) else f"Team {n}"
        team = Team.objects.create(tournament=tournament, number=n, name=name)
        for number in (2 * n - 1, 2 * n):
            EntryFactory(
                tournament=tournament,
                number=number,
                player__display_name=f"Player {number}",
                status=Entry.Status.CHECKED_IN,
                team=team,
            )
        teams.append(team)
    return teams


def finished_match(
    table: Table, *, levels: tuple[str, str], winner: int | None = None, hands: int = 1
) -> list[object]:
    """The hands of a finished team match at `table`, written as `games.matches` reads them:
    `hands` finished Guandan games whose results carry each seat's engine team (position 1
    and 3: team 0; 2 and 4: team 1) and, on the last hand, the teams' levels after it
    (`team_level`) and whether it won the match at A (`match_won`). Earlier hands carry level
    2: only the last counted hand gives the match as it stands."""
    from games.models import Game, GameResult

    seats = list(table.seats.select_related("entry").order_by("position"))
    now = timezone.now()
    games = []
    for hand in range(1, hands + 1):
        last = hand == hands
        game = GameFactory(
            table=table,
            set_number=1,
            game_number=hand,
            ruleset_id="guandan-cn",
            status=Game.Status.CONFIRMED,
            finished_at=now,
            confirmed_at=now,
            seats=4,
        )
        for seat in seats:
            team = (seat.position - 1) % 2
            won = last and winner == team
            GameResult.objects.create(
                game=game,
                entry=seat.entry,
                seat=seat.position - 1,
                # Team 0 finishes 1st and 2nd in each hand; places are shared across teams.
                place=seat.position if team == 0 else 3,
                team=team,
                detail={
                    "team_level": levels[team] if last else "2",
                    "match_won": won,
                    "level_gain": 0,
                    "finish": [],
                },
                points=0,
            )
        games.append(game)
    return games


# --- 大財閥 (Daizaibatsu) tables (dz-service) -------------------------------------------------

# The two switches the preset leaves to the organiser, set as the simplest event would: no
# 上がり殺し card, no 財閥革命.
DAIZAIBATSU_SET = {"finish_kill_card": "off", "zaibatsu_revolution": "off"}


def daizaibatsu_table(
    referee: object = None,
    *,
    overrides: dict[str, object] | None = None,
    names: tuple[str, ...] = ("Aoki", "Baba", "Chiba", "Doi"),
) -> Table:
    """A published table of four under ``daizaibatsu@1`` with the organiser's switches set
    (``overrides``: the event's values instead); its ``referee``, when given, is a referee of
    the event."""
    table = seated_table(
        referee,
        names=names,
        stage__tournament__ruleset_id="daizaibatsu",
        stage__tournament__ruleset_version=1,
        stage__tournament__ruleset_overrides=DAIZAIBATSU_SET if overrides is None else overrides,
    )
    if referee is not None:
        OfficialFactory(
            tournament=table.round.stage.tournament, user=referee, role=Official.Role.REFEREE
        )
    return table


def daizaibatsu_game(
    table: Table, hands: list[list[str]], pile: list[str] | None, **kw: object
) -> Any:
    """A known-deal 大財閥 game with a hand-made deal: ``hands`` per seat and the draw pile
    (top first; ``None``: the pile is unknown and the referee names each draw)."""
    return GameFactory(
        table=table,
        ruleset_id="daizaibatsu",
        ruleset_version=1,
        ruleset_overrides=dict(table.round.stage.tournament.ruleset_overrides),
        hands=hands,
        pile=pile,
        **kw,
    )


# --- records played elsewhere, for importing (games.imports) ------------------------------------


def engine_record(
    seed: str = "played on paper",
    *,
    rules: str = "jdf@1",
    titles: list[str] | None = None,
    stop_after: int | None = None,
) -> dict[str, Any]:
    """A ``kakumei-record/1`` of a whole game, played by the engine itself: the engine's deal of
    ``seed``, then at each turn the first legal give, or play (a pass only when nothing can be
    played), until the game is over — or, with ``stop_after``, after that many actions. The
    record is the engine's ``export_record``, as another system would have written it."""
    from games.engine import card_names, family_of, find_ruleset, legal_moves
    from games.engine.record import export_record

    ruleset = find_ruleset(rules)
    family = family_of(ruleset)
    dealt = family.deal(seed, ruleset)
    start = family.new_game(
        ruleset,
        hands=[card_names(h) for h in dealt.hands],
        blind=dealt.blind,
        titles=titles,
    )
    state, actions = start, []
    while not family.is_over(state) and (stop_after is None or len(actions) < stop_after):
        legal = list(legal_moves(state))
        move = next((m for m in legal if not m.is_pass), legal[0])
        state, _events = family.apply(state, move)
        actions.append(move)
    return export_record(start, actions)


def titles_after(record: dict[str, Any]) -> list[str]:
    """Each seat's title at the end of a finished record (the engine's placings)."""
    from games.engine.record import replay

    placings = replay(record).to_dict()["placings"]
    assert isinstance(placings, list)
    by_seat = {p["seat"]: p["title"] for p in placings}
    return [by_seat[seat] for seat in sorted(by_seat)]


# --- replay viewer (issue #20) ----------------------------------------------------------------


def play_to_the_end(game: object, referee: object, *, limit: int = 400) -> int:
    """Play a known-deal 大富豪 or 大財閥 game in play to its end through `submit_move`, each
    move the engine's first legal play (a pass where none is legal); returns how many moves."""
    from games import services
    from games.models import Game
    from games.state import canonical, family_for

    assert isinstance(game, Game)
    family = family_for(game)
    for played in range(limit):
        game.refresh_from_db()
        if game.status != Game.Status.IN_PLAY:
            return played
        legal = list(family.legal_moves(services.current_state(game)))
        move = next((m for m in legal if not getattr(m, "is_pass", False)), legal[0])
        outcome = services.submit_move(game, canonical(game, move), game.last_seq + 1, referee)  # type: ignore[arg-type]
        assert outcome.ok, (outcome.code, outcome.message_en)
    raise AssertionError(f"game {game.pk} did not end in {limit} moves")


def reveal(round_: Round) -> None:
    """Mark `round_` revealed (its seed public), as `reveal_round_seed` leaves it."""
    now = timezone.now()
    Round.objects.filter(pk=round_.pk).update(
        status=Round.Status.REVEALED, completed_at=now, revealed_at=now
    )


# --- records for tools (issue #20) ------------------------------------------------------------


def tournament_played_out(
    *, tables: int = 2, games_per_set: int = 2, ruleset_id: str = "jdf", **fields: object
) -> tuple[Round, object, object]:
    """A published tournament whose one published round has `tables` tables of four, every
    game of it played out move by move (`play_to_the_end`) and confirmed, through the services.
    Returns the round, its referee and its organiser (who may complete and reveal it)."""
    from games import services

    referee = UserFactory()
    organiser = UserFactory()
    tournament = TournamentFactory(
        status=Tournament.Status.RUNNING,
        ruleset_id=ruleset_id,
        games_per_set=games_per_set,
        sets_per_round=1,
        **fields,
    )
    OfficialFactory(tournament=tournament, user=referee, role=Official.Role.REFEREE)
    OfficialFactory(tournament=tournament, user=organiser, role=Official.Role.ORGANISER)
    round_ = RoundFactory(
        stage__tournament=tournament, status=Round.Status.PUBLISHED, published_at=timezone.now()
    )
    for number in range(1, tables + 1):
        table = TableFactory(round=round_, number=number, referee=referee)
        for position in range(1, 5):
            SeatFactory(
                table=table,
                position=position,
                entry__tournament=tournament,
                entry__number=(number - 1) * 4 + position,
            )
        while True:
            try:
                game = services.start_game(table, referee)  # type: ignore[arg-type]
            except services.GameError as error:
                if error.code == "round_complete":
                    break
                raise
            play_to_the_end(game, referee)
            services.confirm_game(game, organiser)  # type: ignore[arg-type]
    return round_, referee, organiser


# --- the think-time clock (games.clock) -------------------------------------------------------

# A jdf deal where seat 0 leads ♠3 and, after 5 and 7, cuts with ♦8 (8切り) to lead again.
EIGHT_CUT_HANDS = [["3S", "8D", "4C"], ["5H", "6H"], ["7S", "9S"], ["TD", "JD"]]
EIGHT_CUT_MOVES: list[dict[str, object]] = [
    {"seat": 0, "play": ["3S"]},
    {"seat": 1, "play": ["5H"]},
    {"seat": 2, "play": ["7S"]},
    {"seat": 3, "pass": True},
    {"seat": 0, "play": ["8D"]},
]


class Clock:
    """A controlled clock: while the ``clock`` fixture (tests/conftest.py) is in use,
    ``django.utils.timezone.now()`` — which the services, the models' ``auto_now_add`` and the
    pages read — answers ``now``, which moves only when the test says. A value the test asserts
    (a think time, an expiry) is then exact, whatever the machine's load."""

    START = datetime.datetime(2026, 12, 5, 1, 0, tzinfo=datetime.UTC)  # 10:00 in Nagoya

    def __init__(self, start: datetime.datetime = START) -> None:
        self.now = start

    def __call__(self) -> datetime.datetime:
        return self.now

    def advance(self, seconds: float) -> datetime.datetime:
        self.now += datetime.timedelta(seconds=seconds)
        return self.now


def backdate_decision(game: Any, seconds: float) -> None:
    """Make the decision now due in ``game`` look ``seconds`` old: the log's latest row (or,
    before any, the game's start) moves back in time, as if the seat had been thinking.
    Only with the ``clock`` fixture: the think time the next action stores is then exactly
    ``seconds``, not ``seconds`` plus however long the machine took to get there."""
    from datetime import timedelta

    from games.models import Game, Move

    if not isinstance(timezone.now, Clock):
        raise RuntimeError("backdate_decision needs the clock fixture (a controlled clock)")
    game.refresh_from_db()
    when = timezone.now() - timedelta(seconds=seconds)
    if game.last_seq:
        Move.objects.filter(game=game, seq=game.last_seq).update(created_at=when)
        Game.objects.filter(pk=game.pk).update(last_logged_at=when)
    else:
        Game.objects.filter(pk=game.pk).update(created_at=when)
    game.refresh_from_db()


# --- 大財閥 and 掼蛋 records played elsewhere, for importing (games.imports) ----------------------


def daizaibatsu_engine_record(
    seed: str = "played on paper",
    *,
    overrides: dict[str, object] | None = None,
    stop_after: int | None = None,
) -> dict[str, Any]:
    """A ``kakumei-record/1`` of a whole 大財閥 game under ``daizaibatsu@1`` with ``overrides``
    (default: the event switches of ``daizaibatsu_table``), played by the engine itself: the
    hands and pile of its deal of ``seed`` (renewed from ``seed``), then at each decision the
    first legal action that is not a pass, until the game is over — or after ``stop_after``
    actions. The record is the engine's ``export_record``, as another system would write it."""
    from games.engine.family import family_of, ruleset_from_record
    from games.engine.record import export_record

    switches = DAIZAIBATSU_SET if overrides is None else overrides
    ruleset = ruleset_from_record({"preset": "daizaibatsu@1", "overrides": switches})
    family = family_of(ruleset)
    start = family.new_game(ruleset, seed=seed)
    state, actions = start, []
    while not family.is_over(state) and (stop_after is None or len(actions) < stop_after):
        legal = list(family.legal_moves(state))
        move = next((m for m in legal if m.action != "pass"), legal[0])
        state, _events = family.apply(state, move)
        actions.append(move)
    return export_record(start, actions)


def guandan_engine_record(
    seed: str = "played on paper",
    *,
    rules: str = "guandan-cn@1",
    match: Any = None,
    leader: int | None = 0,
    favoured: int = 0,
) -> dict[str, Any]:
    """A ``kakumei-record/1`` of one whole 掼蛋 hand played by the engine itself: its deal of
    ``seed``, started from ``match`` (an engine ``Match``; ``None``: a match's first hand, led
    by ``leader``), played as ``play_guandan_hand`` plays it (engine team ``favoured``
    finishes 1-2; tribute decisions: the first legal one). The engine's ``export_record``."""
    from games.engine.family import family_of, ruleset_from_record
    from games.engine.multideck import multi_names
    from games.engine.record import export_record

    ruleset = ruleset_from_record(rules)
    family = family_of(ruleset)
    dealt = family.deal(seed, ruleset)
    start = family.new_game(
        ruleset,
        hands=[multi_names(h) for h in dealt.hands],
        match=match,
        leader=leader if match is None or match.previous is None else None,
    )
    state, actions = start, []
    while not family.is_over(state):
        move = guandan_move_for(state, favoured)
        state, _events = family.apply(state, move)
        actions.append(move)
    return export_record(start, actions)


# --- duplicate Daifugo (docs/duplicate.md) ----------------------------------------------------


def duplicate_round(players: int = 16, **fields: Any) -> tuple[Round, object]:
    """A published duplicate round of a new tournament (one set of one game unless `fields`
    say otherwise) with `players` checked-in entrants "Player n", drawn through the services;
    returns the round and its organiser (who may also record and confirm)."""
    from tournaments import services

    organiser = UserFactory(username=f"dup-organiser-{secrets.token_hex(3)}")
    tournament = TournamentFactory(
        **{"games_per_set": 1, "sets_per_round": 1, "status": Tournament.Status.RUNNING, **fields}
    )
    OfficialFactory(tournament=tournament, user=organiser, role=Official.Role.ORGANISER)
    stage = StageFactory(tournament=tournament, order=1, name="Qualifying")
    for number in range(1, players + 1):
        EntryFactory(
            tournament=tournament,
            number=number,
            player__display_name=f"Player {number}",
            status=Entry.Status.CHECKED_IN,
        )
    drawn = services.draw_round(stage, organiser, duplicate_deals=True)  # type: ignore[arg-type]
    return services.publish_round(drawn, organiser), organiser  # type: ignore[arg-type]


def bot_event(
    names: tuple[str, ...] = ("bot1", "bot2", "bot3", "bot4", "bot5"),
    *,
    games_per_set: int = 3,
    ruleset: str = "uecda",
    slug: str = "uecda-bots",
) -> Tournament:
    """A bot league (docs/bots.md): one bot entrant per UECda handshake name, its first round
    drawn (one table) and published, as an organiser does it through the services."""
    from tournaments import services
    from tournaments.selectors import first_stage

    organiser = get_user_model().objects.create_user(f"{slug}-organiser", is_staff=True)
    tournament = services.create_tournament_from_preset(
        actor=organiser,
        name="UECda bot league",
        slug=slug,
        ruleset=ruleset,
        points_preset="5-4-3-2-1",
        games_per_set=games_per_set,
        sets_per_round=1,
        table_size=len(names),
    )
    tournament.status = Tournament.Status.REGISTRATION
    tournament.save(update_fields=["status"])
    for name in names:
        services.register_bot_entry(tournament, organiser, bot_name=name)
    stage = first_stage(tournament)
    assert stage is not None
    services.publish_round(services.draw_round(stage, organiser), organiser)
    return tournament


# --- a ruling's rank and cut changes (issue #35 §3) -------------------------------------------

# Qualifying, two tables of four, three sets of one game each (no titles carry over), points
# 3-2-1-0 and no tie-break but points: who finishes where, set by set.
CUT_CUP_ORDERS: dict[int, list[list[str]]] = {
    1: [
        ["Aoki", "Baba", "Doi", "Chiba"],
        ["Aoki", "Baba", "Chiba", "Doi"],
        ["Baba", "Aoki", "Chiba", "Doi"],
    ],
    2: [
        ["Endo", "Fujii", "Goto", "Hara"],
        ["Goto", "Hara", "Endo", "Fujii"],
        ["Fujii", "Hara", "Endo", "Goto"],
    ],
}
CUT_CUP_POINTS = (3, 2, 1, 0)
CUT_CUP_TOP_N = 4


@dataclass
class CutCup:
    """A qualifying stage cutting to its top four for a final, through the services."""

    tournament: Tournament
    qualifying: Stage
    final: Stage
    round: Round
    organiser: Any
    head: Any
    referee: Any
    tables: dict[int, Table]
    entries: dict[str, Entry]

    def game(self, table: int, set_number: int) -> Any:
        from games.models import Game

        return Game.objects.exclude(status=Game.Status.VOID).get(
            table=self.tables[table], set_number=set_number
        )

    def order_of(self, game: Any, names: list[str]) -> list[int]:
        """The engine seats of `game` in the order of `names` (first out first)."""
        from games.seating import positions_of

        position = {
            s.entry.player.display_name: s.position
            for s in self.tables[game.table.number].seats.select_related("entry__player")
        }
        seat_at = {p: seat for seat, p in enumerate(positions_of(game))}
        return [seat_at[position[name]] for name in names]


def cut_cup(*, last_game: bool = True, advanced: bool = True) -> CutCup:
    """The qualifying stage of `CUT_CUP_ORDERS`, every game recorded in quick mode by the
    referee and confirmed by the head referee: Aoki 8, Baba 7, Endo 5, Fujii 5, Goto 4, Hara 4,
    Chiba 2, Doi 1 — Aoki, Baba, Endo and Fujii above the cut. Without `last_game` table 1's
    third game is started but not recorded (the round stays in play, nobody advances); with
    `advanced` the round is completed and the top four advance to the final."""
    from games import services as games
    from games.models import Game
    from tournaments import services
    from tournaments.ranking import stage_ranking

    organiser = UserFactory(username="org-kato")
    head = UserFactory(username="head-endo")
    referee = UserFactory(username="ref-ito")
    tournament = TournamentFactory(
        name="Kobe Cup 神戸杯",
        slug="kobe-cup",
        status=Tournament.Status.RUNNING,
        games_per_set=1,
        sets_per_round=3,
        points_table={"places": {"4": list(CUT_CUP_POINTS)}, "tie_breaks": ["points"]},
    )
    for user, role in (
        (organiser, Official.Role.ORGANISER),
        (head, Official.Role.HEAD_REFEREE),
        (referee, Official.Role.REFEREE),
    ):
        OfficialFactory(tournament=tournament, user=user, role=role)
    qualifying = StageFactory(
        tournament=tournament, order=1, name="予選 Qualifying", advance_top_n=CUT_CUP_TOP_N
    )
    final = StageFactory(tournament=tournament, order=2, name="決勝 Final", kind=Stage.Kind.FINAL)
    round_ = RoundFactory(
        stage=qualifying, number=1, status=Round.Status.PUBLISHED, published_at=timezone.now()
    )
    entries: dict[str, Entry] = {}
    tables: dict[int, Table] = {}
    for number, sets in CUT_CUP_ORDERS.items():
        table = TableFactory(round=round_, number=number, referee=referee)
        tables[number] = table
        for position, name in enumerate(sorted(sets[0]), start=1):
            entry = EntryFactory(
                tournament=tournament,
                number=len(entries) + 1,
                player__display_name=name,
                status=Entry.Status.CHECKED_IN,
            )
            entries[name] = entry
            SeatFactory(table=table, position=position, entry=entry)
    cup = CutCup(tournament, qualifying, final, round_, organiser, head, referee, tables, entries)
    for number, sets in CUT_CUP_ORDERS.items():
        for set_number, names in enumerate(sets, start=1):
            game = games.start_game(tables[number], referee, mode=Game.Mode.QUICK)
            if not last_game and (number, set_number) == (1, 3):
                break
            games.record_quick_result(game, referee, cup.order_of(game, names))
            games.confirm_game(game, head)
    if last_game and advanced:
        services.complete_round(round_, organiser)
        services.advance_stage(qualifying, organiser, stage_ranking(qualifying).keys)
    return cup
