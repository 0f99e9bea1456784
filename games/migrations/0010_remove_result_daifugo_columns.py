"""The 大富豪 columns of GameResult go: 0009 moved their values into `detail`."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0009_results_detail_from_columns"),
    ]

    operations = [
        migrations.RemoveField(model_name="gameresult", name="title"),
        migrations.RemoveField(model_name="gameresult", name="foul"),
        migrations.RemoveField(model_name="gameresult", name="miyako_ochi"),
    ]
