"""After saving the settings, the organiser is told what was saved in the words of the form
("Games a set 1セットのゲーム数"), never the code names of the fields ("games_per_set")."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def test_the_saved_message_names_the_changed_fields_as_the_form_labels_them(
    client: Client, organiser: User, tournament: Tournament
) -> None:
    client.force_login(organiser)
    url = f"/organiser/{tournament.slug}/settings/"
    form = client.get(url).context["form"]
    data = {k: v for k, v in form.initial.items() if v is not None}
    data["undo_requires_approval"] = "on" if data.pop("undo_requires_approval") else ""

    saved = client.post(url, {**data, "venue": "Hall B 会場B", "games_per_set": "2"}, **HTMX)

    body = saved.content.decode()
    assert saved.status_code == 200
    saved_line = body.split("Saved:")[1].split("</p>")[0]
    assert "Venue" in saved_line and "Games a set" in saved_line
    assert "games_per_set" not in saved_line
