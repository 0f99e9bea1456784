"""Seeded entrants (e.g. last year's finalists) are set from the stages page or the API, not
the admin: they skip the earlier stages and join the later one when the stage before it
advances."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from tournaments import services
from tournaments.models import AuditEntry, Entry, Stage, StageEntrant, Tournament

from .conftest import checked_in
from .stage_scenarios import play_stage, quick_format

pytestmark = pytest.mark.django_db


@pytest.fixture
def final(tournament: Tournament, stage: Stage, organiser: User) -> Stage:
    Stage.objects.filter(pk=stage.pk).update(advance_top_n=4)
    return services.add_stage(tournament, organiser, name="Final", kind=Stage.Kind.FINAL)


def test_a_seeded_entrant_skips_qualifying_and_joins_the_final_when_it_advances(
    tournament: Tournament, stage: Stage, final: Stage, organiser: User, head_referee: User
) -> None:
    quick_format(tournament)
    checked_in(tournament, 8)
    champion = checked_in(tournament, 1, start=9)[0]

    services.seed_entries(final, organiser, [9])
    round_ = play_stage(stage, organiser, head_referee)
    stage.refresh_from_db()
    services.advance_stage(stage, organiser, services.stage_ranking(stage).keys)

    assert not round_.seats.filter(entry=champion).exists()
    place = StageEntrant.objects.get(stage=final, entry=champion)
    assert place.source == StageEntrant.Source.SEEDED
    assert StageEntrant.objects.filter(stage=final).count() == 5
    assert AuditEntry.objects.filter(
        action=AuditEntry.Action.STAGE_EDITED, data__seeded__new=[9]
    ).exists()


def test_the_list_replaces_the_seeds_and_an_empty_list_clears_them(
    tournament: Tournament, final: Stage, organiser: User
) -> None:
    checked_in(tournament, 3)

    services.seed_entries(final, organiser, [1, 2])
    services.seed_entries(final, organiser, [2, 3])
    assert set(Entry.objects.filter(seeded_into=final).values_list("number", flat=True)) == {2, 3}

    services.seed_entries(final, organiser, [])
    assert not Entry.objects.filter(seeded_into=final).exists()


@pytest.mark.parametrize("case", ["first stage", "unknown entrant", "withdrawn entrant"])
def test_seeds_that_could_never_be_placed_are_refused(
    tournament: Tournament, stage: Stage, final: Stage, organiser: User, case: str
) -> None:
    entry = checked_in(tournament, 1)[0]
    target, numbers, code = final, [1], "seed_unknown_entry"
    if case == "first stage":
        target, code = stage, "seed_first_stage"
    elif case == "unknown entrant":
        numbers = [99]
    else:
        Entry.objects.filter(pk=entry.pk).update(status=Entry.Status.DROPPED)

    with pytest.raises(services.DomainError) as refused:
        services.seed_entries(target, organiser, numbers)

    assert refused.value.code == code
    assert not Entry.objects.filter(seeded_into__isnull=False).exists()


def test_seeds_are_refused_once_the_previous_stage_has_advanced(
    tournament: Tournament, stage: Stage, final: Stage, organiser: User
) -> None:
    checked_in(tournament, 1)
    Stage.objects.filter(pk=stage.pk).update(advanced_at="2026-11-23T10:00Z")

    with pytest.raises(services.DomainError) as refused:
        services.seed_entries(final, organiser, [1])

    assert refused.value.code == "stage_advanced"


def test_the_stages_page_sets_the_seeds(
    client: Client, tournament: Tournament, final: Stage, organiser: User
) -> None:
    checked_in(tournament, 12)
    client.force_login(organiser)

    response = client.post(
        f"/organiser/{tournament.slug}/stages/{final.pk}/seeds/",
        {"numbers": "#3, 11"},
        HTTP_HX_REQUEST="true",
    )

    assert response.status_code == 200
    assert set(Entry.objects.filter(seeded_into=final).values_list("number", flat=True)) == {3, 11}
    assert "#3, #11" in response.content.decode()
    refused = client.post(
        f"/organiser/{tournament.slug}/stages/{final.pk}/seeds/",
        {"numbers": "99"},
        HTTP_HX_REQUEST="true",
    )
    assert refused.status_code == 422 and "#99" in refused.content.decode()


def test_the_api_sets_the_seeds_for_organisers_only(
    client: Client, tournament: Tournament, final: Stage, organiser: User, head_referee: User
) -> None:
    checked_in(tournament, 4)
    url = f"/api/stages/{final.pk}/seeds/"

    client.force_login(head_referee)
    assert client.put(url, {"entries": [4]}, content_type="application/json").status_code in (
        403,
        404,
    )
    client.force_login(organiser)
    response = client.put(url, {"entries": [4]}, content_type="application/json")

    assert response.status_code == 200 and response.json() == {"entries": [4]}


def test_advancing_is_audited_with_who_advanced(
    tournament: Tournament, stage: Stage, final: Stage, organiser: User, head_referee: User
) -> None:
    quick_format(tournament)
    checked_in(tournament, 8)
    services.seed_entries(final, organiser, [8])
    play_stage(stage, organiser, head_referee)
    stage.refresh_from_db()
    ranking = services.stage_ranking(stage).keys

    services.advance_stage(stage, organiser, ranking)

    entry = AuditEntry.objects.get(action=AuditEntry.Action.STAGE_ADVANCED)
    advanced = set(StageEntrant.objects.filter(stage=final).values_list("entry__number", flat=True))
    assert entry.actor == organiser and entry.data["to"] == "Final"
    assert set(entry.data["advanced"]) == advanced and 8 in advanced
