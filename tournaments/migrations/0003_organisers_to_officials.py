"""Move the old `Tournament.organisers` M2M rows into `Official(role="organiser")`, then drop it."""

from django.db import migrations


def organisers_to_officials(apps, schema_editor):
    Tournament = apps.get_model("tournaments", "Tournament")
    Official = apps.get_model("tournaments", "Official")
    for tournament in Tournament.objects.prefetch_related("organisers"):
        for user in tournament.organisers.all():
            Official.objects.get_or_create(tournament=tournament, user=user, role="organiser")


def officials_to_organisers(apps, schema_editor):
    Official = apps.get_model("tournaments", "Official")
    for official in Official.objects.filter(role="organiser").select_related("tournament"):
        official.tournament.organisers.add(official.user_id)


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0002_stages_rounds_tables_officials")]

    operations = [
        migrations.RunPython(organisers_to_officials, officials_to_organisers),
        migrations.RemoveField(model_name="tournament", name="organisers"),
    ]
