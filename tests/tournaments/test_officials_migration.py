"""Migration 0003 turns the old `Tournament.organisers` rows into organiser `Official`s."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("tournaments", "0002_stages_rounds_tables_officials")]
AFTER = [("tournaments", "0003_organisers_to_officials")]


@pytest.fixture
def back_to_latest_afterwards() -> Iterator[None]:
    # Later tests need the whole schema: leave the database fully migrated, as it was found.
    yield
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("back_to_latest_afterwards")
def test_existing_organisers_become_organiser_officials() -> None:
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    old = executor.loader.project_state(BEFORE).apps
    user = old.get_model("auth", "User").objects.create(username="legacy")
    tournament = old.get_model("tournaments", "Tournament").objects.create(
        name="Legacy Cup", slug="legacy-cup"
    )
    tournament.organisers.add(user)

    executor = MigrationExecutor(connection)
    executor.migrate(AFTER)
    new = executor.loader.project_state(AFTER).apps

    officials = new.get_model("tournaments", "Official").objects.all()
    assert [(o.user.username, o.tournament.slug, o.role) for o in officials] == [
        ("legacy", "legacy-cup", "organiser")
    ]
