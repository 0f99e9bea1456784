"""The organiser's page for importing a table's games played elsewhere (「棋譜を取り込む」):
an upload or pasted text of `kakumei-record/1` records, and what became of each
(`games.imports`). Mounted under the round's organiser pages; thin over the service.

The form posts with htmx and gets back the result partial (`#import-result`): each record
imported as a game (linked), recognised as imported before, or refused with the engine's
code, message and the give or move at fault. Without htmx the whole page is rendered again.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods
from django_htmx.middleware import HtmxDetails

from config.language import in_active_language
from games import imports
from games.services import GameError, next_game_or_refusal
from tournaments.models import Round, Table
from tournaments.selectors import organised_tournaments

PAGE = "organiser/import_records.html"
RESULT = "organiser/import_records.html#result"
# As much as the API takes in one request (API_MAX_BODY_BYTES' default): a few hundred games.
MAX_UPLOAD_BYTES = 1024 * 1024


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails


class RecordsForm(forms.Form):
    file = forms.FileField(
        required=False,
        label=gettext_lazy("File (.json or .jsonl)"),
        widget=forms.ClearableFileInput(attrs={"accept": ".json,.jsonl,.ndjson,application/json"}),
    )
    text = forms.CharField(
        required=False,
        label=gettext_lazy("…or paste the records"),
        widget=forms.Textarea(
            attrs={
                "rows": 6,
                "spellcheck": "false",
                "placeholder": '{"format": "kakumei-record/1", …}',
            }
        ),
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        upload = data.get("file")
        parts: list[str] = []
        if upload is not None:
            if upload.size > MAX_UPLOAD_BYTES:
                raise forms.ValidationError(_("The file is larger than 1 MB: split it."))
            try:
                parts.append(upload.read().decode("utf-8"))
            except UnicodeDecodeError:
                raise forms.ValidationError(_("The file is not UTF-8 text.")) from None
        if data.get("text", "").strip():
            parts.append(data["text"])
        if not parts:
            raise forms.ValidationError(_("Choose a file or paste the records."))
        data["records"] = [record for part in parts for record in imports.read_records(part)]
        return data


def _table_for_organiser(request: HttpRequest, slug: str, round_id: int, table_id: int) -> Table:
    """The table, if the user organises its tournament: other people's are simply not found."""
    tournament = get_object_or_404(organised_tournaments(request.user), slug=slug)
    round_ = get_object_or_404(Round, pk=round_id, stage__tournament=tournament)
    return get_object_or_404(
        Table.objects.select_related("round__stage__tournament"), pk=table_id, round=round_
    )


def place_text(outcome: imports.ImportOutcome) -> str:
    """The give or move a refusal names, in the page's language ("5手目"), and in a match
    record the hand ("第2局 5手目")."""
    hand = _("Hand %(number)s") % {"number": outcome.hand} if outcome.hand else ""
    if outcome.move_number is None:
        return hand
    if outcome.section == "exchange":
        move = _("Exchange give %(number)s") % {"number": outcome.move_number}
    else:
        move = _("Move %(number)s") % {"number": outcome.move_number}
    return _("%(hand)s, %(move)s") % {"hand": hand, "move": move} if hand else move


def _rows(outcomes: list[imports.ImportOutcome]) -> list[dict[str, Any]]:
    return [
        {
            "outcome": o,
            "message": in_active_language(o.message_en, o.message_ja),
            "place": place_text(o),
        }
        for o in outcomes
    ]


def _context(table: Table, **extra: Any) -> dict[str, Any]:
    nxt = next_game_or_refusal(table)
    return {
        "tournament": table.round.stage.tournament,
        "round": table.round,
        "table": table,
        "games": list(table.games.order_by("set_number", "game_number", "attempt")),
        "next_game": None if isinstance(nxt, GameError) else nxt,
        "next_refusal": (
            in_active_language(nxt.message_en, nxt.message_ja) if isinstance(nxt, GameError) else ""
        ),
        "max_records": imports.MAX_RECORDS,
        "plays_in_teams": table.round.stage.tournament.plays_in_teams,
        **extra,
    }


@login_required
@require_http_methods(["GET", "POST"])
def import_records(
    request: HtmxHttpRequest, slug: str, round_id: int, table_id: int
) -> HttpResponse:
    """GET: the upload form and the table's games. POST: import every record of the file and
    the pasted text, in order; each one's outcome (imported, duplicate, refused) is listed."""
    table = _table_for_organiser(request, slug, round_id, table_id)
    if request.method == "GET":
        return render(request, PAGE, _context(table, form=RecordsForm()))
    form = RecordsForm(request.POST, request.FILES)
    template = RESULT if request.htmx else PAGE
    if not form.is_valid():
        return render(request, template, _context(table, form=form), status=422)
    try:
        outcomes = imports.import_records(table, request.user, form.cleaned_data["records"])
    except GameError as error:
        refused = in_active_language(error.message_en, error.message_ja)
        context = _context(table, form=form, refused=refused, code=error.code)
        return render(request, template, context, status=422)
    imported = [o for o in outcomes if o.imported]
    return render(
        request,
        template,
        _context(
            table,
            form=RecordsForm(),
            rows=_rows(outcomes),
            # Games, not records: a 掼蛋 match record brings in every hand of it.
            imported=sum(len(o.games) or 1 for o in imported),
            refused_count=sum(o.status == "refused" for o in outcomes),
            duplicates=sum(o.status == "duplicate" for o in outcomes),
        ),
        status=200 if imported or not any(o.status == "refused" for o in outcomes) else 422,
    )
