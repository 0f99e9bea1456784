"""A table's team match as one `kakumei-record/1` match record (掼蛋 Guandan): every hand's
deal, its first leader and its moves, so the engine replays the whole match hand after hand
(`python -m games.engine replay`) and derives each hand's match — levels, failures at A, the
tribute — exactly as the service did when it started the hand.

Only what the engine itself judged replays: a hand entered as a result only (quick mode) has
no moves, and a corrected hand's result is an official's ruling rather than the cards', so a
match with either cannot be written as a record (`match_not_replayable`, naming the hand).
Hands still in play are left out: a record never holds a hand that has not ended.
"""

from __future__ import annotations

from games.engine.record import export_match_record
from games.matches import played_out
from games.models import Game
from games.services import GameError
from games.state import effective_actions, initial_state, parse_move
from tournaments.models import Table


def match_record(table: Table) -> dict[str, object]:
    """The record of the match played at `table` so far: its counted hands (not void) that
    have ended, in playing order. Raises `GameError` when there is none, or when a hand was
    not played out move by move as the engine judged it."""
    hands = list(
        table.games.filter(
            match__isnull=False, status__in=(Game.Status.FINISHED, Game.Status.CONFIRMED)
        )
        .prefetch_related("moves")
        .order_by("set_number", "game_number", "attempt")
    )
    if not hands:
        raise GameError(
            "no_hands_ended",
            "No hand of this table's match has ended yet.",
            "この卓の対戦で終了した局はまだありません",
        )
    started = []
    for hand in hands:
        if not played_out(hand):
            raise GameError(
                "match_not_replayable",
                f"Hand {hand.game_number} was entered as a result only or corrected: the "
                "engine cannot replay the match from its cards.",
                f"第{hand.game_number}局は結果のみの入力か訂正済みのため、カードから対戦を"
                "再現できません",
            )
        moves = [parse_move(hand, row.payload) for row in effective_actions(hand.moves.all())]
        started.append((initial_state(hand), moves))
    return export_match_record(started)
