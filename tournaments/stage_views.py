"""Organiser pages for stages (htmx): list, add a cut or final with its advancement rule
(validated now), edit or delete a stage before it has rounds, preview who would advance, and
create a tie-break playoff (順位決定戦) for tied entrants. Thin views over
`tournaments.services`; htmx requests get the partial for the same target."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect, reswap, retarget
from django_htmx.middleware import HtmxDetails

from config.language import in_active_language
from tournaments import services
from tournaments.forms import StageForm
from tournaments.models import Stage, Tournament
from tournaments.selectors import main_stages, organised_tournaments, stage_participants


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails


def _tournament(request: HttpRequest, slug: str) -> Tournament:
    """Fetch and authorise in one step: other people's tournaments are simply not found."""
    return get_object_or_404(organised_tournaments(request.user), slug=slug)


def _stage_rows(tournament: Tournament) -> list[dict[str, Any]]:
    rows = []
    for stage in tournament.stages.prefetch_related("rounds").order_by("order"):
        rounds = list(stage.rounds.all())
        if stage.advanced_at is not None:
            status = pgettext("stage status", "advanced")
        elif any(r.is_open for r in rounds):
            status = pgettext("stage status", "in play")
        elif rounds and all(r.status in r.SETTLED for r in rounds):
            status = pgettext("stage status", "rounds complete")
        elif rounds:
            status = pgettext("stage status", "drawn")
        else:
            status = pgettext("stage status", "not started")
        rows.append(
            {
                "stage": stage,
                "rule": stage.advancement_label,
                "entrants": len(stage_participants(stage)),
                "rounds": len(rounds),
                "status": status,
                "notices": services.stage_rule_notices(stage),
                "editable": not rounds,
                "seeds": sorted(
                    tournament.entries.filter(seeded_into=stage).values_list("number", flat=True)
                ),
                "seedable": (previous := services.previous_stage(stage)) is not None
                and previous.advanced_at is None,
            }
        )
    return rows


def _new_stage_form(tournament: Tournament, data: Any = None) -> StageForm:
    previous = main_stages(tournament).last()
    initial: dict[str, Any] = {"kind": "cut"}
    if previous is not None:
        initial |= {
            "advance_top_n": previous.advance_top_n,
            "advance_top_k_per_table": previous.advance_top_k_per_table,
        }
    return StageForm(data, initial=initial)


def _context(tournament: Tournament, **extra: Any) -> dict[str, Any]:
    stages = main_stages(tournament)
    previous = stages.last()
    return {
        "tournament": tournament,
        "rows": _stage_rows(tournament),
        "form": _new_stage_form(tournament),
        "previous": previous,
        "previous_rule": previous.advancement_label if previous else "",
        "after_final": previous is not None and previous.kind == Stage.Kind.FINAL,
        **extra,
    }


def _form_errors(form: StageForm, error: services.DomainError) -> None:
    field = getattr(error, "field", "") or None
    if field not in form.fields:
        field = None
    message = in_active_language(error.message_en, error.message_ja)
    form.add_error(field, f"{message} [{error.code}]")


# What `services.update_stage` says changed, in the words of the page.
CHANGED_LABELS = {
    "name": gettext_lazy("name"),
    "kind": gettext_lazy("kind"),
    "advancement": gettext_lazy("advancement rule"),
    "carry_over_totals": gettext_lazy("carry-over of totals"),
    "tournament_order": gettext_lazy("place in the tournament's order"),
}


def _none_if_zero(value: int | None) -> int | None:
    return value or None


@login_required
@require_http_methods(["GET", "POST"])
def stages(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """The tournament's stages, and a form to add a cut or final after the last one."""
    tournament = _tournament(request, slug)
    if request.method == "GET":
        return render(request, "organiser/stages.html", _context(tournament))
    form = _new_stage_form(tournament, request.POST)
    status = 422
    if form.is_valid():
        data = form.cleaned_data
        try:
            stage = services.add_stage(
                tournament,
                request.user,
                # Blank: named after its kind, in the organiser's language (a plain string:
                # the services record the name in the audit's JSON).
                name=data["name"].strip() or str(Stage.Kind(data["kind"]).label),
                kind=data["kind"],
                advance_top_n=data["advance_top_n"],
                advance_top_k_per_table=data["advance_top_k_per_table"],
                carry_over_totals=data["carry_over_totals"],
                tournament_order=data["tournament_order"] or Stage.TournamentOrder.STAGE_FIRST,
            )
        except services.DomainError as error:
            _form_errors(form, error)
        else:
            messages.success(request, _("%(stage)s added.") % {"stage": stage.name})
            if not request.htmx:
                return redirect("organiser:stages", slug=slug)
            return render(request, "organiser/stages.html#stages-body", _context(tournament))
    context = _context(tournament, form=form)
    template = "organiser/stages.html#stages-body" if request.htmx else "organiser/stages.html"
    return render(request, template, context, status=status)


def _stage(tournament: Tournament, stage_id: int) -> Stage:
    return get_object_or_404(tournament.stages, pk=stage_id)


@login_required
@require_http_methods(["GET", "POST"])
def edit_stage(request: HtmxHttpRequest, slug: str, stage_id: int) -> HttpResponse:
    """Edit a stage: the name at any time; kind, rule out of it and carry-over before it has a
    round (refusals explained on the form)."""
    tournament = _tournament(request, slug)
    stage = _stage(tournament, stage_id)
    initial = {
        "name": stage.name,
        "kind": stage.kind,
        "advance_top_n": stage.advance_top_n,
        "advance_top_k_per_table": stage.advance_top_k_per_table,
        "carry_over_totals": stage.carry_over_totals,
        "tournament_order": stage.tournament_order,
    }
    form = StageForm(request.POST or None, initial=initial)
    if stage.kind not in (Stage.Kind.CUT, Stage.Kind.FINAL):
        form.fields["kind"].choices = [(stage.kind, stage.get_kind_display())]  # type: ignore[attr-defined]
    status = 200
    if request.method == "POST":
        status = 422
        if form.is_valid():
            data = form.cleaned_data
            try:
                changed = services.update_stage(
                    stage,
                    request.user,
                    name=data["name"],
                    kind=data["kind"] if data["kind"] != stage.kind else None,
                    advance_top_n=_none_if_zero(data["advance_top_n"]),
                    advance_top_k_per_table=_none_if_zero(data["advance_top_k_per_table"]),
                    carry_over_totals=data["carry_over_totals"],
                    tournament_order=data["tournament_order"] or None,
                )
            except services.DomainError as error:
                _form_errors(form, error)
            else:
                if changed:
                    what = ", ".join(str(CHANGED_LABELS.get(f, f)) for f in changed)
                    done = _("%(stage)s: %(changes)s changed.") % {
                        "stage": stage.name,
                        "changes": what,
                    }
                else:
                    done = _("%(stage)s: nothing changed.") % {"stage": stage.name}
                messages.success(request, done)
                if not request.htmx:
                    return redirect("organiser:stages", slug=slug)
                # The edit form targets itself; the saved list replaces the whole body.
                body = render(request, "organiser/stages.html#stages-body", _context(tournament))
                return reswap(retarget(body, "#stages-body"), "outerHTML")
    if request.htmx:
        context = {"tournament": tournament, "stage": stage, "edit_form": form}
        return render(request, "organiser/stages.html#stage-edit", context, status=status)
    context = _context(tournament, stage=stage, edit_form=form)
    return render(request, "organiser/stages.html", context, status=status)


@login_required
@require_POST
def delete_stage(request: HtmxHttpRequest, slug: str, stage_id: int) -> HttpResponse:
    tournament = _tournament(request, slug)
    stage = _stage(tournament, stage_id)
    status = 200
    try:
        services.delete_stage(stage, request.user)
    except services.DomainError as error:
        messages.error(request, in_active_language(error.message_en, error.message_ja))
        status = 422
    else:
        messages.success(request, _("%(stage)s deleted.") % {"stage": stage.name})
    if not request.htmx:
        return redirect("organiser:stages", slug=slug)
    return render(request, "organiser/stages.html#stages-body", _context(tournament), status=status)


@login_required
@require_POST
def seed(request: HtmxHttpRequest, slug: str, stage_id: int) -> HttpResponse:
    """Set the entrants seeded straight into the stage (entrant numbers, spaces or commas)."""
    tournament = _tournament(request, slug)
    stage = _stage(tournament, stage_id)
    status = 200
    raw = request.POST.get("numbers", "")
    try:
        numbers = [int(n) for n in raw.replace(",", " ").replace("#", " ").split()]
        seeded = services.seed_entries(stage, request.user, numbers)
    except ValueError as error:
        status = 422
        messages.error(
            request,
            in_active_language(error.message_en, error.message_ja)
            if isinstance(error, services.DomainError)
            else _("Type entrant numbers, separated by spaces."),
        )
    else:
        if seeded:
            listed = ", ".join(f"#{e.number}" for e in seeded)
            done = _("%(stage)s: %(numbers)s seeded.") % {"stage": stage.name, "numbers": listed}
        else:
            done = _("%(stage)s: no entrant seeded.") % {"stage": stage.name}
        messages.success(request, done)
    if not request.htmx:
        return redirect("organiser:stages", slug=slug)
    return render(request, "organiser/stages.html#stages-body", _context(tournament), status=status)


@login_required
@require_GET
def preview(request: HtmxHttpRequest, slug: str, stage_id: int) -> HttpResponse:
    """Who would advance now, ties at the cut line flagged (or the final places)."""
    tournament = _tournament(request, slug)
    stage = _stage(tournament, stage_id)
    found = services.preview_advancement(stage, request.user)
    if request.htmx:
        context = {"tournament": tournament, "preview": found}
        return render(request, "organiser/stages.html#preview", context)
    return render(request, "organiser/stages.html", _context(tournament, preview=found))


@login_required
@require_POST
def create_playoff(request: HtmxHttpRequest, slug: str, stage_id: int) -> HttpResponse:
    """A playoff table for the tied entrants posted (`entry` ids), then to the dashboard to
    draw it."""
    tournament = _tournament(request, slug)
    stage = _stage(tournament, stage_id)
    try:
        ids = [int(pk) for pk in request.POST.getlist("entry")]
        playoff = services.create_playoff(stage, request.user, ids)
    except ValueError as error:
        message = (
            in_active_language(error.message_en, error.message_ja)
            if isinstance(error, services.DomainError)
            else _("Choose the tied entrants.")
        )
        found = services.preview_advancement(stage, request.user)
        if request.htmx:
            context = {"tournament": tournament, "preview": found, "playoff_error": message}
            return render(request, "organiser/stages.html#preview", context, status=422)
        context = _context(tournament, preview=found, playoff_error=message)
        return render(request, "organiser/stages.html", context, status=422)
    messages.success(
        request,
        _("%(playoff)s created: draw its table from the dashboard.") % {"playoff": playoff.name},
    )
    url = reverse("organiser:dashboard", args=[slug]) + f"#stage-{playoff.pk}"
    return HttpResponseClientRedirect(url) if request.htmx else redirect(url)
