"""Team matches (掼蛋 Guandan): the hands a table plays in a round are one match between the
two teams seated there, partners facing (engine team 0 at table positions 1 and 3, team 1 at
2 and 4).

A match is read from its hands' results, never stored beside them: each finished hand's
`GameResult.detail` carries the team's level after the hand (`team_level`) and whether the
hand won the match at A (`match_won`), so the last hand that counts (not void) gives the
match as it stands. Starting the next hand, the standings jobs and the pairing of the next
round all read it here.
"""

from __future__ import annotations

import datetime
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from django.utils import timezone

from games.engine.guandan import (
    ACE,
    Match,
    match_from_record,
    next_match,
    parse_level,
    settle_hand,
)
from games.models import Game, GameResult, ResultVersion
from games.state import rebuild, rules_for_game
from tournaments.models import Seat, Tournament

# A match won at A counts as one level past A when levels are compared.
PAST_ACE = ACE + 1


@dataclass(frozen=True, slots=True)
class TableMatch:
    """A table's match as its counted hands leave it."""

    table_id: int
    # The registered team (`Team` pk) playing as engine team 0 and as team 1.
    teams: tuple[int | None, int | None]
    hands: int = 0
    levels: tuple[int, int] = (2, 2)
    winner: int | None = None  # the engine team that won at A
    in_play: bool = False
    started_at: datetime.datetime | None = None

    @property
    def final_levels(self) -> tuple[int, int]:
        """The levels compared for the result: a team that won at A is past A."""
        return (
            PAST_ACE if self.winner == 0 else self.levels[0],
            PAST_ACE if self.winner == 1 else self.levels[1],
        )

    @property
    def leader(self) -> int | None:
        """The engine team ahead: the one that won at A, else the higher level (None: level)."""
        first, second = self.final_levels
        if first == second:
            return None
        return 0 if first > second else 1

    def level_difference(self, team: int) -> int:
        """How many levels `team` (0 or 1) finished ahead of the other (negative: behind)."""
        mine, theirs = self.final_levels[team], self.final_levels[1 - team]
        return mine - theirs


def table_matches(table_ids: Iterable[int]) -> dict[int, TableMatch]:
    """The match at each of the tables (by table pk), from their hands' results."""
    ids = list(table_ids)
    teams: dict[int, list[int | None]] = {t: [None, None] for t in ids}
    for table_id, position, team_id in Seat.objects.filter(table_id__in=ids).values_list(
        "table_id", "position", "entry__team_id"
    ):
        teams[table_id][(position - 1) % 2] = team_id
    hands: dict[int, int] = defaultdict(int)
    last: dict[int, tuple[int, int]] = {}  # table → (set, game) of its last counted hand
    in_play: set[int] = set()
    started: dict[int, datetime.datetime] = {}
    games = Game.objects.filter(table_id__in=ids).exclude(status=Game.Status.VOID)
    for table_id, set_number, game_number, status, created_at in games.values_list(
        "table_id", "set_number", "game_number", "status", "created_at"
    ):
        if table_id not in started or created_at < started[table_id]:
            started[table_id] = created_at
        if status == Game.Status.IN_PLAY:
            in_play.add(table_id)
            continue
        hands[table_id] += 1
        if (set_number, game_number) > last.get(table_id, (0, 0)):
            last[table_id] = (set_number, game_number)
    levels: dict[int, list[int]] = {t: [2, 2] for t in ids}
    winner: dict[int, int] = {}
    rows = GameResult.objects.filter(
        game__table_id__in=ids,
        team__isnull=False,
        game__status__in=(Game.Status.FINISHED, Game.Status.CONFIRMED),
    ).values_list("game__table_id", "game__set_number", "game__game_number", "team", "detail")
    for table_id, set_number, game_number, team, detail in rows:
        if last.get(table_id) != (set_number, game_number) or team is None:
            continue
        levels[table_id][team] = parse_level(detail.get("team_level", "2"))
        if detail.get("match_won"):
            winner[table_id] = team
    return {
        t: TableMatch(
            table_id=t,
            teams=(teams[t][0], teams[t][1]),
            hands=hands[t],
            levels=(levels[t][0], levels[t][1]),
            winner=winner.get(t),
            in_play=t in in_play,
            started_at=started.get(t),
        )
        for t in ids
    }


def table_match(table_id: int) -> TableMatch:
    return table_matches([table_id])[table_id]


def time_is_up(
    tournament: Tournament, match: TableMatch, now: datetime.datetime | None = None
) -> bool:
    """A time-limited match's limit has passed (counted from its first hand's start)."""
    if tournament.match_length != Tournament.MatchLength.TIME or match.started_at is None:
        return False
    limit = datetime.timedelta(minutes=tournament.match_minutes or 0)
    return (now or timezone.now()) >= match.started_at + limit


# Why a match is over (`over_because`).
WON_AT_ACE = "won_at_a"
HANDS_PLAYED = "hands_played"
TIME_UP = "time_up"


def over_because(
    tournament: Tournament, match: TableMatch, now: datetime.datetime | None = None
) -> str | None:
    """Why no hand is in play and no other will start (None: the match goes on): a team won
    at A, the hands are all played (`games_per_set`, the cap of every match length), or the
    time limit has passed."""
    if match.in_play:
        return None
    if match.winner is not None:
        return WON_AT_ACE
    if match.hands >= tournament.games_per_set:
        return HANDS_PLAYED
    if time_is_up(tournament, match, now):
        return TIME_UP
    return None


def match_over(
    tournament: Tournament, match: TableMatch, now: datetime.datetime | None = None
) -> bool:
    """No hand is in play and no other will start (`over_because` says why)."""
    return over_because(tournament, match, now) is not None


# --- what a match carries into its next hand ------------------------------------------------


def finishing_order(results: Iterable[GameResult]) -> list[int]:
    """A settled hand's finishing order as far as its results tell it: the seats by place,
    without the two losers of a 1-2 finish (they share third place, in no order)."""
    rows = sorted(results, key=lambda r: (r.place, r.seat))
    places = [r.place for r in rows]
    return [r.seat for r in rows if places.count(r.place) == 1]


def match_after(game: Game) -> Match:
    """The match a counted hand leaves for the next one. A hand played out whose result is
    still the engine's: `next_match` of its final state. Any other (a quick result, a
    correction): the same engine function (`settle_hand`) from its recorded finishing order
    and whether the first finisher went out on aces only (`aces_only`, kept in its detail)."""
    assert game.match is not None, "not a hand of a team match"
    if played_out(game):
        return next_match(rebuild(game))
    results = list(game.results.all())
    aces_only = any(r.detail.get("aces_only") for r in results)
    rules = rules_for_game(game)
    order = finishing_order(results)
    return settle_hand(rules, match_of(game), order, aces_only=aces_only)[0].match  # type: ignore[arg-type]


def played_out(game: Game) -> bool:
    """The hand was played move by move (a known deal; a team hand is never an open table)
    and its result is still the one its cards gave: not a quick result, never corrected."""
    latest = (
        ResultVersion.objects.filter(game_id=game.pk)
        .order_by("-number")
        .values_list("kind", flat=True)
        .first()
    )
    return game.mode == Game.Mode.KNOWN_DEAL and latest == ResultVersion.Kind.RECORDED


def match_of(game: Game) -> Match:
    """The match a hand started from (`Game.match`, the record form `Match.to_record`)."""
    return match_from_record(game.match)


def match_for_next_hand(table_id: int, set_number: int) -> Match:
    """What the table's match carries into its next hand: a fresh match (both teams at 2)
    before the first counted hand, else what the last counted (not void) hand left — so a
    voided hand re-dealt starts from the same match as the hand it replaces."""
    last = (
        Game.objects.filter(table_id=table_id, set_number=set_number)
        .exclude(status=Game.Status.VOID)
        .order_by("-game_number", "-attempt")
        .first()
    )
    return Match() if last is None else match_after(last)


def match_points(tournament: Tournament, match: TableMatch) -> Mapping[int, int]:
    """Each engine team's match points for the match: by result (win, draw, loss, e.g.
    2/1/0), or by level difference (the team ahead scores the levels it finished ahead by,
    the other none)."""
    ahead = match.leader
    if tournament.match_points_by == Tournament.MatchPointsBy.LEVELS:
        if ahead is None:
            return {0: 0, 1: 0}
        return {ahead: match.level_difference(ahead), 1 - ahead: 0}
    table = tournament.match_points
    if ahead is None:
        return {0: int(table["draw"]), 1: int(table["draw"])}
    return {ahead: int(table["win"]), 1 - ahead: int(table["loss"])}
