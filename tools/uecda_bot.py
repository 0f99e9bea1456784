"""A simple UECda client program: connects, plays every game it is dealt, exits.

    python tools/uecda_bot.py --host 127.0.0.1 --port 42485 --name bot1

It follows the C kit's client loop (and yagays/uecda_python's client) and knows only what the
protocol tells it: its hand, the state rows and the table's cards. Its strategy: lead the
weakest rank it holds (all its cards of that rank: a single, a pair…), follow a set with the
weakest set of as many cards that beats it (the suits of a lock kept), pass on stairs and
when nothing beats the table; give back its weakest cards in the exchange. Standard library
plus the engine's codec `games.engine.uecda` and card helpers (no Django).
"""

from __future__ import annotations

import argparse
import socket
import sys
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.engine.cards import lowest_cards
from games.engine.uecda import (
    MESSAGE_BYTES,
    Table,
    cards_to_table,
    from_bytes,
    profile,
    table_to_cards,
    to_bytes,
)

JOKER = 1 << 52
NUMBERS = (1 << 52) - 1


def recv_exact(sock: socket.socket, size: int) -> bytes:
    data = b""
    while len(data) < size:
        chunk = sock.recv(size - len(data))
        if not chunk:
            raise ConnectionError("the server closed the connection")
        data += chunk
    return data


def recv_table(sock: socket.socket) -> Table:
    return from_bytes(recv_exact(sock, MESSAGE_BYTES))


def recv_int(sock: socket.socket) -> int:
    return int.from_bytes(recv_exact(sock, 4), "big", signed=True)


def send_table(sock: socket.socket, table: Table) -> None:
    sock.sendall(to_bytes(table))


def ranks(cards: int) -> dict[int, int]:
    """Number cards by rank (0 = 3 … 12 = 2), each a mask."""
    found: dict[int, int] = {}
    for card in range(52):
        if cards >> card & 1:
            found[card >> 2] = found.get(card >> 2, 0) | 1 << card
    return found


def suits_of(cards: int) -> set[int]:
    return {card & 3 for card in range(52) if cards >> card & 1}


def weakest_first(hand: int, reversed_order: bool) -> list[int]:
    return sorted(ranks(hand), reverse=reversed_order)


def lead(hand: int, reversed_order: bool) -> int:
    """All the cards of the weakest rank held; the joker alone when it is all that is left."""
    order = weakest_first(hand, reversed_order)
    if not order:
        return hand & JOKER
    return ranks(hand)[order[0]]


def follow(hand: int, field: int, as_cards: int, reversed_order: bool, locked: bool) -> int:
    """The weakest set of as many cards as the table's that beats it, or 0 (a pass)."""
    if not field & NUMBERS:
        return 0  # a lone joker: only the ♠3 beats it, and this bot keeps it simple
    nat = field & NUMBERS
    field_ranks = set(ranks(nat)) | set(ranks(as_cards))
    if len(field_ranks) != 1:
        return 0  # stairs
    size = field.bit_count()
    table_rank = field_ranks.pop()
    lock = suits_of(nat) | suits_of(as_cards)
    for rank in weakest_first(hand, reversed_order):
        beats = rank < table_rank if reversed_order else rank > table_rank
        if not beats:
            continue
        held = ranks(hand)[rank]
        if locked:
            wanted = sum(1 << (rank * 4 + s) for s in lock)
            if held & wanted == wanted and len(lock) == size:
                return wanted
            continue
        if held.bit_count() >= size:
            chosen = 0
            for card in range(52):
                if held >> card & 1 and chosen.bit_count() < size:
                    chosen |= 1 << card
            return chosen
    if size == 1 and hand & JOKER:
        return JOKER
    return 0


Chooser = Callable[[int, Table, int, int], int]
"""(hand, the hand's message, the table's cards, what its joker stands for) → the play."""


def choose(hand: int, mine: Table, field: int, field_as: int) -> int:
    reversed_order = bool(mine[5][5]) != bool(mine[5][6])
    if mine[5][4]:
        return lead(hand, reversed_order)
    return follow(hand, field, field_as, reversed_order, bool(mine[5][7]))


def play(sock: socket.socket, chooser: Chooser = choose) -> list[int]:
    """The client's loop: games until the server says every game has ended. Returns the
    server's answers to its plays (9 accepted, 8 refused or a pass)."""
    answers: list[int] = []
    field, field_as = 0, 0
    while True:
        dealt = recv_table(sock)
        hand, _ = table_to_cards(dealt)
        if dealt[5][0] != 1:
            raise ConnectionError("expected the hand of a new game")
        if 0 < dealt[5][1] < 100:
            send_table(sock, cards_to_table(lowest_cards(hand, dealt[5][1]), hand=True))
        while True:
            mine = recv_table(sock)
            hand, _ = table_to_cards(mine)
            if mine[5][2] == 1:
                cards = chooser(hand, mine, field, field_as)
                reversed_order = bool(mine[5][5]) != bool(mine[5][6])
                send_table(sock, cards_to_table(cards, reversed_order=reversed_order))
                answers.append(recv_int(sock))
            field, field_as = table_to_cards(recv_table(sock))
            ended = recv_int(sock)
            if ended == 1:
                break
            if ended == 2:
                return answers


def connect_and_play(host: str, port: int, name: str, chooser: Chooser = choose) -> list[int]:
    """Handshake as `name`, then play; the server's answers to the plays."""
    with socket.create_connection((host, port)) as sock:
        send_table(sock, profile(name))
        number = recv_int(sock)
        print(f"{name}: player {number}", flush=True)
        return play(sock, chooser)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=42485)
    parser.add_argument("--name", default="kakumei-bot", help="1–14 ASCII characters")
    args = parser.parse_args()
    connect_and_play(args.host, args.port, args.name)
    print(f"{args.name}: every game ended", flush=True)


if __name__ == "__main__":
    main()
