"""Game actions (DESIGN §4 write path): start a game, submit a move, undo, record a quick
result, confirm. Each checks the actor's per-object permission itself (`PermissionDenied`),
locks the game row, and tells live feeds after commit, never inside the transaction.

`submit_move` answers with a `MoveOutcome` that views and the API turn into HTTP alike:

| outcome    | HTTP | when                                                               |
|------------|------|--------------------------------------------------------------------|
| accepted   | 201  | `seq` is the next number and the engine accepts the move           |
| replayed   | 200  | `seq` is taken by an identical payload: the stored answer again    |
| conflict   | 409  | `seq` is taken by a different payload, or is ahead (`expected_seq`)|
| rejected   | 422  | the engine (or the game's status) refuses it: nothing is written   |
| invalid    | 400  | the payload is not a move                                          |
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

import psycopg
from django.core.exceptions import PermissionDenied
from django.db import connection, transaction
from django.db.backends.utils import CursorWrapper
from django.db.models import Q
from django.utils import timezone

from games import live
from games.engine import (
    EngineError,
    Event,
    IllegalMove,
    Placing,
    State,
    apply,
    card_names,
    snapshot,
)
from games.engine import Move as EngineMove
from games.models import Game, GameResult, Move
from games.state import (
    BadMove,
    Known,
    QuickError,
    canonical,
    effective_actions,
    fingerprint,
    initial_state,
    latest_known,
    parse_move,
    quick_placings,
    rebuild,
    remember,
    remember_version,
)
from tournaments.deals import derive_deal
from tournaments.models import Official, Seat, Table, Tournament
from tournaments.permissions import AnyUser, can_view_table, has_role, is_organiser
from tournaments.points import points_for


class GameError(ValueError):
    """A request the game cannot carry out as asked (shown to the referee as is)."""

    def __init__(self, code: str, message_en: str, message_ja: str) -> None:
        super().__init__(message_en)
        self.code = code
        self.message_en = message_en
        self.message_ja = message_ja


# --- permissions -----------------------------------------------------------------------------


def can_run_table(user: AnyUser, table: Table) -> bool:
    """Write access: the table's assigned referee, the head referee or an organiser."""
    return can_view_table(user, table)


def require_table_writer(actor: AnyUser, table: Table) -> None:
    if not can_run_table(actor, table):
        raise PermissionDenied("Only this table's referee, the head referee or an organiser.")


def is_head_referee(user: AnyUser, tournament: Tournament) -> bool:
    return is_organiser(user, tournament) or has_role(user, tournament, Official.Role.HEAD_REFEREE)


def can_confirm(user: AnyUser, game: Game) -> bool:
    """Any official of the tournament or a player seated at the table — but not whoever
    recorded the game's end: confirming is a second pair of eyes."""
    if not user.is_authenticated or user.pk == game.finished_by_id:
        return False
    tournament = game.table.round.stage.tournament
    if (
        is_organiser(user, tournament)
        or Official.objects.filter(tournament=tournament, user_id=user.pk).exists()
    ):
        return True
    return Seat.objects.filter(table_id=game.table_id, entry__player__user_id=user.pk).exists()


def _tournament(game: Game) -> Tournament:
    """The game's tournament in one query (not three lazy hops through round and stage)."""
    return Tournament.objects.get(stages__rounds__tables__games=game.pk)


def _lock(game: Game | int) -> Game:
    """The game row, locked for this transaction, with its table (who referees it).

    The tournament is fetched only when needed (another official acting, a game ending):
    joining it here would cost every move of a device a four-table join.
    """
    pk = game if isinstance(game, int) else game.pk
    return Game.objects.select_for_update(of=("self",)).select_related("table").get(pk=pk)


# What a write to the log changes on the game row.
SAVED_ON_CHANGE = ("last_seq", "version", "status", "finished_by", "finished_at")


def _log(
    game: Game,
    actor: AnyUser,
    kind: str,
    payload: Any,
    print_: str | None = None,
    **fields: Any,
) -> Move:
    """Append a row at the next seq of the locked game's log and advance `last_seq`.

    `print_`: the payload's fingerprint, when the caller has it already."""
    seq = game.last_seq + 1
    row = Move.objects.create(
        game=game,
        seq=seq,
        kind=kind,
        payload=payload,
        actor=actor if actor.is_authenticated else None,
        fingerprint=fingerprint(payload) if print_ is None else print_,
        **fields,
    )
    game.last_seq = seq
    return row


def _changed(game: Game) -> None:
    """Bump the public version and ping live feeds once the transaction commits."""
    game.version += 1
    transaction.on_commit(partial(live.notify_table_changed, game.table_id, game.pk, game.version))


# --- starting games --------------------------------------------------------------------------


def next_game_numbers(table: Table) -> tuple[int, int]:
    """(set, game) of the table's next game; raises `GameError` while one is in play or when
    the round's sets are all played."""
    tournament = table.round.stage.tournament
    last = table.games.order_by("-set_number", "-game_number").first()
    if last is None:
        return 1, 1
    if last.status == Game.Status.IN_PLAY:
        raise GameError(
            "game_in_play", "Finish the current game first.", "対局中のゲームを先に終えてください"
        )
    if last.game_number < tournament.games_per_set:
        return last.set_number, last.game_number + 1
    if last.set_number < tournament.sets_per_round:
        return last.set_number + 1, 1
    raise GameError("round_complete", "Every set of this round is played.", "全セット終了しました")


def start_game(
    table: Table,
    actor: AnyUser,
    *,
    mode: str = Game.Mode.KNOWN_DEAL,
    leader: int | None = None,
) -> Game:
    """Start the table's next game: the deal of a known-deal game follows from the round's
    secret seed (`tournaments.deals`); titles carry over from the previous game of the set."""
    require_table_writer(actor, table)
    if mode not in Game.Mode.values:
        raise GameError("bad_mode", f"Unknown mode {mode!r}.", "不明なモードです")
    with transaction.atomic():
        locked = Table.objects.select_for_update().select_related("round__stage__tournament")
        table = locked.get(pk=table.pk)
        tournament = table.round.stage.tournament
        set_number, game_number = next_game_numbers(table)
        seats = Seat.objects.filter(table=table).count()
        if not 3 <= seats <= 5:
            raise GameError("no_seats", "The table has no players seated.", "席が決まっていません")
        titles: list[str] | None = None
        if game_number > 1:
            previous = table.games.get(set_number=set_number, game_number=game_number - 1)
            by_seat = {r.seat: r.title for r in previous.results.all()}
            if len(by_seat) == seats and all(by_seat.values()):
                titles = [by_seat[s] for s in range(seats)]
        deal = derive_deal(
            table.round.seed_secret,
            ruleset_id=tournament.ruleset_id,
            ruleset_version=tournament.ruleset_version,
            seats=seats,
            table=table.number,
            set_number=set_number,
            game=game_number,
        )
        known = mode == Game.Mode.KNOWN_DEAL
        game = Game(
            table=table,
            set_number=set_number,
            game_number=game_number,
            ruleset_id=tournament.ruleset_id,
            ruleset_version=tournament.ruleset_version,
            mode=mode,
            seats=seats,
            hands=[card_names(h) for h in deal.hands] if known else [None] * seats,
            counts=[h.bit_count() for h in deal.hands],
            blind=card_names(deal.blind) if known else None,
            titles=titles,
            leader=None if known else leader,
            started_by=actor if actor.is_authenticated else None,
        )
        if mode == Game.Mode.OPEN_TABLE and titles is None and leader is None:
            raise GameError(
                "leader_required",
                "Open table: say who holds the opening card (♠3) and leads.",
                "手配り：最初に出す人（♠3 を持つ人）を選んでください",
            )
        if mode != Game.Mode.QUICK:
            rebuild_check(game)
        game.save()
        transaction.on_commit(partial(live.notify_table_changed, table.pk, game.pk, 0))
    return game


def rebuild_check(game: Game) -> None:
    """Refuse a game whose set-up the engine cannot start (raises `GameError`)."""
    try:
        initial_state(game)
    except EngineError as error:
        raise GameError(error.code, str(error), "配布が正しくありません") from error


# --- moves -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class MoveOutcome:
    status: str  # accepted | replayed | conflict | rejected | invalid
    http_status: int
    seq: int | None
    expected_seq: int
    events: list[dict[str, Any]] = field(default_factory=list)
    code: str = ""
    message_en: str = ""
    message_ja: str = ""
    rule: str = ""
    game_over: bool = False

    @property
    def ok(self) -> bool:
        return self.status in ("accepted", "replayed")

    def error_body(self) -> dict[str, Any]:
        body: dict[str, Any] = {
            "code": self.code,
            "message_en": self.message_en,
            "message_ja": self.message_ja,
        }
        if self.rule:
            body["rule"] = self.rule
        if self.status == "conflict":
            body["expected_seq"] = self.expected_seq
        return body


def _rejected(
    next_seq: int, code: str, en: str, ja: str, rule: str = "", http: int = 422
) -> MoveOutcome:
    status = "invalid" if http == 400 else "rejected"
    return MoveOutcome(status, http, None, next_seq, [], code, en, ja, rule)


def _conflict(seq: int, next_seq: int) -> MoveOutcome:
    return MoveOutcome(
        "conflict",
        409,
        seq,
        next_seq,
        code="seq_conflict",
        message_en=f"Move number {seq} does not fit: the next move is number {next_seq}.",
        message_ja=f"手番号 {seq} は使えません。次の手番号は {next_seq} です。",
    )


def submit_move(game: Game | int, move: object, seq: int, actor: AnyUser) -> MoveOutcome:
    """Apply one move at position `seq` (1-based) of the game's log; see the module table.

    `game` may be a game's id: the row is fetched here anyway, so a device's request needs no
    fetch of its own (raises `Game.DoesNotExist` for an unknown id).
    """
    if connection.vendor == "postgresql":
        outcome = _submit_optimistically(game, move, seq, actor)
        if outcome is not None:
            return outcome
    return _submit_locked(game, move, seq, actor)


# One statement appends the move and advances the game, only if the game is still as it was
# read (and, for a move judged on this process's cached state, only if the actor is still the
# table's referee): PostgreSQL runs a data-modifying CTE atomically, even outside a transaction.
_APPEND_MOVE_SQL = """
WITH advanced AS (
    UPDATE games_game
       SET last_seq = %(seq)s, version = %(version)s,
           state_snapshot = %(snapshot)s::jsonb, snapshot_version = %(version)s
     WHERE id = %(game)s AND version = %(read_version)s AND last_seq = %(previous_seq)s
       AND status = 'in_play' AND undo_pending_seq IS NULL
       AND (%(referee)s::bigint IS NULL OR EXISTS (
            SELECT 1 FROM tournaments_table
             WHERE tournaments_table.id = games_game.table_id
               AND tournaments_table.referee_id = %(referee)s::bigint))
 RETURNING id, table_id
), appended AS (
    INSERT INTO games_move (game_id, seq, kind, seat, payload, events, ref_seq, reason,
                            approved, actor_id, fingerprint, created_at)
    SELECT id, %(seq)s, 'action', %(seat)s, %(payload)s::jsonb, %(events)s::jsonb, NULL, '',
           NULL, %(actor)s, %(fingerprint)s, %(now)s
      FROM advanced
    RETURNING game_id
)
SELECT advanced.table_id FROM advanced JOIN appended ON appended.game_id = advanced.id
"""


def _submit_optimistically(
    game: Game | int, move: object, seq: int, actor: AnyUser
) -> MoveOutcome | None:
    """The common case without a lock: the next legal move of a game in play, in one write.

    First on the state this process last saw of the game (a device keeps its connection, so
    its next move usually reaches the worker that wrote the last one), guarded in SQL by that
    version and by the actor being the table's referee; else after reading the game. Returns
    None whenever the locked path must decide: a stale read, a repeat or conflicting seq, any
    refusal, a move that ends the game (results are written with it), a pending undo.
    """
    pk = game if isinstance(game, int) else game.pk
    known = latest_known(pk)
    if known is not None and actor.is_authenticated and seq == known.last_seq + 1:
        judged = _judge(known, move)
        if judged is None:
            return None  # refused or ending the game on the state last seen: the lock decides
        outcome = _append(pk, known, judged, seq, actor, referee=actor.pk)
        if outcome is not None:
            return outcome
    game = Game.objects.select_related("table").get(pk=pk)
    require_table_writer(actor, game.table)
    if (
        seq != game.last_seq + 1
        or game.mode == Game.Mode.QUICK
        or game.status != Game.Status.IN_PLAY
        or game.undo_pending_seq is not None
    ):
        return None
    read = Known(game.version, game.last_seq, game.seats, rebuild(game))
    judged = _judge(read, move)
    return None if judged is None else _append(pk, read, judged, seq, actor, referee=None)


# A move as the engine judged it: parsed, the state after it, its events.
Judged = tuple[EngineMove, State, tuple[Event, ...]]


def _prepared_cursor() -> CursorWrapper:
    """A cursor that binds server-side, so psycopg prepares a statement run often: the append
    is then parsed and planned once per connection, not once per move (a quarter of its
    cost). Django's own cursors bind client-side, which never prepares. Wrapped as Django
    wraps its cursors: errors become Django's, query capture and execute wrappers see it."""
    connection.ensure_connection()
    raw: Any = psycopg.Cursor(connection.connection)  # django-stubs call it a CursorWrapper
    if connection.queries_logged:
        return connection.make_debug_cursor(raw)
    return connection.make_cursor(raw)


def _judge(known: Known, move: object) -> Judged | None:
    """The move applied to `known`, if one write can record it: a legal move that does not
    end the game (the results are written with the last move, under the lock)."""
    try:
        parsed = parse_move(move, known.seats)
        new_state, events = apply(known.state, parsed)
    except (BadMove, IllegalMove):
        return None
    return None if new_state.is_over else (parsed, new_state, events)


def _append(
    pk: int,
    known: Known,
    judged: Judged,
    seq: int,
    actor: AnyUser,
    referee: int | None,
) -> MoveOutcome | None:
    """Write a judged move if the game is still as `known` (None otherwise)."""
    parsed, new_state, events = judged
    payload = canonical(parsed)
    event_dicts = [e.to_dict() for e in events]
    state_data = snapshot(new_state)
    version = known.version + 1
    with _prepared_cursor() as cursor:
        cursor.execute(
            _APPEND_MOVE_SQL,
            {
                "game": pk,
                "seq": seq,
                "previous_seq": known.last_seq,
                "read_version": known.version,
                "version": version,
                "referee": referee,
                "snapshot": json.dumps(state_data),
                "seat": parsed.seat,
                "payload": json.dumps(payload),
                "events": json.dumps(event_dicts),
                "actor": actor.pk if actor.is_authenticated else None,
                "fingerprint": fingerprint(payload),
                "now": timezone.now(),
            },
        )
        row = cursor.fetchone()
    if row is None:
        return None  # not as it was read (or not the referee): the next path decides
    remember_version(pk, version, seq, known.seats, new_state)
    transaction.on_commit(partial(live.notify_table_changed, row[0], pk, version))
    return MoveOutcome("accepted", 201, seq, seq + 1, event_dicts)


def _submit_locked(game: Game | int, move: object, seq: int, actor: AnyUser) -> MoveOutcome:
    """Every case, under the game row's lock (see `submit_move`)."""
    with transaction.atomic():
        game = _lock(game)
        # Checked on the locked row: the table's referee is as of now, not as of the request.
        require_table_writer(actor, game.table)
        parsed: EngineMove | None = None
        bad: BadMove | None = None
        try:
            parsed = parse_move(move, game.seats)
        except BadMove as error:
            bad = error
        payload = canonical(parsed) if parsed is not None else move
        print_ = fingerprint(payload)
        next_seq = game.last_seq + 1
        if seq < next_seq:
            stored = game.moves.filter(seq=seq).first() if seq >= 1 else None
            if stored is not None and stored.fingerprint == print_:
                return MoveOutcome(
                    "replayed",
                    200,
                    seq,
                    next_seq,
                    list(stored.events),
                    game_over=any(e.get("kind") == "game_over" for e in stored.events),
                )
            return _conflict(seq, next_seq)
        if seq > next_seq:
            return _conflict(seq, next_seq)
        if bad is not None or parsed is None:
            assert bad is not None
            http = 422 if bad.code == "unknown_card" else 400
            return _rejected(next_seq, bad.code, bad.message_en, bad.message_ja, http=http)
        if game.mode == Game.Mode.QUICK:
            return _rejected(
                next_seq,
                "quick_game",
                "This game records only its result.",
                "このゲームは結果のみを記録します",
            )
        if game.status != Game.Status.IN_PLAY:
            return _rejected(
                next_seq, "game_over", "The game is over.", "このゲームは終了しています"
            )
        if game.undo_pending_seq is not None:
            return _rejected(
                next_seq,
                "undo_pending",
                "An undo is waiting for the head referee's decision.",
                "取り消しが主審の承認待ちです",
            )
        state = rebuild(game)
        try:
            new_state, events = apply(state, parsed)
        except IllegalMove as error:
            return _rejected(
                next_seq, error.code, error.message_en, error.message_ja, error.rule or ""
            )
        event_dicts = [e.to_dict() for e in events]
        _log(game, actor, Move.Kind.ACTION, payload, print_, seat=parsed.seat, events=event_dicts)
        _changed(game)
        if new_state.is_over:
            _finish(game, actor, new_state.placings())
        game.state_snapshot = snapshot(new_state)
        game.snapshot_version = game.version
        game.save(update_fields=[*SAVED_ON_CHANGE, "state_snapshot", "snapshot_version"])
        remember(game, new_state)
    return MoveOutcome("accepted", 201, seq, seq + 1, event_dicts, game_over=new_state.is_over)


def _finish(game: Game, actor: AnyUser, placings: Sequence[Placing]) -> None:
    """Mark the game finished and write its results (points from the tournament's table)."""
    tournament = _tournament(game)
    points = partial(
        points_for,
        tournament.points_table,
        seats=game.seats,
        game_number=game.game_number,
        games_per_set=tournament.games_per_set,
    )
    entries = dict(Seat.objects.filter(table_id=game.table_id).values_list("position", "entry_id"))
    GameResult.objects.bulk_create(
        GameResult(
            game=game,
            entry_id=entries[p.seat + 1],
            seat=p.seat,
            place=p.place or game.seats,
            title=p.title or "",
            foul=p.foul,
            miyako_ochi=p.miyako_ochi,
            points=points(place=p.place or game.seats),
        )
        for p in placings
    )
    game.status = Game.Status.FINISHED
    game.finished_by = actor if actor.is_authenticated else None
    game.finished_at = timezone.now()
    _results_changed(game, tournament.pk)


def _results_changed(game: Game, tournament_id: int) -> None:
    transaction.on_commit(partial(live.notify_results_changed, game.pk, tournament_id))


def current_state(game: Game) -> State:
    return rebuild(game)


# --- undo ------------------------------------------------------------------------------------


def request_undo(game: Game, actor: AnyUser, reason: str) -> Move:
    """Take back the latest effective action, with a reason (recorded as a new `undo` row).

    Applied at once unless the tournament wants a head referee's approval and the actor is not
    one; then the game waits (no moves) until `decide_undo`.
    """
    require_table_writer(actor, game.table)
    reason = reason.strip()
    if not reason:
        raise GameError(
            "reason_required", "Give a reason for the undo.", "取り消しの理由が必要です"
        )
    with transaction.atomic():
        game = _lock(game)
        if game.status == Game.Status.CONFIRMED:
            raise GameError(
                "game_confirmed", "A confirmed game cannot be changed.", "確定済みのゲームです"
            )
        if game.undo_pending_seq is not None:
            raise GameError("undo_pending", "An undo is already waiting.", "取り消しが承認待ちです")
        effective = effective_actions(game.moves.order_by("seq"))
        if not effective:
            raise GameError(
                "nothing_to_undo", "There is no move to undo.", "取り消す手がありません"
            )
        target = effective[-1]
        tournament = _tournament(game)
        approved: bool | None = True
        if tournament.undo_requires_approval and not is_head_referee(actor, tournament):
            approved = None
        payload = {"undo": target.seq, "reason": reason}
        row = _log(
            game,
            actor,
            Move.Kind.UNDO,
            payload,
            ref_seq=target.seq,
            reason=reason,
            approved=approved,
        )
        if approved:
            _reopen(game, tournament.pk)
        else:
            game.undo_pending_seq = row.seq
        _changed(game)
        game.save(update_fields=[*SAVED_ON_CHANGE, "undo_pending_seq"])
    return row


def decide_undo(game: Game, actor: AnyUser, approve: bool) -> Move:
    """The head referee (or an organiser) approves or refuses the pending undo."""
    tournament = _tournament(game)
    if not is_head_referee(actor, tournament):
        raise PermissionDenied("Only the head referee or an organiser decides undos.")
    with transaction.atomic():
        game = _lock(game)
        if game.undo_pending_seq is None:
            raise GameError(
                "no_pending_undo", "No undo is waiting.", "承認待ちの取り消しはありません"
            )
        pending = game.moves.get(seq=game.undo_pending_seq)
        payload = {"decide": pending.seq, "approve": approve}
        row = _log(
            game,
            actor,
            Move.Kind.DECISION,
            payload,
            ref_seq=pending.seq,
            approved=approve,
            reason="approved" if approve else "refused",
        )
        game.undo_pending_seq = None
        if approve:
            _reopen(game, tournament.pk)
        _changed(game)
        game.save(update_fields=[*SAVED_ON_CHANGE, "undo_pending_seq"])
    return row


def _reopen(game: Game, tournament_id: int) -> None:
    """An undone last move un-finishes the game: its results were derived from it."""
    if game.status == Game.Status.FINISHED:
        game.results.all().delete()
        _results_changed(game, tournament_id)
        game.status = Game.Status.IN_PLAY
        game.finished_by = None
        game.finished_at = None


# --- quick results and confirmation ----------------------------------------------------------


def record_quick_result(
    game: Game,
    actor: AnyUser,
    finishing_order: Sequence[int],
    fouls: Sequence[int] = (),
    miyako_ochi: int | None = None,
) -> list[GameResult]:
    """Quick mode: only the finishing order, fouls (in order) and 都落ち; the engine's title
    rules give the placings. `finishing_order` ends with the player left holding cards."""
    require_table_writer(actor, game.table)
    with transaction.atomic():
        game = _lock(game)
        if game.mode != Game.Mode.QUICK:
            raise GameError(
                "not_quick", "This game is recorded move by move.", "このゲームは一手ずつ記録します"
            )
        if game.status != Game.Status.IN_PLAY:
            raise GameError("game_over", "The game is over.", "このゲームは終了しています")
        try:
            placings = quick_placings(game, finishing_order, fouls, miyako_ochi)
        except QuickError as error:
            raise GameError(error.code, error.message_en, error.message_ja) from error
        _finish(game, actor, placings)
        _changed(game)
        game.save(update_fields=["version", "status", "finished_by", "finished_at"])
    return list(game.results.order_by("place"))


def confirm_game(game: Game, actor: AnyUser) -> Game:
    """A second official or a player at the table confirms the finished game's result."""
    with transaction.atomic():
        game = _lock(game)
        if not can_confirm(actor, game):
            raise PermissionDenied(
                "Another official of the tournament or a player at the table confirms the game."
            )
        if game.status != Game.Status.FINISHED:
            raise GameError(
                "not_finished",
                "Only a finished game can be confirmed.",
                "終了したゲームのみ確定できます",
            )
        game.status = Game.Status.CONFIRMED
        game.confirmed_by = actor if actor.is_authenticated else None
        game.confirmed_at = timezone.now()
        _changed(game)
        game.save(update_fields=["status", "confirmed_by", "confirmed_at", "version"])
    return game


def games_for_user_tables(user: AnyUser) -> Q:
    """Filter for games on tables `user` may run (the table's referee, head referee, organiser)."""
    if not user.is_authenticated:
        return Q(pk__in=[])
    if getattr(user, "is_superuser", False):
        return Q()
    staff = Official.objects.filter(
        user_id=user.pk, role__in=[Official.Role.ORGANISER, Official.Role.HEAD_REFEREE]
    ).values("tournament")
    return Q(table__referee_id=user.pk) | Q(table__round__stage__tournament__in=staff)
