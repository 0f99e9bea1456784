"""Forms for the organiser pages and the public deal check."""

from __future__ import annotations

from collections.abc import Sequence

from django import forms

from tournaments.models import Tournament
from tournaments.points import PRESETS as POINTS_PRESETS
from tournaments.rulesets import ruleset_choices


class TournamentFromPresetForm(forms.Form):
    name = forms.CharField(label="Name 大会名", max_length=200)
    slug = forms.SlugField(
        label="Address アドレス",
        max_length=80,
        help_text="Used in the tournament's web addresses, e.g. nagoya-open-2026. "
        "半角英数字とハイフン。",
    )
    ruleset = forms.ChoiceField(label="Ruleset preset ルール", choices=ruleset_choices)
    points_preset = forms.ChoiceField(
        label="Points table 順位点",
        choices=[(key, label) for key, (label, _) in POINTS_PRESETS.items()],
        help_text="The JDF's own points per title are not published; pick a labelled preset.",
    )
    games_per_set = forms.IntegerField(
        label="Games a set 1セットのゲーム数", min_value=1, max_value=20, initial=4
    )
    sets_per_round = forms.IntegerField(
        label="Sets a round 1回戦のセット数", min_value=1, max_value=10, initial=3
    )
    table_size = forms.IntegerField(
        label="Table size 卓の人数", min_value=3, max_value=5, initial=4
    )
    uneven_tables = forms.ChoiceField(
        label="When the field does not divide into full tables 端数の扱い",
        choices=Tournament.UnevenTables.choices,
        initial=Tournament.UnevenTables.SHORT,
        help_text="Can change on the dashboard until a round of the stage is published.",
    )
    bye_points = forms.IntegerField(
        label="Points for a bye 不戦の点",
        min_value=-1000,
        max_value=1000,
        initial=0,
        required=False,
        help_text="Scored by a player who sits out a round (byes only).",
    )
    venue = forms.CharField(label="Venue 会場", max_length=200, required=False)
    starts_on = forms.DateField(
        label="Starts on 開始日", required=False, widget=forms.DateInput(attrs={"type": "date"})
    )

    def clean_bye_points(self) -> int:
        return int(self.cleaned_data.get("bye_points") or 0)


class CsvImportForm(forms.Form):
    file = forms.FileField(
        label="CSV file",
        help_text="Header row: number, display_name, name_kana, email (only display_name is "
        "required). UTF-8 (with or without BOM) or Shift_JIS, as Japanese Excel saves it. "
        "You see a preview before anything is imported. 取り込む前に確認画面が出ます。",
    )


class CsvConfirmForm(forms.Form):
    """The previewed file, signed by the server: importing it creates exactly the preview."""

    preview = forms.CharField(widget=forms.HiddenInput)


class EntrantForm(forms.Form):
    """An entrant's details: a walk-in, or an edit of an entrant."""

    display_name = forms.CharField(label="Name 名前", max_length=80)
    name_kana = forms.CharField(label="Kana ふりがな", max_length=80, required=False)
    email = forms.EmailField(
        label="E-mail メール",
        required=False,
        help_text="Optional; recognises a returning player. Never shown publicly.",
    )
    number = forms.IntegerField(
        label="Entrant No. 番号",
        min_value=1,
        required=False,
        help_text="Blank: the next free number. 空欄なら次の番号。",
    )


class WalkInForm(EntrantForm):
    check_in = forms.BooleanField(label="Checked in now 受付済み", required=False)


class WithdrawForm(forms.Form):
    reason = forms.CharField(
        label="Reason 理由",
        max_length=300,
        help_text="Kept in the audit record. 監査記録に残ります。",
    )


class ReinstateForm(forms.Form):
    reason = forms.CharField(label="Reason 理由", max_length=300, required=False)


class SubstituteForm(forms.Form):
    """Who takes the seat: an entrant not seated in the round, or a new person."""

    substitute = forms.TypedChoiceField(
        label="Existing entrant 既存の参加者",
        coerce=int,
        required=False,
        empty_value=None,
    )
    display_name = forms.CharField(
        label="…or a new person: name 新しい方の名前", max_length=80, required=False
    )
    name_kana = forms.CharField(label="Kana ふりがな", max_length=80, required=False)
    email = forms.EmailField(label="E-mail メール", required=False)
    reason = forms.CharField(label="Reason 理由", max_length=300)

    def __init__(
        self, *args: object, choices: Sequence[tuple[int | str, str]] = (), **kwargs: object
    ) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.fields["substitute"].choices = [("", "— a new person below —"), *choices]  # type: ignore[attr-defined]

    def clean(self) -> dict[str, object]:
        data = super().clean() or {}
        has_existing = data.get("substitute") is not None
        has_new = bool((data.get("display_name") or "").strip())
        if has_existing == has_new:
            raise forms.ValidationError(
                "Choose an existing entrant or enter a new person's name (one of the two). "
                "既存の参加者を選ぶか、新しい方の名前を入力してください。"
            )
        return data


class VerifyDealForm(forms.Form):
    table = forms.IntegerField(min_value=1)
    set_number = forms.IntegerField(label="Set", min_value=1)
    game = forms.IntegerField(min_value=1)
    # A voided game re-dealt is the same game again with a new deal (attempt 2, 3…).
    attempt = forms.IntegerField(min_value=1, initial=1, required=False)


# --- stages, settings, leagues and seasons (issue #12) -----------------------------------------


class StageForm(forms.Form):
    """A new cut or final, or an edit of a stage. For a new stage the rule is who advances INTO
    it (stored on the previous stage); when editing, who advances OUT of the stage edited."""

    name = forms.CharField(label="Name 名前", max_length=120, required=False)
    kind = forms.ChoiceField(
        label="Kind 種別",
        choices=[("cut", "Cut 準決勝"), ("final", "Final 決勝")],
    )
    advance_top_n = forms.IntegerField(
        label="Top N by total points 総合上位N名", min_value=0, required=False
    )
    advance_top_k_per_table = forms.IntegerField(
        label="Top K of each table 各卓上位K名", min_value=0, max_value=5, required=False
    )
    carry_over_totals = forms.BooleanField(
        label="Carry totals over from earlier stages 前ステージの得点を持ち越す", required=False
    )


class TournamentSettingsForm(forms.Form):
    """Every setting an organiser may change (the ruleset is pinned: shown, never edited)."""

    name = forms.CharField(label="Name 大会名", max_length=200)
    starts_on = forms.DateField(
        label="Starts on 開始日", required=False, widget=forms.DateInput(attrs={"type": "date"})
    )
    ends_on = forms.DateField(
        label="Ends on 終了日", required=False, widget=forms.DateInput(attrs={"type": "date"})
    )
    venue = forms.CharField(label="Venue 会場", max_length=200, required=False)
    season = forms.TypedChoiceField(
        label="Season シーズン", required=False, coerce=int, empty_value=None
    )
    status = forms.ChoiceField(label="Status 状態")
    points_preset = forms.ChoiceField(label="Points table 順位点")
    places_3 = forms.CharField(
        label="Custom: 3-player table 3人卓", required=False, help_text="e.g. 2 1 0"
    )
    places_4 = forms.CharField(
        label="Custom: 4-player table 4人卓", required=False, help_text="e.g. 3 2 1 0"
    )
    places_5 = forms.CharField(
        label="Custom: 5-player table 5人卓", required=False, help_text="e.g. 4 3 2 1 0"
    )
    last_game_bonus = forms.CharField(
        label="Last-game bonus 最終ゲームボーナス",
        required=False,
        help_text="place:points, e.g. 1:20 (extra points in the last game of a set)",
    )
    tie_breaks = forms.CharField(
        label="Tie-break keys タイブレーク",
        required=False,
        help_text="In order, separated by spaces.",
    )
    games_per_set = forms.IntegerField(label="Games a set 1セットのゲーム数", min_value=1)
    sets_per_round = forms.IntegerField(label="Sets a round 1回戦のセット数", min_value=1)
    table_size = forms.IntegerField(label="Table size 卓の人数", min_value=3, max_value=5)
    uneven_tables = forms.ChoiceField(label="When the field does not divide 端数の扱い")
    bye_points = forms.IntegerField(label="Points for a bye 不戦の得点")
    undo_requires_approval = forms.BooleanField(
        label="An undo waits for the head referee 取り消しは主審の承認制", required=False
    )
    forfeit_others = forms.ChoiceField(label="After a player leaves mid-game 途中棄権時の順位")
    forfeit_leaver_points = forms.IntegerField(
        label="Points for the leaver 棄権者の得点",
        required=False,
        help_text="Blank: last place's points.",
    )

    def __init__(
        self,
        *args: object,
        seasons: Sequence[tuple[int | str, str]] = (),
        presets: Sequence[tuple[str, str]] = (),
        statuses: Sequence[tuple[str, str]] = (),
        uneven: Sequence[tuple[str, str]] = (),
        forfeit: Sequence[tuple[str, str]] = (),
        **kwargs: object,
    ) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.fields["season"].choices = [("", "— none —"), *seasons]  # type: ignore[attr-defined]
        self.fields["points_preset"].choices = presets  # type: ignore[attr-defined]
        self.fields["status"].choices = statuses  # type: ignore[attr-defined]
        self.fields["uneven_tables"].choices = uneven  # type: ignore[attr-defined]
        self.fields["forfeit_others"].choices = forfeit  # type: ignore[attr-defined]


class LeagueForm(forms.Form):
    name = forms.CharField(label="Name 名前", max_length=200)
    slug = forms.SlugField(label="Address アドレス", max_length=80, help_text="e.g. jdf-cup")


class SeasonForm(forms.Form):
    name = forms.CharField(label="Name 名前", max_length=120)
    slug = forms.SlugField(label="Address アドレス", max_length=80, help_text="e.g. 2026")
