"""The UECda 8×15 card table (REFERENCE §4.1 rule 19), for bot interop.

Every UECda protocol message is ``int table[8][15]``.  Rows 0–3 are the suits
♠ ♥ ♦ ♣ (the engine's suit order ``S H D C``), columns 1–13 the ranks 3 … 2;
columns 0 and 14 are virtual positions below 3 and above 2, used only for a
joker (a played lone joker, or one beyond the ends of stairs).  A cell is 1 for a
real card, 2 for the joker standing at that position.

* A **hand** marks its joker as ``table[4][1] = 2``.
* A **played lone joker** is a 2 at ``[row][14]`` in normal order or ``[row][0]``
  in reversed order (row 0 here; a reader accepts any row).
* A **set with the joker** (e.g. a quintuple ``9S 9H 9D 9C JK``) whose joker stands
  for no particular suit sets ``table[4][rank] = 2``; with a known suit (``as``)
  the 2 is in that suit's row.
* A joker **in stairs** is a 2 in the stairs' row at the rank it stands for; under
  ``joker_beyond_ends`` (REFERENCE §4.1 rule 13a) also at column 0 (below the 3,
  ``as`` ``-S`` …) or 14 (above the 2, ``+S`` …).  A 2 at column 0 or 14 is read as
  such a joker when the table holds number cards, as a lone joker otherwise.

Rows 5 and 6 carry the game state (row 5: exchange phase, cards to give back,
your turn, whose turn, table empty, 11-back, revolution, lock; row 6: card counts,
titles, seating); :func:`state_rows` fills them from a :class:`State`.

>>> from games.engine.cards import card_names, format_cards, parse_cards, parse_joker_targets
>>> t = cards_to_table(parse_cards("5H 7H JK"), as_cards=parse_cards("6H"))
>>> t[1][3], t[1][4], t[1][5]
(1, 2, 1)
>>> format_cards(table_to_cards(t)[0]), format_cards(table_to_cards(t)[1])
('5H 7H JK', '6H')
>>> t = cards_to_table(parse_cards("AH 2H JK"), as_cards=parse_joker_targets("+H"))
>>> t[1][12], t[1][13], t[1][14]
(1, 1, 2)
>>> card_names(table_to_cards(t)[1])
['+H']
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from .cards import ABOVE_2, BELOW_3, JOKER, JOKERS, NUMBERS, CardSet
from .core import PHASE_EXCHANGE, PHASE_PLAY, TITLES, State
from .errors import EngineError

ROWS: Final = 8
COLUMNS: Final = 15
PROTOCOL_VERSION: Final = 20070
MESSAGE_BYTES: Final = ROWS * COLUMNS * 4
"""One message on the wire: 120 big-endian 32-bit cells."""
JOKER_ROW: Final = 4
"""Row of a hand's joker (``[4][1]``) and of a set's suitless joker (``[4][rank]``)."""

Table = list[list[int]]


def empty_table() -> Table:
    return [[0] * COLUMNS for _ in range(ROWS)]


def _bad(message: str) -> EngineError:
    return EngineError(message, code="invalid_card_table")


def cards_to_table(
    cards: CardSet,
    *,
    as_cards: CardSet = 0,
    hand: bool = False,
    reversed_order: bool = False,
) -> Table:
    """Rows 0–4 of a message for ``cards``: a hand (``hand=True``) or a play.

    ``as_cards`` is what the joker stands for (stairs, or a set's suit).  A play of
    the joker with number cards but no ``as`` is a set: the 2 goes to ``[4][rank]``.
    """
    if cards.bit_count() > 14 and not hand:
        raise _bad("a play has at most 14 cards")
    if (cards & JOKERS).bit_count() > 1:
        raise _bad("UECda has one joker")
    table = empty_table()
    nat = cards & NUMBERS
    for card in range(52):
        if nat >> card & 1:
            table[card & 3][(card >> 2) + 1] = 1
    if not cards & JOKERS:
        return table
    if hand:
        table[JOKER_ROW][1] = 2
    elif as_cards:
        card = (as_cards & -as_cards).bit_length() - 1
        if card >= ABOVE_2:
            table[card - ABOVE_2][COLUMNS - 1] = 2
        elif card >= BELOW_3:
            table[card - BELOW_3][0] = 2
        else:
            table[card & 3][(card >> 2) + 1] = 2
    elif not nat:
        table[0][0 if reversed_order else 14] = 2
    else:
        rank = ((nat & -nat).bit_length() - 1) >> 2
        table[JOKER_ROW][rank + 1] = 2
    return table


def table_to_cards(table: Sequence[Sequence[int]]) -> tuple[CardSet, CardSet]:
    """``(cards, as_cards)`` of rows 0–4 (a hand or a play); raises on a malformed table."""
    if len(table) < 5 or any(len(row) != COLUMNS for row in table[:5]):
        raise _bad(f"expected at least 5 rows of {COLUMNS} cells")
    cards = 0
    as_cards = 0
    beyond = 0
    jokers = 0
    for row in range(4):
        for col in range(COLUMNS):
            value = table[row][col]
            if value == 0:
                continue
            if value not in (1, 2):
                raise _bad(f"cell [{row}][{col}] is {value!r}")
            if value == 1:
                if col in (0, 14):
                    raise _bad(f"cell [{row}][{col}] is a virtual position")
                cards |= 1 << ((col - 1) * 4 + row)
            else:
                jokers += 1
                if col == 0:
                    beyond = 1 << (BELOW_3 + row)
                elif col == COLUMNS - 1:
                    beyond = 1 << (ABOVE_2 + row)
                else:
                    as_cards |= 1 << ((col - 1) * 4 + row)
    for col in range(COLUMNS):
        value = table[JOKER_ROW][col]
        if value not in (0, 2):
            raise _bad(f"cell [{JOKER_ROW}][{col}] is {value!r}")
        if value:
            jokers += 1
    if jokers > 1:
        raise _bad("UECda has one joker")
    if jokers:
        cards |= 1 << JOKER
    if cards & NUMBERS:
        # Beside number cards a joker at column 0 or 14 stands beyond the ends of stairs.
        as_cards |= beyond
    return cards, as_cards


def state_rows(
    state: State, viewer: int, players: Sequence[int] | None = None
) -> tuple[list[int], list[int]]:
    """Rows 5 and 6 for ``viewer`` (an engine seat).

    ``players[s]`` is the protocol's player number of engine seat ``s`` (the identity when
    None): whose turn it is (``[5][3]``), the counts and titles (``[6][0..9]``) are by player
    number, and ``[6][10 + s]`` names the player sitting at seat ``s``, as the C kit reads it.
    Row 6 titles are 0 = 大富豪 … 4 = 大貧民; without previous titles every player gets the same
    title (the protocol's first-game signal).
    """
    seats = len(state.counts)
    who = list(range(seats)) if players is None else list(players)
    setup = state.setup
    row5 = [0] * COLUMNS
    row5[0] = int(state.phase == PHASE_EXCHANGE)
    if (
        state.phase == PHASE_EXCHANGE
        and setup.rules.exchange_order == "lower_first"
        and not setup.exchange_strongest[viewer]
        and state.gives[viewer] == -1
    ):
        row5[1] = setup.exchange_count[viewer]
    playing = state.phase == PHASE_PLAY
    row5[2] = int(playing and state.turn == viewer)
    row5[3] = who[state.turn] if playing else -1
    row5[4] = int(state.table is None)
    row5[5] = int(state.reversed != state.revolution)  # effective = [5][5] XOR [5][6]
    row5[6] = int(state.revolution)
    row5[7] = int(bool(state.lock))
    row6 = [0] * COLUMNS
    titles = TITLES.get(seats, ())
    for seat in range(min(seats, 5)):
        player = who[seat]
        row6[player] = state.counts[seat]
        title = setup.titles[seat] if setup.titles is not None else None
        row6[5 + player] = titles.index(title) if title in titles else 0
        row6[10 + seat] = player
    return row5, row6


def message(
    state: State,
    viewer: int,
    cards: CardSet,
    *,
    as_cards: CardSet = 0,
    hand: bool = True,
    players: Sequence[int] | None = None,
) -> Table:
    """A full 8×15 message: ``cards`` in rows 0–4 plus the state rows (``players``: see
    :func:`state_rows`)."""
    table = cards_to_table(cards, as_cards=as_cards, hand=hand, reversed_order=state.reversed)
    table[5], table[6] = state_rows(state, viewer, players)
    return table


def profile(name: str) -> Table:
    """A client's first message: ``[0][0]`` the protocol version, row 1 its name as ASCII
    codes (14 at most)."""
    table = empty_table()
    table[0][0] = PROTOCOL_VERSION
    for column, code in enumerate(name.encode("ascii")[:14]):
        table[1][column] = code
    return table


def profile_name(table: Sequence[Sequence[int]]) -> str:
    """The name in a profile's row 1, up to the first 0 (14 at most; "?" for a code that is
    not printable ASCII)."""
    chars = []
    for code in table[1][:14]:
        if code == 0:
            break
        chars.append(chr(code) if 32 < code < 127 else "?")
    return "".join(chars)


def to_bytes(table: Sequence[Sequence[int]]) -> bytes:
    """The 480-byte wire form: 120 big-endian signed 32-bit cells, row by row."""
    if len(table) != ROWS or any(len(row) != COLUMNS for row in table):
        raise _bad(f"expected {ROWS}×{COLUMNS} cells")
    return b"".join(v.to_bytes(4, "big", signed=True) for row in table for v in row)


def from_bytes(data: bytes) -> Table:
    """Inverse of :func:`to_bytes`."""
    if len(data) != MESSAGE_BYTES:
        raise _bad(f"expected {MESSAGE_BYTES} bytes, got {len(data)}")
    cells = [int.from_bytes(data[i : i + 4], "big", signed=True) for i in range(0, len(data), 4)]
    return [cells[r * COLUMNS : (r + 1) * COLUMNS] for r in range(ROWS)]
