"""Seat UECda client programs at a tournament's tables (docs/bots.md).

The bridge speaks the TCP protocol of the UEC computer 大富豪 competition (UECda) as its
reference server does (yagays/uecda_python, compatible with the C kit): every message is an
8×15 int table (480 bytes, big-endian, `games.engine.uecda`) or one int. A program connects
and sends its profile (``[0][0]`` the protocol version, row 1 its name); the name picks the
bot entrant (`Player.bot_name`) it plays for. When every seat of a table of an open round is
a connected bot, the bridge plays the table's games through the same services a referee's
console uses: `start_game` deals from the round's seed, each play the program sends becomes
an engine move submitted with `submit_move` by the bridge's own user (the table's referee),
and a second official of the bridge confirms each result so standings count it.

Per table (one connection plays one table's sets; UECda programs exit after "all games
ended"):

1. the player number (one int): the bot's table position − 1;
2. per game: each program its hand (``[5][0] = 1``; ``[5][1]`` the cards 大富豪/富豪 give
   back, whose tables the bridge then reads, 大富豪 first);
3. per turn: every program its hand and the state (rows 5 and 6); the program whose turn it
   is (``[5][2] = 1``) sends its play; it gets 9 (accepted) or 8 (refused or a pass: the
   turn is recorded as a pass); every program gets the table's cards; then every program an
   int: 0 the game goes on, 1 it ended, 2 every game of the table ended.

Refused plays, timeouts and disconnections follow the rules written in docs/bots.md.
"""

from __future__ import annotations

import contextlib
import logging
import queue
import socket
import threading
import time
from collections.abc import Iterable
from dataclasses import dataclass, field

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db import close_old_connections

from games.engine import (
    NUMBERS,
    PHASE_EXCHANGE,
    TITLES,
    Move,
    State,
    is_legal,
    legal_moves,
)
from games.engine import apply as engine_apply
from games.engine.cards import lowest_cards
from games.engine.errors import EngineError
from games.engine.uecda import (
    MESSAGE_BYTES,
    PROTOCOL_VERSION,
    Table,
    cards_to_table,
    from_bytes,
    message,
    profile_name,
    table_to_cards,
    to_bytes,
)
from games.models import Game
from games.seating import positions_of
from games.services import (
    GameError,
    confirm_game,
    current_state,
    next_game_or_refusal,
    start_game,
    submit_move,
)
from games.state import canonical
from tournaments import services as tournament_services
from tournaments.models import Official, Round, Seat, Tournament
from tournaments.models import Table as TournamentTable
from tournaments.rulesets import check_ruleset

log = logging.getLogger(__name__)

ACCEPT = 9
REJECT = 8
GAME_CONTINUE = 0
GAME_END = 1
ALL_GAMES_END = 2
HANDSHAKE_SECONDS = 2.5  # the reference server's wait for a profile

BRIDGE_USER = "uecda-bridge"
# Confirming is a second pair of eyes, never the recorder (as simulate_tournament's).
CONFIRMER = "uecda-bridge-confirmer"


class BotGone(Exception):
    """A program closed its connection, sent garbage framing or did not answer in time."""


class TableStopped(Exception):
    """The service refused a move the bridge chose itself: the game changed under it (voided
    or forfeited by an official, an undo waiting); the bridge leaves the table."""


def system_user(username: str) -> User:
    user, created = get_user_model().objects.get_or_create(username=username)
    if created:
        user.set_unusable_password()
        user.save(update_fields=["password"])
    return user


# --- the wire --------------------------------------------------------------------------------


def _recv_exact(sock: socket.socket, size: int) -> bytes:
    data = b""
    while len(data) < size:
        try:
            chunk = sock.recv(size - len(data))
        except (TimeoutError, OSError) as error:
            raise BotGone(str(error) or type(error).__name__) from error
        if not chunk:
            raise BotGone("connection closed")
        data += chunk
    return data


def wire(table: Table) -> bytes:
    # The reference server sends a negative cell as 0 (an unsigned int), e.g. whose turn it is
    # during the exchange.
    return to_bytes([[max(v, 0) for v in row] for row in table])


@dataclass
class Connection:
    """One program's socket, after its handshake."""

    name: str
    sock: socket.socket
    version: int
    timeout: float

    def send_table(self, table: Table) -> None:
        self._send(wire(table))

    def send_int(self, value: int) -> None:
        self._send(max(value, 0).to_bytes(4, "big"))

    def recv_table(self) -> Table:
        self.sock.settimeout(self.timeout)
        return from_bytes(_recv_exact(self.sock, MESSAGE_BYTES))

    def _send(self, data: bytes) -> None:
        try:
            self.sock.sendall(data)
        except OSError as error:
            raise BotGone(str(error)) from error

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.sock.close()


# --- the lobby: programs that connected and wait for their table ------------------------------


@dataclass
class Lobby:
    """Connections by bot name, filled by the listening thread, taken by the playing one."""

    timeout: float
    known: frozenset[str] = frozenset()
    waiting: dict[str, Connection] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def greet(self, sock: socket.socket, address: object) -> None:
        """Read a new connection's profile; keep it under its bot's name or close it."""
        sock.settimeout(HANDSHAKE_SECONDS)
        try:
            profile = from_bytes(_recv_exact(sock, MESSAGE_BYTES))
        except (BotGone, EngineError) as error:
            log.warning("refused %s: no profile table (%s)", address, error)
            sock.close()
            return
        name, version = profile_name(profile), profile[0][0]
        if version != PROTOCOL_VERSION:
            log.info("%s (%s) speaks protocol %s, not %s", name, address, version, PROTOCOL_VERSION)
        with self.lock:
            if name not in self.known:
                log.warning(
                    "refused %s (%s): no bot entrant of the tournament is named so", name, address
                )
                sock.close()
                return
            if name in self.waiting:
                log.warning("refused a second connection of %s (%s)", name, address)
                sock.close()
                return
            self.waiting[name] = Connection(name, sock, version, self.timeout)
        log.info("%s connected from %s", name, address)

    def has(self, names: Iterable[str]) -> bool:
        with self.lock:
            return all(n in self.waiting for n in names)

    def take(self, name: str) -> Connection | None:
        with self.lock:
            return self.waiting.pop(name, None)

    def close_all(self) -> None:
        with self.lock:
            for conn in self.waiting.values():
                conn.close()
            self.waiting.clear()


def listen(host: str, port: int) -> socket.socket:
    server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    server.bind((host, port))
    server.listen(16)
    return server


def accept_forever(server: socket.socket, lobby: Lobby, stop: threading.Event) -> None:
    server.settimeout(0.2)
    while not stop.is_set():
        try:
            sock, address = server.accept()
        except TimeoutError:
            continue
        except OSError:
            return
        # A slow handshake must not hold up the next program's connection.
        threading.Thread(target=lobby.greet, args=(sock, address), daemon=True).start()


# --- choosing for a program that cannot --------------------------------------------------------


def weakest_play(state: State, seat: int) -> Move:
    """The engine's weakest legal play for `seat` (its lowest cards, fewest first), or a pass
    when it has none: what the bridge plays for a seat whose program is gone, or whose
    refused play cannot become a pass (a lead without 空場パス)."""
    plays = [
        m
        for m in legal_moves(state)
        if m.seat == seat and not m.is_pass and not m.respond and not m.exchange
    ]
    if not plays:
        return Move.pass_turn(seat)
    flip = state.reversed

    def strength(move: Move) -> tuple[int, int]:
        nat = move.cards & NUMBERS
        if not nat:
            rank = 13
        elif flip:
            rank = 12 - ((nat.bit_length() - 1) >> 2)
        else:
            rank = ((nat & -nat).bit_length() - 1) >> 2
        return (rank, move.cards.bit_count())

    return min(plays, key=strength)


# --- one game -----------------------------------------------------------------------------------


@dataclass
class TablePlay:
    """The programs at one table, by player number (table position − 1; None: gone)."""

    table: TournamentTable
    names: list[str]
    conns: list[Connection | None]
    referee: User
    confirmer: User
    lobby: Lobby

    def drop(self, player: int, reason: str) -> None:
        conn = self.conns[player]
        if conn is not None:
            log.warning(
                "table %s: %s dropped (%s); the bridge plays its seat until it reconnects",
                self.table.number,
                conn.name,
                reason,
            )
            conn.close()
            self.conns[player] = None

    def send(self, message: Table | int, players: Iterable[int] | None = None) -> None:
        """Send a table or an int to the programs of `players` (None: every one still here);
        one that cannot be reached is dropped."""
        for player in range(len(self.conns)) if players is None else players:
            conn = self.conns[player]
            if conn is None:
                continue
            try:
                if isinstance(message, int):
                    conn.send_int(message)
                else:
                    conn.send_table(message)
            except BotGone as error:
                self.drop(player, str(error))

    def rejoin(self) -> None:
        """Before a game: programs of this table that reconnected get their player number."""
        for player, name in enumerate(self.names):
            if self.conns[player] is None:
                conn = self.lobby.take(name)
                if conn is not None:
                    self.conns[player] = conn
                    log.info("table %s: %s is back", self.table.number, name)
                    self.send(player, [player])


@dataclass
class GamePlay:
    """One game of a `TablePlay`: the engine state and the log position the bridge is at."""

    tp: TablePlay
    game: Game
    state: State
    seq: int
    player_of: list[int]  # engine seat → player number
    last: Move | None = None

    def submit(self, move: Move) -> bool:
        outcome = submit_move(self.game, canonical(self.game, move), self.seq + 1, self.tp.referee)
        if not outcome.ok:
            log.info(
                "table %s game %s: %s refused (%s: %s)",
                self.tp.table.number,
                self.game.game_number,
                move,
                outcome.code,
                outcome.message_en,
            )
            return False
        self.seq += 1
        self.last = move
        self.state, _events = engine_apply(self.state, move)
        return True

    def force(self, move: Move) -> None:
        """Record a move the bridge chose (legal by the engine); refused, the table stops."""
        if not self.submit(move):
            raise TableStopped(f"game {self.game.pk} refused the bridge's own {move}")

    def rows(self, seat: int, cards: int, *, hand: bool = True) -> Table:
        """A message for the program at `seat`: `cards` and rows 5 and 6 by player number."""
        return message(self.state, seat, cards, hand=hand, players=self.player_of)

    def exchange(self) -> None:
        """The card exchange: the lower titles give their strongest (the bridge takes them, as
        the reference server does), every program gets its hand with ``[5][0] = 1``, then
        大富豪 and 富豪 send the cards they give back."""
        state = self.state
        setup = state.setup
        exchanging = state.phase == PHASE_EXCHANGE
        shown = {seat: state.hands[seat] for seat in range(len(state.counts))}
        if exchanging:
            for seat in range(len(state.counts)):
                if setup.exchange_strongest[seat] and self.state.gives[seat] == -1:
                    give = next(m for m in legal_moves(self.state) if m.seat == seat and m.exchange)
                    self.force(give)
        titles = TITLES.get(len(state.counts), ())
        choosers = [
            seat
            for seat in range(len(state.counts))
            if exchanging and not setup.exchange_strongest[seat] and setup.exchange_count[seat]
        ]
        held = setup.titles
        if exchanging and held is not None:
            order = sorted(range(len(state.counts)), key=lambda s: titles.index(held[s]))
        else:
            order = sorted(range(len(state.counts)), key=lambda s: self.player_of[s])
        for seat in order:
            # The higher titles see the cards they just received; the lower ones the hand
            # they were dealt (as the reference server shows them).
            cards = self.state.hands[seat] if seat in choosers else shown[seat]
            table = self.rows(seat, cards)
            table[5][0] = 1
            table[5][1] = setup.exchange_count[seat] if seat in choosers else 0
            self.tp.send(table, [self.player_of[seat]])
        for seat in sorted(choosers, key=lambda s: -setup.exchange_count[s]):
            self.give_back(seat, setup.exchange_count[seat])

    def give_back(self, seat: int, count: int) -> None:
        player = self.player_of[seat]
        conn = self.tp.conns[player]
        hand = self.state.hands[seat]
        chosen = 0
        if conn is not None:
            try:
                chosen, _as = table_to_cards(conn.recv_table())
            except BotGone as error:
                self.tp.drop(player, str(error))
            except EngineError as error:
                log.info("%s sent a malformed exchange table: %s", conn.name, error)
        if chosen and self.submit(Move.give(seat, chosen)):
            return
        log.info(
            "table %s: %s's give-back is invalid; it gives its weakest cards",
            self.tp.table.number,
            self.tp.names[player],
        )
        # As the reference server: the weakest cards of a program whose choice is invalid.
        self.force(Move.give(seat, lowest_cards(hand, count)))

    def turn(self) -> None:
        """One turn: hands to all, the play of the program whose turn it is, its answer, the
        table's cards to all."""
        before = self.state
        seats = range(len(before.counts))
        for seat in seats:
            table = self.rows(seat, before.hands[seat])
            self.tp.send(table, [self.player_of[seat]])
        seat = before.turn
        player = self.player_of[seat]
        conn = self.tp.conns[player]
        answer: int | None = None
        if conn is None:
            self.force(weakest_play(before, seat))
        else:
            answer = self.play_from(conn, seat)
        if answer is not None:
            self.tp.send(answer, [player])
        # After a pass the programs see the cards they passed on (the reference server sends
        # the table before it clears a trick that every other player passed on).
        shown = before if self.last is not None and self.last.is_pass else self.state
        combo = shown.table
        field_table = (
            cards_to_table(combo.cards, as_cards=combo.as_cards, reversed_order=shown.reversed)
            if combo is not None
            else cards_to_table(0)
        )
        self.tp.send(field_table)

    def play_from(self, conn: Connection, seat: int) -> int | None:
        """Read the program's play and record it; its answer (None when the program is gone)."""
        player = self.player_of[seat]
        try:
            sent = conn.recv_table()
        except BotGone as error:
            # Too slow or gone: the program loses its connection, and its seat is played by
            # the bridge from this turn on (docs/bots.md).
            self.tp.drop(player, str(error))
            self.force(weakest_play(self.state, seat))
            return None
        try:
            cards, as_cards = table_to_cards(sent)
        except EngineError as error:
            log.info("%s sent a malformed play: %s", conn.name, error)
            cards, as_cards = -1, 0
        if cards > 0 and self.submit(Move.play(seat, cards, as_=as_cards)):
            return ACCEPT
        self.pass_or_weakest(seat)
        return REJECT

    def pass_or_weakest(self, seat: int) -> None:
        passing = Move.pass_turn(seat)
        if is_legal(self.state, passing):
            self.force(passing)
            return
        move = weakest_play(self.state, seat)
        log.warning(
            "table %s: %s may not pass here; the bridge plays %s",
            self.tp.table.number,
            self.tp.names[self.player_of[seat]],
            move,
        )
        self.force(move)


def play_game(tp: TablePlay, game: Game) -> None:
    """Play `game` (just started) to its end with the table's programs."""
    positions = positions_of(game)
    player_of = [p - 1 for p in positions]
    gp = GamePlay(
        tp,
        game,
        current_state(game),
        game.last_seq,
        player_of,
    )
    gp.exchange()
    while not gp.state.is_over:
        gp.turn()
        if not gp.state.is_over:
            tp.send(GAME_CONTINUE)


# --- the tournament ------------------------------------------------------------------------------


# Why a table has no next game that the bridge may start.
TABLE_DONE = ("round_complete", "match_over")


@dataclass
class Bridge:
    tournament: Tournament
    lobby: Lobby
    organiser: User
    referee: User
    confirmer: User
    refused_tables: set[int] = field(default_factory=set)
    finished_rounds: set[int] = field(default_factory=set)

    @classmethod
    def for_tournament(cls, tournament: Tournament, lobby: Lobby) -> Bridge:
        """The bridge's two officials (referee: records; confirmer: confirms), added by one of
        the tournament's organisers."""
        organiser = Official.objects.filter(
            tournament=tournament, role=Official.Role.ORGANISER
        ).first()
        if organiser is None:
            raise GameError(
                "no_organiser",
                "The tournament has no organiser to appoint the bridge's officials.",
                "ブリッジの審判を任命できる主催者がいません",
            )
        referee, confirmer = system_user(BRIDGE_USER), system_user(CONFIRMER)
        for user in (referee, confirmer):
            tournament_services.add_official(
                tournament, organiser.user, user, Official.Role.REFEREE
            )
        return cls(tournament, lobby, organiser.user, referee, confirmer)

    def bot_names(self) -> frozenset[str]:
        return frozenset(
            self.tournament.entries.exclude(player__bot_name="").values_list(
                "player__bot_name", flat=True
            )
        )

    def step(self) -> None:
        """Play every table of the open rounds that is ready; mark rounds whose tables are
        all played."""
        self.lobby.known = self.bot_names()
        rounds = Round.objects.filter(
            stage__tournament=self.tournament, status__in=Round.OPEN
        ).order_by("stage__order", "number")
        for round_ in rounds:
            tables = list(round_.tables.order_by("number"))
            for table in tables:
                found = next_game_or_refusal(table)
                if not isinstance(found, GameError):
                    self.try_table(table)
                elif found.code not in TABLE_DONE:
                    self.refuse(table, f"has no game to start ({found.code}): {found.message_en}")
            played = all(self.table_done(t) for t in tables)
            if played and round_.pk not in self.finished_rounds:
                log.info("round %s: every table is played", round_.number)
                self.finished_rounds.add(round_.pk)

    @staticmethod
    def table_done(table: TournamentTable) -> bool:
        found = next_game_or_refusal(table)
        return isinstance(found, GameError) and found.code in TABLE_DONE

    def refuse(self, table: TournamentTable, why: str) -> None:
        """Say once in the log why the bridge leaves a table alone."""
        if table.pk not in self.refused_tables:
            log.warning("table %s of round %s %s", table.number, table.round.number, why)
            self.refused_tables.add(table.pk)

    def try_table(self, table: TournamentTable) -> None:
        seats = list(Seat.objects.filter(table=table).select_related("entry__player"))
        names = [s.entry.player.bot_name for s in sorted(seats, key=lambda s: s.position)]
        if not all(names):
            self.refuse(
                table,
                "seats people: the bridge plays only tables whose seats are all bots "
                "(play it from the referee console)",
            )
            return
        if not self.lobby.has(names):
            return
        self.play_table(table, names)

    def play_table(self, table: TournamentTable, names: list[str]) -> None:
        if table.referee_id != self.referee.pk:
            tournament_services.assign_referee(table, self.organiser, self.referee)
        tp = TablePlay(
            table, names, [self.lobby.take(n) for n in names], self.referee, self.confirmer,
            self.lobby,
        )  # fmt: skip
        log.info("table %s of round %s: %s", table.number, table.round.number, ", ".join(names))
        for player in range(len(names)):
            tp.send(player, [player])
        try:
            while True:
                if isinstance(next_game_or_refusal(table), GameError):
                    break
                tp.rejoin()
                game = start_game(table, self.referee)
                play_game(tp, game)
                game.refresh_from_db()
                confirm_game(game, self.confirmer)
                last = isinstance(next_game_or_refusal(table), GameError)
                tp.send(ALL_GAMES_END if last else GAME_END)
                log.info(
                    "table %s: set %s game %s over", table.number, game.set_number, game.game_number
                )
        except (TableStopped, GameError) as error:
            # The round or the game changed under the bridge (an official's ruling, the round
            # completed): the programs are let go; the table is tried again at the next look.
            log.warning("table %s: stopped (%s); its programs are let go", table.number, error)
        finally:
            for conn in tp.conns:
                if conn is not None:
                    conn.close()

    def run(
        self, *, rounds: int | None = None, poll: float = 0.3, stop: threading.Event | None = None
    ) -> None:
        stop = stop or threading.Event()
        while not stop.is_set():
            close_old_connections()
            self.step()
            if rounds is not None and len(self.finished_rounds) >= rounds:
                return
            time.sleep(poll)


def require_expressible(tournament: Tournament) -> None:
    """Refuse a ruleset the protocol cannot carry: UECda's tables hold 大富豪 hands with one
    joker (``[4][1]``) and the counts of up to 5 players (row 6)."""
    rules = check_ruleset(tournament.ruleset_id, tournament.ruleset_version)
    jokers = int(tournament.ruleset_overrides.get("jokers", rules.jokers))
    if rules.family != "daifugo" or jokers > 1 or tournament.plays_in_teams:
        raise GameError(
            "uecda_rules_unsupported",
            f"UECda programs play 大富豪 with one joker; {rules.key} cannot be told over the "
            "protocol.",
            f"UECdaのプログラムはジョーカー1枚の大富豪のみ対応です。{rules.key} は扱えません。",
        )


def serve(
    tournament: Tournament,
    *,
    host: str = "127.0.0.1",
    port: int = 42485,
    rounds: int | None = None,
    timeout: float = 10.0,
    stop: threading.Event | None = None,
    ready: queue.Queue[int] | None = None,
) -> None:
    """Listen on `host`:`port` and play the tournament's bot tables until `rounds` rounds are
    played (None: until stopped). `ready` receives the port listened on (for port 0)."""
    require_expressible(tournament)
    stop = stop or threading.Event()
    lobby = Lobby(timeout)
    bridge = Bridge.for_tournament(tournament, lobby)
    lobby.known = bridge.bot_names()
    server = listen(host, port)
    bound = server.getsockname()[1]
    log.info("listening on %s:%s for %s", host, bound, tournament.slug)
    if ready is not None:
        ready.put(bound)
    listener = threading.Thread(target=accept_forever, args=(server, lobby, stop), daemon=True)
    listener.start()
    try:
        bridge.run(rounds=rounds, stop=stop)
    finally:
        stop.set()
        server.close()
        listener.join(timeout=2)
        lobby.close_all()
