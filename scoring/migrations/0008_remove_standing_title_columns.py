"""The per-title columns of Standing go: 0007 moved their counts into `metrics`. So does the
check that the 大富豪 and foul counts stay within the games played: it named two of those
columns, and a family's metrics are not all bounded by the games (a metric may sum a value)."""

from django.db import migrations

COUNTS = ("daifugo", "fugo", "heimin", "hinmin", "daihinmin", "fouls", "miyako_ochi")


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0007_standing_metrics_from_columns"),
    ]

    operations = [
        migrations.RemoveConstraint(model_name="standing", name="standing_counts_within_games"),
        *(migrations.RemoveField(model_name="standing", name=name) for name in COUNTS),
    ]
