"""Stages are validated when they are created or edited, not only when a round is drawn: the
advancement rule lives on the stage people advance out of."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from tests.factories import RoundFactory
from tournaments import services
from tournaments.models import AuditEntry, Stage, Tournament

from .conftest import checked_in


def refused(code: str, call: object, *args: object, **kwargs: object) -> services.StageRuleError:
    with pytest.raises(services.StageRuleError) as error:
        call(*args, **kwargs)  # type: ignore[operator]
    assert error.value.code == code, error.value.message_en
    assert error.value.message_ja
    return error.value


pytestmark = pytest.mark.django_db


def test_a_cut_stores_its_rule_on_the_stage_people_advance_out_of(
    tournament: Tournament, stage: Stage, organiser: User
) -> None:
    checked_in(tournament, 16)

    cut = services.add_stage(
        tournament, organiser, name="Semi-final", kind=Stage.Kind.CUT, advance_top_n=8
    )

    stage.refresh_from_db()
    assert (stage.advance_top_n, cut.advance_top_n, cut.order) == (8, None, 2)
    audit = AuditEntry.objects.get(action=AuditEntry.Action.STAGE_CREATED)
    assert audit.data["rule_of"]["advance_top_n"] == 8


def test_top_n_must_be_smaller_than_the_field_of_the_previous_stage(
    tournament: Tournament, stage: Stage, organiser: User
) -> None:
    checked_in(tournament, 12)

    refused("top_n_too_large", services.add_stage, tournament, organiser, advance_top_n=12)
    refused("top_n_invalid", services.add_stage, tournament, organiser, advance_top_n=0)
    refused("too_few_advance", services.add_stage, tournament, organiser, advance_top_n=2)
    assert tournament.stages.count() == 1


def test_a_rule_is_required_and_top_k_fits_the_tables(
    tournament: Tournament, stage: Stage, organiser: User
) -> None:
    checked_in(tournament, 16)

    refused("rule_required", services.add_stage, tournament, organiser, kind=Stage.Kind.FINAL)
    refused("top_k_invalid", services.add_stage, tournament, organiser, advance_top_k_per_table=5)
    final = services.add_stage(
        tournament, organiser, kind=Stage.Kind.FINAL, advance_top_k_per_table=1
    )
    assert final.kind == Stage.Kind.FINAL


def test_nothing_comes_after_a_final_and_a_final_has_no_advancement(
    tournament: Tournament, stage: Stage, organiser: User
) -> None:
    checked_in(tournament, 16)
    final = services.add_stage(tournament, organiser, kind=Stage.Kind.FINAL, advance_top_n=4)

    refused("after_final", services.add_stage, tournament, organiser, advance_top_n=2)
    refused("final_no_advancement", services.update_stage, final, organiser, advance_top_n=2)


def test_an_uneven_number_advancing_is_warned_with_the_policy(
    tournament: Tournament, stage: Stage, organiser: User
) -> None:
    checked_in(tournament, 16)

    notices = services.check_stage_rule(stage, 6, None, target_kind=Stage.Kind.CUT)

    (notice,) = [n for n in notices if n.code == "uneven_tables"]
    assert "6 players" in notice.message_en and "2 tables of 3" in notice.message_en
    Tournament.objects.filter(pk=tournament.pk).update(uneven_tables="byes", bye_points=1)
    stage.tournament.refresh_from_db()
    notices = services.check_stage_rule(stage, 6, None, target_kind=Stage.Kind.CUT)
    assert any("2 byes" in n.message_en for n in notices)
    assert services.check_stage_rule(stage, 8, None, target_kind=Stage.Kind.CUT) == []


def test_a_stage_with_rounds_keeps_its_rule(
    tournament: Tournament, stage: Stage, organiser: User
) -> None:
    checked_in(tournament, 16)
    cut = services.add_stage(tournament, organiser, advance_top_n=8)
    RoundFactory(stage=stage, number=1)

    error = refused("stage_has_rounds", services.update_stage, stage, organiser, advance_top_n=4)
    assert "fixed" in error.message_en
    # The cut itself has no round: it may still be edited, and renamed.
    changed = services.update_stage(cut, organiser, name="準決勝A", carry_over_totals=True)
    assert set(changed) == {"name", "carry_over_totals"}
    assert AuditEntry.objects.filter(action=AuditEntry.Action.STAGE_EDITED).count() == 1


def test_only_a_stage_without_rounds_can_be_deleted(
    tournament: Tournament, stage: Stage, organiser: User
) -> None:
    checked_in(tournament, 16)
    cut = services.add_stage(tournament, organiser, advance_top_n=8)
    final = services.add_stage(tournament, organiser, kind=Stage.Kind.FINAL, advance_top_n=4)

    refused("stage_not_last", services.delete_stage, cut, organiser)
    RoundFactory(stage=stage, number=1)
    refused("stage_has_rounds", services.delete_stage, stage, organiser)
    services.delete_stage(final, organiser)

    assert list(tournament.stages.values_list("name", flat=True)) == ["Qualifying", cut.name]


def test_a_final_can_only_be_the_last_stage(
    tournament: Tournament, stage: Stage, organiser: User
) -> None:
    checked_in(tournament, 16)
    cut = services.add_stage(tournament, organiser, advance_top_n=8)
    services.add_stage(tournament, organiser, kind=Stage.Kind.FINAL, advance_top_n=4)

    refused("after_final", services.update_stage, cut, organiser, kind=Stage.Kind.FINAL)


def test_a_stranger_may_not_add_a_stage(tournament: Tournament, stage: Stage) -> None:
    from django.core.exceptions import PermissionDenied

    from tests.factories import UserFactory

    with pytest.raises(PermissionDenied):
        services.add_stage(tournament, UserFactory(), advance_top_n=2)


def test_a_stage_with_rounds_but_no_rule_may_still_get_one(
    tournament: Tournament, stage: Stage, organiser: User
) -> None:
    """A cut forgotten until qualifying started: nobody was told of a different rule."""
    checked_in(tournament, 16)
    RoundFactory(stage=stage, number=1)

    services.add_stage(tournament, organiser, advance_top_n=8)

    stage.refresh_from_db()
    assert stage.advance_top_n == 8
