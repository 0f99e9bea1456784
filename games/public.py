"""What the public may see of a game: the only serialisers public pages, the API and feeds use.

Hands stay hidden until the game ends (the family's `observe(state, None)`); so do the cards of
the exchange (a `give` payload, `exchange_given` events), a 都落ち player's discarded hand,
大財閥's given, discarded, destroyed, taken-back and drawn cards (an open hand shows what it
holds now, through `observe`, never how it got there) and,
in 掼蛋 (Guandan), the card a tribute's receiver gives back (还贡: a `return` payload,
`tribute_returned` events; seen by its giver and receiver only). A tribute card itself is shown
face up at the table, so it is public. Cards already played are public. After the end
everything may be shown.

A move taken back by an undo is withdrawn from every public view (`public_log`): at a known
deal its cards went back into a hand the public does not see, so nothing of it is shown, not
even struck through, and the undo's line gives no reason (an official's note, which may name
the cards); at an open table, where Kakumei holds no hand and everyone at the table saw the
cards, it stays in the log struck through (`withdrawn`), with the undo's reason. The replay and
the record hold only the moves that stand (`games.state.effective_actions`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.models import LATEST_FIRST, Game, Move
from games.results import result_fields
from games.seating import positions_of
from games.state import effective_actions, family_for, rebuild
from tournaments.models import Seat

# event kind -> keys that name private cards while the game is on
PRIVATE_EVENT_KEYS = {
    "exchange_given": ("cards",),
    "miyako_ochi": ("discarded",),
    "tribute_returned": ("cards",),
    # 大財閥: a 7's or Q's gift, a 10's discard, a K's destruction and an A's take-back move
    # cards the table does not show (`observe` counts the discarded and destroyed, no more).
    "gave": ("cards",),
    "discarded": ("cards",),
    "destroyed": ("cards",),
    "took_back": ("cards",),
}
# action payload key -> private cards while the game is on (shown as how many); a key whose
# value is not a list of cards (掼蛋's `take` names a seat) is public.
PRIVATE_PAYLOAD_KEYS = ("give", "return", "discard", "destroy", "take", "drew")


def public_event(event: dict[str, Any], over: bool) -> dict[str, Any]:
    if over:
        return dict(event)
    hidden = PRIVATE_EVENT_KEYS.get(str(event.get("kind")), ())
    out = {k: v for k, v in event.items() if k not in hidden}
    if "cards" in hidden and isinstance(event.get("cards"), list):
        out["count"] = len(event["cards"])
    return out


def public_payload(row: Move, over: bool) -> dict[str, Any]:
    payload = dict(row.payload)
    if not over and row.kind == Move.Kind.ACTION:
        for key in PRIVATE_PAYLOAD_KEYS:
            if isinstance(payload.get(key), list):
                payload[key] = len(payload[key])  # how many, not which
    return payload


def public_move(
    row: Move,
    over: bool,
    *,
    withdrawn: bool = False,
    reasons: bool = True,
    approved: bool | None = None,
) -> dict[str, Any]:
    """A log row as the public sees it. `withdrawn`: an action an undo took back (shown struck
    through); `reasons`: False leaves an undo's reason out; `approved`: an undo's verdict,
    where a head referee's later decision row gave it (`public_log`)."""
    payload = public_payload(row, over)
    reason = row.reason
    if not reasons and row.kind == Move.Kind.UNDO:
        payload.pop("reason", None)
        reason = ""
    return {
        "seq": row.seq,
        "kind": row.kind,
        "seat": row.seat,
        "move": payload,
        "events": [public_event(e, over) for e in row.events],
        "ref_seq": row.ref_seq,
        "reason": reason,
        "approved": row.approved if approved is None else approved,
        "withdrawn": withdrawn,
        "created_at": row.created_at.isoformat(),
    }


def shows_withdrawn(game: Game) -> bool:
    """Whether the public sees a withdrawn move struck through (an open table: Kakumei holds no
    hand, and its cards were seen at the table) rather than not at all (a known deal: its
    cards are back in a hand the public does not see)."""
    return game.mode == Game.Mode.OPEN_TABLE


def public_log(game: Game, rows: Sequence[Move], over: bool) -> list[dict[str, Any]]:
    """`rows` (the game's whole log, in order) as the public sees them: an action an undo took
    back is struck through at an open table and left out elsewhere (`shows_withdrawn`)."""
    standing = {r.seq for r in effective_actions(rows)}
    decided = {r.ref_seq: r.approved for r in rows if r.kind == Move.Kind.DECISION}
    struck = shows_withdrawn(game)
    shown = []
    for row in rows:
        withdrawn = row.kind == Move.Kind.ACTION and row.seq not in standing
        if withdrawn and not struck:
            continue
        verdict = decided.get(row.seq) if row.kind == Move.Kind.UNDO else None
        shown.append(public_move(row, over, withdrawn=withdrawn, reasons=struck, approved=verdict))
    return shown


def seat_names(table_id: int, game: Game | None = None) -> list[dict[str, Any]]:
    """Who plays each engine seat of `game` (`seat`), from which table position, in seat
    order; without a game, the table as drawn (engine seat = position − 1)."""
    # Plain rows: every new version of a live table renders this.
    seats = Seat.objects.filter(table_id=table_id).order_by("position")
    by_position = {
        position: (number, name)
        for position, number, name in seats.values_list(
            "position", "entry__number", "entry__player__display_name"
        )
    }
    positions = positions_of(game) if game is not None else sorted(by_position)
    return [
        {
            "seat": seat,
            "position": position,
            "entry_number": by_position[position][0],
            "player": by_position[position][1],
        }
        for seat, position in enumerate(positions)
        if position in by_position
    ]


def duplicate_embargo(game: Game) -> bool:
    """A duplicate deal (docs/duplicate.md) is played at the other tables of its group too,
    so the cards this table plays would show theirs: the public sees none of its moves, on the
    live page, the replay or the record, until the round's seed is revealed (its result and
    points are public as any)."""
    return bool(game.deal_key) and not game.table.round.is_revealed


def live_game(game: Game, recent: int = 12) -> dict[str, Any]:
    """The public view of one game: the engine's public observation plus recent events (none
    of either for a duplicate deal before the reveal: `duplicate_embargo`)."""
    # Exchanged cards show once a game has a result; a game voided in play never ended, so
    # they stay hidden as in play (hands follow the engine: `observe` shows them only once
    # the deal was played out).
    over = game.status in (Game.Status.FINISHED, Game.Status.CONFIRMED)
    view: dict[str, Any] = {
        "id": game.pk,
        "set_number": game.set_number,
        "game_number": game.game_number,
        "mode": game.mode,
        "status": game.status,
        "family": family_for(game).name,
        # What a partnership match (掼蛋) carried into this hand: both teams' levels.
        "match": game.match,
        "seating": list(positions_of(game)),
        "version": game.version,
        "last_seq": game.last_seq,
    }
    embargo = duplicate_embargo(game)
    view["duplicate_embargo"] = embargo
    if game.mode == Game.Mode.QUICK or embargo:
        view["state"] = None
    else:
        view["state"] = family_for(game).observe(rebuild(game), None)
    rows = [] if embargo else list(game.moves.order_by("seq"))
    view["recent"] = public_log(game, rows, over)[-recent:]
    view["results"] = [
        {
            "seat": r.seat,
            "place": r.place,
            **result_fields(r.team, r.detail),
            "points": r.points,
        }
        for r in game.results.order_by("place")
    ]
    return view


def live_table(table_id: int) -> dict[str, Any]:
    """The public view of a table: its seats as the current (latest) game seats them, and
    that game."""
    game = Game.objects.filter(table_id=table_id).order_by(*LATEST_FIRST).first()
    return {
        "table": table_id,
        "seats": seat_names(table_id, game),
        "game": None if game is None else live_game(game),
    }
