"""The head referee signs in to /referee/ like every official: the page links each round they
run to its progress page (where they confirm the tables' results), and does not tell them,
with no table of their own, to ask the head referee."""

from __future__ import annotations

import pytest
from django.test import Client

from .conftest import Crew

pytestmark = pytest.mark.django_db


def test_the_head_referee_finds_the_progress_page_of_each_round_they_run(
    client: Client, crew: Crew
) -> None:
    progress_url = f"/organiser/{crew.tournament.slug}/rounds/{crew.table.round_id}/progress/"
    client.force_login(crew.head_referee)

    html = client.get("/referee/").content.decode()

    assert f'href="{progress_url}" data-testid="run-round-progress"' in html
    assert "ask the head referee" not in html
    assert "No table of your own to referee" in html
    assert client.get(progress_url).status_code == 200


def test_a_referee_with_no_table_is_still_told_whom_to_ask(client: Client, crew: Crew) -> None:
    client.force_login(crew.other_referee)

    html = client.get("/referee/").content.decode()

    assert "No table assigned yet — ask the head referee" in html
    assert "run-round-progress" not in html
