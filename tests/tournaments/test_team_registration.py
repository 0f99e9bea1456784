"""Teams in a team event (掼蛋): registered as two new entrants or formed from two entrants,
renamed, dissolved before they play; each refusal has a code and English and Japanese words,
changes nothing, and only an organiser may do any of it."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied

from tests.factories import (
    EntryFactory,
    GuandanTournamentFactory,
    OfficialFactory,
    StageFactory,
    TournamentFactory,
    UserFactory,
    checked_in_teams,
)
from tournaments import services
from tournaments.models import AuditEntry, Entry, Official, Round, Team, Tournament
from tournaments.services import TeamMember

pytestmark = pytest.mark.django_db


PAIR = [
    TeamMember("山田 花子", "やまだ はなこ"),
    TeamMember("佐藤 健", "さとう けん", "ken@example.jp"),
]


def refused(code: str, call: object, *args: object, **kwargs: object) -> services.DomainError:
    with pytest.raises(services.DomainError) as error:
        call(*args, **kwargs)  # type: ignore[operator]
    assert error.value.code == code
    assert error.value.message_en and error.value.message_ja != error.value.message_en
    return error.value


def test_a_pair_registers_as_two_entrants_and_a_numbered_team(
    event: Tournament, organiser: User
) -> None:
    team = services.register_team(event, organiser, name="Sakura", members=PAIR)

    members = list(team.members.select_related("player").order_by("number"))
    assert team.number == 1 and team.name == "Sakura"
    assert [m.player.display_name for m in members] == ["山田 花子", "佐藤 健"]
    assert members[1].player.email == "ken@example.jp"
    second = services.register_team(
        event, organiser, name="Fuji", members=[TeamMember("A"), TeamMember("B")]
    )
    assert second.number == 2
    actions = list(AuditEntry.objects.filter(tournament=event).values_list("action", flat=True))
    assert actions.count(AuditEntry.Action.TEAM_REGISTERED) == 2
    assert actions.count(AuditEntry.Action.ENTRY_ADDED) == 4


def test_two_registered_entrants_form_a_team(event: Tournament, organiser: User) -> None:
    a, b = (EntryFactory(tournament=event, number=n) for n in (1, 2))

    team = services.form_team(event, organiser, name="Kaze", entries=[a, b])

    assert set(team.members.values_list("pk", flat=True)) == {a.pk, b.pk}


def test_a_team_has_exactly_two_members(event: Tournament, organiser: User) -> None:
    refused(
        "team_size",
        services.register_team,
        event,
        organiser,
        name="Trio",
        members=[*PAIR, TeamMember("Third")],
    )
    only = EntryFactory(tournament=event, number=1)
    refused("team_size", services.form_team, event, organiser, name="Solo", entries=[only, only])
    assert not Team.objects.exists() and Entry.objects.count() == 1


def test_an_entrant_plays_in_one_team_only(event: Tournament, organiser: User) -> None:
    a, b, c = (EntryFactory(tournament=event, number=n) for n in (1, 2, 3))
    services.form_team(event, organiser, name="Umi", entries=[a, b])

    error = refused(
        "already_in_team", services.form_team, event, organiser, name="Yama", entries=[b, c]
    )
    assert "Umi" in error.message_ja
    assert Team.objects.count() == 1


def test_team_names_are_unique_in_a_tournament(event: Tournament, organiser: User) -> None:
    services.register_team(event, organiser, name="Sakura", members=PAIR)
    refused(
        "team_name_taken",
        services.register_team,
        event,
        organiser,
        name=" Sakura ",
        members=[TeamMember("C"), TeamMember("D")],
    )
    # Nothing of the refused team was kept: its members were not entered either.
    assert Entry.objects.count() == 2
    refused("team_name_required", services.register_team, event, organiser, name=" ", members=PAIR)


def test_a_team_number_may_be_given_but_not_twice(event: Tournament, organiser: User) -> None:
    services.register_team(event, organiser, name="Sakura", members=PAIR, number=7)
    refused(
        "team_number_taken",
        services.register_team,
        event,
        organiser,
        name="Fuji",
        members=[TeamMember("C"), TeamMember("D")],
        number=7,
    )


def test_a_member_who_already_entered_is_refused_as_a_walk_in_is(
    event: Tournament, organiser: User
) -> None:
    services.register_team(event, organiser, name="Sakura", members=PAIR)
    refused(
        "already_entered",
        services.register_team,
        event,
        organiser,
        name="Fuji",
        members=[TeamMember("X"), TeamMember("佐藤 健", email="KEN@example.jp")],
    )
    assert Team.objects.count() == 1


def test_an_entrant_of_another_tournament_or_withdrawn_cannot_join(
    event: Tournament, organiser: User
) -> None:
    mine = EntryFactory(tournament=event, number=1)
    other = EntryFactory(tournament=GuandanTournamentFactory(), number=2)
    refused("not_an_entrant", services.form_team, event, organiser, name="X", entries=[mine, other])
    gone = EntryFactory(tournament=event, number=3, status=Entry.Status.DROPPED)
    refused("entry_withdrawn", services.form_team, event, organiser, name="X", entries=[mine, gone])


def test_teams_belong_to_team_events_only(organiser: User) -> None:
    daifugo = TournamentFactory()
    OfficialFactory(tournament=daifugo, user=organiser, role=Official.Role.ORGANISER)
    refused("not_a_team_event", services.register_team, daifugo, organiser, name="X", members=PAIR)


def test_only_an_organiser_registers_renames_or_dissolves(event: Tournament) -> None:
    (team,) = checked_in_teams(event, 1)
    referee = UserFactory(username="referee")
    OfficialFactory(tournament=event, user=referee, role=Official.Role.REFEREE)
    with pytest.raises(PermissionDenied):
        services.register_team(event, referee, name="X", members=PAIR)
    with pytest.raises(PermissionDenied):
        services.rename_team(team, referee, name="Y")
    with pytest.raises(PermissionDenied):
        services.dissolve_team(team, referee)
    assert Team.objects.get().name == "Sakura"


def test_a_team_is_renamed_and_audited(event: Tournament, organiser: User) -> None:
    first, second = checked_in_teams(event, 2)

    services.rename_team(first, organiser, name="Sakura 2026")

    assert Team.objects.get(pk=first.pk).name == "Sakura 2026"
    audit = AuditEntry.objects.get(action=AuditEntry.Action.TEAM_RENAMED)
    assert audit.data == {"team": 1, "name": ["Sakura", "Sakura 2026"]}
    refused("team_name_taken", services.rename_team, first, organiser, name=second.name)


def test_a_team_that_has_not_played_is_dissolved_its_members_stay(
    event: Tournament, organiser: User
) -> None:
    stage = StageFactory(tournament=event, order=1)
    teams = checked_in_teams(event, 3)
    services.draw_round(stage, organiser)  # a draft only: discarded with the team

    services.dissolve_team(teams[0], organiser)

    assert Team.objects.count() == 2 and Entry.objects.count() == 6
    assert Entry.objects.filter(team__isnull=True).count() == 2
    assert not Round.objects.exists()
    audit = AuditEntry.objects.get(action=AuditEntry.Action.TEAM_DISSOLVED)
    assert audit.data["drafts_discarded"] == ["1.1"]


def test_a_team_that_has_played_is_not_dissolved(event: Tournament, organiser: User) -> None:
    stage = StageFactory(tournament=event, order=1)
    teams = checked_in_teams(event, 2)
    services.publish_round(services.draw_round(stage, organiser), organiser)

    refused("team_has_played", services.dissolve_team, teams[0], organiser)
    assert Team.objects.count() == 2
