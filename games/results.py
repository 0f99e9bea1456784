"""The one writer of a game's results: every path that changes them comes through here.

A game's results are the engine family's `SeatResult`s — place, team, points and the family's
own `detail` — stored as `GameResult` rows with the tournament's points, and appended as the
game's next `ResultVersion`. The game's end (`family.outcome`), a quick result, a forfeit and
a correction (their placings, `seat_results_from_placings`) all build rows with
`result_rows`; those and a void or an undo that reopens the game (no rows) are written with
`write_results`. Nothing here knows a family's titles: `detail` is stored as the family gives it.

Points: a seat played alone scores its place's points from the tournament's table
(`points_for`). A partnership's seat (掼蛋 Guandan: `team` set) scores its hand's level gain
(`detail["level_gain"]`: 3, 2 or 1 for the hand's winning team's two players, 0 for the
others and for the hand that wins the match at A): places in a partnership hand are shared
(both losers of a 1-2 finish are third), so a place's points would say nothing, while the
levels gained add up to how far a team climbed. Team standings rank by the match points of
`games.matches`, not by these.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import partial
from typing import Any

from games.engine import Placing, SeatResult
from games.models import Game, GameResult, ResultVersion
from games.seating import positions_of
from tournaments.models import Seat, Tournament
from tournaments.permissions import AnyUser
from tournaments.points import points_for


def seat_results_from_placings(placings: Iterable[Placing]) -> tuple[SeatResult, ...]:
    """The family-neutral results of placings worked out outside a finished game's state (a
    quick result, a forfeit, a correction): the same `detail` as `family.outcome` gives — the
    placing's own fields besides seat and place — and no team or ruleset points."""
    results = []
    for p in placings:
        detail = {k: v for k, v in p.to_dict().items() if k not in ("seat", "place")}
        results.append(SeatResult(p.seat, p.place or 0, None, None, detail))
    return tuple(results)


def _scoring_for(game: Game, tournament: Tournament) -> tuple[Callable[..., int], dict[int, int]]:
    """The points a place earns in this game, and the entry at each engine seat."""
    points = partial(
        points_for,
        tournament.points_table,
        seats=game.seats,
        game_number=game.game_number,
        games_per_set=tournament.games_per_set,
    )
    by_position = dict(
        Seat.objects.filter(table_id=game.table_id).values_list("position", "entry_id")
    )
    entries = {
        seat: by_position[position]
        for seat, position in enumerate(positions_of(game))
        if position in by_position
    }
    # A result stays with whoever held the seat when the game finished: correcting a game
    # finished before a mid-round substitute (補欠) took the seat keeps it the original's.
    entries |= dict(GameResult.objects.filter(game_id=game.pk).values_list("seat", "entry_id"))
    return points, entries


def result_rows(
    game: Game,
    tournament: Tournament,
    results: Sequence[SeatResult],
    forfeit_seat: int | None = None,
) -> list[GameResult]:
    """The game's result rows for `results`, unsaved, first place first: points from the
    tournament's table (a forfeit's leaver gets `forfeit_leaver_points` when the tournament
    sets it); a place the results leave open (0) is the last."""
    points, entries = _scoring_for(game, tournament)
    rows = []
    for r in results:
        place = r.place or game.seats
        leaver = r.seat == forfeit_seat
        rows.append(
            GameResult(
                game=game,
                entry_id=entries[r.seat],
                seat=r.seat,
                place=place,
                team=r.team,
                detail=dict(r.detail),
                forfeit=leaver,
                points=(
                    tournament.forfeit_leaver_points
                    if leaver and tournament.forfeit_leaver_points is not None
                    else points(place=place)
                    if r.team is None
                    else partnership_points(r.detail)
                ),
            )
        )
    return sorted(rows, key=lambda row: row.place)


def partnership_points(detail: Mapping[str, Any]) -> int:
    """A partnership seat's points for a hand: its team's level gain (see the module)."""
    return int(detail.get("level_gain") or 0)


def write_results(
    game: Game,
    actor: AnyUser,
    rows: Sequence[GameResult],
    kind: str,
    *,
    reason: str = "",
    after_reveal: bool = False,
) -> ResultVersion:
    """Replace the game's current results with `rows` (none: a void, a reopened game) and
    append them as its next `ResultVersion` (the caller saves `game.result_version`)."""
    game.results.all().delete()  # the projection of the latest version; versions stay
    GameResult.objects.bulk_create(rows)
    game.result_version += 1
    return ResultVersion.objects.create(
        game=game,
        number=game.result_version,
        kind=kind,
        placings=[placing_dict(r) for r in sorted(rows, key=lambda r: r.place)],
        reason=reason,
        actor=actor if actor.is_authenticated else None,
        after_reveal=after_reveal,
    )


def placing_dict(r: GameResult) -> dict[str, Any]:
    """One seat's result as a version (and a correction's preview) records it."""
    return {
        "seat": r.seat,
        "entry": r.entry_id,
        "place": r.place,
        "team": r.team,
        "detail": dict(r.detail),
        "forfeit": r.forfeit,
        "points": r.points,
    }


def result_fields(team: int | None, detail: Mapping[str, Any]) -> dict[str, Any]:
    """A result's `team` and `detail` as the API, the live feeds and webhooks show them, with
    each detail value also at the top level: the shape clients had before results were
    family-neutral (大富豪's `title`, `foul`, `miyako_ochi`), a missing value "" as the old
    columns had it (a 3-player game's title). The top-level copies never hide a generic key."""
    flat = {k: ("" if v is None else v) for k, v in detail.items() if k not in _GENERIC_KEYS}
    return {**flat, "team": team, "detail": dict(detail)}


def version_placing(placing: Mapping[str, Any]) -> dict[str, Any]:
    """A stored `ResultVersion.placings` entry as the API shows it (`result_fields`)."""
    detail = placing.get("detail") or {}
    rest = {k: v for k, v in placing.items() if k not in ("team", "detail")}
    return {**result_fields(placing.get("team"), detail), **rest}


# What a result is besides its detail (never overwritten by a detail's top-level copy).
_GENERIC_KEYS = frozenset(
    {"seat", "entry", "entry_number", "player", "place", "team", "detail", "forfeit", "points"}
)
