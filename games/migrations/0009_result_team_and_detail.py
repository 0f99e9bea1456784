"""GameResult gains the family-neutral `team` and `detail` beside the 大富豪 columns, which
0010 empties into `detail` and 0011 removes (three steps: PostgreSQL refuses to alter a table
with rows updated earlier in the same transaction)."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0008_game_seating"),
    ]

    operations = [
        migrations.AddField(
            model_name="gameresult",
            name="team",
            field=models.PositiveSmallIntegerField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="gameresult",
            name="detail",
            field=models.JSONField(blank=True, default=dict),
        ),
    ]
