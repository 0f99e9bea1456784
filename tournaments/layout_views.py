"""The dashboard's draw preview (issue #12, uneven fields): for the stage's checked-in players,
what the tournament's uneven-tables policy gives — "22 players → 4 tables of 4 + 2 tables of
3" — and a small form to choose the policy (tables of 3, tables of 5, byes with their points)
before the draw. The preview and `services.draw_round` both read `selectors.draw_layout`, so
they cannot disagree. Thin views over `services.update_tournament_settings` (one write path
for settings: a new policy applies to the rounds drawn from then on); htmx requests get the
preview partial (status 422 with the error in it on a refusal)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_POST

from config.language import in_active_language
from tournaments import services
from tournaments.models import Stage, Tournament
from tournaments.seating import MIN_TABLE, SeatingError
from tournaments.selectors import draw_layout, organised_tournaments

PREVIEW = "organiser/draw_layout.html#preview"


class UnevenTablesForm(forms.Form):
    uneven_tables = forms.ChoiceField(
        label=gettext_lazy("When the field does not divide"),
        choices=Tournament.UnevenTables.choices,
        widget=forms.RadioSelect,
    )
    bye_points = forms.IntegerField(
        label=gettext_lazy("Points for a bye"), min_value=-1000, max_value=1000, initial=0
    )


def preview_context(
    stage: Stage,
    *,
    form: UnevenTablesForm | None = None,
    error: str = "",
    notices: Sequence[str] = (),
) -> dict[str, Any]:
    """What the preview partial shows for `stage`."""
    tournament = stage.tournament
    try:
        layout = draw_layout(stage)
    except SeatingError:  # too few players: table size and policy are validated when saved
        layout = None
        if tournament.plays_in_teams:
            cannot_seat = _(
                "No draw yet: at least 2 teams, both players checked in, are needed for a table."
            )
        else:
            cannot_seat = _("No draw yet: at least %(count)s players are needed for a table.") % {
                "count": MIN_TABLE
            }
    else:
        cannot_seat = ""
    places = tournament.points_table.get("places", {})
    unscored = sorted({n for n in (layout.sizes if layout else ()) if str(n) not in places})
    return {
        "tournament": tournament,
        "stage": stage,
        "layout": layout,
        "cannot_seat": cannot_seat,
        "unscored": unscored,
        "policy_label": Tournament.UnevenTables(tournament.uneven_tables).label,
        "policy_form": form
        or UnevenTablesForm(
            initial={
                "uneven_tables": tournament.uneven_tables,
                "bye_points": tournament.bye_points,
            },
            auto_id=f"id_s{stage.pk}_%s",
        ),
        "policy_error": error,
        "policy_notices": notices,
    }


def _stage_for_organiser(request: HttpRequest, slug: str, stage_id: int) -> Stage:
    tournament = get_object_or_404(organised_tournaments(request.user), slug=slug)
    return get_object_or_404(tournament.stages.select_related("tournament"), pk=stage_id)


@login_required
@require_GET
def draw_layout_preview(request: HttpRequest, slug: str, stage_id: int) -> HttpResponse:
    """The preview partial alone (htmx refreshes it after a check-in on the dashboard)."""
    stage = _stage_for_organiser(request, slug, stage_id)
    return render(request, PREVIEW, preview_context(stage))


@login_required
@require_POST
def set_policy(request: HttpRequest, slug: str, stage_id: int) -> HttpResponse:
    stage = _stage_for_organiser(request, slug, stage_id)
    form = UnevenTablesForm(request.POST, auto_id=f"id_s{stage.pk}_%s")
    error = ""
    notices: list[str] = []
    if form.is_valid():
        try:
            change = services.update_tournament_settings(
                stage.tournament,
                request.user,
                uneven_tables=form.cleaned_data["uneven_tables"],
                bye_points=form.cleaned_data["bye_points"],
            )
        except services.DomainError as refusal:
            error = in_active_language(refusal.message_en, refusal.message_ja)
        else:
            notices = [in_active_language(n.message_en, n.message_ja) for n in change.notices]
    else:
        error = _("Choose a policy and whole bye points.")
    is_htmx = bool(getattr(request, "htmx", False))
    if not is_htmx:
        if error:
            messages.error(request, error)
        else:
            messages.success(request, _("Uneven-tables policy saved."))
            for notice in notices:
                messages.info(request, notice)
        return redirect("organiser:dashboard", slug=slug)
    stage = _stage_for_organiser(request, slug, stage_id)  # the tournament as saved
    if error:
        return render(request, PREVIEW, preview_context(stage, form=form, error=error), status=422)
    return render(request, PREVIEW, preview_context(stage, notices=notices))
