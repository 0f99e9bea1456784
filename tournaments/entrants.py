"""Read-only views of the entrants on the tournament day, for the organiser's dashboard and
the API: who is seated in a round being played (and may be substituted there), who arrived
late and joins at which round, who stands in for whom. Writes live in `tournaments.services`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tournaments.models import Entry, Round, Seat, Tournament


@dataclass(slots=True)
class SeatInfo:
    round_number: int
    table_number: int
    position: int
    status: str
    stage_name: str
    substituted_entry: Entry | None = None
    substituted_at: object = None

    @property
    def is_open(self) -> bool:
        return self.status in Round.OPEN

    @property
    def is_draft(self) -> bool:
        return self.status == Round.Status.DRAFT


@dataclass(slots=True)
class EntrantDay:
    """What the dashboard says about one entrant today."""

    open_seat: SeatInfo | None = None  # in a round being played: substitutable there
    draft_round: int | None = None  # seated in the draft (preview) of round N
    missed: list[int] = field(default_factory=list)  # rounds of the first stage they missed
    joins_at: int | None = None  # a late arrival: seated from round N
    needs_redraw: bool = False  # the draft must be redrawn to seat them / leave them out
    substitute: Entry | None = None  # who stands in for them
    stands_in_for: Entry | None = None  # whom they stand in for
    took_seat_at: object = None  # when they took a seat mid-round (a substitution)

    @property
    def is_late(self) -> bool:
        return self.joins_at is not None


def entrant_rows(tournament: Tournament, only: Entry | None = None) -> list[Entry]:
    """The tournament's entries in number order, each with `.day` (an `EntrantDay`)."""
    entries = tournament.entries.select_related("player", "substitute_for__player").order_by(
        "number"
    )
    if only is not None:
        entries = entries.filter(pk=only.pk)
    rows = list(entries)
    ids = [e.pk for e in rows]
    substitutes = {
        e.substitute_for_id: e
        for e in Entry.objects.filter(substitute_for_id__in=ids).select_related("player")
    }
    first = tournament.stages.order_by("order").first()
    rounds = list(first.rounds.order_by("number")) if first is not None else []
    played = [r for r in rounds if r.status != Round.Status.DRAFT]
    draft = next((r for r in rounds if r.status == Round.Status.DRAFT), None)
    seated: dict[int, set[int]] = {}
    seats: dict[int, list[tuple[Seat, SeatInfo]]] = {}
    for seat in (
        Seat.objects.filter(entry_id__in=ids)
        .select_related("round__stage", "table", "substituted_entry__player")
        .order_by("round__stage__order", "round__number")
    ):
        seated.setdefault(seat.entry_id, set()).add(seat.round_id)
        info = SeatInfo(
            seat.round.number,
            seat.table.number,
            seat.position,
            seat.round.status,
            seat.round.stage.name,
            seat.substituted_entry,
            seat.substituted_at,
        )
        seats.setdefault(seat.entry_id, []).append((seat, info))
    for entry in rows:
        day = EntrantDay(
            substitute=substitutes.get(entry.pk),
            stands_in_for=entry.substitute_for,
        )
        for _seat, info in seats.get(entry.pk, []):
            if info.is_open:
                day.open_seat = info
            if info.is_draft:
                day.draft_round = info.round_number
            if info.substituted_entry is not None and info.substituted_at is not None:
                day.took_seat_at = info.substituted_at
        mine = seated.get(entry.pk, set())
        plays_first = first is not None and entry.seeded_into_id in (None, first.pk)
        if entry.status == Entry.Status.DROPPED:
            day.needs_redraw = draft is not None and draft.pk in mine
        elif (
            entry.status == Entry.Status.CHECKED_IN
            and plays_first
            and first is not None
            and first.advanced_at is None
            and played
            and played[-1].pk not in mine
        ):
            day.missed = [r.number for r in played if r.pk not in mine]
            if draft is not None:
                day.joins_at = draft.number
                day.needs_redraw = draft.pk not in mine
            else:
                day.joins_at = rounds[-1].number + 1
        entry.day = day  # type: ignore[attr-defined]
    return rows


def entrant_row(entry: Entry) -> Entry:
    """One entry with its `.day`, for a row re-rendered alone."""
    return entrant_rows(entry.tournament, only=entry)[0]


def substitutes_available(tournament: Tournament, entry: Entry) -> list[Entry]:
    """Entrants who may stand in for `entry`: not withdrawn, not already standing in for
    someone, and not seated in a round being played."""
    busy = Seat.objects.filter(
        round__stage__tournament=tournament, round__status__in=Round.OPEN
    ).values("entry_id")
    return list(
        tournament.entries.exclude(pk=entry.pk)
        .exclude(status=Entry.Status.DROPPED)
        .filter(substitute_for__isnull=True)
        .exclude(pk__in=busy)
        .select_related("player")
        .order_by("number")
    )
