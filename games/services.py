"""Game actions (the write path of docs/design.md): start a game, submit a move, undo, record
a quick result, confirm — and the officials' rulings: correct a result, void (and re-deal) a game,
forfeit a seat. Each checks the actor's per-object permission itself (`PermissionDenied`),
locks the rows it changes (the round before the game), and tells live feeds after commit,
never inside the transaction. Every refusal is kept in `RejectedSubmission` for officials.

`submit_move` answers with a `MoveOutcome` that views and the API turn into HTTP alike:

| outcome    | HTTP | when                                                               |
|------------|------|--------------------------------------------------------------------|
| accepted   | 201  | `seq` is the next number and the engine accepts the move           |
| replayed   | 200  | `seq` is taken by an identical payload: the stored answer again    |
| conflict   | 409  | `seq` is taken by a different payload, or is ahead (`expected_seq`)|
| rejected   | 422  | the engine (or the game's status) refuses it: nothing is written   |
| invalid    | 400  | the payload is not a move                                          |

Every correcting action names what the official saw when they decided, and is refused (409,
nothing changed) when the game has moved on since — so a double tap, or a second official on
a stale page, never undoes a second move or rules twice:

| action                  | names                         | done already        | moved on         |
|-------------------------|-------------------------------|---------------------|------------------|
| `request_undo`          | `seq`: the game's `last_seq`  | `already_undone`    | `seq_conflict`   |
| `decide_undo`           | `seq`: the pending undo's row | `already_decided`   | `seq_conflict`   |
| `withdraw_quick_result` | `result_version`              | `already_withdrawn` | `result_changed` |
| `correct_result`        | `based_on_version`            | `result_changed`    | `result_changed` |
| `void_game`             | `version`: the game's version | `already_void`      | `game_changed`   |
| `forfeit_seat`          | `version`: the game's version | `already_forfeited` | `game_changed`   |

The refusal carries the number as it is now (`GameError.detail`: `expected_seq` or
`expected_version`); like every refusal it is kept for officials. Pages answer these codes
(`STALE_TARGET_CODES`) with 409, as the API does.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any, ParamSpec, TypeVar

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import Count, Exists, OuterRef, Q, QuerySet
from django.utils import timezone

from games import clock, live, matches, refusals
from games import seating as seating_module
from games.engine import (
    EngineError,
    IllegalMove,
    RecordError,
    SeatResult,
    State,
    card_names,
)
from games.engine import Move as EngineMove
from games.engine.daizaibatsu_combos import card_name as zaibatsu_card_name
from games.engine.daizaibatsu_combos import names as zaibatsu_names
from games.engine.daizaibatsu_rules import FAMILY as DAIZAIBATSU
from games.engine.errors import RulesError
from games.engine.guandan import settle_hand
from games.engine.multideck import Cards, multi_names
from games.models import (
    LATEST_FIRST,
    Game,
    GameResult,
    Move,
    ResultVersion,
    TimeFault,
)
from games.offline import QuickError, check_seats
from games.results import placing_dict, result_rows, seat_results_from_placings, write_results
from games.state import (
    BadMove,
    effective_actions,
    family_for,
    fingerprint,
    forfeit_placings,
    initial_state,
    parse_move,
    quick_placings,
    rebuild,
    rules_for_game,
    titles_for,
)
from tournaments.deals import (
    DuplicatePlace,
    derive_deal,
    draw_leader,
    duplicate_groups,
    duplicate_key,
)
from tournaments.impact import (
    NO_CHANGE,
    CutChangeUnconfirmed,
    Impact,
    require_cut_confirmed,
    ruling_impact,
)
from tournaments.models import (
    AuditEntry,
    Official,
    Penalty,
    Round,
    Seat,
    Table,
    Tournament,
    new_table_pin,
)
from tournaments.permissions import AnyUser, can_view_table, is_head_referee, is_organiser
from tournaments.rulesets import check_ruleset
from tournaments.services import (
    DomainError,
    mark_round_in_play,
    record_audit,
    record_penalty,
    require_round_open,
)


class GameError(ValueError):
    """A request the game cannot carry out as asked (shown to the referee as is)."""

    def __init__(self, code: str, message_en: str, message_ja: str, **detail: int | None) -> None:
        super().__init__(message_en)
        self.code = code
        self.message_en = message_en
        self.message_ja = message_ja
        # What the caller can act on, e.g. `expected_seq`: the number a stale request should
        # have named (the API answers it beside the code).
        self.detail = detail

    @classmethod
    def of(cls, error: DomainError | QuickError) -> GameError:
        return cls(error.code, error.message_en, error.message_ja)


# Refusals saying a correcting action's target is stale: done already, or the game moved on.
STALE_TARGET_CODES = frozenset(
    {
        "already_undone",
        "already_decided",
        "already_withdrawn",
        "already_void",
        "already_forfeited",
        "undo_pending",
        "seq_conflict",
        "result_changed",
        "game_changed",
    }
)


# --- refusals, kept for officials ------------------------------------------------------------


P = ParamSpec("P")
R = TypeVar("R")


def _where(target: Game | Table) -> dict[str, int | None]:
    """The tournament, round, table and game a refused game action belongs to."""
    game = target if isinstance(target, Game) else None
    table = target.table if isinstance(target, Game) else target
    return {
        "tournament_id": int(table.round.stage.tournament_id),
        "round_id": table.round_id,
        "table_id": table.pk,
        "game_id": game.pk if game is not None else None,
    }


def refusals_recorded(action: str) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """Keep every refusal of a game service (`service(game or table, actor, …)`)."""
    return refusals.refusals_recorded(action, _where, (GameError, PermissionDenied))


# --- permissions -----------------------------------------------------------------------------


def can_run_table(user: AnyUser, table: Table) -> bool:
    """Write access: the table's assigned referee, the head referee or an organiser."""
    return can_view_table(user, table)


def require_table_writer(actor: AnyUser, table: Table) -> None:
    if not can_run_table(actor, table):
        raise not_your_table()


def not_your_table() -> PermissionDenied:
    return PermissionDenied(
        "This table belongs to another referee: ask the head referee to assign it to you. "
        "この卓は別の審判の担当です。主審に確認してください。"
    )


def require_game_writer(actor: AnyUser, game: Game) -> None:
    """`require_table_writer` for a game locked by `_lock(game, actor)`, with no query of its
    own: the locked row says whether the actor officiates the tournament."""
    if not _is_writer(actor, game.table.referee_id, getattr(game, "actor_officiates", False)):
        raise not_your_table()


def _is_writer(actor: AnyUser, referee_id: int | None, officiates: bool) -> bool:
    """The table's referee, a superuser, or the tournament's head referee or an organiser."""
    return actor.is_authenticated and (
        referee_id == actor.pk or getattr(actor, "is_superuser", False) or officiates
    )


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


def require_ruling_official(actor: AnyUser, round_: Round) -> None:
    """Rulings on a game (correct, void, forfeit): the head referee or an organiser while the
    round is not revealed; after the reveal only an organiser; after closing, nobody."""
    tournament = round_.stage.tournament
    if round_.is_closed:
        raise GameError(
            "round_closed",
            "The round is closed: its results can no longer change.",
            "この回戦は締め切られました。結果は変更できません。",
        )
    if round_.is_revealed:
        if not is_organiser(actor, tournament):
            raise PermissionDenied("After the seed is revealed only an organiser corrects.")
    elif not is_head_referee(actor, tournament):
        raise PermissionDenied("Only the head referee or an organiser rules on a game.")


def _tournament(game: Game) -> Tournament:
    """The game's tournament in one query (not three lazy hops through round and stage)."""
    return Tournament.objects.get(stages__rounds__tables__games=game.pk)


def _lock(game: Game | int, actor: AnyUser | None = None) -> Game:
    """The game row, locked for this transaction, with its table (who referees it).

    Given the `actor`, the same query says whether they officiate the tournament as head
    referee or organiser (`actor_officiates`, read by `require_game_writer`): an official who
    is not the table's referee then costs no more queries than the referee. The tournament
    itself is fetched only when needed (a game ending).
    """
    pk = game if isinstance(game, int) else game.pk
    rows = Game.objects.select_for_update(of=("self",)).select_related("table")
    if actor is not None and actor.is_authenticated:
        rows = rows.annotate(actor_officiates=_officiates(actor.pk))
    return rows.get(pk=pk)


def _officiates(user_id: int) -> Exists:
    """Whether the user is head referee or organiser of a game row's tournament (a subquery)."""
    return Exists(
        Official.objects.filter(
            tournament_id=OuterRef("table__round__stage__tournament_id"),
            user_id=user_id,
            role__in=(Official.Role.ORGANISER, Official.Role.HEAD_REFEREE),
        )
    )


def may_write_game(actor: AnyUser, game_id: int) -> bool:
    """`require_game_writer`'s answer without a lock: the API asks before it reads a body (the
    service asks again on the locked row). The table's referee — every scorer device — is
    answered by the lightest query; an official by a second one, with `_lock`'s subquery
    (whose compiling alone costs a few milliseconds, too much to pay on every device's move)."""
    if not actor.is_authenticated:
        return False
    if Game.objects.filter(pk=game_id, table__referee_id=actor.pk).exists():
        return True
    found = (
        Game.objects.filter(pk=game_id)
        .annotate(actor_officiates=_officiates(actor.pk))
        .values_list("table__referee_id", "actor_officiates")
        .first()
    )
    return found is not None and _is_writer(actor, *found)


# What a write to the log changes on the game row.
SAVED_ON_CHANGE = (
    "last_seq",
    "last_logged_at",
    "version",
    "status",
    "finished_by",
    "finished_at",
    "result_version",
)


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
    game.last_logged_at = row.created_at
    return row


def _changed(game: Game, *, withdrawn: int | None = None) -> None:
    """Bump the public version and ping live feeds once the transaction commits (`withdrawn`:
    the move an undo took back, which open streams are told to drop)."""
    game.version += 1
    transaction.on_commit(
        partial(
            live.notify_table_changed, game.table_id, game.pk, game.version, withdrawn=withdrawn
        )
    )


# --- starting games --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class NextGame:
    """The table's next game: its set and number, and which attempt (a voided game re-dealt
    is the same game again, attempt 2, 3…)."""

    set_number: int
    game_number: int
    attempt: int = 1


def next_game_numbers(table: Table) -> NextGame:
    """The table's next game; raises `GameError` while one is in play or when the round's
    sets are all played — or, at a team match's table (掼蛋 Guandan: one set whose games are
    the match's hands), when the match is over (`match_over`). A voided hand re-dealt is the
    hand that was in play again, so it is dealt even after a time limit has passed."""
    tournament = table.round.stage.tournament
    last = table.games.order_by(*LATEST_FIRST).first()
    if last is None:
        return NextGame(1, 1)
    if last.status == Game.Status.IN_PLAY:
        raise GameError(
            "game_in_play", "Finish the current game first.", "対局中のゲームを先に終えてください"
        )
    if last.status == Game.Status.VOID and last.redeal:
        return NextGame(last.set_number, last.game_number, last.attempt + 1)
    if tournament.plays_in_teams:
        _refuse_if_match_over(tournament, table)
        # `games_per_set` caps the match's counted hands (`match_over`), not its numbers: a
        # hand voided without a re-deal keeps its number and does not count.
        return NextGame(last.set_number, last.game_number + 1)
    if last.game_number < tournament.games_per_set:
        return NextGame(last.set_number, last.game_number + 1)
    if last.set_number < tournament.sets_per_round:
        return NextGame(last.set_number + 1, 1)
    raise GameError("round_complete", "Every set of this round is played.", "全セット終了しました")


def _refuse_if_match_over(tournament: Tournament, table: Table) -> None:
    """Refuse another hand of the table's team match once it is over, saying why."""
    found = matches.table_match(table.pk)
    why = matches.over_because(tournament, found)
    if why is None:
        return
    if why == matches.WON_AT_ACE:
        en = "The match is over: a team won it at A. No further hand is played."
        ja = "試合は終了しました。Aで勝ったチームがあります。次の局はありません。"
    elif why == matches.HANDS_PLAYED:
        hands = tournament.games_per_set
        en = f"The match is over: all its {hands} hands are played."
        ja = f"試合は終了しました。全{hands}局を終えました。"
    else:
        minutes = tournament.match_minutes
        en = f"The match is over: its time ({minutes} minutes) is up, so no new hand starts."
        ja = f"試合は終了しました。制限時間({minutes}分)を過ぎたため、新しい局は始めません。"
    raise GameError("match_over", en, ja)


def next_game_or_refusal(table: Table) -> NextGame | GameError:
    """What `start_game` would start at the table now, or the refusal it would give (the
    round not open, a game in play, every set played) — starting nothing. The table API and
    the table detail show it."""
    try:
        try:
            require_round_open(table.round)
        except DomainError as closed:
            raise GameError.of(closed) from closed
        return next_game_numbers(table)
    except GameError as refusal:
        return refusal


def next_game_fields(table: Table) -> tuple[dict[str, int] | None, dict[str, Any] | None]:
    """`next_game_or_refusal` as the API shows it: (the next game's set, number and attempt,
    None), or (None, the refusal's code and messages)."""
    found = next_game_or_refusal(table)
    if isinstance(found, NextGame):
        numbers = {
            "set_number": found.set_number,
            "game_number": found.game_number,
            "attempt": found.attempt,
        }
        return numbers, None
    return None, {
        "code": found.code,
        "message_en": found.message_en,
        "message_ja": found.message_ja,
    }


def _titles_before(
    table: Table, set_number: int, game_number: int, seats: int, seating: Sequence[int]
) -> list[str] | None:
    """Titles carried into a game: those of the set's previous game that counts (not void),
    each following its player to the engine seat they play now (`seating`: the new game's
    table position at each engine seat; after a seat change it differs from the previous)."""
    previous = (
        table.games.filter(set_number=set_number, game_number__lt=game_number)
        .exclude(status=Game.Status.VOID)
        .order_by("-game_number")
        .first()
    )
    if previous is None:
        return None
    # 大富豪's titles are the family's result detail; another family's results carry none.
    was_at = seating_module.positions_of(previous)
    by_position = {was_at[r.seat]: r.detail.get("title") for r in previous.results.all()}
    if len(by_position) == seats and all(by_position.values()) and set(seating) == set(was_at):
        return [by_position[p] for p in seating]
    return None


def _seating_for(table: Table, tournament: Tournament, nxt: NextGame, seats: int) -> list[int]:
    """The table position at each engine seat for the table's next game: the table as drawn,
    or, with seat changes (UECda 席替え), the seating of the game's cycle drawn from the
    round's seed (games.seating). A team match keeps the table as drawn: partners face each
    other (engine team 0 at positions 1 and 3) for the whole match."""
    if tournament.plays_in_teams:
        return list(range(1, seats + 1))
    cycle = seating_module.cycle_of(nxt.game_number, tournament.seat_change_every)
    return list(
        seating_module.draw_seating(
            table.round.seed_secret,
            table=table.number,
            set_number=nxt.set_number,
            cycle=cycle,
            seats=seats,
        )
    )


@dataclass(frozen=True, slots=True)
class GameOpening:
    """How a game of a set opens at a table: who sits where (`seating`, the table position
    at each engine seat), and whether it is the first of a new seating (席替え) or of a new
    title cycle (階級リセット: no titles, no exchange)."""

    seating: tuple[int, ...]
    seat_change: bool
    title_reset: bool


def game_opening(table: Table, nxt: NextGame) -> GameOpening:
    """How the table's game `nxt` opens (the console announces it before it starts)."""
    tournament = table.round.stage.tournament
    seats = Seat.objects.filter(table=table).count()
    if tournament.plays_in_teams:  # no seat changes, no titles (`_start_team_hand`)
        return GameOpening(tuple(_seating_for(table, tournament, nxt, seats)), False, False)
    return GameOpening(
        seating=tuple(_seating_for(table, tournament, nxt, seats)),
        seat_change=seating_module.starts_cycle(nxt.game_number, tournament.seat_change_every),
        title_reset=seating_module.starts_cycle(nxt.game_number, tournament.title_reset_every),
    )


def starts_title_cycle(tournament: Tournament, game_number: int) -> bool:
    """Game `game_number` of a set is played like a set's first game (no titles, no
    exchange): the set's first game, or the first of a new title cycle (UECda's 階級リセット,
    every `title_reset_every` games)."""
    return game_number == 1 or seating_module.starts_cycle(
        game_number, tournament.title_reset_every
    )


@refusals_recorded("start")
def start_game(
    table: Table,
    actor: AnyUser,
    *,
    mode: str = Game.Mode.KNOWN_DEAL,
    leader: int | None = None,
) -> Game:
    """Start the table's next game: the deal of a known-deal game follows from the round's
    secret seed (`tournaments.deals`); titles carry over from the previous game of the set
    (unless it starts a title cycle), and the seating follows the tournament's seat changes.
    The round must be open (published or in play); its first game puts it in play.

    A team match's hand (掼蛋 Guandan, `_start_team_hand`) differs: four players at their drawn
    positions, no titles, and the match it carries from the hand before."""
    require_table_writer(actor, table)
    if mode not in Game.Mode.values:
        raise GameError("bad_mode", f"Unknown mode {mode!r}.", "不明なモードです")
    with transaction.atomic():
        locked = Table.objects.select_for_update().select_related("round__stage__tournament")
        table = locked.get(pk=table.pk)
        # The round's lock orders this start against completing or revealing the round.
        round_ = Round.objects.select_for_update().get(pk=table.round_id)
        try:
            require_round_open(round_)
        except DomainError as error:
            raise GameError.of(error) from error
        nxt = next_game_numbers(table)
        opening = _opening_for(table.round.stage.tournament)
        game = opening(table, nxt, mode, leader)
        game.started_by = actor if actor.is_authenticated else None
        if mode != Game.Mode.QUICK:
            rebuild_check(game)
        game.save()
        mark_round_in_play(round_)
        transaction.on_commit(partial(live.notify_table_changed, table.pk, game.pk, 0))
    return game


def _opening_for(tournament: Tournament) -> Callable[[Table, NextGame, str, int | None], Game]:
    """How the tournament's family opens a game: a set's game (大富豪), a team match's hand
    (掼蛋), or a game with a draw pile (大財閥)."""
    if tournament.plays_in_teams:
        return _team_hand
    if check_ruleset(tournament.ruleset_id, tournament.ruleset_version).family == DAIZAIBATSU:
        return _pile_game
    return _set_game


def _deal(table: Table, nxt: NextGame, seats: int, place: DuplicatePlace | None = None) -> Any:
    """The deal of the table's game `nxt`, from the round's secret seed (at a table of a
    duplicate round, `place` in its group)."""
    tournament = table.round.stage.tournament
    return derive_deal(
        table.round.seed_secret,
        ruleset_id=tournament.ruleset_id,
        ruleset_version=tournament.ruleset_version,
        seats=seats,
        table=table.number,
        set_number=nxt.set_number,
        game=nxt.game_number,
        attempt=nxt.attempt,
        overrides=tournament.ruleset_overrides,
        duplicate=place,
    )


def _new_game(table: Table, nxt: NextGame, mode: str, seats: int, **play: Any) -> Game:
    """The table's next game, unsaved, under the tournament's ruleset as it stands now, its
    switch values included (the game keeps what it was played under); `play`: what the family
    deals and carries into it (hands, titles, a match…)."""
    tournament = table.round.stage.tournament
    return Game(
        table=table,
        set_number=nxt.set_number,
        game_number=nxt.game_number,
        attempt=nxt.attempt,
        ruleset_id=tournament.ruleset_id,
        ruleset_version=tournament.ruleset_version,
        ruleset_overrides=dict(tournament.ruleset_overrides),
        mode=mode,
        seats=seats,
        **play,
    )


def _set_game(table: Table, nxt: NextGame, mode: str, leader: int | None) -> Game:
    """The next game of a set (大富豪), unsaved: titles carried from the set's previous game
    (unless it starts a title cycle), seated by the tournament's seat changes."""
    tournament = table.round.stage.tournament
    seats = Seat.objects.filter(table=table).count()
    if not 3 <= seats <= 5:
        raise GameError("no_seats", "The table has no players seated.", "席が決まっていません")
    seating = _seating_for(table, tournament, nxt, seats)
    titles = (
        None
        if starts_title_cycle(tournament, nxt.game_number)
        else _titles_before(table, nxt.set_number, nxt.game_number, seats, seating)
    )
    place = _duplicate_place(table, nxt)
    deal = _deal(table, nxt, seats, place)
    deal_key, rotation = (
        ("", 0)
        if place is None
        else (
            duplicate_key(place.first_table, seats, nxt.set_number, nxt.game_number),
            place.rotation,
        )
    )
    known = mode == Game.Mode.KNOWN_DEAL
    return _new_game(
        table,
        nxt,
        mode,
        seats,
        hands=[card_names(h) for h in deal.hands] if known else [None] * seats,
        counts=[h.bit_count() for h in deal.hands],
        blind=card_names(deal.blind) if known else None,
        titles=titles,
        seating=seating,
        leader=None if known else leader,
        deal_key=deal_key,
        deal_rotation=rotation,
    )


def _duplicate_place(table: Table, nxt: NextGame) -> DuplicatePlace | None:
    """The table's place in its duplicate group when this game is dealt as a duplicate deal
    (docs/duplicate.md): the round is a duplicate round and this is the game's first deal (a
    re-deal after a void is the table's own, and drops out of par)."""
    if not table.round.duplicate_deals or nxt.attempt != 1:
        return None
    sizes = Table.objects.filter(round_id=table.round_id).annotate(size=Count("seats"))
    return duplicate_groups(sizes.values_list("number", "size"))[table.number]


def _team_hand(table: Table, nxt: NextGame, mode: str, leader: int | None) -> Game:
    """The next hand of a team match (掼蛋 Guandan), unsaved.

    - the deal follows from the round's seed (`derive_deal`: 27 cards a seat, no blinds);
    - the seats are the table's positions 1–4 as drawn (engine team 0 at positions 1 and 3,
      team 1 at 2 and 4): partners stay facing, so there are no seat changes;
    - `Game.match` is what the match carries into the hand (`match_for_next_hand`); its
      first hand's leader is drawn by lot from the seed (`draw_leader`), every later hand's
      leader follows from the tribute (a `leader` given is not used);
    - an open table is refused: the engine starts a hand only from its four known hands
      (the tribute and the level cards need them)."""
    if mode == Game.Mode.OPEN_TABLE:
        raise GameError(
            "open_table_unsupported",
            "A Guandan hand cannot be recorded at an open table: start it with a known deal, "
            "or enter only its result (quick mode).",
            "掼蛋の局は手配り（手札不明）では記録できません。配布済みの局として始めるか、"
            "結果のみ（クイック入力）で記録してください。",
        )
    tournament = table.round.stage.tournament
    seats = require_facing_teams(table)
    dealt: Sequence[Cards] = _deal(table, nxt, seats).hands
    match = matches.match_for_next_hand(table.pk, nxt.set_number)
    first_leader = (
        draw_leader(
            table.round.seed_secret, table=table.number, set_number=nxt.set_number, seats=seats
        )
        if match.previous is None
        else None
    )
    return _new_game(
        table,
        nxt,
        mode,
        seats,
        hands=[multi_names(h) for h in dealt] if mode == Game.Mode.KNOWN_DEAL else [None] * 4,
        counts=[len(h) for h in dealt],
        blind=None,
        titles=None,
        seating=_seating_for(table, tournament, nxt, seats),
        match=match.to_record(),
        leader=first_leader,
    )


def require_facing_teams(table: Table) -> int:
    """A team match's table seats four players, two teams partners facing (positions 1 and 3,
    2 and 4); its seat count, else `GameError` (the console's start and an import alike)."""
    teams = dict(Seat.objects.filter(table=table).values_list("position", "entry__team_id"))
    if sorted(teams) != [1, 2, 3, 4]:
        raise GameError(
            "no_seats",
            "A team match needs its four players seated, two teams partners facing.",
            "団体戦の卓には4人（2チーム、パートナーは向かい合わせ）が必要です。",
        )
    if None in teams.values() or not teams[1] == teams[3] != teams[2] == teams[4]:
        raise GameError(
            "teams_not_facing",
            "A team match seats two teams, partners facing: one team at positions 1 and "
            "3, the other at 2 and 4. Correct the seating first.",
            "団体戦は2チームが向かい合わせに座ります(1番と3番、2番と4番の席)。先に席順を"
            "直してください。",
        )
    return len(teams)


def _pile_game(table: Table, nxt: NextGame, mode: str, leader: int | None) -> Game:
    """The next game of a set of 大財閥 (Daizaibatsu), unsaved.

    - the hands and the draw pile (山札, top first) are the engine's deal of the game's seed
      (`_deal`), and each renewal of the pile is the engine's derivation on that same seed
      (`games.state.deal_seed`): the revealed seed verifies every card drawn;
    - seated by the tournament's seat changes, like a set of 大富豪; no titles (the family
      carries nothing from one game to the next);
    - an open table knows neither hands nor pile: the engine counts the cards, and the
      referee names who holds ♦3 and leads (the known deal finds that seat itself)."""
    tournament = table.round.stage.tournament
    seats = Seat.objects.filter(table=table).count()
    if not 3 <= seats <= 5:
        raise GameError("no_seats", "The table has no players seated.", "席が決まっていません")
    known = mode == Game.Mode.KNOWN_DEAL
    if mode == Game.Mode.OPEN_TABLE and leader is None:
        raise GameError(
            "leader_required",
            "Open table: say who holds the opening card and leads.",
            "手配り：最初に出す人（開始カードを持つ人）を選んでください",
        )
    deal = _deal(table, nxt, seats)
    return _new_game(
        table,
        nxt,
        mode,
        seats,
        hands=[zaibatsu_names(h) for h in deal.hands] if known else [None] * seats,
        counts=[len(h) for h in deal.hands],
        pile=[zaibatsu_card_name(c) for c in deal.pile] if known else None,
        blind=None,
        titles=None,
        seating=_seating_for(table, tournament, nxt, seats),
        leader=None if known else leader,
    )


def rebuild_check(game: Game) -> None:
    """Refuse a game whose set-up the engine cannot start (raises `GameError`)."""
    try:
        initial_state(game)
    except RecordError as error:
        if error.key == "leader":
            # Open table: the opening card may be in any hand (a first game under every
            # preset; every game where the preset wants it each game, after the exchange).
            raise GameError(
                "leader_required",
                "Open table: say who holds the opening card and leads.",
                "手配り：最初に出す人（開始カードを持つ人）を選んでください",
            ) from error
        raise GameError(error.code, str(error), "配布が正しくありません") from error
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
    try:
        outcome = _submit_locked(game, move, seq, actor)
    except PermissionDenied as error:
        _record_move_refusal(
            game, actor, move, seq, "forbidden", str(error), "権限がありません", 403
        )
        raise
    if not outcome.ok:
        _record_move_refusal(
            game, actor, move, seq, outcome.code, outcome.message_en, outcome.message_ja,
            outcome.http_status,
        )  # fmt: skip
    return outcome


def _record_move_refusal(
    game: Game | int,
    actor: AnyUser,
    move: object,
    seq: int,
    code: str,
    en: str,
    ja: str,
    http_status: int,
) -> None:
    pk = game if isinstance(game, int) else game.pk
    tournament_id, round_id, table_id = Game.objects.values_list(
        "table__round__stage__tournament_id", "table__round_id", "table_id"
    ).get(pk=pk)
    refusals.record_refusal(
        tournament_id=tournament_id,
        round_id=round_id,
        table_id=table_id,
        game_id=pk,
        actor=actor,
        action="move",
        code=code,
        message_en=en,
        message_ja=ja,
        payload=move,
        seq=seq,
        http_status=http_status,
    )


def _submit_locked(game: Game | int, move: object, seq: int, actor: AnyUser) -> MoveOutcome:
    """Every case, under the game row's lock (see `submit_move`)."""
    with transaction.atomic():
        game = _lock(game, actor)
        # Checked on the locked row: the table's referee is as of now, not as of the request.
        require_game_writer(actor, game)
        parsed: EngineMove | None = None
        bad: BadMove | None = None
        family = family_for(game)
        try:
            parsed = parse_move(game, move, family)
        except BadMove as error:
            bad = error
        payload = family.move_to_json(parsed) if parsed is not None else move
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
            new_state, event_dicts = append_action(
                game, actor, family, state, parsed, print_, timed=True
            )
        except IllegalMove as error:
            return _rejected(
                next_seq, error.code, error.message_en, error.message_ja, error.rule or ""
            )
        over = store_state(game, actor, family, new_state)
    return MoveOutcome("accepted", 201, seq, seq + 1, event_dicts, game_over=over)


def append_action(
    game: Game,
    actor: AnyUser,
    family: Any,
    state: Any,
    action: Any,
    print_: str | None = None,
    *,
    timed: bool = False,
    think_ms: int | None = None,
) -> tuple[Any, list[dict[str, Any]]]:
    """Judge `action` (a parsed move) on `state` and append it, with its events, to the locked
    game's log: the one way an action row is written, whether it was played at the table or
    comes from an imported record (`games.imports`). Raises `IllegalMove`, writing nothing.
    The caller stores the state after its last action with `store_state`.

    `timed`: the action arrives now from the table, so its think time (games.clock) is the
    time since its decision became due; else `think_ms`, an imported action's as its record's
    clock gives it (None: unknown)."""
    new_state, events = family.apply(state, action)
    event_dicts = [e.to_dict() for e in events]
    payload = family.move_to_json(action)
    arrived = timezone.now()
    if timed:
        think_ms = clock.elapsed_ms(clock.decision_due_at(game), arrived)
    _log(
        game,
        actor,
        Move.Kind.ACTION,
        payload,
        print_,
        seat=action.seat,
        events=event_dicts,
        created_at=arrived,
        think_ms=think_ms,
    )
    return new_state, event_dicts


def store_state(game: Game, actor: AnyUser, family: Any, state: Any) -> bool:
    """After `append_action`: bump the version, finish the game when `state` is over (results,
    result version, standings through the outbox) and save the row with `state` as its
    snapshot. Whether the game is over."""
    _changed(game)
    over: bool = family.is_over(state)
    if over:
        _finish(game, actor, family.outcome(state) or ())
    game.state_snapshot = family.snapshot(state)
    game.snapshot_version = game.version
    game.save(update_fields=[*SAVED_ON_CHANGE, "state_snapshot", "snapshot_version"])
    if over:
        _results_changed(game, _tournament(game).pk)
    return over


def _finish(game: Game, actor: AnyUser, results: Sequence[SeatResult]) -> None:
    """Mark the game finished and write its results (points from the tournament's table).
    The caller saves the game, then tells scoring (`_results_changed`): its receivers read the
    saved row (a webhook's result version and status)."""
    rows = result_rows(game, _tournament(game), results)
    write_results(game, actor, rows, ResultVersion.Kind.RECORDED)
    game.status = Game.Status.FINISHED
    game.finished_by = actor if actor.is_authenticated else None
    game.finished_at = timezone.now()


def _results_changed(game: Game, tournament_id: int) -> None:
    # In the transaction: what must follow (standings, webhooks) is recorded in the outbox and
    # commits with the results, or not at all.
    live.notify_results_changed(game.pk, tournament_id)


def current_state(game: Game) -> State:
    # Every game so far is 大富豪's; the console, feeds and views read its state's fields.
    state: State = rebuild(game)
    return state


# --- undo ------------------------------------------------------------------------------------


@refusals_recorded("undo")
def request_undo(
    game: Game,
    actor: AnyUser,
    reason: str,
    *,
    seq: int | None = None,
    as_referee: bool = False,
) -> Move:
    """Take back the latest effective action, with a reason (recorded as a new `undo` row).

    `seq` names what the official saw: the game's `last_seq` on their screen. If the log moved
    on since, nothing is undone (`_require_undo_target`): a double tap or a second official's
    stale page never takes back a second move. (None: the caller names no target — a script.)

    Applied at once unless the tournament wants a head referee's approval and the actor is not
    one (or acts `as_referee`: a table's scorer device, whatever account issued it); then the
    game waits (no moves) until `decide_undo`.
    """
    require_table_writer(actor, game.table)
    reason = _reason(reason, "Give a reason for the undo.", "取り消しの理由が必要です")
    with transaction.atomic():
        game = _lock(game)
        rows = list(game.moves.order_by("seq"))
        if seq is not None:
            _require_undo_target(game, rows, seq)
        if game.status == Game.Status.CONFIRMED:
            raise GameError(
                "game_confirmed", "A confirmed game cannot be changed.", "確定済みのゲームです"
            )
        if game.status == Game.Status.VOID or game.forfeit_seat is not None:
            raise GameError(
                "game_ruled",
                "This game was ruled on (void or forfeit): correct its result instead.",
                "裁定済みのゲームです。結果の訂正を行ってください",
            )
        if game.undo_pending_seq is not None:
            raise GameError("undo_pending", "An undo is already waiting.", "取り消しが承認待ちです")
        if game.status != Game.Status.IN_PLAY:
            _require_last_hand(game)
        effective = effective_actions(rows)
        if not effective:
            raise GameError(
                "nothing_to_undo", "There is no move to undo.", "取り消す手がありません"
            )
        target = effective[-1]
        tournament = _tournament(game)
        approved: bool | None = True
        if tournament.undo_requires_approval and (
            as_referee or not is_head_referee(actor, tournament)
        ):
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
            _reopen(game, actor, tournament.pk, reason)
        else:
            game.undo_pending_seq = row.seq
        _changed(game, withdrawn=target.seq if approved else None)
        game.save(update_fields=[*SAVED_ON_CHANGE, "undo_pending_seq"])
    return row


def _require_undo_target(game: Game, rows: Sequence[Move], seq: int) -> None:
    """Refuse an undo asked from a screen that showed the log up to `seq` when the locked game's
    log has moved on: the move that screen would undo was undone already (a double tap, or
    another official), an undo of it waits for the head referee, or other moves came since."""
    if seq == game.last_seq:
        return
    seen = [r for r in rows if r.seq <= seq] if 0 <= seq < game.last_seq else []
    aimed = effective_actions(seen)[-1:] if seen else []
    if aimed:
        target = aimed[0].seq
        if target not in {r.seq for r in effective_actions(rows)}:
            raise GameError(
                "already_undone",
                f"Move {target} was already undone (a second tap, or another official): "
                "nothing more was undone. Reload to see the game as it is now.",
                f"手番号 {target} はすでに取り消されています(二度押し、または別の審判の操作)。"
                "これ以上は取り消していません。画面を更新して現在の状態を確認してください。",
                expected_seq=game.last_seq,
            )
        if game.undo_pending_seq is not None:
            pending = next(r for r in rows if r.seq == game.undo_pending_seq)
            if pending.ref_seq == target:
                raise GameError(
                    "undo_pending",
                    f"The undo of move {target} is already waiting for the head referee.",
                    f"手番号 {target} の取り消しはすでに主審の承認待ちです",
                    expected_seq=game.last_seq,
                )
    raise GameError(
        "seq_conflict",
        f"The game's log moved on since your screen showed it: its last move is now number "
        f"{game.last_seq}. Reload, check the game, then undo if still needed.",
        f"表示後に記録が進んでいます。最新の手番号は {game.last_seq} です。画面を更新して確認"
        "してから、必要なら取り消してください。",
        expected_seq=game.last_seq,
    )


@refusals_recorded("decide_undo")
def decide_undo(game: Game, actor: AnyUser, approve: bool, *, seq: int | None = None) -> Move:
    """The head referee (or an organiser) approves or refuses the pending undo.

    `seq` names the undo they saw waiting (its row, `undo_pending_seq`): a second tap, or a
    decision on an undo already decided or replaced, is refused and decides nothing."""
    tournament = _tournament(game)
    if not is_head_referee(actor, tournament):
        raise PermissionDenied("Only the head referee or an organiser decides undos.")
    with transaction.atomic():
        game = _lock(game)
        if seq is not None and seq != game.undo_pending_seq:
            decided = game.moves.filter(kind=Move.Kind.DECISION, ref_seq=seq).first()
            if decided is not None:
                raise GameError(
                    "already_decided",
                    "This undo was already approved or refused (a second tap, or another "
                    "official): nothing more was decided. Reload to see the game.",
                    "この取り消しはすでに承認または却下されています(二度押し、または別の役員の"
                    "操作)。画面を更新してください。",
                    expected_seq=game.undo_pending_seq,
                )
            if game.undo_pending_seq is not None:
                raise GameError(
                    "seq_conflict",
                    f"Another undo is waiting now (number {game.undo_pending_seq}): reload and "
                    "decide that one.",
                    f"別の取り消し(番号 {game.undo_pending_seq})が承認待ちです。画面を更新して"
                    "ください。",
                    expected_seq=game.undo_pending_seq,
                )
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
            _reopen(game, actor, tournament.pk, pending.reason)
        _changed(game, withdrawn=pending.ref_seq if approve else None)
        game.save(update_fields=[*SAVED_ON_CHANGE, "undo_pending_seq"])
    return row


def _reopen(game: Game, actor: AnyUser, tournament_id: int, reason: str) -> None:
    """An undone last move un-finishes the game: its results were derived from it (the
    withdrawn result stays in the game's versions)."""
    if game.status == Game.Status.FINISHED:
        write_results(game, actor, [], ResultVersion.Kind.REOPENED, reason=reason)
        _results_changed(game, tournament_id)
        game.status = Game.Status.IN_PLAY
        game.finished_by = None
        game.finished_at = None


# --- time faults -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TimeFaultOutcome:
    fault: TimeFault
    # False: this decision's fault was recorded already (a second tap); nothing more was done.
    created: bool

    @property
    def message_en(self) -> str:
        return _fault_words(self.fault)[0]

    @property
    def message_ja(self) -> str:
        return _fault_words(self.fault)[1]


def _fault_words(fault: TimeFault) -> tuple[str, str]:
    seat = fault.seat + 1
    if fault.rule == TimeFault.Rule.FORCED_PASS:
        return (
            f"Time fault: seat {seat} passed (forced pass).",
            f"時間切れ：{seat}番席はパスになりました。",
        )
    if fault.rule == TimeFault.Rule.PENALTY:
        points = fault.penalty.points if fault.penalty else 0
        return (
            f"Time fault: seat {seat} loses {points} point(s).",
            f"時間切れ：{seat}番席は{points}点減点です。",
        )
    if fault.refused_code:
        return (
            f"Time fault: seat {seat} may not pass now ({fault.refused_code}: it leads), so it "
            "was recorded as a warning.",
            f"時間切れ：{seat}番席は今パスできない（{fault.refused_code}：親番）ため、警告として"
            "記録しました。",
        )
    return (f"Time fault: seat {seat} is warned.", f"時間切れ：{seat}番席に警告です。")


def record_time_fault(
    game: Game, seat: int, actor: AnyUser, *, seq: int | None = None
) -> TimeFaultOutcome:
    """The referee's 時間切れ for the seat in turn, applying the tournament's rule
    (`time_fault_rule`): a warning, a forced pass through the move write path, or a points
    deduction (`time_fault_points`). A pass the engine refuses (the seat leads) becomes a
    warning, saying why.

    `seq` names the log's last row the referee's screen showed: one fault per decision, so a
    second tap on the same decision answers the fault already recorded (`created` False), and a
    screen the game has moved past is refused (`seq_conflict`). None: the decision now."""
    return _record_time_fault(game, actor, seat, seq=seq)


@refusals_recorded("time_fault")
def _record_time_fault(
    game: Game, actor: AnyUser, seat: int, *, seq: int | None
) -> TimeFaultOutcome:
    with transaction.atomic():
        game = _lock(game, actor)
        require_game_writer(actor, game)
        due_seq = game.last_seq if seq is None else seq
        done = TimeFault.objects.filter(game=game, due_seq=due_seq).select_related("penalty")
        if (found := done.first()) is not None:
            return TimeFaultOutcome(found, created=False)
        if due_seq != game.last_seq:
            raise GameError(
                "seq_conflict",
                f"The game moved on since your screen showed it (its last move is now number "
                f"{game.last_seq}): no time fault was recorded. Reload and check the clock.",
                f"表示後に記録が進んでいます（最新の手番号は {game.last_seq}）。時間切れは記録"
                "していません。画面を更新してください。",
                expected_seq=game.last_seq,
            )
        if game.mode == Game.Mode.QUICK or game.status != Game.Status.IN_PLAY:
            raise GameError(
                "game_over", "The game is not in play.", "このゲームは対局中ではありません"
            )
        if game.undo_pending_seq is not None:
            raise GameError(
                "undo_pending",
                "An undo is waiting for the head referee's decision.",
                "取り消しが主審の承認待ちです",
            )
        tournament = _tournament(game)
        limit = clock.think_limit(tournament)
        if limit is None:
            raise GameError(
                "clock_off",
                "This tournament has no think-time limit.",
                "この大会には持ち時間の制限がありません",
            )
        family = family_for(game)
        state = rebuild(game)
        in_turn = getattr(state, "turn", None)
        if in_turn != seat or seat not in family.to_move(state):
            raise GameError(
                "not_in_turn",
                f"Seat {seat + 1} is not the seat in turn: only the seat in turn is timed.",
                f"{seat + 1}番席は手番ではありません。持ち時間は手番の席だけです",
            )
        now = timezone.now()
        think_ms = clock.elapsed_ms(clock.decision_due_at(game), now)
        # The phone's clock and the network may run a little ahead of the server's: a second.
        if think_ms < limit * 1000 - 1000:
            raise GameError(
                "time_not_up",
                f"Seat {seat + 1} has used {think_ms / 1000:.1f} s of {limit} s: time is not up.",
                f"{seat + 1}番席はまだ持ち時間内です（{think_ms / 1000:.1f}秒／{limit}秒）",
            )
        fault = TimeFault(
            game=game,
            due_seq=due_seq,
            seat=seat,
            think_ms=think_ms,
            actor=actor if actor.is_authenticated else None,
            created_at=now,
        )
        rule = tournament.time_fault_rule
        if rule == Tournament.TimeFaultRule.FORCED_PASS:
            parsed = parse_move(game, {"seat": seat, "pass": True}, family)
            try:
                new_state, _events = append_action(game, actor, family, state, parsed, timed=True)
            except IllegalMove as error:
                fault.refused_code = error.code
                rule = Tournament.TimeFaultRule.WARNING
            else:
                store_state(game, actor, family, new_state)
                fault.pass_seq = game.last_seq
        fault.rule = rule
        if rule != Tournament.TimeFaultRule.FORCED_PASS:
            fault.penalty = _time_fault_penalty(game, tournament, seat, actor, rule, think_ms)
        fault.save()
    return TimeFaultOutcome(fault, created=True)


def _time_fault_penalty(
    game: Game, tournament: Tournament, seat: int, actor: AnyUser, rule: str, think_ms: int
) -> Penalty:
    position = seating_module.position_at(game, seat)
    assert position is not None  # the seat in turn is one of the game's
    entry = (
        Seat.objects.select_related("entry__tournament")
        .get(table_id=game.table_id, position=position)
        .entry
    )
    deduction = rule == Tournament.TimeFaultRule.PENALTY
    reason = (
        f"Time fault 時間切れ: {think_ms / 1000:.1f} s on one decision "
        f"(limit {clock.think_limit(tournament)} s), game {game.set_number}-{game.game_number}"
    )
    return record_penalty(
        entry,
        actor,
        kind=Penalty.Kind.DEDUCTION if deduction else Penalty.Kind.WARNING,
        reason=reason,
        points=tournament.time_fault_points if deduction else 0,
        round_=game.table.round,
        game_id=game.pk,
    )


# --- quick results and confirmation ----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class QuickResultOutcome:
    """The game's results after a quick result, first place first. `replayed`: the same
    result was sent again (a phone resending after a lost answer) and nothing was written."""

    results: list[GameResult]
    replayed: bool


@refusals_recorded("quick_result")
def record_quick_result(
    game: Game,
    actor: AnyUser,
    finishing_order: Sequence[int],
    fouls: Sequence[int] = (),
    miyako_ochi: int | None = None,
    *,
    aces_only: bool = False,
) -> QuickResultOutcome:
    """Quick mode: only the finishing order, fouls (in order) and 都落ち; the engine's title
    rules give the placings. `finishing_order` ends with the player left holding cards.

    A team match's hand (掼蛋 Guandan) takes the finishing order as far as it decides the
    hand (`settle_hand`), no fouls nor 都落ち, and `aces_only`: the first finisher went out
    on a final play of aces only (rulesets with `aces_finish_demotes`).

    Sent again once the game is finished (not confirmed, nor ruled on): a result equal to the
    stored one is a replay — the stored results, nothing written; a different one is refused
    (`quick_result_conflict`). A confirmed, void or forfeited game refuses any (`game_over`)."""
    require_table_writer(actor, game.table)
    with transaction.atomic():
        game = _lock(game)
        if game.mode != Game.Mode.QUICK:
            raise GameError(
                "not_quick", "This game is recorded move by move.", "このゲームは一手ずつ記録します"
            )
        if game.status == Game.Status.FINISHED and game.forfeit_seat is None:
            submitted = _quick_results(game, finishing_order, fouls, miyako_ochi, aces_only)
            _require_stored_result(game, submitted)
            return QuickResultOutcome(list(game.results.order_by("place")), replayed=True)
        if game.status != Game.Status.IN_PLAY:
            raise GameError("game_over", "The game is over.", "このゲームは終了しています")
        _finish(game, actor, _quick_results(game, finishing_order, fouls, miyako_ochi, aces_only))
        _changed(game)
        game.save(
            update_fields=["version", "status", "finished_by", "finished_at", "result_version"]
        )
        _results_changed(game, _tournament(game).pk)
    return QuickResultOutcome(list(game.results.order_by("place")), replayed=False)


def _require_stored_result(game: Game, submitted: Sequence[SeatResult]) -> None:
    """Refuse a quick result for a finished game unless it is the one stored now. Rows are
    compared as written (points from the tournament's table), so a result corrected since is
    the same only if it came out equal."""
    stored = {r.seat: (r.place, r.points, r.detail) for r in game.results.all()}
    # The stored detail came back from JSON (a tuple is a list there): compare it so.
    sent = {
        r.seat: (r.place, r.points, json.loads(json.dumps(r.detail)))
        for r in result_rows(game, _tournament(game), submitted)
    }
    if sent != stored:
        raise GameError(
            "quick_result_conflict",
            "This game already has a different result: nothing was changed. To change it, "
            "correct the result on the game's page.",
            "このゲームにはすでに別の結果が記録されています。変更はしていません。変更するには、"
            "ゲームのページで結果を訂正してください。",
        )


def _quick_results(
    game: Game,
    finishing_order: Sequence[int],
    fouls: Sequence[int],
    miyako_ochi: int | None,
    aces_only: bool,
) -> tuple[SeatResult, ...]:
    """The results of a game entered by its finishing order (a quick result, a correction)."""
    if game.match is not None:
        return _team_hand_results(game, finishing_order, fouls, miyako_ochi, aces_only)
    if aces_only:
        raise _aces_only_not_in_rules()
    if family_for(game).name == DAIZAIBATSU:
        return _pile_game_results(game, finishing_order, fouls, miyako_ochi)
    try:
        placings = quick_placings(game, finishing_order, fouls, miyako_ochi)
    except QuickError as error:
        raise GameError.of(error) from error
    return seat_results_from_placings(placings)


def _pile_game_results(
    game: Game, finishing_order: Sequence[int], fouls: Sequence[int], miyako_ochi: int | None
) -> tuple[SeatResult, ...]:
    """A 大財閥 game entered by its finishing order: every seat once, first place first (after
    a forced end, rule 24, those still in by fewest cards), titled by place as the engine
    titles a played game. The family has no fouls: a forbidden finish (F4) is refused at the
    table, never played and placed last; nor 都落ち."""
    if fouls or miyako_ochi is not None:
        raise GameError(
            "quick_not_in_family",
            "大財閥 has no fouls (反則あがり) nor 都落ち: give only the finishing order.",
            "大財閥には反則あがり・都落ちはありません。上がった順だけを入力してください。",
        )
    try:
        check_seats(game.seats, finishing_order, seating_module.seat_names(game))
    except QuickError as error:
        raise GameError.of(error) from error
    titles = titles_for(game.seats)
    return tuple(
        SeatResult(seat, place, None, None, {"title": titles[place - 1] if titles else None})
        for place, seat in enumerate(finishing_order, start=1)
    )


def _team_hand_results(
    game: Game,
    finishing_order: Sequence[int],
    fouls: Sequence[int],
    miyako_ochi: int | None,
    aces_only: bool,
) -> tuple[SeatResult, ...]:
    """A team match's hand settled by the engine (`settle_hand`) from the match it started
    from and its finishing order. `aces_only` is kept in the results' detail (when true): the
    next hand's match is settled again from them (`matches.match_after`)."""
    if fouls or miyako_ochi is not None:
        raise GameError(
            "quick_not_in_family",
            "Guandan has no fouls (反則あがり) nor 都落ち: give only the finishing order.",
            "掼蛋には反則あがり・都落ちはありません。上がった順だけを入力してください。",
        )
    try:
        check_seats(game.seats, finishing_order, seating_module.seat_names(game), complete=False)
    except QuickError as error:
        raise GameError.of(error) from error
    rules = rules_for_game(game)
    if aces_only and not getattr(rules, "aces_finish_demotes", False):
        raise _aces_only_not_in_rules()
    try:
        _, results = settle_hand(
            rules,  # type: ignore[arg-type]
            matches.match_of(game),
            list(finishing_order),
            aces_only=aces_only,
        )
    except RulesError as error:
        raise GameError(
            "quick_order_invalid",
            "Give the seats in the order they went out, each once, as far as it decides the "
            "hand: the first two when partners finished first and second, else the first three "
            "(or all four).",
            "上がった順に席を一度ずつ入力してください。1位と2位が同じチームなら2人、それ以外は"
            "3人(または4人全員)です。",
        ) from error
    if not aces_only:
        return results
    return tuple(
        SeatResult(r.seat, r.place, r.team, r.points, {**r.detail, "aces_only": True})
        for r in results
    )


def _aces_only_not_in_rules() -> GameError:
    return GameError(
        "aces_only_not_in_rules",
        "A finish on aces only changes nothing under these rules: leave it unmarked.",
        "このルールではAのみの上がりは結果に影響しません。チェックを外してください。",
    )


def _later_games(game: Game) -> QuerySet[Game]:
    """The games played at the game's table after it (later sets, later games of its set),
    void ones left out."""
    return (
        Game.objects.filter(table_id=game.table_id)
        .filter(
            Q(set_number__gt=game.set_number)
            | Q(set_number=game.set_number, game_number__gt=game.game_number)
        )
        .exclude(status=Game.Status.VOID)
    )


def _require_last_hand(game: Game) -> None:
    """A team match's later hands started from this hand's result (the levels, the tribute):
    changing it (a correction, a withdrawal, an undo) is refused once a later hand counts."""
    if game.match is None:
        return
    if _later_games(game).exists():
        raise GameError(
            "later_hands_follow",
            "Later hands of this match started from this hand's result (levels, tribute): it "
            "can no longer change. Only the match's last hand can be corrected — void the "
            "later hands first if this one must change.",
            "この局の結果(级・进贡)から後の局が始まっているため、変更できません。訂正できるのは"
            "試合の最後の局だけです。変更が必要なら、先に後の局を無効にしてください。",
        )


@refusals_recorded("withdraw_quick_result")
def withdraw_quick_result(
    game: Game, actor: AnyUser, reason: str, *, result_version: int | None = None
) -> Game:
    """Take back a quick result entered by mistake, before it is confirmed: the game is in play
    again (the withdrawn result stays in its versions). Once confirmed, only a correction by
    the head referee or an organiser changes it; where undos need the head referee's approval,
    so does this (a head referee or organiser withdraws it).

    `result_version` names the result the official saw: a result withdrawn already (a double
    tap) or changed since is refused and nothing is withdrawn. (None: no target named.)"""
    require_table_writer(actor, game.table)
    reason = _reason(reason, "Give a reason to withdraw the result.", "取り消しの理由が必要です")
    with transaction.atomic():
        game = _lock(game)
        if result_version is not None and result_version != game.result_version:
            _refuse_stale_result(game, result_version)
        if game.mode != Game.Mode.QUICK or game.status != Game.Status.FINISHED:
            raise GameError(
                "not_withdrawable",
                "Only a quick result that is not confirmed can be withdrawn.",
                "取り消せるのは未確定の結果入力のみです",
            )
        if game.forfeit_seat is not None:
            raise GameError(
                "game_ruled",
                "This game was ruled on (forfeit): correct its result instead.",
                "裁定済みのゲームです。結果の訂正を行ってください",
            )
        _require_last_hand(game)
        tournament = _tournament(game)
        if tournament.undo_requires_approval and not is_head_referee(actor, tournament):
            raise GameError(
                "approval_required",
                "This tournament's head referee takes back results: ask them to correct it.",
                "この大会では主審が訂正します。主審に依頼してください",
            )
        _reopen(game, actor, tournament.pk, reason)
        _changed(game)
        game.save(update_fields=list(SAVED_ON_CHANGE))
    return game


def _result_changed(game: Game) -> GameError:
    return GameError(
        "result_changed",
        f"The result changed since you opened it (it is now version {game.result_version}): "
        "reload and review it again.",
        f"表示後に結果が変わりました(現在は版 {game.result_version})。画面を更新してもう一度"
        "確認してください。",
        expected_version=game.result_version,
    )


def _refuse_stale_result(game: Game, seen: int) -> None:
    """Refuse a withdrawal that names result version `seen` when the locked game's result is at
    another version: `already_withdrawn` when the version right after `seen` withdrew it (the
    same request, carried out already), else `result_changed`."""
    following = (
        ResultVersion.objects.filter(game_id=game.pk, number=seen + 1)
        .values_list("kind", flat=True)
        .first()
    )
    if following == ResultVersion.Kind.REOPENED:
        raise GameError(
            "already_withdrawn",
            "This result was already withdrawn (a second tap, or another official): nothing "
            "more was withdrawn. Reload to see the game as it is now.",
            "この結果はすでに取り消されています(二度押し、または別の審判の操作)。これ以上は取り"
            "消していません。画面を更新して現在の状態を確認してください。",
            expected_version=game.result_version,
        )
    raise _result_changed(game)


@refusals_recorded("confirm")
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
        _mark_confirmed(game, actor)
    return game


def _mark_confirmed(game: Game, actor: AnyUser, *, by_seat: int | None = None) -> None:
    """The one write of a confirmation (the game row is locked by the caller): by an official's
    own account, or by a seated player with the table's PIN (`by_seat`)."""
    game.status = Game.Status.CONFIRMED
    game.confirmed_by = actor if actor.is_authenticated else None
    game.confirmed_by_seat = by_seat
    game.confirmed_at = timezone.now()
    _changed(game)
    game.save(
        update_fields=["status", "confirmed_by", "confirmed_by_seat", "confirmed_at", "version"]
    )
    live.notify_game_confirmed(game.pk, _tournament(game).pk)  # in the transaction, as above


# --- rulings: corrections, void and re-deal, forfeit -----------------------------------------


@dataclass(frozen=True, slots=True)
class PlacingChange:
    """One seat in a correction's side-by-side view: its result before and after."""

    seat: int
    entry_id: int
    before: dict[str, Any] | None
    after: dict[str, Any]

    @property
    def changed(self) -> bool:
        return self.before != self.after


@dataclass(frozen=True, slots=True)
class CorrectionPreview:
    game: Game
    based_on_version: int
    changes: list[PlacingChange]
    after_reveal: bool
    # What saving it changes in the standings and at the cuts (`tournaments.impact`).
    impact: Impact = NO_CHANGE

    @property
    def changes_anything(self) -> bool:
        return any(c.changed for c in self.changes)


def _lock_for_ruling(game: Game, actor: AnyUser) -> tuple[Game, Round]:
    """The game's round then the game, locked; the actor must be allowed to rule on it."""
    round_ = Round.objects.select_for_update(of=("self",)).select_related("stage__tournament")
    locked_round = round_.get(tables__games=game.pk)
    require_ruling_official(actor, locked_round)
    return _lock(game), locked_round


def _reason(reason: str, en: str, ja: str) -> str:
    """A ruling's reason, required (checked after the permission: an outsider hears only no)."""
    reason = reason.strip()
    if not reason:
        raise GameError("reason_required", en, ja)
    return reason


Ruled = TypeVar("Ruled")


def _what_it_changes(
    tournament: Tournament, game: Game, write: Callable[[Game, dict[str, Any]], object]
) -> Impact:
    """What `write` — a ruling's own write, given the game fresh from the database — changes
    in the standings and at the cuts: run, measured and rolled back (`tournaments.impact`)."""
    return ruling_impact(tournament, lambda: write(_lock(game.pk), {}))


def _ruled(
    tournament: Tournament,
    game: Game,
    write: Callable[[Game, dict[str, Any]], Ruled],
    confirm_cut_change: bool,
) -> Ruled:
    """Save a ruling through its one write, after measuring what it changes: a change to who
    is above a stage's cut is refused (`cut_change_unconfirmed`) unless the official
    confirmed it; the write's audit entry keeps the rank and cut changes and the confirmation.
    The preview ran the same write (then rolled it back), so it showed what is saved."""
    impact = _what_it_changes(tournament, game, write)
    try:
        require_cut_confirmed(impact, confirm_cut_change)
    except CutChangeUnconfirmed as error:
        raise GameError(error.code, error.message_en, error.message_ja) from error
    return write(_lock(game.pk), impact.audit(confirm_cut_change))


def _correction(
    game: Game,
    round_: Round,
    finishing_order: Sequence[int],
    fouls: Sequence[int],
    miyako_ochi: int | None,
    aces_only: bool = False,
) -> tuple[list[GameResult], int | None, CorrectionPreview]:
    """The corrected result rows (unsaved), the forfeit's leaver if it still stands, and the
    side-by-side preview of exactly those rows."""
    if game.status not in (Game.Status.FINISHED, Game.Status.CONFIRMED):
        raise GameError(
            "no_result",
            "Only a finished game's result can be corrected.",
            "終了したゲームの結果のみ訂正できます",
        )
    _require_last_hand(game)
    results = _quick_results(game, finishing_order, fouls, miyako_ochi, aces_only)
    # A forfeit stands while the leaver is still placed last; otherwise the correction says
    # the game ended some other way.
    leaver = game.forfeit_seat
    if leaver is not None and not any(
        r.seat == leaver and (r.place or game.seats) == game.seats for r in results
    ):
        leaver = None
    rows = result_rows(game, round_.stage.tournament, results, leaver)
    current = {r.seat: placing_dict(r) for r in game.results.all()}
    changes = [
        PlacingChange(r.seat, r.entry_id, current.get(r.seat), placing_dict(r)) for r in rows
    ]
    preview = CorrectionPreview(game, game.result_version, changes, round_.is_revealed)
    return rows, leaver, preview


@dataclass(frozen=True, slots=True)
class _Correction:
    """A correction as asked: its result, its reason (checked by the caller)."""

    round_: Round
    actor: AnyUser
    finishing_order: Sequence[int]
    fouls: Sequence[int]
    miyako_ochi: int | None
    aces_only: bool
    reason: str

    def write(self, game: Game, audit: dict[str, Any]) -> ResultVersion:
        """Save the correction of the locked `game` (`correct_result`'s only write; the preview
        runs it too, then rolls it back); `audit`: what it changes, for its audit entry."""
        round_ = self.round_
        rows, leaver, preview = _correction(
            game, round_, self.finishing_order, self.fouls, self.miyako_ochi, self.aces_only
        )
        if not preview.changes_anything:
            raise GameError(
                "correction_unchanged",
                "The corrected result is the same as the current one.",
                "訂正内容が現在の結果と同じです",
            )
        actor = self.actor
        tournament = round_.stage.tournament
        version = write_results(
            game,
            actor,
            rows,
            ResultVersion.Kind.CORRECTION,
            reason=self.reason,
            after_reveal=round_.is_revealed,
        )
        game.forfeit_seat = leaver
        game.status = Game.Status.CONFIRMED
        game.confirmed_by = actor if actor.is_authenticated else None
        game.confirmed_at = timezone.now()
        game.corrected_after_reveal = game.corrected_after_reveal or round_.is_revealed
        _changed(game)
        game.save(
            update_fields=[
                "status",
                "confirmed_by",
                "confirmed_at",
                "version",
                "result_version",
                "forfeit_seat",
                "corrected_after_reveal",
            ]
        )
        record_audit(
            tournament,
            actor,
            AuditEntry.Action.RESULT_CORRECTED,
            round_=round_,
            game_id=game.pk,
            reason=self.reason,
            data={
                "version": version.number,
                "after_reveal": round_.is_revealed,
                "changes": [
                    {"seat": c.seat, "entry": c.entry_id, "before": c.before, "after": c.after}
                    for c in preview.changes
                ],
                **audit,
            },
        )
        _results_changed(game, tournament.pk)
        return version


def preview_correction(
    game: Game,
    actor: AnyUser,
    finishing_order: Sequence[int],
    fouls: Sequence[int] = (),
    miyako_ochi: int | None = None,
    *,
    aces_only: bool = False,
) -> CorrectionPreview:
    """The old and new placings and points side by side, before a correction is saved, and
    what saving it changes in the standings and at the cuts (`CorrectionPreview.impact`)."""
    with transaction.atomic():
        game, round_ = _lock_for_ruling(game, actor)
        preview = _correction(game, round_, finishing_order, fouls, miyako_ochi, aces_only)[2]
        if not preview.changes_anything:
            return preview
        # Written only to be rolled back: a correction's row needs a reason, none is kept.
        asked = _Correction(
            round_, actor, finishing_order, fouls, miyako_ochi, aces_only, "preview"
        )
        impact = _what_it_changes(round_.stage.tournament, game, asked.write)
        return replace(preview, impact=impact)


def _refuse_stale_correction(game: Game, seen: int, reason: str) -> None:
    """Refuse a correction based on result version `seen` when the locked game's result is at
    another version (`result_changed`). When the version right after `seen` is a correction
    with this reason — the same form sent twice — the message says it is saved already."""
    saved = ResultVersion.objects.filter(
        game_id=game.pk, number=seen + 1, kind=ResultVersion.Kind.CORRECTION, reason=reason
    ).exists()
    if saved:
        raise GameError(
            "result_changed",
            f"This correction is saved already (version {seen + 1}): nothing more was saved. "
            "Reload to see the result.",
            f"この訂正はすでに保存されています(版 {seen + 1})。二重には保存していません。"
            "画面を更新してください。",
            expected_version=game.result_version,
        )
    raise _result_changed(game)


@refusals_recorded("correct")
def correct_result(
    game: Game,
    actor: AnyUser,
    *,
    finishing_order: Sequence[int],
    fouls: Sequence[int] = (),
    miyako_ochi: int | None = None,
    aces_only: bool = False,
    reason: str,
    based_on_version: int,
    confirm_cut_change: bool = False,
) -> ResultVersion:
    """Correct a finished game's result (訂正) as a new version of it, with a reason.

    `based_on_version` is the version the official saw in the preview: if the result changed
    since, the correction is refused rather than silently overwriting the other change. The
    corrected result counts as confirmed (a ruling by the head referee or organiser); every
    standing it feeds is recomputed. A correction that changes who is above a stage's cut is
    refused (`cut_change_unconfirmed`) unless `confirm_cut_change`."""
    with transaction.atomic():
        game, round_ = _lock_for_ruling(game, actor)
        reason = _reason(reason, "Give a reason for the correction.", "訂正の理由が必要です")
        if game.result_version != based_on_version:
            _refuse_stale_correction(game, based_on_version, reason)
        asked = _Correction(round_, actor, finishing_order, fouls, miyako_ochi, aces_only, reason)
        return _ruled(round_.stage.tournament, game, asked.write, confirm_cut_change)


def _require_version(game: Game, version: int | None) -> None:
    """Refuse a ruling made on a screen that showed the game at `version` when the locked game
    has changed since (a move, a result, a confirmation…): the official rules on what they saw
    or not at all. (None: the caller names no version — a script.)"""
    if version is not None and version != game.version:
        raise GameError(
            "game_changed",
            "The game changed since you opened it (a move, a result or a ruling was recorded): "
            "check it as it is now and confirm again.",
            "表示後にゲームが変わりました(手・結果・裁定の記録)。現在の状態を確認して、もう一度"
            "確定してください。",
            expected_version=game.version,
        )


def _ruling_in_open_round(
    game: Game, actor: AnyUser, reason: str, missing_en: str, missing_ja: str
) -> tuple[Game, Round, str]:
    """The locked game and round and the stripped reason for a ruling that needs its round
    still open (a void, a forfeit); `missing_*`: the refusal when no reason is given."""
    game, round_ = _lock_for_ruling(game, actor)
    reason = _reason(reason, missing_en, missing_ja)
    try:
        require_round_open(round_)
    except DomainError as error:
        raise GameError.of(error) from error
    return game, round_, reason


def _void_checked(
    game: Game, actor: AnyUser, reason: str, version: int | None
) -> tuple[Game, Round, str]:
    """The locked game and round, and the reason, once a void of `game` may be made."""
    game, round_, reason = _ruling_in_open_round(
        game, actor, reason, "Give a reason to void the game.", "無効の理由が必要です"
    )
    if game.status == Game.Status.VOID:
        raise GameError(
            "already_void",
            "The game is already void (a second tap, or another official): nothing more was done.",
            "このゲームはすでに無効です(二度押し、または別の役員の操作)。",
            expected_version=game.version,
        )
    _require_version(game, version)
    latest = (
        Game.objects.filter(
            table_id=game.table_id, set_number=game.set_number, game_number=game.game_number
        )
        .order_by("-attempt")
        .values_list("pk", flat=True)
        .first()
    )
    if latest != game.pk or _later_games(game).exists():
        raise GameError(
            "not_latest_game",
            "Only the table's latest game can be voided: later games were played on it.",
            "後続のゲームがあるため無効にできません（最新のゲームのみ）",
        )
    return game, round_, reason


def _void_write(
    round_: Round, actor: AnyUser, reason: str, redeal: bool
) -> Callable[[Game, dict[str, Any]], Game]:
    """`void_game`'s only write, for the locked game (the preview runs it, then rolls back)."""

    def write(game: Game, audit: dict[str, Any]) -> Game:
        had_result = game.result_version > 0 and game.status != Game.Status.IN_PLAY
        if had_result:  # else it has no results to withdraw (none before its end or reopening)
            write_results(game, actor, [], ResultVersion.Kind.VOID, reason=reason)
        game.status = Game.Status.VOID
        game.void_reason = reason
        game.voided_by = actor if actor.is_authenticated else None
        game.voided_at = timezone.now()
        game.redeal = redeal
        game.undo_pending_seq = None
        _changed(game)
        game.save(
            update_fields=[
                "status",
                "void_reason",
                "voided_by",
                "voided_at",
                "redeal",
                "undo_pending_seq",
                "version",
                "result_version",
            ]
        )
        tournament = round_.stage.tournament
        record_audit(
            tournament,
            actor,
            AuditEntry.Action.GAME_VOIDED,
            round_=round_,
            game_id=game.pk,
            reason=reason,
            data={"redeal": redeal, "attempt": game.attempt, "had_result": had_result, **audit},
        )
        if had_result:
            _results_changed(game, tournament.pk)
        return game

    return write


def preview_void(
    game: Game, actor: AnyUser, *, reason: str, redeal: bool, version: int | None = None
) -> Impact:
    """What voiding the game changes in the standings and at the cuts (nothing is saved);
    refused as `void_game` would refuse it."""
    with transaction.atomic():
        game, round_, reason = _void_checked(game, actor, reason, version)
        write = _void_write(round_, actor, reason, redeal)
        return _what_it_changes(round_.stage.tournament, game, write)


@refusals_recorded("void")
def void_game(
    game: Game,
    actor: AnyUser,
    *,
    reason: str,
    redeal: bool,
    version: int | None = None,
    confirm_cut_change: bool = False,
) -> Game:
    """Void a game (misdeal, wrong cards…): it counts for nothing, its moves and any result
    stay on record. With `redeal` the table plays it again with a new deal from the round's
    seed (attempt + 1); otherwise the game is simply not played.

    `version` is the game's version on the official's screen: a second tap finds the game
    void (`already_void`), a game changed since is refused (`game_changed`). A void that
    changes who is above a stage's cut needs `confirm_cut_change` (`cut_change_unconfirmed`)."""
    with transaction.atomic():
        game, round_, reason = _void_checked(game, actor, reason, version)
        write = _void_write(round_, actor, reason, redeal)
        return _ruled(round_.stage.tournament, game, write, confirm_cut_change)


def _forfeit_checked(
    game: Game, actor: AnyUser, seat: int, reason: str, version: int | None
) -> tuple[Game, Round, str]:
    """The locked game and round, and the reason, once `seat` may forfeit `game`."""
    game, round_, reason = _ruling_in_open_round(
        game, actor, reason, "Give a reason for the forfeit.", "棄権の理由が必要です"
    )
    if version is not None and game.forfeit_seat == seat and version != game.version:
        raise GameError(
            "already_forfeited",
            "This forfeit is recorded already (a second tap, or another official): nothing "
            "more was done.",
            "この棄権はすでに記録されています(二度押し、または別の役員の操作)。",
            expected_version=game.version,
        )
    if game.status != Game.Status.IN_PLAY:
        raise GameError(
            "game_over",
            "Only a game in play can be forfeited.",
            "対局中のゲームのみ棄権できます",
        )
    if game.match is not None:
        # A partnership hand has no place of its own for a leaver: who wins it, and by
        # how many levels, is the officials' ruling, not a rule.
        raise GameError(
            "forfeit_not_in_team_match",
            "A team match's hand is not forfeited seat by seat: void it (and re-deal), or "
            "rule its result by entering the finishing order in quick mode.",
            "団体戦の局は個人の棄権として処理できません。無効(再配布)にするか、上がり順を"
            "クイック入力して裁定してください。",
        )
    _require_version(game, version)
    return game, round_, reason


def _forfeit_write(
    round_: Round, actor: AnyUser, seat: int, reason: str, order: Sequence[int]
) -> Callable[[Game, dict[str, Any]], ResultVersion]:
    """`forfeit_seat`'s only write, for the locked game (the preview runs it, then rolls
    back)."""

    def write(game: Game, audit: dict[str, Any]) -> ResultVersion:
        tournament = round_.stage.tournament
        state = None if game.mode == Game.Mode.QUICK else rebuild(game)
        try:
            placings = forfeit_placings(
                game,
                state,
                seat,
                others_by_cards=tournament.forfeit_others == Tournament.ForfeitOthers.CARDS_LEFT,
                order=order,
            )
        except QuickError as error:
            raise GameError.of(error) from error
        rows = result_rows(game, tournament, seat_results_from_placings(placings), seat)
        written = write_results(game, actor, rows, ResultVersion.Kind.FORFEIT, reason=reason)
        game.status = Game.Status.FINISHED
        game.forfeit_seat = seat
        game.finished_by = actor if actor.is_authenticated else None
        game.finished_at = timezone.now()
        game.undo_pending_seq = None
        _changed(game)
        game.save(update_fields=[*SAVED_ON_CHANGE, "forfeit_seat", "undo_pending_seq"])
        record_audit(
            tournament,
            actor,
            AuditEntry.Action.SEAT_FORFEITED,
            round_=round_,
            game_id=game.pk,
            reason=reason,
            data={
                "seat": seat,
                "version": written.number,
                "rule": tournament.forfeit_others,
                **audit,
            },
        )
        _results_changed(game, tournament.pk)
        return written

    return write


def preview_forfeit(
    game: Game,
    actor: AnyUser,
    *,
    seat: int,
    reason: str,
    order: Sequence[int] = (),
    version: int | None = None,
) -> Impact:
    """What the forfeit changes in the standings and at the cuts (nothing is saved); refused
    as `forfeit_seat` would refuse it."""
    with transaction.atomic():
        game, round_, reason = _forfeit_checked(game, actor, seat, reason, version)
        write = _forfeit_write(round_, actor, seat, reason, order)
        return _what_it_changes(round_.stage.tournament, game, write)


@refusals_recorded("forfeit")
def forfeit_seat(
    game: Game,
    actor: AnyUser,
    *,
    seat: int,
    reason: str,
    order: Sequence[int] = (),
    version: int | None = None,
    confirm_cut_change: bool = False,
) -> ResultVersion:
    """A player leaves mid-game (途中棄権): the game ends with them placed last, those already
    out keeping their places and the others finishing by the tournament's forfeit rule (or,
    for `referee_order` and quick games, in `order`). The game counts as settled.

    `version` is the game's version on the official's screen: a second tap finds the seat
    forfeited already (`already_forfeited`), a game changed since is refused (`game_changed`).
    A forfeit that changes who is above a stage's cut needs `confirm_cut_change`."""
    with transaction.atomic():
        game, round_, reason = _forfeit_checked(game, actor, seat, reason, version)
        write = _forfeit_write(round_, actor, seat, reason, order)
        return _ruled(round_.stage.tournament, game, write, confirm_cut_change)


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


# ---- confirmation at the table: a seated player's PIN -------------------------------------------

# Wrong PINs in a row after which a table's PIN stops working until a head referee resets it.
PIN_ATTEMPTS = 5


def pin_locked(table: Table) -> bool:
    """The table's PIN has failed too often: a head referee or an organiser confirms now."""
    return table.pin_failures >= PIN_ATTEMPTS


def confirm_game_by_player(game: Game, actor: AnyUser, seat: int, pin: str) -> Game:
    """A player seated at the table confirms a finished game on the recorder's device by
    picking their seat (engine seat, 0-based) and typing the table's PIN (printed on the table
    card). The device's user (`actor`, who may run the table) is recorded as `confirmed_by`,
    the player's seat as `confirmed_by_seat`.

    A wrong PIN counts against the table (row-locked, kept even though the request fails);
    after `PIN_ATTEMPTS` wrong PINs the PIN stops working until a head referee or organiser
    resets it. Refusals are kept for officials without the PIN typed."""
    error: GameError | None = None
    try:
        require_table_writer(actor, game.table)
        with transaction.atomic():
            table = Table.objects.select_for_update().get(pk=game.table_id)
            game = _lock(game)
            error = _player_confirmation_refusal(game, table, seat, pin)
            if error is not None:
                if error.code == "wrong_pin":
                    table.pin_failures += 1
                    table.save(update_fields=["pin_failures"])
                    left = PIN_ATTEMPTS - table.pin_failures
                    if left <= 0:
                        error = _pin_locked_error()
            else:
                tournament = _tournament(game)
                _mark_confirmed(game, actor, by_seat=seat)
                if table.pin_failures:
                    table.pin_failures = 0
                    table.save(update_fields=["pin_failures"])
                # The seat was checked above (`_player_confirmation_refusal`).
                position = seating_module.position_at(game, seat) or 0
                player = (
                    Seat.objects.filter(table=table, position=position)
                    .values_list("entry__number", "entry__player__display_name")
                    .first()
                )
                record_audit(
                    tournament,
                    actor,
                    AuditEntry.Action.RESULT_CONFIRMED_BY_PLAYER,
                    round_=table.round,
                    game_id=game.pk,
                    data={
                        "table": table.number,
                        "set": game.set_number,
                        "game": game.game_number,
                        "seat": seat,
                        "entry_number": player[0] if player else None,
                        "player": player[1] if player else "",
                    },
                )
    except PermissionDenied as denied:
        _record_player_refusal(game, actor, seat, "forbidden", str(denied), "権限がありません")
        raise
    if error is not None:
        _record_player_refusal(game, actor, seat, error.code, error.message_en, error.message_ja)
        raise error
    return game


def _pin_locked_error() -> GameError:
    return GameError(
        "pin_locked",
        f"The table's PIN was wrong {PIN_ATTEMPTS} times and no longer works: ask the head "
        "referee to confirm this result (they can also reset the PIN).",
        f"卓の確認PINを{PIN_ATTEMPTS}回間違えたため使えなくなりました。主審に確定を依頼して"
        "ください(主審はPINを再設定できます)。",
    )


def _player_confirmation_refusal(game: Game, table: Table, seat: int, pin: str) -> GameError | None:
    """Why a player's PIN confirmation of the locked game is refused (None: it is not)."""
    if game.status == Game.Status.CONFIRMED:
        return GameError(
            "already_confirmed",
            "This result is confirmed already: nothing more to do.",
            "この結果はすでに確定しています。",
        )
    if game.status != Game.Status.FINISHED:
        return GameError(
            "not_finished",
            "Only a finished game can be confirmed.",
            "終了したゲームのみ確定できます",
        )
    if pin_locked(table):
        return _pin_locked_error()
    position = seating_module.position_at(game, seat)
    if position is None or not Seat.objects.filter(table=table, position=position).exists():
        return GameError(
            "no_such_seat",
            "Pick your name from the players at this table.",
            "この卓の選手の中からお名前を選んでください。",
        )
    if not secrets.compare_digest(pin.strip().encode(), table.confirm_pin.encode()):
        left = PIN_ATTEMPTS - table.pin_failures - 1
        return GameError(
            "wrong_pin",
            f"Wrong PIN: type the 6 digits printed on the table card ({left} tries left before "
            "the head referee has to confirm).",
            f"PINが違います。卓カードに印刷された6桁を入力してください(あと{left}回で主審の確認が"
            "必要になります)。",
        )
    return None


def _record_player_refusal(
    game: Game, actor: AnyUser, seat: int, code: str, en: str, ja: str
) -> None:
    """Keep a refused PIN confirmation for officials — never with the PIN that was typed."""
    refusals.record_refusal(
        actor=actor,
        action="confirm_by_player",
        code=code,
        message_en=en,
        message_ja=ja,
        payload={"seat": seat},
        **_where(game),  # type: ignore[arg-type]
    )


def reset_table_pin(table: Table, actor: AnyUser, *, new_pin: bool = False) -> Table:
    """A head referee or organiser unlocks a table's PIN after too many wrong tries
    (`pin_failures` back to 0) and, with `new_pin`, replaces it (print the table card again).
    Audited; the PIN itself is never written to the record."""
    tournament = table.round.stage.tournament
    if not is_head_referee(actor, tournament):
        raise PermissionDenied(
            "Only the head referee or an organiser resets a table's PIN. "
            "卓のPINを再設定できるのは主審・主催者のみです。"
        )
    with transaction.atomic():
        locked = Table.objects.select_for_update().get(pk=table.pk)
        failures = locked.pin_failures
        locked.pin_failures = 0
        fields = ["pin_failures"]
        if new_pin:
            locked.confirm_pin = new_table_pin()
            fields.append("confirm_pin")
        locked.save(update_fields=fields)
        record_audit(
            tournament,
            actor,
            AuditEntry.Action.SETTINGS_CHANGED,
            round_=locked.round,
            reason="Table PIN regenerated" if new_pin else "Table PIN unlocked",
            data={"table": locked.number, "pin_failures": failures, "new_pin": new_pin},
        )
    return locked
