"""Forms for the organiser pages and the public deal check."""

from __future__ import annotations

from django import forms

from tournaments.points import PRESETS as POINTS_PRESETS
from tournaments.rulesets import ruleset_choices


class TournamentFromPresetForm(forms.Form):
    name = forms.CharField(max_length=200)
    slug = forms.SlugField(max_length=80, help_text="Used in addresses, e.g. nagoya-open-2026.")
    ruleset = forms.ChoiceField(label="Ruleset preset ルール", choices=ruleset_choices)
    points_preset = forms.ChoiceField(
        label="Points table 順位点",
        choices=[(key, label) for key, (label, _) in POINTS_PRESETS.items()],
        help_text="The JDF's own points per title are not published; pick a labelled preset.",
    )
    games_per_set = forms.IntegerField(min_value=1, max_value=20, initial=4)
    sets_per_round = forms.IntegerField(min_value=1, max_value=10, initial=3)
    table_size = forms.IntegerField(min_value=3, max_value=5, initial=4)
    allow_short_tables = forms.BooleanField(
        required=False,
        initial=True,
        label="Tables one short when the field does not divide (else byes)",
    )
    venue = forms.CharField(max_length=200, required=False)
    starts_on = forms.DateField(required=False, widget=forms.DateInput(attrs={"type": "date"}))


class CsvImportForm(forms.Form):
    file = forms.FileField(
        label="CSV file",
        help_text="Header row: number, display_name, name_kana, email (only display_name is "
        "required). UTF-8, with or without BOM.",
    )


class VerifyDealForm(forms.Form):
    table = forms.IntegerField(min_value=1)
    set_number = forms.IntegerField(label="Set", min_value=1)
    game = forms.IntegerField(min_value=1)
    # A voided game re-dealt is the same game again with a new deal (attempt 2, 3…).
    attempt = forms.IntegerField(min_value=1, initial=1, required=False)
