"""Live table feeds: "ping, then refetch".

Every write bumps `Game.version` inside its transaction; after commit `notify_table_changed`
publishes the table's version (`config.broadcast`: the cache, and the Redis live channel the
async live process listens to) and sends the `table_changed` signal to in-process listeners.
Feeds — the live page's htmx poll and the SSE endpoint — compare the published version with
what the client last saw (no database query) and, on change, the client refetches the public
view, rendered once per version, where hidden hands are filtered. The ping itself carries no
game data, so it cannot leak a card (after an undo, the withdrawn row's number at most). It
works the same on SQLite with eager Celery and on PostgreSQL. A mid-round substitution
(tournaments) pings the same way (`notify_seats_changed`).
"""

from __future__ import annotations

import logging
from functools import partial

from django.contrib.auth.models import AnonymousUser
from django.core.cache import cache
from django.db.models import Max, OuterRef, Subquery
from django.dispatch import Signal

from config import broadcast
from games.models import LATEST_FIRST, Game
from tournaments.models import Table
from tournaments.permissions import AnyUser

log = logging.getLogger(__name__)

# Sent after commit with table_id, game_id, version.
table_changed = Signal()

# Sent inside the writer's transaction with game_id and tournament_id whenever a game's results
# were written or removed (a game finished, a quick result, an undo that reopened a finished
# game). Scoring listens to it and records a standings recompute (and webhooks) in the outbox
# (`games.outbox`), committed with the results; games never imports scoring.
results_changed = Signal()

# Sent inside the writer's transaction with game_id and tournament_id when a finished game's
# result is confirmed: it stops being provisional (standings count confirmed results apart).
game_confirmed = Signal()


def notify_table_changed(
    table_id: int, game_id: int, version: int, *, withdrawn: int | None = None
) -> None:
    """After commit: the table's public view changed. Its version is published (the cache, and
    the live channel with Redis) and in-process listeners are told. `withdrawn`: the seq of
    the move an undo took back, announced to the streams open now (their viewers drop it:
    `event: withdrawn`); the row number only, never its cards."""
    log.debug("table %s changed: game %s v%s", table_id, game_id, version)
    note = None if withdrawn is None else {"withdrawn": {"game": game_id, "seq": withdrawn}}
    broadcast.publish(table_scope(table_id), table_version(table_id), note)
    table_changed.send(sender=Game, table_id=table_id, game_id=game_id, version=version)


def table_scope(table_id: int) -> str:
    return f"table:{table_id}"


# How long "this table is public" (its round and tournament published) is trusted when a
# visitor opens a feed or a poll renders a new version: a thousand phones opening the final's
# table at once cost one query, not one each. A table hidden meanwhile is refused this much
# later; what a feed carries is a version (no game data).
PUBLIC_TABLE_SECONDS = 10


def table_is_public(table_id: int) -> bool:
    """Whether anyone may watch the table: from the cache, else one query (then cached)."""
    from tournaments.selectors import visible_tables  # tournaments' services import this module

    key = f"live:public:{table_scope(table_id)}"
    public = cache.get(key)
    if public is None:
        public = visible_tables(AnonymousUser()).filter(pk=table_id).exists()
        cache.set(key, public, PUBLIC_TABLE_SECONDS)
    return bool(public)


def may_watch(user: AnyUser, table_id: int) -> bool:
    """Whether `user` may follow the table live: the public may if it is public; organisers and
    referees also follow the tables they may see before it is."""
    from tournaments.selectors import visible_tables

    if table_is_public(table_id):
        return True
    return user.is_authenticated and visible_tables(user).filter(pk=table_id).exists()


def current_table_version(table_id: int) -> str:
    """The table's version as a poll compares it: from the cache, else from the database."""
    return broadcast.current(table_scope(table_id), partial(table_version, table_id))


def notify_results_changed(game_id: int, tournament_id: int) -> None:
    log.debug("results of game %s (tournament %s) changed", game_id, tournament_id)
    results_changed.send(sender=Game, game_id=game_id, tournament_id=tournament_id)


def notify_game_confirmed(game_id: int, tournament_id: int) -> None:
    game_confirmed.send(sender=Game, game_id=game_id, tournament_id=tournament_id)


def table_version(table_id: int) -> str:
    """An opaque marker that changes whenever the table's public view may have changed: a
    write to its latest game, or a seat taken over by a substitute mid-round
    (`Seat.substituted_at`: the names shown change). One query."""
    latest = Game.objects.filter(table_id=OuterRef("pk")).order_by(*LATEST_FIRST)
    found = (
        Table.objects.filter(pk=table_id)
        .annotate(
            game_id=Subquery(latest.values("pk")[:1]),
            game_version=Subquery(latest.values("version")[:1]),
            substituted=Max("seats__substituted_at"),
        )
        .values_list("game_id", "game_version", "substituted")
        .first()
    )
    game_id, game_version, substituted = found if found is not None else (None, None, None)
    version = "0" if game_id is None else f"{game_id}.{game_version}"
    if substituted is not None:
        version += f"-s{int(substituted.timestamp() * 1000)}"
    return version


def notify_seats_changed(table_id: int) -> None:
    """A table's seats changed outside a game (a mid-round substitution, sent after commit by
    `tournaments.services.substitute_entry`): the same `table_changed` ping, so live viewers
    refetch and show the new names."""
    latest = (
        Game.objects.filter(table_id=table_id)
        .order_by(*LATEST_FIRST)
        .values_list("pk", "version")
        .first()
    )
    game_id, version = latest if latest is not None else (0, 0)
    notify_table_changed(table_id, game_id, version)
