"""The settings page lists every switch of the event's ruleset under "Rules of this event", in
the reader's language, with its value and the preset's; the organiser changes them there until
a round is published (a bad value refused on its own switch), and the dashboard says how many
the event changed."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from tests.factories import RoundFactory
from tournaments.models import Round, Stage, Tournament

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}
URL = "/organiser/nagoya-open/settings/"


def page_data(client: Client) -> dict[str, Any]:
    """What the page's form sends when the organiser changes nothing."""
    form = client.get(URL).context["form"]
    data = {k: v for k, v in form.initial.items() if v is not None}
    data["undo_requires_approval"] = "on" if data.pop("undo_requires_approval") else ""
    for name, field in form.fields.items():
        if name.startswith("switch_"):
            data[name] = field.initial
    return data


def test_every_rule_is_listed_with_its_japanese_name(
    client_ja: Client, tournament: Tournament, organiser: User
) -> None:
    client_ja.force_login(organiser)

    page = client_ja.get(URL).content.decode()

    assert "この大会のルール" in page
    for word in ("8切り", "11バック", "革命", "縛り", "スペ3返し", "都落ち", "イッツー", "千日手"):
        assert word in page
    assert "Rules of this event" not in page and "Suit lock" not in page
    assert "すべてのルールがプリセットどおりです。" in page
    # The table decides how many play at it: not a rule the event sets.
    assert 'name="switch_seats"' not in page


def test_11_back_as_a_choice_is_saved_and_marked_as_changed(
    client: Client, tournament: Tournament, organiser: User
) -> None:
    client.force_login(organiser)

    saved = client.post(URL, {**page_data(client), "switch_eleven_back": '"choice"'}, **HTMX)

    assert saved.status_code == 200
    body = saved.content.decode()
    assert "Rules of this event" in body  # what was saved, in the page's words
    tournament.refresh_from_db()
    assert tournament.ruleset_overrides == {"eleven_back": "choice"}
    assert 'data-switch="eleven_back"' in body
    assert "Changed (preset: off)" in body
    assert body.count('data-testid="switch-changed"') == 1
    dashboard = client.get("/organiser/nagoya-open/").content.decode()
    assert "1 rule changed for this event" in dashboard
    assert 'data-testid="rules-unset-warning"' not in dashboard


def test_a_card_list_is_written_as_on_the_table(
    client: Client, tournament: Tournament, organiser: User
) -> None:
    client.force_login(organiser)

    client.post(URL, {**page_data(client), "switch_first_lead_cards": "3D 3S"})

    tournament.refresh_from_db()
    assert tournament.ruleset_overrides == {"first_lead_cards": ["3D", "3S"]}


def test_a_bad_value_is_refused_on_its_switch_in_japanese(
    client_ja: Client, tournament: Tournament, organiser: User
) -> None:
    client_ja.force_login(organiser)

    # A joker is never the opening card (REFERENCE A4: 3S, then 3C, 3D, 3H).
    refused = client_ja.post(
        URL,
        {**page_data(client_ja), "switch_first_lead_cards": "JK", "switch_eight_cut": "false"},
        **HTMX,
    )

    assert refused.status_code == 422
    body = refused.content.decode()
    assert "[switch_invalid]" in body
    start = body.index('id="field-switch_first_lead_cards"')
    assert "field-error" in body[start : body.index("</div>", start)]
    assert "は指定できません" in body
    tournament.refresh_from_db()
    assert tournament.ruleset_overrides == {}


def test_after_a_round_is_published_the_rules_are_shown_fixed(
    client: Client, tournament: Tournament, organiser: User, stage: Stage
) -> None:
    tournament.ruleset_overrides = {"eleven_back": "choice"}
    tournament.save(update_fields=["ruleset_overrides"])
    RoundFactory(stage=stage, status=Round.Status.PUBLISHED, published_at=timezone.now())
    client.force_login(organiser)

    page = client.get(URL)
    body = page.content.decode()
    client.post(URL, {**page_data(client), "switch_eleven_back": '"toggle"'})

    assert page.context["form"].fields["switch_eleven_back"].disabled
    assert 'data-testid="rules-fixed"' in body and "Fixed: a round is published." in body
    tournament.refresh_from_db()
    assert tournament.ruleset_overrides == {"eleven_back": "choice"}
