"""Standing gains `metrics` (the family's metric counts by key); the per-title columns get a
default so that 0008's removal can be undone on a table with rows."""

from django.db import migrations, models

COUNTS = ("daifugo", "fugo", "heimin", "hinmin", "daihinmin", "fouls", "miyako_ochi")


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0005_standings_queue_fewer_indexes"),
    ]

    operations = [
        migrations.AddField(
            model_name="standing",
            name="metrics",
            field=models.JSONField(blank=True, default=dict),
        ),
        *(
            migrations.AlterField(
                model_name="standing", name=name, field=models.PositiveIntegerField(default=0)
            )
            for name in COUNTS
        ),
    ]
