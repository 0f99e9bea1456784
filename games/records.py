"""Games as `kakumei-record/1` records (docs/record-format.md, docs/records-for-tools.md).

`game_record`: one game that was played move by move, as the engine replays it — for every
family (大富豪 presets, 大財閥, 掼蛋 hands) — with every hand once its round's seed is revealed,
or as the public sees it before then (no hand, no private card). `export_game` is the one
place a game's set-up and moves become a record; the offline console's seed uses it too.

`match_record`: a table's team match as one match record (掼蛋 Guandan): every hand's
deal, its first leader and its moves, so the engine replays the whole match hand after hand
(`python -m games.engine replay`) and derives each hand's match — levels, failures at A, the
tribute — exactly as the service did when it started the hand.

Only what the engine itself judged replays: a hand entered as a result only (quick mode) has
no moves, and a corrected hand's result is an official's ruling rather than the cards', so a
match with either cannot be written as a record (`match_not_replayable`, naming the hand).
Hands still in play are left out: a record never holds a hand that has not ended.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import Any

from games.clock import record_clock
from games.engine.errors import EngineError
from games.engine.family import family_of
from games.engine.record import export_match_record, export_record, replay, replay_any
from games.engine.rules import RuleSet
from games.matches import played_out
from games.models import Game, ResultVersion
from games.models import Move as MoveRow
from games.public import PRIVATE_PAYLOAD_KEYS, duplicate_embargo, seat_names
from games.services import GameError
from games.state import effective_actions, initial_state, parse_move, rules_for_game
from tournaments.models import Table

# Set-up keys that name cards nobody at the table has seen: the blind cards, 大財閥's draw pile
# and the deal seed it is renewed from (which would give the pile away).
_PRIVATE_SETUP_KEYS = ("blind", "pile", "seed")


def export_game(
    game: Game, rows: Iterable[MoveRow], rules: RuleSet | None = None
) -> dict[str, object]:
    """The game as the engine replays it: its set-up and the actions of `rows` still in force
    (undone ones left out). Raises `EngineError` when the engine cannot start the game."""
    rules = rules or rules_for_game(game)
    family = family_of(rules)
    start = initial_state(game, rules)
    moves = [parse_move(game, row.payload, family) for row in effective_actions(rows)]
    return export_record(start, moves)


def game_record(game: Game, *, hands: bool) -> dict[str, object]:
    """The record of a game that ended as it was played, move by move (FINISHED or
    CONFIRMED, its result still the one its cards gave). `hands`: with every hand as dealt and
    every card given; else the public record (`public_record`). Raises `GameError`
    (`game_in_play`, `game_void`, `game_not_replayable`). A table of 3 or 5 writes its seat
    count in the record's rules (the `seats` override), like any other switch."""
    if game.status == Game.Status.IN_PLAY:
        raise GameError(
            "game_in_play",
            "The game is still in play: its record is available once it has ended.",
            "この対局はまだ進行中です。棋譜は終了後に取得できます",
        )
    if game.status == Game.Status.VOID:
        raise GameError(
            "game_void",
            "The game was voided: it has no result to replay.",
            "この対局は無効になったため、再現する結果がありません",
        )
    if not _played_as_recorded(game, _latest_result_kind(game)):
        raise GameError(
            "game_not_replayable",
            "The game was entered as a result only, corrected or ended by a forfeit: its "
            "result does not follow from its moves, so it has no record.",
            "この対局は結果のみの入力・訂正・途中棄権のため、手順から結果を再現できず、"
            "棋譜はありません",
        )
    record = export_game(game, game.moves.order_by("seq"))
    clock = record_clock(game)
    if clock is not None:
        record["clock"] = clock
    return record if hands else public_record(record)


def has_record(game: Game) -> bool:
    """For a game of `games.selectors.ended_games` (which annotates its latest result's kind):
    whether `game_record` writes it rather than refusing it."""
    return _played_as_recorded(game, getattr(game, "result_kind", None))


def _played_as_recorded(game: Game, latest_kind: str | None) -> bool:
    """Played move by move (a known deal or an open table) and still the result its moves
    gave (`latest_kind`, its latest result version's): not a quick result, never corrected,
    not a forfeit."""
    return game.mode != Game.Mode.QUICK and latest_kind == ResultVersion.Kind.RECORDED


def _latest_result_kind(game: Game) -> str | None:
    return (
        ResultVersion.objects.filter(game_id=game.pk)
        .order_by("-number")
        .values_list("kind", flat=True)
        .first()
    )


def public_record(record: dict[str, object]) -> dict[str, object]:
    """What a public viewer may see of a record (the rules of `games.public`): no hand (`null`
    with each seat's dealt count in `counts`), the seat that led the first trick in `leader`,
    no blind card, draw pile nor deal seed, and every private card list of an action (an
    exchange give, a 大財閥 gift, discard or draw, a 掼蛋 return) replaced by how many cards
    it held. The tribute and every card played are public."""
    public: dict[str, object] = {}
    dealt = record.get("hands")
    if isinstance(dealt, list):
        counts = record.get("counts")
        public["hands"] = [None] * len(dealt)
        public["counts"] = (
            counts
            if isinstance(counts, list)
            else [len(hand) if isinstance(hand, list) else 0 for hand in dealt]
        )
        if "leader" not in record and "match" not in record:
            leader = _first_leader(record)
            if leader is not None:
                public["leader"] = leader
    for key in ("exchange", "moves"):
        actions = record.get(key)
        if isinstance(actions, list):
            public[key] = [_public_action(action) for action in actions]
    # In the record's own key order, `counts` after `hands` and `leader` before the actions, as
    # the engine writes them.
    out: dict[str, object] = {}
    for key, value in record.items():
        if key in _PRIVATE_SETUP_KEYS or key == "counts":
            continue
        if key in ("exchange", "moves") and "leader" in public:
            out.setdefault("leader", public["leader"])
        out[key] = public.get(key, value)
        if key == "hands":
            out["counts"] = public["counts"]
    if "leader" in public:
        out.setdefault("leader", public["leader"])
    return out


def _public_action(action: Any) -> Any:
    if not isinstance(action, dict):
        return action
    return {
        k: len(v) if k in PRIVATE_PAYLOAD_KEYS and isinstance(v, list) else v
        for k, v in action.items()
    }


def _first_leader(record: dict[str, object]) -> int | None:
    """The seat in turn once the exchange is done: without the hands, the engine can no
    longer find who holds the opening card (or, after an exchange, who received it). The
    clock goes with the moves: its think times count them."""
    try:
        replayed = replay_any({k: v for k, v in record.items() if k not in ("moves", "clock")})
    except EngineError:
        return None
    turn = getattr(replayed.state, "turn", None)
    return turn if isinstance(turn, int) else None


def replays_to_the_end(record: dict[str, object]) -> bool:
    """Whether the engine reads `record` and every action in it is legal to the game's end
    (a public record with private cards counted, or a 掼蛋 hand without its hands, does not)."""
    try:
        replayed = replay(record)
    except EngineError:
        return False
    return replayed.finished and all(v.ok for v in (*replayed.exchange, *replayed.moves))


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


def published_record(game: Game) -> dict[str, object]:
    """The record anyone may download: every hand once the game's round has revealed its
    seed, the public record before (`game_record`'s refusals apply) — and none before for a
    duplicate deal, whose plays would show the cards of its group's other tables."""
    if duplicate_embargo(game):
        raise GameError(
            "duplicate_deal_hidden",
            "The game was dealt a duplicate deal that other tables play too: its record is "
            "available once the round's seed is revealed.",
            "この対局はほかの卓と同じ配牌(デュプリケート)のため、棋譜はシード公開後に取得できます",
        )
    return game_record(game, hands=game.table.round.is_revealed)


def record_line(game: Game) -> dict[str, object]:
    """One line of a JSON-lines download: `game`, who and where (outside the record, whose
    keys the engine checks), and `record` — or `record: null` and the `error` saying why a
    game that ended has none (a quick result, a correction, a forfeit)."""
    table = game.table
    round_ = table.round
    about: dict[str, object] = {
        "id": game.pk,
        "tournament": round_.stage.tournament.slug,
        "stage": round_.stage.name,
        "round": round_.number,
        "round_id": round_.pk,
        "table": table.number,
        "set": game.set_number,
        "game": game.game_number,
        "attempt": game.attempt,
        "status": game.status,
        "mode": game.mode,
        "players": [
            {"seat": s["seat"], "entry": s["entry_number"], "name": s["player"]}
            for s in seat_names(table.pk, game)
        ],
        "results": [
            {"seat": seat, "place": place}
            for seat, place in game.results.order_by("place", "seat").values_list("seat", "place")
        ],
        "hands": round_.is_revealed,
    }
    try:
        record = published_record(game)
    except GameError as error:
        about["replays"] = False
        return {
            "game": about,
            "record": None,
            "error": {
                "code": error.code,
                "message_en": error.message_en,
                "message_ja": error.message_ja,
            },
        }
    about["replays"] = replays_to_the_end(record)
    return {"game": about, "record": record}


def records_jsonl(games: Iterable[Game]) -> Iterator[str]:
    """Each game's `record_line` as one line of JSON (UTF-8 as is, no spaces)."""
    for game in games:
        line = json.dumps(record_line(game), ensure_ascii=False, separators=(",", ":"))
        yield line + "\n"
