"""What the 大富豪 console's offline mode needs from the server (docs/offline.md).

The *seed* is the game as the console's phone must keep it to go on without the network: the
server's record of it (set-up and effective moves, `kakumei-record/1`), the seats, the log in
words and where to send moves when the network is back. It is embedded in every rendering of
the console (so it is as fresh as the page) and answered alone by `games.views.offline_seed`
(after a conflicting sync the phone asks for the game as it is now). Only the table's
officials see it: the record holds every hand, as the console page itself shows them.
"""

from __future__ import annotations

from typing import Any

from django.urls import reverse

from games.display import log_line
from games.engine.daifugo import DAIFUGO
from games.engine.errors import EngineError
from games.engine.record import export_record
from games.models import Game
from games.models import Move as MoveRow
from games.official_views import quick_outcome_choices
from games.state import effective_actions, family_for, initial_state, parse_move


def offline_seed(
    game: Game | None, rows: list[MoveRow], seats: list[dict[str, Any]], table_id: int
) -> dict[str, Any]:
    """The seed of `table_id`'s console: its current `game` (with its log `rows`) and its
    `seats` (the console's seat rows, in engine seat order)."""
    seed: dict[str, Any] = {
        "table": table_id,
        "game": None,
        "seats": [{k: s[k] for k in ("seat", "position", "name", "number")} for s in seats],
        "urls": {"seed": reverse("referee:offline-seed", args=[table_id])},
    }
    if game is None:
        return seed
    family = family_for(game).name
    seed |= {
        "game": game.pk,
        "version": game.version,
        "status": game.status,
        "mode": game.mode,
        "family": family,
        "supported": family == DAIFUGO.name,
        "last_seq": game.last_seq,
        "record": _record(game, rows) if family == DAIFUGO.name else None,
        "quick_choices": quick_outcome_choices(game.seats),
        "log": [{"seq": r.seq, "text": str(log_line(r.seq, r.kind, r.payload))} for r in rows],
    }
    seed["urls"] |= {
        "moves": reverse("api-game-moves", args=[game.pk]),
        "quick": reverse("api-game-quick-result", args=[game.pk]),
    }
    return seed


def _record(game: Game, rows: list[MoveRow]) -> dict[str, object] | None:
    """The game as the engine replays it: its set-up and the moves still in force."""
    try:
        start = initial_state(game)
        moves = [parse_move(game, row.payload) for row in effective_actions(rows)]
    except EngineError:
        return None  # a set-up the engine cannot start: the console says why, online only
    return export_record(start, moves)
