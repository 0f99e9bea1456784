"""Swiss pairing of teams (掼蛋 Guandan team events): pure functions over plain dataclasses, no
Django, in the explainable style of `tournaments.seating`.

A team event seats two teams at each table, one match between them. Each round:

- **Round 1** (no match played yet): the teams are ordered by lot from the draw's seed and
  paired in that order (1st v 2nd, 3rd v 4th, …); with an odd number of teams the last one
  drawn has the bye.
- **Later rounds**: teams are ranked by match points, then level difference, then by lot. With
  an odd number of teams the lowest-ranked team that has not had a bye yet sits out (when every
  team has had one: the lowest ranked of those with the fewest) — unless that would force a
  repeat pairing and the next one up would not. The rest are paired from the
  top: the highest unpaired team meets the highest-ranked team it has not played; when that
  leaves a team below with nobody it has not played, the search backtracks. If no pairing
  without a repeat exists at all, the pairing with the fewest repeats is taken (and the
  explanation says so).

Every table carries a reason why those two teams meet, written from the ranking (never the seed:
the seed is secret until the round's reveal): a `TableReason` (a `ByeReason` for the bye) holding
the facts, and its English sentence (`explanation`), which `table_sentence` / `bye_sentence` build
from those facts alone, so the record and the sentence cannot disagree; pages say the same facts
in the reader's language (`tournaments.pairing_words`). `check_pairing` verifies any pairing
(ours or hand-made) against the teams of the round.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

# The most search steps spent looking for a pairing within a repeat budget: a field of a few
# dozen teams needs far fewer; past it the budget grows (one more repeat allowed).
MAX_STEPS = 200_000
# How many of the teams due a bye are tried, lowest ranked first, to find one whose sitting out
# leaves a pairing without repeats.
BYE_CANDIDATES = 4


@dataclass(frozen=True, slots=True)
class PairTeam:
    """One team to pair: an id (the team's primary key), a label for explanations ("Team 3
    Sakura"), its match points and level difference so far; its number and name, when known,
    let a page name it in its own language ("チーム 3 Sakura")."""

    id: int
    label: str
    match_points: float = 0
    level_difference: int = 0
    number: int | None = None
    name: str = ""


@dataclass(frozen=True, slots=True)
class PairHistory:
    """What earlier rounds tell the pairing: which teams met (and in which round), who had byes."""

    meetings: tuple[tuple[int, int, str], ...] = ()  # (team, team, round label)
    byes: tuple[int, ...] = ()

    def met(self) -> dict[frozenset[int], list[str]]:
        found: dict[frozenset[int], list[str]] = {}
        for a, b, label in self.meetings:
            found.setdefault(frozenset((a, b)), []).append(label)
        return found

    @property
    def started(self) -> bool:
        return bool(self.meetings or self.byes)


@dataclass(frozen=True, slots=True)
class TeamRef:
    """A team as a reason names it, with its match points when the draw was made."""

    id: int
    label: str
    match_points: float = 0
    number: int | None = None
    name: str = ""


@dataclass(frozen=True, slots=True)
class Elsewhere:
    """An unplayed opponent in the floating team's group, and whom it meets instead."""

    team: TeamRef
    opponent: TeamRef


@dataclass(frozen=True, slots=True)
class TableReason:
    """Why a table's two teams meet. `kind`: "lot" (first round), "group" (equal match points),
    "float" (the first team floats down to the second's group: `elsewhere` lists its unplayed
    group mates paired at other tables, empty when it had none). `met_in`: the earlier rounds in
    which they met (a repeat), with `repeats` the draw's fewest possible."""

    kind: str
    first: TeamRef
    second: TeamRef
    group_points: float = 0
    elsewhere: tuple[Elsewhere, ...] = ()
    met_in: tuple[str, ...] = ()
    repeats: int = 0


@dataclass(frozen=True, slots=True)
class ByeReason:
    """Why a team has the bye. `kind`: "lot" (first round), "lowest" (the lowest ranked of the
    teams with the `fewest` byes so far) or "next_lowest" (`passed_over`, ranked lower, sitting
    out would have forced a repeat pairing)."""

    kind: str
    team: TeamRef
    fewest: int = 0
    passed_over: tuple[TeamRef, ...] = ()


@dataclass(frozen=True, slots=True)
class PairedTable:
    """A table: `teams[0]` plays as the first team (seats 1 and 3), `teams[1]` as the second
    (seats 2 and 4)."""

    number: int
    teams: tuple[int, int]
    explanation: str = ""
    reason: TableReason | None = None


@dataclass(frozen=True, slots=True)
class TeamDraw:
    tables: tuple[PairedTable, ...]
    bye: int | None = None
    bye_explanation: str = ""
    method: str = ""  # "lot" (round 1) or "swiss"
    repeats: int = 0  # pairings of teams that met before
    bye_reason: ByeReason | None = None


@dataclass(frozen=True, slots=True)
class Violation:
    code: str
    message: str


class PairingError(ValueError):
    """The round cannot be paired (fewer than two teams); the organiser's to fix."""


def _points(value: float) -> str:
    return f"{value:g}"


def _lots(teams: Sequence[PairTeam], seed: str) -> dict[int, float]:
    rng = random.Random(f"kakumei-pairing/1/{seed}")
    return {t.id: rng.random() for t in sorted(teams, key=lambda t: t.id)}


def _pair_within(
    order: Sequence[int], met: dict[frozenset[int], list[str]], budget: int
) -> list[tuple[int, int]] | None:
    """Pair `order` (ranked, even length) top down, each team with the highest-ranked free team
    it has not met, allowing at most `budget` repeat pairings; None when none exists (or the
    search ran past `MAX_STEPS`)."""
    paired: set[int] = set()
    pairs: list[tuple[int, int]] = []
    steps = 0

    def search(repeats: int) -> bool:
        nonlocal steps
        steps += 1
        if steps > MAX_STEPS:
            return False
        top = next((t for t in order if t not in paired), None)
        if top is None:
            return True
        paired.add(top)
        rest = [t for t in order if t not in paired]
        # Unplayed opponents first (in rank order), then repeats if the budget allows.
        fresh = [t for t in rest if frozenset((top, t)) not in met]
        again = [t for t in rest if frozenset((top, t)) in met]
        for other, cost in [(t, 0) for t in fresh] + [(t, 1) for t in again]:
            if repeats + cost > budget:
                continue
            paired.add(other)
            pairs.append((top, other))
            if search(repeats + cost):
                return True
            pairs.pop()
            paired.discard(other)
        paired.discard(top)
        return False

    return pairs if search(0) else None


def swiss_pairing(teams: Sequence[PairTeam], *, seed: str, history: PairHistory) -> TeamDraw:
    """The round's tables (two teams each) and its bye; see the module docstring."""
    if len(teams) < 2:
        raise PairingError(f"at least 2 teams are needed for a table, not {len(teams)}")
    ids = [t.id for t in teams]
    if len(set(ids)) != len(ids):
        raise PairingError("a team is listed twice")
    lots = _lots(teams, seed)
    by_id = {t.id: t for t in teams}
    if not history.started:
        return _by_lot(teams, lots)

    def ref(team: int) -> TeamRef:
        found = by_id[team]
        return TeamRef(team, found.label, found.match_points, found.number, found.name)

    ranked = sorted(teams, key=lambda t: (-t.match_points, -t.level_difference, lots[t.id]))
    order = [t.id for t in ranked]
    met = history.met()
    bye: int | None = None
    bye_reason: ByeReason | None = None
    pairs: list[tuple[int, int]] | None = None
    if len(order) % 2:
        earlier = Counter(history.byes)
        fewest = min(earlier[t] for t in order)
        candidates = [t for t in reversed(order) if earlier[t] == fewest]
        bye = candidates[0]
        skipped: list[int] = []
        # A bye further up is taken only when the lowest ranked one's would force a repeat.
        for candidate in candidates[:BYE_CANDIDATES]:
            pairs = _pair_within([t for t in order if t != candidate], met, 0)
            if pairs is not None:
                bye = candidate
                break
            skipped.append(candidate)
        if pairs is None:
            skipped = []
        bye_reason = ByeReason(
            "next_lowest" if skipped else "lowest",
            ref(bye),
            fewest,
            tuple(ref(t) for t in skipped),
        )
        order.remove(bye)

    budget = 0
    while pairs is None:
        pairs = _pair_within(order, met, budget)
        budget += 1
    repeats = sum(1 for a, b in pairs if frozenset((a, b)) in met)
    rank = {t: index for index, t in enumerate(order)}
    pairs.sort(key=lambda pair: rank[pair[0]])

    partner = dict(pairs) | {b: a for a, b in pairs}
    tables: list[PairedTable] = []
    for number, (high, low) in enumerate(pairs, start=1):
        points = by_id[high].match_points
        elsewhere: tuple[Elsewhere, ...] = ()
        if points != by_id[low].match_points:
            mates = [t for t in order if t != high and by_id[t].match_points == points]
            elsewhere = tuple(
                Elsewhere(ref(t), ref(partner[t])) for t in mates if frozenset((high, t)) not in met
            )
        rounds = tuple(met.get(frozenset((high, low)), ()))
        reason = TableReason(
            "group" if points == by_id[low].match_points else "float",
            ref(high),
            ref(low),
            points,
            elsewhere,
            rounds,
            repeats if rounds else 0,
        )
        tables.append(PairedTable(number, (high, low), table_sentence(reason), reason))
    return TeamDraw(
        tuple(tables),
        bye,
        bye_sentence(bye_reason) if bye_reason else "",
        method="swiss",
        repeats=repeats,
        bye_reason=bye_reason,
    )


def _by_lot(teams: Sequence[PairTeam], lots: dict[int, float]) -> TeamDraw:
    order = [t.id for t in sorted(teams, key=lambda t: lots[t.id])]
    refs = {t.id: TeamRef(t.id, t.label, t.match_points, t.number, t.name) for t in teams}
    bye: int | None = None
    bye_reason: ByeReason | None = None
    if len(order) % 2:
        bye = order.pop()
        bye_reason = ByeReason("lot", refs[bye])
    tables = []
    for number in range(1, len(order) // 2 + 1):
        first, second = order[2 * number - 2], order[2 * number - 1]
        reason = TableReason("lot", refs[first], refs[second])
        tables.append(PairedTable(number, (first, second), table_sentence(reason), reason))
    return TeamDraw(
        tuple(tables),
        bye,
        bye_sentence(bye_reason) if bye_reason else "",
        method="lot",
        bye_reason=bye_reason,
    )


def table_sentence(reason: TableReason) -> str:
    """The English sentence of a table's reason, as stored in `Table.explanation` and the API."""
    first, second = reason.first, reason.second
    if reason.kind == "lot":
        return f"{first.label} v {second.label}: paired by lot (first round)."
    heading = (
        f"{first.label} ({_points(first.match_points)} MP) v "
        f"{second.label} ({_points(second.match_points)} MP)"
    )
    group = f"{_points(reason.group_points)}-point group"
    if reason.kind == "group":
        why = f"paired in the {group}"
    elif not reason.elsewhere:
        why = f"{first.label} floated down: no unplayed opponent in the {group}"
    else:
        taken = ", ".join(f"{e.team.label} (v {e.opponent.label})" for e in reason.elsewhere)
        why = (
            f"{first.label} floated down: its unplayed opponents in the {group} "
            f"are paired elsewhere ({taken})"
        )
    if reason.met_in:
        why += (
            f"; they met before (round {', '.join(reason.met_in)}): no pairing without a repeat "
            f"exists, this one has the fewest ({reason.repeats})"
        )
    return f"{heading}: {why}."


def bye_sentence(reason: ByeReason) -> str:
    """The English sentence of a bye's reason, as stored in `Bye.explanation`."""
    team = reason.team
    if reason.kind == "lot":
        return f"{team.label} had a bye: drawn by lot (an odd number of teams)."
    if reason.kind == "next_lowest":
        why = (
            "next lowest ranked without one"
            if reason.fewest == 0
            else f"next lowest ranked of those with the fewest ({reason.fewest})"
        )
        passed_over = ", ".join(t.label for t in reason.passed_over)
        why += f": {passed_over} sitting out would have forced a repeat pairing"
    else:
        why = (
            "lowest ranked without one"
            if reason.fewest == 0
            else f"every team has had a bye: lowest ranked of those with the fewest "
            f"({reason.fewest})"
        )
    return f"{team.label} ({_points(team.match_points)} MP) had a bye: {why}."


def reason_record(reason: TableReason | ByeReason) -> dict[str, Any]:
    """A reason as stored (`Table.reason`, `Bye.reason`): plain JSON values."""
    return asdict(reason)


def _team_ref(data: dict[str, Any]) -> TeamRef:
    return TeamRef(
        int(data["id"]),
        str(data["label"]),
        data.get("match_points", 0),
        data.get("number"),
        str(data.get("name", "")),
    )


def table_reason_of(data: dict[str, Any]) -> TableReason:
    """A stored table reason back as a `TableReason` (`reason_record` read back)."""
    return TableReason(
        str(data["kind"]),
        _team_ref(data["first"]),
        _team_ref(data["second"]),
        data.get("group_points", 0),
        tuple(
            Elsewhere(_team_ref(e["team"]), _team_ref(e["opponent"]))
            for e in data.get("elsewhere", ())
        ),
        tuple(str(label) for label in data.get("met_in", ())),
        int(data.get("repeats", 0)),
    )


def bye_reason_of(data: dict[str, Any]) -> ByeReason:
    """A stored bye reason back as a `ByeReason`."""
    return ByeReason(
        str(data["kind"]),
        _team_ref(data["team"]),
        int(data.get("fewest", 0)),
        tuple(_team_ref(t) for t in data.get("passed_over", ())),
    )


def repeat_pairings(draw: TeamDraw, history: PairHistory) -> int:
    met = history.met()
    return sum(1 for table in draw.tables if frozenset(table.teams) in met)


def check_pairing(draw: TeamDraw, team_ids: frozenset[int]) -> list[Violation]:
    """Every way `draw` is not a pairing of exactly `team_ids`: each team at one table or
    the bye, a bye exactly when the count is odd, tables numbered 1…n. Empty: valid."""
    violations: list[Violation] = []
    seen: Counter[int] = Counter()
    for table in draw.tables:
        seen.update(table.teams)
        if table.teams[0] == table.teams[1]:
            violations.append(Violation("self", f"table {table.number} pairs a team with itself"))
    if draw.bye is not None:
        seen[draw.bye] += 1
    for team, times in sorted(seen.items()):
        if team not in team_ids:
            violations.append(Violation("unknown", f"team {team} is not in this round"))
        if times > 1:
            violations.append(Violation("twice", f"team {team} is placed {times} times"))
    for team in sorted(team_ids - set(seen)):
        violations.append(Violation("missing", f"team {team} has neither a table nor the bye"))
    if (draw.bye is not None) != (len(team_ids) % 2 == 1):
        violations.append(
            Violation("bye", "a bye is given exactly when the number of teams is odd")
        )
    numbers = [t.number for t in draw.tables]
    if numbers != list(range(1, len(numbers) + 1)):
        violations.append(Violation("numbering", f"tables are numbered {numbers}, not 1…n"))
    return violations
