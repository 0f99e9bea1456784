"""Refusals of any official action: a refusal names its tournament (and round, table, game when
it has them), so an organiser's refused round step or draw is kept like a referee's move."""

import django.db.models.deletion
from django.db import migrations, models


def tournament_from_table(apps, schema_editor):
    RejectedSubmission = apps.get_model("games", "RejectedSubmission")
    for refusal in RejectedSubmission.objects.select_related("table__round__stage"):
        refusal.tournament_id = refusal.table.round.stage.tournament_id
        refusal.round_id = refusal.table.round_id
        refusal.save(update_fields=["tournament", "round"])


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0003_round_lifecycle"),
        ("tournaments", "0005_round_lifecycle"),
    ]

    operations = [
        migrations.AddField(
            model_name="rejectedsubmission",
            name="tournament",
            field=models.ForeignKey(
                null=True,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="rejected_submissions",
                to="tournaments.tournament",
            ),
        ),
        migrations.AddField(
            model_name="rejectedsubmission",
            name="round",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="rejected_submissions",
                to="tournaments.round",
            ),
        ),
        migrations.AlterField(
            model_name="rejectedsubmission",
            name="table",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="rejected_submissions",
                to="tournaments.table",
            ),
        ),
        migrations.RunPython(tournament_from_table, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="rejectedsubmission",
            name="tournament",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE,
                related_name="rejected_submissions",
                to="tournaments.tournament",
            ),
        ),
    ]
