"""Webhooks: organisers' URLs receive signed JSON for `game.finished`, `standings.changed` and
`stage.cut`.

Each event becomes one `WebhookDelivery` row per subscribed endpoint, written in the
transaction that caused it, with its `scoring.tasks.deliver_webhook` task in the outbox
(`games.outbox`: handed to Celery after commit, or once the broker is back). Celery retries a
failed delivery with exponential backoff; `resend_pending` (beat) sends again a delivery still
pending long after its last attempt (its task was lost with the broker's data). The body is
stored, so every attempt sends the same bytes under the same signature:

    X-Kakumei-Signature: sha256=<hex HMAC-SHA256 of the raw body, keyed by the endpoint secret>
    X-Kakumei-Event: standings.changed
    X-Kakumei-Delivery: <uuid, the same on every retry: receivers de-duplicate with it>

Payloads carry results and standings, never hands.
"""

from __future__ import annotations

import datetime
import hashlib
import hmac
import ipaddress
import json
import socket
import urllib.error
import urllib.request
from collections.abc import Callable, Sequence
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone

from games import outbox
from games.models import OutboxMessage
from games.results import result_fields
from scoring.exports import order_data, rounds_data, standing_dict, team_row_dict
from scoring.models import WebhookDelivery, WebhookEndpoint, WebhookEvent
from scoring.selectors import team_board_rows
from scoring.standings import ScopeRef, result_is_provisional, scope_rounds, standings
from tournaments.models import Tournament
from tournaments.permissions import AnyUser, require_organiser


class DeliveryFailed(Exception):
    """The receiver did not answer 2xx (or not at all); Celery retries with backoff."""


def sign(secret: str, body: bytes) -> str:
    return "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()


def check_url(url: str) -> str:
    """An http(s) URL whose host resolves only to public addresses (raises `ValidationError`).

    urllib would also open file:// and ftp://; and a host on loopback or a private network
    would let an organiser make this server call internal services. Checked when an endpoint
    is registered and again before every delivery, since DNS may have changed meanwhile.
    """
    parts = urlsplit(url.strip())
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValidationError("A webhook URL must be http:// or https://.", code="bad_scheme")
    if not settings.WEBHOOK_ALLOW_PRIVATE_ADDRESSES:
        try:
            port = parts.port or (443 if parts.scheme == "https" else 80)
            infos = socket.getaddrinfo(parts.hostname, port, proto=socket.IPPROTO_TCP)
        except (OSError, ValueError) as error:
            raise ValidationError(
                f"The webhook host {parts.hostname!r} does not resolve.", code="unresolvable"
            ) from error
        for info in infos:
            address = ipaddress.ip_address(str(info[4][0]).split("%")[0])
            if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped:
                address = address.ipv4_mapped
            if not address.is_global or address.is_multicast:
                raise ValidationError(
                    f"The webhook host {parts.hostname!r} is an internal address ({address}).",
                    code="internal_address",
                )
    return url.strip()


# --- organiser actions -----------------------------------------------------------------------


def create_endpoint(
    tournament: Tournament, actor: AnyUser, url: str, events: Sequence[str]
) -> WebhookEndpoint:
    require_organiser(actor, tournament)
    wanted = [e for e in WebhookEvent.values if e in set(events)]
    if not wanted or len(wanted) != len(set(events)):
        raise ValidationError("Pick at least one known event.", code="bad_events")
    return WebhookEndpoint.objects.create(tournament=tournament, url=check_url(url), events=wanted)


def set_endpoint_active(endpoint: WebhookEndpoint, actor: AnyUser, active: bool) -> None:
    require_organiser(actor, endpoint.tournament)
    WebhookEndpoint.objects.filter(pk=endpoint.pk).update(active=active)


def delete_endpoint(endpoint: WebhookEndpoint, actor: AnyUser) -> None:
    require_organiser(actor, endpoint.tournament)
    endpoint.delete()


# --- events ----------------------------------------------------------------------------------


def emit(
    tournament_id: int, event: str, build: Callable[[], dict[str, Any] | None]
) -> list[WebhookDelivery]:
    """Log one delivery per active endpoint subscribed to `event`; send them after commit.

    `build` makes the event's data (None: nothing to say after all). It runs only when an
    endpoint subscribes: most tournaments have none, and every game's end passes here.
    """
    endpoints = [
        e
        for e in WebhookEndpoint.objects.filter(tournament_id=tournament_id, active=True)
        if event in e.events
    ]
    if not endpoints:
        return []
    data = build()
    if data is None:
        return []
    deliveries = []
    for endpoint in endpoints:
        delivery = WebhookDelivery(endpoint=endpoint, event=event)
        body = {
            "event": event,
            "delivery": str(delivery.uuid),
            "created_at": timezone.now().isoformat(),
            "data": data,
        }
        delivery.body = json.dumps(body, ensure_ascii=False, separators=(",", ":"))
        delivery.save()
        deliveries.append(delivery)
        outbox.enqueue("scoring.deliver_webhook", delivery_id=delivery.pk)
    return deliveries


def deliver(delivery_id: int) -> WebhookDelivery:
    """POST one delivery; raise `DeliveryFailed` on anything but 2xx (the task retries).

    Idempotent: a delivered or failed delivery is not sent again.
    """
    delivery = WebhookDelivery.objects.select_related("endpoint").get(pk=delivery_id)
    if delivery.status != WebhookDelivery.Status.PENDING:
        return delivery
    endpoint = delivery.endpoint
    raw = delivery.body.encode()
    try:
        url = check_url(endpoint.url)
    except ValidationError as refused:
        WebhookDelivery.objects.filter(
            pk=delivery.pk, status=WebhookDelivery.Status.PENDING
        ).update(
            attempts=F("attempts") + 1,
            last_error=" ".join(refused.messages)[:2000],
            last_attempt_at=timezone.now(),
        )
        raise DeliveryFailed(" ".join(refused.messages)) from refused
    request = urllib.request.Request(
        url,
        data=raw,
        method="POST",
        headers={
            "Content-Type": "application/json",
            "User-Agent": "Kakumei-Webhooks/1",
            "X-Kakumei-Event": delivery.event,
            "X-Kakumei-Delivery": str(delivery.uuid),
            "X-Kakumei-Signature": sign(endpoint.secret, raw),
        },
    )
    now = timezone.now()
    code: int | None = None
    error = ""
    try:
        with urllib.request.urlopen(request, timeout=settings.WEBHOOK_TIMEOUT_SECONDS) as answer:
            code = int(answer.status)
    except urllib.error.HTTPError as http_error:
        code, error = int(http_error.code), f"HTTP {http_error.code}"
    except (urllib.error.URLError, OSError) as network_error:
        error = f"{type(network_error).__name__}: {network_error}"
    pending = WebhookDelivery.objects.filter(pk=delivery.pk, status=WebhookDelivery.Status.PENDING)
    if code is not None and 200 <= code < 300:
        pending.update(
            status=WebhookDelivery.Status.DELIVERED,
            attempts=F("attempts") + 1,
            response_code=code,
            last_attempt_at=now,
            delivered_at=now,
        )
        delivery.refresh_from_db()
        return delivery
    pending.update(
        attempts=F("attempts") + 1, response_code=code, last_error=error[:2000], last_attempt_at=now
    )
    raise DeliveryFailed(error or f"HTTP {code}")


# A failed delivery not attempted again for this long has no task behind it any more (Celery's
# retries come at most about 10 minutes apart): its task was lost (a broker that lost its data,
# a worker that died holding it). One never attempted is lost much sooner: its task is handed
# over at commit and normally runs within seconds (`WEBHOOK_UNSENT_AFTER_SECONDS`).
RETRY_LOST_AFTER_SECONDS = 900


def resend_pending() -> list[int]:
    """Give every pending delivery whose task was lost a new one (beat: `resend_pending_webhooks`).
    Deliveries whose task still waits in the outbox are not lost, only waiting. A delivery sent
    twice is posted once (`deliver` checks its status first) or, at worst, twice with the same
    `X-Kakumei-Delivery`, which receivers de-duplicate."""
    now = timezone.now()
    retry_lost = now - datetime.timedelta(seconds=RETRY_LOST_AFTER_SECONDS)
    unsent = now - datetime.timedelta(seconds=settings.WEBHOOK_UNSENT_AFTER_SECONDS)
    waiting = OutboxMessage.objects.filter(task="scoring.deliver_webhook").values_list(
        "kwargs__delivery_id", flat=True
    )
    lost = (
        WebhookDelivery.objects.filter(status=WebhookDelivery.Status.PENDING)
        .filter(
            Q(last_attempt_at__lt=retry_lost)
            | Q(last_attempt_at__isnull=True, created_at__lt=unsent)
        )
        .exclude(pk__in=[int(pk) for pk in waiting])
    )
    ids = list(lost.order_by("pk").values_list("pk", flat=True)[:500])
    with transaction.atomic():
        for delivery_id in ids:
            outbox.enqueue("scoring.deliver_webhook", delivery_id=delivery_id)
    return ids


def give_up(delivery_id: int) -> None:
    WebhookDelivery.objects.filter(pk=delivery_id, status=WebhookDelivery.Status.PENDING).update(
        status=WebhookDelivery.Status.FAILED
    )


# --- payloads (public data only) -------------------------------------------------------------


def game_finished_data(game_id: int) -> dict[str, Any] | None:
    """A game's current result (sent when it is written: the game's end, a forfeit, a
    correction). `provisional` is true while the result awaits a second official's
    confirmation; `corrected_after_reveal` flags a correction made after the round's seed was
    revealed; `round_status` says whether the round is complete."""
    from games.models import Game

    game = Game.objects.select_related("table__round__stage__tournament").filter(pk=game_id).first()
    if game is None:
        return None
    results = list(game.results.select_related("entry__player").order_by("place"))
    if not results:  # the results were removed (an undo reopened the game, or it was void)
        return None
    round_ = game.table.round
    stage = round_.stage
    return {
        "tournament": stage.tournament.slug,
        "game": {
            "id": game.pk,
            "stage": stage.pk,
            "round": round_.number,
            "round_status": round_.status,
            "table": game.table.number,
            "set": game.set_number,
            "game": game.game_number,
            "attempt": game.attempt,
            "status": game.status,
            "result_version": game.result_version,
        },
        "provisional": result_is_provisional(game),
        "corrected_after_reveal": game.corrected_after_reveal,
        "results": [
            {
                "entry": r.entry.number,
                "player": r.entry.player.display_name,
                "place": r.place,
                **result_fields(r.team, r.detail),
                "forfeit": r.forfeit,
                "points": r.points,
            }
            for r in results
        ],
    }


def standings_changed_data(ref: ScopeRef, tournament: Tournament, version: int) -> dict[str, Any]:
    """A scope's standings at `version`: its rounds, every player's line and, for a team event
    (掼蛋 Guandan), every team's line as the team board and the team-standings API give it
    (`team_standings`: rank, team, members, match points, W-D-L, level difference, the match
    in play with the levels as they stand — nothing of any hand)."""
    data: dict[str, Any] = {
        "scope": {"kind": ref.kind, "id": ref.id},
        "version": version,
        "order": order_data(ref),
        **rounds_data(scope_rounds(ref)),
        "standings": [standing_dict(row) for row in standings(ref)],
    }
    if tournament.plays_in_teams:
        data["team_standings"] = [team_row_dict(row) for row in team_board_rows(ref)]
    return data
