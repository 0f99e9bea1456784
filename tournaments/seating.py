"""Seat draws and re-seating (席決め): pure functions over plain dataclasses, no Django.

A *draw* splits the entrants of a round into tables and orders each table's seats.

- **First round** (`random_draw`): a seeded random draw (抽選). The same seed gives the same draw,
  so a draw can be re-derived and audited.
- **Later rounds** (`score_draw`): entrants are sorted by total points (ties by a seeded lot) and
  cut into consecutive *bands*, one band per table, so players of similar totals meet (JDF's
  "best score" rounds). A deterministic local search then swaps players between tables of
  neighbouring bands whenever that lowers the cost (`COST_*` weights below):

  - a repeat table-mate (two players who already met in an earlier round) costs `COST_REPEAT`
    per earlier meeting, the dominant term, as in Pantheon's swiss seating;
  - moving a player `k` bands away from their own band costs `COST_BAND * k`; swaps are only
    tried between tables at most `BAND_WINDOW` bands apart, so totals stay close;
  - each table's seat order is then chosen among all permutations to minimise seat-position
    repeats (a player who sat at seat 1 twice should not sit there again), as Tabbycat's BP
    assignment balances the four positions; each earlier sitting at the same seat costs
    `COST_SEAT`.

Table sizes (`table_layout`, `table_sizes`): tables hold `table_size` players. When the count
does not divide, the tournament's *uneven-tables policy* decides (a 3-player game is the
smallest Daifugo game, a 5-player game the largest):

- ``short`` — some tables of `table_size - 1` (tables of 3 at size 4): 22 players → 4 tables
  of 4 + 2 tables of 3. When that is impossible (5 players at size 4; any uneven count at size
  3) the remainder sits out with byes, and the layout says so;
- ``long`` — some tables of `table_size + 1` (tables of 5 at size 4): 18 players → 2 tables of
  5 + 2 tables of 4. When that is impossible (6, 7 or 11 players at size 4: too few full
  tables to take the extra players; any uneven count at size 5) the nearest valid layout is
  used instead — tables one short, else byes — and the layout says so;
- ``byes`` — full tables only; the remainder sits out with a bye (scoring the tournament's
  `bye_points`). Fewer players than one full table play one short table.

Larger tables come first (top bands). Byes go to the players with the fewest earlier byes, then
the lowest totals, then by lot, so they rotate.

Every table carries a human-readable explanation of why it was formed; `check_draw` verifies any
draw (ours, hand-made or imported) against the constraints.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

MIN_TABLE = 3  # the smallest table a Daifugo game is played at
MAX_TABLE = 5  # the largest (five seats: 大富豪 富豪 平民 貧民 大貧民)
SHORT, LONG, BYES = "short", "long", "byes"  # uneven-tables policies (Tournament.UnevenTables)
POLICIES = (SHORT, LONG, BYES)
COST_REPEAT = 100
COST_BAND = 4
COST_SEAT = 1
BAND_WINDOW = 2
MAX_PASSES = 20
KICKS = 30  # random restarts from the best draw when repeat pairings remain


@dataclass(frozen=True, slots=True)
class Entrant:
    """One player to seat: an id (the entry's primary key), a label for explanations, a total."""

    id: int
    label: str
    total: float = 0


@dataclass(frozen=True, slots=True)
class PastTable:
    """A table of an earlier round: the entrant ids in seat order (index 0 is seat 1)."""

    round_label: str
    seats: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class History:
    """What earlier rounds tell the draw: who sat with whom, at which seat, and who had byes."""

    tables: tuple[PastTable, ...] = ()
    byes: tuple[int, ...] = ()

    def meetings(self) -> dict[frozenset[int], list[str]]:
        """Every pair that shared a table, with the rounds in which they did."""
        met: dict[frozenset[int], list[str]] = {}
        for table in self.tables:
            for a, b in itertools.combinations(table.seats, 2):
                met.setdefault(frozenset((a, b)), []).append(table.round_label)
        return met

    def seat_counts(self) -> dict[int, Counter[int]]:
        """For each entrant, how often they sat at each seat position (1-based)."""
        counts: dict[int, Counter[int]] = {}
        for table in self.tables:
            for position, entrant in enumerate(table.seats, start=1):
                counts.setdefault(entrant, Counter())[position] += 1
        return counts


@dataclass(frozen=True, slots=True)
class DrawnTable:
    number: int
    seats: tuple[int, ...]  # entrant ids in seat order
    explanation: str = ""


@dataclass(frozen=True, slots=True)
class Draw:
    tables: tuple[DrawnTable, ...]
    byes: tuple[int, ...] = ()
    method: str = ""


@dataclass(frozen=True, slots=True)
class Constraints:
    """What a valid draw must satisfy."""

    entrant_ids: frozenset[int]
    table_size: int = 4
    policy: str = SHORT


@dataclass(frozen=True, slots=True)
class Violation:
    code: str
    message: str


@dataclass(frozen=True, slots=True)
class Metrics:
    """How good a draw is against a history (lower is better)."""

    repeat_pairs: int  # table-mate pairs who met before (counted once per earlier meeting)
    seat_repeats: int  # sum over players of earlier sittings at the seat they now get
    band_deviation: int = 0  # sum over players of how many bands they moved from their own

    @property
    def cost(self) -> int:
        return (
            COST_REPEAT * self.repeat_pairs
            + COST_SEAT * self.seat_repeats
            + COST_BAND * self.band_deviation
        )


class SeatingError(ValueError):
    """The draw cannot be made (too few players); the organiser's to fix."""


def _plural(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


@dataclass(frozen=True, slots=True)
class Layout:
    """How many tables of which size, and how many byes, for a count of players.

    `policy` is the policy asked for, `applied` the one the layout follows (they differ when
    the asked-for policy cannot seat the count; `note` then says why)."""

    count: int
    table_size: int
    policy: str
    sizes: tuple[int, ...]  # largest first
    byes: int
    applied: str
    note_en: str = ""
    note_ja: str = ""

    @property
    def tables(self) -> int:
        return len(self.sizes)

    def groups(self) -> list[tuple[int, int]]:
        """(how many tables, seats) per table size, largest first."""
        counts = Counter(self.sizes)
        return [(counts[size], size) for size in sorted(counts, reverse=True)]

    @property
    def summary_en(self) -> str:
        """E.g. "22 players → 4 tables of 4 + 2 tables of 3"."""
        parts = [_plural(n, f"table of {size}", f"tables of {size}") for n, size in self.groups()]
        if self.byes:
            parts.append(_plural(self.byes, "bye", "byes"))
        return f"{_plural(self.count, 'player', 'players')} → {' + '.join(parts)}"

    @property
    def summary_ja(self) -> str:
        parts = [f"{size}人卓 {n}卓" for n, size in self.groups()]
        if self.byes:
            parts.append(f"不戦 {self.byes}名")
        return f"{self.count}名 → {' + '.join(parts)}"


def _short_sizes(count: int, size: int) -> list[int] | None:
    tables = -(-count // size)
    short = tables * size - count
    if size - 1 >= MIN_TABLE and short <= tables:
        return [size] * (tables - short) + [size - 1] * short
    return None


def _long_sizes(count: int, size: int) -> list[int] | None:
    full, extra = divmod(count, size)
    if size + 1 <= MAX_TABLE and full >= 1 and extra <= full:
        return [size + 1] * extra + [size] * (full - extra)
    return None


def table_layout(count: int, table_size: int, policy: str) -> Layout:
    """The tables and byes for `count` players at tables of `table_size` under `policy`
    (see the module docstring); raises `SeatingError` when no table can be formed."""
    if not 3 <= table_size <= 5:
        raise SeatingError(f"table size must be 3 to 5, not {table_size}")
    if policy not in POLICIES:
        raise SeatingError(f"unknown uneven-tables policy {policy!r}")
    if count < MIN_TABLE:
        raise SeatingError(f"at least {MIN_TABLE} players are needed for a table, not {count}")

    def layout(sizes: list[int], byes: int, applied: str, en: str = "", ja: str = "") -> Layout:
        return Layout(count, table_size, policy, tuple(sizes), byes, applied, en, ja)

    full, rest = divmod(count, table_size)
    if rest == 0:
        return layout([table_size] * full, 0, policy)
    players = _plural(count, "player", "players")
    if policy == LONG:
        sizes = _long_sizes(count, table_size)
        if sizes is not None:
            return layout(sizes, 0, LONG)
        why_en = f"Tables of {table_size + 1} cannot seat {players}" + (
            f" ({table_size + 1} seats is more than a game allows)"
            if table_size + 1 > MAX_TABLE
            else f" ({rest} left over, only {_plural(full, 'full table', 'full tables')})"
        )
        why_ja = f"{table_size + 1}人卓では{count}名を座らせられません"
        sizes = _short_sizes(count, table_size)
        if sizes is not None:
            return layout(
                sizes,
                0,
                SHORT,
                f"{why_en}: tables of {table_size - 1} are used instead.",
                f"{why_ja}。代わりに{table_size - 1}人卓を使います。",
            )
        if full == 0:
            return layout(
                [count],
                0,
                SHORT,
                f"{why_en}: one table of {count} is used instead.",
                f"{why_ja}。{count}人卓1卓で行います。",
            )
        return layout(
            [table_size] * full,
            rest,
            BYES,
            f"{why_en}: the players left over have byes instead.",
            f"{why_ja}。余った人は不戦になります。",
        )
    if policy == SHORT:
        sizes = _short_sizes(count, table_size)
        if sizes is not None:
            return layout(sizes, 0, SHORT)
        if full == 0:  # fewer than one table of table_size - 1 would need: one short table
            return layout([count], 0, SHORT)
        return layout(
            [table_size] * full,
            rest,
            BYES,
            f"Tables of {table_size - 1} cannot seat {players}"
            + (
                " (a game needs 3 players)"
                if table_size - 1 < MIN_TABLE
                else f" ({_plural(full + 1, 'table needs', 'tables need')} at least "
                f"{(full + 1) * (table_size - 1)})"
            )
            + ": the players left over have byes instead.",
            f"{table_size - 1}人卓では{count}名を座らせられません。余った人は不戦になります。",
        )
    # BYES
    if full == 0:
        return layout(
            [count],
            0,
            SHORT,
            f"{players} cannot fill a table of {table_size}: one table of {count} is used "
            "instead of byes for everyone.",
            f"{count}名では{table_size}人卓が埋まりません。{count}人卓1卓で行います。",
        )
    return layout([table_size] * full, rest, BYES)


def policy_table_sizes(table_size: int, policy: str) -> tuple[int, ...]:
    """Every table size `policy` can produce at tables of `table_size` for a field of at least
    one full table (fallbacks included), largest first: what a points table must cover.

    >>> policy_table_sizes(4, "short"), policy_table_sizes(4, "long"), policy_table_sizes(4, "byes")
    ((4, 3), (5, 4, 3), (4,))
    """
    sizes: set[int] = set()
    for count in range(table_size, table_size * (table_size + 3)):
        sizes.update(table_layout(count, table_size, policy).sizes)
    return tuple(sorted(sizes, reverse=True))


def _size_note(layout: Layout, size: int) -> str:
    """Why a table is not of the tournament's size (and why the policy fell back, if it did)."""
    if size == layout.table_size and layout.applied == layout.policy:
        return ""
    note = ""
    if size != layout.table_size:
        note = (
            f" A table of {size}: {layout.count} players do not divide into tables of "
            f"{layout.table_size} ({layout.summary_en.split(' → ')[1]})."
        )
    if layout.applied != layout.policy:
        note += f" {layout.note_en}"
    return note


def table_sizes(count: int, table_size: int, policy: str) -> tuple[list[int], int]:
    """The table sizes (largest first) and the number of byes for `count` players."""
    layout = table_layout(count, table_size, policy)
    return list(layout.sizes), layout.byes


def _choose_byes(
    entrants: Sequence[Entrant], byes: int, history: History, rng: random.Random
) -> tuple[list[Entrant], list[Entrant]]:
    if byes == 0:
        return list(entrants), []
    earlier = Counter(history.byes)
    lots = {e.id: rng.random() for e in entrants}
    order = sorted(entrants, key=lambda e: (earlier[e.id], e.total, lots[e.id]))
    out = order[:byes]
    out_ids = {e.id for e in out}
    return [e for e in entrants if e.id not in out_ids], out


def _best_seat_order(
    members: Sequence[int], seat_counts: Mapping[int, Counter[int]]
) -> tuple[tuple[int, ...], int]:
    """The seat order with the fewest seat-position repeats (ties: the first in sorted order)."""
    best: tuple[int, ...] = tuple(members)
    best_cost = -1
    for order in itertools.permutations(sorted(members)):
        cost = sum(seat_counts.get(e, Counter())[pos] for pos, e in enumerate(order, start=1))
        if best_cost < 0 or cost < best_cost:
            best, best_cost = order, cost
            if cost == 0:
                break
    return best, best_cost


def random_draw(
    entrants: Sequence[Entrant],
    *,
    seed: str,
    table_size: int = 4,
    policy: str = SHORT,
    history: History | None = None,
) -> Draw:
    """A seeded random draw (the first round, and the baseline the optimised draw must beat)."""
    history = history or History()
    rng = random.Random(f"kakumei-seating/1/random/{seed}")
    layout = table_layout(len(entrants), table_size, policy)
    sizes, byes = layout.sizes, layout.byes
    pool = sorted(entrants, key=lambda e: e.id)
    playing, out = _choose_byes(pool, byes, history, rng)
    rng.shuffle(playing)
    tables: list[DrawnTable] = []
    start = 0
    for number, size in enumerate(sizes, start=1):
        members = tuple(e.id for e in playing[start : start + size])
        start += size
        tables.append(
            DrawnTable(
                number,
                members,
                f"Table {number}: random draw (抽選) by lot, seed {seed}."
                + _size_note(layout, size),
            )
        )
    return Draw(tuple(tables), tuple(sorted(e.id for e in out)), method="random")


@dataclass(slots=True)
class _Search:
    """Local search over swaps between tables; deterministic given `rng`."""

    tables: list[list[int]]
    # entrant id -> (first, last) band index holding their total: equal totals are
    # interchangeable, so moving within that range costs nothing.
    home: dict[int, tuple[int, int]]
    met: dict[frozenset[int], list[str]]
    rng: random.Random
    ranges: list[tuple[float, float]] = field(default_factory=list)

    def pair_cost(self, a: int, b: int) -> int:
        return len(self.met.get(frozenset((a, b)), ()))

    def mates_cost(self, player: int, others: Iterable[int]) -> int:
        return sum(self.pair_cost(player, o) for o in others if o != player)

    def band_cost(self, player: int, table: int) -> int:
        low, high = self.home[player]
        return low - table if table < low else table - high if table > high else 0

    def cost(self) -> int:
        total = 0
        for index, members in enumerate(self.tables):
            total += COST_REPEAT * sum(
                self.pair_cost(a, b) for a, b in itertools.combinations(members, 2)
            )
            total += COST_BAND * sum(self.band_cost(p, index) for p in members)
        return total

    def swap_delta(self, i: int, a: int, j: int, b: int) -> int:
        rest_i = [x for x in self.tables[i] if x != a]
        rest_j = [x for x in self.tables[j] if x != b]
        repeats = (
            self.mates_cost(b, rest_i)
            + self.mates_cost(a, rest_j)
            - self.mates_cost(a, rest_i)
            - self.mates_cost(b, rest_j)
        )
        band = (
            self.band_cost(b, i)
            + self.band_cost(a, j)
            - self.band_cost(a, i)
            - self.band_cost(b, j)
        )
        return COST_REPEAT * repeats + COST_BAND * band

    def neighbours(self, i: int) -> list[int]:
        """Tables within `BAND_WINDOW` bands of table i, or whose totals overlap its totals."""
        low, high = self.ranges[i]
        return [
            j
            for j, (lo, hi) in enumerate(self.ranges)
            if j != i and (abs(i - j) <= BAND_WINDOW or (lo <= high and low <= hi))
        ]

    def descend(self) -> None:
        """Best-improvement swaps until no swap lowers the cost."""
        for _ in range(MAX_PASSES):
            improved = False
            for i in range(len(self.tables)):
                # Only a table with a repeat pairing can gain from a swap; skip the rest cheaply.
                movers = [a for a in self.tables[i] if self.mates_cost(a, self.tables[i])]
                if not movers:
                    continue
                best: tuple[int, int, int, int] | None = None
                best_delta = 0
                for j in self.neighbours(i):
                    for a in movers:
                        for b in self.tables[j]:
                            delta = self.swap_delta(i, a, j, b)
                            if delta < best_delta:
                                best, best_delta = (i, a, j, b), delta
                if best is not None:
                    self.swap(*best)
                    improved = True
            if not improved:
                break

    def swap(self, i: int, a: int, j: int, b: int) -> None:
        self.tables[i] = [b if x == a else x for x in self.tables[i]]
        self.tables[j] = [a if x == b else x for x in self.tables[j]]

    def run(self) -> None:
        """Descend, then escape local minima with seeded random kicks, keeping the best."""
        self.descend()
        best_cost, best = self.cost(), [list(t) for t in self.tables]
        for _ in range(KICKS):
            if best_cost < COST_REPEAT:
                break  # no repeat pairing left: only band or seat polish could remain
            troubled = [
                i
                for i, members in enumerate(self.tables)
                if any(self.mates_cost(a, members) for a in members)
            ]
            if not troubled:
                break  # what is left is band deviation, which kicks cannot lower
            i = self.rng.choice(troubled)
            a = self.rng.choice([x for x in self.tables[i] if self.mates_cost(x, self.tables[i])])
            j = self.rng.choice(self.neighbours(i) or [i])
            if j == i:
                break
            self.swap(i, a, j, self.rng.choice(self.tables[j]))
            self.descend()
            cost = self.cost()
            if cost < best_cost:
                best_cost, best = cost, [list(t) for t in self.tables]
            else:
                self.tables = [list(t) for t in best]
        self.tables = best


def _fmt_total(value: float) -> str:
    return f"{value:g}"


def score_draw(
    entrants: Sequence[Entrant],
    *,
    seed: str,
    history: History,
    table_size: int = 4,
    policy: str = SHORT,
) -> Draw:
    """Re-seat by score band, then swap to avoid repeat table-mates and balance seat positions."""
    rng = random.Random(f"kakumei-seating/1/score/{seed}")
    layout = table_layout(len(entrants), table_size, policy)
    sizes, byes = layout.sizes, layout.byes
    pool = sorted(entrants, key=lambda e: e.id)
    playing, out = _choose_byes(pool, byes, history, rng)
    lots = {e.id: rng.random() for e in playing}
    ranked = sorted(playing, key=lambda e: (-e.total, lots[e.id]))
    by_id = {e.id: e for e in playing}
    labels = {e.id: e.label for e in entrants}

    tables: list[list[int]] = []
    start = 0
    for size in sizes:
        tables.append([e.id for e in ranked[start : start + size]])
        start += size
    initial = {p: index for index, members in enumerate(tables) for p in members}
    ranges = [(min(by_id[x].total for x in t), max(by_id[x].total for x in t)) for t in tables]
    home: dict[int, tuple[int, int]] = {}
    for p in by_id:
        holding = [i for i, (lo, hi) in enumerate(ranges) if lo <= by_id[p].total <= hi]
        home[p] = (min(holding), max(holding))

    met = history.meetings()
    search = _Search(tables=tables, home=home, met=met, rng=rng, ranges=ranges)
    search.run()

    def repeat_note(player: int, others: Iterable[int]) -> str:
        return ", ".join(
            f"{labels[player]} with {labels[o]} (round {', '.join(met[frozenset((player, o))])})"
            for o in others
            if o != player and frozenset((player, o)) in met
        )

    seat_counts = history.seat_counts()
    drawn: list[DrawnTable] = []
    for index, members in enumerate(search.tables):
        order, seat_cost = _best_seat_order(members, seat_counts)
        low, high = ranges[index]
        totals = _fmt_total(low) if low == high else f"{_fmt_total(low)}–{_fmt_total(high)}"
        parts = [f"Band {index + 1} (totals {totals}): players of similar totals"]
        band_members = [p for p, band in initial.items() if band == index]
        joined = [p for p in order if initial[p] != index]
        left = [p for p in band_members if p not in members]
        if joined or left:
            # Why: the repeat pairings the leavers had in this band, and the joiners in theirs.
            reasons = [repeat_note(p, band_members) for p in left] + [
                repeat_note(p, [q for q, band in initial.items() if band == initial[p]])
                for p in joined
            ]
            avoided = "; ".join(r for r in reasons if r)
            parts.append(
                f"swapped in {', '.join(f'{labels[p]} (band {initial[p] + 1})' for p in joined)}"
                f" for {', '.join(labels[p] for p in left)}"
                + (f" to avoid a repeat pairing: {avoided}" if avoided else "")
            )
        parts.extend(
            f"{labels[a]} and {labels[b]} meet again (met in round "
            f"{', '.join(met[frozenset((a, b))])}; no swap with a nearby band avoided it)"
            for a, b in itertools.combinations(order, 2)
            if frozenset((a, b)) in met
        )
        if seat_cost == 0:
            parts.append("seats ordered so nobody repeats an earlier seat position")
        else:
            parts.append(f"seats ordered with the fewest seat-position repeats ({seat_cost})")
        drawn.append(
            DrawnTable(index + 1, order, "; ".join(parts) + "." + _size_note(layout, len(order)))
        )
    return Draw(tuple(drawn), tuple(sorted(e.id for e in out)), method="score")


def measure(draw: Draw, history: History, home_band: Mapping[int, int] | None = None) -> Metrics:
    """Repeat pairings, seat-position repeats and (given each player's band) band deviation."""
    met = history.meetings()
    seat_counts = history.seat_counts()
    repeats = seats = band = 0
    for index, table in enumerate(draw.tables):
        for a, b in itertools.combinations(table.seats, 2):
            repeats += len(met.get(frozenset((a, b)), ()))
        for position, entrant in enumerate(table.seats, start=1):
            seats += seat_counts.get(entrant, Counter())[position]
            if home_band is not None and entrant in home_band:
                band += abs(index - home_band[entrant])
    return Metrics(repeat_pairs=repeats, seat_repeats=seats, band_deviation=band)


def check_draw(draw: Draw, constraints: Constraints) -> list[Violation]:
    """Every way `draw` breaks `constraints`: an empty list means the draw is valid."""
    violations: list[Violation] = []
    seen: Counter[int] = Counter()
    for table in draw.tables:
        seen.update(table.seats)
    seen.update(draw.byes)
    for entrant, times in sorted(seen.items()):
        if entrant not in constraints.entrant_ids:
            violations.append(Violation("unknown", f"{entrant} is not an entrant of this round"))
        if times > 1:
            violations.append(Violation("twice", f"{entrant} is placed {times} times"))
    for entrant in sorted(constraints.entrant_ids - set(seen)):
        violations.append(Violation("missing", f"{entrant} has neither a seat nor a bye"))

    numbers = [t.number for t in draw.tables]
    if numbers != list(range(1, len(numbers) + 1)):
        violations.append(Violation("numbering", f"tables are numbered {numbers}, not 1…n"))
    try:
        layout: Layout | None = table_layout(
            len(constraints.entrant_ids), constraints.table_size, constraints.policy
        )
    except SeatingError as error:
        layout = None
        violations.append(Violation("impossible", str(error)))
    largest = max(layout.sizes) if layout else constraints.table_size
    smallest = min(layout.sizes) if layout else MIN_TABLE
    for table in draw.tables:
        if len(table.seats) > largest:
            violations.append(
                Violation(
                    "oversize",
                    f"table {table.number} seats {len(table.seats)}, more than {largest}",
                )
            )
        elif len(table.seats) < MIN_TABLE:
            violations.append(
                Violation("undersize", f"table {table.number} seats only {len(table.seats)}")
            )
        elif len(table.seats) < smallest:
            violations.append(
                Violation(
                    "short",
                    f"table {table.number} seats {len(table.seats)} but the "
                    f"{constraints.policy} policy gives no table under {smallest}",
                )
            )
    if layout is not None:
        if len(draw.byes) != layout.byes:
            violations.append(
                Violation("byes", f"{len(draw.byes)} byes where the size rule gives {layout.byes}")
            )
        if sorted(len(t.seats) for t in draw.tables) != sorted(layout.sizes) and not any(
            v.code in {"twice", "missing", "unknown"} for v in violations
        ):
            violations.append(
                Violation("sizes", f"table sizes differ from the size rule's {list(layout.sizes)}")
            )
    return violations
