"""Webhooks never reach internal addresses in production: an organiser cannot make the server
call its own Redis, a private network or a cloud metadata service."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from pytest_django.fixtures import Settings

from scoring import webhooks
from scoring.models import WebhookDelivery, WebhookEndpoint
from scoring.webhooks import DeliveryFailed
from tests.games.conftest import Crew
from tests.scoring.conftest import Receiver

pytestmark = pytest.mark.django_db


@pytest.fixture
def production(settings: Settings) -> None:
    settings.WEBHOOK_ALLOW_PRIVATE_ADDRESSES = False


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1:6379/",  # this machine's Redis
        "http://localhost/hook",
        "http://[::1]/hook",
        "http://10.1.2.3/hook",  # private networks
        "http://192.168.0.10/hook",
        "http://172.16.5.4/hook",
        "http://169.254.169.254/latest/meta-data/",  # cloud metadata (link-local)
        "http://0.0.0.0/hook",
        "http://[::ffff:127.0.0.1]/hook",  # loopback in IPv6 clothing
        "http://224.0.0.1/hook",  # multicast
    ],
)
def test_internal_addresses_are_refused_when_registering(
    crew: Crew, production: None, url: str
) -> None:
    with pytest.raises(ValidationError) as error:
        webhooks.create_endpoint(crew.tournament, crew.organiser, url, ["game.finished"])

    assert error.value.code == "internal_address"
    assert not WebhookEndpoint.objects.exists()


def test_a_public_address_is_accepted(crew: Crew, production: None) -> None:
    endpoint = webhooks.create_endpoint(
        crew.tournament, crew.organiser, "https://93.184.216.34/hooks/kakumei", ["stage.cut"]
    )

    assert endpoint.url == "https://93.184.216.34/hooks/kakumei"


def test_a_host_that_does_not_resolve_is_refused(crew: Crew, production: None) -> None:
    with pytest.raises(ValidationError) as error:
        webhooks.create_endpoint(
            crew.tournament, crew.organiser, "http://no-such-host.invalid/hook", ["stage.cut"]
        )

    assert error.value.code == "unresolvable"


def test_a_delivery_to_an_address_that_became_internal_is_not_sent(
    crew: Crew, receiver: Receiver, settings: Settings
) -> None:
    # Registered while allowed (say the name resolved publicly then); internal at delivery.
    endpoint = webhooks.create_endpoint(
        crew.tournament, crew.organiser, receiver.url, ["game.finished"]
    )
    delivery = WebhookDelivery.objects.create(endpoint=endpoint, event="game.finished", body="{}")
    settings.WEBHOOK_ALLOW_PRIVATE_ADDRESSES = False

    with pytest.raises(DeliveryFailed):
        webhooks.deliver(delivery.pk)

    delivery.refresh_from_db()
    assert receiver.received == []  # nothing reached the internal address
    assert delivery.status == WebhookDelivery.Status.PENDING  # Celery retries, then gives up
    assert delivery.attempts == 1
    assert "internal address" in delivery.last_error
