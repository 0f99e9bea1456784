"""The 大富豪 columns of GameResult go: 0010 moved their values into `detail`."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0010_results_detail_from_columns"),
    ]

    operations = [
        migrations.RemoveField(model_name="gameresult", name="title"),
        migrations.RemoveField(model_name="gameresult", name="foul"),
        migrations.RemoveField(model_name="gameresult", name="miyako_ochi"),
    ]
