"""`draw_round` in a team event (掼蛋): the Swiss pairing of teams, partners facing, byes for
the odd team out scoring a win's match points, no repeat opponents, as the layout previewed."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from tests.factories import (
    StageFactory,
    UserFactory,
    checked_in_teams,
    finished_match,
)
from tournaments import services
from tournaments.models import Bye, Entry, Round, Stage, Table, Team, Tournament
from tournaments.selectors import draw_layout, team_history, team_match_totals

pytestmark = pytest.mark.django_db


@pytest.fixture
def stage(event: Tournament) -> Stage:
    return StageFactory(tournament=event, order=1, name="Swiss")


def sides(table: Table) -> tuple[set[int | None], set[int | None]]:
    """The team ids at positions 1 and 3, and at 2 and 4."""
    seats = {s.position: s.entry.team_id for s in table.seats.select_related("entry")}
    return {seats[1], seats[3]}, {seats[2], seats[4]}


def opponents(round_: Round) -> set[frozenset[int]]:
    pairs = set()
    for table in round_.tables.all():
        first, second = sides(table)
        pairs.add(frozenset((*first, *second)))
    return pairs


def play(round_: Round, organiser: User) -> None:
    """Publish the round and finish every match: the first team of each table wins at A."""
    services.publish_round(round_, organiser)
    for table in round_.tables.all():
        finished_match(table, levels=("A", "7"), winner=0, hands=3)


def test_round_one_of_eight_teams_pairs_them_by_lot_partners_facing(
    stage: Stage, organiser: User, event: Tournament
) -> None:
    teams = checked_in_teams(event, 8)

    round_ = services.draw_round(stage, organiser, seed="lot")

    assert round_.draw_method == "lot"
    tables = list(round_.tables.order_by("number"))
    assert len(tables) == 4 and not Bye.objects.filter(round=round_).exists()
    seen: list[int | None] = []
    for table in tables:
        first, second = sides(table)
        assert len(first) == 1 and len(second) == 1  # partners at 1 & 3 and at 2 & 4
        seen += [*first, *second]
        assert "paired by lot (first round)" in table.explanation
        assert "lot" not in table.explanation.replace("by lot", "")
    assert sorted(seen) == sorted(t.pk for t in teams)


def test_the_same_seed_draws_the_same_first_round(
    stage: Stage, organiser: User, event: Tournament
) -> None:
    checked_in_teams(event, 8)
    first = opponents(services.draw_round(stage, organiser, seed="s"))
    again = opponents(services.draw_round(stage, organiser, seed="s"))
    assert first == again


def test_round_two_pairs_winners_with_winners_and_never_repeats(
    stage: Stage, organiser: User, event: Tournament
) -> None:
    checked_in_teams(event, 8)
    first = services.draw_round(stage, organiser, seed="r1")
    play(first, organiser)
    services.complete_round(first, organiser)

    second = services.draw_round(stage, organiser, seed="r2")

    assert second.draw_method == "swiss"
    totals = team_match_totals(stage)
    assert sorted(mp for mp, _levels in totals.values()) == [0, 0, 0, 0, 2, 2, 2, 2]
    assert not opponents(first) & opponents(second)
    for table in second.tables.all():
        first_side, second_side = sides(table)
        (a,), (b,) = first_side, second_side
        assert a is not None and b is not None
        assert totals[a][0] == totals[b][0]  # winners meet winners, losers meet losers
        group = totals[a][0]
        assert f"paired in the {group}-point group" in table.explanation


def test_six_teams_over_two_rounds_meet_new_opponents(
    stage: Stage, organiser: User, event: Tournament
) -> None:
    checked_in_teams(event, 6)
    first = services.draw_round(stage, organiser, seed="six")
    assert first.tables.count() == 3
    play(first, organiser)
    services.complete_round(first, organiser)

    second = services.draw_round(stage, organiser, seed="six-2")

    assert second.tables.count() == 3
    assert not opponents(first) & opponents(second)
    assert len(team_history(event).meetings) == 3
    # Three winners on 2 MP: one of them floats down to meet a team on 0.
    assert any("floated down" in t.explanation for t in second.tables.all())


def test_an_odd_team_out_has_a_bye_scoring_a_wins_match_points(
    stage: Stage, organiser: User, event: Tournament
) -> None:
    teams = checked_in_teams(event, 7)

    round_ = services.draw_round(stage, organiser, seed="odd")

    byes = list(Bye.objects.filter(round=round_).select_related("entry"))
    assert len(byes) == 2  # one row per member of the team
    assert {b.entry.team_id for b in byes} < {t.pk for t in teams}
    assert all(b.points == event.match_points["win"] for b in byes)
    assert all("had a bye: drawn by lot" in b.explanation for b in byes)
    assert round_.tables.count() == 3


def test_the_bye_counts_as_a_win_in_the_next_pairing_and_rotates(
    stage: Stage, organiser: User, event: Tournament
) -> None:
    checked_in_teams(event, 5)
    first = services.draw_round(stage, organiser, seed="a")
    had_bye = Bye.objects.filter(round=first).first()
    assert had_bye is not None
    play(first, organiser)
    services.complete_round(first, organiser)

    second = services.draw_round(stage, organiser, seed="b")

    assert team_match_totals(stage)[had_bye.entry.team_id][0] == 2
    again = Bye.objects.filter(round=second).first()
    assert again is not None and again.entry.team_id != had_bye.entry.team_id
    assert "lowest ranked without one" in again.explanation


def test_a_team_with_a_withdrawn_member_is_not_paired(
    stage: Stage, organiser: User, event: Tournament
) -> None:
    teams = checked_in_teams(event, 5)
    services.withdraw_entry(teams[4].members.first(), organiser, reason="ill")

    assert draw_layout(stage).tables == 2 and draw_layout(stage).byes == 0
    round_ = services.draw_round(stage, organiser)

    paired = {t for table in round_.tables.all() for side in sides(table) for t in side}
    assert teams[4].pk not in paired and len(paired) == 4
    assert not Bye.objects.filter(round=round_).exists()


def test_the_layout_preview_counts_teams(stage: Stage, event: Tournament) -> None:
    checked_in_teams(event, 9)

    layout = draw_layout(stage)

    assert (layout.tables, layout.byes) == (4, 1)
    assert layout.summary_en == "9 teams → 4 tables of two teams + 1 team with a bye"
    assert layout.summary_ja == "9チーム → 4卓（2チームずつ） + 不戦 1チーム"


def test_one_team_cannot_be_drawn(stage: Stage, organiser: User, event: Tournament) -> None:
    checked_in_teams(event, 1)
    with pytest.raises(services.DomainError) as refused:
        services.draw_round(stage, organiser)
    assert refused.value.code == "cannot_seat"
    assert "チーム" in refused.value.message_ja


def test_only_an_organiser_draws(stage: Stage, event: Tournament) -> None:
    checked_in_teams(event, 4)
    stranger = UserFactory(username="not-an-official")
    with pytest.raises(services.PermissionDenied):
        services.draw_round(stage, stranger)
    assert not Round.objects.filter(stage=stage).exists()


def test_entrants_without_a_team_are_not_seated(
    stage: Stage, organiser: User, event: Tournament
) -> None:
    checked_in_teams(event, 4)
    loner = Entry.objects.create(
        tournament=event,
        player=Entry.objects.first().player.__class__.objects.create(display_name="Loner"),
        number=99,
        status=Entry.Status.CHECKED_IN,
    )
    round_ = services.draw_round(stage, organiser)
    assert not round_.seats.filter(entry=loner).exists()
    assert Team.objects.count() == 4
