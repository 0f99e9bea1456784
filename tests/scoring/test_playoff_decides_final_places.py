"""A settled playoff (順位決定戦) decides the order of the entrants tied for places in the
final — in the final's standings and the tournament's — without adding its points to
anyone's totals; until it is settled they stay level. The boards, the exports and the API
show the same order and say which places the playoff decided."""

from __future__ import annotations

import csv
import io

import pytest
from django.contrib.auth.models import User
from django.test import Client

from scoring.standings import ScopeRef, recompute_tournament, standings
from tests.factories import (
    OfficialFactory,
    StageFactory,
    TournamentFactory,
    UserFactory,
    browser,
    play_round_quickly,
)
from tests.tournaments.conftest import checked_in
from tests.tournaments.stage_scenarios import by_seat, play_stage, quick_format
from tournaments import services
from tournaments.models import Entry, Official, Seat, Stage, Tournament

pytestmark = pytest.mark.django_db

BADGE = 'data-testid="decided-by-playoff"'


@pytest.fixture
def organiser() -> User:
    return UserFactory(username="org-final")


@pytest.fixture
def tournament(organiser: User) -> Tournament:
    cup = TournamentFactory(name="Final Cup", slug="final-cup", status=Tournament.Status.RUNNING)
    OfficialFactory(tournament=cup, user=organiser, role=Official.Role.ORGANISER)
    return cup


@pytest.fixture
def head_referee(tournament: Tournament) -> User:
    user = UserFactory(username="head-final")
    OfficialFactory(tournament=tournament, user=user, role=Official.Role.HEAD_REFEREE)
    return user


@pytest.fixture
def final(tournament: Tournament) -> Stage:
    return StageFactory(tournament=tournament, order=1, name="Final 決勝", kind=Stage.Kind.FINAL)


def _ranks(ref: ScopeRef) -> dict[int, tuple[int, bool, int, bool]]:
    return {
        row.entry_id: (row.rank, row.shared, row.points, row.decided_by_playoff)
        for row in standings(ref)
        if row.entry_id is not None
    }


def _api_rows(client: Client, url: str) -> dict[int, dict[str, object]]:
    body = client.get(url).json()
    return {row["entry"]: row for row in body["results"]}


def test_a_settled_playoff_orders_the_entrants_tied_for_first(
    client: Client,
    tournament: Tournament,
    final: Stage,
    organiser: User,
    head_referee: User,
) -> None:
    quick_format(tournament)
    checked_in(tournament, 12)
    seats = by_seat(play_stage(final, organiser, head_referee))
    tied: list[Entry] = seats[1]  # the three table winners: level on every tie-break
    recompute_tournament(tournament.pk)
    stage_ref, whole = ScopeRef.stage(final.pk), ScopeRef.tournament(tournament.pk)
    before = {ref: _ranks(ref) for ref in (stage_ref, whole)}
    for ranks in before.values():
        assert {ranks[e.pk][:2] for e in tied} == {(1, True)}
        assert not any(decided for *_, decided in ranks.values())

    playoff = services.create_playoff(final, organiser, [e.pk for e in tied])
    round_ = services.draw_round(playoff, organiser)
    services.publish_round(round_, organiser)
    recompute_tournament(tournament.pk)
    # Drawn and published, not played: nothing is decided yet.
    assert {ref: _ranks(ref) for ref in (stage_ref, whole)} == before

    play_round_quickly(round_, organiser, head_referee)  # seat order: seat 1 wins
    services.reveal_round_seed(round_, organiser)
    order = [
        Seat.objects.get(round=round_, position=p).entry_id for p in (1, 2, 3)
    ]  # the playoff's placings
    recompute_tournament(tournament.pk)

    for ref in (stage_ref, whole):
        ranks = _ranks(ref)
        assert [ranks[pk][:2] for pk in order] == [(1, False), (2, False), (3, False)]
        assert all(ranks[pk][3] for pk in order)  # flagged: decided by playoff
        # Playoff points are in nobody's totals; everyone else is untouched.
        assert {pk: r[2] for pk, r in ranks.items()} == {pk: r[2] for pk, r in before[ref].items()}
        others = {pk: r for pk, r in ranks.items() if pk not in order}
        assert others == {pk: r for pk, r in before[ref].items() if pk not in order}
        assert not any(r[3] for r in others.values())
        # The cut and advancement order (confirmed ranks) follows the playoff too.
        confirmed = {row.entry_id: row.confirmed_rank for row in standings(ref)}
        assert [confirmed[pk] for pk in order] == [1, 2, 3]

    numbers = {e.pk: e.number for e in tied}
    board = client.get(f"/standings/{tournament.slug}/stage/{final.pk}/").content.decode()
    assert board.count(BADGE) == 3 and ">decided by playoff</span>" in board
    board_ja = browser("ja").get(f"/standings/{tournament.slug}/stage/{final.pk}/").content
    assert ">順位決定戦で決定</span>" in board_ja.decode() and b"decided by playoff" not in board_ja
    whole_board = client.get(f"/standings/{tournament.slug}/").content.decode()
    assert whole_board.count(BADGE) == 3
    printed = client.get(f"/standings/{tournament.slug}/print/").content.decode()
    assert printed.count(BADGE) == 3

    exported = client.get(f"/standings/{tournament.slug}/standings.json").json()["standings"]
    assert [(r["entry"], r["rank"], r["shared"]) for r in exported[:3]] == [
        (numbers[pk], place, False) for pk, place in zip(order, (1, 2, 3), strict=True)
    ]
    assert [r["decided_by_playoff"] for r in exported[:4]] == [True, True, True, False]
    table = list(csv.DictReader(io.StringIO(client.get(
        f"/standings/{tournament.slug}/stage/{final.pk}/standings.csv"
    ).content.decode("utf-8-sig"))))  # fmt: skip
    assert [(r["entry"], r["rank"], r["decided_by_playoff"]) for r in table[:3]] == [
        (str(numbers[pk]), str(place), "Yes") for pk, place in zip(order, (1, 2, 3), strict=True)
    ]

    for url in (
        f"/api/tournaments/{tournament.slug}/standings/",
        f"/api/stages/{final.pk}/standings/",
    ):
        rows = _api_rows(client, url)
        assert [(rows[numbers[pk]]["rank"], rows[numbers[pk]]["shared"]) for pk in order] == [
            (1, False),
            (2, False),
            (3, False),
        ]
        assert all(rows[numbers[pk]]["decided_by_playoff"] for pk in order)


def test_a_playoff_never_reorders_a_group_it_does_not_cover() -> None:
    """The rule alone: a shared rank is split only when every member has a playoff place."""
    from scoring.standings import playoff_ranks

    positions = {1: 0, 2: 1, 3: 1}
    assert playoff_ranks([(1, 1), (2, 1), (3, 1), (4, 4)], positions) == {
        1: (1, False),
        2: (2, True),
        3: (2, True),
    }
    # Entrant 4 became level with them (a correction): the group stays level.
    assert playoff_ranks([(1, 1), (2, 1), (3, 1), (4, 1)], positions) == {}
