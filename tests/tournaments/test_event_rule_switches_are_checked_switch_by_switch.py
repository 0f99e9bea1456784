"""An organiser pins the event's rule switches (11-back as a choice in a house league): each
switch and value is checked by the ruleset's own family, a bad one refused on that switch in
English and Japanese, values equal to the preset's are not kept, and the change is audited
with its old and new values like every other setting."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from tests.factories import GuandanTournamentFactory, OfficialFactory
from tournaments import services
from tournaments.models import AuditEntry, Official, Tournament

pytestmark = pytest.mark.django_db


def refused(
    tournament: Tournament, actor: User, overrides: object
) -> dict[str, services.DomainError]:
    with pytest.raises(services.SettingsRefused) as refusal:
        services.update_tournament_settings(tournament, actor, ruleset_overrides=overrides)
    return dict(refusal.value.errors)


def test_11_back_as_a_choice_is_pinned_and_audited(tournament: Tournament, organiser: User) -> None:
    change = services.update_tournament_settings(
        tournament, organiser, ruleset_overrides={"eleven_back": "choice"}
    )

    tournament.refresh_from_db()
    assert tournament.ruleset_overrides == {"eleven_back": "choice"}
    assert "ruleset_overrides" in change.changed
    audit = AuditEntry.objects.get(action=AuditEntry.Action.SETTINGS_CHANGED)
    assert audit.data["changed"]["ruleset_overrides"] == {
        "old": {},
        "new": {"eleven_back": "choice"},
    }


def test_a_value_the_preset_already_has_is_no_change(
    tournament: Tournament, organiser: User
) -> None:
    # JDF plays with 8切り and without 11-back (JDF rules 11; 11-back is a house rule).
    change = services.update_tournament_settings(
        tournament, organiser, ruleset_overrides={"eight_cut": True, "eleven_back": "off"}
    )

    tournament.refresh_from_db()
    assert tournament.ruleset_overrides == {}
    assert not change.changed
    assert not AuditEntry.objects.filter(action=AuditEntry.Action.SETTINGS_CHANGED).exists()


def test_an_unknown_switch_is_refused_by_name(tournament: Tournament, organiser: User) -> None:
    errors = refused(tournament, organiser, {"twelve_back": True})

    error = errors["ruleset_overrides.twelve_back"]
    assert error.code == "unknown_switch"
    assert "twelve_back" in error.message_en and "twelve_back" in error.message_ja
    tournament.refresh_from_db()
    assert tournament.ruleset_overrides == {}


def test_a_bad_value_is_refused_on_its_switch_in_both_languages(
    tournament: Tournament, organiser: User
) -> None:
    # 11-back is off, choice or toggle: "sometimes" is none of them.
    errors = refused(tournament, organiser, {"eleven_back": "sometimes", "eight_cut": False})

    assert set(errors) == {"ruleset_overrides.eleven_back"}
    error = errors["ruleset_overrides.eleven_back"]
    assert error.code == "switch_invalid"
    assert "11-back" in error.message_en
    assert "11バック" in error.message_ja
    tournament.refresh_from_db()
    assert tournament.ruleset_overrides == {}  # all or nothing: 8切り was not changed either


def test_on_or_off_is_not_a_number(tournament: Tournament, organiser: User) -> None:
    errors = refused(tournament, organiser, {"suit_lock_after": True})

    assert errors["ruleset_overrides.suit_lock_after"].code == "switch_invalid"


def test_the_players_at_a_table_are_the_tables_own(tournament: Tournament, organiser: User) -> None:
    errors = refused(tournament, organiser, {"seats": 5})

    assert errors["ruleset_overrides.seats"].code == "switch_decided_by_table"


def test_the_rules_are_an_object_of_switches(tournament: Tournament, organiser: User) -> None:
    errors = refused(tournament, organiser, ["eleven_back", "choice"])

    assert errors["ruleset_overrides"].code == "invalid"


def test_a_guandan_event_pins_its_own_switches(organiser: User) -> None:
    event = GuandanTournamentFactory()
    OfficialFactory(tournament=event, user=organiser, role=Official.Role.ORGANISER)

    services.update_tournament_settings(
        event, organiser, ruleset_overrides={"tribute_tie": "first_chooses"}
    )
    errors = refused(event, organiser, {"eleven_back": "choice"})  # a 大富豪 switch

    event.refresh_from_db()
    assert event.ruleset_overrides == {"tribute_tie": "first_chooses"}
    assert errors["ruleset_overrides.eleven_back"].code == "unknown_switch"
