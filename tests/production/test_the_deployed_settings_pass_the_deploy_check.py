"""The settings the stage's stack runs, as deployed behind a TLS proxy (`HTTPS` at its default,
on), pass Django's deployment check with no warning; and the stack's own processes run them
without a system-check error."""

from __future__ import annotations

import pytest

from tests.production.conftest import Production

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


def test_check_deploy_finds_nothing_in_the_stacks_settings(production: Production) -> None:
    result = production.manage("check", "--deploy", "--fail-level", "WARNING", unset=("HTTPS",))

    assert result.returncode == 0, result.stderr + result.stdout
    assert "System check identified no issues" in result.stdout


def test_the_stacks_own_settings_pass_the_system_check(production: Production) -> None:
    result = production.manage("check", "--fail-level", "WARNING")

    assert result.returncode == 0, result.stderr + result.stdout
