"""Organisers import games played elsewhere (on paper, on another system) as `kakumei-record/1`
records for a table (docs/record-format.md, "Importing records").

Each record is judged by the engine and either becomes the table's next game, with its moves,
results and standings exactly as if it had been played at the console, or is refused with the
engine's code, its message in English and Japanese and the number of the give or move at
fault. One record is one transaction: a refused record leaves nothing behind, and the records
after it are still judged (a batch imports the good ones and names the bad ones).

A record's identity is the SHA-256 of its canonical form (the engine's `export_record` of what
it loaded: canonical card names and rules, key order irrelevant), kept on the game
(`Game.record_fingerprint`): uploading it again answers "already imported" and writes nothing.

大富豪 and 大財閥 records are imported as a set's next game; a 掼蛋 (Guandan) hand as the team
match's next hand, only when the match it states is the one the table's match carries into it
(`match_mismatch`); a 掼蛋 match record as the table's next hands, in order, all or none.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import PermissionDenied
from django.db import transaction

from games import matches, refusals
from games.engine import IllegalMove, RecordError, card_names, family_of
from games.engine.daizaibatsu_combos import card_name as zaibatsu_card_name
from games.engine.daizaibatsu_combos import names as zaibatsu_names
from games.engine.multideck import multi_names
from games.engine.record import (
    export_record,
    is_match_record,
    load_match_record,
    load_record,
    replay_match,
)
from games.models import Game
from games.offline import QuickError, check_seats

# The console's own numbering, seating, title carry-over and action writer: an imported game
# becomes the table's next game exactly as "start the next game" and each move would make it.
from games.services import (
    GameError,
    _new_game,
    _seating_for,
    _titles_before,
    append_action,
    next_game_numbers,
    rebuild_check,
    refusals_recorded,
    require_facing_teams,
    starts_title_cycle,
    store_state,
)
from games.state import fingerprint, initial_state, parse_move
from tournaments.models import AuditEntry, Round, Seat, Table, Tournament
from tournaments.permissions import AnyUser, is_organiser
from tournaments.rulesets import check_ruleset, rules_for_table
from tournaments.services import (
    DomainError,
    mark_round_in_play,
    record_audit,
    require_round_open,
)

# The families whose records are imported: a game of a set (大富豪, titles carried over; 大財閥,
# with its draw pile) and a hand of a team match (掼蛋, the match carried over).
DAIFUGO, DAIZAIBATSU, GUANDAN = "daifugo", "daizaibatsu", "guandan"
IMPORTED_FAMILIES = frozenset({DAIFUGO, DAIZAIBATSU, GUANDAN})
# At most this many records per upload: each is judged and written in its own transaction
# while the organiser waits (a round's table plays a dozen games; a season's file is split).
MAX_RECORDS = 100
# A 掼蛋 table seats four (its `match.previous` names each of them once).
GUANDAN_SEATS = 4


@dataclass(frozen=True, slots=True)
class Unreadable:
    """A line of uploaded JSON-lines text that is not JSON (`line`: 1-based)."""

    line: int
    error: str


@dataclass(frozen=True, slots=True)
class ImportOutcome:
    """What became of one record of a batch (`number`: its place in the batch, 1-based).

    - `imported`: `game` is the new game (a match record's first hand; `games`: its every
      hand, in order);
    - `duplicate`: `game` is the game it was imported as before; nothing was written;
    - `refused`: `code` and the two messages say why; for a give or move the engine refused,
      `section` (`exchange` or `moves`) and `move_number` (1-based) name it, and `rule` the
      rule; for a record that is not valid, `key` names the part at fault; in a match record,
      `hand` (1-based) names the hand at fault.
    """

    number: int
    status: str
    game: Game | None = None
    code: str = ""
    message_en: str = ""
    message_ja: str = ""
    section: str = ""
    move_number: int | None = None
    rule: str = ""
    key: str = ""
    hand: int | None = None
    games: tuple[Game, ...] = ()

    @property
    def imported(self) -> bool:
        return self.status == "imported"

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"record": self.number, "status": self.status}
        if self.game is not None:
            out |= {
                "game": self.game.pk,
                "set_number": self.game.set_number,
                "game_number": self.game.game_number,
                "table": self.game.table.number,
            }
        if self.games:
            out["games"] = [game.pk for game in self.games]
        if self.status == "refused":
            out |= {
                "code": self.code,
                "message_en": self.message_en,
                "message_ja": self.message_ja,
                "section": self.section or None,
                "move_number": self.move_number,
                "rule": self.rule or None,
                "key": self.key or None,
                "hand": self.hand,
            }
        return out


class RecordRefused(Exception):
    """One record refused; raised inside its transaction so that nothing of it is kept."""

    def __init__(
        self,
        code: str,
        message_en: str,
        message_ja: str,
        *,
        section: str = "",
        move_number: int | None = None,
        rule: str = "",
        key: str = "",
        hand: int | None = None,
    ) -> None:
        super().__init__(message_en)
        self.code, self.message_en, self.message_ja = code, message_en, message_ja
        self.section, self.move_number, self.rule, self.key = section, move_number, rule, key
        self.hand = hand

    def in_hand(self, index: int) -> RecordRefused:
        """This refusal of a match record's hand `index` (0-based): the hand named, its key
        as the match record spells it (`games[1].moves[3]`)."""
        self.hand = index + 1
        if self.key:
            self.key = f"games[{index}].{self.key}"
        return self

    def outcome(self, number: int) -> ImportOutcome:
        return ImportOutcome(
            number,
            "refused",
            code=self.code,
            message_en=self.message_en,
            message_ja=self.message_ja,
            section=self.section,
            move_number=self.move_number,
            rule=self.rule,
            key=self.key,
            hand=self.hand,
        )


# --- reading what was uploaded ----------------------------------------------------------------


def read_records(text: str) -> list[object]:
    """The records in uploaded or pasted text: one JSON object, a JSON array of them,
    `{"records": [...]}`, or JSON lines (one per line, blank lines skipped). Each item may be a
    bare record or an object that wraps it under `record` (as a downloaded file's lines do:
    `{"game": {...}, "record": {...}}`). A line that is not JSON is an `Unreadable`."""
    text = text.lstrip("\ufeff").strip()
    if not text:
        return []
    try:
        whole: object = json.loads(text)
    except (ValueError, RecursionError):
        lines = [
            _read_line(number, line)
            for number, line in enumerate(text.splitlines(), start=1)
            if line.strip()
        ]
        return [unwrapped(item) for item in lines]
    return [unwrapped(item) for item in _items(whole)]


def _read_line(number: int, line: str) -> object:
    try:
        return json.loads(line)
    except (ValueError, RecursionError) as error:
        return Unreadable(number, str(error))


def records_in(whole: object) -> list[object]:
    """The records of an already decoded body (the API's): a record, a list of them, or
    `{"records": [...]}`; each unwrapped from a download's line as `read_records` does."""
    return [unwrapped(item) for item in _items(whole)]


def _items(whole: object) -> list[object]:
    if isinstance(whole, list):
        return whole
    if isinstance(whole, dict) and "format" not in whole and isinstance(whole.get("records"), list):
        return list(whole["records"])
    return [whole]


def unwrapped(item: object) -> object:
    """The record inside a download's `{"game": …, "record": {…}}` line; anything else as is."""
    if isinstance(item, dict) and "format" not in item and isinstance(item.get("record"), dict):
        return item["record"]
    return item


# --- the service --------------------------------------------------------------------------------


def require_importer(actor: AnyUser, table: Table) -> None:
    """Only the tournament's organisers import records (not its referees or head referee: an
    import enters a whole game's result at once, as organisers do with results from outside)."""
    if not is_organiser(actor, table.round.stage.tournament):
        raise PermissionDenied(
            "Only an organiser of this tournament imports game records. "
            "棋譜の取り込みはこの大会の主催者のみ行えます。"
        )


@refusals_recorded("import_records")
def import_records(table: Table, actor: AnyUser, records: Sequence[object]) -> list[ImportOutcome]:
    """Import each of `records` (decoded JSON, e.g. from `read_records`) as the table's next
    game, in order; a refused record does not stop the others. Raises `PermissionDenied` for
    anyone but an organiser, and `GameError` when the table takes no import at all (its round
    is not open, or its game is not 大富豪) or nothing was sent."""
    require_importer(actor, table)
    tournament = table.round.stage.tournament
    if check_ruleset(tournament.ruleset_id, tournament.ruleset_version).family not in (
        IMPORTED_FAMILIES
    ):
        unsupported = _family_unsupported()
        raise GameError(unsupported.code, unsupported.message_en, unsupported.message_ja)
    try:
        require_round_open(table.round)
    except DomainError as error:
        raise GameError.of(error) from error
    if not records:
        raise GameError(
            "no_records",
            "No record found: upload a .json or .jsonl file, or paste the records.",
            "棋譜が見つかりません。.json か .jsonl のファイルを選ぶか、棋譜を貼り付けてください。",
        )
    if len(records) > MAX_RECORDS:
        raise GameError(
            "too_many_records",
            f"At most {MAX_RECORDS} records per upload ({len(records)} sent): split the file.",
            f"一度に取り込めるのは{MAX_RECORDS}件までです({len(records)}件)。"
            "ファイルを分けてください。",
        )
    return [
        import_record(table, actor, record, number=number)
        for number, record in enumerate(records, start=1)
    ]


def import_record(
    table: Table, actor: AnyUser, record: object, *, number: int = 1
) -> ImportOutcome:
    """One record of a batch: imported, recognised as a duplicate, or refused (kept for
    officials as a refused submission, after its transaction rolled back)."""
    require_importer(actor, table)
    try:
        return _import(table, actor, record, number)
    except RecordRefused as refusal:
        refusals.record_refusal(
            tournament_id=int(table.round.stage.tournament_id),
            round_id=table.round_id,
            table_id=table.pk,
            actor=actor,
            action="import_record",
            code=refusal.code,
            message_en=_with_place(refusal, "en"),
            message_ja=_with_place(refusal, "ja"),
            payload=record if not isinstance(record, Unreadable) else {"line": record.line},
            seq=refusal.move_number,
            http_status=422,
        )
        return refusal.outcome(number)


def _import(table: Table, actor: AnyUser, raw: object, number: int) -> ImportOutcome:
    if is_match_record(raw):
        return _import_match(table, actor, raw, number)
    loaded = _load(raw)
    print_ = _fingerprint(loaded)
    with transaction.atomic():
        table, round_ = _locked(table)
        found = _imported_before(table.round.stage.tournament, print_)
        if found is not None:
            return ImportOutcome(number, "duplicate", game=found)
        _require_open(round_)
        game = _write_game(table, round_, actor, loaded, print_, _think_times(raw))
    return ImportOutcome(number, "imported", game=game)


def _import_match(table: Table, actor: AnyUser, raw: object, number: int) -> ImportOutcome:
    """A 掼蛋 match record: its hands, in order, as the table's next hands, all or none (one
    transaction). Each later hand's match is the engine's derivation from the hand before
    (`replay_match`), so only the first hand's has to be the table's."""
    hands = _match_hands(raw)
    prints = [_fingerprint(hand) for hand in hands]
    clocks = _match_think_times(raw, hands)
    with transaction.atomic():
        table, round_ = _locked(table)
        tournament = table.round.stage.tournament
        found = [_imported_before(tournament, print_) for print_ in prints]
        if all(game is not None for game in found):
            return ImportOutcome(number, "duplicate", game=found[0])
        _require_open(round_)
        games: list[Game] = []
        for index, (hand, print_) in enumerate(zip(hands, prints, strict=True)):
            try:
                if found[index] is not None:
                    raise _hand_imported_before(found[index])
                games.append(_write_game(table, round_, actor, hand, print_, clocks[index]))
            except RecordRefused as refusal:
                raise refusal.in_hand(index) from refusal
    return ImportOutcome(number, "imported", game=games[0], games=tuple(games))


def _locked(table: Table) -> tuple[Table, Round]:
    """The table and its round, locked for the import (as the console's start locks them)."""
    locked = (
        Table.objects.select_for_update()
        .select_related("round__stage__tournament")
        .get(pk=table.pk)
    )
    return locked, Round.objects.select_for_update().get(pk=locked.round_id)


def _require_open(round_: Round) -> None:
    try:
        require_round_open(round_)
    except DomainError as error:
        raise RecordRefused(error.code, error.message_en, error.message_ja) from error


def _fingerprint(loaded: Any) -> str:
    """A loaded game record's identity: its canonical export, with every action a replay
    applies in order (大富豪's exchange gives, then the moves)."""
    actions = [action for _section, listed in loaded.sections() for action in listed]
    return fingerprint(export_record(loaded.initial_state(), actions))


def _write_game(
    table: Table,
    round_: Round,
    actor: AnyUser,
    loaded: Any,
    print_: str,
    think_times: dict[str, list[int | None]],
) -> Game:
    """One loaded game record as the locked table's next game, through the console's own
    writers (`append_action`, `store_state`); raises `RecordRefused`, the caller's transaction
    then keeping nothing."""
    tournament = table.round.stage.tournament
    family = family_of(loaded.rules)
    try:
        nxt = next_game_numbers(table)
    except GameError as error:
        raise RecordRefused(error.code, error.message_en, error.message_ja) from error
    seats = _seats_of(table, tournament)
    _require_table_fits(loaded, tournament, seats)
    seating = _seating_for(table, tournament, nxt, seats)
    game = _new_game(table, nxt, _mode(loaded), seats, seating=seating, **_set_up(loaded))
    if loaded.rules.family == DAIFUGO:
        _require_titles(loaded, table, tournament, nxt, seating)
    elif loaded.rules.family == GUANDAN:
        _require_next_match(loaded, table, nxt)
    game.started_by = actor if actor.is_authenticated else None
    game.record_fingerprint = print_
    try:
        rebuild_check(game)
    except GameError as error:
        raise RecordRefused(error.code, error.message_en, error.message_ja) from error
    game.save()
    mark_round_in_play(round_)
    state = initial_state(game)
    for section, actions in loaded.sections():
        times = think_times.get(section, [])
        for index, action in enumerate(actions):
            # Parsed again as the game's own move, as a move sent to the console would be.
            move = parse_move(game, family.move_to_json(action), family)
            try:
                state, _events = append_action(
                    game,
                    actor,
                    family,
                    state,
                    move,
                    think_ms=times[index] if index < len(times) else None,
                )
            except IllegalMove as error:
                raise RecordRefused(
                    error.code,
                    error.message_en,
                    error.message_ja,
                    section=section,
                    move_number=index + 1,
                    rule=error.rule or "",
                ) from error
    if not family.is_over(state):
        raise RecordRefused(
            "record_unfinished",
            "The game does not finish: the record ends before every place is decided. "
            "Only finished games are imported.",
            "対局が終わっていません。全員の順位が決まる前に棋譜が終わっています。"
            "取り込めるのは終了した対局だけです。",
        )
    store_state(game, actor, family, state)
    record_audit(
        tournament,
        actor,
        AuditEntry.Action.GAME_IMPORTED,
        round_=round_,
        game_id=game.pk,
        data={
            "table": table.number,
            "set_number": game.set_number,
            "game_number": game.game_number,
            "actions": game.last_seq,
            "fingerprint": print_,
        },
    )
    return game


def _hand_imported_before(game: Game | None) -> RecordRefused:
    assert game is not None
    return RecordRefused(
        "hand_imported_before",
        f"This hand was imported before, as table {game.table.number}, hand "
        f"{game.game_number}, but not the whole match: import the hands after it one by one.",
        f"この局は卓{game.table.number}の第{game.game_number}局として取り込み済みですが、"
        "試合全体ではありません。続く局を1局ずつ取り込んでください。",
    )


def _match_hands(raw: object) -> list[Any]:
    """A match record's hands as the engine replays them, each with the match it derives for
    it; or the refusal of a record the engine cannot read or whose hands cannot follow."""
    games = raw.get("games") if isinstance(raw, dict) else None
    if isinstance(games, list) and games:
        try:
            _require_previous_order(games[0])
        except RecordRefused as refusal:
            raise refusal.in_hand(0) from refusal
    try:
        loaded = load_match_record(raw)  # type: ignore[arg-type]
        if loaded.rules.family not in IMPORTED_FAMILIES:
            raise _family_unsupported()
        return [game.record for game in replay_match(loaded).games]
    except RecordError as error:
        raise _not_valid(error) from error


def _match_think_times(raw: object, hands: Sequence[Any]) -> list[dict[str, list[int | None]]]:
    """Each hand's think times: a match record's clock times every hand's moves, one hand
    after the other (docs/record-format.md, section 3)."""
    times = _think_times(raw).get("moves", [])
    out: list[dict[str, list[int | None]]] = []
    start = 0
    for hand in hands:
        count = sum(len(actions) for _section, actions in hand.sections())
        out.append({"moves": times[start : start + count]})
        start += count
    return out


def _think_times(raw: object) -> dict[str, list[int | None]]:
    """The think times of an uploaded record's `clock` (already checked for form by the
    engine's loader: one per action), by the section they time. Its time faults are not
    imported: a fault's warning or deduction is the organiser's to give (docs/record-format.md,
    section 9)."""
    found = raw.get("clock") if isinstance(raw, dict) else None
    if not isinstance(found, dict):
        return {}
    return {
        "moves": list(found.get("think_ms") or []),
        "exchange": list(found.get("exchange_think_ms") or []),
    }


def _load(raw: object) -> Any:
    """The engine's reading of one uploaded record, or its refusal."""
    if isinstance(raw, Unreadable):
        raise RecordRefused(
            "not_json",
            f"Line {raw.line} is not JSON: {raw.error}",
            f"{raw.line}行目がJSONではありません: {raw.error}",
        )
    _require_previous_order(raw)
    try:
        loaded = load_record(raw)  # type: ignore[arg-type]
    except RecordError as error:
        raise _not_valid(error) from error
    if loaded.rules.family not in IMPORTED_FAMILIES:
        raise _family_unsupported()
    return loaded


def _require_previous_order(raw: object) -> None:
    """A 掼蛋 hand's `match.previous` is a finishing order: read by the one reader of finishing
    orders (`games.offline.check_seats`), refused with its code (a seat not at the table,
    twice, missing) as the console, the API and a correction refuse it."""
    match = raw.get("match") if isinstance(raw, dict) else None
    previous = match.get("previous") if isinstance(match, dict) else None
    if not isinstance(previous, list) or not all(
        isinstance(seat, int) and not isinstance(seat, bool) for seat in previous
    ):
        return  # absent, or not a list of seats: the engine names the fault
    try:
        check_seats(GUANDAN_SEATS, previous)
    except QuickError as error:
        raise RecordRefused(
            error.code,
            f"match.previous: {error.message_en}",
            f"match.previous: {error.message_ja}",
            key="match.previous",
        ) from error


def _not_valid(error: RecordError) -> RecordRefused:
    key = f" ({error.key})" if error.key else ""
    return RecordRefused(
        error.code,
        f"Not a valid kakumei-record/1{key}: {error.message_en}",
        f"kakumei-record/1 の棋譜として正しくありません{key}: {error.message_ja}",
        key=error.key,
    )


def _family_unsupported() -> RecordRefused:
    en = (
        "Only 大富豪 (Daifugo), 大財閥 (Daizaibatsu) and 掼蛋 (Guandan) records are imported: "
        "this game is entered at the console."
    )
    ja = (
        "取り込めるのは大富豪・大財閥・掼蛋の棋譜だけです。"
        "この対局は審判コンソールで入力してください。"
    )
    return RecordRefused("family_unsupported", en, ja)


def _imported_before(tournament: Tournament, print_: str) -> Game | None:
    """The counting game of the tournament this record was imported as, if any."""
    return (
        Game.objects.filter(table__round__stage__tournament=tournament, record_fingerprint=print_)
        .exclude(status=Game.Status.VOID)
        .select_related("table")
        .first()
    )


def _seats_of(table: Table, tournament: Tournament) -> int:
    """The table's seat count; a team match's table must seat its two teams facing, as the
    console's start requires."""
    if not tournament.plays_in_teams:
        return Seat.objects.filter(table=table).count()
    try:
        return require_facing_teams(table)
    except GameError as error:
        raise RecordRefused(error.code, error.message_en, error.message_ja) from error


def _dealt(setup: Any) -> list[int]:
    """The number of cards dealt to each seat (a 掼蛋 hand has no counts: its hands say)."""
    counts = getattr(setup, "counts", None)
    return list(counts) if counts is not None else [len(hand) for hand in setup.hands]


def _size(cards: Any) -> int:
    """A dealt hand's size: 大富豪's hands are bit sets, the two-pack families' sequences."""
    return cards.bit_count() if isinstance(cards, int) else len(cards)


def _mode(loaded: Any) -> str:
    known = all(hand is not None for hand in loaded.initial_state().setup.hands)
    return Game.Mode.KNOWN_DEAL if known else Game.Mode.OPEN_TABLE


def _set_up(loaded: Any) -> dict[str, Any]:
    """The game row's deal and what it carries in, as each family's console start writes them
    (`games.services`: `_set_game`, `_pile_game`, `_team_hand`), from the record's set-up."""
    setup = loaded.initial_state().setup
    family = loaded.rules.family
    if family == DAIZAIBATSU:
        return {
            "hands": [None if h is None else zaibatsu_names(h) for h in setup.hands],
            "counts": list(setup.counts),
            "pile": None if setup.pile is None else [zaibatsu_card_name(c) for c in setup.pile],
            # The pile's renewals follow the record's seed (games.state._with_pile).
            "record_seed": "" if setup.seed is None else setup.seed.decode("utf-8", "replace"),
            "blind": None,
            "titles": None,
            "leader": setup.leader,
        }
    if family == GUANDAN:
        return {
            "hands": [multi_names(h) for h in setup.hands],
            "counts": [len(h) for h in setup.hands],
            "blind": None,
            "titles": None,
            "match": setup.match.to_record(),
            "leader": setup.leader,
        }
    return {
        "hands": [_names(hand) for hand in setup.hands],
        "counts": list(setup.counts),
        "blind": None if setup.blind is None else _names(setup.blind),
        "titles": None if loaded.titles is None else list(loaded.titles),
        "leader": loaded.leader,
    }


def _require_table_fits(loaded: Any, tournament: Tournament, seats: int) -> None:
    """The record is a full deal for this table, under the tournament's pinned ruleset."""
    rules = loaded.rules
    if rules.seats != seats:
        raise RecordRefused(
            "seats_mismatch",
            f"The record is a game of {rules.seats} players; this table seats {seats}.",
            f"棋譜は{rules.seats}人の対局ですが、この卓は{seats}人です。",
            key="seats",
        )
    pinned = rules_for_table(
        tournament.ruleset_id, tournament.ruleset_version, seats, tournament.ruleset_overrides
    )
    if rules.key != pinned.key or rules.switches() != pinned.switches():
        changed = sorted(
            name for name, value in pinned.switches().items() if rules.switches().get(name) != value
        )
        differs = f" ({', '.join(changed)})" if changed and rules.key == pinned.key else ""
        raise RecordRefused(
            "ruleset_mismatch",
            f"The record is played under {rules.key}{differs}; this tournament plays {pinned.key}.",
            f"棋譜のルールは {rules.key}{differs} ですが、この大会のルールは {pinned.key} です。",
            key="rules",
        )
    setup = loaded.initial_state().setup
    if len({hand is None for hand in setup.hands}) > 1:
        raise RecordRefused(
            "deal_partly_known",
            "Give every hand, or none (an open table, with counts): not some of them.",
            "手札は全員分を書くか、全員分を書かない(手配り、枚数のみ)かのどちらかにしてください。",
            key="hands",
        )
    deal = family_of(rules).deal("kakumei-import", rules)
    full = sorted(_size(h) for h in deal.hands)
    counts = _dealt(setup)
    if sorted(counts) != full:
        raise RecordRefused(
            "deal_incomplete",
            f"A tournament game is a full deal: {'/'.join(map(str, full))} cards, but the "
            f"record deals {'/'.join(map(str, counts))}.",
            f"大会の対局は全カードを配ります({'/'.join(map(str, full))}枚)。棋譜の配札は"
            f"{'/'.join(map(str, counts))}枚です。",
            key="hands",
        )
    pile = getattr(setup, "pile", None)
    if pile is not None and len(pile) != len(deal.pile):
        # A known pile holds every card not dealt (an unknown one is named draw by draw).
        raise RecordRefused(
            "pile_incomplete",
            f"The draw pile holds every card not dealt: {len(deal.pile)} cards, but the "
            f"record's holds {len(pile)}. Give it whole, or as null (each draw named).",
            f"山札は配られなかった全カードです({len(deal.pile)}枚)が、棋譜の山札は"
            f"{len(pile)}枚です。全部書くか、null(引いたカードを毎回書く)にしてください。",
            key="pile",
        )


def _require_titles(
    loaded: Any, table: Table, tournament: Tournament, nxt: Any, seating: Sequence[int]
) -> None:
    """The record's titles are those the table's previous game gave (none for a set's first
    game, or one that starts a title cycle), as the console would carry them over."""
    seats = len(seating)
    expected = (
        None
        if starts_title_cycle(tournament, nxt.game_number)
        else _titles_before(table, nxt.set_number, nxt.game_number, seats, seating)
    )
    given = None if loaded.titles is None else list(loaded.titles)
    if given != expected:
        raise RecordRefused(
            "titles_mismatch",
            f"This is set {nxt.set_number}, game {nxt.game_number} at the table: its titles are "
            f"{_titles_text(expected)}, the record's {_titles_text(given)}.",
            f"この卓の第{nxt.set_number}セット第{nxt.game_number}局です。階級は"
            f"{_titles_text(expected, TITLES_JA)}のはずですが、棋譜では"
            f"{_titles_text(given, TITLES_JA)}です。",
            key="titles",
        )


def _require_next_match(loaded: Any, table: Table, nxt: Any) -> None:
    """A 掼蛋 hand's `match` is what the table's match carries into its next hand (as the
    console would start it, `matches.match_for_next_hand`): the levels, the failures at A, the
    previous hand's finishing order (after a 1-2 finish the two losers in either order) and,
    for a match's first hand, no declaring team. The first field that differs is named."""
    expected = matches.match_for_next_hand(table.pk, nxt.set_number)
    given = loaded.match
    differs = next(
        (
            field
            for field, same in (
                ("levels", given.levels == expected.levels),
                ("failures", given.failures == expected.failures),
                ("previous", _same_order(given.previous, expected.previous)),
                ("declarer", given.declarer == expected.declarer),
            )
            if not same
        ),
        None,
    )
    if differs is None:
        return
    hand = nxt.game_number
    want = json.dumps(expected.to_record().get(differs), ensure_ascii=False)
    got = json.dumps(given.to_record().get(differs), ensure_ascii=False)
    raise RecordRefused(
        "match_mismatch",
        f"This is hand {hand} of the table's match: its match.{differs} is {want}, the "
        f"record's {got}.",
        f"この卓の試合の第{hand}局です。match.{differs} は {want} のはずですが、棋譜では "
        f"{got} です。",
        key=f"match.{differs}",
    )


def _same_order(given: Sequence[int] | None, expected: Sequence[int] | None) -> bool:
    """The same previous finishing order; after a 1-2 finish the losers share third place,
    so they may come in either order."""
    if given is None or expected is None:
        return given is expected
    if list(given) == list(expected):
        return True
    one_two = len(expected) == 4 and expected[1] == (expected[0] + 2) % 4
    return one_two and list(given[:2]) == list(expected[:2]) and set(given) == set(expected)


# The titles as the Japanese message names them (the English one keeps the record's words).
TITLES_JA = {
    "daifugo": "大富豪",
    "fugo": "富豪",
    "heimin": "平民",
    "hinmin": "貧民",
    "daihinmin": "大貧民",
}


def _titles_text(titles: Sequence[str] | None, words: dict[str, str] | None = None) -> str:
    """Per seat, from seat 0; "none" for a game without titles (a set's first)."""
    if titles is None:
        return "なし" if words else "none"
    return "、".join(words.get(t, t) for t in titles) if words else ", ".join(titles)


def _names(cards: Any) -> list[str] | None:
    return None if cards is None else card_names(cards)


def _with_place(refusal: RecordRefused, language: str) -> str:
    """The refusal's message, naming the give or move at fault (kept for officials)."""
    message = refusal.message_en if language == "en" else refusal.message_ja
    places = []
    if refusal.hand is not None:
        places.append(f"Hand {refusal.hand}" if language == "en" else f"第{refusal.hand}局")
    if refusal.move_number is not None:
        places.append(move_place(refusal.section, refusal.move_number, language))
    if not places:
        return message
    return f"{(', ' if language == 'en' else ' ').join(places)}: {message}"


def move_place(section: str, number: int, language: str) -> str:
    """ "Move 5" / "5手目", "Exchange give 2" / "カード交換 2件目"."""
    if section == "exchange":
        return f"Exchange give {number}" if language == "en" else f"カード交換 {number}件目"
    return f"Move {number}" if language == "en" else f"{number}手目"
