"""The per-title columns of Standing go: 0007 moved their counts into `metrics`."""

from django.db import migrations

COUNTS = ("daifugo", "fugo", "heimin", "hinmin", "daihinmin", "fouls", "miyako_ochi")


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0007_standing_metrics_from_columns"),
    ]

    operations = [migrations.RemoveField(model_name="standing", name=name) for name in COUNTS]
