"""Organiser pages for scoring: recompute progress, "recompute now", webhook endpoints and
their delivery log. Every view fetches the tournament through `organised_tournaments`, so other
organisers' tournaments are simply not found; services check the permission again."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.db import transaction
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy
from django.views.decorators.http import require_GET, require_POST

from games import outbox
from scoring import webhooks
from scoring.models import RecomputeRun, WebhookDelivery, WebhookEndpoint, WebhookEvent
from scoring.recompute import start_run
from scoring.views import HtmxHttpRequest
from tournaments.models import Tournament
from tournaments.permissions import require_organiser
from tournaments.selectors import organised_tournaments


class EndpointForm(forms.Form):
    url = forms.URLField(label=gettext_lazy("URL"), max_length=500, assume_scheme="https")
    events = forms.MultipleChoiceField(
        label=pgettext_lazy("webhook", "Events"),
        choices=WebhookEvent.choices,
        widget=forms.CheckboxSelectMultiple,
        initial=list(WebhookEvent.values),
    )


def _tournament(request: HtmxHttpRequest, slug: str) -> Tournament:
    return get_object_or_404(organised_tournaments(request.user), slug=slug)


def _runs(tournament: Tournament) -> list[RecomputeRun]:
    return list(RecomputeRun.objects.filter(tournament=tournament)[:5])


def _context(tournament: Tournament, **extra: Any) -> dict[str, Any]:
    runs = _runs(tournament)
    return {
        "tournament": tournament,
        "runs": runs,
        "running": any(r.status == RecomputeRun.Status.RUNNING for r in runs),
        "endpoints": list(WebhookEndpoint.objects.filter(tournament=tournament)),
        "deliveries": list(
            WebhookDelivery.objects.filter(endpoint__tournament=tournament).select_related(
                "endpoint"
            )[:50]
        ),
        "form": EndpointForm(),
        **extra,
    }


@login_required
@require_GET
def scoring_dashboard(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    tournament = _tournament(request, slug)
    context = _context(tournament)
    if request.htmx and request.GET.get("part") == "runs":
        return render(request, "scoring/organiser.html#runs", context)
    return render(request, "scoring/organiser.html", context)


@login_required
@require_POST
def recompute_now(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """Start a full recompute of this tournament; its progress shows on the page."""
    tournament = _tournament(request, slug)
    require_organiser(request.user, tournament)
    with transaction.atomic():  # the run row and its task commit together
        run = start_run(tournament.pk)
        outbox.enqueue("scoring.recompute_all", run_id=run.pk, tournament_id=tournament.pk)
    messages.info(request, _("Recompute started."))
    return redirect(reverse("scoring_organiser:dashboard", args=[slug]))


@login_required
@require_POST
def add_endpoint(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    tournament = _tournament(request, slug)
    form = EndpointForm(request.POST)
    if form.is_valid():
        try:
            webhooks.create_endpoint(
                tournament, request.user, form.cleaned_data["url"], form.cleaned_data["events"]
            )
        except ValidationError as error:
            form.add_error("url", error)
        else:
            messages.success(request, _("Webhook added."))
            return redirect(reverse("scoring_organiser:dashboard", args=[slug]))
    return render(request, "scoring/organiser.html", _context(tournament, form=form), status=422)


@login_required
@require_POST
def endpoint_action(request: HtmxHttpRequest, slug: str, endpoint_id: int) -> HttpResponse:
    tournament = _tournament(request, slug)
    endpoint = get_object_or_404(WebhookEndpoint, pk=endpoint_id, tournament=tournament)
    action = request.POST.get("action")
    if action == "delete":
        webhooks.delete_endpoint(endpoint, request.user)
    elif action in ("enable", "disable"):
        webhooks.set_endpoint_active(endpoint, request.user, action == "enable")
    return redirect(reverse("scoring_organiser:dashboard", args=[slug]))
